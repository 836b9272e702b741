"""Markdown, HTML and plain text → blocks with heading paths."""

import codecs

import pytest

from services.common.errors import InvalidInput
from services.ingestor.markdown import parse_markdown, with_outer_pipes
from services.ingestor.parsing import decode_text
from services.ingestor.plaintext import looks_like_markdown, parse_plain_text
from services.ingestor.webpage import parse_html
from services.reasoning.extractive.units import ROW, SENTENCE, units_of


def test_markdown_heading_paths_fences_setext_and_front_matter():
    text = """---
author: someone
---
# 統計入門

はじめに。
改行された
文章。

## 平均

### 算術平均
合計を個数で割る。

```python
# a comment, not a heading
x = 1
```

## 分散
偏差の二乗の平均。

Setext heading
==============
after
"""
    title, blocks = parse_markdown(text)
    assert title == "統計入門"
    assert [(b.heading_path, b.text) for b in blocks] == [
        (("統計入門",), "はじめに。改行された文章。"),  # CJK line breaks joined without spaces
        (("統計入門", "平均", "算術平均"), "合計を個数で割る。"),
        (
            ("統計入門", "平均", "算術平均"),
            "```python\n# a comment, not a heading\nx = 1\n```",
        ),
        (("統計入門", "分散"), "偏差の二乗の平均。"),
        (("Setext heading",), "after"),
    ]


def test_a_table_without_outer_pipes_is_read_as_a_table():
    text = """## 性能

索引ごとの測定結果を次の表に示す。
方式 | recall@10 | 速さ
--- | :---: | ---
HNSW | 0.98 | 速い
IVFFlat \\| lists | 0.87 | 遅い
"""
    _, blocks = parse_markdown(text)
    assert blocks[0].text.split("\n") == [
        "索引ごとの測定結果を次の表に示す。",
        "| 方式 | recall@10 | 速さ |",
        "| --- | :---: | --- |",
        "| HNSW | 0.98 | 速い |",  # its break to the next Japanese row is not layout
        "| IVFFlat \\| lists | 0.87 | 遅い |",
    ]
    units = units_of(blocks[0].text)
    assert [u.kind for u in units] == [SENTENCE, ROW, ROW, ROW]
    assert units[2].text == "HNSW | 0.98 | 速い"


@pytest.mark.parametrize(
    "lines",
    [
        ["a | b", "c | d"],  # no delimiter row
        ["見出しのような行", "---"],  # a rule, not a one-cell table
        ["a | b | c", "--- | ---"],  # the delimiter row does not match the header
    ],
)
def test_lines_with_pipes_but_no_table_stay_as_written(lines):
    assert with_outer_pipes(lines) == lines


def test_markdown_without_h1_has_no_title():
    title, blocks = parse_markdown("## Only a section\n\nText.")
    assert title is None
    assert blocks[0].heading_path == ("Only a section",)


def test_html_to_markdownish_blocks():
    html = """<html><head><title>Lecture &amp; Notes</title>
<style>p { color: red }</style><script>var hidden = "never indexed";</script></head>
<body><h1>Lecture 5</h1>
<p>The <strong>p-value</strong> is a probability,<br>not a verdict.</p>
<h2>Lists</h2>
<ul><li>first</li><li><p>second</p></li></ul>
<ol><li>one</li><li>two</li></ol>
<h2>Code and tables</h2>
<pre>t = (x - mu) / (s / sqrt(n))
  indented</pre>
<table><tr><th>Decision</th><th>H0 true</th></tr><tr><td>Reject</td><td>Type<br>I</td></tr></table>
<h3>日本語</h3><p>帰無仮説は
棄却されない。</p>
</body></html>"""
    title, blocks = parse_html(html)
    assert title == "Lecture & Notes"
    got = [(b.heading_path, b.text) for b in blocks]
    assert got == [
        (("Lecture 5",), "The **p-value** is a probability,\nnot a verdict."),
        (("Lecture 5", "Lists"), "- first"),
        (("Lecture 5", "Lists"), "- second"),
        (("Lecture 5", "Lists"), "1. one"),
        (("Lecture 5", "Lists"), "2. two"),
        (
            ("Lecture 5", "Code and tables"),
            "```\nt = (x - mu) / (s / sqrt(n))\n  indented\n```",
        ),
        (
            ("Lecture 5", "Code and tables"),
            "| Decision | H0 true |\n|---|---|\n| Reject | Type I |",
        ),
        (("Lecture 5", "Code and tables", "日本語"), "帰無仮説は棄却されない。"),
    ]
    assert not any("hidden" in b.text or "color" in b.text for b in blocks)


