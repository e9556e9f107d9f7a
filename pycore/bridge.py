"""The one entry point the browser worker calls: a JSON request in, a JSON answer out.

Requests: ``{"op": "render", "figure", "params"}``, ``{"op": "update", "figure", "state",
"event"}``, ``{"op": "digest", "seed", "count"}`` (proof of identical sampling) and
``{"op": "time-pool", "seed", "n", "dk"}`` (for the benchmark). Every answer for a figure carries
``state``, ``svg``, ``readouts`` and ``values``; a problem adds ``error`` and never raises.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import time

from . import figures
from .params import ParamError, from_json
from .pool import ScorePool
from .sampling import digest


def view(module: Any, state: Any) -> dict[str, Any]:
    """Everything the page needs to show a state."""
    return {
        "state": figures.state_json(state),
        "svg": module.render(state),
        "readouts": module.readouts(state),
        "values": figures.control_values(module, state),
    }


def render(figure_id: str, p: Mapping[str, str]) -> dict[str, Any]:
    """Parse parameters and draw; bad parameters give the default state and a message."""
    module = figures.get(figure_id)
    try:
        return view(module, module.parse(p))
    except ParamError as err:
        return {**view(module, module.State()), "error": str(err)}


def p_fields(state: Any) -> set[str]:
    """The names of a state's fields, which are also its URL parameter names."""
    return set(figures.state_json(state))


def update(figure_id: str, state: Mapping[str, Any], event: Mapping[str, Any]) -> dict[str, Any]:
    """Apply one event; ``set`` re-validates one field through the figure's own parser.

    A ``set`` of a control that is not a state field (a derived one, like the swing angle)
    goes to the figure's update() as an event of that name.
    """
    module = figures.get(figure_id)
    current = module.parse(from_json(state))
    try:
        if event.get("type") == "set" and event.get("field") in p_fields(current):
            p = figures.state_params(current)
            p[str(event["field"])] = str(event["value"])
            new = module.parse(p)
        elif event.get("type") == "set":
            new = module.update(current, {"type": event.get("field"), "value": event.get("value")})
        else:
            new = module.update(current, event)
    except ParamError as err:
        return {**view(module, current), "error": str(err)}
    return view(module, new)


def time_pool(seed: int, n: int, dk: int) -> float:
    """Seconds to build a fresh pool to depth ``dk`` (for ``make bench``, measured where it runs)."""
    start = time.perf_counter()
    ScorePool(seed, n).scores(dk)
    return time.perf_counter() - start


def handle(request_json: str) -> str:
    """Dispatch one request; unexpected exceptions become an ``error`` with ``failed: true``."""
    try:
        request = json.loads(request_json)
        op = request.get("op")
        if op == "render":
            answer = render(request["figure"], {str(k): str(v) for k, v in request.get("params", {}).items()})
        elif op == "update":
            answer = update(request["figure"], request["state"], request["event"])
        elif op == "digest":
            answer = {"digest": digest(int(request["seed"]), int(request["count"]))}
        elif op == "time-pool":
            answer = {"seconds": time_pool(int(request["seed"]), int(request["n"]), int(request["dk"]))}
        else:
            raise ParamError(f"unknown op '{op}'")
    except ParamError as err:
        answer = {"error": str(err), "failed": True}
    except Exception as err:  # one figure's bug must not take the page down
        answer = {"error": f"internal error: {type(err).__name__}: {err}", "failed": True}
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
