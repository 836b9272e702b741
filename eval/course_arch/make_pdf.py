"""Build materials/03_cache_handout_ja.pdf: a lecture deck printed as a handout, two slides a page.

The shape is what PowerPoint's "配布資料 (2 スライド/ページ)" gives when printed to PDF: A4 portrait,
a small running header (course, date) and a page number, and two framed 16:9 slides stacked on
each page. Text is real text (Noto Sans CJK JP, embedded from the system .ttc faces).

Run: .venv/bin/python eval/course_arch/make_pdf.py
"""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).parent / "materials" / "03_cache_handout_ja.pdf"
SANS = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SANS_B = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
JP, MONO_JP = 0, 5  # face numbers inside the collections (fc-list %{index})

# A slide: a title and a list of items.
# ("b", text) bullet, ("b2", text) second-level bullet, ("p", text) plain line,
# ("m", text) monospace line, ("t", [rows]) table, first row is the header.
SLIDES = [
    (
        "第9・10回 キャッシュメモリ",
        [
            ("p", "計算機アーキテクチャ（CA-2140）"),
            ("p", "真柴 透 ／ 2026年6月4日・6月11日"),
            ("p", "この資料は2スライド/ページで印刷したものです。書き込み用に余白を残しています。"),
        ],
    ),
    (
        "なぜキャッシュが要るのか",
        [
            (
                "b",
                "プロセッサは1サイクルで命令を進めたいが、DRAM へのアクセスには約100サイクルかかる",
            ),
            ("b", "小さく速い SRAM をプロセッサの近くに置き、よく使うデータの写しを持たせる"),
            ("b", "うまくいく理由は「局所性」"),
            (
                "b2",
                "時間的局所性：一度使ったデータは、近いうちにまた使われやすい（ループの変数など）",
            ),
            (
                "b2",
                "空間的局所性：あるアドレスを使うと、その近くのアドレスもすぐ使われやすい（配列の順番アクセス）",
            ),
        ],
    ),
    (
        "用語の確認",
        [
            (
                "b",
                "ライン（ブロック）：キャッシュとメモリの間でやりとりする単位。この授業の例では 64 バイト",
            ),
            ("b", "ヒット：欲しいデータがキャッシュにある。ミス：ない"),
            ("b", "ミス率 m = ミス回数 ÷ アクセス回数（ヒット率 = 1 − m）"),
            ("b", "ミスペナルティ：ミスしたとき下の階層から持ってくるのに余分にかかる時間"),
        ],
    ),
    (
        "ラインをどこに置くか（配置方式）",
        [
            (
                "t",
                [
                    ["方式", "置ける場所", "長所", "短所"],
                    ["ダイレクトマップ", "1か所だけ", "速い・単純", "競合ミスが多い"],
                    [
                        "n-way セットアソシアティブ",
                        "セット内の n か所",
                        "バランスがよい",
                        "比較器が n 個",
                    ],
                    ["フルアソシアティブ", "どこでも", "競合ミスなし", "大きくすると遅く高価"],
                ],
            ),
            (
                "b",
                "ダイレクトマップは 1-way、フルアソシアティブは「セットが1つ」の特別な場合と見なせる",
            ),
        ],
    ),
    (
        "アドレスの分割（例題9-1）",
        [
            ("p", "32 ビットアドレス、容量 32 KiB、4-way、ライン 64 B のとき"),
            ("m", "| タグ 19 ビット | インデックス 7 ビット | オフセット 6 ビット |"),
            ("b", "オフセット：64 = 2^6 なので 6 ビット"),
            ("b", "セット数：32768 ÷ (64 × 4) = 128 なのでインデックスは 7 ビット"),
            ("b", "タグ：32 − 7 − 6 = 19 ビット"),
            ("b", "ダイレクトマップにするとセット数 512 → インデックス 9 ビット、タグ 17 ビット"),
        ],
    ),
    (
        "平均メモリアクセス時間（AMAT）",
        [
            ("m", "AMAT = t_hit + m × t_miss"),
            ("b", "t_hit：ヒット時間、m：ミス率、t_miss：ミスペナルティ"),
            ("b", "例：t_hit = 1 サイクル、m = 5%、t_miss = 100 サイクル"),
            ("b2", "AMAT = 1 + 0.05 × 100 = 6 サイクル"),
            (
                "b",
                "ミス率を 5% から 4% に下げるだけで 5 サイクルになる ― ミス率の1ポイントは大きい",
            ),
        ],
    ),
    (
        "多段キャッシュ",
        [
            ("m", "AMAT = t_L1 + m_L1 × (t_L2 + m_L2 × t_mem)"),
            (
                "b",
                "例：t_L1 = 1、m_L1 = 5%、t_L2 = 10、m_L2 = 20%（L2 のローカルミス率）、t_mem = 100",
            ),
            ("b2", "AMAT = 1 + 0.05 × (10 + 0.2 × 100) = 2.5 サイクル"),
            (
                "b",
                "グローバルミス率 = m_L1 × m_L2 = 0.05 × 0.2 = 1%（全アクセスのうちメモリまで行く割合）",
            ),
            (
                "b",
                "L2 のローカルミス率が高く見えても、L1 が易しいアクセスを先に取っているので心配しすぎない",
            ),
        ],
    ),
    (
        "ミスの3分類（3C）",
        [
            (
                "b",
                "初期参照ミス（compulsory）：初めて触るラインは必ずミス → ラインを大きくすると減る",
            ),
            (
                "b",
                "容量ミス（capacity）：作業領域がキャッシュに入りきらない → 容量を大きくすると減る",
            ),
            ("b", "競合ミス（conflict）：同じセットに集まって追い出し合う → 連想度を上げると減る"),
            (
                "b",
                "ラインを大きくしすぎると、ライン数が減って競合ミスが増え、ミスペナルティも伸びる",
            ),
        ],
    ),
    (
        "書き込み方式",
        [
            (
                "t",
                [
                    ["", "ライトスルー", "ライトバック"],
                    ["書き込み先", "キャッシュとメモリの両方", "キャッシュだけ"],
                    [
                        "メモリへの反映",
                        "毎回（ライトバッファで隠す）",
                        "追い出すときに dirty なら書く",
                    ],
                    ["追加の状態", "なし", "dirty ビット"],
                    ["よく組む方針", "no-write allocate", "write allocate"],
                ],
            ),
            (
                "b",
                "書き込みミスのとき、ラインを持ってくるのが write allocate、持ってこないのが no-write allocate",
            ),
        ],
    ),
    (
        "置換方式",
        [
            (
                "b",
                "LRU：いちばん長く使っていないラインを追い出す。2-way ならセットごとに1ビットで足りる",
            ),
            ("b", "FIFO：いちばん古く入ったラインを追い出す"),
            ("b", "ランダム：安価。連想度が高いと LRU との差は小さい"),
            ("b", "8-way を超えると正確な LRU は高くつくので、近似（疑似 LRU）を使うのが普通"),
        ],
    ),
    (
        "第11回の演習に向けて",
        [
            ("b", "C の2次元配列は行優先（row-major）：a[i][j] と a[i][j+1] が隣り合う"),
            (
                "b",
                "内側のループで j を回すと空間的局所性が効く。i を回すと 1 アクセスごとに別のラインに飛ぶ",
            ),
            ("m", "for (i = 0; i < N; i++) for (j = 0; j < N; j++) sum += a[i][j];"),
            ("b", "演習ではこの2通りのヒット率をシミュレータで測り、レポートにまとめる"),
        ],
    ),
    (
        "ソフトウェアでミスを減らす",
        [
            ("b", "ループ交換：内側と外側のループを入れ替えて、メモリに並んでいる順にアクセスする"),
            (
                "b",
                "ブロッキング（タイル化）：大きな行列を、キャッシュに収まる小さなブロックに分けて計算する",
            ),
            (
                "b2",
                "行列積で、ブロックの1辺 B は「3 × B × B × 要素サイズ ≤ キャッシュ容量」を目安に選ぶ",
            ),
            (
                "b2",
                "例：32 KiB、double（8 B）なら 3 × 8 × B² ≤ 32768 より B ≤ 36、実際には 32 にそろえる",
            ),
            (
                "b",
                "プリフェッチ：使う少し前にラインを読み込んでおく。ハードウェアが順番アクセスを見つけて自動でやることも多い",
            ),
        ],
    ),
    (
        "第11回の準備（持ち物など）",
        [
            ("b", "計算機演習室3 の PC を使う。学外の人は HIT-VPN の設定を事前に済ませておく"),
            ("b", "ノートブックは標準ライブラリだけで動くので、自分のノート PC でもよい"),
            (
                "b",
                "演習の最初の15分で、TA の Mateo Ruiz さんが英語でシミュレータのコードを説明する",
            ),
            ("b", "レポートの締切はノートブックの最後に書いてある"),
        ],
    ),
    (
        "小テスト（6月11日）について",
        [
            (
                "b",
                "第10回の最後の20分で実施。範囲は第1〜8回（数の表現・ISA・パイプライン・分岐予測）",
            ),
            ("b", "電卓は使用不可。計算は手で済む数値にしてある"),
            ("b", "キャッシュは範囲外（期末試験で出題する）"),
        ],
    ),
]

