"""The teachers' reference: every figure's parameters, generated from the figures' parameter specs.

Allowed values, defaults and docs come from the same ``Param`` specs that parse the embed
pages' query strings, so the table can never drift from what they accept.
"""

from __future__ import annotations

import html

from .. import figures


def table(figure_id: str) -> str:
    """A Markdown table of one figure's parameters."""
    module = figures.get(figure_id)
    defaults = figures.state_params(module.State())
    rows = ["| parameter | allowed values | default | what it sets |", "| --- | --- | --- | --- |"]
    for spec in module.PARAMS:
        rows.append(f"| `{spec.name}` | {spec.allowed()} | `{defaults[spec.name]}` | {spec.doc} |")
    return "\n".join(rows)


def section(figure_id: str, page_depth: str) -> str:
    """One figure's part of the reference: link, parameters, snippet and a live example."""
    module = figures.get(figure_id)
    embed = f"{page_depth}embed/{figure_id}/"
    title = html.escape(module.TITLE)
    snippet = (f'<iframe src="{embed}" title="{title}" loading="lazy" width="100%" '
               f'height="{module.HEIGHT}" style="border:0"></iframe>')
    return "\n".join([
        f"### {module.TITLE} {{#embed-{figure_id}}}",
        "",
        f'Id `{figure_id}` · <a href="{embed}">standalone page</a> · '
        f"[explained in]({module.PAGE.rstrip('/')}.md)",
        "",
        table(figure_id),
        "",
        f'<pre><code data-sq-snippet="{embed}" data-title="{title}" data-height="{module.HEIGHT}">'
        f"{html.escape(snippet)}</code></pre>",
        "",
        f'<details class="sq-live"><summary>Live example</summary><iframe src="{embed}" title="{title}" '
        f'loading="lazy" width="100%" height="{module.HEIGHT}" style="border:0"></iframe></details>',
        "",
    ])


def reference(page_depth: str) -> str:
    """The whole generated reference, one section per registered figure."""
    return "\n".join(section(figure_id, page_depth) for figure_id in figures.FIGURES)
