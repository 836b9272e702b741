"""Build the two PDF materials of the course_algo eval set.

    .venv/bin/python eval/course_algo/make_pdf.py      (from the repository root)

writes, under eval/course_algo/materials/:

- 03_search_trees_ja.pdf        - Lectures 7-8 handout as Word prints it to PDF: A4 portrait,
                                  a running header (course left, handout name right) and a
                                  centred "- n -" footer on every page, numbered section
                                  headings in a sans face over a serif body, flowing
                                  paragraphs, a footnote (superscript marker in the text, the
                                  note above the footer behind a short rule), a code listing
                                  in a monospace face, two tables, and a glossary set in two
                                  columns (the left column filled first, as Word's column
                                  layout does). Japanese; Noto Serif CJK JP, Noto Sans CJK JP
                                  and Noto Sans Mono CJK JP embedded as fpdf2 embeds them.
- 05_shortest_paths_mst_en.pdf  - Lectures 11-12 slides as Google Slides downloads them as PDF:
                                  10 x 5.625 in pages, Arial-metric Liberation Sans, a title
                                  bar, slide number bottom right and no other footer, several
                                  two-column slides (bullets left, code or a table right).
                                  English.

Creation dates are fixed, so two runs write byte-identical files (fpdf2 2.8.9).
"""

# ruff: noqa: E501  (the hand-written content: a wide character counts as two columns)

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace

OUT = Path(__file__).parent / "materials"
NOTO = Path("/usr/share/fonts/opentype/noto")
LIBERATION = Path("/usr/share/fonts/truetype/liberation")

