"""Build the text-shaped materials of course_arch.

- materials/07_lab11_cache_sim_en.ipynb: the TA's Lab 11 walkthrough as Jupyter saves it after a
  run (nbformat 4.5, cell ids, stream outputs, an error output with ipykernel's ANSI colours).
  The outputs are the real outputs of the code cells (run once with Python 3.12).
- materials/08_multicore_coherence_ja.txt: notes saved by Windows Notepad: UTF-8 with BOM, CRLF.
- materials/faq.csv: a Google Forms questions sheet downloaded from Google Sheets as CSV
  (UTF-8 without BOM, CRLF, columns タイムスタンプ,カテゴリ,質問,回答).

Run: .venv/bin/python eval/course_arch/make_text.py
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

HERE = Path(__file__).parent / "materials"


def md(cid: str, text: str) -> dict:
    return {"cell_type": "markdown", "id": cid, "metadata": {}, "source": _lines(text)}


def code(cid: str, n: int, text: str, outputs: list) -> dict:
    return {
        "cell_type": "code",
        "execution_count": n,
        "id": cid,
        "metadata": {},
        "outputs": outputs,
        "source": _lines(text),
    }


def stream(text: str) -> dict:
    return {"name": "stdout", "output_type": "stream", "text": _lines(text)}


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


CACHE_CODE = '''from collections import OrderedDict


class Cache:
    """A set-associative cache with LRU replacement. Sizes in bytes."""

    def __init__(self, size, line=64, ways=1):
        sets = size // (line * ways)
        if sets & (sets - 1):
            raise ValueError(f"number of sets must be a power of two, got {sets}")
        self.line, self.ways, self.sets = line, ways, sets
        self.data = [OrderedDict() for _ in range(sets)]
        self.hits = self.misses = 0

    def access(self, addr):
        block = addr // self.line
        index = block % self.sets
        tag = block // self.sets
        s = self.data[index]
        if tag in s:
            s.move_to_end(tag)          # most recently used goes last
            self.hits += 1
            return True
        if len(s) == self.ways:
            s.popitem(last=False)       # evict the least recently used
        s[tag] = True
        self.misses += 1
        return False

    @property
    def hit_rate(self):
        return self.hits / (self.hits + self.misses)


c = Cache(4096, line=64, ways=1)
print(c.sets, "sets,", c.ways, "way(s)")'''

TRACE_CODE = """N = 64          # 64 x 64 int matrix = 16 KiB
BASE = 0x10000

def row_major(n=N):
    for i in range(n):
        for j in range(n):
            yield BASE + (i * n + j) * 4

def col_major(n=N):
    for j in range(n):
        for i in range(n):
            yield BASE + (i * n + j) * 4

def run(trace, **cfg):
    c = Cache(**cfg)
    for a in trace:
        c.access(a)
    return c