def test_html_superscripts_and_subscripts_read_as_the_page_shows_them():
    html = (
        "<p>A gain of 10<sup>3</sup> at f<sub>0</sub>; plot V<sub>R</sub>/V<sub>R,max</sub>"
        " in the 1<sup>st</sup> lab.<a href='#fn1' role='doc-noteref'><sup>1</sup></a></p>"
        "<p>試験は7月30日です。<sup><a href='#ftnt1'>[1]</a></sup></p>"
    )
    _, blocks = parse_html(html)
    # 10<sup>3</sup> was "103"; what Unicode cannot raise or lower is written as a formula
    # is (V_{R,max}); a footnote's mark, a link, reads as it did (pandoc's goes)
    assert [b.text for b in blocks] == [
        "A gain of 10³ at f₀; plot V_R/V_{R,max} in the 1st lab.",
        "試験は7月30日です。[1]",
    ]


def test_html_text_a_style_raises_or_lowers_reads_as_sup_and_sub_do():
    html = (
        "<style>.c5{vertical-align:super;font-size:60%}.c7{vertical-align:sub}</style>"
        '<p>k = 24 M<span class="c5">−2</span> s<span class="c5">−1</span> for N'
        '<span class="c7">2</span>O<span class="c7">5</span>'
        ' at 10<span style="vertical-align: super">3</span> K</p>'
    )
    _, blocks = parse_html(html)
    # Google Docs raises text by a class, not by <sup>: "M−2" had read as M minus 2
    assert [b.text for b in blocks] == ["k = 24 M⁻² s⁻¹ for N₂O₅ at 10³ K"]


def test_plain_text_fields_of_a_notice_stay_a_line_each():
    text = (
        "日時：1月29日（金）2限（60分）\n教室：奇数の人は L-101、\n　　偶数の人は L-102\n"
        "座席：指定席です。\n"
    )
    _, blocks = parse_plain_text(text)
    # each field its own line, a field's wrapped line joined to it
    assert blocks[0].text.split("\n") == [
        "日時：1月29日（金）2限（60分）",
        "教室：奇数の人は L-101、偶数の人は L-102",
        "座席：指定席です。",
    ]


def test_html_mathjax_is_read_as_markdown_math():
    html = (
        "<p>With at most \\(W\\) bytes in flight the throughput is bounded by</p>"
        "<p>\\[ \\text{throughput} \\le \\frac{W}{\\mathrm{RTT}} \\]</p>"
        "<pre><code>print(r'\\[not math\\]')</code></pre>"
    )
    _, blocks = parse_html(html)
    assert [(b.kind, b.text) for b in blocks] == [
        ("prose", "With at most $W$ bytes in flight the throughput is bounded by"),
        ("formula", "$$\n\\text{throughput} \\le \\frac{W}{\\mathrm{RTT}}\n$$"),
        ("code", "```\nprint(r'\\[not math\\]')\n```"),
    ]


def test_html_cells_spanning_rows_and_columns_stand_in_each_of_them():
    # a Word or wiki table with merged cells: without the spans the rows below a rowspan
    # shift one column left
    html = (
        "<table><tr><th>項目</th><th colspan=2>内容</th></tr>"
        "<tr><td rowspan=2>評価</td><td>演習</td><td>40%</td></tr>"
        "<tr><td>試験</td><td>60%</td></tr>"
        "<tr><td>備考</td><td colspan='2'>出席は含めない</td></tr></table>"
    )
    _, blocks = parse_html(html)
    assert blocks[0].text.split("\n") == [
        "| 項目 | 内容 | 内容 |",
        "|---|---|---|",
        "| 評価 | 演習 | 40% |",
        "| 評価 | 試験 | 60% |",
        "| 備考 | 出席は含めない | 出席は含めない |",
    ]


def test_markdown_with_html_tables_details_and_footnotes_reads_as_markdown():
    text = (
        "---\ntitle: Regression basics\n---\n\n"
        "Daily trips, n = 91.[^1]\n\n"
        "<table>\n<tr><th>term</th><th>p</th></tr>\n<tr><td>rain</td><td>&lt; 0.001</td></tr>\n"
        '<tr><td colspan="2">R² = 0.680</td></tr>\n</table>\n\n'
        "<details>\n<summary>Overfitting</summary>\n\nKeep 10 rows per predictor.\n\n</details>\n\n"
        "[^1]: Data: Minato Bike,\n    released under CC BY 4.0.\n"
    )
    title, blocks = parse_markdown(text)
    assert title == "Regression basics"
    assert [b.text for b in blocks] == [
        "Daily trips, n = 91. (Data: Minato Bike, released under CC BY 4.0.)",
        "| term | p |\n|---|---|\n| rain | < 0.001 |\n| R² = 0.680 |  |",
        "**Overfitting**",
        "Keep 10 rows per predictor.",
    ]


