"""The one place that wires config, store, adapters, extraction and the engine together.

I/O lives here and at the edges (adapters, store); everything this module calls in between
is pure. `poll_game` fetches and stores; `analyse_game` re-derives the whole game from the
store (extraction → timeline → engine) for a given `now`, so `tally`, `status`, `check`,
drafts and `replay` all see exactly the same result.
"""

from __future__ import annotations

import gc
import logging
from functools import lru_cache
import random
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from forummod.config import Config, GameConfig, SiteConfig, configured_roles, load_config
from forummod.engine.core import run_game
from forummod.engine.events import (
    ActionEvent, Decision, Draw, Event, Override, UnvoteEvent, VoteEvent,
)
from forummod.engine.registry import get_ruleset_class, make_ruleset
from forummod.engine.ruleset import Ruleset, Setup
from forummod.engine.schedule import Extension, Pin, build_phases, merged_timing
from forummod.engine.types import GameRun, Phase, PhaseId
from forummod.errors import ConfigError, ForumError, ForummodError
from forummod.forum.base import ThreadRef
from forummod.logsafe import redact
from forummod.model import (
    ActionIntent, Issue, Message, Post, Replacement, Roster, Source, UnvoteIntent, VoteIntent,
)
from forummod.store import Store, StoreCookieJar

log = logging.getLogger("forummod")

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


# --------------------------------------------------------------------------- workspace


class Workspace:
    """A loaded config plus its open store; the CLI opens one per command."""

    def __init__(self, cfg: Config, store: Store | None = None, *, clock: Clock = utcnow,
                 adapter_factory: Callable[[str, SiteConfig], Any] | None = None):
        self.cfg = cfg
        self._store = store  # opened on first use: a command that fails on bad input creates no store
        self.clock = clock
        self._adapters: dict[str, Any] = {}
        self._adapter_factory = adapter_factory

    @classmethod
    def open(cls, config_path: Path, **kw: Any) -> "Workspace":
        return cls(load_config(config_path), **kw)

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.cfg.workspace.store_path())
        return self._store

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
        return self._adapters[site_name]


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


@dataclass(frozen=True)
class PollReport:
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

    @property
    def ok(self) -> bool:
        return self.error is None


