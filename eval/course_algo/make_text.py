"""Build the text-like materials of the course_algo eval set that are not written by hand.

    .venv/bin/python eval/course_algo/make_text.py      (from the repository root)

writes, under eval/course_algo/materials/:

- 06_dp_notes_ja.txt                 - Lectures 13-14 notes as the teacher keeps them in Emacs on
                                       the department's Unix server: EUC-JP, LF line endings,
                                       "====" title rule, "[n]" sections, tab-indented
                                       pseudo-code, a "+---+" ASCII table, ASCII formulas
- 07_lab1_sorting_benchmark_en.ipynb - Lab 1 walkthrough notebook in English, nbformat 4.5, as
                                       Jupyter saves it after a run: stream output (printed
                                       tables), an execute_result with a pandas DataFrame
                                       (text/plain and text/html), an error output with the
                                       ANSI colour codes ipykernel writes into tracebacks, and a
                                       matplotlib figure (image/png + text/plain)
- faq.csv                            - course FAQ as Excel on Japanese Windows saves "CSV
                                       (コンマ区切り)": Shift_JIS (cp932), CRLF, header 質問,回答,
                                       quotes only where needed; Japanese and English rows

The notebook outputs are fixed text (the timings are fictional; the comparison counts and the
ratios were checked with a throw-away script). Two runs write byte-identical files.
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import base64
import csv
import io
import json
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).parent / "materials"

# =====================================================================================
# 06: dynamic programming notes, EUC-JP + LF
# =====================================================================================
DP_NOTES = """\
==================================================================
 CS-2310 アルゴリズムとデータ構造  第13回・第14回 メモ
 動的計画法 (dynamic programming, DP)          2026-07-15 / 07-22
                                                        桐生 真澄
==================================================================

このメモは板書の補足です。スライドはありません。
式はすべて ASCII で書いています (dp[i][w] は2次元配列 dp の i 行 w 列)。


[1] 動的計画法とは

同じ部分問題を何度も解いてしまう再帰を、部分問題の答えを表に
記録することで速くする方法。使える条件は次の2つ。

  (a) 最適部分構造 (optimal substructure):
      問題の最適解が、部分問題の最適解から組み立てられる。
  (b) 部分問題の重複 (overlapping subproblems):
      同じ部分問題が何度も現れる。

(b) がなければ普通の分割統治 (マージソートなど) で十分。

書き方は2通りある。

  * メモ化再帰 (top-down):   再帰はそのまま、答えを辞書や配列に覚える
  * ボトムアップ (bottom-up): 小さい部分問題から順に表を埋める

Python では再帰の深さの制限 (初期値 1000) があるので、課題では
ボトムアップで書くことを勧める。


[2] 例: フィボナッチ数

	def fib(n):
		if n < 2:
			return n
		return fib(n - 1) + fib(n - 2)

この素朴な再帰で fib(40) を計算すると、関数の呼び出しは
331,160,281 回になる (Kaede Hub で約 25 秒)。
fib(n) の呼び出し回数は 2*F(n+1) - 1 で、指数的に増える。

メモ化すると呼び出しは 2n - 1 回、fib(40) なら 79 回で、
時間は 0.03 ms ほどになる。ボトムアップなら変数2つで O(n) 時間、
O(1) メモリ。


[3] 0-1 ナップサック問題 (0-1 knapsack)

n 個の品物があり、品物 i の重さは wt[i]、価値は val[i]。
重さの合計が W 以下になるように選んで、価値の合計を最大にする。
各品物は「入れる」か「入れない」かのどちらか (0-1)。

部分問題:
  dp[i][w] = 品物 1..i だけを使い、重さの合計を w 以下にしたときの
             価値の合計の最大値

漸化式:
  dp[0][w] = 0
  dp[i][w] = dp[i-1][w]                                    (wt[i] > w)
  dp[i][w] = max(dp[i-1][w], dp[i-1][w - wt[i]] + val[i])  (wt[i] <= w)

