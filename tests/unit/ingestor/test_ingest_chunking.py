"""Chunk bounds: Japanese without spaces is split at sentence ends and never exceeds the limit."""

import re
import signal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.ingestor.chunking import (
    Block,
    ChunkLimits,
    chunk_blocks,
    hard_split,
    split_long,
    split_sentences,
)

LIMITS = ChunkLimits(target_chars=120, max_chars=160, min_chars=30)

JA_SENTENCE = "標準偏差は分散の正の平方根であり、元のデータと同じ単位で散らばりを表す。"  # 36 chars


def test_japanese_long_paragraph_is_split_at_sentence_ends_under_the_limit():
    paragraph = JA_SENTENCE * 12  # 432 characters, no spaces at all
    chunks = chunk_blocks([Block(paragraph, ("記述統計", "標準偏差"))], LIMITS)
    assert len(chunks) >= 2
    for chunk in chunks:
        assert len(chunk.text) <= LIMITS.max_chars
        body = chunk.text.split("\n\n", 1)[1]
        assert body.endswith("。"), body  # cut at a sentence end, not mid-sentence
        assert chunk.text.startswith("## 標準偏差\n\n")
        assert chunk.heading_path == ("記述統計", "標準偏差")
    bodies = "".join(c.text.split("\n\n", 1)[1] for c in chunks)
    assert bodies == paragraph  # nothing lost or duplicated


def test_japanese_sentence_longer_than_the_limit_is_hard_cut_preferring_a_comma():
    sentence = ("あ" * 70 + "、") * 5 + "終わり。"  # one 360-character sentence
    pieces = split_long(sentence, 100)
    assert all(len(p) <= 100 for p in pieces)
    assert "".join(pieces) == sentence
    assert pieces[0].endswith("、")


def test_hard_split_without_any_break_cuts_at_the_limit():
    assert [len(p) for p in hard_split("字" * 250, 100)] == [100, 100, 50]


def test_sentences_keep_their_end_marks_for_ja_and_en():
    assert split_sentences("平均とは何か？合計を個数で割る。「頑健」だ！次") == [
        "平均とは何か？",
        "合計を個数で割る。",
        "「頑健」だ！",
        "次",
    ]
    assert split_sentences("The mean is 70.5 points. Is it robust? No! 3.14 stays.") == [
        "The mean is 70.5 points. ",
        "Is it robust? ",
        "No! ",
        "3.14 stays.",
    ]


def test_a_full_stop_inside_parentheses_ends_no_sentence():
    text = "合格点（期末と課題の合計。追試は含まない）は 60 点。次の文。"
    assert split_sentences(text) == [
        "合格点（期末と課題の合計。追試は含まない）は 60 点。",
        "次の文。",
    ]
    # a parenthesis that never closes on its line decides nothing
    assert split_sentences("注（下書き。続く\n本文。") == ["注（下書き。", "続く\n本文。"]


def test_tiny_pieces_merge_with_neighbours_under_the_same_heading_only():
    blocks = [
        Block("短い。", ("A",)),
        Block("これも短い段落です。", ("A",)),
        Block("別の見出しの下。", ("B",)),
    ]
    chunks = chunk_blocks(blocks, LIMITS)
    assert [c.heading_path for c in chunks] == [("A",), ("B",)]
    assert chunks[0].text == "# A\n\n短い。\n\nこれも短い段落です。"
    assert chunks[1].text == "# B\n\n別の見出しの下。"
    assert [c.ordinal for c in chunks] == [0, 1]


def test_pages_are_not_merged_across():
    chunks = chunk_blocks([Block("one.", page=1), Block("two.", page=2)], LIMITS)
    assert [(c.page, c.text) for c in chunks] == [(1, "one."), (2, "two.")]


def test_packing_stops_at_the_target():
    paragraph = "x" * 49 + "."  # two fit the 120 target (102 chars), three do not
    chunks = chunk_blocks([Block(paragraph)] * 4, LIMITS)
    assert [c.text for c in chunks] == [f"{paragraph}\n\n{paragraph}"] * 2


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(alphabet="統計学のデータ。、abc .!?\n", min_size=1, max_size=600),
            st.sampled_from([(), ("見出し",), ("Lecture", "Variance")]),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_every_chunk_is_within_the_hard_limit_and_keeps_all_text(blocks):
    chunks = chunk_blocks([Block(text, path) for text, path in blocks], LIMITS)
    assert all(len(c.text) <= LIMITS.max_chars for c in chunks)
    kept = re.sub(r"\s|#|見出し|Lecture|Variance", "", "".join(c.text for c in chunks))
    given_text = re.sub(r"\s|#|見出し|Lecture|Variance", "", "".join(t for t, _ in blocks))
    assert kept == given_text


_CELL = st.text(alphabet="索引データ ab1.|`$-", min_size=0, max_size=60)
_WIDE = st.integers(min_value=0, max_value=400)  # padding: headers and fences past a chunk


