"""The death cascade (§3.5) and its reaction windows: grief, Hunter, Sheriff successor, Scapegoat.

Grief is computed into the same proposal as the death that causes it (nothing prevents it).
The Hunter's shot, the Sheriff's successor and the Scapegoat's ruling open windows of
`time.reaction_window`; while a Hunter or Sheriff window is open the victory check is held (§3.6).
"""

from __future__ import annotations

from dataclasses import replace

from forummod.engine.events import ActionEvent, Timer
from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState
from forummod.i18n import join_names, pgettext

from .effects import SetSheriff
from .state import Window, farmers, seat_sorted

HOLDING = ("hunter", "successor")  # windows that hold the victory check (§3.6)


class CascadeMixin:
    # ------------------------------------------------------------------ grief (§3.5 step 1)
    def with_grief(self, st: GameState, deaths: dict[str, str]) -> dict[str, str]:
        out = dict(deaths)
        lovers = st.x.lovers
        changed = True
        while changed and len(lovers) == 2:
            changed = False
            for me, other in ((lovers[0], lovers[1]), (lovers[1], lovers[0])):
                if me in out and other not in out and st.is_alive(other):
                    out[other] = "grief"  # VIL-S-LOVER: nothing prevents it
                    changed = True
        return out

    def propose_deaths(self, st: GameState, run: RunContext, key: str, deaths: dict[str, str], *,
                       facts=(), effects=(), summary: str = "") -> GameState:
        """A day death (Barber, Hunter shot, grief) with its cascade, announced with the cards (§3.4)."""
        deaths = self.with_grief(st, deaths)
        kills, death_facts = self.death_effects(st, deaths)
        return self.post(st, run, key, "death", blocking=True, effects=tuple(kills) + tuple(effects),
                         facts=tuple(facts) + tuple(death_facts), summary=summary or pgettext("gm-proposal", "%(names)s die", names=join_names(deaths)))

    # ------------------------------------------------------------------ after a death
    def kill(self, st: GameState, name: str, cause: str, phase: str, run: RunContext, reveal: bool = True):
        keep = [v for v in st.votes if v.voter == name and v.target != name] \
            if self.options.vote.dead_voter_votes == "kept" else []  # VIL-A-53
        st = super().kill(st, name, cause, phase, run, reveal=reveal)
        if keep:
            st = replace(st, votes=st.votes + tuple(keep))
        lynch = st.x.lynch
        if lynch is not None and lynch.bk_vote == name:  # §3.4: the Barkeeper may vote again
            st = self.set_lynch(st, bk_vote=None)
        if lynch is not None and lynch.barkeeper == name and not lynch.gate_open:
            st = self.set_lynch(st, gate_open=True)  # a dead Barkeeper cannot hold the vote shut
        return st

    def cascade(self, st: GameState, killed: list[str], run: RunContext) -> GameState:
        """§3.5 steps 2–5 for players who just died, in seat order."""
        opened: list[Window] = []
        for name in seat_sorted(st, killed):
            p = st.player(name)
            cause = p.death.cause if p.death else ""
            if name in st.x.lovers:
                other = next(o for o in st.x.lovers if o != name)
                if st.is_alive(other):  # a death applied outside our proposals (GM kill)
                    st = self.propose_deaths(st, run, f"grief:{other}:{self.stamp(run)}", {other: "grief"})
            if p.role == "hunter" and name not in st.x.hunters_fired and not self.powers_lost_for(st, name):
                if not (cause == "poison" and self.options.hunter.shoot_when == "not_poisoned"):  # VIL-A-47
                    opened.append(Window("hunter", name, self.after(run, self.options.time.reaction_window)))
            if st.x.sheriff == name:
                st, win = self.sheriff_gone(st, name, run)
                if win:
                    opened.append(win)
            if p.role == "elder" and self._village_kill(cause):  # §5.1.15
                st = st.with_x(powers_lost=True)
                st = self.post(st, run, f"elder:{name}", "announce", facts=(Fact.of("elder_powers_lost", "VIL-R-ELDER",
                                                                                     player=name),))
            lynch = st.x.lynch
            if p.role == "scapegoat" and lynch is not None and lynch.scapegoat and lynch.designated == name:
                opened.append(Window("scapegoat", name, self.after(run, self.options.time.reaction_window)))
        return self.open_windows(st, opened, run)

    def _village_kill(self, cause: str) -> bool:
        causes = {"lynch" if c == "vote" else c for c in self.options.elder.village_kill_causes}
        return cause in causes or (cause == "barber_execution" and "barber" in causes)

    def sheriff_gone(self, st: GameState, name: str, run: RunContext) -> tuple[GameState, Window | None]:
        """The Sheriff died or lost the title: he names a living Farmer (VIL-B-FARM), or the title ends."""
        st = st.with_x(sheriff=None)
        if not farmers(st):
            st = st.with_x(sheriff_extinct=True)
            st = self.post(st, run, f"sheriff_extinct:{name}", "announce",
                           facts=(Fact.of("sheriff_extinct", "VIL-B-FARM", previous=name),))
            return st, None
        return st, Window("successor", name, self.after(run, self.options.time.reaction_window))

    def open_windows(self, st: GameState, wins: list[Window], run: RunContext) -> GameState:
        if not wins:
            return st
        st = st.with_x(windows=st.x.windows + tuple(wins))
        facts = []
        for w in wins:
            run.timer(w.until, "window", st.phase.name if st.phase else "", kind=w.kind, player=w.player)
            facts.append(Fact.of("reaction_window", "VIL-D-01", kind=w.kind, player=w.player,
                                 deadline=w.until.isoformat()))
        return self.post(st, run, f"windows:{self.stamp(run)}", "announce", facts=facts)

    def holding_windows(self, st: GameState) -> bool:
        return any(w.kind in HOLDING for w in st.x.windows)

    # ------------------------------------------------------------------ reactions
    def on_shoot(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        """VIL-R-HUNTER: the dead Hunter names one living player, who dies at once."""
        w = self.find_window(st, "hunter", ev.actor)
        if w is None or ev.at >= w.until:
            self.refuse(run, ev, "no_window", "VIL-R-HUNTER", pgettext("gm-rejection", "no open Hunter window"), public=False)
            return st
        if not st.is_alive(ev.target):
            self.refuse(run, ev, "dead_target", "VIL-R-HUNTER", pgettext("gm-rejection", "%(target)s is dead", target=ev.target))
            return st
        st = self.drop_window(st, "hunter", ev.actor)
        st = st.with_x(hunters_fired=st.x.hunters_fired | {ev.actor})
        st = self.propose_deaths(st, run, f"shot:{ev.actor}", {ev.target: "hunter"},
                                 facts=(Fact.of("hunter_shot", "VIL-R-HUNTER", hunter=ev.actor, target=ev.target),))
        return st

    def on_successor(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        """VIL-B-FARM: the outgoing Sheriff names a living Farmer."""
        w = self.find_window(st, "successor", ev.actor)
        if w is None and not ev.by_gm:
            self.refuse(run, ev, "no_window", "VIL-B-FARM", pgettext("gm-rejection", "no open successor window"))
            return st
        if ev.target not in farmers(st):
            self.refuse(run, ev, "not_farmer", "VIL-B-FARM", pgettext("gm-rejection", "%(target)s is not a living Farmer", target=ev.target))
            return st
        st = self.drop_window(st, "successor", w.player if w else ev.actor)
        return self.name_sheriff(st, run, ev.target, "named", w.player if w else "")

    def name_sheriff(self, st: GameState, run: RunContext, who: str | None, how: str, previous: str) -> GameState:
        if who is None:
            return self.post(st, run, f"sheriff:{self.stamp(run)}", "sheriff", effects=(SetSheriff(None, True),),
                             facts=(Fact.of("sheriff_extinct", "VIL-A-07", previous=previous),), blocking=True)
        return self.post(st, run, f"sheriff:{self.stamp(run)}", "sheriff", effects=(SetSheriff(who),),
                         facts=(Fact.of("sheriff_successor", "VIL-B-FARM", player=who, previous=previous, how=how),),
                         blocking=True, summary=pgettext("gm-proposal", "%(who)s becomes Sheriff", who=who))

    def on_scapegoat_ruling(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        """VIL-R-SCAPEGOAT: he names who may vote at the next lynch."""
        w = self.find_window(st, "scapegoat", ev.actor)
        if w is None:
            self.refuse(run, ev, "no_window", "VIL-R-SCAPEGOAT", pgettext("gm-rejection", "no open Scapegoat window"), public=False)
            return st
        day = st.x.lynch.day + 1 if st.x.lynch else 0
        st = self.drop_window(st, "scapegoat", ev.actor).with_x(ruling=tuple(ev.targets), ruling_day=day)
        return self.post(st, run, f"ruling:{ev.actor}", "announce",
                         facts=(Fact.of("scapegoat_ruling", "VIL-R-SCAPEGOAT", scapegoat=ev.actor,
                                        voters=tuple(ev.targets)),))

    def window_timeout(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        kind, player = timer.get("kind"), timer.get("player")
        w = self.find_window(st, kind, player)
        if w is None:
            return st
        st = self.drop_window(st, kind, player)
        run.note("timeout", pgettext("gm-note", "%(kind)s window of %(player)s closed without an answer", kind=kind, player=player))
        if kind == "successor":
            mode = self.options.sheriff.succession_timeout
            alive = farmers(st)
            if not alive:
                st = self.name_sheriff(st, run, None, "none", player)
            elif mode == "random_farmer":  # VIL-A-07
                rng, st = self.rng(st, "successor")
                st = self.name_sheriff(st, run, rng.choice(alive), "random", player)
            elif mode == "none":
                st = self.name_sheriff(st, run, None, "none", player)
            else:
                st = self.post(st, run, f"sheriff_gm:{player}", "announce",
                               facts=(Fact.of("sheriff_gm_choice", "VIL-A-07", previous=player, farmers=alive),))
        return self.check_and_set_win(st, run)
