"""Build the text-like materials of the course_ds eval set that are not written by hand.

    .venv/bin/python eval/course_ds/make_text.py      (from the repository root)

writes, under eval/course_ds/materials/:

- 07_lab3_eda_en.ipynb      - Lab 3 (exploratory data analysis) notebook in English, nbformat 4.5,
                              as Jupyter saves it after a run: DataFrame results as
                              execute_result with both text/html (pandas' <table class="dataframe">)
                              and text/plain (pandas' wrapped repr), a Series result, printed
                              statistics as stream output
- 08_data_ethics_ja.txt     - Lecture 13 notes as Windows Notepad saves "Unicode": UTF-16 LE with
                              a BOM and CRLF line endings
- faq.csv                   - course FAQ, "category,question,answer", as Google Sheets exports it
                              (UTF-8 without BOM, CRLF, RFC 4180 quoting); Japanese and English rows

The notebook outputs are fixed text (the course data are fictional); the statistics printed in
them were computed from the summary figures with a throw-away script. Two runs write
byte-identical files.
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

OUT = Path(__file__).parent / "materials"

# =====================================================================================
# 07: notebook
# =====================================================================================
HEAD_COLUMNS = [
    "trip_id",
    "start_time",
    "end_time",
    "start_station",
    "end_station",
    "member_type",
    "bike_type",
    "duration_min",
    "distance_km",
]
HEAD_ROWS = [
    [
        "T2504010001",
        "2025-04-01 06:02:11",
        "2025-04-01 06:15:40",
        "Minatogawa Station East",
        "Campus Main Gate",
        "member",
        "standard",
        "13.5",
        "2.41",
    ],
    [
        "T2504010002",
        "2025-04-01 06:10:52",
        "2025-04-01 06:19:05",
        "Harbour Park",
        "City Hall",
        "casual",
        "e-bike",
        "8.2",
        "1.87",
    ],
    [
        "T2504010003",
        "2025-04-01 06:14:30",
        "2025-04-01 06:31:12",
        "Campus Main Gate",
        "Central Library",
        "member",
        "standard",
        "16.7",
        "1.05",
    ],
    [
        "T2504010004",
        "2025-04-01 06:20:03",
        "2025-04-01 06:24:48",
        "Central Library",
        "Campus Main Gate",
        "member",
        "standard",
        "4.8",
        "0.98",
    ],
    [
        "T2504010005",
        "2025-04-01 06:21:47",
        "2025-04-01 07:02:19",
        "City Hall",
        "Harbour Park",
        "casual",
        "e-bike",
        "40.5",
        "6.12",
    ],
]
DESCRIBE_ROWS = [
    ["count", "48213.000000", "48101.000000"],
    ["mean", "16.421873", "2.312690"],
    ["std", "14.869502", "1.618244"],
    ["min", "0.300000", "0.000000"],
    ["25%", "7.000000", "1.120000"],
    ["50%", "12.100000", "1.950000"],
    ["75%", "20.400000", "3.040000"],
    ["max", "1432.000000", "18.700000"],
]
GROUP_ROWS = [
    ["casual", "14905", "22.61", "18.0", "17.94"],
    ["member", "32222", "12.87", "10.0", "9.85"],
]
CROSSTAB_ROWS = [["casual", "0.412", "0.588"], ["member", "0.267", "0.733"]]

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


def _html_frame(columns: list[str], rows: list[list[str]], index_name: str | None = None) -> str:
    """pandas' DataFrame._repr_html_(): first cell of each row is the index."""
    out = ["<div>\n", STYLE, '<table border="1" class="dataframe">\n', "  <thead>\n"]
    out.append('    <tr style="text-align: right;">\n      <th></th>\n')
    out.extend(f"      <th>{html.escape(c)}</th>\n" for c in columns)
    out.append("    </tr>\n")
    if index_name:
        out.append(f"    <tr>\n      <th>{index_name}</th>\n")
        out.extend("      <th></th>\n" for _ in columns)
        out.append("    </tr>\n")
    out.append("  </thead>\n  <tbody>\n")
    for row in rows:
        out.append(f"    <tr>\n      <th>{html.escape(row[0])}</th>\n")
        out.extend(f"      <td>{html.escape(v)}</td>\n" for v in row[1:])
        out.append("    </tr>\n")
    out.append("  </tbody>\n</table>\n")
    out.append(f"<p>{len(rows)} rows × {len(columns)} columns</p>\n" if len(rows) > 10 else "")
    out.append("</div>")
    return "".join(out)


