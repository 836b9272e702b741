"""The extractive answerer: quotes what answers, shaped to the question, and cites it [n].

Per task of the question, passages are ranked by their best unit (``scoring.py``):

- the lead is the best passage's answering part: its best unit with the whole list,
  table, code statement or formula it belongs to (and the sentence that introduces it);
- then that unit's neighbours in the passage, in reading order, as far as ``LEAD_CHARS``
  allows;
- supporting quotes follow from the next passages (other chunks), each its best unit with
  its structure, up to ``SUPPORT_CHARS``;
- every line is the materials' own text as a reader sees it (no Markdown markers).

Why an excerpt and not one sentence: measured on the course sets and the QA sets, the
best passage holds the answer far more often than its best unit does (course: 0.80 vs
0.47 for the unit alone; with the next passage's best unit, 0.98), because the unit that
names the question's terms is often next to the one that answers it.

The reflection pass checks every line against its cited passage. When the evidence is
incomplete, only the units above ``RELEVANCE_FLOOR`` are shown, as the closest the
materials come; so it is under each task the caller names as missing when the rest of the
question is answered.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence
from itertools import takewhile
from typing import NamedTuple

from services.common.text import fenced
from services.reasoning.extractive.markdown import plain_text
from services.reasoning.extractive.names import absent_names
from services.reasoning.extractive.planner import asks_by_name, rule_plan
from services.reasoning.extractive.scoring import Scored, UnitScorer, prepare, probability
from services.reasoning.extractive.text import detect_language, squash_spaces, terms
from services.reasoning.extractive.units import (
    CODE,
    FORMULA,
    ITEM,
    ROW,
    SENTENCE,
    STRUCTURED,
    Unit,
    comment_above,
)
from services.reasoning.llm import Passage

NOTE = {
    "ja": "（抽出型の回答です。資料の文をそのまま引用し、要約や推論は加えていません。）",
    "en": "(An extractive answer: the materials are quoted verbatim, not summarised or inferred.)",
}
INSUFFICIENT = {
    "ja": "資料の中に、この質問に答える根拠が見つかりませんでした。",
    "en": "The course materials do not contain enough evidence to answer this question.",
}
CLOSEST = {"ja": "資料の中で最も近い箇所:", "en": "The closest passages in the materials:"}
# Said when the question names something no passage found holds (``names.py``).
NOT_NAMED = {
    "ja": "見つかった資料の箇所に「{}」は出てきません。",
    "en": "No passage found in the materials names “{}”.",
}
NOT_COVERED = {
    "ja": "（この点について資料に根拠が見つかりませんでした）",
    "en": "(No passage in the materials covers this point.)",
}
# Said under a task whose passages were all quoted for an earlier task of the question.
QUOTED_ABOVE = {
    "ja": "（上に引用した箇所がこの点にも答えています）",
    "en": "(The passages quoted above answer this point too.)",
}
# Excerpt sizes in characters, chosen on the course sets and the QA sets (eval answers):
# 600 + 150 holds a gold key in 0.98 / 0.78 (course / course_ml) and 0.97 / 0.95
# (jsquad_ja / xquad_en) of the questions whose gold passage was found; 400 + 150 loses
# 0.06 on course and 0.05 on xquad_en.
LEAD_CHARS = 600
SUPPORT_CHARS = 150
# A passage below this share of the lead's score is not quoted in support. 0.35 instead of
# 0.5, with three supporting quotes, on the sixteen sets: 8 answers gained on five sets and
# none lost, for answers 13 % longer (mean 819 -> 927 characters); 0.25 gained none more.
SUPPORT_SHARE = 0.35
# Passages quoted in support of a task's lead. Two instead of one: course 0.827 -> 0.836,
# course_ml 0.765 -> 0.776, jsquad_ja 0.953 -> 0.967, xquad_en 0.937 -> 0.940 (the answer
# was often the second or third passage), for answers 5-25 % longer (mean characters, course
# 616 -> 748, xquad_en 724 -> 754). Three instead of two, on the sixteen sets: 16 answers
# gained on nine sets and none lost, for answers 9 % longer (mean 750 -> 819 characters;
# the gold key's median position 71 -> 73). Four, with SUPPORT_SHARE at 0.35: 4 more on
# four sets, none lost, for 2.5 % (mean 927 -> 950); five gained none more.
MAX_SUPPORT = 4
MAX_STRUCTURE_LINES = 15
# How far (log-odds) a table row the question names may trail the best unit and still lead.
# On eval answers, strict, the sixteen sets: 1.0 gained 2 answers, 1.5 gained 3, 2.0 gained
# 5 on four sets (course_arch, course_se, course_hci, design_library) and lost none; 3.0
# lost 2 of them back.
NAMED_ROW_MARGIN = 2.0
# When the evidence is incomplete, a unit below this score is not shown at all: an
# unrelated quote misleads more than none.
RELEVANCE_FLOOR = 0.5
MAX_CLOSEST = 3


class Answerer:
    def __init__(self, scorer: UnitScorer):
        self.scorer = scorer

    def answer(
        self,
        question: str,
        language: str,
        evidence: Sequence[Passage],
        complete: bool = True,
        missing: Sequence[str] = (),
    ) -> Iterator[str]:
        language = language if language in NOTE else detect_language(question)
        tasks = rule_plan(question).tasks
        passages = [_with_context(p, rank) for rank, p in enumerate(evidence, start=1)]
        sources = {p.index: p.text for p in passages}
        ranked = self.scorer.score(tasks, passages) if evidence else {}
        if not complete:
            for name in absent_names(question, evidence, self.scorer.embed):
                yield NOT_NAMED[language].format(name) + "\n"
            yield from self._closest(language, ranked)
            return
        sections = [
            (
                t.description,
                _task_quotes(
                    _named_row_first(t.keywords, ranked.get(t.task_id, [])),
                    prepare(t).wants.listing,
                )
                if t.description not in missing
                else [],
                t.task_id,
            )
            for t in tasks
        ]
        if not any(blocks for _, blocks, _ in sections):
            yield INSUFFICIENT[language]
            return
        shown: set[tuple[int, int]] = set()  # (passage, unit start) already quoted above
        by_name = asks_by_name(question)
        for description, blocks, task_id in sections:
            if len(sections) > 1:
                yield f"■ {_heading(description, by_name)}\n"
            if not blocks:
                yield NOT_COVERED[language] + "\n"
                if description in missing:  # what comes close, as for an unanswered question
                    yield from self._closest(language, {task_id: ranked.get(task_id, [])})
            quoted = False
            for quote in blocks:
                units = [u for u in quote.units if (quote.index, u.start) not in shown]
                shown.update((quote.index, u.start) for u in units)
                if units:
                    quoted = True
                    yield from _render(
                        quote.index, units, sources[quote.index], language, quote.support
                    )
            if blocks and not quoted:
                yield QUOTED_ABOVE[language] + "\n"
            if len(sections) > 1:
                yield "\n"
        yield NOTE[language]

    def _closest(self, language: str, ranked: dict[str, list[Scored]]) -> Iterator[str]:
        """The incomplete case (the caller says what is missing): show only what clears
        the relevance floor, one unit per passage."""
        best: dict[int, Scored] = {}
        for scored in (s for items in ranked.values() for s in items):
            if scored.score >= RELEVANCE_FLOOR and scored.matched:
                if scored.index not in best or best[scored.index].score < scored.score:
                    best[scored.index] = scored
        chosen = sorted(best.values(), key=lambda s: -s.score)[:MAX_CLOSEST]
        if chosen:
            yield CLOSEST[language] + "\n"
            for scored in chosen:
                yield from _render(scored.index, [scored.unit], "", language, support=True)


class Quote(NamedTuple):
    index: int  # the passage's temp index
    units: list[Unit]
    support: bool  # another passage backing the lead (shown as "- " lines)


def _heading(description: str, by_name: bool) -> str:
    """A task's heading as the student asked it: "容量と補充速度を教えて" asked for the refill
    rate by name (``by_name``), so its section is "補充速度", not the task's "補充速度とは何か"."""
    if by_name and description.endswith("とは何か"):
        return description.removesuffix("とは何か")
    return description


