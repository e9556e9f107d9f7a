"""Machine-readable embeds: an oEmbed response per figure and one list of every figure for course tooling.

Both hold absolute addresses under the site's ``site_url``, since they are read by programs
that fetch them from elsewhere. They are built as Python data and written with ``json.dumps``;
the only HTML in them, the ``<iframe>`` snippet, comes from ``templates/iframe.html.j2``.
"""

from __future__ import annotations

import json
from typing import Any

from .. import figures
from ..params import Param
from .render import ENV

WIDTH = 720
"""The pixel width an oEmbed response suggests. The snippet itself fills its column (width="100%");
oEmbed requires a number for a rich embed, and 720 px holds the widest drawing (660 units) with its padding."""

LIST = "embed/figures.json"
"""The list of every figure, relative to the site root."""


def base(site_url: str) -> str:
    """The site's address ending in one slash, whatever ``site_url`` ended in."""
    return site_url.rstrip("/") + "/"


def embed_url(site_url: str, figure_id: str) -> str:
    """The absolute address of a figure's embed page, in its default state."""
    return f"{base(site_url)}embed/{figure_id}/"


def oembed_url(site_url: str, figure_id: str) -> str:
    """The absolute address of a figure's oEmbed response, beside its embed page."""
    return f"{embed_url(site_url, figure_id)}oembed.json"


def iframe(src: str, title: str, height: int) -> str:
    """The embed snippet, exactly as the teachers' reference shows it."""
    return str(ENV.get_template("iframe.html.j2").module.iframe(src, title, height))


def response(figure_id: str, site_url: str, site_name: str) -> dict[str, Any]:
    """A figure's oEmbed 1.0 response of type rich: its embed page in the default state."""
    module = figures.get(figure_id)
    return {
        "version": "1.0",
        "type": "rich",
        "html": iframe(embed_url(site_url, figure_id), figures.title(module), module.HEIGHT),
        "width": WIDTH,
        "height": module.HEIGHT,
        "title": figures.title(module),
        "provider_name": site_name,
        "provider_url": base(site_url),
    }


def parameter(spec: Param, default: str) -> dict[str, Any]:
    """One parameter for tooling: what the teachers' table says, plus its bounds as data.

    Bounds are whole numbers for an int and numbers otherwise; a vector also gives the fewest
    and most numbers it takes, and a choice its values instead of bounds."""
    out: dict[str, Any] = {"name": spec.name, "kind": spec.kind, "default": default, "allowed": spec.allowed(),
                           "doc": spec.shown_doc()}
    if spec.kind == "choice":
        out["options"] = [value for value, _ in spec.options]
        return out
    bound = int if spec.kind == "int" else float
    out["min"], out["max"] = bound(spec.lo), bound(spec.hi)
    if spec.kind == "vector":
        out["length"] = {"min": spec.length[0], "max": spec.length[1]}
    return out


def entry(figure_id: str, site_url: str) -> dict[str, Any]:
    """One figure in the list: its addresses, height and parameters with their defaults in URL form."""
    module = figures.get(figure_id)
    defaults = figures.state_params(module.State())
    return {
        "id": figure_id,
        "title": figures.title(module),
        "page": base(site_url) + module.PAGE,
        "embed": embed_url(site_url, figure_id),
        "oembed": oembed_url(site_url, figure_id),
        "height": module.HEIGHT,
        "parameters": [parameter(spec, defaults[spec.name]) for spec in module.PARAMS],
    }


def figure_list(site_url: str, site_name: str) -> dict[str, Any]:
    """Every registered figure, in the registry's order."""
    return {"site_name": site_name, "site_url": base(site_url),
            "figures": [entry(figure_id, site_url) for figure_id in figures.FIGURES]}


def dumps(data: dict[str, Any]) -> str:
    """JSON as written to the site: UTF-8 text, keys in the order built, indented for people reading it."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
