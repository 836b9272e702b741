"""The loop's stage logic without Kafka or a database: plan, search state, evaluate,
conduct, answer."""

from __future__ import annotations

import dataclasses

import pytest

from services.common.errors import InvalidInput
from services.common.events import QuestionAsked, SessionState
from services.common.kafka_io import now_ms
from services.direct import DirectLoop
from services.librarian.stages import evaluate, section_heading, strategy_for
from services.professor import stages as professor
from services.searcher.stages import search_step
from topics.registry import ANSWERS, SEARCH_REQUESTS, SEARCH_RESULTS, SEARCH_SESSIONS

CHUNKS = [
    ("c1", "m1", "The median is the middle value."),
    ("c2", "m1", "The mean is the average."),
    ("c3", "m2", "The standard error measures the spread of the sample mean."),
    ("c4", "m2", "Sampling error shrinks with n."),
]


def question(text="median vs standard error?", asked_at_ms=None, **kw) -> QuestionAsked:
    return QuestionAsked("s1", "stats", "alice", text, asked_at_ms=asked_at_ms or now_ms(), **kw)


def test_plan_publishes_iteration_zero_and_a_progress_event(engine_for):
    emits, record = professor.plan_question(
        question(asked_at_ms=1_000), engine_for({"t1": "median"}), now_ms=1_000
    )
    assert [e.topic for e in emits] == [ANSWERS, SEARCH_REQUESTS]
    request = emits[1].event
    assert request.iteration == 0 and request.strategy == "direct"
    assert request.state.plan.max_iterations == professor.MAX_ITERATIONS
    assert request.state.plan.deadline_ms == 1_000 + professor.DEFAULT_TIMEOUT_MS
    assert record.status == "RUNNING"


@pytest.mark.parametrize("asked, allowed", [(None, 5), (2, 2), (50, 5), (0, 5)])
def test_max_iterations_is_capped(engine_for, asked, allowed):
    emits, _ = professor.plan_question(
        question(max_iterations=asked), engine_for({"t1": "x"}), 1_000
    )
    assert emits[1].event.state.plan.max_iterations == allowed


@pytest.mark.parametrize("text, message", [("   ", "empty"), ("x" * 2001, "at most 2000")])
def test_bad_questions_are_refused(engine_for, text, message):
    with pytest.raises(InvalidInput, match=message):
        professor.plan_question(question(text), engine_for({"t1": "x"}), 1_000)


def test_searcher_skips_an_iteration_it_has_handled(engine_for, memory_search):
    emits, _ = professor.plan_question(question(), engine_for({"t1": "median"}), 1_000)
    request = emits[1].event
    search = memory_search(CHUNKS)
    state, out = search_step(request, None, search, now_ms=2_000)
    assert [e.topic for e in out] == [SEARCH_SESSIONS, SEARCH_RESULTS]
    assert state.last_iteration == 0 and state.seen_chunk_ids == ["c1"]
    again_state, again = search_step(request, state, search, now_ms=3_000)
    assert again_state is None and again == [] and len(search.orders) == 1


def test_searcher_excludes_seen_ids_and_counts_retries(engine_for, memory_search):
    emits, _ = professor.plan_question(question(), engine_for({"t1": "median"}), 1_000)
    first = emits[1].event
    search = memory_search(CHUNKS)
    state = SessionState("s1", ["c1"], retry=0, last_iteration=0, updated_at_ms=0)
    second = dataclasses.replace(first, iteration=1, text_queries=["median", "average"])
    new_state, out = search_step(second, state, search, 2_000)
    result = out[1].event
    assert search.orders[0].seen_ids == frozenset({"c1"})
    assert [c.chunk_id for c in result.candidates] == ["c2"]
    assert result.retry == 1 and new_state.retry == 1
    assert new_state.seen_chunk_ids == ["c1", "c2"]