def test_a_footnote_read_before_a_full_stop_keeps_one_full_stop():
    text = "提出は何度でもできる[^1]。\n\n[^1]: 最後の提出を採点する。\n"
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == ["提出は何度でもできる (最後の提出を採点する)。"]


def test_html_site_menus_and_footer_are_no_content():
    html = (
        "<nav><ul><li>Home</li><li>Syllabus</li></ul></nav>"
        "<main><h1>DS-2140</h1><p>Lectures are on Tuesdays.</p></main>"
        "<footer><p>© 2026 Built with Hugo</p></footer>"
    )
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == ["Lectures are on Tuesdays."]


def test_html_skip_link_is_furniture_and_an_image_is_its_alt_text():
    html = (
        '<a class="skip-link" href="#main">本文へスキップ</a>'
        '<main id="main"><p>成績は次のとおり。</p>'
        '<figure><img src="grading.svg" alt="成績の内訳を示す円グラフ">'
        "<figcaption>図1 成績の内訳</figcaption></figure>"
        '<p><img src="logo.png" alt="logo.png"><a href="#top">上へ</a></p></main>'
    )
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == [
        "成績は次のとおり。",
        "成績の内訳を示す円グラフ",
        "図1 成績の内訳",
        "上へ",  # a link within the page that skips nothing stays
    ]


def test_html_layout_table_is_read_as_the_sections_it_frames():
    # an LMS page laid out in a table: its cells hold headings, prose and data tables
    html = (
        '<table class="layout"><tr><td class="main">'
        "<h2>CS-2310</h2><p>水曜3限、K-302。</p>"
        "<h3>成績</h3><table><tr><th>項目</th><th>割合</th></tr>"
        "<tr><td>演習</td><td>40%</td></tr></table>"
        "<p>追試はない。</p>"
        '</td><td class="side"><h3>連絡</h3><p>質問は掲示板へ。</p></td></tr></table>'
    )
    _, blocks = parse_html(html)
    assert [(b.heading_path[-1], b.text) for b in blocks] == [
        ("CS-2310", "水曜3限、K-302。"),
        ("成績", "| 項目 | 割合 |\n|---|---|\n| 演習 | 40% |"),
        ("成績", "追試はない。"),
        ("連絡", "質問は掲示板へ。"),
    ]


def test_html_site_banner_is_furniture_but_an_articles_header_is_not():
    html = (
        '<header class="navbar"><a href="/">Tsubame LMS</a><ul><li>マイコース</li></ul></header>'
        "<main><article><header><h1>第3回 ヒープ</h1><p>2026-05-13 更新</p></header>"
        "<p>ヒープは完全二分木である。</p></article></main>"
    )
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == ["2026-05-13 更新", "ヒープは完全二分木である。"]


def test_html_what_the_page_hides_is_left_out():
    html = (
        "<style>.print-only{display:none} @media print{.screen-only{display:none}}</style>"
        "<p>課題は5つ。</p>"
        '<div class="print-only">このページは LMS から印刷されました。</div>'
        '<div class="screen-only">最新の情報は LMS で。</div>'
        "<section hidden><p>旧い締切：7月7日</p></section>"
        '<span style="display: none">下書き</span><img src="x.png" alt="" hidden>'
        "<p>締切は火曜。</p>"
    )
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == ["課題は5つ。", "最新の情報は LMS で。", "締切は火曜。"]


def test_obsidian_markdown_reads_as_its_reading_view_shows_it():
    text = (
        "# Pipelines\n\n"
        "> [!tip] 覚え方\n"
        "> ハザードは3種類。詳しくは [[02_hazards|ハザードのノート]] と [[03_cache]]。\n\n"
        "%% 去年は例題が違った %%\n"
        "速くした部分の効果は==頭打ちになる==。![[amdahl.png]]\n\n"
        "```c\nif (a == b) x = m[[i]];\n```\n\n"
        "> [!warning]\n> `[[...]]` はリンクです。\n"
    )
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == [
        "> **覚え方**\n> ハザードは3種類。詳しくは ハザードのノート と 03_cache。",
        "速くした部分の効果は**頭打ちになる**。",
        "```c\nif (a == b) x = m[[i]];\n```",
        "> **Warning**\n> `[[...]]` はリンクです。",
    ]


