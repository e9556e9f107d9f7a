"""The recall cards' spaced review in the browser: Pyodide's FSRS schedule is CPython's bit for bit; a grade
given by mouse, keyboard or touch sets the due time FSRS gives and survives a reload; export, clear and import
restore the history; a corrupted store (a record that is not JSON, a grade that is not text) is reported and
replaced while the other cards are reviewed; a card embedded on another site is graded in its frame. The tests
share the session's page (and its Python) except where a frame or touch needs its own."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from pycore import bridge, review
from tests.browser.conftest import READY_MS

PREFIX = "sqrt-dk review / "
"""The storage keys' prefix for the site served at the root (review-store.js)."""
VARIANCE, SPREAD = "step-4-variance-is-dk", "step-4-spread-at-64"
LONG_AGO = review.moment("2026-01-05T08:00:00.000Z")
STORED = """(p) => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith(p))
  .map(([k, v]) => [k.slice(p.length), v]))"""
FORGET = "(p) => Object.keys(localStorage).filter((k) => k.startsWith(p)).forEach((k) => localStorage.removeItem(k))"
PUT = "([p, records]) => Object.entries(records).forEach(([id, text]) => localStorage.setItem(p + id, text))"


def ask(request: dict) -> dict:
    return json.loads(bridge.handle(json.dumps(request)))


def card_ids(server) -> list[str]:
    """The site's card ids, from the list the build wrote (what the page sends)."""
    import urllib.request

    with urllib.request.urlopen(server.url + "/cards.json") as response:
        return [c["id"] for c in json.load(response)["cards"]]


def history(card: str, grades: list[tuple[str, timedelta]]) -> str:
    """A record made by CPython: ``grades`` given at offsets from LONG_AGO."""
    text = None
    for grade, offset in grades:
        text = review.grade(card, text, grade, LONG_AGO + offset)["record"]
    return text


@pytest.fixture
def cards_page(watched):
    """The shared page with no review history before and after the test."""
    page = watched.open("/step-4/", ready="[data-card]")
    page.evaluate(FORGET, PREFIX)
    yield watched
    watched.page.evaluate(FORGET, PREFIX)


def stored(page) -> dict[str, str]:
    return page.evaluate(STORED, PREFIX)


def wait_reviews(page, card: str, count: int, scope=None):
    (scope or page).locator(f"[data-card='{card}'][data-reviews='{count}']").first.wait_for(timeout=20_000)


def test_pyodide_schedules_every_history_exactly_as_cpython(cards_page, server):
    page = cards_page.page
    reviews = [{"grade": g, "at": review.stamp(LONG_AGO + d)} for g, d in [
        ("good", timedelta(0)), ("hard", timedelta(minutes=4)), ("good", timedelta(minutes=20)),
        ("easy", timedelta(days=2)), ("again", timedelta(days=30)), ("good", timedelta(days=30, minutes=11)),
        ("hard", timedelta(days=41)), ("good", timedelta(days=90)), ("easy", timedelta(days=260))]]
    ids = card_ids(server)
    records = {ids[i]: history(ids[i], [(g, d) for g, d in [("good", timedelta(0)), ("easy", timedelta(hours=i)),
                                                            ("again", timedelta(days=3 + i)), ("good", timedelta(days=9))][:1 + i % 4]])
               for i in range(len(ids))}
    requests = [{"op": "review-schedule", "card": VARIANCE, "reviews": reviews},
                {"op": "review-due", "cards": ids, "records": records, "now": "2026-02-01T12:00:00.000Z"},
                {"op": "review-export", "cards": ids, "records": records, "now": "2026-02-01T12:00:00.000Z"}]
    answers = [page.evaluate("(r) => window.sqrtDk.request(r)", request) for request in requests]
    for request, in_browser in zip(requests, answers):
        assert in_browser == ask(request), request["op"]
    bits = lambda schedule: [(s["stability"].hex(), s["difficulty"].hex(), s["due"]) for s in schedule]  # noqa: E731
    assert bits(answers[0]["schedule"]) == bits(ask(requests[0])["schedule"]), "bit for bit"
    assert len({s["state"] for s in answers[0]["schedule"]}) == 3, "learning, review and relearning all ran"


