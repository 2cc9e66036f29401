"""The console server: the preview server's checks (127.0.0.1, token, Host, same origin) and
its draft routes, plus the console page, `POST /poll` and `POST /gm/<action>`.

    server = ConsoleServer(ws).start()
    print(server.url)

One locking rule: every action (poll, a GM decision, publish, discard, edit, re-render) takes
the workspace lock for that action only, like `tick` and `run`; while the page is merely open
nobody holds it, so a cron `tick` runs as usual (and returns 75 only while an action is under
way). An action that finds the lock taken does nothing and says who holds it on the page.
A GM decision is two POSTs: the first checks it (`gm_actions.plan`, nothing written) and answers
a confirmation page; the second (`confirm=1`) records exactly the event `forummod gm` would.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Any, Iterator, Mapping
from urllib.parse import parse_qs, urlsplit

from forummod.console.labels import Labels
from forummod.console.page import COUNTDOWN_JS, confirm_page, render_console
from forummod.errors import ForummodError, UsageError
from forummod.preview.server import PreviewServer, _handler

log = logging.getLogger("forummod.console")

#: The GM actions the console's forms post (each the `gm` subcommand of the same name).
ACTIONS = ("approve", "reject", "set-vote", "action", "replace", "extend", "end", "note", "undo")


def console_csp(script_hashes: tuple[str, ...]) -> str:
    from forummod.console.drafts import script_hash

    scripts = " ".join((script_hash(COUNTDOWN_JS), *script_hashes))
    return ("default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; connect-src 'self'; "
            f"script-src {scripts}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class ConsoleServer(PreviewServer):
    """Serves the console of `ws`'s games (`games`: only these)."""

    def __init__(self, ws: Any, *, port: int = 0, token: str | None = None, games: list[str] | None = None):
        super().__init__(ws, port=port, token=token, games=games)
        self.httpd.RequestHandlerClass = _console_handler(self)
        self.current = ""  # the game shown last: a redirect after an action comes back to it
        self._views: dict[str, tuple[Any, Any, Any]] = {}  # game -> (marks, its KeptView, drafts section)
        from forummod.console.drafts import own_script_hashes
        from forummod.preview.page import render_page

        self.csp = console_csp(own_script_hashes(render_page([], self.token)))

    def game_list(self) -> list[str]:
        ids = self.ws.game_ids(active_only=False)
        return [g for g in ids if self.games is None or g in self.games]

    def game_of(self, wanted: str | None) -> str:
        games = self.game_list()
        if not games:
            raise UsageError("the config has no game")
        for g in (wanted, self.current):
            if g in games:
                return g
        active = [g for g in self.ws.game_ids(active_only=True) if g in games]
        return (active or games)[0]

    # ---- the lock, one action at a time
    @contextmanager
    def workspace_lock(self, what: str) -> Iterator[None]:
        """The workspace lock for one action, waited for up to `workspace.lock_wait` (a daemon pass
        at work ends within it); `LockBusy` (a clear message) when another run keeps it longer."""
        from forummod.lock import WorkspaceLock

        cfg = self.ws.cfg.workspace
        lock = WorkspaceLock(cfg.store_path(), stale_after_s=cfg.lock_stale_after.seconds,
                             command=f"forummod console: {what}").acquire(cfg.lock_wait.seconds)
        try:
            yield
        finally:
            lock.release()

    def act(self, draft_id: int, action: str, form: dict[str, str]) -> str:
        if action == "preview":  # the drafts' edit preview writes nothing
            return super().act(draft_id, action, form)
        with self.workspace_lock(f"{action} draft {draft_id}"):
            return super().act(draft_id, action, form)

    def do_refresh(self) -> str:
        with self.workspace_lock("re-render drafts"):
            return super().do_refresh()

    # ---- the page
    def console_page(self, wanted: str | None) -> str:
        with self.lock:
            gid = self.game_of(wanted)
            self.current = gid
            msg, err, link = self.message, self.error, self.link  # shown once, at the console's top
            self.message, self.error, self.link = "", False, ""
            try:
                g, drafts = self._game_and_drafts(gid)
            except ForummodError as e:
                return _error_page(gid, f"{gid}: {e}", self.token)
            return render_console(g, drafts, self.token, self.game_list(), msg, err, link)

    def _game_and_drafts(self, gid: str) -> tuple[Any, Any]:
        """The game's view and drafts section (call under `lock`). Kept from the last load while
        the game's input mark, its desk (drafts, publications, alerts: `Store.desk_state`) and
        the user's templates are the same and the clock has not reached the view's `until`
        (issue 30): a page load with nothing new reads a few marks and renders the page."""
        from forummod.console.drafts import drafts_section
        from forummod.console.view import console_view
        from forummod.quiet_pass import settings_digest
        from forummod.service import game_mark

        ws = self.ws
        key = (game_mark(ws, gid), ws.store.desk_state(gid), settings_digest(ws, gid))
        now = ws.clock()
        kept = self._views.get(gid)
        one_shot = bool(self.previewing or self.opened)  # the drafts section shows them once
        if kept is not None and kept[0] == key and not one_shot and kept[1].right_at(now):
            return kept[1].at(now), kept[2]
        view = console_view(ws, gid)
        drafts = drafts_section(self._drafts_page(gid))
        if view.mark == key[0] and not one_shot:
            self._views[gid] = (key, view, drafts)
        else:
            self._views.pop(gid, None)
        return view.game, drafts

    def _drafts_page(self, gid: str) -> str:
        """The preview page of `gid`'s drafts alone (call under `lock`)."""
        games = self.games
        self.games = [gid]  # the preview page lists the drafts of `games`
        try:
            return self._page()
        finally:
            self.games = games

    # ---- the actions
    def poll(self, wanted: str | None) -> str:
        """`forummod poll` for the game shown: the same service poll, under the lock."""
        from forummod.commands._common import plural
        from forummod.service import poll_game

        gid = self.game_of(wanted)
        with self.workspace_lock(f"poll {gid}"), self.lock:
            r = poll_game(self.ws, gid)
        if not r.ok:
            raise PollFailed(f"{gid}: poll failed: {r.error}")
        line = (f"{gid}: {plural(r.new_posts, 'new post')}, {r.edited_posts} edited, {r.deleted_posts} deleted, "
                f"{plural(r.new_messages, 'new PM')}")
        return "; ".join([line, *(i.message for i in r.issues)])

    def gm_check(self, cmd: str, form: Mapping[str, str]) -> tuple[str, str]:
        """(game, the words of what `cmd` would record): validated, nothing written."""
        from forummod.gm_actions import describe_for, plan

        gid = self.game_of(form.get("game"))
        with self.lock:
            rec = plan(self.ws, gid, cmd, gm_params(cmd, form), self._at(gid, form))
        if rec.noop:
            raise UsageError(rec.noop)
        when = rec.at.astimezone(self.ws.cfg.game(gid).tz).strftime("%Y-%m-%d %H:%M %Z") if rec.at else ""
        return gid, f"{describe_for(self.ws.cfg.game(gid), cmd, rec.payload)}" + (f" ({when})" if when else "")

    def gm_record(self, cmd: str, form: Mapping[str, str]) -> str:
        """Record `cmd` as `forummod gm` would, under the workspace lock."""
        from forummod.gm_actions import plan, record

        gid = self.game_of(form.get("game"))
        with self.workspace_lock(f"gm {cmd}"), self.lock:
            done = record(self.ws, gid, plan(self.ws, gid, cmd, gm_params(cmd, form), self._at(gid, form)))
        if done.event_id is None:
            return done.message
        from forummod.gm_actions import correction_lines

        extra = "".join("; " + line for line in correction_lines(self.ws.cfg.game(gid), done.corrections))
        return self.words(gid)("recorded", id=done.event_id, what=f"{done.message}{extra}")

    def words(self, gid: str | None) -> Labels:
        """The console's labels in `gid`'s language (English for a game not in the config)."""
        try:
            return Labels(self.ws.cfg.game(gid).language if gid else "en")
        except ForummodError:
            return Labels("en")

    def _at(self, gid: str, form: Mapping[str, str]):
        from forummod.commands._common import parse_time

        text = (form.get("at") or "").strip()
        return parse_time(text, self.ws.cfg.game(gid).tz) if text else self.ws.clock()


