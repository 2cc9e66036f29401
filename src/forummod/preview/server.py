"""The local preview server: 127.0.0.1 only, a random token in the URL, same-origin POSTs.

    server = PreviewServer(ws).start()      # a daemon thread
    print(server.url)                       # http://127.0.0.1:PORT/?token=...
    server.stop()

Every request needs the token (query string for GET, form field for POST). A POST must also
come from the page itself: its Origin (or, failing that, Referer) must be this server, and a
`Sec-Fetch-Site` other than same-origin is refused, so another site open in the GM's browser
cannot publish or discard a draft. The Host header must name this server (DNS rebinding).
The page's one script (`page.DRAFTS_JS`: copy buttons, live edit preview) is inline, and the
CSP allows exactly it by its hash: no other script runs, whatever a draft contains. Its
fetches go to this origin only and are POSTs like a form's: same checks.
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

from forummod.errors import ForummodError, UsageError
from forummod.render.models import GM_KINDS
from forummod.preview.html import render_markup
from forummod.preview.page import SCRIPT_SOURCE, card, engine_markup, render_page

log = logging.getLogger("forummod.preview")

MAX_BODY = 1 << 20
CSP = (f"default-src 'none'; script-src {SCRIPT_SOURCE}; connect-src 'self'; style-src 'unsafe-inline'; "
       "img-src https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
_ACTION = re.compile(r"^/drafts/(\d+)/(publish|discard|edit|revert|preview|by-hand)$")
#: Actions a script may ask for its answer in the response (`js=1`) instead of a redirect.
_FRAGMENTS = ("preview", "by-hand")


def listen(port: int, handler: Any) -> ThreadingHTTPServer:
    """A server on 127.0.0.1:`port`; a port that cannot be had is a `UsageError` naming it (exit 2,
    no traceback): the GM picks another with `--port`, or lets the system choose (`--port 0`)."""
    try:
        return ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OverflowError:
        raise UsageError(f"--port {port}: not a port number (0-65535); use --port 0 for a free one") from None
    except OSError as e:
        import errno

        why = "is already in use (another program, or another forummod preview or console)" \
            if e.errno == errno.EADDRINUSE else f"cannot be opened ({e.strerror or e})"
        raise UsageError(f"port {port} on 127.0.0.1 {why}: choose another with --port N, "
                         "or --port 0 for a free one") from None


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
        self.previewing: dict[int, tuple[str, str]] = {}  # no-JS Preview: the unsaved edit, shown once
        self.opened: int | None = None  # a card whose raw text opens (taken to post by hand, no JS)
        self.lock = threading.Lock()
        self.httpd = listen(port, _handler(self))
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
        cards, positions = self.cards()
        msg, err, link, previewing, opened = self.message, self.error, self.link, self.previewing, self.opened
        self.message, self.error, self.link, self.previewing, self.opened = "", False, "", {}, None
        return render_page(cards, self.token, msg, err, link, positions=positions, previewing=previewing,
                           opened=opened, lang=self.language(cards))

    def language(self, cards: list[Any]) -> str:
        """The page's language: the games' when they all have the same one, else English."""
        langs = set()
        for gid in self.games if self.games is not None else sorted({c.game for c in cards}):
            try:
                langs.add(self.ws.cfg.game(gid).language)
            except ForummodError:  # a draft of a game no longer in the config
                langs.add("en")
        return langs.pop() if len(langs) == 1 else "en"

    def cards(self) -> tuple[list[Any], dict[str, Any]]:
        """The drafts as page cards and where each of their games stands (call under `lock`)."""
        from forummod.drafting import draft_states
        from forummod.freshness import game_position

        rows = [r for r in self.ws.store.drafts() if self.games is None or r.game in self.games]
        analyses: dict[str, Any] = {}
        states = draft_states(self.ws, rows, analyses=analyses)  # stale or fresh: the same answer as `drafts`
        positions = {}
        for gid in sorted({r.game for r in rows if r.status == "draft"}):
            pos = game_position(self.ws, gid, analyses.get(gid))
            if pos is not None:
                positions[gid] = pos
        cards = []
        for r in rows:
            pub = self.ws.store.publication(r.id)
            sent, hand = _taken_text(self.ws, r, pub)
            cards.append(card(r, pub, engine_markup(self.ws.cfg, r.game), states[r.id], positions.get(r.game),
                              outgoing=sent, by_hand=hand))
        return cards, positions

    def act(self, draft_id: int, action: str, form: dict[str, str]) -> str:
        with self.lock:
            return self._act(draft_id, action, form)

    def do_refresh(self) -> str:
        with self.lock:
            return self.refresh(self.ws)

    def fragment(self, draft_id: int, action: str, form: dict[str, str]) -> str:
        """A script's request (`js=1`): the answer itself, not a redirect to the page."""
        with self.lock:
            if action == "preview":
                return self._preview(draft_id, form)[1]
            return self._by_hand(draft_id, form)

    def _preview(self, draft_id: int, form: dict[str, str]) -> tuple[str, str]:
        """The unsaved edit and its rendering as the forum will show it (nothing is stored)."""
        d = self.ws.store.draft(draft_id)
        if d is None:
            raise ForummodError(f"no draft {draft_id}")
        body = form.get("body", "").replace("\r\n", "\n")
        shown = card(d, None, engine_markup(self.ws.cfg, d.game)).shown_markup
        return body, render_markup(body, shown)

    def _check_not_folded(self, draft_id: int, form: dict[str, str]) -> None:
        """A draft of an earlier phase or a finished game is sent only from its unfolded form."""
        from forummod.draft_state import past_reason
        from forummod.errors import UsageError
        from forummod.freshness import game_position

        d = self.ws.store.draft(draft_id)
        if d is None or form.get("folded_ok") == "1":
            return
        why = past_reason(d.kind, d.phase, d.status, game_position(self.ws, d.game), d.slot)
        if why:
            raise UsageError(f"draft {draft_id} ({d.kind}) is {why}: nothing sent. Open its game's folded drafts "
                             "and publish it from there if you mean to.")

    def _by_hand(self, draft_id: int, form: dict[str, str]) -> str:
        from forummod.publish import record_by_hand

        self._check_not_folded(draft_id, form)
        return record_by_hand(self.ws, draft_id, stale_ok=form.get("stale_ok") == "1").body

    def _act(self, draft_id: int, action: str, form: dict[str, str]) -> str:
        from forummod.commands.discard import discard
        from forummod.publish import by_hand, publish

        if action == "preview":
            self.previewing = {draft_id: self._preview(draft_id, form)}
            return "Preview of your edit below; it is not saved."
        if action == "by-hand":
            self._by_hand(draft_id, form)
            self.opened = draft_id
            return (f"Draft {draft_id} is recorded as posted by you: copy its text below with the marker line, "
                    "post it; the next poll recognises it.")
        if action == "publish":
            self._check_not_folded(draft_id, form)
            pub = self.ws.store.publication(draft_id)
            resend = form.get("resend") == "1" and pub is not None and by_hand(self.ws, pub) is not None
            # the stale card's own button; a by-hand card's "it is not on the forum" (still searched first)
            r = publish(self.ws, draft_id, stale_ok=form.get("stale_ok") == "1", resend=resend)
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


