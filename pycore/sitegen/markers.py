"""The one Markdown marker syntax: a fenced block whose info string says what the build puts there.

A figure, its initial state as ``name: value`` lines:

    ```figure
    id: score-histogram
    dk: 64
    caption: The score for d_k = 64.
    ```

``id``, ``caption``, ``controls`` (names to show, or ``none``) and ``anchor`` describe the
instance; every other line is a state parameter, validated by the figure's own parser.

A recall card, ``Q:`` and ``A:`` lines (see ``cards``):

    ```card
    Q: Why is the variance of the score exactly d_k?
    A: It is a sum of d_k independent products ...
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
    """The fenced blocks of one kind, their content in the group ``body``."""
    return re.compile(rf"^```{kind}[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)


FENCE = fence("figure")
GENERATED = re.compile(r"^(?P<indent>[ \t]*)```generated[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
"""A generated block, at the top level or indented inside an admonition (its content then indented alike)."""


def indent(markdown: str, prefix: str) -> str:
    """Every non-empty line of ``markdown`` behind ``prefix``, so that a generated part stays inside the block
    its fence was indented into."""
    return "\n".join(prefix + line if line.strip() else line for line in markdown.split("\n"))


COMMENT = re.compile(r"<!--\s*sq:[^\n]*")
META = ("id", "caption", "controls", "anchor")


class MarkerError(ValueError):
    """A marker that cannot be filled in; the message names the marker and the problem."""


@dataclass(frozen=True)
class Marker:
    """One figure instance as written in Markdown."""

    figure: str
    params: dict[str, str]
    caption: str
    controls: tuple[str, ...] | None
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
    controls = fields.get("controls")
    names = None if controls is None else tuple(c.strip() for c in controls.split(",") if c.strip() and c.strip() != "none")
    return Marker(
        figure=fields["id"],
        params={k: v for k, v in fields.items() if k not in META},
        caption=fields.get("caption", ""),
        controls=names,
        anchor=fields.get("anchor"),
    )


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
