"""Build the text materials of course_hci that need a program.

- 07_lab3_ab_test_en.ipynb: Lab 3 notebook by TA Priya Nair. The code cells are executed
  here once (NumPy and the standard library only) and their real outputs stored, including
  the RuntimeWarning NumPy prints on stderr, in the shape ipykernel writes it.
- faq.csv: a Microsoft Forms response sheet saved by Japanese Excel as "CSV (コンマ区切り)":
  cp932, CRLF, columns ID / 開始時刻 / 完了時刻 / メール / 名前 / 質問のカテゴリ / 質問 / 回答.

Both files are byte-identical on a second run.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
MATERIALS = HERE / "materials"

CELLS = [
    (
        "markdown",
        """# Lab 3 — A/B test of two checkout flows

*HCI-2210, Lecture 13, 15 July 2026 · notebook by Priya Nair (TA)*

The team that redesigned the student-canteen app **MoguNavi** built two prototypes of the lunch-ticket checkout:

- **A** — everything on one long page
- **B** — a three-step wizard (menu → time slot → payment)

Twenty-four students took part, **12 per design** (between-subjects, random assignment). The logging script recorded the time from opening the checkout to the confirmation screen, in seconds. An abandoned task is written as `0.0`.

Task times are right-skewed, so we compare **log times** with **Welch's t-test** (it does not assume equal variances).""",
    ),
    (
        "code",
        """import math
import numpy as np

a = np.array([48.2, 61.5, 39.8, 72.4, 55.0, 44.7, 90.3, 51.9, 58.6, 47.1, 66.8, 53.3])
b = np.array([41.0, 36.5, 52.2, 33.9, 45.8, 0.0, 38.4, 60.1, 35.2, 42.7, 39.9, 48.5])
print(len(a), len(b))
print(f"A: mean {a.mean():.1f} s, median {np.median(a):.1f} s, SD {a.std(ddof=1):.1f} s")
print(f"B: mean {b.mean():.1f} s, median {np.median(b):.1f} s, SD {b.std(ddof=1):.1f} s")""",
    ),
    (
        "code",
        """log_a = np.log(a)
log_b = np.log(b)
print(log_a.mean(), log_b.mean())""",
    ),
    (
        "markdown",
        """The `-inf` comes from participant **B06**, who gave up (time `0.0`). An abandoned task has no completion time: leave it out of the time analysis and count it as a **failure** in the success rate instead. Never replace it by the mean.""",
    ),
    (
        "code",
        """b_ok = b[b > 0]
log_b = np.log(b_ok)
gm_a, gm_b = math.exp(log_a.mean()), math.exp(log_b.mean())
print(f"n_A = {a.size}, n_B = {b_ok.size}")
print(f"geometric mean A = {gm_a:.1f} s, B = {gm_b:.1f} s, ratio B/A = {gm_b / gm_a:.3f}")
print(f"median A = {np.median(a):.1f} s, median B = {np.median(b_ok):.1f} s")""",
    ),
    (
        "code",
        """def t_pdf(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))

def t_two_sided_p(t, df, steps=20000):
    # p = 2 * P(T > |t|), by Simpson's rule on [0, |t|]
    t, h = abs(t), abs(t) / steps
    s = t_pdf(0, df) + t_pdf(t, df)
    s += sum((4 if k % 2 else 2) * t_pdf(k * h, df) for k in range(1, steps))
    return 1 - 2 * (s * h / 3)

def welch(x, y):
    vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    t = (x.mean() - y.mean()) / math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx**2 / (x.size - 1) + vy**2 / (y.size - 1))
    return t, df, t_two_sided_p(t, df)

t, df, p = welch(log_a, log_b)
print(f"Welch t = {t:.3f}, df = {df:.2f}, p = {p:.4f}")""",
    ),
    (
        "code",
        """# effect size on the log scale (pooled SD) and a 95 % CI for the ratio of geometric means
sp = math.sqrt(((a.size - 1) * log_a.var(ddof=1) + (b_ok.size - 1) * log_b.var(ddof=1)) / (a.size + b_ok.size - 2))
d = (log_a.mean() - log_b.mean()) / sp
se = math.sqrt(log_a.var(ddof=1) / a.size + log_b.var(ddof=1) / b_ok.size)
t_crit = 2.080  # t(0.975, df ~ 21), from the table on the lab sheet
diff = log_b.mean() - log_a.mean()
lo, hi = math.exp(diff - t_crit * se), math.exp(diff + t_crit * se)
print(f"Cohen's d (log times) = {d:.2f}")
print(f"B/A time ratio = {math.exp(diff):.3f}, 95% CI [{lo:.3f}, {hi:.3f}]")""",
    ),
    (
        "code",
        """success_a, success_b = int((a > 0).sum()), int((b > 0).sum())
print(f"success A = {success_a}/12 ({success_a / 12:.0%}), B = {success_b}/12 ({success_b / 12:.0%})")""",
    ),
    (
        "markdown",
        """## What to write in Report 3

1. Both means **and** medians of the raw times, and the geometric means
2. The test you used and why (Welch on log times), with *t*, df and *p*
3. The ratio B/A with its 95 % confidence interval, in words ("B took about … of the time of A")
4. Success rates; with 12 per group do **not** run a significance test on them
5. One threat to validity (e.g. the B prototype had a larger font)

Deadline: **21 July (Tue) 23:59** on Moodle, PDF only.

> A *p*-value below 0.05 does not tell you the difference is large. Always give the effect size.""",
    ),
]

