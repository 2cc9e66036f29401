"""The ruleset's own frozen state (`GameState.x`) for `witch-hunt`."""

from __future__ import annotations

from datetime import datetime

from forummod.engine.types import Phase
from forummod.records import frozen


@frozen
class Revote:
    """A revote round of one day (WH-D2, D11): candidates and its window once opened."""

    day: str
    candidates: tuple[str, ...]
    round: int = 2
    start: datetime | None = None  # the GM's revote post (the approval of "revote:D<n>")
    end: datetime | None = None
    open: bool = False


@frozen
class WitchX:
    order: tuple[str, ...] = ()  # D18: the coven in join order, the first recruiter first
    first_recruiter: str | None = None
    first_drawn: bool = False  # WH-C1/D18: drawn with the game's seed, not configured
    dealt: bool = False  # D1: roles dealt from the options' counts
    announced: bool = False  # the setup notes above were written to the log
    after: str | None = None  # D18: tonight's holder is the first living witch after this one
    blocked: str | None = None  # WH-C8: the night (e.g. "N3") with no recruitment
    compulsory: str | None = None  # WH-C3: the night whose holder must recruit
    converted: tuple[tuple[str, str], ...] = ()  # (player, night) in order of conversion
    holders: tuple[tuple[str, str], ...] = ()  # (night, holder or "") of every resolved night
    revote: Revote | None = None
    held: Phase | None = None  # a night whose start waits until the day's trial is over
    started: frozenset[str] = frozenset()  # nights that have started
    resolved: frozenset[str] = frozenset()  # nights already resolved
    graced: frozenset[str] = frozenset()  # D20 option: phases whose deadline instant was served
    grace_pending: str | None = None  # D20 option: the day whose trial waits for that instant
