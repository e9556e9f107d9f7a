"""Numbers in the prose, inserted at build time: an empty ``<span data-claim="NAME"></span>`` gets NAME's value.

A page writes where a number goes and which one, never the number itself, so the prose cannot drift from
the run that backs it. Names are dotted paths into the experiments (``reproduce.saturated.none.256``)
or into a figure's default readouts (``figure.saturation.saturated.percent``);
``names()`` lists them all. The span stays in the page with its name, so a test or a reader's tool can
find where each number came from. An unknown name fails the build with the names that come closest.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
from collections.abc import Callable

import numpy as np

from pycore import long_rows, train
from pycore.i18n import _
from pycore.svg import fmt, sig
from pycore.figures import length, operating_point, saturation, summary_pipeline
from pycore.experiments import lr_sweep, model
from pycore.experiments import reproduce_table, train_runs

CLAIM = re.compile(r'<span data-claim="(?P<name>[\w.-]+)"></span>')


class ClaimError(ValueError):
    """A claim the experiments do not provide."""


def _percent(x: float) -> str:
    """A share as a whole percentage: 0.559 → 56%."""
    return f"{round(100 * x)}%"


@functools.lru_cache(maxsize=1)
def registry() -> dict[str, Callable[[], str]]:
    """Every claim name and how to compute its text; nothing runs until a page asks for a name."""
    out: dict[str, Callable[[], str]] = {}
    for dk in reproduce_table.DKS:
        def share(dk=dk):
            return reproduce_table.saturated_shares()[dk]
        out[f"reproduce.saturated.none.{dk}"] = lambda share=share: reproduce_table.show(share())
        out[f"reproduce.saturated.none.{dk}.percent"] = lambda share=share: _percent(share().value)
    for o, d in itertools.product(train.OPTIMIZERS, train.DIVISORS):
        out[f"lr-sweep.one-rate.{o}.{d}.rate"] = lambda o=o, d=d: lr_sweep.rate(lr_sweep.one_rate(lr_sweep.sweep(), o, d)[0])
        out[f"lr-sweep.one-rate.{o}.{d}.cost"] = lambda o=o, d=d: lr_sweep.num(lr_sweep.one_rate(lr_sweep.sweep(), o, d)[1])
        for dk in model.DKS:
            out[f"lr-sweep.best.{o}.{dk}.{d}.rate"] = lambda o=o, dk=dk, d=d: lr_sweep.rate(lr_sweep.sweep().best(o, dk, d)[0])
            out[f"lr-sweep.best.{o}.{dk}.{d}.loss"] = lambda o=o, dk=dk, d=d: lr_sweep.num(lr_sweep.sweep().best(o, dk, d)[1])
            out[f"train-grid.final.{o}.{dk}.{d}"] = lambda o=o, dk=dk, d=d: train_runs.num(train_runs.grid().at(o, dk, d).median)
            out[f"train-grid.range.{o}.{dk}.{d}"] = lambda o=o, dk=dk, d=d: train_runs.spread(train_runs.grid().at(o, dk, d))
            out[f"train-grid.grad.{o}.{dk}.{d}.median"] = lambda o=o, dk=dk, d=d: sig(_grad_quartiles(o, dk, d)[1], 2)
            out[f"train-grid.grad.{o}.{dk}.{d}.middle"] = lambda o=o, dk=dk, d=d: _("{low} to {high}").format(
                **dict(zip(("low", "high"), (sig(q, 2) for q in _grad_quartiles(o, dk, d)[::2]))))
            if d != "sqrt":
                out[f"train-grid.paired.{o}.{dk}.{d}"] = lambda o=o, dk=dk, d=d: train_runs.difference(
                    train_runs.grid(), o, dk, "sqrt", d)
            for when in ("first", "last"):
                out[f"train-grid.stuck.{when}.{o}.{dk}.{d}"] = lambda o=o, dk=dk, d=d, when=when: train_runs.percent(
                    float(np.median(getattr(train_runs.grid().at(o, dk, d), "stuck_first" if when == "first" else "stuck"))))
    out["reproduce.rows"] = lambda: f"{reproduce_table.ROWS:,}"
    out["reproduce.saturated.none.64.z-figure"] = lambda: fmt(abs(_figure_z(64)), 1)
    out["train-grid.seeds"] = lambda: str(len(train_runs.grid().seeds))
    out["train-grid.saturated.sgd.64.sqrt"] = lambda: train_runs.percent(
        float(np.median(train_runs.grid().at("sgd", 64, "sqrt").saturated)))
    out["train-grid.grad.sgd.64.none-smaller.percent"] = lambda: _percent(float(np.mean(
        np.array(train_runs.grid().at("sgd", 64, "none").grad_q) < np.array(train_runs.grid().at("sgd", 64, "sqrt").grad_q))))
    out["train.loss.even"] = lambda: fmt(train_runs.even_loss(), 3)
    out["train.loss.wrong-spike"] = lambda: fmt(train_runs.wrong_spike_loss(), 3)
    out["train.grad.stuck"] = lambda: sig(train_runs.start_gradients().stuck, 2)
    out["train.grad.unstuck"] = lambda: sig(train_runs.start_gradients().others, 2)
    out["train.grad.log-loss.wrong-spike"] = lambda: sig(train_runs.start_gradients().log_loss, 3)
    out["figure.saturation.saturated.percent"] = lambda: _figure_share(saturation, saturation.State(), "saturated")
    out["figure.saturation.sqrt.median-max-weight"] = lambda: f"{_readout(saturation, saturation.State(divisor='sqrt'), 'median-max-weight'):.2f}"
    for n in (16, 1024):
        out[f"figure.length.sqrt.{n}"] = lambda n=n: sig(_length_median("sqrt", n), 3 if n > 16 else 2)
    out["figure.length.sqrt.1024.times-n"] = lambda: str(round(1024 * _length_median("sqrt", 1024)))
    out["figure.length.log-n.low"] = lambda: f"{min(_length_held()):.2f}"
    out["figure.length.log-n.high"] = lambda: f"{max(_length_held()):.2f}"
    out["figure.operating-point.moved.none-over-sqrt.8"] = lambda: fmt(_moved_ratio(8), 1)
    out["figure.summary-pipeline.off.saturated.percent"] = lambda: _percent(
        _readout(summary_pipeline, summary_pipeline.State(scaling="off"), "saturated"))
    return out


def _grad_quartiles(optimizer: str, dk: int, divisor: str) -> list[float]:
    """The first quartile, median and third quartile over the grid's seeds of the gradient toward W_Q at the last
    step: the figure's readout, for every seed."""
    return [float(q) for q in np.percentile(train_runs.grid().at(optimizer, dk, divisor).grad_q, (25, 50, 75))]


