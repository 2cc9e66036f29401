"""The Village ruleset's own state (`GameState.x`) and the lookups every module shares.

Buildings are public: a `Building` is named `code@Pk` after the player it was dealt to or last
assigned to (§0). Its owner is that player while the building stands; it is *empty* once he is
dead, and a player with no standing building is a Vagabond (VIL-B-VAGABOND). Token states are
`ready`/`spent` (one-time), `held`/`lost` (Tavern), or "" (permanent).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any, Iterable

from forummod.engine.types import GameState
from forummod.records import frozen

ONE_TIME = frozenset({"church", "hovel", "barbershop", "manor"})
TAVERN = "tavern"
PERMANENT = frozenset({"farm", "school", "bakery", "bailiff"})

WOLF_CARDS = frozenset({"werewolf", "white_werewolf"})  # §0 "is a werewolf"

FACTION = {  # §1: factions by card
    "werewolf": "werewolves", "white_werewolf": "white_werewolf", "piper": "piper",
}


def faction_of_card(card: str) -> str:
    return FACTION.get(card, "villagers")


def fresh_token(code: str) -> str:
    """The token a building starts with (§2.2) or gets back on a Bailiff assignment (§5.2.7)."""
    if code in ONE_TIME:
        return "ready"
    if code == TAVERN:
        return "held"
    return ""


@frozen
class Building:
    code: str
    holder: str  # the Pk of `code@Pk`: dealt to or last assigned to; the owner while it stands
    token: str = ""
    destroyed: bool = False

    @property
    def id(self) -> str:
        return f"{self.code}@{self.holder}"


@frozen
class Window:
    """An open reaction window (§3.5): Hunter shot, Sheriff successor, Scapegoat ruling."""

    kind: str  # hunter | successor | scapegoat
    player: str
    until: datetime
    poisoned: bool = False


@frozen
class Offer:
    building: str  # building id when offered
    vagabond: str
    status: str = "pending"  # pending | accepted | refused


@frozen
class Morning:
    """VIL-D-01b: the Bailiff's morning of one day."""

    day: int
    bailiff: str
    until: datetime
    available: tuple[str, ...]
    offers: tuple[Offer, ...] = ()
    open: bool = True
    label: str = "morning"  # morning | after_execution


@frozen
class Election:
    """VIL-D-02: the farmers' sheriff election."""

    day: int
    round: int
    candidates: tuple[str, ...]
    until: datetime
    ballots: tuple[tuple[str, str], ...] = ()  # (voter, candidate), last one per voter counts
    open: bool = True


@frozen
class Lynch:
    """The lynch procedure of one day (VIL-D-04 … VIL-D-07)."""

    day: int
    stage: str = "waiting"  # waiting | vote | sheriff | lord | done
    round: int = 1
    opens: datetime | None = None
    closes: datetime | None = None
    barkeeper: str | None = None  # the Barkeeper who must vote first this round
    gate_open: bool = True
    bk_vote: str | None = None  # his valid vote this round
    bk_out: bool = False  # he missed his window: no vote today
    pm_vote: str | None = None  # first_vote = pm: his PM vote before the vote opens
    void: tuple[tuple[str, str], ...] = ()
    tied: tuple[str, ...] = ()
    revote_between: tuple[str, ...] = ()
    designated: str | None = None
    scapegoat: bool = False  # the designated player is the Scapegoat dying instead (§6.5)
    pleaded: bool = False
    outcome: str = ""  # lynched | pardoned | idiot | no_lynch | cancelled
    excluded: tuple[str, ...] = ()  # pardoned players barred from a re-vote (VIL-A-31 off)


@frozen
class Tonight:
    """What Wave 1 decided for the current night, read again at dawn (§3.2, §4.2)."""

    night: int
    called: tuple[str, ...] = ()
    victim: str | None = None  # the pack's attack (after a Little Girl catch)
    entered: str | None = None  # building id the pack entered
    lg_caught: bool = False
    protected: str | None = None
    protect_effective: bool = False
    ww_target: str | None = None
    arson: str | None = None  # building id
    poster: str | None = None
    pack_lines: tuple[str, ...] = ()
    peeks: tuple[tuple[str, str, str], ...] = ()  # (fact key, spy, pack member seen or "")
    wave1_closed: bool = False
    dawned: bool = False


