"""VIL-D-02: the farmers' sheriff election (§5.2.1), opened after the Bailiff's morning (VIL-A-58)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from forummod.engine.events import ActionEvent, Timer
from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState
from forummod.i18n import pgettext

from .effects import SetSheriff
from .state import Election, farmers


class SheriffMixin:
    def no_farms_game(self, st: GameState) -> bool:
        return not any(b.code == "farm" for b in st.x.buildings)

    def election_due(self, st: GameState, day: int) -> bool:
        x = st.x
        if x.sheriff is not None or x.election_done or x.sheriff_extinct:
            return False
        if self.no_farms_game(st):  # §2.4
            return self.options.sheriff.base_election_if_no_farms and day == 1
        return day == self.options.sheriff.election_day or (x.reelect_day and day == x.reelect_day)

    def candidates(self, st: GameState) -> tuple[str, ...]:
        return st.living_names() if self.no_farms_game(st) else farmers(st)

    def electors(self, st: GameState) -> tuple[str, ...]:
        if self.no_farms_game(st) or self.options.sheriff.electorate == "all":  # VIL-A-05
            return st.living_names()
        return farmers(st)

    def maybe_open_election(self, st: GameState, run: RunContext, day: int) -> GameState:
        if not self.election_due(st, day):
            return st
        cands = self.candidates(st)
        if not cands:
            st = st.with_x(election_done=True, sheriff_extinct=True)
            return self.post(st, run, f"election:D{day}", "announce",
                             facts=(Fact.of("sheriff_none", "VIL-D-02", reason="no_farmers"),))
        if len(cands) == 1:  # a single Farmer is Sheriff without a vote
            st = st.with_x(election_done=True)
            return self.post(st, run, f"election:D{day}", "sheriff", blocking=True, effects=(SetSheriff(cands[0]),),
                             facts=(Fact.of("sheriff_elected", "VIL-D-02", player=cands[0], how="sole_farmer"),))
        return self.open_election(st, run, day, 1, cands)

    def open_election(self, st: GameState, run: RunContext, day: int, round_: int, cands: tuple[str, ...]) -> GameState:
        until = self.after(run, self.options.time.election_deadline)
        st = st.with_x(election=Election(day=day, round=round_, candidates=cands, until=until),
                       election_held=True)
        run.timer(until, "election_close", st.phase.name if st.phase else "", day=day, round=round_)
        return self.post(st, run, f"election:D{day}:{round_}", "announce",
                         facts=(Fact.of("election_open", "VIL-D-02", candidates=cands, electors=self.electors(st),
                                        round=round_, deadline=until.isoformat()),))

    def on_elect(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        e = st.x.election
        if e is None or not e.open or ev.at >= e.until:
            self.refuse(run, ev, "no_election", "VIL-D-02", pgettext("gm-rejection", "no election is open"))
            return st
        if ev.by_gm and e.round == 0:
            return self.finish_election(st, run, (ev.target,), "gm")
        if ev.actor not in self.electors(st):
            self.refuse(run, ev, "not_farmer", "VIL-D-02", pgettext("gm-rejection", "%(actor)s may not vote in the election", actor=ev.actor))
            return st
        if ev.target not in e.candidates or not st.is_alive(ev.target):
            self.refuse(run, ev, "not_farmer", "VIL-D-02", pgettext("gm-rejection", "%(target)s is not a candidate", target=ev.target))
            return st
        ballots = tuple(b for b in e.ballots if b[0] != ev.actor) + ((ev.actor, ev.target),)
        return st.with_x(election=replace(e, ballots=ballots))

    def election_close(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        e = st.x.election
        if e is None or not e.open or timer.get("round") != e.round:
            return st
        counts = Counter(c for v, c in e.ballots if st.is_alive(v) and st.is_alive(c))
        alive = tuple(c for c in e.candidates if st.is_alive(c))
        top = max((counts.get(c, 0) for c in alive), default=0)
        leaders = tuple(c for c in alive if counts.get(c, 0) == top)
        st = st.with_x(election=replace(e, open=False, ballots=e.ballots))
        if len(leaders) == 1:
            return self.finish_election(st, run, leaders, "vote")
        if not leaders:
            return self.maybe_open_election(st, run, e.day)
        st = self.post(st, run, f"election_tie:D{e.day}:{e.round}", "announce",
                       facts=(Fact.of("election_tie", "VIL-A-06", players=leaders, round=e.round),))
        if self.options.sheriff.election_tie == "gm_choice":
            st = st.with_x(election=replace(st.x.election, open=True, round=0, candidates=leaders,
                                            until=timer.at.max.replace(tzinfo=timer.at.tzinfo)))
            return st
        if e.round == 1:  # VIL-A-06: one re-vote among the tied
            return self.open_election(st, run, e.day, 2, leaders)
        rng, st = self.rng(st, f"election:D{e.day}")
        return self.finish_election(st, run, (rng.choice(leaders),), "random")

    def finish_election(self, st: GameState, run: RunContext, winner: tuple[str, ...], how: str) -> GameState:
        e = st.x.election
        st = st.with_x(election=replace(e, open=False), election_done=True)
        return self.post(st, run, f"elected:D{e.day}", "sheriff", blocking=True, effects=(SetSheriff(winner[0]),),
                         facts=(Fact.of("sheriff_elected", "VIL-D-02", player=winner[0], how=how),))
