"""Typeset every formula at build time with KaTeX (from node_modules, run by Node once per page).

Pages then carry finished math: nothing to run in the browser, correct with JavaScript off,
and no KaTeX script to download. Only KaTeX's stylesheet and fonts are shipped.
"""

from __future__ import annotations

import html
import json
import re
import subprocess

from .paths import NODE_MODULES

MATH = re.compile(r'(?P<open><(?P<tag>span|div) class="arithmatex">)(?P<tex>.*?)(?P<close></(?P=tag)>)', re.S)
DELIMITERS = re.compile(r"^\s*(\\\(|\\\[)(?P<body>.*?)(\\\)|\\\])\s*$", re.S)
RENDER = """
const katex = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(([tex, display]) =>
    katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "htmlAndMathml" }));
  process.stdout.write(JSON.stringify(out));
});
"""


class MathError(RuntimeError):
    """KaTeX could not typeset a formula; the message is KaTeX's own."""


def render_all(items: list[tuple[str, bool]]) -> list[str]:
    """KaTeX HTML for each (TeX, display) pair, in one Node process."""
    if not items:
        return []
    katex = NODE_MODULES / "katex"
    result = subprocess.run(["node", "-e", RENDER, str(katex)], input=json.dumps(items), capture_output=True,
                            text=True, encoding="utf-8")
    if result.returncode != 0:
        raise MathError(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "node failed")
    return json.loads(result.stdout)


def typeset(page_html: str) -> str:
    """Replace the TeX source inside every arithmatex span/div with KaTeX's rendering."""
    matches = list(MATH.finditer(page_html))
    items = []
    for m in matches:
        source = html.unescape(m.group("tex"))
        d = DELIMITERS.match(source)
        if not d:
            raise MathError(f"math without \\( \\) or \\[ \\] delimiters: {source[:60]}")
        items.append((d.group("body").strip(), d.group(1) == "\\["))
    rendered = iter(render_all(items))
    return MATH.sub(lambda m: m.group("open") + next(rendered) + m.group("close"), page_html)
