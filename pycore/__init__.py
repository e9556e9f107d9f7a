"""Pure-Python core of the sqrt(d_k) explainer: math, drawing and figures.

Runs unchanged in CPython (at build time) and in Pyodide (in the browser); nothing here
outside ``pycore.sitegen`` (the build glue) and ``pycore.experiments`` (the build's numpy experiments)
imports anything but the standard library; neither of those two ships to the browser.
"""
