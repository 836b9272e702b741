"""Writes the text materials of course_num: the Shift_JIS root-finding notes, the Pandoc
HTML page of Lectures 5-7, the Lab 3 notebook (cells executed here; outputs are real) and
the semicolon-separated FAQ. Deterministic: a second run writes identical bytes."""

from __future__ import annotations

import base64
import contextlib
import html
import io
import json
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).parent / "materials"

# ---------------------------------------------------------------- 02 Shift_JIS text
ROOT_TEXT = """\
数値計算法（NM-2310）　第3回・第4回　講義メモ
非線形方程式の数値解法
　　　　　　　　　　　　　　　　　　　　　2026年4月23日・4月30日　宮路 千尋

【はじめに】
　方程式 f(x) = 0 の解（根）を反復で求める。今回の例題はすべて
　　f(x) = x^3 + 2x - 7
　で、真の根は α = 1.5689464030523823（倍精度で収束した値）。
　f(1) = -4 < 0、f(2) = 5 > 0 なので、区間 [1, 2] に根がある。

【二分法】
　区間 [a, b] で f(a)f(b) < 0 とする。中点 m = (a+b)/2 を取り、
　符号が変わる側の半分を次の区間にする。これを区間幅が許容誤差 tol 以下になるまで繰り返す。

　　・必ず収束する（f が連続で、最初に符号が変わっていれば）。
　　・1回で区間幅が半分になる → 線形収束、収束率 1/2。
　　・必要な反復回数は　n ≧ log2((b-a)/tol)　で事前にわかる。

　例題で [1, 2]、tol = 1e-10 とすると log2(1e10) ≒ 33.2 なので 34回。
　実際に回すと 34回 で止まり、中点は 1.568946403072914 だった。

【ニュートン法】
　接線と x 軸の交点を次の近似にする：

　　x_{k+1} = x_k - f(x_k) / f'(x_k)

　例題では f'(x) = 3x^2 + 2。x_0 = 1 から始めた結果（|x_{k+1} - x_k| は更新量）：

　　k　　x_k　　　　　　　　　　|x_k - x_{k-1}|
　　1　　1.8　　　　　　　　　　8.0e-01
　　2　　1.5924914675767918　　2.1e-01
　　3　　1.569220696576968 　　2.3e-02
　　4　　1.5689464407807119　　2.7e-04
　　5　　1.568946403052383 　　3.8e-08
　　6　　1.5689464030523823　　6.7e-16

　更新量の指数が -4 → -8 → -16 と倍々になっている。これが「2次収束」
　（正しい桁数が1回ごとにほぼ2倍）。5回目で倍精度の限界に達する。

　＜ニュートン法がうまくいかない例＞
　　１．f'(x_k) = 0 またはほぼ 0 の点に来ると、次の点が遠くへ飛ぶ。
　　２．初期値が根から遠いと、振動したり別の根に行ったりする。
　　３．重根（例：f(x) = (x-1)^2 (x+2)）では 1次収束 に落ちる。
　　　　重複度 m がわかっていれば x_{k+1} = x_k - m f(x_k)/f'(x_k) で2次収束に戻る。

【割線法（セカント法）】
　f'(x) の代わりに直前2点の差分商を使う：

　　x_{k+1} = x_k - f(x_k) (x_k - x_{k-1}) / (f(x_k) - f(x_{k-1}))

　導関数がいらない、1反復あたり f の評価が1回で済む、のが利点。
　x_0 = 1, x_1 = 2 から始めた結果（誤差は真の根 α との差）：

　　k　　x_{k+1}　　　　　　　　 誤差 |x_{k+1} - α|
　　1　　1.4444444444444444　　1.2e-01
　　2　　1.544431946006749 　　2.5e-02
　　3　　1.5705448936025126　　1.6e-03
　　4　　1.5689266191460292　　2.0e-05
　　5　　1.5689463871987328　　1.6e-08
　　6　　1.5689464030525395　　1.6e-13
　　7　　1.5689464030523823　　0.0

　収束次数は p = (1+√5)/2 ≒ 1.618（黄金比）。超1次収束という。

【収束次数の定義】
　誤差 e_k = |x_k - α| が

　　lim_{k→∞} e_{k+1} / e_k^p = C　（0 < C < ∞）

　を満たすとき、p 次収束という。p = 1 のときは 0 < C < 1 が必要で、C を収束率と呼ぶ。
　実験から p を推定するには、連続する3つの誤差から

　　p ≒ log(e_{k+1}/e_k) / log(e_k/e_{k-1})

　を計算する。割線法の表の誤差から順に計算すると p ≒ 1.68、1.61、1.62 となり、1.618 に近づく。

【比較表】

　　手法　　　収束次数　　1反復の f 評価　　導関数　　収束の保証
　　二分法　　1（率 1/2）　1回　　　　　　　不要　　　あり（符号変化があれば）
　　ニュートン　2　　　　　f と f' 各1回　　 必要　　　なし（初期値しだい）
　　割線法　　約1.618　　　1回　　　　　　　不要　　　なし

　実用上は「二分法で区間を縮めてから、ニュートン法や割線法に切り替える」組み合わせ
　（ブレント法の考え方）がよく使われる。SciPy の brentq がその例。

【停止条件】
　　・|x_{k+1} - x_k| < tol_x　（更新量）
　　・|f(x_k)| < tol_f　（残差）
　　・反復回数が maxiter に達した　→　収束失敗として例外を出す
　演習1では tol_x = 1e-12、maxiter = 50 に固定する。

【Python のひな形】
def newton(f, df, x0, tol=1e-12, maxiter=50):
    x = x0
    for k in range(1, maxiter + 1):
        dx = f(x) / df(x)
        x -= dx
        if abs(dx) < tol:
            return x, k
    raise RuntimeError("newton: not converged")

【演習1について】
　・課題文は Kiri-Learn の「演習1」ページ。締切 5月11日（月）23:59。
　・f(x) = cos x - x（根は約 0.739）についても、3手法の反復回数を表にすること。
　・重根の例で、ニュートン法が1次収束に落ちることを実験で示すこと（誤差比が一定値に近づく）。
　・グラフは片対数（縦軸 log10 誤差）で描くこと。

【質問への回答（第3回の出席カードから）】
　Ｑ．二分法の tol を 1e-20 にしたら止まらなくなりました。
　Ａ．根の近くの倍精度の間隔は約 2.2e-16 なので、区間幅がそれより小さくならない。
　　　tol は相対的に決めるか、maxiter を必ず設けること。
"""

