"""Base class of every ruleset: the common forum-game mechanics plus hooks to override.

A ruleset is data (role table, night order, actions, options, timing defaults) plus small
hooks (vote validity, weights, day and night resolution, wins). The base class implements
what most forum games share: one standing vote per living player, later votes replace
earlier ones, unvotes, a weighted tally ordered by total then by who reached it first,
actions queued for the next night, proposals applied on approval, GM overrides, win checks
after every death-producing step. Rulesets override only what differs (see
`rulesets/mafia_majority.py` for the smallest complete example).
"""

from __future__ import annotations

import random
from dataclasses import field, replace
from datetime import datetime
from typing import Any, ClassVar, Literal, Mapping

from forummod.engine import catalog
from forummod.engine.events import (
    ActionEvent, Decision, Override, Timer, UnvoteEvent, VoteEvent,
)
from forummod.engine.types import (
    Announce, Candidate, Death, Fact, GameState, Kill, LogEntry, Outcome, Phase, PhaseId, Player,
    PrivateResult, Proposal, Rejection, Revive, SetRole, SetStatus, Tally, Tell, VoteRecord,
)
from forummod.model import NO_LYNCH, Source
from forummod.records import frozen
from forummod.schema import ClockOrDuration
from forummod.i18n import code_text, join_names, pgettext, phase_label


def rejection_note(kind: str, actor: str, reason: str, target: str | None, message: str) -> str:
    """The GM note of a refused vote or action: "vote by Ann on Bob: late (the vote of D2 is closed)"."""
    params = dict(kind=code_text(kind), actor=actor, target=target, reason=code_text(reason), message=message)
    if target and message:
        return pgettext("gm-note", "%(kind)s by %(actor)s on %(target)s: %(reason)s (%(message)s)", **params)
    if target:
        return pgettext("gm-note", "%(kind)s by %(actor)s on %(target)s: %(reason)s", **params)
    if message:
        return pgettext("gm-note", "%(kind)s by %(actor)s: %(reason)s (%(message)s)", **params)
    return pgettext("gm-note", "%(kind)s by %(actor)s: %(reason)s", **params)


@frozen
class RoleSpec:
    """One role: what the seer-like checks see, how it counts for parity, its faction."""

    id: str
    faction: str
    seen_as: str = ""  # e.g. INNOCENTE / LOSCO
    counts_as: str = ""  # e.g. UMANO / LUPO
    rule: str | None = None
    unique: bool = False


@frozen
class Requirement:
    """Something a player must still do before a deadline (checks warn the GM about it)."""

    player: str  # who owes it; for a shared duty, the first of `any_of`
    actions: tuple[str, ...]  # verbs that satisfy it (or ("vote",) for a compulsory PM vote)
    rule: str | None = None
    message: str = ""
    any_of: tuple[str, ...] = ()  # a faction's duty: one PM from any of these players settles it

    @property
    def owed_by(self) -> tuple[str, ...]:
        return self.any_of or (self.player,)


@frozen
class GmNote:
    """A fact only the state knows that the GM needs in `status` (issue 14): a token or one-shot
    power left or spent, a protection in force, who holds a rotating right tonight, a title."""

    kind: Literal["power", "protection", "night_role", "title"]
    player: str  # who holds it ("" when nobody)
    what: str  # the power, title or right: "heal potion", "tavern token", "recruiter"
    detail: str = ""  # its state: "left", "spent", "lost", the night, the target...
    rule: str | None = None


@frozen
class Timing:
    """Default deadlines of a ruleset; the config's [schedule] overrides each one."""

    first_phase: str = "night"
    vote_close: str = "48h"
    day_end: str = "48h"
    action_deadline: str = "24h"
    night_end: str = "24h"

    def spec(self, name: str) -> ClockOrDuration:
        return ClockOrDuration.parse(getattr(self, name))


@frozen
class Setup:
    """Who plays what. `roles` maps player -> role id; `extra` carries ruleset setup data
    (village buildings, one-night centre cards) as a mapping."""

    players: tuple[str, ...]
    roles: Mapping[str, str]
    seed: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)


