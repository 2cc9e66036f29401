"""Engine records: phases, players, votes, tallies, proposals, results and outcomes.

All frozen. Results the GM or players read (a seer's answer, "nobody died") are `Fact`s: a
stable key plus parameters, rendered to text by the templates in the game's language, so the
engine never writes prose. Each ruleset module lists its fact keys in `FACTS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from datetime import datetime
from typing import Any, Literal, Mapping

from forummod.model import Source
from forummod.records import frozen

PhaseKind = Literal["day", "night"]


@dataclass(frozen=True, order=True)
class PhaseId:
    """Night 1, Day 1, Night 2... ordered by (number, night before day) for night-first games."""

    number: int
    kind: PhaseKind

    @classmethod
    def parse(cls, text: str) -> "PhaseId":
        s = text.strip().lower().replace(" ", "")
        m = re.fullmatch(r"(d|n|day|night|g|giorno|notte|день|ночь|dag|nacht)(\d+)", s)
        if not m:
            raise ValueError(f"{text!r} is not a phase name like 'D1' or 'N2'")
        kind: PhaseKind = "night" if m.group(1) in ("n", "night", "notte", "ночь", "nacht") else "day"
        return cls(int(m.group(2)), kind)

    def __str__(self) -> str:
        return f"{'D' if self.kind == 'day' else 'N'}{self.number}"

    def sort_key(self, night_first: bool = True) -> tuple[int, int]:
        first = "night" if night_first else "day"
        return (self.number, 0 if self.kind == first else 1)


@frozen
class Phase:
    """One phase's window. `end` None: still open with no known end."""

    id: PhaseId
    start: datetime
    end: datetime | None = None
    vote_close: datetime | None = None  # days: votes at or after this are late
    action_deadline: datetime | None = None  # nights: actions at or after this are late
    start_post: int | None = None
    end_post: int | None = None

    @property
    def kind(self) -> PhaseKind:
        return self.id.kind

    @property
    def name(self) -> str:
        return str(self.id)

    def votes_close_at(self) -> datetime | None:
        return self.vote_close or self.end

    def actions_due_at(self) -> datetime | None:
        return self.action_deadline or self.end


@frozen
class Death:
    """How and when a player died; kept on the `Player` so reports and checks need no log walk."""

    phase: str
    cause: str  # lynch, wolves, fire, poison, holy_fire, templar, grief, hunter, barber, modkill, gm...
    at: datetime | None = None
    revealed: str | None = None  # the role shown in the death post, None when hidden


@frozen
class Player:
    """One seat at one instant: its current forum name, role, life and statuses."""

    name: str
    role: str
    seat: int
    alive: bool = True
    death: Death | None = None
    statuses: frozenset[str] = frozenset()
    replaced: tuple[str, ...] = ()  # former occupants of this seat

    def with_status(self, *add: str, remove: tuple[str, ...] = ()) -> "Player":
        return replace(self, statuses=(self.statuses | set(add)) - set(remove))


@frozen
class VoteRecord:
    """A vote standing for a candidate: who, when, from which post, at what weight."""

    voter: str
    target: str
    at: datetime
    source: Source
    order: int  # position in the global timeline (ties in time)
    weight: float = 1.0
    note: str = ""  # e.g. "Boia x3", "secret", "Sheriff x2"
    secret: bool = False


@frozen
class Candidate:
    """One name in a tally with its total and the votes behind it, for the count and its checks."""

    name: str  # player name or NO_LYNCH
    total: float
    voters: tuple[VoteRecord, ...]  # ordered by time
    bonus: float = 0.0  # score not from voters (poster +2)
    bonus_note: str = ""


@frozen
class Tally:
    """The vote count of one phase at one instant: what a votecount post and `tally` show."""

    phase: str
    at: datetime | None
    candidates: tuple[Candidate, ...]  # sorted: highest total first, then earliest decisive vote
    not_voting: tuple[str, ...]
    living: int
    majority: int | None = None  # votes needed to end the day, where the ruleset has majority
    round: int = 1
    restricted_to: tuple[str, ...] = ()  # revote: only these candidates
    public: bool = False  # True: the thread-safe view (secret votes hidden, weights 1)

    def leader_names(self) -> tuple[str, ...]:
        if not self.candidates:
            return ()
        top = self.candidates[0].total
        return tuple(c.name for c in self.candidates if c.total == top)

    def total_for(self, name: str) -> float:
        for c in self.candidates:
            if c.name == name:
                return c.total
        return 0.0


