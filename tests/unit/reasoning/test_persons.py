"""Who a question asks about, and whether a unit speaks of them (persons.py)."""

from __future__ import annotations

import pytest

from services.reasoning.extractive.persons import asked_of, asked_persons, speaks_of_another


@pytest.mark.parametrize(
    "question, persons",
    [
        ("TAの樋口さんのメールアドレスは？", ["樋口"]),
        ("佐伯先生の研究室はどこですか", ["佐伯"]),  # 佐伯 read as a place, before 先生
        ("樋口 遼さんに連絡したい", ["樋口"]),  # the surname of a full name
        ("When are Prof. Lindgren's office hours?", ["Lindgren"]),
        ("Okonkwo 先生の講義は何回目ですか", ["Okonkwo"]),
        # a method or a law named after someone is no person asked about
        ("ダイクストラ法の計算量は？", []),
        ("Why do we use Welch's t test?", []),
    ],
)
def test_a_question_names_a_person_by_a_title(question, persons):
    assert list(asked_persons(question)) == persons


def test_what_is_asked_of_a_person_leaves_out_who_they_are():
    assert asked_of(["早瀬"], "経理課の早瀬さんの内線番号を教えて") == ["内線番号"]
    assert asked_of(["Lindgren"], "When are Prof. Lindgren's office hours?") == ["office hours"]


def test_a_unit_speaks_of_another_person_only_when_it_names_someone_else():
    row = "オフィスアワー | 国枝：月曜 14:40〜16:10（B-301）"
    assert speaks_of_another(["樋口"], row) == "国枝"
    assert speaks_of_another(["国枝"], row) == ""
    assert speaks_of_another(["樋口"], "オフィスアワー | 月曜 14:40〜16:10") == ""
    # the same person in the other script: 沖田 read オキタ, written Okita
    assert speaks_of_another(["沖田"], "Office hours: Dr. Okita, Mondays 14:40") == ""
    assert speaks_of_another(["Okita"], "オフィスアワー | 沖田：月曜") == ""
