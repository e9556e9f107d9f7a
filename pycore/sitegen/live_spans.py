"""Numbers in the prose bound to a figure on the page: ``<span data-live="ANCHOR:NAME"></span>`` gets the words
for the figure's built state, so the page reads right without JavaScript; the page keeps them in step after."""

from __future__ import annotations

import html
import re
from typing import Any

from pycore import figures, live
from pycore.params import ParamError, from_json

from .markers import MarkerError

LIVE = re.compile(r'<span data-live="(?P<anchor>[\w-]+):(?P<name>[@\w|-]+)"></span>')


def fill(markdown: str, placed: dict[str, tuple[str, dict[str, Any]]]) -> str:
    """Every empty live span filled from the figure it names (``placed``: anchor → (figure id, state JSON));
    an anchor that is not on the page, or a name the figure does not have, is a MarkerError saying what is."""
    def one(match: re.Match) -> str:
        anchor, name = match.group("anchor"), match.group("name")
        if anchor not in placed:
            raise MarkerError(f"live span '{anchor}:{name}': no figure '{anchor}' on this page; "
                              f"it has: {', '.join(placed) or 'none'}")
        figure_id, state = placed[anchor]
        module = figures.get(figure_id)
        try:
            live.check(module, name)
            text = live.texts(module, module.parse(from_json(state)), [name])[name]
        except ParamError as err:
            raise MarkerError(f"live span '{anchor}:{name}': {err}") from None
        return f'<span data-live="{anchor}:{name}">{html.escape(text)}</span>'

    return LIVE.sub(one, markdown)
