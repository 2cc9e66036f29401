"""The one place that wires config, store, adapters, extraction and the engine together.

I/O lives here and at the edges (adapters, store); everything this module calls in between
is pure. `poll_game` fetches and stores; `analyse_game` re-derives the whole game from the
store (extraction → timeline → engine) for a given `now`, so `tally`, `status`, `check`,
drafts and `replay` all see exactly the same result.
"""

from __future__ import annotations

import gc
import logging
from functools import cached_property, lru_cache
import random
import time
from dataclasses import field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from typing import TYPE_CHECKING

from forummod.analysis_clock import changes_at
from forummod.config import Config, GameConfig, SiteConfig, configured_roles, load_config
from forummod.errors import ConfigError, ForumError, ForummodError, StoreUnwritable
from forummod.logsafe import redact
from forummod.model import (
    ActionIntent, Issue, Message, Post, Replacement, Roster, Source, ThreadRef, UnvoteIntent, VoteIntent,
    guessed_date_bounds,
)
from forummod.gm_log import effective_events, undone_by  # noqa: F401  (callers import them from here too)
from forummod.records import frozen
from forummod.store import Store, StoreCookieJar, iso

if TYPE_CHECKING:  # the engine is imported where a recount runs: a pass with nothing new needs none of it
    from forummod.engine.events import Event, Override
    from forummod.engine.ruleset import Ruleset, Setup
    from forummod.engine.schedule import PhasePlan
    from forummod.engine.types import GameRun, Phase

log = logging.getLogger("forummod")

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


# --------------------------------------------------------------------------- workspace


class Workspace:
    """A loaded config plus its open store; the CLI opens one per command."""

    def __init__(self, cfg: Config, store: Store | None = None, *, clock: Clock = utcnow,
                 adapter_factory: Callable[[str, SiteConfig], Any] | None = None, adopt: bool = False,
                 notify: Callable[[str], None] | None = None, read_only_ok: bool = False,
                 store_check: str = "due", http_wait: float | None = None, cancel: Any = None):
        self.cfg = cfg
        self._store = store  # opened on first use: a command that fails on bad input creates no store
        self.clock = clock
        self._adapters: dict[str, Any] = {}
        self._adapter_factory = adapter_factory
        self.on_store_open: Callable[[], None] | None = None  # e.g. take the workspace lock (lock.py)
        self.adopt = adopt  # take over game ids the store knows for another site or thread
        self.notify = notify or _note_to_stderr
        # a reading command: a store this process may not write (read-only mount, permissions)
        # is opened read-only rather than refused, and nothing is cached in it
        self.read_only_ok = read_only_ok
        self.store_check = store_check  # when SQLite's quick check runs at open (Store's `check`)
        self.http_wait = http_wait  # the most one request of this workspace's adapters waits (forum.http.MAX_WAIT)
        self.cancel = cancel  # a threading.Event that ends every wait of the adapters (the daemon's stop)
        from forummod.analysis_cache import AnalysisCache

        self.analyses = AnalysisCache()  # each game's last analysis, by its input mark (issue 30)

    @classmethod
    def open(cls, config_path: Path, **kw: Any) -> "Workspace":
        return cls(load_config(config_path), **kw)

    @property
    def store(self) -> Store:
        if self._store is None:
            if self.cfg.store_note:  # before the open, which may refuse the store the note is about
                self.notify(self.cfg.store_note)
            store = Store(self.cfg.workspace.store_path(), read_if_unwritable=self.read_only_ok,
                          check=self.store_check, settle=False)
            if not store.writable:
                self.notify(f"{store.unwritable}: it is read, nothing is written to it")
            try:
                if self.on_store_open is not None:
                    self.on_store_open()
                store.settle()
                self._claim_games(store)
            except BaseException:
                store.close()
                raise
            self._store = store
        return self._store

    def _claim_games(self, store: Store) -> None:
        """Refuse a store that holds another game under one of this config's game ids (two
        folders sharing one store would see, and publish, each other's drafts and PMs)."""
        from forummod.store_location import IDENTITY_KEY, identity, identity_conflict

        for gid, game in self.cfg.games.items():
            site = self.cfg.sites[game.site]
            current = identity(game, site)
            stored = store.snapshot(gid, IDENTITY_KEY)
            conflict = identity_conflict(stored, current)
            if conflict and not self.adopt:
                raise ConfigError(f"games.{gid}", (
                    f"the store {self.cfg.workspace.store_path()} holds another game under the id {gid!r}: "
                    f"{conflict}. Give this game its own id or store (workspace.store), or pass --adopt "
                    "if it is the same game at a new place"))
            if (stored is None or conflict) and store.writable:  # a read-only store is claimed by the next write
                keep = {"base_url": stored.get("base_url", "")} if stored and stored.get("base_url") else {}
                store.remember(gid, IDENTITY_KEY, current | keep, self.clock())

    @store.setter
    def store(self, store: Store) -> None:
        self._store = store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def analyse(self, game_id: str, **kw: Any) -> "GameAnalysis":
        """`analyse_game` on this workspace, for modules the service imports (publish, freshness)."""
        return analyse_game(self, game_id, **kw)

    def game_ids(self, game: str | None = None, active_only: bool = False) -> list[str]:
        if game is not None:
            self.cfg.game(game)
            return [game]
        return [g for g, c in self.cfg.games.items() if c.active or not active_only]

    def only_game(self, game: str | None) -> str:
        if game is not None:
            self.cfg.game(game)
            return game
        ids = list(self.cfg.games)
        if len(ids) == 1:
            return ids[0]
        if not ids:
            raise ConfigError("games", "the config has no [games.<id>] table")
        raise ConfigError("games", f"several games in the config ({', '.join(ids)}): choose one with --game")

    def adapter(self, site_name: str) -> Any:
        if site_name not in self._adapters:
            site = polite_site(self.cfg, self.cfg.sites[site_name])
            if self._adapter_factory is not None:
                self._adapters[site_name] = self._adapter_factory(site_name, site)
            else:
                store = self.store if site.engine != "archive" else None
                self._adapters[site_name] = make_site_adapter(site_name, site, self.cfg, store, self.clock)
            http = getattr(self._adapters[site_name], "http", None)
            if http is not None:  # the daemon's waiting policy (archives have no HTTP client)
                if self.http_wait is not None:
                    http.max_wait = self.http_wait
                if self.cancel is not None:
                    http.cancel = self.cancel
        return self._adapters[site_name]


def _note_to_stderr(message: str) -> None:
    """A note for the GM on stderr, one plain line; `-q` (log level above WARNING) silences it."""
    import sys

    if log.isEnabledFor(logging.WARNING):
        print(f"forummod: note: {message}", file=sys.stderr)


def make_site_adapter(site_name: str, site: SiteConfig, cfg: Config, store: Store | None, clock: Clock) -> Any:
    from forummod.forum.registry import make_adapter

    jar = StoreCookieJar(store) if site.engine != "archive" else None  # archives have no session
    return make_adapter(site_name, site, user_adapters_dir=cfg.workspace.adapters_dir,
                        cookie_store=jar, clock=clock)


def polite_site(cfg: Config, site: SiteConfig) -> SiteConfig:
    """`site` with the strictest interval and budget of every configured site on the same forum
    (two accounts, or two games' entries, on one board): the forum sees one visitor's pace from
    the first request, not only once every entry has been used."""
    from forummod.forum.http import HttpClient

    key = HttpClient._site_key(site.base_url)
    same = [s for s in cfg.sites.values() if key and s.engine != "archive" and HttpClient._site_key(s.base_url) == key]
    if len(same) < 2:
        return site
    budgets = [s.hourly_budget for s in same if s.hourly_budget]
    return replace(site, request_interval=max(s.request_interval for s in same),
                   hourly_budget=min(budgets) if budgets else 0)


def thread_refs(game: GameConfig) -> list[ThreadRef]:
    refs = [ThreadRef(game.thread, "game")]
    if game.graveyard:
        refs.append(ThreadRef(game.graveyard, "graveyard"))
    return refs


# --------------------------------------------------------------------------- polling


@frozen
class PollReport:
    """What one poll of a game fetched and saved, or why it failed."""

    game: str
    new_posts: int = 0
    edited_posts: int = 0
    deleted_posts: int = 0
    new_messages: int = 0
    requests: int = 0
    bytes: int = 0
    seconds: float = 0.0
    issues: tuple[Issue, ...] = ()
    error: str | None = None
    retry_at: datetime | None = None  # the forum asked us to wait, or keeps failing: not before then (SiteBackoff)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def read_whole(self) -> bool:
        """No thread read fewer posts than its pages imply (`read_gaps`): a count drawn now is whole."""
        return not any(i.code == "posts_unread" for i in self.issues)