表の大きさは (n+1) x (W+1) なので、時間・メモリとも O(nW)。
W は入力の「値」であって入力の「長さ」ではないので、これは
多項式時間ではなく「擬多項式時間 (pseudo-polynomial)」である。
W = 10^9 のような入力ではこの方法は使えない。

1次元配列に減らすときは、w を大きいほうから小さいほうへ回すこと。
小さいほうから回すと、同じ品物を何度も入れてしまう
(それは個数制限なしナップサックの解き方になる)。

例: W = 8、品物 (wt, val) = (2, 3), (3, 4), (4, 5), (5, 8)

  +-------+---+---+---+---+---+---+---+---+---+
  | i \\ w | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |
  +-------+---+---+---+---+---+---+---+---+---+
  |   0   | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
  |   1   | 0 | 0 | 3 | 3 | 3 | 3 | 3 | 3 | 3 |
  |   2   | 0 | 0 | 3 | 4 | 4 | 7 | 7 | 7 | 7 |
  |   3   | 0 | 0 | 3 | 4 | 5 | 7 | 8 | 9 | 9 |
  |   4   | 0 | 0 | 3 | 4 | 5 | 8 | 8 |11 |12 |
  +-------+---+---+---+---+---+---+---+---+---+

  => 最大の価値は dp[4][8] = 12 (品物 2 と 4 を選ぶ: wt 3+5=8, val 4+8=12)
  表を右下から逆にたどると、どの品物を選んだかがわかる。


[4] 最長共通部分列 (LCS, longest common subsequence)

部分列は、元の列からいくつかの文字を (順序を保って) 抜き出したもの。
連続している必要はない (連続していれば「部分文字列」)。

  L[i][j] = x[1..i] と y[1..j] の LCS の長さ
  L[i][j] = 0                               (i = 0 または j = 0)
  L[i][j] = L[i-1][j-1] + 1                 (x[i] == y[j])
  L[i][j] = max(L[i-1][j], L[i][j-1])       (x[i] != y[j])

時間 O(mn)、メモリ O(mn)。長さだけなら2行で O(min(m, n)) に減らせる。
例: x = "ASANAGI", y = "NAGISA" の LCS は "NAGI" で、長さは 4。


[5] 編集距離 (edit distance) -- 課題5

文字列 x を y に変えるのに必要な、1文字の挿入・削除・置換の最小回数。

  E[i][0] = i,  E[0][j] = j
  E[i][j] = min(E[i-1][j] + 1,                  # x[i] を削除
                E[i][j-1] + 1,                  # y[j] を挿入
                E[i-1][j-1] + (x[i] != y[j]))   # 置換 (同じ文字なら 0)

例: "GRAPH" -> "GIRAFFE" の編集距離は 4。

課題5 (Hanabi Judge の問題 A5-EDIT) の条件:
  * 文字列の長さは最大 5,000。表は 5,001 x 5,001 で約 2,500 万マス
  * Python で2次元リストを作るとメモリ制限 256MB を超えるので、
    2行だけ持つ書き方 (O(min(m, n)) memory) にすること
  * 制限時間は 3 秒 (他の課題より長い)
  * 締切は 7/28 (火) 23:59


[6] Floyd-Warshall 法 (全点対最短路) -- 第14回

頂点を 1..n とし、d[i][j] を「経由してよい頂点を 1..k に限ったときの
i から j への最短距離」と考えて、k を1つずつ増やす。

	for k in 1..n:
		for i in 1..n:
			for j in 1..n:
				d[i][j] = min(d[i][j], d[i][k] + d[k][j])

  * k のループを一番外側に置くこと (入れ替えると正しくない)
  * 時間 O(n^3)、メモリ O(n^2)
  * 負の辺があってもよい。終わった後に d[i][i] < 0 となる i があれば
    負の閉路がある
  * 課題4の構内地図 (n = 212) なら 212^3 = 約 950 万回で、C なら十分速い


[7] 区間DP: 行列の連鎖積 (matrix chain multiplication)

行列 A1, A2, ..., An の積を計算する順序 (括弧の付け方) で、
スカラー乗算の回数が大きく変わる。Ai の大きさを p[i-1] x p[i] とする。

  M[i][j] = 0                                                   (i = j)
  M[i][j] = min_{i <= k < j} (M[i][k] + M[k+1][j] + p[i-1]*p[k]*p[j])