def test_a_grade_by_mouse_sets_the_due_time_fsrs_gives_and_a_reload_keeps_it(cards_page):
    page = cards_page.page
    card = page.locator(f"[data-card='{VARIANCE}']")
    controls = card.locator("[data-review]")
    assert controls.is_visible() and card.get_attribute("data-review-state") == "new"
    assert not card.locator("[data-grade='good']").is_visible(), "the grades show once the answer is open"
    card.locator("summary").click()
    shown = card.locator("[data-grade='good'] [data-interval]").text_content()
    card.locator("[data-grade='good']").click()
    wait_reviews(page, VARIANCE, 1)
    record = stored(page)[VARIANCE]
    (first,) = review.read_record(record, VARIANCE)
    assert first.grade == "good"
    # The package's default second learning step is 10 minutes; the button said so before it was pressed.
    assert review.moment(card.get_attribute("data-due")) == first.at + timedelta(minutes=10) and shown == "in 10 minutes"
    assert card.locator("[data-said]").text_content() == "Saved “Good”: next due in 10 minutes."
    card.locator("[data-grade='easy']").click()
    wait_reviews(page, VARIANCE, 2)
    after = stored(page)[VARIANCE]
    second = review.read_record(after, VARIANCE)[1]
    expected = review.grade(VARIANCE, record, "easy", second.at)
    assert expected["record"] == after and card.get_attribute("data-due") == expected["status"]["due"]
    assert review.moment(expected["status"]["due"]) - second.at >= timedelta(days=2), "Easy leaves the learning steps"

    page.reload()
    page.wait_for_selector("[data-card][data-ready='true']", timeout=READY_MS)
    card = page.locator(f"[data-card='{VARIANCE}']")
    assert card.get_attribute("data-due") == expected["status"]["due"] and card.get_attribute("data-reviews") == "2"
    assert card.locator("[data-due]").text_content().startswith("Next due in ")
    assert cards_page.errors == []


def test_a_corrupted_store_is_reported_and_replaced_and_the_page_goes_on(cards_page):
    page = cards_page.page
    good = history(SPREAD, [("good", timedelta(0))])
    page.evaluate(PUT, [PREFIX, {VARIANCE: "{this is not a record", SPREAD: good}])
    cards_page.open("/step-3/", ready="[data-card]")
    assert stored(page)[VARIANCE].startswith("{this"), "reported and replaced on the card's page, not elsewhere"
    cards_page.open("/step-4/", ready="[data-card]")  # the page reads the store as it arrives
    said = page.locator(f"[data-card='{VARIANCE}'] [data-said]")
    said.filter(has_text="cannot be read").wait_for(timeout=20_000)
    assert "Your stored history of card 'step-4-variance-is-dk' cannot be read (it is not a JSON object)" in said.text_content()
    assert "the card starts afresh" in said.text_content()
    assert stored(page) == {SPREAD: good}, "the broken record is gone, the good one stays"
    assert page.locator(f"[data-card='{SPREAD}']").get_attribute("data-review-state") == "due"
    assert page.locator("[data-figure][data-ready='true']").count() == page.locator("[data-figure]").count()
    card = page.locator(f"[data-card='{VARIANCE}']")
    card.locator("summary").click()
    card.locator("[data-grade='hard']").click()
    wait_reviews(page, VARIANCE, 1)
    assert json.loads(stored(page)[VARIANCE])["reviews"][0]["grade"] == "hard"