@frozen
class GameFetch:
    """What `fetch_game` read from the forum for one game and has not stored yet.

    A daemon fetches without the workspace lock and stores under it (`store_fetch`), so the
    GM's commands never wait for the network; `cursors` holds each stream's stored cursor as
    its fetch started from ("thread:<id>", "inbox"), to tell whether another run stored a poll
    of it in between."""

    game: str
    site: str
    now: datetime
    started: float  # time.monotonic() at the start
    thread_ids: tuple[tuple[ThreadRef, str], ...]
    fetched: tuple[tuple[ThreadRef, Any], ...]  # (thread, forum.base.ThreadPoll)
    rechecked: tuple[tuple[Any, str], ...]  # (ThreadPoll of re-read pages, snapshot key)
    msgs: Any  # forum.base.InboxPoll, or None when the inbox was not read
    errors: tuple[str, ...]
    issues: tuple[Issue, ...]
    saved: Mapping[str, int]  # counters of the batches a long walk stored as it went
    moved: tuple[str, str] | None
    cursors: Mapping[str, Any]  # stream -> Store.cursor_row as read before fetching it (after its own batches)
    retry_at: datetime | None = None
    failed_roles: frozenset[str] = frozenset()  # threads whose walk failed (no read-gap check for them)


def poll_game(ws: Workspace, game_id: str, *, progress: Callable[[str, int, int | None], None] | None = None,
              inbox: bool = True, recheck: bool = False) -> PollReport:
    """Fetch what changed in the game's threads and the GM's inbox, and store it.

    A network failure is reported, never half-stored: the store keeps the previous state and
    the next poll continues from the saved cursors (a long walk that failed part-way keeps the
    pages it read whole, with the cursor at the last of them). Everything a short poll writes,
    its record in `poll_runs` included, is one transaction, so a killed poll leaves no trace; a
    long walk (a first poll) stores every `forum.poller.BATCH_PAGES` pages with the thread's
    cursor at the last of them in one transaction each, so memory holds one batch and a killed
    poll leaves whole batches that the next poll continues from. Bad local input (an archive
    file that does not parse) raises before anything is written.

    Every `sites.x.recheck_minutes` (or now, with `recheck`) a poll also re-reads the recent
    pages it has moved past (`_pages_to_recheck`), so an edit there becomes a new version.
    """
    return store_fetch(ws, fetch_game(ws, game_id, progress=progress, inbox=inbox, recheck=recheck))


def fetch_game(ws: Workspace, game_id: str, *, progress: Callable[[str, int, int | None], None] | None = None,
               inbox: bool = True, recheck: bool = False, inbox_fresh: timedelta | None = None,
               write_guard: Callable[[], Any] | None = None) -> GameFetch:
    """The network half of `poll_game`: read the game's threads (and re-read pages for edits
    when due) and the GM's inbox, storing nothing but the batches of a long walk (each under
    `write_guard()`, the daemon's workspace lock). `inbox_fresh`: leave the inbox out when a
    poll of another game on the same site read it less than this long ago (the daemon: one
    inbox read a round serves every game of the account). A forum that asks us to wait, or
    keeps failing, is reported in the result (`retry_at`), never slept for."""
    from contextlib import nullcontext

    from forummod.errors import SiteBackoff
    from forummod.forum.poller import PollInterrupted  # the HTTP stack, which a recount does not need

    guard = write_guard or nullcontext
    game = ws.cfg.game(game_id)
    site_name = game.site
    site = ws.cfg.sites[site_name]
    if inbox and _has_inbox(site) and site.engine != "archive":
        # before any request (not after the whole thread was read) and before the adapter opens
        # the store for its cookie jar: an unset variable leaves no store and no lock file
        check_secret(site_name, site)
    adapter = ws.adapter(site_name)
    started = time.monotonic()
    now = ws.clock()
    saved = {"new_posts": 0, "edited_posts": 0, "deleted_posts": 0, "requests": 0, "bytes": 0}
    issues: list[Issue] = []
    fetched = []
    thread_ids = []
    errors: list[str] = []
    failed_roles: set[str] = set()  # threads whose walk failed: their read gap is the failure, said already
    retry_at: list[datetime] = []
    moved = _site_moved(ws, game_id, site)
    cursors: dict[str, Any] = {}

    def failed(what: str, e: ForummodError) -> None:
        errors.append(f"{what}: {redact(str(e))}")
        issues.append(Issue("poll_failed", f"{what}: {redact(str(e))}", at=now, severity="error"))
        cause = e.error if isinstance(e, PollInterrupted) else e
        if isinstance(cause, SiteBackoff):
            retry_at.append(cause.until)

    def save_batch(tp: Any) -> None:
        with guard(), ws.store.transaction():  # pages, posts and the cursor at the batch's last page together
            stats = _save_thread_poll(ws, site_name, tp, now)
            stream = f"thread:{tp.thread_id}"
            cursors[stream] = ws.store.cursor_row(site_name, stream)  # our own write: not another run's
        for k in ("new_posts", "edited_posts", "deleted_posts"):
            saved[k] += stats[k]
        saved["requests"] += tp.requests
        saved["bytes"] += tp.bytes
        issues.extend(tp.issues)

    for ref in thread_refs(game):
        try:
            thread_id = adapter.thread_id(ref)
            thread_ids.append((ref, thread_id))
            cursors[f"thread:{thread_id}"] = ws.store.cursor_row(site_name, f"thread:{thread_id}")
            cursor = _rebased(ws.store.cursor(site_name, f"thread:{thread_id}"), moved, issues, now)
            cb = (lambda done, total, _r=ref.role: progress(_r, done, total)) if progress else None
            if _takes_sink(adapter):  # long walks are stored a batch of pages at a time
                fetched.append((ref, adapter.poll_thread(ref, cursor, cb, sink=save_batch)))
            else:
                fetched.append((ref, adapter.poll_thread(ref, cursor, cb)))
        except PollInterrupted as e:  # keep the pages read whole; the next poll goes on from there
            fetched.append((ref, e.partial))
            failed_roles.add(ref.role)
            failed(f"{ref.role} thread", e)
        except ForumError as e:  # one thread failing does not cost the others their posts
            failed_roles.add(ref.role)
            failed(f"{ref.role} thread", e)
    rechecked = _recheck_threads(ws, game_id, adapter, site_name, site, fetched, now, force=recheck)
    msgs = None
    if inbox and _has_inbox(site) and not _inbox_fresh(ws, site_name, now, inbox_fresh):
        try:
            known = ws.store.message_ids(site_name)
            cursors["inbox"] = ws.store.cursor_row(site_name, "inbox")
            msgs = adapter.poll_inbox(ws.store.cursor(site_name, "inbox"), known)
        except (ForumError, ConfigError) as e:  # the thread pages already read are kept all the same
            failed("inbox", e)
    return GameFetch(game_id, site_name, now, started, tuple(thread_ids), tuple(fetched), tuple(rechecked), msgs,
                     tuple(errors), tuple(issues), saved, moved, cursors, max(retry_at) if retry_at else None,
                     frozenset(failed_roles))


