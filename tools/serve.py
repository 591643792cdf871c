"""Serve the built site as a static host does: files from a folder, text compressed with gzip.

``python -m tools.serve [--port 8000] [folder]`` serves ``_build/html`` by default.  Text
files (HTML, CSS, JavaScript, JSON, SVG) are sent gzip-compressed to clients that accept it,
as GitHub Pages, Netlify or nginx with ``gzip on`` do, so that page weights and load times
measured against this server are those a reader gets.  ``make lighthouse`` uses it.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import threading
from functools import lru_cache, partial
from pathlib import Path

COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".txt", ".xml", ".map", ".bib")


@lru_cache(maxsize=512)
def _gzipped(path: str, mtime: float) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """``SimpleHTTPRequestHandler`` that compresses text files when the client accepts gzip."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():                              # the base class redirects "dir" to "dir/"
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in COMPRESSED):
            return super().send_head()
        body = _gzipped(str(path), path.stat().st_mtime)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return _Body(body)

    def log_message(self, format, *args):                # quiet: a benchmark prints its own table
        pass


class _Body:
    """The file-like object ``send_head`` returns for a compressed body."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, *_):
        data, self.data = self.data, b""
        return data

    def close(self):
        pass


def start(folder: str | Path, port: int = 0) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``folder`` in a background thread; return the server and its base URL."""
    handler = partial(GzipHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.serve",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="_build/html")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    server, url = start(args.folder, args.port)
    print(f"serving {args.folder} at {url} (gzip); Ctrl-C stops")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