@frozen
class Fact:
    """A structured announcement or private result; templates turn it into words.

    `key` examples: "death", "nobody_died", "seer_result", "no_result", "visitors".
    `params` is a sorted tuple of (name, value) pairs; values are strings, numbers, tuples.
    """

    key: str
    params: tuple[tuple[str, Any], ...] = ()
    rule: str | None = None

    @classmethod
    def of(cls, key: str, rule: str | None = None, **params: Any) -> "Fact":
        return cls(key, tuple(sorted(params.items())), rule)

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


@frozen
class PrivateResult:
    """A message the GM should send one player (a PM draft)."""

    to: str
    fact: Fact


@frozen
class Rejection:
    """An intent the engine refused, with a reason code and the rule that says so."""

    kind: str  # vote, unvote, action name
    actor: str
    reason: str  # stable code: dead_voter, late, self_target, barkeeper_immune...
    at: datetime | None
    source: Source | None = None
    target: str | None = None
    rule: str | None = None
    message: str = ""
    public: bool = True  # False: must not be shown in thread posts (would reveal a secret)


Effect = Any  # one of the effect dataclasses below


@frozen
class Kill:
    """Proposal effect: the player dies of `cause` (role shown unless `reveal` is false)."""

    player: str
    cause: str
    reveal: bool = True
    rule: str | None = None


@frozen
class Revive:
    """Proposal effect: a dead player comes back to life."""

    player: str


@frozen
class SetRole:
    """Proposal effect: the player's role becomes `role` (a conversion or a swap)."""

    player: str
    role: str


@frozen
class SetStatus:
    """Proposal effect: statuses added to and removed from a player."""

    player: str
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()


@frozen
class Announce:
    """Proposal effect: a public fact for the next announcement post."""

    fact: Fact


@frozen
class Tell:
    """Proposal effect: a private result to send one player."""

    result: PrivateResult


ProposalStatus = Literal["pending", "approved", "rejected", "superseded"]


@frozen
class Proposal:
    """What the engine suggests the GM do; nothing in `effects` applies until approved.

    `key` is stable across recounts ("lynch:D1", "night:N2", "revote:D3", "shot:D2") so that
    an approval recorded in the log finds its proposal again after a replay.
    """

    key: str
    kind: str
    phase: str
    created_at: datetime
    effects: tuple[Effect, ...] = ()
    facts: tuple[Fact, ...] = ()  # public announcements that go with it (dawn post, lynch post)
    private: tuple[PrivateResult, ...] = ()
    summary: str = ""
    status: ProposalStatus = "pending"
    decided_at: datetime | None = None
    blocking: bool = True  # later resolutions wait until the GM decides this one
    data: tuple[tuple[str, Any], ...] = ()  # ruleset detail (e.g. tally snapshot id)


@frozen
class Outcome:
    """Game over: who won and why; `winners` may include dead players."""

    result: str  # faction key or "draw" / "nobody"
    winners: tuple[str, ...]
    reason: str = ""
    rule: str | None = None
    at: datetime | None = None
    factions: tuple[str, ...] = ()


@frozen
class LogEntry:
    """One line of the engine's account of what it did with an input, for the GM's view."""

    at: datetime | None
    kind: str  # accepted, rejected, proposal, approved, override, phase, win
    text: str
    source: Source | None = None
    rule: str | None = None