for name, gen in [("row-major", row_major), ("column-major", col_major)]:
    for size, ways in [(4096, 1), (4096, 2), (4096, 4), (16384, 4)]:
        c = run(gen(), size=size, ways=ways)
        print(f"{name:13s} {size // 1024:2d} KiB {ways}-way  hits={c.hits:5d}  misses={c.misses:5d}  hit rate={c.hit_rate:.2%}")"""

TRACE_OUT = """row-major      4 KiB 1-way  hits= 3840  misses=  256  hit rate=93.75%
row-major      4 KiB 2-way  hits= 3840  misses=  256  hit rate=93.75%
row-major      4 KiB 4-way  hits= 3840  misses=  256  hit rate=93.75%
row-major     16 KiB 4-way  hits= 3840  misses=  256  hit rate=93.75%
column-major   4 KiB 1-way  hits=    0  misses= 4096  hit rate=0.00%
column-major   4 KiB 2-way  hits=    0  misses= 4096  hit rate=0.00%
column-major   4 KiB 4-way  hits=    0  misses= 4096  hit rate=0.00%
column-major  16 KiB 4-way  hits= 3840  misses=  256  hit rate=93.75%
"""

LINE_CODE = """for line in (16, 32, 64, 128):
    c = run(row_major(), size=4096, line=line, ways=1)
    print(f"line {line:3d} B: hit rate {c.hit_rate:.4f}")"""

LINE_OUT = """line  16 B: hit rate 0.7500
line  32 B: hit rate 0.8750
line  64 B: hit rate 0.9375
line 128 B: hit rate 0.9688
"""

AMAT_CODE = """T_HIT, PENALTY = 1, 100
for name, gen, ways in [("row-major", row_major, 1), ("column-major", col_major, 1), ("column-major", col_major, 4)]:
    c = run(gen(), size=4096, ways=ways)
    amat = T_HIT + (1 - c.hit_rate) * PENALTY
    print(f"{name:13s} 4 KiB {ways}-way: AMAT = {amat:.2f} cycles")"""

AMAT_OUT = """row-major     4 KiB 1-way: AMAT = 7.25 cycles
column-major  4 KiB 1-way: AMAT = 101.00 cycles
column-major  4 KiB 4-way: AMAT = 101.00 cycles
"""

E = "\u001b"
ERROR = {
    "ename": "ValueError",
    "evalue": "number of sets must be a power of two, got 48",
    "output_type": "error",
    "traceback": [
        f"{E}[0;31m---------------------------------------------------------------------------{E}[0m",
        f"{E}[0;31mValueError{E}[0m                                Traceback (most recent call last)",
        f"Cell {E}[0;32mIn[6], line 1{E}[0m\n{E}[0;32m----> 1{E}[0m {E}[43mrun{E}[49m{E}[43m({E}[49m{E}[43mrow_major{E}[49m{E}[43m({E}[49m{E}[43m){E}[49m{E}[43m,{E}[49m{E}[43m {E}[49m{E}[43msize{E}[49m{E}[38;5;241;43m={E}[39;49m{E}[38;5;241;43m3072{E}[39;49m{E}[43m,{E}[49m{E}[43m {E}[49m{E}[43mways{E}[49m{E}[38;5;241;43m={E}[39;49m{E}[38;5;241;43m1{E}[39;49m{E}[43m){E}[49m\n",
        f"Cell {E}[0;32mIn[3], line 15{E}[0m, in {E}[0;36mrun{E}[0;34m(trace, **cfg){E}[0m\n{E}[1;32m     14{E}[0m {E}[38;5;28;01mdef{E}[39;00m {E}[38;5;21mrun{E}[39m(trace, {E}[38;5;241m*{E}[39m{E}[38;5;241m*{E}[39mcfg):\n{E}[0;32m---> 15{E}[0m     c {E}[38;5;241m={E}[39m {E}[43mCache{E}[49m{E}[43m({E}[49m{E}[38;5;241;43m*{E}[39;49m{E}[38;5;241;43m*{E}[39;49m{E}[43mcfg{E}[49m{E}[43m){E}[49m\n",
        f'Cell {E}[0;32mIn[2], line 10{E}[0m, in {E}[0;36mCache.__init__{E}[0;34m(self, size, line, ways){E}[0m\n{E}[1;32m      9{E}[0m {E}[38;5;28;01mif{E}[39;00m sets {E}[38;5;241m&{E}[39m (sets {E}[38;5;241m-{E}[39m {E}[38;5;241m1{E}[39m):\n{E}[0;32m---> 10{E}[0m     {E}[38;5;28;01mraise{E}[39;00m {E}[38;5;167;01mValueError{E}[39;00m({E}[38;5;124mf{E}[39m{E}[38;5;124m"{E}[39m{E}[38;5;124mnumber of sets must be a power of two, got {E}[39m{E}[38;5;132;01m{{{E}[39;00msets{E}[38;5;132;01m}}{E}[39;00m{E}[38;5;124m"{E}[39m)\n',
        f"{E}[0;31mValueError{E}[0m: number of sets must be a power of two, got 48",
    ],
}

CELLS = [
    md(
        "a1c0f3e2",
        """# Lab 11 – Cache simulator walkthrough

