"""Site generation: the MkDocs hook and everything it calls (templates, packing, pages); never shipped to the browser.

Named for what it is rather than ``build``, a name that .gitignore templates, ruff and pytest treat as output.
"""