def store_fetch(ws: Workspace, f: GameFetch) -> PollReport:
    """The storing half of `poll_game`: one transaction with everything `f` read and the poll's
    record. A thread or inbox whose stored cursor moved since `f` read it (another run stored
    a poll of it in between: the GM's `poll` while the daemon fetched) is older than what the
    store holds: it is left out, not stored over the newer one."""
    game = ws.cfg.game(f.game)
    site_name, now = f.site, f.now
    site = ws.cfg.sites[site_name]
    adapter = ws.adapter(site_name)
    totals = {"new_messages": 0, **f.saved}
    issues = list(f.issues)
    error = "; ".join(f.errors) or None
    moved_on = {stream for stream, row in f.cursors.items() if ws.store.cursor_row(site_name, stream) != row}
    if moved_on:
        issues.append(Issue("poll_superseded", f"another run stored a newer poll of {', '.join(sorted(moved_on))} "
                            "meanwhile; this poll's older reading of it was left out", at=now, severity="info"))
    with ws.store.transaction():
        for ref, thread_id in f.thread_ids:
            _remember_thread_id(ws, f.game, ref, thread_id, now)
        for ref, tp in f.fetched:
            if f"thread:{tp.thread_id}" in moved_on:
                continue
            stats = _save_thread_poll(ws, site_name, tp, now)
            for k in ("new_posts", "edited_posts", "deleted_posts"):
                totals[k] += stats[k]
            totals["requests"] += tp.requests
            totals["bytes"] += tp.bytes
            issues.extend(tp.issues)
        for tp, key in f.rechecked:
            if f"thread:{tp.thread_id}" in moved_on:
                continue
            for url, body in tp.pages:
                ws.store.save_page(site_name, url, body, now)
            # edits only: a post missing from a re-read page has usually moved to the page before
            # (a deletion earlier in the thread shifts the rest), so no deletion is inferred here
            stats = ws.store.save_posts(site_name, tp.thread_id, tp.posts, now)
            totals["new_posts"] += stats.new
            totals["edited_posts"] += stats.edited
            totals["requests"] += tp.requests
            totals["bytes"] += tp.bytes
            issues.extend(tp.issues)
            ws.store.remember(f.game, key, iso(now), now)
        if f.msgs is not None and "inbox" not in moved_on:
            totals["new_messages"] += ws.store.save_messages(site_name, f.msgs.messages, now)
            ws.store.set_cursor(site_name, f.msgs.cursor, now)
            totals["requests"] += f.msgs.requests
            totals["bytes"] += f.msgs.bytes
            issues.extend(f.msgs.issues)
        if f.moved is not None and not f.errors:  # a failed poll keeps the old address to rebase from
            from forummod.store_location import IDENTITY_KEY, identity

            ws.store.remember(f.game, IDENTITY_KEY, identity(game, site), now)
        for ref, tp in f.fetched:  # a walk that finished but read less than its pages imply
            if tp.pages_fetched and ref.role not in f.failed_roles and f"thread:{tp.thread_id}" not in moved_on:
                issues.extend(_check_read_gap(ws, f.game, site_name, ref, tp, now))
        run_id = ws.store.start_poll_run(f.game, now)
        ws.store.finish_poll_run(run_id, ws.clock(), "failed" if error else "ok", error=error, **totals)
    if error:  # the command or the pass line reports it; a warning here would say it twice
        log.debug("%s: poll failed: %s", f.game, error)
    from forummod.redate import redate_after_zone_change

    redated = redate_after_zone_change(ws, f.game, adapter, [tid for _, tid in f.thread_ids], now)  # issue 28
    if redated is not None:
        issues.append(redated)
    from forummod.publish import settle_uncertain

    settle_uncertain(ws, f.game, adapter)  # an uncertain publication's post may have appeared
    return PollReport(f.game, seconds=time.monotonic() - f.started, issues=tuple(issues), error=error,
                      retry_at=f.retry_at, **totals)


def skipped_poll(ws: Workspace, game_id: str, reason: str, retry_at: datetime | None) -> PollReport:
    """A poll not made because its forum is backed off (the daemon, `site_health`): recorded as a
    failed poll with `reason`, so the game's failure history and its `poll_failing` alert run on
    while the forum is left alone."""
    now = ws.clock()
    with ws.store.transaction():
        run_id = ws.store.start_poll_run(game_id, now)
        ws.store.finish_poll_run(run_id, now, "failed", error=reason)
    issue = Issue("poll_failed", reason, at=now, severity="error")
    return PollReport(game_id, issues=(issue,), error=reason, retry_at=retry_at)


def _save_thread_poll(ws: Workspace, site_name: str, tp: Any, now: datetime) -> dict[str, int]:
    """Store one thread poll's pages, posts and cursor (inside the caller's transaction)."""
    for url, body in tp.pages:
        ws.store.save_page(site_name, url, body, now)
    stats = ws.store.save_posts(site_name, tp.thread_id, tp.posts, now, pages_fetched=tp.pages_fetched)
    ws.store.set_cursor(site_name, tp.cursor, now)
    return {"new_posts": stats.new, "edited_posts": stats.edited, "deleted_posts": stats.deleted}


def _inbox_fresh(ws: Workspace, site_name: str, now: datetime, fresh: timedelta | None) -> bool:
    """Whether a poll read the site's inbox less than `fresh` ago (None: never fresh)."""
    if fresh is None:
        return False
    at = ws.store.cursor_updated_at(site_name, "inbox")
    return at is not None and timedelta(0) <= now - at < fresh


def _check_read_gap(ws: Workspace, game_id: str, site_name: str, ref: ThreadRef, tp: Any, now: datetime) -> list[Issue]:
    """After a poll that read pages of a thread: does the store hold the posts the thread's pages
    imply (`read_gaps`)? The verdict is remembered for the alerts (`alerts.send.poll_facts`)
    and a gap is the poll's error-level issue `posts_unread`."""
    from forummod.read_gaps import READ_GAP_KEY, read_gap

    gap = read_gap(ref.role, tp.thread_id, tp.cursor.pages_total, ws.store.page_post_counts(site_name, tp.thread_id))
    ws.store.remember(game_id, READ_GAP_KEY + ref.role, gap.payload() if gap else {}, now)
    if gap is None:
        return []
    return [Issue("posts_unread", gap.message(), at=now, severity="error", details=tp.cursor.page_ref.url
                  if tp.cursor.page_ref else "")]


RECHECK_KEY = "recheck:"  # snapshot key + thread id: when its recent pages were last re-read for edits


def _recheck_threads(ws: Workspace, game_id: str, adapter: Any, site_name: str, site: SiteConfig, fetched: list,
                     now: datetime, *, force: bool) -> list[tuple[Any, str]]:
    """Re-read, when due, the recent pages each thread's poll did not fetch: (poll, snapshot key)
    of each thread re-read. A thread whose poll walked from page 1 counts as re-read now."""
    if not hasattr(adapter, "recheck_pages") or (site.recheck_minutes <= 0 and not force):
        return []
    from forummod.forum.poller import recent_page_urls

    out = []
    for ref, tp in fetched:
        key = RECHECK_KEY + tp.thread_id
        last = ws.store.snapshot(game_id, key)
        # a poll that walked from page 1 (a first poll) read every page just now
        walked_all = 1 in tp.pages_fetched or (last is None and not force)
        if not force and not walked_all:
            try:
                if now - datetime.fromisoformat(last) < timedelta(minutes=site.recheck_minutes):
                    continue
            except (TypeError, ValueError):
                pass
        pages = [] if walked_all else _pages_to_recheck(ws, site_name, site, tp, recent_page_urls(tp.cursor), now)
        try:
            out.append((adapter.recheck_pages(ref, pages) if pages else _nothing_read(tp), key))
        except ForumError as e:  # the poll itself succeeded: an edit check that fails waits for the next
            out.append((_nothing_read(tp, Issue("recheck_failed", f"re-reading pages for edits: {redact(str(e))}",
                                                at=now, severity="info")), key))
    return out


def _nothing_read(tp: Any, issue: Issue | None = None) -> Any:
    from dataclasses import replace

    return replace(tp, posts=(), pages_fetched=(), requests=0, bytes=0, pages=(), issues=(issue,) if issue else ())


def _pages_to_recheck(ws: Workspace, site_name: str, site: SiteConfig, tp: Any, urls: dict[int, str],
                      now: datetime) -> list[tuple[int, str | None, int | None]]:
    """(page, URL, first post number) of the pages to re-read: known URLs of pages before the
    ones this poll fetched that hold a post of the last `recheck_hours`, the newest
    `recheck_max_pages` of them."""
    if site.recheck_max_pages <= 0:
        return []
    # pages before the first one this poll fetched (after a 304: before the unchanged last page)
    floor = min(tp.pages_fetched) if tp.pages_fetched else (tp.cursor.last_page or 1)
    wanted = ws.store.pages_with_posts_since(site_name, tp.thread_id, now - timedelta(hours=site.recheck_hours),
                                             before_page=floor)
    # a URL the polls kept, else None: the adapter writes it from the page number if it can
    return [(pno, urls.get(pno), first) for pno, first in wanted[-site.recheck_max_pages:]]


def last_recheck(ws: Workspace, game_id: str) -> datetime | None:
    """When the game's threads' earlier pages were last re-read for edits (the latest of them),
    or None before any poll walked a thread."""
    stamps = []
    for value in ws.store.snapshots_under(game_id, RECHECK_KEY).values():
        try:
            stamps.append(datetime.fromisoformat(value))
        except (TypeError, ValueError):
            continue
    return max(stamps) if stamps else None


