"""The teacher's insights panel in a real browser: the chart of questions per hour is drawn
from the live insights service, the topics the materials do not cover are listed; a student
reaches neither the panel nor its endpoint."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_console import sign_in

pytestmark = [pytest.mark.integration, pytest.mark.slow]

UNCOVERED = "ゲーム理論"


def test_teacher_sees_the_insights_chart_and_a_student_gets_403(
    page, pipeline, live_gateway, live_insights, demo_subject
):
    sessions = [
        pipeline.client.ask(demo_subject, "student-1", "中央値とは何ですか？"),
        pipeline.client.ask(
            demo_subject, "student-1", f"{UNCOVERED}とは何ですか？", max_iterations=2
        ),
    ]
    finals = [list(pipeline.client.follow(s, timeout=180))[-1] for s in sessions]
    assert [f.status for f in finals] == ["ANSWERED", "INSUFFICIENT"]
    teacher = live_gateway.client("teacher-1")
    view = live_insights.wait_for(
        f"/insights/subjects/{demo_subject}",
        lambda v: (
            any(t["keyword"] == UNCOVERED for t in v["unanswered_topics"])
            and v["finished"] == v["questions"]
        ),
    )
    # the gateway serves the teacher the insights service's own view
    proxied = teacher.insights(demo_subject)
    assert proxied["questions"] == view["questions"] >= 2
    assert proxied["answered"] == view["answered"] >= 1

    sign_in(page, live_gateway, "teacher-1", demo_subject, view="insights")
    expect(page.locator("#insights-summary")).to_contain_text(f"{view['questions']} question(s)")
    hours = page.locator("#insights-chart g.hour")
    expect(hours).to_have_count(24)
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('#insights-chart g.hour')].map((g) => ({
            questions: Number(g.dataset.questions), answered: Number(g.dataset.answered),
            bars: g.querySelectorAll('rect.bar').length,
            height: [...g.querySelectorAll('rect.bar')].reduce(
              (h, r) => h + r.getBBox().height, 0),
        }))"""
    )
    last_day = sum(h["questions"] for h in proxied["hourly"])
    assert sum(h["questions"] for h in drawn) == last_day >= 2
    assert sum(h["answered"] for h in drawn) == sum(h["answered"] for h in proxied["hourly"])
    assert all((h["bars"] > 0) == (h["questions"] > 0) for h in drawn)
    assert max(h["height"] for h in drawn) > 50  # the busiest hour is a visible bar
    assert page.locator("#insights-chart polyline.share").count() == 1
    expect(page.locator(f'#insights-topics li[data-keyword="{UNCOVERED}"]')).to_contain_text(
        f"{UNCOVERED}とは何ですか？"
    )
    cited = page.locator("#insights-materials tbody tr")
    assert cited.count() >= 1
    assert page.errors == []

    # a student: no tab, the view refuses, and the endpoint answers 403
    student = page.context.browser.new_context()
    try:
        other = student.new_page()
        sign_in(other, live_gateway, "student-1", demo_subject, view="insights")
        expect(other.locator('#tabs a[data-view="insights"]')).to_be_hidden()
        expect(other.locator("#view-forbidden")).to_be_visible()
        expect(other.locator("#view-insights")).to_be_hidden()
        status = other.evaluate(
            """async (subject) => (await fetch(`/v1/subjects/${subject}/insights`, {
                headers: { Authorization: "Bearer " + localStorage.getItem("eduanima.token") },
            })).status""",
            demo_subject,
        )
        assert status == 403
    finally:
        student.close()