def test_a_record_with_an_odd_grade_is_reported_and_the_other_cards_are_reviewed_as_without_it(cards_page, server):
    """A grade that is not text in one stored record once made review-due an internal error for every card, so the
    review page had nothing to review."""
    page = cards_page.page
    good = {SPREAD: history(SPREAD, [("good", timedelta(0))])}
    odd = json.dumps({"version": 1, "card": VARIANCE, "reviews": [{"grade": [], "at": review.stamp(LONG_AGO)}]})
    page.evaluate(PUT, [PREFIX, {**good, VARIANCE: odd}])
    cards_page.open("/review/", ready="[data-card]")
    said = ("Your stored history of card 'step-4-variance-is-dk' cannot be read (in its review 1, its grade must be one "
            "of again, hard, good, easy, got a list), so it is removed, and the card starts afresh.")
    message = page.locator("[data-review-message]")
    message.filter(has_text="cannot be read").wait_for(timeout=20_000)
    assert message.text_content() == said
    assert page.locator(f"[data-card='{VARIANCE}'] [data-said]").text_content() == said
    assert stored(page) == good, "the odd record is removed, the good one stays"
    without = ask({"op": "review-due", "cards": card_ids(server), "records": good,
                   "now": page.evaluate("() => new Date().toISOString()")})
    assert page.locator("[data-review-count]").text_content() == without["summary"]
    states = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('.sq-recall[data-card]')]"
                           ".map((el) => [el.dataset.card, el.dataset.reviewState]))")
    assert states == {c: "new" if s["new"] else "due" if s["is_due"] else "scheduled" for c, s in without["cards"].items()}
    page.locator("[data-review-start]").click()
    current = page.locator("[data-review-slot] [data-card]")
    assert current.get_attribute("data-card") == SPREAD == without["due"][0]
    current.locator("summary").click()
    current.locator("[data-grade='good']").click()
    page.locator("[data-review-progress]").filter(has_text="Saved “Good”").wait_for(timeout=20_000)
    assert [r.grade for r in review.read_record(stored(page)[SPREAD], SPREAD)] == ["good", "good"]
    assert cards_page.errors == []


def test_the_header_counts_the_cards_due(cards_page, server):
    page = cards_page.page
    page.evaluate(PUT, [PREFIX, {VARIANCE: history(VARIANCE, [("good", timedelta(0))]),
                                 SPREAD: history(SPREAD, [("again", timedelta(0))])}])
    cards_page.open("/", ready="[data-figure]")
    due = page.locator(".md-header .sq-due")
    due.filter(has_text="2 due").wait_for(timeout=20_000)
    assert due.get_attribute("href").endswith("/review/") and "2 cards due now." in due.get_attribute("aria-label")


def test_keyboard_alone_reviews_the_due_cards_in_fsrs_order(cards_page, server):
    page = cards_page.page
    records = {VARIANCE: history(VARIANCE, [("good", timedelta(0)), ("good", timedelta(minutes=10))]),
               SPREAD: history(SPREAD, [("hard", timedelta(0)), ("good", timedelta(minutes=6)), ("easy", timedelta(days=1))])}
    page.evaluate(PUT, [PREFIX, records])
    cards_page.open("/review/", ready="[data-card]")
    expected = ask({"op": "review-due", "cards": card_ids(server), "records": records, "now": review.stamp(
        review.moment(page.evaluate("() => new Date().toISOString()")))})
    count = page.locator("[data-review-count]")
    count.filter(has_text="2 cards due now.").wait_for(timeout=20_000)
    assert expected["due"] == sorted(records, key=lambda c: expected["cards"][c]["retrievability"])
    page.locator("h1").evaluate("(h) => { h.tabIndex = -1; h.focus(); }")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('[data-review-start]')"):
            break
    page.keyboard.press("Enter")
    progress = page.locator("[data-review-progress]")
    assert progress.text_content() == f"Card 1 of {len(card_ids(server))}."
    first = page.evaluate("() => document.activeElement.closest('[data-card]').dataset.card")
    assert first == expected["due"][0] and page.evaluate("() => document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")  # shows the answer
    page.keyboard.press("3")  # Good
    progress.filter(has_text="Saved “Good”").wait_for(timeout=20_000)
    assert page.evaluate("() => document.activeElement.closest('[data-card]').dataset.card") == expected["due"][1]
    page.keyboard.press("Enter")
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.grade") == "easy":
            break
    page.keyboard.press("Enter")
    progress.filter(has_text="Saved “Easy”").wait_for(timeout=20_000)
    after = {c: review.read_record(stored(page)[c], c)[-1].grade for c in records}
    assert after == {expected["due"][0]: "good", expected["due"][1]: "easy"}
    assert progress.get_attribute("aria-live") == "polite" and cards_page.errors == []