def _named_row_first(keywords: Sequence[str], ranked: list[Scored]) -> list[Scored]:
    """A table row whose first cell is a thing the question names (スプリント1 of a sprint
    table, FMK-3003 of an error table, 小テスト of a grading table) is the record asked
    about, and leads. Its cells hold few of the question's other words, so a row or
    sentence that repeats them (the table's 計測日 row under a question on the TA's
    measurement) ranked above it. It does not lead when it trails the best unit by more
    than ``NAMED_ROW_MARGIN``, nor over a row of another table: "Which journaling modes
    does ext4 have?" is answered by the modes table, not by a file-system table's ext4 row."""
    named = {tuple(t) for t in map(terms, keywords) if t}
    if not ranked or not named:
        return ranked
    top = ranked[0]

    def names(scored: Scored) -> bool:
        unit = scored.unit
        if unit.kind != ROW or unit.context.endswith(unit.text):  # the header names columns
            return False
        return tuple(terms(unit.text.split(" | ")[0])) in named

    if names(top):
        return ranked
    # Units come best first (by score, rounded to 4 places): past this floor none is within
    # the margin, so the scan stops there instead of reading every row's first cell.
    floor = probability(top.logit - NAMED_ROW_MARGIN) - 1e-4
    row = next((s for s in takewhile(lambda s: s.score >= floor, ranked[1:]) if names(s)), None)
    if row is None or row.logit < top.logit - NAMED_ROW_MARGIN:
        return ranked
    if top.unit.kind == ROW and (top.index, top.unit.group) != (row.index, row.unit.group):
        return ranked
    return [row, *(s for s in ranked if s is not row)]


