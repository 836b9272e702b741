-- =====================================================================
-- Kagari v2 データベーススキーマ（PostgreSQL 16）
-- 文書 ID: KG-DB-002 / 管理: 宗像 亮 / 最終更新: 2026-02-14
-- 適用: migrations/0001〜0017 を順に流した結果と同じ内容。
-- 金額は numeric、時刻は timestamptz（UTC で保存、表示は Asia/Tokyo）。
-- =====================================================================

CREATE EXTENSION IF NOT EXISTS btree_gist;   -- 排他制約で = と && を併用するため
CREATE EXTENSION IF NOT EXISTS pgcrypto;     -- gen_random_uuid()

-- ---------------------------------------------------------------------
-- 研究室と利用者
-- ---------------------------------------------------------------------
CREATE TABLE labs (
    lab_id          text PRIMARY KEY,              -- 例: 'kawabe-lab'
    display_name    text NOT NULL,
    faculty         text NOT NULL,                 -- 所属学部・研究科
    budget_code     text NOT NULL
        CHECK (budget_code ~ '^BC-[0-9]{4}-[0-9]{4}$'),  -- 既定の予算コード
    is_external     boolean NOT NULL DEFAULT false, -- 学外共同研究なら true
    contract_no     text,                           -- 学外のとき必須（下の CHECK）
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (NOT is_external OR contract_no IS NOT NULL)
);

CREATE TABLE users (
    user_id         text PRIMARY KEY,              -- SIT-ID の sub クレーム
    lab_id          text NOT NULL REFERENCES labs,
    email           text NOT NULL UNIQUE,
    role            text NOT NULL DEFAULT 'member'
        CHECK (role IN ('member', 'lab_admin', 'center_admin', 'finance')),
    disabled_at     timestamptz
);

-- 研究室管理者は教員 1 名＋代理 1 名まで（KG-REQ-002 §3）。
CREATE UNIQUE INDEX users_lab_admin_max2
    ON users (lab_id, role, user_id) WHERE role = 'lab_admin';
-- ※ 2 名上限そのものはアプリ側（kg-reserve）で検査する。インデックスでは表現できない。

-- ---------------------------------------------------------------------
-- GPU 資源
-- ---------------------------------------------------------------------
CREATE TYPE gpu_kind AS ENUM ('a100', 'h100', 'a100_mig_3g40gb');

CREATE TABLE gpus (
    node_id         text NOT NULL,                 -- 'hr-a001' など
    gpu_index       smallint NOT NULL,             -- ノード内番号 0〜7（MIG は親 GPU の番号）
    slice_index     smallint NOT NULL DEFAULT 0,   -- MIG スライス番号 0〜1、非 MIG は 0
    kind            gpu_kind NOT NULL,
    gpu_uuid        text NOT NULL UNIQUE,          -- NVML の UUID（MIG は MIG-UUID）
    partition_name  text NOT NULL,                 -- a100 / h100 / mig
    PRIMARY KEY (node_id, gpu_index, slice_index)
);

-- ---------------------------------------------------------------------
-- 予約
-- ---------------------------------------------------------------------
CREATE TYPE reservation_status AS ENUM (
    'confirmed',     -- 確定（Slurm 同期前を含む）
    'active',        -- 開始済み・ジョブ実行中
    'completed',     -- 終了
    'cancelled',     -- 利用者が取消
    'no_show'        -- 開始 15 分以内にジョブなし → 解放
);

CREATE TABLE reservations (
    reservation_id  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    lab_id          text NOT NULL REFERENCES labs,
    user_id         text NOT NULL REFERENCES users,
    budget_code     text NOT NULL,                 -- 予約ごとに上書き可能
    period          tstzrange NOT NULL,
    status          reservation_status NOT NULL DEFAULT 'confirmed',
    slurm_name      text,                          -- 'kg-' || reservation_id、同期後に入る
    idempotency_key text,                          -- API の Idempotency-Key
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (upper(period) - lower(period) <= interval '72 hours'),  -- 1 件最長 72 時間
    CHECK (upper(period) > lower(period))
);

-- 予約 1 件が押さえる GPU（スライス）ごとの行。重なりはここで防ぐ。
CREATE TABLE reservation_gpus (
    reservation_id  uuid NOT NULL REFERENCES reservations ON DELETE CASCADE,
    node_id         text NOT NULL,
    gpu_index       smallint NOT NULL,
    slice_index     smallint NOT NULL DEFAULT 0,
    period          tstzrange NOT NULL,            -- reservations.period の写し（排他制約用）
    live            boolean NOT NULL DEFAULT true, -- 取消・空押さえで false にする
    FOREIGN KEY (node_id, gpu_index, slice_index) REFERENCES gpus,
    -- 同じ GPU・同じスライスで、有効な予約の期間が重なってはならない（ADR-0007）
    CONSTRAINT reservation_gpus_no_overlap EXCLUDE USING gist (
        node_id WITH =, gpu_index WITH =, slice_index WITH =, period WITH &&
    ) WHERE (live)
);

CREATE INDEX reservation_gpus_period_idx ON reservation_gpus USING gist (period);
-- ↑ 2026-02 の負荷試験の指摘を受けて追加（空き状況照会の高速化）