def _taken_text(ws: Any, row: Any, pub: Any) -> tuple[str, str]:
    """(the text with its marker, when the GM took it by hand) once an attempt recorded a marker."""
    if pub is None or row.status != "draft" or row.kind in GM_KINDS or row.target == "gm":
        return "", ""
    from forummod.publish import by_hand, outgoing

    try:
        text = outgoing(ws, row, pub.marker).body
    except ForummodError:  # e.g. a game no longer in the config
        return "", ""
    hand = by_hand(ws, pub)
    return text, f"{hand:%Y-%m-%d %H:%M}" if hand is not None else ""


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

        def checked_form(self) -> dict[str, str] | None:
            """The POSTed form once size, Host, origin and token pass; None when refused (the
            refusal is sent). Every POST route of the preview and the console goes through here."""
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if not 0 <= length <= MAX_BODY:
                self.close_connection = True
                self._send(413, "too large")
                return None
            # read the body before any answer: closing a socket with unread data resets it,
            # and the browser would show a network error instead of the refusal
            raw = self.rfile.read(length).decode("utf-8", "replace")
            if not self._host_ok():
                self._send(403, "wrong Host header")
                return None
            if not self._same_origin():
                self._send(403, "cross-site request refused")
                return None
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
            if not self._token_ok(form.get("token")):
                self._send(403, "missing or wrong token")
                return None
            return form

        def do_POST(self) -> None:
            parts = urlsplit(self.path)
            form = self.checked_form()
            if form is None:
                return
            m = _ACTION.match(parts.path)
            if m and form.get("js") == "1" and m.group(2) in _FRAGMENTS:
                try:
                    answer = server.fragment(int(m.group(1)), m.group(2), form)
                except ForummodError as e:
                    return self._send(409, str(e))
                ctype = "text/html; charset=utf-8" if m.group(2) == "preview" else "text/plain; charset=utf-8"
                return self._send(200, answer, ctype)
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