# =====================================================================================
# 03: Japanese handout printed from Word (A4)
# =====================================================================================
HANDOUT_HEADER = ("CS-2310 アルゴリズムとデータ構造", "第7・8回 配布資料")
# (kind, content) - kinds: title, meta, h1, p, fn (paragraph with a footnote marker "[^1]"),
# item (hanging "(n)" item), code, table, glossary
HANDOUT: list[tuple[str, object]] = [
    ("title", "二分探索木と平衡木"),
    ("meta", "第7回（6月3日）・第8回（6月10日）　担当：桐生 真澄"),
    ("h1", "1. 二分探索木"),
    (
        "p",
        "二分探索木（binary search tree）は、どの節点についても「左の部分木のキーはすべてその節点のキーより小さく、右の部分木のキーはすべて大きい」という性質を持つ二分木である。この性質から、木を中間順（左→自分→右）にたどるとキーが昇順に得られる。",
    ),
    (
        "fn",
        "探索・挿入・削除は根から1本の道をたどるだけなので、どれも木の高さ h に比例する O(h) の時間で済む。問題は高さで、n 個のキーを持つ木の高さは、最良で log n の切り捨て、最悪で n − 1 になる[^1]（この資料では log の底はすべて 2 とする）。たとえば 1, 2, 3, … と整列済みのキーを順に挿入すると、木は右にだけ伸びた一直線になり、探索は連結リストと同じ O(n) になってしまう。",
    ),
    ("p", "削除は、消したい節点 z の子の数で3つの場合に分かれる。"),
    ("item", "(1) z が葉のとき：そのまま取り除く。"),
    ("item", "(2) z の子が1つのとき：その子を z の位置に繰り上げる。"),
    (
        "item",
        "(3) z の子が2つのとき：z の後続節点（右部分木の最小のキーを持つ節点）y を探し、y のキーを z に写してから y を削除する。y は左の子を持たないので、y の削除は (1) か (2) になる。",
    ),
    (
        "code",
        [
            "def insert(node, key):",
            "    if node is None:",
            "        return Node(key)",
            "    if key < node.key:",
            "        node.left = insert(node.left, key)",
            "    elif key > node.key:",
            "        node.right = insert(node.right, key)",
            "    return node            # 同じキーは入れない",
        ],
    ),
    ("h1", "2. AVL 木"),
    (
        "p",
        "AVL 木は、すべての節点で「左の部分木の高さ − 右の部分木の高さ」（平衡係数）が −1, 0, +1 のいずれかになるように保つ二分探索木である。高さ h の AVL 木が持つ節点の最小数を N(h) とすると、N(h) = N(h − 1) + N(h − 2) + 1（N(0) = 1, N(1) = 2）が成り立ち、N(2) = 4, N(3) = 7, N(4) = 12, N(5) = 20 と、フィボナッチ数のように増える。このことから、n 個の節点を持つ AVL 木の高さは約 1.44 log n 以下に収まる。",
    ),
    (
        "p",
        "挿入や削除で平衡係数が ±2 になった節点は、回転によって直す。どの回転を使うかは、偏りの形で決まる。",
    ),
    (
        "table",
        [
            ["形", "原因となった挿入の場所", "直し方"],
            ["LL", "左の子の左部分木", "その節点で右回転を1回"],
            ["RR", "右の子の右部分木", "その節点で左回転を1回"],
            ["LR", "左の子の右部分木", "左の子で左回転してから、その節点で右回転（二重回転）"],
            ["RL", "右の子の左部分木", "右の子で右回転してから、その節点で左回転（二重回転）"],
        ],
    ),
    (
        "p",
        "例：空の AVL 木に 10, 20, 30 を順に挿入すると、10 の平衡係数が −2 になる（RR の形）。10 で左回転すると 20 が根になり、左の子が 10、右の子が 30 となって平衡が戻る。挿入のときに必要な回転は一重か二重のどちらか1回だけで済むが、削除のときは根に向かって何度も回転が必要になることがあり、最悪で O(log n) 回になる。",
    ),
    ("h1", "3. 赤黒木"),
    (
        "p",
        "赤黒木は、各節点に赤か黒の色を付け、次の5つの規則を守ることで高さを抑える二分探索木である。",
    ),
    ("item", "(1) 各節点は赤か黒である。"),
    ("item", "(2) 根は黒である。"),
    ("item", "(3) 葉（NIL）はすべて黒である。"),
    ("item", "(4) 赤い節点の子はどちらも黒である（赤が2つ続かない）。"),
    ("item", "(5) どの節点からも、その子孫の葉までの道に含まれる黒い節点の数は同じである。"),
    (
        "p",
        "これらの規則から、n 個の節点を持つ赤黒木の高さは 2 log(n + 1) 以下になる。AVL 木より平衡の条件が緩いので探索はわずかに遅くなりうるが、挿入での回転は高々2回、削除でも高々3回で済む。このため、挿入と削除の多い用途に向いており、C++ の std::map や Java の TreeMap の実装に使われている。",
    ),
    ("h1", "4. B 木"),
    (
        "p",
        "B 木は、1つの節点に多数のキーを持たせた多分木で、ディスクのように「1回の読み込みは遅いが、一度に大きなブロックを読める」記憶装置のために作られた。最小次数を t（t ≥ 2）とすると、根以外の節点はキーを t − 1 個以上 2t − 1 個以下持ち、すべての葉は同じ深さにある。挿入の途中で満杯（2t − 1 個）の節点に出会ったら、真ん中のキーを親に上げて2つに分割する。",
    ),
    (
        "p",
        "n 個のキーを持つ B 木の高さ h は h ≤ log_t((n + 1)/2) を満たす。例として t = 100、n = 1億 とすると、log_100(5000万) ≈ 3.85 なので高さは 3 以下であり、根から葉までたどっても節点は4つ、つまりディスクの読み込みは4回で済む。データベースの索引やファイルシステムで使われるのはこのためである。",
    ),
    ("h1", "5. まとめ"),
    (
        "table",
        [
            ["構造", "探索（最悪）", "挿入・削除（最悪）", "高さの上限", "主な用途"],
            ["二分探索木", "O(n)", "O(n)", "n − 1", "入門・乱数のキー"],
            ["AVL 木", "O(log n)", "O(log n)", "約 1.44 log n", "探索が多い場面"],
            ["赤黒木", "O(log n)", "O(log n)", "2 log(n + 1)", "標準ライブラリの連想配列"],
            ["B 木", "O(log n)", "O(log n)", "log_t((n + 1)/2)", "データベースの索引"],
        ],
    ),
    ("h1", "6. 中間小テストについて"),
    (
        "p",
        "中間小テストは6月10日（水）、第8回の最初の30分に K-302 で行う。範囲は第1〜7回、記述式の4問で、持ち込みは不可、電卓も使わない。昨年度の平均点は10点満点中6.1点だった。特に間違いが多かったのは、AVL 木の二重回転の途中の形を書く問題である。欠席した場合の扱いは Tsubame LMS の FAQ を見ること。",
    ),
    ("h1", "7. 用語集"),
    (
        "glossary",
        [
            ("節点", "node。木を構成する要素"),
            ("根", "root。親を持たない唯一の節点"),
            ("葉", "leaf。子を持たない節点"),
            ("高さ", "height。根から最も深い葉までの辺の数"),
            ("深さ", "depth。根からその節点までの辺の数"),
            ("回転", "rotation。中間順を保ったまま親子を入れ替える操作"),
            ("平衡係数", "balance factor。左右の部分木の高さの差"),
            ("後続節点", "successor。中間順で次に来る節点"),
            ("中間順走査", "in-order traversal。左→自分→右の順に訪れる"),
            ("最小次数", "minimum degree。B 木の節点の大きさを決める t"),
        ],
    ),
]
FOOTNOTE = "この授業では、節点が1つだけの木の高さを 0、空の木の高さを −1 とする。参考書によっては節点の数で数えて1ずつ大きくなるので、答案では定義を書いてから使うこと。"


