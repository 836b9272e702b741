"""What shape of answer a question asks for: a value, a formula, code or a setting, a list,
a reason, a comparison, a definition, a yes or no, a date, the weekday a class meets, an
e-mail address, where to find a thing, a measure of one kind (how long, how many times), a
language.

The shape decides which unit of a passage answers (the formula display, not the
sentence that mentions the formula; the list items, not the sentence that introduces
them) and how much of it the answer quotes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from services.reasoning.extractive.text import asks_for_number

_FORMULA = re.compile(
    r"式|公式|どう計算|どのように計算|どうやって計算|どう求め|求め方|計算方法|定義式"
    r"|\bformulas?\b|\bequations?\b|\bhow (?:is|are|do (?:you|we|i)) .*\b(?:comput|calculat)"
    r"|\b(?:computed|calculated)\b",
    re.I,
)
_CODE = re.compile(
    r"SQL|コード|クエリ|文で|どう書|書けば|書き方|コマンド|設定|パラメータ|オプション|構文|記述"
    r"|\b(?:code|query|queries|statement|command|syntax|config(?:uration)?|settings?|"
    r"parameters?|options?|flags?|snippet|write|written)\b",
    re.I,
)
_LISTING = re.compile(
    r"種類|挙げ|全部|すべて|全て|一通り|ひととおり|一覧|手順|順番|ステップ|観点|ポイント|要素|項目|条件"
    r"|どんな(?:もの|点|こと)"
    r"|それぞれ|\beach\b|\brespectively\b"
    r"|何があ|どれ(?:が|と)|\blist\b|\bsteps?\b|\bwhich (?:aspects|steps|types|kinds|ones)\b"
    r"|\bwhat (?:are|were) the\b|\bname (?:the|all)\b|\benumerate\b|\bkinds? of\b|\btypes? of\b",
    re.I,
)
_REASON = re.compile(
    r"なぜ|何故|どうして|なんで(?!す|しょ)|理由|決め手|何のため|目的(?!関数)"
    r"|\bwhy\b|\breasons?\b|\bwhat for\b|\bpurpose\b",
    re.I,
)
_COMPARE = re.compile(
    r"違い|違う|比較|比べ|異な|どちら"
    r"|\bvs\.?\b|\bversus\b|\bdiffer|\bcompar|\bbetter\b|\bwhich is\b",
    re.I,
)
_DEFINITION = re.compile(
    r"とは|って何|ってなに|\bwhat (?:is|are) (?:an? |the )?\w+\??$|\bdefin", re.I
)
_YES_NO = re.compile(
    r"[てで]も(?:いい|良い|よい|大丈夫)|できますか|できる[？?]|可能|ありますか"
    r"|\b(?:can|may|should) (?:i|we)\b"
    r"|\bis (?:it|there)\b|\bare .* allowed\b",
    re.I,
)

# A question that asks for a calendar date by its form (何月何日, "on what date"), and the
# ways notes write one: 8月4日, 2027-02-02, 2/2, 12/31/2026, 4 August, Aug. 4. いつ and "when"
# are left out: they are answered by a weekday, a time, a year or an era as well.
_DATE_ASKED = re.compile(r"何月|\bwhat date\b|\bwhich dates?\b|\bon what day\b", re.I)
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_DATE = re.compile(
    rf"\d{{1,2}}\s*月|\d{{4}}-\d{{1,2}}-\d{{1,2}}|(?<![\d/])\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?(?![\d/])"
    rf"|\b{_MONTHS}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{_MONTHS}(?![a-z])",
    re.I,
)

# A question about last year (去年の課題3の最高点, "last year's pass rate"), and the ways
# notes say that what they give is of an earlier year: the course's own materials speak of
# this year unless they say otherwise.
_LAST_YEAR_ASKED = re.compile(r"去年|昨年|前年|\blast year\b|\bprevious year\b", re.I)
_LAST_YEAR = re.compile(
    r"去年|昨年|前年|過去|\blast year|\bprevious years?\b|\ba year ago\b|\bpast years?\b"
    r"|(?:19|20)\d{2}\s*年度?",
    re.I,
)

# A question for a version (Redis のバージョンは？, "which Python version"), and the ways
# notes give one: a dotted number (3.12, v2.0.5), a name or バージョン before its number
# (Redis 7, Kafka 3.7), a numbered edition (第3版). The word "version" alone is none (a
# schema's version column, a heapq version of an algorithm).
_VERSION_ASKED = re.compile(
    r"(?:どの|何の)バージョン|のバージョン(?:は|と|って)|最低バージョン|バージョン番号"
    r"|\b(?:which|what) (?:[\w.+-]+ )?versions?\b",
    re.I,
)
_VERSION = re.compile(
    r"\d+\.\d+|\bv\d+|(?:[A-Za-z][\w+#-]*|バージョン|ver\.?)\s*\d+\b|第?\s*\d+\s*版",
    re.I,
)

# A question that asks for a bound's value (ef_search の上限はいくつ, 最小何レプリカ, "what
# is the maximum file size"), and the ways notes state an upper or a lower one: a setting's
# value alone ("ef_search = 64") is what it is set to, not how far it may go, and a
# maximum ("最大8レプリカまで") is no minimum. Named things that hold the words (最小二乗,
# 最大公約数, "minimum spanning tree", min.insync.replicas) ask no bound.
_UPPER_WORD = (
    r"上限|最大(?!化|公約|流|の)|最多|最長|\b(?:maximum|max)\b(?![-.])|\bupper (?:limit|bound)"
)
_LOWER_WORD = (
    r"下限|最小(?!化|公倍|二乗|全域|位相|の)|最少|最短"
    r"|\b(?:minimum|min)\b(?![-.]| spanning| degree)|\blower (?:limit|bound)"
)
_VALUE_ASKED = (
    r"(?:{0}).*(?:いくつ|いくら|何|どれ|どの(?:くらい|程度))"
    r"|\bwhat(?:'s| is| are| was)? the (?:{0})"
    r"|\bhow (?:many|much|long|large|big|far)\b.*(?:{0})"
)
_UPPER_ASKED = re.compile(_VALUE_ASKED.format(_UPPER_WORD), re.I)
_LOWER_ASKED = re.compile(_VALUE_ASKED.format(_LOWER_WORD), re.I)
# either way: 制限, limit (not SQL's LIMIT, which caps a query's rows; nor is <=> a bound)
_EITHER_BOUND = r"制限|限度|限界|(?-i:(?!LIMIT))limit|\bbound"
_UPPER = re.compile(
    _EITHER_BOUND + r"|上限|最大|最多|最長|最高|まで|以下|以内|未満|超え|超過|上回"
    r"|\bmax|\bcap\b|\bcapped|\bceiling\b|\bup to\b|\bat most\b|\bno more than\b"
    r"|\bor (?:less|fewer)\b|\b(?:above|below|under)\b|\bexceed|≤|(?<!<)<=(?!>)",
    re.I,
)
_LOWER = re.compile(
    _EITHER_BOUND + r"|下限|最小|最少|最短|最低|以上|少なくとも|下回"
    r"|\bmin|\bat least\b|\bno (?:fewer|less) than\b|\bor more\b|\bfloor\b"
    r"|Ω|\\Omega|≥|(?<![<>])>=",
    re.I,
)

# A question about a make-up or a re-examination (追試はいつ, "when is the make-up exam"),
# and the words notes give it by: the regular exam's date or the grading table is no answer.
_MAKEUP = re.compile(r"追試|再試験|\bmake-?up (?:exam|test|quiz)|\bresit|\bre-?exam", re.I)

# A question about a test's questions one by one or by their number (何問, 大問ごとの配点,
# 各問題の配点, "each question"), and the ways notes count or number them (10問, 大問5題,
# 第2問, Q3, "4 questions"): the grading table's row for the exam gives neither.
_QUESTIONS_ASKED = re.compile(
    r"何問|大問|小問|各問|問題ごと|問ごと|\b(?:each|per|how many) (?:exam |test |quiz )?"
    r"(?:questions?|problems?)\b",
    re.I,
)
# ... of a test: レビューの各問題 are a review's issues
_TEST = re.compile(r"試験|テスト|クイズ|演習|課題|\b(?:exam|test|quiz|assignment)", re.I)
_QUESTIONS = re.compile(
    r"\d+\s*(?:問|題)|大問|小問|第\s*\d+\s*問|問\s*\d|\bQ\s*\d|\b\d+\s+(?:questions|problems)\b"
    r"|\b(?:question|problem)\s+\d",
    re.I,
)

# A question that asks which weekday or period a class meets (何曜日の何限, "what day"),
# and a weekday as notes give a class's: 水曜3限, Wednesdays. A date's weekday (11月25日（水）)
# names one lecture, not the class's slot.
_SLOT_ASKED = re.compile(r"何曜|何限|\bwhat day\b|\bwhich days?\b|\b(?:what|which) period\b", re.I)
_SLOT = re.compile(
    r"[月火水木金土日]曜|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b"
    r"|\bevery (?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.I,
)

# A question that asks for an e-mail address, and an address as notes write one (at times
# with " at " or [at] against harvesting).
_EMAIL_ASKED = re.compile(r"メールアドレス|メアド|\be-?mail address|\be-?mail\s*[?？]?$", re.I)
_EMAIL = re.compile(r"[\w.+-]+\s*(?:@|\[at\]|\(at\)|＠)\s*[\w-]+(?:\.[\w-]+)+", re.I)

# A question that asks where to find or get something (過去問はどこで手に入る？, "where can
# I find the slides?"), and what a passage that answers it says: where the thing is put
# (an LMS, a page, a folder, a link) or that it is handed out, posted, or not.
_SOURCE_ASKED = re.compile(
    r"どこ(?:で|に|から|か)+[^。？?]{0,6}?(?:手に入|入手|見られ|見れ|見つか|もらえ|書いて|載って|載せ"
    r"|掲載|公開|ダウンロード|取得|読め)"
    r"|\bwhere (?:can|do|could|should|would) (?:i|we|you|students) (?:find|get|see|download"
    r"|obtain|access|read)\b|\bwhere (?:is|are) .{0,40}\b(?:posted|published|listed|available"
    r"|uploaded)\b",
    re.I,
)
_SOURCE = re.compile(
    r"掲載|公開|配布|配付|配って|置い|置き|置く|アップ|載せ|載って|載っ|ダウンロード|入手|取得|閲覧"
    r"|記載|掲示|参照|https?://|www\.|\bURL\b|\bLMS\b|Moodle|Portal|ポータル|サイト|ページ|フォルダ"
    r"|リポジトリ|\b(?:posted|published|uploaded|available|download(?:ed)?|distributed|handed out"
    r"|listed|repository|site|page|folder|link)\b",
    re.I,
)


# A question that asks for a measure of one kind (an amount of money, a length of time, a
# count of times or of people, a share, a clock time, a size in bytes, how often), and the
# ways notes write one, in either language (an English question is often answered by
# Japanese notes): a number with its unit (90 s, 10日, 3万人), a table whose header gives the
# unit (処理時間 (ms) | 18), a label and its value (days: 30, 反復回数: 12), or a word (twice).
def _written(units: str, labels: str = "", words: str = "") -> re.Pattern[str]:
    number = r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|a|an|several)\s)"
    magnitude = r"(?:\s*(?:[万億千百]|hundred|thousand|million|billion))?"
    forms = [
        rf"{number}[\d.,]*{magnitude}\s*(?:{units})(?![A-Za-z])",
        rf"[(（\[]\s*(?:{units})\s*[)）\]].*\d",
        rf"(?<![A-Za-z])(?:{labels or units})\s*[:=：]\s*\d",
    ]
    return re.compile("|".join(forms + ([words] if words else [])), re.I | re.S)


def _asked(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


# A programming language's name as notes write it: case-sensitive, so that the verb "go"
# names none, and not inside a longer Latin token (C-style, R2). Japanese text runs into a
# name without a space (Pythonで実装), so ASCII bounds it; a lone C or R must stand apart,
# since one runs into Japanese as a label too (Cモード, Rチーム), but for C言語.
_PROGRAMMING_LANGUAGE = (
    r"(?<![A-Za-z0-9_.+#-])(?:Go|Golang|Python|Rust|Java|Kotlin|Scala|Swift|Ruby|PHP|Perl|Lua"
    r"|Julia|Haskell|OCaml|Elixir|Erlang|Clojure|Dart|Zig|Fortran|COBOL|MATLAB|TypeScript"
    r"|JavaScript|Node\.js|C\+\+|C#|SQL|Bash)(?![A-Za-z0-9_+#-])"
    r"|(?<![A-Za-z0-9_.+#-])[CR]言語|(?<![\w.+#-])[CR](?![\w+#-])"
)
# In the order they are tried: how often first, since 何分ごと asks a frequency and 何分 a
# length of time.
_MEASURES: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "frequency": (
        _asked(
            r"\bhow often\b|頻度|何(?:分|秒|時間|日)(?:ごと|おき|毎)"
            r"|(?:どの|どれ)(?:くらい|程度)の(?:間隔|頻度)"
        ),
        re.compile(
            r"ごと|毎|おき|間隔|\bevery\b|\bper\b|\beach\b|\b(?:hourly|daily|weekly|monthly|yearly)\b"
            r"|/\s*(?:s|sec|min|h|day)\b",
            re.I,
        ),
    ),
    "amount of money": (
        _asked(
            r"いくら(?!か|でも)|何円|\bprices?\b|\bwhat (?:does|do|did) .*\bcost\b"
            # the fee, fine or tuition a "what is" asks for ("is it fine to …" asks none)
            r"|\bwhat(?:'s| is| are| was| were)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}"
            r"(?:fees?|fines?|tuition)\b"
            r"|\bhow much (?:does|do|did|will|would|is|are)\b.*\bcosts?\b"
        ),
        _written(
            r"円|万円?|億円?|ドル|yen|dollars?|usd|jpy|eur",
            labels=r"料金|費用|価格|単価|costs?|prices?|fees?",
            words=r"[$¥€£]\s*\d|無料|\bfree\b",
        ),
    ),
    "length of time": (
        _asked(
            r"何(?:日|時間|週|か月|ヶ月|カ月|年間|分|秒)|(?:どの|どれ)(?:くらい|程度|だけ)の期間"
            r"|\bhow long\b|\bhow many (?:days|hours|minutes|seconds|weeks|months|years)\b"
        ),
        _written(
            r"ミリ秒|マイクロ秒|秒|分|時間|日|週間?|か月|ヶ月|カ月|箇月|月|年|ms|μs|s|sec|secs|min|mins"
            r"|h|hrs?|seconds?|minutes?|hours?|days?|weeks?|months?|years?",
            labels=r"日数|期間|時間|所要時間|seconds?|minutes?|hours?|days?|weeks?|duration|time"
            r"|latency|timeout|ttl",
            # an English date is no number with a unit, as 3月31日 is: "until 31 March"
            words=r"無期限|\bindefinite|永久|\bforever\b|\b(?:until|till)\b[^.;]{0,20}\d",
        ),
    ),
    "count of times": (
        _asked(r"何回(?!目)|何度(?!目)|\bhow many times\b"),
        _written(
            r"回|度|刊|times|requests?|calls?|リクエスト|iterations?|rounds?|ラウンド",
            labels=r"回数|反復回数|iterations?|rounds?|retries",
            # a count written as a rate has no unit: "3 per user per day"
            words=r"\bonce\b|\btwice\b|一度|一回|無制限|\bunlimited\b|\b\d+\s+per\b",
        ),
    ),
    "count of people": (
        _asked(
            r"何人|何名|\bhow many (?:people|students|persons|participants|users|members"
            r"|attendees|staff)\b"
        ),
        _written(
            r"人|名|people|persons|students|participants|users|members|attendees|inhabitants"
            r"|residents|citizens|deaths|workers|employees|soldiers|passengers|crew|staff",
            labels=r"人数|n|participants|students",
            words=r"無人|\bunmanned\b|\bno one\b|\bnobody\b",
        ),
    ),
    "share": (
        _asked(r"何\s*%|何パーセント|何割|\bwhat (?:percentage|percent|share|fraction)\b"),
        _written(
            r"%|パーセント|割|percent", labels=r"割合|比率|ratio|share", words=r"\d\.\d|\d/\d"
        ),
    ),
    "time of day": (
        _asked(
            r"何時(?!間)|\bat what (?:time|hour)\b"
            r"|\bwhat time (?:does|do|did|is|are|will|should|can)\b"
        ),
        _written(
            r"時(?!間)|am|pm|a\.m\.|p\.m\.", words=r"\d{1,2}:\d{2}|正午|\bnoon\b|\bmidnight\b"
        ),
    ),
    "size in bytes": (
        _asked(
            r"何\s*(?:[KMGT]i?B|バイト)"
            r"|\bhow (?:much|many) (?:memory|disk|storage|space|bytes)\b"
            # a memory or disk limit or amount: 容量 alone is a capacitor's or a bucket's too
            r"|(?:メモリ|ディスク|ストレージ)の?(?:上限|量|容量|サイズ|制限)"
            r"|\b(?:memory|disk|storage) (?:limit|size|capacity)\b|\bmaxmemory\b"
        ),
        # Kubernetes writes mebibytes 512Mi, and a CPU's share in millicores (500m): a lone
        # unit letter is a capital
        _written(
            r"[KMGT]i?B|[KMGT]i|(?-i:[KMGT])|バイト|bytes?",
            labels=r"サイズ|容量|size|memory|メモリ",
        ),
    ),
    # Not measures, but asked and given the same way: "which language is the gateway
    # written in" is answered by the unit that names one (a component table's "Go 1.23",
    # "Python 3.12 and C"), not by the sentence about the gateway. A programming language
    # asked is not given by "the documents are written in Japanese". 何語くらい counts words.
    "programming language": (
        _asked(
            r"(?:何|どの|どんな)の?(?:実装|開発|プログラミング)言語"
            r"|(?:実装|開発|プログラミング)言語(?:は|って|を)|言語で(?:実装|開発|作られ)"
            r"|\b(?:what|which) programming languages?\b"
            # asked of software, a language is a programming one ("the paper is written in")
            r"|(?:サービス|サーバ|アプリ|ツール|ライブラリ|コンポーネント|ゲートウェイ|ワーカー|スクリプト)"
            r"\S*(?:何|どの)の?言語"
            r"|\b(?:what|which) languages?\b.*\b(?:service|server|app|application|tool|library"
            r"|component|gateway|worker|backend|frontend|client|script|program|implemented|coded)\b"
        ),
        re.compile(_PROGRAMMING_LANGUAGE),
    ),
    "language": (
        _asked(
            r"何(?:の|という)?言語|何語(?!くらい|ぐらい|程度)|(?:どの|どんな)言語"
            r"|\b(?:what|which) languages?\b"
        ),
        re.compile(
            _PROGRAMMING_LANGUAGE
            + r"|(?i:\b(?:english|japanese|chinese|korean|french|german|spanish|portuguese)\b)"
            r"|[ァ-ヴ]{2}[ァ-ヴー]*語|(?:日本|英|中国|韓国|ドイツ|フランス)語"
        ),
    ),
}


def measure_asked(question: str) -> str:
    """The kind of measure a question asks for, or ''."""
    text = unicodedata.normalize("NFKC", question)
    return next((kind for kind, (asked, _) in _MEASURES.items() if asked.search(text)), "")


def holds_measure(kind: str, text: str) -> bool:
    return _MEASURES[kind][1].search(unicodedata.normalize("NFKC", text)) is not None


# What a unit holds when it gives what a question asks for by its form, by the name of the
# form's field in ``Wants``.
_GIVEN: dict[str, re.Pattern[str]] = {
    "date": _DATE,
    "slot": _SLOT,
    "email": _EMAIL,
    "source": _SOURCE,
    "last_year": _LAST_YEAR,
    "questions": _QUESTIONS,
    "makeup": _MAKEUP,
    "version": _VERSION,
    "upper_bound": _UPPER,
    "lower_bound": _LOWER,
}


def gives(form: str, text: str) -> bool:
    """Does the text give what a question of this form asks for ("date", "version" …)?"""
    return _GIVEN[form].search(unicodedata.normalize("NFKC", text)) is not None


@dataclass(frozen=True)
class Wants:
    number: bool = False
    formula: bool = False
    code: bool = False
    listing: bool = False
    reason: bool = False
    compare: bool = False
    definition: bool = False
    yes_no: bool = False
    date: bool = False
    slot: bool = False
    email: bool = False
    source: bool = False
    last_year: bool = False
    questions: bool = False
    makeup: bool = False
    version: bool = False
    upper_bound: bool = False
    lower_bound: bool = False
    measure: str = ""


def wants_of(question: str) -> Wants:
    text = unicodedata.normalize("NFKC", question)
    return Wants(
        number=asks_for_number(text),
        formula=_FORMULA.search(text) is not None,
        code=_CODE.search(text) is not None,
        listing=_LISTING.search(text) is not None,
        reason=_REASON.search(text) is not None,
        compare=_COMPARE.search(text) is not None,
        definition=_DEFINITION.search(text) is not None,
        yes_no=_YES_NO.search(text) is not None,
        date=_DATE_ASKED.search(text) is not None,
        slot=_SLOT_ASKED.search(text) is not None,
        email=_EMAIL_ASKED.search(text) is not None,
        source=_SOURCE_ASKED.search(text) is not None,
        last_year=_LAST_YEAR_ASKED.search(text) is not None,
        makeup=_MAKEUP.search(text) is not None,
        version=_VERSION_ASKED.search(text) is not None,
        upper_bound=_UPPER_ASKED.search(text) is not None,
        lower_bound=_LOWER_ASKED.search(text) is not None,
        questions=_QUESTIONS_ASKED.search(text) is not None and _TEST.search(text) is not None,
        measure=measure_asked(text),
    )
