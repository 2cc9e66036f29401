"""The game script (`game_script.toml`) as data: accounts, posts, PMs, deadlines, expected results.

Pure: no forum, no forummod. `GameScript.seed_plan()` is what the engine seed scripts read;
`reference_tally()` recomputes the expected count from the posts' declared intents with the
lupus-eresia rules the script exercises (LUP-V1/V2/V4, LUP-R7, D10, D11, D16, D18), so the
hand-written [expected] tables are checked against the data they describe.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from functools import cached_property
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

SCRIPT_PATH = Path(__file__).resolve().parent / "game_script.toml"
UTC = timezone.utc

# lupus-eresia roles whose faction is VILLAGGIO/ERESIA or that count as LUPO: a Boia vote on
# them weighs 3 (LUP-R7, table of section 5)
HERETIC_ROLES = frozenset({"seer", "postman", "gravedigger", "twin_guard"})
WOLF_ROLES = frozenset({"werewolf", "grumpy_wolf"})


@dataclass(frozen=True)
class Intent:
    kind: str  # "vote" | "unvote"
    target: str | None = None

    @classmethod
    def parse(cls, text: str | None) -> "Intent | None":
        if not text:
            return None
        if text == "unvote":
            return cls("unvote")
        kind, _, target = text.partition(":")
        if kind != "vote" or not target:
            raise ValueError(f"bad intent {text!r}")
        return cls("vote", target)


@dataclass(frozen=True)
class ScriptPost:
    key: str
    thread: str          # "game" | "graveyard"
    number: int          # 1-based position in its thread
    author: str
    at: datetime         # UTC
    body: str            # as first posted (without the quote)
    quote: str | None = None
    edited_at: datetime | None = None
    edited_body: str | None = None
    intent: Intent | None = None

    @property
    def text(self) -> str:
        """The text as it stands now (after the edit), without the quote."""
        return self.edited_body if self.edited_body is not None else self.body

    def page(self, per_page: int) -> int:
        return (self.number - 1) // per_page + 1


@dataclass(frozen=True)
class ScriptMessage:
    conversation: str
    number: int          # 1-based position in its conversation
    author: str
    at: datetime         # UTC
    body: str
    expect: str          # "VERB:TARGET@PHASE" | "late:VERB:TARGET@PHASE" | "gm" | "unparseable"

    @property
    def action(self) -> tuple[str, str, str] | None:
        """(verb, target, phase) of a valid action, else None."""
        if self.expect in ("gm", "unparseable") or self.expect.startswith("late:"):
            return None
        verb_target, _, phase = self.expect.partition("@")
        verb, _, target = verb_target.partition(":")
        return verb, target, phase


@dataclass(frozen=True)
class ScriptConversation:
    key: str
    sender: str
    recipient: str
    subject: str
    messages: tuple[ScriptMessage, ...]


@dataclass(frozen=True)
class TallyLine:
    candidate: str
    total: int
    voters: tuple[str, ...]                     # in vote order
    weights: dict[str, int] = field(default_factory=dict)  # voters whose weight is not 1
    times: tuple[datetime, ...] = ()            # UTC, parallel to voters


@dataclass(frozen=True)
class Tally:
    public: tuple[TallyLine, ...]
    real: tuple[TallyLine, ...]
    not_voting: tuple[str, ...]
    late: tuple[tuple[str, str, str], ...]       # (voter, target, post key)
    non_player: tuple[tuple[str, str, str], ...]  # (voter, target, post key)

    @property
    def lynch(self) -> str | None:
        return self.real[0].candidate if self.real else None


class GameScript:
    """The parsed game script; datetimes are UTC-aware, local ones via `local()`."""

    def __init__(self, raw: dict[str, Any]):
        self.raw = raw
        g = raw["game"]
        self.tz = ZoneInfo(g["timezone"])
        self.title: str = g["title"]
        self.graveyard_title: str = g["graveyard_title"]
        self.category: str = g["category"]
        self.forum: str = g["forum"]
        self.forum_description: str = g["forum_description"]
        self.ruleset: str = g["ruleset"]
        self.language: str = g["language"]
        self.timezone: str = g["timezone"]
        self.first_phase: str = g["first_phase"]
        self.start: datetime = self.utc(g["start"])
        self.now: datetime = self.utc(g["now"])
        self.vote_close: str = g["vote_close"]
        self.day_end: str = g["day_end"]
        self.action_deadline: str = g["action_deadline"]
        self.dawn: str = g["dawn"]
        self.per_page: int = g["posts_per_page"]
        self.password: str = g["password"]
        self.gm: str = g["gm"]
        self.spectators: tuple[str, ...] = tuple(g.get("spectators", ()))
        self.players: tuple[str, ...] = tuple(p["name"] for p in raw["players"])
        self.roles: dict[str, str] = {p["name"]: p["role"] for p in raw["players"]}
        self.threads: dict[str, tuple[ScriptPost, ...]] = {
            name: tuple(self._post(name, i, p) for i, p in enumerate(posts, 1))
            for name, posts in raw["thread"].items()}
        self.conversations: tuple[ScriptConversation, ...] = tuple(self._conversation(c) for c in raw["pm"])
        self._check()

    # ------------------------------------------------------------------ loading

    @classmethod
    def load(cls, path: Path = SCRIPT_PATH) -> "GameScript":
        with open(path, "rb") as fh:
            return cls(tomllib.load(fh))

    def utc(self, local: datetime) -> datetime:
        """A local (naive, game timezone) datetime from the script, as UTC."""
        if local.tzinfo is None:
            local = local.replace(tzinfo=self.tz)
        return local.astimezone(UTC)

    def local(self, moment: datetime) -> datetime:
        return moment.astimezone(self.tz)

    def at_local(self, day: date, clock: str) -> datetime:
        """`clock` ("22:00") on `day` in the game's timezone, as UTC."""
        hh, mm = (int(x) for x in clock.split(":"))
        return datetime.combine(day, time(hh, mm), self.tz).astimezone(UTC)

    def _post(self, thread: str, number: int, p: dict) -> ScriptPost:
        return ScriptPost(
            key=p["key"], thread=thread, number=number, author=p["author"], at=self.utc(p["at"]),
            body=p["body"], quote=p.get("quote"),
            edited_at=self.utc(p["edited_at"]) if "edited_at" in p else None,
            edited_body=p.get("edited_body"), intent=Intent.parse(p.get("intent")))

    def _conversation(self, c: dict) -> ScriptConversation:
        msgs = tuple(ScriptMessage(c["key"], i, m["author"], self.utc(m["at"]), m["body"], m["expect"])
                     for i, m in enumerate(c["messages"], 1))
        return ScriptConversation(c["key"], c["from"], c["to"], c["subject"], msgs)

    def _check(self) -> None:
        accounts = set(self.accounts)
        keys: set[str] = set()
        for posts in self.threads.values():
            for p in posts:
                if p.author not in accounts:
                    raise ValueError(f"{p.key}: unknown author {p.author}")
                if p.key in keys:
                    raise ValueError(f"duplicate post key {p.key}")
                keys.add(p.key)
                if p.quote and p.quote not in {q.key for q in posts if q.number < p.number}:
                    raise ValueError(f"{p.key}: quotes {p.quote}, not an earlier post of its thread")
            if [p.at for p in posts] != sorted(p.at for p in posts):
                raise ValueError("posts of a thread must be in time order")
        for c in self.conversations:
            for m in c.messages:
                if m.author not in (c.sender, c.recipient):
                    raise ValueError(f"PM {c.key}: {m.author} is not in the conversation")

    # ------------------------------------------------------------------ views

    @property
    def accounts(self) -> tuple[str, ...]:
        """Every forum account to create, in creation order: the GM, the players, the spectators."""
        return (self.gm, *self.players, *self.spectators)

    @property
    def game_posts(self) -> tuple[ScriptPost, ...]:
        return self.threads["game"]

    @property
    def graveyard_posts(self) -> tuple[ScriptPost, ...]:
        return self.threads["graveyard"]

    def post(self, key: str) -> ScriptPost:
        for posts in self.threads.values():
            for p in posts:
                if p.key == key:
                    return p
        raise KeyError(key)

    def conversation(self, key: str) -> ScriptConversation:
        for c in self.conversations:
            if c.key == key:
                return c
        raise KeyError(key)

    def pages(self, thread: str = "game") -> list[list[ScriptPost]]:
        """The posts of a thread as the forum pages them (posts_per_page)."""
        posts = self.threads[thread]
        return [list(posts[i:i + self.per_page]) for i in range(0, len(posts), self.per_page)]

    @cached_property
    def expected(self) -> dict[str, Any]:
        """The [expected] tables, local datetimes turned to UTC."""
        def conv(v: Any) -> Any:
            if isinstance(v, datetime):
                return self.utc(v)
            if isinstance(v, dict):
                return {k: conv(x) for k, x in v.items()}
            if isinstance(v, list):
                return [conv(x) for x in v]
            return v
        return conv(self.raw["expected"])

    def deadlines(self) -> dict[str, datetime]:
        """The deadlines the seeded game crosses (UTC): night 1, day 1, night 2."""
        d0 = self.local(self.start).date()
        d1 = date.fromordinal(d0.toordinal() + 1)
        d2 = date.fromordinal(d0.toordinal() + 2)
        return {
            "game_start": self.start,
            "N1_action_deadline": self.at_local(d0, self.action_deadline),
            "D1_start": self.at_local(d1, self.dawn),
            "D1_vote_close": self.at_local(d1, self.vote_close),
            "D1_end": self.at_local(d1, self.day_end),
            "N2_action_deadline": self.at_local(d1, self.action_deadline),
            "D2_start": self.at_local(d2, self.dawn),
        }

    def seed_plan(self) -> dict[str, Any]:
        """The engine-neutral seed the engine scripts read (JSON; times in ISO 8601 UTC)."""
        def post(p: ScriptPost) -> dict[str, Any]:
            return {"key": p.key, "author": p.author, "at": p.at.isoformat(), "body": p.body, "quote": p.quote,
                    "edited_at": p.edited_at.isoformat() if p.edited_at else None,
                    "edited_body": p.edited_body}
        titles = {"game": self.title, "graveyard": self.graveyard_title}
        return {
            "password": self.password,
            "joined": (self.start - timedelta(days=7)).isoformat(),  # accounts' sign-up time (fixed)
            "gm": self.gm,
            "accounts": list(self.accounts),
            "per_page": self.per_page,
            "category": self.category,
            "forum": self.forum,
            "forum_description": self.forum_description,
            "threads": [{"key": k, "title": titles[k], "posts": [post(p) for p in posts]}
                        for k, posts in self.threads.items()],
            "pms": [{"key": c.key, "from": c.sender, "to": c.recipient, "subject": c.subject,
                     "messages": [{"author": m.author, "at": m.at.isoformat(), "body": m.body} for m in c.messages]}
                    for c in self.conversations],
        }

    # ------------------------------------------------------------------ reference tally

    def reference_tally(self) -> Tally:
        """Day 1's count from the declared intents: one standing vote per living player (LUP-V1),
        votes from the day's start until the half-open close (LUP-T1, D18), a repeated vote keeps
        its time (D10), the Boia's PM vote replaces his public one, weighs 3 on a wolf or a
        heretic and is timed at his standing public vote, else last (LUP-R7, D10). Ordered by
        total, then the earliest decisive (latest standing) vote (LUP-V4)."""
        dl = self.deadlines()
        start, close = dl["D1_start"], dl["D1_vote_close"]
        standing: dict[str, tuple[str, datetime]] = {}
        late: list[tuple[str, str, str]] = []
        outsiders: list[tuple[str, str, str]] = []
        for p in self.game_posts:
            if p.intent is None or p.at < start:
                continue
            target = p.intent.target or ""
            if p.author not in self.players:
                outsiders.append((p.author, target, p.key))
                continue
            if p.at >= close:
                late.append((p.author, target, p.key))
                continue
            if p.intent.kind == "unvote":
                standing.pop(p.author, None)
            elif p.author in standing and standing[p.author][0] == target:
                continue  # D10: a repeated vote keeps the earlier time
            else:
                standing[p.author] = (target, p.at)

        public = self._order({v: (t, at, 1) for v, (t, at) in standing.items()})
        secret = self._secret_votes(close)
        real_votes = {v: (t, at, 1) for v, (t, at) in standing.items()}
        for boia, target in secret.items():
            timed = standing[boia][1] if boia in standing else datetime.max.replace(tzinfo=UTC)
            role = self.roles[target]
            real_votes[boia] = (target, timed, 3 if role in WOLF_ROLES | HERETIC_ROLES else 1)
        real = self._order(real_votes)
        voting = set(standing) | set(secret)
        return Tally(public=public, real=real,
                     not_voting=tuple(p for p in self.players if p not in voting),
                     late=tuple(late), non_player=tuple(outsiders))

    def _secret_votes(self, close: datetime) -> dict[str, str]:
        out: dict[str, str] = {}
        for c in self.conversations:
            for m in c.messages:
                a = m.action
                if a and a[0] == "secret_vote" and m.at < close and self.roles.get(m.author) == "executioner":
                    out[m.author] = a[1]
        return out

    @staticmethod
    def _order(votes: dict[str, tuple[str, datetime, int]]) -> tuple[TallyLine, ...]:
        by_target: dict[str, list[tuple[datetime, str, int]]] = {}
        for voter, (target, at, w) in votes.items():
            by_target.setdefault(target, []).append((at, voter, w))
        lines = []
        for target, vs in by_target.items():
            vs.sort()
            lines.append((-sum(w for _, _, w in vs), vs[-1][0], TallyLine(
                candidate=target, total=sum(w for _, _, w in vs), voters=tuple(v for _, v, _ in vs),
                weights={v: w for _, v, w in vs if w != 1}, times=tuple(at for at, _, _ in vs))))
        lines.sort(key=lambda x: (x[0], x[1]))
        return tuple(line for _, _, line in lines)