def check_secret(site_name: str, site: SiteConfig) -> None:
    """ConfigError naming the unset variable and how to set it; reads only the environment
    (or the keyring), never the network."""
    from forummod.forum.login import read_secret

    env, what = (site.api_key_env, "API key") if site.api_key_env else (site.password_env, "password")
    try:
        read_secret(env, use_keyring=site.use_keyring, site_name=site_name, what=what)
    except ConfigError:
        key = "api_key_env" if site.api_key_env else "password_env"
        if not env:
            raise ConfigError(f"sites.{site_name}.{key}", f"no {what}: name the environment variable that "
                              "holds it, e.g. password_env = \"FORUMMOD_PASSWORD\"") from None
        raise ConfigError(f"sites.{site_name}.{key}", (
            f"the {what} variable {env} is not set; set it in the shell that runs forummod: "
            f"read -rs {env} && export {env}" + (" (or store it in the keyring)" if site.use_keyring else ""))) from None


def _site_moved(ws: Workspace, game_id: str, site: SiteConfig) -> tuple[str, str] | None:
    """(old base URL, new base URL) when the config's forum address changed since the last poll."""
    if site.engine == "archive" or not site.base_url:
        return None
    from forummod.store_location import IDENTITY_KEY

    stored = ws.store.snapshot(game_id, IDENTITY_KEY) or {}
    old = stored.get("base_url") or ""
    return (old, site.base_url) if old != site.base_url else None


def _rebased(cursor, moved: tuple[str, str] | None, issues: list[Issue], now: datetime):
    """The config's URLs win over stored ones: a cursor's page at the old address is read at the new."""
    from forummod.store_location import rebase_url

    if cursor is None or cursor.page_ref is None or moved is None:
        return cursor
    url = rebase_url(cursor.page_ref.url, *moved)
    if url is None:
        return cursor
    issues.append(Issue("site_moved", f"the forum's address changed: reading {url} (stored as {cursor.page_ref.url})",
                        at=now, severity="info"))
    from forummod.adapter_records import PageRef

    return replace(cursor, page_ref=PageRef(url=url))


def _takes_sink(adapter: Any) -> bool:
    import inspect

    try:
        return "sink" in inspect.signature(adapter.poll_thread).parameters
    except (TypeError, ValueError):
        return False


def _has_inbox(site: SiteConfig) -> bool:
    if site.engine == "archive":
        return site.messages_file is not None
    return bool(site.username and (site.password_env or site.api_key_env or site.use_keyring))


# --------------------------------------------------------------------------- analysis


@frozen
class GameInputs:
    """Everything stored about one game, read once per analysis."""

    game_id: str
    game: GameConfig
    posts: Mapping[str, tuple[Post, ...]]  # thread role -> posts
    messages: tuple[Message, ...]
    events: tuple[Any, ...]  # StoredEvent
    seed: int
    pm_others: tuple[Any, ...] = ()  # pm_routing.GameWindow of the config's other games on this inbox
    site_zone: str = ""  # the site's `timezone`, the zone its pages' dates were read in


@frozen
class GameAnalysis:
    """One recount of a game: its run, roster and inputs, for reports, checks and drafts."""

    game_id: str
    game: GameConfig
    ruleset: Ruleset
    run: GameRun
    roster: Roster
    inputs: GameInputs
    now: datetime
    extraction_issues: tuple[Issue, ...]
    intents: tuple[Any, ...]
    setup: Setup
    fresh: Mapping[str, str] = field(default_factory=dict)  # extraction results not saved before
    stalled_since: datetime | None = None  # last activity of a game silent for two phase lengths
    names: tuple[Any, ...] = ()  # names_settled.NameProposal: unresolved names and the GM's verdicts
    auto_names: tuple[Any, ...] = ()  # extract.aliases.AliasGuess: the proposals --approve-all accepted
    #: the first instant after `now` at which the clock alone can change this analysis (a
    #: deadline, a timer, an input stamped later, a stall); None: none ahead. Until then it is
    #: the analysis at any later instant, restamped (analysis_clock.py)
    changes_at: datetime | None = None
    mark: str = ""  # the input mark it was made from (input_mark.py; "" when not read: `tally --at N`)

    def pending_names(self) -> tuple[Any, ...]:
        """Alias proposals waiting for the GM (`gm approve alias:…`)."""
        return tuple(p for p in self.names if p.status == "pending")

    @property
    def state(self):
        return self.run.state

    @property
    def phase(self) -> Phase | None:
        return self.run.state.phase


def load_inputs(ws: Workspace, game_id: str) -> GameInputs:
    game = ws.cfg.game(game_id)
    posts = {}
    for ref in thread_refs(game):
        thread_id = stored_thread_id(ws, game_id, ref)  # before the store opens: bad input makes no store
        posts[ref.role] = tuple(ws.store.posts(game.site, thread_id))
    messages = tuple(m for m in ws.store.messages(game.site) if _to_gm(m, ws.cfg.sites[game.site], game))
    return GameInputs(game_id, game, posts, messages, tuple(ws.store.events(game_id)), game_seed(ws, game_id),
                      pm_others=_pm_windows(ws, game_id), site_zone=ws.cfg.sites[game.site].timezone)


def game_seed(ws: Workspace, game_id: str) -> int:
    """The config's seed, else the one recorded for the game, recorded now if there is none."""
    seed = ws.cfg.game(game_id).seed
    if not seed:
        seed = ws.store.game_seed(game_id) or _new_seed(ws, game_id)
    return seed


def _new_seed(ws: Workspace, game_id: str) -> int:
    """Draw and record the game's seed (its random choices must be the same in every run)."""
    if not ws.store.writable:
        raise StoreUnwritable(f"{ws.store.unwritable}, and game {game_id!r} has no recorded seed yet (its draws "
                              "would differ from run to run): run 'forummod poll' once where the store can be "
                              f"written, or set games.{game_id}.seed in the config")
    return ws.store.set_game_seed(game_id, random.SystemRandom().randrange(1, 2**31), ws.clock())


def _pm_windows(ws: Workspace, game_id: str) -> tuple[Any, ...]:
    """The config's other games that read the same inbox, as PM routing sees them (issue 28)."""
    from forummod.pm_routing import GameWindow

    site = ws.cfg.game(game_id).site
    out = []
    for gid, other in ws.cfg.games.items():
        if gid == game_id or other.site != site:
            continue
        first, last = ws.store.post_span(site, stored_thread_id(ws, gid, ThreadRef(other.thread, "game")))
        roster = roster_with_events(other.roster(), ws.store.events(gid))
        out.append(GameWindow(gid, other.schedule.start or other.resume.at or first,
                              None if other.active else last, _accounts(roster), other.pm_tag.casefold()))
    return tuple(out)


def _accounts(roster: Roster) -> frozenset[str]:
    return frozenset(a.casefold() for slot in roster.players for a in slot.all_accounts)


def _thread_id_key(ws: Workspace, game_id: str, ref: ThreadRef) -> list[str]:
    site = ws.cfg.sites[ws.cfg.game(game_id).site]
    return [site.engine, site.base_url or "", str(ws.cfg.workspace.adapters_dir or ""), ref.url]


def _remember_thread_id(ws: Workspace, game_id: str, ref: ThreadRef, thread_id: str, at: datetime) -> None:
    ws.store.remember(game_id, f"thread_id:{ref.role}", {"for": _thread_id_key(ws, game_id, ref), "id": thread_id}, at)


def stored_thread_id(ws: Workspace, game_id: str, ref: ThreadRef) -> str:
    """The id the store keys a game thread's posts by. A poll remembers it, with the engine, base
    URL, adapters folder and thread URL it was derived from, so a recount in a fresh process (a
    cron `tally`) need not build the forum adapter (every profile read, its CSS compiled) to learn
    it; any change to those four asks the adapter again."""
    site_name = ws.cfg.game(game_id).site
    if ws.cfg.sites[site_name].engine == "archive" or not _store_exists(ws):
        return ws.adapter(site_name).thread_id(ref)  # cheap there; bad input fails before a store is made
    saved = ws.store.snapshot(game_id, f"thread_id:{ref.role}")
    if isinstance(saved, dict) and saved.get("for") == _thread_id_key(ws, game_id, ref):
        return str(saved["id"])
    return ws.adapter(site_name).thread_id(ref)


def _store_exists(ws: Workspace) -> bool:
    if ws._store is not None:
        return True
    path = ws.cfg.workspace.store_path()
    return str(path) == ":memory:" or Path(path).exists()


def _to_gm(m: Message, site: SiteConfig, game: GameConfig) -> bool:
    """PMs addressed to the GM account (every message in an archive inbox is)."""
    if not m.recipients or site.engine == "archive":
        return True
    gm_names = {n.casefold() for n in (site.username, *game.gm) if n}
    return not gm_names or any(r.casefold() in gm_names for r in m.recipients)


