"""Names settled once (issue 27, item 3): the alias proposals of a game and the GM's verdicts.

`extract.aliases` says which seat an unresolved spelling probably means and why; the GM's log
says what was decided (an `alias` event: approved for a player, or rejected). This joins the
two into one list for `status`, `check`, the console and `gm approve alias:…`, and gives the
aliases the roster answers to. Pure: the analysis and the stored events in, records out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Literal

from forummod.extract.aliases import AliasGuess, Evidence, NameUse, alias_key
from forummod.gm_log import settled_names
from forummod.records import frozen

Status = Literal["pending", "approved", "rejected"]


@frozen
class NameProposal:
    """One spelling and who it means: pending (the evidence asks the GM), approved (an `alias`
    event of the log, or `--approve-all`: `event` None) or rejected (not asked again)."""

    key: str
    spelling: str
    status: Status
    candidates: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    uses: tuple[NameUse, ...] = ()
    player: str | None = None  # approved: the seat the spelling means
    event: int | None = None
    decided_at: datetime | None = None

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1

    @property
    def first_at(self) -> datetime | None:
        times = [u.at for u in self.uses if u.at is not None]
        return min(times) if times else None


def approved_aliases(stored: Iterable[Any], extra: Iterable[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """(spelling, player) of every approved alias of the log, then `extra` (`--approve-all`)."""
    out = [(ev.payload.get("spelling", ""), ev.payload.get("player", "")) for ev in settled_names(stored).values()
           if ev.payload.get("verdict") == "approve"]
    return [(s, p) for s, p in (*out, *extra) if s and p]


def name_proposals(guesses: Iterable[AliasGuess], stored: Iterable[Any],
                   auto: Iterable[AliasGuess] = ()) -> tuple[NameProposal, ...]:
    """Every proposal with its status: the log's verdicts first (by key), then the guesses of
    this analysis; `auto` are guesses `--approve-all` approved (they resolve now, so the recount
    makes no guess for them)."""
    decided = settled_names(stored)
    out: dict[str, NameProposal] = {}
    for key, ev in decided.items():
        p = ev.payload
        verdict: Status = "approved" if p.get("verdict") == "approve" else "rejected"
        out[key] = NameProposal(key, p.get("spelling", ""), verdict, tuple(p.get("candidates") or ()),
                                player=p.get("player") if verdict == "approved" else None, event=ev.id,
                                decided_at=ev.at)
    for g in auto:
        if g.key not in out:
            out[g.key] = NameProposal(g.key, g.spelling, "approved", g.candidates, g.evidence, g.uses,
                                      player=g.candidates[0])
    for g in guesses:
        old = out.get(g.key)
        if old is None:
            out[g.key] = NameProposal(g.key, g.spelling, "pending", g.candidates, g.evidence, g.uses)
        elif old.status == "rejected":  # remembered: not asked again, the evidence still shown
            out[g.key] = NameProposal(g.key, old.spelling or g.spelling, "rejected", g.candidates, g.evidence,
                                      g.uses, event=old.event, decided_at=old.decided_at)
    return tuple(out.values())


def pending(proposals: Iterable[NameProposal]) -> tuple[NameProposal, ...]:
    return tuple(p for p in proposals if p.status == "pending")


def find(proposals: Iterable[NameProposal], key: str) -> NameProposal | None:
    """The proposal for `key` ("alias:KTS" and "alias:kts" are one)."""
    want = alias_key(key.split(":", 1)[1]) if key.lower().startswith("alias:") else key
    return next((p for p in proposals if p.key == want), None)
