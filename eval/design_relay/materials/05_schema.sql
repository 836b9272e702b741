-- =====================================================================
-- Tsunagi v2 スキーマ定義（PostgreSQL 16）
-- 文書番号: TG-DB-005  版 1.3（2026-02-02）  作成: 桐生 大和 / 早瀬 美咲
--
-- このファイルは 2 つのデータベースの定義を含む。
--   (A) 各業務 DB（教務・成績・施設）に置く outbox 表
--   (B) Tsunagi 本体の DB `tsunagi`（利用者設定・配信履歴・DLQ の写し）
-- 命名規則: 表名は複数形のスネークケース、時刻は必ず timestamptz、
--           真偽値の列名は is_ / has_ で始めない（enabled, muted のように書く）。
-- =====================================================================

-- ---------------------------------------------------------------------
-- (A) 業務 DB 側: outbox
-- ---------------------------------------------------------------------

CREATE TABLE outbox_events (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id         uuid        NOT NULL UNIQUE,          -- UUIDv7、業務側で採番
    aggregate_type   text        NOT NULL,
    aggregate_id     text        NOT NULL,                 -- Kafka のキー
    event_type       text        NOT NULL,                 -- 例: grade.published
    category         text        NOT NULL
        CHECK (category IN ('grade', 'deadline', 'class_change', 'emergency', 'general')),
    dedupe_key       text,                                 -- 業務側の二重書き込み防止（任意）
    payload          jsonb       NOT NULL
        CHECK (octet_length(payload::text) <= 65536),      -- 64 KiB まで
    created_at       timestamptz NOT NULL DEFAULT now(),
    published_at     timestamptz,                          -- NULL = 未発行
    publish_attempts smallint    NOT NULL DEFAULT 0
);

-- 中継が読むのは未発行行だけ。発行済みが大半なので部分インデックスにする。
CREATE INDEX outbox_unpublished_idx
    ON outbox_events (id)
    WHERE published_at IS NULL;

-- 掃除（発行済み 72 時間超の削除）用
CREATE INDEX outbox_published_at_idx
    ON outbox_events (published_at)
    WHERE published_at IS NOT NULL;

-- dedupe_key は書かれたときだけ一意
CREATE UNIQUE INDEX outbox_dedupe_key_uq
    ON outbox_events (dedupe_key)
    WHERE dedupe_key IS NOT NULL;

-- 中継専用ロール。outbox 以外の表には触れない。
CREATE ROLE tsunagi_relay LOGIN CONNECTION LIMIT 4;
GRANT SELECT, UPDATE (published_at, publish_attempts), DELETE
    ON outbox_events TO tsunagi_relay;

-- ---------------------------------------------------------------------
-- (B) Tsunagi 本体 DB
-- ---------------------------------------------------------------------

CREATE TYPE channel_kind   AS ENUM ('mail', 'push', 'lms');
CREATE TYPE delivery_state AS ENUM ('pending', 'sent', 'retrying', 'dead', 'suppressed');
CREATE TYPE platform_kind  AS ENUM ('android', 'ios', 'web');

-- 利用者。学籍番号・職員番号そのものは持たず、学内 ID 基盤 KGU-ID の内部 ID を使う。
CREATE TABLE users (
    user_id      bigint      PRIMARY KEY,                  -- KGU-ID の内部 ID
    role         text        NOT NULL CHECK (role IN ('student', 'staff', 'faculty')),
    mail_address text        NOT NULL,
    locale       text        NOT NULL DEFAULT 'ja',        -- 'ja' か 'en'
    quiet_start  time        NOT NULL DEFAULT '23:00',
    quiet_end    time        NOT NULL DEFAULT '07:00',
    time_zone    text        NOT NULL DEFAULT 'Asia/Tokyo',
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- 利用者 × カテゴリ × チャネルの受信設定。
-- 行がない組み合わせは category_defaults の値に従う。
CREATE TABLE user_channel_prefs (
    user_id    bigint       NOT NULL REFERENCES users ON DELETE CASCADE,
    category   text         NOT NULL,
    channel    channel_kind NOT NULL,
    enabled    boolean      NOT NULL,
    digest     boolean      NOT NULL DEFAULT false,       -- deadline でのみ意味を持つ
    updated_at timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, category, channel),
    CHECK (NOT digest OR category = 'deadline')
);