-- ---------------------------------------------------------------------
-- 計測（1 分粒度）: 月ごとのレンジパーティション
-- ---------------------------------------------------------------------
CREATE TABLE usage_minutes (
    minute_ts       timestamptz NOT NULL,          -- 分の先頭（秒は 0）
    node_id         text NOT NULL,
    gpu_uuid        text NOT NULL,
    slurm_job_id    bigint NOT NULL,
    lab_id          text NOT NULL,
    util_pct        smallint NOT NULL CHECK (util_pct BETWEEN 0 AND 100),
    mem_used_mib    integer NOT NULL,
    source          text NOT NULL DEFAULT 'meter'
        CHECK (source IN ('meter', 'sacct_backfill')),  -- 欠損を sacct で補ったら後者
    PRIMARY KEY (gpu_uuid, minute_ts, slurm_job_id)    -- 再送されても二重計上しない
) PARTITION BY RANGE (minute_ts);

CREATE TABLE usage_minutes_2026_04 PARTITION OF usage_minutes
    FOR VALUES FROM ('2026-04-01 00:00+09') TO ('2026-05-01 00:00+09');
-- 以降のパーティションは kg-ledger が毎月 20 日に翌月分を作成する。
-- 計測の生データは 25 か月保持し、それより古いパーティションは DETACH して退避する。

-- ---------------------------------------------------------------------
-- 単価表と課金
-- ---------------------------------------------------------------------
CREATE TABLE price_tables (
    version         text PRIMARY KEY,              -- 例: 'FY2026'
    effective_from  date NOT NULL UNIQUE,          -- 4 月 1 日が原則
    approved_by     text NOT NULL,                 -- 承認した委員会・日付
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE prices (
    version         text NOT NULL REFERENCES price_tables,
    kind            gpu_kind NOT NULL,
    funding         text NOT NULL CHECK (funding IN ('internal', 'grant', 'external')),
    yen_per_gpu_hour numeric(10, 2) NOT NULL CHECK (yen_per_gpu_hour > 0),
    PRIMARY KEY (version, kind, funding)
);

CREATE TABLE charges (
    charge_id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    lab_id          text NOT NULL REFERENCES labs,
    budget_code     text NOT NULL,
    slurm_job_id    bigint,                        -- 空押さえ料・調整では NULL
    reservation_id  uuid REFERENCES reservations,
    kind            text NOT NULL
        CHECK (kind IN ('usage', 'no_show', 'late_cancel', 'adjustment')),
    billing_month   date NOT NULL,                 -- 月初日。ジョブの終了月
    gpu_hours       numeric(12, 1) NOT NULL,       -- 0.1 GPU 時間単位
    price_version   text NOT NULL REFERENCES price_tables,
    coefficient     numeric(4, 2) NOT NULL DEFAULT 1.00,  -- high 1.5 / scavenger 0.25
    amount_yen      numeric(14, 4) NOT NULL,       -- 丸め前。切り捨ては請求書で 1 回
    reason          text,                          -- adjustment のとき必須
    created_by      text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (slurm_job_id, kind),                   -- INC-2025-114 の再発防止
    CHECK (kind <> 'adjustment' OR reason IS NOT NULL)
);

CREATE TYPE invoice_status AS ENUM ('draft', 'disputed', 'final');

CREATE TABLE invoices (
    lab_id          text NOT NULL REFERENCES labs,
    billing_month   date NOT NULL,
    budget_code     text NOT NULL,
    total_yen       bigint NOT NULL,               -- 円未満切り捨て後
    tax_yen         bigint NOT NULL DEFAULT 0,     -- 学外のみ 10 %
    status          invoice_status NOT NULL DEFAULT 'draft',
    finalised_at    timestamptz,
    PRIMARY KEY (lab_id, billing_month, budget_code)
);

-- ---------------------------------------------------------------------
-- クォータ（A100 換算 GPU 時間、四半期）
-- ---------------------------------------------------------------------
CREATE TABLE quotas (
    lab_id          text NOT NULL REFERENCES labs,
    quarter         text NOT NULL CHECK (quarter ~ '^FY[0-9]{4}Q[1-4]$'),  -- 'FY2026Q1'
    granted         numeric(10, 1) NOT NULL DEFAULT 2000.0
        CHECK (granted BETWEEN 0 AND 6000),
    carried_over    numeric(10, 1) NOT NULL DEFAULT 0,  -- 前四半期から（granted の 20 % まで）
    consumed        numeric(10, 2) NOT NULL DEFAULT 0,
    held            numeric(10, 2) NOT NULL DEFAULT 0,  -- 予約で押さえている分
    PRIMARY KEY (lab_id, quarter),
    CHECK (carried_over <= granted * 0.20)
);

-- 監査ログ（NFR-07）: 単価表・クォータ・請求の変更はすべてここに残す。
CREATE TABLE audit_log (
    audit_id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    actor           text NOT NULL,
    action          text NOT NULL,                 -- 'quota.update' など
    target          text NOT NULL,
    reason          text NOT NULL,
    before_json     jsonb,
    after_json      jsonb,
    at              timestamptz NOT NULL DEFAULT now()
);

-- kg-ledger 以外は charges に書けない。
REVOKE INSERT, UPDATE, DELETE ON charges FROM PUBLIC;
GRANT INSERT ON charges TO kg_ledger;
GRANT SELECT ON charges, invoices, quotas TO kg_reserve, kg_portal_ro;
