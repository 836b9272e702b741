"""Service-conditions evaluation: how a retrieved chunk is judged a hit (pure parts)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from tools.evaluation.ingest_path import StoredChunk
from tools.evaluation.retrieval import Dataset, Document, Question
from tools.evaluation.service import from_materials, from_qa, holds_paragraph, qa_files

GOLD = "梅雨前線は 小笠原気団とオホーツク海気団の間にできる。5月上旬に南西諸島で始まる。"


def chunk(text: str, filename: str = "a.md") -> StoredChunk:
    return StoredChunk(uuid.uuid4(), filename, 0, text)


def test_a_chunk_holding_the_whole_paragraph_is_a_hit_whatever_its_spacing():
    merged = (
        "# 梅雨\n\n前の段落。\n\n梅雨前線は小笠原気団と\n"
        "オホーツク海気団の間にできる。 5月上旬に南西諸島で始まる。"
    )
    assert holds_paragraph(chunk(merged), GOLD, answers=["5月上旬"])


def test_a_piece_of_a_split_paragraph_counts_only_when_it_holds_an_answer():
    first = "# 梅雨\n\n梅雨前線は小笠原気団とオホーツク海気団の間にできる。"
    second = "# 梅雨\n\n5月上旬に南西諸島で始まる。"
    assert not holds_paragraph(chunk(first), GOLD, answers=["5月上旬"])
    # a piece under 20 characters is too short to tell apart from other text
    assert not holds_paragraph(chunk(second), GOLD, answers=["5月上旬"])
    longer = "# 梅雨\n\nオホーツク海気団の間にできる。5月上旬に南西諸島で始まる。"
    assert holds_paragraph(chunk(longer), GOLD, answers=["5月上旬"])
    assert not holds_paragraph(chunk("# 梅雨\n\n別の話。5月上旬に始まる。"), GOLD, ["5月上旬"])


def test_qa_sets_become_one_markdown_file_per_title():
    data = Dataset(
        "t",
        [
            Document("d1", "梅雨", "段落一。"),
            Document("d2", "台風", "段落二。"),
            Document("d3", "梅雨", GOLD),
        ],
        [Question("q1", "梅雨前線はどこにできる？", frozenset({"d3"}), ("小笠原気団",))],
    )
    files = qa_files(data)
    assert [name for name, _ in files] == ["00000.md", "00001.md"]
    assert files[0][1].decode() == f"# 梅雨\n\n段落一。\n\n{GOLD}\n"
    sset = from_qa(data)
    assert sset.questions[0].judge(chunk(f"# 梅雨\n\n{GOLD}"))
    assert not sset.questions[0].judge(chunk("# 梅雨\n\n段落一。"))
    assert sset.subject_id.startswith("eval-t-svc-")


def test_course_questions_need_a_gold_material_chunk_holding_an_answer_key(tmp_path: Path):
    (tmp_path / "materials").mkdir()
    (tmp_path / "materials" / "05.md").write_text("# x\n", encoding="utf-8")
    rows = [
        {
            "qid": "i1",
            "question": "q",
            "answers": ["pages_per_range = 32"],
            "gold_materials": ["05.md"],
            "type": "formula_code",
        },
        {"qid": "i2", "question": "unanswerable", "answers": [], "gold_materials": []},
        {"qid": "i3", "question": "untyped", "answers": ["32"], "gold_materials": ["05.md"]},
    ]
    (tmp_path / "ids.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    sset = from_materials(tmp_path, tmp_path / "ids.jsonl")
    assert [(q.qid, q.type) for q in sset.questions] == [("i1", "formula_code"), ("i3", "qa")]
    judge = sset.questions[0].judge
    assert judge(chunk("WITH (`pages_per_range = 32`);", "05.md"))
    assert not judge(chunk("WITH (pages_per_range = 32);", "06.md"))
    assert not judge(chunk("pages_per_range の既定値", "05.md"))
