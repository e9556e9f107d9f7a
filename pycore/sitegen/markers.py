"""The one Markdown marker syntax: a fenced block whose info string says what the build puts there.

A figure, its initial state as ``name: value`` lines:

    ```figure
    id: score-histogram
    dk: 64
    caption: The score for d_k = 64.
    ```

``id``, ``caption``, ``controls`` and ``readouts`` (names to show, or ``none``) and ``anchor``
describe the instance; every other line is a state parameter, validated by the figure's own parser.

Small multiples, figures side by side, sit in one row, which shares one actions menu (added
after the panels by the build) instead of one under every panel:

    <div class="sq-row" markdown>
    ```figure
    ...
    ```
    </div>

A recall card, ``Q:`` and ``A:`` lines (see ``cards``):

    ```card
    Q: Why is the variance of the score exactly d_k?
    A: It is a sum of d_k independent products ...
    ```

A prediction prompt, placed just before the figure that answers it: its id (one of
``pycore.predict.PROMPTS``, which computes the right choice), the anchor of that figure on the
same page, the question, one ``choice <name>:`` line per option (the words a reader sees; the
names are the prompt's), and ``show``, the parameters that set the figure to the answering state
in address form (``dk=256&divisor=dk``), applied over the figure's starting state:

    ```predict
    id: divide-by-dk
    figure: fig-score-histogram-6
    question: What happens to the bell if we divide by dₖ instead of √dₖ?
    choice wider: It gets wider
    choice same: It stays the same
    choice narrower: It gets narrower
    show: dk=256&divisor=dk
    ```

A part the build generates, by name (the hook lists the names it knows):

    ```generated
    reproduction-table
    ```

An unknown figure, parameter, control or generated name is an error that names the page, and
so is an HTML comment ``<!-- sq:... -->``, the syntax generated parts had before, which
Markdown would otherwise drop without a word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


def fence(kind: str) -> re.Pattern[str]:
    """The fenced blocks of one kind, their content in the group ``body``, their indentation (inside
    an admonition, say) in ``indent``."""
    return re.compile(rf"^(?P<indent>[ \t]*)```{kind}[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)


FENCE = fence("figure")
ROW = re.compile(r'^<div class="sq-row" markdown>[ \t]*\n(?P<body>.*?)^</div>[ \t]*$', re.M | re.S)
"""A row of small multiples; its figures are in ``body``."""
PREDICT = fence("predict")
GENERATED = fence("generated")
"""A generated block, at the top level or indented inside an admonition (its content then indented alike)."""
COMMENT = re.compile(r"<!--\s*sq:[^\n]*")
META = ("id", "caption", "controls", "readouts", "anchor")


def indent(markdown: str, prefix: str) -> str:
    """Every non-empty line of ``markdown`` behind ``prefix``, so that a generated part stays inside the block
    its fence was indented into."""
    return "\n".join(prefix + line if line.strip() else line for line in markdown.split("\n"))


class MarkerError(ValueError):
    """A marker that cannot be filled in; the message names the marker and the problem."""


@dataclass(frozen=True)
class Marker:
    """One figure instance as written in Markdown."""

    figure: str
    params: dict[str, str]
    caption: str
    controls: tuple[str, ...] | None
    """Names of the controls to show; None for all."""
    readouts: tuple[str, ...] | None
    """Names of the readouts to show; None for all."""
    anchor: str | None


def parse_marker(body: str) -> Marker:
    """``key: value`` lines into a Marker; a line without a colon is an error."""
    fields: dict[str, str] = {}
    for line in body.splitlines():
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise MarkerError(f"figure marker line '{line.strip()}' is not 'name: value'")
        fields[key.strip()] = value.strip()
    if "id" not in fields:
        raise MarkerError("figure marker has no 'id:' line")
    return Marker(
        figure=fields["id"],
        params={k: v for k, v in fields.items() if k not in META},
        caption=fields.get("caption", ""),
        controls=_names(fields.get("controls")),
        readouts=_names(fields.get("readouts")),
        anchor=fields.get("anchor"),
    )


def _names(value: str | None) -> tuple[str, ...] | None:
    """A comma-separated list of names; ``none`` is the empty list, a missing line None (all)."""
    if value is None:
        return None
    return tuple(n.strip() for n in value.split(",") if n.strip() and n.strip() != "none")
@dataclass(frozen=True)
class PredictMarker:
    """One prediction prompt as written in Markdown."""

    prompt: str
    figure: str
    """The anchor of the figure that answers it."""
    question: str
    choices: tuple[tuple[str, str], ...]
    """(name, words) pairs in order."""
    show: dict[str, str]


def parse_predict(body: str) -> PredictMarker:
    """``key: value`` lines into a PredictMarker; a missing or unknown line is an error."""
    fields: dict[str, str] = {}
    choices: list[tuple[str, str]] = []
    for line in body.splitlines():
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or not value:
            raise MarkerError(f"predict marker line '{line.strip()}' is not 'name: value'")
        if key.startswith("choice "):
            choices.append((key.removeprefix("choice ").strip(), value))
        elif key in ("id", "figure", "question", "show"):
            fields[key] = value
        else:
            raise MarkerError(f"predict marker line '{key}' is unknown; it takes id, figure, question, "
                              "choice <name> and show")
    missing = [k for k in ("id", "figure", "question", "show") if k not in fields]
    if missing:
        raise MarkerError(f"predict marker has no '{missing[0]}:' line")
    if not 2 <= len(choices) <= 4:
        raise MarkerError(f"predict marker '{fields['id']}' needs two to four 'choice <name>:' lines, "
                          f"got {len(choices)}")
    show = {}
    for pair in fields["show"].split("&"):
        name, eq, value = pair.partition("=")
        if not eq:
            raise MarkerError(f"predict marker '{fields['id']}': show part '{pair}' is not 'name=value'")
        show[name.strip()] = value.strip()
    return PredictMarker(fields["id"], fields["figure"], fields["question"], tuple(choices), show)


def generated_name(body: str, known: Iterable[str]) -> str:
    """The name in a generated block, which must be one of ``known``."""
    name = " ".join(body.split())
    if name not in known:
        raise MarkerError(f"unknown generated block '{name}'; known: {', '.join(sorted(known))}")
    return name


def check_no_comments(markdown: str) -> None:
    """Refuse the old comment markers, which would otherwise vanish from the page unnoticed."""
    if match := COMMENT.search(markdown):
        raise MarkerError(f"'{match.group(0).strip()}' is a comment, which the build no longer reads; "
                          "write a ```generated block")