def _task_quotes(ranked: Sequence[Scored], listing: bool) -> list[Quote]:
    """The quotes for one task: the lead's answering part (its best unit, with the list,
    table row or formula it belongs to), the lead's surroundings in reading order, then
    support from other passages. The answering part comes first so that a reader meets
    the answer before its context: with the excerpt in reading order, a gold key sat a
    median of 198 / 217 / 34 / 203 characters into the answer (course / course_ml /
    jsquad_ja / xquad_en), and 83 / 131 / 20 / 72 this way; what is quoted is the same."""
    best: dict[int, Scored] = {}
    for scored in ranked:
        best.setdefault(scored.index, scored)
    order = list(best.values())
    if not order or order[0].score <= 0:
        return []
    lead = order[0]
    answering = excerpt(lead, 0, listing)
    around = excerpt(lead, LEAD_CHARS, listing)
    if lead.unit.kind == CODE:  # code is read in its own order: the listing around it joins it
        listing_units = {u for u in around if u.kind == CODE and u.group == lead.unit.group}
        answering = sorted({*answering, *listing_units}, key=lambda u: u.start)
    before = [u for u in around if u.start < answering[0].start]
    after = [u for u in around if u.start > answering[-1].start]
    quotes = [Quote(lead.index, units, False) for units in (answering, before, after) if units]
    for scored in order[1 : 1 + MAX_SUPPORT]:
        if scored.score >= SUPPORT_SHARE * lead.score and scored.matched:
            quotes.append(Quote(scored.index, excerpt(scored, SUPPORT_CHARS, listing), True))
    return quotes


def excerpt(scored: Scored, budget: int, listing: bool = False) -> list[Unit]:
    """The best unit with what it needs to be read (a list whole, with its lead-in; a table
    row with the header that names its cells; a formula with the sentence before it), then
    its neighbours, alternately after and before, while the excerpt stays within
    ``budget`` characters."""
    units = list(scored.units)
    i = units.index(scored.unit)
    chosen = {i}
    lead_in = i if _introduces(units, i) else None
    if scored.unit.kind == ITEM or lead_in is not None:
        group = units[i].group if lead_in is None else units[i + 1].group
        kind = units[i].kind if lead_in is None else units[i + 1].kind
        members = [j for j, u in enumerate(units) if u.group == group and u.kind == kind]
        whole = kind == ITEM or listing
        chosen.update(members[:MAX_STRUCTURE_LINES] if whole else members[:1])
        lead_in = min(members) - 1
    elif scored.unit.kind == ROW:
        rows = [j for j, u in enumerate(units) if u.group == scored.unit.group]
        # a list of rows is asked for ("each", "which kinds"): the table whole, else the
        # header that names the row's cells
        chosen.update(rows[:MAX_STRUCTURE_LINES] if listing else rows[:1])
    elif scored.unit.kind in (FORMULA, CODE):
        lead_in = min(j for j, u in enumerate(units) if u.group == scored.unit.group) - 1
        # what the code printed answers "what did it give": it comes with any of its lines
        printed = [j for j, u in enumerate(units) if u.group == scored.unit.group and u.output]
        chosen.update(printed[:MAX_STRUCTURE_LINES])
    if lead_in is not None and lead_in >= 0 and _introduces(units, lead_in):
        chosen.add(lead_in)
    size = sum(len(units[j].text) for j in chosen)
    grown = True
    while grown:
        grown = False
        for j in (max(chosen) + 1, min(chosen) - 1):
            if 0 <= j < len(units) and size + len(units[j].text) <= budget:
                chosen.add(j)
                size += len(units[j].text)
                grown = True
    return [units[j] for j in sorted(chosen)]