@st.composite
def _structure(draw) -> str:
    kind = draw(st.sampled_from(["table", "code", "list", "formula"]))
    lines = draw(st.lists(_CELL, min_size=0, max_size=15))
    pad = " " * draw(_WIDE)
    if kind == "table":
        return "\n".join(
            [f"| 項目{pad}| 内容 |", f"|{'-' * len(pad)}---|---|"] + [f"| {x} |" for x in lines]
        )
    if kind == "code":
        return "\n".join([f"```sql{pad}x", *lines, f"``` {pad}y"])
    if kind == "list":
        return "\n".join(f"- {x}{pad}z" for x in lines) or "- z"
    return "\n".join(["$$", *lines, pad + "x", "$$"])


@settings(max_examples=120, deadline=None)
@given(st.lists(_structure(), min_size=1, max_size=5), st.sampled_from([(), ("表",)]))
def test_any_structure_is_chunked_within_the_limit(structures, path):
    signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(10)  # a splitter that loops forever fails here instead of hanging the run
    try:
        chunks = chunk_blocks([Block(text, path) for text in structures], LIMITS)
    finally:
        signal.alarm(0)
    assert chunks and all(len(c.text) <= LIMITS.max_chars for c in chunks)


def _too_slow(*_):
    raise AssertionError("chunking did not finish within 10 s")


# -- structures: a list, a table, a code block or a formula stays with its lead-in -----------


def _blocks(*texts: str) -> list[Block]:
    return [Block(t, ("第4回", "索引")) for t in texts]


def test_a_structure_keeps_the_sentence_that_introduces_it():
    limits = ChunkLimits(target_chars=60, max_chars=200, min_chars=10)
    prose = "索引は検索を速くする。作る前に次の観点を確認する。"
    listing = "- 問い合わせの頻度\n- 選択率"
    chunks = chunk_blocks(_blocks(prose, listing), limits)
    holder = next(c for c in chunks if "- 選択率" in c.text)
    assert "作る前に次の観点を確認する。\n\n- 問い合わせの頻度\n- 選択率" in holder.text
    assert "索引は検索を速くする。" in "".join(c.text for c in chunks)  # nothing lost


def test_plain_text_numbering_is_a_list_kept_with_its_lead_in():
    limits = ChunkLimits(target_chars=40, max_chars=200, min_chars=10)
    lead = "確認する点は次の3つである。"
    listing = "  (1) 監視する値\n  (2) 我慢の回数\n  (3) 最小改善幅"
    circled = "①準備\n②実行"
    chunks = chunk_blocks(_blocks("早期終了は過学習を防ぐ。", lead, listing, circled), limits)
    holder = next(c for c in chunks if "(3) 最小改善幅" in c.text)
    assert f"{lead}\n\n(1) 監視する値\n  (2) 我慢の回数" in holder.text  # with its lead-in
    assert Block(listing).kind == Block(circled).kind == Block("- a").kind


def test_html_list_items_under_one_heading_are_one_list():
    limits = ChunkLimits(target_chars=200, max_chars=300, min_chars=10)
    chunks = chunk_blocks(_blocks("手順は次のとおり。", "1. 準備する", "2. 実行する"), limits)
    assert len(chunks) == 1
    assert "手順は次のとおり。\n\n1. 準備する\n2. 実行する" in chunks[0].text


def test_a_long_table_splits_at_row_boundaries_repeating_heading_intro_and_header():
    limits = ChunkLimits(target_chars=150, max_chars=200, min_chars=20)
    rows = "\n".join(f"| 索引{i} | 用途{i}の説明 |" for i in range(12))
    table = f"| 種類 | 用途 |\n|---|---|\n{rows}"
    chunks = chunk_blocks(_blocks("主な索引を次の表に示す。", table), limits)
    assert len(chunks) >= 2
    seen = []
    for chunk in chunks:
        assert len(chunk.text) <= limits.max_chars
        assert chunk.text.startswith(
            "## 索引\n\n主な索引を次の表に示す。\n\n| 種類 | 用途 |\n|---|---|"
        )
        seen += [line for line in chunk.text.splitlines() if line.startswith("| 索引")]
    assert seen == rows.splitlines()  # every row once, in order, none cut


def test_a_table_whose_header_is_wider_than_a_chunk_is_split_without_repeating_it():
    # tables padded for plain-text editors: header and rule rows of hundreds of spaces/dashes
    limits = ChunkLimits(target_chars=150, max_chars=200, min_chars=20)
    header = "| 項目" + " " * 150 + "| 内容" + " " * 100 + "|"
    rule = "|" + "-" * 160 + "|" + "-" * 100 + "|"
    rows = [f"| 入力{i} | 説明{i} |" for i in range(12)]
    table = "\n".join([header, rule, *rows])
    chunks = chunk_blocks(_blocks(table), limits)  # ended: it looped forever before
    assert all(len(chunk.text) <= limits.max_chars for chunk in chunks)
    text = "\n".join(chunk.text for chunk in chunks)
    assert [line for line in text.splitlines() if line.startswith("| 入力")] == rows
    assert text.count("| 項目") == 1  # said once, not repeated in every part


