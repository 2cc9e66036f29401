"""Shared setup for the witch-hunt tests: the default 13-player table and small readers."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from forummod.engine.types import Fact, GameRun

from tests.engine.scenario import Scenario

VILLAGERS = [f"V{i}" for i in range(1, 9)]
PLAYERS = ["W1", "W2", "Her", "Inq", "Gos"] + VILLAGERS
ROLES = {"W1": "witch", "W2": "witch", "Her": "herbalist", "Inq": "inquisitor", "Gos": "gossip",
         **{v: "villager" for v in VILLAGERS}}


def game(players: list[str] | None = None, roles: dict[str, str] | None = None, **options: Any) -> Scenario:
    """The WH-S1 table (2 witches, 3 white cards, 8 villagers); W1 recruits first unless told."""
    players = players or PLAYERS
    roles = roles if roles is not None else {p: ROLES.get(p, "villager") for p in players}
    options.setdefault("first_recruiter", "W1")
    return Scenario("witch-hunt", players, roles, options=options)


def keys(run: GameRun, phase: str | None = None) -> list[str]:
    return [f.key for ph, f in run.facts if phase is None or ph == phase]


def facts(run: GameRun, key: str, phase: str | None = None) -> list[Fact]:
    return [f for ph, f in run.facts if f.key == key and (phase is None or ph == phase)]


def pms(run: GameRun, to: str | None = None, key: str | None = None) -> list[Fact]:
    return [r.fact for _, r in run.private if (to is None or r.to == to) and (key is None or r.fact.key == key)]


def rejections(run: GameRun) -> list[tuple[str, str, str, str | None]]:
    return [(r.kind, r.actor, r.reason, r.rule) for r in run.rejections]


def statuses(run: GameRun, name: str) -> frozenset[str]:
    return run.state.player(name).statuses


def warnings(run: GameRun) -> list[tuple[str, str | None]]:
    return [(e.text, e.rule) for e in run.log if e.kind == "warning"]


def quiet_night(g: Scenario, n: int, inq_target: str = "V8", **kw: Any) -> Scenario:
    """A night where only the Inquisitor prays (so nothing else happens)."""
    return g.night(n, **kw).act("Inq", "pray", inq_target)


def votes_at(g: Scenario, at: datetime, pairs: list[tuple[str, str]]) -> datetime:
    """Cast votes one minute apart from `at`; returns the time after the last one."""
    t = at
    for voter, target in pairs:
        t += timedelta(minutes=1)
        g.vote(voter, target, at=t)
    return t


def split(counts: dict[str, int], voters: list[str]) -> list[tuple[str, str]]:
    """Votes giving each candidate its count, taken in order from `voters`."""
    out, it = [], iter(voters)
    for target, n in counts.items():
        for _ in range(n):
            out.append((next(it), target))
    return out