def test_iteration_zero_searches_the_first_task_of_several(engine_for):
    engine = engine_for({"t1": "median", "t2": "standard error"})
    request = professor.plan_question(question(), engine, 1_000)[0][1].event
    assert request.focus_task_ids == ["t1"] and request.text_queries == ["median", "find median"]
    single = professor.plan_question(question(max_iterations=1), engine, 1_000)[0][1].event
    assert single.focus_task_ids == ["t1", "t2"], "one iteration must search every task"


def first_of_two_tasks(engine_for, memory_search, queries: list[str]):
    """Plan "median" (t1) and "standard error" (t2), search ``queries`` once and evaluate:
    the engine, the plan's request, the search, its session state and the evaluation."""
    engine = engine_for({"t1": "median", "t2": "standard error"})
    request = professor.plan_question(question(), engine, 1_000)[0][1].event
    search = memory_search(CHUNKS)
    state, out = search_step(
        dataclasses.replace(request, text_queries=queries), None, search, 2_000
    )
    return engine, request, search, state, evaluate(out[1].event, engine)


def test_a_task_out_of_focus_keeps_its_evidence_but_waits_for_its_turn(engine_for, memory_search):
    engine, request, search, state, first = first_of_two_tasks(
        engine_for, memory_search, ["median", "standard error"]
    )
    assert {e.task_id for e in first.state.evidence} == {"t1", "t2"}
    assert first.route == "CONTINUE" and first.next_focus == ["t2"]
    # the next search finds nothing new for t2 (c3 is seen), yet its held evidence covers it
    following = dataclasses.replace(
        request,
        iteration=1,
        text_queries=["standard error"],
        focus_task_ids=["t2"],
        state=first.state,
    )
    _, out = search_step(following, state, search, 3_000)
    assert "c3" not in {c.chunk_id for c in out[1].event.candidates}
    second = evaluate(out[1].event, engine)
    assert second.route == "COMPLETE" and second.new_evidence == 0


def test_held_evidence_is_judged_again_with_the_rank_the_search_gave_it(engine_for, memory_search):
    engine, request, search, state, first = first_of_two_tasks(
        engine_for, memory_search, ["mean", "standard error"]
    )
    held = {e.chunk_id: e.rank for e in first.state.evidence if e.task_id == "t2"}
    assert held == {"c3": 2}  # c2 and c3 hold "mean": c3 came second
    seen: list = []
    judge = engine.evaluate
    engine.evaluate = lambda q, tasks, passages, conditions=(): (
        seen.extend(passages) or judge(q, tasks, passages, conditions)
    )
    following = dataclasses.replace(
        request, iteration=1, text_queries=["nothing new"], focus_task_ids=["t2"],
        state=first.state,
    )  # fmt: skip
    evaluate(search_step(following, state, search, 3_000)[1][1].event, engine)
    assert [p.ranks for p in seen if "standard error" in p.text] == [{"held": 2}]


def test_librarian_maps_indexes_back_and_drops_duplicates(engine_for, memory_search):
    engine = engine_for({"t1": "median", "t2": "standard error"})
    emits, _ = professor.plan_question(question(), engine, 1_000)
    request = dataclasses.replace(
        emits[1].event, text_queries=["median", "standard error"], focus_task_ids=["t1", "t2"]
    )
    _, out = search_step(request, None, memory_search(CHUNKS), 2_000)
    result = out[1].event
    evaluation = evaluate(result, engine)
    assert evaluation.route == "COMPLETE"
    by_task = {e.task_id: e for e in evaluation.state.evidence}
    assert by_task["t1"].chunk_id == "c1" and by_task["t2"].chunk_id == "c3"
    assert by_task["t2"].material_id == "m2"
    # the same result again adds nothing: the evidence is already held
    again = evaluate(dataclasses.replace(result, state=evaluation.state), engine)
    assert again.new_evidence == 0


