"""The one entry point the browser worker calls: a JSON request in, a JSON answer out.

Requests: ``{"op": "render", "figure", "params"}``, ``{"op": "update", "figure", "state",
"event"}``, ``{"op": "continue", "figure", "state"}`` (more work on a busy state),
``{"op": "snippet", "figure", "state"}`` (the figure's numpy script for Copy as Python),
``{"op": "predict", "prompt", "state", "show"}`` (a prediction prompt's answering state, from its
figure's starting state with ``show`` set, and that state's right choice and why: ``predict.answer``),
``{"op": "notebook", "figure", "state", "url"}`` (the same as a Jupyter notebook linking back to ``url``),
``{"op": "digest", "seed", "count"}`` (proof of identical sampling), ``{"op": "train-losses", "dk",
"divisor", "optimizer", "lr", "seed", "steps"}`` (a run's raw losses, null where it diverged,
to prove identical training), and ``{"op": "time-pool", "seed", "n", "dk"}`` and ``{"op":
"time-train", "dk", "optimizer", "seed", "steps"}`` (for the benchmark). The recall cards' review
(``pycore/review.py``, FSRS): ``{"op": "review-due", "cards", "records", "now"}`` (every card's status and
the cards due now in FSRS's order), ``{"op": "review-grade", "card", "record", "grade", "now"}`` (the card's
new record), ``{"op": "review-export", "cards", "records", "now"}`` and ``{"op": "review-import", "cards",
"records", "text", "now"}`` (the history as a file, and a file merged in), and ``{"op": "review-schedule",
"card", "reviews"}`` (FSRS's state after each review, to prove identical scheduling). Every answer for a figure
carries ``state``, ``svg``, ``readouts`` and ``values``, and ``caption`` where the figure has a live
caption line; a problem adds ``error`` and never raises.

Every request is answered with a drawing or a message. Each field is read once, in ``handle``'s
helpers or in ``figures._common.number`` for an event's numbers, and anything malformed (not
JSON, a missing or mistyped field, a coordinate that is not a finite number, an unknown figure or
op) is an ``error`` naming the field, with ``failed: true`` when nothing could be drawn. The
benchmark and test operations take sizes bounded by Param specs (``BENCH``), at most a few seconds of
work each, so no request can keep the worker busy for minutes. "internal error" is left for bugs.

A figure request may carry ``slice_ms``: the figure then works at most about that long before
answering. If the state is not ready yet, the answer says ``busy`` with a ``progress`` text and
the requested ``state``, plus, where the figure can draw what is ready so far, its ``drawn``
state with that ``svg`` and ``readouts``; the page asks again with ``continue``, whose busy answers draw
again only once the job has worked twice as long as the last drawing took (``pycore/pacing.py``). Work done is
kept, so a newer request that needs it does not start over.

A figure request may also carry ``live``: the names its page's prose binds to the figure (``pycore/live.py``).
The answer then has ``live``, the words for each name in the state it draws (the ``drawn`` one while busy),
and while busy ``live_partial``, the names whose words are not yet the asked state's.

Any request may carry ``lang``, the page's language (``pycore/i18n.py``): every word of the answer, messages
included, is in it. Absent or null, it is English; a value that is not one of the site's languages is answered in
English with an ``error`` that says so, before any other, as a bad parameter is answered with the default figure.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from . import figures, i18n, live, notebook, pacing, params, predict, review, train
from .figures import _common
from .i18n import N_, _
from .params import KINDS, Param, ParamError, described, from_json, kind
from .pool import ScorePool
from .sampling import digest


def view(module: Any, state: Any) -> dict[str, Any]:
    """Everything the page needs to show a state, with the caption's live line where the figure has one."""
    return {
        "state": figures.state_json(state),
        "svg": module.render(state),
        "readouts": module.readouts(state),
        "values": figures.control_values(module, state),
        **caption(module, state),
    }


def caption(module: Any, state: Any) -> dict[str, str]:
    """``{"caption": ...}``, the words a figure's caption starts with for ``state``, if it has them."""
    return {"caption": module.caption(state)} if hasattr(module, "caption") else {}


def bound(module: Any, state: Any, names: Sequence[str], readouts: Mapping[str, str]) -> dict[str, Any]:
    """``{"live": ...}``, the words for each name the page binds to the figure in ``state``, if it binds any."""
    return {"live": live.texts(module, state, list(names), readouts)} if names else {}