class RunContext:
    """What one engine run accumulates besides the state: rejections, log, tallies, timers.

    Local to a single `run_game` call, so the run as a whole stays a pure function.
    """

    def __init__(self, phases: tuple[Phase, ...], now: datetime, night_first: bool):
        self.phases = phases
        self.now = now
        self.night_first = night_first
        self.rejections: list[Rejection] = []
        self.log: list[LogEntry] = []
        self.tallies: list[Tally] = []
        self.public_tallies: list[Tally] = []  # the thread's view of each day as it closed (e.g. LUP-D11)
        self.facts: list[tuple[str, Fact]] = []
        self.private: list[tuple[str, PrivateResult]] = []
        self.timers: list[Timer] = []
        self.current_at: datetime | None = None
        self.event_index = 0  # position of the event being processed in the timeline (ordering only)
        self.event_stamp = ""  # a stable token of that event, for proposal keys (see core._stamp)
        self.end_requests: list[tuple[str, datetime, int | None]] = []
        self.gm_posts: tuple[datetime, ...] | None = None  # the GM's game-thread posts (PhasePlan.gm_posts)
        self.action_nights: dict[tuple[str, str, Any], str] = {}  # GameRun.action_nights

    def opening_post(self, phase: Phase) -> datetime | None:
        """The GM's first game-thread post at or after `phase` started (its dawn post), or None
        when the GM has not posted since; `phase.start` when the GM's posts are not known."""
        if self.gm_posts is None:
            return phase.start
        return next((t for t in self.gm_posts if t >= phase.start), None)

    def night_before(self, phase: Phase) -> Phase | None:
        """The night that ended before `phase` began (the one a PM during the day may be late for)."""
        nights = [p for p in self.phases if p.kind == "night" and p.start < phase.start]
        return nights[-1] if nights else None

    # ---- reporting
    def reject(self, kind: str, actor: str, reason: str, *, at: datetime | None = None,
               source: Source | None = None, target: str | None = None, rule: str | None = None,
               message: str = "", public: bool = True) -> Rejection:
        r = Rejection(kind, actor, reason, at or self.current_at, source, target, rule, message, public)
        self.rejections.append(r)
        self.note("rejected", rejection_note(kind, actor, reason, target, message), source=source, rule=rule)
        return r

    def note(self, kind: str, text: str, *, source: Source | None = None, rule: str | None = None,
             at: datetime | None = None) -> None:
        self.log.append(LogEntry(at or self.current_at, kind, text, source, rule))

    def timer(self, at: datetime, name: str, phase: str = "", *, rank: int = 0, **data: Any) -> None:
        """Schedule a deadline of the ruleset's own; rank 0 sorts before inputs at the same instant."""
        self.timers.append(Timer(at=at, rank=rank, name=name, phase=phase, data=tuple(sorted(data.items()))))

    def end_phase(self, phase: Phase, at: datetime, post: int | None = None) -> None:
        """End `phase` now, before its deadline (a hammer): the fold closes it at `at` (after
        post `post`) and opens the next phase there, its deadlines counted from that start."""
        self.end_requests.append((phase.name, at, post))

    # ---- phases
    def phase_named(self, name: str) -> Phase | None:
        for p in self.phases:
            if p.name == name:
                return p
        return None

    def next_phase(self, phase: Phase, kind: str | None = None) -> Phase | None:
        found = False
        for p in self.phases:
            if found and (kind is None or p.kind == kind):
                return p
            if p.id == phase.id:
                found = True
        return None

    def next_night_id(self, phase: Phase) -> PhaseId:
        """The night that follows a day (numbering differs for night-first and day-first games)."""
        if phase.kind == "night":
            return phase.id
        return PhaseId(phase.id.number + (1 if self.night_first else 0), "night")