class PollFailed(ForummodError):
    """A poll from the console failed (network, forum): shown on the page."""


def gm_params(cmd: str, form: Mapping[str, str]) -> dict[str, Any]:
    """The console form's fields as the `gm` subcommand's options (`gm_actions.plan`'s params)."""
    f = {k: v.strip() for k, v in form.items()}

    def number(key: str) -> int | None:
        v = f.get(key, "")
        if not v:
            return None
        if not v.isdigit():
            raise UsageError(f"{key}: {v!r} is not a post number")
        return int(v)

    if cmd == "approve":
        return {"key": f.get("key", ""), "player": f.get("player", "")}  # player: an alias proposal's pick
    if cmd == "reject":
        return {"key": f.get("key", "")}
    if cmd == "set-vote":
        return {"voter": f.get("voter", ""), "target": f.get("target", "")}
    if cmd == "action":
        targets = [t for t in (f.get("target1", ""), f.get("target2", "")) if t]
        return {"actor": f.get("actor", ""), "verb": f.get("verb", ""), "targets": targets, "arg": []}
    if cmd == "replace":
        return {"player": f.get("player", ""), "new_name": f.get("new_name", ""), "post": number("post"), "when": None}
    if cmd == "extend":
        return {"phase": f.get("phase", ""), "until": f.get("until") or None, "close": f.get("close") or None}
    if cmd == "end":
        return {"phase": f.get("phase", ""), "when": f.get("when") or None, "post": number("post")}
    if cmd == "note":
        if not f.get("text"):
            raise UsageError("the note is empty")
        return {"text": f["text"]}
    if cmd == "undo":
        n = number("event")
        if n is None:
            raise UsageError("undo needs an event number")
        return {"event": n}
    raise UsageError(f"the console has no action {cmd!r}")


