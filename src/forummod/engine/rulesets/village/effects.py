"""Village-specific proposal effects: public changes that wait for the GM like deaths do.

The base class applies `Kill`, `SetStatus`, `Announce`, `Tell`...; these add the public
building and title changes of §2–§5 (burned houses, token states, the Sheriff, the poster,
a Bailiff's assignment, an Idiot's reveal). `apply_village_effect` applies one to the state.
"""

from __future__ import annotations


from forummod.engine.types import GameState
from forummod.records import frozen

from .state import fresh_token, update_building


@frozen
class Burn:
    building: str  # §4.2 step 1: destroyed, owner becomes a Vagabond (VIL-A-35: token lost with it)


@frozen
class SetToken:
    building: str
    token: str  # ready | spent | held | lost


@frozen
class SetSheriff:
    player: str | None
    extinct: bool = False


@frozen
class SetPoster:
    player: str | None
    by: str | None = None


@frozen
class AssignBuilding:
    building: str  # id of the empty building
    player: str  # the Vagabond who accepted (§5.2.7): token comes back ready/held


@frozen
class RevealIdiot:
    player: str  # §5.1.16: card shown, stays alive, loses his vote


VILLAGE_EFFECTS = (Burn, SetToken, SetSheriff, SetPoster, AssignBuilding, RevealIdiot)


def apply_village_effect(st: GameState, eff: object) -> GameState:
    x = st.x
    if isinstance(eff, Burn):
        return update_building(st, eff.building, destroyed=True, token="")
    if isinstance(eff, SetToken):
        return update_building(st, eff.building, token=eff.token)
    if isinstance(eff, SetSheriff):
        return st.with_x(sheriff=eff.player, sheriff_extinct=x.sheriff_extinct or eff.extinct,
                         election_done=x.election_done or eff.player is not None)
    if isinstance(eff, SetPoster):
        return st.with_x(poster=eff.player, poster_by=eff.by)
    if isinstance(eff, AssignBuilding):
        code = eff.building.split("@", 1)[0]
        return update_building(st, eff.building, holder=eff.player, token=fresh_token(code))
    if isinstance(eff, RevealIdiot):
        return st.with_x(idiots_revealed=x.idiots_revealed | {eff.player})
    raise TypeError(f"not a village effect: {eff!r}")