class Ruleset:
    """Subclass per ruleset; class attributes are its data, methods its hooks."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: Facts of the final reveal the game-over post shows besides its role list (ON D15: the centre cards).
    game_over_facts: ClassVar[frozenset[str]] = frozenset()

    def game_over_shown(self, st: "GameState") -> frozenset[str] | None:
        """The players whose role the game-over post lists; None: every player (ON D15 option)."""
        return None
    language: ClassVar[str] = "en"
    Options: ClassVar[type]  # frozen dataclass with schema.setting fields (defaults documented)
    ROLES: ClassVar[Mapping[str, RoleSpec]] = {}
    NIGHT_ORDER: ClassVar[tuple[str, ...]] = ()
    FACTS: ClassVar[Mapping[str, str]] = {}  # fact key -> what it means and its params
    TIMING: ClassVar[Timing] = Timing()
    has_no_lynch: ClassVar[bool] = False
    vote_rule: ClassVar[str | None] = None  # rule id cited on generic vote rejections
    late_vote_rule: ClassVar[str | None] = None  # rule id of the vote deadline (e.g. LUP-T1); default vote_rule
    late_action_rule: ClassVar[str | None] = None  # rule id of the action deadline (e.g. LUP-T3)
    activity_blocks: ClassVar[bool] = False  # ON-D2: default of checks.activity_blocks
    max_phases: ClassVar[int | None] = None  # a game with a fixed length (one-night: N1, D1)
    # Vote weights and score bonuses shown in the thread's count. Public by default (VIL-V-4:
    # the Sheriff x2 and the poster +2 are known to all); Lupus hides the Boia's x3 (LUP-D11).
    public_weights: ClassVar[bool] = True
    # Whether `players[].votes` (a seat's own number of votes: a double voter) applies; rulesets
    # with weights of their own (the Sheriff, the Boia) keep them in their roles instead.
    seat_votes: ClassVar[bool] = False
    # The fewest players the config accepts: a vote needs someone to vote for besides oneself.
    # No ruleset's rules text states a higher floor, so none overrides it yet.
    min_players: ClassVar[int] = 2
    vote_forms: ClassVar[tuple[str, ...]] = ("bold", "tag")  # default of [votes].forms
    # Verbs that are one choice of a whole faction: a later PM of any member replaces the
    # earlier one (MafiaScum's mafia kill; LUP-D2, the wolves' last kill PM counts).
    factional_actions: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, options: Any = None):
        self.options = options if options is not None else self.Options()

    # ------------------------------------------------------------------ class-level data
    @classmethod
    def role_ids(cls) -> set[str]:
        ids = set(catalog.ROLES.get(cls.name, ())) | set(cls.ROLES)
        return ids | set(catalog.ROLE_ALIASES.get(cls.name, {}))

    @classmethod
    def canonical_role(cls, word: str) -> str:
        return catalog.canonical_role(cls.name, word) or word

    @classmethod
    def cards_needed(cls, n_players: int, options: Mapping[str, Any]) -> int:
        return n_players

    @classmethod
    def check_setup(cls, game: Any, roles: Mapping[str, str]) -> tuple[str, str] | None:
        """(key path, message) when the configured setup cannot be played, else None."""
        return None

    @classmethod
    def default_timing(cls, options: Any) -> Timing:
        return cls.TIMING

    @property
    def actions(self) -> Mapping[str, catalog.ActionSpec]:
        return catalog.ACTIONS.get(self.name, {})

    # ------------------------------------------------------------------ setup
    def deal(self, setup: Setup, pool: Mapping[str, int]) -> Setup:
        """Random deal of `pool` (role -> count) with the recorded seed: reproducible.

        Returns the setup with `roles` filled; rulesets with cards left over (one-night's
        centre, the village Thief's two cards) override this to put them in `extra`.
        """
        cards = [r for r, n in sorted(pool.items()) for _ in range(n)]
        rng = random.Random(f"deal:{setup.seed}")
        rng.shuffle(cards)
        return replace(setup, roles=dict(zip(setup.players, cards)))

    def initial_state(self, setup: Setup) -> GameState:
        players = tuple(
            Player(name=n, role=self.canonical_role(setup.roles.get(n, "")), seat=i + 1)
            for i, n in enumerate(setup.players)
        )
        st = GameState(ruleset=self.name, players=players, seed=setup.seed)
        return replace(st, x=self.initial_x(st, setup))

    def initial_x(self, st: GameState, setup: Setup) -> Any:
        return None

    # ------------------------------------------------------------------ randomness
    def rng(self, st: GameState, name: str) -> tuple[random.Random, GameState]:
        """A seeded generator for one draw; the state counts draws so a replay draws the same."""
        r = random.Random(f"{st.seed}:{st.draws}:{name}")
        return r, replace(st, draws=st.draws + 1)

    # ------------------------------------------------------------------ phases
    def on_phase_start(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        run.note("phase", pgettext("gm-note", "%(phase)s starts", phase=phase_label(phase.name)))
        if phase.kind == "day":
            st = replace(st, votes=(), vote_round=1, vote_candidates=())
        return replace(st, phase=phase)

    def on_vote_close(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """Deadline reached: later votes are late. Resolution happens in `resolve_day`."""
        return replace(st, closed=st.closed | {f"votes:{phase.name}"})

    def on_action_deadline(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        return replace(st, closed=st.closed | {f"actions:{phase.name}"})

    def on_phase_end(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        return st

    def on_timer(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        return st

    # ------------------------------------------------------------------ votes
    def voting_open(self, st: GameState) -> bool:
        ph = st.phase
        return ph is not None and ph.kind == "day" and f"votes:{ph.name}" not in st.closed and st.outcome is None

    def counts_channel(self, ev: VoteEvent | UnvoteEvent) -> bool:
        """Which channel's votes count (thread by default; one-night counts PM votes)."""
        return ev.channel == "thread" or ev.channel == "gm"

    def may_vote(self, st: GameState, voter: str) -> bool:
        return st.is_alive(voter)

    def can_be_voted(self, st: GameState, target: str) -> bool:
        return st.is_alive(target)

    def vote_problem(self, st: GameState, ev: VoteEvent) -> tuple[str, str | None, str] | None:
        """(reason, rule, message) when this vote must be rejected; ruleset-specific checks."""
        return None

    def on_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        if not self.counts_channel(ev):
            return st
        reason = self._generic_vote_problem(st, ev)
        if reason is None:
            reason = self.vote_problem(st, ev)
        if reason is not None:
            code, rule, msg = reason
            run.reject("vote", ev.voter, code, at=ev.at, source=ev.source, target=ev.target,
                       rule=rule or self.vote_rule, message=msg)
            return st
        st = self.place_vote(st, ev, run)
        return self.after_vote(st, ev, run)

    def _generic_vote_problem(self, st: GameState, ev: VoteEvent) -> tuple[str, str | None, str] | None:
        if not self.voting_open(st):
            if st.phase is not None and st.phase.kind == "day":
                return ("late", self.late_vote_rule, pgettext("gm-rejection", "the vote of %(phase)s is closed", phase=phase_label(st.phase.name)))
            return ("no_vote_now", None, pgettext("gm-rejection", "no vote is open now"))
        if not st.has_player(ev.voter):
            return ("non_player", None, pgettext("gm-rejection", "%(voter)s is not a player", voter=ev.voter))
        if not st.player(ev.voter).alive:
            return ("dead_voter", None, pgettext("gm-rejection", "%(voter)s is dead", voter=ev.voter))
        if not self.may_vote(st, ev.voter):
            return ("no_vote_right", None, pgettext("gm-rejection", "%(voter)s may not vote now", voter=ev.voter))
        if ev.target == NO_LYNCH:
            if not self.has_no_lynch:
                return ("no_lynch_not_allowed", None, pgettext("gm-rejection", "this ruleset has no 'no lynch' vote"))
        else:
            if not st.has_player(ev.target):
                return ("non_player_target", None, pgettext("gm-rejection", "%(target)s is not a player", target=ev.target))
            if not st.player(ev.target).alive:
                return ("dead_target", None, pgettext("gm-rejection", "%(target)s is dead", target=ev.target))
            if not self.can_be_voted(st, ev.target):
                return ("not_votable", None, pgettext("gm-rejection", "%(target)s cannot be voted", target=ev.target))
        if st.vote_candidates and ev.target not in st.vote_candidates:
            return ("not_candidate", None, pgettext("gm-rejection", "only %(names)s can be voted in this round", names=join_names(st.vote_candidates)))
        return None

    def place_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        """Replace the voter's standing vote; re-voting the same target keeps the earlier time."""
        voter = ev.voter
        old = None  # the voter's standing vote (the first, were there several)
        kept = []  # the other voters' votes, in order: one loop, not two generators (the fold's commonest step)
        for v in st.votes:
            if v.voter != voter:
                kept.append(v)
            elif old is None:
                old = v
        if old is not None and old.target == ev.target:
            return st
        rec = VoteRecord(voter=voter, target=ev.target, at=ev.at, source=ev.source or Source("gm"),
                         order=run.event_index)
        votes = (*kept, rec)
        run.note("accepted", pgettext("gm-note", "%(voter)s votes %(target)s", voter=ev.voter, target=ev.target), source=ev.source)
        return st.with_votes(votes)

    def after_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        return st

    def on_unvote(self, st: GameState, ev: UnvoteEvent, run: RunContext) -> GameState:
        if not self.counts_channel(ev):
            return st
        if not self.voting_open(st):
            late = st.phase is not None and st.phase.kind == "day"
            run.reject("unvote", ev.voter, "late" if late else "no_vote_now", at=ev.at, source=ev.source,
                       rule=(self.late_vote_rule if late else None) or self.vote_rule)
            return st
        old = next((v for v in st.votes if v.voter == ev.voter), None)
        if old is None:
            return st
        if ev.target is not None and ev.target != old.target:
            run.reject("unvote", ev.voter, "not_voting_that_player", at=ev.at, source=ev.source,
                       target=ev.target, message=pgettext("gm-rejection", "%(voter)s votes %(target)s, not %(named)s", voter=ev.voter, target=old.target, named=ev.target))
            return st
        run.note("accepted", pgettext("gm-note", "%(voter)s unvotes %(target)s", voter=ev.voter, target=old.target), source=ev.source)
        return st.with_votes(tuple(v for v in st.votes if v.voter != ev.voter))

    # ------------------------------------------------------------------ tally
    def vote_weight(self, st: GameState, rec: VoteRecord) -> tuple[float, str]:
        return 1.0, ""

    def score_bonus(self, st: GameState) -> dict[str, tuple[float, str]]:
        """Score a candidate gets without votes (e.g. a poster +2)."""
        return {}

    def standing_votes(self, st: GameState, public: bool) -> tuple[VoteRecord, ...]:
        return st.votes

    def eligible_voters(self, st: GameState) -> tuple[str, ...]:
        return tuple(p.name for p in st.living() if self.may_vote(st, p.name))

    def majority(self, st: GameState) -> int | None:
        return None

    def tally(self, st: GameState, at: datetime | None, public: bool = False) -> Tally:
        """Candidates by weighted total; ties ordered by whose latest standing vote came first."""
        groups: dict[str, list[VoteRecord]] = {}
        for rec in self.standing_votes(st, public):
            w, note = (1.0, "") if public and not self.public_weights else self.vote_weight(st, rec)
            if w != rec.weight or (note and note != rec.note):
                rec = replace(rec, weight=w, note=note or rec.note)
            groups.setdefault(rec.target, []).append(rec)
        bonus = {} if public and not self.public_weights else self.score_bonus(st)
        names = set(groups) | set(bonus)
        cands = []
        for name in names:
            voters = tuple(sorted(groups.get(name, []), key=lambda r: (r.at, r.order)))
            b, bnote = bonus.get(name, (0.0, ""))
            cands.append(Candidate(name, sum(v.weight for v in voters) + b, voters, b, bnote))
        cands.sort(key=lambda c: (-c.total, self.decisive_key(st, c)))
        voting = {v.voter for v in st.votes}
        not_voting = tuple(n for n in self.eligible_voters(st) if n not in voting)
        return Tally(phase=st.phase.name if st.phase else "", at=at, candidates=tuple(cands),
                     not_voting=not_voting, living=len(st.living()), majority=self.majority(st),
                     round=st.vote_round, restricted_to=st.vote_candidates, public=public)

    def decisive_key(self, st: GameState, cand: Candidate) -> tuple:
        """Sort key among equal totals: the candidate whose decisive (latest) vote came first."""
        if not cand.voters:
            return (1, 0.0, 0)
        last = max(cand.voters, key=lambda r: (r.at, r.order))
        return (0, last.at.timestamp(), last.order)

    # ------------------------------------------------------------------ day resolution
    def resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """Default: plurality; a tie lynches the candidate who reached the top total first."""
        t = self.tally(st, phase.votes_close_at(), public=False)
        run.tallies.append(t)
        leaders = [c for c in t.candidates if c.total > 0 and c.total == (t.candidates[0].total if t.candidates else 0)]
        if not leaders or leaders[0].name == NO_LYNCH:
            return self.propose_no_lynch(st, phase, run)
        return self.propose_lynch(st, phase, (leaders[0].name,), run)

    def propose_lynch(self, st: GameState, phase: Phase, names: tuple[str, ...], run: RunContext,
                      rule: str | None = None, key: str | None = None) -> GameState:
        effects = tuple(Kill(n, "lynch", reveal=self.reveal_on_death(st, n, "lynch"), rule=rule) for n in names)
        prop = Proposal(key=key or f"lynch:{phase.name}", kind="lynch", phase=phase.name,
                        created_at=run.current_at or phase.start, effects=effects,
                        facts=tuple(Fact.of("lynched", rule, player=n) for n in names),
                        summary=pgettext("gm-proposal", "lynch %(names)s", names=join_names(names)))
        run.note("proposal", prop.summary, rule=rule)
        return st.put_proposal(prop)

    def propose_no_lynch(self, st: GameState, phase: Phase, run: RunContext, rule: str | None = None,
                         reason: str = "no_votes") -> GameState:
        prop = Proposal(key=f"lynch:{phase.name}", kind="lynch", phase=phase.name,
                        created_at=run.current_at or phase.start,
                        facts=(Fact.of("no_lynch", rule, reason=reason),), summary=pgettext("gm-proposal", "no lynch"))
        run.note("proposal", pgettext("gm-note", "no lynch"), rule=rule)
        return st.put_proposal(prop)

    def reveal_on_death(self, st: GameState, player: str, cause: str) -> bool:
        return True

    # ------------------------------------------------------------------ actions
    def action_phase(self, st: GameState, ev: ActionEvent, run: RunContext) -> PhaseId | None:
        """The night an action belongs to; None when its window has closed (late)."""
        ph = st.phase
        if ph is None:
            return None
        if ph.kind == "night":
            return None if f"actions:{ph.name}" in st.closed else ph.id
        return run.next_night_id(ph)

    @staticmethod
    def _late_for(st: GameState, run: RunContext) -> str:
        """The night an action without a night came too late for: the current one, or during a
        day the one before it ("" when there is none)."""
        ph = st.phase
        if ph is None:
            return ""
        if ph.kind == "night":
            return ph.name
        before = run.night_before(ph)
        return before.name if before is not None else ""

    def action_problem(self, st: GameState, ev: ActionEvent, night: PhaseId | None
                       ) -> tuple[str, str | None, str] | None:
        """(reason, rule, message) for an invalid action; None if it may be queued."""
        return None

    def on_action(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        spec = self.actions.get(ev.action)
        if spec is None:
            run.reject(ev.action, ev.actor, "unknown_action", at=ev.at, source=ev.source,
                       message=pgettext("gm-rejection", "%(ruleset)s has no action %(action)r", ruleset=self.name, action=ev.action))
            return st
        if spec.when == "day":
            return self.on_day_action(st, ev, run)
        night = self.action_phase(st, ev, run)
        run.action_nights[(ev.action, ev.actor, ev.source)] = str(night) if night is not None else self._late_for(st, run)
        problem = self._generic_action_problem(st, ev, spec, night) or self.action_problem(st, ev, night)
        if problem is not None:
            code, rule, msg = problem
            run.reject(ev.action, ev.actor, code, at=ev.at, source=ev.source, target=ev.target,
                       rule=rule or spec.rule, message=msg, public=False)
            return st
        return self.queue_action(st, ev, night, run)

    def _generic_action_problem(self, st: GameState, ev: ActionEvent, spec: catalog.ActionSpec,
                                night: PhaseId | None) -> tuple[str, str | None, str] | None:
        if st.outcome is not None:
            return ("game_over", None, pgettext("gm-rejection", "the game is over"))
        if night is None and spec.when == "night":
            return ("late", self.late_action_rule, pgettext("gm-rejection", "after the action deadline"))
        if not st.has_player(ev.actor):
            return ("non_player", None, pgettext("gm-rejection", "%(actor)s is not a player", actor=ev.actor))
        if not st.player(ev.actor).alive and not self.dead_may_act(st, ev):
            return ("dead_actor", None, pgettext("gm-rejection", "%(actor)s is dead", actor=ev.actor))
        if spec.roles and st.role_of(ev.actor) not in spec.roles and not self.role_may_act(st, ev):
            return ("wrong_role", None, pgettext("gm-rejection", "%(actor)s has no power to %(action)s", actor=ev.actor, action=ev.action))
        return self.action_target_problem(st, ev, spec)

    @staticmethod
    def action_target_problem(st: GameState, ev: ActionEvent, spec: catalog.ActionSpec
                       ) -> tuple[str, str | None, str] | None:
        """The right number of targets, each a player of the game."""
        if not spec.min_targets <= len(ev.targets) <= spec.max_targets:
            return ("target_count", None, pgettext("gm-rejection", "%(action)s takes %(min_targets)s-%(max_targets)s players", action=ev.action, min_targets=spec.min_targets, max_targets=spec.max_targets))
        for t in ev.targets:
            if not st.has_player(t):
                return ("non_player_target", None, pgettext("gm-rejection", "%(player)s is not a player", player=t))
        return None

    def dead_may_act(self, st: GameState, ev: ActionEvent) -> bool:
        return False

    def role_may_act(self, st: GameState, ev: ActionEvent) -> bool:
        """Extra right to an action beyond the role table (e.g. a converted witch)."""
        return False

    def queue_action(self, st: GameState, ev: ActionEvent, night: PhaseId | None, run: RunContext) -> GameState:
        """Keep the action for its night; a later action of the same actor and kind replaces it."""
        tagged = replace(ev, args=tuple(sorted(dict(ev.args, _night=str(night)).items())))
        kind = self.action_slot(ev)
        rest = []
        for a in st.actions:
            if a.actor == ev.actor and self.action_slot(a) == kind and a.arg("_night") == str(night):
                run.note("superseded", pgettext("gm-note", "%(actor)s's %(action)s %(names)s replaced by a later PM", actor=a.actor, action=a.action, names=join_names(a.targets)),
                         source=a.source)
                continue
            rest.append(a)
        run.note("accepted", pgettext("gm-note", "%(actor)s: %(action)s %(names)s (for %(night)s)", actor=ev.actor, action=ev.action, names=join_names(ev.targets), night=phase_label(night)), source=ev.source)
        return replace(st, actions=tuple(rest) + (tagged,))

    def action_slot(self, ev: ActionEvent) -> str:
        """Actions sharing a slot replace each other (e.g. pray and fire are one choice)."""
        return ev.action

    def actions_for(self, st: GameState, night: PhaseId | str) -> tuple[ActionEvent, ...]:
        key = str(night)
        return tuple(a for a in st.actions if a.arg("_night") == key)

    def drop_actions(self, st: GameState, night: PhaseId | str) -> GameState:
        key = str(night)
        return replace(st, actions=tuple(a for a in st.actions if a.arg("_night") != key))

    def on_day_action(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        run.reject(ev.action, ev.actor, "unsupported", at=ev.at, source=ev.source,
                   message=pgettext("gm-rejection", "%(ruleset)s does not handle day action %(action)r", ruleset=self.name, action=ev.action))
        return st

    def required_actions(self, st: GameState, phase: Phase) -> tuple[Requirement, ...]:
        """Actions still owed for `phase` (compulsory powers, compulsory PM votes), given the
        actions queued so far. The checks module warns the GM before the deadline (e.g. WH-I2,
        WH-C3, ON-V1/D11). Default: nothing is compulsory."""
        return ()

    # ------------------------------------------------------------------ joining a game under way
    #: Facts only the state knows that a resumed game's `[[events]] kind = "state"` may set:
    #: key -> what `player` and `value` mean (README, "Joining a game under way").
    RESUMABLE: ClassVar[Mapping[str, str]] = {}

    def on_state(self, st: GameState, ev: Override, run: RunContext) -> GameState:
        """Apply one resumable fact (issue 14: the fold stays pure, history is events)."""
        if ev.key not in self.RESUMABLE:
            known = ", ".join(sorted(self.RESUMABLE)) or "none"
            run.reject("state", ev.player or "GM", "unknown_state_key", at=ev.at, source=ev.source,
                       message=pgettext("gm-rejection", "%(ruleset)s has no resumable key %(key)r (its keys: %(known)s)", ruleset=self.name, key=ev.key, known=known), public=False)
            return st
        if ev.player and not st.has_player(ev.player):
            run.reject("state", ev.player, "non_player", at=ev.at, source=ev.source,
                       message=pgettext("gm-rejection", "state %(key)s: %(player)s is not a player", key=ev.key, player=ev.player), public=False)
            return st
        run.note("override", pgettext("gm-note", "GM state %(key)s: %(player)s %(value)s", key=ev.key, player=ev.player,
                                      value=ev.value).rstrip(), source=ev.source)
        return self.apply_state(st, ev.key, ev.player, ev.value)

    def apply_state(self, st: GameState, key: str, player: str, value: str) -> GameState:
        return st

    def gm_notes(self, st: GameState, phase: Phase | None) -> tuple[GmNote, ...]:
        """Tokens and one-shot powers left, protections in force, tonight's rotating rights and
        titles, as of `st` (`phase`: the night the GM is looking at). Default: none."""
        return ()

    def role_pm_facts(self, st: GameState, player: str) -> tuple[Fact, ...]:
        """What a player's role PM says beyond the role, its faction and its partners: facts the
        rules give that player at setup (e.g. lupus-eresia LUP-R9: the wolves learn who the Lupo
        Scorbutico is; village §2.2: the building a player holds). The role PM shows each as a
        phrasebook sentence. Default: nothing more."""
        return ()

    def resolve_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """Default: no night powers; nothing happens."""
        st = self.drop_actions(st, phase.id)
        prop = Proposal(key=f"night:{phase.name}", kind="night", phase=phase.name,
                        created_at=run.current_at or phase.start, facts=(Fact.of("nobody_died"),),
                        summary=pgettext("gm-proposal", "nobody died"))
        return st.put_proposal(prop)

    # ------------------------------------------------------------------ applying
    def apply_proposal(self, st: GameState, prop: Proposal, run: RunContext) -> GameState:
        killed: list[str] = []
        for eff in prop.effects:
            st, died = self.apply_effect(st, eff, prop.phase, run)
            killed.extend(died)
        for f in prop.facts:
            run.facts.append((prop.phase, f))
        for r in prop.private:
            run.private.append((prop.phase, r))
        st = self.after_proposal(st, prop, killed, run)
        return self.check_and_set_win(st, run)

    def apply_effect(self, st: GameState, eff: Any, phase: str, run: RunContext) -> tuple[GameState, list[str]]:
        if isinstance(eff, Kill):
            if st.has_player(eff.player) and st.player(eff.player).alive:
                st = self.kill(st, eff.player, eff.cause, phase, run, reveal=eff.reveal)
                return st, [eff.player]
            return st, []
        if isinstance(eff, Revive):
            return st.update_player(eff.player, alive=True, death=None), []
        if isinstance(eff, SetRole):
            return st.update_player(eff.player, role=eff.role), []
        if isinstance(eff, SetStatus):
            return st.map_player(eff.player, lambda p: p.with_status(*eff.add, remove=eff.remove)), []
        if isinstance(eff, Announce):
            run.facts.append((phase, eff.fact))
            return st, []
        if isinstance(eff, Tell):
            run.private.append((phase, eff.result))
            return st, []
        raise TypeError(f"{self.name} cannot apply effect {eff!r}")

    def kill(self, st: GameState, name: str, cause: str, phase: str, run: RunContext,
             reveal: bool = True) -> GameState:
        p = st.player(name)
        death = Death(phase=phase, cause=cause, at=run.current_at, revealed=p.role if reveal else None)
        run.note("death", pgettext("gm-note", "%(player)s dies (%(cause)s)", player=name, cause=code_text(cause)))
        st = st.update_player(name, alive=False, death=death)
        # a dead player's standing vote and the votes on them no longer count
        return replace(st, votes=tuple(v for v in st.votes if v.voter != name and v.target != name))

    def on_proposal_rejected(self, st: GameState, prop: Proposal, run: RunContext) -> GameState:
        """The GM refused a proposal; nothing of it applies. Rulesets may react (e.g. reopen)."""
        return st

    def after_proposal(self, st: GameState, prop: Proposal, killed: list[str], run: RunContext) -> GameState:
        """Hook for consequences of deaths (triggers, grief, shots)."""
        return st

    # ------------------------------------------------------------------ GM overrides
    def on_override(self, st: GameState, ev: Override, run: RunContext) -> GameState:
        phase = ev.phase or (st.phase.name if st.phase else "")  # history before a resume names its phase
        k = ev.kind
        if k == "state":
            return self.on_state(st, ev, run)
        if k in ("kill", "modkill") and st.has_player(ev.player):
            run.note("override", pgettext("gm-note", "GM %(what)s: %(player)s", what=k, player=ev.player), source=ev.source)
            cause = "modkill" if k == "modkill" else (ev.cause or "gm")
            prop = Proposal(key=f"gm:{k}:{ev.player}:{ev.at.isoformat()}", kind="gm", phase=phase,
                            created_at=ev.at, effects=(Kill(ev.player, cause),),
                            facts=(Fact.of("death", player=ev.player, cause=cause),), status="approved",
                            decided_at=ev.at)
            st = replace(st, proposals=st.proposals + (prop,))
            return self.apply_proposal(st, prop, run)
        if k == "lynch" and st.has_player(ev.player):
            run.note("override", pgettext("gm-note", "GM lynch: %(player)s", player=ev.player), source=ev.source)
            prop = Proposal(key=f"gm:lynch:{ev.player}:{ev.at.isoformat()}", kind="lynch", phase=phase,
                            created_at=ev.at, effects=(Kill(ev.player, "lynch"),),
                            facts=(Fact.of("lynched", player=ev.player),), status="approved", decided_at=ev.at)
            st = replace(st, proposals=st.proposals + (prop,))
            return self.apply_proposal(st, prop, run)
        if k == "revive" and st.has_player(ev.player):
            run.note("override", pgettext("gm-note", "GM revive: %(player)s", player=ev.player), source=ev.source)
            return st.update_player(ev.player, alive=True, death=None)
        if k == "set_role" and st.has_player(ev.player):
            run.note("override", pgettext("gm-note", "GM set role of %(player)s: %(role)s", player=ev.player, role=ev.role), source=ev.source)
            return st.update_player(ev.player, role=self.canonical_role(ev.role))
        if k == "replace" and st.has_player(ev.player) and ev.target:
            run.note("override", pgettext("gm-note", "GM replace: %(target)s replaces %(player)s", target=ev.target, player=ev.player), source=ev.source)
            return self.rename_player(st, ev.player, ev.target)
        if k == "set_vote" and st.has_player(ev.player):
            if ev.target:
                vote = VoteEvent(at=ev.at, voter=ev.player, target=ev.target, source=ev.source or Source("gm"),
                                 channel="gm")
                return self.on_vote(st, vote, run)
            return self.on_unvote(st, UnvoteEvent(at=ev.at, voter=ev.player, channel="gm",
                                                   source=ev.source or Source("gm")), run)
        if k == "note":
            run.note("override", pgettext("gm-note", "GM note: %(note)s", note=ev.note), source=ev.source)
            return st
        run.note("override", pgettext("gm-note", "GM %(what)s ignored: unknown player %(player)r or missing data", what=k, player=ev.player), source=ev.source)
        return st

    def rename_player(self, st: GameState, old: str, new: str) -> GameState:
        def ren(n: str) -> str:
            return new if n == old else n

        players = tuple(replace(p, name=new, replaced=p.replaced + (old,)) if p.name == old else p
                        for p in st.players)
        votes = tuple(replace(v, voter=ren(v.voter), target=ren(v.target)) for v in st.votes)
        actions = tuple(replace(a, actor=ren(a.actor), targets=tuple(ren(t) for t in a.targets)) for a in st.actions)
        return replace(st, players=players, votes=votes, actions=actions, x=self.rename_in_x(st.x, old, new))

    def rename_in_x(self, x: Any, old: str, new: str) -> Any:
        return x

    # ------------------------------------------------------------------ wins
    def check_win(self, st: GameState) -> Outcome | None:
        return None

    def check_and_set_win(self, st: GameState, run: RunContext) -> GameState:
        if st.outcome is not None:
            return st
        if not any(p.role for p in st.players):
            # nobody's role is known (a GM counting votes without telling forummod the roles):
            # every player would look like town, and the first lynch would "end" the game
            return st
        out = self.check_win(st)
        if out is None:
            return st
        out = replace(out, at=out.at or run.current_at)
        run.note("win", pgettext("gm-note", "game over: %(result)s (%(winners)s)", result=out.result, winners=join_names(out.winners) or pgettext("gm-note", "no winners")), rule=out.rule)
        run.facts.append((st.phase.name if st.phase else "", Fact.of("game_over", out.rule, result=out.result,
                                                                       winners=out.winners)))
        return replace(st, outcome=out)

    # ------------------------------------------------------------------ helpers for subclasses
    def faction_of(self, st: GameState, name: str) -> str:
        spec = self.ROLES.get(st.role_of(name))
        return spec.faction if spec else ""

    def members(self, st: GameState, faction: str, alive_only: bool = False) -> tuple[str, ...]:
        return tuple(p.name for p in st.players
                     if self.faction_of(st, p.name) == faction and (p.alive or not alive_only))
