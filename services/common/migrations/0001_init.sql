-- eduanima schema v1: subjects, enrollments, materials, chunks, ingest jobs,
-- question sessions with their evidence, and the unanswered log.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE subjects (
    subject_id  text PRIMARY KEY,
    title       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE enrollments (
    subject_id  text NOT NULL REFERENCES subjects ON DELETE CASCADE,
    user_id     text NOT NULL,
    role        text NOT NULL CHECK (role IN ('teacher', 'student')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subject_id, user_id)
);

-- One embedding space per database: the first embedder to store a vector
-- records itself here, and any other is refused rather than mixed in.
CREATE TABLE embedding_space (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    embedder    text NOT NULL,
    dimension   int  NOT NULL
);

-- A material is one version of one document. material_key names the document
-- across versions (subject + filename by default); only one version is active.
CREATE TABLE materials (
    material_id   uuid PRIMARY KEY,
    material_key  text NOT NULL,
    subject_id    text NOT NULL REFERENCES subjects,
    owner_id      text NOT NULL,
    visibility    text NOT NULL CHECK (visibility IN ('subject', 'private')),
    title         text NOT NULL,
    filename      text NOT NULL,
    mime_type     text NOT NULL,
    sha256        text NOT NULL,
    blob_uri      text NOT NULL,
    version       int  NOT NULL,
    is_active     boolean NOT NULL DEFAULT true,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (material_key, version)
);
CREATE UNIQUE INDEX materials_one_active ON materials (material_key) WHERE is_active;
CREATE INDEX materials_subject ON materials (subject_id) WHERE is_active;

CREATE TABLE chunks (
    chunk_id      uuid PRIMARY KEY,
    material_id   uuid NOT NULL REFERENCES materials ON DELETE CASCADE,
    subject_id    text NOT NULL,
    ordinal       int  NOT NULL,
    page          int,
    heading_path  text[] NOT NULL DEFAULT '{}',
    text          text NOT NULL,
    -- lexical terms from services.common.text (one entry per occurrence) and
    -- their count, for BM25 length normalisation
    terms         text[] NOT NULL,
    term_count    int  NOT NULL,
    embedding     vector(512) NOT NULL,
    is_active     boolean NOT NULL DEFAULT true,
    UNIQUE (material_id, ordinal)
);
CREATE INDEX chunks_terms ON chunks USING gin (terms);
CREATE INDEX chunks_subject ON chunks (subject_id) WHERE is_active;
CREATE INDEX chunks_embedding ON chunks
    USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64);

CREATE TABLE ingest_jobs (
    idempotency_key text PRIMARY KEY,
    job_id          text NOT NULL,
    subject_id      text NOT NULL,
    status          text NOT NULL CHECK (status IN ('PENDING', 'STORED', 'DUPLICATE', 'FAILED')),
    material_id     uuid,
    error           text,
    attempts        int NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
    session_id    text PRIMARY KEY,
    subject_id    text NOT NULL,
    user_id       text NOT NULL,
    question      text NOT NULL,
    status        text NOT NULL,
    stop_reason   text,
    answer        text,
    citations     jsonb NOT NULL DEFAULT '[]',
    evidence      jsonb NOT NULL DEFAULT '[]',
    iterations    int NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz
);

CREATE TABLE unanswered (
    session_id   text PRIMARY KEY REFERENCES sessions,
    subject_id   text NOT NULL,
    user_id      text NOT NULL,
    question     text NOT NULL,
    reason       text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