def test_an_iteration_adds_a_tasks_best_pieces_only_even_when_the_engine_names_all(engine_for):
    from services.common.events import Candidate, SearchResult
    from services.librarian.stages import MAX_FRESH_PER_TASK
    from services.reasoning.llm import Finding, Judgement

    def score(index: int) -> float:
        return (index * 7 % 30) / 30  # every score different, in no order

    class NamesEveryCandidate(engine_for):
        def evaluate(self, question, tasks, passages, stop_conditions=()):
            findings = [Finding(p.index, "t1", p.text, score(p.index), "named") for p in passages]
            return Judgement(findings, ["t1"], "every candidate named")

    engine = NamesEveryCandidate({"t1": "median"})
    emits, _ = professor.plan_question(question("median?"), engine, 1_000)
    candidates = [
        Candidate(i, f"c{i}", "m1", "notes", 1, [], i, f"median fact {i}", None, None, 0.5)
        for i in range(30)
    ]
    result = SearchResult("s1", 0, "direct", candidates, 30, 30, 0, 0, emits[1].event.state)
    evaluation = evaluate(result, engine)

    best = sorted(range(30), key=score, reverse=True)[:MAX_FRESH_PER_TASK]
    assert [e.chunk_id for e in evaluation.state.evidence] == [f"c{i}" for i in sorted(best)]
    assert evaluation.new_evidence == MAX_FRESH_PER_TASK


def test_one_sentence_serving_two_tasks_is_evidence_for_both(engine_for, memory_search):
    engine = engine_for({"t1": "median", "t2": "middle value"})  # c1 says both
    emits, _ = professor.plan_question(question("median: the middle value?"), engine, 1_000)
    request = dataclasses.replace(
        emits[1].event, text_queries=["median"], focus_task_ids=["t1", "t2"]
    )
    _, out = search_step(request, None, memory_search(CHUNKS), 2_000)
    evaluation = evaluate(out[1].event, engine)
    assert sorted((e.task_id, e.chunk_id) for e in evaluation.state.evidence) == [
        ("t1", "c1"),
        ("t2", "c1"),
    ]
    assert evaluation.route == "COMPLETE"


def test_librarian_continues_with_the_next_strategy_for_missing_tasks(engine_for, memory_search):
    engine = engine_for({"t1": "median", "t2": "kurtosis"})
    emits, _ = professor.plan_question(question(), engine, 1_000)
    _, out = search_step(emits[1].event, None, memory_search(CHUNKS), 2_000)
    evaluation = evaluate(out[1].event, engine)
    assert evaluation.route == "CONTINUE" and evaluation.next_focus == ["t2"]
    assert evaluation.next_strategy == "missing" and evaluation.next_text_queries == ["kurtosis"]
    assert [strategy_for(i) for i in range(5)] == [
        "direct",
        "missing",
        "broader",
        "neighbours",
        "neighbours",
    ]


def test_direct_loop_answers_with_citations_across_two_materials(engine_for, memory_search):
    engine = engine_for({"t1": "median", "t2": "standard error"})
    records = []
    loop = DirectLoop(engine, memory_search(CHUNKS), records.append)
    events = loop.run(question())
    final = events[-1]
    assert final.kind == "FINAL" and final.status == "ANSWERED" and final.iterations == 2
    assert {c.material_id for c in final.citations} == {"m1", "m2"}
    assert all(f"[{c.n}]" in final.answer for c in final.citations)
    assert records[-1].status == "ANSWERED" and records[-1].evidence


def test_the_answer_step_reads_each_pieces_section_heading(engine_for, memory_search):
    # a list item's section ("Common pitfalls") is often all that says what it is about
    engine = engine_for({"t1": "median", "t2": "standard error"})
    received = []
    draft = engine.answer
    engine.answer = lambda q, lang, evidence, complete=True, missing=(): (
        received.extend(evidence) or draft(q, lang, evidence, complete, missing)
    )
    DirectLoop(engine, memory_search(CHUNKS), lambda record: None).run(question())
    sections = {p.heading for p in received}
    assert sections == {"section of c1", "section of c3"}