区間の長さ (j - i) の短い順に表を埋める。時間 O(n^3)、メモリ O(n^2)。

例: A (10x30), B (30x5), C (5x60)
  (AB)C : 10*30*5 + 10*5*60  = 1,500 + 3,000  =  4,500 回
  A(BC) : 30*5*60 + 10*30*60 = 9,000 + 18,000 = 27,000 回
  => (AB)C のほうが 6 倍速い。


[8] DP を設計するときのチェックリスト

  1. 部分問題を日本語で1文で書く (「dp[i][w] = ... の最大値」)
  2. 漸化式を書き、場合分けに漏れがないか確かめる
  3. 初期値 (i = 0 や j = 0 の行・列) を決める
  4. 表を埋める順序を決める (右辺が先に計算済みになる順)
  5. 答えが表のどこにあるかを書く
  6. 計算量 = (表のマス数) x (1マスあたりの手間)

期末試験では、1〜5 を答案に書いてあれば、計算の途中で間違えても
部分点を出す。


[9] 連絡

  * 第15回 (7/29) は総まとめ。期末試験の練習問題を配る
  * 期末試験は 8/5 (水) 3限、K-302。DP からは2問出す
  * 質問は kiryu.masumi@algo.asanagi-u.example まで
    (件名に「CS-2310」と入れてください。入っていないメールは
     見落とすことがあります)
"""

# =====================================================================================
# 07: Lab 1 notebook (English)
# =====================================================================================
ANSI_RED, ANSI_GREEN, ANSI_CYAN, ANSI_RESET = "\x1b[0;31m", "\x1b[0;32m", "\x1b[0;36m", "\x1b[0m"
ANSI_BLUE, ANSI_BOLD_GREEN = "\x1b[0;34m", "\x1b[1;32m"

TIMES_PLAIN = """\
                  n=1000  n=10000  n=100000