-- カテゴリごとの既定値（設定行がない利用者に適用）
CREATE TABLE category_defaults (
    category text         NOT NULL,
    channel  channel_kind NOT NULL,
    enabled  boolean      NOT NULL,
    PRIMARY KEY (category, channel)
);

INSERT INTO category_defaults (category, channel, enabled) VALUES
    ('grade',        'mail', true),  ('grade',        'push', true),  ('grade',        'lms', false),
    ('deadline',     'mail', false), ('deadline',     'push', true),  ('deadline',     'lms', true),
    ('class_change', 'mail', true),  ('class_change', 'push', true),  ('class_change', 'lms', true),
    ('emergency',    'mail', true),  ('emergency',    'push', true),  ('emergency',    'lms', true),
    ('general',      'mail', false), ('general',      'push', false), ('general',      'lms', true);

-- 端末トークン。失効（APNs 410 / FCM UNREGISTERED）で disabled_at を入れる。
CREATE TABLE device_tokens (
    token_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      bigint        NOT NULL REFERENCES users ON DELETE CASCADE,
    platform     platform_kind NOT NULL,
    token        text          NOT NULL UNIQUE,
    app_version  text,
    last_seen_at timestamptz   NOT NULL DEFAULT now(),
    disabled_at  timestamptz
);
CREATE INDEX device_tokens_active_idx ON device_tokens (user_id) WHERE disabled_at IS NULL;

-- 配信履歴。月ごとのパーティション。冪等キーの一意性はパーティション内で保つ。
-- 保持 180 日（FR-07）。古いパーティションは DETACH してから DROP する。
CREATE TABLE delivery_log (
    idempotency_key text           NOT NULL,   -- {event_id}:{user_id}:{channel}
    event_id        uuid           NOT NULL,
    user_id         bigint         NOT NULL,
    channel         channel_kind   NOT NULL,
    state           delivery_state NOT NULL DEFAULT 'pending',
    attempts        smallint       NOT NULL DEFAULT 0,
    last_error      text,                      -- 応答コードと分類のみ。本文は入れない
    created_at      timestamptz    NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    PRIMARY KEY (idempotency_key, created_at)
) PARTITION BY RANGE (created_at);

CREATE TABLE delivery_log_2026_02 PARTITION OF delivery_log
    FOR VALUES FROM ('2026-02-01') TO ('2026-03-01');
CREATE TABLE delivery_log_2026_03 PARTITION OF delivery_log
    FOR VALUES FROM ('2026-03-01') TO ('2026-04-01');

-- ゲートウェイは月の初日 00:00 で切った created_at を入れる（同月内の再送が衝突するように）。
-- 実際の書き込み時刻は sent_at と attempts から追う。
CREATE INDEX delivery_log_user_idx ON delivery_log (user_id, created_at DESC);

-- ダイジェスト待ち（deadline カテゴリ、毎朝 07:30 に 1 通へまとめる）
CREATE TABLE digest_queue (
    user_id     bigint      NOT NULL REFERENCES users ON DELETE CASCADE,
    event_id    uuid        NOT NULL,
    summary     text        NOT NULL CHECK (char_length(summary) <= 200),
    enqueued_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, event_id)
);

-- DLQ の写し。tgctl で検索・再投入するために Kafka の tsunagi.dlq.v1 を取り込んだもの。
CREATE TABLE dlq_entries (
    idempotency_key text        PRIMARY KEY,
    origin_topic    text        NOT NULL,
    attempts        smallint    NOT NULL,
    reason          text        NOT NULL,   -- 'exhausted' | 'permanent' | 'oversize' | 'schema'
    last_error      text,
    record          bytea       NOT NULL,   -- 元のレコード値（封筒 JSON）
    dead_at         timestamptz NOT NULL DEFAULT now(),
    requeued_at     timestamptz,
    requeued_by     text                    -- 再投入した運用者の KGU-ID
);
CREATE INDEX dlq_entries_open_idx ON dlq_entries (dead_at) WHERE requeued_at IS NULL;