@frozen
class VillageX:
    buildings: tuple[Building, ...] = ()
    thief_cards: tuple[str, ...] = ()
    thief_done: bool = False
    lovers: tuple[str, ...] = ()
    lovers_cross: bool = False
    charmed: frozenset[str] = frozenset()
    sheriff: str | None = None
    sheriff_extinct: bool = False
    election_done: bool = False
    election_held: bool = False
    election: Election | None = None
    poster: str | None = None
    poster_by: str | None = None
    silenced: frozenset[str] = frozenset()
    guardian_last: tuple[int, str | None] = (0, None)
    heal_left: bool = True
    poison_left: bool = True
    pyro_used: bool = False
    hunters_fired: frozenset[str] = frozenset()
    idiots_revealed: frozenset[str] = frozenset()
    elder_hit: frozenset[str] = frozenset()
    powers_lost: bool = False
    ruling: tuple[str, ...] | None = None  # Scapegoat: who may vote at the next lynch
    ruling_day: int = 0
    windows: tuple[Window, ...] = ()
    lynch: Lynch | None = None
    morning: Morning | None = None
    mornings: tuple[tuple[int, str], ...] = ()  # (day, "held" | "skipped")
    tonight: Tonight | None = None
    nights: tuple[Tonight, ...] = ()
    confessor_uses: int = 0
    silenced_count: int = 0
    reelect_day: int = 0


# --------------------------------------------------------------------------- lookups



def building(st: GameState, bid: str) -> Building | None:
    for b in st.x.buildings:
        if b.id == bid:
            return b
    return None


def building_by_code(st: GameState, code: str) -> Building | None:
    """The one building with this code (farms may repeat: the first standing one)."""
    found = [b for b in st.x.buildings if b.code == code]
    standing = [b for b in found if not b.destroyed]
    return (standing or found or [None])[0]


def building_of(st: GameState, player: str) -> Building | None:
    """The standing building this player holds (or held, if dead); None = Vagabond."""
    for b in st.x.buildings:
        if b.holder == player and not b.destroyed:
            return b
    return None


def owns(st: GameState, player: str, code: str) -> bool:
    b = building_of(st, player)
    return b is not None and b.code == code and st.is_alive(player)


def is_vagabond(st: GameState, player: str) -> bool:
    return building_of(st, player) is None


def is_empty(st: GameState, b: Building) -> bool:
    return not b.destroyed and not st.is_alive(b.holder)


def empty_buildings(st: GameState) -> tuple[Building, ...]:
    return tuple(b for b in st.x.buildings if is_empty(st, b))


def farmers(st: GameState) -> tuple[str, ...]:
    """Living Farmers in seat order (Farmer status follows the farm, §5.2.1)."""
    return tuple(p.name for p in st.living() if owns(st, p.name, "farm"))


def barkeeper_holding(st: GameState, player: str) -> bool:
    """VIL-B-TAVERN: a living Tavern owner whose token is held."""
    b = building_of(st, player)
    return b is not None and b.code == TAVERN and b.token == "held" and st.is_alive(player)



def pack(st: GameState) -> tuple[str, ...]:
    """Living pack members (Werewolf and White Werewolf cards), seat order."""
    return tuple(p.name for p in st.living() if p.role in WOLF_CARDS)


def walk_right(st: GameState, anchor: str, direction: str) -> Iterable[str]:
    """Seats from the anchor (excluded) in the configured direction, once around (§0)."""
    names = [p.name for p in st.players]
    i = names.index(anchor)
    step = 1 if direction == "next" else -1
    for k in range(1, len(names)):
        yield names[(i + step * k) % len(names)]


def update_building(st: GameState, bid: str, **changes: Any) -> GameState:
    return st.with_x(buildings=tuple(replace(b, **changes) if b.id == bid else b for b in st.x.buildings))


def seat_sorted(st: GameState, names: Iterable[str]) -> tuple[str, ...]:
    order = {p.name: p.seat for p in st.players}
    return tuple(sorted(set(names), key=lambda n: order.get(n, 0)))