def partial_view(module: Any, shown: Any, state: Any, names: Sequence[str]) -> dict[str, Any]:
    """A busy answer's drawing: the state ``shown`` so far, and which bound names are not yet ``state``'s."""
    readouts = module.readouts(shown)
    out = {"drawn": figures.state_json(shown), "svg": module.render(shown), "readouts": readouts,
           **caption(module, shown), **bound(module, shown, names, readouts)}
    return {**out, "live_partial": live.partial(module, shown, state, list(names))} if names else out


def answer(module: Any, state: Any, slice_ms: float | None = None, names: Sequence[str] = (),
           resumed: bool = False) -> dict[str, Any]:
    """The view of ``state``, or with ``slice_ms`` a busy answer if it is not ready within that time; ``names``
    are the page's bound names, answered for the state drawn. A busy answer to a new request draws what is ready
    so far; to a ``resumed`` one, only when a drawing is due (``pacing``), else it says how far it is."""
    if slice_ms is not None:
        partial = module.prepare(state, time.perf_counter() + slice_ms / 1000)
        if partial is not None:
            shown, progress = partial
            out = {"busy": True, "progress": progress, "state": figures.state_json(state),
                   "values": figures.control_values(module, state)}
            if shown is not None and (not resumed or pacing.due(module.__name__)):
                out.update(pacing.timed(module.__name__, lambda: partial_view(module, shown, state, names)))
            return out
    out = view(module, state)
    return {**out, **bound(module, state, names, out["readouts"])}


def render(figure_id: str, p: Mapping[str, str], slice_ms: float | None = None,
           names: Sequence[str] = ()) -> dict[str, Any]:
    """Parse parameters and draw; bad parameters give the default state and a message that says so.

    The parameters come from an address (an embed page's, or an article link's), hence the wording.
    """
    module = figures.get(figure_id)
    try:
        return answer(module, module.parse(p), slice_ms, names)
    except ParamError as err:
        return {**answer(module, module.State(), slice_ms, names),
                "error": _("{problem}. Showing the default figure, not the settings in this link.").format(problem=err)}


def p_fields(state: Any) -> set[str]:
    """The names of a state's fields, which are also its URL parameter names."""
    return set(figures.state_json(state))


def update(figure_id: str, state: Mapping[str, Any], event: Mapping[str, Any],
           slice_ms: float | None = None, names: Sequence[str] = ()) -> dict[str, Any]:
    """Apply one event; ``set`` re-validates one field through the figure's own parser.

    A log slider sends ``position`` instead of ``value``; its control says which value that is.

    A ``set`` of a control that is not a state field (a derived one, like the swing angle)
    goes to the figure's update() as an event of that name.
    """
    module = figures.get(figure_id)
    current = module.parse(from_json(state))
    log_range = figures.log_ranges(module).get(str(event.get("field")))
    if event.get("type") == "set" and log_range is not None and "position" in event:
        event = {**event, "value": log_range.value_at(str(event["position"]))}
    try:
        if event.get("type") == "set":
            name, value = field(event, "field", str), scalar(event, "value")
        if event.get("type") == "set" and name in p_fields(current):
            p = figures.state_params(current)
            p[name] = value
            new = module.parse(p)
        elif event.get("type") == "set":
            new = module.update(current, {"type": name, "value": value})
        else:
            new = module.update(current, event)
    except ParamError as err:
        return {**answer(module, current, slice_ms, names), "error": str(err)}
    return answer(module, new, slice_ms, names)


def resume(figure_id: str, state: Mapping[str, Any], slice_ms: float | None = None,
           names: Sequence[str] = ()) -> dict[str, Any]:
    """More work toward a state an earlier answer said was busy."""
    module = figures.get(figure_id)
    return answer(module, module.parse(from_json(state)), slice_ms, names, resumed=True)


# --- Reading a request: each field once, with a message that names it -------------------------------

def field(request: Mapping[str, Any], name: str, expected: type) -> Any:
    """``request[name]``, which must be there and be of the ``expected`` JSON kind."""
    if name not in request:
        raise ParamError(_("the request needs {name}, {kind}").format(name=name, kind=_(KINDS[expected])))
    value = request[name]
    if not isinstance(value, expected):
        raise ParamError(_("{name} must be {kind}, got {got}").format(name=name, kind=_(KINDS[expected]),
                                                                      got=kind(value)))
    return value


def scalar(request: Mapping[str, Any], name: str) -> str:
    """``request[name]``, a number, text or list of numbers, as the text a Param spec reads."""
    value = request.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float, str, list)):
        raise ParamError(_("{name} must be a number or text, got nothing").format(name=name) if name not in request
                         else _("{name} must be a number or text, got {got}").format(name=name, got=kind(value)))
    return from_json({name: value})[name]


