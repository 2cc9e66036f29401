"""Options of `witch-hunt`: every choice the spec's section 8 leaves open, at its default."""

from __future__ import annotations

from typing import Literal

from forummod.records import frozen
from forummod.schema import setting

WHITE_CARDS = ("herbalist", "inquisitor", "gossip")


@frozen
class WitchHuntOptions:
    witches: int = setting(2, "D1: witches (black cards) in a setup dealt from these options")
    plain_villagers: int = setting(8, "D1: plain villagers in a setup dealt from these options")
    white_cards: tuple[str, ...] = setting(WHITE_CARDS, "D1: white cards in play (herbalist, inquisitor, gossip)")
    first_phase: Literal["night", "day"] = setting("night", "D2: the game opens with night 1 (default) or with day 1")
    revote_tie: Literal["nobody", "revote"] = setting("nobody", "D4: a revote tie the seed leaves open executes 'nobody', or goes to one more 'revote'")
    revote_hours: int = setting(24, "D11: a revote opened after the day's end runs this many hours from the GM's revote post")
    heal_announce: Literal["any", "holy_fire"] = setting("any", "D14: announce a successful heal against 'any' attack, or only against 'holy_fire'")
    gossip_target: Literal["choice", "random"] = setting("choice", "D16: the Gossip names a target by PM ('choice'), or the GM draws one ('random', seeded)")
    blocked_night_post: Literal["silent", "nobody_converted"] = setting("silent", "D17: a night without recruitment after a conversion: say nothing, or 'nobody_converted'")
    first_recruiter: str = setting("", "D18: the witch who holds the recruitment right first; empty = seeded draw between the first two witches")
    deadline_inclusive: bool = setting(False, "D20: a post or PM stamped exactly at a deadline still counts (default: it is late)")
    saved_soul_pm: bool = setting(False, "D22: also PM the recruiting witch and the Inquisitor the name of the soul saved by prayer")

    def __post_init__(self) -> None:
        unknown = [c for c in self.white_cards if c not in WHITE_CARDS]
        if unknown:
            raise ValueError(f"white_cards: unknown card {unknown[0]!r} (use {', '.join(WHITE_CARDS)})")
        if len(set(self.white_cards)) != len(self.white_cards):
            raise ValueError("white_cards: each white card can be in play once")
        if self.witches < 1:
            raise ValueError("witches: at least one witch is needed")
        if self.plain_villagers < 0:
            raise ValueError("plain_villagers: cannot be negative")
        if self.revote_hours < 1:
            raise ValueError("revote_hours: at least 1")

    def pool(self) -> dict[str, int]:
        """Role id -> count for a deal from these options (D1)."""
        pool = {"witch": self.witches, "villager": self.plain_villagers}
        for card in self.white_cards:
            pool[card] = 1
        return {r: n for r, n in pool.items() if n}