FAKE_CELL_FILES = {2: "/tmp/ipykernel_5143/2209871735.py"}


def run_cells() -> list[dict]:
    namespace: dict = {}
    cells, count = [], 0
    for index, (kind, source) in enumerate(CELLS):
        cell_id = f"c{index:02d}-lab3"
        if kind == "markdown":
            cells.append(
                {
                    "cell_type": "markdown",
                    "id": cell_id,
                    "metadata": {},
                    "source": source.splitlines(keepends=True),
                }
            )
            continue
        count += 1
        out = io.StringIO()
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
            warnings.simplefilter("always")
            exec(compile(source, f"<cell {count}>", "exec"), namespace)  # noqa: S102
        outputs = []
        if caught:
            lines = source.splitlines()
            err = "".join(
                f"{FAKE_CELL_FILES[count]}:{w.lineno}: {w.category.__name__}: {w.message}\n  {lines[w.lineno - 1].strip()}\n"
                for w in caught
            )
            outputs.append(
                {"name": "stderr", "output_type": "stream", "text": err.splitlines(keepends=True)}
            )
        if out.getvalue():
            outputs.append(
                {
                    "name": "stdout",
                    "output_type": "stream",
                    "text": out.getvalue().splitlines(keepends=True),
                }
            )
        cells.append(
            {
                "cell_type": "code",
                "execution_count": count,
                "id": cell_id,
                "metadata": {},
                "outputs": outputs,
                "source": source.splitlines(keepends=True),
            }
        )
    return cells


