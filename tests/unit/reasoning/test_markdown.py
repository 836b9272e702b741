"""What a reader sees of a Markdown chunk: every word and symbol, none of the markers."""

from __future__ import annotations

from services.reasoning.extractive.markdown import plain_text, table_cells


def test_headings_emphasis_code_spans_and_links_lose_their_markers():
    text = "### 中央値\n\n**中央値**は `median()` で求める。[資料](http://x/y) を参照。"
    assert plain_text(text) == "中央値\n\n中央値は median() で求める。資料 を参照。"


def test_list_items_and_code_lines_stay_one_per_line_without_markers():
    text = "次の観点を確認する。\n\n- 正確性\n- 再現性\n\n```sql\nSELECT 1;\n```"
    assert plain_text(text).splitlines() == [
        "次の観点を確認する。",
        "",
        "正確性",
        "再現性",
        "",
        "SELECT 1;",
    ]


def test_table_rows_keep_their_cells_and_lose_the_rule():
    text = "| 索引 | 向き |\n|---|:---:|\n| GIN | 全文 \\| 配列 |"
    assert plain_text(text).splitlines() == ["索引 | 向き", "GIN | 全文 | 配列"]
    assert table_cells("| a | b |") == ["a", "b"]
    assert table_cells("not | a row") is None


def test_a_line_break_tag_in_a_cell_is_a_space():
    assert plain_text("| 検索 | BM25<br>HNSW<BR/>pg_trgm |") == "検索 | BM25 HNSW pg_trgm"
    assert plain_text('html = "a<br>b"') == 'html = "a<br>b"'  # outside a table it is text


def test_formulas_keep_every_symbol_but_the_dollar_delimiters():
    text = "IDF は $\\log\\frac{N - n + 0.5}{n + 0.5}$ で、\n$$\nk_1 = 1.2\n$$"
    assert plain_text(text) == "IDF は \\log\\frac{N - n + 0.5}{n + 0.5} で、\nk_1 = 1.2"


def test_a_lone_star_or_underscore_is_content_not_a_marker():
    assert plain_text("a * b = c and snake_case_name") == "a * b = c and snake_case_name"
    assert plain_text("SELECT * FROM t WHERE x*y > 1") == "SELECT * FROM t WHERE x*y > 1"
    assert plain_text("they make *different* mistakes") == "they make different mistakes"


def test_stars_inside_code_spans_and_formulas_are_content():
    # CommonMark reads a code span before emphasis: the ** of w**2 is an exponent
    assert plain_text("`np.sum(w**2)` を **太字** で") == "np.sum(w**2) を 太字 で"
    assert plain_text("$a*b$ と *強調* と $c*d$") == "a*b と 強調 と c*d"
    # emphasis around a span still goes, the span kept
    assert plain_text("**`k_1` は 1.2**") == "k_1 は 1.2"