def _error_page(gid: str, message: str, token: str) -> str:
    from markupsafe import escape

    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>forummod console</title></head>'
            f'<body><h1>{escape(gid)}</h1><p class="flash error" id="flash">{escape(message)}</p>'
            f'<p><a href="/?token={escape(token)}">Reload</a></p></body></html>')


def _console_handler(server: ConsoleServer) -> type:
    Base = _handler(server)

    class Handler(Base):  # type: ignore[misc, valid-type]
        server_version = "forummod-console"

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            from forummod.console import history_routes  # issue 32: vote history, charts, players

            if parts.path in history_routes.ROUTES:
                return history_routes.serve(server, self, parts)
            if parts.path != "/":
                return super().do_GET()  # 404s and the preview's own checks
            if not self._host_ok():
                return self._send(403, "wrong Host header")
            query = parse_qs(parts.query)
            if not self._token_ok(query.get("token", [None])[0]):
                return self._send(403, "missing or wrong token: open the URL 'forummod console' printed")
            try:
                page = server.console_page(query.get("game", [None])[0])
            except ForummodError as e:
                page = _error_page("forummod console", str(e), server.token)
            except Exception as e:  # the page says what went wrong, never a traceback
                log.exception("console page failed")
                page = _error_page("forummod console", f"{type(e).__name__}: {e}", server.token)
            self._send(200, page, "text/html; charset=utf-8")

        do_HEAD = do_GET

        def do_POST(self) -> None:
            path = urlsplit(self.path).path
            if path != "/poll" and not path.startswith("/gm/"):
                return super().do_POST()  # the drafts' own routes and refresh (locked by ConsoleServer)
            form = self.checked_form()
            if form is None:
                return
            cmd = path[len("/gm/"):] if path.startswith("/gm/") else ""
            if path.startswith("/gm/") and cmd not in ACTIONS:
                return self._send(404, "not found")
            game = form.get("game") or server.current
            anchor = ""
            try:
                if path == "/poll":
                    server.message = server.poll(form.get("game"))
                elif form.get("confirm") != "1":
                    gid, what = server.gm_check(cmd, form)
                    g = server.ws.cfg.game(gid)
                    page = confirm_page(lang=g.language, title=g.title or gid, game=gid, token=server.token,
                                        action=path, what=what, fields=dict(form, game=gid))
                    return self._send(200, page, "text/html; charset=utf-8")
                else:
                    server.message = server.gm_record(cmd, form)
                    anchor = "#pending" if cmd in ("approve", "reject") else "#corrections"
                server.error = False
            except ForummodError as e:
                server.message, server.error = server.words(game)("not_done", why=str(e)), True
            except Exception as e:  # the page must say what went wrong, not hang
                log.exception("console action failed")
                server.message, server.error = server.words(game)("not_done", why=f"{type(e).__name__}: {e}"), True
            from urllib.parse import quote

            self._send(303, "", headers={"Location": f"/?token={server.token}&game={quote(game)}{anchor}"})

    return Handler
