"""Shared fixtures: one strict build of the site per session, a local server, the browser."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import io
import os
import re
import socket
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pycore.cache import CACHE, FOLDER

ROOT = Path(__file__).resolve().parents[1]


def article_pages() -> list[str]:
    """Every page in mkdocs.yml's nav, in order, as a site path ("/", "/step-1/", ...)."""
    sources = re.findall(r"^  - [^:]+: (\S+)\.md$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    return ["/" if src == "index" else f"/{src}/" for src in sources]


@contextlib.contextmanager
def first_build_alone():
    """Until one build of this checkout has finished, builds take turns. A fresh clone's first build computes
    every view and traces the standard library (about a minute); two test workers starting at once would
    each do all of it, where the second can read what the first kept in .cache/ (about 15 s)."""
    done = CACHE / "first-build.done"
    if done.exists():
        yield
        return
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "first-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    done.touch()


def build_site(dest: Path, config: Path = ROOT / "mkdocs.yml", site_url: str | None = None,
               cwd: Path = ROOT, quiet: bool = True, cache: Path | None = None) -> subprocess.CompletedProcess:
    """Run a real ``mkdocs build --strict`` into ``dest``; ``site_url`` sets SITE_URL (instant navigation needs
    it), and without it the build has no published address, whatever the caller's environment says; ``cache``
    is a folder the build keeps its slow results in instead of the suite's (``pycore.cache``)."""
    env = {name: value for name, value in os.environ.items() if name != "SITE_URL"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    if site_url:
        env["SITE_URL"] = site_url
    if cache is not None:
        env[FOLDER] = str(cache)
    with first_build_alone():
        return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", *(["-q"] if quiet else []),
                               "-f", str(config), "-d", str(dest)], capture_output=True, text=True, cwd=cwd,
                              env=env)


def shipped_archives(site: Path) -> dict[str, str]:
    """The archive names a built site's runtime-files.js gives the browser: {"CORE": …, "STDLIB": …}."""
    text = (site / "assets/sqrt-dk/runtime-files.js").read_text(encoding="utf-8")
    return dict(re.findall(r'export const (CORE|STDLIB) = "([^"]+)";', text))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def site_port() -> int:
    """The port the test server will use, known before the build so site_url can match it."""
    return free_port()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory, site_port) -> Path:
    dest = tmp_path_factory.mktemp("site")
    result = build_site(dest, site_url=f"http://127.0.0.1:{site_port}/")
    assert result.returncode == 0, result.stderr
    return dest


class Handler(SimpleHTTPRequestHandler):
    """Static files plus the knobs the failure tests turn: extra headers, forced 404s, replaced files;
    and a log of what was answered, as (path, status), for tests that count downloads."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript"}
    settings: dict = {"headers": {}, "missing": (), "replace": {}, "log": []}

    def log_message(self, *args):  # keep test output clean
        pass

    def log_request(self, code="-", size="-"):
        self.settings["log"].append((self.path, int(code)))

    def send_head(self):
        if any(self.path.startswith(prefix) for prefix in self.settings["missing"]):
            self.send_error(404)
            return None
        body = self.settings["replace"].get(self.path.split("?")[0])
        if body is not None:  # typed as the file it replaces: a module script must be served as JavaScript
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(self.path.split("?")[0]))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()

    def end_headers(self):
        for name, value in self.settings["headers"].items():
            self.send_header(name, value)
        super().end_headers()


class Server:
    """A threaded static server on 127.0.0.1 with a random port."""

    def __init__(self, directory: Path, host: str = "127.0.0.1", port: int = 0):
        self.settings = {"headers": {}, "missing": (), "replace": {}, "log": []}
        handler = type("BoundHandler", (Handler,), {"settings": self.settings})
        self.httpd = ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(directory)))
        self.url = f"http://{host}:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def reset(self):
        self.settings["headers"] = {}
        self.settings["missing"] = ()
        self.settings["replace"] = {}
        self.settings["log"] = []

    def close(self):
        self.httpd.shutdown()


@pytest.fixture(scope="session")
def server(site_dir, site_port):
    s = Server(site_dir, port=site_port)
    yield s
    s.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    from tests.browser_setup import CHROMIUM_ARGS, executable

    path = executable()
    if path is None:
        pytest.fail("no Chromium found: run 'make test', which installs one")
    return {**browser_type_launch_args, "executable_path": path, "args": CHROMIUM_ARGS}
