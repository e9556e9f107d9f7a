"""The teachers' reference: every figure's parameters, generated from the figures' parameter specs.

Allowed values, defaults and docs come from the same ``Param`` specs that parse the embed
pages' query strings, so the table can never drift from what they accept.
"""

from __future__ import annotations

from .. import figures, i18n
from ..i18n import _
from . import oembed
from .render import ENV


def table(figure_id: str) -> str:
    """A Markdown table of one figure's parameters."""
    module = figures.get(figure_id)
    defaults = figures.state_params(module.State())
    headings = [_("parameter"), _("allowed values"),
                # i18n: a column heading: each parameter's default value.
                _("default"),
                _("what it sets")]
    rows = ["| " + " | ".join(headings) + " |", "| --- | --- | --- | --- |"]
    for spec in module.PARAMS:
        where = " " + _("Its control is under *More settings*.") if spec.advanced and spec.control else ""
        rows.append(f"| `{spec.name}` | {spec.allowed()} | `{defaults[spec.name]}` | {_(spec.doc)}{where} |")
    return "\n".join(rows)


def section(figure_id: str, page_depth: str, site_url: str | None = None, folder: str = "") -> str:
    """One figure's part of the reference: link, parameters, snippet and a live example.

    The snippet's address is absolute under ``site_url`` when the site has one; without it, it is
    relative, and the page's script writes it out for the address the page is read at. On a page in another
    language than the default (under ``folder``), the link and the live example are that language's embed page
    and the snippet asks for the language with ``lang``, as Copy embed code does."""
    module = figures.get(figure_id)
    embed = f"{page_depth}embed/{figure_id}/"
    address = oembed.embed_url(site_url, figure_id) if site_url else embed
    if folder:
        address += f"?lang={i18n.language()}"
    return ENV.get_template("reference-section.md.j2").render(
        id=figure_id, title=_(module.TITLE), height=module.HEIGHT, embed=f"{page_depth}{folder}embed/{figure_id}/",
        address=address, explained=f"{module.PAGE.rstrip('/')}.md", table=table(figure_id))


def reference(page_depth: str, site_url: str | None = None, folder: str = "") -> str:
    """The whole generated reference, one section per registered figure, for a page in ``folder``'s language."""
    return "\n".join(section(figure_id, page_depth, site_url, folder) for figure_id in figures.FIGURES)