def poll_game(ws: Workspace, game_id: str, *, progress: Callable[[str, int, int | None], None] | None = None,
              inbox: bool = True) -> PollReport:
    """Fetch what changed in the game's threads and the GM's inbox; one transaction per poll,
    and one per batch of pages on a long walk.

    A network failure is reported, never half-stored: the store keeps the previous state and
    the next poll continues from the saved cursors (a long walk that failed part-way keeps the
    pages it read whole, with the cursor at the last of them). What a short poll writes, its
    record in `poll_runs` included, is one transaction, so a killed poll leaves no trace; a
    long walk (a first poll) stores every `forum.poller.BATCH_PAGES` pages with the thread's
    cursor at the last of them in one transaction each, so memory holds one batch and a killed
    poll leaves whole batches that the next poll continues from. Bad local input (an archive
    file that does not parse) raises before anything is written.
    """
    from forummod.forum.poller import PollInterrupted  # the HTTP stack, which a recount does not need

    game = ws.cfg.game(game_id)
    site_name = game.site
    adapter = ws.adapter(site_name)
    started = time.monotonic()
    now = ws.clock()
    totals = {"new_posts": 0, "edited_posts": 0, "deleted_posts": 0, "new_messages": 0, "requests": 0, "bytes": 0}
    issues: list[Issue] = []
    fetched = []
    thread_ids = []
    errors: list[str] = []

    def save_thread_poll(tp: Any) -> None:
        for url, body in tp.pages:
            ws.store.save_page(site_name, url, body, now)
        stats = ws.store.save_posts(site_name, tp.thread_id, tp.posts, now, pages_fetched=tp.pages_fetched)
        ws.store.set_cursor(site_name, tp.cursor, now)
        totals["new_posts"] += stats.new
        totals["edited_posts"] += stats.edited
        totals["deleted_posts"] += stats.deleted
        totals["requests"] += tp.requests
        totals["bytes"] += tp.bytes
        issues.extend(tp.issues)

    def save_batch(tp: Any) -> None:
        with ws.store.transaction():  # pages, posts and the cursor at the batch's last page together
            save_thread_poll(tp)

    for ref in thread_refs(game):
        try:
            thread_id = adapter.thread_id(ref)
            thread_ids.append((ref, thread_id))
            cursor = ws.store.cursor(site_name, f"thread:{thread_id}")
            cb = (lambda done, total, _r=ref.role: progress(_r, done, total)) if progress else None
            if _takes_sink(adapter):  # long walks are stored a batch of pages at a time
                fetched.append((ref, adapter.poll_thread(ref, cursor, cb, sink=save_batch)))
            else:
                fetched.append((ref, adapter.poll_thread(ref, cursor, cb)))
        except PollInterrupted as e:  # keep the pages read whole; the next poll goes on from there
            fetched.append((ref, e.partial))
            errors.append(f"{ref.role} thread: {redact(str(e))}")
            issues.append(Issue("poll_failed", f"{ref.role} thread: {redact(str(e))}", at=now, severity="error"))
        except ForumError as e:  # one thread failing does not cost the others their posts
            errors.append(f"{ref.role} thread: {redact(str(e))}")
            issues.append(Issue("poll_failed", f"{ref.role} thread: {redact(str(e))}", at=now, severity="error"))
    msgs = None
    if inbox and _has_inbox(ws.cfg.sites[site_name]):
        try:
            known = ws.store.message_ids(site_name)
            msgs = adapter.poll_inbox(ws.store.cursor(site_name, "inbox"), known)
        except ForumError as e:
            errors.append(f"inbox: {redact(str(e))}")
            issues.append(Issue("poll_failed", f"inbox: {redact(str(e))}", at=now, severity="error"))
    error = "; ".join(errors) or None
    with ws.store.transaction():
        for ref, thread_id in thread_ids:
            _remember_thread_id(ws, game_id, ref, thread_id, now)
        for ref, tp in fetched:
            save_thread_poll(tp)
        if msgs is not None:
            totals["new_messages"] += ws.store.save_messages(site_name, msgs.messages, now)
            ws.store.set_cursor(site_name, msgs.cursor, now)
            totals["requests"] += msgs.requests
            totals["bytes"] += msgs.bytes
            issues.extend(msgs.issues)
        run_id = ws.store.start_poll_run(game_id, now)
        ws.store.finish_poll_run(run_id, ws.clock(), "failed" if error else "ok", error=error, **totals)
    if error:
        log.warning("%s: poll failed: %s", game_id, error)
    return PollReport(game_id, seconds=time.monotonic() - started, issues=tuple(issues), error=error, **totals)


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


@dataclass(frozen=True)
class GameInputs:
    """Everything stored about one game, read once per analysis."""

    game_id: str
    game: GameConfig
    posts: Mapping[str, tuple[Post, ...]]  # thread role -> posts
    messages: tuple[Message, ...]
    events: tuple[Any, ...]  # StoredEvent
    seed: int


@dataclass(frozen=True)
class GameAnalysis:
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
    seed = game.seed
    if not seed:
        seed = ws.store.game_seed(game_id) or ws.store.set_game_seed(game_id, random.SystemRandom().randrange(1, 2**31),
                                                                      ws.clock())
    return GameInputs(game_id, game, posts, messages, tuple(ws.store.events(game_id)), seed)


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
        times += [e.at for e in inputs.events]
        if times:
            return max(times) + timedelta(seconds=1)
    return ws.clock()