def effective_now(ws: Workspace, inputs: GameInputs, now: datetime | None) -> datetime:
    """`now` for an analysis: the real clock, except for archives, which stop at their last input."""
    if now is not None:
        return now
    site = ws.cfg.sites[inputs.game.site]
    if site.engine == "archive":
        times = [p.created_at for ps in inputs.posts.values() for p in ps] + [m.created_at for m in inputs.messages]
        # an undo does not move the clock, nor does settling a name (it means the same at any time)
        times += [e.at for e in effective_events(inputs.events) if e.kind != "alias"]
        if times:
            return max(times) + timedelta(seconds=1)
    return ws.clock()


def game_mark(ws: Workspace, game_id: str, *, seed_writes: int = 0) -> str:
    """The input mark of `game_id` (input_mark.py): equal while nothing a recount reads changed."""
    from forummod.input_mark import input_mark

    game = ws.cfg.game(game_id)
    threads = [(game.site, stored_thread_id(ws, game_id, ref)) for ref in thread_refs(game)]
    others = [(gid, stored_thread_id(ws, gid, ThreadRef(other.thread, "game"))) for gid, other in ws.cfg.games.items()
              if gid != game_id and other.site == game.site]
    return input_mark(ws.store, ws.cfg, game_id, threads, others, seed_writes=seed_writes)


def analyse_game(ws: Workspace, game_id: str, *, now: datetime | None = None, approve_all: bool = False,
                 until_post: int | None = None, use_saved: bool = True,
                 approve_names: bool | None = None, observe: Any = None) -> GameAnalysis:
    """Load, analyse, and keep new extraction results in the store for the next process
    (a cron `tick` then reads post bodies only for posts it has not seen before).
    `approve_names` (default: as `approve_all`) says whether `--approve-all` accepts the alias
    proposals too; the accuracy harness measures with and without them.

    The workspace keeps each game's last analysis (`ws.analyses`, analysis_cache.py): asked
    again with the same input mark before the clock reaches its `changes_at`, it is handed out
    restamped, without reading a post. The mark is read before the inputs, so a write made
    during the recount makes the next call recount again rather than keep a stale result."""
    # the mark is read before the inputs; a store that does not exist yet is not made for it
    # (bad input, or a damaged store, must fail before anything is written, as in `load_inputs`)
    cacheable = until_post is None and observe is None and use_saved and _store_exists(ws)
    unseeded = False
    if cacheable:
        mark = game_mark(ws, game_id)  # an archive that does not parse raises here, before any write
        unseeded = not ws.cfg.game(game_id).seed and ws.store.game_seed(game_id) is None
        key = (game_id, approve_all, approve_names)
        if now is None and ws.cfg.sites[ws.cfg.game(game_id).site].engine != "archive":
            now = ws.clock()  # what `effective_now` gives; an archive's own instant comes from its inputs
        kept = ws.analyses.get(key, mark, now)
        if kept is not None:
            return kept
    a = _analyse_game(ws, game_id, now=now, approve_all=approve_all, until_post=until_post, use_saved=use_saved,
                      approve_names=approve_names, observe=observe)
    if cacheable and unseeded:
        # the game's first recount recorded its seed (one write, in `load_inputs`): kept when
        # that write is the only change since the mark was read
        cacheable = game_mark(ws, game_id, seed_writes=1) == mark
        mark = game_mark(ws, game_id) if cacheable else ""
    if cacheable:
        a = replace(a, mark=mark)
        ws.analyses.put(key, mark, now is None, a)
    return a


def _analyse_game(ws: Workspace, game_id: str, *, now: datetime | None, approve_all: bool, until_post: int | None,
                  use_saved: bool, approve_names: bool | None, observe: Any) -> GameAnalysis:
    from forummod.extract.saved import context_fingerprint

    # The loaded posts and saved results live through the whole analysis and hold no garbage
    # cycles: loaded with the cycle collector off and then frozen, it never walks them (the
    # collection due right after the load was a few percent of a cold recount at 10,000 posts,
    # and later full ones grow with the game); unfrozen afterwards, so a daemon frees them.
    collecting = gc.isenabled()
    gc.disable()
    try:
        from forummod.engine.registry import make_ruleset

        inputs = load_inputs(ws, game_id)
        ruleset = make_ruleset(inputs.game.ruleset, inputs.game.options)
        fingerprint = context_fingerprint(extract_context(inputs, ruleset))
        saved = ws.store.saved_extractions(game_id, fingerprint) if use_saved else {}
        gc.freeze()
    finally:
        if collecting:
            gc.enable()
    try:
        when = effective_now(ws, inputs, now)
        a = analyse(inputs, now=when, approve_all=approve_all, until_post=until_post, saved=saved, observe=observe)
        if a.fresh:
            _keep_extractions(ws, game_id, fingerprint, a.fresh)
        # --approve-all accepts the alias proposals too (one candidate each; a tie waits for the
        # GM): the game is read again with those names settled, the earlier posts included
        names_ok = approve_all if approve_names is None else approve_names
        auto = tuple(g for g in a.pending_names() if len(g.candidates) == 1) if names_ok else ()
        if auto:
            fingerprint = context_fingerprint(extract_context(inputs, ruleset, _auto_aliases(auto)))
            saved = ws.store.saved_extractions(game_id, fingerprint) if use_saved else {}
            if observe is not None and hasattr(observe, "reset"):
                observe.reset()  # it sees the run that counts, not the first reading as well
            a = analyse(inputs, now=when, approve_all=approve_all, until_post=until_post, saved=saved,
                        auto_names=auto, observe=observe)
            if a.fresh:
                _keep_extractions(ws, game_id, fingerprint, a.fresh)
    finally:
        gc.unfreeze()
    return a


def _keep_extractions(ws: Workspace, game_id: str, fingerprint: str, fresh: Mapping[str, str]) -> None:
    """Save new extraction results for the next process: a cache, so a store that cannot take
    it (read-only, full disk) costs the next recount time, never this one its result."""
    if not ws.store.writable:
        return
    try:
        ws.store.save_extractions(game_id, fingerprint, dict(fresh))
    except StoreUnwritable as e:
        log.info("extraction results not saved (%s); the next recount reads those posts again", e)


def extract_context(inputs: GameInputs, ruleset: Ruleset, aliases: Iterable[tuple[str, str]] = ()) -> Any:
    """What extraction reads the game with; `aliases` (spelling, player) join the approved ones."""
    from forummod.extract import ExtractContext
    from forummod.extract.context import expand_forms

    game = inputs.game
    roster = roster_with_events(game.roster(), inputs.events, aliases)
    return ExtractContext(ruleset=game.ruleset, language=game.language or ruleset.language, roster=roster,
                          forms=expand_forms(game.votes.forms or ruleset.vote_forms), edit_policy=game.votes.edit_policy,
                          count_no_lynch=game.votes.count_no_lynch and ruleset.has_no_lynch,
                          fuzzy_cutoff=game.votes.fuzzy_cutoff, fuzzy_margin=game.votes.fuzzy_margin)