HEAD_PLAIN = """\
       trip_id          start_time            end_time  \\
0  T2504010001 2025-04-01 06:02:11 2025-04-01 06:15:40   
1  T2504010002 2025-04-01 06:10:52 2025-04-01 06:19:05   
2  T2504010003 2025-04-01 06:14:30 2025-04-01 06:31:12   
3  T2504010004 2025-04-01 06:20:03 2025-04-01 06:24:48   
4  T2504010005 2025-04-01 06:21:47 2025-04-01 07:02:19   

             start_station       end_station member_type bike_type  \\
0  Minatogawa Station East  Campus Main Gate      member  standard   
1             Harbour Park         City Hall      casual    e-bike   
2         Campus Main Gate   Central Library      member  standard   
3          Central Library  Campus Main Gate      member  standard   
4                City Hall      Harbour Park      casual    e-bike   

   duration_min  distance_km  
0          13.5         2.41  
1           8.2         1.87  
2          16.7         1.05  
3           4.8         0.98  
4          40.5         6.12  """

ISNA_PLAIN = """\
trip_id            0
start_time         0
end_time           0
start_station      0
end_station      112
member_type        0
bike_type          0
duration_min       0
distance_km      112
dtype: int64"""

DESCRIBE_PLAIN = """\
       duration_min   distance_km
count  48213.000000  48101.000000
mean      16.421873      2.312690
std       14.869502      1.618244
min        0.300000      0.000000
25%        7.000000      1.120000
50%       12.100000      1.950000
75%       20.400000      3.040000
max     1432.000000     18.700000"""

GROUP_PLAIN = """\
             count   mean  median    std
member_type                             
casual       14905  22.61    18.0  17.94
member       32222  12.87    10.0   9.85"""

STATIONS_PLAIN = """\
start_station
Minatogawa Station East    3912
Campus Main Gate           3101
Central Library            2644
Harbour Park               2210
City Hall                  1987
Name: count, dtype: int64"""

CROSSTAB_PLAIN = """\
bike_type    e-bike  standard
member_type                  
casual        0.412     0.588
member        0.267     0.733"""

INFO_OUT = """\
<class 'pandas.core.frame.DataFrame'>
RangeIndex: 48213 entries, 0 to 48212
Data columns (total 9 columns):
 #   Column         Non-Null Count  Dtype         
---  ------         --------------  -----         
 0   trip_id        48213 non-null  object        
 1   start_time     48213 non-null  datetime64[ns]
 2   end_time       48213 non-null  datetime64[ns]
 3   start_station  48213 non-null  object        
 4   end_station    48101 non-null  object        
 5   member_type    48213 non-null  object        
 6   bike_type      48213 non-null  object        
 7   duration_min   48213 non-null  float64       
 8   distance_km    48101 non-null  float64       
dtypes: datetime64[ns](2), float64(2), object(5)
memory usage: 3.3+ MB
"""


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


def _stream(text: str) -> dict:
    return {"name": "stdout", "output_type": "stream", "text": text.splitlines(keepends=True)}


def _result(count: int, plain: str, html_text: str | None = None) -> dict:
    data = {}
    if html_text is not None:
        data["text/html"] = html_text.splitlines(keepends=True)
    data["text/plain"] = plain.splitlines(keepends=True)
    return {"data": data, "execution_count": count, "metadata": {}, "output_type": "execute_result"}


