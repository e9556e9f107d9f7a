"""Make sure a Chromium and nginx are there for the browser tests, or say clearly what to install.

Chromium: Playwright's own (``playwright install chromium``); else Debian's ``/usr/bin/chromium``,
installed with apt-get when running as root. nginx: Debian's package, installed the same way; the
tests start it themselves (tests/nginx.py), so nothing is enabled or started here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SYSTEM_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"]
"""How the tests and make bench start Chromium: no background downloads, and none of the browser's own omnibox
popups, which headless Chromium 156 loads as web pages, in a renderer of their own, for every new window. Each
new window's popups took 1.6-1.9 s of that renderer's tasks beside the page a test or the bench had opened, on
this 2-core host; a reader's page has no such neighbour at each visit (make bench, 2026-12-07)."""


def playwright_chromium() -> str | None:
    """Path of Playwright's own Chromium if it is installed."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        path = p.chromium.executable_path
    return path if Path(path).exists() else None


def executable() -> str | None:
    """The Chromium the tests will launch: Playwright's own, else the system one, else None."""
    return playwright_chromium() or (SYSTEM_CHROMIUM if Path(SYSTEM_CHROMIUM).exists() else None)


def apt_install(package: str) -> None:
    """``apt-get install package`` as root, where apt-get exists."""
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", package], check=False, env=env)


def web_server() -> int:
    """nginx for the browser tests that serve the site as a real host does."""
    from tests.nginx import executable as nginx

    if nginx():
        return 0
    print("Installing Debian's nginx for the browser tests ...", flush=True)
    apt_install("nginx")
    if nginx():
        return 0
    print("No nginx for the browser tests. Install it: sudo apt-get install nginx   (Debian/Ubuntu)", file=sys.stderr)
    return 1


def browser() -> int:
    """A Chromium for the browser tests."""
    if executable():
        return 0
    print("Installing Playwright's Chromium ...", flush=True)
    if subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"],
                      capture_output=True).returncode == 0 and playwright_chromium():
        return 0
    print("Playwright could not download its browser; installing Debian's chromium ...", flush=True)
    apt_install("chromium")
    if Path(SYSTEM_CHROMIUM).exists():
        return 0
    print("No Chromium for the browser tests. Install one of:\n"
          "  .venv/bin/python -m playwright install chromium   (needs internet)\n"
          "  sudo apt-get install chromium                      (Debian/Ubuntu)", file=sys.stderr)
    return 1


def main() -> int:
    return browser() or web_server()


if __name__ == "__main__":
    sys.exit(main())
