"""The Train figure draws what its caption says: each loss line is the arithmetic mean of the last WINDOW
batches' losses, on a log axis, with a point below the axis drawn on its edge and said so."""

import re

import numpy as np
import pytest

from pycore.figures import train as figure
from pycore.svg import fmt


def drawn_lines(svg: str) -> dict[str, list[tuple[float, float]]]:
    """The loss panel's line per divisor as (x, y) pixel points (the first SVG is the loss panel)."""
    loss_panel = svg.split("</svg>")[0]
    found = re.findall(r'<g class="sq-series sq-series--(\w+)"><polyline points="([^"]+)"', loss_panel)
    return {d: [tuple(map(float, p.split(","))) for p in points.split()] for d, points in found}


def loss_axis():
    lo, hi = np.log10(figure.LOSS_TICKS[0]), np.log10(figure.LOSS_TICKS[-1])
    return figure._chart.axes(0.0, float(figure.train.STEPS), lo, hi, left=52, right=588, top=62, bottom=250)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_each_loss_line_is_the_arithmetic_mean_of_the_last_window_of_losses(optimizer):
    state = figure.parse({"optimizer": optimizer})
    lines = drawn_lines(figure.render(state))
    ax = loss_axis()
    assert set(lines) == set(figure.train.DIVISORS)
    for divisor, trainer in figure.runs(state).items():
        losses = np.array(trainer.losses[:state.step])
        means = [losses[max(0, i - figure.WINDOW + 1):i + 1].mean() for i in range(len(losses))]
        drawn = [10 ** ax.y.invert(y) for _, y in lines[divisor]]
        assert len(drawn) == state.step
        assert np.allclose(drawn, means, rtol=1e-3), divisor
        geometric = [np.exp(np.log(losses[max(0, i - figure.WINDOW + 1):i + 1]).mean()) for i in range(len(losses))]
        assert not np.allclose(drawn, geometric, rtol=1e-2), "not the mean of the logarithms"


def test_a_mean_under_the_axis_is_drawn_on_its_edge_and_the_figure_says_so():
    losses = [0.5, 0.02, 0.01, 0.01, 0.005] + [0.001] * 20
    means = [np.mean(losses[max(0, i - figure.WINDOW + 1):i + 1]) for i in range(len(losses))]
    under = sum(m < figure.LOSS_TICKS[0] for m in means)
    assert figure._note("sqrt", losses) == f"÷√dₖ under {fmt(figure.LOSS_TICKS[0], 2)} at {under} steps, drawn on the edge"
    ax = loss_axis()
    [line] = re.findall(r'points="([^"]+)"', "".join(figure._lines(ax, {"sqrt": losses}, figure._log10)))
    ys = [float(p.split(",")[1]) for p in line.split()]
    assert sum(y == ax.y.r0 for y in ys) == under and max(ys) <= ax.y.r0
