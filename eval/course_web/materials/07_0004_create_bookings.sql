-- roomie-api/migrations/0004_create_bookings.sql
-- WEB-3120 演習3 の模範マイグレーション（2026年5月22日 早瀬）
--
-- 予約テーブルを作る。重複予約の防止はアプリ側の SELECT ではなく、
-- 排他制約（EXCLUDE USING gist）で DB に任せる。同時に2つの要求が来ても
-- 片方は必ず 23P01 で失敗し、API はそれを 409 Conflict にする。
--
-- 往復テスト：make migrate-up → make migrate-down を2回ずつ。
-- 計測（演習室の PC、seed/large.sql を入れた DB で）：Up 1.8 秒、Down 0.2 秒。

-- +goose Up
-- +goose StatementBegin

-- 範囲型の排他制約で room_id（整数）の等号も使うために必要な拡張。
-- 演習用 DB では作成済みだが、本番で初回に流すときのために書いておく。
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE bookings (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id       integer     NOT NULL REFERENCES rooms (id) ON DELETE RESTRICT,
    user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    start_at      timestamptz NOT NULL,
    end_at        timestamptz NOT NULL,
    memo          text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    cancelled_at  timestamptz,

    -- 利用時間は 15 分以上 180 分以下（ハンドラの検証と同じ値。二重に守る）
    CONSTRAINT bookings_duration_chk
        CHECK (end_at - start_at BETWEEN interval '15 minutes' AND interval '180 minutes'),

    -- メモは 500 文字まで（char_length は文字数を数える）
    CONSTRAINT bookings_memo_len_chk
        CHECK (char_length(memo) <= 500),

    -- 同じ部屋で時間帯が重なる有効な予約を禁止する。
    -- '[)' は「開始を含み終了を含まない」半開区間。13:00〜14:00 と 14:00〜15:00 は重ならない。
    CONSTRAINT bookings_no_overlap
        EXCLUDE USING gist (
            room_id WITH =,
            tstzrange(start_at, end_at, '[)') WITH &&
        ) WHERE (cancelled_at IS NULL)
);

-- 「自分の予約」一覧（user_id で絞って start_at で並べる）のための索引。
-- 取り消し済みは一覧に出さないので部分索引にする。
CREATE INDEX bookings_user_start_idx
    ON bookings (user_id, start_at)
    WHERE cancelled_at IS NULL;

-- 部屋一覧の ETag 用。rooms か bookings の定義を変えたら version を 1 増やす。
INSERT INTO table_versions (name, version) VALUES ('bookings', 1)
    ON CONFLICT (name) DO UPDATE SET version = table_versions.version + 1;

COMMENT ON TABLE bookings IS '会議室の予約。論理削除（cancelled_at）で取り消す';
COMMENT ON COLUMN bookings.memo IS '利用者の自由記述。表示時は必ずエスケープする（第6回 XSS）';

-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DELETE FROM table_versions WHERE name = 'bookings';
DROP TABLE IF EXISTS bookings;
-- btree_gist は他のテーブルでも使う可能性があるので、Down では消さない。
-- +goose StatementEnd
