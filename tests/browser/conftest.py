"""Browser fixtures: a page that records console errors and every request it makes."""

from __future__ import annotations

import json

import pytest

from pycore import figures
from pycore.params import from_json

READY_MS = 60_000


class Watched:
    """A Playwright page plus what it logged and fetched."""

    def __init__(self, page, server):
        self.page, self.server = page, server
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))

    def open(self, path: str, ready: str | None = "[data-figure]"):
        self.page.goto(self.server.url + path)
        if ready:
            self.page.wait_for_selector(f"{ready}[data-ready='true']", timeout=READY_MS)
        return self.page

    def figure(self, selector: str):
        return self.page.locator(selector)

    def state(self, selector: str) -> dict:
        return json.loads(self.page.locator(selector).get_attribute("data-state"))

    def readouts(self, selector: str) -> dict[str, str]:
        return self.page.locator(selector).evaluate(
            "f => Object.fromEntries([...f.querySelectorAll('[data-readout]')].map(e => [e.dataset.readout, e.textContent]))")

    def svg(self, selector: str) -> str:
        return self.page.locator(f"{selector} .sq-figure__stage").evaluate("s => s.innerHTML")

    def wait_state_change(self, selector: str, before: dict):
        self.page.wait_for_function(
            "([sel, before]) => document.querySelector(sel).dataset.state !== before",
            arg=[selector, json.dumps(before, separators=(",", ":"))], timeout=10_000)

    def settle(self, selector: str):
        """Wait until the figure has no request in flight (its state stops changing)."""
        self.page.wait_for_timeout(150)
        last = None
        for _ in range(40):
            now = self.page.locator(selector).get_attribute("data-state")
            if now == last:
                return
            last = now
            self.page.wait_for_timeout(100)


def expected(figure_id: str, state: dict):
    """What CPython computes for the state the browser shows."""
    module = figures.get(figure_id)
    s = module.parse(from_json(state))
    return module.render(s), module.readouts(s)


@pytest.fixture(scope="session")
def shared_context(browser):
    """One browser context for the session, so Pyodide's files come from the HTTP cache after the first test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


@pytest.fixture
def watched(shared_context, server):
    server.reset()
    page = shared_context.new_page()
    w = Watched(page, server)
    yield w
    page.close()
    server.reset()