@functools.lru_cache(maxsize=None)
def _readout(module, state, name: str) -> float:
    """A figure's readout in a state, as a number: computed once per build, for the pages of every language."""
    return float(module.readouts(state)[name])


@functools.lru_cache(maxsize=1)
def _length_curves() -> dict[str, tuple[float, ...]]:
    """The long-rows figure's default curves, computed once per build, for the pages of every language."""
    return length.curve_medians(length.State())


def _length_median(scaling: str, n: int) -> float:
    """The long-rows figure's median largest weight at n, over its default rows (the curve it draws)."""
    return _length_curves()[scaling][long_rows.CHART_NS.index(n)]


def _length_held() -> list[float]:
    """The long-rows figure's medians with × s·ln n from 128 keys on: the range Long rows says they stay in."""
    return [_length_median("log-n", n) for n in long_rows.CHART_NS if n >= 128]


@functools.lru_cache(maxsize=1)
def _moved_curves() -> dict[tuple[str, int], float]:
    """The operating-point figure's default moved curves, computed once per build, for the pages of every language."""
    return operating_point.curves(operating_point.State())["moved"]


def _moved_ratio(dk: int) -> float:
    """How many times as far the operating-point figure's nudge moves unscaled rows as ÷√d_k rows at d_k, by
    the medians of its default rows (its right-hand curves)."""
    moved = _moved_curves()
    return moved["none", dk] / moved["sqrt", dk]


def _figure_z(dk: int) -> float:
    """How many standard errors of their difference the saturation figure's unscaled share at d_k (its 500
    rows) lies from the Reproduce run's (each share's binomial standard error)."""
    figure = _readout(saturation, saturation.State(dk=dk), "saturated")
    run = reproduce_table.saturated_shares(dks=(dk,))[dk]
    rows = saturation.State().rows
    return reproduce_table.z(reproduce_table.Estimate(figure, (figure * (1 - figure) / rows) ** 0.5), run)


def _figure_share(module, state, readout: str) -> str:
    """A figure's share readout as the percentage its own drawing prints (one decimal)."""
    return f"{100 * _readout(module, state, readout):g}%"


def names() -> list[str]:
    """Every claim a page may ask for."""
    return sorted(registry())


def value(name: str) -> str:
    """The text of one claim."""
    try:
        compute = registry()[name]
    except KeyError:
        near = difflib.get_close_matches(name, registry(), n=3, cutoff=0.5)
        raise ClaimError(f"unknown claim '{name}'" + (f"; did you mean {', '.join(near)}?" if near else
                                                      "; see pycore/sitegen/claims.py for the names")) from None
    return compute()


def fill(markdown: str) -> str:
    """Every empty claim span filled with its value, its name kept."""
    return CLAIM.sub(lambda m: f'<span data-claim="{m.group("name")}">{value(m.group("name"))}</span>', markdown)