def test_a_notebooks_cell_magic_is_no_obsidian_comment():
    # two %%writefile cells: what lies between them is code and output, not a comment
    text = (
        "```python\n%%writefile rules.py\nLIMIT = 24\n```\n\n"
        "The test fails for exactly_24h.\n\n"
        "```python\n%%writefile test_rules.py\nassert LIMIT == 24\n```\n"
    )
    _, blocks = parse_markdown(text)
    assert "The test fails for exactly_24h." in [b.text for b in blocks]
    assert sum("%%writefile" in b.text for b in blocks) == 2


def test_a_percent_pair_in_code_opens_no_comment_and_nothing_after_it_is_lost():
    # `%%` in a code span, then a yacc spec whose sections %% separates: all of it is text
    text = (
        "仕様は `%%` で区切る。\n\n"
        "```\n%token NUM\n%%\nexpr : expr '+' NUM ;\n%%\n```\n\n"
        "生成物は y.tab.c である。\n"
    )
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == [
        "仕様は `%%` で区切る。",
        "```\n%token NUM\n%%\nexpr : expr '+' NUM ;\n%%\n```",
        "生成物は y.tab.c である。",
    ]


def test_reference_style_links_read_as_inline_links_and_their_definitions_go():
    text = (
        "規格は [IEEE 754 の概要][ieee] を、演習は [NumHub][] を見ること。`m[i][j]` は配列。\n\n"
        '[ieee]: https://lms.example/ieee754.pdf "IEEE 754"\n'
        "[numhub]: <https://numhub.example/guide>\n"
    )
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == [
        "規格は [IEEE 754 の概要](https://lms.example/ieee754.pdf) を、演習は "
        "[NumHub](https://numhub.example/guide) を見ること。`m[i][j]` は配列。"
    ]


def test_a_marp_decks_speaker_notes_read_as_text_and_its_directives_go():
    # Marp: a comment that sets the slide's look, and one that holds the speaker's notes
    text = (
        "---\nmarp: true\n---\n# Fitts's law\n\n<!-- _class: lead -->\n<!-- paginate: false -->\n"
        "Lecture 4\n\n<!--\nSpeaker notes: office hours Tuesdays 15:00, room S-518.\n-->\n\n"
        "```html\n<!-- markup, not a note -->\n```\n"
    )
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == [
        "Lecture 4",
        "Speaker notes: office hours Tuesdays 15:00, room S-518.",
        "```html\n<!-- markup, not a note -->\n```",
    ]


def test_a_comment_outside_a_marp_deck_is_hidden_as_a_rendered_page_hides_it():
    # a wiki's export stamp, an answer the teacher keeps back, a table-of-contents marker
    text = (
        "<!-- exported from the team wiki by t.wojcik -->\n# Runbook\n\n[[_TOC_]]\n\n"
        "Restart the gateway.\n\n<!-- answer: 42 -->\n\n[TOC]\n"
    )
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == ["Restart the gateway."]


def test_a_hand_written_table_of_contents_is_no_text():
    text = (
        "# 講義ノート\n\n## 目次\n\n1. [概要](#1-概要)\n   - 1.1 [目的](#11-目的)\n"
        "   - 1.2 構成](#12-構成)\n"
        "2. [ペルソナ](#2-ペルソナ)\n\n## 1. 概要\n\n設計を繰り返す。\n\n"
        "- [the course page](https://lms.example/c/1)\n- [その他](#その他)\n\n"
        "```markdown\n- [a](#a)\n- [b](#b)\n```\n"
    )
    _, blocks = parse_markdown(text)
    # the list of in-page links goes; a list with a link elsewhere and code stay
    assert [b.text for b in blocks] == [
        "設計を繰り返す。",
        "- [the course page](https://lms.example/c/1)\n- [その他](#その他)",
        "```markdown\n- [a](#a)\n- [b](#b)\n```",
    ]


def test_a_markdown_image_reads_as_its_alt_text_unless_that_only_names_its_file():
    text = (
        "# 設計\n\n![画面遷移の図](doc/assets/flow.png)\n\n![lp.png](doc/assets/lp.png)\n\n"
        "![agent_lp](doc/assets/agent_1.png) 全体像。\n\n![B-tree](fig/4.svg)\n\n"
        "[![build](https://img.shields.io/b.svg)](https://ci.example/x)"
        " [![ci_status](https://img.shields.io/c.svg)](https://ci.example/y)\n\n"
        "`![kept](in/code.png)`\n"
    )
    _, blocks = parse_markdown(text)
    said = ["画面遷移の図", "全体像。", "B-tree", "[build](https://ci.example/x)"]
    said.append("`![kept](in/code.png)`")
    assert [b.text for b in blocks] == said


