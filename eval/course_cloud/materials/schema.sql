-- seatbox スキーマ（DSC-3150 ラボ2）
-- PostgreSQL 16 用。docker-compose.yaml の db サービスが起動時に
-- /docker-entrypoint-initdb.d/ から一度だけ実行する（ボリュームが空のときのみ）。
-- スキーマを変えたら `docker compose down -v` でボリュームを消してから起動し直すこと。

BEGIN;

-- 部屋。seats は座席数（座席番号は 1 から seats まで）。
CREATE TABLE rooms (
    room_id     TEXT PRIMARY KEY,              -- 例: 'E3-310'
    building    TEXT NOT NULL,
    seats       INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 120),
    opens_at    TIME NOT NULL DEFAULT '09:00',
    closes_at   TIME NOT NULL DEFAULT '19:00'
);

-- 予約。1行が「ある部屋・ある日・ある時限・ある座席」の1件。
CREATE TABLE reservations (
    reservation_id  BIGSERIAL PRIMARY KEY,
    room_id         TEXT NOT NULL REFERENCES rooms (room_id) ON DELETE RESTRICT,
    seat_no         INTEGER NOT NULL CHECK (seat_no >= 1),
    slot_date       DATE NOT NULL,
    slot_no         SMALLINT NOT NULL CHECK (slot_no BETWEEN 1 AND 6),
    student_id      VARCHAR(8) NOT NULL,       -- 学籍番号は 8 桁（例: 23T04117）
    status          TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'cancelled')),
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- 二重予約の防止はアプリではなくこの一意インデックスが担う。
-- キャンセル済みの行は対象外（部分インデックス）なので、キャンセル後に同じ席を取り直せる。
CREATE UNIQUE INDEX uq_reservations_active_seat
    ON reservations (room_id, slot_date, slot_no, seat_no)
    WHERE status = 'active';

-- 「自分の予約一覧」を新しい順に出すためのインデックス。
CREATE INDEX idx_reservations_student
    ON reservations (student_id, created_at DESC);

-- 1人が同じ日に持てる有効な予約は 2 件まで（トリガで検査）。
CREATE FUNCTION check_daily_limit() RETURNS trigger AS $$
BEGIN
    IF (SELECT count(*) FROM reservations
        WHERE student_id = NEW.student_id
          AND slot_date = NEW.slot_date
          AND status = 'active') >= 2 THEN
        RAISE EXCEPTION 'daily limit reached for %', NEW.student_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_daily_limit
    BEFORE INSERT ON reservations
    FOR EACH ROW EXECUTE FUNCTION check_daily_limit();

-- 初期データ（ラボで使う3部屋）
INSERT INTO rooms (room_id, building, seats) VALUES
    ('E3-310', '工学部3号館', 48),
    ('E3-204', '工学部3号館', 96),
    ('L1-105', '図書館1階', 24);

-- 負荷試験用の読み取り専用ユーザ（ラボ3で Grafana から使う想定、今年度は未使用）
-- CREATE ROLE seatbox_ro LOGIN PASSWORD 'change-me';
-- GRANT SELECT ON ALL TABLES IN SCHEMA public TO seatbox_ro;

COMMIT;
