"""The eval answers report: percentiles that hold for a handful of questions, and whether a
passage holding the answer reached the answer step."""

from __future__ import annotations

from types import SimpleNamespace

from tools.evaluation.answers import EvalQuestion, Outcome, StoredSet, judge, summarise


def outcome(latency_s: float, right: bool = True) -> Outcome:
    return Outcome("q", "fact", "ANSWERED", right, right, right, True, 1, latency_s, 0)


def test_the_p95_latency_of_two_questions_is_the_slower_one():
    report = summarise([outcome(0.5), outcome(0.1)])
    assert report["latency_s"] == {"p50": 0.3, "p95": 0.5, "max": 0.5}
    assert report["strict_right"] == 1.0


def test_a_key_reached_counts_only_a_gold_passage_that_holds_a_gold_key():
    question = EvalQuestion("q1", "期末試験はいつ？", "fact", ("7月30日",), frozenset({"exam.md"}))
    stored = StoredSet("s", "subject", {}, {"exam.md": "exam.md", "faq.csv": "faq.csv"})
    final = SimpleNamespace(
        answer="「期末試験は第15回の翌週です。」[1]", status="ANSWERED", iterations=1
    )

    def scored(answered_from):
        return judge(question, final, answered_from, ["exam.md"], stored, 0.1)

    # the key was in what the answer step got, and the answer quoted another sentence
    missed = scored([("exam.md", "期末試験は第15回の翌週です。7月30日（木）2限。")])
    assert missed.key_reached_answer and missed.gold_reached_answer and not missed.right
    # the key in a material that is not gold, or a gold material without the key
    assert not scored([("faq.csv", "7月30日")]).key_reached_answer
    assert not scored([("exam.md", "期末試験は第15回の翌週です。")]).key_reached_answer
    report = summarise([missed, outcome(0.1)])
    assert report["key_reached_answer_step"] == 0.5
    assert report["per_type"]["fact"]["key_reached"] == 0.5
