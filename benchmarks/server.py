"""A loopback forum serving one synthetic thread, with ETags and request/byte counting.

Binds 127.0.0.1 on a free port. Pages are rendered once per (page, thread length) and kept,
so the server costs little next to the client it measures. `show(n)` makes the first n posts
of the game visible (a poll after it sees new posts); `edit(number, post)` replaces a post
(the page it is on gets a new ETag).
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Sequence

from benchmarks.game import SynthPost
from benchmarks.markup import Engine


@dataclass
class ForumState:
    engine: Engine
    posts: list[SynthPost]
    visible: int
    requests: list[str] = field(default_factory=list)
    bytes_sent: int = 0
    not_modified: int = 0
    etags: bool = True  # False: a server that ignores If-None-Match (every poll gets the whole page)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _cache: dict[tuple[int, int], tuple[bytes, str]] = field(default_factory=dict)

    def show(self, n: int) -> None:
        with self.lock:
            self.visible = min(n, len(self.posts))

    def edit(self, number: int, post: SynthPost) -> None:
        with self.lock:
            self.posts[number - 1] = post
            page = (number - 1) // self.engine.per_page + 1
            for key in [k for k in self._cache if k[0] == page]:
                del self._cache[key]

    def reset_counters(self) -> None:
        with self.lock:
            self.requests.clear()
            self.bytes_sent = 0
            self.not_modified = 0

    def page(self, n: int) -> tuple[bytes, str] | None:
        with self.lock:
            visible = self.visible
        pages = self.engine.pages(visible)
        if not 1 <= n <= pages:
            return None
        key = (n, visible)
        hit = self._cache.get(key)
        if hit is None:
            first = (n - 1) * self.engine.per_page
            shown: Sequence[SynthPost] = self.posts[first:min(visible, first + self.engine.per_page)]
            body = self.engine.render(shown, n, pages, visible).encode("utf-8")
            hit = (body, '"' + hashlib.md5(body).hexdigest() + '"')
            self._cache[key] = hit
        return hit


def make_server(state: ForumState, port: int = 0) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            with state.lock:
                state.requests.append(self.path)
            n = state.engine.page_of(self.path)
            page = state.page(n) if n is not None else None
            if page is None:
                body = b"<html><body>Not found</body></html>"
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            body, etag = page
            if state.etags and self.headers.get("If-None-Match") == etag:
                with state.lock:
                    state.not_modified += 1
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", "private, no-cache, max-age=0")
            self.end_headers()
            self.wfile.write(body)
            with state.lock:
                state.bytes_sent += len(body)

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


class RunningForum:
    """`with RunningForum(state) as base_url:` serves the thread until the block ends (`port`: a
    fixed one, so a kept workspace's config and store stay valid across runs; 0: a free one)."""

    def __init__(self, state: ForumState, port: int = 0):
        self.state = state
        self.server = make_server(state, port)
        self.thread = threading.Thread(target=self.server.serve_forever, name="bench-forum", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __enter__(self) -> str:
        self.thread.start()
        return self.base_url

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
