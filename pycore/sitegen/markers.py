"""The one Markdown marker syntax for a figure: a fenced block whose info string is ``figure``.

    ```figure
    id: score-histogram
    dk: 64
    caption: The score for d_k = 64.
    ```

``id``, ``caption``, ``controls`` (names to show, or ``none``) and ``anchor`` describe the
instance; every other line is a state parameter, validated by the figure's own parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FENCE = re.compile(r"^```figure[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
META = ("id", "caption", "controls", "anchor")


class MarkerError(ValueError):
    """A figure marker that cannot be drawn; the message names the figure and the problem."""


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
