"""Build the Office materials of the course_se eval set from the hand-written content below.

    .venv/bin/python eval/course_se/make_office.py      (from the repository root)

writes, under eval/course_se/materials/:

- 01_requirements_uml_ja.docx  - Lectures 2-4 Word handout: Heading 1/2 with automatic
                                 multilevel numbering linked to the heading styles (as Word's
                                 "1 / 1.1" list does), a numbered list (List Paragraph + numPr),
                                 a table whose header has a merged (gridSpan / vMerge) cell,
                                 a Gherkin code block in a "Code" paragraph style
- 02_design_patterns_en.pptx   - Lectures 5-6 slide deck in English (title+content slides,
                                 a table, a slide with two text boxes side by side, a code box,
                                 speaker notes)
- 08_estimation_scrum_ja.xlsx  - two sheets: PERT estimates (title row merged above the header
                                 row, a vertically merged cell) and the sprint velocity record

Core properties carry fixed dates and every ZIP entry gets a fixed timestamp, so two runs
write byte-identical files (python-docx 1.2.0, python-pptx 1.0.2, openpyxl 3.1.5).
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
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Pt, RGBColor
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.writer.excel import ExcelWriter
from pptx import Presentation
from pptx.util import Inches
from pptx.util import Pt as PptPt

OUT = Path(__file__).parent / "materials"
ZIP_TIME = (2026, 4, 8, 9, 0, 0)
COURSE = "SE-3320 ソフトウェア工学"

# =====================================================================================
# 01: Word handout, Lectures 2-4 (requirements engineering and UML)
# =====================================================================================
HANDOUT_TITLE = "第2～4回 要求工学とUMLによるモデリング"
# (kind, content): title / subtitle / h1 / h2 / p / num (numbered list item) / code / table
HANDOUT: list[tuple[str, object]] = [
    ("title", HANDOUT_TITLE),
    ("subtitle", f"{COURSE}　配布資料　相馬 圭介　2026年4月16日・23日・30日"),
    ("h1", "要求とは何か"),
    (
        "p",
        "要求（requirement）とは、システムが満たすべき条件や能力のことである。要求があいまいなまま開発を始めると、"
        "作り直しのコストは工程が進むほど大きくなる。この授業では、要求を「利用者の言葉で書かれたもの」と"
        "「開発者が検証できる形に書き直したもの」の二段階で扱う。",
    ),
    ("h2", "機能要求と非機能要求"),
    (
        "p",
        "機能要求は「システムが何をするか」（予約できる、取り消せる、通知が届く）を定める。"
        "非機能要求は「どのくらいうまくやるか」を定めるもので、性能、可用性、セキュリティ、使いやすさ、保守性などがある。"
        "非機能要求は忘れられやすく、後から満たすのが難しい。",
    ),
    (
        "p",
        "チームプロジェクトの題材 Yadorigi（学内施設予約システム）の非機能要求は次のとおりとする。"
        "予約確定のレスポンスは95パーセンタイルで800ミリ秒以内。同時ログイン200人でもこの条件を満たすこと。"
        "稼働率は授業期間中の平日8:00～20:00について99.5%以上。",
    ),
    ("h2", "よい要求の条件"),
    (
        "p",
        "よい要求は、正しく、あいまいでなく、検証可能で、互いに矛盾せず、出どころまで追跡できる。"
        "「画面の表示が速いこと」「使いやすいこと」は検証できないので要求としては不合格である。"
        "「一覧画面の初回表示が1.5秒以内」のように、測り方まで決められる形に書き直す。",
    ),
    ("h1", "要求獲得"),
    ("h2", "要求獲得の手順"),
    ("p", "この授業では、要求獲得を次の順で進める。"),
    ("num", "ステークホルダーを洗い出す（学生、施設を管理する事務職員、情報基盤センター）。"),
    ("num", "インタビューとアンケートで、今の予約方法の困りごとを集める。"),
    ("num", "集めた困りごとをユーザーストーリーとして書き出す。"),
    ("num", "MoSCoW 法で優先順位をつける。"),
    ("num", "ストーリーごとに受入れ基準を書き、ステークホルダーと合意する。"),
    ("h2", "インタビューの進め方"),
    (
        "p",
        "インタビューは聞き手と記録係の2人1組で行い、1回30分を目安にする。"
        "「はい／いいえ」で終わる質問より、「最近困ったのはどんなときですか」のような開いた質問から始める。"
        "第2回の演習では、ペアを組んで15分ずつ交代でインタビューを行い、記録をHibari LMSに提出する。",
    ),
    ("h1", "ユーザーストーリー"),
    ("h2", "書き方"),
    (
        "p",
        "ユーザーストーリーは「〈利用者の種類〉として、〈目的〉のために、〈機能〉がほしい。」の形で書く。"
        "例：「学生として、グループ学習の場所を確保するために、空いている演習室を一覧で見たい。」"
        "ストーリーは仕様書ではなく、会話のきっかけである。詳細は受入れ基準で補う。",
    ),
    ("h2", "INVEST"),
    (
        "p",
        "よいストーリーの条件として INVEST がある。Independent（独立している）、Negotiable（交渉できる）、"
        "Valuable（価値がある）、Estimable（見積もれる）、Small（小さい）、Testable（テストできる）の頭文字である。"
        "この授業では、1つのストーリーは1スプリントで終わる大きさ、つまり8ポイント以下とし、"
        "それを超えるものは分割してからスプリントに入れる。",
    ),
    ("h2", "受入れ基準"),
    (
        "p",
        "受入れ基準は Given／When／Then（前提／もし／ならば）の形で書くと、そのまま自動テストにしやすい。"
        "次は予約取消ストーリーの受入れ基準を Gherkin で書いた例である。",
    ),
    (
        "code",
        [
            "# language: ja",
            "機能: 施設予約の取り消し",
            "  シナリオ: 開始24時間前までなら取り消せる",
            "    前提 学生「s2301045」が 6月10日 13:00 の C-301 を予約している",
            "    もし 6月9日 12:00 に取消ボタンを押す",
            "    ならば 予約の状態は「取消済み」になる",
            "    かつ 予約者に取消確認メールが送られる",
            "",
            "  シナリオ: 開始まで24時間を切ると取り消せない",
            "    前提 学生「s2301045」が 6月10日 13:00 の C-301 を予約している",
            "    もし 6月9日 13:30 に取消ボタンを押す",
            "    ならば 「開始24時間前を過ぎたため取り消せません」と表示される",
        ],
    ),
    ("h2", "MoSCoW 法"),
    (
        "p",
        "MoSCoW 法では、要求を Must（必須）、Should（できれば入れる）、Could（余裕があれば）、Won't（今回は入れない）に分ける。"
        "すべてを Must にすると優先順位をつけた意味がなくなるので、この授業では Must の合計を"
        "全ストーリーの見積もりポイント合計の60%までとする。",
    ),
    ("h1", "UML によるモデリング"),
    ("h2", "UML の図の種類"),
    (
        "p",
        "UML 2.5 には14種類の図がある。構造図が7種類（クラス図、オブジェクト図、パッケージ図、コンポーネント図、"
        "配置図、コンポジット構造図、プロファイル図）、振る舞い図が7種類で、振る舞い図のうち4種類"
        "（シーケンス図、コミュニケーション図、相互作用概要図、タイミング図）は相互作用図と呼ばれる。"
        "この授業で扱うのは、ユースケース図、クラス図、シーケンス図、状態マシン図の4つである。",
    ),
    ("h2", "クラス図の関係"),
    ("p", "クラスどうしの関係は、線の種類と線の端の形で描き分ける。"),
    (
        "table",
        [
            ["関係", "記法", "", "Yadorigi での例"],
            ["", "線", "端の形", ""],
            ["関連", "実線", "なし（誘導可能性を示すときは開いた矢印）", "利用者 ― 予約"],
            ["集約", "実線", "白抜きのひし形（全体の側）", "施設 ◇― 設備"],
            ["コンポジション", "実線", "黒塗りのひし形（全体の側）", "予約 ◆― 予約明細"],
            ["汎化", "実線", "白抜きの三角形（親の側）", "学生 ―▷ 利用者"],
            ["実現", "破線", "白抜きの三角形（インタフェースの側）", "MailNotifier ‐‐▷ Notifier"],
            ["依存", "破線", "開いた矢印", "ReservationService ‐‐> Clock"],
        ],
    ),
    (
        "p",
        "集約とコンポジションの違いは部分の寿命にある。コンポジションでは全体を削除すると部分も削除される"
        "（予約を消せば予約明細も消える）。集約では部分は全体と独立に存在できる（施設がなくなってもプロジェクタは別の部屋で使える）。",
    ),
    ("h2", "多重度"),
    (
        "p",
        "関連の両端には多重度を書く。「1」はちょうど1つ、「0..1」は0か1つ、「*」は0以上、「1..*」は1以上を表す。"
        "Yadorigi では、1人の利用者が同時に持てる有効な予約は最大3件なので、利用者側から見た予約の多重度は「0..3」になる。"
        "予約から施設への多重度は「1」である。",
    ),
    ("h2", "シーケンス図"),
    (
        "p",
        "シーケンス図は、オブジェクト間のメッセージのやりとりを時間の順に縦方向に並べた図である。"
        "同期メッセージは塗りつぶした矢じりの実線、非同期メッセージは開いた矢じりの実線、戻りメッセージは破線で描く。"
        "条件分岐は alt、省略可能な処理は opt、繰り返しは loop、並行処理は par の複合フラグメントで囲む。",
    ),
    ("h1", "演習1（個人課題）"),
    (
        "p",
        "Yadorigi について、ユースケース図1枚、クラス図1枚（クラス8個以上、関係を3種類以上使うこと）、"
        "「予約を確定する」のシーケンス図1枚を作成する。図は PlantUML で書き、ソース（.puml）と書き出した PNG の両方を"
        "Hibari LMS に提出する。締切は5月13日（水）23:59。",
    ),
]


def _heading_numbering(document) -> None:
    """Link Heading 1/2 to a multilevel list (1 / 1.1), the way Word's heading numbering does."""
    numbering = document.part.numbering_part.element
    abstract = parse_xml(
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="20">'
        '<w:multiLevelType w:val="multilevel"/>'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:pStyle w:val="Heading1"/><w:lvlText w:val="%1"/><w:lvlJc w:val="left"/>'
        '<w:pPr><w:ind w:left="425" w:hanging="425"/></w:pPr></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:pStyle w:val="Heading2"/><w:lvlText w:val="%1.%2"/><w:lvlJc w:val="left"/>'
        '<w:pPr><w:ind w:left="567" w:hanging="567"/></w:pPr></w:lvl>'
        "</w:abstractNum>"
    )
    listing = parse_xml(
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="21">'
        '<w:multiLevelType w:val="hybridMultilevel"/>'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1."/><w:lvlJc w:val="left"/>'
        '<w:pPr><w:ind w:left="420" w:hanging="420"/></w:pPr></w:lvl>'
        "</w:abstractNum>"
    )
    first_num = numbering.find(qn("w:num"))
    for element in (abstract, listing):
        if first_num is not None:
            first_num.addprevious(element)
        else:
            numbering.append(element)
    for num_id, abstract_id in (("20", "20"), ("21", "21")):
        numbering.append(
            parse_xml(
                f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>'
            )
        )
    for style_name, level in (("Heading 1", "0"), ("Heading 2", "1")):
        ppr = document.styles[style_name].element.get_or_add_pPr()
        ppr.insert(
            0,
            parse_xml(
                f'<w:numPr {nsdecls("w")}><w:ilvl w:val="{level}"/><w:numId w:val="20"/></w:numPr>'
            ),
        )


