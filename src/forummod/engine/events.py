"""The engine's input: one timeline of events, each with an instant and a tie-break order.

Player input (votes, unvotes, actions) comes from extraction; phase boundaries come from the
schedule; GM decisions and overrides come from the store's event log or the config. The
timeline is sorted by `key`: (instant, rank, seq). Boundaries rank first at an instant, so a
vote stamped exactly at a deadline is late (half-open deadlines, e.g. LUP-D18, WH-D20, ON-D16).
"""

from __future__ import annotations

from dataclasses import field
from datetime import datetime
from typing import Any, Literal

from forummod.engine.types import Phase
from forummod.model import NO_LYNCH, ActionIntent, Channel, Source, UnvoteIntent, VoteIntent
from forummod.records import frozen

RANK_BOUNDARY = 0  # deadlines and phase ends
RANK_START = 1  # phase starts
RANK_TIMER = 0  # ruleset timers behave like deadlines
RANK_INPUT = 2  # posts, PMs and GM commands, in thread order


@frozen
class Event:
    """Anything the engine folds, ordered by (time, rank, thread order): the base of every input."""

    at: datetime
    rank: int = RANK_INPUT
    seq: float = 0.0  # post number, message order, or a pinned boundary's "after post N" (N + 0.5)

    @property
    def sort_key(self) -> tuple[datetime, int, float]:
        return (self.at, self.rank, self.seq)


# --------------------------------------------------------------------------- player input


@frozen
class VoteEvent(Event):
    """A player's vote as extraction read it, with the post or PM it came from."""

    voter: str = ""
    target: str = ""  # player or NO_LYNCH
    source: Source | None = None
    channel: Channel = "thread"
    raw: str = ""

    @classmethod
    def of(cls, i: VoteIntent, seq: float = 0.0) -> "VoteEvent":
        return cls(at=i.at, seq=seq, voter=i.voter, target=i.target, source=i.source, channel=i.channel, raw=i.raw)

    @property
    def is_no_lynch(self) -> bool:
        return self.target == NO_LYNCH


@frozen
class UnvoteEvent(Event):
    """A player's unvote, of `target` when the post names one."""

    voter: str = ""
    target: str | None = None
    source: Source | None = None
    channel: Channel = "thread"
    raw: str = ""

    @classmethod
    def of(cls, i: UnvoteIntent, seq: float = 0.0) -> "UnvoteEvent":
        return cls(at=i.at, seq=seq, voter=i.voter, target=i.target, source=i.source, channel=i.channel, raw=i.raw)


@frozen
class ActionEvent(Event):
    """A night or day action a player sent (by PM or in the thread)."""

    actor: str = ""
    action: str = ""
    targets: tuple[str, ...] = ()
    args: tuple[tuple[str, str], ...] = ()
    role_hint: str | None = None
    source: Source | None = None
    channel: Channel = "pm"
    raw: str = ""
    by_gm: bool = False  # entered or corrected by the GM (overrides validation where rules allow)

    @classmethod
    def of(cls, i: ActionIntent, seq: float = 0.0) -> "ActionEvent":
        return cls(at=i.at, seq=seq, actor=i.actor, action=i.action, targets=i.targets, args=i.args,
                   role_hint=i.role_hint, source=i.source, channel=i.channel, raw=i.raw)

    def arg(self, key: str, default: str | None = None) -> str | None:
        return dict(self.args).get(key, default)

    @property
    def target(self) -> str | None:
        return self.targets[0] if self.targets else None


# --------------------------------------------------------------------------- schedule


@frozen
class PhaseStart(Event):
    """The schedule opens `phase` at this instant."""

    phase: Phase | None = None


@frozen
class VoteClose(Event):
    """The vote of `phase` closes at this instant: the ruleset resolves its lynch."""

    phase: Phase | None = None


@frozen
class ActionDeadline(Event):
    """Night actions of `phase` are due at this instant: the ruleset resolves them."""

    phase: Phase | None = None


@frozen
class PhaseEnd(Event):
    """The schedule ends `phase` at this instant."""

    phase: Phase | None = None


@frozen
class Timer(Event):
    """A deadline a ruleset set for itself (revote close, reaction window, Lord's window)."""

    name: str = ""
    data: tuple[tuple[str, Any], ...] = ()
    phase: str = ""

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.data).get(key, default)


# --------------------------------------------------------------------------- GM input

Verdict = Literal["approve", "reject"]


@frozen
class Decision(Event):
    """The GM approved or rejected a proposal (by key, e.g. "lynch:D1")."""

    key: str = ""
    verdict: Verdict = "approve"
    note: str = ""


@frozen
class Override(Event):
    """A GM command that changes the game directly.

    kind: kill, revive, modkill, replace (player -> target is the new forum name), set_role,
    set_vote (player votes target; empty target = unvote), lynch (declare a lynch), no_lynch,
    note, state (a fact only the state knows, for a game joined under way: `key`, `value`).
    """

    kind: str = ""
    player: str = ""
    target: str = ""
    role: str = ""
    cause: str = "gm"
    note: str = ""
    source: Source | None = None
    key: str = ""  # kind "state": a resumable fact of the ruleset (Ruleset.RESUMABLE)
    value: str = ""
    phase: str = ""  # history before a resume: the phase it happened in (a death's phase)


@frozen
class Draw(Event):
    """A random draw the GM recorded (the seed used), so a replay draws the same."""

    name: str = ""
    seed: int = 0


@frozen
class PhaseControl(Event):
    """A GM's move of the game clock, folded at its instant: `pause` / `resume` every deadline
    (the time left is kept); `end` / `start` a phase (the next one opens there, its deadlines
    counted from that start); `extend` a phase's deadlines; `end_game` by ruling (`result`: a
    faction, "draw" or "abandoned"; `winners` named)."""

    action: str = ""  # pause, resume, end_game; end, start (`phase` at this event); extend
    phase: str = ""
    post: int | None = None  # end / start: right after / with this post
    until: datetime | None = None  # extend: the new end
    close: datetime | None = None  # extend: the new vote close / action deadline alone
    result: str = ""
    winners: tuple[str, ...] = ()
    note: str = ""
    source: Source | None = None


def sort_timeline(events: list[Event]) -> list[Event]:
    return sorted(events, key=lambda e: e.sort_key)