CA-2140 Computer Architecture · Lab session 11, Thursday 18 June 2026, Computer Room 3
Prepared by Mateo Ruiz (TA). Run it on the course JupyterHub; the kernel is Python 3.12.

In this lab you measure, with a small simulator, what the lecture claimed about spatial locality: walking a 2-D array in the order it is stored is fast, walking it the other way round can be a disaster. Work through the cells in order and copy the numbers you get into your report.""",
    ),
    md(
        "b27d9c41",
        """## 1. The simulator

`Cache(size, line, ways)` models one level of cache with LRU replacement. An address is split into *offset* (inside the line), *index* (which set) and *tag*, exactly as on the slides of Lectures 9–10. We only count hits and misses; no data is stored. Each set is an `OrderedDict` whose order is the LRU order: the least recently used tag sits at the front.""",
    ),
    code("c3e8a0b5", 2, CACHE_CODE, [stream("64 sets, 1 way(s)\n")]),
    md(
        "d4f19b63",
        """## 2. Row-major vs column-major

The matrix `a[64][64]` of 4-byte ints takes 16 KiB, four times the smallest cache we try. C stores it row by row, so `a[i][j]` and `a[i][j+1]` are neighbours. `row_major` produces the addresses of the loop with `j` inside, `col_major` those of the loop with `i` inside.""",
    ),
    code("e5a27c10", 3, TRACE_CODE, [stream(TRACE_OUT)]),
    md(
        "f6b38d27",
        """**What happened?** Row-major misses once per 64-byte line (16 ints), so 256 misses out of 4096 accesses: 93.75%, whatever the associativity. Column-major jumps 256 bytes at every step. In the 4 KiB cache the column's 64 lines all land in just a few sets and evict each other before the next column could reuse them, so *every* access misses, and more ways do not help at 4 KiB. Only when the whole matrix fits (16 KiB) does column-major catch up.

> Report question 2: explain with the index bits why the 4-way 4 KiB cache still gets 0%.""",
    ),
    md(
        "a7c49e38",
        "## 3. Line size\n\nLarger lines bring more neighbours per miss. For the row-major walk the miss rate is simply 4 bytes / line size.",
    ),
    code("b8d5af49", 4, LINE_CODE, [stream(LINE_OUT)]),
    md(
        "c9e6b05a",
        "## 4. From hit rate to AMAT\n\nWith a 1-cycle hit time and a 100-cycle miss penalty (the numbers of Lecture 9):",
    ),
    code("d0f7c16b", 5, AMAT_CODE, [stream(AMAT_OUT)]),
    md(
        "e1a8d27c",
        """## 5. A configuration that does not exist

Not every size works: the number of sets must be a power of two, because the index is a bit field. Try it:""",
    ),
    code("f2b9e38d", 6, "run(row_major(), size=3072, ways=1)", [ERROR]),
    md(
        "a3cafa9e",
        """## Report

* Submit one PDF (at most 4 pages) on Hokushin Portal by **Tuesday 30 June 2026, 23:59**.
* Include the table from section 2, the line-size results, and your answers to report questions 1–3.
* Report question 1: for a 32 KiB, 8-way cache with 64-byte lines and 32-bit addresses, how many tag, index and offset bits?
* Report question 3: change `N` to 128 and rerun section 2. Which configurations change, and why?

If the hub is slow, you can run the notebook on your own laptop; it needs nothing beyond the standard library.""",
    ),
]


def build_notebook() -> None:
    nb = {
        "cells": CELLS,
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
    text = json.dumps(nb, ensure_ascii=False, indent=1) + "\n"
    (HERE / "07_lab11_cache_sim_en.ipynb").write_text(text, encoding="utf-8")


NOTES = """第14・15回　マルチコアとキャッシュコヒーレンス／並列性能
CA-2140 計算機アーキテクチャ　2026年7月9日・7月16日　真柴

