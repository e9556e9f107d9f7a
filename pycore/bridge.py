"""The one entry point the browser worker calls: a JSON request in, a JSON answer out.

Requests: ``{"op": "render", "figure", "params"}``, ``{"op": "update", "figure", "state",
"event"}``, ``{"op": "continue", "figure", "state"}`` (more work on a busy state),
``{"op": "snippet", "figure", "state"}`` (the figure's numpy script for Copy as Python),
``{"op": "notebook", "figure", "state", "url"}`` (the same as a Jupyter notebook linking back to ``url``),
``{"op": "digest", "seed", "count"}`` (proof of identical sampling), ``{"op": "train-losses", "dk",
"divisor", "optimizer", "lr", "seed", "steps"}`` (a run's raw losses, null where it diverged,
to prove identical training), and ``{"op": "time-pool", "seed", "n", "dk"}`` and ``{"op":
"time-train", "dk", "optimizer", "seed", "steps"}`` (for the benchmark). Every answer for a figure carries ``state``, ``svg``,
``readouts`` and ``values``; a problem adds ``error`` and never raises.

A figure request may carry ``slice_ms``: the figure then works at most about that long before
answering. If the state is not ready yet, the answer says ``busy`` with a ``progress`` text and
the requested ``state``, plus, where the figure can draw what is ready so far, its ``drawn``
state with that ``svg`` and ``readouts``; the page asks again with ``continue``. Work done is
kept, so a newer request that needs it does not start over.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from typing import Any

from . import figures, notebook, train
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


def answer(module: Any, state: Any, slice_ms: float | None = None) -> dict[str, Any]:
    """The view of ``state``, or with ``slice_ms`` a busy answer if it is not ready within that time."""
    if slice_ms is not None:
        partial = module.prepare(state, time.perf_counter() + slice_ms / 1000)
        if partial is not None:
            shown, progress = partial
            out = {"busy": True, "progress": progress, "state": figures.state_json(state),
                   "values": figures.control_values(module, state)}
            if shown is not None:
                out.update(drawn=figures.state_json(shown), svg=module.render(shown), readouts=module.readouts(shown))
            return out
    return view(module, state)


def render(figure_id: str, p: Mapping[str, str], slice_ms: float | None = None) -> dict[str, Any]:
    """Parse parameters and draw; bad parameters give the default state and a message that says so.

    The parameters come from an address (an embed page's, or an article link's), hence the wording.
    """
    module = figures.get(figure_id)
    try:
        return answer(module, module.parse(p), slice_ms)
    except ParamError as err:
        return {**answer(module, module.State(), slice_ms),
                "error": f"{err}. Showing the default figure, not the settings in this link."}


def p_fields(state: Any) -> set[str]:
    """The names of a state's fields, which are also its URL parameter names."""
    return set(figures.state_json(state))


def update(figure_id: str, state: Mapping[str, Any], event: Mapping[str, Any],
           slice_ms: float | None = None) -> dict[str, Any]:
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
        return {**answer(module, current, slice_ms), "error": str(err)}
    return answer(module, new, slice_ms)


def resume(figure_id: str, state: Mapping[str, Any], slice_ms: float | None = None) -> dict[str, Any]:
    """More work toward a state an earlier answer said was busy."""
    module = figures.get(figure_id)
    return answer(module, module.parse(from_json(state)), slice_ms)


def time_pool(seed: int, n: int, dk: int) -> float:
    """Seconds to build a fresh pool to depth ``dk`` (for ``make bench``, measured where it runs)."""
    start = time.perf_counter()
    ScorePool(seed, n).scores(dk)
    return time.perf_counter() - start


def time_train(dk: int, optimizer: str, seed: int, steps: int) -> float:
    """Seconds for ``steps`` fresh training steps of all three divisors (for ``make bench``)."""
    start = time.perf_counter()
    for divisor in train.DIVISORS:
        train.Trainer(dk, divisor, optimizer, train.LR[optimizer], seed).ensure(steps)
    return time.perf_counter() - start


def handle(request_json: str) -> str:
    """Dispatch one request; unexpected exceptions become an ``error`` with ``failed: true``."""
    try:
        request = json.loads(request_json)
        op = request.get("op")
        slice_ms = request.get("slice_ms")
        if op == "render":
            result = render(request["figure"], {str(k): str(v) for k, v in request.get("params", {}).items()}, slice_ms)
        elif op == "update":
            result = update(request["figure"], request["state"], request["event"], slice_ms)
        elif op == "continue":
            result = resume(request["figure"], request["state"], slice_ms)
        elif op == "snippet":
            module = figures.get(request["figure"])
            result = {"snippet": module.snippet(module.parse(from_json(request["state"])))}
        elif op == "notebook":
            module = figures.get(request["figure"])
            url = request.get("url", "")
            if not isinstance(url, str) or len(url) > 4096:
                raise ParamError("url must be the figure's address, a string of at most 4096 characters")
            result = {"notebook": notebook.dumps(notebook.figure_notebook(
                request["figure"], module.parse(from_json(request["state"])), url))}
        elif op == "digest":
            result = {"digest": digest(int(request["seed"]), int(request["count"]))}
        elif op == "train-losses":
            run = train.Trainer(int(request["dk"]), str(request["divisor"]), str(request["optimizer"]),
                                float(request["lr"]), int(request["seed"]))
            run.ensure(int(request["steps"]))
            result = {"losses": [v if math.isfinite(v) else None for v in run.losses]}
        elif op == "time-train":
            result = {"seconds": time_train(int(request["dk"]), str(request["optimizer"]), int(request["seed"]),
                                            int(request["steps"]))}
        elif op == "time-pool":
            result = {"seconds": time_pool(int(request["seed"]), int(request["n"]), int(request["dk"]))}
        else:
            raise ParamError(f"unknown op '{op}'")
    except ParamError as err:
        result = {"error": str(err), "failed": True}
    except Exception as err:  # one figure's bug must not take the page down
        result = {"error": f"internal error: {type(err).__name__}: {err}", "failed": True}
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))
