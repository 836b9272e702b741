"""Build the Office materials of the course_algo eval set from the hand-written content below.

    .venv/bin/python eval/course_algo/make_office.py      (from the repository root)

writes, under eval/course_algo/materials/:

- 02_heaps_hashing_ja.docx  - Lectures 5-6 handout written in Word the usual way: Title, Heading
                              1/2 styles, List Number / List Bullet paragraphs, a comparison
                              table, code in a "Code" paragraph style (Consolas, indentation as
                              leading spaces), two display equations made with Word's equation
                              editor (OMML, m:oMathPara), a floating text box ("ポイント") stored
                              as Word 2010+ writes it (mc:AlternateContent: a wps text box and a
                              VML fallback holding the same text), a page header and a footer
                              with a PAGE field, and one tracked change left in the file (a
                              deadline: w:del + w:ins)
- 04_graphs_en.pptx         - Lectures 9-10 deck in English on the default "Title and Content" /
                              "Title Only" layouts (placeholders), bullets at two levels, a
                              table, a Courier New code box, a group shape of text boxes (a BFS
                              layer diagram), speaker notes, and one hidden slide (an outdated
                              draft the teacher kept in the file)
- 08_grading_ja.xlsx        - sheet 成績評価 (weights, formula cells with cached values, a
                              percent format), sheet 課題一覧 (assignment list, date cells in a
                              Japanese date format), sheet "Lab1 benchmark" in English (number
                              format 0.0 "ms", ratio formulas), a cell comment, and a hidden
                              sheet with TA notes

Core properties carry fixed dates and every ZIP entry gets a fixed timestamp, so two runs
write byte-identical files (python-docx 1.2.0, python-pptx 1.0.2, openpyxl 3.1.5).
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from pathlib import Path

import docx
import openpyxl
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Pt
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.writer.excel import ExcelWriter
from pptx import Presentation
from pptx.util import Inches
from pptx.util import Pt as PptPt

OUT = Path(__file__).parent / "materials"
ZIP_TIME = (2026, 5, 25, 9, 0, 0)

# =====================================================================================
# 02: Word handout, Lectures 5-6 (heaps, hash tables, amortised analysis)
# =====================================================================================
HANDOUT_TITLE = "ヒープ・ハッシュ表・ならし解析（第5・6回）"
# (kind, content). kinds: title, meta, h1, h2, p, num, bullet, code, table, math, box, tracked
HANDOUT: list[tuple[str, object]] = [
    ("title", HANDOUT_TITLE),
    ("meta", "CS-2310 アルゴリズムとデータ構造　担当：桐生 真澄　第5回 5月20日／第6回 5月27日"),
    ("h1", "1. 優先度付きキュー"),
    (
        "p",
        "優先度付きキューは、要素を追加する操作（insert）と、優先度が最も高い要素（この授業では値が最小の要素）を取り出す操作（extract-min）を備えたデータ構造である。印刷の待ち行列、イベント駆動のシミュレーション、第11回で学ぶ Dijkstra 法など、多くの場面で使われる。",
    ),
    ("p", "素朴な実装と二分ヒープを比べると次のようになる（n は要素数）。"),
    (
        "table",
        [
            ["実装", "insert", "extract-min", "最小値を見る（peek）"],
            ["整列していない配列", "O(1)", "O(n)", "O(n)"],
            ["整列済みの配列", "O(n)", "O(1)", "O(1)"],
            ["二分ヒープ", "O(log n)", "O(log n)", "O(1)"],
        ],
    ),
    ("h1", "2. 二分ヒープ"),
    ("h2", "2.1 形と配列での表し方"),
    (
        "p",
        "二分ヒープは完全二分木（最下段以外はすべて埋まり、最下段は左から詰めた二分木）で、どの節点でも「親の値 ≤ 子の値」が成り立つもの（最小ヒープ）である。兄弟どうしの大小は決まっていない。",
    ),
    (
        "p",
        "完全二分木なのでポインタは要らず、配列に上の段から順に並べて格納できる。この授業では Python に合わせて添字を 0 から始める。",
    ),
    ("bullet", "添字 i の節点の親：(i - 1) // 2"),
    ("bullet", "添字 i の節点の左の子：2 * i + 1、右の子：2 * i + 2"),
    (
        "bullet",
        "教科書によっては添字を 1 から始める。その場合は親が i // 2、子が 2i と 2i + 1 になるので、資料を混ぜて読むときは注意すること",
    ),
    ("bullet", "n 個の要素を持つヒープの高さは ⌊log₂ n⌋"),
    ("h2", "2.2 挿入と取り出し"),
    (
        "num",
        "insert：新しい要素を配列の末尾に置き、親より小さい間は親と交換して上へ移す（sift-up）。",
    ),
    (
        "num",
        "extract-min：根（添字 0）を答えとして取っておき、末尾の要素を根へ移してから、小さいほうの子より大きい間は交換して下へ移す（sift-down）。",
    ),
    ("num", "どちらも木の高さぶんしか動かないので O(log n) である。"),
    (
        "p",
        "例：ヒープ [3, 9, 5, 12, 10, 8] に 4 を挿入する。4 は添字 6 に置かれ、親（添字 2）の 5 と交換し、次の親（添字 0）の 3 より大きいので止まる。結果は [3, 9, 4, 12, 10, 8, 5] となる。",
    ),
    (
        "code",
        [
            "def sift_down(h, i):",
            "    n = len(h)",
            "    while True:",
            "        smallest = i",
            "        for c in (2 * i + 1, 2 * i + 2):",
            "            if c < n and h[c] < h[smallest]:",
            "                smallest = c",
            "        if smallest == i:",
            "            return",
            "        h[i], h[smallest] = h[smallest], h[i]",
            "        i = smallest",
        ],
    ),
    ("h2", "2.3 ヒープの構築とヒープソート"),
    (
        "p",
        "n 個の要素から1つずつ insert するとヒープの構築に O(n log n) かかる。しかし、配列の後ろ半分は葉なので、添字 n//2 - 1 から 0 に向かって順に sift-down をかけると、全体で O(n) で構築できる（ボトムアップ構築）。高さ h の節点は高々 ⌈n / 2^(h+1)⌉ 個で、それぞれの sift-down は O(h) なので、手間の合計は次の式で抑えられる。",
    ),
    ("math", "buildheap"),
    (
        "p",
        "ヒープソートは、最大ヒープを作ってから根と末尾を交換して sift-down することを繰り返す整列法で、最悪でも Θ(n log n)、追加メモリ O(1) だが、安定ではない。",
    ),
    (
        "p",
        "Python の標準ライブラリ heapq は最小ヒープである。最大ヒープが欲しいときは、値に -1 を掛けて入れるのが定番の方法である。heapq.heapify(list) はボトムアップ構築なので O(n) である。",
    ),
    ("box", None),
    ("h1", "3. ハッシュ表"),
    ("h2", "3.1 ハッシュ関数"),
    (
        "p",
        "ハッシュ表は、キーをハッシュ関数 h で 0 から m - 1 の番地に写し、その番地の入れ物（バケット）に格納することで、探索・挿入・削除を平均 O(1) で行うデータ構造である。整数のキーなら h(k) = k mod m とし、m には素数を選ぶ（2 のべき乗にすると、キーの下位ビットだけで番地が決まって偏りやすい）。",
    ),
    (
        "p",
        "文字列のキーには多項式ハッシュを使う。課題3では基数 B = 131、法 m = 1,000,003（素数）と決めている。文字列 s = s₀s₁…s_{L-1} に対して、h(s) = (s₀·B^{L-1} + s₁·B^{L-2} + … + s_{L-1}) mod m を、ホーナー法で左から1文字ずつ計算する。",
    ),
    ("h2", "3.2 衝突の解決"),
    (
        "table",
        [
            ["方法", "しくみ", "長所", "短所"],
            [
                "連鎖法（チェイン法）",
                "同じ番地のキーを連結リストでつなぐ",
                "削除が簡単。α が 1 を超えても動く",
                "ポインタの分だけメモリを使い、キャッシュ効率が悪い",
            ],
            [
                "開番地法（線形探査）",
                "空いている次の番地 h(k)+1, h(k)+2, … を順に調べる",
                "配列1本で済み、キャッシュ効率が良い",
                "詰まった区間が伸びる（一次クラスタ化）",
            ],
            [
                "開番地法（二重ハッシュ）",
                "2つ目のハッシュ関数 h₂(k) ずつ飛ばして調べる",
                "クラスタ化が起きにくい",
                "h₂(k) と m が互いに素でなければならない",
            ],
        ],
    ),
    (
        "p",
        "格納しているキーの数を n、番地の数を m とするとき、α = n / m を負荷率（load factor）と呼ぶ。連鎖法では、成功する探索の比較回数の期待値は約 1 + α/2、失敗する探索は約 1 + α である。開番地法で理想的な一様ハッシュを仮定すると、失敗する探索の探査回数の期待値は次の式で表される。",
    ),
    ("math", "probe"),
    (
        "p",
        "つまり α = 0.5 なら約2回、α = 0.9 なら約10回である。線形探査では一次クラスタ化のためにこれより悪く、失敗する探索で約 (1 + 1/(1-α)²)/2 回になる。α = 0.5 で 2.5回、α = 0.7 で 6.1回、α = 0.9 では 50.5回にもなる。このため課題3では、α が 0.5 を超えたら番地の数をおよそ2倍の素数に増やして全キーを入れ直す（リハッシュ）ことにしている。",
    ),
    (
        "p",
        "開番地法でキーを削除するとき、番地を単に空にしてはいけない。その番地を通り過ぎて格納されたキーの探査がそこで止まり、見つからなくなるからである。代わりに「削除済み」の印（墓標、tombstone）を置き、探索では通り過ぎ、挿入では再利用する。",
    ),
    (
        "p",
        "Python の dict も開番地法のハッシュ表で、Python 3.7 以降は挿入した順序を保つことが言語仕様で保証されている。",
    ),
    ("h1", "4. ならし解析"),
    (
        "p",
        "ならし解析（amortized analysis）は、1回ごとの最悪ではなく、操作の列全体にかかる手間を操作の回数で割って評価する方法である。確率は使わないので、平均の場合の解析とは違い、どんな操作列に対しても成り立つ保証である。",
    ),
    (
        "p",
        "例：可変長配列（Python の list、C++ の vector）の末尾への追加。容量がいっぱいになったら2倍の領域を確保して全要素をコピーする。コピーが起きる追加は O(n) かかるが、容量 1, 2, 4, … と倍々に増えるので、n 回の追加でコピーされる要素の総数は 1 + 2 + 4 + … < 2n である。書き込み n 回と合わせて手間は 3n 未満で、1回あたりのならし計算量は O(1) になる。",
    ),
    ("num2", "集計法：上のように、n 回の操作の合計を直接数えて n で割る。"),
    (
        "num2",
        "会計法（出納法）：1回の追加に3単位の料金を課す。1単位は自分の書き込みに使い、残りの2単位を貯金しておいて、後のコピーの支払いに充てる。",
    ),
    (
        "num2",
        "ポテンシャル法：Φ = 2 × (要素数) − (容量) と定め、実際の手間にポテンシャルの変化を足したものが毎回 3 以下になることを示す。",
    ),
    (
        "p",
        "なお、2倍ではなく一定数ずつ（たとえば 100 個ずつ）容量を増やすと、n 回の追加の手間は Θ(n²) になり、ならしても O(1) にはならない。CPython の list は2倍ではなく、約 1.125 倍ずつ大きくするが、定数倍で増やしている点が大事で、ならし O(1) であることは変わらない。",
    ),
    ("h1", "5. 課題2・課題3"),
    (
        "p",
        "課題2「ヒープによる優先度付きキュー」：最小ヒープを自分で実装し、Hanabi Judge の問題 A2-HEAP に提出する。heapq モジュールや queue.PriorityQueue は使ってはいけない（使った提出は0点）。締切は6月2日（火）23:59。",
    ),
    ("tracked", None),
    (
        "p",
        "課題3では C の標準ライブラリ以外は使えない。メモリ制限が 64 MB と他の課題より厳しいので、連鎖法でノードを1つずつ malloc すると制限を超えやすい。",
    ),
]
BOX_LINES = [
    "ポイント",
    "ヒープは「半分だけ整列」した構造。根が最小であることしか保証しないので、ヒープの中から任意の値を探すには O(n) かかる。",
    "中間小テスト（6月10日）では、配列で与えたヒープへの insert と extract-min を手で実行する問題を必ず出す。",
]
TRACKED_BEFORE = "課題3「オープンアドレス法のハッシュ表」：線形探査のハッシュ表を C で実装し、Hanabi Judge の問題 A3-HASH に提出する。操作は insert・find・erase の3種類で、最大 10^6 回の操作を 2 秒以内に処理すること。締切は"
TRACKED_DELETED = "6月2日（火）"
TRACKED_INSERTED = "6月9日（火）"
TRACKED_AFTER = "23:59。"

M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'


def _mr(text: str, sty: str | None = None) -> str:
    style = f'<m:rPr><m:sty m:val="{sty}"/></m:rPr>' if sty else ""
    return f'<m:r>{style}<w:rPr><w:rFonts w:ascii="Cambria Math" w:hAnsi="Cambria Math"/></w:rPr><m:t xml:space="preserve">{text}</m:t></m:r>'


def _frac(num: str, den: str) -> str:
    return f"<m:f><m:num>{num}</m:num><m:den>{den}</m:den></m:f>"


def _sup(base: str, exp: str) -> str:
    return f"<m:sSup><m:e>{base}</m:e><m:sup>{exp}</m:sup></m:sSup>"


OMML = {
    # sum_{h=0}^{floor(log2 n)} ceil(n / 2^{h+1}) * O(h) = O(n * sum h / 2^h) = O(n)
    "buildheap": (
        '<m:nary><m:naryPr><m:chr m:val="∑"/><m:limLoc m:val="undOvr"/></m:naryPr>'
        f"<m:sub>{_mr('h=0')}</m:sub><m:sup>{_mr('⌊log₂ n⌋')}</m:sup>"
        f"<m:e>{_mr('⌈')}{_frac(_mr('n'), _sup(_mr('2'), _mr('h+1')))}{_mr('⌉')}{_mr('⋅O(h)=O(n)')}</m:e></m:nary>"
    ),
    # E[probes] <= 1 / (1 - alpha)
    "probe": f"{_mr('E[探査回数]', sty='p')}{_mr('≤')}{_frac(_mr('1'), _mr('1−α'))}",
}


def _omml_paragraph(document, key: str) -> None:
    paragraph = document.add_paragraph()
    paragraph._p.append(
        parse_xml(f"<m:oMathPara {M} {nsdecls('w')}><m:oMath>{OMML[key]}</m:oMath></m:oMathPara>")
    )


def _text_box_xml(lines: list[str]) -> str:
    """A floating text box as Word 2010+ saves it: wps shape + VML fallback, same text twice."""
    paras = "".join(
        f'<w:p><w:r><w:rPr>{"<w:b/>" if n == 0 else ""}<w:sz w:val="20"/></w:rPr><w:t>{line}</w:t></w:r></w:p>'
        for n, line in enumerate(lines)
    )
    ns = (
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
        'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
        'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
        'xmlns:v="urn:schemas-microsoft-com:vml" '
        'xmlns:wp14="http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing" '
        f"{nsdecls('w')}"
    )
    return (
        f'<w:r {ns}><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        '<wp:anchor distT="45720" distB="45720" distL="114300" distR="114300" simplePos="0" relativeHeight="251659264" '
        'behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
        '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:align>right</wp:align></wp:positionH>'
        '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>'
        '<wp:extent cx="2520000" cy="1620000"/><wp:effectExtent l="0" t="0" r="0" b="0"/>'
        '<wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="テキスト ボックス 1"/><wp:cNvGraphicFramePr/>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        '<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2520000" cy="1620000"/></a:xfrm>'
        '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FFF2CC"/></a:solidFill>'
        '<a:ln w="9525"><a:solidFill><a:srgbClr val="BF9000"/></a:solidFill></a:ln></wps:spPr>'
        f"<wps:txbx><w:txbxContent>{paras}</w:txbxContent></wps:txbx>"
        '<wps:bodyPr rot="0" vert="horz" wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" anchor="t"/>'
        "</wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
        '<mc:Fallback><w:pict><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" '
        'xmlns:o="urn:schemas-microsoft-com:office:office" path="m,l,21600r21600,l21600,xe"/>'
        '<v:shape id="テキスト ボックス 1" o:spid="_x0000_s1026" type="#_x0000_t202" '
        'xmlns:o="urn:schemas-microsoft-com:office:office" '
        'style="position:absolute;margin-left:0;margin-top:0;width:198.45pt;height:127.55pt;z-index:251659264;mso-position-horizontal:right;mso-position-horizontal-relative:margin" '
        'fillcolor="#fff2cc" strokecolor="#bf9000">'
        f"<v:textbox><w:txbxContent>{paras}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r>"
    )


def _tracked_paragraph(document) -> None:
    paragraph = document.add_paragraph(TRACKED_BEFORE)
    when = "2026-05-25T10:12:00Z"
    paragraph._p.append(
        parse_xml(
            f'<w:del {nsdecls("w")} w:id="101" w:author="森下 千尋" w:date="{when}"><w:r><w:delText>{TRACKED_DELETED}</w:delText></w:r></w:del>'
        )
    )
    paragraph._p.append(
        parse_xml(
            f'<w:ins {nsdecls("w")} w:id="102" w:author="森下 千尋" w:date="{when}"><w:r><w:t>{TRACKED_INSERTED}</w:t></w:r></w:ins>'
        )
    )
    paragraph.add_run(TRACKED_AFTER)


def _numbered_list(document, abstract_id: int, num_id: int) -> int:
    """A decimal list "1." "2." ... restarted for the second numbered block."""
    numbering = document.part.numbering_part.element
    numbering.insert(
        0,
        parse_xml(
            f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abstract_id}"><w:multiLevelType w:val="hybridMultilevel"/>'
            '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="(%1)"/>'
            '<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
        ),
    )
    numbering.append(
        parse_xml(
            f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>'
        )
    )
    return num_id


def _field(paragraph, instruction: str, shown: str) -> None:
    for xml in (
        '<w:r {ns}><w:fldChar w:fldCharType="begin"/></w:r>',
        f'<w:r {{ns}}><w:instrText xml:space="preserve"> {instruction} </w:instrText></w:r>',
        '<w:r {ns}><w:fldChar w:fldCharType="separate"/></w:r>',
        f"<w:r {{ns}}><w:t>{shown}</w:t></w:r>",
        '<w:r {ns}><w:fldChar w:fldCharType="end"/></w:r>',
    ):
        paragraph._p.append(parse_xml(xml.format(ns=nsdecls("w"))))


def build_handout(path: Path) -> None:
    document = docx.Document()
    normal = document.styles["Normal"]
    normal.font.name, normal.font.size = "Yu Mincho", Pt(10.5)
    normal.element.rPr.rFonts.set(qn("w:eastAsia"), "游明朝")
    code = document.styles.add_style("Code", WD_STYLE_TYPE.PARAGRAPH)
    code.base_style = normal
    code.font.name, code.font.size = "Consolas", Pt(9)
    code.paragraph_format.space_after = Pt(0)
    code.element.get_or_add_pPr().append(
        parse_xml(f'<w:shd {nsdecls("w")} w:val="clear" w:color="auto" w:fill="F2F2F2"/>')
    )
    amortised_list = _numbered_list(document, 91, 21)

    section = document.sections[0]
    header = section.header.paragraphs[0]
    header.text = "CS-2310 アルゴリズムとデータ構造　2026年度前期　配布資料"
    footer = section.footer.paragraphs[0]
    footer.add_run("桐生 真澄　―　")
    _field(footer, "PAGE", "1")

    for kind, content in HANDOUT:
        if kind == "title":
            document.add_paragraph(content, style="Title")
        elif kind == "meta":
            document.add_paragraph(content, style="Subtitle")
        elif kind == "h1":
            document.add_heading(content, level=1)
        elif kind == "h2":
            document.add_heading(content, level=2)
        elif kind == "bullet":
            document.add_paragraph(content, style="List Bullet")
        elif kind == "num":
            document.add_paragraph(content, style="List Number")
        elif kind == "num2":
            paragraph = document.add_paragraph(content, style="List Paragraph")
            paragraph._p.get_or_add_pPr().append(
                parse_xml(
                    f'<w:numPr {nsdecls("w")}><w:ilvl w:val="0"/><w:numId w:val="{amortised_list}"/></w:numPr>'
                )
            )
        elif kind == "code":
            for line in content:
                document.add_paragraph(line, style="Code")
        elif kind == "math":
            _omml_paragraph(document, content)
        elif kind == "box":
            anchor = document.add_paragraph()
            anchor._p.append(parse_xml(_text_box_xml(BOX_LINES)))
        elif kind == "tracked":
            _tracked_paragraph(document)
        elif kind == "table":
            rows = content
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = document.styles["Table Grid"]
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    cell = table.cell(r, c)
                    cell.text = ""
                    run = cell.paragraphs[0].add_run(value)
                    run.font.size, run.font.bold = Pt(9), (r == 0) or None
        else:
            document.add_paragraph(content)
    props = document.core_properties
    props.title, props.author, props.last_modified_by = HANDOUT_TITLE, "桐生 真澄", "森下 千尋"
    props.created = dt.datetime(2026, 5, 18, 21, 40, 0)
    props.modified = dt.datetime(2026, 5, 25, 10, 12, 0)
    props.revision = 7
    _save_normalised(document.save, path)


# =====================================================================================
# 04: PowerPoint, Lectures 9-10 (graphs), English, placeholders + notes
# =====================================================================================
DECK_TITLE = "Graphs I & II"
# A slide: title, body [(level, text)], table, code, group (BFS layers), notes, hidden
SLIDES: list[dict] = [
    {
        "layout": "title",
        "title": "Graphs I & II: Representations, Search and Ordering",
        "subtitle": "CS-2310 Algorithms and Data Structures · Lectures 9–10\nDr Daniel Okafor · 17 and 24 June 2026 · Room K-302",
        "notes": "Lectures 9 to 12 are the English-taught block of CS-2310. Slides go up on Tsubame LMS the evening before each lecture. Students may ask questions and write the exam answers for these four lectures in Japanese or English.",
    },
    {
        "title": "Why graphs?",
        "body": [
            (0, "A graph G = (V, E) is a set of vertices and a set of edges between them"),
            (0, "Many course problems are graphs in disguise"),
            (
                1,
                "The campus map in Assignment 4: buildings and path junctions are vertices, footpaths are edges",
            ),
            (1, "Course prerequisites: PG-1110 → CS-2310 → CS-3320"),
            (1, "Web pages and links, road networks, friendships"),
            (0, "We write n = |V| and m = |E| throughout these slides"),
        ],
        "notes": "Ask the room which other prerequisite chains they know. Last year somebody suggested ramen shop queues, which is a nice example of a DAG of waiting dependencies.",
    },
    {
        "title": "Vocabulary",
        "body": [
            (0, "Directed vs undirected; weighted vs unweighted"),
            (
                0,
                "Degree of a vertex: number of incident edges (in-degree / out-degree if directed)",
            ),
            (0, "Handshake lemma: the sum of all degrees in an undirected graph is 2m"),
            (0, "Path: a sequence of vertices joined by edges; simple if no vertex repeats"),
            (0, "Cycle: a path that returns to its start"),
            (0, "DAG: a directed graph with no directed cycle"),
            (0, "Sparse: m is close to n; dense: m is close to n²"),
        ],
    },
    {
        "title": "Two ways to store a graph",
        "table": [
            ["", "Adjacency matrix", "Adjacency list"],
            ["Memory", "Θ(n²)", "Θ(n + m)"],
            ["Is (u, v) an edge?", "O(1)", "O(deg(u))"],
            ["Visit all neighbours of u", "Θ(n)", "Θ(deg(u))"],
            [
                "Best for",
                "dense graphs, n up to a few thousand",
                "sparse graphs (most real graphs)",
            ],
        ],
        "notes": "The campus graph in Assignment 4 has 212 vertices and 583 edges, so an adjacency matrix would be mostly zeros. Use an adjacency list: in Python a list of lists of (neighbour, weight) pairs.",
    },
    {
        "title": "Breadth-first search (BFS)",
        "body": [
            (
                0,
                "Explore the graph in layers: first all vertices at distance 1 from s, then distance 2, …",
            ),
            (0, "Uses a FIFO queue (collections.deque in Python, never list.pop(0))"),
            (0, "dist[v] = number of edges on a shortest path from s to v"),
            (1, "Correct only for unweighted graphs (or all weights equal)"),
            (
                0,
                "Each vertex is enqueued at most once and each edge looked at at most twice: O(n + m)",
            ),
        ],
        "notes": "Common exam mistake: marking a vertex as visited when it is taken out of the queue instead of when it is put in. The result is still correct, but the same vertex can sit in the queue many times, so the queue can grow to O(m) entries.",
    },
    {
        "title": "BFS in Python",
        "code": [
            "from collections import deque",
            "",
            "def bfs(adj, s):",
            "    dist = [-1] * len(adj)",
            "    dist[s] = 0",
            "    queue = deque([s])",
            "    while queue:",
            "        u = queue.popleft()",
            "        for v in adj[u]:",
            "            if dist[v] == -1:      # not seen yet",
            "                dist[v] = dist[u] + 1",
            "                queue.append(v)",
            "    return dist",
        ],
        "notes": "list.pop(0) is O(n) because every remaining element shifts left; with 10^5 vertices that turns BFS into a quadratic algorithm. deque.popleft() is O(1).",
    },
    {
        "title": "BFS layers on a piece of the campus map",
        "group": [
            "Layer 0: Main Gate",
            "Layer 1: Library, Cafeteria",
            "Layer 2: K-Building, Gymnasium",
            "Layer 3: Lab Annex",
        ],
        "notes": "Draw the edges on the board: Main Gate–Library, Main Gate–Cafeteria, Library–K-Building, Cafeteria–Gymnasium, K-Building–Lab Annex. The Lab Annex is three edges from the gate.",
    },
    {
        "title": "Depth-first search (DFS)",
        "body": [
            (0, "Go as deep as possible, then back up (recursion or an explicit stack)"),
            (0, "Record discovery time d[v] and finishing time f[v]"),
            (0, "Edge types in a directed graph: tree, back, forward, cross"),
            (0, "A directed graph has a cycle if and only if DFS finds a back edge"),
            (0, "Running time O(n + m), like BFS"),
            (0, "Python's default recursion limit is 1000"),
            (1, "For deep graphs write DFS with an explicit stack"),
        ],
        "notes": "On Hanabi Judge, a recursive DFS in Python crashes at a depth of roughly ten thousand even after sys.setrecursionlimit, because the C stack of the judge process is only 8 MB. The iterative version has no such problem.",
    },
    {
        "title": "Topological sort",
        "body": [
            (0, "Order the vertices of a DAG so that every edge goes from left to right"),
            (0, "Exists if and only if the graph has no directed cycle"),
            (0, "Kahn's algorithm: repeatedly remove a vertex of in-degree 0"),
            (1, "If fewer than n vertices get removed, the graph has a cycle"),
            (0, "DFS method: list the vertices in decreasing order of finishing time f[v]"),
            (0, "Both run in O(n + m); the order is usually not unique"),
        ],
        "notes": "In the final exam you will be asked for one valid topological order. Any valid order gets full marks, so do not waste time looking for the 'official' one.",
    },
    {
        "title": "Kahn's algorithm",
        "code": [
            "def topo_order(adj):",
            "    n = len(adj)",
            "    indeg = [0] * n",
            "    for u in range(n):",
            "        for v in adj[u]:",
            "            indeg[v] += 1",
            "    ready = deque(u for u in range(n) if indeg[u] == 0)",
            "    order = []",
            "    while ready:",
            "        u = ready.popleft()",
            "        order.append(u)",
            "        for v in adj[u]:",
            "            indeg[v] -= 1",
            "            if indeg[v] == 0:",
            "                ready.append(v)",
            "    return order if len(order) == n else None   # None: cycle",
        ],
    },
    {
        "title": "Strongly connected components (SCC)",
        "body": [
            (0, "u and v are strongly connected if each can reach the other"),
            (
                0,
                "Kosaraju: DFS on G to get finishing times, then DFS on the reversed graph in decreasing f[v]",
            ),
            (0, "Tarjan: a single DFS with low-link values and a stack"),
            (0, "Both are O(n + m)"),
            (0, "Shrinking every SCC to one vertex gives the condensation, which is always a DAG"),
        ],
        "notes": "We only prove Kosaraju in class. Tarjan is in the reading for anyone who wants it, and it will not be on the exam.",
    },
    {
        "title": "Assignment 4 (draft – old dates)",
        "hidden": True,
        "body": [
            (0, "Campus Navigator: shortest walking times on the campus graph"),
            (0, "Due 7 July 2026, 23:59 on Hanabi Judge"),
            (0, "Python only"),
        ],
        "notes": "Draft from April. Dates and rules changed, see the Lecture 11 slides.",
    },
    {
        "title": "Summary and what comes next",
        "body": [
            (0, "Adjacency lists for sparse graphs; BFS and DFS both take O(n + m)"),
            (0, "BFS gives shortest paths when all edges count the same"),
            (0, "Topological order exists exactly for DAGs"),
            (0, "Lecture 11 (1 July): weighted shortest paths, Dijkstra and Bellman–Ford"),
            (0, "Office hours: Tuesdays 16:30–17:30, Room K-518"),
        ],
        "notes": "Remind them that the TA Lucas Ferreira runs the question corner on Monday, period 5, in Computer Room B, and that he is happy to answer in English or Portuguese.",
    },
]


def _hide(slide) -> None:
    slide._element.set("show", "0")


def build_deck(path: Path) -> None:
    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(13.333), Inches(7.5)
    title_layout, content_layout, title_only = (deck.slide_layouts[i] for i in (0, 1, 5))
    for spec in SLIDES:
        if spec.get("layout") == "title":
            slide = deck.slides.add_slide(title_layout)
            slide.shapes.title.text = spec["title"]
            slide.placeholders[1].text = spec["subtitle"]
        elif "body" in spec:
            slide = deck.slides.add_slide(content_layout)
            slide.shapes.title.text = spec["title"]
            body = slide.placeholders[1]
            body.left, body.top, body.width, body.height = (
                Inches(0.7),
                Inches(1.6),
                Inches(11.9),
                Inches(5.4),
            )
            frame = body.text_frame
            for n, (level, text) in enumerate(spec["body"]):
                paragraph = frame.paragraphs[0] if n == 0 else frame.add_paragraph()
                paragraph.text, paragraph.level = text, level
                paragraph.font.size = PptPt(24 if level == 0 else 20)
        else:
            slide = deck.slides.add_slide(title_only)
            slide.shapes.title.text = spec["title"]
        slide.shapes.title.left, slide.shapes.title.width = Inches(0.7), Inches(11.9)
        if "table" in spec:
            rows = spec["table"]
            frame = slide.shapes.add_table(
                len(rows),
                len(rows[0]),
                Inches(0.7),
                Inches(1.7),
                Inches(11.9),
                Inches(0.75) * len(rows),
            )
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    cell = frame.table.cell(r, c)
                    cell.text = value
                    cell.text_frame.paragraphs[0].font.size = PptPt(18)
        if "code" in spec:
            box = slide.shapes.add_textbox(Inches(0.9), Inches(1.5), Inches(11.5), Inches(5.6))
            frame = box.text_frame
            for n, line in enumerate(spec["code"]):
                paragraph = frame.paragraphs[0] if n == 0 else frame.add_paragraph()
                paragraph.text = line
                paragraph.font.name, paragraph.font.size = "Courier New", PptPt(15)
        if "group" in spec:
            group = slide.shapes.add_group_shape()
            for n, label in enumerate(spec["group"]):
                box = group.shapes.add_textbox(
                    Inches(1.0 + 2.9 * n), Inches(2.4 + 0.9 * n), Inches(2.7), Inches(0.8)
                )
                box.text_frame.text = label
                box.text_frame.paragraphs[0].font.size = PptPt(18)
                box.fill.solid()
        if "notes" in spec:
            slide.notes_slide.notes_text_frame.text = spec["notes"]
        if spec.get("hidden"):
            _hide(slide)
    props = deck.core_properties
    props.title, props.author, props.last_modified_by = DECK_TITLE, "Daniel Okafor", "Daniel Okafor"
    props.created = dt.datetime(2026, 4, 20, 17, 0, 0)
    props.modified = dt.datetime(2026, 6, 16, 19, 30, 0)
    props.revision = 12
    _save_normalised(deck.save, path)


# =====================================================================================
# 08: workbook - grading weights, assignment list, Lab 1 benchmark, hidden TA sheet
# =====================================================================================
GRADING_HEADER = ["評価項目", "配点", "割合", "評価の方法", "備考"]
GRADING_ROWS = [
    ["課題1 ソートの実装と計測", 8, "Judge 6点＋レポート2点", "Python のみ"],
    ["課題2 ヒープによる優先度付きキュー", 8, "Judge 6点＋レポート2点", "heapq 使用禁止"],
    ["課題3 オープンアドレス法のハッシュ表", 8, "Judge 6点＋レポート2点", "C のみ"],
    ["課題4 Campus Navigator", 8, "Judge 6点＋レポート2点", "英語の課題文。レポートは日本語でも可"],
    ["課題5 編集距離", 8, "Judge 6点＋レポート2点", ""],
    ["中間小テスト", 10, "記述4問・30分・持ち込み不可", "6月10日 第8回の冒頭"],
    ["期末試験", 50, "90分・手書きメモ A4 1枚まで", "20点未満は総合点にかかわらず不合格"],
]
ASSIGN_HEADER = [
    "ID",
    "課題名",
    "出題日",
    "締切日",
    "締切時刻",
    "Judge 問題ID",
    "言語",
    "制限（時間／メモリ）",
    "担当TA",
]
ASSIGN_ROWS = [
    [
        "課題1",
        "ソートの実装と計測",
        dt.datetime(2026, 4, 22),
        dt.datetime(2026, 5, 12),
        "23:59",
        "A1-SORT",
        "Python",
        "2秒／256MB",
        "Lucas Ferreira",
    ],
    [
        "課題2",
        "ヒープによる優先度付きキュー",
        dt.datetime(2026, 5, 20),
        dt.datetime(2026, 6, 2),
        "23:59",
        "A2-HEAP",
        "Python または C",
        "2秒／256MB",
        "森下 千尋",
    ],
    [
        "課題3",
        "オープンアドレス法のハッシュ表",
        dt.datetime(2026, 5, 27),
        dt.datetime(2026, 6, 9),
        "23:59",
        "A3-HASH",
        "C",
        "2秒／64MB",
        "森下 千尋",
    ],
    [
        "課題4",
        "Campus Navigator（英語）",
        dt.datetime(2026, 7, 1),
        dt.datetime(2026, 7, 14),
        "23:59",
        "A4-NAV",
        "Python または C",
        "2秒／256MB",
        "Lucas Ferreira",
    ],
    [
        "課題5",
        "編集距離",
        dt.datetime(2026, 7, 15),
        dt.datetime(2026, 7, 28),
        "23:59",
        "A5-EDIT",
        "Python または C",
        "3秒／256MB",
        "森下 千尋",
    ],
]
BENCH_HEADER = [
    "Algorithm",
    "n = 1,000",
    "n = 10,000",
    "n = 100,000",
    "ratio 100k / 10k",
    "Comment",
]
BENCH_ROWS = [
    [
        "insertion sort",
        31.5,
        3240.0,
        None,
        None,
        "not measured at 100,000 (would take about 5 minutes)",
    ],
    ["merge sort", 2.1, 25.8, 318.0, "ratio", ""],
    ["quicksort, random pivot", 1.4, 17.2, 221.0, "ratio", "fastest of the three we implemented"],
    [
        "quicksort, last-element pivot, sorted input",
        58.0,
        "RecursionError",
        "RecursionError",
        None,
        "worst case: recursion depth n",
    ],
    ["heapq (push all, pop all)", 0.45, 5.6, 74.9, "ratio", "not required; for comparison"],
    ["sorted() (Timsort)", 0.07, 0.95, 13.1, "ratio", "built-in, written in C"],
]
BENCH_NOTES = [
    "Class medians of the Lab 1 notebooks, in milliseconds (each student's value is already the median of 5 runs).",
    "58 of the 61 submitted notebooks are included; 3 were left out because their sorts failed the A1-SORT tests.",
    "All timings on Kaede Hub (node kaede-03, Python 3.12.4) with random integers in [0, 10^9) and seed 2310.",
    "Compiled by Lucas Ferreira, 19 May 2026.",
]
TA_MEMO = [
    ["TA 用メモ（学生には見せない）"],
    ["課題1 の締切延長を認めた学生：2名（診断書あり）"],
    ["レポート2点の内訳：計測表 1点、考察 1点"],
    ["A3-HASH のテストケースは 18 個（うち 4 個が削除を含む）"],
]


def build_workbook(path: Path) -> None:
    workbook = openpyxl.Workbook()
    bold = Font(bold=True)
    sheet = workbook.active
    sheet.title = "成績評価"
    sheet.append(GRADING_HEADER)
    for cell in sheet[1]:
        cell.font, cell.fill = bold, PatternFill("solid", fgColor="DDEBF7")
    total_row = len(GRADING_ROWS) + 2
    for r, (item, points, method, remark) in enumerate(GRADING_ROWS, 2):
        sheet.append([item, points, f"=B{r}/$B${total_row}", method, remark or None])
        sheet.cell(row=r, column=3).number_format = "0%"
    sheet.append(
        ["合計", f"=SUM(B2:B{total_row - 1})", f"=SUM(C2:C{total_row - 1})", None, "60点以上で合格"]
    )
    sheet.cell(row=total_row, column=3).number_format = "0%"
    for cell in sheet[total_row]:
        cell.font = bold
    sheet["A7"].comment = Comment(
        "森下: 小テストの追試の扱いは FAQ を参照（6/3 に LMS で告知済み）", "森下 千尋"
    )
    for column, width in zip("ABCDE", (34, 6, 7, 30, 40), strict=True):
        sheet.column_dimensions[column].width = width

    assign = workbook.create_sheet("課題一覧")
    assign.append(ASSIGN_HEADER)
    for cell in assign[1]:
        cell.font, cell.fill = bold, PatternFill("solid", fgColor="FCE4D6")
    for row in ASSIGN_ROWS:
        assign.append(row)
    for row in assign.iter_rows(min_row=2, min_col=3, max_col=4):
        for cell in row:
            cell.number_format = 'm"月"d"日"(aaa)'
    for column, width in zip("ABCDEFGHI", (7, 30, 11, 11, 8, 12, 16, 14, 14), strict=True):
        assign.column_dimensions[column].width = width

    bench = workbook.create_sheet("Lab1 benchmark")
    bench.append(BENCH_HEADER)
    for cell in bench[1]:
        cell.font, cell.fill = bold, PatternFill("solid", fgColor="E2EFDA")
    for r, row in enumerate(BENCH_ROWS, 2):
        values = list(row)
        if values[4] == "ratio":
            values[4] = f"=D{r}/C{r}"
        bench.append(values)
        for c in (2, 3, 4):
            if isinstance(bench.cell(row=r, column=c).value, float):
                bench.cell(row=r, column=c).number_format = '#,##0.0 "ms"'
            else:
                bench.cell(row=r, column=c).alignment = Alignment(horizontal="right")
        bench.cell(row=r, column=5).number_format = "0.0"
    bench.append([])
    for line in BENCH_NOTES:
        bench.append([line])
    for column, width in zip("ABCDEF", (40, 12, 14, 14, 16, 52), strict=True):
        bench.column_dimensions[column].width = width

    memo = workbook.create_sheet("TA_memo")
    for row in TA_MEMO:
        memo.append(row)
    memo.sheet_state = "hidden"

    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy = (
        "CS-2310 成績評価と課題一覧",
        "桐生 真澄",
        "Lucas Ferreira",
    )
    props.created = dt.datetime(2026, 4, 6, 10, 0, 0)
    props.modified = dt.datetime(2026, 5, 19, 18, 45, 0)

    def save(target) -> None:
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            ExcelWriter(workbook, archive).save()

    _save_normalised(save, path, _cache_formula_values)


def _formula_values() -> dict[tuple[str, str], str]:
    """What Excel stores next to each formula after a recalculation (openpyxl stores none)."""
    values: dict[tuple[str, str], str] = {}
    total = sum(points for _, points, _, _ in GRADING_ROWS)
    for r, (_, points, _, _) in enumerate(GRADING_ROWS, 2):
        values[("sheet1", f"C{r}")] = repr(points / total)
    total_row = len(GRADING_ROWS) + 2
    values[("sheet1", f"B{total_row}")] = str(total)
    values[("sheet1", f"C{total_row}")] = "1"
    for r, row in enumerate(BENCH_ROWS, 2):
        if row[4] == "ratio":
            values[("sheet3", f"E{r}")] = repr(row[3] / row[2])
    return values


def _cache_formula_values(name: str, data: bytes) -> bytes:
    match = re.fullmatch(r"xl/worksheets/(sheet\d+)\.xml", name)
    if not match:
        return data
    values = _formula_values()

    def cached(m: re.Match) -> str:
        ref, style, formula = m.group(1), m.group(2), m.group(3)
        return f'<c r="{ref}"{style}><f>{formula}</f><v>{values[(match.group(1), ref)]}</v></c>'

    pattern = r'<c r="([A-Z]+\d+)"((?: s="\d+")?)><f>([^<]*)</f><v></v></c>'
    return re.sub(pattern, cached, data.decode("utf-8")).encode("utf-8")


# =====================================================================================


def _save_normalised(save, path: Path, rewrite=None) -> None:
    """Save through ``save(file)``, then rewrite the ZIP with fixed entry timestamps."""
    buffer = io.BytesIO()
    save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            entry = zipfile.ZipInfo(item.filename, date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            data = source.read(item.filename)
            if rewrite is not None:
                data = rewrite(item.filename, data)
            out.writestr(entry, data)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    build_handout(OUT / "02_heaps_hashing_ja.docx")
    build_deck(OUT / "04_graphs_en.pptx")
    build_workbook(OUT / "08_grading_ja.xlsx")
    for name in ("02_heaps_hashing_ja.docx", "04_graphs_en.pptx", "08_grading_ja.xlsx"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
