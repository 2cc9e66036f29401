"""The day trial of `witch-hunt` as two pure functions of a tally (WH-D1..WH-D8).

Round 1 and the revote differ only in how a tie ends; keeping them apart from the engine's
timing makes the whole decision table testable on its own.
"""

from __future__ import annotations

from typing import Literal

from forummod.engine.types import Tally
from forummod.records import frozen

VerdictKind = Literal["execute", "revote", "nobody"]


@frozen
class Verdict:
    kind: VerdictKind
    players: tuple[str, ...] = ()  # executed players, or the revote's candidates
    reason: str = ""  # plurality | split_two | tie | tie_all | revote_tie_even | revote_tie_odd | revote_tie_many | no_votes
    rule: str | None = None


def _leaders(tally: Tally) -> tuple[tuple[str, ...], int]:
    """Tied leaders (in tally order) and how many players received any vote."""
    voted = [c for c in tally.candidates if c.total > 0]
    if not voted:
        return (), 0
    top = voted[0].total
    return tuple(c.name for c in voted if c.total == top), len(voted)


def first_round(tally: Tally) -> Verdict:
    """WH-D8, round 1: one leader dies; a two-way split of all votes kills both; else revote."""
    leaders, voted = _leaders(tally)
    if not leaders:
        return Verdict("nobody", reason="no_votes", rule="WH-D7")  # D12: nobody voted
    if len(leaders) == 1:
        return Verdict("execute", leaders, "plurality", "WH-D1")  # D3: relative majority
    if len(leaders) == 2 and voted == 2:
        return Verdict("execute", leaders, "split_two", "WH-D4")  # no revote, both at once
    if voted == len(leaders):
        return Verdict("revote", leaders, "tie_all", "WH-D2")  # D10: 3+ tied, nobody else voted
    return Verdict("revote", leaders, "tie", "WH-D2")


def revote_round(tally: Tally, living: int) -> Verdict:
    """WH-D8, revote: one leader dies; two tied die together only with an even living count
    (WH-D3), else nobody (D4); three or more tied: nobody (WH-D5)."""
    leaders, _ = _leaders(tally)
    if not leaders:
        return Verdict("nobody", reason="no_votes", rule="WH-D7")
    if len(leaders) == 1:
        return Verdict("execute", leaders, "plurality", "WH-D1")
    if len(leaders) == 2:
        if living % 2 == 0:
            return Verdict("execute", leaders, "revote_tie_even", "WH-D3")
        return Verdict("nobody", leaders, "revote_tie_odd", "WH-D5")
    return Verdict("nobody", leaders, "revote_tie_many", "WH-D5")