def argument(request: Mapping[str, Any], spec: Param) -> Any:
    """A request's argument read through its Param spec, with the same bounds and messages as a figure's."""
    if spec.name not in request:
        raise ParamError(_("the request needs {name}: {allowed}").format(name=spec.name, allowed=spec.allowed()))
    return spec.read(scalar(request, spec.name))


def figure_of(request: Mapping[str, Any]) -> str:
    """The figure a request names (``figures.get`` then says whether it exists)."""
    return field(request, "figure", str)


def state_of(request: Mapping[str, Any]) -> dict[str, Any]:
    """The state a request carries: a JSON object, whose values the figure's parser then checks."""
    return field(request, "state", dict)


SLICE = params.number("slice_ms", 50, 0, 10_000, N_("How long a figure may work before answering, in milliseconds."))


def slice_of(request: Mapping[str, Any]) -> float | None:
    """The request's ``slice_ms``, or None to work until the state is ready."""
    return None if request.get("slice_ms") is None else argument(request, SLICE)


# --- Benchmark and test operations: bounded, so none can keep the worker busy for minutes -----------

BENCH_DK = 64
"""The widest d_k they take: the size ``make bench`` measures; at the bounds each takes a few seconds."""
_TRAIN = {spec.name: spec for spec in figures.get("train").PARAMS}
BENCH = {
    "seed": _common.seed(),
    "count": params.integer("count", 100_000, 1, 200_000, N_("How many normals the digest covers.")),
    "n": params.integer("n", 4000, 100, 4000, N_("Keys in the pool.")),
    "dk": params.integer("dk", BENCH_DK, 1, BENCH_DK, N_("Dimension of the query and key vectors.")),
    "divisor": _common.divisor("sqrt"),
    "optimizer": _TRAIN["optimizer"],
    "lr": _TRAIN["lr"],
    "steps": params.integer("steps", 20, 1, train.STEPS, N_("Training steps.")),
}
"""Every argument of the benchmark and test operations, as Param specs: the figures' own where they exist."""


def bench_args(request: Mapping[str, Any], *names: str) -> list[Any]:
    """The named arguments of a benchmark or test operation, each checked against its spec in ``BENCH``."""
    return [argument(request, BENCH[name]) for name in names]


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


def train_losses(dk: int, divisor: str, optimizer: str, lr: str, seed: int, steps: int) -> list[float | None]:
    """A fresh run's losses, None where it diverged; ``lr`` is the train figure's (auto or a number)."""
    run = train.Trainer(dk, divisor, optimizer, train.LR[optimizer] if lr == "auto" else float(lr), seed)
    run.ensure(steps)
    return [v if math.isfinite(v) else None for v in run.losses]


# --- The recall cards' spaced review (pycore/review.py) -----------------------------------------------

def review_args(request: Mapping[str, Any]) -> tuple[list[str], dict[str, Any], Any]:
    """The site's card ids, the stored records by card id and the page's "now", each checked."""
    return (review.card_list(field(request, "cards", list)), review.stored(field(request, "records", dict)),
            review.moment(request.get("now")))


def nullable_text(request: Mapping[str, Any], name: str) -> str | None:
    """``request[name]``: text, or null (or absent) for nothing stored."""
    value = request.get(name)
    if value is not None and not isinstance(value, str):
        raise ParamError(_("{name} must be text or null, got {got}").format(name=name, got=kind(value)))
    return value


def review_history(request: Mapping[str, Any]) -> tuple[review.Review, ...]:
    """A request's ``reviews``, read as a stored record's are."""
    try:
        return review.reviews_of(request.get("reviews"))
    except review.RecordError as err:
        raise ParamError(_("reviews cannot be read: {problem}").format(problem=err)) from None


# --- Dispatch ---------------------------------------------------------------------------------------

def live_names(request: Mapping[str, Any]) -> list[str]:
    """The names a figure's page binds to it (``live``): a list of text, checked against the figure."""
    names = field(request, "live", list) if "live" in request else []
    if not all(isinstance(n, str) for n in names) or len(names) > 64:
        raise ParamError(_("live must be a list of at most 64 names, each text"))
    module = figures.get(figure_of(request))
    for name in names:
        live.check(module, name)
    return names


def _render(request: Mapping[str, Any]) -> dict[str, Any]:
    given = field(request, "params", dict) if "params" in request else {}
    return render(figure_of(request), from_json(given), slice_of(request), live_names(request))


