"""One HTML page served on 127.0.0.1 for command-line tests (real HTTP, no forum behind it)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Iterator


@contextmanager
def serve_page(page: bytes, *, path_ok: Callable[[str], bool] = lambda path: True, status: int = 200) -> Iterator[str]:
    """Serve `page` (with HTTP `status`) for every path `path_ok` accepts (404 otherwise); yields
    the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if not path_ok(self.path):
                self.send_error(404)
                return
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *a) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