def analyse(inputs: GameInputs, *, now: datetime, approve_all: bool = False,
            until_post: int | None = None, saved: Mapping[str, str] | None = None,
            auto_names: tuple[Any, ...] = (), observe: Any = None) -> GameAnalysis:
    """Pure: stored inputs + now → the game as the engine sees it (`observe`: the engine's
    per-event observer, e.g. the vote history's recorder; it changes nothing).

    `saved` maps extraction cache keys to earlier encoded results (see extract/saved.py); the
    results computed here that were not saved come back in `GameAnalysis.fresh`. `auto_names`
    are alias proposals (`extract.aliases.AliasGuess`) `--approve-all` accepted: their spelling
    counts for their player as if the GM had approved it."""
    from forummod.engine.events import RANK_INPUT
    from forummod.engine.registry import make_ruleset
    from forummod.engine.stall import stall, stall_cutoff
    from forummod.extract.saved import EMPTY, encode, message_cache_key, post_cache_key

    game = inputs.game
    ruleset = make_ruleset(game.ruleset, game.options)
    ctx = extract_context(inputs, ruleset, _auto_aliases(auto_names))
    roster = ctx.roster
    saved = saved or {}
    fresh: dict[str, str] = {}

    def extracted(key: str, compute) -> Any:
        data = saved.get(key)
        if data is not None:
            return _decoded(data) if data else EMPTY  # '': the common post where nothing was found
        ex = compute()
        fresh[key] = encode(ex)
        return ex

    game_posts = inputs.posts.get("game", ())
    when = ordering_times(game_posts)
    # every pin of the config counts, also on posts at or after `until_post` (the day in
    # progress at post N still ends where its pin says, not at the default deadline)
    all_post_times = {p.number: when.get(p.post_id, p.created_at) for p in game_posts if p.number is not None}
    if until_post is not None:
        game_posts = tuple(p for p in game_posts if p.number is None or p.number < until_post)
        post_times = {p.number: when.get(p.post_id, p.created_at) for p in game_posts if p.number is not None}
    else:
        post_times = dict(all_post_times)
    events: list[Event] = []
    issues: list[Issue] = []
    intents: list[Any] = []
    resumed_at = resume_start(game, post_times)
    seats = SeatHistory.build(game, roster, inputs.events, post_times)
    inbox = _pm_window(inputs, roster)
    for p in game_posts:
        if p.deleted_at is not None and p.deleted_at <= now:
            continue
        if resumed_at is not None and _before_resume(p, game, resumed_at):
            continue  # issue 14: history before the resume is given as [[events]], not re-counted
        key = post_cache_key(p)
        data = saved.get(key)  # `extracted`, inline for the posts: a cold recount asks for every post
        if data == "":
            ex = EMPTY  # the common post where nothing was found
        elif data is not None:
            ex = _decoded(data)
        else:
            ex = extract_post(p, ctx)
            fresh[key] = encode(ex)
        at = when.get(p.post_id)
        if ex.intents or ex.issues:
            ex = _unless_departed(ex, p.author, seats, (at or p.created_at, RANK_INPUT, float(p.number or 0)), ctx)
        if ex.intents and game.schedule.start is not None and (at or p.created_at) < game.schedule.start:
            issues.append(_early_votes(p, ex, inputs, ctx.language))  # issue 28: never dropped silently
        if ex.issues:
            issues.extend(ex.issues)
        if at is not None:
            issues.append(_guessed_date_issue(p, at))
        if ex.intents:
            seq = float(p.number) if p.number is not None else 0.0
            for it in ex.intents:
                intents.append(it)
                ev = _intent_event(it, seq)
                events.append(ev if at is None else replace(ev, at=at))
    for i, m in enumerate(inputs.messages):
        if resumed_at is not None and m.created_at < resumed_at:
            continue
        note = False if roster.is_gm(m.sender) else _not_ours(m, inbox, inputs.pm_others, ctx.language, game.tz)
        if note is not False:
            if note is not None:
                issues.append(note)
            continue
        ex = extracted(message_cache_key(m), lambda m=m: extract_message(m, ctx))
        if ex.intents or ex.issues:
            ex = _unless_departed(ex, m.sender, seats, (m.created_at, RANK_INPUT, 1e12 + i), ctx)
        issues.extend(ex.issues)
        for it in ex.intents:
            intents.append(it)
            events.append(_intent_event(it, 1e12 + i))
    # the seat changes first: every event at a replacement's own point already names the new
    # holder (SeatHistory.holder), and the fold keeps the input order among equal keys, so a
    # kill at the replacement's post must not come before the seat has that name (issue 27, 9)
    events = [*seats.overrides, *(seats.translate(e) for e in events),
              *(seats.translate(e) for e in gm_events(game, inputs.events, post_times))]
    timeline = events
    events = [e for e in events if e.at <= now]
    all_issues = issues
    issues = [i for i in issues if i.at is None or i.at <= now]  # `tally --at T`: only what was known at T
    plan = game_phases(ruleset, game, inputs, now, all_post_times)
    # issue 14: silence for two phase lengths stalls the game: no phases past it (no "D200")
    samples, activity = plan.sample_phases(), last_activity(inputs, now)
    stalled = stall(samples, activity, now)
    if stalled is not None:
        plan.stop_after = stalled.cutoff
    plan.gm_posts = gm_post_times(game_posts, roster, now, when)
    setup = game_setup(ruleset, game, inputs.seed, seats.first_names())
    # before post N: not even a boundary pinned right after a post of the same instant
    until = (all_post_times[until_post], RANK_INPUT, float(until_post)) if until_post in all_post_times else None
    run = run_game(ruleset, setup, plan, events, now=now, approve_all=approve_all, issues=tuple(issues),
                   until=until, lang=game.language or ruleset.language, observe=observe)
    names = _name_proposals(issues, [it for it in intents if it.at <= now], roster, inputs.events, auto_names)
    # `until_post` cuts the fold before a post, not at a time: such an analysis is right only at its instant
    floating = until is not None or game.schedule.start is None and not inputs.posts.get("game") and resume_start(game, all_post_times) is None
    ahead = changes_at(now, run=run, inputs=inputs, issues=all_issues, intents=intents, gm_events=timeline,
                       stall_cutoff=None if stalled else stall_cutoff(samples, activity), floating_start=floating)
    return GameAnalysis(inputs.game_id, game, ruleset, run, roster, inputs, now, tuple(issues), tuple(intents), setup,
                        fresh, stalled_since=stalled.since if stalled else None, names=names, auto_names=auto_names,
                        changes_at=ahead)


def _auto_aliases(auto_names: Iterable[Any]) -> tuple[tuple[str, str], ...]:
    return tuple((g.spelling, g.candidates[0]) for g in auto_names)


def _name_proposals(issues: list[Issue], intents: list[Any], roster: Roster, stored: Iterable[Any],
                    auto_names: tuple[Any, ...]) -> tuple[Any, ...]:
    """The alias proposals of the analysis (issue 27 item 3), each with the GM's verdict."""
    if not any(i.code in ("unknown_name", "ambiguous_name") for i in issues) and not auto_names \
            and not any(e.kind == "alias" for e in stored):
        return ()  # the common game: every name resolved, nothing settled by hand
    from forummod.extract.aliases import alias_guesses
    from forummod.names_settled import name_proposals

    return name_proposals(alias_guesses(issues, intents, roster), stored, auto_names)


def gm_post_times(posts: Iterable[Post], roster: Roster, now: datetime,
                  when: Mapping[str, datetime]) -> tuple[datetime, ...] | None:
    """When the GM posted in the game thread up to `now` (a day's dawn post opens its night's
    action window, LUP D17); None when the config names no GM, so nobody's posts are known."""
    if not roster.gms:
        return None
    times = (when.get(p.post_id, p.created_at) for p in posts
             if roster.is_gm(p.author) and (p.deleted_at is None or p.deleted_at > now))
    return tuple(sorted(t for t in times if t <= now))


def _pm_window(inputs: GameInputs, roster: Roster) -> Any:
    """This game as PM routing sees it: its start (the config's, else its first post), players, tag."""
    from forummod.pm_routing import GameWindow

    game = inputs.game
    firsts = [p.created_at for p in inputs.posts.get("game", ())]
    start = game.schedule.start or (min(firsts) if firsts else None)
    return GameWindow(inputs.game_id, start, None, _accounts(roster), game.pm_tag.casefold())


def _early_votes(p: Post, ex: Any, inputs: GameInputs, lang: str) -> Issue:
    from forummod.extract.early_votes import before_start

    game = inputs.game
    zone = inputs.site_zone or game.timezone
    return before_start(p, ex, game.schedule.start, game.site, zone, game.tz, lang)


def _not_ours(m: Message, me: Any, others: tuple[Any, ...], lang: str, tz: Any) -> Issue | None | bool:
    """False for a PM of this game; else the GM's note on it (None: another game's, said nowhere)."""
    from forummod.extract import inbox_notes
    from forummod.pm_routing import route

    r = route(m, me, others)
    if r.verdict == "ours":
        return False
    if r.verdict == "before_start":
        return inbox_notes.before_start(m, me.start.astimezone(tz), lang)
    if r.verdict == "unclear":
        return inbox_notes.unclear(m, r.games, lang)
    return inbox_notes.other_tag(m, lang) if r.games == ("",) else None


def _unless_departed(ex: Any, author: str, seats: "SeatHistory", key: tuple, ctx: Any) -> Any:
    """`ex`, or when its author had left the seat by `key`, nothing and a finding (issue 28)."""
    holder = seats.left(author, key)
    if holder is None:
        return ex
    from forummod.extract.departed import departed_extraction

    return departed_extraction(ex, author, holder, ctx.language)


def last_activity(inputs: GameInputs, now: datetime) -> datetime | None:
    """The latest post (any thread), PM or stored GM event up to `now`."""
    times = [p.created_at for posts in inputs.posts.values() for p in posts]
    times += [m.created_at for m in inputs.messages]
    times += [e.at for e in inputs.events if getattr(e, "at", None) is not None]
    times = [t for t in times if t <= now]
    return max(times) if times else None


def extract_post(post: Post, ctx: Any) -> Any:
    from forummod.extract.intents import extract_post as extract  # lxml and the matcher, only when a body is read

    return extract(post, ctx)


def extract_message(msg: Message, ctx: Any) -> Any:
    from forummod.extract.intents import extract_message as extract

    return extract(msg, ctx)