def _numbered(paragraph) -> None:
    ppr = paragraph._p.get_or_add_pPr()
    ppr.append(
        parse_xml(f'<w:numPr {nsdecls("w")}><w:ilvl w:val="0"/><w:numId w:val="21"/></w:numPr>')
    )


def _shade(cell, colour: str) -> None:
    cell._tc.get_or_add_tcPr().append(
        parse_xml(f'<w:shd {nsdecls("w")} w:val="clear" w:color="auto" w:fill="{colour}"/>')
    )


def build_handout(path: Path) -> None:
    document = docx.Document()
    _heading_numbering(document)
    code = document.styles.add_style("Code", WD_STYLE_TYPE.PARAGRAPH)
    code.base_style = document.styles["Normal"]
    code.font.name, code.font.size = "Consolas", Pt(9)
    code.font.color.rgb = RGBColor(0x1F, 0x1F, 0x1F)
    code.paragraph_format.space_after = Pt(0)
    code.paragraph_format.left_indent = Pt(12)
    code.element.get_or_add_pPr().append(
        parse_xml(f'<w:shd {nsdecls("w")} w:val="clear" w:color="auto" w:fill="F2F2F2"/>')
    )
    for kind, content in HANDOUT:
        if kind == "title":
            document.add_paragraph(content, style="Title")
        elif kind == "subtitle":
            document.add_paragraph(content, style="Subtitle")
        elif kind == "h1":
            document.add_paragraph(content, style="Heading 1")
        elif kind == "h2":
            document.add_paragraph(content, style="Heading 2")
        elif kind == "p":
            document.add_paragraph(content)
        elif kind == "num":
            _numbered(document.add_paragraph(content, style="List Paragraph"))
        elif kind == "code":
            for line in content:
                document.add_paragraph(line, style="Code")
        elif kind == "table":
            table = document.add_table(rows=len(content), cols=len(content[0]), style="Table Grid")
            for r, row in enumerate(content):
                for c, value in enumerate(row):
                    if value:
                        table.cell(r, c).text = value
            # header: 関係 and the example column span both header rows; 記法 spans two columns
            table.cell(0, 0).merge(table.cell(1, 0))
            table.cell(0, 3).merge(table.cell(1, 3))
            table.cell(0, 1).merge(table.cell(0, 2))
            for r in (0, 1):
                for c in range(4):
                    cell = table.cell(r, c)
                    _shade(cell, "D9E2F3")
                    for run in cell.paragraphs[0].runs:
                        run.bold = True
        else:
            raise ValueError(kind)
    props = document.core_properties
    props.title, props.author, props.last_modified_by = HANDOUT_TITLE, "相馬 圭介", "相馬 圭介"
    props.created = props.modified = dt.datetime(2026, 4, 14, 18, 20, 0)
    props.revision = 7
    _save_normalised(document.save, path)


