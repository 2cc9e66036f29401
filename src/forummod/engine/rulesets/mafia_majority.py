"""`mafia-majority`: the classic English forum Mafia (MafiaScum style).

Day first. A majority of the living on one candidate ends the day at once ("hammer"); a
majority on "no lynch" ends it with nobody lynched. At the deadline the plurality leader is
lynched, and a tie means no lynch (options change both). Night: the mafia's factional kill,
the doctor's protection, the cop's check. Town wins when no mafia is left; mafia wins at
parity. This is also the smallest complete example of a ruleset for the engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from forummod.engine.events import ActionEvent, VoteEvent
from forummod.engine.ruleset import RoleSpec, Ruleset, RunContext, Timing
from forummod.engine.types import Fact, GameState, Kill, Outcome, Phase, PhaseId, PrivateResult, Proposal
from forummod.model import NO_LYNCH
from forummod.records import frozen
from forummod.schema import setting
from forummod.i18n import pgettext, phase_label


@frozen
class MafiaOptions:
    """The [games.<id>.options] a mafia-majority game accepts."""

    no_lynch: bool = setting(True, "players may vote 'no lynch'")
    deadline: Literal["plurality", "no_lynch"] = setting("plurality", "at the deadline without majority: lynch the plurality leader, or nobody")
    tie: Literal["no_lynch", "first_to_reach", "random"] = setting("no_lynch", "tie at the deadline: nobody, the candidate who reached the top count first, or a seeded random pick")
    reveal_roles: bool = setting(True, "reveal a dead player's role")
    doctor_self: bool = setting(False, "the doctor may protect themself")
    first_phase: Literal["day", "night"] = setting("day", "the game opens with day 1 (MafiaScum) or night 1")
    hammer_ends_day: bool = setting(True, "a majority (hammer) ends the day at the hammer post and the night starts there; false: the vote closes at the hammer but the day runs to its deadline")


@frozen
class MafiaX:
    """Mafia-majority's own part of the game state."""

    hammered: frozenset[str] = frozenset()  # days ended early by a majority