@lru_cache(maxsize=65536)
def _decoded(data: str) -> Any:
    """A saved extraction result, decoded once per process (equal texts decode equal)."""
    from forummod.extract.saved import decode

    return decode(data)


def ordering_times(posts: Iterable[Post]) -> dict[str, datetime]:
    """post id -> the instant the fold orders a guessed-date post at: the dated post before it
    (its number breaks the tie, so it counts right after that post), else the dated post after
    it, else its stored guess. Issue 16: a guessed date never decides a deadline by itself; a
    deadline inside its bounds is a `date_guessed_deadline` finding (checks/dates.py)."""
    posts = tuple(posts)
    by_id = {p.post_id: p for p in posts}
    return {pid: lo or hi or by_id[pid].created_at for pid, (lo, hi) in guessed_date_bounds(posts).items()}


def _guessed_date_issue(p: Post, at: datetime) -> Issue:
    who = f"post #{p.number}" if p.number is not None else f"post {p.post_id}"
    return Issue("date_guessed", f"{who} by {p.author}: the forum page showed no readable date; its votes "
                 f"and actions count in post-number order (right after the post before it), and a deadline "
                 f"near it is yours to rule (see `forummod check`)", at=at,
                 source=Source("post", p.post_id, p.number, "game", p.url), player=p.author, severity="warning")


def run_game(*args: Any, **kw: Any) -> GameRun:
    """`engine.core.run_game`, imported when a recount folds (the benchmarks time it here)."""
    from forummod.engine.core import run_game as fold

    return fold(*args, **kw)


def _intent_event(it: Any, seq: float) -> Event:
    from forummod.engine.events import ActionEvent, UnvoteEvent, VoteEvent

    if isinstance(it, VoteIntent):
        return VoteEvent.of(it, seq)
    if isinstance(it, UnvoteIntent):
        return UnvoteEvent.of(it, seq)
    if isinstance(it, ActionIntent):
        return ActionEvent.of(it, seq)
    raise TypeError(f"unknown intent {it!r}")


def roster_with_events(roster: Roster, stored: Iterable[Any], extra_aliases: Iterable[tuple[str, str]] = ()) -> Roster:
    """Replacements the GM entered by command join the configured ones, and so do the aliases
    the GM approved (`gm alias`, `gm approve alias:…`) and `extra_aliases` (`--approve-all`):
    a name settled once means its seat in every post, the earlier ones too."""
    from forummod.names_settled import approved_aliases

    stored = list(stored)
    players = list(roster.players)
    for ev in effective_events(stored):
        if ev.kind == "override" and ev.payload.get("kind") == "replace":
            old, new = ev.payload.get("player"), ev.payload.get("target")
            at_post = ev.payload.get("at_post")
            for i, slot in enumerate(players):
                if slot.name == old and new:
                    players[i] = replace(slot, name=new, replacements=slot.replacements + (
                        Replacement(old, None if at_post is not None else ev.at, at_post),))
    for spelling, player in approved_aliases(stored, extra_aliases):
        for i, slot in enumerate(players):
            if player in slot.all_accounts and spelling not in slot.aliases:
                players[i] = replace(slot, aliases=slot.aliases + (spelling,))
                break
    return replace(roster, players=tuple(players))


@frozen
class SeatHistory:
    """Who held each seat when: the config's `replaces`, its `replace` events and `gm replace`.

    The engine starts with each seat's first holder and renames the seat by an override at the
    replacement's point in the timeline (right after its post, or at its time), so counts,
    drafts and PMs before it keep the old name, and the seat's votes carry over after it. Names
    from extraction (always the seat's latest name) become the holder's at each event.
    """

    chains: Mapping[str, tuple[tuple[str, tuple | None], ...]]  # seat -> (holder, held until key)
    account_seat: Mapping[str, str]  # every account and seat name -> seat (its latest name)
    overrides: tuple[Override, ...] = ()

    @classmethod
    def build(cls, game: GameConfig, roster: Roster, stored: Iterable[Any],
              post_times: Mapping[int, datetime]) -> "SeatHistory":
        from forummod.engine.events import RANK_INPUT, Override

        steps: dict[str, list[tuple[str, str, datetime | None, float]]] = {}  # seat -> (old, new, at, seq)
        for pl in game.players:
            names = [r.name for r in pl.replaces] + [pl.name]
            for r, new in zip(pl.replaces, names[1:]):
                at, seq = _when(r.at, r.at_post, post_times)
                steps.setdefault(pl.name, []).append((r.name, new, at, seq))
        for ce in game.events:
            if ce.kind == "replace" and ce.player and ce.target:
                at, seq = _when(ce.at, ce.at_post, post_times)
                steps.setdefault(ce.player, []).append((ce.player, ce.target, at, seq))
        for ev in effective_events(stored):
            p = ev.payload
            if ev.kind == "override" and p.get("kind") == "replace" and p.get("player") and p.get("target"):
                if p.get("at_post") is not None:
                    at, seq = _when(None, int(p["at_post"]), post_times)
                else:
                    at, seq = ev.at, 1e15 + ev.id
                steps.setdefault(p["player"], []).append((p["player"], p["target"], at, seq))
        account_seat: dict[str, str] = {}
        for slot in roster.players:
            for acc in slot.all_accounts:
                account_seat[acc] = slot.name
        chains: dict[str, tuple] = {}
        overrides: list[Override] = []
        for slot in roster.players:
            accs = set(slot.all_accounts)
            mine = [st for key, sts in steps.items() if key in accs for st in sts]
            mine.sort(key=lambda x: (x[2] is None, x[2] or datetime.min.replace(tzinfo=timezone.utc), x[3]))
            first = slot.replacements[0].previous if slot.replacements else slot.name
            chain: list[tuple[str, tuple | None]] = []
            holder = first
            for old, new, at, seq in mine:
                if at is None:
                    break  # its post is not in the store yet: not in effect
                chain.append((holder, (at, RANK_INPUT, seq)))
                overrides.append(Override(at=at, seq=seq, kind="replace", player=holder, target=new,
                                          source=Source("gm", id=f"replace:{holder}")))
                holder = new
            chain.append((holder, None))
            chains[slot.name] = tuple(chain)
        return cls(chains, account_seat, tuple(overrides))

    def holder(self, name: str, key: tuple) -> str:
        seat = self.account_seat.get(name)
        if seat is None:
            return name
        for holder, until in self.chains[seat]:
            if until is None or key < until:
                return holder
        return name

    def left(self, account: str, key: tuple) -> str | None:
        """The seat's holder at `key` when `account` had left its seat by then (a replaced player
        posting after the replacement: it counts for nobody, issue 28); else None."""
        if self.nobody_replaced:
            return None
        seat = self._seat_of.get(account.casefold())
        if seat is None:
            return None
        start, ended = None, False
        for holder, until in self.chains[seat]:
            if holder.casefold() == account.casefold() and (start is None or key >= start) \
                    and (until is None or key < until):
                return None  # holding the seat at `key`
            if holder.casefold() == account.casefold() and until is not None and until <= key:
                ended = True
            start = until
        return self.holder(seat, key) if ended else None

    @cached_property
    def _seat_of(self) -> dict[str, str]:
        return {acc.casefold(): seat for acc, seat in self.account_seat.items()}

    def first_names(self) -> dict[str, str]:
        """Every account and seat name -> the seat's first holder (who the setup deals to)."""
        return {acc: self.chains[seat][0][0] for acc, seat in self.account_seat.items()}

    @cached_property
    def nobody_replaced(self) -> bool:
        return all(len(c) == 1 and c[0][0] == seat for seat, c in self.chains.items())

    def translate(self, e: Event) -> Event:
        if self.nobody_replaced:  # (asked once, not for each of a game's thousands of events)
            return e
        from forummod.engine.events import ActionEvent, Override, UnvoteEvent, VoteEvent

        k = e.sort_key
        if isinstance(e, (VoteEvent, UnvoteEvent)):
            target = self.holder(e.target, k) if e.target else e.target
            return replace(e, voter=self.holder(e.voter, k), target=target)
        if isinstance(e, ActionEvent):
            return replace(e, actor=self.holder(e.actor, k), targets=tuple(self.holder(t, k) for t in e.targets))
        if isinstance(e, Override) and e.kind != "replace":
            return replace(e, player=self.holder(e.player, k) if e.player else e.player,
                           target=self.holder(e.target, k) if e.target else e.target)
        return e