def build_notebook() -> None:
    nb = {
        "cells": run_cells(),
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {
                "name": "python",
                "version": "3.12.3",
                "mimetype": "text/x-python",
                "file_extension": ".py",
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    text = json.dumps(nb, ensure_ascii=False, indent=1) + "\n"
    (MATERIALS / "07_lab3_ab_test_en.ipynb").write_text(text, encoding="utf-8")


FAQ = [
    (
        "成績",
        "小テストを欠席してしまいました。追試はありますか？",
        "小テストの追試はありません。欠席の理由を証明する書類を出した場合に限り、小テストの10%分を期末試験の得点率で置き換えます。",
    ),
    (
        "演習レポート",
        "レポートを Word ファイルのまま出してもいいですか？",
        "PDF のみ受け付けます。Word ファイルで出した場合は未提出として扱います。",
    ),
    (
        "演習レポート",
        "ペルソナの顔写真にネットで見つけた人の写真を使ってもいいですか？",
        "実在の人物の写真は使わないでください。フリー素材のイラストか、自分で描いた絵にしてください。",
    ),
    (
        "English block",
        "Can I ask Dr. Marsh questions in Japanese?",
        "Yes. Write in simple Japanese or in English, both are fine. Priya Nair can help translate during office hours.",
    ),
    (
        "Lab",
        "Can I bring my own mouse to Lab 2?",
        "No. Everyone uses the lab mice so that the hardware and pointer settings are the same for all; results from your own mouse cannot be pooled with the class data.",
    ),
    (
        "SUS",
        "SUS の項目を自分で訳し直して使ってもいいですか？",
        "配布資料（第9・10回）にある授業用の日本語訳をそのまま使ってください。訳を変えるとチーム間で比べられなくなります。",
    ),
    (
        "Project",
        "Where are the think-aloud recordings of our team stored?",
        "On the lab file server in the folder of your team (\\\\hci-nas\\projects\\2026). They are deleted on 30 September together with all other recordings.",
    ),
    (
        "KLM",
        "KLM の P に、Fitts の法則で計算した値を使ってもいいですか？",
        "問題文に指定がなければ P = 1.1 秒を使ってください。Fitts で計算する問題のときは、そのことを問題文に書きます。",
    ),
    (
        "評価プロジェクト",
        "評価する対象アプリは自由に選べますか？",
        "学内で実際に使われているアプリかウェブサイトから選んでください。同じ対象を複数チームが選ぶことはできず、登録フォームの先着順で決まります。",
    ),
    (
        "Project",
        "How many participants do we need for the project usability test?",
        "At least 5 participants, and none of them may be a member of your own team.",
    ),
    (
        "出席",
        "演習の回に遅刻しそうです。途中から参加できますか？",
        "演習回（第7回・第13回）は、開始から15分を過ぎると入室できません。最初に同意書と手順の説明をするためです。",
    ),
    (
        "試験",
        "期末試験の答案は英語で書いてもいいですか？",
        "日本語と英語のどちらで書いてもかまいません。1つの問題の中で混ぜても減点しません。",
    ),
    (
        "Lab 3",
        "Which statistical test should we use in Lab 3?",
        "Welch's t-test on the log-transformed task times. Student's t-test is not accepted because it assumes equal variances.",
    ),
    (
        "成績",
        "成績に疑問があるときはどうすればいいですか？",
        "成績公開から1週間以内に、Moodle の「成績問い合わせフォーム」から連絡してください。メールでは受け付けません。",
    ),
    (
        "English block",
        "Are the English lectures recorded?",
        "Lectures 4 to 6 are recorded and each recording stays on Moodle for two weeks after the lecture. Lab 2 is not recorded.",
    ),
    (
        "アクセシビリティ",
        "コントラスト比はどのツールで確認すればいいですか？",
        "授業のスライドにある JavaScript の関数か、ブラウザの開発者ツールを使ってください。レポートには比を小数第2位まで書きます。",
    ),
]


def build_faq() -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(
        ["ID", "開始時刻", "完了時刻", "メール", "名前", "質問のカテゴリ", "質問", "回答"]
    )
    for n, (category, question, answer) in enumerate(FAQ, 1):
        day = 14 + (n * 3) % 70
        month, mday = (4 + (day - 1) // 30, (day - 1) % 30 + 1)
        start = f"2026/{month}/{mday} {9 + n % 9}:{(n * 7) % 60:02d}"
        end = f"2026/{month}/{mday} {9 + n % 9}:{(n * 7 + 2) % 60:02d}"
        writer.writerow([n, start, end, "anonymous", "", category, question, answer])
    (MATERIALS / "faq.csv").write_bytes(buf.getvalue().encode("cp932"))


def main() -> None:
    build_notebook()
    build_faq()


if __name__ == "__main__":
    main()