algorithm                                  
insertion_sort     29.80  3085.40       NaN
merge_sort          1.90    23.70    291.00
quicksort_random    1.30    15.90    204.20
heapq_sort          0.41     5.20     70.30
sorted              0.06     0.88     12.60"""
TIMES_ROWS = [
    ["insertion_sort", "29.80", "3085.40", "NaN"],
    ["merge_sort", "1.90", "23.70", "291.00"],
    ["quicksort_random", "1.30", "15.90", "204.20"],
    ["heapq_sort", "0.41", "5.20", "70.30"],
    ["sorted", "0.06", "0.88", "12.60"],
]
STYLE = (
    "<style scoped>\n"
    "    .dataframe tbody tr th:only-of-type {\n"
    "        vertical-align: middle;\n"
    "    }\n"
    "\n"
    "    .dataframe tbody tr th {\n"
    "        vertical-align: top;\n"
    "    }\n"
    "\n"
    "    .dataframe thead th {\n"
    "        text-align: right;\n"
    "    }\n"
    "</style>\n"
)


def _times_html() -> str:
    out = ["<div>\n", STYLE, '<table border="1" class="dataframe">\n', "  <thead>\n"]
    out.append('    <tr style="text-align: right;">\n      <th></th>\n')
    out.extend(f"      <th>{c}</th>\n" for c in ("n=1000", "n=10000", "n=100000"))
    out.append("    </tr>\n    <tr>\n      <th>algorithm</th>\n")
    out.extend("      <th></th>\n" for _ in range(3))
    out.append("    </tr>\n  </thead>\n  <tbody>\n")
    for row in TIMES_ROWS:
        out.append(f"    <tr>\n      <th>{row[0]}</th>\n")
        out.extend(f"      <td>{v}</td>\n" for v in row[1:])
        out.append("    </tr>\n")
    out.append("  </tbody>\n</table>\n</div>")
    return "".join(out)


def _traceback() -> list[str]:
    rule = "-" * 75
    return [
        f"{ANSI_RED}{rule}{ANSI_RESET}",
        f"{ANSI_RED}RecursionError{ANSI_RESET}                            Traceback (most recent call last)",
        f"Cell {ANSI_GREEN}In[9], line 2{ANSI_RESET}\n"
        f"{ANSI_GREEN}      1{ANSI_RESET} data {ANSI_BLUE}={ANSI_RESET} {ANSI_BOLD_GREEN}list{ANSI_RESET}({ANSI_BOLD_GREEN}range{ANSI_RESET}({ANSI_CYAN}10_000{ANSI_RESET}))   {ANSI_RED}# already sorted{ANSI_RESET}\n"
        f"{ANSI_GREEN}----> 2{ANSI_RESET} quicksort_last(data)",
        f"Cell {ANSI_GREEN}In[3], line 49{ANSI_RESET}, in {ANSI_CYAN}quicksort_last{ANSI_RESET}{ANSI_BLUE}(a, lo, hi){ANSI_RESET}\n"
        f"{ANSI_GREEN}     47{ANSI_RESET} {ANSI_BOLD_GREEN}if{ANSI_RESET} lo {ANSI_BLUE}<{ANSI_RESET} hi:\n"
        f"{ANSI_GREEN}     48{ANSI_RESET}     p {ANSI_BLUE}={ANSI_RESET} partition_last(a, lo, hi)\n"
        f"{ANSI_GREEN}---> 49{ANSI_RESET}     quicksort_last(a, lo, p {ANSI_BLUE}-{ANSI_RESET} {ANSI_CYAN}1{ANSI_RESET})\n"
        f"{ANSI_GREEN}     50{ANSI_RESET}     quicksort_last(a, p {ANSI_BLUE}+{ANSI_RESET} {ANSI_CYAN}1{ANSI_RESET}, hi)",
        f"    {ANSI_RED}[... skipping similar frames: quicksort_last at line 49 (2974 times)]{ANSI_RESET}",
        f"Cell {ANSI_GREEN}In[3], line 38{ANSI_RESET}, in {ANSI_CYAN}partition_last{ANSI_RESET}{ANSI_BLUE}(a, lo, hi){ANSI_RESET}\n"
        f"{ANSI_GREEN}     36{ANSI_RESET} i {ANSI_BLUE}={ANSI_RESET} lo {ANSI_BLUE}-{ANSI_RESET} {ANSI_CYAN}1{ANSI_RESET}\n"
        f"{ANSI_GREEN}---> 38{ANSI_RESET} {ANSI_BOLD_GREEN}for{ANSI_RESET} j {ANSI_BOLD_GREEN}in{ANSI_RESET} {ANSI_BOLD_GREEN}range{ANSI_RESET}(lo, hi):",
        f"{ANSI_RED}RecursionError{ANSI_RESET}: maximum recursion depth exceeded in comparison",
    ]


def _png() -> str:
    """A real (tiny, blank) PNG, as a stand-in for the figure; what a reader gets is the text."""
    width, height = 64, 48
    raw = b"".join(b"\x00" + b"\xff\xff\xff" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
    return base64.b64encode(png).decode("ascii")


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}


def _code(source: str, count: int, outputs: list[dict]) -> dict:
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {},
        "outputs": outputs,
        "source": source.rstrip("\n").splitlines(keepends=True),
    }


def _stream(text: str, name: str = "stdout") -> dict:
    return {"name": name, "output_type": "stream", "text": text.splitlines(keepends=True)}


def _result(count: int, plain: str, html_text: str | None = None) -> dict:
    data = {}
    if html_text is not None:
        data["text/html"] = html_text.splitlines(keepends=True)
    data["text/plain"] = plain.splitlines(keepends=True)
    return {"data": data, "execution_count": count, "metadata": {}, "output_type": "execute_result"}


SORTS = """\
import random


def insertion_sort(a):
    a = list(a)
    for i in range(1, len(a)):
        key, j = a[i], i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


def merge_sort(a):
    if len(a) <= 1:
        return list(a)
    mid = len(a) // 2
    left, right = merge_sort(a[:mid]), merge_sort(a[mid:])
    out, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:      # <= keeps the sort stable
            out.append(left[i]); i += 1
        else:
            out.append(right[j]); j += 1
    out.extend(left[i:]); out.extend(right[j:])
    return out