def test_one_link_to_a_section_is_no_table_of_contents():
    items = "- 提出方法は [提出](#提出) を見ること。\n- [提出](#提出)"
    _, blocks = parse_markdown(f"# 課題\n\n{items}\n")
    assert [b.text for b in blocks] == [items]


def test_an_lms_pages_buttons_are_no_text():
    html = '<div role="main"><button title="完了">完了マークする</button><p>課題は3回。</p></div>'
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == ["課題は3回。"]


def test_a_notion_callout_box_reads_as_its_lines():
    text = "<aside>\n💡 空白の規則を忘れないこと。\n\n</aside>\n\n```html\n<div>\n</div>\n```\n"
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == [
        "💡 空白の規則を忘れないこと。",
        "```html\n<div>\n</div>\n```",
    ]


def test_a_comment_no_later_percent_pair_closes_drops_nothing():
    text = "達成率は 100%% を超えない。\n\n次の課題は構文解析。\n"
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == ["達成率は 100%% を超えない。", "次の課題は構文解析。"]


def test_an_obsidian_comment_over_lines_keeps_the_text_around_it():
    text = "例題は p=0.9。%% 去年の値\nは使わない %%ではなく p=0.8 を使う。\n"
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == ["例題は p=0.9。ではなく p=0.8 を使う。"]


def test_generated_pages_read_without_their_permalinks_line_numbers_and_sidebar():
    # Sphinx / MkDocs: a ¶ permalink in each heading, a Pygments listing set beside its line
    # numbers in a table, a sidebar that is a navigation landmark, a theme footer
    html = (
        '<div role="main"><h1>Parsing<a class="headerlink" href="#p">¶</a></h1>'
        '<h2>FIRST sets<a class="headerlink" href="#f">&para;</a></h2>'
        '<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>'
        '1\n2</pre></div></td><td class="code"><div><pre><code>E  -&gt; T E\'\n'
        "E' -&gt; + T E' | ε\n</code></pre></div></td></tr></table>"
        "<p>FIRST(E) = { (, id }.</p></div>"
        '<div class="sphinxsidebar" role="navigation"><h3>Navigation</h3><p>Syllabus</p></div>'
        '<div class="footer">Powered by Sphinx</div>'
    )
    _, blocks = parse_html(html)
    assert [(b.text, b.heading_path) for b in blocks] == [
        ("```\nE  -> T E'\nE' -> + T E' | ε\n```", ("Parsing", "FIRST sets")),
        ("FIRST(E) = { (, id }.", ("Parsing", "FIRST sets")),
    ]


def test_a_definition_list_reads_each_term_with_its_definition():
    # a Sphinx field list, a glossary: the label and its value stay one line
    html = (
        '<dl class="field-list"><dt>開講<span class="colon">:</span></dt>'
        "<dd><p>後期 火曜 3限</p><p>講義室 E-301</p></dd>"
        "<dt>DFA</dt><dd>決定性有限オートマトン</dd><dt>NFA</dt></dl><p>以上。</p>"
    )
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == [
        "開講: 後期 火曜 3限",
        "講義室 E-301",
        "DFA: 決定性有限オートマトン",
        "NFA",
        "以上。",
    ]


def test_a_pandoc_title_block_and_a_byline_are_the_pages_lines():
    # Pandoc and Quarto put title, author and date in a <header>; R Markdown sets the
    # author and date as <h4>; a footnote's mark is no text
    html = (
        '<header id="title-block-header"><h1 class="title">Quadrature</h1>'
        '<p class="author">Dr H. Lindqvist</p></header>'
        '<h4 class="date">7 May 2026</h4><h2>Simpson</h2>'
        '<p>Error O(h^4)<a href="#fn1" class="footnote-ref" role="doc-noteref"><sup>1</sup></a>.'
        "</p>"
    )
    _, blocks = parse_html(html)
    assert [(b.text, b.heading_path) for b in blocks] == [
        ("Dr H. Lindqvist", ("Quadrature",)),
        ("7 May 2026", ("Quadrature",)),
        ("Error O(h^4).", ("Quadrature", "Simpson")),
    ]


def test_a_codemirror_listing_is_one_code_block():
    # Typora's HTML export: a <pre> per line inside the block's <pre>, and a measuring line
    html = (
        '<pre class="md-fences"><div class="CodeMirror"><div class="CodeMirror-measure">'
        '<pre><span>xxxxxxxxxx</span></pre></div><div class="CodeMirror-code">'
        '<pre class="CodeMirror-line"><span>%token NUM</span></pre>'
        '<pre class="CodeMirror-line"><span>%%</span></pre>'
        '<pre class="CodeMirror-line"><span>expr : NUM ;</span></pre></div></div></pre>'
        "<p>yacc の仕様。</p>"
    )
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == ["```\n%token NUM\n%%\nexpr : NUM ;\n```", "yacc の仕様。"]