# ---------------------------------------------------------------- 03 Pandoc HTML
PANDOC_HEAD = """\
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="generator" content="pandoc" />
  <meta name="viewport" content="width=device-width, initial-scale=1.0, user-scalable=yes" />
  <meta name="author" content="Dr Helena Lindqvist" />
  <meta name="dcterms.date" content="2026-05-21" />
  <title>NM-2310 Lectures 5–7: Interpolation, Differentiation and Quadrature</title>
  <style>
    html { color: #1a1a1a; background-color: #fdfdfd; }
    body { margin: 0 auto; max-width: 36em; padding-left: 50px; padding-right: 50px; }
    code{white-space: pre-wrap;}
    span.smallcaps{font-variant: small-caps;}
    div.columns{display: flex; gap: min(4vw, 1.5em);}
    pre > code.sourceCode { white-space: pre; position: relative; }
    pre > code.sourceCode > span { line-height: 1.25; }
    code span.kw { color: #007020; font-weight: bold; } /* Keyword */
    code span.dv { color: #40a070; } /* DecVal */
    code span.fu { color: #06287e; } /* Function */
    code span.co { color: #60a0b0; font-style: italic; } /* Comment */
  </style>
  <script
  src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml-full.js"
  type="text/javascript"></script>
</head>
<body>
<header id="title-block-header">
<h1 class="title">NM-2310 Lectures 5–7: Interpolation, Differentiation and
Quadrature</h1>
<p class="author">Dr Helena Lindqvist</p>
<p class="date">7, 14 and 21 May 2026</p>
</header>
<nav id="TOC" role="doc-toc">
<ul>
<li><a href="#about-these-notes" id="toc-about-these-notes"><span
class="toc-section-number">1</span> About these notes</a></li>
<li><a href="#polynomial-interpolation" id="toc-polynomial-interpolation"><span
class="toc-section-number">2</span> Polynomial interpolation</a></li>
<li><a href="#cubic-splines" id="toc-cubic-splines"><span
class="toc-section-number">3</span> Cubic splines</a></li>
<li><a href="#numerical-differentiation" id="toc-numerical-differentiation"><span
class="toc-section-number">4</span> Numerical differentiation</a></li>
<li><a href="#newtoncotes-rules" id="toc-newtoncotes-rules"><span
class="toc-section-number">5</span> Newton–Cotes rules</a></li>
<li><a href="#gaussian-quadrature" id="toc-gaussian-quadrature"><span
class="toc-section-number">6</span> Gaussian quadrature</a></li>
</ul>
</nav>
"""

KW = {"def", "return", "for", "in", "import", "as", "if", "else", "range", "lambda"}


def _pandoc_code(block_id: str, lang: str, code: str) -> str:
    """A code block as Pandoc's highlighter writes it: one anchored span per line."""
    lines = []
    for n, line in enumerate(code.rstrip("\n").split("\n"), 1):
        body = html.escape(line, quote=False)
        if "#" in line:
            head, _, comment = body.partition("#")
            body = f'{head}<span class="co">#{comment}</span>'
        words = body.split(" ")
        body = " ".join(f'<span class="kw">{w}</span>' if w in KW else w for w in words)
        lines.append(
            f'<span id="{block_id}-{n}"><a href="#{block_id}-{n}" aria-hidden="true"'
            f' tabindex="-1"></a>{body}</span>'
        )
    return (
        f'<div class="sourceCode" id="{block_id}"><pre\n'
        f'class="sourceCode {lang}"><code class="sourceCode {lang}">'
        + "\n".join(lines)
        + "</code></pre></div>\n"
    )


LAGRANGE = """\
import numpy as np

def divided_differences(x, y):
    # returns the Newton coefficients f[x0], f[x0,x1], ...
    c = np.array(y, dtype=float)
    n = len(x)
    for j in range(1, n):
        c[j:] = (c[j:] - c[j - 1:-1]) / (x[j:] - x[:n - j])
    return c

def newton_eval(c, x, t):
    p = c[-1]
    for k in range(len(c) - 2, -1, -1):
        p = p * (t - x[k]) + c[k]   # Horner-like nesting
    return p
"""

