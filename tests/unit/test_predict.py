"""Predict, then see: every prompt on the step pages, every choice's outcome, and the marker's checks.

The right choice is worked out here a second way, from the figure's own readouts (the numbers a
reader sees) or numpy, not from predict.py's judges.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from pycore import bridge, figures, predict
from pycore.figures import nudge, score_histogram
from pycore.sitegen import markers
from pycore.sitegen.render import render_predict, state_json
from tests.conftest import ROOT

PAGES = {f"step-{n}.md": (ROOT / "site_src" / f"step-{n}.md").read_text(encoding="utf-8") for n in range(2, 7)}


def page_prompts():
    """(page, predict marker, the starting state of the figure it names) for every prompt on steps 2 to 6."""
    out = []
    for page, text in PAGES.items():
        placed, counts = {}, {}
        for match in markers.FENCE.finditer(text):
            marker = markers.parse_marker(match.group("body"))
            counts[marker.figure] = counts.get(marker.figure, 0) + 1
            n = counts[marker.figure]
            placed[marker.anchor or f"fig-{marker.figure}" + (f"-{n}" if n > 1 else "")] = state_json(marker)
        for match in markers.PREDICT.finditer(text):
            marker = markers.parse_predict(match.group("body"))
            out.append((page, marker, placed[marker.figure]))
    return out


PROMPTS = page_prompts()


def test_steps_2_to_6_each_ask_one_question_just_before_its_figure():
    assert sorted({page for page, _, _ in PROMPTS}) == sorted(PAGES)
    assert sorted(m.prompt for _, m, _ in PROMPTS) == sorted(predict.PROMPTS)
    for page, marker, _ in PROMPTS:
        after = PAGES[page].split(f"id: {marker.prompt}\n", 1)[1]
        following = markers.FENCE.search(after)
        assert following and f"id: {predict.get(marker.prompt).figure}\n" in following.group("body"), page


def number(readouts, name):
    return float(readouts[name])


def expected_right(prompt, state):
    """The right choice from what the figure shows (its readouts), or from numpy."""
    module = figures.get(predict.get(prompt).figure)
    r = module.readouts(state)
    if prompt == "right-angle":
        score = float(np.dot(state.q, state.k))
        return "zero" if abs(score) < 1e-9 else "positive" if score > 0 else "negative"
    if prompt == "stack-height":
        total = number(r, "total")
        return min({"one": 1, "root": math.sqrt(state.dk), "dk": state.dk}.items(),
                   key=lambda kv: abs(math.log(total / kv[1])))[0]
    if prompt in ("stretched-nudge", "shrunk-nudge"):
        gentle = nudge.readouts(nudge.State(**{**figures.state_json(state), "scores": state.scores, "stretch": 1.0}))
        ratio = number(r, "weight-change") / number(gentle, "weight-change")
        return "more" if ratio > 1.25 else "less" if ratio < 0.8 else "same"
    base = {"longer-row": {"dk": 16}, "divide-by-dk": {"divisor": "sqrt"}}[prompt]
    other = score_histogram.readouts(score_histogram.parse({**figures.state_params(state), **{k: str(v) for k, v in base.items()}}))
    ratio = number(r, "std") / number(other, "std")
    return "wider" if ratio > 1.25 else "narrower" if ratio < 0.8 else "same"


@pytest.mark.parametrize(("page", "marker", "start"), PROMPTS, ids=[m.prompt for _, m, _ in PROMPTS])
def test_every_choice_gets_the_outcome_the_figure_shows(page, marker, start):
    state = predict.shown_state(marker.prompt, start, marker.show)
    right = expected_right(marker.prompt, state)
    assert right in [name for name, _ in marker.choices]
    for name, _ in marker.choices:
        assert predict.outcome(marker.prompt, state, name) == ("right" if name == right else "wrong")
    why = predict.judge(marker.prompt, state)["why"]
    assert why.endswith(".") and len(why) < 220
    for word in ("Jacobian", "entropy", "‖J‖", "gradient"):
        assert word not in why


@pytest.mark.parametrize(("prompt", "right"), [("right-angle", "zero"), ("longer-row", "wider"),
                                               ("stack-height", "dk"), ("stretched-nudge", "less"),
                                               ("divide-by-dk", "narrower"), ("shrunk-nudge", "less")])
def test_the_pages_prompts_have_the_answers_the_article_teaches(prompt, right):
    _, marker, start = next(p for p in PROMPTS if p[1].prompt == prompt)
    assert predict.judge(prompt, predict.shown_state(prompt, start, marker.show))["right"] == right


def test_judges_follow_the_state_not_the_page():
    angle = figures.get("dot-product")
    assert predict.judge("right-angle", angle.parse({"q": "1,0", "k": "1,1"}))["right"] == "positive"
    assert predict.judge("right-angle", angle.parse({"q": "1,0", "k": "-1,1"}))["right"] == "negative"
    assert predict.judge("stretched-nudge", nudge.State(stretch=1.0))["right"] == "same"
    assert predict.judge("shrunk-nudge", nudge.State(stretch=1.0))["right"] == "same"
    assert predict.judge("divide-by-dk", score_histogram.parse({"dk": "1", "divisor": "dk"}))["right"] == "same"
    assert predict.judge("stack-height", figures.get("variance-tower").parse({"dk": "1"}))["right"] == "one"


def test_the_bridge_op_returns_the_state_to_draw_and_its_verdict():
    import json
    out = json.loads(bridge.handle(json.dumps({"op": "predict", "prompt": "stretched-nudge",
                                               "state": figures.state_json(nudge.State()), "show": {"stretch": "12"}})))
    assert out["state"]["stretch"] == 12 and out["state"]["delta"] == 0.5 and out["right"] == "less"
    bad = json.loads(bridge.handle(json.dumps({"op": "predict", "prompt": "nope", "state": {}, "show": {}})))
    assert bad["failed"] and "unknown prediction 'nope'" in bad["error"]


BODY = """id: stretched-nudge
figure: fig-nudge
question: More or less?
choice more: More
choice same: Same
choice less: Less
show: stretch=12
"""
PLACED = {"fig-nudge": ("nudge", figures.state_json(nudge.State()))}


def test_the_marker_renders_disabled_buttons_that_read_sensibly_without_python():
    html = render_predict(markers.parse_predict(BODY), PLACED)
    assert 'data-predict="stretched-nudge"' in html and 'data-for="fig-nudge"' in html
    assert len(re.findall(r"<button[^>]*data-choice=", html)) == 3 and "Show me" in html
    assert html.count("disabled") == 4 and 'aria-live="polite"' in html
    assert "once Python has loaded" in html and "data-outcome" not in html


@pytest.mark.parametrize(("body", "placed", "message"), [
    (BODY.replace("stretched-nudge", "guess"), PLACED, "unknown prediction 'guess'"),
    (BODY, {}, "no figure 'fig-nudge' on this page"),
    (BODY, {"fig-nudge": ("dot-product", {})}, "answered by a 'nudge' figure"),
    (BODY.replace("choice same: Same\n", "choice maybe: Maybe\n"), PLACED, "its choices are more, same, less"),
    (BODY.replace("stretch=12", "stretch=99"), PLACED, "stretch must be a number from 0.03125 to 16"),
    (BODY.replace("show: stretch=12\n", ""), PLACED, "no 'show:' line"),
    (BODY.replace("choice same: Same\nchoice less: Less\n", ""), PLACED, "two to four"),
    (BODY + "answer: less\n", PLACED, "'answer' is unknown"),
])
def test_marker_mistakes_fail_the_build_with_a_message(body, placed, message):
    with pytest.raises(markers.MarkerError, match=re.escape(message)):
        render_predict(markers.parse_predict(body), placed)


def figures_and_prompts(text: str):
    """A page's figures (anchor, figure id, starting state) and prompts, each with its place in the Markdown."""
    found, counts = [], {}
    for match in markers.FENCE.finditer(text):
        marker = markers.parse_marker(match.group("body"))
        counts[marker.figure] = counts.get(marker.figure, 0) + 1
        n = counts[marker.figure]
        anchor = marker.anchor or f"fig-{marker.figure}" + (f"-{n}" if n > 1 else "")
        found.append((match.start(), "figure", (anchor, marker.figure, state_json(marker))))
    for match in markers.PREDICT.finditer(text):
        found.append((match.start(), "predict", markers.parse_predict(match.group("body"))))
    return sorted(found, key=lambda item: item[0])


