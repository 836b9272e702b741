-- Search support: BM25 corpus statistics kept in step with chunks, and a
-- per-chunk term-frequency map so BM25 scores one chunk in O(query terms).
--
-- Statistics are kept per (subject, owner_key), where owner_key is 'subject'
-- for subject-visible materials and 'private:<owner>' for private ones, so
-- the corpus a caller can search (subject-visible + own private, active only)
-- is an exact sum of two rows: IDF and average length come from exactly the
-- searchable chunks, never from someone else's private material.
-- Maintained by statement-level triggers on chunks (COPY fires them too).
-- A material's visibility is not expected to change in place; new versions
-- are new rows (services.common.materials.store_material).

CREATE TABLE search_scope_stats (
    subject_id   text   NOT NULL,
    owner_key    text   NOT NULL,
    n_chunks     bigint NOT NULL,
    total_terms  bigint NOT NULL,
    PRIMARY KEY (subject_id, owner_key)
);

CREATE TABLE search_term_df (
    subject_id  text   NOT NULL,
    owner_key   text   NOT NULL,
    term        text   NOT NULL,
    df          bigint NOT NULL,
    PRIMARY KEY (subject_id, owner_key, term)
);

CREATE FUNCTION search_owner_key(visibility text, owner_id text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE WHEN visibility = 'private' THEN 'private:' || owner_id ELSE 'subject' END $$;

-- term -> occurrences, for the BM25 tf of each query term without scanning the array.
CREATE FUNCTION search_term_tf(terms text[]) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce(jsonb_object_agg(t, n), '{}'::jsonb)
          FROM (SELECT t, count(*) AS n FROM unnest(terms) AS t GROUP BY t) AS counted $$;

ALTER TABLE chunks ADD COLUMN term_tf jsonb GENERATED ALWAYS AS (search_term_tf(terms)) STORED;

-- Apply +1/-1 per active chunk in the transition rows to the statistics.
-- Called by the triggers below with a temp table "search_delta" in scope.
CREATE FUNCTION search_apply_delta() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_scope_stats (subject_id, owner_key, n_chunks, total_terms)
    SELECT d.subject_id, search_owner_key(m.visibility, m.owner_id),
           sum(d.sign), sum(d.sign * d.term_count)
    FROM search_delta d JOIN materials m ON m.material_id = d.material_id
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT (subject_id, owner_key) DO UPDATE
        SET n_chunks = search_scope_stats.n_chunks + EXCLUDED.n_chunks,
            total_terms = search_scope_stats.total_terms + EXCLUDED.total_terms;

    INSERT INTO search_term_df (subject_id, owner_key, term, df)
    SELECT d.subject_id, search_owner_key(m.visibility, m.owner_id), t.term, sum(d.sign)
    FROM search_delta d
    JOIN materials m ON m.material_id = d.material_id
    CROSS JOIN LATERAL (SELECT DISTINCT u AS term FROM unnest(d.terms) AS u) AS t
    GROUP BY 1, 2, 3
    HAVING sum(d.sign) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (subject_id, owner_key, term) DO UPDATE
        SET df = search_term_df.df + EXCLUDED.df;
END $$;

CREATE FUNCTION search_stats_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS search_delta
        (material_id uuid, subject_id text, terms text[], term_count int, sign int)
        ON COMMIT DROP;
    TRUNCATE search_delta;
    INSERT INTO search_delta
        SELECT material_id, subject_id, terms, term_count, 1 FROM new_rows WHERE is_active;
    PERFORM search_apply_delta();
    RETURN NULL;
END $$;

CREATE FUNCTION search_stats_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS search_delta
        (material_id uuid, subject_id text, terms text[], term_count int, sign int)
        ON COMMIT DROP;
    TRUNCATE search_delta;
    INSERT INTO search_delta
        SELECT material_id, subject_id, terms, term_count, -1 FROM old_rows WHERE is_active
        UNION ALL
        SELECT material_id, subject_id, terms, term_count, 1 FROM new_rows WHERE is_active;
    PERFORM search_apply_delta();
    RETURN NULL;
END $$;

CREATE FUNCTION search_stats_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS search_delta
        (material_id uuid, subject_id text, terms text[], term_count int, sign int)
        ON COMMIT DROP;
    TRUNCATE search_delta;
    INSERT INTO search_delta
        SELECT material_id, subject_id, terms, term_count, -1 FROM old_rows WHERE is_active;
    PERFORM search_apply_delta();
    RETURN NULL;
END $$;

CREATE TRIGGER chunks_search_stats_insert AFTER INSERT ON chunks
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_on_insert();
CREATE TRIGGER chunks_search_stats_update AFTER UPDATE ON chunks
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_on_update();
CREATE TRIGGER chunks_search_stats_delete AFTER DELETE ON chunks
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_stats_on_delete();

-- Neighbours (ordinal +- 1) are looked up per candidate.
CREATE INDEX chunks_material_ordinal_active ON chunks (material_id, ordinal) WHERE is_active;