def notebook() -> dict:
    cells = [
        _md(
            "# Lab 3 – Exploratory data analysis of Minato Bike trips\n"
            "\n"
            "DS-2140 Data Science Foundations · Lecture 8 · 9 June 2026 · PC Room 2  \n"
            "Teacher: Hannah Whitfield · TA: Rahul Mehta\n"
            "\n"
            "This is the walkthrough we ran together in class on Shiosai Hub (Python 3.12, pandas 2.2.3). "
            "Run it top to bottom, then answer the four questions at the end in **your own copy**.\n"
        ),
        _code(
            "import pandas as pd\nimport numpy as np\nfrom scipy import stats\n\npd.__version__",
            1,
            [_result(1, "'2.2.3'")],
        ),
        _md(
            "## 1. Load the data\n"
            "\n"
            "One row per trip, April–June 2025. The file lives in the shared course folder, so do not copy it to your laptop.\n"
        ),
        _code(
            'trips = pd.read_csv(\n    "/shared/ds2140/minato_bike/trips_2025q2.csv",\n    parse_dates=["start_time", "end_time"],\n)\ntrips.shape',
            2,
            [_result(2, "(48213, 9)")],
        ),
        _code(
            "trips.head()",
            3,
            [
                _result(
                    3,
                    HEAD_PLAIN,
                    _html_frame(HEAD_COLUMNS, [[str(i)] + r for i, r in enumerate(HEAD_ROWS)]),
                )
            ],
        ),
        _code("trips.info()", 4, [_stream(INFO_OUT)]),
        _md(
            "## 2. Missing values\n"
            "\n"
            "`end_station` and `distance_km` are missing for the same 112 trips: bikes that were never docked again "
            "(the operator's van collected them). We cannot compute a distance for these trips.\n"
        ),
        _code("trips.isna().sum()", 5, [_result(5, ISNA_PLAIN)]),
        _md("## 3. Summary statistics\n"),
        _code(
            'trips[["duration_min", "distance_km"]].describe()',
            6,
            [
                _result(
                    6, DESCRIBE_PLAIN, _html_frame(["duration_min", "distance_km"], DESCRIBE_ROWS)
                )
            ],
        ),
        _md(
            "The maximum duration is 1,432 minutes – almost a day. The mean (16.4 min) is well above the median (12.1 min), "
            "so the distribution is strongly right-skewed.\n"
            "\n"
            "**Cleaning rule for this data set (course rule, agreed with the operator):**\n"
            "\n"
            "- drop trips with no `end_station`;\n"
            "- drop trips longer than 180 minutes (bikes not returned properly);\n"
            "- drop trips shorter than 2 minutes (false starts: the rider docked the bike again at once).\n"
        ),
        _code(
            'no_end = trips["end_station"].isna()\n'
            'too_long = trips["duration_min"] > 180\n'
            'too_short = trips["duration_min"] < 2\n'
            "drop = no_end | too_long | too_short\n"
            "\n"
            'print(f"missing end_station: {no_end.sum():5d}")\n'
            'print(f"longer than 180 min: {(too_long & ~no_end).sum():5d}")\n'
            'print(f"shorter than 2 min:  {(too_short & ~no_end).sum():5d}")\n'
            "clean = trips[~drop].copy()\n"
            'print(f"removed {drop.sum()} trips ({drop.mean():.1%}), {len(clean)} left")',
            7,
            [
                _stream(
                    "missing end_station:   112\n"
                    "longer than 180 min:    97\n"
                    "shorter than 2 min:    877\n"
                    "removed 1086 trips (2.3%), 47127 left\n"
                )
            ],
        ),
        _md("## 4. Members and casual riders\n"),
        _code(
            'clean.groupby("member_type")["duration_min"].agg(["count", "mean", "median", "std"]).round(2)',
            8,
            [
                _result(
                    8,
                    GROUP_PLAIN,
                    _html_frame(
                        ["count", "mean", "median", "std"], GROUP_ROWS, index_name="member_type"
                    ),
                )
            ],
        ),
        _md(
            "Casual riders ride longer. Is the difference more than noise? Two independent groups with very different "
            "standard deviations, so we use **Welch's t test** (Lecture 4), and we report the size of the difference as well.\n"
        ),
        _code(
            'casual = clean.loc[clean["member_type"] == "casual", "duration_min"]\n'
            'member = clean.loc[clean["member_type"] == "member", "duration_min"]\n'
            "\n"
            "t, p = stats.ttest_ind(casual, member, equal_var=False)\n"
            "diff = casual.mean() - member.mean()\n"
            "se = np.sqrt(casual.var() / len(casual) + member.var() / len(member))\n"
            "pooled_sd = np.sqrt(((len(casual) - 1) * casual.var() + (len(member) - 1) * member.var())\n"
            "                    / (len(casual) + len(member) - 2))\n"
            'print(f"difference of means: {diff:.2f} min, 95% CI [{diff - 1.96 * se:.2f}, {diff + 1.96 * se:.2f}]")\n'
            'print(f"Welch t = {t:.2f}, p = {p:.3g}")\n'
            'print(f"Cohen\'s d = {diff / pooled_sd:.2f}")',
            9,
            [
                _stream(
                    "difference of means: 9.74 min, 95% CI [9.43, 10.05]\n"
                    "Welch t = 62.09, p = 0\n"
                    "Cohen's d = 0.75\n"
                )
            ],
        ),
        _md(
            "`p = 0` is not really zero: it is smaller than the smallest number a float can hold. Write **p < 0.001** in your report. "
            "With 47,127 trips almost any difference is significant, which is why the effect size matters more here: "
            "d = 0.75 is a medium-to-large difference.\n"
        ),
        _md("## 5. Where do trips start?\n"),
        _code('clean["start_station"].value_counts().head(5)', 10, [_result(10, STATIONS_PLAIN)]),
        _code(
            'pd.crosstab(clean["member_type"], clean["bike_type"], normalize="index").round(3)',
            11,
            [
                _result(
                    11,
                    CROSSTAB_PLAIN,
                    _html_frame(["e-bike", "standard"], CROSSTAB_ROWS, index_name="member_type"),
                )
            ],
        ),
        _md(
            "## 6. From trips to days\n\nWe will use this daily table again in the regression lectures (Lectures 11–12).\n"
        ),
        _code(
            'daily = (clean.groupby(clean["start_time"].dt.date).size()\n'
            '         .rename("trips").rename_axis("date").reset_index())\n'
            'weather = pd.read_csv("/shared/ds2140/minato_bike/weather_2025q2.csv", parse_dates=["date"])\n'
            'daily["date"] = pd.to_datetime(daily["date"])\n'
            'daily = daily.merge(weather, on="date", how="left", validate="one_to_one")\n'
            "\n"
            'print("days:", len(daily))\n'
            "print(f\"mean trips per day: {daily['trips'].mean():.1f}\")\n"
            "print(f\"r(trips, temp_max) = {daily['trips'].corr(daily['temp_max']):.2f}\")\n"
            "print(f\"r(trips, rain_mm)  = {daily['trips'].corr(daily['rain_mm']):.2f}\")\n"
            'daily.to_csv("minato_bike_daily_2025q2.csv", index=False)',
            12,
            [
                _stream(
                    "days: 91\n"
                    "mean trips per day: 517.9\n"
                    "r(trips, temp_max) = 0.71\n"
                    "r(trips, rain_mm)  = -0.48\n"
                )
            ],
        ),
        _md(
            "## Questions for your Lab 3 report\n"
            "\n"
            "1. Why did we use the median and not only the mean to describe trip duration?\n"
            "2. The cleaning removed 2.3% of the trips. Could it bias the comparison of members and casual riders? Explain.\n"
            "3. Draw one figure that compares the duration distributions of the two groups (follow the Lecture 7 checklist).\n"
            "4. Is the correlation of 0.71 between temperature and daily trips evidence that warm weather *causes* more trips? What else could explain it?\n"
            "\n"
            "Upload your notebook (`.ipynb`, after *Restart & Run All*) to Umineko LMS by **16 June 2026, 23:59**. "
            "Lab 3 is worth 7.5 points.\n"
        ),
    ]
    for n, cell in enumerate(cells):
        cell["id"] = f"ds2140-lab3-{n:02d}"
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