■ 1. なぜマルチコアか

クロック周波数を上げると消費電力と発熱が急に増えるため、2000年代半ばから周波数はほとんど伸びていない。
代わりに1チップに複数のコアを載せ、並列に仕事をさせる方向に進んだ。
ただし、プログラムが並列に書かれていなければコアが増えても速くならない。

■ 2. コヒーレンス問題

各コアが自分の L1 キャッシュを持つと、同じアドレスの写しが複数のキャッシュに存在しうる。

  時刻  操作                  コア0 の L1   コア1 の L1   メモリ
  ----  --------------------  ------------  ------------  ------
   1    コア0 が X を読む      X=5           -             X=5
   2    コア1 が X を読む      X=5           X=5           X=5
   3    コア0 が X=7 を書く    X=7           X=5 (古い)    X=5
   4    コア1 が X を読む      X=7           X=5 ← 誤り    X=5

時刻4でコア1が古い値 5 を読んでしまうのがコヒーレンスの問題。
コヒーレンスを保つには、次の2つが守られればよい。
  (1) 書き込みの伝播：あるコアの書き込みは、いずれ他のコアから見えるようになる。
  (2) 書き込みの直列化：同じアドレスへの書き込みは、全コアから同じ順序に見える。

■ 3. スヌープ方式と MSI / MESI

バスでつながった少数コアでは、各キャッシュがバス上の要求を「盗み聞き（スヌープ）」して自分の写しを更新・無効化する。
書き込む前に他の写しを無効化する方式を「書き込み無効化（write-invalidate）」と呼ぶ。

MSI プロトコルの状態
  M (Modified)  ：自分だけが持ち、メモリと値が違う（dirty）。
  S (Shared)    ：読み取り専用の写し。他のキャッシュも持っているかもしれない。
  I (Invalid)   ：無効。

MESI はこれに E (Exclusive：自分だけが持ち、メモリと同じ値) を加えたもの。
E のラインに書き込むときはバスに何も流さずに M へ移れるので、
「読んでから書く」だけの私的なデータでバスの通信を減らせる。

状態遷移（MESI、自分のコアの操作）
  現在  自コアの読み                     自コアの書き
  I     → E（他に写しなし）/ S（あり）    → M（BusRdX を発行）
  S     → S                              → M（BusUpgr で他を無効化）
  E     → E                              → M（バス通信なし）
  M     → M                              → M

状態遷移（他コアの要求をスヌープしたとき）
  現在  他コアの読み（BusRd）               他コアの書き（BusRdX / BusUpgr）
  M     → S（データを供給し、メモリへ書き戻す）  → I（データを供給）
  E     → S                                 → I
  S     → S                                 → I

■ 4. ディレクトリ方式

コアが数十を超えるとバスは混雑してスヌープが効かない。
そこで各ラインについて「どのコアが写しを持っているか」をディレクトリに記録し、必要なコアにだけメッセージを送る。
ディレクトリはメモリ側（ホームノード）に分散して置くのが普通。
ディレクトリの情報量は、コア数 P に対して1ラインあたり P ビット（ビットベクタ）＋状態ビット。

■ 5. フォールスシェアリング（偽共有）

別々の変数なのに同じキャッシュラインに載っているせいで、コア間でラインが行ったり来たりする現象。

  struct { long count; } per_thread[8];        /* 8 バイトずつ並ぶ → 8 個が1本の 64 B ラインに */

  struct { long count; char pad[56]; } per_thread[8];   /* 1 個ずつ別のラインに */

