"""The web console in a real browser (headless Chromium) against the live stack.

Students ask, see progress and the streamed answer, open a citation and follow up in a
thread; a teacher uploads, sees STORED, deactivates, and a new question no longer cites
the file; a student reaches no teacher view or endpoint.
"""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def sign_in(page, gateway, user: str, subject: str, view: str = "ask") -> None:
    page.goto(f"{gateway.url}/#token={gateway.token(user)}")
    expect(page.locator("#user")).to_have_text(user)
    page.select_option("#subject", subject)
    page.goto(f"{gateway.url}/#{view}")


def ask(page, question: str):
    turns = page.locator(".turn")
    before = turns.count()
    page.fill("#question", question)
    page.click("#ask-button")
    page.wait_for_function(
        "n => document.querySelectorAll('.turn')[n]?.dataset.status", arg=before, timeout=120_000
    )
    return turns.nth(before)


def test_student_asks_sees_progress_and_answer_opens_a_citation_and_follows_up(
    page, live_gateway, demo_subject
):
    sign_in(page, live_gateway, "student-1", demo_subject)
    expect(page.locator("#role")).to_have_text("student")
    turn = ask(page, "中央値とは何ですか？")
    expect(turn).to_have_attribute("data-status", "ANSWERED")
    assert turn.locator(".progress li").count() >= 2  # plan, evaluate …, streamed live
    answer = turn.locator(".answer").inner_text()
    assert "中央値" in answer
    assert "###" not in answer and "**" not in answer  # Markdown rendered, not shown raw

    citation = turn.locator(".citation").first
    title = citation.inner_text()
    citation.click()
    expect(page.locator("#passage")).to_be_visible()
    expect(page.locator("#passage-meta")).to_contain_text(".md")  # the material's file
    expect(page.locator("#passage-meta")).to_contain_text("中央値")  # its heading path
    assert page.locator("#passage-title").inner_text() in title
    expect(page.locator("#passage-text mark")).to_contain_text("中央値")
    page.click("#passage-close")

    follow_up = ask(page, "それはなぜ？")
    expect(follow_up).to_have_attribute("data-status", "ANSWERED")
    expect(follow_up.locator(".progress li").first).to_contain_text("中央値")  # read as …
    assert page.locator(".turn").count() == 2
    assert page.errors == []


def rendered(page, markdown: str, read: str = "box.innerHTML"):
    """What the console's renderMarkdown makes of ``markdown``: ``read`` is a JavaScript
    expression over ``box``, the element it was rendered into."""
    script = f"""(markdown) => {{
        const box = document.createElement("div");
        box.append(renderMarkdown(markdown));
        return {read};
    }}"""
    return page.evaluate(script, markdown)


def test_markdown_is_rendered_as_dom_and_never_as_html(page, live_gateway, demo_subject):
    sign_in(page, live_gateway, "student-1", demo_subject)
    html = rendered(
        page,
        "## 見出し\n**強調** と <img src=x onerror=alert(1)> 「### 中央値 とは」[1]\n- 項目",
    )
    assert "<strong>強調</strong>" in html and "<li>項目</li>" in html
    assert "<img" not in html and "&lt;img" in html
    assert "###" not in html and "##" not in html and "**" not in html


def test_a_quoted_code_block_keeps_its_lines_and_shows_its_citation(
    page, live_gateway, demo_subject
):
    sign_in(page, live_gateway, "student-1", demo_subject)
    out = rendered(
        page,
        "「次の関数で学習する。」[1]\n``` [2]\ndef fit(x):\n    return x ** 2\n```\n後の文。",
        """{code: box.querySelector("pre code").textContent,
            cite: box.querySelector("pre + p").textContent,
            after: box.lastChild.textContent}""",
    )
    assert out["code"] == "def fit(x):\n    return x ** 2"  # lines and indentation as written
    assert out["cite"] == "[2]" and out["after"] == "後の文。"