class MafiaMajority(Ruleset):
    name = "mafia-majority"
    factional_actions = frozenset({"kill"})  # the mafia's kill is one choice (queue_action)
    title = "Mafia (majority lynch)"
    language = "en"
    Options = MafiaOptions
    has_no_lynch = True
    TIMING = Timing(first_phase="day", vote_close="72h", day_end="72h", action_deadline="24h", night_end="24h")
    ROLES = {
        "town": RoleSpec("town", "town"),
        "cop": RoleSpec("cop", "town", unique=True),
        "doctor": RoleSpec("doctor", "town", unique=True),
        "mafia": RoleSpec("mafia", "mafia"),
    }
    NIGHT_ORDER = ("protect", "kill", "check")
    FACTS = {
        "lynched": "player: lynched (role revealed in the death list)",
        "no_lynch": "reason: no_votes | tie | majority_no_lynch | deadline_no_majority",
        "hammer": "player, votes: a majority was reached and the day ends now",
        "death": "player, cause: a death announced at dawn",
        "nobody_died": "nobody died in the night",
        "cop_result": "target, verdict (guilty | not_guilty): private to the cop",
        "game_over": "result, winners",
    }

    def __init__(self, options=None):
        super().__init__(options)
        self.has_no_lynch = self.options.no_lynch

    @classmethod
    def default_timing(cls, options) -> Timing:
        return replace(cls.TIMING, first_phase=getattr(options, "first_phase", "day"))

    def initial_x(self, st, setup):
        return MafiaX()

    # ---- day
    def majority(self, st: GameState) -> int:
        return len(st.living()) // 2 + 1

    def after_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        # only the wagon that just grew can have reached majority (every vote weighs 1)
        need = self.majority(st)
        if st.phase is None or sum(1 for v in st.votes if v.target == ev.target) < need:
            return st
        t = self.tally(st, ev.at)
        top = t.candidates[0] if t.candidates else None
        if top is None or top.total < need:
            return st
        phase = st.phase
        st = replace(st, closed=st.closed | {f"votes:{phase.name}"}).with_x(hammered=st.x.hammered | {phase.name})
        run.tallies.append(t)
        run.note("hammer", pgettext("gm-note", "majority (%(need)s) reached on %(player)s", need=need, player=top.name), source=ev.source)
        if self.options.hammer_ends_day:
            post = int(ev.seq) if float(ev.seq).is_integer() and ev.seq < 1e12 and ev.channel == "thread" else None
            run.end_phase(phase, ev.at, post)
        if top.name == NO_LYNCH:
            return self.propose_no_lynch(st, phase, run, reason="majority_no_lynch")
        st = self.propose_lynch(st, phase, (top.name,), run)
        prop = st.proposal(f"lynch:{phase.name}")
        return st.put_proposal(replace(prop, facts=(Fact.of("hammer", player=top.name, votes=int(top.total)),)
                                       + prop.facts))

    def resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if phase.name in st.x.hammered:
            return st
        t = self.tally(st, phase.votes_close_at())
        run.tallies.append(t)
        top = [c for c in t.candidates if t.candidates and c.total == t.candidates[0].total and c.total > 0]
        if not top:
            return self.propose_no_lynch(st, phase, run, reason="no_votes")
        if self.options.deadline == "no_lynch":
            return self.propose_no_lynch(st, phase, run, reason="deadline_no_majority")
        if len(top) > 1:
            if self.options.tie == "no_lynch":
                return self.propose_no_lynch(st, phase, run, reason="tie")
            if self.options.tie == "random":
                rng, st = self.rng(st, f"tie:{phase.name}")
                pick = rng.choice(sorted(c.name for c in top))
                top = [c for c in top if c.name == pick]
        if top[0].name == NO_LYNCH:
            return self.propose_no_lynch(st, phase, run, reason="plurality_no_lynch")
        return self.propose_lynch(st, phase, (top[0].name,), run)

    def reveal_on_death(self, st, player, cause) -> bool:
        return self.options.reveal_roles

    # ---- night
    def action_problem(self, st: GameState, ev: ActionEvent, night: PhaseId | None):
        t = ev.target
        if t is not None and not st.is_alive(t):
            return ("dead_target", None, pgettext("gm-rejection", "%(player)s is dead", player=t))
        if ev.action == "kill" and t is not None and st.role_of(t) == "mafia":
            return ("own_faction", None, pgettext("gm-rejection", "the mafia cannot kill a mafia member"))
        if ev.action == "protect" and t == ev.actor and not self.options.doctor_self:
            return ("self_target", None, pgettext("gm-rejection", "the doctor may not protect themself"))
        if ev.action == "check" and t == ev.actor:
            return ("self_target", None, pgettext("gm-rejection", "the cop may not check themself"))
        return None

    def action_slot(self, ev: ActionEvent) -> str:
        return "faction_kill" if ev.action == "kill" else ev.action

    def queue_action(self, st, ev, night, run):
        # the mafia kill is one factional choice: a later kill PM from any member replaces it
        if ev.action == "kill":
            st = replace(st, actions=tuple(a for a in st.actions
                                           if not (a.action == "kill" and a.arg("_night") == str(night))))
        return super().queue_action(st, ev, night, run)

    def resolve_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        acts = self.actions_for(st, phase.id)
        st = self.drop_actions(st, phase.id)
        living = set(st.living_names())
        valid = list(acts)  # an actor killed tonight still acts: deaths apply at dawn
        kill = next((a for a in reversed(valid) if a.action == "kill"), None)
        protect = next((a for a in reversed(valid) if a.action == "protect"), None)
        checks = [a for a in valid if a.action == "check"]
        effects, facts, private = [], [], []
        if kill is not None and kill.target in living:
            if protect is not None and protect.target == kill.target:
                run.note("saved", pgettext("gm-note", "%(target)s was protected", target=kill.target))
            else:
                effects.append(Kill(kill.target, "night_kill", reveal=self.options.reveal_roles))
                facts.append(Fact.of("death", player=kill.target, cause="night_kill"))
        if not effects:
            facts.append(Fact.of("nobody_died"))
        for c in checks:
            verdict = "guilty" if st.role_of(c.target) == "mafia" else "not_guilty"
            private.append(PrivateResult(c.actor, Fact.of("cop_result", target=c.target, verdict=verdict)))
        prop = Proposal(key=f"night:{phase.name}", kind="night", phase=phase.name,
                        created_at=run.current_at or phase.start, effects=tuple(effects), facts=tuple(facts),
                        private=tuple(private),
                        summary=pgettext("gm-proposal", "kill %(target)s", target=kill.target) if effects
                        else pgettext("gm-proposal", "nobody dies"))
        run.note("proposal", pgettext("gm-note", "night %(phase)s: %(summary)s", phase=phase_label(phase.name), summary=prop.summary))
        return st.put_proposal(prop)

    # ---- wins
    def check_win(self, st: GameState) -> Outcome | None:
        mafia = [p for p in st.living() if p.role == "mafia"]
        town = [p for p in st.living() if p.role != "mafia"]
        if not mafia:
            return Outcome("town", tuple(p.name for p in st.players if p.role != "mafia"), "all mafia are dead")
        if len(mafia) >= len(town):
            return Outcome("mafia", tuple(p.name for p in st.players if p.role == "mafia"),
                           "the mafia reached parity")
        return None
