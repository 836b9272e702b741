-- Roles, material management, the unanswered log's detail and conversations (issue 13).

-- A private note lives under its owner's own material key, so it can never replace or hide
-- a subject material or another user's note (services.common.materials.material_key).
-- Notes stored before this migration shared the subject/filename namespace: move them.
UPDATE materials
   SET material_key = subject_id || '/private:' || owner_id || '/' || filename
 WHERE visibility = 'private'
   AND material_key = subject_id || '/' || filename;

-- Who uploaded what, so the materials view can show uploads still in flight.
ALTER TABLE ingest_jobs
    ADD COLUMN user_id  text NOT NULL DEFAULT '',
    ADD COLUMN filename text NOT NULL DEFAULT '';
CREATE INDEX ingest_jobs_material ON ingest_jobs (material_id);
CREATE INDEX ingest_jobs_subject_recent ON ingest_jobs (subject_id, updated_at DESC);

CREATE INDEX materials_key_version ON materials (material_key, version DESC);

-- The unanswered log says what was missing and what came closest, and can be resolved.
ALTER TABLE unanswered
    ADD COLUMN missing_tasks jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN best_passages jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN resolved_at   timestamptz,
    ADD COLUMN resolved_by   text,
    ADD COLUMN resolution    text NOT NULL DEFAULT '';
CREATE INDEX unanswered_subject_open ON unanswered (subject_id, created_at DESC)
    WHERE resolved_at IS NULL;

-- Follow-up questions: the turns of one conversation, in order.
ALTER TABLE sessions ADD COLUMN conversation_id text;
CREATE INDEX sessions_conversation ON sessions (conversation_id, created_at)
    WHERE conversation_id IS NOT NULL;
