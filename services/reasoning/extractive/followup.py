"""Follow-up questions: restate "それはなぜ？" / "why is that?" with the thread's topic.

A question that points back (それ, その, this, it …) or names nothing of its own is
resolved against the previous turns of its conversation: the topic of the last turn
(the keywords its plan searched for) replaces the pointer, or is prepended when there is
none. A question that stands on its own is left as asked. Deterministic, no model; the
Gemini planner gets the turns in its prompt instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from services.common.errors import InvalidInput
from services.reasoning.extractive.planner import rule_plan
from services.reasoning.extractive.text import detect_language, keywords_of
from services.reasoning.llm import Turn

# それぞれ (each) and これまで (until now) point at nothing.
_JA_POINTER = re.compile(r"(?:それ|これ|あれ)(?!ぞれ|まで)|その|この|あの|そう|そこ")
_JA_NOUN_POINTER = re.compile(r"^(?:それ|これ|あれ)(?!ぞれ|まで)")
_JA_ADNOMINAL = re.compile(r"^(?:その|この|あの)")
_EN_POINTER = re.compile(r"\b(?:it|its|this|that|these|those|they|them|their)\b", re.I)
# A question naming at most this many things of its own may still lean on the thread.
_FEW_KEYWORDS = 2


def topic_of(question: str) -> list[str]:
    """What a (standalone) question is about: the keywords its plan searches for."""
    try:
        plan = rule_plan(question)
    except InvalidInput:
        return []
    found: dict[str, None] = {}
    for task in plan.tasks:
        for keyword in task.keywords:
            if keyword and keyword != task.description:
                found.setdefault(keyword, None)
    return list(found)[:3]


def points_back(question: str) -> bool:
    """True when the question leans on an earlier turn to say what it is about."""
    text = unicodedata.normalize("NFKC", question).strip()
    keywords = keywords_of(text)
    if not keywords:
        return True
    if detect_language(text) == "ja":
        return bool(_JA_POINTER.search(text))
    return bool(_EN_POINTER.search(text)) and len(keywords) <= _FEW_KEYWORDS


def standalone(question: str, history: Sequence[Turn]) -> str:
    """The question restated so it can be planned alone (unchanged when it already can be)."""
    question = question.strip()
    resolved_turns: list[str] = []
    for turn in history:  # earlier turns may be follow-ups themselves: resolve in order
        resolved_turns.append(_resolve(turn.question, resolved_turns))
    return _resolve(question, resolved_turns)


def _resolve(question: str, previous: Sequence[str]) -> str:
    if not previous or not points_back(question):
        return question
    topic = next((t for t in map(topic_of, reversed(previous)) if t), [])
    if not topic:
        return question
    text = unicodedata.normalize("NFKC", question).strip()
    if detect_language(text) == "ja":
        return _resolve_ja(text, "と".join(topic))
    return _resolve_en(text, " and ".join(topic))


def _resolve_ja(text: str, topic: str) -> str:
    if _JA_NOUN_POINTER.match(text):
        return _JA_NOUN_POINTER.sub(topic, text, count=1)
    if _JA_ADNOMINAL.match(text):
        return _JA_ADNOMINAL.sub(topic + "の", text, count=1)
    return f"{topic}について、{text}"


def _resolve_en(text: str, topic: str) -> str:
    match = _EN_POINTER.search(text)
    if match is None:
        return f"{text.rstrip('?.! ')} ({topic})?"
    word = match.group(0).lower()
    replacement = f"{topic}'s" if word in ("its", "their") else topic
    return text[: match.start()] + replacement + text[match.end() :]
