"""`lupus-eresia`: Italian forum Lupus with Heresy and Inquisition (seed "REGOLAMENTO [Loudo]").

Spec: ../shared/rules/lupus-eresia.md; rule ids (LUP-...) and decisions (D1-D20) are cited in
comments. Night first (roles by PM), then day 1, night 2, ... Days: one public vote per living
player; the Boia may replace it with a secret PM vote worth 3 on a wolf or a heretic; the tie
goes to the candidate whose decisive vote came first. Nights (22:15-22:30 by default, actions
may be sent during the day before): Postino, Veggente, Inquisitore, Guardie Gemelle, Lupi, in
that order. Deaths trigger the Templare's designation; the Martire's death by the wolves
blocks the next kill. Three factions can win: the Pack, Heresy, Inquisition (Contadini win with
either; the Martire with whoever wins if the wolves ate it).

Default schedule (local time of the game): 22:00 vote close, 22:15 day end, 22:30 action
deadline and the night's end (D20: the night after a day ends at LUP-T3 of the same evening, and
night 1 at the first LUP-T3 after the GM's opening post; the next day starts there and runs to
22:15 of the next evening, LUP-T4). A longer night is the GM's option: the config's
`[schedule] night_end` (e.g. "09:00": the dawn the next morning; actions stay due at LUP-T3) or
`action_deadline` with it (e.g. both "24h15m": until LUP-T3 of the next day).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Literal, Mapping

from forummod.engine.events import RANK_INPUT, ActionEvent, PhaseStart, Timer, UnvoteEvent, VoteEvent
from forummod.engine.ruleset import GmNote, Requirement, RoleSpec, Ruleset, RunContext, Timing
from forummod.engine.types import (
    Candidate, Fact, GameState, Kill, Outcome, Phase, PhaseId, PrivateResult, Proposal, Tally, VoteRecord,
)
from forummod.model import Source
from forummod.records import frozen
from forummod.schema import setting
from forummod.i18n import code_text, join_names, pgettext, phase_label

# seen as (what the Veggente learns), counts as (pack parity), factions (LUP-F1)
INNOCENTE, LOSCO = "INNOCENTE", "LOSCO"
UMANO, LUPO = "UMANO", "LUPO"
ERESIA, INQUISIZIONE, VILLAGGIO = "VILLAGGIO/ERESIA", "VILLAGGIO/INQUISIZIONE", "VILLAGGIO"
BRANCO, SOLITARIO = "BRANCO", "SOLITARIO"
ERETICO, NON_ERETICO = "ERETICO", "NON ERETICO"

WOLF_ROLES = ("werewolf", "grumpy_wolf")
#: Timeline rank of this ruleset's own "after the inputs of the same instant" events (D18 option).
RANK_AFTER_INPUT = RANK_INPUT + 1


@frozen
class LupusOptions:
    first_phase: Literal["night", "day"] = setting("night", "D1: the game opens with night 1 (roles by PM; no kill, no protection) or with day 1")
    wolves_disagree: Literal["last_pm", "no_kill"] = setting("last_pm", "D2: wolves naming different victims: the last kill PM before 22:30 counts, or nobody is killed")
    reveal_roles: bool = setting(True, "D5: death announcements reveal the dead player's role and faction")
    show_real_totals: bool = setting(False, "D11: thread vote counts show the real tally (Boia's secret vote, x3): exposes the Boia")
    secret_withdrawal: Literal["restores_public", "abstains"] = setting("restores_public", "D12: after 'ritiro il voto segreto' the Boia's public vote counts again, or stays void for the day")
    delivery_names_target: bool = setting(True, "D13: the Postino's recipient learns the checked player and the verdict (false: the verdict only)")
    seer_told_when_redirected: bool = setting(False, "D13: the Veggente gets a 'nessun responso' PM when the Postino sent its result elsewhere")
    twin_visitors: Literal["both", "senders"] = setting("both", "D14: Twins protecting the Lupo Scorbutico visit it both, or only the twin(s) whose PM named it")
    eaten_farmer_wins: bool = setting(True, "D15: a Contadino Semplice killed by the wolves still wins with Heresy or Inquisition")
    deadline_stamp_counts: bool = setting(False, "D18: a vote or PM stamped exactly at a deadline (e.g. shown as 22:00) still counts")
    wolf_victim_allowed: bool = setting(False, "D19: the wolves may choose a wolf (the Lupo Scorbutico included) as victim")


@frozen
class Designation:
    """One Templare PM naming who dies with it (LUP-R8); every one is kept."""

    templar: str
    target: str
    at: datetime
    order: int
    source: Source | None = None


@frozen
class LupusX:
    secret_votes: tuple[VoteRecord, ...] = ()  # LUP-R7: standing secret votes of today (PM time)
    secret_sent: frozenset[str] = frozenset()  # D12 option "abstains": Boias whose public vote is void today
    designations: tuple[Designation, ...] = ()  # LUP-R8: all Templare designations, in arrival order
    protected: tuple[tuple[str, str], ...] = ()  # LUP-R4: (night, player) protection in force
    no_kill_nights: frozenset[str] = frozenset()  # LUP-R11/D7: nights the Martire's death blocks
    last_wolf_told: frozenset[str] = frozenset()  # LUP-R10: Scorbutici told they are the last wolf
    triggered: frozenset[str] = frozenset()  # LUP-R8: Templari whose death trigger has resolved
    postponed_starts: frozenset[str] = frozenset()  # D18 option: phase starts moved after same-instant input
    night_first: bool = True  # D1: numbering of the night after a day


@dataclass
class _Night:
    """Working record of one night's resolution, filled step by step in NIGHT_ORDER."""

    phase: Phase
    acts: list[ActionEvent]
    delivery: ActionEvent | None = None
    protect: ActionEvent | None = None
    victim: str | None = None
    private: list[PrivateResult] = field(default_factory=list)
    visitors: dict[str, set[str]] = field(default_factory=dict)

    def last(self, action: str) -> ActionEvent | None:
        """The last valid PM of this kind (D2, D3: the later PM counts)."""
        found = [a for a in self.acts if a.action == action]
        return found[-1] if found else None

    def visit(self, target: str, *visitors: str) -> None:
        self.visitors.setdefault(target, set()).update(visitors)


