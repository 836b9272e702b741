"""A passage read as Markdown: the pieces that can answer, each with what introduces it."""

from __future__ import annotations

from services.reasoning.extractive.units import (
    CODE,
    FORMULA,
    HEADING,
    ITEM,
    ROW,
    SENTENCE,
    group_units,
    units_of,
)

LECTURE = """## 索引の作り方

索引を作る前に、次の観点を確認する。

- 問い合わせの頻度
- **選択率**の高さ

| 種類 | 向く検索 |
|---|---|
| B-tree | 範囲 |
| GIN | 全文 |

演習環境では次のように作る。

```sql
-- 書名の部分一致のために
CREATE INDEX idx_title ON books
    USING gin (title gin_trgm_ops);
SELECT *
FROM books
WHERE title LIKE '%索引%';
```

スコアは次の式で求める。

$$
s = \\frac{a}{b}
$$
"""


def kinds(units):
    return [u.kind for u in units]


def test_a_lecture_reads_into_sentences_items_rows_statements_and_a_formula():
    units = units_of(LECTURE)
    assert kinds(units) == [
        HEADING, SENTENCE, ITEM, ITEM, ROW, ROW, ROW, SENTENCE, CODE, CODE, SENTENCE, FORMULA,
    ]  # fmt: skip
    assert all(LECTURE[u.start : u.end].strip() for u in units)  # spans index the passage


def test_list_items_lose_their_markers_and_keep_their_lead_in():
    items = [u for u in units_of(LECTURE) if u.kind == ITEM]
    assert [u.text for u in items] == ["問い合わせの頻度", "選択率の高さ"]
    assert all(u.context == "索引を作る前に、次の観点を確認する。" for u in items)
    assert group_units(units_of(LECTURE), items[1]) == items


def test_plain_text_numbering_makes_items_too():
    notes = "決めておく点は次のとおり。\n\n  (1) 監視する値\n  (2) 我慢の回数\n\n①準備\n②実行"
    items = [u for u in units_of(notes) if u.kind == ITEM]
    assert [u.text for u in items] == ["(1) 監視する値", "(2) 我慢の回数", "①準備", "②実行"]
    assert items[0].context == "決めておく点は次のとおり。"


def test_table_rows_carry_the_header_as_their_context():
    rows = [u for u in units_of(LECTURE) if u.kind == ROW]
    assert rows[1].text == "B-tree | 範囲"
    assert rows[1].context.endswith("種類 | 向く検索")


def test_an_sql_statement_spans_its_lines_and_a_comment_tells_what_it_does():
    code = [u for u in units_of(LECTURE) if u.kind == CODE]
    assert code[0].text == "CREATE INDEX idx_title ON books USING gin (title gin_trgm_ops);"
    assert "書名の部分一致のために" in code[0].context
    assert "演習環境では次のように作る。" in code[0].context
    assert code[1].text == "SELECT * FROM books WHERE title LIKE '%索引%';"


def test_a_display_formula_is_one_unit_without_dollars():
    formula = next(u for u in units_of(LECTURE) if u.kind == FORMULA)
    assert formula.text == "s = \\frac{a}{b}"
    assert formula.context == "スコアは次の式で求める。"


def test_a_yaml_key_holds_its_nested_keys():
    text = "```yaml\nrerank:\n  enabled: true\n  timeout_ms: 120\nlimit: 20\n```"
    code = [u.text for u in units_of(text)]
    assert code == ["rerank: enabled: true timeout_ms: 120", "limit: 20"]


def test_in_a_q_and_a_pair_the_question_is_the_context_of_the_answer():
    units = units_of("Q: 試験に何を持ち込めますか？\nA: 電卓とA4用紙1枚です。")
    assert units[1].text == "A: 電卓とA4用紙1枚です。"
    assert units[1].context == "Q: 試験に何を持ち込めますか？"


def test_a_sentence_is_read_in_the_context_of_the_one_before():
    units = units_of("コミット前の書き込みは見えてはならない。そのため、読み手は設定を変える。")
    assert units[1].context == "コミット前の書き込みは見えてはならない。"


def test_a_parenthesised_remark_with_a_full_stop_stays_inside_its_sentence():
    units = units_of("提出物（表紙を付ける。PDF に限る）は月曜までに出す。次に進む。")
    assert [u.text for u in units] == [
        "提出物（表紙を付ける。PDF に限る）は月曜までに出す。",
        "次に進む。",
    ]


def test_a_sentence_wrapped_over_lines_is_one_sentence_and_a_line_of_its_own_is_not():
    notes = (
        "A journal is written before the data. It is always\n"
        "replayed after a crash: `fsck` is not needed, and recovery takes\n"
        "seconds.\nThe ext4 default is ordered mode\n"
        "Writeback mode is faster\n"
        "Q: 何が速い？\nA: writeback モードは速いが、\n古いデータが見えることがある。"
    )
    units = units_of(notes)
    assert [u.text for u in units] == [
        "A journal is written before the data.",
        "It is always replayed after a crash: fsck is not needed, and recovery takes seconds.",
        "The ext4 default is ordered mode",  # the next line opens with a capital: its own
        "Writeback mode is faster",
        "Q: 何が速い？",
        "A: writeback モードは速いが、 古いデータが見えることがある。",
    ]
    second = units[1]
    assert notes[second.start : second.end].endswith("recovery takes\nseconds.")


def test_what_a_code_block_printed_is_read_with_it_and_a_lone_text_block_is_not():
    cell = (
        "シミュレーションの結果:\n\n```python\nw = simulate(8.0, 10.0)\nprint(f'W={w:.3f}')\n```"
        "\n\n```text\nW=0.489\n```\n\n次の表を見よ。\n\n```text\nq  wait\n```"
    )
    units = [u for u in units_of(cell) if u.kind == CODE]
    assert [(u.text, u.output) for u in units] == [
        ("w = simulate(8.0, 10.0)", False),
        ("print(f'W={w:.3f}')", False),
        ("W=0.489", True),  # printed by the block above it: one group with it
        ("q  wait", False),  # a text block after prose is a block of its own
    ]
    assert units[0].group == units[2].group != units[3].group


def test_a_slide_themes_triangle_bullets_are_items():
    # a Beamer theme prints ▶ where others print •: each line is an item of its own
    units = units_of("今日の流れ：\n▶ シフトと還元\n▶ LR(0) 項と正準集成")
    assert [(u.kind, u.text) for u in units] == [
        (SENTENCE, "今日の流れ："),
        (ITEM, "▶ シフトと還元"),
        (ITEM, "▶ LR(0) 項と正準集成"),
    ]


def test_a_line_right_after_a_closing_fence_is_read():
    passage = "```\nprint(2 + 3)\n```\nThis prints 5."
    assert [(u.kind, u.text) for u in units_of(passage)] == [
        (CODE, "print(2 + 3)"),
        (SENTENCE, "This prints 5."),
    ]


def test_a_command_indented_under_a_step_is_code_in_the_context_of_that_step():
    passage = (
        "1. 状態を見る。\n2. 再起動する。\n   ```shell\n   kubectl rollout restart deploy/gw\n"
        "   ```\n3. 待つ。"
    )
    units = units_of(passage)
    assert [(u.kind, u.text) for u in units] == [
        (ITEM, "1. 状態を見る。"),
        (ITEM, "2. 再起動する。"),
        (CODE, "kubectl rollout restart deploy/gw"),
        (ITEM, "3. 待つ。"),
    ]
    assert units[2].context == "2. 再起動する。"
