"""The console's GET routes of issue 32: `/history` (the vote history and wagon charts, GM or
thread view), `/history/chart.png` (one day's chart to attach) and `/player` (one player's page).

The same checks as the console page: 127.0.0.1 Host, the token; they only read (no lock). A
small hook in `server.py` sends these paths here.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs

from forummod.errors import ForummodError

log = logging.getLogger("forummod.console")

ROUTES = ("/history", "/history/chart.png", "/player")


def serve(server: Any, handler: Any, parts: Any) -> None:
    """Answer one GET of `ROUTES` on `handler` (the console's request handler)."""
    from forummod.console.history_data import chart_png_of, history_page, player_page
    from forummod.console.history_page import render_history_page, render_player_page

    if not handler._host_ok():
        return handler._send(403, "wrong Host header")
    query = parse_qs(parts.query)
    if not handler._token_ok(query.get("token", [None])[0]):
        return handler._send(403, "missing or wrong token: open the URL 'forummod console' printed")
    public = query.get("view", [""])[0] == "public"
    try:
        with server.lock:
            gid = server.game_of(query.get("game", [None])[0])
            if parts.path == "/history":
                return handler._send(200, render_history_page(history_page(server.ws, gid, public=public),
                                                              server.token), "text/html; charset=utf-8")
            if parts.path == "/history/chart.png":
                day = query.get("day", [""])[0].upper()
                data = chart_png_of(server.ws, gid, day, public=public)
                if data is None:
                    return handler._send(404, f"no vote history for {day!r}")
                return send_bytes(server, handler, data, "image/png",
                                  f"{gid}-{day}{'-public' if public else ''}.png")
            page = player_page(server.ws, gid, query.get("name", [""])[0])
            if page is None:
                return handler._send(404, "not a player of this game")
            return handler._send(200, render_player_page(page, server.token), "text/html; charset=utf-8")
    except ForummodError as e:
        return handler._send(200, f"{type(e).__name__}: {e}")
    except Exception as e:  # the page says what went wrong, never a traceback
        log.exception("console history page failed")
        return handler._send(500, f"{type(e).__name__}: {e}")


def send_bytes(server: Any, handler: Any, data: bytes, ctype: str, filename: str) -> None:
    """A binary answer with the console's own security headers."""
    handler.send_response(200)
    handler.send_header("Content-Type", ctype)
    handler.send_header("Content-Length", str(len(data)))
    handler.send_header("Content-Disposition", f'attachment; filename="{filename}"')
    handler.send_header("Content-Security-Policy", server.csp)
    handler.send_header("X-Content-Type-Options", "nosniff")
    handler.send_header("Cache-Control", "no-store")
    handler.end_headers()
    if handler.command != "HEAD":
        handler.wfile.write(data)