def analyse_game(ws: Workspace, game_id: str, *, now: datetime | None = None, approve_all: bool = False,
                 until_post: int | None = None, use_saved: bool = True) -> GameAnalysis:
    """Load, analyse, and keep new extraction results in the store for the next process
    (a cron `tick` then reads post bodies only for posts it has not seen before)."""
    from forummod.extract.saved import context_fingerprint

    inputs = load_inputs(ws, game_id)
    ruleset = make_ruleset(inputs.game.ruleset, inputs.game.options)
    fingerprint = context_fingerprint(extract_context(inputs, ruleset))
    saved = ws.store.saved_extractions(game_id, fingerprint) if use_saved else {}
    # The loaded posts and saved results live through the whole analysis and hold no garbage
    # cycles: frozen, the cycle collector stops walking them on every full collection (a few
    # percent of a cold recount at 10,000 posts, growing with the game); unfrozen afterwards,
    # so a daemon frees them.
    gc.freeze()
    try:
        a = analyse(inputs, now=effective_now(ws, inputs, now), approve_all=approve_all, until_post=until_post,
                    saved=saved)
    finally:
        gc.unfreeze()
    if a.fresh:
        ws.store.save_extractions(game_id, fingerprint, dict(a.fresh))
    return a


def extract_context(inputs: GameInputs, ruleset: Ruleset) -> Any:
    from forummod.extract import ExtractContext

    game = inputs.game
    roster = roster_with_events(game.roster(), inputs.events)
    return ExtractContext(ruleset=game.ruleset, language=game.language or ruleset.language, roster=roster,
                          forms=game.votes.forms, edit_policy=game.votes.edit_policy,
                          count_no_lynch=game.votes.count_no_lynch and ruleset.has_no_lynch,
                          fuzzy_cutoff=game.votes.fuzzy_cutoff, fuzzy_margin=game.votes.fuzzy_margin)


def analyse(inputs: GameInputs, *, now: datetime, approve_all: bool = False,
            until_post: int | None = None, saved: Mapping[str, str] | None = None) -> GameAnalysis:
    """Pure: stored inputs + now → the game as the engine sees it.

    `saved` maps extraction cache keys to earlier encoded results (see extract/saved.py); the
    results computed here that were not saved come back in `GameAnalysis.fresh`."""
    from forummod.extract.saved import encode, message_cache_key, post_cache_key

    game = inputs.game
    ruleset = make_ruleset(game.ruleset, game.options)
    ctx = extract_context(inputs, ruleset)
    roster = ctx.roster
    saved = saved or {}
    fresh: dict[str, str] = {}

    def extracted(key: str, compute) -> Any:
        data = saved.get(key)
        if data is not None:
            return _decoded(data)
        ex = compute()
        fresh[key] = encode(ex)
        return ex

    game_posts = inputs.posts.get("game", ())
    if until_post is not None:
        game_posts = tuple(p for p in game_posts if p.number is None or p.number < until_post)
    post_times = {p.number: p.created_at for p in game_posts if p.number is not None}
    events: list[Event] = []
    issues: list[Issue] = []
    intents: list[Any] = []
    for p in game_posts:
        if p.deleted_at is not None and p.deleted_at <= now:
            continue
        ex = extracted(post_cache_key(p), lambda p=p: extract_post(p, ctx))
        issues.extend(ex.issues)
        seq = float(p.number) if p.number is not None else 0.0
        for it in ex.intents:
            intents.append(it)
            events.append(_intent_event(it, seq))
    for i, m in enumerate(inputs.messages):
        ex = extracted(message_cache_key(m), lambda m=m: extract_message(m, ctx))
        issues.extend(ex.issues)
        for it in ex.intents:
            intents.append(it)
            events.append(_intent_event(it, 1e12 + i))
    events.extend(gm_events(game, inputs.events, post_times))
    events = [e for e in events if e.at <= now]
    phases = game_phases(ruleset, game, inputs, now, post_times)
    setup = game_setup(ruleset, game, inputs.seed)
    run = run_game(ruleset, setup, phases, events, now=now, approve_all=approve_all, issues=tuple(issues))
    return GameAnalysis(inputs.game_id, game, ruleset, run, roster, inputs, now, tuple(issues), tuple(intents), setup,
                        fresh)


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


def _intent_event(it: Any, seq: float) -> Event:
    if isinstance(it, VoteIntent):
        return VoteEvent.of(it, seq)
    if isinstance(it, UnvoteIntent):
        return UnvoteEvent.of(it, seq)
    if isinstance(it, ActionIntent):
        return ActionEvent.of(it, seq)
    raise TypeError(f"unknown intent {it!r}")