COMPOSITE = """\
def trapezoid(f, a, b, n):
    x = np.linspace(a, b, n + 1)
    y = f(x)
    return (b - a) / n * (y[0] / 2 + y[1:-1].sum() + y[-1] / 2)

def simpson(f, a, b, n):   # n must be even
    x = np.linspace(a, b, n + 1)
    y = f(x)
    h = (b - a) / n
    return h / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])
"""

PANDOC_BODY = (
    """\
<section id="about-these-notes" class="level1" data-number="1">
<h1 data-number="1"><span class="header-section-number">1</span> About
these notes</h1>
<p>These notes cover my three lectures in May. They were written in
Markdown and converted with Pandoc, so the maths is rendered by MathJax
in the browser. If a formula shows up as raw <code>\\( ... \\)</code>,
reload the page or open it in another browser. Japanese summaries of each
section are posted on Kiri-Learn by the TAs after each lecture.<a href="#fn1"
class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a></p>
</section>
<section id="polynomial-interpolation" class="level1" data-number="2">
<h1 data-number="2"><span class="header-section-number">2</span>
Polynomial interpolation</h1>
<p>Given <span class="math inline">\\(n+1\\)</span> distinct nodes <span
class="math inline">\\(x_0,\\dots,x_n\\)</span> and values <span
class="math inline">\\(f_i = f(x_i)\\)</span>, there is exactly one
polynomial <span class="math inline">\\(p_n\\)</span> of degree at most
<span class="math inline">\\(n\\)</span> with <span
class="math inline">\\(p_n(x_i) = f_i\\)</span>. The <em>Lagrange
form</em> writes it as</p>
<p><span class="math display">\\[
p_n(x) = \\sum_{i=0}^{n} f_i\\,\\ell_i(x), \\qquad
\\ell_i(x) = \\prod_{j \\ne i} \\frac{x - x_j}{x_i - x_j}.
\\]</span></p>
<p>The Lagrange form is good for theory but awkward when you add a node:
every <span class="math inline">\\(\\ell_i\\)</span> changes. The
<em>Newton form</em> uses divided differences,</p>
<p><span class="math display">\\[
p_n(x) = f[x_0] + f[x_0,x_1](x-x_0) + \\cdots + f[x_0,\\dots,x_n]\\prod_{j=0}^{n-1}(x-x_j),
\\]</span></p>
<p>and adding the node <span class="math inline">\\(x_{n+1}\\)</span>
only adds one more term. Evaluation is nested like Horner’s rule and
costs <span class="math inline">\\(O(n)\\)</span> per point after an
<span class="math inline">\\(O(n^2)\\)</span> set-up.</p>
"""
    + _pandoc_code("cb1", "python", LAGRANGE)
    + """\
<section id="the-error-formula-and-runges-phenomenon" class="level2"
data-number="2.1">
<h2 data-number="2.1"><span class="header-section-number">2.1</span> The
error formula and Runge’s phenomenon</h2>
<p>If <span class="math inline">\\(f\\)</span> has <span
class="math inline">\\(n+1\\)</span> continuous derivatives, then for
some <span class="math inline">\\(\\xi\\)</span> in the interval</p>
<p><span class="math display">\\[
f(x) - p_n(x) = \\frac{f^{(n+1)}(\\xi)}{(n+1)!}\\prod_{i=0}^{n}(x - x_i).
\\]</span></p>
<p>More nodes do not automatically mean a better fit. For the function
<span class="math inline">\\(g(x) = 1/(1+25x^2)\\)</span> on <span
class="math inline">\\([-1,1]\\)</span> with equally spaced nodes, the
maximum error <em>grows</em> with the degree, with large wiggles near the
ends of the interval. Choosing the <strong>Chebyshev nodes</strong></p>
<p><span class="math display">\\[
x_i = \\cos\\frac{(2i+1)\\pi}{2n+2}, \\qquad i = 0,\\dots,n,
\\]</span></p>
<p>which cluster near the ends, keeps the product term small and the
error goes down. Maximum errors measured on 2001 points:</p>
<table>
<caption>Table 1: Max error of interpolating <span class="math inline">\\(g\\)</span>,
equispaced vs Chebyshev nodes</caption>
<thead>
<tr class="header">
<th style="text-align: right;">degree <span
class="math inline">\\(n\\)</span></th>
<th style="text-align: right;">equispaced</th>
<th style="text-align: right;">Chebyshev</th>
</tr>
</thead>
<tbody>
<tr class="odd">
<td style="text-align: right;">5</td>
<td style="text-align: right;">0.4327</td>
<td style="text-align: right;">0.5559</td>
</tr>
<tr class="even">
<td style="text-align: right;">10</td>
<td style="text-align: right;">1.9156</td>
<td style="text-align: right;">0.1092</td>
</tr>
<tr class="odd">
<td style="text-align: right;">20</td>
<td style="text-align: right;">59.8223</td>
<td style="text-align: right;">0.0153</td>
</tr>
</tbody>
</table>
<p>Note that at degree 5 the Chebyshev nodes are actually slightly worse;
the advantage shows only as <span class="math inline">\\(n\\)</span>
grows.</p>
</section>
</section>
<section id="cubic-splines" class="level1" data-number="3">
<h1 data-number="3"><span class="header-section-number">3</span> Cubic
splines</h1>
<p>Instead of one high-degree polynomial, use a cubic <span
class="math inline">\\(s_i\\)</span> on each interval <span
class="math inline">\\([x_i, x_{i+1}]\\)</span> and glue the pieces so
that <span class="math inline">\\(s\\)</span>, <span
class="math inline">\\(s&#39;\\)</span> and <span
class="math inline">\\(s&#39;&#39;\\)</span> are continuous. That leaves
two free conditions:</p>
<ul>
<li><strong>natural spline</strong>: <span
class="math inline">\\(s&#39;&#39;(x_0) = s&#39;&#39;(x_n) = 0\\)</span>;</li>
<li><strong>clamped spline</strong>: <span
class="math inline">\\(s&#39;(x_0)\\)</span> and <span
class="math inline">\\(s&#39;(x_n)\\)</span> are given;</li>
<li><strong>not-a-knot</strong>: the third derivative is continuous at
<span class="math inline">\\(x_1\\)</span> and <span
class="math inline">\\(x_{n-1}\\)</span> (the default of
<code>scipy.interpolate.CubicSpline</code>).</li>
</ul>
<p>The unknown second derivatives <span class="math inline">\\(M_i =
s&#39;&#39;(x_i)\\)</span> satisfy a <strong>tridiagonal</strong>
system, so a spline through <span class="math inline">\\(n\\)</span>
points costs only <span class="math inline">\\(O(n)\\)</span>. For
smooth <span class="math inline">\\(f\\)</span> and spacing <span
class="math inline">\\(h\\)</span> the clamped spline has error <span
class="math inline">\\(O(h^4)\\)</span>.</p>
</section>
<section id="numerical-differentiation" class="level1" data-number="4">
<h1 data-number="4"><span class="header-section-number">4</span>
Numerical differentiation</h1>
<p>From Taylor’s theorem,</p>
<p><span class="math display">\\[
\\frac{f(x+h) - f(x)}{h} = f&#39;(x) + \\frac{h}{2} f&#39;&#39;(\\xi), \\qquad
\\frac{f(x+h) - f(x-h)}{2h} = f&#39;(x) + \\frac{h^2}{6} f&#39;&#39;&#39;(\\eta).
\\]</span></p>
<p>So the forward difference is first order and the central difference
is second order. But rounding error in <span class="math inline">\\(f\\)</span>
is divided by <span class="math inline">\\(h\\)</span>, so the total error of
the forward difference behaves like <span class="math inline">\\(Ch/2 +
\\varepsilon/h\\)</span>, which is smallest near <span
class="math inline">\\(h \\approx \\sqrt{\\varepsilon} \\approx
10^{-8}\\)</span>. For the central difference the best <span
class="math inline">\\(h\\)</span> is about <span
class="math inline">\\(\\varepsilon^{1/3} \\approx 10^{-5}\\)</span>.</p>
<p>Measured for <span class="math inline">\\(f(x) = e^x\\)</span> at
<span class="math inline">\\(x = 1\\)</span>:</p>
<table>
<caption>Table 2: Absolute error of difference quotients for <span
class="math inline">\\(f&#39;(1) = e\\)</span></caption>
<thead>
<tr class="header">
<th style="text-align: right;"><span class="math inline">\\(h\\)</span></th>
<th style="text-align: right;">forward</th>
<th style="text-align: right;">central</th>
</tr>
</thead>
<tbody>
<tr class="odd"><td style="text-align: right;">1e-1</td><td
style="text-align: right;">1.41e-01</td><td style="text-align: right;">4.53e-03</td></tr>
<tr class="even"><td style="text-align: right;">1e-2</td><td
style="text-align: right;">1.36e-02</td><td style="text-align: right;">4.53e-05</td></tr>
<tr class="odd"><td style="text-align: right;">1e-4</td><td
style="text-align: right;">1.36e-04</td><td style="text-align: right;">4.53e-09</td></tr>
<tr class="even"><td style="text-align: right;">1e-6</td><td
style="text-align: right;">1.36e-06</td><td style="text-align: right;">1.63e-10</td></tr>
<tr class="odd"><td style="text-align: right;">1e-8</td><td
style="text-align: right;">6.60e-09</td><td style="text-align: right;">6.60e-09</td></tr>
<tr class="even"><td style="text-align: right;">1e-10</td><td
style="text-align: right;">1.55e-06</td><td style="text-align: right;">6.73e-07</td></tr>
<tr class="odd"><td style="text-align: right;">1e-12</td><td
style="text-align: right;">4.32e-04</td><td style="text-align: right;">2.10e-04</td></tr>
</tbody>
</table>
<p>Below the optimum, making <span class="math inline">\\(h\\)</span>
smaller makes the answer <em>worse</em>: at <span
class="math inline">\\(h = 10^{-12}\\)</span> the forward difference is
back to an error of about <span class="math inline">\\(4 \\times
10^{-4}\\)</span>.</p>
</section>
<section id="newtoncotes-rules" class="level1" data-number="5">
<h1 data-number="5"><span class="header-section-number">5</span>
Newton–Cotes rules</h1>
<p>Integrate the interpolating polynomial on equally spaced points. With
<span class="math inline">\\(n\\)</span> subintervals of width <span
class="math inline">\\(h = (b-a)/n\\)</span>, the composite rules are</p>
<p><span class="math display">\\[
T_n = h\\left(\\tfrac12 f_0 + f_1 + \\cdots + f_{n-1} + \\tfrac12 f_n\\right),
\\qquad E_T = -\\frac{(b-a)h^2}{12} f&#39;&#39;(\\xi),
\\]</span></p>
<p><span class="math display">\\[
S_n = \\frac{h}{3}\\left(f_0 + 4f_1 + 2f_2 + 4f_3 + \\cdots + 4f_{n-1} + f_n\\right),
\\qquad E_S = -\\frac{(b-a)h^4}{180} f^{(4)}(\\xi).
\\]</span></p>
<p>Simpson’s rule needs an <strong>even</strong> number of
subintervals. It is exact for cubics, one degree more than you would
expect from quadratic interpolation.</p>
"""
    + _pandoc_code("cb2", "python", COMPOSITE)
    + """\
<p>Errors for <span class="math inline">\\(\\int_0^1 e^x\\,dx = e -
1\\)</span>:</p>
<table>
<caption>Table 3: Composite trapezoid and Simpson errors</caption>
<thead>
<tr class="header">
<th style="text-align: right;"><span class="math inline">\\(n\\)</span></th>
<th style="text-align: right;">trapezoid</th>
<th style="text-align: right;">Simpson</th>
</tr>
</thead>
<tbody>
<tr class="odd"><td style="text-align: right;">2</td><td
style="text-align: right;">3.565e-02</td><td style="text-align: right;">5.793e-04</td></tr>
<tr class="even"><td style="text-align: right;">4</td><td
style="text-align: right;">8.940e-03</td><td style="text-align: right;">3.701e-05</td></tr>
<tr class="odd"><td style="text-align: right;">8</td><td
style="text-align: right;">2.237e-03</td><td style="text-align: right;">2.326e-06</td></tr>
<tr class="even"><td style="text-align: right;">16</td><td
style="text-align: right;">5.593e-04</td><td style="text-align: right;">1.456e-07</td></tr>
<tr class="odd"><td style="text-align: right;">32</td><td
style="text-align: right;">1.398e-04</td><td style="text-align: right;">9.103e-09</td></tr>
</tbody>
</table>
<p>Each time <span class="math inline">\\(n\\)</span> doubles, the
trapezoid error drops by a factor of about 4 and the Simpson error by
about 16, exactly the <span class="math inline">\\(h^2\\)</span> and
<span class="math inline">\\(h^4\\)</span> behaviour. <strong>Romberg
integration</strong> uses this: <span class="math inline">\\((4T_{2n} -
T_n)/3\\)</span> cancels the <span class="math inline">\\(h^2\\)</span>
term, and the result is exactly <span class="math inline">\\(S_{2n}\\)</span>.</p>
</section>
<section id="gaussian-quadrature" class="level1" data-number="6">
<h1 data-number="6"><span class="header-section-number">6</span>
Gaussian quadrature</h1>
<p>Newton–Cotes fixes the nodes and chooses the weights. Gauss–Legendre
quadrature chooses <em>both</em>: with <span
class="math inline">\\(m\\)</span> nodes it integrates every polynomial
of degree up to <span class="math inline">\\(2m-1\\)</span> exactly on
<span class="math inline">\\([-1,1]\\)</span>. The nodes are the roots of
the Legendre polynomial <span class="math inline">\\(P_m\\)</span>.</p>
<ol type="1">
<li><span class="math inline">\\(m = 1\\)</span>: node <span
class="math inline">\\(0\\)</span>, weight <span
class="math inline">\\(2\\)</span> (the midpoint rule).</li>
<li><span class="math inline">\\(m = 2\\)</span>: nodes <span
class="math inline">\\(\\pm 1/\\sqrt{3}\\)</span>, weights <span
class="math inline">\\(1, 1\\)</span>.</li>
<li><span class="math inline">\\(m = 3\\)</span>: nodes <span
class="math inline">\\(0, \\pm\\sqrt{3/5}\\)</span>, weights <span
class="math inline">\\(8/9, 5/9, 5/9\\)</span>.</li>
</ol>
<p>For another interval use <span class="math inline">\\(x =
\\tfrac{b-a}{2}t + \\tfrac{a+b}{2}\\)</span> and multiply the weights by
<span class="math inline">\\((b-a)/2\\)</span>. On the same test
integral, the 2-point rule has error <strong>3.855e-04</strong> and the
3-point rule <strong>8.241e-07</strong>: three evaluations of <span
class="math inline">\\(e^x\\)</span> beat Simpson with <span
class="math inline">\\(n = 8\\)</span> (nine evaluations). In NumPy the
nodes and weights come from
<code>np.polynomial.legendre.leggauss(m)</code>.</p>
<p>Gauss rules are not nested: going from <span
class="math inline">\\(m\\)</span> to <span
class="math inline">\\(m+1\\)</span> nodes throws away all previous
function values. That is why adaptive codes often prefer Gauss–Kronrod
pairs.</p>
</section>
<section id="footnotes" class="footnotes footnotes-end-of-document"
role="doc-endnotes">
<hr />
<ol>
<li id="fn1"><p>Exercise sheets for these lectures are due one week
after each lecture, at the start of the next lecture; they count towards
the mini-report mark, not towards the assignments.<a href="#fnref1"
class="footnote-back" role="doc-backlink">↩︎</a></p></li>
</ol>
</section>
</body>
</html>
"""
)

