"""`CheckContext`: everything a check reads, frozen, with the lookups every check needs.

Built from a `GameAnalysis` by the service (`check_store.check_context`, which adds the GM's
sent PMs from the store; `CheckContext.from_analysis`) or by hand in tests.
Posts and messages stamped after `now` are left out here once, so every check sees the game
exactly as it stood at `now` (a replay with `--now` gives the findings of that moment).
Players are named by their seat's current name (the engine's name); forum accounts map to
seats through the roster, replacements included.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import field
from datetime import datetime, timedelta, timezone
from functools import cached_property
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from forummod.config import ChecksConfig, GameConfig
from forummod.engine.ruleset import Ruleset
from forummod.engine.types import GameRun, GameState, Phase, Player
from forummod.i18n import pgettext
from forummod.model import Issue, Message, Post, Roster, Source
from forummod.records import frozen


_EPOCH = datetime.min.replace(tzinfo=timezone.utc)


@frozen
class GmPm:
    """Text the GM sent one player by PM (role PM, night result): the ON-D4 reference."""

    player: str  # seat name
    text: str  # HTML, BBCode or markdown body
    at: datetime
    source: Source


@frozen
class Seat:
    """Who held a seat when: `holders` are (account, until) oldest first; the last has until None."""

    player: str
    holders: tuple[tuple[str, datetime | None], ...]

    @property
    def accounts(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.holders)

    def holder_at(self, t: datetime) -> str:
        for account, until in self.holders:
            if until is None or t < until:
                return account
        return self.holders[-1][0]

    def left(self, account: str, t: datetime) -> bool:
        """`account` held this seat before `t` and no longer does at `t` (a replaced player)."""
        start: datetime | None = None
        ended = False
        for holder, until in self.holders:
            if holder.casefold() == account.casefold():
                if (start is None or t >= start) and (until is None or t < until):
                    return False
                ended = ended or (until is not None and until <= t)
            start = until
        return ended

    def joined_at(self) -> datetime | None:
        """When the current occupant took the seat (None: from the start)."""
        return self.holders[-2][1] if len(self.holders) > 1 else None

    def changes(self) -> tuple[datetime, ...]:
        return tuple(u for _, u in self.holders[:-1] if u is not None)


@frozen
class CheckContext:
    game: GameConfig
    ruleset: Ruleset
    run: GameRun
    roster: Roster
    now: datetime
    posts: Mapping[str, tuple[Post, ...]] = field(default_factory=dict)  # thread role -> posts
    messages: tuple[Message, ...] = ()  # PMs to the GM
    gm_pms: Mapping[str, tuple[GmPm, ...]] = field(default_factory=dict)  # seat name -> PMs the GM sent
    intents: tuple[Any, ...] = ()  # VoteIntent / UnvoteIntent / ActionIntent from extraction
    issues: tuple[Issue, ...] = ()  # extraction issues
    game_id: str = ""
    names: tuple[Any, ...] = ()  # names_settled.NameProposal: alias proposals and the GM's verdicts
    #: what `body_text` asks first: an object whose `text(html)` gives the text model's text of a
    #: body (`check_store.PostTexts` remembers them in the store); None: always the text model
    texts: Any = None

    @classmethod
    def from_analysis(cls, a: Any, *, gm_pms: Mapping[str, tuple[GmPm, ...]] | None = None) -> "CheckContext":
        """The context of a `service.GameAnalysis`. The GM's sent PMs (ON-D4) are `gm_pms`, handed
        in by the caller (`check_store.check_context` reads them from the store)."""
        now = a.now
        posts = {role: tuple(p for p in ps if p.created_at <= now) for role, ps in a.inputs.posts.items()}
        messages = tuple(m for m in a.inputs.messages if m.created_at <= now)
        return cls(game=a.game, ruleset=a.ruleset, run=a.run, roster=a.roster, now=now, posts=posts,
                   messages=messages, gm_pms=dict(gm_pms or {}), intents=tuple(a.intents),
                   issues=tuple(a.extraction_issues), game_id=a.game_id, names=tuple(getattr(a, "names", ())))

    def body_text(self, html: str) -> str:
        """The text model's text of a post body (`extract.post_text(html).text`), through `texts`
        when given: a cold run then reads no HTML to quote a post."""
        if self.texts is not None:
            return self.texts.text(html)
        from forummod.checks.words import post_text

        return post_text(html).text

    # ------------------------------------------------------------------ plain views
    @property
    def state(self) -> GameState:
        return self.run.state

    @property
    def cfg(self) -> ChecksConfig:
        return self.game.checks

    @property
    def ruleset_name(self) -> str:
        return self.game.ruleset

    @cached_property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.game.timezone)

    def thread(self, role: str) -> tuple[Post, ...]:
        """Posts of one thread role stamped at or before `now`."""
        return tuple(p for p in self.posts.get(role, ()) if p.created_at <= self.now)

    def fmt(self, dt: datetime | None) -> str:
        """A time as the GM reads it: the game's timezone, minutes."""
        if dt is None:
            return "?"
        return dt.astimezone(self.tz).strftime("%Y-%m-%d %H:%M %Z")

    def phase_named(self, name: str) -> Phase | None:
        for p in self.run.phases:
            if p.name == name:
                return p
        return None

    def phase_at(self, at: datetime | None) -> str | None:
        """The name of the latest phase begun by `at` (the last in the run's order whose start
        is at or before it). Asked for every post of a game (`phase_posts`): a binary search
        over the starts when they only grow, as they do, not a walk of every phase a post."""
        if at is None:
            return None
        starts, names = self._phase_starts
        if starts is None:  # starts out of order: the walk
            found = None
            for ph in self.run.phases:
                if ph.start <= at:
                    found = ph.name
            return found
        i = bisect_right(starts, at)
        return names[i - 1] if i else None

    @cached_property
    def _phase_starts(self) -> tuple[list[datetime] | None, list[str]]:
        starts = [ph.start for ph in self.run.phases]
        ordered = all(a <= b for a, b in zip(starts, starts[1:]))
        return (starts if ordered else None), [ph.name for ph in self.run.phases]

    @property
    def game_start(self) -> datetime | None:
        return min((p.start for p in self.run.phases), default=None)

    @property
    def game_over_at(self) -> datetime | None:
        out = self.state.outcome
        if out is None:
            return None
        return out.at or self.now

    # ------------------------------------------------------------------ seats and accounts
    @cached_property
    def seats(self) -> dict[str, Seat]:
        """Seat name -> who held it when: the roster's replacements (config and GM commands),
        then renames only the engine knows (config `replace` events of archived games)."""
        post_times = {p.number: p.created_at for p in self.posts.get("game", ()) if p.number is not None}

        def when(at: datetime | None, at_post: int | None) -> datetime:
            t = at if at is not None else post_times.get(at_post) if at_post is not None else None
            return t if t is not None else _EPOCH  # unknown: taken as before anything we check

        event_times = {ev.player.casefold(): when(ev.at, ev.at_post) for ev in self.game.events if ev.kind == "replace"}
        out: dict[str, Seat] = {}
        for pl in self.state.players:
            slot = self.roster.slot(pl.name) or next(
                (self.roster.slot(n) for n in pl.replaced if self.roster.slot(n) is not None), None)
            holders = [(r.previous, when(r.at, r.at_post)) for r in (slot.replacements if slot else ())]
            known = {a.casefold() for a, _ in holders} | {pl.name.casefold()}
            for old in (*pl.replaced, *((slot.name,) if slot else ())):
                if old.casefold() not in known:
                    holders.append((old, event_times.get(old.casefold(), _EPOCH)))
                    known.add(old.casefold())
            holders.sort(key=lambda h: h[1])
            out[pl.name] = Seat(pl.name, tuple(holders) + ((pl.name, None),))
        return out

    @cached_property
    def _account_map(self) -> dict[str, str]:
        m: dict[str, str] = {}
        for seat in self.seats.values():
            for a in seat.accounts:
                m.setdefault(a.casefold(), seat.player)
        return m

    def player_of(self, account: str | None) -> str | None:
        """The seat an account plays (current or former occupant), or None for outsiders and GMs.
        Remembered by account: the checks ask once for every post, a game has a few dozen authors."""
        memo = self._player_of
        if account in memo:
            return memo[account]
        out = None if not account or self.is_gm(account) else self._account_map.get(account.casefold())
        memo[account] = out
        return out

    @cached_property
    def _player_of(self) -> dict[str | None, str | None]:
        return {}

    def is_gm(self, account: str) -> bool:
        return self.roster.is_gm(account) or account.casefold() in self._gm_keys

    # Built once per context (the checks ask for every post's author); the context is frozen.
    @cached_property
    def _gm_keys(self) -> frozenset[str]:
        return frozenset(g.casefold() for g in self.game.gm)

    def holder_at(self, player: str, t: datetime) -> str:
        seat = self.seats.get(player)
        return seat.holder_at(t) if seat else player

    def is_exempt(self, player: str) -> bool:
        ex = {e.casefold() for e in self.cfg.exempt}
        seat = self.seats.get(player)
        accounts = seat.accounts if seat else (player,)
        return any(a.casefold() in ex for a in accounts)

    # ------------------------------------------------------------------ life and death
    def player(self, name: str) -> Player | None:
        return self._players.get(name)

    @cached_property
    def _players(self) -> dict[str, Player]:
        """Name -> player of the final state, the first of a name as a scan would find it."""
        out: dict[str, Player] = {}
        for p in self.state.players:
            out.setdefault(p.name, p)
        return out

    def death_at(self, name: str) -> datetime | None:
        """When a dead player died: the engine's time, else their death phase's end or start."""
        p = self.player(name)
        if p is None or p.alive or p.death is None:
            return None
        if p.death.at is not None:
            return p.death.at
        ph = self.phase_named(p.death.phase)
        if ph is None:
            return None
        return ph.end or ph.start

    def alive_at(self, name: str, t: datetime) -> bool:
        """Alive at instant `t` (a player dead with no known time counts as dead throughout)."""
        p = self.player(name)
        if p is None:
            return False
        if p.alive:
            return True
        d = self.death_at(name)
        return d is not None and t < d

    def alive_through(self, name: str, end: datetime) -> bool:
        """Alive for the whole span up to `end` (died at or after `end`, or alive)."""
        p = self.player(name)
        if p is None:
            return False
        if p.alive:
            return True
        d = self.death_at(name)
        return d is not None and d >= end

    @cached_property
    def _post_roles(self) -> dict[tuple[str, str], str]:
        return {(p.thread, p.post_id): role for role, ps in self.posts.items() for p in ps}

    def role_of(self, post: Post) -> str:
        """The thread role ("game", "graveyard") a post was read from."""
        return self._post_roles.get((post.thread, post.post_id), "game")

    def posts_by_player(self, roles: tuple[str, ...]) -> dict[str, list[Post]]:
        """Seat name -> its posts in the given threads, oldest first (GMs and outsiders left out)."""
        out: dict[str, list[Post]] = {}
        for role in roles:
            for p in self.thread(role):
                who = self.player_of(p.author)
                if who is not None and not self.seats[who].left(p.author, p.created_at):
                    out.setdefault(who, []).append(p)  # a replaced player's later posts are nobody's
        for ps in out.values():
            ps.sort(key=lambda p: p.created_at)
        return out


def source_label(src: Source | None) -> str:
    """Where a finding's evidence is, as the GM reads it: "post #12", "PM 7" (in the game's language)."""
    if src is None:
        return "?"
    if src.kind == "post":
        if src.number is not None:
            return pgettext("gm-finding", "post #%(number)s", number=src.number)
        return pgettext("gm-finding", "post %(id)s", id=src.id)
    if src.kind == "message":
        return pgettext("gm-finding", "PM %(id)s", id=src.id)
    return src.kind


def hours(td: timedelta) -> str:
    """A span in hours for messages: '24', '12.5'."""
    return f"{td.total_seconds() / 3600:g}"


def post_source(p: Post, role: str) -> Source:
    return Source("post", p.post_id, p.number, role, p.url, p.versions[-1].version if p.versions else None)
