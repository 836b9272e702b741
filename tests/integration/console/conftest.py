"""One headless Chromium (Debian's package, driven by Playwright) for the console tests,
a fresh context (own storage, so its own sign-in) per test, and a screenshot under
``test-output/`` when a test fails."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps reaching for Google services,
# which a closed network answers slowly or not at all.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def screenshot_if_failed(node, page, out_dir: Path) -> Path | None:
    """The page as the failing test left it, as ``test-output/<test>.png``."""
    report = getattr(node, "report_call", None)
    if report is None or not report.failed:
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / (re.sub(r"[^\w.-]+", "_", node.nodeid) + ".png")
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if executable is None:
        pytest.fail("no chromium: run deploy/install-browser.sh (as root) to install it")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(name="screenshot_if_failed")
def screenshot_if_failed_fixture():
    """The function the ``page`` fixture calls after each test (for the test of it)."""
    return screenshot_if_failed


@pytest.fixture
def test_output(request) -> Path:
    return Path(request.config.rootpath) / "test-output"


@pytest.fixture
def page(browser, request, test_output) -> Iterator:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    screenshot_if_failed(request.node, page, test_output)
    context.close()