class HandoutPDF(FPDF):
    def __init__(self):
        super().__init__(orientation="P", unit="mm", format="A4")
        self.set_margins(30, 30, 30)
        self.set_auto_page_break(auto=True, margin=38)
        self.footnote_page: int | None = None

    def header(self) -> None:
        self.set_font("Sans", "", 8)
        self.set_text_color(100, 100, 100)
        self.set_xy(30, 15)
        self.cell(75, 5, HANDOUT_HEADER[0])
        self.set_xy(105, 15)
        self.cell(75, 5, HANDOUT_HEADER[1], align="R")
        self.set_text_color(0, 0, 0)
        self.set_y(30)

    def footer(self) -> None:
        if self.page_no() == self.footnote_page:
            self.set_draw_color(0, 0, 0)
            self.set_line_width(0.2)
            self.line(30, self.h - 36, 80, self.h - 36)
            self.set_xy(30, self.h - 34.5)
            self.set_font("Serif", "", 7)
            self.cell(4, 4, "1")
            self.set_font("Serif", "", 8.5)
            self.set_xy(34, self.h - 34)
            self.multi_cell(146, 4.2, FOOTNOTE)
        self.set_y(-18)
        self.set_font("Serif", "", 9)
        self.cell(0, 5, f"- {self.page_no()} -", align="C")


def _paragraph(pdf: HandoutPDF, text: str) -> None:
    pdf.set_font("Serif", "", 10.5)
    pdf.set_x(30)
    if "[^1]" in text:
        before, after = text.split("[^1]")
        pdf.write(6.2, "　" + before)
        pdf.char_vpos = "SUP"
        pdf.write(6.2, "1")
        pdf.char_vpos = "LINE"
        pdf.footnote_page = pdf.page_no()
        pdf.write(6.2, after)
        pdf.ln(6.2)
    else:
        pdf.multi_cell(150, 6.2, "　" + text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)


def _glossary(pdf: HandoutPDF, entries: list[tuple[str, str]]) -> None:
    """Two columns as Word lays out a column section: left column first, then the right."""
    pdf.set_font("Serif", "", 9.5)
    if pdf.get_y() + 70 > pdf.page_break_trigger:
        pdf.add_page()
    top = pdf.get_y()
    half = (len(entries) + 1) // 2
    bottoms = []
    for column, chunk in enumerate((entries[:half], entries[half:])):
        x = 30 + column * 77
        pdf.set_y(top)
        for term, meaning in chunk:
            pdf.set_x(x)
            pdf.set_font("Sans", "B", 9.5)
            pdf.cell(73, 5.4, term, new_x="LEFT", new_y="NEXT")
            pdf.set_x(x + 4)
            pdf.set_font("Serif", "", 9.5)
            pdf.multi_cell(69, 5.4, meaning, new_x="LEFT", new_y="NEXT")
            pdf.ln(1)
        bottoms.append(pdf.get_y())
    pdf.set_y(max(bottoms))


