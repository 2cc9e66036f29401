"""A misbehaving forum for reliability tests: the demo phpBB site, with faults switched per request.

`FaultyForum` serves `forummod.demo.site.PhpbbSite` on 127.0.0.1 (never another interface)
and, for requests whose path matches a fault, answers the way real forums misbehave:

    status       500/502/503/429 (optionally with Retry-After)
    timeout      sleeps past the client's timeout, then answers normally (too late)
    trickle      sends the answer a few bytes at a time, each piece well within the timeout
    reset        sends the headers and half the body, then resets the connection (RST)
    truncated    a complete HTTP answer whose HTML stops in the middle of a post
    empty        200 with an empty body
    login        the login form instead of the page (session expired)
    layout       the page in a different layout (post markup renamed)
    redirect     a redirect loop (the page redirects to itself, forever)
    mangle       the normal answer with some bytes replaced (e.g. by invalid UTF-8)
    late         (POST) waits `delay` seconds, past the client's timeout, THEN applies the post
                 and answers to a client that has gone (`Fault.applied` is set once applied)
    applied500   (POST) applies the post, then answers 500 (a crash after the database commit)
    drop         (POST) reads the request and closes the connection: nothing is applied
    moved        301 to the same URL with `&moved=1` added (a page that moved; served once per hit)
    hold         holds the request (`applied` is set when one arrives) until `release` is set, then
                 answers normally: a request in flight for as long as a test wants

Every request is logged with its arrival time (`time.monotonic()`), so tests count them and
measure the intervals the client kept. Helpers build a workspace on the demo game whose HTTP
client uses a fake clock, so backoff and Retry-After never wait for real.
"""

from __future__ import annotations

import io
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from forummod.config import load_config
from forummod.demo import script as S
from forummod.demo.run import PASSWORD_ENV, advance, build_site, config_text
from forummod.demo.site import PhpbbSite, make_server
from forummod.forum import http as fhttp
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter
from forummod.service import Workspace
from forummod.store import StoreCookieJar

DEMO_PASSWORD = "demo-password"

FAULT_KINDS = ("status", "timeout", "trickle", "reset", "truncated", "empty", "login", "layout", "redirect", "mangle",
               "late", "applied500", "drop", "moved", "hold")


@dataclass
class Fault:
    kind: str
    match: str = "/viewtopic.php"  # applies to requests whose path contains this
    times: int | None = None  # None: until cleared
    method: str = "GET"  # POST faults: "reset" applies the post, then breaks the answer
    status: int = 503
    headers: dict[str, str] = field(default_factory=dict)
    replace: tuple[bytes, bytes] = (b"", b"")  # mangle: (what, by what)
    delay: float = 0.0  # late: seconds before the post is applied
    served: int = 0
    applied: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)  # hold: let the request go on


@dataclass(frozen=True)
class Hit:
    at: float  # time.monotonic() at arrival
    method: str
    path: str
    fault: str | None