# ---------------------------------------------------------------- 07 notebook
MD = "markdown"
CELLS = [
    (
        MD,
        """# Lab 3 — ODE solvers and stiffness

**NM-2310 Numerical Methods, Lecture 14 lab (9 July 2026)** · Dr Helena Lindqvist, with TA Mizuki Iwasa

This notebook is both the handout and the reference run. Work on a copy in NumHub
(`File → Save a copy`), answer tasks 1–4, and submit the `.ipynb` and a PDF on Kiri-Learn
by **Monday 20 July, 23:59** (this is Assignment 3).

The reference outputs below were produced on NumHub (Python 3.12, NumPy 2.1). Your numbers
should agree to at least 10 significant digits.""",
    ),
    (
        MD,
        r"""## 1. Test problem

We solve the initial value problem

$$
y'(t) = -y(t) + \sin t, \qquad y(0) = 1, \qquad 0 \le t \le 2,
$$

whose exact solution is

$$
y(t) = \tfrac{3}{2} e^{-t} + \tfrac{1}{2}(\sin t - \cos t).
$$

For a step size $h$ and $t_k = kh$, the three methods of Lecture 13 are

- explicit Euler: $y_{k+1} = y_k + h f(t_k, y_k)$, global error $O(h)$;
- Heun (a 2-stage Runge–Kutta method): $y_{k+1} = y_k + \tfrac{h}{2}\bigl(k_1 + k_2\bigr)$ with $k_1 = f(t_k, y_k)$, $k_2 = f(t_k + h, y_k + h k_1)$, global error $O(h^2)$;
- classical RK4: $y_{k+1} = y_k + \tfrac{h}{6}(k_1 + 2k_2 + 2k_3 + k_4)$, global error $O(h^4)$.""",
    ),
    (
        "code",
        """import numpy as np

def f(t, y):
    return -y + np.sin(t)

def exact(t):
    return 1.5 * np.exp(-t) + 0.5 * (np.sin(t) - np.cos(t))

def euler(f, y0, T, h):
    n = round(T / h); t, y = 0.0, y0
    for k in range(n):
        y = y + h * f(t, y); t = t + h
    return y

def heun(f, y0, T, h):
    n = round(T / h); t, y = 0.0, y0
    for k in range(n):
        k1 = f(t, y); k2 = f(t + h, y + h * k1)
        y = y + h / 2 * (k1 + k2); t = t + h
    return y

def rk4(f, y0, T, h):
    n = round(T / h); t, y = 0.0, y0
    for k in range(n):
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4); t = t + h
    return y

print("exact y(2) =", repr(float(exact(2.0))))""",
    ),
    (
        MD,
        r"""## 2. Task 1: global error at $t = 2$

Halve $h$ three times and look at the error ratio $e(h)/e(h/2)$. For an order-$p$ method it
should approach $2^p$.""",
    ),
    (
        "code",
        """print(f"{'h':>7} {'Euler':>10} {'Heun':>10} {'RK4':>10}")
prev = None
for h in [0.2, 0.1, 0.05, 0.025]:
    errs = [abs(m(f, 1.0, 2.0, h) - exact(2.0)) for m in (euler, heun, rk4)]
    print(f"{h:>7} " + " ".join(f"{e:10.3e}" for e in errs))
    if prev is not None:
        ratios = [p / e for p, e in zip(prev, errs)]
    prev = errs
print("ratios for the last halving:", " ".join(f"{r:.2f}" for r in ratios))""",
    ),
    (
        MD,
        r"""**Task 1.** Explain the three ratios in one or two sentences each. Which method would you
use if every evaluation of $f$ took one second?

## 3. Task 2: a stiff problem

Now take

$$
y' = -50\,(y - \cos t), \qquad y(0) = 0.
$$

The solution quickly approaches $\cos t$ and then varies slowly, but the fast decay rate
$\lambda = -50$ still controls explicit methods. Explicit Euler applied to $y' = \lambda y$ gives
$y_{k+1} = (1 + h\lambda)\,y_k$, so it is stable only if $|1 + h\lambda| \le 1$, i.e.

$$
h \le \frac{2}{|\lambda|} = 0.04 .
$$

Implicit (backward) Euler, $y_{k+1} = y_k + h f(t_{k+1}, y_{k+1})$, gives
$y_{k+1} = y_k / (1 - h\lambda)$ and is stable for every $h > 0$ (it is *A-stable*).
For this linear problem the implicit equation can be solved in closed form.""",
    ),
    (
        "code",
        """lam = -50.0
g = lambda t, y: lam * (y - np.cos(t))

def euler_path(h, T=1.0):
    n = round(T / h); y = 0.0; out = [y]
    for k in range(n):
        y = y + h * g(k * h, y); out.append(y)
    return np.array(out)

def backward_euler_path(h, T=1.0):
    n = round(T / h); y = 0.0; out = [y]
    for k in range(n):
        t1 = (k + 1) * h
        y = (y - h * lam * np.cos(t1)) / (1 - h * lam); out.append(y)
    return np.array(out)

for h in [0.05, 0.03]:
    yE = euler_path(h)
    print(f"explicit Euler h={h}: y(1) = {yE[-1]: .4e}, max |y| = {np.abs(yE).max():.4e}")
yB = backward_euler_path(0.05)
print(f"implicit Euler h=0.05: y(1) = {yB[-1]:.6f}, error = {abs(yB[-1] - np.cos(1.0)):.2e} (vs cos(1))")""",
    ),
    (
        MD,
        """**Task 2.** The error of implicit Euler above is measured against $\\cos 1$, not against the
exact solution. Why is that good enough here? (Hint: how big is $e^{-50}$?)

The figure below is made by the next cell with a tiny plotting helper from the course
package `nmplot` (pre-installed on NumHub; it writes a PNG without matplotlib).""",
    ),
    (
        "code",
        """import nmplot
nmplot.lines({"explicit Euler, h=0.05": euler_path(0.05),
              "implicit Euler, h=0.05": backward_euler_path(0.05)},
             ylim=(-3, 3), title="y' = -50(y - cos t)")""",
    ),
    (
        MD,
        r"""## 4. Tasks 3 and 4

**Task 3.** Find, by experiment, the largest $h$ of the form $0.001k$ for which explicit Euler
on the stiff problem keeps $\max|y| \le 2$ on $[0, 1]$. Compare it with the bound $2/|\lambda|$.

**Task 4.** Apply RK4 to the stiff problem. The stability interval of RK4 on the negative real
axis is about $-2.785 \le h\lambda \le 0$. Predict the largest stable $h$ and check it.

### Marking

| Task | Points |
|---|---|
| 1 | 30 |
| 2 | 20 |
| 3 | 25 |
| 4 | 25 |

Late submissions follow the syllabus rule. Plots must have labelled axes; a plot without
labels loses 5 points.""",
    ),
]