def test_teacher_uploads_sees_stored_deactivates_and_it_is_no_longer_cited(
    page, live_gateway, demo_subject, tmp_path
):
    term = f"ゼブラ{uuid.uuid4().hex[:4].upper()}検定"
    glossary = tmp_path / f"glossary-{uuid.uuid4().hex[:6]}.md"
    glossary.write_text(
        f"# 用語集\n\n{term}とは、縞模様の有無で二つの群を比べる架空の検定である。\n",
        encoding="utf-8",
    )
    sign_in(page, live_gateway, "teacher-1", demo_subject, view="materials")
    page.set_input_files("#file", str(glossary))
    page.fill("#title", "用語集")
    page.click("#upload-button")
    expect(page.locator("#upload-status")).to_contain_text("STORED", timeout=120_000)
    row = page.locator(f'#materials-table tr[data-filename="{glossary.name}"]')
    expect(row).to_contain_text("yes")
    # read again by the same parser: the same chunks, so no new version
    row.get_by_role("button", name="Re-read").click()
    expect(page.locator("#upload-status")).to_contain_text("DUPLICATE", timeout=120_000)
    expect(row).to_contain_text("v1")

    page.goto(f"{live_gateway.url}/#ask")
    cited = ask(page, f"{term}とは何ですか？")
    expect(cited.locator(".citations")).to_contain_text("用語集")

    page.goto(f"{live_gateway.url}/#materials")
    row.get_by_role("button", name="Deactivate").click()
    expect(row).to_have_class("inactive")
    expect(row.get_by_role("button", name="Reactivate")).to_be_visible()

    page.goto(f"{live_gateway.url}/#ask")
    page.click("#new-thread")
    again = ask(page, f"{term}とは何ですか？")
    expect(again.locator(".status")).not_to_have_text("")
    assert "用語集" not in again.locator(".citations").inner_text()

    page.goto(f"{live_gateway.url}/#materials")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Delete").click()
    expect(row).to_have_count(0)
    assert page.errors == []


def test_a_student_reaches_no_teacher_view_or_endpoint(page, live_gateway, demo_subject):
    sign_in(page, live_gateway, "student-1", demo_subject)
    for view in ("materials", "unanswered", "search"):
        expect(page.locator(f'#tabs a[data-view="{view}"]')).to_be_hidden()
        page.goto(f"{live_gateway.url}/#{view}")
        expect(page.locator("#view-forbidden")).to_be_visible()
        expect(page.locator(f"#view-{view}")).to_be_hidden()
    statuses = page.evaluate(
        """async (subject) => {
            const headers = { Authorization: "Bearer " + localStorage.getItem("eduanima.token"),
                              "Content-Type": "application/json" };
            const get = (p) => fetch(p, { headers }).then((r) => r.status);
            const post = (p, body) => fetch(p, { method: "POST", headers,
                                                body: JSON.stringify(body) }).then((r) => r.status);
            return [
              await get(`/v1/subjects/${subject}/unanswered`),
              await post(`/v1/subjects/${subject}/search-test`, { query: "中央値" }),
              await post(`/v1/subjects/${subject}/enrollments`, { user_id: "student-1",
                                                                 role: "teacher" }),
            ];
        }""",
        demo_subject,
    )
    assert statuses == [403, 403, 403]


def test_a_failing_test_leaves_a_screenshot(page, live_gateway, test_output, screenshot_if_failed):
    page.goto(f"{live_gateway.url}/")
    expect(page.locator("#sign-in")).to_be_visible()
    failed = SimpleNamespace(
        nodeid=f"tests/console/failing[{uuid.uuid4().hex[:6]}]",
        report_call=SimpleNamespace(failed=True),
    )
    passed = SimpleNamespace(
        nodeid="tests/console/passing", report_call=SimpleNamespace(failed=False)
    )
    assert screenshot_if_failed(passed, page, test_output) is None
    path = screenshot_if_failed(failed, page, test_output)
    try:
        assert path is not None and path.parent == test_output
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000
    finally:
        path.unlink(missing_ok=True)