class LupusEresia(Ruleset):
    public_weights = False  # LUP-D11: the thread never sees the Boia x3
    factional_actions = frozenset({"kill"})  # LUP-R9, D2: the wolves' last kill PM counts
    name = "lupus-eresia"
    title = "Lupus in Tabula: Eresia e Inquisizione"
    language = "it"
    Options = LupusOptions
    has_no_lynch = False
    vote_rule = "LUP-V1"
    late_vote_rule = "LUP-T1"  # votes at or after 22:00 do not count (D18)
    late_action_rule = "LUP-T3"  # actions at or after 22:30 are late (D17, D18)
    # LUP-T1 vote close, LUP-T2 day end, LUP-T3 action deadline and, by D20, the night's end
    TIMING = Timing(first_phase="night", vote_close="22:00", day_end="22:15", action_deadline="22:30",
                    night_end="22:30")
    ROLES = {  # LUP-R1..R11 (LUP-F1 factions)
        "seer": RoleSpec("seer", ERESIA, INNOCENTE, UMANO, "LUP-R1", unique=True),
        "postman": RoleSpec("postman", ERESIA, INNOCENTE, UMANO, "LUP-R2", unique=True),
        "gravedigger": RoleSpec("gravedigger", ERESIA, INNOCENTE, UMANO, "LUP-R3"),
        "twin_guard": RoleSpec("twin_guard", ERESIA, INNOCENTE, UMANO, "LUP-R4"),
        "farmer": RoleSpec("farmer", VILLAGGIO, INNOCENTE, UMANO, "LUP-R5"),
        "inquisitor": RoleSpec("inquisitor", INQUISIZIONE, INNOCENTE, UMANO, "LUP-R6", unique=True),
        "executioner": RoleSpec("executioner", INQUISIZIONE, LOSCO, UMANO, "LUP-R7", unique=True),
        "templar": RoleSpec("templar", INQUISIZIONE, INNOCENTE, UMANO, "LUP-R8", unique=True),
        "werewolf": RoleSpec("werewolf", BRANCO, LOSCO, LUPO, "LUP-R9"),
        "grumpy_wolf": RoleSpec("grumpy_wolf", BRANCO, LOSCO, LUPO, "LUP-R10", unique=True),
        "martyr": RoleSpec("martyr", SOLITARIO, INNOCENTE, UMANO, "LUP-R11", unique=True),
    }
    #: LUP-S2: the seed's 19-player setup; other counts come from the config.
    DEFAULT_SETUP: Mapping[str, int] = {
        "seer": 1, "postman": 1, "gravedigger": 1, "twin_guard": 2, "farmer": 6, "inquisitor": 1,
        "executioner": 1, "templar": 1, "werewolf": 3, "grumpy_wolf": 1, "martyr": 1,
    }
    #: LUP-G1, LUP-G6, LUP-G7: what the setup post states; the tool has nothing to check for these.
    SETUP_INFO: Mapping[str, Any] = {
        "difficulty": "media",  # LUP-G7
        "taverns": False,  # LUP-G6: no Locande
        "private_channels": (("werewolf",), ("twin_guard",)),  # LUP-G1: who may talk privately
        "vote_motivation_required": False,  # LUP-G5
        "abstention_allowed": True,  # LUP-G4
    }
    NIGHT_ORDER = (
        "deliver",  # LUP-N1 Postino chooses the recipient
        "seer",  # LUP-N2 Veggente checks; result delivered per LUP-R2
        "inquisitor",  # LUP-N3 Inquisitore checks
        "protect",  # LUP-N4 Guardie Gemelle protect
        "kill",  # LUP-N5 Lupi Mannari kill (not on night 1, not after the Martire's death)
    )  # LUP-N6 dawn: `_dawn`
    FACTS = {
        "lynched": "player, role, faction (role and faction only when revealed, D5): the rogo's victim",
        "no_lynch": "reason (no_votes): nobody is lynched (LUP-V5)",
        "death": "player, cause (wolves | templar | gm | modkill), role, faction (when revealed): a death announced in the dawn or lynch post",
        "nobody_died": "nobody died in the night (also when the Twins saved the victim, D8)",
        "seer_result": "target, verdict (INNOCENTE | LOSCO): private, the Veggente's result in its usual wording",
        "delivered_result": "target (absent with delivery_names_target = false), verdict (INNOCENTE | LOSCO): private, the Veggente's result delivered by the Postino (D13)",
        "no_result": "private to the Veggente: 'nessun responso' (only with seer_told_when_redirected, D13)",
        "inquisitor_result": "target, verdict (ERETICO | NON ERETICO): private to the Inquisitore",
        "visitors": "players (tuple of names, empty = 'nessuno'): private to the Lupo Scorbutico at dawn (LUP-R10, D14)",
        "last_wolf": "private to the Lupo Scorbutico: it is the last wolf and kills from the next night (LUP-R10)",
        "role": "role, faction, seen_as, counts_as, allies (names it knows: pack mates, the other twin, or the Boia/Templare pair), grumpy (wolves: the Lupo Scorbutico's name): the role PM of night 1 (LUP-S3)",
        "game_over": "result (pack | heresy | inquisition), winners (all winning players, dead included, LUP-W7)",
    }

    @classmethod
    def default_timing(cls, options: Any) -> Timing:
        return replace(cls.TIMING, first_phase=getattr(options, "first_phase", "night"))  # D1

    def initial_x(self, st: GameState, setup: Any) -> LupusX:
        return LupusX()

    # ------------------------------------------------------------------ role table helpers
    def _spec(self, st: GameState, name: str) -> RoleSpec | None:
        return self.ROLES.get(st.role_of(name))

    def counts_as(self, st: GameState, name: str) -> str:
        spec = self._spec(st, name)
        return spec.counts_as if spec else UMANO

    def seen_as(self, st: GameState, name: str) -> str:
        spec = self._spec(st, name)
        return spec.seen_as if spec else INNOCENTE

    def is_wolf(self, st: GameState, name: str) -> bool:
        return self.counts_as(st, name) == LUPO

    def is_heretic(self, st: GameState, name: str) -> bool:
        return self.faction_of(st, name) == ERESIA

    def living_wolves(self, st: GameState) -> tuple[str, ...]:
        return tuple(p.name for p in st.living() if self.is_wolf(st, p.name))

    def pack_killers(self, st: GameState) -> tuple[str, ...]:
        """Wolves entitled to send the kill: the Lupi Mannari, or the Scorbutico once alone (LUP-R9, R10)."""
        wolves = self.living_wolves(st)
        regular = tuple(w for w in wolves if st.role_of(w) != "grumpy_wolf")
        return regular or wolves

    # ------------------------------------------------------------------ knowledge (role PMs, cemetery)
    def role_pms(self, st: GameState) -> tuple[PrivateResult, ...]:
        """The role PM of each player (LUP-S3), with what the role knows (LUP-R4, R6, R9, R10)."""
        out = []
        for p in st.players:
            spec = self._spec(st, p.name)
            allies: tuple[str, ...] = ()
            grumpy: tuple[str, ...] = ()
            if p.role == "werewolf":  # LUP-R9: the pack knows each other and the Scorbutico
                allies = tuple(q.name for q in st.players if q.role == "werewolf" and q.name != p.name)
                grumpy = st.holders("grumpy_wolf", alive_only=False)
            elif p.role == "twin_guard":  # LUP-R4
                allies = tuple(q.name for q in st.players if q.role == "twin_guard" and q.name != p.name)
            elif p.role == "inquisitor":  # LUP-R6: the pair, not which is which
                allies = tuple(sorted(st.holders("executioner", "templar", alive_only=False)))
            params = dict(role=p.role, faction=spec.faction if spec else "", seen_as=spec.seen_as if spec else "",
                          counts_as=spec.counts_as if spec else "", allies=allies)
            if p.role == "werewolf":
                params["grumpy"] = grumpy
            out.append(PrivateResult(p.name, Fact.of("role", spec.rule if spec else None, **params)))
        return tuple(out)

    def role_pm_facts(self, st: GameState, player: str) -> tuple[Fact, ...]:
        """The `role` fact of `role_pms` for this player: its drafted role PM says what the role
        knows (LUP-R9: a Lupo Mannaro learns the pack and which one is the Lupo Scorbutico;
        LUP-R10: the Scorbutico learns nobody; LUP-R4, R6: the twins, the Inquisitore's pair)."""
        return tuple(r.fact for r in self.role_pms(st) if r.to == player)

    def cemetery_readers(self, st: GameState) -> tuple[str, ...]:
        """Who may read the Cimitero: the dead and the living Becchino (LUP-S4, LUP-R3)."""
        return tuple(p.name for p in st.players if not p.alive or p.role == "gravedigger")

    def posting_violation(self, st: GameState, player: str, thread: str) -> str | None:
        """The rule a post breaks: a dead player in the game thread, a living one in the cemetery
        (LUP-G2), the living Becchino writing in the cemetery (LUP-G3). None when allowed."""
        if not st.has_player(player):
            return None
        alive = st.player(player).alive
        if thread == "game" and not alive:
            return "LUP-G2"
        if thread == "graveyard" and alive:
            return "LUP-G3" if st.role_of(player) == "gravedigger" else "LUP-G2"
        return None

    # ------------------------------------------------------------------ deadlines (D18)
    def _inclusive(self, phase: Phase | None, when: datetime | None) -> bool:
        """D18 option on for this deadline (never for a boundary pinned to a post number)."""
        if not self.options.deadline_stamp_counts or phase is None or when is None:
            return False
        return not (phase.end_post is not None and when == phase.end)

    def _in_time(self, at: datetime, when: datetime | None) -> bool:
        """LUP-T1/T3, D18 by time alone (PMs have no thread order): half-open, or closed with the option."""
        if when is None:
            return True
        return at <= when if self.options.deadline_stamp_counts else at < when

    def _late(self, phase: Phase, when: datetime | None, at: datetime) -> bool:
        """Only needed with the D18 option: without it the core closes the window at the boundary."""
        return self._inclusive(phase, when) and not self._in_time(at, when)

    def _after_input(self, run: RunContext, at: datetime, name: str, phase: Phase) -> None:
        """A timer sorted after every input stamped at `at` (the core sorts boundaries first).
        The phase travels in `data`: the core's "waiting" note reads `Timer.phase` as a Phase."""
        run.timers.append(Timer(at=at, rank=RANK_AFTER_INPUT, name=name, data=(("phase", phase.name),)))

    def on_phase_start(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if st.phase is None:
            st = st.with_x(night_first=phase.kind == "night")
        if self._postpone_start(st, phase, run):  # D18 option: input at the boundary belongs to the phase ending
            run.timers.append(PhaseStart(at=phase.start, rank=RANK_AFTER_INPUT, phase=phase))
            return st.with_x(postponed_starts=st.x.postponed_starts | {phase.name})
        st = super().on_phase_start(st, phase, run)
        if phase.kind == "day":
            st = st.with_x(secret_votes=(), secret_sent=frozenset())
        return st

    def _postpone_start(self, st: GameState, phase: Phase, run: RunContext) -> bool:
        if not self.options.deadline_stamp_counts or phase.start_post is not None \
                or phase.name in st.x.postponed_starts:
            return False
        return any(p.end == phase.start and p.end_post is None and p.id != phase.id for p in run.phases)

    def on_vote_close(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if self._inclusive(phase, phase.votes_close_at()):
            self._after_input(run, phase.votes_close_at(), "votes_close", phase)
            return st
        return super().on_vote_close(st, phase, run)

    def on_action_deadline(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if self._inclusive(phase, phase.actions_due_at()):
            self._after_input(run, phase.actions_due_at(), "actions_due", phase)
            return st
        return super().on_action_deadline(st, phase, run)

    def on_timer(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        phase = run.phase_named(timer.get("phase", ""))
        if phase is None:
            return st
        if timer.name == "votes_close":
            return self._resolve_day(super().on_vote_close(st, phase, run), phase, run)
        if timer.name == "actions_due":
            return self._resolve_night(super().on_action_deadline(st, phase, run), phase, run)
        return st

    # ------------------------------------------------------------------ votes (LUP-V1, V2, R7)
    def vote_problem(self, st: GameState, ev: VoteEvent) -> tuple[str, str | None, str] | None:
        ph = st.phase
        if ph is not None and self._late(ph, ph.votes_close_at(), ev.at):  # LUP-V2, D18
            return ("late", "LUP-V2", pgettext("gm-rejection", "the rogo of %(phase)s closed", phase=phase_label(ph.name)))
        return None

    def on_unvote(self, st: GameState, ev: UnvoteEvent, run: RunContext) -> GameState:
        ph = st.phase
        if self.counts_channel(ev) and ph is not None and ph.kind == "day" \
                and self._late(ph, ph.votes_close_at(), ev.at):
            run.reject("unvote", ev.voter, "late", at=ev.at, source=ev.source, rule="LUP-V2")
            return st
        return super().on_unvote(st, ev, run)

    def on_day_action(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        if ev.action not in ("secret_vote", "withdraw_secret_vote"):
            return super().on_day_action(st, ev, run)
        problem = self._secret_vote_problem(st, ev)
        if problem is not None:  # never public: it would expose the Boia (D11)
            code, rule, msg = problem
            run.reject(ev.action, ev.actor, code, at=ev.at, source=ev.source, target=ev.target,
                       rule=rule or "LUP-R7", message=msg, public=False)
            return st
        x = st.x
        if ev.action == "withdraw_secret_vote":  # D12
            run.note("accepted", pgettext("gm-note", "%(actor)s withdraws the secret vote", actor=ev.actor), source=ev.source, rule="LUP-R7")
            return st.with_x(secret_votes=tuple(v for v in x.secret_votes if v.voter != ev.actor))
        old = next((v for v in x.secret_votes if v.voter == ev.actor), None)
        if old is not None and old.target == ev.target:  # D10: repeating keeps the earlier vote
            return st
        rec = VoteRecord(voter=ev.actor, target=ev.target or "", at=ev.at, source=ev.source or Source("gm"),
                         order=run.event_index, note="secret", secret=True)
        run.note("accepted", pgettext("gm-note", "%(actor)s secretly votes %(target)s", actor=ev.actor, target=ev.target), source=ev.source, rule="LUP-R7")
        return st.with_x(secret_votes=tuple(v for v in x.secret_votes if v.voter != ev.actor) + (rec,),
                         secret_sent=x.secret_sent | {ev.actor})

    def _secret_vote_problem(self, st: GameState, ev: ActionEvent) -> tuple[str, str | None, str] | None:
        ph = st.phase
        if st.outcome is not None:
            return ("game_over", None, pgettext("gm-rejection", "the game is over"))
        if ph is None or ph.kind != "day":
            return ("no_vote_now", "LUP-R7", pgettext("gm-rejection", "the secret vote is cast during the day"))
        if not self.voting_open(st) or self._late(ph, ph.votes_close_at(), ev.at):
            return ("late", "LUP-R7", pgettext("gm-rejection", "the rogo of %(phase)s closed", phase=phase_label(ph.name)))  # LUP-R7: until LUP-T1
        generic = self._generic_action_problem(st, ev, self.actions[ev.action], None)
        if generic is not None:
            return generic
        if ev.action == "withdraw_secret_vote":
            if not any(v.voter == ev.actor for v in st.x.secret_votes):
                return ("no_secret_vote", "D12", pgettext("gm-rejection", "%(actor)s has no secret vote to withdraw", actor=ev.actor))
            return None
        if not st.is_alive(ev.target or ""):
            return ("dead_target", "LUP-V1", pgettext("gm-rejection", "%(target)s is dead", target=ev.target))
        return None

    def standing_votes(self, st: GameState, public: bool) -> tuple[VoteRecord, ...]:
        """Public (D11): the thread's votes as posted, the Boia's void one included. GM view: the
        Boia's secret vote replaces its public one (LUP-R7), timed at the public vote (D10)."""
        if public:
            return st.votes
        secret = {v.voter: v for v in st.x.secret_votes}
        void = set(secret)
        if self.options.secret_withdrawal == "abstains":  # D12 option
            void |= st.x.secret_sent
        out = [v for v in st.votes if v.voter not in void]
        for voter, rec in secret.items():
            public_vote = next((v for v in st.votes if v.voter == voter), None)
            if public_vote is not None:  # LUP-R7 FAQ: counts as cast at its public vote's time
                rec = replace(rec, at=public_vote.at, order=public_vote.order)
            out.append(rec)
        return tuple(out)

    def vote_weight(self, st: GameState, rec: VoteRecord) -> tuple[float, str]:
        """LUP-R7: the Boia's real vote weighs 3 on a wolf (counts LUPO) or a heretic."""
        if st.role_of(rec.voter) == "executioner" and st.has_player(rec.target) \
                and (self.is_wolf(st, rec.target) or self.is_heretic(st, rec.target)):
            return 3.0, ", ".join(n for n in ("Boia x3", rec.note) if n)
        return 1.0, rec.note

    def _pm_only(self, st: GameState, rec: VoteRecord) -> bool:
        return rec.secret and not any(v.voter == rec.voter for v in st.votes)

    def vote_time_key(self, st: GameState, rec: VoteRecord) -> tuple[int, float, int]:
        """When a vote counts as cast (D10): its time, then thread order; a PM-only Boia vote last."""
        return (1 if self._pm_only(st, rec) else 0, rec.at.timestamp(), rec.order)

    def decisive_key(self, st: GameState, cand: Candidate) -> tuple:
        """LUP-V4: the candidate's decisive vote is its latest standing vote; earliest wins the tie."""
        if not cand.voters:
            return (2, 0.0, 0)
        return max(self.vote_time_key(st, r) for r in cand.voters)

    def tally(self, st: GameState, at: datetime | None, public: bool = False) -> Tally:
        if public and self.options.show_real_totals:  # D11 option: the real tally in the thread
            return replace(self.tally(st, at, public=False), public=True)
        t = super().tally(st, at, public)
        if public:
            return t  # LUP-V2, D11: public votes only, weight 1
        voting = {v.voter for v in self.standing_votes(st, public=False)}
        cands = tuple(replace(c, voters=tuple(sorted(c.voters, key=lambda r: self.vote_time_key(st, r))))
                      for c in t.candidates)
        return replace(t, candidates=cands,
                       not_voting=tuple(n for n in self.eligible_voters(st) if n not in voting))  # LUP-G4

    # ------------------------------------------------------------------ day resolution
    def resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if self._inclusive(phase, phase.votes_close_at()):
            return st  # D18 option: the "votes_close" timer resolves after same-instant votes
        return self._resolve_day(st, phase, run)

    def _resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        t = self.tally(st, phase.votes_close_at(), public=False)
        run.tallies.append(t)
        top = [c for c in t.candidates if c.total > 0 and c.total == t.candidates[0].total]
        if not top:  # LUP-V5, D16
            return self.propose_no_lynch(st, phase, run, rule="LUP-V5")
        if len(top) > 1:  # LUP-V4, D10: the tally is sorted by earliest decisive vote
            run.note("tie", pgettext("gm-note", "tie at %(total)g between %(names)s: %(player)s received the decisive vote first", total=top[0].total, names=join_names(c.name for c in top), player=top[0].name), rule="LUP-V4")
        victim = top[0].name  # LUP-V3
        deadline = phase.votes_close_at()
        deaths = [(victim, "lynch")] + [(h, "templar") for h in
                                        self._templar_victims(st, {victim}, deadline, run)]
        effects, facts = self._death_effects(st, deaths)
        prop = Proposal(key=f"lynch:{phase.name}", kind="lynch", phase=phase.name,
                        created_at=run.current_at or phase.start, effects=effects, facts=facts,
                        private=self._last_wolf_pm(st, {n for n, _ in deaths}),
                        summary=pgettext("gm-proposal", "lynch %(names)s", names=join_names(n for n, _cause in deaths)),
                        data=(("templar_resolved", (victim,) if st.role_of(victim) == "templar" else ()),))
        run.note("proposal", prop.summary, rule="LUP-V3")
        return st.put_proposal(prop)

    def _death_effects(self, st: GameState, deaths: list[tuple[str, str]]) -> tuple[tuple, tuple]:
        """Kill effects and their public facts; LUP-V6/D5: role and faction shown when revealed."""
        reveal = self.options.reveal_roles
        effects, facts = [], []
        for name, cause in deaths:
            effects.append(Kill(name, cause, reveal=reveal))
            shown = dict(role=st.role_of(name), faction=self.faction_of(st, name)) if reveal else {}
            if cause == "lynch":
                facts.append(Fact.of("lynched", "LUP-V6", player=name, **shown))
            else:
                facts.append(Fact.of("death", "LUP-N6", player=name, cause=cause, **shown))
        return tuple(effects), tuple(facts)

    # ------------------------------------------------------------------ triggers on death
    def _designation(self, st: GameState, templar: str, deadline: datetime | None) -> Designation | None:
        """LUP-R8: the latest designation received before the deadline that applies."""
        found = None
        for d in st.x.designations:
            if d.templar == templar and self._in_time(d.at, deadline):
                found = d
        return found

    def _templar_victims(self, st: GameState, dying: set[str], deadline: datetime | None,
                         run: RunContext) -> list[str]:
        """Heretics named by Templari among `dying` (LUP-R8, D9); nobody when the Templare is the
        last living inquisition member once these deaths apply."""
        out: list[str] = []
        for templar in sorted(dying):
            if st.role_of(templar) != "templar" or templar in st.x.triggered:
                continue
            others = [p for p in self.members(st, INQUISIZIONE, alive_only=True) if p not in dying]
            if not others:
                run.note("templar", pgettext("gm-note", "%(templar)s was the last inquisition member: no effect", templar=templar), rule="LUP-R8")
                continue
            d = self._designation(st, templar, deadline)
            if d is None:
                run.note("templar", pgettext("gm-note", "%(templar)s designated nobody in time", templar=templar), rule="LUP-R8")
                continue
            if d.target == templar or not st.is_alive(d.target) or d.target in dying or d.target in out:
                run.note("templar", pgettext("gm-note", "%(templar)s's designation of %(target)s has no effect", templar=templar, target=d.target), rule="LUP-R8")
                continue
            if not self.is_heretic(st, d.target):  # D9: nothing happens, nobody is told
                run.note("templar", pgettext("gm-note", "%(target)s is not a heretic: nothing happens", target=d.target), rule="D9")
                continue
            out.append(d.target)
        return out

    def _last_wolf_pm(self, st: GameState, dying: set[str]) -> tuple[PrivateResult, ...]:
        """LUP-R10: the Scorbutico is told, with the post that kills the last other wolf."""
        if not any(self.is_wolf(st, n) for n in dying):
            return ()
        left = [w for w in self.living_wolves(st) if w not in dying]
        if len(left) == 1 and st.role_of(left[0]) == "grumpy_wolf" and left[0] not in st.x.last_wolf_told:
            return (PrivateResult(left[0], Fact.of("last_wolf", "LUP-R10")),)
        return ()

    def kill(self, st: GameState, name: str, cause: str, phase: str, run: RunContext,
             reveal: bool = True) -> GameState:
        st = super().kill(st, name, cause, phase, run, reveal=reveal)
        return st.with_x(secret_votes=tuple(v for v in st.x.secret_votes if name not in (v.voter, v.target)))

    def after_proposal(self, st: GameState, prop: Proposal, killed: list[str], run: RunContext) -> GameState:
        """Consequences of deaths: the Martire's block (D7), Templare triggers the proposal did not
        carry (GM kills: LUP-W6), the last-wolf PM (LUP-R10)."""
        resolved = set(dict(prop.data).get("templar_resolved", ()))
        for name in killed:
            p = st.player(name)
            if p.role == "martyr" and p.death is not None and p.death.cause == "wolves":  # LUP-R11, D7
                blocked = self._night_after(st, prop.phase)
                st = st.with_x(no_kill_nights=st.x.no_kill_nights | {blocked})
                run.note("martyr", pgettext("gm-note", "the wolves ate the Martire: no kill on %(blocked)s", blocked=phase_label(blocked)), rule="LUP-R11")
        templars = [n for n in killed if st.role_of(n) == "templar" and n not in st.x.triggered]
        pending = [n for n in templars if n not in resolved]
        if pending:
            st = self._trigger_now(st, prop, pending, run)
        st = st.with_x(triggered=st.x.triggered | set(templars))
        for grumpy in st.holders("grumpy_wolf"):
            if grumpy in st.x.last_wolf_told or self.living_wolves(st) != (grumpy,):
                continue
            if not any(r.to == grumpy and r.fact.key == "last_wolf" for r in prop.private):
                run.private.append((prop.phase, PrivateResult(grumpy, Fact.of("last_wolf", "LUP-R10"))))
            st = st.with_x(last_wolf_told=st.x.last_wolf_told | {grumpy})
        return st

    def _trigger_now(self, st: GameState, prop: Proposal, templars: list[str], run: RunContext) -> GameState:
        """A Templare killed outside the tool's own lynch/dawn proposals (a GM kill or lynch)."""
        phase = run.phase_named(prop.phase)
        deadline = run.current_at
        if prop.kind == "lynch" and phase is not None and phase.kind == "day":
            deadline = phase.votes_close_at()  # LUP-R8: until LUP-T1 of the lynch day
        for heretic in self._templar_victims(st, set(templars), deadline, run):
            _, facts = self._death_effects(st, [(heretic, "templar")])
            st = self.kill(st, heretic, "templar", prop.phase, run, reveal=self.options.reveal_roles)
            run.facts.extend((prop.phase, f) for f in facts)
        return st

    def _night_after(self, st: GameState, phase_name: str) -> str:
        pid = PhaseId.parse(phase_name)
        if pid.kind == "night":
            return str(PhaseId(pid.number + 1, "night"))
        return str(self._next_night(st, pid))

    def _next_night(self, st: GameState, day: PhaseId) -> PhaseId:
        return PhaseId(day.number + (1 if st.x.night_first else 0), "night")

    # ------------------------------------------------------------------ night actions (D17)
    def action_phase(self, st: GameState, ev: ActionEvent, run: RunContext) -> PhaseId | None:
        ph = st.phase
        if ph is not None and ph.kind == "night" and self._inclusive(ph, ph.actions_due_at()):
            return None if self._late(ph, ph.actions_due_at(), ev.at) else ph.id  # D18 option
        return super().action_phase(st, ev, run)  # D17: during day N-1 for night N; late after LUP-T3

    def on_action(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        if ev.channel == "thread" and not ev.by_gm:  # LUP-S1: powers go to the GM by PM
            run.reject(ev.action, ev.actor, "not_by_pm", at=ev.at, source=ev.source, target=ev.target,
                       rule="LUP-S1", message=pgettext("gm-rejection", "powers are sent to the GM by private message"), public=False)
            return st
        if ev.action == "designate":
            return self._designate(st, ev, run)
        if self._before_dawn_post(st, ev, run):
            return self._reject_before_dawn_post(st, ev, run)
        return super().on_action(st, ev, run)

    def _before_dawn_post(self, st: GameState, ev: ActionEvent, run: RunContext) -> bool:
        """D17, D20: the night ends at LUP-T3 and the next night's window opens with the GM's
        post opening the day (its dawn post); a PM in between is late for the night that ended
        and is not carried to the next one (LUP-X22). A GM-entered action always counts."""
        ph = st.phase
        spec = self.actions.get(ev.action)
        if ph is None or ph.kind != "day" or ev.by_gm or spec is None or spec.when != "night":
            return False
        if run.night_before(ph) is None:
            return False  # the game's first day (D1 option): its window opens with the game
        opened = run.opening_post(ph)
        if opened is None:
            return True
        if ev.at.second == 0 and ev.at.microsecond == 0:
            # a PM stamped to the minute (the PM pages of phpBB, MyBB, SMF) was sent some time in
            # that minute: in the dawn post's own minute it is not known to be before it (D18's
            # half-open reading of a minute stamp), and a GM expects it to count
            opened = opened.replace(second=0, microsecond=0)
        return ev.at < opened

    def _reject_before_dawn_post(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        before = run.night_before(st.phase)
        run.action_nights[(ev.action, ev.actor, ev.source)] = before.name if before is not None else ""
        run.reject(ev.action, ev.actor, "late", at=ev.at, source=ev.source, target=ev.target, rule="D17",
                   message=pgettext("gm-rejection", "after the night's deadline and before your post opening "
                                    "%(day)s: it counts for no night", day=phase_label(st.phase.id)), public=False)
        return st

    def _designate(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        """LUP-R8: keep every designation; the one that applies is chosen at the Templare's death."""
        problem = self._generic_action_problem(st, ev, self.actions["designate"], None)
        if problem is not None:
            code, rule, msg = problem
            run.reject(ev.action, ev.actor, code, at=ev.at, source=ev.source, target=ev.target,
                       rule=rule or "LUP-R8", message=msg, public=False)
            return st
        d = Designation(ev.actor, ev.target or "", ev.at, run.event_index, ev.source)
        remark = pgettext("gm-note", " (no effect if applied: itself or a dead player)") \
            if d.target == ev.actor or not st.is_alive(d.target) else ""
        run.note("accepted", pgettext("gm-note", "%(actor)s designates %(target)s%(remark)s", actor=ev.actor, target=d.target, remark=remark), source=ev.source, rule="LUP-R8")
        return st.with_x(designations=st.x.designations + (d,))

    def action_problem(self, st: GameState, ev: ActionEvent, night: PhaseId | None
                       ) -> tuple[str, str | None, str] | None:
        return self._night_problem(st, ev, night) if night is not None else None

    def _night_problem(self, st: GameState, ev: ActionEvent, night: PhaseId) -> tuple[str, str | None, str] | None:
        """Validity of a night action against role, state and history; checked at receipt and
        again at the deadline (D4, D17). A GM-entered action overrides the target rules (D4)."""
        t = ev.target or ""
        if ev.action == "kill":
            if night.number < 2:  # LUP-R9, D1
                return ("not_yet", "LUP-R9", pgettext("gm-rejection", "the wolves kill from the second night"))
            if str(night) in st.x.no_kill_nights:  # LUP-R11, D7
                return ("martyr_block", "LUP-R11", pgettext("gm-rejection", "the Martire's death blocks the kill of %(night)s", night=phase_label(night)))
            if ev.actor not in self.pack_killers(st):  # LUP-R10, D2
                return ("not_entitled", "LUP-R10", pgettext("gm-rejection", "the Lupo Scorbutico kills only as the last wolf"))
        if ev.action == "protect":
            if night.number < 2:  # LUP-R4, D1
                return ("not_yet", "LUP-R4", pgettext("gm-rejection", "the Twins protect from the second night"))
            if any(not p.alive for p in st.players if p.role == "twin_guard"):  # LUP-R4
                return ("twin_dead", "LUP-R4", pgettext("gm-rejection", "a Guardia Gemella is dead: the survivor has no power"))
        if ev.by_gm:
            return None
        if not st.is_alive(t):  # D4
            return ("dead_target", "D4", pgettext("gm-rejection", "%(player)s is dead", player=t))
        if ev.action == "check" and t == ev.actor:  # LUP-R1, LUP-R6
            return ("self_target", "D4", pgettext("gm-rejection", "the check names another player"))
        if ev.action == "protect":
            if st.role_of(t) == "twin_guard":  # D4: "un altro giocatore", neither twin
                return ("twin_target", "D4", pgettext("gm-rejection", "the Twins protect a player other than themselves"))
            if t == dict(st.x.protected).get(str(PhaseId(night.number - 1, "night"))):  # LUP-R4
                return ("repeat", "LUP-R4", pgettext("gm-rejection", "%(player)s was protected the night before", player=t))
        if ev.action == "kill" and self.is_wolf(st, t) and not self.options.wolf_victim_allowed:  # D19
            return ("wolf_target", "D19", pgettext("gm-rejection", "%(player)s is a wolf", player=t))
        return None

    RESUMABLE = {
        "protected": "player: protected by the Guardie Gemelle; value: the night, e.g. N2 (LUP-R4: not again the next night)",
        "no_kill_night": "value: a night whose wolves' kill the Martire's death blocks, e.g. N4 (LUP-R11, D7)",
        "designation": "player: a Templare; value: the player it designated by PM (LUP-R8)",
    }

    def apply_state(self, st: GameState, key: str, player: str, value: str) -> GameState:
        x = st.x
        if key == "protected":
            return st.with_x(protected=x.protected + ((value, player),))
        if key == "no_kill_night":
            return st.with_x(no_kill_nights=x.no_kill_nights | {value})
        if key == "designation":
            order = len(x.designations)
            return st.with_x(designations=x.designations + (Designation(player, value, datetime.min.replace(
                tzinfo=timezone.utc), order),))
        return st

    def gm_notes(self, st: GameState, phase: Phase | None) -> tuple[GmNote, ...]:
        """LUP-R4 protections in force (by night), LUP-R8 the Templari's standing designations,
        LUP-R11/D7 nights whose kill the Martire's death blocks."""
        x = st.x
        if x is None:
            return ()
        out = [GmNote("protection", who, "protected", night, "LUP-R4") for night, who in x.protected]
        latest = {d.templar: d.target for d in sorted(x.designations, key=lambda d: (d.at, d.order))}
        out += [GmNote("power", t, "designation", target, "LUP-R8") for t, target in latest.items()
                if t not in x.triggered]
        out += [GmNote("power", "", "no kill", night, "LUP-R11") for night in sorted(x.no_kill_nights)]
        return tuple(out)

    def required_actions(self, st: GameState, phase: Phase) -> tuple[Requirement, ...]:
        """D19: the wolves owe a kill PM for every night with a kill (the GM is warned)."""
        if st.outcome is not None:
            return ()
        night = phase.id if phase.kind == "night" else self._next_night(st, phase.id)
        if night.number < 2 or str(night) in st.x.no_kill_nights:
            return ()
        if any(a.action == "kill" for a in self.actions_for(st, night)):
            return ()
        killers = self.pack_killers(st)
        if not killers:
            return ()
        # one kill PM from any wolf settles it (LUP-R9): one duty shared by the pack, not one each
        return (Requirement(killers[0], ("kill",), "D19", pgettext("gm-finding", "no kill PM for %(night)s yet", night=phase_label(night)), any_of=killers),)

    # ------------------------------------------------------------------ night resolution
    def resolve_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if self._inclusive(phase, phase.actions_due_at()):
            return st  # D18 option: the "actions_due" timer resolves after same-instant PMs
        return self._resolve_night(st, phase, run)

    def _resolve_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        acts = self.actions_for(st, phase.id)
        st = self.drop_actions(st, phase.id)
        night = _Night(phase, self._valid_at_deadline(st, acts, phase.id, run))
        for step in self.NIGHT_ORDER:
            getattr(self, f"_night_{step}")(st, night, run)
        if night.protect is not None:
            st = st.with_x(protected=st.x.protected + ((phase.name, night.protect.target or ""),))
        return self._dawn(st, night, run)

    def _valid_at_deadline(self, st: GameState, acts: tuple[ActionEvent, ...], night: PhaseId,
                           run: RunContext) -> list[ActionEvent]:
        """D17: an actor dead at the deadline has no action; targets are checked again (D4)."""
        out = []
        for a in acts:
            problem = ("dead_actor", "D17", pgettext("gm-rejection", "%(actor)s is dead", actor=a.actor)) if not st.is_alive(a.actor) \
                else self._night_problem(st, a, night)
            if problem is not None:
                code, rule, msg = problem
                run.reject(a.action, a.actor, code, at=run.current_at, source=a.source, target=a.target,
                           rule=rule, message=pgettext("gm-rejection", "%(message)s (at the deadline)", message=msg), public=False)
                continue
            out.append(a)
        return out

    def _night_deliver(self, st: GameState, n: _Night, run: RunContext) -> None:  # LUP-N1
        n.delivery = n.last("deliver")
        if n.delivery is not None:
            n.visit(n.delivery.target or "", n.delivery.actor)

    def _night_seer(self, st: GameState, n: _Night, run: RunContext) -> None:  # LUP-N2, LUP-R1, LUP-R2
        for seer in st.holders("seer", alive_only=False):
            check = next((a for a in reversed(n.acts) if a.action == "check" and a.actor == seer), None)
            if check is None:
                continue
            target = check.target or ""
            n.visit(target, seer)
            verdict = self.seen_as(st, target)
            if n.delivery is None or n.delivery.target == seer:  # FAQ: no hint of the Postino
                n.private.append(PrivateResult(seer, Fact.of("seer_result", "LUP-R1", target=target, verdict=verdict)))
                continue
            shown = dict(target=target) if self.options.delivery_names_target else {}  # D13
            n.private.append(PrivateResult(n.delivery.target or "",
                                           Fact.of("delivered_result", "LUP-R2", verdict=verdict, **shown)))
            if self.options.seer_told_when_redirected:  # D13 option
                n.private.append(PrivateResult(seer, Fact.of("no_result", "LUP-R2")))
        if n.delivery is not None and not any(a.action == "check" and st.role_of(a.actor) == "seer"
                                              for a in n.acts):
            run.note("postman", pgettext("gm-note", "the Veggente did not act: the Postino delivers nothing"), rule="LUP-R2")

    def _night_inquisitor(self, st: GameState, n: _Night, run: RunContext) -> None:  # LUP-N3, LUP-R6
        for inq in st.holders("inquisitor", alive_only=False):
            check = next((a for a in reversed(n.acts) if a.action == "check" and a.actor == inq), None)
            if check is None:
                continue
            target = check.target or ""
            n.visit(target, inq)
            verdict = ERETICO if self.is_heretic(st, target) else NON_ERETICO
            n.private.append(PrivateResult(inq, Fact.of("inquisitor_result", "LUP-R6", target=target,
                                                        verdict=verdict)))

    def _night_protect(self, st: GameState, n: _Night, run: RunContext) -> None:  # LUP-N4, LUP-R4, D3
        n.protect = n.last("protect")
        if n.protect is None:
            return
        target = n.protect.target or ""
        if self.options.twin_visitors == "senders":  # D14 option
            twins = [a.actor for a in n.acts if a.action == "protect" and a.target == target]
        else:
            twins = list(st.holders("twin_guard"))
        n.visit(target, *twins)

    def _night_kill(self, st: GameState, n: _Night, run: RunContext) -> None:  # LUP-N5, LUP-R9, D2
        kills = [a for a in n.acts if a.action == "kill"]
        if not kills:
            if n.phase.id.number >= 2 and str(n.phase.id) not in st.x.no_kill_nights:
                run.note("no_kill", pgettext("gm-note", "no kill PM for %(phase)s: nobody is killed", phase=phase_label(n.phase.name)), rule="D19")
            return
        chosen = kills[-1]
        if self.options.wolves_disagree == "no_kill" and len({a.target for a in kills}) > 1:  # D2 option
            run.note("no_kill", pgettext("gm-note", "the wolves named different victims: nobody is killed"), rule="D2")
            return
        for a in kills[:-1]:
            run.note("superseded", pgettext("gm-note", "%(actor)s's kill PM on %(target)s superseded by %(chosen)s's on %(chosen_target)s", actor=a.actor, target=a.target, chosen=chosen.actor, chosen_target=chosen.target), source=a.source, rule="D2")
        target = chosen.target or ""
        if n.protect is not None and n.protect.target == target:  # LUP-R4, D8
            run.note("saved", pgettext("gm-note", "%(target)s was protected by the Twins", target=target), rule="D8")
            return
        n.victim = target

    def _dawn(self, st: GameState, n: _Night, run: RunContext) -> GameState:
        """LUP-N6: deaths, the Templare trigger, the Scorbutico's visitors, private results."""
        phase = n.phase
        deaths = [(n.victim, "wolves")] if n.victim else []
        dying = {name for name, _ in deaths}
        deaths += [(h, "templar") for h in self._templar_victims(st, dying, phase.actions_due_at(), run)]
        dying = {name for name, _ in deaths}
        effects, facts = self._death_effects(st, deaths)
        if not deaths:  # D8
            facts = (Fact.of("nobody_died", "D8"),)
        private = list(n.private)
        for grumpy in st.holders("grumpy_wolf"):  # LUP-R10, D14: told at the start of the day
            if grumpy not in dying:
                seen = tuple(sorted(n.visitors.get(grumpy, set()) - {grumpy}))
                private.append(PrivateResult(grumpy, Fact.of("visitors", "LUP-R10", players=seen)))
        private.extend(self._last_wolf_pm(st, dying))
        resolved = tuple(t for t in dying if st.role_of(t) == "templar")
        summary = join_names(pgettext("gm-proposal", "%(player)s (%(cause)s)", player=name, cause=code_text(cause))
                             for name, cause in deaths) or pgettext("gm-proposal", "nobody dies")
        prop = Proposal(key=f"night:{phase.name}", kind="night", phase=phase.name,
                        created_at=run.current_at or phase.start, effects=effects, facts=facts,
                        private=tuple(private), summary=summary, data=(("templar_resolved", resolved),))
        run.note("proposal", pgettext("gm-note", "dawn after %(phase)s: %(summary)s", phase=phase_label(phase.name), summary=summary), rule="LUP-N6")
        return st.put_proposal(prop)

    # ------------------------------------------------------------------ wins (LUP-W1..W7)
    def check_win(self, st: GameState) -> Outcome | None:
        wolves = self.living_wolves(st)
        humans = [p.name for p in st.living() if not self.is_wolf(st, p.name)]
        if not wolves:  # D6: with no wolves the pack never wins
            heretic_alive = any(self.is_heretic(st, p.name) for p in st.living())
            inquisition_alive = bool(self.members(st, INQUISIZIONE, alive_only=True))
            if heretic_alive or not inquisition_alive:  # LUP-W2
                return self._outcome(st, "heresy", ERESIA, "all wolves are dead", "LUP-W2")
            return self._outcome(st, "inquisition", INQUISIZIONE,
                                 "all wolves and all heretics are dead", "LUP-W3")
        if len(wolves) >= len(humans):  # LUP-W1
            return self._outcome(st, "pack", BRANCO, "the wolves reached the humans", "LUP-W1")
        return None

    def _outcome(self, st: GameState, result: str, faction: str, reason: str, rule: str) -> Outcome:
        """LUP-W7: the faction alive or dead, the Contadini with a village faction (LUP-W4, D15),
        the Martire if the wolves ate it (LUP-W5)."""
        winners, factions = [], [faction]
        for p in st.players:
            f = self.faction_of(st, p.name)
            cause = p.death.cause if p.death is not None else None
            if f == faction:
                winners.append(p.name)
            elif p.role == "farmer" and faction != BRANCO \
                    and (self.options.eaten_farmer_wins or cause != "wolves"):
                winners.append(p.name)
                factions.append(VILLAGGIO)
            elif p.role == "martyr" and not p.alive and cause == "wolves":
                winners.append(p.name)
                factions.append(SOLITARIO)
        return Outcome(result, tuple(winners), reason, rule, factions=tuple(dict.fromkeys(factions)))

    # ------------------------------------------------------------------ GM replacements
    def rename_in_x(self, x: LupusX, old: str, new: str) -> LupusX:
        def ren(n: str) -> str:
            return new if n == old else n

        def ren_set(s: frozenset[str]) -> frozenset[str]:
            return frozenset(ren(n) for n in s)

        return replace(
            x,
            secret_votes=tuple(replace(v, voter=ren(v.voter), target=ren(v.target)) for v in x.secret_votes),
            secret_sent=ren_set(x.secret_sent),
            designations=tuple(replace(d, templar=ren(d.templar), target=ren(d.target)) for d in x.designations),
            protected=tuple((night, ren(p)) for night, p in x.protected),
            last_wolf_told=ren_set(x.last_wolf_told), triggered=ren_set(x.triggered),
        )