def test_word_web_page_list_paragraphs_are_items():
    # Word's "Save as Web Page": the marker and no-break spaces open an ordinary paragraph
    nbsp = "&nbsp;" * 6
    html = (
        "<p class=MsoListParagraphCxSpFirst style='mso-list:l0 level1 lfo1'>"
        f"<span style='mso-list:Ignore'>1.<span>{nbsp} </span></span><b>IF</b> – fetch</p>"
        "<p class=MsoListParagraph style='mso-list:l1 level1 lfo2'>"
        f"<span style='font-family:Symbol'>·<span>{nbsp} </span></span>Data hazard</p>"
        "<p>1.5 cycles on average.</p>"
    )
    _, blocks = parse_html(html)
    assert [b.text for b in blocks] == [
        "1. **IF** – fetch",
        "- Data hazard",
        "1.5 cycles on average.",
    ]


def test_html_title_falls_back_to_h1():
    title, _ = parse_html("<h1>Only heading</h1><p>x</p>")
    assert title == "Only heading"


def test_plain_text_title_of_several_lines_is_text_too():
    head = "第14回　マルチコア\nCA-2140　2026年7月9日　真柴"
    title, blocks = parse_plain_text(f"{head}\n\n■ 1. なぜマルチコアか\n\n周波数は伸びていない。\n")
    assert title == head.replace("\n", " ")
    assert blocks[0].text == head  # the date is quotable, not only a heading


def test_plain_text_title_leaves_out_what_its_block_sets_in_columns():
    rule = "=" * 40
    byline = " " * 30 + "桐生 真澄"
    head = f"{rule}\n 講義メモ　第13回\n 動的計画法 (DP)          2026-07-15\n{byline}\n{rule}"
    title, blocks = parse_plain_text(f"{head}\n\n本文。\n")
    # the date spaced out to the right and the name at the right margin are no title
    assert title == "講義メモ　第13回 動的計画法 (DP)"
    assert "2026-07-15" in blocks[0].text and "=" not in blocks[0].text


def test_plain_text_paragraphs():
    title, blocks = parse_plain_text("第一段落の\n続き。\n\n  \nSecond paragraph\nwraps here.\n")
    assert title is None
    assert [b.text for b in blocks] == ["第一段落の続き。", "Second paragraph\nwraps here."]


def test_plain_text_indented_lines_are_items_and_rows_not_the_sentence_above():
    # notes set off items, formulas and tables with ideographic spaces; a line indented
    # deeper under an item goes on with it
    text = (
        "保存の方法を悪い順に並べる。\n"
        "\u3000\u30001. 平文のまま保存する\n"
        "\u3000\u30002. ソルトなしのハッシュ ―― 同じパスワードは同じ値になり、\n"
        "\u3000\u3000\u3000 事前計算した表が使える\n"
        "\u3000\u3000・ソルトは16バイト\n\n"
        "\u3000\u3000名前\u3000\u3000\u3000出力長\n"
        "\u3000\u3000MD5\u3000\u3000\u3000\u3000128 ビット\n"
        "\u3000\u3000SHA3-256\u3000 256 ビット\n"
    )
    _, blocks = parse_plain_text(text)
    assert [b.text for b in blocks] == [
        "保存の方法を悪い順に並べる。",
        "1. 平文のまま保存する\n"
        "2. ソルトなしのハッシュ ―― 同じパスワードは同じ値になり、\n"
        "  事前計算した表が使える\n"
        "・ソルトは16バイト",
        "| 名前 | 出力長 |\n| --- | --- |\n| MD5 | 128 ビット |\n| SHA3-256 | 256 ビット |",
    ]
    assert [b.kind for b in blocks] == ["prose", "list", "table"]
    items = [" ".join(u.text.split()) for u in units_of(blocks[1].text)]  # one unit per item
    assert (
        items[1]
        == "2. ソルトなしのハッシュ ―― 同じパスワードは同じ値になり、 事前計算した表が使える"
    )


def test_plain_text_marked_section_lines_head_the_text_under_them_and_items_hang():
    text = (
        "講義メモ\n\n"
        "■2\u3000言葉の整理\n"
        "・個人情報：氏名や学籍番号のように、他の情報と\n"
        "\u3000照らし合わせて個人がわかるもの。\n"
        "・匿名加工情報：元に戻せないもの。\n"
    )
    _, blocks = parse_plain_text(text)
    assert [(b.heading_path, b.text) for b in blocks] == [
        (
            ("講義メモ", "■2\u3000言葉の整理"),
            "・個人情報：氏名や学籍番号のように、他の情報と照らし合わせて個人がわかるもの。\n"
            "・匿名加工情報：元に戻せないもの。",
        )
    ]


