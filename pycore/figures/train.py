"""Train it yourself: the tiny attention layer of ``pycore.train`` with ÷1, ÷√d_k and ÷d_k, side by side, live."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from time import perf_counter
from typing import Any

from .. import marks, params, stats, train
from ..controls import Button
from ..detmath import log
from ..svg import el, fmt, sig, svg, text
from . import _chart, _common, _snippet

TITLE = "Train it yourself: three divisors, one task"
PAGE = "train/"
HEIGHT = 700
READOUTS = (("step", "step"), ("loss-none", "loss, none"), ("loss-sqrt", "loss, ÷√dₖ"), ("loss-dk", "loss, ÷dₖ"),
            ("saturated-none", "saturated, none"), ("saturated-sqrt", "saturated, ÷√dₖ"),
            ("saturated-dk", "saturated, ÷dₖ"))
PARAMS = (
    _common.dk(train.DK_DEFAULT, control="range", label="dₖ", sample="16"),
    params.choice("optimizer", "sgd", (("sgd", "SGD"), ("adam", "Adam")), "The optimizer: sgd or adam.",
                  control="choice", label="optimizer"),
    params.auto_number("lr", 0.0001, 10, "Learning rate, or auto (SGD "
                       f"{train.LR['sgd']:g}, Adam {train.LR['adam']:g}).", control="text", label="learning rate",
                       sample="0.2", advanced=True),
    _common.seed(control="text", label="seed"),
    params.integer("step", train.STEPS, 0, train.STEPS, "How many training steps are shown (the run stops there).",
                   sample="20", advanced=True),
)
CONTROLS = (*params.controls(PARAMS), Button("run", "Run"), Button("pause", "Pause"), Button("reset", "Reset run"))
State = params.state_class(PARAMS, "One training setup for all three divisors, and how far the run has gone.")
derived_values = _common.no_derived_values
SERIES, NAMES = _common.SERIES, _common.NAMES
WINDOW = 10
"""Steps each plotted point averages: one batch of 8 is noisy."""
LOG_LO, LOG_HI = -2.0, 1.0
"""The loss axis, log10: 0.01 to 10; a run that leaves it or diverges gets a note."""


def parse(p: params.Params) -> Any:
    """State from ``dk``, ``optimizer``, ``lr`` (auto or 0.0001-10), ``seed`` and ``step`` (0 to STEPS)."""
    return params.parse(PARAMS, State, p)


def lr(state: Any) -> float:
    """The learning rate in use."""
    return train.LR[state.optimizer] if state.lr == "auto" else float(state.lr)


def runs(state: Any, fresh: bool = False) -> dict[str, train.Trainer]:
    """The three trainers of this setup, one per divisor; ``fresh`` starts them over."""
    return {d: train.trainer(state.dk, d, state.optimizer, lr(state), state.seed, fresh) for d in train.DIVISORS}


def progress(state: Any) -> int:
    """Steps every divisor has done so far."""
    return min(t.done for t in runs(state).values())


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """Run (from the start again once finished), Pause where the run has got to, Reset the run to step 0."""
    kind = event.get("type")
    if kind == "run":
        if state.step >= train.STEPS and progress(state) >= train.STEPS:
            runs(state, fresh=True)
        return replace(state, step=train.STEPS)
    if kind == "pause":
        return replace(state, step=min(state.step, progress(state)))
    if kind == "reset":
        runs(state, fresh=True)
        return replace(state, step=0)
    return state


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Train the three divisors a step each in turn until all reach ``step`` or the deadline passes."""
    trainers = list(runs(state).values())
    while min(t.done for t in trainers) < state.step:
        for t in trainers:
            t.ensure(min(t.done + 1, state.step))
        if deadline is not None and perf_counter() >= deadline:
            break
    done = min(t.done for t in trainers)
    return None if done >= state.step else (replace(state, step=done), f"training: step {done} of {state.step}")


def _log10(x: float) -> float:
    return log(x) / log(10.0)