def partition_last(a, lo, hi):
    x = a[hi]                        # last element as pivot
    i = lo - 1
    for j in range(lo, hi):
        if a[j] <= x:
            i += 1
            a[i], a[j] = a[j], a[i]
    a[i + 1], a[hi] = a[hi], a[i + 1]
    return i + 1


def quicksort_last(a, lo=0, hi=None):
    if hi is None:
        hi = len(a) - 1
    if lo < hi:
        p = partition_last(a, lo, hi)
        quicksort_last(a, lo, p - 1)
        quicksort_last(a, p + 1, hi)
    return a


def quicksort_random(a, lo=0, hi=None):
    if hi is None:
        a, hi = list(a), len(a) - 1
    while lo < hi:
        r = random.randint(lo, hi)   # random pivot, moved to the end
        a[r], a[hi] = a[hi], a[r]
        p = partition_last(a, lo, hi)
        if p - lo < hi - p:          # recurse on the smaller side
            quicksort_random(a, lo, p - 1)
            lo = p + 1
        else:
            quicksort_random(a, p + 1, hi)
            hi = p - 1
    return a
"""


def notebook() -> dict:
    cells = [
        _md(
            "# Lab 1 – Sorting: implement, test, measure\n"
            "\n"
            "CS-2310 Algorithms and Data Structures · Lab 1 walkthrough · Lecture 3, 22 April 2026  \n"
            "Prepared by Lucas Ferreira (TA). Questions in English, Japanese or Portuguese are welcome.\n"
            "\n"
            "This notebook shows one way to do Lab 1. Run **your own** version on Kaede Hub: timings from "
            "your laptop are not accepted, because they cannot be compared with anyone else's.\n"
        ),
        _code(
            "import sys, time, statistics, heapq\nprint(sys.version)\nprint(sys.getrecursionlimit())",
            1,
            [_stream("3.12.4 (main, Apr  2 2026, 09:12:33) [GCC 13.2.0]\n1000\n")],
        ),
        _md(
            "## 1. Three sorts (and one broken on purpose)\n"
            "\n"
            "`quicksort_last` uses the last element as the pivot, exactly like the pseudo-code in the lecture notes. "
            "`quicksort_random` swaps a random element to the end first and recurses on the smaller side only, "
            "so its recursion depth stays around log n.\n"
        ),
        _code(SORTS, 2, []),
        _code(
            "def heapq_sort(a):\n"
            "    h = list(a)\n"
            "    heapq.heapify(h)\n"
            "    return [heapq.heappop(h) for _ in range(len(h))]\n"
            "\n"
            "random.seed(2310)\n"
            "for trial in range(500):\n"
            "    data = [random.randrange(100) for _ in range(random.randrange(0, 60))]\n"
            "    expected = sorted(data)\n"
            "    for sort in (insertion_sort, merge_sort, quicksort_random, heapq_sort):\n"
            "        assert sort(data) == expected, (sort.__name__, data)\n"
            "    assert quicksort_last(list(data)) == expected\n"
            'print("all 5 sorts agree with sorted() on 500 random lists (lengths 0-59, many duplicates)")',
            3,
            [
                _stream(
                    "all 5 sorts agree with sorted() on 500 random lists (lengths 0-59, many duplicates)\n"
                )
            ],
        ),
        _md(
            "## 2. Timing\n"
            "\n"
            "Rules we use for every measurement in this course:\n"
            "\n"
            "1. `time.perf_counter()`, never `time.time()` (it can jump when the clock is adjusted).\n"
            "2. Sort a **fresh copy** of the data each run, otherwise the second run sorts sorted data.\n"
            "3. Run 5 times and report the **median**, which ignores one slow run caused by another user on the node.\n"
        ),
        _code(
            "def measure(sort, data, repeats=5):\n"
            "    times = []\n"
            "    for _ in range(repeats):\n"
            "        copy = list(data)\n"
            "        t0 = time.perf_counter()\n"
            "        sort(copy)\n"
            "        times.append((time.perf_counter() - t0) * 1000)\n"
            "    return statistics.median(times)   # milliseconds",
            4,
            [],
        ),
        _code(
            "import pandas as pd\n"
            "\n"
            "random.seed(2310)\n"
            "sizes = [1_000, 10_000, 100_000]\n"
            "rows = {}\n"
            "for sort in (insertion_sort, merge_sort, quicksort_random, heapq_sort, sorted):\n"
            "    rows[sort.__name__] = {}\n"
            "    for n in sizes:\n"
            "        if sort is insertion_sort and n > 10_000:\n"
            "            continue                     # about 5 minutes: skip\n"
            "        data = [random.randrange(10**9) for _ in range(n)]\n"
            '        rows[sort.__name__][f"n={n}"] = round(measure(sort, data), 2)\n'
            "times = pd.DataFrame(rows).T\n"
            'times.index.name = "algorithm"\n'
            "times",
            5,
            [_result(5, TIMES_PLAIN, _times_html())],
        ),
        _md(
            "All numbers are milliseconds, on Kaede Hub node kaede-03. `sorted` is Timsort written in C, "
            "which is why it is about 16 times faster than our Python merge sort at n = 100,000 even though both are Θ(n log n).\n"
        ),
        _md(
            "## 3. Doubling experiment\n"
            "\n"
            "If T(n) grows like n^k, then T(2n) / T(n) ≈ 2^k. So a ratio near 4 means quadratic and a ratio a little above 2 means n log n.\n"
        ),
        _code(
            "for sort in (insertion_sort, merge_sort):\n"
            "    t = [measure(sort, [random.randrange(10**9) for _ in range(n)]) for n in (2000, 4000, 8000)]\n"
            '    print(f"{sort.__name__:<15} T(4000)/T(2000) = {t[1]/t[0]:.2f}   T(8000)/T(4000) = {t[2]/t[1]:.2f}")',
            6,
            [
                _stream(
                    "insertion_sort  T(4000)/T(2000) = 4.06   T(8000)/T(4000) = 4.02\n"
                    "merge_sort      T(4000)/T(2000) = 2.13   T(8000)/T(4000) = 2.09\n"
                )
            ],
        ),
        _md(
            "## 4. The worst case of quicksort\n"
            "\n"
            "With the last element as pivot, an already sorted list splits into sizes n − 1 and 0 every time. "
            "The recursion depth becomes n, and Python stops at its recursion limit (1000 by default).\n"
        ),
        _code(
            "data = list(range(10_000))   # already sorted\nquicksort_last(data)",
            9,
            [
                {
                    "ename": "RecursionError",
                    "evalue": "maximum recursion depth exceeded in comparison",
                    "output_type": "error",
                    "traceback": _traceback(),
                }
            ],
        ),
        _md(
            "Raising the limit with `sys.setrecursionlimit(20000)` is **not** a fix: the work is still Θ(n²), "
            "and on Hanabi Judge a very deep recursion crashes the process anyway. Count the comparisons instead:\n"
        ),
        _code(
            "def count_comparisons(pivot, data):\n"
            "    count = 0\n"
            "    ...  # same partition as above, with count += 1 per comparison (see the Lab 1 handout)\n"
            "    return count\n"
            "\n"
            "n = 500\n"
            'print("last pivot,   sorted input:", f"{count_comparisons(\'last\', list(range(n))):,}")\n'
            "runs = [count_comparisons('random', random.sample(range(10**6), n)) for _ in range(20)]\n"
            'print("random pivot, random input:", f"{statistics.mean(runs):,.0f}", "(mean of 20 runs)")\n'
            'print("n(n-1)/2 =", f"{n * (n - 1) // 2:,}", "  2(n+1)H_n - 4n =", f"{2 * (n + 1) * sum(1 / k for k in range(1, n + 1)) - 4 * n:,.0f}")',
            10,
            [
                _stream(
                    "last pivot,   sorted input: 124,750\n"
                    "random pivot, random input: 4,871 (mean of 20 runs)\n"
                    "n(n-1)/2 = 124,750   2(n+1)H_n - 4n = 4,806\n"
                )
            ],
        ),
        _md(
            "## 5. Plot\n\nLog–log axes: a straight line of slope 2 is quadratic, slope just above 1 is n log n.\n"
        ),
        _code(
            "import matplotlib.pyplot as plt\n"
            "\n"
            "ax = times.T.plot(logx=True, logy=True, marker='o')\n"
            "ax.set_xlabel('n'); ax.set_ylabel('median time [ms]')\n"
            "plt.show()",
            11,
            [
                {
                    "data": {
                        "image/png": _png(),
                        "text/plain": ["<Figure size 640x480 with 1 Axes>"],
                    },
                    "metadata": {},
                    "output_type": "display_data",
                }
            ],
        ),
        _md(
            "## What goes into your Lab 1 submission\n"
            "\n"
            "1. Your own implementations of insertion sort, merge sort and quicksort with a random pivot, also submitted to Hanabi Judge problem `A1-SORT`.\n"
            "2. The timing table above, measured by you on Kaede Hub (median of 5 runs).\n"
            "3. The doubling ratios, and one or two sentences on what they tell you about the growth rate.\n"
            "4. An explanation of why `quicksort_last` fails on sorted input, and how the random pivot avoids it.\n"
            "\n"
            "Write the report part (items 2–4) in Markdown cells at the end of your notebook, in English or Japanese, "
            "and upload the .ipynb to Tsubame LMS by **Tuesday 12 May, 23:59**. "
            "Do not paste the plot as a screenshot; leave the plotting cell in the notebook.\n"
        ),
    ]
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {
                "codemirror_mode": {"name": "ipython", "version": 3},
                "file_extension": ".py",
                "mimetype": "text/x-python",
                "name": "python",
                "nbconvert_exporter": "python",
                "pygments_lexer": "ipython3",
                "version": "3.12.4",
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _with_ids(nb: dict) -> dict:
    for n, cell in enumerate(nb["cells"]):
        cell["id"] = f"lab1-{n:02d}"
    return nb


# =====================================================================================
# faq.csv - Shift_JIS, CRLF, 質問,回答
# =====================================================================================
FAQ = [
    (
        "授業に遅れて入ったら出席はどうなりますか？",
        "この授業には出席点がありません。ただし第8回の中間小テストは授業の冒頭30分に行うので、遅刻するとその分だけ解答時間が短くなります。",
    ),
    (
        "中間小テストを休んでしまいました。追試はありますか？",
        "追試は行いません。病気などやむを得ない理由で欠席し、1週間以内に証明書を出した場合は、期末試験の得点率を小テストの点に換算します（例：期末試験が50点中40点なら小テストは10点中8点）。証明書のない欠席は0点です。",
    ),
    (
        "Hanabi Judge の「TLE」は何ですか？",
        "Time Limit Exceeded の略で、制限時間（多くの課題で1テストあたり2秒）を超えたという意味です。まず計算量を見直してください。Python で間に合わないときは、入力を sys.stdin.buffer.read() でまとめて読むと速くなることがあります。",
    ),
    (
        "「RE」と表示されました。",
        "Runtime Error です。Python では、再帰の深さが上限（初期値1000）を超えたときによく出ます。再帰をループと明示的なスタックで書き直してください。C では配列の範囲外アクセスが多い原因です。",
    ),
    (
        "Hanabi Judge の提出回数を使い切ってしまいました。",
        "1問あたり20回が上限で、追加はできません。採点には最も点の高い提出が使われるので、それまでの提出の最高点がその課題の自動採点の点になります。手元でテストしてから提出してください。",
    ),
    (
        "課題2で heapq を使ってもいいですか？",
        "使えません。課題2はヒープを自分で実装する課題なので、heapq や queue.PriorityQueue を使った提出は0点になります。課題4（Campus Navigator）では heapq を使ってかまいません。",
    ),
    (
        "学外から Kaede Hub に接続できますか？",
        "できます。先に大学の VPN（AsaNet VPN）に接続してから https://kaede.algo.asanagi-u.example を開いてください。VPN の設定方法は情報基盤センターのページにあります。",
    ),
    (
        "期末試験に持ち込むメモは、タブレットで書いて印刷したものでもいいですか？",
        "いいえ。持ち込めるのは紙に手で書いた A4 1枚（両面可）だけです。印刷やコピーは不可です。メモには学籍番号と名前を書いてください。試験後に回収し、返却しません。",
    ),
    (
        "課題のレポートはどの形式で出せばいいですか？",
        "課題1はノートブックの最後の Markdown セルに書き、.ipynb を提出します。課題2～5は A4 で1～2ページの PDF を Tsubame LMS に提出してください。Word のファイルは受け付けません。",
    ),
    (
        "過去の期末試験の問題はもらえますか？",
        "過去問は配布しません。その代わり、第15回（7月29日）に期末試験と同じ形式の練習問題を配り、解説します。",
    ),
    (
        "英語の回（第9～12回）の内容は、期末試験では英語で出題されますか？",
        "期末試験の問題文はすべて日本語と英語を併記します。解答はどちらの言語で書いてもかまいません。",
    ),
    (
        "Hanabi Judge の C コンパイラと Python のバージョンを教えてください。",
        "C は gcc 13.2 で、オプションは -O2 -std=c17 -lm です。Python は CPython 3.12 です（PyPy は使えません）。",
    ),
    (
        "締切の直前に Hanabi Judge が混んでいて提出できませんでした。",
        "締切直前の混雑は救済しません。締切の1日前までに一度提出しておくことを勧めます。ただし、サーバの障害が Tsubame LMS で告知された場合は、その課題の締切を24時間延長します。",
    ),
    (
        "課題を友達と相談してもいいですか？",
        "考え方を話し合うのはかまいませんが、コードを見せ合ったり共有したりしてはいけません。Hanabi Judge は提出どうしの類似度を自動で調べます。類似度が高い提出は、両方とも0点になることがあります。",
    ),
    (
        "Can I write my assignment reports in English?",
        "Yes. All reports and the final exam may be written in English. The TA Lucas Ferreira can also help you in English (or Portuguese) at the Monday question corner.",
    ),
    (
        "Where do I find the slides for the English lectures?",
        'On Tsubame LMS, in the section "Weeks 9-12 (English)". Dr Okafor uploads them the evening before each lecture.',
    ),
    (
        "Can I use C++ or Java instead of C?",
        "No. For this course Hanabi Judge accepts only Python 3.12 and C (C17). Submissions in other languages are not graded.",
    ),
    (
        "My recursive DFS gets RE on Hanabi Judge even after sys.setrecursionlimit. Why?",
        "The recursion limit is not the only limit: the judge process has a small C stack, so very deep Python recursion still crashes. Rewrite the DFS with an explicit stack (a list used with append and pop).",
    ),
    (
        "Is attendance taken in the English lectures?",
        "No. There is no attendance mark in any lecture of CS-2310, English or Japanese.",
    ),
    (
        "Can I bring a calculator to the final exam?",
        "No calculators. The numbers in the exam are chosen so that everything can be computed by hand.",
    ),
    (
        "What happens if my mid-term quiz score is low? Is there a resit?",
        "There is no resit for the quiz. It is worth only 10 points; the final exam (50 points) matters much more.",
    ),
    (
        "How many points do I need to pass?",
        "60 out of 100 in total, and at least 20 of the 50 points of the final exam.",
    ),
]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "06_dp_notes_ja.txt").write_bytes(DP_NOTES.encode("euc_jp"))
    text = json.dumps(_with_ids(notebook()), ensure_ascii=False, indent=1) + "\n"
    (OUT / "07_lab1_sorting_benchmark_en.ipynb").write_text(text, encoding="utf-8")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["質問", "回答"])
    writer.writerows(FAQ)
    (OUT / "faq.csv").write_bytes(buffer.getvalue().encode("cp932"))
    for name in ("06_dp_notes_ja.txt", "07_lab1_sorting_benchmark_en.ipynb", "faq.csv"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