@pytest.mark.parametrize(
    "path, heading",
    [
        ((), ""),
        (("第3回 講義ノート", "スケジューラの種類"), "スケジューラの種類"),  # says what it is about
        # a part's label says what it is only with the heading above it
        (("ADR-0004 予約の並び順は抽選にする", "理由"), "ADR-0004 予約の並び順は抽選にする > 理由"),
        (("Lab 11 report", "Rules"), "Lab 11 report > Rules"),
        (("決定",), "決定"),
    ],
)
def test_a_sections_label_is_read_with_the_heading_above_it(path, heading):
    assert section_heading(path) == heading


def test_direct_loop_stops_at_max_iterations_with_an_honest_insufficient(engine_for, memory_search):
    engine = engine_for({"t1": "quark"})
    search = memory_search(CHUNKS)
    records = []
    events = DirectLoop(engine, search, records.append).run(
        question("what is a quark?", max_iterations=3)
    )
    final = events[-1]
    assert (
        final.status == "INSUFFICIENT"
        and final.iterations == 3
        and final.stop_reason == "max_iterations"
    )
    assert len(search.orders) == 3
    assert engine.refinements == ["missing", "broader"]
    assert "missing" in final.answer and records[-1].status == "INSUFFICIENT"


def test_a_question_nowhere_near_the_materials_ends_insufficient_after_one_search(
    engine_for, memory_search
):
    engine = engine_for({"t1": "quark"})
    search = memory_search(CHUNKS, nearest=0.12)
    records = []
    final = DirectLoop(engine, search, records.append).run(question("what is a quark?"))[-1]
    assert (final.status, final.stop_reason, final.iterations) == ("INSUFFICIENT", "off_topic", 1)
    assert len(search.orders) == 1 and records[-1].status == "INSUFFICIENT"
    # near enough, or no vector search to tell: the loop looks further, as before
    for nearest in (0.4, -1.0):
        far = memory_search(CHUNKS, nearest=nearest)
        final = DirectLoop(engine, far, records.append).run(question("what is a quark?"))[-1]
        assert final.stop_reason == "max_iterations" and len(far.orders) > 1


def test_a_short_question_whose_words_the_notes_hold_is_not_off_topic(engine_for, memory_search):
    # a few words embed far from any passage, yet a passage holds them: answered
    engine = engine_for({"t1": "median"})
    search = memory_search(CHUNKS, nearest=0.12)
    final = DirectLoop(engine, search, lambda r: None).run(question("median?"))[-1]
    assert final.status == "ANSWERED"


def test_a_first_task_far_from_the_materials_ends_the_loop_for_the_whole_question(
    engine_for, memory_search
):
    # iteration 0 searches the first task alone: it names the topic, the later ones ask of it
    engine = engine_for({"t1": "quark", "t2": "median"})
    search = memory_search(CHUNKS, nearest=0.12)
    final = DirectLoop(engine, search, lambda r: None).run(question("quarks, and medians?"))[-1]
    assert (final.status, final.stop_reason, final.iterations) == ("INSUFFICIENT", "off_topic", 1)
    assert len(search.orders) == 1


def test_a_later_task_the_notes_lack_leaves_the_loop_to_look_further(engine_for, memory_search):
    # only the searched task's keywords count: the notes hold the first one's
    engine = engine_for({"t1": "median", "t2": "quark"})
    search = memory_search(CHUNKS, nearest=0.12)
    final = DirectLoop(engine, search, lambda r: None).run(
        question("medians and quarks?", max_iterations=2)
    )[-1]
    assert final.stop_reason != "off_topic" and len(search.orders) > 1


def test_a_first_task_of_several_with_a_word_the_notes_hold_is_not_off_topic(
    engine_for, memory_search
):
    # the first task often holds a frame beside its topic (何という名前で, いま): of several
    # tasks, a first one is off topic only when the notes hold none of its keywords
    class Framed(engine_for):
        def plan(self, question):
            draft = super().plan(question)
            # searched as "quark middle" and as its description, which finds the median
            first = dataclasses.replace(
                draft.tasks[0], description="middle", keywords=["quark", "middle"]
            )
            return dataclasses.replace(draft, tasks=[first, *draft.tasks[1:]])

    search = memory_search(CHUNKS, nearest=0.12)
    final = DirectLoop(Framed({"t1": "quark", "t2": "median"}), search, lambda r: None).run(
        question("the middle of a quark, and medians?", max_iterations=2)
    )[-1]
    assert final.stop_reason != "off_topic" and len(search.orders) > 1