def render(state: Any) -> str:
    """Loss per step on a log axis for the three divisors, a progress bar, and where a run diverged."""
    trainers = runs(state)
    for t in trainers.values():
        t.ensure(state.step)
    ax = _chart.axes(0.0, float(train.STEPS), LOG_LO, LOG_HI, left=52, right=588, top=62, bottom=250)
    yt = [(float(k), "1" if k == 0 else f"10{_sup(k)}") for k in range(int(LOG_LO), int(LOG_HI) + 1)]
    xt = [(float(v), str(v)) for v in range(0, train.STEPS + 1, train.STEPS // 4)]
    parts = _chart.frame(ax, f"Training loss, dₖ = {state.dk}, {state.optimizer.upper()} at lr {fmt(lr(state), 4)}",
                         xt, yt, f"step (one fresh batch each; the lines average the last {WINDOW} batches)")
    width = (ax.x.r1 - ax.x.r0) * state.step / train.STEPS
    parts += [marks.rect(ax.x.r0, 28, ax.x.r1 - ax.x.r0, 8, "sq-progress"),
              marks.rect(ax.x.r0, 28, width, 8, "sq-progress__done"),
              text(ax.x.r1, 24, f"step {state.step} of {train.STEPS}", "sq-tick", "end")]
    notes = []
    for divisor, t in trainers.items():
        losses = t.losses[:state.step]
        smooth = [stats.mean(losses[max(0, i - WINDOW + 1):i + 1]) for i in range(len(losses))]
        shown = [(float(i + 1), _log10(v)) for i, v in enumerate(smooth) if math.isfinite(v) and v > 0]
        if shown:
            parts.append(el("g", {"class": f"sq-series {SERIES[divisor]}"}, [
                marks.polyline([(ax.x(x), ax.y.clamped(y)) for x, y in shown], "sq-series__line")]))
        stop = next((i for i, v in enumerate(losses) if not math.isfinite(v)), None)
        top = max((v for v in losses if math.isfinite(v)), default=0.0)
        if stop is not None:
            notes.append(f"{NAMES[divisor]} diverged at step {stop + 1}")
        elif top > 10**LOG_HI:
            notes.append(f"{NAMES[divisor]} rose to {sig(top, 2)}, off the axis")
    parts += _chart.legend(ax.x.r1 - 60, ax.y.r0 - 40, [(SERIES[d], NAMES[d]) for d in train.DIVISORS])
    if notes:
        parts.append(text(ax.x.r1, ax.y.r1 + 14, "; ".join(notes), "sq-value", "end"))
    label = (f"Training loss of {state.step} of {train.STEPS} steps at d_k {state.dk} with {state.optimizer}: "
             + "; ".join(f"{_common.SPOKEN[d]} "
                         f"{_last(trainers[d], state.step)}" for d in train.DIVISORS)
             + ("; " + "; ".join(notes) if notes else ""))
    return svg(600, 290, label, parts, "sq-train")


def _sup(k: int) -> str:
    return str(k).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _last(t: train.Trainer, step: int) -> str:
    """The loss of the last step shown, or a dash before the first."""
    return "–" if step == 0 else ("diverged" if not math.isfinite(t.losses[step - 1]) else sig(t.losses[step - 1]))


def readouts(state: Any) -> dict[str, str]:
    """The step, and per divisor the loss and saturated share of the last step's batch."""
    trainers = runs(state)
    out = {"step": str(state.step)}
    for divisor, t in trainers.items():
        t.ensure(state.step)
        out[f"loss-{divisor}"] = _last(t, state.step)
        out[f"saturated-{divisor}"] = "–" if state.step == 0 else sig(t.saturated[state.step - 1], 3)
    return out


def snippet(state: Any) -> str:
    """A numpy script that trains the same model for ``step`` steps on its own random batches."""
    return _snippet.script(TITLE, {"dk": state.dk, "optimizer": state.optimizer, "lr": lr(state), "seed": state.seed,
                                   "steps": state.step, "D": train.D, "n": train.N, "batch": train.BATCH,
                                   "sigma": train.SIGMA}, _BODY, sampled=True)


_BODY = '''rng = np.random.default_rng(seed)
wq0 = rng.standard_normal((D, dk)) / np.sqrt(D)  # fan-in initialization: q and k start with unit variance
wk0 = rng.standard_normal((D, dk)) / np.sqrt(D)
out = {"step": steps}
for divisor, c in (("none", 1.0), ("sqrt", np.sqrt(dk)), ("dk", float(dk))):
    data = np.random.default_rng(seed + 1)  # the same batches for every divisor
    wq, wk, m, v = wq0.copy(), wk0.copy(), [0, 0], [0, 0]
    loss, sat = float("nan"), float("nan")
    for t in range(1, steps + 1):
        x = data.standard_normal((batch, n, D))
        target = data.integers(n, size=batch)
        xq = (x[np.arange(batch), target] + sigma * data.standard_normal((batch, D))) / np.sqrt(1 + sigma**2)
        s = np.einsum("bd,bnd->bn", xq @ wq, x @ wk) / c
        p = np.exp(s - s.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        loss = float(-np.log(p[np.arange(batch), target]).mean())
        sat = float((p.max(1) > 0.99).mean())
        g = p.copy()
        g[np.arange(batch), target] -= 1
        g /= batch
        r = np.einsum("bn,bnd->bd", g, x)  # dL/dq = r W_K / c
        gq = xq.T @ r @ wk / c
        gk = r.T @ xq @ wq / c
        for i, (w, grad) in enumerate(((wq, gq), (wk, gk))):
            if optimizer == "sgd":
                w -= lr * grad
            else:
                m[i] = 0.9 * m[i] + 0.1 * grad
                v[i] = 0.999 * v[i] + 0.001 * grad**2
                w -= lr * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
    out[f"loss-{divisor}"] = sig(loss) if np.isfinite(loss) else "diverged"
    out[f"saturated-{divisor}"] = sig(sat, 3)
for name in ("step", "loss-none", "loss-sqrt", "loss-dk", "saturated-none", "saturated-sqrt", "saturated-dk"):
    print(f"{name}:", out[name])
'''
