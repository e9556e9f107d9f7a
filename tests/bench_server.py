"""The static host ``make bench`` measures against: it serves the built site as a real host does.

HTML, scripts, styles, JSON, SVG, other text and wasm go out brotli-compressed (quality 11, as a host
that precompresses at deploy time sends them) when the browser accepts it, else gzip; every
response carries an ETag and ``Cache-Control: no-cache``, so a repeat visit without a service
worker revalidates each file. It logs the bytes it sends. ``/__stock__/`` serves Pyodide's stock
files from node_modules, for the bare ``loadPyodide`` page.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import brotli

from tests.conftest import ROOT

STOCK = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / "bench-results" / "compressed"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
         ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml", ".wasm": "application/wasm",
         ".zip": "application/zip", ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf",
         ".png": "image/png", ".tsv": "text/tab-separated-values", ".xml": "application/xml", ".txt": "text/plain"}
COMPRESSED = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".tsv", ".xml", ".txt"}
"""What hosts compress. Not zips (the Python archives are deflated inside) nor fonts (woff2 is brotli already)."""


@lru_cache(maxsize=None)
def encoded(path: Path, mtime: float, encoding: str) -> bytes:
    """The file's body as sent with that content encoding, kept on disk by content hash between runs."""
    data = path.read_bytes()
    if encoding == "identity":
        return data
    CACHE.mkdir(parents=True, exist_ok=True)
    stored = CACHE / f"{hashlib.sha256(data).hexdigest()[:24]}.{encoding}"
    if not stored.exists():
        body = brotli.compress(data, quality=11) if encoding == "br" else gzip.compress(data, 9, mtime=0)
        stored.write_bytes(body)
    return stored.read_bytes()


class Host:
    """A threaded static server on a random port; ``sent`` logs (path, raw bytes, bytes on the wire) per body sent."""

    def __init__(self, site: Path):
        self.site = site
        self.lock = threading.Lock()
        self.sent: list[tuple[str, int, int]] = []
        self.extra: dict[str, bytes] = {}
        host = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                host.serve(self, head=False)

            def do_HEAD(self):
                host.serve(self, head=True)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def resolve(self, url_path: str) -> Path | None:
        path = unquote(urlsplit(url_path).path)
        if path.startswith("/__stock__/"):
            target = STOCK / path.removeprefix("/__stock__/")
        else:
            target = self.site / path.lstrip("/")
            if path.endswith("/"):
                target = target / "index.html"
        return target if target.is_file() else None

    def serve(self, handler: BaseHTTPRequestHandler, head: bool) -> None:
        path = urlsplit(handler.path).path
        if path in self.extra:
            body = self.extra[path]
            self.reply(handler, head, body, len(body), "text/html; charset=utf-8", "identity",
                       f'"{hashlib.sha256(body).hexdigest()[:16]}"')
            return
        target = self.resolve(handler.path)
        if target is None:
            handler.send_response(404)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        accepted = handler.headers.get("Accept-Encoding", "")
        encoding = "identity"
        if target.suffix in COMPRESSED:
            encoding = "br" if "br" in accepted else "gzip" if "gzip" in accepted else "identity"
        stat = target.stat()
        body = encoded(target, stat.st_mtime, encoding)
        etag = f'"{int(stat.st_mtime)}-{stat.st_size}-{encoding}"'
        if handler.headers.get("If-None-Match") == etag:
            handler.send_response(304)
            handler.send_header("ETag", etag)
            handler.send_header("Cache-Control", "no-cache")
            handler.end_headers()
            return
        self.reply(handler, head, body, stat.st_size, TYPES.get(target.suffix, "application/octet-stream"), encoding,
                   etag)

    def reply(self, handler: BaseHTTPRequestHandler, head: bool, body: bytes, raw: int, content_type: str,
              encoding: str, etag: str) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("ETag", etag)
        handler.send_header("Vary", "Accept-Encoding")
        if encoding != "identity":
            handler.send_header("Content-Encoding", encoding)
        handler.end_headers()
        if not head:
            try:
                handler.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                return  # the page went away mid-download: nothing was delivered
            with self.lock:
                self.sent.append((urlsplit(handler.path).path, raw, len(body)))

    def take(self) -> list[tuple[str, int, int]]:
        """What was sent since the last call."""
        with self.lock:
            out, self.sent = self.sent, []
        return out

    def close(self) -> None:
        self.httpd.shutdown()
