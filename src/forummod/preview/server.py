"""The local preview server: 127.0.0.1 only, a random token in the URL, same-origin POSTs.

    server = PreviewServer(ws).start()      # a daemon thread
    print(server.url)                       # http://127.0.0.1:PORT/?token=...
    server.stop()

Every request needs the token (query string for GET, form field for POST). A POST must also
come from the page itself: its Origin (or, failing that, Referer) must be this server, and a
`Sec-Fetch-Site` other than same-origin is refused, so another site open in the GM's browser
cannot publish or discard a draft. The Host header must name this server (DNS rebinding).
Requests run in threads (a browser's idle preconnection must not stall the page), but
reading and acting on drafts happens under one lock, so two clicks never publish at once.
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from forummod.errors import ForummodError
from forummod.preview.page import card, engine_markup, render_page

log = logging.getLogger("forummod.preview")

MAX_BODY = 1 << 20
CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")
_ACTION = re.compile(r"^/drafts/(\d+)/(publish|discard|edit|revert)$")


class PreviewServer:
    """Serves the drafts of `ws` (a `service.Workspace`); `refresh` re-renders them.
    Subclasses (the console) may set their own `csp` and serve more routes."""

    csp = CSP

    def __init__(self, ws: Any, *, port: int = 0, token: str | None = None, games: list[str] | None = None,
                 refresh: Callable[[Any], str] | None = None):
        self.ws = ws
        self.token = token or secrets.token_urlsafe(24)
        self.games = games
        self.refresh = refresh or refresh_all
        self.message = ""
        self.error = False
        self.link = ""  # the post or PM just published, shown with the message
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread: threading.Thread | None = None

    @property
    def origins(self) -> tuple[str, ...]:
        return (f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    def start(self) -> "PreviewServer":
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="forummod-preview", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self.thread is not None:
            self.thread.join(timeout=5)

    # ---- what the page shows and does
    def page(self) -> str:
        with self.lock:
            return self._page()

    def _page(self) -> str:
        from forummod.drafting import draft_states

        rows = [r for r in self.ws.store.drafts() if self.games is None or r.game in self.games]
        states = draft_states(self.ws, rows)  # stale or fresh: the same answer as `forummod drafts`
        cards = [card(r, self.ws.store.publication(r.id), engine_markup(self.ws.cfg, r.game), states[r.id])
                 for r in rows]
        msg, err, link = self.message, self.error, self.link
        self.message, self.error, self.link = "", False, ""
        return render_page(cards, self.token, msg, err, link)

    def act(self, draft_id: int, action: str, form: dict[str, str]) -> str:
        with self.lock:
            return self._act(draft_id, action, form)

    def do_refresh(self) -> str:
        with self.lock:
            return self.refresh(self.ws)

    def _act(self, draft_id: int, action: str, form: dict[str, str]) -> str:
        from forummod.commands.discard import discard
        from forummod.publish import publish

        if action == "publish":
            r = publish(self.ws, draft_id, stale_ok=form.get("stale_ok") == "1")  # the stale card's own button
            where = r.url or r.remote_id
            self.link = r.url or ""
            return {"sent": f"Draft {draft_id} published ({where}).",
                    "already_sent": f"Draft {draft_id} was already published; nothing sent.",
                    "recovered": f"Draft {draft_id} was found on the forum; recorded, not sent again."}[r.status]
        if action == "discard":
            discard(self.ws, draft_id)
            return f"Draft {draft_id} discarded."
        if action == "revert":
            from forummod.drafting import revert_to_render

            revert_to_render(self.ws, draft_id)
            return f"Draft {draft_id} is the fresh render again; your edit is in its history."
        body = form.get("body", "").replace("\r\n", "\n")
        self.ws.store.edit_draft(draft_id, body, self.ws.clock())
        return f"Your version of draft {draft_id} is saved."


def refresh_all(ws: Any) -> str:
    """Analyse every active game and re-render its drafts (the page's refresh button)."""
    from forummod.drafting import refresh_drafts

    n = 0
    for gid in ws.game_ids(active_only=True):
        n += len(refresh_drafts(ws, gid))
    return f"Drafts re-rendered: {n} open."


def _handler(server: PreviewServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "forummod-preview"
        sys_version = ""
        timeout = 30  # an idle connection gives up its thread

        def log_message(self, fmt: str, *args: Any) -> None:  # never log the token
            log.debug("preview %s %s", self.command, urlsplit(self.path).path)

        def _send(self, status: int, body: str = "", ctype: str = "text/plain; charset=utf-8",
                  headers: dict[str, str] | None = None) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Content-Security-Policy", server.csp)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Referrer-Policy", "same-origin")
            self.send_header("Cache-Control", "no-store")
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def _host_ok(self) -> bool:
            host = self.headers.get("Host", "")
            return host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}")

        def _token_ok(self, given: str | None) -> bool:
            return bool(given) and hmac.compare_digest(given.encode(), server.token.encode())

        def _same_origin(self) -> bool:
            site = self.headers.get("Sec-Fetch-Site")
            if site is not None and site != "same-origin":
                return False
            origin = self.headers.get("Origin")
            if origin is not None:
                return origin in server.origins
            referer = self.headers.get("Referer")
            return referer is not None and any(referer.startswith(o + "/") for o in server.origins)

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/favicon.ico":
                return self._send(404)
            if not self._host_ok():
                return self._send(403, "wrong Host header")
            if parts.path != "/":
                return self._send(404, "not found")
            if not self._token_ok(parse_qs(parts.query).get("token", [None])[0]):
                return self._send(403, "missing or wrong token: open the URL 'forummod preview' printed")
            self._send(200, server.page(), "text/html; charset=utf-8")

        def do_POST(self) -> None:
            parts = urlsplit(self.path)
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if not 0 <= length <= MAX_BODY:
                self.close_connection = True
                return self._send(413, "too large")
            # read the body before any answer: closing a socket with unread data resets it,
            # and the browser would show a network error instead of the refusal
            raw = self.rfile.read(length).decode("utf-8", "replace")
            if not self._host_ok():
                return self._send(403, "wrong Host header")
            if not self._same_origin():
                return self._send(403, "cross-site request refused")
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
            if not self._token_ok(form.get("token")):
                return self._send(403, "missing or wrong token")
            m = _ACTION.match(parts.path)
            anchor = ""
            try:
                if parts.path == "/refresh":
                    server.message = server.do_refresh()
                elif m:
                    anchor = f"#draft-{m.group(1)}"
                    server.message = server.act(int(m.group(1)), m.group(2), form)
                else:
                    return self._send(404, "not found")
                server.error = False
            except ForummodError as e:
                server.message, server.error = str(e), True
            except Exception as e:  # the page must say what went wrong, not hang
                log.exception("preview action failed")
                server.message, server.error = f"{type(e).__name__}: {e}", True
            self._send(303, "", headers={"Location": f"/?token={server.token}{anchor}"})

        do_HEAD = do_GET

    return Handler