def test_export_clear_import_restores_the_history_and_bad_files_change_nothing(cards_page, server, tmp_path):
    page = cards_page.page
    records = {VARIANCE: history(VARIANCE, [("good", timedelta(0)), ("easy", timedelta(minutes=10))]),
               SPREAD: history(SPREAD, [("again", timedelta(0))])}
    page.evaluate(PUT, [PREFIX, records])
    cards_page.open("/review/", ready="[data-card]")
    session = page.locator("[data-review-session]")
    with page.expect_download() as info:
        session.locator("[data-review-export]").click()
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(ask({"op": "review-export", "cards": card_ids(server), "records": records,
                               "now": exported["exported"]})["text"])
    assert exported == expected and download.suggested_filename.startswith("sqrt-dk-review-")

    session.locator("[data-review-clear]").click()
    message = session.locator("[data-review-message]")
    message.filter(has_text="Cleared the history of 2 cards").wait_for()
    assert stored(page) == {}
    page.locator(f"[data-card='{VARIANCE}'][data-review-state='new']").first.wait_for()

    for bad, words in [(b"{ not json", "not JSON"),
                       (path.read_bytes().replace(b'"version": 1', b'"version": 9'), "newer version of this site")]:
        page.evaluate(PUT, [PREFIX, {SPREAD: records[SPREAD]}])
        session.locator("[data-review-import]").set_input_files(files=[{"name": "x.json", "mimeType": "application/json",
                                                                        "buffer": bad}])
        message.filter(has_text=words).wait_for(timeout=20_000)
        assert "Nothing was changed." in message.text_content() and stored(page) == {SPREAD: records[SPREAD]}
    session.locator("[data-review-import]").set_input_files(path)
    message.filter(has_text="Imported 2 reviews of 1 card.").wait_for(timeout=20_000)
    assert stored(page) == records, "the file's and the store's histories merged: nothing lost, nothing doubled"
    wait_reviews(page, VARIANCE, 2)


def test_cards_embedded_on_another_site_are_graded_by_touch_in_their_frame(browser, browser_context_args, server,
                                                                           tmp_path):
    from tests.conftest import Server

    host = Server(tmp_path)
    host.url = host.url.replace("127.0.0.1", "localhost")
    (tmp_path / "course.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title></head><body>'
        f'<iframe id="cards" src="{server.url}/embed/cards/step-4/" title="Recall cards" width="100%" height="700">'
        "</iframe></body></html>", encoding="utf-8")
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 390, "height": 844},
                                     "has_touch": True, "is_mobile": True})
    try:
        page = context.new_page()
        page.goto(f"{host.url}/course.html")
        frame = page.frame_locator("#cards")
        frame.locator("[data-card][data-ready='true']").first.wait_for(timeout=READY_MS)
        card = frame.locator(f"[data-card='{VARIANCE}']")
        card.locator("summary").tap()
        card.locator("[data-grade='good']").tap()
        wait_reviews(page, VARIANCE, 1, scope=frame)
        assert frame.locator("[data-review-count]").text_content().startswith("No card is due now. The next one is due in 10 minutes.")
        inner = next(f for f in page.frames if "/embed/cards/" in f.url)
        if inner.evaluate("() => { try { return Boolean(localStorage); } catch { return false; } }"):
            inside = inner.evaluate(STORED, PREFIX)
            assert list(inside) == [VARIANCE] and review.read_record(inside[VARIANCE], VARIANCE)[0].grade == "good"
            own = context.new_page()
            own.goto(server.url + "/references/")
            assert own.evaluate(STORED, PREFIX) == {}, "storage in a frame on another site is kept apart"
        else:  # this browser gives a frame on another site no storage at all (headless Chromium does): it says so
            assert "does not let this page keep your grades" in frame.locator("[data-review-message]").text_content()
    finally:
        context.close()
        host.close()