def test_plain_text_code_and_a_table_between_items_are_blocks_of_their_own():
    text = (
        "1. 複雑度\n"
        "  (1) 目安\n"
        "        1～10\u3000\u3000単純\n"
        "        11～20 \u3000やや複雑\n"
        "  (2) 設定：pyproject.toml に次を書く\n"
        "        [tool.ruff.lint.mccabe]\n"
        "        max-complexity = 10\n"
    )
    _, blocks = parse_plain_text(text)
    assert [b.kind for b in blocks] == ["list", "list", "table", "list", "code"]
    assert blocks[4].text == "```\n[tool.ruff.lint.mccabe]\nmax-complexity = 10\n```"


def test_plain_text_first_line_indent_opens_a_paragraph_and_parenthesised_numbers_head():
    text = "講義ノート\n\n（1）ハッシュ関数とは\n\n\u3000任意の長さの入力から、\n出力を計算する。\n"
    _, blocks = parse_plain_text(text)
    assert [(b.heading_path, b.text) for b in blocks] == [
        (("講義ノート", "（1）ハッシュ関数とは"), "任意の長さの入力から、出力を計算する。")
    ]


def test_plain_text_numbered_and_bracketed_lines_are_headings_below_the_title():
    text = (
        "統計学入門 第3回\n講義ノート\n\n"
        "1. 平均と分散\n\n平均は値の和を個数で割る。\n\n"
        "1.1 分散の式\n\nV = Σ (x - μ)^2 / n\n\n"
        "【補足】\n\n標本分散は n - 1 で割る。\n\n"
        "第2章 検定\n\n帰無仮説を立てる。\n"
    )
    title, blocks = parse_plain_text(text)
    assert title == "統計学入門 第3回 講義ノート"
    paths = {b.text: b.heading_path for b in blocks}
    top = ("統計学入門 第3回 講義ノート",)
    assert paths["平均は値の和を個数で割る。"] == (*top, "1. 平均と分散")
    assert paths["V = Σ (x - μ)^2 / n"] == (*top, "1. 平均と分散", "1.1 分散の式")
    assert paths["標本分散は n - 1 で割る。"] == (*top, "1. 平均と分散", "1.1 分散の式", "【補足】")
    assert paths["帰無仮説を立てる。"] == (*top, "第2章 検定")


def test_plain_text_numbered_one_liners_in_a_row_stay_a_list():
    text = "手順は次のとおり。\n\n1. 準備する\n\n2. 実行する\n\n以上で終わる。"
    title, blocks = parse_plain_text(text)
    assert title is None  # a first paragraph that ends a sentence is no title
    assert [b.text for b in blocks] == [
        "手順は次のとおり。",
        "1. 準備する",
        "2. 実行する",
        "以上で終わる。",
    ]
    assert all(b.heading_path == () for b in blocks)


def test_plain_text_section_titles_set_apart_by_rules_are_headings():
    rule = "=" * 30
    text = (
        f"実験の手引き\n\n{rule}\n1. 進め方\n{rule}\n\n2人1組で行う。\n\n"
        f"{rule}\n2. 安全規則\n{rule}\n(1) 通電中に配線を変えない。\n\n"
        "Notes for TAs\n-------------\nOpen the room early.\n\n"
        f"{rule}\nこの行は見出しではない。\n{rule}\n"
    )
    title, blocks = parse_plain_text(text)
    assert [(b.heading_path, b.text) for b in blocks] == [
        ((title, "1. 進め方"), "2人1組で行う。"),
        ((title, "2. 安全規則"), "(1) 通電中に配線を変えない。"),
        ((title, "Notes for TAs"), "Open the room early."),
        # a sentence between rules is text; the rules themselves are none
        ((title, "Notes for TAs"), "この行は見出しではない。"),
    ]


def test_plain_text_a_sentence_cut_mid_way_goes_on_in_its_indented_line():
    text = "実験2：RC 回路。ノートを実行し、\n  波形を印刷すること。\n  電源は切っておく。\n"
    _, blocks = parse_plain_text(text)
    # the line stopped at 、 and goes on below, indented; an indented line under one that
    # ended its sentence is a line of its own
    assert [b.text for b in blocks] == [
        "実験2：RC 回路。ノートを実行し、波形を印刷すること。",
        "電源は切っておく。",
    ]