def test_a_question_answered_in_part_is_answered_saying_what_is_missing(engine_for, memory_search):
    engine = engine_for({"t1": "median", "t2": "quark"})
    told = []
    draft = engine.answer
    engine.answer = lambda q, lang, evidence, complete=True, missing=(): (
        told.append((complete, list(missing))) or draft(q, lang, evidence, complete, missing)
    )
    records = []
    final = DirectLoop(engine, memory_search(CHUNKS), records.append).run(
        question("median and quark?", max_iterations=2)
    )[-1]
    assert (final.status, final.stop_reason) == ("ANSWERED", "max_iterations")
    assert told == [(True, ["find quark"])]  # the engine knows which part it cannot answer
    assert final.answer.startswith("The course materials answer only part of the question")
    assert "find quark" in final.answer and "The median is the middle value." in final.answer
    # the teacher's unanswered log gets the part that is missing
    assert records[-1].missing_tasks == ["find quark"] and records[-1].best_passages


def test_deadline_ends_the_loop(engine_for, memory_search):
    engine = engine_for({"t1": "quark"})
    emits, _ = professor.plan_question(
        question("quark?", asked_at_ms=1_000, timeout_ms=2_000), engine, 1_000
    )
    _, out = search_step(emits[1].event, None, memory_search(CHUNKS), 1_005)
    evaluation = evaluate(out[1].event, engine)
    result, record = professor.conduct(evaluation, engine, now_ms=3_020)
    final = result[-1].event
    assert (
        final.kind == "FINAL"
        and final.stop_reason == "deadline"
        and record.status == "INSUFFICIENT"
    )


@pytest.mark.parametrize(
    "text, language",
    [
        ("What is it?", "en"),
        ("それは何ですか？", "ja"),
        ("Why?", "en"),
        ("중앙값이란 무엇입니까?", "en"),  # a language the planner cannot read
    ],
)
def test_a_question_naming_nothing_to_look_for_ends_insufficient_at_once(text, language):
    from services.reasoning.extractive import ExtractiveLLM

    emits, record = professor.plan_question(question(text), ExtractiveLLM(), 1_000)
    (final,) = [e.event for e in emits]
    assert emits[0].topic is ANSWERS and final.kind == "FINAL"
    assert (final.status, final.stop_reason) == ("INSUFFICIENT", "no_topic")
    assert final.answer == professor.NO_TOPIC[language]
    assert (record.status, record.missing_tasks) == ("INSUFFICIENT", [text])


def test_a_question_with_a_topic_is_searched():
    from services.reasoning.extractive import ExtractiveLLM

    emits, record = professor.plan_question(question("What is a p-value?"), ExtractiveLLM(), 1)
    assert [e.topic for e in emits] == [ANSWERS, SEARCH_REQUESTS] and record.status == "RUNNING"


@pytest.mark.parametrize(
    "asked, granted",
    [
        (None, professor.DEFAULT_TIMEOUT_MS),
        (10, professor.MIN_TIMEOUT_MS),
        (-5, professor.MIN_TIMEOUT_MS),
        (30_000, 30_000),
        (10 * 24 * 3600 * 1000, professor.MAX_TIMEOUT_MS),
    ],
)
def test_a_questions_time_limit_is_held_within_bounds(engine_for, asked, granted):
    emits, record = professor.plan_question(
        question("quark?", asked_at_ms=1_000, timeout_ms=asked), engine_for({"t1": "q"}), 1_000
    )
    assert emits[1].event.state.plan.deadline_ms == 1_000 + granted
    assert record.deadline_ms == 1_000 + granted


