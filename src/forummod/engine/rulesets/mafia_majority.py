"""`mafia-majority`: the classic English forum Mafia (MafiaScum style).

Day first. A majority of the living on one candidate ends the day at once ("hammer"); a
majority on "no lynch" ends it with nobody lynched. At the deadline the plurality leader is
lynched, and a tie means no lynch (options change each: `majority = "none"` for days decided
only at the deadline, TeamLiquid-style; `deadline = "half_majority"` for MafiaScum's "majority
is cut in half at deadline"; `no_lynch_needs = "half"`). A seat may weigh more than one vote
(`players[].votes`, a double voter): its vote adds that many to a wagon, while the majority
stays counted in players (half the living, plus one). Night: the mafia's factional kill, the
doctor's protection, the cop's check. Town wins when no mafia is left; mafia wins at parity.
This is also the smallest complete example of a ruleset for the engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from forummod.engine.events import ActionEvent, Override, VoteEvent
from forummod.engine.ruleset import RoleSpec, Ruleset, RunContext, Setup, Timing
from forummod.engine.types import (
    Candidate, Fact, GameState, Kill, Outcome, Phase, PhaseId, PrivateResult, Proposal, VoteRecord,
)
from forummod.model import NO_LYNCH
from forummod.records import frozen
from forummod.schema import setting
from forummod.i18n import pgettext, phase_label


@frozen
class MafiaOptions:
    """The [games.<id>.options] a mafia-majority game accepts."""

    no_lynch: bool = setting(True, "players may vote 'no lynch'")
    deadline: Literal["plurality", "half_majority", "no_lynch"] = setting("plurality", "at the deadline without majority: lynch the plurality leader; 'half_majority': only a leader with at least half the majority, rounded up (MafiaScum), else nobody; 'no_lynch': nobody")
    tie: Literal["no_lynch", "first_to_reach", "random"] = setting("no_lynch", "tie at the deadline: nobody, the candidate who reached the top count first, or a seeded random pick")
    reveal_roles: bool = setting(True, "reveal a dead player's role")
    doctor_self: bool = setting(False, "the doctor may protect themself")
    first_phase: Literal["day", "night"] = setting("day", "the game opens with day 1 (MafiaScum) or night 1")
    hammer_ends_day: bool = setting(True, "a majority (hammer) ends the day at the hammer post and the night starts there; false: the vote closes at the hammer but the day runs to its deadline")
    majority: Literal["hammer", "none"] = setting("hammer", "'hammer': a majority of the living on one candidate closes the vote at once; 'none': no majority closes it, every vote until the deadline counts and the deadline decides (TeamLiquid)")
    no_lynch_needs: Literal["majority", "half"] = setting("majority", "votes on 'no lynch' that close the vote: a majority, like a lynch, or 'half': half the living rounded up (one less than a majority when the living are even)")
    public_weights: bool = setting(False, "the thread's vote count shows a seat's extra votes (players[].votes); false: it counts every vote once, as a secret double voter needs (the GM's count and the lynch always use them)")


@frozen
class MafiaX:
    """Mafia-majority's own part of the game state."""

    hammered: frozenset[str] = frozenset()  # days ended early by a majority
    votes: tuple[tuple[int, int], ...] = ()  # (seat, votes) of every seat whose vote is not 1

    def votes_of(self, seat: int) -> int:
        """How many votes a seat casts: a replacement keeps its seat's (the seat, not the name)."""
        return dict(self.votes).get(seat, 1)

    def with_votes_of(self, seat: int, n: int) -> "MafiaX":
        rest = tuple((s, v) for s, v in self.votes if s != seat)
        return replace(self, votes=tuple(sorted(rest + (((seat, n),) if n != 1 else ()))))


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
        "no_lynch": "reason: no_votes | tie | majority_no_lynch | half_no_lynch | deadline_no_majority | below_half_majority | plurality_no_lynch",
        "hammer": "player, votes: a majority was reached and the day ends now",
        "hammer_hidden": "player: the same, when a hidden extra vote is in the wagon (no number told)",
        "death": "player, cause: a death announced at dawn",
        "nobody_died": "nobody died in the night",
        "cop_result": "target, verdict (guilty | not_guilty): private to the cop",
        "game_over": "result, winners",
    }

    seat_votes = True  # players[].votes: a seat's vote may count more than once (a double voter)

    def __init__(self, options=None):
        super().__init__(options)
        self.has_no_lynch = self.options.no_lynch
        self.public_weights = self.options.public_weights  # a double voter is secret unless the GM says

    @classmethod
    def check_setup(cls, game, roles):
        opts = game.options if hasattr(game.options, "get") else {}
        if opts.get("majority") == "none" and opts.get("deadline") == "no_lynch":
            return ("options.deadline", "with majority = 'none' only the deadline decides a day: "
                                        "'no_lynch' there would never lynch anyone (use 'plurality' or 'half_majority')")
        return None

    @classmethod
    def default_timing(cls, options) -> Timing:
        return replace(cls.TIMING, first_phase=getattr(options, "first_phase", "day"))

    def initial_x(self, st: GameState, setup: Setup) -> MafiaX:
        x = MafiaX()
        for name, n in (setup.extra or {}).get("votes", {}).items():
            if st.has_player(name):
                x = x.with_votes_of(st.player(name).seat, int(n))
        return x

    # ---- votes and their weights
    def vote_weight(self, st: GameState, rec: VoteRecord) -> tuple[float, str]:
        n = st.x.votes_of(st.player(rec.voter).seat) if st.has_player(rec.voter) else 1
        return float(n), ""

    def may_vote(self, st: GameState, voter: str) -> bool:
        """A seat of `votes = 0` (a non-voter) casts no vote and is not listed as not voting."""
        return st.is_alive(voter) and st.x.votes_of(st.player(voter).seat) > 0

    def on_override(self, st: GameState, ev: Override, run: RunContext) -> GameState:
        """`set_votes`: the GM gives a seat its number of votes from now on (`value`)."""
        if ev.kind != "set_votes" or not st.has_player(ev.player) or not ev.value.strip().isdigit():
            return super().on_override(st, ev, run)
        n = int(ev.value)
        run.note("override", pgettext("gm-note", "GM votes of %(player)s: %(votes)s", player=ev.player, votes=n),
                 source=ev.source)
        return st.with_x(votes=st.x.with_votes_of(st.player(ev.player).seat, n).votes)

    # ---- day
    def living_majority(self, st: GameState) -> int:
        """More than half of the living players, counted in players whatever their weights."""
        return len(st.living()) // 2 + 1

    def majority(self, st: GameState) -> int | None:
        """What ends the day at once; None when only the deadline decides (`majority = "none"`)."""
        return self.living_majority(st) if self.options.majority == "hammer" else None

    def closing_count(self, st: GameState, target: str) -> int:
        """Votes on `target` that close the vote: the majority, or half the living for no lynch."""
        if target == NO_LYNCH and self.options.no_lynch_needs == "half":
            return (len(st.living()) + 1) // 2
        return self.living_majority(st)

    def wagon(self, st: GameState, target: str) -> float:
        return sum(self.vote_weight(st, v)[0] for v in st.votes if v.target == target)

    def after_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        # only the wagon that just grew can have reached its closing count
        if st.phase is None or self.options.majority == "none":
            return st
        need = self.closing_count(st, ev.target)
        if self.wagon(st, ev.target) < need:
            return st
        t = self.tally(st, ev.at)
        top = next((c for c in t.candidates if c.name == ev.target), None)
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
            reason = "half_no_lynch" if need < self.living_majority(st) else "majority_no_lynch"
            return self.propose_no_lynch(st, phase, run, reason=reason)
        st = self.propose_lynch(st, phase, (top.name,), run)
        prop = st.proposal(f"lynch:{phase.name}")
        return st.put_proposal(replace(prop, facts=(self.hammer_fact(st, top, ev.at),) + prop.facts))

    def hammer_fact(self, st: GameState, top: Candidate, at) -> Fact:
        """The day-end post's hammer line: with its number of votes, unless a hidden extra vote is
        in the wagon (the thread's count shows fewer votes: the number would tell the secret)."""
        if not self.public_weights:
            shown = next((c for c in self.tally(st, at, public=True).candidates if c.name == top.name), None)
            if shown is not None and shown.total != top.total:
                return Fact.of("hammer_hidden", player=top.name)
        return Fact.of("hammer", player=top.name, votes=int(top.total))

    def resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """The deadline: plurality (optionally only from half a majority), the tie rule, or nobody."""
        if phase.name in st.x.hammered:
            return st
        t = self.tally(st, phase.votes_close_at())
        run.tallies.append(t)
        top = [c for c in t.candidates if t.candidates and c.total == t.candidates[0].total and c.total > 0]
        if not top:
            return self.propose_no_lynch(st, phase, run, reason="no_votes")
        if self.options.deadline == "no_lynch":
            return self.propose_no_lynch(st, phase, run, reason="deadline_no_majority")
        if self.options.deadline == "half_majority" and top[0].total < self.half_majority(st):
            return self.propose_no_lynch(st, phase, run, reason="below_half_majority")
        return self.plurality(st, phase, top, run)

    def half_majority(self, st: GameState) -> int:
        """MafiaScum's deadline threshold: "majority is cut in half, rounded up" (8 alive: 5 -> 3)."""
        return (self.living_majority(st) + 1) // 2

    def plurality(self, st: GameState, phase: Phase, top: list[Candidate], run: RunContext) -> GameState:
        """The leader at the deadline, by the tie rule among equal leaders."""
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
