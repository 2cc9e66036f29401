"""Which game a PM in the GM's inbox belongs to (issue 28, item 7).

The inbox holds every PM the GM's account received: sign-ups and questions from before the
game, and, with several games on one account, the other games' actions. Only this game's PMs
may become its actions, findings and alerts. A PM is tied to its game, in this order:

1. a subject tag: the game's `pm_tag` in the subject ties it to that game; with this game's
   tag set, a subject holding another bracketed tag (``[Lupus 8]``) is another game's;
2. the sender's seat: a PM from a player of another configured game only is that game's;
3. the time window: received before this game's start it is ignored (listed once to the GM,
   never alerted); a sender seated in several configured games is tied to the one running
   when it arrived, and when several are, the GM is asked (the PM is not used).

Pure: games are described by `GameWindow`s the service builds from the config and the store.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal, Sequence

from forummod.model import Message
from forummod.records import frozen

Verdict = Literal["ours", "before_start", "other_game", "unclear"]
_TAG = re.compile(r"\[[^\[\]]{1,40}\]")


@frozen
class GameWindow:
    """One configured game as PM routing sees it."""

    game_id: str
    start: datetime | None  # the game's start (None: not known yet, nothing is "before")
    end: datetime | None = None  # when it stopped (None: still running)
    accounts: frozenset[str] = frozenset()  # its players' accounts, casefolded (replaced ones too)
    tag: str = ""  # its `pm_tag`, casefolded ("" = none)

    def running(self, at: datetime) -> bool:
        return (self.start is None or self.start <= at) and (self.end is None or at <= self.end)

    def seats(self, account: str) -> bool:
        return account.casefold() in self.accounts


@frozen
class PmRoute:
    verdict: Verdict
    games: tuple[str, ...] = ()  # other_game: where it belongs ("" = a game not in this config); unclear: the candidates


def route(m: Message, me: GameWindow, others: Sequence[GameWindow] = ()) -> PmRoute:
    """Where `m` belongs, seen from game `me` (see the module's rules)."""
    subject = (m.subject or "").casefold()
    tagged = [g for g in (me, *others) if g.tag and g.tag in subject]
    if tagged and me not in tagged:
        return PmRoute("other_game", tuple(g.game_id for g in tagged))
    if not tagged and me.tag and any(t.casefold() != me.tag for t in _TAG.findall(subject)):
        return PmRoute("other_game", ("",))  # the GM tags this game's PMs; this one carries another tag
    if me.start is not None and m.created_at < me.start:
        return PmRoute("before_start")
    if tagged:
        return PmRoute("ours")
    seated = [g for g in others if g.seats(m.sender)]
    if not seated:
        return PmRoute("ours")
    if not me.seats(m.sender):
        return PmRoute("other_game", tuple(g.game_id for g in seated))
    running = [g for g in (me, *seated) if g.running(m.created_at)]
    if running == [me] or not running:
        return PmRoute("ours")
    if me not in running:
        return PmRoute("other_game", tuple(g.game_id for g in running))
    return PmRoute("unclear", tuple(g.game_id for g in running))