def roster_with_events(roster: Roster, stored: Iterable[Any]) -> Roster:
    """Replacements the GM entered by command join the configured ones."""
    players = list(roster.players)
    for ev in stored:
        if ev.kind == "override" and ev.payload.get("kind") == "replace":
            old, new = ev.payload.get("player"), ev.payload.get("target")
            for i, slot in enumerate(players):
                if slot.name == old and new:
                    players[i] = replace(slot, name=new, replacements=slot.replacements + (Replacement(old, ev.at),))
    return replace(roster, players=tuple(players))


def gm_events(game: GameConfig, stored: Iterable[Any], post_times: Mapping[int, datetime]) -> list[Event]:
    """GM decisions and overrides from the config (archived games) and the store's log."""
    out: list[Event] = []
    for i, ce in enumerate(game.events):
        at, seq = _when(ce.at, ce.at_post, post_times)
        if at is None:
            continue
        if ce.kind in ("approve", "reject"):
            key = ce.phase if ":" in ce.phase else f"lynch:{ce.phase}"
            out.append(Decision(at=at, seq=seq, key=key, verdict=ce.kind))
        elif ce.kind == "extend":
            continue  # applied to the schedule in game_phases
        else:
            out.append(Override(at=at, seq=seq, kind=ce.kind, player=ce.player, target=ce.target,
                                role=ce.role, cause=ce.cause or "gm", note=ce.note,
                                source=Source("config", id=str(i))))
    for ev in stored:
        p = ev.payload
        if ev.kind == "decision":
            out.append(Decision(at=ev.at, seq=1e15 + ev.id, key=p["key"], verdict=p.get("verdict", "approve"),
                                note=p.get("note", "")))
        elif ev.kind == "override":
            out.append(Override(at=ev.at, seq=1e15 + ev.id, kind=p["kind"], player=p.get("player", ""),
                                target=p.get("target", ""), role=p.get("role", ""), cause=p.get("cause", "gm"),
                                note=p.get("note", ""), source=Source("gm", id=str(ev.id))))
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
                post_times: Mapping[int, datetime]) -> tuple[Phase, ...]:
    sched = game.schedule
    timing = ruleset.default_timing(ruleset.options)
    timing = merged_timing(timing, {"first_phase": sched.first_phase, "vote_close": sched.vote_close,
                                    "day_end": sched.day_end, "action_deadline": sched.action_deadline,
                                    "night_end": sched.night_end})
    start = sched.start
    if start is None:
        firsts = [p.created_at for p in inputs.posts.get("game", ())]
        start = min(firsts) if firsts else now
    pins = []
    for pin in game.phases:
        pins.append(Pin(PhaseId.parse(pin.name), start=pin.start, start_post=pin.start_post, end=pin.end,
                        end_post=pin.end_post, vote_close=pin.vote_close, action_deadline=pin.action_deadline))
    exts = []
    for ev in inputs.events:
        if ev.kind == "extend":
            exts.append(Extension(PhaseId.parse(ev.payload["phase"]), datetime.fromisoformat(ev.payload["until"])))
    for ce in game.events:
        if ce.kind == "extend" and ce.until is not None and ce.phase:
            exts.append(Extension(PhaseId.parse(ce.phase), ce.until))
    return build_phases(timing, start=start, tz=game.tz, now=now, pins=pins, extensions=exts, post_times=post_times,
                        max_phases=ruleset.max_phases or 400)


def game_setup(ruleset: Ruleset, game: GameConfig, seed: int) -> Setup:
    players = tuple(p.name for p in game.players)
    roles = {n: ruleset.canonical_role(r) for n, r in configured_roles(game).items()}
    extra: dict[str, Any] = {}
    buildings = {p.name: p.building for p in game.players if p.building}
    if buildings:
        extra["buildings"] = buildings
    if game.setup.buildings:
        extra["building_pool"] = dict(game.setup.buildings)
    if game.setup.centre:
        extra["centre"] = tuple(ruleset.canonical_role(c) for c in game.setup.centre)
    setup = Setup(players, roles, seed, extra)
    if game.setup.deal == "random":
        pool = {ruleset.canonical_role(r): n for r, n in game.setup.roles.items()}
        setup = ruleset.deal(setup, pool)
    return setup
