"""Steps 1-2 in the browser: drag and key-move the tips; the page agrees with CPython and numpy."""

from __future__ import annotations

import numpy as np

from pycore.figures import query_key
from tests.browser.conftest import drag, expected, shows

DOT = "[data-figure='dot-product']"
QK = "[data-figure='query-key']"


def test_drag_q_with_the_mouse_updates_dot_like_numpy(watched):
    page = watched.open("/step-2/")
    before = watched.state(DOT)
    drag(page, DOT, "q", -60, -90, steps=8)
    watched.wait_state_change(DOT, before)
    watched.settle(DOT)
    state = watched.state(DOT)
    assert state["q"] != before["q"] and state["k"] == before["k"]
    shown = watched.readouts(DOT)
    assert float(shown["dot"]) == np.float64(np.dot(state["q"], state["k"])).round(4)
    svg, readouts = expected("dot-product", state)
    assert shown == readouts
    assert watched.svg(DOT) == svg
    assert watched.errors == []


def test_arrow_keys_move_the_focused_tip(watched):
    page = watched.open("/step-2/")
    start = watched.state(DOT)
    page.locator(f"{DOT} [data-handle='q']").focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowUp", "Shift+ArrowLeft"):
        page.keyboard.press(key)
    page.wait_for_function(
        f"() => JSON.parse(document.querySelector(\"{DOT}\").dataset.state).q[0] === {round(start['q'][0] + 0.2 - 0.5, 2)}")
    watched.settle(DOT)
    state = watched.state(DOT)
    assert state["q"] == [round(start["q"][0] - 0.3, 2), round(start["q"][1] + 0.1, 2)]
    assert float(watched.readouts(DOT)["dot"]) == np.float64(np.dot(state["q"], state["k"])).round(4)
    assert page.evaluate("() => document.activeElement.dataset.handle") == "q", "focus survives the redraw"
    svg, readouts = expected("dot-product", state)
    page.evaluate("() => document.activeElement.blur()")  # Material marks focus with a class; drop it
    assert watched.svg(DOT) == svg and shows(watched.readouts(DOT), readouts)
    announced = page.locator(f"{DOT} [data-announce]").text_content()
    assert f"score q·k {readouts['dot']}" in announced


def test_swing_slider_turns_k_to_opposed(watched):
    page = watched.open("/step-2/")
    before = watched.state(DOT)
    page.locator(f"{DOT} input[data-field='swing']").fill("180")
    watched.wait_state_change(DOT, before)
    watched.settle(DOT)
    state = watched.state(DOT)
    assert watched.readouts(DOT)["cue"] == "opposed"
    assert float(watched.readouts(DOT)["dot"]) == np.float64(np.dot(state["q"], state["k"])).round(4) < 0


def test_query_key_drag_k_and_readouts(watched):
    page = watched.open("/step-1/")
    before = watched.state(QK)
    drag(page, QK, "k", 40, 40, steps=5)
    watched.wait_state_change(QK, before)
    watched.settle(QK)
    state = watched.state(QK)
    svg, readouts = expected("query-key", state)
    assert shows(watched.readouts(QK), readouts) and watched.svg(QK) == svg
    assert readouts["k"] == f"({state['k'][0]:g}, {state['k'][1]:g})"


def test_a_drag_keeps_its_grab_offset(watched):
    """A tip grabbed off its centre does not jump to the pointer: it moves by what the pointer moves."""
    page = watched.open("/step-1/")
    before = watched.state(QK)
    dot = page.locator(f"{QK} [data-handle='q'] .sq-dot")
    dot.scroll_into_view_if_needed()
    box = dot.bounding_box()
    x, y = box["x"] + box["width"] / 2 + 12, box["y"] + box["height"] / 2 + 9  # 15 CSS px from the centre
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('[data-handle]').dataset.handle",
                         [x, y]) == "q"
    px_per_unit = page.locator(f"{QK} svg").evaluate("s => s.getScreenCTM().a") * (query_key.PLANE.x(1) - query_key.PLANE.x(0))
    page.mouse.move(x, y)
    page.mouse.down()
    watched.settle(QK)
    assert watched.state(QK) == before, "pressing alone moves nothing"
    dx, dy = -40, 30
    page.mouse.move(x + dx, y + dy, steps=4)
    page.mouse.up()
    watched.wait_state_change(QK, before)
    watched.settle(QK)
    state = watched.state(QK)
    want = (before["q"][0] + dx / px_per_unit, before["q"][1] - dy / px_per_unit)  # data y grows upwards
    slack = 0.01 + 1 / px_per_unit  # the figure snaps to 0.01; the mouse lands on whole pixels
    assert abs(state["q"][0] - want[0]) <= slack and abs(state["q"][1] - want[1]) <= slack, (state["q"], want)
    assert state["k"] == before["k"]
    svg, readouts = expected("query-key", state)
    assert watched.svg(QK) == svg and shows(watched.readouts(QK), readouts)
    assert watched.errors == []


def test_no_request_leaves_the_local_server(browser, browser_context_args, server):
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(server.url + "/step-2/")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=60_000)
    page.wait_for_timeout(500)
    outside = [u for u in requests if not u.startswith(server.url) and not u.startswith("data:")]
    assert outside == []
    assert any(u.endswith("pyodide.asm.wasm") for u in requests), "the worker's requests are seen too"
    assert errors == []
    context.close()