演習用の4コア環境（hx-lab サーバ）で、各スレッドが自分の count を 10^8 回増やすプログラムを測ったところ、
パディングなしで 2.91 秒、パディングありで 0.38 秒だった（4スレッド、2026年7月6日 真柴計測）。
論理的には共有していないのに、コヒーレンスの単位がラインであるために起きる。

■ 6. 同期とアトミック命令

複数のコアが同じカウンタを増やすとき、「読む→足す→書く」の途中に他のコアが割り込むと更新が失われる。
RISC-V の A 拡張には2種類の道具がある。
  ・lr.w / sc.w（load-reserved / store-conditional）：lr.w で予約し、その間に他から書かれていなければ sc.w が成功する。
  ・amoadd.w などの AMO 命令：読み・演算・書きを1命令で不可分に行う。

  # t0 = カウンタのアドレス。1 を不可分に足す
  retry:
      lr.w    t1, (t0)
      addi    t1, t1, 1
      sc.w    t2, t1, (t0)     # 成功なら t2 = 0
      bnez    t2, retry

■ 6.5 メモリの順序（少しだけ）

コヒーレンスは「同じアドレス」についての約束で、「別々のアドレスへの書き込みがどの順に見えるか」は決めていない。
これを決めるのがメモリ一貫性モデル（memory consistency model）。
  ・逐次一貫性（sequential consistency）：全コアの操作が、ある1つの順番に並べられ、各コアの操作はプログラム順のまま、という最も直感的なモデル。
  ・RISC-V の RVWMO は弱いモデルで、順序が必要な場所にはプログラマが fence 命令を置く。

  # データを書いてからフラグを立てる（生産者側）
      sw      t1, 0(a0)        # data = 42
      fence   w, w             # data の書き込みを flag より先に見せる
      sw      t2, 0(a1)        # flag = 1

fence がないと、消費者側のコアは flag = 1 を見たのに data が古い、ということが起こりうる。
ロックやアトミック命令のライブラリは内部で適切な順序付けをしているので、自分で fence を書くのはそれらを作る人だけでよい。

■ 7. 並列性能と Amdahl の法則

第1回の Amdahl の法則で、s をコア数 N に置き換えると
  S(N) = 1 / ((1 - p) + p / N)
となる（p は並列化できる割合）。
  例：p = 0.95、N = 16 → S = 1 / (0.05 + 0.059375) ≒ 9.14 倍
  N をいくら増やしても上限は 1 / 0.05 = 20 倍。
実際には同期やコヒーレンスの通信が加わるので、この値より低くなるのが普通。
問題の規模もコア数に合わせて大きくするなら、Gustafson の見方のほうが実態に近い（期末試験の範囲外）。

■ 8. 期末試験について

