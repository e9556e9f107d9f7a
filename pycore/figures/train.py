"""Train it yourself: the tiny attention layer of ``pycore.train`` with ÷1, ÷√d_k and ÷d_k, side by side, live."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from time import perf_counter
from typing import Any

from .. import marks, params, stats, train
from ..controls import Button
from ..detmath import log
from ..i18n import N_, _, clauses
from ..svg import el, fmt, sig, svg, text
from . import _chart, _common, _snippet

TITLE = N_("Train it yourself: three divisors, one task")
PAGE = "train/"
HEIGHT = 700
READOUTS = (("step", N_("step")), ("loss-none", N_("loss, none")), ("loss-sqrt", N_("loss, ÷√dₖ")),
            ("loss-dk", N_("loss, ÷dₖ")), ("saturated-none", N_("saturated, none")),
            ("saturated-sqrt", N_("saturated, ÷√dₖ")), ("saturated-dk", N_("saturated, ÷dₖ")),
            ("stuck-none", N_("stuck, none")), ("stuck-sqrt", N_("stuck, ÷√dₖ")), ("stuck-dk", N_("stuck, ÷dₖ")),
            ("grad-none", N_("gradient to W_Q, none")), ("grad-sqrt", N_("gradient to W_Q, ÷√dₖ")),
            ("grad-dk", N_("gradient to W_Q, ÷dₖ")))
PARAMS = (
    _common.dk(train.DK_DEFAULT, control="range", label="dₖ", sample="16"),
    params.choice("optimizer", "sgd", (("sgd", "SGD"), ("adam", "Adam")), N_("The optimizer: sgd or adam."),
                  control="choice", label=N_("optimizer")),
    # The rates of train.LR, written out so that the doc is one message: change them together.
    params.auto_number("lr", 0.0001, 10, N_("Learning rate, or auto (SGD 0.5, Adam 0.01)."), control="text",
                       label=N_("learning rate"), sample="0.2", advanced=True),
    _common.seed(control="text", label=N_("seed")),
    params.integer("step", train.STEPS, 0, train.STEPS,
                   N_("How many training steps are shown (the run stops there)."), sample="20", advanced=True),
)
CONTROLS = (*params.controls(PARAMS), Button("run", N_("Run")), Button("pause", N_("Pause")),
            Button("reset", N_("Reset run")))
State = params.state_class(PARAMS, "One training setup for all three divisors, and how far the run has gone.")
derived_values = _common.no_derived_values
SERIES = _common.SERIES
WINDOW = 10
"""Steps each plotted point averages: one batch of 8 is noisy."""
LOSS_TICKS = (0.03, 0.1, 0.3, 1.0, 3.0)
"""The loss axis, on a log scale from the first tick to the last; a run that leaves it or diverges gets a note."""
STUCK_HI = 0.6
"""The stuck-rows axis runs from 0 to this share."""


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
    return None if done >= state.step else (replace(state, step=done),
                                            _("training: step {done} of {step}").format(done=done, step=state.step))


def _log10(x: float) -> float:
    return log(x) / log(10.0)


def _smooth(values: list[float]) -> list[float]:
    """Each step's mean over the last WINDOW steps (fewer at the start)."""
    return [stats.mean(values[max(0, i - WINDOW + 1):i + 1]) for i in range(len(values))]


def _lines(ax: _chart.Axes, per_divisor: dict[str, list[float]],
           onto: Callable[[float], float] = float) -> list[str]:
    """One line per divisor: each step's mean over the last WINDOW steps, put on the axis by ``onto`` and drawn on
    its edge where it leaves it; steps whose mean is not finite are left out."""
    parts = []
    for divisor, values in per_divisor.items():
        shown = [(ax.x(float(i + 1)), ax.y.clamped(onto(v))) for i, v in enumerate(_smooth(values))
                 if math.isfinite(v)]
        if shown:
            parts.append(el("g", {"class": f"sq-series {SERIES[divisor]}"},
                            [marks.polyline(shown, "sq-series__line")]))
    return parts


