"""Victory (§1, §3.6): checked after every resolution and death, held while a Hunter or Sheriff
window is open; the first condition that holds wins, in the §1 order (precedence of S16)."""

from __future__ import annotations

from forummod.engine.types import GameState, Outcome

from .state import faction_of_card


class WinsMixin:
    def check_win(self, st: GameState) -> Outcome | None:
        if self.holding_windows(st):  # §3.6: a pending shot or succession suspends the result
            return None
        living = st.living()
        if not living:
            return Outcome("nobody", (), "every player is dead", "VIL-A-49")
        names = {p.name for p in living}
        cards = {p.name: p.role for p in st.players}
        lovers = st.x.lovers
        cupid_in_play = any(p.role == "cupid" for p in st.players)
        cross = cupid_in_play and len(lovers) == 2 and st.x.lovers_cross
        # 1. cross-faction lovers
        if cross and names == set(lovers):
            winners = set(lovers) | ({p.name for p in st.players if p.role == "cupid"}
                                     if self.options.cupid.wins_with_lovers else set())
            return Outcome("lovers", self._seat(st, winners), "the two lovers are the last alive", "VIL-S-LOVER",
                           factions=("lovers",))
        # 2. Piper
        piper = next((p.name for p in living if p.role == "piper"), None)
        if piper and all(n in st.x.charmed for n in names if n != piper):
            return Outcome("piper", (piper,), "every other living player is charmed", "VIL-R-PIPER",
                           factions=("piper",))
        # 3. White Werewolf
        if len(living) == 1 and living[0].role == "white_werewolf":
            return Outcome("white_werewolf", (living[0].name,), "sole survivor", "VIL-R-WHITE-WEREWOLF",
                           factions=("white_werewolf",))
        # 4. the pack (VIL-A-49)
        plain = [p.name for p in living if p.role == "werewolf"]
        blockers = [p for p in living if p.role != "werewolf"
                    and not (p.role == "white_werewolf" and self.options.win.ww_counts_for_pack)]
        if plain and (not blockers or (self.options.win.wolves_parity and len(plain) >= len(living) - len(plain))):
            winners = [p.name for p in st.players if p.role == "werewolf" and not (cross and p.name in lovers)]
            return Outcome("werewolves", self._seat(st, winners), "only werewolves are left", "VIL-A-49",
                           factions=("werewolves",))
        # 5. villagers
        wolves_alive = any(p.role in ("werewolf", "white_werewolf") for p in living)
        piper_alive = piper is not None
        if not wolves_alive and not (piper_alive and self.options.win.villagers_need_piper_dead):
            winners = [n for n, c in cards.items() if faction_of_card(c) == "villagers"
                       and not (cross and n in lovers)
                       and not (c == "cupid" and self.options.cupid.wins_with_lovers and cross)]
            return Outcome("villagers", self._seat(st, winners), "no werewolf is left", "VIL-A-49",
                           factions=("villagers",))
        return None

    def _seat(self, st: GameState, names) -> tuple[str, ...]:
        order = {p.name: p.seat for p in st.players}
        return tuple(sorted(set(names), key=order.get))