# =====================================================================================
# 02: slide deck in English, Lectures 5-6 (design principles and patterns)
# =====================================================================================
DECK_TITLE = "Design Principles and Design Patterns"
# Each slide: title, then any of
#   subtitle: str                     - title slide
#   bullets:  [(level, text)]         - the body placeholder
#   table:    [[cells]]               - first row is the header
#   columns:  [(heading, [lines])]*2  - two text boxes side by side
#   code:     [lines]                 - a monospaced text box
#   notes:    str                     - the speaker notes
SLIDES: list[dict] = [
    {
        "title": DECK_TITLE,
        "subtitle": "SE-3320 Software Engineering, Lectures 5–6\nOliver Brandt (visiting lecturer) · 7 May and 14 May 2026",
        "notes": "Welcome. I will speak slowly, and a Japanese summary of every slide is on Hibari LMS. "
        "You may ask questions in Japanese; TA Minato Fujisaki will help translate.",
    },
    {
        "title": "Goals for these two lectures",
        "bullets": [
            (0, "Explain cohesion and coupling with examples"),
            (0, "State the five SOLID principles and spot violations in code"),
            (0, "Choose between inheritance and composition"),
            (0, "Recognise six common design patterns and know when NOT to use them"),
            (1, "Strategy, Observer, Factory Method, Adapter, Decorator, Singleton"),
        ],
    },
    {
        "title": "Cohesion and coupling",
        "bullets": [
            (0, "Cohesion: how closely the parts of one module belong together"),
            (1, "Aim for high cohesion: one module, one purpose"),
            (0, "Coupling: how much one module depends on the internals of another"),
            (1, "Aim for low coupling: talk through small, stable interfaces"),
            (0, "Kinds of coupling, from worst to best:"),
            (1, "content → common → control → stamp → data"),
            (0, "High cohesion and low coupling usually come together"),
        ],
        "notes": "A rule of thumb I use in reviews: if a one-line change in a class forces you to open more than "
        "three other files, the coupling is too high. Common coupling means sharing global data; "
        "in Python that is usually a module-level dictionary that everybody writes to.",
    },
    {
        "title": "SOLID",
        "table": [
            ["Letter", "Principle", "In one sentence"],
            [
                "S",
                "Single Responsibility Principle",
                "A class should have only one reason to change.",
            ],
            ["O", "Open–Closed Principle", "Open for extension, closed for modification."],
            [
                "L",
                "Liskov Substitution Principle",
                "A subtype must be usable wherever its base type is expected.",
            ],
            [
                "I",
                "Interface Segregation Principle",
                "Clients should not depend on methods they do not use.",
            ],
            [
                "D",
                "Dependency Inversion Principle",
                "High-level modules depend on abstractions, not on details.",
            ],
        ],
        "notes": "The classic LSP violation is Square inheriting from Rectangle: setting the width of a square "
        "silently changes its height, so code written for rectangles breaks. "
        "For DIP in Yadorigi: ReservationService should receive a Clock and a Notifier from outside "
        "instead of calling datetime.now() and smtplib directly.",
    },
    {
        "title": "Inheritance or composition?",
        "columns": [
            (
                "Inheritance (is-a)",
                [
                    "Reuses code by extending a base class",
                    "Relationship fixed at class-definition time",
                    "Subclass sees the parent's internals",
                    "Deep hierarchies are fragile",
                    "Good for: true subtypes that obey LSP",
                ],
            ),
            (
                "Composition (has-a)",
                [
                    "Reuses code by holding another object",
                    "Parts can be swapped at run time",
                    "Only the public interface is used",
                    "Easy to replace with a test double",
                    "Good for: varying behaviour, plug-ins",
                ],
            ),
        ],
        "notes": "Team project rule: in Yadorigi, no inheritance chain may be more than two levels deep below "
        "your own base classes. If you need a third level, use composition instead. "
        "Framework base classes do not count.",
    },
    {
        "title": "What is a design pattern?",
        "bullets": [
            (0, "A named, reusable solution to a recurring design problem in a context"),
            (0, "Catalogue by Gamma, Helm, Johnson and Vlissides (the “Gang of Four”), 1994"),
            (1, "23 patterns: 5 creational, 7 structural, 11 behavioral"),
            (0, "A pattern gives the team a shared vocabulary"),
            (
                0,
                "Patterns are not goals: apply one only when the problem it solves is actually present",
            ),
        ],
        "notes": "Many patterns in the 1994 catalogue exist because of limitations of C++ and Smalltalk at the time. "
        "In Python, first-class functions make Strategy and Command much lighter: often a plain function is enough.",
    },
    {
        "title": "Six patterns you will meet in the project",
        "table": [
            ["Pattern", "Category", "Intent", "Where it could appear in Yadorigi"],
            [
                "Strategy",
                "Behavioral",
                "Swap an algorithm at run time",
                "Fee calculation per user type",
            ],
            [
                "Observer",
                "Behavioral",
                "Notify dependents when state changes",
                "Send mail when a booking is cancelled",
            ],
            [
                "Factory Method",
                "Creational",
                "Let subclasses decide which class to instantiate",
                "Create the right Notifier per channel",
            ],
            [
                "Adapter",
                "Structural",
                "Convert one interface into the one clients expect",
                "Wrap the campus SSO client ShiraAuth",
            ],
            [
                "Decorator",
                "Structural",
                "Add behaviour by wrapping an object",
                "Add logging and retry to the repository",
            ],
            [
                "Singleton",
                "Creational",
                "Guarantee exactly one instance",
                "Avoid it (see slide 10)",
            ],
        ],
    },
    {
        "title": "Strategy in Python",
        "code": [
            "class FeePolicy(Protocol):",
            "    def fee(self, hours: int) -> int: ...",
            "",
            "class StudentFee:",
            "    def fee(self, hours: int) -> int:",
            "        return 0",
            "",
            "class ExternalFee:",
            "    def fee(self, hours: int) -> int:",
            "        return 1500 * hours",
            "",
            "def quote(policy: FeePolicy, hours: int) -> int:",
            "    return policy.fee(hours)",
        ],
        "notes": "The rule book in this example is invented: students book for free, external users pay "
        "1,500 yen per hour. Adding a new user type means adding a class, not editing quote(): "
        "that is the Open–Closed Principle at work.",
    },
    {
        "title": "Observer",
        "bullets": [
            (0, "Subject keeps a list of observers: attach(), detach(), notify()"),
            (0, "Observers do not know each other; the subject knows only the interface"),
            (0, "Push model: the subject sends the changed data"),
            (0, "Pull model: observers ask the subject for what they need"),
            (0, "In Python, a list of callables is often enough"),
        ],
        "notes": "The most common Observer bug in student projects is forgetting detach(): the subject keeps "
        "a reference to an object that should have died, which is a memory leak and can send duplicate e-mails.",
    },
    {
        "title": "Singleton: use with great care",
        "bullets": [
            (0, "It is global state with a nicer name"),
            (0, "Dependencies become hidden: the signature does not show them"),
            (0, "Tests share the instance, so test order starts to matter"),
            (
                0,
                "Prefer creating one instance at start-up and passing it in (dependency injection)",
            ),
        ],
        "notes": "Data from last year's course: 7 of the 11 teams made their database connection a Singleton, "
        "and 4 of those 7 teams could not run their test suite in parallel. This is why the slide says: avoid it.",
    },
    {
        "title": "Anti-patterns to recognise",
        "bullets": [
            (0, "God object: one class that knows and does everything"),
            (0, "Spaghetti code: control flow nobody can follow"),
            (0, "Golden hammer: using the one pattern you know for every problem"),
            (0, "Copy-paste programming: the same bug fixed in five places, or in four"),
            (0, "Lava flow: dead code nobody dares to delete"),
        ],
    },
    {
        "title": "Pattern quiz (14 May, lab session)",
        "bullets": [
            (0, "10 questions, 20 minutes, closed book"),
            (0, "Given a short design problem, name the pattern and sketch the classes"),
            (0, "Practice only: it is not part of the grade"),
        ],
        "notes": "Model answers will be posted on Hibari LMS on 15 May after the last lab group has finished.",
    },
    {
        "title": "Glossary / 用語",
        "table": [
            ["English", "日本語"],
            ["cohesion", "凝集度"],
            ["coupling", "結合度"],
            ["dependency injection", "依存性の注入"],
            ["interface segregation", "インタフェース分離"],
            ["composition", "コンポジション（合成）"],
            ["test double", "テストダブル"],
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
        if "table" in spec:
            rows = spec["table"]
            frame = slide.shapes.add_table(
                len(rows),
                len(rows[0]),
                Inches(0.6),
                Inches(1.6),
                Inches(12.1),
                Inches(0.55) * len(rows),
            )
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    frame.table.cell(r, c).text = value
                    frame.table.cell(r, c).text_frame.paragraphs[0].font.size = PptPt(16)
        if "columns" in spec:
            for n, (heading, lines) in enumerate(spec["columns"]):
                box = slide.shapes.add_textbox(
                    Inches(0.6 + 6.2 * n), Inches(1.7), Inches(5.9), Inches(4.8)
                )
                frame = box.text_frame
                frame.word_wrap = True
                frame.paragraphs[0].text = heading
                frame.paragraphs[0].font.bold = True
                frame.paragraphs[0].font.size = PptPt(24)
                for line in lines:
                    paragraph = frame.add_paragraph()
                    paragraph.text = "• " + line
                    paragraph.font.size = PptPt(18)
        if "code" in spec:
            box = slide.shapes.add_textbox(Inches(0.8), Inches(1.6), Inches(11.5), Inches(5.2))
            for n, line in enumerate(spec["code"]):
                paragraph = (
                    box.text_frame.paragraphs[0] if n == 0 else box.text_frame.add_paragraph()
                )
                paragraph.text = line
                paragraph.font.name, paragraph.font.size = "Consolas", PptPt(18)
        if "notes" in spec:
            slide.notes_slide.notes_text_frame.text = spec["notes"]
    props = deck.core_properties
    props.title, props.author, props.last_modified_by = DECK_TITLE, "Oliver Brandt", "Oliver Brandt"
    props.created = props.modified = dt.datetime(2026, 5, 5, 21, 40, 0)
    props.revision = 3
    _save_normalised(deck.save, path)


# =====================================================================================
# 08: workbook - PERT estimates of team 07's sprint 2 and the velocity record
# =====================================================================================
PERT_TITLE = "チーム07（Yadorigi）スプリント2 タスク見積もり　PERT法・単位：時間"
PERT_HEADER = ["ID", "タスク", "楽観値 O", "最頻値 M", "悲観値 P", "期待値 E", "標準偏差 σ", "担当"]
PERT_ROWS = [
    ["T-01", "予約一覧APIの実装", 2, 4, 9, 4.5, 1.17, "小川 颯"],
    ["T-02", "予約取消APIと24時間ルール", 3, 5, 10, 5.5, 1.17, None],  # merged with the row above
    ["T-03", "取消メール通知（Observer）", 1, 3, 8, 3.5, 1.17, "石黒 葵"],
    ["T-04", "予約一覧画面（フロントエンド）", 4, 6, 14, 7.0, 1.67, "Nguyen Thi Lan"],
    ["T-05", "単体テストの追加（分岐網羅80%へ）", 2, 3, 7, 3.5, 0.83, "塚本 陽向"],
    ["T-06", "CIにカバレッジゲートを追加", 1, 2, 6, 2.5, 0.83, "森 奏太"],
    [None, "合計", 13, 23, 54, 26.5, 2.87, None],
]
PERT_NOTES = [
    "期待値 E = (O + 4M + P) / 6、標準偏差 σ = (P - O) / 6 （小数第3位を四捨五入）",
    "合計の σ は各タスクの σ の2乗の和の平方根（タスクどうしが独立と仮定）",
    "E ± 2σ で約95%：26.5 ± 5.7 時間 → 20.8～32.2 時間。スプリント2のチーム作業可能時間は35時間",
    "T-04 は前回見積もりが大きく外れたので悲観値を広めにとった（野々村TAと相談済み）",
]
VELOCITY_HEADER = ["スプリント", "期間", "計画ポイント", "完了ポイント", "達成率", "メモ"]
VELOCITY_ROWS = [
    [
        "スプリント1",
        "5/21～6/3",
        21,
        13,
        "62%",
        "環境構築とCIの設定に時間がかかった。T-00系の見積もり漏れ",
    ],
    ["スプリント2", "6/4～6/17", 18, 17, "94%", "取消メールのテストでSMTPをモックに置き換えた"],
    ["スプリント3", "6/18～7/1", 20, 19, "95%", "ペアプログラミングを導入"],
    ["スプリント4", "7/2～7/15", 16, 16, "100%", "計画はS1～S3の平均ベロシティ16.3に合わせた"],
]
VELOCITY_NOTES = [
    ["ポイントの尺度", "1, 2, 3, 5, 8, 13（修正フィボナッチ数列）。13は「分割が必要」の合図"],
    ["平均ベロシティ（S1～S3）", "(13 + 17 + 19) / 3 = 16.3 ポイント"],
    [
        "最終デモ後に残るバックログ",
        "40 ポイント → 40 / 16.3 ≒ 2.5 なので、続けるならあと3スプリント必要",
    ],
    ["記入者", "スクラムマスター 石黒 葵（6/18以降）、それ以前は 小川 颯"],
]


def build_workbook(path: Path) -> None:
    workbook = openpyxl.Workbook()
    pert = workbook.active
    pert.title = "PERT見積もり"
    pert.append([PERT_TITLE])
    pert.merge_cells(start_row=1, start_column=1, end_row=1, end_column=len(PERT_HEADER))
    pert["A1"].font = Font(bold=True, size=14)
    pert["A1"].alignment = Alignment(horizontal="center")
    pert.append(PERT_HEADER)
    for cell in pert[2]:
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor="D9E2F3")
    for row in PERT_ROWS:
        pert.append(row)
    pert.merge_cells("H3:H4")  # T-01 and T-02 have the same owner
    pert["H3"].alignment = Alignment(vertical="center")
    for cell in pert[len(PERT_ROWS) + 2]:
        cell.font = Font(bold=True)
    for row in pert.iter_rows(min_row=3, max_row=len(PERT_ROWS) + 2, min_col=6, max_col=7):
        for cell in row:
            cell.number_format = "0.00" if cell.column == 7 else "0.0"
    pert.append([])
    for note in PERT_NOTES:
        pert.append([None, note])
    for column, width in zip("ABCDEFGH", (7, 36, 10, 10, 10, 10, 12, 16), strict=True):
        pert.column_dimensions[column].width = width
    pert.freeze_panes = "A3"

    velocity = workbook.create_sheet("ベロシティ")
    velocity.append(VELOCITY_HEADER)
    for cell in velocity[1]:
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor="E2EFDA")
    for row in VELOCITY_ROWS:
        velocity.append(row)
    velocity.append([])
    for label, text in VELOCITY_NOTES:
        velocity.append([label, text])
    for column, width in zip("ABCDEF", (24, 14, 12, 12, 9, 56), strict=True):
        velocity.column_dimensions[column].width = width
    velocity.freeze_panes = "A2"

    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy = (
        "チーム07 見積もりとベロシティ",
        "小川 颯",
        "石黒 葵",
    )
    props.created = props.modified = dt.datetime(2026, 7, 16, 9, 30, 0)

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
    build_handout(OUT / "01_requirements_uml_ja.docx")
    build_deck(OUT / "02_design_patterns_en.pptx")
    build_workbook(OUT / "08_estimation_scrum_ja.xlsx")
    for name in (
        "01_requirements_uml_ja.docx",
        "02_design_patterns_en.pptx",
        "08_estimation_scrum_ja.xlsx",
    ):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
