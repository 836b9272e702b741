"""Build materials/03_goms_klm_notes_ja.pdf: a Keynote deck printed as "slide with presenter notes".

One slide per A4 portrait page: the 16:9 slide framed at the top, the presenter notes below it
under a thin rule, the page number at the bottom. Content is Python data; the output is
deterministic (fixed creation date, fonts from the system Noto Sans CJK collection).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF

HERE = Path(__file__).resolve().parent
OUT = HERE / "materials" / "03_goms_klm_notes_ja.pdf"
REGULAR = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
BOLD = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"

SLIDES = [
    {
        "title": "GOMS と KLM",
        "subtitle": ["操作時間を紙の上で予測する", "HCI-2210 第8回　2026年6月10日　桐谷 真央"],
        "notes": (
            "第4回の Fitts の法則は「1回のポインティング」の時間でした。今日はそれを組み合わせて、"
            "タスク全体の時間を見積もります。来週（6月17日）の冒頭30分は小テストです。範囲は第1〜8回で、"
            "今日の KLM の計算問題も出ます。電卓は使えないので、計算は小数第2位まで手で出せるように。"
        ),
    },
    {
        "title": "GOMS モデルの4要素",
        "bullets": [
            "Goals（目標）：ユーザが達成したいこと。例「ファイル名を変える」",
            "Operators（操作子）：知覚・認知・運動の基本動作。キー入力、ポインティングなど",
            "Methods（方法）：目標を達成する操作子の列。同じ目標に複数ありうる",
            "Selection rules（選択規則）：どの方法を選ぶかの条件",
            ("sub", "例：「ファイルが選択済みなら F2、そうでなければ右クリック」"),
            "熟練ユーザがエラーなく実行する場合の時間を予測するモデル",
        ],
        "notes": (
            "GOMS には CMN-GOMS、NGOMSL、CPM-GOMS などの変種がありますが、この授業で計算まで扱うのは"
            "最も簡単な KLM（Keystroke-Level Model）だけです。CPM-GOMS は並列動作を扱えるが、手で描くのは大変、"
            "という程度の理解で十分です。"
        ),
    },
    {
        "title": "KLM のオペレータと標準時間",
        "table": [
            ["記号", "動作", "時間"],
            ["K", "キーを1回押す（平均的なユーザ）", "0.28 秒"],
            ["P", "マウスで画面上の対象を指す", "1.1 秒"],
            ["B", "マウスボタンを押す、または離す", "0.1 秒"],
            ["BB", "クリック（押して離す）", "0.2 秒"],
            ["H", "キーボードとマウスの間で手を移す", "0.4 秒"],
            ["M", "心的準備（次に何をするか決める）", "1.35 秒"],
            ["R(t)", "システムの応答を待つ", "t 秒"],
        ],
        "formula": "T = nK·tK + nP·tP + nB·tB + nH·tH + nM·tM + ΣR(t)",
        "notes": (
            "K の値は人によって大きく違います。熟練タイピスト（毎分90語程度）なら 0.12 秒、"
            "キーボードに不慣れな人なら 1.2 秒にもなります。この授業の試験では、問題文に指定がなければ "
            "K = 0.28 秒を使ってください。P は Fitts の法則で個別に計算してもよいが、KLM では平均の 1.1 秒で済ませます。"
        ),
    },
    {
        "title": "M（心的準備）をどこに置くか",
        "bullets": [
            "規則0：コマンドを選ぶ K と P の前に、まず M を置く",
            "規則1：前の操作から当然続く操作の前の M は消す（P M BB → P BB）",
            "規則2：ひとまとまりの文字列（単語、数値）は最初の K の前だけに M",
            "規則3：直前のコマンドの終わりを示すだけの K（Enter など）の前の M は消す",
            "迷ったら「そこで人は考えるか？」と自問する",
        ],
        "notes": (
            "原典の規則はもう少し細かいのですが、この授業では4つに簡略化しています。"
            "試験の採点では、M の位置が1つずれていても、理由が書いてあれば部分点を出します。"
        ),
    },
    {
        "title": "例題：ファイル名を変更する（8文字）",
        "table": [
            ["方法", "オペレータ列", "予測時間"],
            ["A 右クリックメニュー", "H M P BB M P BB H M K×9", "9.97 秒"],
            ["B F2 キー（選択済み）", "M K M K×9", "5.50 秒"],
        ],
        "bullets": [
            "K×9 は8文字＋Enter。手はキーボードから始まるとする",
            "A = 0.4×2 + 1.35×3 + 1.1×2 + 0.2×2 + 0.28×9 = 9.97 秒",
            "B = 1.35×2 + 0.28×10 = 5.50 秒　→ 差は 4.47 秒",
        ],
        "notes": (
            "B の最初の M は「F2 を押す」と決める時間、2つ目の M は新しい名前を思い浮かべる時間です。"
            "A の H は2回：キーボードからマウスへ、最後にマウスからキーボードへ戻る分です。"
        ),
    },
    {
        "title": "予測と実測の比較（2025年度の授業内計測）",
        "table": [
            ["方法", "KLM 予測", "実測平均（n = 24）", "ずれ"],
            ["A 右クリック", "9.97 秒", "8.9 秒", "予測が 12% 長い"],
            ["B F2 キー", "5.50 秒", "6.4 秒", "予測が 14% 短い"],
        ],
        "bullets": [
            "KLM の誤差は一般に ±20% 程度と言われ、今回もその範囲",
            "B の実測が長いのは、F2 を思い出せずに手が止まる人がいたため",
            "KLM は「熟練者・エラーなし」の予測であることを忘れない",
        ],
        "notes": (
            "計測は昨年度の TA がストップウォッチアプリで行ったもので、実験室の条件ではありません。"
            "今年度の演習では計測しないので、この表は参考値として見てください。"
        ),
    },
    {
        "title": "KLM が予測しないもの",
        "bullets": [
            "学習の過程（初心者がどれだけで熟練するか）",
            "エラーとその回復にかかる時間",
            "疲労、中断、並行作業",
            "満足度や好み（速いのに嫌われる設計はありうる）",
            "→ ユーザテストや SUS（第9回）と組み合わせて使う",
        ],
        "notes": "ここは試験で「KLM の限界を2つ挙げよ」という形でよく出します。",
    },
    {
        "title": "練習問題：ログインフォーム",
        "bullets": [
            "手はキーボード上から始める",
            "ユーザ名欄をマウスでクリックし、ユーザ名（7文字）を入力",
            "Tab でパスワード欄へ移り、パスワード（10文字）を入力して Enter",
            "オペレータ列を書き、合計時間を K = 0.28 秒で求めよ",
        ],
        "notes": (
            "解答：H M P BB H M K×7 K(Tab) M K×10 K(Enter)。"
            "0.4 + 1.35 + 1.1 + 0.2 + 0.4 + 1.35 + 1.96 + 0.28 + 1.35 + 2.80 + 0.28 = 11.47 秒。"
            "パスワードの前の M は「パスワードを思い出す」時間です。Tab の前に M を置いた人は規則1で消せるか考えてみてください。"
        ),
    },
    {
        "title": "発展：P を Fitts の法則で置き換える",
        "bullets": [
            "KLM の P = 1.1 秒は「画面上のどこかを指す」平均値",
            "対象の距離 D と幅 W が分かっていれば、P の代わりに MT = a + b log2(D/W + 1) を使える",
            "例：a = 0.10 秒、b = 0.16 秒/bit、D = 256 px、W = 32 px なら P ≈ 0.61 秒",
            "大きくて近いボタンほど、KLM の 1.1 秒より速くなる",
        ],
        "notes": (
            "第4回の Marsh 先生のスライドの例題と同じ数値です。レポートで使うときは、a と b を自分で計測した値にすること。"
            "試験では、Fitts で置き換える問題を出す場合は a と b を問題文に書きます。"
        ),
    },
    {
        "title": "まとめ",
        "bullets": [
            "GOMS = Goals・Operators・Methods・Selection rules",
            "KLM は操作子の標準時間を足し合わせて熟練者の実行時間を予測する",
            "M の置き方で結果が大きく変わる：規則に従い、理由を書く",
            "次回：小テスト、質問紙と SUS",
        ],
        "notes": "配布した KLM 計算シートは Moodle の第8回フォルダにあります。",
    },
]


class Deck(FPDF):
    def footer(self) -> None:
        self.set_y(-12)
        self.set_font("jp", size=8)
        self.set_text_color(120, 120, 120)
        self.cell(0, 5, str(self.page_no()), align="C")


def slide(pdf: Deck, number: int, data: dict) -> None:
    pdf.add_page()
    x0, y0, w, h = 15.0, 18.0, 180.0, 101.25
    pdf.set_draw_color(90, 90, 90)
    pdf.set_line_width(0.3)
    pdf.rect(x0, y0, w, h)
    pdf.set_text_color(20, 20, 20)
    if "subtitle" in data:
        pdf.set_xy(x0 + 10, y0 + 30)
        pdf.set_font("jp", "B", 26)
        pdf.cell(w - 20, 14, data["title"], align="C")
        pdf.set_font("jp", size=13)
        for i, line in enumerate(data["subtitle"]):
            pdf.set_xy(x0 + 10, y0 + 52 + i * 9)
            pdf.cell(w - 20, 8, line, align="C")
    else:
        pdf.set_xy(x0 + 8, y0 + 6)
        pdf.set_font("jp", "B", 18)
        pdf.cell(w - 16, 10, data["title"])
        y = y0 + 20
        if "table" in data:
            pdf.set_font("jp", size=10)
            pdf.set_xy(x0 + 8, y)
            with pdf.table(width=w - 16, line_height=5.6, first_row_as_headings=True) as table:
                for row in data["table"]:
                    r = table.row()
                    for cell in row:
                        r.cell(cell)
            y = pdf.get_y() + 3
        if "formula" in data:
            pdf.set_font("mono", size=10)
            pdf.set_xy(x0 + 8, y)
            pdf.cell(w - 16, 6, data["formula"], align="C")
            y += 8
        size = 12 if "table" not in data else 10
        for item in data.get("bullets", []):
            sub = isinstance(item, tuple)
            text = item[1] if sub else item
            pdf.set_font("jp", size=size - (1 if sub else 0))
            indent = 16 if sub else 8
            pdf.set_xy(x0 + indent, y)
            pdf.multi_cell(w - indent - 8, size * 0.5, ("– " if sub else "• ") + text)
            y = pdf.get_y() + 1.5
        if y > y0 + h:
            raise SystemExit(f"slide {number} overflows")
    # presenter notes under the slide
    pdf.set_draw_color(180, 180, 180)
    pdf.line(15, 128, 195, 128)
    pdf.set_xy(15, 133)
    pdf.set_font("jp", size=10.5)
    pdf.set_text_color(40, 40, 40)
    pdf.multi_cell(180, 6.2, data["notes"])


def main() -> None:
    pdf = Deck(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_font("jp", "", REGULAR, collection_font_number=0)
    pdf.add_font("jp", "B", BOLD, collection_font_number=0)
    pdf.add_font("mono", "", REGULAR, collection_font_number=0)
    pdf.set_title("08_GOMS_KLM")
    pdf.set_author("桐谷 真央")
    pdf.set_creator("Keynote")
    pdf.set_producer("macOS バージョン 15.4（ビルド 24E248） Quartz PDFContext")
    pdf.set_creation_date(dt.datetime(2026, 6, 9, 21, 14, 5, tzinfo=dt.UTC))
    for number, data in enumerate(SLIDES, 1):
        slide(pdf, number, data)
    pdf.output(str(OUT))


if __name__ == "__main__":
    main()
