"""eval retrieval under service conditions, end to end on a tiny QA set: stored through the
real parser and chunker, searched with the k dynamic k gives, each hit judged on chunk text."""

from __future__ import annotations

import pytest

from tools.evaluation.retrieval import Dataset, Document, Question
from tools.evaluation.service import chars_sweep, evaluate, from_qa

pytestmark = pytest.mark.integration


def test_service_conditions_report_hits_at_dynamic_k(db_conn, embedder):
    docs = [
        Document("t1p0", "梅雨", "梅雨は東アジアの雨季で、梅雨前線が停滞する。"),
        Document("t1p1", "梅雨", "梅雨前線は小笠原気団とオホーツク海気団の間にできる。"),
        Document("t2p0", "Index", "The BRIN index sets pages_per_range = 32 in the lab."),
        Document("t2p1", "Index", "A B-tree serves range queries on sorted keys."),
    ]
    questions = [
        Question("q1", "梅雨前線はどの気団の間にできる？", frozenset({"t1p1"}), ("小笠原気団",)),
        Question("q2", "What is pages_per_range in the lab?", frozenset({"t2p0"}), ("32",)),
    ]
    sset = from_qa(Dataset(f"svc-{db_conn.info.dbname}", docs, questions))
    report = evaluate(db_conn, sset, embedder, chars_sweep())
    assert report["files"] == 2 and report["questions_with_a_hit_in_the_store"] == 2
    # one Markdown file per title, packed by the chunker: fewer chunks than paragraphs
    assert report["chunks"] == 2
    hybrid = report["systems"]["hybrid"]
    assert hybrid["k_mean"] == 5.0  # choose_k of a 2-chunk subject
    assert hybrid["hit@k"] == 1.0 and hybrid["mrr@k"] == 1.0
    assert set(report["systems"]) >= {"hybrid", "hybrid, chars 0"}
