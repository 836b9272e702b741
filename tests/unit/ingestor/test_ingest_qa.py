"""Q/A tables (seed 003 data registration): one chunk per row, readable refusals."""

import json

import pytest

from services.common.errors import InvalidInput
from services.ingestor.chunking import ChunkLimits
from services.ingestor.stages import parse_material


def test_csv_rows_become_q_a_chunks_with_category_headings():
    data = (
        "category,question,answer\n"
        "試験,電卓は使えますか？,関数電卓は使えます。\n"
        ',"What is r?","Pearson\'s correlation, between -1 and 1."\n'
    ).encode()
    parsed = parse_material(data, "faq.csv")
    assert parsed.mime_type == "text/csv" and parsed.title == "faq"
    assert [(c.ordinal, c.heading_path, c.text) for c in parsed.chunks] == [
        (0, ("試験",), "Q: 電卓は使えますか？\nA: 関数電卓は使えます。"),
        (1, (), "Q: What is r?\nA: Pearson's correlation, between -1 and 1."),
    ]


def test_apostrophes_are_no_quotes():
    # A CSV quotes with double quotes. Guessing the quote character (csv.Sniffer) took the
    # apostrophes around '<' and '>' for quotes once a file had nine plain rows, and cut
    # that row's answer at its comma.
    plain = "".join(f"web,Question {i}?,Answer {i}.\n" for i in range(9))
    data = (
        "category,question,answer\n" + plain + "web,Is stripping the '<' and '>' characters"
        ' enough?,"No, escape on output."\n'
    ).encode()
    chunks = parse_material(data, "faq.csv").chunks
    assert len(chunks) == 10
    assert chunks[-1].text == (
        "Q: Is stripping the '<' and '>' characters enough?\nA: No, escape on output."
    )


def test_semicolons_delimit_when_they_cut_every_row_alike():
    data = b"question;answer\nWhat is 1,5 + 1?;2,5\nWhat is 0,5 * 2?;1\n"
    chunks = parse_material(data, "faq.csv").chunks
    assert [c.text for c in chunks] == ["Q: What is 1,5 + 1?\nA: 2,5", "Q: What is 0,5 * 2?\nA: 1"]


def test_japanese_headers_shift_jis_and_tabs():
    data = "質問\t回答\n平均とは？\t合計を個数で割った値。\n".encode("cp932")
    parsed = parse_material(data, "qa.csv")
    assert [c.text for c in parsed.chunks] == ["Q: 平均とは？\nA: 合計を個数で割った値。"]


def test_jsonl_rows():
    lines = [
        {"Question": "中央値とは？", "Answer": "真ん中の値。", "topic": "代表値"},
        {"q": "What is IQR?", "a": "Q3 minus Q1."},
    ]
    data = ("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n\n").encode()
    parsed = parse_material(data, "qa.jsonl")
    assert [(c.heading_path, c.text) for c in parsed.chunks] == [
        (("代表値",), "Q: 中央値とは？\nA: 真ん中の値。"),
        ((), "Q: What is IQR?\nA: Q3 minus Q1."),
    ]


def test_long_answer_is_split_and_each_part_repeats_the_question():
    answer = "分散は偏差の二乗の平均である。" * 20  # 300 characters
    data = f"question,answer\n分散とは？,{answer}\n".encode()
    limits = ChunkLimits(target_chars=80, max_chars=120, min_chars=20)
    chunks = parse_material(data, "faq.csv", limits=limits).chunks
    assert len(chunks) >= 3
    assert all(c.text.startswith("Q: 分散とは？\nA: ") and len(c.text) <= 120 for c in chunks)
    assert "".join(c.text.removeprefix("Q: 分散とは？\nA: ") for c in chunks) == answer


def test_a_csv_that_is_not_q_a_rows_is_kept_as_a_table_split_at_rows():
    rows = "".join(f"第{n}回,2025-10-{n:02d},{'講義内容' * 3}{n}\n" for n in range(1, 13))
    data = f"回,日付,内容\n{rows}".encode()
    limits = ChunkLimits(target_chars=150, max_chars=200, min_chars=20)
    chunks = parse_material(data, "schedule.csv", limits=limits).chunks
    assert len(chunks) >= 2 and {c.heading_path for c in chunks} == {("schedule",)}
    for chunk in chunks:  # every part reads on its own: the header names its cells
        assert chunk.text.splitlines()[-1].startswith("| 第")
        assert "| 回 | 日付 | 内容 |" in chunk.text.splitlines()
    assert sum(c.text.count("| 第") for c in chunks) == 12  # no row lost, none twice


@pytest.mark.parametrize(
    ("data", "filename", "message"),
    [
        (b"question,answer\nWhat?,\n", "faq.csv", "row 2: the answer is empty"),
        (b'{"question": "x", "answer": "y"}\nnot json\n', "faq.jsonl", "line 2 is not JSON"),
        (b'["question", "answer"]\n', "faq.jsonl", "line 1 is not a JSON object"),
        (b'{"question": "x"}\n', "faq.jsonl", "line 1 has no answer column"),
    ],
)
def test_bad_tables_are_refused_with_the_row(data, filename, message):
    with pytest.raises(InvalidInput, match=message.replace("(", r"\(")):
        parse_material(data, filename)