def _png(width: int, height: int, pixels: list[bytearray]) -> bytes:
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


class _NmPlot:
    """Stand-in for the course package ``nmplot``: draws the series into a small PNG."""

    def __init__(self) -> None:
        self.figure: bytes | None = None

    def lines(self, series: dict, ylim=(-1, 1), title="") -> None:
        w, h = 360, 200
        px = [bytearray(b"\xff" * (3 * w)) for _ in range(h)]
        colours = [(31, 119, 180), (214, 39, 40)]

        def put(x: int, y: int, c) -> None:
            if 0 <= x < w and 0 <= y < h:
                px[y][3 * x : 3 * x + 3] = bytes(c)

        for x in range(20, w - 10):
            put(x, h // 2, (0, 0, 0))
        for y in range(10, h - 10):
            put(20, y, (0, 0, 0))
        for c, ys in zip(colours, series.values(), strict=False):
            n = len(ys)
            pts = []
            for i, v in enumerate(ys):
                x = 20 + round(i * (w - 30) / (n - 1))
                v = min(max(float(v), ylim[0]), ylim[1])
                y = round((ylim[1] - v) / (ylim[1] - ylim[0]) * (h - 20)) + 10
                pts.append((x, y))
            for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
                steps = max(abs(x1 - x0), abs(y1 - y0), 1)
                for s in range(steps + 1):
                    put(x0 + round((x1 - x0) * s / steps), y0 + round((y1 - y0) * s / steps), c)
        self.figure = _png(w, h, px)


def _src(text: str) -> list[str]:
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + [lines[-1]]


def build_notebook() -> dict:
    import sys
    import types

    plot = _NmPlot()
    module = types.ModuleType("nmplot")
    module.lines = plot.lines
    sys.modules["nmplot"] = module
    scope: dict = {}
    cells = []
    count = 0
    for n, (kind, text) in enumerate(CELLS):
        cell_id = f"lab3-{n:02d}"
        if kind == MD:
            cells.append(
                {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": _src(text)}
            )
            continue
        count += 1
        buffer = io.StringIO()
        plot.figure = None
        with contextlib.redirect_stdout(buffer):
            exec(compile(text, f"<cell {count}>", "exec"), scope)
        outputs = []
        if buffer.getvalue():
            outputs.append(
                {"name": "stdout", "output_type": "stream", "text": _src(buffer.getvalue())}
            )
        if plot.figure is not None:
            outputs.append(
                {
                    "data": {
                        "image/png": base64.b64encode(plot.figure).decode("ascii") + "\n",
                        "text/plain": ["<Figure size 360x200 with 1 Axes>"],
                    },
                    "metadata": {},
                    "output_type": "display_data",
                }
            )
        cells.append(
            {
                "cell_type": "code",
                "execution_count": count,
                "id": cell_id,
                "metadata": {},
                "outputs": outputs,
                "source": _src(text),
            }
        )
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {
                "name": "python",
                "version": "3.12.4",
                "mimetype": "text/x-python",
                "file_extension": ".py",
                "codemirror_mode": {"name": "ipython", "version": 3},
                "nbconvert_exporter": "python",
                "pygments_lexer": "ipython3",
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


# ---------------------------------------------------------------- FAQ (semicolon CSV)
FAQ = [
    ("No", "Question", "Answer", "Asked in"),
    (
        "1",
        "演習課題の締切を過ぎてしまいました。まだ出せますか？",
        "締切から48時間以内なら提出できますが、24時間ごとに20%減点です。48時間を過ぎると0点になります。",
        "第2回",
    ),
    (
        "2",
        "NumHub にログインできません。",
        "学外からは Kiri VPN への接続が必要です。学内でも入れない場合は、エラー画面のスクリーンショットを付けて TA の北條さんに Kiri-Learn のメッセージで連絡してください。",
        "第1回",
    ),
    (
        "3",
        "Can I ask questions in English in the Japanese lectures?",
        "Yes. Both teachers and both TAs read English; write to nm2310-staff@kirigaoka-it.example or use the Kiri-Learn forum.",
        "Lecture 5",
    ),
    (
        "4",
        "期末試験の持ち込み用紙はコピーでもいいですか？",
        "だめです。A4 用紙1枚、両面とも自筆の手書きに限ります。印刷やコピー、他人が書いたものは回収します。",
        "第15回",
    ),
    (
        "5",
        "ニュートン法の停止条件は更新量と残差のどちらを使えばいいですか？",
        "演習1では更新量 |x_{k+1} - x_k| < 1e-12 で止めてください。残差は表に参考として載せるだけで構いません。",
        "第3回",
    ),
    (
        "6",
        "Why does my Simpson's rule code give a wrong answer for n = 7?",
        "Simpson's rule needs an even number of subintervals. With n = 7 the slices y[1:-1:2] and y[2:-1:2] no longer match the 4-2-4 pattern. Use n = 8, or raise an error when n is odd.",
        "Lecture 6",
    ),
    (
        "7",
        "np.linalg.solve と逆行列 inv(A) @ b はどちらを使うべきですか？",
        "solve を使ってください。内部で LU 分解をするので、逆行列を作るより計算量が少なく、誤差も小さくなります。演習2で inv を使った場合は2点減点します。",
        "第9回",
    ),
    (
        "8",
        "中間小テストの範囲はどこまでですか？",
        "第1回から第8回までです（英語回の第5〜7回を含む）。問題文は日本語、30分、電卓不可です。",
        "第8回",
    ),
    (
        "9",
        "Is the power method on the final exam even though it was taught in English?",
        "Yes. Everything from Lectures 1 to 14 is in the exam, and questions on the English lectures are written in Japanese. Learn the Japanese terms 冪乗法 and レイリー商.",
        "Lecture 12",
    ),
    (
        "10",
        "SOR法の ω はどうやって決めればいいですか？",
        "演習2では ω = 1.0, 1.1, …, 1.9 を 0.1 刻みで試し、反復回数が最小になる値を報告してください。理論値との比較は加点対象です。",
        "第10回",
    ),
    (
        "11",
        "Do I need SciPy for the labs?",
        "No. Everything can be done with NumPy alone. SciPy is installed on NumHub, and you may use it to check your answers, but the submitted solvers must be your own code.",
        "Lecture 13",
    ),
    (
        "12",
        "欠席した回の資料はどこにありますか？",
        "すべて Kiri-Learn の「授業資料」にあります。板書の写真は授業の翌日までに TA の岩佐さんがアップロードします。",
        "第4回",
    ),
    (
        "13",
        "What happens if NumHub goes down right before a deadline?",
        "The deadline is extended by the length of the outage listed on the NumHub status page. Do not email us a notebook instead; wait and submit on Kiri-Learn.",
        "Lecture 11",
    ),
    (
        "14",
        "ガウス消去法でピボット選択をしないと、どのくらい結果が変わりますか？",
        "講義ノート第8回の 2×2 の例では、ピボット選択なしだと x1 が 0.0 になり（正しくは 1.0）、完全に間違った答えになります。",
        "第8回",
    ),
    (
        "15",
        "Can I use float32 to make my lab code faster?",
        "Please don't. All reference answers are in float64, and float32 has only about 7 significant digits, so your results will not match to 10 digits.",
        "Lecture 14",
    ),
    (
        "16",
        "再試験はありますか？",
        "この科目には再試験はありません。不合格の場合は翌年度に再履修してください。追試験（病気などで期末試験を受けられなかった人向け）とは別です。",
        "第15回",
    ),
]


def faq_bytes() -> bytes:
    def field(value: str) -> str:
        if any(c in value for c in ';"\n'):
            return '"' + value.replace('"', '""') + '"'
        return value

    text = "\r\n".join(";".join(field(v) for v in row) for row in FAQ) + "\r\n"
    return b"\xef\xbb\xbf" + text.encode("utf-8")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "02_root_finding_ja.txt").write_bytes(ROOT_TEXT.replace("\n", "\r\n").encode("cp932"))
    (OUT / "03_interpolation_quadrature_en.html").write_text(
        PANDOC_HEAD + PANDOC_BODY, encoding="utf-8"
    )
    nb = build_notebook()
    (OUT / "07_lab3_ode_stiffness_en.ipynb").write_text(
        json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    (OUT / "faq.csv").write_bytes(faq_bytes())


if __name__ == "__main__":
    main()
