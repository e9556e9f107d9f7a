"""Predict, then see: each prompt's right answer, worked out from the state its figure is shown in.

A page asks a question before a figure answers it (a ```predict block: the question, the
choices' words and the state that answers it). Which choice is right is not written there: it
is computed here from that state, with one sentence of why, by the same core the figure uses,
so the answer and the picture cannot disagree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import figures, stats
from .figures import nudge, score_histogram, variance_tower
from .i18n import _
from .params import ParamError, from_json
from .svg import fmt, sig
from .vectors import dot

Judge = Callable[[Any], tuple[str, str]]


@dataclass(frozen=True)
class Prompt:
    """One prediction: the figure that answers it, its choices' names, and how to judge a state."""

    figure: str
    choices: tuple[str, ...]
    judge: Judge
    """state -> (the right choice, one sentence of why)."""


def spread(state: Any) -> float:
    """The sample standard deviation of a score histogram's shown scores."""
    return math.sqrt(stats.variance(score_histogram.scaled(state)))


def compare(now: float, before: float) -> str:
    """wider, same or narrower: ``now`` against ``before``, a quarter either way counting as the same."""
    if now > 1.25 * before:
        return "wider"
    return "narrower" if now < 0.8 * before else "same"


def right_angle(state: Any) -> tuple[str, str]:
    """The sign of q·k."""
    score = dot(state.q, state.k)
    size = math.hypot(*state.q) * math.hypot(*state.k)
    if abs(score) <= 1e-9 * max(size, 1.0):
        return "zero", _("At a right angle the two products cancel exactly: {first} and {second} add up to 0.").format(
            first=fmt(state.q[0] * state.k[0], 2), second=fmt(state.q[1] * state.k[1], 2))
    if score > 0:
        return "positive", _("The arrows are not at a right angle, so the score is positive: {score}.").format(
            score=fmt(score, 2))
    return "negative", _("The arrows are not at a right angle, so the score is negative: {score}.").format(
        score=fmt(score, 2))


def longer_row(state: Any) -> tuple[str, str]:
    """Wider, same or narrower than the same scores at d_k = 16."""
    now, before = spread(state), spread(replace(state, dk=16))
    return compare(now, before), _("Each score now adds up {dk} products instead of 16, and more pieces spread "
                                   "further: their spread is {now}, against {before} at dₖ = 16.").format(
        dk=state.dk, now=fmt(now, 1), before=fmt(before, 1))


def stack_height(state: Any) -> tuple[str, str]:
    """Which of 1, √d_k and d_k the measured variance of the score is nearest to (on a log scale)."""
    _parts, total = variance_tower.measured(state)
    targets = {"one": 1.0, "root": math.sqrt(state.dk), "dk": float(state.dk)}
    right = min(targets, key=lambda name: abs(math.log(total / targets[name])))
    return right, _("Each of the {dk} bricks is about 1 high, and stacked they add up: the score's variance is "
                    "{total}, close to {target}.").format(dk=state.dk, total=fmt(total, 1),
                                                          target=fmt(targets[right], 1))


def stretched_nudge(state: Any) -> tuple[str, str]:
    """More, same or less total weight change than the same nudge at stretch 1."""
    now, gentle = nudge.weight_change(state), nudge.weight_change(replace(state, stretch=1.0))
    right = {"wider": "more", "same": "same", "narrower": "less"}[compare(now, gentle)]
    return right, _("Stretched by {stretch}, the largest weight is already {largest}, so the weights have almost "
                    "nowhere to go: they move {now} in total, against {gentle} at stretch 1.").format(
        stretch=fmt(state.stretch), largest=sig(max(nudge.weights(state)[0])), now=sig(now, 2),
        gentle=sig(gentle, 2))


def shrunk_nudge(state: Any) -> tuple[str, str]:
    """More, same or less total weight change than the same nudge at stretch 1, for a stretch below 1 (÷d_k)."""
    now, gentle = nudge.weight_change(state), nudge.weight_change(replace(state, stretch=1.0))
    right = {"wider": "more", "same": "same", "narrower": "less"}[compare(now, gentle)]
    n = len(state.scores)
    return right, _("Shrunk to {stretch}, the scores are nearly equal: the largest weight is only {largest}, near "
                    "an even 1/{n} = {even}, and the nudge is shrunk with them, so the weights move {now} in total, "
                    "against {gentle} at stretch 1.").format(
        stretch=sig(state.stretch, 3), largest=sig(max(nudge.weights(state)[0]), 2), n=n, even=sig(1 / n, 2),
        now=sig(now, 2), gentle=sig(gentle, 2))


def divide_by_dk(state: Any) -> tuple[str, str]:
    """Wider, same or narrower than the same scores divided by √d_k."""
    now, root = spread(state), spread(replace(state, divisor="sqrt"))
    return compare(now, root), _("Dividing by dₖ = {dk} instead of by √dₖ = {root_dk} shrinks every score "
                                 "{root_dk} times more: their spread is {now}, against {root} with ÷√dₖ.").format(
        dk=state.dk, root_dk=fmt(math.sqrt(state.dk)), now=fmt(now, 3), root=fmt(root, 2))


PROMPTS: dict[str, Prompt] = {
    "right-angle": Prompt("dot-product", ("positive", "zero", "negative"), right_angle),
    "longer-row": Prompt("score-histogram", ("wider", "same", "narrower"), longer_row),
    "stack-height": Prompt("variance-tower", ("one", "root", "dk"), stack_height),
    "stretched-nudge": Prompt("nudge", ("more", "same", "less"), stretched_nudge),
    "shrunk-nudge": Prompt("nudge", ("more", "same", "less"), shrunk_nudge),
    "divide-by-dk": Prompt("score-histogram", ("wider", "same", "narrower"), divide_by_dk),
}


def get(prompt_id: str) -> Prompt:
    """The prompt with this id; an unknown one is a ParamError listing the known ones."""
    try:
        return PROMPTS[prompt_id]
    except KeyError:
        raise ParamError(_("unknown prediction '{prompt}'; known: {known}").format(
            prompt=prompt_id, known=", ".join(PROMPTS))) from None


def shown_state(prompt_id: str, start: Mapping[str, Any], show: Mapping[str, str]) -> Any:
    """The state that answers the prompt: the figure's starting state (data-state JSON) with ``show`` set."""
    module = figures.get(get(prompt_id).figure)
    return module.parse({**from_json(start), **show})


def judge(prompt_id: str, state: Any) -> dict[str, str]:
    """The right choice for a state of the prompt's figure, and why."""
    right, why = get(prompt_id).judge(state)
    return {"right": right, "why": why}


def outcome(prompt_id: str, state: Any, choice: str) -> str:
    """right or wrong: what a reader who chose ``choice`` sees once the figure shows ``state``."""
    return "right" if judge(prompt_id, state)["right"] == choice else "wrong"


def answer(prompt_id: str, start: Mapping[str, Any], show: Mapping[str, str]) -> dict[str, Any]:
    """The bridge's ``predict`` op: the state to draw (JSON) and, for that state, the right choice and why."""
    state = shown_state(prompt_id, start, show)
    return {"state": figures.state_json(state), **judge(prompt_id, state)}
