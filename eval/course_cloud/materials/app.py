"""seatbox: the seat reservation API used in the DSC-3150 labs (Labs 1-3).

Students book one seat of a lab room for one time slot. The service keeps
reservations in PostgreSQL and uses Redis for two things: a cache of each
room's free seats (cache-aside) and the per-client token buckets of the rate
limiter. It is deliberately small; Lab 3 puts it under load and checks the
latency SLO with run_loadtest.sh.

Endpoints
    GET  /healthz                  liveness: the process answers at all
    GET  /readyz                   readiness: PostgreSQL and Redis both reachable
    GET  /rooms/<room_id>/free     free seats of a room for a date and slot
    POST /reservations             book a seat (JSON body)
    GET  /metrics                  counters in Prometheus text format

Configuration comes from the environment (see docker-compose.yaml).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from dataclasses import dataclass

import psycopg
import redis
from flask import Flask, g, jsonify, request

# --- settings -------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "postgresql://seatbox:seatbox@db:5432/seatbox")
REDIS_URL = os.environ.get("REDIS_URL", "redis://redis:6379/0")
# Which replica answered (Lab 3 scales web to 3); the container hostname by default.
INSTANCE = os.environ.get("SEATBOX_INSTANCE") or socket.gethostname()

# Rate limit per client (token bucket): 2 tokens per second, bursts up to 40.
RATE_PER_SECOND = 2.0
BUCKET_CAPACITY = 40

# Free-seat lists may be this old. Lecture 9: add jitter so keys do not expire together.
CACHE_TTL_SECONDS = 30
CACHE_TTL_JITTER_SECONDS = 5

# PostgreSQL: give up on a statement after 2 s, on connecting after 3 s.
DB_STATEMENT_TIMEOUT_MS = 2000
DB_CONNECT_TIMEOUT_S = 3

# Slots 1..6 per day (1 = 9:00-10:30, ..., 6 = 17:30-19:00).
SLOTS_PER_DAY = 6

app = Flask(__name__)
log = logging.getLogger("seatbox")
logging.basicConfig(level=logging.INFO, format="%(message)s")

METRICS = {"requests_total": 0, "rate_limited_total": 0, "cache_hits_total": 0,
           "cache_misses_total": 0, "conflicts_total": 0}


# --- rate limiting --------------------------------------------------------

@dataclass
class TokenBucket:
    """A token bucket kept in Redis as a hash {tokens, updated} per client.

    Tokens are refilled lazily: on each request we add rate * elapsed seconds,
    capped at the capacity, then try to take one token.
    """

    rate: float
    capacity: int

    def allow(self, r: redis.Redis, client: str, now: float | None = None) -> tuple[bool, float]:
        """Whether this request may pass, and how many seconds to wait if not."""
        now = time.time() if now is None else now
        key = f"rl:{client}"
        state = r.hgetall(key)
        tokens = float(state.get(b"tokens", self.capacity))
        updated = float(state.get(b"updated", now))
        tokens = min(self.capacity, tokens + (now - updated) * self.rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        r.hset(key, mapping={"tokens": tokens, "updated": now})
        # An idle client's bucket is full again after capacity / rate seconds; drop it then.
        r.expire(key, int(self.capacity / self.rate) + 1)
        wait = 0.0 if allowed else (1.0 - tokens) / self.rate
        return allowed, wait


LIMITER = TokenBucket(rate=RATE_PER_SECOND, capacity=BUCKET_CAPACITY)


def client_id() -> str:
    """Who is calling: the student ID header if present, else the remote address."""
    return request.headers.get("X-Student-Id") or request.remote_addr or "unknown"


# --- connections ----------------------------------------------------------

def get_db() -> psycopg.Connection:
    if "db" not in g:
        g.db = psycopg.connect(
            DATABASE_URL,
            connect_timeout=DB_CONNECT_TIMEOUT_S,
            options=f"-c statement_timeout={DB_STATEMENT_TIMEOUT_MS}",
        )
    return g.db


def get_redis() -> redis.Redis:
    if "redis" not in g:
        g.redis = redis.Redis.from_url(REDIS_URL, socket_timeout=0.5)
    return g.redis


@app.teardown_appcontext
def close_db(_exc) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@app.before_request
def count_and_limit():
    METRICS["requests_total"] += 1
    if request.path in ("/healthz", "/readyz", "/metrics"):
        return None  # probes and scrapes are never rate limited
    allowed, wait = LIMITER.allow(get_redis(), client_id())
    if not allowed:
        METRICS["rate_limited_total"] += 1
        response = jsonify(error="rate_limited", retry_after=round(wait, 1))
        response.status_code = 429
        response.headers["Retry-After"] = str(max(1, round(wait)))
        return response
    return None


# --- cache-aside for free seats -------------------------------------------

def cache_key(room_id: str, date: str, slot: int) -> str:
    return f"free:{room_id}:{date}:{slot}"


def free_seats(room_id: str, date: str, slot: int) -> list[int]:
    """Free seat numbers, from Redis if cached, else from PostgreSQL (then cached)."""
    r = get_redis()
    key = cache_key(room_id, date, slot)
    cached = r.get(key)
    if cached is not None:
        METRICS["cache_hits_total"] += 1
        return json.loads(cached)
    METRICS["cache_misses_total"] += 1
    with get_db().cursor() as cur:
        cur.execute(
            """
            SELECT s.seat_no FROM generate_series(1, (SELECT seats FROM rooms WHERE room_id = %s)) AS s(seat_no)
            WHERE s.seat_no NOT IN (
                SELECT seat_no FROM reservations
                WHERE room_id = %s AND slot_date = %s AND slot_no = %s AND status = 'active')
            ORDER BY s.seat_no
            """,
            (room_id, room_id, date, slot),
        )
        seats = [row[0] for row in cur.fetchall()]
    ttl = CACHE_TTL_SECONDS + (hash(key) % (CACHE_TTL_JITTER_SECONDS + 1))
    r.set(key, json.dumps(seats), ex=ttl)
    return seats


# --- endpoints ------------------------------------------------------------

@app.get("/healthz")
def healthz():
    # Liveness must not depend on the database (Lecture 8): just say we are alive.
    return jsonify(status="ok", instance=INSTANCE)


@app.get("/readyz")
def readyz():
    try:
        get_redis().ping()
        with get_db().cursor() as cur:
            cur.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
        return jsonify(status="unavailable", reason=type(exc).__name__), 503
    return jsonify(status="ready", instance=INSTANCE)


@app.get("/rooms/<room_id>/free")
def get_free(room_id: str):
    date = request.args["date"]
    slot = int(request.args.get("slot", 1))
    if not 1 <= slot <= SLOTS_PER_DAY:
        return jsonify(error="bad_slot"), 400
    return jsonify(room=room_id, date=date, slot=slot, free=free_seats(room_id, date, slot))


@app.post("/reservations")
def create_reservation():
    body = request.get_json(force=True)
    room_id, date, slot, seat = body["room_id"], body["date"], int(body["slot"]), int(body["seat"])
    db = get_db()
    try:
        with db.cursor() as cur:
            cur.execute(
                "INSERT INTO reservations (room_id, seat_no, slot_date, slot_no, student_id)"
                " VALUES (%s, %s, %s, %s, %s) RETURNING reservation_id",
                (room_id, seat, date, slot, client_id()),
            )
            reservation_id = cur.fetchone()[0]
        db.commit()
    except psycopg.errors.UniqueViolation:
        # Someone else got the seat first: the unique index decides, not the cache.
        db.rollback()
        METRICS["conflicts_total"] += 1
        return jsonify(error="seat_taken"), 409
    # Invalidate rather than update the cached list (simplest correct choice).
    get_redis().delete(cache_key(room_id, date, slot))
    log.info(json.dumps({"event": "reserved", "id": reservation_id, "instance": INSTANCE}))
    return jsonify(reservation_id=reservation_id), 201


@app.get("/metrics")
def metrics():
    lines = [f"seatbox_{name} {value}" for name, value in METRICS.items()]
    return "\n".join(lines) + "\n", 200, {"Content-Type": "text/plain; version=0.0.4"}


if __name__ == "__main__":
    # Development only; in the container gunicorn serves the app (see Dockerfile).
    app.run(host="0.0.0.0", port=8000, debug=True)
