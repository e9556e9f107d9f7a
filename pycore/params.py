"""Figure parameters: declared once as specs, parsed from URL query strings, Markdown and data-state JSON.

Every figure validates through these specs, so a bad value always produces the same kind of
message, naming the parameter and what is allowed. A spec's doc and label are written in English and marked with
``N_`` where the figure declares them; ``shown_doc``, ``shown_label`` and ``allowed`` give them in the current
language, and every message is in the current language.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, make_dataclass
from typing import Any

from .controls import Choice, Control, Range, Text, presets
from .i18n import N_, _


class ParamError(ValueError):
    """A parameter a teacher or reader supplied is not acceptable; the message says why."""


Params = Mapping[str, str]


def shown(raw: str) -> str:
    """A user's value as quoted in a message, shortened if long."""
    raw = str(raw)
    return raw if len(raw) <= 40 else raw[:37] + "..."


KINDS = {dict: N_("a JSON object"), list: N_("a list"), str: N_("text"), bool: N_("true or false"),
         type(None): N_("null")}
"""What a JSON value of each type is, in words, in English: ``named`` gives them in the current language."""
NUMBER = N_("a number")


def named(t: type) -> str:
    """What a JSON value of type ``t`` (a key of KINDS) is, in words, in the current language."""
    return _(KINDS[t])


def kind(value: Any) -> str:
    """What a JSON value is, in words, in the current language, for a message."""
    return _(next((words for t, words in KINDS.items() if isinstance(value, t)), NUMBER))


def described(value: Any) -> str:
    """A value a message says it got: text quoted (``shown``), anything else by its JSON kind."""
    return f"'{shown(value)}'" if isinstance(value, str) else kind(value)


def check_known(params: Params, known: Sequence[str]) -> None:
    """Reject parameter names the figure does not have (a typo would be silently ignored)."""
    for name in params:
        if name not in known:
            if not known:
                raise ParamError(_("unknown parameter '{name}'; this figure takes: none").format(name=shown(name)))
            raise ParamError(_("unknown parameter '{name}'; this figure takes: {known}").format(
                name=shown(name), known=", ".join(known)))


@dataclass(frozen=True)
class Param:
    """One figure parameter, declared once.

    Its State field, parsing and message, URL text, control, the teachers' table row and a
    sample value for tests all derive from this. Build one with ``integer``, ``number``,
    ``choice``, ``vector`` or ``auto_number``.
    """

    name: str
    default: Any
    doc: str
    kind: str
    lo: float = 0
    hi: float = 0
    options: tuple[tuple[str, str], ...] = ()
    """For a choice: (value, label) pairs."""
    length: tuple[int, int] = (1, 1)
    """For a vector: the fewest and most numbers."""
    control: str | None = None
    """range, choice or text: how the article lets a reader set it; None for none."""
    label: str = ""
    step: float = 1
    presets: tuple[tuple[str, str], ...] = ()
    """Buttons that set a value, shown after the control: (value, label) pairs."""
    sample: str | None = None
    """A valid non-default value for tests; derived when not given."""
    advanced: bool = False
    """A setting a beginner can leave alone (a seed, a sample count, an axis): its control sits behind
    the figure's "More settings" disclosure."""
    scale: str = "linear"
    """linear or log: how a range control spaces its values (log: lo > 0; see ``controls.Range.stops``)."""

    def allowed(self) -> str:
        """What the parameter accepts, in words, in the current language (the teachers' table and every message
        use this)."""
        lo, hi = canonical(self.lo), canonical(self.hi)
        if self.kind == "int":
            return _("a whole number from {lo} to {hi}").format(lo=lo, hi=hi)
        if self.kind == "number":
            return _("a number from {lo} to {hi}").format(lo=lo, hi=hi)
        if self.kind == "choice":
            return _("one of {values}").format(values=", ".join(value for value, label in self.options))
        if self.kind == "auto":
            return _("auto or a number from {lo} to {hi}").format(lo=lo, hi=hi)
        a, b = self.length
        if a == b:
            return _("{count} comma-separated numbers from {lo} to {hi}").format(count=a, lo=lo, hi=hi)
        return _("{fewest} to {most} comma-separated numbers from {lo} to {hi}").format(fewest=a, most=b, lo=lo, hi=hi)

    def shown_doc(self) -> str:
        """The doc in the current language (the teachers' table and the machine-readable description show it)."""
        return _(self.doc)

    def shown_label(self) -> str:
        """The control's label in the current language."""
        return _(self.label)

    def shown_options(self) -> tuple[tuple[str, str], ...]:
        """A choice's (value, label) pairs, each label in the current language."""
        return tuple((value, _(label)) for value, label in self.options)

    def read(self, raw: str) -> Any:
        """The value of ``raw``, or a ParamError naming the parameter and what it accepts."""
        text = str(raw).strip()
        value = _READERS[self.kind](self, text)
        if value is None:
            raise ParamError(_("{name} must be {allowed}, got '{value}'").format(
                name=self.name, allowed=self.allowed(), value=shown(text)))
        return value

    def example(self) -> str:
        """A valid value other than the default, in URL form."""
        if self.sample is not None:
            return self.sample
        if self.kind == "choice":
            return next(value for value, label in self.options if value != self.default)
        if self.kind == "vector":
            return ",".join(_scalar(self.lo + (self.hi - self.lo) * (i + 1) / (self.length[0] + 1))
                            for i in range(self.length[0]))
        third = self.lo + (self.hi - self.lo) / 3
        value = round(third) if self.kind == "int" else round(third, 2)
        return _scalar(value if value != self.default else self.hi)

    def controls(self) -> tuple[Control, ...]:
        """The controls that set this parameter in the article (none, or one plus its presets)."""
        made: tuple[Control, ...] = ()
        if self.control == "range":
            made = (Range(self.name, self.label, self.lo, self.hi, self.step, scale=self.scale,
                          marks=tuple(float(v) for v, label in self.presets)),)
        elif self.control == "choice":
            made = (Choice(self.name, self.label, self.options),)
        elif self.control == "text":
            made = (Text(self.name, self.label),)
        if self.presets:
            made += (presets(self.name, self.label, self.presets),)
        return made


