"""SVG snapshots, as Observable Plot keeps them: every figure's drawing in a few states, checked in.

A drawing that differs from its snapshot fails and is written beside it as ``<name>-changed.svg``
for review; ``make snapshots`` rewrites the snapshots on purpose (SNAPSHOTS=update).
"""

import os

import pytest

from pycore import figures
from tests.conftest import ROOT

DIR = ROOT / "tests" / "snapshots"
UPDATE = os.environ.get("SNAPSHOTS") == "update"


def states(module):
    """The default state and the state made of every parameter's sample value."""
    return {"default": module.State(), "sample": module.parse({s.name: s.example() for s in module.PARAMS})}


CASES = [(fid, name) for fid, module in figures.FIGURES.items() for name in states(module)]


@pytest.mark.parametrize("figure_id,state_name", CASES)
def test_drawing_matches_its_snapshot(figure_id, state_name):
    module = figures.get(figure_id)
    svg = module.render(states(module)[state_name]) + "\n"
    expected, changed = DIR / f"{figure_id}-{state_name}.svg", DIR / f"{figure_id}-{state_name}-changed.svg"
    if UPDATE:
        expected.write_text(svg, encoding="utf-8")
    if not expected.exists():
        changed.write_text(svg, encoding="utf-8")
        pytest.fail(f"no snapshot {expected.name}: run 'make snapshots' to create it")
    if expected.read_text(encoding="utf-8") != svg:
        changed.write_text(svg, encoding="utf-8")
        pytest.fail(f"{figure_id} ({state_name}) drew something else: compare {changed.name} with {expected.name}, "
                    "then run 'make snapshots' if the change is intended")
    changed.unlink(missing_ok=True)


def test_every_snapshot_belongs_to_a_case():
    names = {f"{fid}-{name}.svg" for fid, name in CASES}
    assert {p.name for p in DIR.glob("*.svg") if not p.name.endswith("-changed.svg")} <= names