def build_handout(path: Path) -> None:
    pdf = HandoutPDF()
    pdf.add_font("Serif", "", NOTO / "NotoSerifCJK-Regular.ttc", collection_font_number=0)
    pdf.add_font("Sans", "", NOTO / "NotoSansCJK-Regular.ttc", collection_font_number=0)
    pdf.add_font("Sans", "B", NOTO / "NotoSansCJK-Bold.ttc", collection_font_number=0)
    pdf.add_font("Mono", "", NOTO / "NotoSansCJK-Regular.ttc", collection_font_number=5)
    pdf.set_title("二分探索木と平衡木（第7・8回）")
    pdf.set_author("桐生 真澄")
    pdf.set_creator("Microsoft® Word for Microsoft 365")
    pdf.set_producer("Microsoft® Word for Microsoft 365")
    pdf.set_creation_date(dt.datetime(2026, 6, 2, 18, 20, tzinfo=dt.UTC))
    pdf.add_page()
    for n, (kind, content) in enumerate(HANDOUT):
        if kind == "title":
            pdf.set_font("Sans", "B", 18)
            pdf.cell(0, 11, content, align="C", new_x="LMARGIN", new_y="NEXT")
        elif kind == "meta":
            pdf.set_font("Serif", "", 10)
            pdf.cell(0, 7, content, align="C", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
        elif kind == "h1":
            following = HANDOUT[n + 1][0] if n + 1 < len(HANDOUT) else ""
            needed = 85 if following == "glossary" else 30  # Word's "keep with next"
            if pdf.get_y() + needed > pdf.page_break_trigger:
                pdf.add_page()
            pdf.ln(2)
            pdf.set_font("Sans", "B", 12.5)
            pdf.cell(0, 8.5, content, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(0.5)
        elif kind in ("p", "fn"):
            _paragraph(pdf, content)
        elif kind == "item":
            pdf.set_font("Serif", "", 10.5)
            label, _, text = content.partition(" ")
            pdf.set_x(36)
            pdf.cell(9, 6.2, label)
            pdf.multi_cell(135, 6.2, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(0.5)
        elif kind == "code":
            pdf.ln(1.5)
            pdf.set_font("Mono", "", 9)
            pdf.set_fill_color(242, 242, 242)
            for line in content:
                pdf.set_x(36)
                pdf.cell(138, 5, line, fill=True, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        elif kind == "table":
            pdf.ln(1)
            pdf.set_font("Sans", "", 9)
            heading = FontFace(emphasis="BOLD", fill_color=(217, 226, 243))
            with pdf.table(
                headings_style=heading, line_height=5.6, width=150, padding=1.2
            ) as table:
                for row in content:
                    cells = table.row()
                    for value in row:
                        cells.cell(value)
            pdf.ln(3)
        elif kind == "glossary":
            _glossary(pdf, content)
    path.write_bytes(bytes(pdf.output()))


# =====================================================================================
# 05: English slides downloaded from Google Slides as PDF
# =====================================================================================
# A slide: title, bullets [(level, text)], right: {"code": [...]} | {"table": [[...]]} |
# {"bullets": [...], "heading": str}, left_heading, box (a framed line), table (full width)
SLIDES: list[dict] = [
    {
        "cover": True,
        "title": "Shortest Paths and Minimum Spanning Trees",
        "lines": [
            "CS-2310 Algorithms and Data Structures · Lectures 11–12",
            "Dr Daniel Okafor · 1 and 8 July 2026",
        ],
    },
    {
        "title": "Single-source shortest paths",
        "bullets": [
            (0, "Input: a directed graph, edge weights w(u, v), a source s"),
            (0, "Goal: δ(s, v), the smallest total weight of a path from s to every v"),
            (
                0,
                "Every algorithm today keeps an estimate d[v] ≥ δ(s, v) and lowers it by relaxation",
            ),
            (1, "Start: d[s] = 0 and d[v] = ∞ for every other v"),
            (0, "The algorithms differ only in the order in which edges are relaxed"),
        ],
        "box": "relax(u, v):  if d[u] + w(u, v) < d[v]  then  d[v] ← d[u] + w(u, v),  parent[v] ← u",
    },
    {
        "title": "Dijkstra's algorithm",
        "bullets": [
            (0, "Needs w(u, v) ≥ 0 for every edge"),
            (
                0,
                "Repeatedly take the unfinished vertex with the smallest d[u], finish it, relax its edges",
            ),
            (0, "Binary heap: O((n + m) log n)"),
            (0, "Plain array instead of a heap: O(n²), better when the graph is dense"),
            (0, "heapq has no decrease-key: push a new pair and skip stale ones when popped"),
        ],
        "right": {
            "code": [
                "def dijkstra(adj, s):",
                "    d = [INF] * len(adj)",
                "    d[s] = 0",
                "    pq = [(0, s)]",
                "    while pq:",
                "        du, u = heappop(pq)",
                "        if du > d[u]:",
                "            continue   # stale",
                "        for v, w in adj[u]:",
                "            if du + w < d[v]:",
                "                d[v] = du + w",
                "                heappush(pq, (d[v], v))",
                "    return d",
            ]
        },
    },
    {
        "title": "Why a negative edge breaks Dijkstra",
        "bullets": [
            (0, "Edges: s → a (2), s → b (5), b → a (−4)"),
            (0, "Dijkstra finishes a first with d[a] = 2, because 2 < 5"),
            (0, "But the path s → b → a costs 5 + (−4) = 1"),
            (0, "A finished vertex is never updated again, so the answer 2 is wrong"),
            (
                0,
                "Adding a constant to every edge does not fix it: paths with more edges get penalised more",
            ),
        ],
    },
    {
        "title": "Bellman–Ford",
        "bullets": [
            (0, "Relax every edge, n − 1 rounds in total: O(nm)"),
            (0, "Works with negative edges"),
            (0, "A shortest path has at most n − 1 edges, so n − 1 rounds are enough"),
            (
                0,
                "Run one more round: if some d[v] still decreases, a negative cycle is reachable from s",
            ),
            (0, "Stop early when a whole round changes nothing"),
        ],
    },
    {
        "title": "Which algorithm when?",
        "table": [
            ["Situation", "Algorithm", "Time"],
            ["No weights (or all equal)", "BFS", "O(n + m)"],
            ["Weights ≥ 0", "Dijkstra with a binary heap", "O((n + m) log n)"],
            ["Negative weights allowed", "Bellman–Ford", "O(nm)"],
            ["DAG, any weights", "Relax in topological order", "O(n + m)"],
            ["All pairs, n small", "Floyd–Warshall (Lecture 14)", "O(n³)"],
        ],
    },
    {
        "title": "Assignment 4: Campus Navigator",
        "bullets": [
            (0, "Campus graph: 212 vertices, 583 undirected edges"),
            (1, "Weight = walking time in seconds"),
            (
                0,
                "Up to 5,000 queries (s, t): print the shortest time, or −1 if t cannot be reached",
            ),
            (0, "Hanabi Judge problem A4-NAV, Python or C, 2 s per test"),
            (0, "Due Tuesday 14 July, 23:59"),
            (0, "8 points: 6 from the judge, 2 from a one-page report (English or Japanese)"),
        ],
        "right": {
            "heading": "Input format",
            "code": [
                "n m q",
                "u1 v1 w1",
                "...          (m lines)",
                "s1 t1",
                "...          (q lines)",
            ],
            "after": [
                "Hint: 212³ ≈ 9.5 million, so Floyd–Warshall also passes in C.",
                "Test 17: the Lab Annex is closed for building work and has no edges.",
            ],
        },
    },
    {
        "title": "Minimum spanning trees (MST)",
        "bullets": [
            (
                0,
                "Connected, undirected, weighted graph: choose n − 1 edges that connect all vertices with the smallest total weight",
            ),
            (0, "Cut property: the lightest edge crossing any cut belongs to some MST"),
            (
                0,
                "Cycle property: the heaviest edge on a cycle belongs to no MST (if it is the unique heaviest)",
            ),
            (0, "If all weights are different, the MST is unique"),
        ],
    },
    {
        "title": "Kruskal or Prim?",
        "left_heading": "Kruskal",
        "bullets": [
            (0, "Sort the edges by weight"),
            (0, "Take an edge unless it closes a cycle"),
            (0, "Cycle test with union–find"),
            (0, "O(m log m), dominated by the sort"),
            (0, "Good when the edges are already sorted or the graph is sparse"),
        ],
        "right": {
            "heading": "Prim",
            "bullets": [
                "Grow one tree from a start vertex",
                "Always add the lightest edge leaving the tree",
                "Priority queue of candidate edges",
                "O(m log n) with a binary heap",
                "Good for dense graphs (O(n²) with an array)",
            ],
        },
    },
    {
        "title": "Union–find (disjoint sets)",
        "bullets": [
            (0, "find(x): the representative of x's set; union(x, y): merge two sets"),
            (0, "Union by rank: hang the shorter tree under the taller one"),
            (0, "Path compression: point every visited node straight at the root"),
            (0, "With both: amortised O(α(n)) per operation"),
            (1, "α is the inverse Ackermann function; α(n) ≤ 4 for any n you will ever meet"),
        ],
        "right": {
            "code": [
                "def find(x):",
                "    while parent[x] != x:",
                "        parent[x] = parent[parent[x]]",
                "        x = parent[x]",
                "    return x",
                "",
                "def union(a, b):",
                "    a, b = find(a), find(b)",
                "    if a == b:",
                "        return False",
                "    if rank[a] < rank[b]:",
                "        a, b = b, a",
                "    parent[b] = a",
                "    if rank[a] == rank[b]:",
                "        rank[a] += 1",
                "    return True",
            ]
        },
    },
    {
        "title": "Worked example: Kruskal",
        "bullets": [
            (0, "Edges in weight order: A–C 1, B–C 2, D–E 3, A–B 4, B–D 5, C–D 8, C–E 10"),
            (0, "Take A–C (1), B–C (2), D–E (3)"),
            (0, "Skip A–B (4): A and B are already connected through C"),
            (0, "Take B–D (5): now all five vertices are connected, stop"),
            (0, "MST = {A–C, B–C, D–E, B–D}, total weight 11"),
        ],
    },
    {
        "title": "Summary and exam tips",
        "bullets": [
            (0, "Non-negative weights: Dijkstra. Negative weights: Bellman–Ford. Unweighted: BFS"),
            (0, "MST: Kruskal (sort + union–find) or Prim (heap)"),
            (0, "In the exam, run Dijkstra by hand and show d[ ] after every extraction"),
            (0, "Lecture 13 (15 July) is Prof. Kiryu's dynamic programming lecture, in Japanese"),
            (0, "My office hours continue until 28 July: Tuesdays 16:30–17:30, K-518"),
        ],
    },
]
SLIDE_PAGE = (142.875, 254.0)  # 10 x 5.625 inch
BLUE = (26, 115, 232)


class SlidesPDF(FPDF):
    def __init__(self):
        super().__init__(orientation="L", unit="mm", format=SLIDE_PAGE)
        self.set_auto_page_break(auto=False)
        self.set_margins(12, 10, 12)

    def footer(self) -> None:
        if self.page_no() == 1:
            return
        self.set_xy(self.w - 22, self.h - 9)
        self.set_font("Arial", "", 8)
        self.set_text_color(120, 120, 120)
        self.cell(12, 5, str(self.page_no()), align="R")
        self.set_text_color(0, 0, 0)


def _bullets(pdf: SlidesPDF, bullets, x: float, width: float) -> None:
    for level, text in bullets:
        indent = x + 6 * level
        pdf.set_font("Arial", "", 13 if level == 0 else 11.5)
        pdf.set_x(indent)
        pdf.cell(4.5, 6.6, "●" if level == 0 else "○")
        pdf.multi_cell(width - 4.5 - 6 * level, 6.6, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(0.8)


def _code(pdf: SlidesPDF, lines, x: float, width: float) -> None:
    pdf.set_font("Mono", "", 9.5)
    pdf.set_fill_color(241, 243, 244)
    for line in lines:
        pdf.set_x(x)
        pdf.cell(width, 4.9, line, fill=True, new_x="LMARGIN", new_y="NEXT")


def _slide(pdf: SlidesPDF, slide: dict) -> None:
    pdf.add_page()
    if slide.get("cover"):
        pdf.set_fill_color(*BLUE)
        pdf.rect(0, 0, pdf.w, pdf.h, style="F")
        pdf.set_text_color(255, 255, 255)
        pdf.set_xy(16, 48)
        pdf.set_font("Arial", "B", 26)
        pdf.multi_cell(pdf.w - 32, 12, slide["title"], new_x="LMARGIN", new_y="NEXT")
        pdf.ln(6)
        pdf.set_font("Arial", "", 13)
        for line in slide["lines"]:
            pdf.set_x(16)
            pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0, 0, 0)
        return
    pdf.set_fill_color(*BLUE)
    pdf.rect(0, 0, pdf.w, 3, style="F")
    pdf.set_xy(12, 8)
    pdf.set_font("Arial", "B", 20)
    pdf.cell(0, 11, slide["title"], new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    top = pdf.get_y()
    two_columns = "right" in slide
    left_width = 112 if two_columns else pdf.w - 24
    if "left_heading" in slide:
        pdf.set_font("Arial", "B", 14)
        pdf.set_text_color(*BLUE)
        pdf.cell(left_width, 8, slide["left_heading"], new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0, 0, 0)
    if "bullets" in slide:
        _bullets(pdf, slide["bullets"], 12, left_width)
    if "box" in slide:
        pdf.ln(3)
        pdf.set_font("Mono", "", 10)
        pdf.set_fill_color(232, 240, 254)
        pdf.set_x(12)
        pdf.cell(
            pdf.w - 24,
            10,
            slide["box"],
            border=1,
            fill=True,
            align="C",
            new_x="LMARGIN",
            new_y="NEXT",
        )
    if "table" in slide:
        pdf.set_font("Arial", "", 11)
        heading = FontFace(emphasis="BOLD", color=(255, 255, 255), fill_color=BLUE)
        with pdf.table(
            headings_style=heading, line_height=7, width=pdf.w - 24, padding=1.2
        ) as table:
            for row in slide["table"]:
                cells = table.row()
                for value in row:
                    cells.cell(value)
    left_bottom = pdf.get_y()
    if two_columns:
        right = slide["right"]
        x, width = 130, pdf.w - 130 - 12
        pdf.set_y(top)
        if "heading" in right:
            pdf.set_x(x)
            pdf.set_font("Arial", "B", 14)
            pdf.set_text_color(*BLUE)
            pdf.cell(width, 8, right["heading"], new_x="LMARGIN", new_y="NEXT")
            pdf.set_text_color(0, 0, 0)
        if "code" in right:
            _code(pdf, right["code"], x, width)
        if "bullets" in right:
            _bullets(pdf, [(0, b) for b in right["bullets"]], x, width)
        for line in right.get("after", []):
            pdf.ln(2)
            pdf.set_x(x)
            pdf.set_font("Arial", "I", 10)
            pdf.multi_cell(width, 5.2, line, new_x="LMARGIN", new_y="NEXT")
        left_bottom = max(left_bottom, pdf.get_y())
    if left_bottom > pdf.h - 10:
        raise SystemExit(
            f"slide {pdf.page_no()} ({slide['title']}) overflows: y = {left_bottom:.1f}"
        )


def build_slides(path: Path) -> None:
    pdf = SlidesPDF()
    pdf.add_font("Arial", "", LIBERATION / "LiberationSans-Regular.ttf")
    pdf.add_font("Arial", "B", LIBERATION / "LiberationSans-Bold.ttf")
    pdf.add_font("Arial", "I", LIBERATION / "LiberationSans-Italic.ttf")
    pdf.add_font("Mono", "", LIBERATION / "LiberationMono-Regular.ttf")
    pdf.set_title("Shortest Paths and Minimum Spanning Trees")
    pdf.set_creator("Google Slides")
    pdf.set_producer("Skia/PDF m126 Google Docs Renderer")
    pdf.set_creation_date(dt.datetime(2026, 6, 30, 11, 5, tzinfo=dt.UTC))
    for slide in SLIDES:
        _slide(pdf, slide)
    path.write_bytes(bytes(pdf.output()))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    build_handout(OUT / "03_search_trees_ja.pdf")
    build_slides(OUT / "05_shortest_paths_mst_en.pdf")
    for name in ("03_search_trees_ja.pdf", "05_shortest_paths_mst_en.pdf"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