・7月30日（木）2限、W-405。範囲は第1〜15回すべて。
・持ち込みは A4 用紙1枚（両面・手書き）。電卓は使用可（小テストとは違うので注意）。
・過去問は配布しない。代わりに7月16日の授業で練習問題を配る。
"""


def build_notes() -> None:
    data = "\ufeff" + NOTES.replace("\n", "\r\n")
    (HERE / "08_multicore_coherence_ja.txt").write_bytes(data.encode("utf-8"))


FAQ = [
    (
        "2026/04/10 9:12:03",
        "課題",
        "課題は手書きをスキャンしたものでも出せますか？",
        "はい。読みやすく撮影・スキャンして PDF 1ファイルにまとめれば手書きでかまいません。",
    ),
    (
        "2026/04/10 13:45:20",
        "課題",
        "遅れて出したらどうなりますか",
        "締切から24時間以内なら2割減点で受け付けます。それを過ぎたものは受け付けません。",
    ),
    (
        "2026/04/14 22:03:11",
        "環境",
        "Kirin-V は自分のPCにインストールする必要がありますか？",
        "いいえ。ブラウザ版なのでインストールは不要です。Chrome か Firefox の最新版を使ってください。",
    ),
    (
        "2026/04/17 18:30:42",
        "環境",
        "Kirin-V で ecall を使うと止まってしまいます",
        "Kirin-V 0.9.4 が対応している ecall は a7 = 1（整数の表示）、4（文字列の表示）、10（終了）の3つだけです。",
    ),
    (
        "2026/04/24 11:02:57",
        "授業",
        "第5〜8回は英語だけですか？日本語の資料はありますか",
        "講義とスライドは英語です。日本語訳の資料は用意しませんが、質問は日本語で大丈夫です。TA の小野寺さんが通訳を手伝います。",
    ),
    (
        "2026/05/08 20:15:33",
        "Lecture",
        "Is attendance checked in the English lectures?",
        "Yes. Attendance is taken in every lecture with a QR code shown on the screen during the first 10 minutes, but it does not count towards the grade.",
    ),
    (
        "2026/05/15 16:48:09",
        "Lecture",
        "Where can I find the pipeline diagrams from the slides?",
        "They are in the Lectures 5–6 notes on Portal (the Word page). The slides themselves are not uploaded for Lectures 5–6.",
    ),
    (
        "2026/05/19 23:40:14",
        "課題",
        "課題2の表はExcelで作ってもいいですか",
        "はい。手書きでも Excel でもかまいません。最後に PDF にして提出してください。",
    ),
    (
        "2026/05/29 10:05:51",
        "Assignment",
        "Can I work with a friend on Assignment 2?",
        "You may discuss ideas, but the cycle tables and the written answers must be your own. Write the names of the people you discussed with at the top of your submission.",
    ),
    (
        "2026/06/05 12:22:38",
        "小テスト",
        "小テストに電卓は持ち込めますか？",
        "使えません。手計算で済む数値にしてあります。",
    ),
    (
        "2026/06/05 19:11:26",
        "小テスト",
        "小テストを欠席したらどうなりますか",
        "小テストの追試はありません。病気などの証明がある場合は、その10%分を期末試験の得点から換算します。",
    ),
    (
        "2026/06/12 08:57:03",
        "Lab",
        "Can I do Lab 11 on my own laptop instead of Computer Room 3?",
        "Yes. The notebook needs only the Python standard library. Connect to the hub through HIT-VPN, or download the notebook and run it locally.",
    ),
    (
        "2026/06/19 21:34:45",
        "Lab",
        "My simulator gives a ValueError for a 48 KiB cache. Is that a bug?",
        "No. The number of sets must be a power of two. Use 32 KiB or 64 KiB, or change the number of ways so that the sets come out as a power of two.",
    ),
    (
        "2026/06/26 17:20:10",
        "授業",
        "仮想記憶の回のスライドはどこにありますか",
        "第12・13回はスライドを配布せず、内容をまとめた Word のハンドアウト04 を Portal に置いています。",
    ),
    (
        "2026/07/03 14:08:59",
        "課題",
        "課題4はグループで出してもいいですか",
        "いいえ、個人で提出してください。相談はかまいませんが、答案は自分で書くこと。",
    ),
    (
        "2026/07/10 09:40:31",
        "Exam",
        "Will the final exam be in English too?",
        "The exam paper is in Japanese, with an English translation printed next to each question. You may answer in Japanese or English.",
    ),
    (
        "2026/07/10 15:55:02",
        "試験",
        "期末試験の過去問はもらえますか",
        "過去問は配りません。7月16日の授業で練習問題を配ります。",
    ),
    (
        "2026/07/13 22:47:18",
        "試験",
        "期末試験で電卓は使えますか",
        "使えます。関数電卓でもかまいませんが、スマートフォンや通信機能のある機器は使えません。",
    ),
]


def build_faq() -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(["タイムスタンプ", "カテゴリ", "質問", "回答"])
    writer.writerows(FAQ)
    (HERE / "faq.csv").write_bytes(buf.getvalue().encode("utf-8"))


if __name__ == "__main__":
    build_notebook()
    build_notes()
    build_faq()
