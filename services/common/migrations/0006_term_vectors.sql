-- Cross-lingual query terms (services/searcher/translation.py): a vector per vocabulary
-- word (services.common.text.vocabulary_terms), from the database's one embedder
-- (embedding_space), written by whoever stores a material. A word's vector does not
-- depend on the subject, so each word is embedded once; the searcher reads the words of
-- a subject's scope through search_term_df.
--
-- Materials stored before this migration have no words here until `eduanima db words`
-- embeds them (or they are stored again): until then they are searched without translations.
-- stored_at tells the searcher's kept vocabularies that words came (max over the index).
CREATE TABLE term_vectors (
    term       text PRIMARY KEY,
    script     text NOT NULL CHECK (script IN ('ja', 'latin')),
    embedding  halfvec(512) NOT NULL,
    stored_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX term_vectors_stored_at ON term_vectors (stored_at);

-- The script a chunk is written in. The searcher translates a question only into a script
-- enough of the scope's notes are written in: into English for Japanese notes, 建築家 →
-- architect only lifted paragraphs that name an English institute in passing.
-- Japanese unless Latin letters outnumber the Japanese characters (kana, kanji) three to
-- one: a kanji carries about as much as a short English word. services.common.text's
-- text_script applies the same rule to a question.
CREATE FUNCTION search_text_script(body text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE
              WHEN length(regexp_replace(body, '[^A-Za-z]', '', 'g'))
                   > 3 * length(regexp_replace(body, '[^぀-ヿ㐀-䶿一-鿿]', '', 'g'))
              THEN 'latin' ELSE 'ja' END $$;

ALTER TABLE chunks ADD COLUMN script text GENERATED ALWAYS AS (search_text_script(text)) STORED;
