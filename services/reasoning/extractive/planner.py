"""Rule-based Phase 2 planning and query refinement for the extractive engine.

A question is split into minimal tasks (seed 001 "Decomposition"):
comparisons give one task per compared item plus a difference task, or the
question asked of them when the sentence goes on ("X vs Y: which is faster?")
(complexity 2.0), definitions one task (1.0), enumerations and several
question sentences one task each. Everything here is deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from services.common.errors import InvalidInput
from services.common.text import morphemes
from services.reasoning.extractive.text import (
    content_terms,
    detect_language,
    instruction_terms,
    keywords_of,
    split_sentences,
)
from services.reasoning.extractive.words import content_words
from services.reasoning.llm import PlanDraft, PlannedTask, QueryDraft

MAX_TASKS = 6

_JA_COMPARE = [
    re.compile(r"^(?P<items>.+?)の(?:違い|差異|差|相違点?|比較|異同)"),
    re.compile(
        r"^(?P<items>.+?)(?:は|では|って)?(?:どう|どのように|何が|どこが)?(?:違う|違い|異なる|異なり)"
    ),
    re.compile(r"^(?P<items>.+?)を(?:比較|比べ)"),
]
_EN_COMPARE = [
    re.compile(r"differences? between (?P<items>.+?)(?:\?|$)", re.I),
    re.compile(r"^(?:compare|contrast) (?P<items>.+?)(?:\?|$)", re.I),
    re.compile(r"^how (?:does|do|is|are) (?P<a>.+?) differ(?:ent)? from (?P<b>.+?)(?:\?|$)", re.I),
    re.compile(r"^how (?:do|does|are|is) (?P<items>.+?) differ(?:ent)?(?:\?|$)", re.I),
    re.compile(r"^(?P<a>.+?) (?:vs\.?|versus|compared (?:to|with)) (?P<b>.+?)(?:\?|$)", re.I),
]
_JA_DEFINE = [
    # "Xとは" / "Xって何": not the って of a verb (なっている, 持って行く) nor the とは of ことは,
    # nor a 何 that asks for a count, a unit or a time (Xって何曜日, 何人, 何 ms): that asks
    # about X
    re.compile(
        r"^(?P<x>.+?)(?:(?<!こ)とは|って(?=(?:何|なに|なん)(?:$|[？?。、]|です|でしょ|だっけ|だろ|なの"
        r"|のこと|か)|どういう|どのような|どんな|[？?]?$))"
        r"(?:何|なに|なん|どういう|どのような|どんな)?"
    ),
    re.compile(r"^(?P<x>.+?)の(?:定義|意味)"),
]
_EN_DEFINE = [
    re.compile(r"^(?:what|who) (?:is|are) (?:an? |the )?(?P<x>[^?]+?)(?:\?|$)", re.I),
    re.compile(r"^define (?P<x>[^?]+?)(?:\?|$)", re.I),
    re.compile(r"^(?:what is )?(?:the )?(?:definition|meaning) of (?P<x>[^?]+?)(?:\?|$)", re.I),
    re.compile(r"^what does (?P<x>.+?) mean(?:\?|$)", re.I),
]
_JA_TOPICS = re.compile(
    r"^(?P<items>.+?)(?:について|に関して|を)(?:教えて|説明して|述べて|解説して|まとめて)"
)
_EN_TOPICS = re.compile(
    r"^(?:please )?(?:explain|describe|summari[sz]e|tell me about|discuss) "
    r"(?P<items>[^?]+?)(?:[.?]|$)",
    re.I,
)
_REASONING = re.compile(
    r"なぜ|何故|どうして|どのように|どうやって|理由|仕組み|説明|\bwhy\b|\bhow\b|\bexplain\b|\bdescribe\b",
    re.I,
)
_VISUAL = re.compile(
    r"グラフ|チャート|図表|ダイアグラム|(?:図|表)\s*[0-9一二三四五六七八九十]"
    r"|(?<![\u4e00-\u9fff])(?:図|表)(?![\u4e00-\u9fff])"
    r"|\b(?:figure|fig\.|table|chart|graph|diagram|plot)s?\b",
    re.I,
)
# Item separators in an enumeration; Japanese items must be short and particle-free.
# と and や separate items only as particles: the と of とき (遅れて出したときのペナルティ) or of
# ところ does not.
_JA_ITEM_SEPARATORS = {("と", "助詞"), ("や", "助詞"), ("および", "接続詞"), ("及び", "接続詞")}
_JA_ITEM_PUNCTUATION = {"、", ","}
_EN_ITEM_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+", re.I)
_JA_PARTICLE_INSIDE = re.compile(r"[はがをにでへ]|から|まで|より")
_COLON = re.compile(r"\s*[:;]\s*")
# A request that only asks for the comparison itself: …の違いを教えてください
_REQUEST = re.compile(
    r"^(?:を|について)?(?:詳しく|簡単に)?(?:教えて|説明して|述べて|解説して|まとめて)"
    r"(?:ください|下さい|ほしい|欲しい)?$"
)


@dataclass(frozen=True)
class _Shape:
    kind: str  # compare | define | topics | question
    items: tuple[str, ...]
    text: str
    asks: str = ""  # what a comparison asks beyond the difference ("mutex vs spinlock: when …")


def rule_plan(question: str) -> PlanDraft:
    original = question.strip()
    question = unicodedata.normalize("NFKC", original)
    if not question:
        raise InvalidInput("the question is empty")
    language = detect_language(question)
    shapes = [_shape(text, language) for text in _question_sentences(question)]
    tasks: list[PlannedTask] = []
    for shape in shapes:
        tasks.extend(_tasks_for(shape, language, first_id=len(tasks) + 1))
    # how to answer is not what to find: 具体的, いくつか, "list" search for nothing
    tasks = [
        replace(t, keywords=[k for k in t.keywords if not _instruction_only(k)] or t.keywords)
        for t in tasks
    ]
    if not tasks:  # only question words: the sentence's words, if it has any but those
        tasks = [PlannedTask("T1", question, keywords_of(question))]
    tasks = tasks[:MAX_TASKS]
    complexity = _complexity(shapes, tasks, question)
    all_keywords = _distinct(k for t in tasks for k in t.keywords)
    # The question as asked goes along: keywords drop words (a lone kanji such as 港 or
    # 鱗) that the lexical tokenizer keeps and BM25's IDF weighs on its own.
    text_queries = _distinct(
        [" ".join(t.keywords) for t in tasks]
        + [" ".join(all_keywords), question]
        + ([_LEFT_OUT_QUERY] if _LEFT_OUT.search(question) else [])
    )
    return PlanDraft(
        tasks=tasks,
        stop_conditions=_stop_conditions(shapes, question, language),
        complexity=complexity,
        language=language,
        text_queries=[q for q in text_queries if q],
        vector_query=original,
    )


_JA_QUESTION_WORDS = "何|いつ|どこ|誰|どの|どう|どれ|なぜ"
_EN_QUESTION_WORDS = "what|who|whom|whose|when|where|which|why|how"
_EN_QUESTION_START = re.compile(rf"(?:{_EN_QUESTION_WORDS})\b", re.I)
_ASKS = re.compile(
    rf"[?？]|か[。.]?$|{_JA_QUESTION_WORDS}|教えて|説明して|述べて"
    rf"|\b(?:{_EN_QUESTION_WORDS}|explain|describe|define|compare)\b",
    re.I,
)
_ANAPHOR = re.compile(
    r"^(?:その|この|これ|それ|そこ|彼|彼女|同|(?:it|this|that|these|those|they|he|she)\b)", re.I
)


def asks_for_definition(description: str) -> bool:
    """A task like "Xとは何か" / "What is X?": it names one concept to find."""
    text = unicodedata.normalize("NFKC", description).strip()
    return _shape(text, detect_language(text)).kind == "define"


def asks_by_name(question: str) -> bool:
    """Does the question ask for things by name ("容量と補充速度を教えて"), not to define or
    compare them?"""
    text = unicodedata.normalize("NFKC", question).strip()
    language = detect_language(text)
    return any(_shape(s, language).kind == "topics" for s in _question_sentences(text))


def _question_sentences(question: str) -> list[str]:
    """Question sentences. A statement, or a sentence pointing back (その…, this…),
    joins its neighbour: both describe one thing to find."""
    spans = [s.text for s in split_sentences(question) if content_terms(s.text)]
    merged: list[str] = []
    for text in spans or [s.text for s in split_sentences(question)]:
        if merged and _goes_on(merged[-1], text):
            merged[-1] = (
                f"{merged[-1]} {text}" if detect_language(text) == "en" else merged[-1] + text
            )
        else:
            merged.append(text)
    return [clause for text in merged for clause in _clauses(text)]


# Where one sentence asks two things: a comma before a clause that asks again
# ("CTF はいつ開催で、フラグはどういう形式？", "When is it due, and what is it about?").
_JA_CLAUSE_END = re.compile(r"[、，,]")
_EN_CLAUSE_END = re.compile(
    r",\s*(?:and\s+|but\s+)?(?=(?:what|which|when|where|who|whom|whose|how|why)\b)", re.I
)
_JA_ASKS = re.compile(rf"{_JA_QUESTION_WORDS}|どんな|いくつ|いくら")
_EN_ASKS = re.compile(rf"\b(?:{_EN_QUESTION_WORDS})\b", re.I)


def _clauses(sentence: str) -> list[str]:
    """A sentence that asks two things, as its two questions; any other sentence whole."""
    ja = detect_language(sentence) == "ja"
    asks = _JA_ASKS if ja else _EN_ASKS
    for boundary in (_JA_CLAUSE_END if ja else _EN_CLAUSE_END).finditer(sentence):
        first, second = sentence[: boundary.start()], sentence[boundary.end() :]
        if all(asks.search(part) and keywords_of(part) for part in (first, second)):
            return [first.strip(), *_clauses(second.strip())]
    return [sentence]


# A sentence that says what answer will do ("コードでもいいです", "1台目の例でいいです",
# "答えが知りたいです"): it shapes the question before it, and asks nothing new.
# Not a question: "英語でもいいですか？" asks one.
_ACCEPTS = re.compile(
    r"(?:で(?:も)?(?:いい|良い|構わない|かまわない|大丈夫|OK)(?:です|ので)?"
    r"|^(?:答え|結果)(?:が|を)?(?:知りたい|教えて)(?:です|ください|ほしい)?)[。.!！]*$"
)


# A sentence that only qualifies or comments on the question before it: a parenthetical
# ("（実験2）", "(Lab 2)") or a remark that trails off ("シラバスには書いていなかったんですが。").
_ASIDE = re.compile(r"^[(（][^()（）]*[)）][。.]?$|(?:が|けど|けれど|けれども)[。.]?$")


def _goes_on(before: str, sentence: str) -> bool:
    """Does ``sentence`` describe the same thing to find as the one ``before`` it? So it does
    when it points back, follows a statement, says what the answer will do or is an aside
    (``_ASIDE``); and when its words only say how to answer ("いくつか挙げて", "順番に教えて",
    "List the steps."), or a Japanese sentence has no word of two characters
    ("やり方を教えてください", "例は？"): it asks more of what the sentence before named."""
    if _ANAPHOR.match(sentence) or not _ASKS.search(before) or _ACCEPTS.search(sentence):
        return True
    if _ASIDE.search(sentence.strip()):
        return True
    words = keywords_of(sentence)
    names_nothing = detect_language(sentence) == "ja" and all(len(w) < 2 for w in words)
    return names_nothing or _says_only_how(words)


def _instruction_only(sentence: str) -> bool:
    """A sentence that only says how to answer: it names nothing to find."""
    return _says_only_how(keywords_of(sentence))


def _says_only_how(keywords: Sequence[str]) -> bool:
    words = content_terms(" ".join(keywords))
    return bool(words) and all(w in instruction_terms() for w in words)


def _shape(sentence: str, language: str) -> _Shape:
    body = sentence.rstrip("?？。.!！ ")
    if language == "ja":
        body = re.sub(r"^(?:では|また|それでは|さらに|次に)、?", "", body)
        for pattern in _JA_COMPARE:
            if (m := pattern.search(body)) and len(items := _ja_items(m["items"])) >= 2:
                return _Shape("compare", items, body, _asked_beyond(body[m.end() :]))
        for pattern in _JA_DEFINE:
            if m := pattern.search(body):
                items = _ja_items(m["x"])
                return _Shape("define", items or (m["x"],), body)
        if (m := _JA_TOPICS.search(body)) and len(items := _ja_items(m["items"])) >= 2:
            return _Shape("topics", items, body)
        return _Shape("question", (), body)
    for pattern in _EN_COMPARE:
        if m := pattern.search(body):
            if "a" in pattern.groupindex and _EN_QUESTION_START.match(m["a"]):
                continue  # "How accurate is X compared to Y?" asks of X; no "What is How…"
            raw = [m["a"], m["b"]] if "a" in pattern.groupindex else _en_split(m["items"])
            # "mutex vs spinlock: when is spinning better?": the items end at the colon
            cut = [_COLON.split(item, maxsplit=1) for item in raw]
            asks = " ".join(part[1] for part in cut if len(part) > 1)
            if len(items := _en_items([part[0] for part in cut])) >= 2:
                return _Shape("compare", items, body, _asked_beyond(asks))
    for pattern in _EN_DEFINE:
        if m := pattern.search(body):
            items = _en_items(_en_split(m["x"]))
            if len(items) >= 1 and all(len(i.split()) <= 5 for i in items):
                return _Shape("define", items, body)
    if (m := _EN_TOPICS.search(body)) and len(items := _en_items(_en_split(m["items"]))) >= 2:
        return _Shape("topics", items, body)
    return _Shape("question", (), body)


def _asked_beyond(tail: str) -> str:
    """The part of a comparison that asks something of its own (どちらが速い, when is
    spinning better), or "" when the tail only ends the sentence (…の違いは？)."""
    tail = _REQUEST.sub("", tail.strip(" :;、。"))
    return tail if keywords_of(tail) else ""


def _ja_items(text: str) -> tuple[str, ...]:
    """Items of a short Japanese noun enumeration, or () when it is not one."""
    text = re.sub(r"^(?:では|また)、?", "", text.strip())
    parts = [p.strip(" 「」『』") for p in _ja_split(text)]
    parts = [p for p in parts if p]
    if len(parts) == 1:
        return (parts[0],) if keywords_of(parts[0]) else ()
    if any(len(p) > 20 or _JA_PARTICLE_INSIDE.search(_hiragana_only(p)) for p in parts):
        return ()
    return tuple(p for p in parts if keywords_of(p))


def _ja_split(text: str) -> list[str]:
    """``text`` cut at its item separators (particles と and や, および, commas)."""
    parts = [""]
    for surface, pos in morphemes(text):
        if (surface, pos) in _JA_ITEM_SEPARATORS or surface in _JA_ITEM_PUNCTUATION:
            parts.append("")
        else:
            parts[-1] += surface
    return parts


def _hiragana_only(text: str) -> str:
    return "".join(c if "\u3040" <= c <= "\u309f" else " " for c in text)


def _en_split(text: str) -> list[str]:
    return [p.strip() for p in _EN_ITEM_SPLIT.split(text) if p.strip()]


def _en_items(parts: Sequence[str]) -> tuple[str, ...]:
    cleaned = [re.sub(r"^(?:the|an?)\s+", "", p.strip(" \"'"), flags=re.I) for p in parts]
    return tuple(p for p in cleaned if keywords_of(p))


def _tasks_for(shape: _Shape, language: str, first_id: int) -> list[PlannedTask]:
    ja = language == "ja"

    def task(offset: int, description: str, keywords: list[str]) -> PlannedTask:
        return PlannedTask(f"T{first_id + offset}", description, keywords or [description])

    if shape.kind == "compare":
        tasks = [
            task(i, f"{item}とは何か" if ja else f"What is {item}?", _item_keywords(item))
            for i, item in enumerate(shape.items)
        ]
        joined = "と".join(shape.items) if ja else " and ".join(shape.items)
        difference = f"{joined}の違い" if ja else f"How {joined} differ"
        keywords = _distinct(k for t in tasks for k in t.keywords)
        if shape.asks:  # the question asked of the two is the task, in its own words
            difference = shape.text
            keywords = _distinct([*keywords, *keywords_of(shape.asks)])
        return tasks + [task(len(tasks), difference, keywords)]
    if shape.kind in {"define", "topics"} and len(shape.items) > 1:
        return [
            task(i, f"{item}とは何か" if ja else f"What is {item}?", _item_keywords(item))
            for i, item in enumerate(shape.items)
        ]
    if shape.kind == "define":
        return [task(0, shape.text, _item_keywords(shape.items[0]))]
    asked = _COURSE_FRAME.sub(" ", shape.text)
    if _LEFT_OUT.search(asked):
        keywords = [*keywords_of(_LEFT_OUT.sub(" ", asked)), _LEFT_OUT_KEYWORD[language]]
    else:
        keywords = keywords_of(asked) or keywords_of(shape.text)
    return [task(0, shape.text, keywords)] if keywords else []


# The course asked of as itself (この授業で扱いますか, "does the course cover", "in this
# class") names nothing a passage is about: every passage is the course's. Kept as a
# keyword, it let a passage on the course's grading answer whether a topic it never names
# is taught.
_COURSE_FRAME = re.compile(
    r"(?:この|本|当)(?:授業|講義|科目|コース|クラス)(?:の中|内)?(?:で|では|に|には)?"
    r"|\b(?:does|do|will|did|is|are)(?: the| this| our)? (?:course|class|lecture|module)s?"
    r" (?:cover|teach|include|go over)s?\b"
    r"|\b(?:covered|taught|discussed|included) in (?:the|this|our)"
    r" (?:course|class|lecture|module)s?\b"
    r"|\b(?:in|for|of) (?:this|the|our) (?:course|class|module)\b",
    re.I,
)


# What a design leaves out, asked (v2 ではやらないこと, スコープから外された機能, "what is out
# of scope"), is its 対象外 or "Out of scope" / "Non-goals" section. The question says it
# with a verb the keywords drop (やらない) or a phrase no section title writes; the
# section's name is the keyword, and the search looks for it in both languages.
_LEFT_OUT = re.compile(
    r"(?:(?:やら|扱わ|作ら|実装し)ない|対象外|スコープ外|範囲外|(?:スコープ|対象|範囲)から外)"
    # and what it calls the things left out: the section's items, not a word they hold
    r"(?:[ぁ-ん]|決め)*(?:機能|項目|事項|内容)?"
    r"|\bout of (?:the )?scope\b|\bnon-goals?\b|\bnot in (?:the )?scope\b"
    r"|\bleft out of (?:the )?scope\b",
    re.I,
)
_LEFT_OUT_KEYWORD = {"ja": "対象外", "en": "out of scope"}
_LEFT_OUT_QUERY = "対象外 スコープ外 out of scope non-goals"


def _item_keywords(item: str) -> list[str]:
    """A short named concept stays whole (量子もつれ, gradient descent): its parts lose meaning."""
    return [item] if len(item) <= 30 else keywords_of(item)


def _complexity(shapes: Sequence[_Shape], tasks: Sequence[PlannedTask], question: str) -> float:
    if any(s.kind == "compare" for s in shapes):
        return 2.0
    if len(tasks) > 1 or _REASONING.search(question):
        return 1.5
    return 1.0


def _stop_conditions(
    shapes: Sequence[_Shape], question: str, language: str
) -> list[tuple[str, str]]:
    ja = language == "ja"
    conditions = [
        (
            "SUFFICIENCY",
            "各タスクに、その主要語を含む根拠箇所が引用付きで揃っている"
            if ja
            else "every task has a cited passage containing its key terms",
        )
    ]
    for shape in shapes:
        if shape.kind == "compare":
            items = "・".join(shape.items) if ja else ", ".join(shape.items)
            conditions.append(
                (
                    "UNAMBIGUITY",
                    f"{items} を混同せず、それぞれ別の根拠で説明できる"
                    if ja
                    else f"{items} are told apart, each backed by its own evidence",
                )
            )
    if _VISUAL.search(question):
        conditions.append(
            (
                "VISUAL_CHECK",
                "図表の凡例・軸・注記など、指している内容が文章で確保できている"
                if ja
                else "what the figure or table shows (legend, axes, notes) is available as text",
            )
        )
    return conditions


def rule_refine(
    question: str,
    tasks: Sequence[PlannedTask],
    missing_task_ids: Sequence[str],
    strategy: str,
    found: Sequence[str],
) -> QueryDraft:
    """Next queries per seed 001: target what is missing, widen, then look around the evidence."""
    targets = [t for t in tasks if t.task_id in set(missing_task_ids)] or list(tasks)
    if not targets:
        targets = rule_plan(question).tasks
    if strategy == "missing":
        queries = [" ".join(t.keywords) for t in targets]
        queries += [k for t in targets for k in t.keywords]
        return QueryDraft(_distinct(queries), " ".join(t.description for t in targets))
    if strategy == "broader":
        return _broader(targets)
    if strategy == "neighbours":
        return _neighbours(question, targets, found)
    raise InvalidInput(f"unknown refine strategy {strategy!r}: use missing, broader or neighbours")


def _broader(targets: Sequence[PlannedTask]) -> QueryDraft:
    keywords = _distinct(k for t in targets for k in t.keywords)
    if len(keywords) > 1:  # drop the most specific (longest) term
        most_specific = max(keywords, key=len)
        keywords = [k for k in keywords if k != most_specific]
    pieces: list[str] = []
    for keyword in keywords:
        pieces.extend(_general_pieces(keyword))
    general = _distinct(pieces) or keywords
    queries = _distinct([" ".join(general)] + general)
    return QueryDraft(queries, " ".join(general))


def _general_pieces(keyword: str) -> list[str]:
    """Shorter, more general parts of a keyword: words of a phrase, ends of a compound."""
    if " " in keyword:
        return [w for w in keyword.split() if len(w) > 2]
    if detect_language(keyword) == "ja":
        # the nouns of a compound (決定係数 -> 決定, 係数); a word of one noun (テンプレート)
        # has no more general part to give
        parts = [w for w in content_words(keyword) if w != keyword and len(w) >= 2]
        return parts or [keyword]
    return [keyword]


def _neighbours(question: str, targets: Sequence[PlannedTask], found: Sequence[str]) -> QueryDraft:
    if not found:
        return _broader(targets)
    headings = [
        line.lstrip("# ").strip()
        for snippet in found
        for line in snippet.splitlines()
        if line.startswith("#")
    ]
    own = {k for t in targets for k in t.keywords}
    counts = Counter(k for snippet in found for k in keywords_of(snippet) if k not in own)
    first_seen = {
        k: i for i, k in reversed(list(enumerate(k for s in found for k in keywords_of(s))))
    }
    salient = sorted(counts, key=lambda k: (-counts[k], first_seen[k]))[:4]
    anchor = targets[0].keywords[0] if targets[0].keywords else ""
    queries = _distinct(headings + [f"{anchor} {term}".strip() for term in salient] + salient)
    vector = " ".join(s.strip() for s in found)[:400]
    return QueryDraft(queries or [anchor], vector or question)


def _distinct(items) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item:
            seen.setdefault(item, None)
    return list(seen)
