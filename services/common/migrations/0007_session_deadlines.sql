-- A session's deadline (asked at + the question's time limit), for the professor's sweep of
-- sessions no answer came back for (services/professor/sweep.py): a message a stage
-- dead-lettered without an outcome, or a stage down for longer than the time limit.
-- Sessions still running from before this migration get the default limit (120 s).
ALTER TABLE sessions ADD COLUMN deadline_at timestamptz;
UPDATE sessions SET deadline_at = created_at + interval '120 seconds' WHERE finished_at IS NULL;
CREATE INDEX sessions_unfinished_deadline ON sessions (deadline_at) WHERE finished_at IS NULL;
