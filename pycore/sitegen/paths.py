"""Where the glue finds things: the repository root, defined once, and the folders under it."""

from __future__ import annotations

from pathlib import Path

SITEGEN = Path(__file__).resolve().parent
"""This package: the glue, which is never packed for the browser."""
CORE = SITEGEN.parent
"""``pycore/``: the runtime core, which is."""
EXPERIMENTS = CORE / "experiments"
"""The build's numpy experiments, which are not packed either."""
BUILD_ONLY = (SITEGEN, EXPERIMENTS)
"""The packages under ``pycore/`` that run at build time only."""
ROOT = CORE.parent
"""The repository root."""
TEMPLATES = ROOT / "templates"
NODE_MODULES = ROOT / "node_modules"
CACHE = ROOT / ".cache"
"""Build results that are slow to recompute, keyed by their inputs; safe to delete."""
