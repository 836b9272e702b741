"""Build the Office materials of the course_os eval set from the hand-written content below.

    .venv/bin/python eval/course_os/make_office.py      (from the repository root)

writes, under eval/course_os/materials/:

- 02_memory_virtual_ja.pptx  - Lectures 4-5 slide deck (17 slides, bullets with levels,
                               tables, speaker notes)
- 04_filesystems_ja.docx     - Lecture 8 Word handout (Title / Heading 1 / Heading 2,
                               bulleted and numbered lists, tables, code blocks)
- 08_lab_schedule_ja.xlsx    - lab schedule, grading, grade bands and lab machines (4 sheets)

The content is data (lists and tuples) so that it reads like the documents it makes.
Core properties carry fixed dates and every ZIP entry gets a fixed timestamp, so two runs
write byte-identical files (checked with python-docx 1.2.0, python-pptx 1.0.2, openpyxl 3.1.5).
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import docx
import openpyxl
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Pt
from openpyxl.styles import Font
from openpyxl.writer.excel import ExcelWriter
from pptx import Presentation
from pptx.util import Inches
from pptx.util import Pt as PptPt

OUT = Path(__file__).parent / "materials"
FIXED = dt.datetime(2026, 11, 30, 9, 0, 0)  # core properties: created = modified
ZIP_TIME = (2026, 11, 30, 9, 0, 0)  # every ZIP entry's timestamp
COURSE = "IS-2240 オペレーティングシステムとネットワーク"

# =====================================================================================
# 02: slide deck, Lectures 4-5 (memory management and virtual memory)
# =====================================================================================
# Each slide: title, then any of
#   bullets: [(level, text)]   - the body placeholder (levels 0-2)
#   text:    [str]             - a text box above the table
#   table:   [[cells]]         - first row is the header
#   notes:   str               - the speaker notes
DECK_TITLE = "第4–5回 メモリ管理と仮想記憶"
SLIDES: list[dict] = [
    {
        "title": DECK_TITLE,
        "subtitle": f"{COURSE}\n篠原 拓真 ／ 2026年10月27日（火）・11月10日（火）",
        "notes": "11月3日（火）は文化の日で休講なので、第5回は11月10日になる。"
        "第4回はスライド12まで、第5回はスライド13から。",
    },
    {
        "title": "今日の目標",
        "bullets": [
            (0, "論理アドレスが物理アドレスに変換される仕組みを説明できる"),
            (0, "ページテーブルの大きさを計算できる"),
            (0, "TLB とページフォールトが実効アクセス時間に与える影響を見積もれる"),
            (0, "ページ置換アルゴリズムを手で追える"),
            (1, "FIFO・LRU・OPT・Clock"),
        ],
    },
    {
        "title": "アドレス空間と MMU",
        "bullets": [
            (0, "プロセスが使うのは論理アドレス（仮想アドレス）"),
            (1, "CPU が出したアドレスを MMU が物理アドレスに変換する"),
            (1, "変換表はプロセスごとに別 → 他のプロセスのメモリは見えない"),
            (0, "物理アドレス: DRAM 上の実際の番地"),
            (0, "変換があるおかげで"),
            (1, "プログラムはどこに置かれても同じアドレスで動く"),
            (1, "物理メモリより大きな空間を使える"),
        ],
        "notes": "ベースレジスタとリミットレジスタだけを使う昔の方式は、変換が足し算1回で済む代わりに、"
        "プロセスの領域が物理メモリ上で連続していなければならない。",
    },
    {
        "title": "連続割り当てと断片化",
        "bullets": [
            (0, "外部断片化: 空きの合計は足りるのに、連続した空きがない"),
            (0, "内部断片化: 割り当てた領域の中に使われない部分が残る"),
            (0, "空き領域（穴）の選び方"),
            (1, "first-fit: 先頭から探して最初に入る穴"),
            (1, "best-fit: 入る穴のうち最も小さいもの"),
            (1, "worst-fit: 最も大きい穴"),
            (0, "外部断片化の対策: コンパクション（詰め直し）は高価"),
        ],
        "notes": "去年の演習でランダムな要求を 10,000 回与えて比べたところ、first-fit と best-fit のメモリ使用率の差は"
        " 2% 以内だった。探索が速い first-fit で十分。worst-fit は大きな要求が来たときに失敗しやすかった。",
    },
    {
        "title": "ページング",
        "bullets": [
            (0, "論理空間を固定長のページ、物理メモリを同じ長さのフレームに分ける"),
            (0, "論理アドレス = ページ番号 p ＋ ページ内オフセット d"),
            (1, "ページテーブルで p からフレーム番号 f を引く"),
            (1, "物理アドレス = f とオフセット d をつないだもの"),
            (0, "外部断片化は起きない"),
            (1, "内部断片化はプロセスの最後のページだけ"),
        ],
        "notes": "4 KiB ページでの内部断片化は、1つの領域あたり平均で半ページ、つまり約 2 KiB と見積もる。",
    },
    {
        "title": "ページテーブルの大きさ（計算例）",
        "text": ["32 ビットの論理アドレス、4 KiB ページ、平坦な（1段の）ページテーブルの場合"],
        "table": [
            ["項目", "値"],
            ["ページ内オフセット", "12 ビット（4 KiB = 2^12 バイト）"],
            ["ページ番号", "20 ビット"],
            ["エントリ数", "2^20 = 1,048,576"],
            ["1エントリの大きさ", "4 バイト"],
            ["1プロセスのページテーブル", "4 MiB"],
        ],
        "notes": "100 プロセスが動くと、平坦なページテーブルだけで 400 MiB になる。"
        "ほとんどのエントリは使われていないのにメモリを占めるので、次のスライドの多段ページテーブルを使う。",
    },
    {
        "title": "ページテーブルエントリ（PTE）の中身",
        "bullets": [
            (0, "フレーム番号"),
            (0, "有効（present）ビット: 0 のページにアクセスするとページフォールト"),
            (0, "保護ビット"),
            (1, "読み・書き・実行の許可"),
            (1, "ユーザモードからアクセスできるか"),
            (0, "参照（accessed）ビット: アクセスされると MMU が 1 にする"),
            (0, "変更（dirty）ビット: 書き込まれると 1 になる"),
            (1, "1 のページを追い出すときはディスクへの書き戻しが必要"),
        ],
        "notes": "参照ビットは Clock アルゴリズムで使う。変更されていないページは書き戻さずに捨てられるので、"
        "追い出す候補としては変更ビットが 0 のページのほうが安い。",
    },
    {
        "title": "多段ページテーブル（x86-64）",
        "bullets": [
            (0, "使われていない範囲の下位の表を作らずに済む"),
            (0, "x86-64 の4段ページング"),
            (1, "仮想アドレス 48 ビット = 9 + 9 + 9 + 9 + 12"),
            (1, "各段の表は 512 エントリ × 8 バイト = 4 KiB（ちょうど1ページ）"),
            (0, "5段ページングでは仮想アドレスは 57 ビット"),
            (0, "代償: 変換のたびに段数ぶんのメモリアクセス → TLB が不可欠"),
        ],
        "notes": "Linux は各段の表を上から PGD, PUD, PMD, PTE と呼ぶ（5段のときは PGD の下に P4D が入る）。",
    },
    {
        "title": "TLB と実効アクセス時間",
        "bullets": [
            (0, "TLB: 最近使った変換を覚えておく、MMU の中の小さな連想メモリ"),
            (0, "TLB のヒット率を α とすると"),
            (1, "EAT = α (t_TLB + t_mem) + (1 − α)(t_TLB + 2 t_mem)"),
            (0, "例: t_TLB = 1 ns、t_mem = 80 ns"),
            (1, "α = 0.98 のとき EAT = 82.6 ns"),
            (1, "α = 0.90 のとき EAT = 89.0 ns"),
        ],
        "notes": "ここでは単純化のため、TLB ミスのときのページテーブル参照を1回としている。"
        "tsubaki の CPU は L1 データ TLB が 64 エントリ、共有の第2レベル TLB が 2,048 エントリある。"
        "4 KiB ページなら 2,048 × 4 KiB = 8 MiB の範囲しか TLB に載らないので、大きな配列を飛び飛びに読むと TLB ミスが増える。",
    },
    {
        "title": "デマンドページングとページフォールト",
        "bullets": [
            (0, "必要になったページだけを読み込む"),
            (0, "ページフォールトの処理"),
            (1, "トラップ → アクセスが正当か確認（不正なら SIGSEGV）"),
            (1, "空きフレームを確保（なければページ置換）"),
            (1, "ディスクから読み込み、PTE を更新"),
            (1, "フォールトを起こした命令を再実行"),
            (0, "フォールト率 p のとき: EAT = (1 − p) × t_mem + p × t_fault"),
        ],
        "notes": "t_mem = 100 ns、t_fault = 8 ms とすると、p = 1/1,000 でも EAT は約 8.1 µs で、メモリが 81 倍遅く見える。"
        "速度低下を 10% 以内に抑えるには p < 1.25 × 10^-6、つまりおよそ 80 万回に1回以下のフォールトしか許されない。",
    },
    {
        "title": "ページ置換アルゴリズム",
        "bullets": [
            (0, "FIFO: 最も前に読み込んだページを追い出す"),
            (0, "OPT（最適）: この先最も長く使われないページを追い出す"),
            (1, "将来の参照は分からないので、他の方式を比べる基準として使う"),
            (0, "LRU: 最も長い間使われていないページを追い出す"),
            (1, "正確に実装するとアクセスのたびに順序の更新が必要で高価"),
            (0, "Clock（セカンドチャンス）: LRU の近似"),
            (1, "針が指すページの参照ビットが 1 なら 0 にして次へ、0 なら追い出す"),
        ],
        "notes": "LRU と OPT はスタックアルゴリズムなので、フレームを増やしてフォールトが増えることはない。FIFO と Clock は違う。",
    },
    {
        "title": "置換アルゴリズムの比較（例題）",
        "text": [
            "参照列: 5 2 6 1 6 4 3 6 1 5 3 6 5 3（14 回）",
            "最初はフレームが空。最初の読み込みもフォールトに数える。",
        ],
        "table": [
            ["アルゴリズム", "3 フレーム", "4 フレーム"],
            ["FIFO", "11", "8"],
            ["LRU", "10", "7"],
            ["OPT", "7", "6"],
        ],
        "notes": "3 フレームの LRU ではヒットが 4 回なので、ヒット率は 4/14 で約 28.6%。"
        "小テストでは同じ形式で参照列だけを変えて出題する。",
    },
    {
        "title": "Belady の異常",
        "bullets": [
            (0, "FIFO では、フレームを増やすとフォールトが増えることがある"),
            (0, "例: 参照列 4 1 3 2 3 4 1 5 4 1 3 2 5"),
            (1, "3 フレーム: 9 回"),
            (1, "4 フレーム: 10 回"),
            (0, "LRU・OPT では起きない（スタックアルゴリズム）"),
        ],
        "notes": "この参照列は演習4で、自分の FIFO シミュレータが正しいかを確かめるのに使う。",
    },
    {
        "title": "スラッシングとワーキングセット",
        "bullets": [
            (0, "スラッシング: ページの入れ替えに追われ、CPU 利用率が急に落ちる状態"),
            (
                1,
                "多重度を上げる → フォールトが増える → CPU 利用率が下がる → さらに多重度を上げる、の悪循環",
            ),
            (0, "ワーキングセット W(t, Δ): 直近 Δ 回の参照で使われたページの集合"),
            (
                1,
                "全プロセスの |W| の合計がフレーム数を超えたら、どれかを一時停止（スワップアウト）する",
            ),
            (0, "ページフォールト頻度（PFF）方式"),
            (
                1,
                "フォールト率に上限と下限を決め、上限を超えたらフレームを足し、下限を下回ったら減らす",
            ),
        ],
        "notes": "この講義の例では Δ = 10,000 回の参照とする。Δ が小さすぎると局所性を捉えきれず、大きすぎると複数の局所性が混ざる。",
    },
    {
        "title": "Linux でメモリを観察する",
        "table": [
            ["コマンド", "見るもの"],
            ["free -h", "物理メモリとスワップの使用量"],
            ["vmstat 1", "si / so 列（1秒ごとのスワップイン・スワップアウト）"],
            ["grep VmRSS /proc/<pid>/status", "プロセスの常駐サイズ（RSS）"],
            ["perf stat -e dTLB-load-misses ./prog", "データ TLB のミス回数"],
        ],
        "notes": "tsubaki はメモリ 128 GiB、スワップ 8 GiB。わざとスワップを起こす実験は必ず自分の VM（os-vm-XX）で行い、"
        "tsubaki では絶対にやらないこと。",
    },
    {
        "title": "演習4の予告",
        "bullets": [
            (0, "内容: FIFO・LRU・OPT・Clock のシミュレータを Python で書く"),
            (0, "日時: 11月12日（木）4–5限、情報演習室2"),
            (0, "提出: 11月18日（水）23:59、Nagisa LMS"),
            (0, "確認用データ"),
            (1, "スライド12と13の参照列"),
            (1, "フォールト回数が表と一致すること"),
        ],
        "notes": "Clock の実装では、針の初期位置をフレーム 0 とすること。採点スクリプトはこの前提でフォールト回数を照合する。",
    },
    {
        "title": "用語の対応（日本語 / English）",
        "table": [
            ["日本語", "English"],
            ["ページフォールト", "page fault"],
            ["実効アクセス時間", "effective access time (EAT)"],
            ["内部断片化", "internal fragmentation"],
            ["変換索引バッファ", "translation lookaside buffer (TLB)"],
            ["スラッシング", "thrashing"],
            ["ワーキングセット", "working set"],
        ],
    },
]


def build_deck(path: Path) -> None:
    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(13.333), Inches(7.5)
    title_layout, content_layout, title_only = (deck.slide_layouts[i] for i in (0, 1, 5))
    for spec in SLIDES:
        if "subtitle" in spec:
            slide = deck.slides.add_slide(title_layout)
            slide.placeholders[1].text = spec["subtitle"]
        elif "bullets" in spec:
            slide = deck.slides.add_slide(content_layout)
            body = slide.placeholders[1].text_frame
            for n, (level, text) in enumerate(spec["bullets"]):
                paragraph = body.paragraphs[0] if n == 0 else body.add_paragraph()
                paragraph.text, paragraph.level = text, level
        else:
            slide = deck.slides.add_slide(title_only)
        slide.shapes.title.text = spec["title"]
        top = Inches(1.6)
        if "text" in spec:
            box = slide.shapes.add_textbox(Inches(0.8), top, Inches(11.5), Inches(0.9))
            for n, line in enumerate(spec["text"]):
                paragraph = (
                    box.text_frame.paragraphs[0] if n == 0 else box.text_frame.add_paragraph()
                )
                paragraph.text = line
                paragraph.font.size = PptPt(20)
            top = Inches(2.7)
        if "table" in spec:
            rows = spec["table"]
            frame = slide.shapes.add_table(
                len(rows), len(rows[0]), Inches(0.8), top, Inches(11.5), Inches(0.5) * len(rows)
            )
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    frame.table.cell(r, c).text = value
        if "notes" in spec:
            slide.notes_slide.notes_text_frame.text = spec["notes"]
    props = deck.core_properties
    props.title, props.author, props.last_modified_by = DECK_TITLE, "篠原 拓真", "篠原 拓真"
    props.created = props.modified = FIXED
    props.revision = 1
    _save_normalised(deck.save, path)


# =====================================================================================
# 04: Word handout, Lecture 8 (file systems)
# =====================================================================================
# Each item: (kind, content)
#   title / h1 / h2 / p: a paragraph in that style
#   bullet / bullet2 / number: list paragraphs (List Bullet, List Bullet 2, List Number)
#   code: lines in the "Code" paragraph style; mono: lines set in Consolas by direct formatting
#   table: rows, the first is the header
HANDOUT_TITLE = "第8回 ファイルシステム（配布資料）"
HANDOUT: list[tuple[str, object]] = [
    ("title", HANDOUT_TITLE),
    ("p", f"{COURSE} ／ 2026年12月1日（火）3限 ／ 担当: 篠原 拓真"),
    ("p", "この資料は第8回の講義と演習6（12月3日）の両方で使う。演習6の手順は最後の節にある。"),
    ("h1", "1. ファイルとディレクトリ"),
    (
        "p",
        "ファイルは、名前と属性の付いたバイト列である。OS はファイルの中身に構造を求めず、意味づけはアプリケーションに任せる。"
        "ディレクトリは「名前から inode 番号への対応表」で、それ自体も特別な種類のファイルである。",
    ),
    (
        "p",
        "パス名 /home/s2461030/report.txt を開くとき、カーネルはルートディレクトリの inode（ext4 では番号 2）から始めて、"
        "home、s2461030 の順にディレクトリの中身を読み、最後に report.txt の inode 番号を得る。"
        "パスが深いほどディレクトリを読む回数が増えるので、カーネルは名前の解決結果を dentry キャッシュに保持している。",
    ),
    ("h1", "2. inode"),
    ("p", "inode はファイル1つにつき1つあり、中身以外のほとんどの情報を持つ。"),
    ("bullet", "ファイルの種類と許可ビット（mode）"),
    ("bullet", "所有者の UID と GID"),
    ("bullet", "サイズ（バイト数）"),
    ("bullet", "3つのタイムスタンプ"),
    ("bullet2", "atime: 最後に読まれた時刻"),
    ("bullet2", "mtime: 中身が最後に変更された時刻"),
    ("bullet2", "ctime: inode が最後に変更された時刻（許可や所有者の変更も含む）"),
    ("bullet", "リンク数（この inode を指す名前の数）"),
    ("bullet", "データブロックへのポインタ"),
    (
        "p",
        "ファイル名は inode に入っていない。名前はディレクトリのエントリにあるので、1つの inode に複数の名前を付けられる（ハードリンク）。"
        "chmod は ctime を変えるが mtime は変えない、という違いは小テストによく出る。",
    ),
    ("h1", "3. ブロックの割り当て: 教育用ファイルシステム SFS"),
    (
        "p",
        "演習では、ext2 を単純にした教育用のファイルシステム SFS（Shiomi File System）を使う。"
        "SFS のブロックは 4 KiB、ブロック番号（ポインタ）は 8 バイトで、inode には直接ポインタが 10 個、"
        "一重間接ポインタと二重間接ポインタが 1 個ずつある（三重間接はない）。"
        "1 ブロックには 4096 ÷ 8 = 512 個のポインタが入る。",
    ),
    ("h2", "3.1 最大ファイルサイズ"),
    (
        "table",
        [
            ["部分", "指せるブロック数", "大きさ"],
            ["直接ポインタ", "10", "40 KiB"],
            ["一重間接", "512", "2 MiB"],
            ["二重間接", "262,144", "1 GiB"],
            ["合計", "262,666", "1,075,879,936 バイト（約 1.002 GiB）"],
        ],
    ),
    (
        "p",
        "最大サイズのほとんどは二重間接の部分が占める。もし三重間接ポインタを1つ足すと、512^3 ブロック、つまり 512 GiB が加わる。",
    ),
    ("h2", "3.2 オフセットからブロックを求める"),
    ("p", "例として、ファイルの先頭から 5,000,000 バイト目を読むときの手順を示す。"),
    ("number", "論理ブロック番号を求める: 5,000,000 ÷ 4096 = 1220 余り 2,880"),
    (
        "number",
        "1220 は 10 + 512 = 522 以上なので二重間接の範囲。二重間接の中での番号は 1220 − 522 = 698",
    ),
    ("number", "1段目の添字は 698 ÷ 512 の商で 1、2段目の添字は 698 mod 512 = 186"),
    (
        "number",
        "inode がメモリにあれば、ディスクの読み込みは二重間接ブロック・一重間接ブロック・データブロックの 3 回",
    ),
    ("h1", "4. ハードリンクとシンボリックリンク"),
    ("bullet", "ハードリンク: 同じ inode を指す別の名前"),
    ("bullet2", "作るとリンク数が 1 増える"),
    ("bullet2", "別のファイルシステムのファイルには作れない。ディレクトリにも作れない"),
    ("bullet", "シンボリックリンク: 中身として相手のパス名を持つ小さなファイル"),
    ("bullet2", "別のファイルシステムやディレクトリも指せる"),
    ("bullet2", "相手を消すと、どこも指さない壊れたリンク（dangling link）が残る"),
    (
        "p",
        "ファイルの実体（inode とデータブロック）が解放されるのは、リンク数が 0 になり、しかもそのファイルを開いているプロセスがなくなったときである。"
        "ログファイルを rm してもディスクの空きが増えないのは、書き込み中のプロセスがまだ開いているからである。",
    ),
    (
        "code",
        [
            "$ echo hello > a.txt",
            "$ ln a.txt b.txt        # ハードリンク",
            "$ ln -s a.txt c.txt     # シンボリックリンク",
            "$ ls -li a.txt b.txt c.txt",
            "1311042 -rw-r--r-- 2 s2461030 student 6 Dec  1 13:20 a.txt",
            "1311042 -rw-r--r-- 2 s2461030 student 6 Dec  1 13:20 b.txt",
            "1311057 lrwxrwxrwx 1 s2461030 student 5 Dec  1 13:20 c.txt -> a.txt",
            "$ stat -c '%i %h %s' a.txt",
            "1311042 2 6",
        ],
    ),
    (
        "p",
        "a.txt と b.txt は inode 番号 1311042 が同じで、リンク数は 2 である。c.txt の大きさ 5 は、中身の文字列 a.txt の長さである。",
    ),
    ("h1", "5. クラッシュ整合性とジャーナリング"),
    (
        "p",
        "ファイルの末尾に1ブロック追記するだけでも、データブロック、inode（サイズとポインタ）、ブロックの空き状況を表すビットマップの 3 か所を書く必要がある。"
        "途中で電源が切れると、たとえば inode は新しいブロックを指しているのにビットマップでは空きのまま、という矛盾が残る。"
        "昔は再起動のたびに fsck でディスク全体を調べて直していたが、大きなディスクでは何時間もかかる。",
    ),
    (
        "p",
        "ジャーナリングでは、本来の場所に書く前に、これから書く内容をジャーナル（専用の領域）にまとめて書き、最後にコミットの印を書く。"
        "クラッシュ後はジャーナルのうちコミット済みのものだけを再実行すればよいので、回復はジャーナルの大きさに比例する時間で済む。",
    ),
    ("h2", "5.1 ext4 のジャーナルモード"),
    (
        "table",
        [
            ["モード", "ジャーナルに書くもの", "特徴"],
            [
                "journal",
                "メタデータとデータの両方",
                "最も安全だが、データを2回書くので書き込み量がほぼ2倍",
            ],
            [
                "ordered（既定）",
                "メタデータだけ。データはメタデータより先に本来の場所へ書く",
                "安全性と速度の折衷",
            ],
            [
                "writeback",
                "メタデータだけ。データとの順序は保証しない",
                "最も速いが、クラッシュ後のファイルに古いデータが見えることがある",
            ],
        ],
    ),
    ("p", "モードはマウントオプション data=journal、data=ordered、data=writeback で選ぶ。"),
    ("h2", "5.2 fsync の測定"),
    (
        "p",
        "write が戻っても、データはページキャッシュにあるだけでディスクにはまだない。ディスクに届いたことを保証するには fsync を呼ぶ。"
        "演習6の予備実験として tsubaki の NVMe SSD で 4 KiB の書き込みと fsync を 1,000 回繰り返したところ、"
        "1回あたりの中央値は 0.41 ms、99 パーセンタイルは 1.7 ms だった。fsync を呼ばない場合の中央値は 3 µs だった。",
    ),
    ("h1", "6. 主なファイルシステムの比較"),
    (
        "table",
        [
            ["ファイルシステム", "最大ファイルサイズ", "一貫性の保ち方", "よく使われる場面"],
            [
                "ext4",
                "16 TiB（4 KiB ブロック）",
                "ジャーナリング",
                "多くの Linux ディストリビューションの標準",
            ],
            ["XFS", "8 EiB", "ジャーナリング（メタデータ）", "大容量のサーバ"],
            ["Btrfs", "16 EiB", "コピーオンライト", "スナップショットを多用する環境"],
            ["FAT32", "4 GiB − 1 バイト", "なし", "USB メモリ、機器どうしのデータ交換"],
        ],
    ),
    (
        "p",
        "FAT32 の USB メモリに 5 GB の動画ファイルをコピーできないのは、ディスクの空きではなく、ファイル1つの大きさの上限のためである。",
    ),
    ("h1", "7. 演習6の手順（12月3日）"),
    ("number", "自分の VM（os-vm-XX）で 256 MiB のイメージファイルを作り、ext4 でフォーマットする"),
    ("number", "ループデバイスとしてマウントし、df -i で inode の総数を確かめる"),
    (
        "number",
        "空の小さなファイルを inode が尽きるまで作り続け、No space left on device が出たときの df -h の出力を記録する",
    ),
    ("number", "ブロックの空きが残っているのにファイルが作れなくなった理由をレポートで説明する"),
    (
        "mono",
        [
            "$ truncate -s 256M disk.img",
            "$ mkfs.ext4 -b 4096 -i 16384 disk.img",
            "$ sudo mkdir -p /mnt/lab6",
            "$ sudo mount -o loop disk.img /mnt/lab6",
            "$ df -i /mnt/lab6",
        ],
    ),
    (
        "p",
        "-i 16384 は「16 KiB ごとに inode を1つ作る」という意味なので、256 MiB のイメージには約 16,384 個の inode ができる。"
        "レポートの締切は 12月9日（水）23:59。",
    ),
]

_STYLE = {"title": "Title", "h1": "Heading 1", "h2": "Heading 2", "p": None}
_LIST_STYLE = {"bullet": "List Bullet", "bullet2": "List Bullet 2", "number": "List Number"}


def build_handout(path: Path) -> None:
    document = docx.Document()
    code = document.styles.add_style("Code", WD_STYLE_TYPE.PARAGRAPH)
    code.base_style = document.styles["Normal"]
    code.font.name, code.font.size = "Consolas", Pt(9)
    code.paragraph_format.space_after = Pt(0)
    for kind, content in HANDOUT:
        if kind in _STYLE:
            document.add_paragraph(content, style=_STYLE[kind])
        elif kind in _LIST_STYLE:
            document.add_paragraph(content, style=_LIST_STYLE[kind])
        elif kind == "code":
            for line in content:
                document.add_paragraph(line, style="Code")
        elif kind == "mono":
            for line in content:
                run = document.add_paragraph().add_run(line)
                run.font.name, run.font.size = "Consolas", Pt(9)
        elif kind == "table":
            table = document.add_table(rows=len(content), cols=len(content[0]), style="Table Grid")
            for r, row in enumerate(content):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
                    if r == 0:
                        table.cell(r, c).paragraphs[0].runs[0].bold = True
        else:
            raise ValueError(kind)
    props = document.core_properties
    props.title, props.author, props.last_modified_by = HANDOUT_TITLE, "篠原 拓真", "篠原 拓真"
    props.created = props.modified = FIXED
    props.revision = 1
    _save_normalised(document.save, path)


# =====================================================================================
# 08: workbook - lab schedule, grading, grade bands, lab machines
# =====================================================================================
D = dt.date
SHEETS: list[tuple[str, list[list[object]]]] = [
    (
        "演習日程",
        [
            ["回", "日付", "曜日", "時限", "テーマ", "主な内容", "レポート締切", "担当TA"],
            [
                1,
                D(2026, 10, 15),
                "木",
                "4–5限",
                "Linux 環境とシェル",
                "ssh で tsubaki に接続、自分の VM の初期設定",
                "2026-10-21 23:59",
                "三宅 沙織",
            ],
            [
                2,
                D(2026, 10, 22),
                "木",
                "4–5限",
                "プロセスの生成",
                "fork / exec / waitpid、ゾンビの観察",
                "2026-10-28 23:59",
                "大野 颯太",
            ],
            [
                3,
                D(2026, 10, 29),
                "木",
                "4–5限",
                "スケジューリングと待ち行列",
                "Jupyter でのシミュレーション",
                "2026-11-04 23:59",
                "三宅 沙織",
            ],
            [
                4,
                D(2026, 11, 12),
                "木",
                "4–5限",
                "ページ置換",
                "FIFO / LRU / OPT / Clock のシミュレータ",
                "2026-11-18 23:59",
                "大野 颯太",
            ],
            [
                5,
                D(2026, 11, 26),
                "木",
                "4–5限",
                "同期",
                "pthreads とセマフォによる有界バッファ",
                "2026-12-02 23:59",
                "三宅 沙織",
            ],
            [
                6,
                D(2026, 12, 3),
                "木",
                "4–5限",
                "ファイルシステム",
                "ext4 イメージと inode の観察",
                "2026-12-09 23:59",
                "大野 颯太",
            ],
            [
                7,
                D(2026, 12, 17),
                "木",
                "4–5限",
                "パケットの観察とサブネット",
                "tcpdump / Wireshark、固定アドレスの設定",
                "2026-12-23 23:59",
                "三宅 沙織",
            ],
            [
                8,
                D(2027, 1, 14),
                "木",
                "4–5限",
                "ソケット",
                "TCP エコーサーバ、最終課題の中間チェック",
                "2027-01-20 23:59",
                "大野 颯太",
            ],
        ],
    ),
    (
        "成績評価",
        [
            ["項目", "割合(%)", "内訳", "備考"],
            [
                "演習レポート",
                40,
                "8回 × 5%",
                "締切を過ぎたレポートは1日ごとに 20% 減点し、3日を過ぎたものは 0 点",
            ],
            [
                "最終課題",
                25,
                "100点満点の採点を 25% に換算",
                "3人1組。採点基準は最終課題の資料を参照",
            ],
            ["期末試験", 35, "筆記 90 分", "2027年2月2日（火）13:00–14:30、講義棟B-204"],
            ["合計", 100, "", "出席そのものは成績に含めない"],
        ],
    ),
    (
        "評語",
        [
            ["評語", "得点", "合否"],
            ["S", "90〜100", "合格"],
            ["A", "80〜89", "合格"],
            ["B", "70〜79", "合格"],
            ["C", "60〜69", "合格"],
            ["D", "0〜59", "不合格"],
        ],
    ),
    (
        "演習環境",
        [
            ["ホスト名", "IPアドレス", "用途", "OS", "CPU / メモリ", "備考"],
            [
                "tsubaki",
                "10.42.9.20",
                "演習用計算サーバ（ssh、JupyterHub）",
                "Ubuntu 24.04 LTS",
                "32 コア / 128 GiB",
                "学外からは SIT-VPN 経由",
            ],
            [
                "kaede",
                "10.42.9.21",
                "Git サーバ（課題の提出用リポジトリ）",
                "Ubuntu 24.04 LTS",
                "8 コア / 32 GiB",
                "https://kaede.is.shiomidai-it.example",
            ],
            ["ns1", "10.42.8.53", "DNS キャッシュサーバ", "Debian 12", "2 コア / 4 GiB", ""],
            [
                "gw",
                "10.42.8.1",
                "デフォルトゲートウェイ",
                "—",
                "—",
                "演習ネットワーク 10.42.8.0/22 の出口",
            ],
            [
                "os-vm-01〜os-vm-60",
                "10.42.10.1〜10.42.10.60",
                "学生ごとの VM（root 権限あり）",
                "Ubuntu 24.04 LTS",
                "2 vCPU / 4 GiB",
                "2027-02-15 に全台削除",
            ],
        ],
    ),
]
WIDTHS = {"演習日程": [5, 12, 6, 8, 26, 40, 18, 12], "成績評価": [14, 9, 28, 60]}


def build_workbook(path: Path) -> None:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for name, rows in SHEETS:
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(row)
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for cell in sheet["B"][1:]:
            if isinstance(cell.value, dt.date):
                cell.number_format = "yyyy-mm-dd"
        for n, width in enumerate(WIDTHS.get(name, [16] * len(rows[0]))):
            sheet.column_dimensions[chr(ord("A") + n)].width = width
        sheet.freeze_panes = "A2"
    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy = (
        "IS-2240 演習日程と成績評価",
        "三宅 沙織",
        "三宅 沙織",
    )
    props.created = props.modified = FIXED

    def save(target) -> None:
        # openpyxl's save_workbook() stamps the current time as "modified"; its writer does not
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            ExcelWriter(workbook, archive).save()

    _save_normalised(save, path)


# =====================================================================================


def _save_normalised(save, path: Path) -> None:
    """Save through ``save(file)``, then rewrite the ZIP with fixed entry timestamps."""
    buffer = io.BytesIO()
    save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            entry = zipfile.ZipInfo(item.filename, date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, source.read(item.filename))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    build_deck(OUT / "02_memory_virtual_ja.pptx")
    build_handout(OUT / "04_filesystems_ja.docx")
    build_workbook(OUT / "08_lab_schedule_ja.xlsx")
    for name in ("02_memory_virtual_ja.pptx", "04_filesystems_ja.docx", "08_lab_schedule_ja.xlsx"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