@frozen
class GameState:
    """The whole game at one instant. `x` is the ruleset's own frozen state record."""

    ruleset: str
    players: tuple[Player, ...]
    phase: Phase | None = None
    votes: tuple[VoteRecord, ...] = ()  # standing votes of the current day (or round)
    vote_round: int = 1
    vote_candidates: tuple[str, ...] = ()  # revote: allowed candidates
    actions: tuple[Any, ...] = ()  # accepted, not yet resolved night/day actions (ActionEvent)
    proposals: tuple[Proposal, ...] = ()
    outcome: Outcome | None = None
    x: Any = None
    seed: int = 0
    draws: int = 0  # random draws used so far (each draw is seeded by (seed, draws))
    closed: frozenset[str] = frozenset()  # "votes:D1", "actions:N2": windows past their deadline

    # ---- lookups
    @cached_property
    def _by_name(self) -> dict[str, Player]:
        """Name -> player, built once per state (states are immutable; a fold makes many)."""
        return {p.name: p for p in self.players}

    def player(self, name: str) -> Player:
        return self._by_name[name]

    def has_player(self, name: str) -> bool:
        return name in self._by_name

    @cached_property
    def _living(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.alive)

    def living(self) -> tuple[Player, ...]:
        return self._living

    def living_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.alive)

    def dead(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if not p.alive)

    def is_alive(self, name: str) -> bool:
        p = self._by_name.get(name)
        return p is not None and p.alive

    def role_of(self, name: str) -> str:
        return self.player(name).role

    def holders(self, *roles: str, alive_only: bool = True) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.role in roles and (p.alive or not alive_only))

    def proposal(self, key: str) -> Proposal | None:
        for p in self.proposals:
            if p.key == key:
                return p
        return None

    def pending(self) -> tuple[Proposal, ...]:
        return tuple(p for p in self.proposals if p.status == "pending")

    # ---- updates (return new states)
    def with_votes(self, votes: tuple[VoteRecord, ...]) -> "GameState":
        """`replace(self, votes=votes)` for the fold's commonest step (a vote, an unvote): the
        record is copied whole, without the generated `__init__`, and keeps the lookups cached
        above, which read only `players` (`PLAYER_CACHES`; a test holds the list complete)."""
        if type(self) is not GameState:
            return replace(self, votes=votes)
        new = object.__new__(GameState)
        d = new.__dict__
        d.update(self.__dict__)
        d["votes"] = votes
        return new

    def update_player(self, name: str, **changes: Any) -> "GameState":
        return replace(self, players=tuple(replace(p, **changes) if p.name == name else p for p in self.players))

    def map_player(self, name: str, fn) -> "GameState":
        return replace(self, players=tuple(fn(p) if p.name == name else p for p in self.players))

    def with_x(self, **changes: Any) -> "GameState":
        return replace(self, x=replace(self.x, **changes))

    def put_proposal(self, prop: Proposal) -> "GameState":
        """Add or replace (same key) a proposal; a decided one is never replaced."""
        old = self.proposal(prop.key)
        if old is not None and old.status != "pending":
            return self
        rest = tuple(p for p in self.proposals if p.key != prop.key)
        return replace(self, proposals=rest + (prop,))

    def set_proposal_status(self, key: str, status: ProposalStatus, at: datetime | None) -> "GameState":
        return replace(self, proposals=tuple(
            replace(p, status=status, decided_at=at) if p.key == key else p for p in self.proposals))


#: GameState's cached lookups: each reads only `players`, so `with_votes` may carry them over.
PLAYER_CACHES = ("_by_name", "_living")


@frozen
class GameRun:
    """Everything one run of the engine produced, for checks, drafts and the CLI."""

    state: GameState
    phases: tuple[Phase, ...]
    tallies: tuple[Tally, ...]  # final tally of each closed day, then the current one
    rejections: tuple[Rejection, ...]
    log: tuple[LogEntry, ...]
    facts: tuple[tuple[str, Fact], ...] = ()  # (phase, public fact) applied so far
    private: tuple[tuple[str, PrivateResult], ...] = ()  # (phase, result) applied so far
    issues: tuple[Any, ...] = ()  # model.Issue from extraction, passed through
    upcoming: tuple[Any, ...] = ()  # boundary and timer events after `now` (the scheduler's deadlines)
    waiting: tuple[Any, ...] = ()  # resolutions held until the GM decides a pending proposal
    public_tallies: tuple[Tally, ...] = ()  # the thread's view of each day at its vote close
    paused_since: datetime | None = None  # the GM paused every deadline at this instant
    #: (action, actor, source) of every action the ruleset took in -> the night it was for, or
    #: the night it came too late for: what the night desk lists per night (one source of truth)
    action_nights: Mapping[tuple[str, str, Any], str] = field(default_factory=dict)
    #: the last of `tallies` is the count in progress stamped with the run's `now` (its vote
    #: closes later): the same run at a later `now` differs only there (analysis_clock.restamped)
    count_at_now: bool = False

    def tally_for(self, phase: str) -> Tally | None:
        found = None
        for t in self.tallies:
            if t.phase == phase:
                found = t
        return found

    def public_tally_for(self, phase: str) -> Tally | None:
        found = None
        for t in self.public_tallies:
            if t.phase == phase:
                found = t
        return found

    @property
    def current_tally(self) -> Tally | None:
        return self.tallies[-1] if self.tallies else None