def _introduces(units: Sequence[Unit], i: int) -> bool:
    """The sentence at ``i`` is the lead-in of the structure right after it."""
    return (
        units[i].kind == SENTENCE
        and i + 1 < len(units)
        and units[i + 1].kind in STRUCTURED
        and units[i + 1].context.startswith(units[i].text)
    )


def _render(
    index: int, units: Sequence[Unit], source: str, language: str, support: bool
) -> Iterator[str]:
    """Consecutive sentences as one quote, exactly as they stand in ``source``; every item,
    row and formula on a line of its own; consecutive code statements as one fenced block,
    lines and indentation as written; the citation on every quote, so each can be checked
    alone."""
    cite = f"[{index + 1}]"
    lead = "- " if support else ""
    run: list[Unit] = []
    code: list[Unit] = []

    def quote(text: str) -> str:
        text = squash_spaces(text)
        return f"{lead}「{text}」{cite}\n" if language == "ja" else f"{lead}“{text}” {cite}\n"

    def flush() -> Iterator[str]:
        if run:  # the passage's own text from the first sentence to the last, gaps included
            yield quote(plain_text(source[run[0].start : run[-1].end]) if source else run[0].text)
            run.clear()
        if code:  # the block's own lines from the first statement (and its comment) to the last
            start = comment_above(source, code[0].start)
            yield quoted_code(textwrap.dedent(source[start : code[-1].end]), cite)
            code.clear()

    for unit in units:
        joins = not run or not source or _adjacent(source, run[-1], unit)
        if unit.kind == SENTENCE and not code and joins:
            run.append(unit)
        elif (
            unit.kind == CODE
            and source
            and code
            and (code[-1].group, code[-1].output) == (unit.group, unit.output)
        ):
            code.append(unit)
        else:
            yield from flush()
            if unit.kind == SENTENCE or (unit.kind == CODE and source):
                (run if unit.kind == SENTENCE else code).append(unit)
            else:
                yield lead + "・" + quote(unit.text)[len(lead) :]
    yield from flush()


def quoted_code(code: str, cite: str) -> str:
    """Code quoted as a fenced block whose opening fence carries the citation: a statement
    squashed onto one line (``def f(x): n = len(x) return …``, a YAML key with its nested
    keys) reads wrong, and code is read by its lines."""
    return fenced(code.strip("\n"), f" {cite}") + "\n"


def _adjacent(source: str, before: Unit, after: Unit) -> bool:
    """Only prose lies between two sentences (no list, table or code in between)."""
    between = source[before.end : after.start]
    return "\n\n" not in between.strip("\n") and not any(
        marker in between for marker in ("|", "```", "$$")
    )


def _with_context(passage: Passage, rank: int) -> Passage:
    """Answer from the whole chunk when the caller gives it: the best unit for the question
    may sit beside the snippet that evaluation picked for a task. Evidence comes best
    first; its order stands for the search's rank when the passage carries none."""
    text = passage.text
    if passage.context and passage.context != passage.text:
        text = passage.context if passage.text in passage.context else f"{text}\n{passage.context}"
    return Passage(
        passage.index, text, heading=passage.heading, ranks=passage.ranks or {"evidence": rank}
    )