def _steps_axis() -> list[tuple[float, str]]:
    return [(float(v), str(v)) for v in range(0, train.STEPS + 1, train.STEPS // 4)]


def _loss_panel(state: Any, trainers: dict[str, train.Trainer]) -> str:
    lo, hi = _log10(LOSS_TICKS[0]), _log10(LOSS_TICKS[-1])
    ax = _chart.axes(0.0, float(train.STEPS), lo, hi, left=52, right=588, top=62, bottom=250)
    yt = [(_log10(v), fmt(v, 2)) for v in LOSS_TICKS]
    title = _("Training loss, dₖ = {dk}, {optimizer}, learning rate {lr}").format(
        dk=state.dk, optimizer=state.optimizer.upper(), lr=fmt(lr(state), 4))
    parts = _chart.frame(ax, title, _steps_axis(), yt,
                         _("step (one fresh batch each; the lines average the last {window} batches)").format(
                             window=WINDOW))
    width = (ax.x.r1 - ax.x.r0) * state.step / train.STEPS
    parts += [marks.rect(ax.x.r0, 28, ax.x.r1 - ax.x.r0, 8, "sq-progress"),
              marks.rect(ax.x.r0, 28, width, 8, "sq-progress__done"),
              text(ax.x.r1, 24, _("step {step} of {steps}").format(step=state.step, steps=train.STEPS), "sq-tick",
                   "end")]
    parts += _lines(ax, {d: t.losses[:state.step] for d, t in trainers.items()}, _log10)
    notes = [_note(d, t.losses[:state.step]) for d, t in trainers.items()]
    notes = [n for n in notes if n]
    parts += _chart.legend(ax.x.r1 - 60, ax.y.r1 + 14, [(SERIES[d], _common.legend_name(d)) for d in train.DIVISORS])
    if notes:
        parts.append(text(ax.x.r1 - 72, ax.y.r1 + 14, clauses(notes), "sq-value", "end"))
    items = [_each(d, _last(trainers[d], state.step)) for d in train.DIVISORS] + notes
    label = _("Training loss of {step} of {steps} steps at d_k {dk} with {optimizer}: {items}").format(
        step=state.step, steps=train.STEPS, dk=state.dk, optimizer=state.optimizer, items=clauses(items))
    return svg(600, 290, label, parts, "sq-train")


def _note(divisor: str, losses: list[float]) -> str:
    """Where a run diverged or its line left the loss axis, or nothing."""
    stop = next((i for i, v in enumerate(losses) if not math.isfinite(v)), None)
    name = _common.legend_name(divisor)
    if stop is not None:
        return _("{divisor} diverged at step {step}").format(divisor=name, step=stop + 1)
    line = _smooth(losses)
    top = max(line, default=0.0)
    if top > LOSS_TICKS[-1]:
        return _("{divisor} rose to {loss}, off the axis").format(divisor=name, loss=sig(top, 2))
    low = sum(v < LOSS_TICKS[0] for v in line)
    if not low:
        return ""
    return _("{divisor} under {floor} at {count} steps, drawn on the edge").format(
        divisor=name, floor=fmt(LOSS_TICKS[0], 2), count=low)


def _each(divisor: str, value: str) -> str:
    """One divisor's item of an accessible label's list: its spoken name, then its value."""
    return _("{divisor} {value}").format(divisor=_common.spoken_name(divisor), value=value)


def _stuck_panel(state: Any, trainers: dict[str, train.Trainer]) -> str:
    ax = _chart.axes(0.0, float(train.STEPS), 0.0, STUCK_HI, left=52, right=588, top=36, bottom=150)
    parts = _chart.frame(ax, _("Rows stuck: saturated on a wrong key"), _steps_axis(), _chart.share_ticks(STUCK_HI),
                         _("step (share of each batch's rows, averaged over the last {window} batches)").format(
                             window=WINDOW))
    parts += _lines(ax, {d: t.stuck[:state.step] for d, t in trainers.items()})
    label = _("Share of rows saturated on a wrong key over {steps} steps: {shares}").format(
        steps=state.step, shares=clauses(_each(d, _share(trainers[d].stuck, state.step)) for d in train.DIVISORS))
    return svg(600, 196, label, parts, "sq-train")


def render(state: Any) -> str:
    """Loss per step on a log axis for the three divisors with a progress bar, then the share of stuck rows."""
    trainers = runs(state)
    for t in trainers.values():
        t.ensure(state.step)
    return _loss_panel(state, trainers) + _stuck_panel(state, trainers)


def _last(t: train.Trainer, step: int) -> str:
    """The loss of the last step shown, or a dash before the first."""
    if step == 0:
        return _("–")
    return _("diverged") if not math.isfinite(t.losses[step - 1]) else sig(t.losses[step - 1])


def _share(values: list[float], step: int) -> str:
    """The last step's share, or a dash before the first."""
    return _("–") if step == 0 else sig(values[step - 1], 3)


def caption(state: Any) -> str:
    """The caption's live line: the run the figure shows now, and whose rate it uses."""
    line = (_("dₖ = {dk}, {optimizer} at a learning rate of {lr} (÷√dₖ's own best at dₖ = 64), seed {seed}: step "
              "{step} of {steps}.") if state.lr == "auto" else
            _("dₖ = {dk}, {optimizer} at a learning rate of {lr}, seed {seed}: step {step} of {steps}."))
    return line.format(dk=state.dk, optimizer=state.optimizer.upper(), lr=fmt(lr(state), 4), seed=state.seed,
                       step=state.step, steps=train.STEPS)


def readouts(state: Any) -> dict[str, str]:
    """The step, and per divisor the last step's loss, saturated and stuck shares and gradient toward W_Q."""
    trainers = runs(state)
    out = {"step": str(state.step)}
    for name in ("loss", "saturated", "stuck", "grad"):
        for divisor, t in trainers.items():
            t.ensure(state.step)
            out[f"{name}-{divisor}"] = (_last(t, state.step) if name == "loss" else
                                        _share(t.grad_q if name == "grad" else getattr(t, name), state.step))
    return out


def snippet(state: Any) -> str:
    """A numpy script that trains the same model for ``step`` steps on its own random batches."""
    return _snippet.script(TITLE, {"dk": state.dk, "optimizer": state.optimizer, "lr": lr(state), "seed": state.seed,
                                   "steps": state.step, "D": train.D, "n": train.N, "batch": train.BATCH,
                                   "sigma": train.SIGMA}, _BODY, sampled=True)


_BODY = '''rng = np.random.default_rng(seed)
wq0 = rng.standard_normal((D, dk)) / np.sqrt(D)  # fan-in initialization: q and k start with unit variance
wk0 = rng.standard_normal((D, dk)) / np.sqrt(D)
rows = np.arange(batch)
out = {"step": steps}
for divisor, c in (("none", 1.0), ("sqrt", np.sqrt(dk)), ("dk", float(dk))):
    data = np.random.default_rng(seed + 1)  # the same batches for every divisor
    wq, wk, m, v = wq0.copy(), wk0.copy(), [0, 0], [0, 0]
    loss = sat = stuck = grad = float("nan")
    for t in range(1, steps + 1):
        x = data.standard_normal((batch, n, D))  # the keys' inputs, which are also the values
        target = data.integers(n, size=batch)
        xq = (x[rows, target] + sigma * data.standard_normal((batch, D))) / np.sqrt(1 + sigma**2)
        s = np.einsum("bd,bnd->bn", xq @ wq, x @ wk) / c
        p = np.exp(s - s.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        o = np.einsum("bn,bnd->bd", p, x)  # the output: the weighted average of the values
        err = o - x[rows, target]
        loss = float((err**2).mean())
        big = p.max(1) > 0.99
        sat, stuck = float(big.mean()), float((big & (p.argmax(1) != target)).mean())
        g = 2 * err / D / batch  # dL/do
        a = p * (np.einsum("bnd,bd->bn", x, g) - (o * g).sum(1, keepdims=True))  # dL/ds, through softmax
        r = np.einsum("bn,bnd->bd", a, x)  # dL/dq = r W_K / c
        gq = xq.T @ r @ wk / c
        gk = r.T @ xq @ wq / c
        grad = float(np.linalg.norm(gq))
        for i, (w, dw) in enumerate(((wq, gq), (wk, gk))):
            if optimizer == "sgd":
                w -= lr * dw
            else:
                m[i] = 0.9 * m[i] + 0.1 * dw
                v[i] = 0.999 * v[i] + 0.001 * dw**2
                w -= lr * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
    out[f"loss-{divisor}"] = sig(loss) if np.isfinite(loss) else "diverged"
    out.update({f"saturated-{divisor}": sig(sat, 3), f"stuck-{divisor}": sig(stuck, 3), f"grad-{divisor}": sig(grad, 3)})
for name in ["step"] + [f"{k}-{d}" for k in ("loss", "saturated", "stuck", "grad") for d in ("none", "sqrt", "dk")]:
    print(f"{name}:", out[name])
'''
