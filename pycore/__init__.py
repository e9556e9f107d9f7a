"""Pure-Python core of the sqrt(d_k) explainer: math, drawing and figures.

Runs unchanged in CPython (at build time) and in Pyodide (in the browser); nothing here
outside ``pycore.sitegen`` imports anything but the standard library.
"""