def _read_int(spec: Param, text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if spec.lo <= value <= spec.hi else None


def _read_number(spec: Param, text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and spec.lo <= value <= spec.hi else None


def _read_choice(spec: Param, text: str) -> str | None:
    return text if text in [value for value, label in spec.options] else None


def _read_vector(spec: Param, text: str) -> tuple[float, ...] | None:
    try:
        values = tuple(float(p.strip()) for p in text.split(",")) if text else ()
    except ValueError:
        return None
    ok = spec.length[0] <= len(values) <= spec.length[1] and all(
        math.isfinite(v) and spec.lo <= v <= spec.hi for v in values)
    return values if ok else None


def _read_auto(spec: Param, text: str) -> str | None:
    if text == "auto":
        return text
    value = _read_number(spec, text)
    return None if value is None else canonical(value)


_READERS = {"int": _read_int, "number": _read_number, "choice": _read_choice, "vector": _read_vector,
            "auto": _read_auto}


def integer(name: str, default: int, lo: int, hi: int, doc: str, **extra: Any) -> Param:
    """A whole number in [lo, hi]."""
    return Param(name, default, doc, "int", lo, hi, **extra)


def number(name: str, default: float, lo: float, hi: float, doc: str, **extra: Any) -> Param:
    """A finite number in [lo, hi]."""
    return Param(name, default, doc, "number", lo, hi, **extra)


def choice(name: str, default: str, options: tuple[tuple[str, str], ...], doc: str, **extra: Any) -> Param:
    """One of a fixed set of words; ``options`` pairs each with the label its control shows."""
    return Param(name, default, doc, "choice", options=options, **extra)


def vector(name: str, default: tuple[float, ...], length: int | tuple[int, int], lo: float, hi: float, doc: str,
           **extra: Any) -> Param:
    """Comma-separated finite numbers in [lo, hi]; ``length`` is exact or a (min, max) range."""
    span = (length, length) if isinstance(length, int) else length
    return Param(name, default, doc, "vector", lo, hi, length=span, **extra)


def auto_number(name: str, lo: float, hi: float, doc: str, **extra: Any) -> Param:
    """``auto`` or a number in [lo, hi], kept as its canonical text."""
    return Param(name, "auto", doc, "auto", lo, hi, **extra)


def state_class(specs: Sequence[Param], doc: str) -> type:
    """The frozen State dataclass of a figure: one field per parameter, in order, with its default."""
    cls = make_dataclass("State", [(s.name, Any, field(default=s.default)) for s in specs], frozen=True)
    cls.__doc__ = doc
    return cls


def parse(specs: Sequence[Param], cls: type, p: Params) -> Any:
    """A State from URL or Markdown parameters: unknown names and bad values raise ParamError."""
    check_known(p, [s.name for s in specs])
    return cls(**{s.name: s.read(p[s.name]) if s.name in p else s.default for s in specs})


def controls(specs: Sequence[Param]) -> tuple[Control, ...]:
    """Every parameter's controls, in declaration order."""
    return tuple(c for s in specs for c in s.controls())


def canonical(x: float) -> str:
    """A number as text: whole numbers without a decimal point."""
    return str(int(x)) if float(x).is_integer() else repr(x)


def from_json(state: Mapping[str, Any]) -> dict[str, str]:
    """Turn a data-state JSON object (lists, numbers) into the string form of URL parameters."""
    out: dict[str, str] = {}
    for key, value in state.items():
        if isinstance(value, (list, tuple)):
            out[key] = ",".join(_scalar(v) for v in value)
        else:
            out[key] = _scalar(value)
    return out


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)
