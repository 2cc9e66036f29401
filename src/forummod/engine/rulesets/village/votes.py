"""The lynch vote (§3.4, §6): vote rights, the Barkeeper's first vote, weights, the tie chain,
the Lord's pardon window and the execution.

The procedure lives in `x.lynch` (`Lynch`): `waiting` until `time.vote_open` (counted back from
the phase's vote close, so the vote lasts `vote_close - vote_open`), `vote` while votes are taken
(round 1 closes at the phase's vote close, a re-vote by its own timer), `sheriff` while the
Sheriff breaks a tie, `lord` during the pardon window, then `done`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from forummod.engine.events import ActionEvent, Timer, UnvoteEvent, VoteEvent
from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState, Phase, VoteRecord
from forummod.model import NO_LYNCH
from forummod.i18n import pgettext

from .effects import RevealIdiot, SetPoster, SetToken
from .state import Lynch, barkeeper_holding, building_of, is_vagabond


class VoteMixin:
    # ------------------------------------------------------------------ day start
    def vote_window(self, phase: Phase) -> tuple[datetime | None, datetime | None]:
        close = phase.votes_close_at()
        if close is None:
            return None, None
        t = self.options.time
        opens = max(phase.start, close - (self.td(t.vote_close) - self.td(t.vote_open)))
        return opens, close

    def start_lynch(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        opens, close = self.vote_window(phase)
        st = st.with_x(lynch=Lynch(day=phase.id.number, opens=opens, closes=close))
        if opens is not None:
            run.timer(opens, "vote_open", phase.name, day=phase.id.number)
        return st

    # ------------------------------------------------------------------ vote rights (VIL-V-1)
    def vote_right_problem(self, st: GameState, voter: str) -> tuple[str, str] | None:
        x = st.x
        if building_of(st, voter) is not None and building_of(st, voter).code == "school" and st.is_alive(voter):
            if self.options.schoolmarm.never_votes or x.silenced_count:  # VIL-A-15
                return ("no_vote_right", "VIL-A-15")
        if voter in x.silenced:
            return ("silenced", "VIL-S-SILENCED")
        if voter in x.idiots_revealed:
            return ("no_vote_right", "VIL-R-IDIOT")
        lynch = x.lynch
        if x.ruling is not None and lynch is not None and x.ruling_day == lynch.day and voter not in x.ruling:
            return ("no_vote_right", "VIL-R-SCAPEGOAT")
        if lynch is not None and lynch.bk_out and voter == lynch.barkeeper:
            return ("no_vote_right", "VIL-V-3")
        return None

    def may_vote(self, st: GameState, voter: str) -> bool:
        return st.is_alive(voter) and self.vote_right_problem(st, voter) is None

    def can_be_voted(self, st: GameState, target: str) -> bool:
        return st.is_alive(target) and not barkeeper_holding(st, target)

    def voting_open(self, st: GameState) -> bool:
        lynch = st.x.lynch if st.x else None
        return lynch is not None and lynch.stage == "vote" and st.outcome is None

    # ------------------------------------------------------------------ votes (VIL-V-2, VIL-V-3)
    def target_problem(self, st: GameState, ev: VoteEvent) -> tuple[str, str, bool] | None:
        """(reason, rule, public) for a vote naming an invalid target."""
        t, lynch = ev.target, st.x.lynch
        if t == NO_LYNCH:
            return None if self.options.vote.no_lynch_candidate else ("no_lynch_not_allowed", "VIL-A-46", True)
        if not st.has_player(t):
            return ("non_player_target", "VIL-V-2", True)
        if not st.is_alive(t):
            return ("dead_target", "VIL-V-2", True)
        if barkeeper_holding(st, t):
            return ("barkeeper_immune", "VIL-B-TAVERN", True)
        lovers = st.x.lovers
        if len(lovers) == 2 and ev.voter in lovers and t in lovers and t != ev.voter:
            return ("lover_target", "VIL-R-CUPID", False)  # told to the voter only
        if t == ev.voter and not self.options.vote.allow_self:
            return ("self_target", "VIL-A-45", True)
        if st.vote_candidates and t not in st.vote_candidates:
            return ("not_candidate", "VIL-V-5", True)
        if t in lynch.excluded:
            return ("not_candidate", "VIL-A-31", True)
        return None

    def on_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        lynch = st.x.lynch
        pm_first = self.options.barkeeper.first_vote == "pm"
        if ev.channel == "pm" and not (pm_first and lynch is not None and lynch.stage == "waiting"):
            return st
        if lynch is not None and lynch.stage == "waiting" and pm_first and ev.channel == "pm":
            return self._barkeeper_pm_vote(st, ev, run)
        if not self.voting_open(st) or (lynch.closes is not None and ev.at >= lynch.closes):
            run.reject("vote", ev.voter, "vote_not_open", at=ev.at, source=ev.source, target=ev.target,
                       rule="VIL-V-2", message=pgettext("gm-rejection", "outside the vote window: ignored"))
            return st
        if not st.has_player(ev.voter) or not st.is_alive(ev.voter):
            run.reject("vote", ev.voter, "dead_voter", at=ev.at, source=ev.source, target=ev.target, rule="VIL-V-1")
            return st
        right = self.vote_right_problem(st, ev.voter)
        if right is not None:
            run.reject("vote", ev.voter, right[0], at=ev.at, source=ev.source, target=ev.target, rule=right[1])
            return st
        bad = self.target_problem(st, ev)
        if bad is not None:
            run.reject("vote", ev.voter, bad[0], at=ev.at, source=ev.source, target=ev.target, rule=bad[1],
                       public=bad[2])
            return st
        if ev.voter == lynch.barkeeper and lynch.bk_vote is not None and self.options.barkeeper.vote_locked:
            run.reject("vote", ev.voter, "vote_locked", at=ev.at, source=ev.source, target=ev.target,
                       rule="VIL-V-3", message=pgettext("gm-rejection", "the Barkeeper may not change his vote"))
            return st
        if not lynch.gate_open and ev.voter != lynch.barkeeper:  # VIL-V-3: void, told to post again
            st = self.set_lynch(st, void=lynch.void + ((ev.voter, ev.target),))
            run.reject("vote", ev.voter, "before_barkeeper", at=ev.at, source=ev.source, target=ev.target,
                       rule="VIL-V-3", message=pgettext("gm-rejection", "the Barkeeper votes first: post your vote again"))
            return self.post(st, run, f"void:{ev.voter}:{self.stamp(run)}", "notice",
                             private=(self.tell(ev.voter, "vote_void", "VIL-V-3", target=ev.target),))
        st = self.place_vote(st, ev, run)
        if ev.voter == lynch.barkeeper:
            st = self.set_lynch(st, bk_vote=ev.target, gate_open=True)
        return st

    def _barkeeper_pm_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        """VIL-A-27 `pm`: the Barkeeper PMs his vote before the vote opens; the GM posts it first."""
        if not barkeeper_holding(st, ev.voter):
            return st
        bad = self.target_problem(st, ev)
        if bad is not None:
            run.reject("vote", ev.voter, bad[0], at=ev.at, source=ev.source, target=ev.target, rule=bad[1],
                       public=bad[2])
            return st
        return self.set_lynch(st, pm_vote=ev.target)

    def on_unvote(self, st: GameState, ev: UnvoteEvent, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is not None and ev.voter == lynch.barkeeper and lynch.bk_vote is not None \
                and self.options.barkeeper.vote_locked:
            run.reject("unvote", ev.voter, "vote_locked", at=ev.at, source=ev.source, rule="VIL-V-3")
            return st
        return super().on_unvote(st, ev, run)

    # ------------------------------------------------------------------ opening a round
    def open_round(self, st: GameState, run: RunContext, closes: datetime | None, *, round_: int,
                   candidates: tuple[str, ...] = ()) -> GameState:
        """Open a vote (round 1 or a re-vote): the Barkeeper first if he holds his token (VIL-V-3)."""
        lynch = st.x.lynch
        now = run.current_at
        bk = next((p.name for p in st.living() if barkeeper_holding(st, p.name)), None)
        if bk is not None and (self.vote_right_problem(st, bk) is not None or lynch.bk_out):
            bk = None  # silenced (or otherwise without a vote): the vote opens to all at once
        gate_open = True
        facts = []
        if bk is not None and self.options.barkeeper.first_vote == "window" and closes is not None:
            gate_open = False
            until = now + (closes - now) * self.options.time.barkeeper_window
            run.timer(until, "bk_window", st.phase.name if st.phase else "", day=lynch.day, round=round_)
        st = replace(st, votes=(), vote_round=round_, vote_candidates=candidates)
        st = self.set_lynch(st, stage="vote", round=round_, opens=now, closes=closes, barkeeper=bk,
                            gate_open=gate_open, bk_vote=None)
        if bk is not None and self.options.barkeeper.first_vote == "pm" and round_ == 1:  # VIL-A-27
            if lynch.pm_vote and st.is_alive(lynch.pm_vote):
                st = self.place_vote(st, VoteEvent(at=now, voter=bk, target=lynch.pm_vote, channel="gm"), run)
                st = self.set_lynch(st, bk_vote=lynch.pm_vote)
            else:
                st = self.set_lynch(st, bk_out=True)  # no PM: he does not vote today
        facts.append(Fact.of("vote_open", "VIL-D-04", round=round_, barkeeper=bk if not gate_open else "",
                             candidates=candidates, deadline=closes.isoformat() if closes else ""))
        return self.post(st, run, f"vote_open:D{lynch.day}:{round_}", "announce", facts=facts)

    def barkeeper_window_end(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.gate_open or lynch.stage != "vote" or timer.get("round") != lynch.round:
            return st
        st = self.set_lynch(st, gate_open=True, bk_out=True)  # VIL-V-3: he gives up his vote today
        return self.post(st, run, f"bk_missed:D{lynch.day}:{lynch.round}", "announce",
                         facts=(Fact.of("barkeeper_missed", "VIL-V-3", player=lynch.barkeeper),))

    # ------------------------------------------------------------------ tally (VIL-V-4)
    def vote_weight(self, st: GameState, rec: VoteRecord) -> tuple[float, str]:
        if rec.voter == st.x.sheriff and st.is_alive(rec.voter):
            return 2.0, "Sheriff x2"  # VIL-B-FARM
        return 1.0, ""

    def score_bonus(self, st: GameState) -> dict[str, tuple[float, str]]:
        """The poster's +2 (VIL-S-POSTER), even without votes; 0 on a Barkeeper holding his token."""
        x, holder = st.x, st.x.poster
        if holder is None or not st.is_alive(holder) or is_vagabond(st, holder) or barkeeper_holding(st, holder):
            return {}
        if self.options.scandalmonger.requires_alive and not (x.poster_by and st.is_alive(x.poster_by)):
            return {}
        if st.vote_candidates and holder not in st.vote_candidates:
            return {}
        if x.lynch is not None and holder in x.lynch.excluded:
            return {}
        return {holder: (float(self.options.scandalmonger.penalty), "poster")}

    # ------------------------------------------------------------------ closing a round (VIL-D-05)
    def resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.stage != "vote" or lynch.round != 1:
            return st
        return self.close_round(st, run)

    def close_round(self, st: GameState, run: RunContext) -> GameState:
        lynch = st.x.lynch
        t = self.tally(st, run.current_at, public=False)
        run.tallies.append(t)
        if not self.options.vote.allow_abstain:
            for name in t.not_voting:
                run.note("warning", pgettext("gm-note", "%(player)s has no valid vote at the close", player=name), rule="VIL-A-46")
        cands = [c for c in t.candidates if c.total > 0]
        if not cands:
            return self.finish_no_lynch(st, run, "no_votes")
        top = cands[0].total
        leaders = tuple(c.name for c in cands if c.total == top)
        if leaders == (NO_LYNCH,):
            return self.finish_no_lynch(st, run, "no_lynch_vote")
        leaders = tuple(n for n in leaders if n != NO_LYNCH) if len(leaders) > 1 else leaders
        if len(leaders) == 1:
            return self.designate(st, leaders[0], run)
        return self.tie(st, leaders, run)

    def tie(self, st: GameState, tied: tuple[str, ...], run: RunContext) -> GameState:
        """VIL-V-5 / VIL-A-44: Scapegoat, then Sheriff, then one re-vote, then no lynch."""
        lynch = st.x.lynch
        st = self.set_lynch(st, tied=tied)
        st = self.post(st, run, f"tie:D{lynch.day}:{lynch.round}", "announce",
                       facts=(Fact.of("tie", "VIL-V-5", players=tied, round=lynch.round),))
        if lynch.revote_between:  # the re-vote tied again (VIL-A-44)
            if self.options.vote.final_tie == "random":
                rng, st = self.rng(st, f"final_tie:D{lynch.day}")
                return self.designate(st, rng.choice(sorted(tied)), run)
            return self.finish_no_lynch(st, run, "tie")
        goat = next(iter(st.holders("scapegoat")), None)
        if goat is not None:
            return self.designate(st, goat, run, scapegoat=True)
        sheriff = st.x.sheriff
        if sheriff and st.is_alive(sheriff) and self.options.sheriff.breaks_ties and (
                sheriff not in st.x.silenced or self.options.sheriff.silenced_keeps_tiebreak):
            until = self.after(run, self.options.time.reaction_window)
            st = self.set_lynch(st, stage="sheriff")
            run.timer(until, "sheriff_choice", st.phase.name if st.phase else "", day=lynch.day)
            return self.post(st, run, f"sheriff_choice:D{lynch.day}", "announce",
                             facts=(Fact.of("sheriff_choice_requested", "VIL-V-5", sheriff=sheriff, players=tied,
                                            deadline=until.isoformat()),))
        return self.start_revote(st, tied, run)

    def start_revote(self, st: GameState, tied: tuple[str, ...], run: RunContext) -> GameState:
        lynch = st.x.lynch
        closes = self.after(run, self.options.time.revote_window)
        st = self.set_lynch(st, revote_between=tied)
        st = self.open_round(st, run, closes, round_=lynch.round + 1, candidates=tied)
        run.timer(closes, "revote_close", st.phase.name if st.phase else "", day=lynch.day, round=lynch.round + 1)
        return self.post(st, run, f"revote:D{lynch.day}:{lynch.round + 1}", "announce",
                         facts=(Fact.of("revote", "VIL-V-5", players=tied, deadline=closes.isoformat()),))

    def on_sheriff_choice(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.stage != "sheriff" or ev.actor != st.x.sheriff:
            self.refuse(run, ev, "no_window", "VIL-V-5", pgettext("gm-rejection", "no tie-break is asked of you"))
            return st
        if ev.target not in lynch.tied:
            self.refuse(run, ev, "not_candidate", "VIL-V-5", pgettext("gm-rejection", "%(target)s is not among the tied", target=ev.target))
            return st
        st = self.post(st, run, f"sheriff_chose:D{lynch.day}", "announce",
                       facts=(Fact.of("sheriff_choice", "VIL-V-5", sheriff=ev.actor, player=ev.target),))
        return self.designate(st, ev.target, run)

    # ------------------------------------------------------------------ designation (VIL-V-7, VIL-V-6)
    def barkeeper_vote_for(self, st: GameState, target: str) -> str | None:
        """The Barkeeper (token held) whose valid vote at the close names `target`."""
        for v in st.votes:
            if v.target == target and barkeeper_holding(st, v.voter):
                return v.voter
        return None

    def designate(self, st: GameState, who: str, run: RunContext, scapegoat: bool = False) -> GameState:
        lynch = st.x.lynch
        effects, facts = [], [Fact.of("designated", "VIL-D-05", player=who, scapegoat=scapegoat)]
        bk = self.barkeeper_vote_for(st, who)
        if bk is not None and self.options.barkeeper.token_loss == "designated":  # VIL-A-28
            effects.append(SetToken(building_of(st, bk).id, "lost"))
            facts.append(Fact.of("barkeeper_token_lost", "VIL-B-TAVERN", player=bk))
        st = self.set_lynch(st, designated=who, scapegoat=scapegoat)
        st = self.post(st, run, f"designate:D{lynch.day}:{lynch.round}", "designation", blocking=True,
                       effects=effects, facts=facts, summary=pgettext("gm-proposal", "%(who)s is designated", who=who))
        lord = self.holder_of(st, "manor")
        b = building_of(st, lord) if lord else None
        if lord and b.token == "ready" and not self.powers_lost_for(st, lord, building_power=True):
            until = self.after(run, self.options.time.lord_window)
            st = self.set_lynch(st, stage="lord", pleaded=False)
            run.timer(until, "lord_close", st.phase.name if st.phase else "", day=lynch.day, round=lynch.round)
            return self.post(st, run, f"lord_window:D{lynch.day}:{lynch.round}", "announce",
                             facts=(Fact.of("lord_window", "VIL-V-6", player=who, deadline=until.isoformat()),))
        return self.execute(st, run)

    def on_plead(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.stage != "lord" or ev.actor != lynch.designated:
            self.refuse(run, ev, "no_window", "VIL-B-MANOR", pgettext("gm-rejection", "only the condemned pleads, in the pardon window"))
            return st
        st = self.set_lynch(st, pleaded=True)
        return self.post(st, run, f"plea:D{lynch.day}:{lynch.round}", "announce",
                         facts=(Fact.of("plea", "VIL-B-MANOR", player=ev.actor),))

    def on_pardon(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        """VIL-B-MANOR: no reveal, no execution; by default nobody else is lynched (VIL-A-31)."""
        lynch = st.x.lynch
        b = building_of(st, ev.actor)
        if not self.building_power(st, ev.actor, "manor") or b.token != "ready":
            self.refuse(run, ev, "no_power", "VIL-B-MANOR", pgettext("gm-rejection", "only the Lord with his token pardons"))
            return st
        if lynch is None or lynch.stage != "lord" or ev.target != lynch.designated:
            self.refuse(run, ev, "no_window", "VIL-V-6", pgettext("gm-rejection", "nobody designated is waiting for a pardon"))
            return st
        if self.options.lord.requires_plea and not lynch.pleaded and ev.target != ev.actor:  # VIL-A-30
            self.refuse(run, ev, "no_plea", "VIL-A-30", pgettext("gm-rejection", "%(target)s has not pleaded", target=ev.target))
            return st
        effects = [SetToken(b.id, "spent")]
        facts = [Fact.of("pardoned", "VIL-B-MANOR", player=ev.target, lord=ev.actor)]
        if self.options.lord.cancels_day_lynch:
            st = self.set_lynch(st, stage="done", outcome="pardoned")
            effects += self.end_of_procedure_effects(st)
            facts.append(Fact.of("no_lynch", "VIL-A-31", reason="pardon"))
            st = self.post(st, run, f"lynch:D{lynch.day}", "lynch", blocking=True, effects=effects, facts=facts,
                           summary=pgettext("gm-proposal", "%(target)s pardoned; no lynch today", target=ev.target))
            return self.procedure_over(st, run)
        st = self.set_lynch(st, excluded=lynch.excluded + (ev.target,), designated=None, tied=(), revote_between=())
        st = self.post(st, run, f"pardon:D{lynch.day}:{lynch.round}", "pardon", blocking=True, effects=effects,
                       facts=facts, summary=pgettext("gm-proposal", "%(target)s pardoned; the vote is held again", target=ev.target))
        closes = self.after(run, self.options.time.revote_window)
        st = self.open_round(st, run, closes, round_=lynch.round + 1)
        run.timer(closes, "revote_close", st.phase.name if st.phase else "", day=lynch.day, round=lynch.round + 1)
        return st

    def lord_close(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.stage != "lord" or timer.get("round") != lynch.round:
            return st
        return self.execute(st, run)

    # ------------------------------------------------------------------ execution (VIL-D-07)
    def end_of_procedure_effects(self, st: GameState) -> list:
        """The poster lasts until the end of the lynch procedure (VIL-S-POSTER)."""
        return [SetPoster(None)] if st.x.poster else []

    def execute(self, st: GameState, run: RunContext) -> GameState:
        lynch = st.x.lynch
        who = lynch.designated
        effects = self.end_of_procedure_effects(st)
        bk = self.barkeeper_vote_for(st, who)
        facts = []
        if bk is not None and self.options.barkeeper.token_loss == "death" and st.role_of(who) != "idiot":
            effects.append(SetToken(building_of(st, bk).id, "lost"))
            facts.append(Fact.of("barkeeper_token_lost", "VIL-A-28", player=bk))
        if st.role_of(who) == "idiot" and who not in st.x.idiots_revealed and not lynch.scapegoat \
                and not self.powers_lost_for(st, who):  # VIL-R-IDIOT
            st = self.set_lynch(st, stage="done", outcome="idiot")
            effects.append(RevealIdiot(who))
            facts.append(Fact.of("idiot_revealed", "VIL-R-IDIOT", player=who, role="idiot"))
            st = self.post(st, run, f"lynch:D{lynch.day}", "lynch", blocking=True, effects=effects, facts=facts,
                           summary=pgettext("gm-proposal", "%(who)s is the Village Idiot and survives", who=who))
            return self.procedure_over(st, run)
        st = self.set_lynch(st, stage="done", outcome="lynched")
        reveal = self.options.announce.reveal_cards
        kill_effects, death_facts = self.death_effects(st, self.with_grief(st, {who: "lynch"}))
        facts = [Fact.of("lynched", "VIL-D-07", player=who, scapegoat=lynch.scapegoat)] + facts + death_facts
        st = self.post(st, run, f"lynch:D{lynch.day}", "lynch", blocking=True,
                       effects=tuple(kill_effects) + tuple(effects), facts=facts, summary=pgettext("gm-proposal", "lynch %(who)s", who=who))
        return self.procedure_over(st, run)

    def finish_no_lynch(self, st: GameState, run: RunContext, reason: str) -> GameState:
        lynch = st.x.lynch
        st = self.set_lynch(st, stage="done", outcome="no_lynch")
        st = self.post(st, run, f"lynch:D{lynch.day}", "lynch", blocking=True,
                       effects=self.end_of_procedure_effects(st),
                       facts=(Fact.of("no_lynch", "VIL-D-05", reason=reason),), summary=pgettext("gm-proposal", "no lynch"))
        return self.procedure_over(st, run)

    def procedure_over(self, st: GameState, run: RunContext) -> GameState:
        """After the execution or pardon: the Scapegoat's ruling expires."""
        lynch = st.x.lynch
        if st.x.ruling is not None and st.x.ruling_day <= lynch.day:
            st = st.with_x(ruling=None)
        return st

    def revote_close(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.stage != "vote" or timer.get("round") != lynch.round:
            return st
        return self.close_round(st, run)

    def sheriff_choice_timeout(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.stage != "sheriff":
            return st
        return self.start_revote(st, lynch.tied, run)