def gm_events(game: GameConfig, stored: Iterable[Any], post_times: Mapping[int, datetime]) -> list[Event]:
    """GM decisions and overrides from the config (archived games) and the store's log."""
    from forummod.engine.events import RANK_BOUNDARY, RANK_INPUT, ActionEvent, Decision, Draw, Override, PhaseControl

    out: list[Event] = []
    resumed_at = resume_start(game, post_times)
    for i, ce in enumerate(game.events):
        at, seq = _when(ce.at, ce.at_post, post_times)
        if at is None and resumed_at is not None and ce.at is None and ce.at_post is None:
            # history of a game joined under way: it all stands just before the resume phase opens
            at, seq = resumed_at - timedelta(microseconds=1), float(i)
        if at is None:
            continue
        if ce.kind in ("approve", "reject"):
            key = ce.phase if ":" in ce.phase else f"lynch:{ce.phase}"
            out.append(Decision(at=at, seq=seq, key=key, verdict=ce.kind))
        elif ce.kind in ("extend", "replace"):
            continue  # extend: applied to the schedule in game_phases; replace: a SeatHistory event
        else:
            out.append(Override(at=at, seq=seq, kind=ce.kind, player=ce.player, target=ce.target,
                                role=ce.role, cause=ce.cause or "gm", note=ce.note,
                                source=Source("config", id=str(i)), key=ce.key, value=ce.value,
                                phase=ce.phase if ce.kind in ("kill", "modkill", "lynch", "state") else ""))
    for ev in effective_events(stored):
        p = ev.payload
        if ev.kind == "override" and p.get("kind") == "replace":
            continue  # a SeatHistory event
        if ev.kind == "decision":
            out.append(Decision(at=ev.at, seq=1e15 + ev.id, key=p["key"], verdict=p.get("verdict", "approve"),
                                note=p.get("note", "")))
        elif ev.kind == "phase" and p.get("action") in ("pause", "resume", "end_game"):
            out.append(PhaseControl(at=ev.at, seq=1e15 + ev.id, action=p["action"], result=p.get("result", ""),
                                    winners=tuple(p.get("winners", ())), note=p.get("note", ""),
                                    source=Source("gm", id=str(ev.id))))
        elif ev.kind == "phase" and p.get("action") in ("end", "start"):
            post = p.get("post")
            if post is not None:  # end: right after post N; start: with post N
                at = post_times.get(int(post))
                if at is None:
                    continue
                rank, seq = RANK_INPUT, int(post) + (0.5 if p["action"] == "end" else -0.5)
            else:  # at a time: before the posts of that instant (half-open, like every deadline)
                at, rank, seq = _iso(p.get("at")) or ev.at, RANK_BOUNDARY, 1e15 + ev.id
            out.append(PhaseControl(at=at, rank=rank, seq=seq, action=p["action"], phase=p["phase"],
                                    post=int(post) if post is not None else None, source=Source("gm", id=str(ev.id))))
        elif ev.kind == "extend":
            out.append(PhaseControl(at=ev.at, seq=1e15 + ev.id, action="extend", phase=p["phase"],
                                    until=_iso(p.get("until")), close=_iso(p.get("close")),
                                    source=Source("gm", id=str(ev.id))))
        elif ev.kind == "override" and p.get("at_post") is not None:
            at, seq = _when(None, int(p["at_post"]), post_times)
            if at is not None:  # at a post: it takes effect right after that post
                out.append(Override(at=at, seq=seq, kind=p["kind"], player=p.get("player", ""),
                                    target=p.get("target", ""), role=p.get("role", ""), cause=p.get("cause", "gm"),
                                    note=p.get("note", ""), value=str(p.get("value", "")), source=Source("gm", id=str(ev.id))))
        elif ev.kind == "override":
            out.append(Override(at=ev.at, seq=1e15 + ev.id, kind=p["kind"], player=p.get("player", ""),
                                target=p.get("target", ""), role=p.get("role", ""), cause=p.get("cause", "gm"),
                                note=p.get("note", ""), value=str(p.get("value", "")), source=Source("gm", id=str(ev.id))))
        elif ev.kind == "action":
            out.append(ActionEvent(at=ev.at, seq=1e15 + ev.id, actor=p["actor"], action=p["action"],
                                   targets=tuple(p.get("targets", ())),
                                   args=tuple(sorted((p.get("args") or {}).items())),
                                   source=Source("gm", id=str(ev.id)), channel="gm", by_gm=True))
        elif ev.kind == "draw":
            out.append(Draw(at=ev.at, seq=1e15 + ev.id, name=p.get("name", ""), seed=int(p.get("seed", 0))))
    return out


def _when(at: datetime | None, at_post: int | None, post_times: Mapping[int, datetime]) -> tuple[datetime | None, float]:
    if at_post is not None:
        t = post_times.get(at_post)
        return (t, at_post + 0.5) if t is not None else (None, 0.0)
    return at, 0.0


def game_phases(ruleset: Ruleset, game: GameConfig, inputs: GameInputs, now: datetime,
                 post_times: Mapping[int, datetime]) -> PhasePlan:
    """The schedule the fold asks for each phase's default deadlines: the ruleset's timing, the
    config's [schedule], pins and `extend` events. The fold itself decides when each phase
    really starts and ends (a hammer; the GM's `end`, `start`, `extend`, `pause` in the log)."""
    from forummod.engine.schedule import Extension, Pin, PhasePlan, merged_timing
    from forummod.engine.types import PhaseId

    sched = game.schedule
    timing = ruleset.default_timing(ruleset.options)
    timing = merged_timing(timing, {"first_phase": sched.first_phase, "vote_close": sched.vote_close,
                                    "day_end": sched.day_end, "action_deadline": sched.action_deadline,
                                    "night_end": sched.night_end})
    start = sched.start
    if start is None:
        firsts = [p.created_at for p in inputs.posts.get("game", ())]
        start = min(firsts) if firsts else now
    first = None
    resumed_at = resume_start(game, post_times)
    if resumed_at is not None:  # issue 14: join under way: phases start at [resume].phase
        start, first = resumed_at, PhaseId.parse(game.resume.phase)
    pins: dict[PhaseId, Pin] = {}
    for pin in game.phases:
        pid = PhaseId.parse(pin.name)
        pins[pid] = Pin(pid, start=pin.start, start_post=pin.start_post, end=pin.end,
                        end_post=pin.end_post, vote_close=pin.vote_close, action_deadline=pin.action_deadline)
    exts = []  # the GM's own `extend`, `end` and `start` are timeline events (gm_events)
    for ce in game.events:
        if ce.kind == "extend" and ce.until is not None and ce.phase:
            exts.append(Extension(PhaseId.parse(ce.phase), ce.until))
    return PhasePlan(timing, start=start, tz=game.tz, pins=tuple(pins.values()), extensions=exts,
                     post_times=post_times, max_phases=ruleset.max_phases or 400, first=first)


def resume_start(game: GameConfig, post_times: Mapping[int, datetime]) -> datetime | None:
    """When the phase of `[resume]` opened: its post's time, or `at`; None when not resuming
    (or when that post is not stored yet: then the game counts from its start)."""
    r = game.resume
    if not r.phase:
        return None
    if r.from_post is not None and r.from_post in post_times:
        return post_times[r.from_post]
    return r.at


def _before_resume(p: Post, game: GameConfig, resumed_at: datetime) -> bool:
    if game.resume.from_post is not None and p.number is not None:
        return p.number < game.resume.from_post
    return p.created_at < resumed_at


def _iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def game_setup(ruleset: Ruleset, game: GameConfig, seed: int, first: Mapping[str, str] | None = None) -> Setup:
    """Who plays what at the start; `first` maps a seat's names to its first holder."""
    from forummod.engine.ruleset import Setup

    first = first or {}
    players = tuple(first.get(p.name, p.name) for p in game.players)
    roles = {first.get(n, n): ruleset.canonical_role(r) for n, r in configured_roles(game).items()}
    extra: dict[str, Any] = {}
    buildings = {first.get(p.name, p.name): p.building for p in game.players if p.building}
    if buildings:
        extra["buildings"] = buildings
    if game.setup.buildings:
        extra["building_pool"] = dict(game.setup.buildings)
    votes = {first.get(p.name, p.name): p.votes for p in game.players if p.votes != 1}
    if votes:  # mafia-majority's double voters (a seat's own, so a replacement keeps them)
        extra["votes"] = votes
    if game.setup.centre:
        extra["centre"] = tuple(ruleset.canonical_role(c) for c in game.setup.centre)
    setup = Setup(players, roles, seed, extra)
    if game.setup.deal == "random":
        pool = {ruleset.canonical_role(r): n for r, n in game.setup.roles.items()}
        setup = ruleset.deal(setup, pool)
    return setup
