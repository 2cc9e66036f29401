"""A small driver for engine scenario tests: phases by hand, events in order, one call.

    g = Scenario("mafia-majority", players=["A", "B", "C"], roles={"A": "mafia"})
    g.day(1).vote("B", "A").vote("C", "A")
    run = g.run()
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from forummod.engine.core import run_game
from forummod.engine.events import (
    ActionEvent, Decision, Event, Override, UnvoteEvent, VoteEvent,
)
from forummod.engine.registry import make_ruleset
from forummod.engine.ruleset import Setup
from forummod.engine.types import GameRun, Phase, PhaseId
from forummod.model import Source

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


class Scenario:
    """Phases are 12 h long and back to back unless given; events get increasing minutes."""

    def __init__(self, ruleset: str, players: list[str], roles: dict[str, str] | None = None,
                 options: dict[str, Any] | None = None, seed: int = 1, extra: dict[str, Any] | None = None,
                 start: datetime = T0):
        self.rs = make_ruleset(ruleset, options or {})
        self.setup = Setup(tuple(players), roles or {}, seed, extra or {})
        self.phases: list[Phase] = []
        self.events: list[Event] = []
        self.clock = start
        self.cursor = start
        self.seq = 0

    # ---- phases
    def phase(self, name: str, hours: float = 12, start: datetime | None = None,
              deadline: datetime | None = None, end: datetime | None = None) -> "Scenario":
        pid = PhaseId.parse(name)
        s = start or self.cursor
        e = end or (s + timedelta(hours=hours))
        d = deadline or e
        kw = {"vote_close": d} if pid.kind == "day" else {"action_deadline": d}
        self.phases.append(Phase(id=pid, start=s, end=e, **kw))
        self.cursor = e
        self.clock = s + timedelta(minutes=1)
        return self

    def day(self, n: int, **kw) -> "Scenario":
        return self.phase(f"D{n}", **kw)

    def night(self, n: int, **kw) -> "Scenario":
        return self.phase(f"N{n}", **kw)

    # ---- events
    def _at(self, at: datetime | None) -> datetime:
        if at is None:
            self.clock += timedelta(minutes=1)
            return self.clock
        return at

    def _src(self, kind: str = "post") -> Source:
        self.seq += 1
        return Source(kind=kind, id=str(self.seq), number=self.seq)  # type: ignore[arg-type]

    def vote(self, voter: str, target: str, at: datetime | None = None, channel: str = "thread") -> "Scenario":
        src = self._src("post" if channel == "thread" else "message")
        self.events.append(VoteEvent(at=self._at(at), seq=self.seq, voter=voter, target=target,
                                     source=src, channel=channel))
        return self

    def unvote(self, voter: str, target: str | None = None, at: datetime | None = None,
               channel: str = "thread") -> "Scenario":
        src = self._src()
        self.events.append(UnvoteEvent(at=self._at(at), seq=self.seq, voter=voter, target=target,
                                       source=src, channel=channel))
        return self

    def act(self, actor: str, action: str, *targets: str, at: datetime | None = None,
            channel: str = "pm", **args: str) -> "Scenario":
        src = self._src("message" if channel == "pm" else "post")
        self.events.append(ActionEvent(at=self._at(at), seq=self.seq, actor=actor, action=action,
                                       targets=tuple(targets), args=tuple(sorted(args.items())),
                                       source=src, channel=channel))
        return self

    def decide(self, key: str, verdict: str = "approve", at: datetime | None = None) -> "Scenario":
        self.events.append(Decision(at=self._at(at), key=key, verdict=verdict))
        return self

    def gm(self, kind: str, player: str = "", target: str = "", at: datetime | None = None, **kw) -> "Scenario":
        self.events.append(Override(at=self._at(at), kind=kind, player=player, target=target, **kw))
        return self

    def run(self, now: datetime | None = None, approve_all: bool = True) -> GameRun:
        end = now or (self.phases[-1].end if self.phases and self.phases[-1].end else self.clock) + timedelta(seconds=1)
        return run_game(self.rs, self.setup, tuple(self.phases), list(self.events), now=end,
                        approve_all=approve_all)


def dead(run: GameRun) -> set[str]:
    return {p.name for p in run.state.players if not p.alive}


def rejected(run: GameRun) -> list[tuple[str, str, str]]:
    return [(r.kind, r.actor, r.reason) for r in run.rejections]
