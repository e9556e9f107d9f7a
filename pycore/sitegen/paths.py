"""Where the glue finds things: the repository root, defined once, and the folders under it."""

from __future__ import annotations

from pathlib import Path

SITEGEN = Path(__file__).resolve().parent
"""This package: the glue, which is never packed for the browser."""
CORE = SITEGEN.parent
"""``pycore/``: the runtime core, which is."""
EXPERIMENTS = CORE / "experiments"
"""The build's numpy experiments, which are not packed either."""
CACHE_MODULE = CORE / "cache.py"
"""The build's cache, which the glue and the experiments share; not packed either."""
BUILD_ONLY = (SITEGEN, EXPERIMENTS, CACHE_MODULE)
"""What under ``pycore/`` runs at build time only."""
ROOT = CORE.parent
"""The repository root."""
TEMPLATES = ROOT / "templates"
NODE_MODULES = ROOT / "node_modules"