FRAME_W = 170.0
FRAME_H = FRAME_W * 9 / 16
FRAME_X = 20.0
FRAME_Y = (26.0, 152.0)


class Handout(FPDF):
    def header(self) -> None:
        self.set_font("jp", size=8)
        self.set_text_color(90, 90, 90)
        self.set_xy(20, 10)
        self.cell(85, 5, "計算機アーキテクチャ 第9・10回")
        self.cell(85, 5, "2026/06/04", align="R")
        self.set_text_color(0, 0, 0)

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("jp", size=8)
        self.cell(0, 5, str(self.page_no()), align="C")


def draw_slide(pdf: Handout, y0: float, title: str, items: list) -> None:
    pdf.set_draw_color(120, 120, 120)
    pdf.rect(FRAME_X, y0, FRAME_W, FRAME_H)
    pdf.set_fill_color(31, 78, 121)
    pdf.rect(FRAME_X, y0, FRAME_W, 14, style="F")
    pdf.set_text_color(255, 255, 255)
    pdf.set_font("jp", style="B", size=14)
    pdf.set_xy(FRAME_X + 6, y0 + 3)
    pdf.cell(FRAME_W - 12, 8, title)
    pdf.set_text_color(0, 0, 0)
    y = y0 + 19
    inner_x = FRAME_X + 8
    inner_w = FRAME_W - 16
    for kind, value in items:
        if kind == "t":
            pdf.set_font("jp", size=8.5)
            pdf.set_xy(inner_x, y)
            with pdf.table(
                width=inner_w, line_height=5, first_row_as_headings=True, align="LEFT"
            ) as table:
                for row in value:
                    r = table.row()
                    for cell in row:
                        r.cell(cell)
            y = pdf.get_y() + 2
            continue
        if kind == "m":
            pdf.set_font("mono", size=9)
            pdf.set_xy(inner_x + 2, y)
            pdf.multi_cell(inner_w - 4, 5.2, value)
        else:
            indent = {"b": 0, "b2": 7, "p": 0}[kind]
            mark = {"b": "•", "b2": "–", "p": ""}[kind]
            pdf.set_font("jp", size=10 if kind != "b2" else 9.5)
            if mark:
                pdf.set_xy(inner_x + indent, y)
                pdf.cell(4, 5.6, mark)
            pdf.set_xy(inner_x + indent + 5, y)
            pdf.multi_cell(inner_w - indent - 5, 5.6, value)
        y = pdf.get_y() + 1.2
    if y > y0 + FRAME_H:
        raise SystemExit(f"slide overflows: {title}")


def main() -> None:
    pdf = Handout(format="A4")
    pdf.set_creation_date(__import__("datetime").datetime(2026, 6, 3, 18, 0, 0))
    pdf.set_title("第9・10回 キャッシュメモリ（配布資料）")
    pdf.set_author("真柴 透")
    pdf.set_creator("Microsoft® PowerPoint® for Microsoft 365")
    pdf.add_font("jp", fname=SANS, collection_font_number=JP)
    pdf.add_font("jp", style="B", fname=SANS_B, collection_font_number=JP)
    pdf.add_font("mono", fname=SANS, collection_font_number=MONO_JP)
    pdf.set_auto_page_break(False)
    for n, (title, items) in enumerate(SLIDES):
        if n % 2 == 0:
            pdf.add_page()
        draw_slide(pdf, FRAME_Y[n % 2], title, items)
    pdf.output(str(OUT))


if __name__ == "__main__":
    main()
