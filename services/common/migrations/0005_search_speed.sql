-- Search on pgvector 0.8 (issue 15): measured in `eduanima bench search`, figures in
-- services/searcher/README.md.
--
-- 1. Databases upgraded from the pgvector 0.6 server get the extension's new version.
-- 2. embedding_half: the embedding as halfvec, 1 KB kept inline (STORAGE PLAIN). The float
--    embedding (2 KB) is TOASTed, so a scan that read it paid a detoast per row; scans now
--    read halfvec and re-rank only the rows they keep on the float column.
-- 3. The HNSW index moves to embedding_half, built with ef_construction 200: the bench's
--    clustered vectors (near-duplicate notes) left whole clusters unreachable at 64.
-- 4. BM25 candidates: one GIN over (subject_id, terms) (btree_gin), so the subject and the
--    terms intersect inside the index. With a GIN over terms alone the planner scanned a
--    small subject's rows and read every row's terms array (23 ms p50 at 3,700 chunks).
-- 5. The character list (services/searcher/chars.py): a pg_trgm GIN over the chunk text, for
--    ILIKE '%identifier%' (15 MB at 100,000 chunks: the C locale indexes ASCII words only).
CREATE EXTENSION IF NOT EXISTS vector;
ALTER EXTENSION vector UPDATE;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The index builds below keep their graph in memory up to this much (the default 64 MB
-- makes a 100,000-chunk HNSW build page out and take minutes longer).
SET LOCAL maintenance_work_mem = '512MB';

ALTER TABLE chunks ADD COLUMN embedding_half halfvec(512) STORAGE PLAIN
    GENERATED ALWAYS AS (embedding::halfvec(512)) STORED;

DROP INDEX chunks_embedding;
CREATE INDEX chunks_embedding_half ON chunks
    USING hnsw (embedding_half halfvec_cosine_ops) WITH (m = 16, ef_construction = 200);

DROP INDEX chunks_terms;
CREATE INDEX chunks_subject_terms ON chunks USING gin (subject_id, terms) WHERE is_active;

CREATE INDEX chunks_text_trgm ON chunks USING gin (text gin_trgm_ops) WHERE is_active;

ANALYZE chunks;