class FakeClock:
    """Monotonic and wall clock for the HTTP client that move only when it sleeps."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.t = start
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.t

    def sleep(self, s: float) -> None:
        with self._lock:
            self.sleeps.append(s)
            self.t += max(0.0, s)


class FaultyForum:
    """`with FaultyForum(site) as f:` serves `site` on 127.0.0.1; `f.inject(...)` switches faults."""

    def __init__(self, site: PhpbbSite, *, stall: float = 0.6, delay: float = 0.0):
        self.site = site
        self.stall = stall  # seconds a "timeout" answer waits (past the client's timeout)
        self.delay = delay  # seconds every answer waits (to make a poll take measurable time)
        self.faults: list[Fault] = []
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        self.server = self._make_server()
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="faulty-forum", daemon=True)

    # ------------------------------------------------------------------ control
    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/"

    def inject(self, kind: str, *, times: int | None = None, match: str = "/viewtopic.php", status: int = 503,
               headers: dict[str, str] | None = None, method: str = "GET",
               replace: tuple[bytes, bytes] = (b"", b""), delay: float = 0.0) -> Fault:
        assert kind in FAULT_KINDS, kind
        f = Fault(kind, match, times, method, status, dict(headers or {}), replace, delay)
        with self._lock:
            self.faults.append(f)
        return f

    def clear(self) -> None:
        with self._lock:
            self.faults.clear()

    def requests(self, match: str = "", method: str = "GET") -> list[Hit]:
        with self._lock:
            return [h for h in self.hits if match in h.path and h.method == method]

    def _take(self, method: str, path: str) -> Fault | None:
        with self._lock:
            fault = None
            for f in self.faults:
                if f.method == method and f.match in path and (f.times is None or f.served < f.times):
                    f.served += 1
                    fault = f
                    break
            self.hits.append(Hit(time.monotonic(), method, path, fault.kind if fault else None))
            return fault

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> "FaultyForum":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        with self._lock:
            for f in self.faults:
                f.release.set()  # a held request must not outlive the server
        self.server.shutdown()
        self.server.server_close()

    # ------------------------------------------------------------------ server
    def _make_server(self) -> ThreadingHTTPServer:
        plain = make_server(self.site)  # the demo's handler, subclassed below
        base = plain.RequestHandlerClass
        plain.server_close()
        forum = self

        class Handler(base):  # type: ignore[misc, valid-type]
            def do_GET(self) -> None:
                fault = forum._take("GET", self.path)
                if forum.delay:
                    time.sleep(forum.delay)
                if fault is None:
                    return super().do_GET()
                try:
                    getattr(self, f"_fault_{fault.kind}")(fault)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_POST(self) -> None:
                fault = forum._take("POST", self.path)
                if fault is None:
                    return super().do_POST()
                try:
                    getattr(self, f"_fault_{fault.kind}")(fault)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            # -------------------------------------------------------------- faults
            def _normal(self) -> tuple[bytes, bytes]:
                """(head, body) of the answer the site would give (a POST is applied)."""
                real = self.wfile
                buf = io.BytesIO()
                self.wfile = buf
                try:
                    (base.do_POST if self.command == "POST" else base.do_GET)(self)
                finally:
                    self.wfile = real
                raw = buf.getvalue()
                head, _, body = raw.partition(b"\r\n\r\n")
                return head, body

            def _raw(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def _fault_status(self, f: Fault) -> None:
                body = f"<html><body><h1>Error {f.status}</h1></body></html>".encode()
                self._raw(f.status, body, f.headers)

            def _fault_timeout(self, f: Fault) -> None:
                time.sleep(forum.stall)
                super().do_GET()

            def _fault_trickle(self, f: Fault) -> None:
                head, body = self._normal()
                self.wfile.write(head + b"\r\n\r\n")
                for i in range(0, len(body), 64):
                    self.wfile.write(body[i:i + 64])
                    self.wfile.flush()
                    time.sleep(0.02)

            def _fault_reset(self, f: Fault) -> None:
                head, body = self._normal()
                self.wfile.write(head + b"\r\n\r\n" + body[: len(body) // 2])
                self.wfile.flush()
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True

            def _fault_truncated(self, f: Fault) -> None:
                _, body = self._normal()
                cut = body.rfind(b'<div class="content">')  # in the middle of the last post
                cut = cut + 40 if cut > 0 else len(body) // 2
                self._raw(200, body[:cut])

            def _fault_empty(self, f: Fault) -> None:
                self._raw(200, b"")

            def _fault_login(self, f: Fault) -> None:
                self._raw(200, forum.site.login_page().encode())

            def _fault_layout(self, f: Fault) -> None:
                _, body = self._normal()
                for a, b in ((b'class="post ', b'class="message '), (b'id="p', b'id="msg'),
                             (b'class="postprofile"', b'class="side"'), (b'class="content"', b'class="text"')):
                    body = body.replace(a, b)
                self._raw(200, body)

            def _fault_mangle(self, f: Fault) -> None:
                _, body = self._normal()
                self._raw(200, body.replace(*f.replace) if f.replace[0] else body)

            def _fault_late(self, f: Fault) -> None:
                time.sleep(f.delay)
                head, body = self._normal()  # applied now, long after the client gave up
                f.applied.set()
                self.wfile.write(head + b"\r\n\r\n" + body)

            def _fault_applied500(self, f: Fault) -> None:
                self._normal()
                f.applied.set()
                self._fault_status(replace_status(f, 500))

            def _fault_drop(self, f: Fault) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(n)
                self.close_connection = True
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

            def _fault_hold(self, f: Fault) -> None:
                f.applied.set()
                f.release.wait(60)
                (base.do_POST if self.command == "POST" else base.do_GET)(self)

            def _fault_moved(self, f: Fault) -> None:
                sep = "&" if "?" in self.path else "?"
                self._raw(301, b"", {"Location": f"{self.path}{sep}moved=1"})

            def _fault_redirect(self, f: Fault) -> None:
                self._raw(302, b"", {"Location": self.path})

        return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


def replace_status(f: Fault, status: int) -> Fault:
    from dataclasses import replace

    return replace(f, status=status)


# ---------------------------------------------------------------------- workspaces on the demo game


def demo_config(folder: Path, base_url: str, *, login: bool = True, extra: str = "", **site: Any) -> Path:
    """The demo game's config for `base_url`; `site` overrides [sites.demo] settings, `extra`
    is appended (e.g. a [games.demo.publish] table)."""
    text = config_text(base_url, folder) + extra
    settings = {"retries": 2, "timeout": 5.0, **site}
    extra = "".join(f"{k} = {_toml(v)}\n" for k, v in settings.items())
    text = text.replace("request_interval = 0.0\n", "" if "request_interval" in site else "request_interval = 0.0\n")
    text = text.replace("[sites.demo]\n", "[sites.demo]\n" + extra, 1)
    if not login:
        text = text.replace(f'password_env = "{PASSWORD_ENV}"\n', "").replace(f'username = "{S.GM}"\n', "")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "forummod.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return repr(v)


class GameClock:
    """The game's `now` for a workspace (the demo is played at fixed instants)."""

    def __init__(self, now: datetime = S.FIRST_POLL):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def open_workspace(config: Path, clock: FakeClock, game_clock: GameClock | None = None) -> Workspace:
    """A workspace whose site adapters use `clock` for politeness and backoff (no real waits)."""
    cfg = load_config(config)
    game_clock = game_clock or GameClock()
    holder: dict[str, Workspace] = {}

    def factory(site_name: str, site: Any) -> Any:
        jar = StoreCookieJar(holder["ws"].store)
        http = HttpClient.from_site(site_name, site, clock=clock, wall_clock=clock, sleep=clock.sleep,
                                    cookie_store=jar)
        return make_adapter(site_name, site, http=http, cookie_store=jar, clock=game_clock)

    ws = Workspace(cfg, clock=game_clock, adapter_factory=factory)
    holder["ws"] = ws
    return ws


def fresh_site(until: datetime = S.FIRST_POLL) -> PhpbbSite:
    site = build_site(until)
    site.users[S.GM] = DEMO_PASSWORD
    return site


def play_to(site: PhpbbSite, until: datetime) -> None:
    advance(site, until)


def reset_limiters() -> None:
    """Forget the process-wide politeness state (per-site limiters, per-account flood gates)."""
    from forummod.forum.write import reset_flood_gates

    fhttp.reset_limiters()
    reset_flood_gates()

