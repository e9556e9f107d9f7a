"""nginx (Debian's package) serving a built site for the browser tests, as a real host does.

Its server block is the README's (*Publish the site*), so the configuration a teacher copies is the one
the tests run: gzip, the site's types (.wasm, .mjs), ``sw.js`` not cached, the site under a sub-path.
Only what a test machine needs changes: the port (a free one on 127.0.0.1), the folder, the sub-path,
and two knobs the failure tests turn (extra headers; paths that answer 404), applied by restarting it.
It runs as a child in the foreground (``daemon off``) with its own prefix, configuration, pid file,
logs and temporary folders in a temporary directory, and its access log is what the tests count.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.conftest import ROOT

SBIN = "/usr/sbin/nginx"
README_ROOT, README_PATH = "/var/www", "/course/"
"""The folder and sub-path the README's server block names."""


def executable() -> str | None:
    """Debian's nginx, if it is installed."""
    return shutil.which("nginx") or (SBIN if Path(SBIN).exists() else None)


def server_block() -> str:
    """The README's nginx server block, as written there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"^```nginx\n(.*?)^```$", text, re.S | re.M).group(1)


def quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Nginx:
    """One nginx serving ``site`` at ``http://127.0.0.1:<port><path>``; ``url`` has no trailing slash, like
    the Python server's, so ``url + "/step-2/"`` is a page."""

    def __init__(self, site: Path, port: int, path: str = README_PATH):
        self.path, self.port = path, port
        self.origin = f"http://127.0.0.1:{port}"
        self.url = self.origin + path.rstrip("/")
        self.dir = Path(tempfile.mkdtemp(prefix="sq-nginx-"))
        (self.dir / "www").mkdir()
        (self.dir / "www" / path.strip("/")).symlink_to(Path(site).resolve(), target_is_directory=True)
        self.headers: dict[str, str] = {}
        self.missing: tuple[str, ...] = ()
        self.process: subprocess.Popen | None = None
        self._logged = 0
        self._start()

    def config(self) -> str:
        """The whole configuration: the README's server block inside a test-only frame."""
        block = server_block()
        block = block.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        block = block.replace(f"root {README_ROOT};", f"root {self.dir / 'www'};").replace(README_PATH, self.path)
        knobs = "".join(f"add_header {name} {quoted(value)} always;\n" for name, value in self.headers.items())
        block = re.sub(r"^(\s*location [^\n]*\{\n)", lambda m: m.group(1) + knobs, block, flags=re.M)
        missing = "".join(f"if ($uri ~ {quoted('^' + re.escape(self.path.rstrip('/') + prefix))}) {{ return 404; }}\n"
                          for prefix in self.missing)
        block = re.sub(r"^(server \{\n)", lambda m: m.group(1) + knobs + missing, block, flags=re.M)
        temp = "\n".join(f"    {name}_temp_path {self.dir / name};" for name in
                         ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root;\n" if hasattr(os, "geteuid") and os.geteuid() == 0 else ""
        return f"""daemon off;
{user}worker_processes 1;
pid {self.dir / 'nginx.pid'};
error_log {self.dir / 'error.log'} warn;
events {{ worker_connections 256; }}
http {{
    default_type application/octet-stream;
    log_format sq '$request_uri $status';
    access_log {self.dir / 'access.log'} sq;
{temp}
{block}
}}
"""

    def _start(self):
        (self.dir / "nginx.conf").write_text(self.config(), encoding="utf-8")
        nginx = executable()
        if nginx is None:
            raise RuntimeError("nginx is not installed: run 'make test', which installs it")
        self.process = subprocess.Popen([nginx, "-p", f"{self.dir}/", "-c", str(self.dir / "nginx.conf"),
                                         "-e", str(self.dir / "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx stopped: {self.process.stderr.read().decode()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening within 10 s")

    def _stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def serve(self, headers: dict[str, str] | None = None, missing: tuple[str, ...] = ()):
        """Restart with ``headers`` on every answer and 404 for paths under the site starting with ``missing``."""
        if (headers or {}) == self.headers and missing == self.missing:
            return
        self.headers, self.missing = dict(headers or {}), tuple(missing)
        self._stop()
        self._start()

    def log(self) -> list[tuple[str, int]]:
        """What was answered since the last reset, as (path under the site, status), like the Python server's log."""
        lines = (self.dir / "access.log").read_text(encoding="utf-8").splitlines()[self._logged:]
        prefix = self.path.rstrip("/")
        return [(uri[len(prefix):] if uri.startswith(prefix) else uri, int(status))
                for uri, status in (line.rsplit(" ", 1) for line in lines)]

    def forget(self):
        """Start the log afresh."""
        path = self.dir / "access.log"
        self._logged = len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0

    def reset(self):
        """No extra headers, nothing missing, an empty log."""
        self.serve()
        self.forget()

    def close(self):
        self._stop()
        shutil.rmtree(self.dir, ignore_errors=True)
