"""Helpers every Village module uses: posting proposals, refusing inputs, powers, windows."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from forummod.engine.events import ActionEvent
from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState, Phase, PrivateResult, Proposal
from forummod.i18n import pgettext

from .state import building_of, faction_of_card


class CommonMixin:
    """Shared plumbing; mixed into the `Village` ruleset class."""

    options: Any

    # ---- proposals: everything the GM posts or PMs goes through one
    def post(self, st: GameState, run: RunContext, key: str, kind: str, *, facts=(), private=(), effects=(),
             blocking: bool = False, summary: str = "", phase: Phase | None = None) -> GameState:
        """Propose a GM post. `phase` is the phase it belongs to when that is not the current one:
        a dawn resolved late (after the GM's approval came in the day) is still the night's post,
        so its announcements go in the dawn post (VIL-D-01), never in a day-end post."""
        owner = phase.name if phase is not None else (st.phase.name if st.phase else "")
        prop = Proposal(key=key, kind=kind, phase=owner,
                        created_at=run.current_at or datetime.min, effects=tuple(effects), facts=tuple(facts),
                        private=tuple(private), summary=summary or kind, blocking=blocking)
        run.note("proposal", pgettext("gm-note", "%(key)s: %(summary)s", key=key, summary=prop.summary))
        return st.put_proposal(prop)

    def stamp(self, run: RunContext) -> str:
        return run.event_stamp or f"{run.current_at.isoformat() if run.current_at else ''}#{run.event_index}"

    @staticmethod
    def tell(to: str, key: str, rule: str | None = None, **params: Any) -> PrivateResult:
        return PrivateResult(to, Fact.of(key, rule, **params))

    # ---- rejections
    def refuse(self, run: RunContext, ev: ActionEvent, reason: str, rule: str | None, message: str = "", *,
               target: str | None = None, public: bool = True) -> None:
        run.reject(ev.action, ev.actor, reason, at=ev.at, source=ev.source,
                   target=target if target is not None else ev.target, rule=rule, message=message, public=public)

    # ---- powers
    def powers_lost_for(self, st: GameState, player: str, *, building_power: bool = False) -> bool:
        """§5.1.15: after the village kills the Elder, villagers lose their character powers
        (and their building powers only with `elder.buildings_affected`, VIL-A-56)."""
        if not st.x.powers_lost:
            return False
        if building_power and not self.options.elder.buildings_affected:
            return False
        return faction_of_card(st.role_of(player)) == "villagers"

    def building_power(self, st: GameState, player: str, code: str) -> bool:
        """A living owner of a standing building of this code, whose power is not lost."""
        b = building_of(st, player)
        return (b is not None and b.code == code and st.is_alive(player)
                and not self.powers_lost_for(st, player, building_power=True))

    def holder_of(self, st: GameState, code: str) -> str | None:
        for b in st.x.buildings:
            if b.code == code and not b.destroyed and st.is_alive(b.holder):
                return b.holder
        return None

    def card_of(self, st: GameState, player: str) -> str:
        return st.role_of(player)

    def after(self, run: RunContext, d) -> datetime:
        return (run.current_at or datetime.min) + (d.td if hasattr(d, "td") else d)

    def living_with(self, st: GameState, role: str) -> tuple[str, ...]:
        return st.holders(role)

    def open_window_kinds(self, st: GameState) -> set[str]:
        return {w.kind for w in st.x.windows}

    def drop_window(self, st: GameState, kind: str, player: str) -> GameState:
        return st.with_x(windows=tuple(w for w in st.x.windows if not (w.kind == kind and w.player == player)))

    def find_window(self, st: GameState, kind: str, player: str):
        return next((w for w in st.x.windows if w.kind == kind and w.player == player), None)

    @staticmethod
    def td(d) -> timedelta:
        return d.td if hasattr(d, "td") else d

    def set_lynch(self, st: GameState, **changes: Any) -> GameState:
        return st.with_x(lynch=replace(st.x.lynch, **changes))