def test_a_code_block_whose_fence_lines_are_wider_than_a_chunk_still_splits():
    limits = ChunkLimits(target_chars=150, max_chars=200, min_chars=20)
    opening = "```python " + "x" * 250  # a long info string
    closing = "``` " + "y" * 250  # text after the closing fence
    lines = [f"value_{i} = {i}" for i in range(20)]
    chunks = chunk_blocks(_blocks("\n".join([opening, *lines, closing])), limits)
    assert all(len(chunk.text) <= limits.max_chars for chunk in chunks)
    text = "\n".join(chunk.text for chunk in chunks)
    assert [line for line in text.splitlines() if line.startswith("value_")] == lines


def test_a_piece_of_no_characters_is_refused():
    with pytest.raises(ValueError):
        hard_split("abc", 0)


def test_a_long_code_block_splits_at_lines_inside_its_fences():
    limits = ChunkLimits(target_chars=120, max_chars=160, min_chars=20)
    lines = "\n".join(f"SET option_{i} = {i};" for i in range(12))
    chunks = chunk_blocks(_blocks("設定は次のとおり。", f"```sql\n{lines}\n```"), limits)
    assert len(chunks) >= 2
    for chunk in chunks:
        body = chunk.text.split("\n\n", 2)[2]
        assert body.startswith("```sql\n") and body.endswith("\n```")
        assert "設定は次のとおり。" in chunk.text


def test_a_long_code_block_keeps_its_blank_lines_in_every_part():
    limits = ChunkLimits(target_chars=120, max_chars=160, min_chars=20)
    functions = [f"def f{i}(x):\n    return x + {i}\n" for i in range(6)]
    chunks = chunk_blocks(_blocks("関数:", "```python\n" + "\n".join(functions) + "```"), limits)
    bodies = [c.text.split("```python\n", 1)[1].removesuffix("\n```") for c in chunks]
    assert len(bodies) >= 2
    assert "\n".join(bodies).count("\n\n") >= 4  # the blank lines between functions stay
    assert all("\n\n" in body for body in bodies)


def test_a_list_item_longer_than_a_chunk_is_cut_but_nothing_is_lost():
    limits = ChunkLimits(target_chars=100, max_chars=140, min_chars=20)
    item = "- " + "とても長い説明が続く。" * 20
    chunks = chunk_blocks(_blocks(item), limits)
    assert all(len(c.text) <= limits.max_chars for c in chunks)
    assert "".join(c.text.split("\n\n", 1)[1] for c in chunks) == item


def test_a_sentence_end_inside_bold_or_code_ends_no_sentence():
    text = "**P1。夜間は作業しない。** 2人で作業する。`a。b` を使う。"
    assert split_sentences(text) == [
        "**P1。夜間は作業しない。** ",
        "2人で作業する。",
        "`a。b` を使う。",
    ]


def test_a_code_block_indented_under_a_step_stays_with_it():
    # a runbook: each step with its command, as Markdown nests a fence in a list item
    limits = ChunkLimits(target_chars=60, max_chars=90, min_chars=10)
    steps = [
        "1. 状態を見る。",
        "   ```shell\n   kubectl get pods\n   - name: x\n   ```",
        "2. 再起動する。",
    ]
    steps += ["   ```shell\n   kubectl rollout restart deploy/gw\n   ```", "3. 待つ。"]
    chunks = chunk_blocks(_blocks("手順は次のとおり。", *steps), limits)
    texts = [c.text for c in chunks]
    assert any(
        "1. 状態を見る。\n   ```shell\n   kubectl get pods\n   - name: x\n   ```" in t
        for t in texts
    )
    assert any("2. 再起動する。\n   ```shell\n   kubectl rollout restart" in t for t in texts)
    assert all(t.count("```") % 2 == 0 for t in texts)  # no part opens a fence it leaves open


def test_a_long_listing_parts_at_statements_and_a_long_statement_repeats_its_opening():
    limits = ChunkLimits(target_chars=200, max_chars=260, min_chars=20)
    small = "CREATE TABLE room (\n    id bigint,\n    code text\n);"
    columns = "\n".join(f"    column_{i} integer NOT NULL," for i in range(10))
    large = f"CREATE TABLE booking (\n{columns}\n    version integer\n);"
    listing = f"```sql\n{small}\n\n{large}\n```"
    chunks = chunk_blocks(_blocks("表の定義。", listing), limits)
    bodies = [c.text.split("```sql\n", 1)[1].removesuffix("\n```") for c in chunks]
    assert bodies[0] == small  # the short statement whole, not run into the long one
    # says which table, and opens on it, not on the blank line that parted the statements
    assert all(b.startswith("CREATE TABLE booking (") for b in bodies[1:])
    assert len(bodies) >= 3 and "    version integer\n);" in bodies[-1]