# =====================================================================================
# 08: UTF-16 notes, Lecture 13 (data ethics and privacy)
# =====================================================================================
ETHICS = """\
DS-2140 データサイエンス基礎　第13回　データ倫理とプライバシー
2026年7月14日　小野寺 美紀
（メモ帳で書いた講義メモです。スライドは使いません。）

■1　なぜデータ倫理を学ぶのか
データ分析の失敗は、計算の間違いだけではない。集めてはいけないデータを集めた、約束と違う目的に使った、
公開した集計表から個人がわかってしまった――こうした失敗は、計算が正しくても起こる。
しかも一度公開したデータは取り消せない。だからこの回は、分析を始める前に考えることを扱う。

■2　言葉の整理
・個人情報：生存する個人に関する情報で、氏名や学籍番号のように、それだけで、または他の情報と
　簡単に照らし合わせることで、特定の個人がわかるもの。
・要配慮個人情報：病歴、信条、犯罪の経歴など、不当な差別につながりうるため、取得に本人の同意が必要な個人情報。
・仮名加工情報：氏名などを削ったり置き換えたりして、他の情報と照らし合わせない限り個人がわからないようにしたもの。
　元に戻す手がかり（対応表など）は別に保管される。組織の内部での分析に使う。
・匿名加工情報：特定の個人がわからず、しかも元に戻せないように加工したもの。一定の条件のもとで第三者に提供できる。
ポイント：仮名化は「名前を隠した」だけで、まだ個人に関する情報である。匿名化とは違う。

■3　授業のデータはどちらか
図書館入館ログでは、学籍番号を SHA-256 でハッシュ化してある。ハッシュの前に図書館だけが知っている
ソルト（秘密の文字列）を付けているので、学生には元の学籍番号がわからない。
しかし図書館はソルトを持っていて、元に戻すことができる。だからこれは仮名化であって、匿名化ではない。
同じ理由で、Umineko LMS の視聴ログと学食アプリ「みなとごはん」のデータも仮名化データとして扱う。
学食アプリ「みなとごはん」のデータは、生協と大学の覚書（2025年10月締結）により、DS-2140 の授業と
卒業研究にだけ使える。ほかの授業やサークルの活動に使ってはならない。
ソルトなしのハッシュは、学籍番号の候補（入学年度×学部×連番で数万通り）を全部ハッシュにすれば
数秒で元に戻せる。ハッシュ化しただけで安全だと思わないこと。

■4　再識別
名前を消しても、残った情報の組み合わせで個人がわかることがある。年齢・性別・学部・出身地のように、
それだけでは個人を特定しないが、組み合わせると特定につながる属性を準識別子と呼ぶ。
学内の例：2024年度、ある授業アンケートの集計表を学内ポータルに載せたところ、
「工学部・3年・留学生・女性」の行が1人だけで、その学生の回答が本人だとわかってしまった。
表はその日のうちに取り下げられたが、すでに何人かがダウンロードしていた。

位置のデータは特に危ない。シェアサイクルの利用記録では、平日の朝に同じ駅から出発し、
同じ駅に着く記録が続けば、名前がなくても自宅と通学先がほぼわかる。
Minato Bike のデータで会員 ID を消してあるのはそのためで、ID を推測して利用者をつなぎ直そうとしてはならない。

■5　k-匿名性
どの準識別子の組み合わせについても、同じ値を持つ人が少なくとも k 人いるとき、そのデータは k-匿名性を満たすという。
k を大きくするための方法は二つある。
（1）一般化：値を粗くする。年齢 20 → 「20～24歳」、郵便番号 650-0099 → 「650-」。
（2）抑制：まれな値や行を消す、または「その他」にまとめる。
この授業のルール：公開する表・図（ポスターを含む）は k ≥ 5 とする。
件数が5未満のセルは数字を書かず「<5」と表示する。合計から逆算できないよう、必要なら別のセルも伏せる。
k-匿名性にも限界がある。同じグループの5人が全員同じ回答（例えば全員「不合格」）なら、
誰なのかわからなくても回答はわかってしまう（属性推定）。

■6　同意と目的
データを集めるときは、何のために集め、誰が見て、いつ消すかを先に説明し、同意を得る。
授業内でアンケートを取る場合は、「DS-2140 調査協力のお願い」のひな形（Umineko LMS にある）を使い、
回答は任意で成績に関係しないことを必ず書く。
集めたときの目的と違う目的に使うのは、たとえ分析として面白くても、してはいけない。

■7　公平性
過去のデータで学習したモデルは、過去の偏りをそのまま引き継ぐ。例えば、過去の利用者の大半が
男子学生だった施設の利用予測は、女子学生の利用を少なく見積もりやすい。
グループ別（学部、性別、留学生かどうか）に誤差を比べ、ある群だけ大きく外れていないか確かめる。

■8　プロジェクトのデータの扱い
・仮名化データは Shiosai Hub の /shared/ds2140/restricted/ の中でだけ扱い、ダウンロードしない。
・ほかのデータと結合して個人を特定しようとしない。偶然わかってしまった場合は、それ以上調べず、すぐ小野寺に報告する。
・分析に使ったデータは、成績確定後の2026年9月30日までに削除し、Umineko LMS の「データ削除報告」フォームで届け出る。
・違反した場合は、プロジェクトの点数を0点とし、学部の規程に従って扱う。

■9　データ倫理チェックリスト（M2 で提出、全12項目）
 1. データの出どころと利用条件（ライセンス）を確認したか
 2. 個人に関するデータを含むか。含むなら、仮名化か匿名化か
 3. 準識別子になりうる列を書き出したか
 4. 公開する表と図はすべて k ≥ 5 を満たすか
 5. 件数5未満のセルを「<5」にしたか
 6. データを集めたときの目的と、自分たちの分析の目的は合っているか
 7. アンケートを取るなら、同意の文面を用意したか
 8. データの保存場所は Shiosai Hub の restricted フォルダだけか
 9. ほかのデータと結合して個人を特定するおそれはないか
10. グループ別に結果を比べ、特定の群に不利な結論になっていないか
11. 結論が「相関」なのか「因果」なのか、ポスターで区別して書いたか
12. 削除の期限（9月30日）と担当者を決めたか

■10　次回まで
第14回（7月21日）は中間発表。チェックリストは M2（6月23日）で提出済みのはずなので、
発表スライドの最後に「データ倫理上の注意点」を1枚入れること。
"""

