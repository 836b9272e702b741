"""Writes 04_linear_systems_ja.pdf: Lecture 8-9 notes as printed from a Markdown previewer
(browser print: date and title in the page header, file URL and "n/m" in the footer) with a
two-column CSS layout. fpdf2, Noto Sans CJK JP and Noto Sans Mono CJK JP from the system."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).parent / "materials" / "04_linear_systems_ja.pdf"
TTC = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
TTC_BOLD = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
TITLE = "04_linear_systems.md"

BLOCKS = [
    ("h1", "第8回・第9回　連立一次方程式の直接法"),
    ("p", "NM-2310 数値計算法　宮路 千尋（2026年5月28日・6月4日）"),
    ("h2", "1. ガウス消去法"),
    ("p", "Ax = b（A は n×n の正則行列）を、前進消去で上三角行列 U に変形し、後退代入で解きます。"),
    (
        "li",
        "1. 前進消去：k = 1, …, n−1 について、i > k の各行から第 k 行の m_ik = a_ik / a_kk 倍を引く。",
    ),
    ("li", "2. 後退代入：x_n = b_n / u_nn から順に x_i = (b_i − Σ_{j>i} u_ij x_j) / u_ii。"),
    (
        "p",
        "演算量は前進消去がおよそ (2/3)n^3 回、後退代入が n^2 回です。n が 2 倍になると時間はおよそ 8 倍になります。",
    ),
    ("h2", "2. ピボット選択"),
    (
        "p",
        "a_kk（ピボット）が 0 なら消去できません。0 でなくても非常に小さいと、m_ik が巨大になり丸め誤差が拡大されます。",
    ),
    ("p", "例：ε = 10^{-17} として"),
    ("code", "[ ε  1 ] [x1]   [1]\n[ 1  1 ] [x2] = [2]"),
    (
        "p",
        "真の解はほぼ x1 = x2 = 1 です。ピボット選択なしで倍精度で解くと、1 − 1/ε が −1/ε に丸められ、x2 = 1.0、x1 = 0.0 という誤った答えになります。行を入れ替えてから消去すると x1 = 1.0、x2 = 1.0 が得られます。",
    ),
    (
        "p",
        "部分ピボット選択：第 k 列の k 行目以下で絶対値最大の成分を持つ行を第 k 行と入れ替える。行の入れ替えだけなので費用はほとんどかかりません。完全ピボット選択（列も入れ替える）はより安全ですが、探索の費用が O(n^3) になるため実用ではあまり使いません。",
    ),
    ("h2", "3. LU 分解"),
    (
        "p",
        "ガウス消去法で使った乗数 m_ik を並べると単位下三角行列 L ができ、A = LU と分解できます。",
    ),
    (
        "code",
        "A = [[2, 1, 1],\n     [4, 3, 3],\n     [8, 7, 9]]\n\nL = [[1, 0, 0],     U = [[2, 1, 1],\n     [2, 1, 0],          [0, 1, 1],\n     [4, 3, 1]]          [0, 0, 2]]",
    ),
    (
        "p",
        "いったん分解すれば、右辺 b が変わっても Ly = b（前進代入）と Ux = y（後退代入）の O(n^2) で解けます。右辺が k 本あるなら、分解 1 回 ＋ 代入 k 回です。",
    ),
    (
        "p",
        "ピボット選択をした場合は PA = LU（P は置換行列）になります。NumPy の np.linalg.solve は内部で LAPACK の dgesv（部分ピボット選択つき LU）を呼びます。",
    ),
    ("h2", "4. コレスキー分解"),
    (
        "p",
        "A が対称正定値なら A = LL^T（L は対角成分が正の下三角行列）と分解できます。これがコレスキー分解です。",
    ),
    ("li", "・演算量は約 (1/3)n^3 で、LU 分解の半分。"),
    ("li", "・ピボット選択が不要（対称正定値なら安定）。"),
    ("li", "・途中で平方根の中が負になったら、A は正定値ではない（判定法としても使える）。"),
    (
        "code",
        "S = [[4, 2, 2],\n     [2, 5, 3],\n     [2, 3, 6]]\nnp.linalg.cholesky(S)\n-> [[2, 0, 0],\n    [1, 2, 0],\n    [1, 1, 2]]",
    ),
    (
        "table",
        [
            ["分解", "対象", "演算量", "ピボット"],
            ["LU", "一般の正則行列", "(2/3)n^3", "必要"],
            ["コレスキー", "対称正定値", "(1/3)n^3", "不要"],
            ["QR（第11回）", "長方形も可", "(4/3)n^3", "不要"],
        ],
    ),
    ("h2", "5. 逆行列は作らない"),
    (
        "p",
        "x = A^{-1} b を文字どおり計算すると、逆行列を作るのに約 2n^3 回かかり、誤差も大きくなりがちです。解が欲しいだけなら、必ず solve（LU 分解）を使ってください。",
    ),
    ("h2", "6. 計算時間の実測（NumHub）"),
    (
        "p",
        "np.linalg.solve で乱数行列（n×n）の方程式を解いた時間です。5回の中央値、NumHub の標準サーバ（4コア割り当て）で5月26日に計測しました。",
    ),
    (
        "table",
        [
            ["n", "時間 [秒]", "前の行との比", ""],
            ["500", "0.0061", "—", ""],
            ["1000", "0.0342", "5.6", ""],
            ["2000", "0.2195", "6.4", ""],
            ["4000", "1.5870", "7.2", ""],
        ],
    ),
    (
        "p",
        "n が大きくなるにつれて比が理論値の 8 に近づいていきます。小さい n では、行列を作る・関数を呼ぶといった O(n^2) 以下の部分の割合が大きいためです。",
    ),
    ("h2", "7. 三重対角行列（トーマス法）"),
    (
        "p",
        "a_i x_{i−1} + b_i x_i + c_i x_{i+1} = d_i の形の三重対角方程式は、ガウス消去法を非零の部分だけで行えば O(n) で解けます（トーマス法）。スプライン補間（第5回）や、熱方程式の陰解法で毎回出てきます。",
    ),
    (
        "code",
        "for i in range(1, n):\n    w = a[i] / b[i-1]\n    b[i] -= w * c[i-1]\n    d[i] -= w * d[i-1]\nx[n-1] = d[n-1] / b[n-1]\nfor i in range(n-2, -1, -1):\n    x[i] = (d[i] - c[i] * x[i+1]) / b[i]",
    ),
    ("p", "優対角（|b_i| > |a_i| + |c_i|）ならピボット選択なしで安定です。"),
    ("h2", "8. 残差と反復改良"),
    (
        "p",
        "計算した解 x_c の残差 r = b − A x_c が小さくても、誤差 x − x_c が小さいとは限りません。相対誤差は最大で κ(A) × (相対残差) まで大きくなりえます（第2回の条件数）。",
    ),
    (
        "p",
        "反復改良：r を求め、同じ LU 分解で A d = r を解いて x_c ← x_c + d とする。r を高い精度で計算すると、悪条件でない限り1〜2回で有効数字が回復します。",
    ),
    ("h2", "9. 中間小テスト（第9回）"),
    ("li", "・6月4日の授業の最初の30分。範囲は第1回〜第8回。"),
    ("li", "・持ち込み不可、電卓不可。計算は手で追える大きさ（3×3 まで）にしてあります。"),
    ("li", "・出題例：3×3 行列の LU 分解、二分法の反復回数の見積もり、台形則の誤差のオーダー。"),
]


class Page(FPDF):
    def header(self):
        self.set_font("sans", size=7)
        self.set_text_color(60, 60, 60)
        self.set_xy(8, 5)
        self.cell(60, 4, "2026/06/03 22:14")
        self.set_xy(0, 5)
        self.cell(210, 4, TITLE, align="C")

    def footer(self):
        self.set_font("sans", size=7)
        self.set_text_color(60, 60, 60)
        self.set_xy(8, 289)
        self.cell(150, 4, "file:///home/miyaji/nm2310/notes/04_linear_systems.md")
        self.set_xy(170, 289)
        self.cell(32, 4, f"{self.page_no()}/{{nb}}", align="R")


def build() -> bytes:
    pdf = Page(format="A4")
    pdf.set_creation_date(
        __import__("datetime").datetime(
            2026, 6, 3, 22, 14, 5, tzinfo=__import__("datetime").timezone.utc
        )
    )
    pdf.set_producer("Skia/PDF m124")
    pdf.set_creator("Chromium")
    pdf.set_title(TITLE)
    pdf.add_font("sans", "", TTC, collection_font_number=0)
    pdf.add_font("sans", "B", TTC_BOLD, collection_font_number=0)
    pdf.add_font("mono", "", TTC, collection_font_number=5)
    pdf.alias_nb_pages()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    col_w, gap, left, top, bottom = 90.0, 8.0, 14.0, 16.0, 280.0
    col = 0
    y = top

    def place(height: float) -> float:
        nonlocal col, y
        if y + height > bottom:
            if col == 0:
                col, y = 1, top
            else:
                pdf.add_page()
                col, y = 0, top
        return left + col * (col_w + gap)

    for kind, value in BLOCKS:
        pdf.set_text_color(0, 0, 0)
        if kind in ("h1", "h2"):
            size = 13 if kind == "h1" else 10.5
            pdf.set_font("sans", "B", size)
            lh = size * 0.5
            h = pdf.multi_cell(col_w, lh, value, dry_run=True, output="HEIGHT") + 3
            x = place(h + 4)
            pdf.set_xy(x, y + 1)
            pdf.multi_cell(col_w, lh, value)
            y = pdf.get_y() + 0.5
            pdf.set_draw_color(200, 200, 200)
            pdf.line(x, y, x + col_w, y)
            y += 2
        elif kind in ("p", "li"):
            pdf.set_font("sans", "", 8.5)
            indent = 3 if kind == "li" else 0
            h = pdf.multi_cell(col_w - indent, 4.4, value, dry_run=True, output="HEIGHT")
            x = place(h)
            pdf.set_xy(x + indent, y)
            pdf.multi_cell(col_w - indent, 4.4, value)
            y = pdf.get_y() + (1.0 if kind == "li" else 2.2)
        elif kind == "code":
            pdf.set_font("mono", "", 7.5)
            lines = value.split("\n")
            h = 3.8 * len(lines) + 3
            x = place(h)
            pdf.set_fill_color(244, 244, 244)
            pdf.rect(x, y, col_w, h, style="F")
            for i, line in enumerate(lines):
                pdf.set_xy(x + 2, y + 1.5 + 3.8 * i)
                pdf.cell(col_w - 4, 3.8, line)
            y += h + 2.5
        elif kind == "table":
            pdf.set_font("sans", "", 7.5)
            widths = [22, 26, 22, 20]
            h = 5 * len(value)
            x = place(h + 2)
            pdf.set_draw_color(180, 180, 180)
            for r, row in enumerate(value):
                pdf.set_font("sans", "B" if r == 0 else "", 7.5)
                cx = x
                for w, text in zip(widths, row, strict=False):
                    pdf.set_xy(cx, y)
                    pdf.cell(w, 5, text, border=1)
                    cx += w
                y += 5
            y += 2.5
    return bytes(pdf.output())


if __name__ == "__main__":
    OUT.write_bytes(build())
