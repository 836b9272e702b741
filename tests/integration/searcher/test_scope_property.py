"""Property: whatever subject, user, filters, seen IDs and query text arrive, no row outside
the caller's scope (subject, enrollment, visibility, active material and chunk) comes back."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.common.materials import enroll, ensure_subject
from services.searcher.engine import SearchQuery, search
from services.searcher.scope import SearchFilters

from .conftest import HashEmbedder, add_material

pytestmark = pytest.mark.integration

WORDS = [
    "梅雨",
    "前線",
    "気団",
    "台風",
    "rhine",
    "steam",
    "engine",
    "北海道",
    "'; DROP TABLE chunks; --",
    "%",
    "_",
]
USERS = ["u0", "u1", "u2", "u3", "stranger"]


@dataclass(frozen=True)
class Row:
    subject: str
    material_id: uuid.UUID
    owner: str
    visibility: str
    active: bool
    page: int


def build_world(conn) -> tuple[list[str], dict[uuid.UUID, Row], set[tuple[str, str]]]:
    rnd = random.Random(42)
    tag = uuid.uuid4().hex[:6]
    subjects = [f"prop-{tag}-{i}" for i in range(3)]
    enrolled = set()
    rows: dict[uuid.UUID, Row] = {}
    for s in subjects:
        ensure_subject(conn, s)
        for u in USERS[:4]:
            if rnd.random() < 0.6:
                enroll(conn, s, u)
                enrolled.add((s, u))
        for m in range(5):
            owner = rnd.choice(USERS[:4])
            visibility = rnd.choice(["subject", "private"])
            texts = [" ".join(rnd.choices(WORDS, k=4)) + f" {s} {m} {i}" for i in range(6)]
            pages = [rnd.randint(1, 5) for _ in texts]
            first = add_material(
                conn, s, owner, f"m{m}.md", texts, visibility=visibility, pages=pages
            )
            for cid, page in zip(first.chunk_ids, pages, strict=True):
                rows[cid] = Row(s, first.material_id, owner, visibility, True, page)
            if rnd.random() < 0.4:  # a new version deactivates the old one and its chunks
                texts2 = [t + " v2" for t in texts]
                second = add_material(
                    conn, s, owner, f"m{m}.md", texts2, visibility=visibility, pages=pages
                )
                for cid in first.chunk_ids:
                    rows[cid] = Row(s, first.material_id, owner, visibility, False, rows[cid].page)
                for cid, page in zip(second.chunk_ids, pages, strict=True):
                    rows[cid] = Row(s, second.material_id, owner, visibility, True, page)
    # one chunk switched off on its own
    victim = next(c for c, r in rows.items() if r.active)
    conn.execute("UPDATE chunks SET is_active = false WHERE chunk_id = %s", (victim,))
    rows[victim] = Row(**{**rows[victim].__dict__, "active": False})
    conn.commit()
    return subjects, rows, enrolled


def allowed(rows, enrolled, subject, user, filters: SearchFilters, seen) -> set[uuid.UUID]:
    if (subject, user) not in enrolled:
        return set()
    return {
        cid
        for cid, r in rows.items()
        if r.subject == subject
        and r.active
        and cid not in seen
        and (r.visibility == "subject" or r.owner == user)
        and (not filters.material_ids or r.material_id in filters.material_ids)
        and (filters.page_from is None or r.page >= filters.page_from)
        and (filters.page_to is None or r.page <= filters.page_to)
    }


def test_no_row_outside_the_callers_scope(db_conn):
    subjects, rows, enrolled = build_world(db_conn)
    chunk_ids = sorted(rows)
    material_ids = sorted({r.material_id for r in rows.values()})
    text = st.text(
        alphabet=st.sampled_from(list("梅雨前線気団台風rhinesteam'\";-%_\\()*/ ")), max_size=30
    )

    @settings(
        max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(
        subject=st.sampled_from([*subjects, "no-such-subject", "' OR 1=1 --"]),
        user=st.sampled_from([*USERS, "' OR ''='"]),
        keywords=st.lists(st.one_of(text, st.sampled_from(WORDS)), max_size=3),
        sentence=st.one_of(text, st.sampled_from(WORDS)),
        mode=st.sampled_from(["hybrid", "bm25", "vector"]),
        materials=st.frozensets(st.sampled_from(material_ids), max_size=4),
        page_from=st.one_of(st.none(), st.integers(1, 5)),
        page_span=st.one_of(st.none(), st.integers(0, 4)),
        seen=st.frozensets(st.sampled_from(chunk_ids), max_size=20),
        retry=st.integers(0, 3),
    )
    def check(
        subject, user, keywords, sentence, mode, materials, page_from, page_span, seen, retry
    ):
        if not any(k.strip() for k in keywords) and not sentence.strip():
            sentence = "梅雨"
        page_to = None if page_span is None else (page_from or 1) + page_span
        filters = SearchFilters(material_ids=materials, page_from=page_from, page_to=page_to)
        query = SearchQuery(
            subject,
            user,
            keywords,
            sentence,
            retry=retry,
            seen_ids=seen,
            filters=filters,
            mode=mode,
        )
        outcome = search(db_conn, query, HashEmbedder())
        db_conn.rollback()
        scope = allowed(rows, enrolled, subject, user, filters, seen)
        got = [c.chunk_id for c in outcome.candidates]
        assert set(got) <= scope
        assert len(got) == len(set(got)) <= max(outcome.k, 0)
        for c in outcome.candidates:
            assert c.material_id == rows[c.chunk_id].material_id
        if mode != "bm25":  # vector retrieval always fills k from what is eligible
            assert len(got) == min(outcome.k, len(scope))
        if scope:
            assert outcome.n_scope - outcome.n_excluded == len(scope)

    check()