def test_evidence_selection_covers_every_task_before_repeating_one():
    from services.common.events import Evidence, LoopState, Plan, Task, TaskStatus

    evidence = [
        Evidence(f"c{i}", "m", "T", 1, "t1", f"s{i}", 0.9 - i / 100, "r", 0) for i in range(10)
    ]
    evidence.append(Evidence("c99", "m", "T", 1, "t2", "other", 0.1, "r", 0))
    plan = Plan([Task("t1", "a"), Task("t2", "b")], [], 1.0, 5, 0, "en", [], "")
    state = LoopState(
        "q", "s", "u", plan, evidence, [TaskStatus("t1", True), TaskStatus("t2", True)], 0
    )
    chosen = professor.select_evidence(state, limit=3)
    assert [e.chunk_id for e in chosen] == ["c0", "c99", "c1"]


def test_streamed_deltas_rebuild_the_answer():
    text = "一文目です。二文目です。\nThird sentence here. " * 5
    pieces = professor.split_for_streaming(text, size=40)
    assert "".join(pieces) == text and all(len(p) <= 60 for p in pieces)


def test_the_route_waits_for_the_plans_stop_conditions_not_only_the_tasks(
    engine_for, memory_search
):
    engine = engine_for(
        {"t1": "median", "t2": "standard error"},
        conditions=[("SUFFICIENCY", "both found"), ("UNAMBIGUITY", "told apart")],
        unmet={"UNAMBIGUITY"},
    )
    emits, _ = professor.plan_question(question(), engine, 1_000)
    search = memory_search(CHUNKS)
    request = dataclasses.replace(
        emits[1].event, focus_task_ids=["t1", "t2"], text_queries=["median", "standard error"]
    )
    _, out = search_step(request, None, search, 1_000)
    result = next(e.event for e in out if e.topic is SEARCH_RESULTS)

    unmet = evaluate(result, engine)
    assert all(s.satisfied for s in unmet.state.task_status)  # every task has evidence
    assert unmet.route == "CONTINUE" and "UNAMBIGUITY" in unmet.route_reason
    assert sorted(unmet.next_focus) == ["t1", "t2"]

    engine.unmet = set()
    assert evaluate(result, engine).route == "COMPLETE"


def test_direct_loop_gives_the_librarian_stage_its_own_engine(engine_for, memory_search):
    # as in the services, where the librarian's process keeps caches of its own
    professors, librarians = engine_for({"t1": "median"}), engine_for({"t1": "median"})
    judged: list[str] = []
    evaluate_as_scripted = librarians.evaluate

    def evaluate(*args, **kwargs):
        judged.append("librarian")
        return evaluate_as_scripted(*args, **kwargs)

    librarians.evaluate = evaluate
    loop = DirectLoop(professors, memory_search(CHUNKS), librarian_engine=librarians)
    final = loop.run(question("what is the median?"))[-1]
    assert final.status == "ANSWERED"
    assert judged == ["librarian"]  # the iteration was judged by the librarian's engine


def test_eval_answers_reports_the_off_topic_questions_a_subject_answers(
    engine_for, memory_search, tmp_path, monkeypatch
):
    from rich.progress import Progress

    from tools.evaluation import answers

    questions = tmp_path / "off_topic.txt"
    questions.write_text("what is a quark?\n\nwhat is a median?\n", encoding="utf-8")
    monkeypatch.setattr(answers, "OFF_TOPIC", questions)
    # the notes hold "quark" nowhere and the nearest chunk is far: refused at once; a
    # question the notes half match is answered, and reported
    engine = engine_for({"t1": "quark"})
    near_median = engine_for({"t1": "median"})

    class Loop:
        def run(self, asked):
            chosen = near_median if "median" in asked.question else engine
            search = memory_search(CHUNKS, nearest=0.1)
            return DirectLoop(chosen, search, lambda r: None).run(asked)

    with Progress(disable=True) as progress:
        report = answers.ask_off_topic(Loop(), "stats", progress)
    assert report == {"asked": 2, "refused": 0.5, "answered": ["what is a median?"]}