# =====================================================================================
# faq.csv
# =====================================================================================
FAQ = [
    [
        "履修",
        "英語の回についていけるか心配です。",
        "英語の回（第3・4・7・8・11・12回）もスライドは事前に Umineko LMS に掲載します。質問や小テストの解答は日本語で構いません。TA の Rahul Mehta さんは日本語も話せます。",
    ],
    [
        "Enrolment",
        "Do I need to speak Japanese to take DS-2140?",
        "Half of the lectures are in Japanese. Exchange students may take the course if they can read Japanese slides with a translation tool; the final exam has an English version of the question booklet, and team T6 works entirely in English.",
    ],
    [
        "演習環境",
        "自分の PC に Python を入れる必要はありますか？",
        "不要です。演習はすべて Shiosai Hub（ブラウザで使う JupyterHub）で行います。自分の PC で動かしたい人は止めませんが、質問対応は Shiosai Hub の環境に限ります。",
    ],
    [
        "Lab environment",
        "My Shiosai Hub server will not start. What should I do?",
        'First stop any server that is still running under File > Hub Control Panel and start again. If it still fails, post the error message in the "Shiosai Hub" forum on Umineko LMS. If the Hub is down close to a deadline, the deadline is extended by 24 hours for everyone.',
    ],
    [
        "演習環境",
        "dsdb に接続できません。",
        "学外からは学内 VPN（MinatoVPN）に接続してから試してください。パスワードを忘れた場合は、TA の今井さんに Umineko LMS のメッセージで連絡すればリセットします。",
    ],
    [
        "課題",
        "演習課題を締切に遅れて出したらどうなりますか？",
        "締切から24時間以内なら受け付けますが、得点を20%減らします。24時間を過ぎると受け付けません。",
    ],
    [
        "Assignments",
        "Can I submit a lab as a PDF instead of a notebook?",
        "No. Labs are submitted as .ipynb files that run from top to bottom after Restart & Run All. A PDF export may be attached in addition, but only the notebook is graded.",
    ],
    [
        "Assignments",
        "Can I use ChatGPT for the labs?",
        'Yes, for drafting code and understanding error messages, if you note the tool and how you used it in the "AI利用メモ" cell at the end of the notebook. Generative AI is not allowed in quizzes or the final exam.',
    ],
    [
        "小テスト",
        "小テストを受け忘れました。",
        "小テストは全12回のうち上位10回の平均で評価するので、2回までは受けなくても点数に影響しません。再受験はできません。",
    ],
    [
        "Quizzes",
        "How long is each quiz open?",
        "Each quiz opens right after the lecture and closes on the Friday of the same week at 17:00. It has 5 questions and a 15-minute time limit once you start.",
    ],
    [
        "統計",
        "標準偏差と標準誤差の違いがよくわかりません。",
        "標準偏差はデータそのもののばらつき、標準誤差は平均などの推定値のばらつき（推定の不確かさ）です。平均の標準誤差は s / √n なので、n を増やすと小さくなりますが、標準偏差は n を増やしても小さくなりません。",
    ],
    [
        "Statistics",
        "Why does pandas give a different standard deviation from NumPy?",
        "pandas' .std() divides by n − 1 (ddof=1) and numpy.std() divides by n (ddof=0) by default. In DS-2140 always use the sample standard deviation with n − 1, or pass ddof=1 to NumPy.",
    ],
    [
        "Statistics",
        'Is a p-value of 0.06 "almost significant"?',
        "Do not write that. Fix α before the analysis (0.05 in this course), report the exact p-value, the effect size and the 95% confidence interval, and let the reader see how uncertain the result is.",
    ],
    [
        "プロジェクト",
        "チームのメンバーが作業をしてくれません。",
        "まずチーム内で役割と期限を書き出して共有してください。改善しなければ担当 TA か葛西先生に相談を。最終的には相互評価で貢献度がチーム平均の60%未満とされたメンバーは、プロジェクトの点数がチーム点の半分になります。",
    ],
    [
        "Project",
        "Can our team use data that is not on the list?",
        "Only with permission: describe the data, its licence and where it comes from in the M1 application, and Prof. Onodera decides. Data scraped from websites whose terms forbid it will not be approved.",
    ],
    [
        "Project",
        "How big is the project poster?",
        "A1 portrait, printed once for free at the Print Centre (Building A, 1F); the print deadline is 21 July 17:00.",
    ],
    [
        "プロジェクト",
        "ポスターに表を載せるとき、件数が少ないセルはどうすればいいですか？",
        "件数が5未満のセルは数字を書かずに「<5」と表示してください（k ≥ 5 のルール）。合計から逆算できる場合は、ほかのセルも伏せます。",
    ],
    [
        "Statistics",
        "When do I use a z test and when a t test?",
        "For a mean with the population standard deviation unknown (almost always), use the t distribution with n − 1 degrees of freedom. For the difference of two proportions (as in the A/B testing lectures), use the z test with the pooled proportion.",
    ],
    [
        "演習環境",
        "Shiosai Hub のファイルは学期が終わったら消えますか？",
        "ホームディレクトリは2027年3月31日まで残ります。それ以降に必要なノートブックは、File > Download で自分の PC に保存してください（ただし授業のデータそのものは保存しないこと）。",
    ],
    [
        "試験",
        "期末試験に何を持ち込めますか？",
        "手書きの A4 メモ1枚（両面可）と電卓です。関数電卓も使えますが、スマートフォンやタブレットを電卓として使うことはできません。",
    ],
    [
        "Exam",
        "What is on the final exam?",
        "All 13 lectures with content (not the two presentation sessions). About half of the points are calculations (standard error, confidence intervals, the z test for two proportions, reading a regression table) and half are short written answers.",
    ],
]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    text = json.dumps(notebook(), ensure_ascii=False, indent=1) + "\n"
    (OUT / "07_lab3_eda_en.ipynb").write_text(text, encoding="utf-8")
    notes = OUT / "08_data_ethics_ja.txt"
    notes.write_bytes(b"\xff\xfe" + ETHICS.replace("\n", "\r\n").encode("utf-16-le"))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["category", "question", "answer"])
    writer.writerows(FAQ)
    (OUT / "faq.csv").write_bytes(buffer.getvalue().encode("utf-8"))
    for name in ("07_lab3_eda_en.ipynb", "08_data_ethics_ja.txt", "faq.csv"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