def test_plain_text_sentences_and_long_lines_are_never_headings():
    text = "1. データを分割する。\n\n本文。\n\n2 " + "長い行" * 20 + "\n\n本文。"
    _, blocks = parse_plain_text(text)
    assert len(blocks) == 4 and all(b.heading_path == () for b in blocks)


def test_a_text_file_written_in_markdown_is_read_as_markdown():
    text = (
        "# 検索設計\n\n## 索引\n\n**HNSW** を使う。\n\n```sql\nCREATE INDEX i\n\nON t;\n```\n\n"
        "| 設定 | 値 |\n|---|---|\n| m | 16 |\n"
    )
    assert looks_like_markdown(text)
    title, blocks = parse_plain_text(text)
    assert title == "検索設計"
    assert all(b.heading_path == ("検索設計", "索引") for b in blocks)
    assert "```sql\nCREATE INDEX i\n\nON t;\n```" in [b.text for b in blocks]  # one block


@pytest.mark.parametrize(
    "text",
    [
        "1. はじめに\n\n本文。\n\n2. まとめ\n\n本文。",
        "# install the package first\npip install x\n\nThen run it.",  # one shell comment
        "Costs are **high**.",  # one kind of mark
    ],
)
def test_plain_text_with_a_stray_mark_stays_plain_text(text):
    assert not looks_like_markdown(text)


@pytest.mark.parametrize(
    "data",
    [
        "統計".encode(),
        codecs.BOM_UTF8 + "統計".encode(),
        "統計".encode("utf-16"),
        "統計".encode("cp932"),  # Shift_JIS from Japanese Windows/Excel
    ],
)
def test_decodes_common_japanese_encodings(data):
    assert decode_text(data, "x.txt") == "統計"


@pytest.mark.parametrize("encoding", ["euc_jp", "cp932"])
def test_euc_jp_and_shift_jis_are_told_apart(encoding):
    # notes kept on a Unix server are EUC-JP; each encoding decodes some of the other's bytes
    text = "動的計画法のメモ：部分問題の答えを表に残し、同じ計算を二度しない。\n"
    assert decode_text(text.encode(encoding), "dp.txt") == text


def test_undecodable_text_is_refused():
    with pytest.raises(InvalidInput, match="not UTF-8, UTF-16, Shift_JIS, EUC-JP or Windows-1252"):
        decode_text(b"\x81\x00\xff\xfe\xfd", "x.txt")


@pytest.mark.parametrize(
    "text",
    [
        "Crème brûlée et café.\n",  # Shift_JIS would read it as "Cr鑪e br璉馥 et caf"
        "Straße und Größe\n",
        "Señor Muñoz, “smart quotes” — 30 °C\n",
    ],
)
def test_western_windows_text_is_not_read_as_shift_jis(text):
    assert decode_text(text.encode("cp1252"), "notes.txt") == text


@pytest.mark.parametrize(
    "text",
    ["統計学の講義ノートです。\n", "表 1: 平均 12.5 kg、中央値 11.0 kg\n", "統計学入門\n"],
)
def test_shift_jis_japanese_stays_japanese(text):
    assert decode_text(text.encode("cp932"), "notes.txt") == text


def test_plain_text_bullet_lines_stay_lines_while_wrapped_japanese_joins():
    text = "次の点を決める。\n・監視する\n値\n・我慢の回数"
    _, blocks = parse_plain_text(text)
    # a bullet opens a line of its own; a wrapped line (値) joins the one it continues
    assert blocks[0].text == "次の点を決める。\n・監視する値\n・我慢の回数"


def test_an_indented_code_block_is_code_at_the_depth_it_belongs_to():
    # a runbook's commands set four spaces in from their step's text, after a blank line
    text = (
        "## 再実行\n\n1. 状態を見る。\n\n       fmkctl batch status\n\n2. 再実行する。\n\n"
        "       fmkctl batch run\n         --date 2026-04-09\n\n"
        "- 箇条書きの続き:\n\n    続きの段落（項目の本文から2字下げ）\n\n"
        "本文。\n\n    SELECT 1;\n"
    )
    _, blocks = parse_markdown(text)
    assert [b.text for b in blocks] == [
        "1. 状態を見る。",
        "   ```\n   fmkctl batch status\n   ```",
        "2. 再実行する。",
        "   ```\n   fmkctl batch run\n     --date 2026-04-09\n   ```",
        "- 箇条書きの続き:",
        "    続きの段落（項目の本文から2字下げ）",
        "本文。",
        "```\nSELECT 1;\n```",
    ]