def _update(request: Mapping[str, Any]) -> dict[str, Any]:
    return update(figure_of(request), state_of(request), field(request, "event", dict), slice_of(request),
                  live_names(request))


def _continue(request: Mapping[str, Any]) -> dict[str, Any]:
    return resume(figure_of(request), state_of(request), slice_of(request), live_names(request))


def _snippet(request: Mapping[str, Any]) -> dict[str, Any]:
    module = figures.get(figure_of(request))
    return {"snippet": module.snippet(module.parse(from_json(state_of(request))))}


def _notebook(request: Mapping[str, Any]) -> dict[str, Any]:
    figure_id = figure_of(request)
    url = field(request, "url", str) if "url" in request else ""
    if len(url) > 4096:
        raise ParamError(_("url must be the figure's address, a string of at most 4096 characters"))
    state = figures.get(figure_id).parse(from_json(state_of(request)))
    return {"notebook": notebook.dumps(notebook.figure_notebook(figure_id, state, url))}


OPS = {
    "render": _render,
    "update": _update,
    "continue": _continue,
    "snippet": _snippet,
    "notebook": _notebook,
    "predict": lambda r: predict.answer(scalar(r, "prompt"), state_of(r), field(r, "show", dict)),
    "digest": lambda r: {"digest": digest(*bench_args(r, "seed", "count"))},
    "train-losses": lambda r: {"losses": train_losses(*bench_args(r, "dk", "divisor", "optimizer", "lr", "seed",
                                                                  "steps"))},
    "time-train": lambda r: {"seconds": time_train(*bench_args(r, "dk", "optimizer", "seed", "steps"))},
    "time-pool": lambda r: {"seconds": time_pool(*bench_args(r, "seed", "n", "dk"))},
    "review-due": lambda r: review.overview(*review_args(r)),
    "review-grade": lambda r: review.grade(review.card_id(field(r, "card", str)), nullable_text(r, "record"),
                                           review.grade_name(r.get("grade")), review.moment(r.get("now"))),
    "review-export": lambda r: review.export(*review_args(r)),
    "review-import": lambda r: review.import_file(*review_args(r)[:2], field(r, "text", str), review.moment(r.get("now"))),
    "review-schedule": lambda r: {"schedule": review.schedule(review.card_id(field(r, "card", str)),
                                                              review_history(r))},
}
"""Each op by name: a function from the request (a JSON object) to the answer."""


def read(request_json: str) -> Mapping[str, Any]:
    """The request as a JSON object; anything else is a ParamError saying what arrived."""
    try:
        request = json.loads(request_json)
    except (TypeError, ValueError, RecursionError) as err:
        raise ParamError(_("the request is not JSON: {problem}").format(problem=err)) from None
    if not isinstance(request, dict):
        raise ParamError(_("the request must be a JSON object, got {got}").format(got=kind(request)))
    return request


def language(request: Mapping[str, Any]) -> tuple[str, str | None]:
    """The language to answer in, from the request's ``lang`` (absent or null: English), and a message when it
    is not one of the site's languages: the answer is then in English and says so, as a bad parameter's does."""
    lang = request.get("lang")
    if lang is None:
        return i18n.DEFAULT, None
    if isinstance(lang, str) and lang in i18n.LANGUAGES:
        return lang, None
    return i18n.DEFAULT, _("lang must be {languages}, got {got}; the answer is in English").format(
        languages=" or ".join(i18n.LANGUAGES), got=described(lang))


def dispatch(request: Mapping[str, Any]) -> dict[str, Any]:
    """One request's answer, in the language it asks for."""
    op = request.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise ParamError(_("unknown op '{op}'; known ops: {ops}").format(op=params.shown(op), ops=", ".join(OPS)))
    return OPS[op](request)


def handle(request_json: str) -> str:
    """Dispatch one request; a bad request is an ``error``, unexpected exceptions one that says ``internal error``.
    A ``lang`` that is not a language of the site is answered in English, its message before any other."""
    lang, wrong_lang = i18n.DEFAULT, None
    try:
        request = read(request_json)
        lang, wrong_lang = language(request)
        with i18n.using(lang):
            result = dispatch(request)
    except ParamError as err:
        result = {"error": str(err), "failed": True}
    except Exception as err:  # one figure's bug must not take the page down
        with i18n.using(lang):
            result = {"error": _("internal error: {kind}: {problem}").format(kind=type(err).__name__, problem=err),
                      "failed": True}
    if wrong_lang:
        result["error"] = "; ".join(m for m in (wrong_lang, result.get("error")) if m)
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))
