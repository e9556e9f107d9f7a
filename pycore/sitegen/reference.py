"""The teachers' reference: every figure's parameters, generated from the figures themselves.

Allowed values come from each parser's own error message and defaults from ``State()``,
so the table can never drift from what the embed pages accept.
"""

from __future__ import annotations

import ast
import inspect
import re

from .. import figures
from ..params import ParamError
from .render import ENV

PROBE = "\u0000"


def field_docs(module) -> dict[str, str]:
    """The one-line docstring under each field of the module's State dataclass."""
    tree = ast.parse(inspect.getsource(module.State))
    body = tree.body[0].body
    docs = {}
    for node, following in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(following, ast.Expr) \
                and isinstance(following.value, ast.Constant) and isinstance(following.value.value, str):
            docs[node.target.id] = " ".join(following.value.value.split())
    return docs


def allowed(module, name: str) -> str:
    """What the parser accepts for one parameter, in the parser's own words."""
    try:
        module.parse({name: PROBE})
    except ParamError as err:
        match = re.match(rf"{re.escape(name)} must (?:be )?(.*?)(?:, got '.*')?$", str(err))
        if match:
            return match.group(1)
    raise RuntimeError(f"{name}: the parser of {module.__name__} did not describe its allowed values")


def table(figure_id: str) -> str:
    """A Markdown table of one figure's parameters."""
    module = figures.get(figure_id)
    defaults = figures.state_params(module.State())
    docs = field_docs(module)
    rows = ["| parameter | allowed values | default | what it sets |", "| --- | --- | --- | --- |"]
    for name, default in defaults.items():
        rows.append(f"| `{name}` | {allowed(module, name)} | `{default}` | {docs.get(name, '')} |")
    return "\n".join(rows)


def section(figure_id: str, page_depth: str) -> str:
    """One figure's part of the reference: link, parameters, snippet and a live example."""
    module = figures.get(figure_id)
    return ENV.get_template("reference-section.md.j2").render(
        id=figure_id, title=module.TITLE, height=module.HEIGHT, embed=f"{page_depth}embed/{figure_id}/",
        explained=f"{module.PAGE.rstrip('/')}.md", table=table(figure_id))


def reference(page_depth: str) -> str:
    """The whole generated reference, one section per registered figure."""
    return "\n".join(section(figure_id, page_depth) for figure_id in figures.FIGURES)