EVERY_PAGE = sorted(p.name for p in (ROOT / "site_src").glob("*.md") if "```predict" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", EVERY_PAGE)
def test_no_prediction_stands_below_a_figure_that_already_shows_its_answer(page):
    """Every page with prompts (Steps 2 to 6 today, and any page that gets one): the prompt comes before its
    answering figure and before any figure of the same kind whose starting state shows the right choice."""
    items = figures_and_prompts((ROOT / "site_src" / page).read_text(encoding="utf-8"))
    every = {item[0]: item for _, kind, item in items if kind == "figure"}
    seen = []
    for _, kind, item in items:
        if kind == "figure":
            seen.append(item)
            continue
        answers = predict.get(item.prompt).figure
        assert every[item.figure][1] == answers, page
        right = predict.judge(item.prompt, predict.shown_state(item.prompt, every[item.figure][2], item.show))["right"]
        for anchor, figure_id, state in seen:
            assert anchor != item.figure, f"{page}: '{item.prompt}' stands below its own figure"
            if figure_id == answers:
                shown = predict.judge(item.prompt, predict.shown_state(item.prompt, state, {}))["right"]
                assert shown != right, f"{page}: '{anchor}' above '{item.prompt}' already shows '{right}'"


ROW = {"fig-score-histogram": ("score-histogram", figures.state_json(score_histogram.parse({"dk": "64"})))}
LONGER = """id: longer-row
figure: fig-score-histogram-2
question: Wider or not?
choice wider: Wider
choice same: Same
choice narrower: Narrower
show: dk=256
"""
LONGER_PLACED = {**ROW, "fig-score-histogram-2": ("score-histogram", figures.state_json(score_histogram.parse({"dk": "16"})))}


@pytest.mark.parametrize(("body", "placed", "above", "message"), [
    (BODY, PLACED, ("fig-nudge",), "predict 'stretched-nudge' stands below its figure 'fig-nudge': a prediction "
                                   "comes before the figure that answers it"),
    (LONGER, LONGER_PLACED, ("fig-score-histogram",),
     "predict 'longer-row': the figure 'fig-score-histogram' above it already shows the answer ('wider'): Each score "
     "now adds up 64 products instead of 16"),
])
def test_a_figure_above_that_answers_the_prompt_fails_the_build(body, placed, above, message):
    with pytest.raises(markers.MarkerError, match=re.escape(message)):
        render_predict(markers.parse_predict(body), placed, above)


@pytest.mark.parametrize("shown", [{"dk": "1"}, {"dk": "16", "divisor": "sqrt"}])
def test_a_figure_of_the_same_kind_above_that_does_not_show_the_answer_is_allowed(shown):
    placed = {**LONGER_PLACED, "fig-score-histogram": ("score-histogram", figures.state_json(score_histogram.parse(shown)))}
    html = render_predict(markers.parse_predict(LONGER), placed, ("fig-score-histogram",))
    assert 'data-predict="longer-row"' in html
    other = {**PLACED, "fig-softmax-spike": ("softmax-spike", {})}
    assert 'data-predict="stretched-nudge"' in render_predict(markers.parse_predict(BODY), other, ("fig-softmax-spike",))


def test_a_stretch_the_question_names_is_the_stretch_its_figure_opens_at_and_shows():
    """Step 5 asks about the stretch its nudge figure opens at (8, where Step 6's marks put ÷1 at d_k = 64), and
    Show me draws that stretch; a question about another stretch would have the reader compare two pictures."""
    for _, marker, start in PROMPTS:
        asked = re.search(r"Stretch the scores by (\d+)", marker.question)
        if asked:
            shown = predict.shown_state(marker.prompt, start, marker.show)
            opened = predict.shown_state(marker.prompt, start, {})
            assert float(asked.group(1)) == shown.stretch == opened.stretch == 8
