"""`witch-hunt` («Охота на ведьм»): the Russian role-play game of witches and a town.

Night first (D2). Every night each witch names a victim (two agree: it dies unless healed),
the witch holding the recruitment right converts someone or passes, the Inquisitor prays or
burns, the Herbalist heals, and the Gossip learns one player's card and status. By day the
town votes: plurality, with a revote among tied leaders that the GM opens, and at most two
removals. The coven wins when it outnumbers the town; the town when every witch is dead; the
Inquisitor alone against the last witch is a draw. Spec: ../shared/rules/witch-hunt.md.

Design notes:
- A converted player keeps their card as `Player.role` and gains the status "converted", so
  every reveal shows the former role (WH-C11) and the Gossip sees it (WH-G1).
- The recruitment rotation (D18) lives in `WitchX`; tonight's holder is computed when it is
  needed (at resolution, or provisionally while PMs arrive) and the rotation moves on only when
  the GM approves the dawn, so a rejected dawn changes nothing.
- The trial is a pure decision table (`trial.py`); the revote is a proposal "revote:D<n>"
  whose approval opens round 2 at the decision's time, with its own deadline timer (D11). A
  night whose scheduled start falls inside an open revote waits ("held") until the revote closes.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Mapping

from forummod.engine.events import ActionEvent, Override, Timer, VoteEvent
from forummod.engine.rulesets.witch_hunt import night as nightmod
from forummod.engine.rulesets.witch_hunt import trial
from forummod.engine.rulesets.witch_hunt.options import WitchHuntOptions
from forummod.engine.rulesets.witch_hunt.state import Revote, WitchX
from forummod.engine.ruleset import GmNote, Requirement, RoleSpec, Ruleset, RunContext, Setup, Timing
from forummod.engine.types import Fact, GameState, Kill, Outcome, Phase, PhaseId, Proposal
from forummod.errors import ConfigError
from forummod.schema import load
from forummod.i18n import code_text, join_names, note_time, pgettext, phase_label

EPS = timedelta(microseconds=1)  # D20 option: serve the deadline instant itself
WITCH_VERBS = ("kill", "recruit", "pass")
Problem = tuple[str, str | None, str]


class WitchHunt(Ruleset):
    name = "witch-hunt"
    title = "Охота на ведьм"
    language = "ru"
    Options = WitchHuntOptions
    has_no_lynch = False
    vote_rule = "WH-D7"
    late_vote_rule = "D20"  # half-open vote deadline (D9, D20)
    late_action_rule = "D9"  # night N's actions end at its deadline
    # D9: the vote closes 48 h after the dawn post; night actions are due 24 h after the night post.
    TIMING = Timing(first_phase="night", vote_close="48h", day_end="48h", action_deadline="24h", night_end="24h")
    ROLES = {  # WH-S1, WH-W1: townsfolk are every non-witch, the Inquisitor included
        "villager": RoleSpec("villager", "town", seen_as="villager", counts_as="town", rule="WH-S1"),
        "herbalist": RoleSpec("herbalist", "town", seen_as="herbalist", counts_as="town", rule="WH-H1", unique=True),
        "inquisitor": RoleSpec("inquisitor", "town", seen_as="inquisitor", counts_as="town", rule="WH-I1", unique=True),
        "gossip": RoleSpec("gossip", "town", seen_as="gossip", counts_as="town", rule="WH-G1", unique=True),
        "witch": RoleSpec("witch", "coven", seen_as="witch", counts_as="coven", rule="WH-K1"),
    }
    NIGHT_ORDER = (
        "kill",        # WH-N1 each witch names a victim (WH-K)
        "recruit",     # WH-N2 the holder converts or passes (WH-C)
        "inquisitor",  # WH-N3 prayer or holy fire (WH-I)
        "heal",        # WH-N4 the Herbalist heals (WH-H)
        "resolve",     # WH-N5 recruitment vs prayer, conversion, then deaths vs healing (D15)
        "check",       # WH-N6 the Gossip's result after the witches' and Inquisitor's actions
        "dawn",        # WH-N7 deaths with roles, announcements, private PMs
    )
    FACTS = {
        "lynched": "player, role, converted (bool): executed by the trial; role revealed, a converted player's former role (WH-D6, WH-C11)",
        "no_lynch": "reason (no_votes | revote_tie_odd | revote_tie_many), candidates (tuple): nobody is executed today (WH-D5, WH-D7, D4)",
        "revote": "candidates (tuple), round (2, or 3 with the D4 option), reason (tie | tie_all | revote_tie_odd | revote_tie_many): a revote among the tied leaders (WH-D2, D10)",
        "revote_open": "candidates (tuple), round, until (ISO date-time): the revote is open until then (D11)",
        "death": "player, role, cause (witches | holy_fire | witches_and_fire), converted (bool): a night death, role revealed (WH-K1, WH-I6, WH-H5, WH-C11)",
        "nobody_died": "nobody died tonight",
        "healed": "the Herbalist saved someone tonight; names nobody (WH-H4, D5)",
        "converted": "the coven converted someone tonight; names nobody (WH-C4)",
        "nobody_converted": "the witches converted nobody tonight (WH-C2; D17 option after a conversion)",
        "recruit_failed": "the recruitment failed tonight (WH-C6)",
        "soul_saved": "an innocent soul was saved by the Inquisitor tonight (WH-I4)",
        "gossip_result": "target, role, status (cursed | converted | innocent | prayed): private to the Gossip (WH-G1)",
        "coven_members": "members (tuple): private to a new coven member, the other witches (WH-C4)",
        "new_member": "player: private to each witch, the coven's new member (WH-C4)",
        "saved_soul": "player: private to the recruiter and the Inquisitor, with the D22 option (WH-I4)",
        "game_over": "result (coven | town | draw), winners (tuple) (WH-W1..W3, D21)",
    }

    # ------------------------------------------------------------------ class-level data
    @classmethod
    def default_timing(cls, options: Any) -> Timing:
        return replace(cls.TIMING, first_phase=getattr(options, "first_phase", "night"))  # D2

    @classmethod
    def check_setup(cls, game: Any, roles: Mapping[str, str]) -> tuple[str, str] | None:
        """D1, D18: counts from the options must fit the table; the first recruiter is a witch."""
        try:
            opts = load(WitchHuntOptions, dict(game.options), "options")
        except ConfigError:
            return None  # the options themselves are reported by the config loader
        names = [p.name for p in game.players]
        canon = {p: cls.canonical_role(r) for p, r in roles.items()}
        if opts.first_recruiter:
            if opts.first_recruiter not in names:
                return ("options.first_recruiter", f"{opts.first_recruiter!r} is not a player of this game")
            if canon and canon.get(opts.first_recruiter) not in (None, "witch"):
                return ("options.first_recruiter", f"{opts.first_recruiter!r} is not a witch")
        if not canon and not game.setup.roles:
            need = sum(opts.pool().values())
            if need != len(names):
                return ("options.plain_villagers", f"{opts.witches} witches + {len(opts.white_cards)} white cards + "
                        f"{opts.plain_villagers} villagers = {need}, but the game has {len(names)} players")
        if len(canon) == len(names):
            counts = {r: list(canon.values()).count(r) for r in set(canon.values())}
            if not counts.get("witch"):
                return ("players", "witch-hunt needs at least one witch")
            for card in ("herbalist", "inquisitor", "gossip"):
                if counts.get(card, 0) > 1:
                    return ("players", f"only one {card} can be in play")
        return None

    # ------------------------------------------------------------------ setup
    def initial_state(self, setup: Setup) -> GameState:
        dealt = False
        if not any(setup.roles.get(p) for p in setup.players):
            pool = self.options.pool()
            if sum(pool.values()) == len(setup.players):  # D1: deal from the options' counts
                setup, dealt = self.deal(setup, pool), True
        st = super().initial_state(setup)
        witches = [p.name for p in st.players if p.role == "witch"]  # seat order
        first, drawn = self.options.first_recruiter, False
        if first not in witches:
            first = witches[0] if witches else None
            if len(witches) >= 2:  # WH-C1: the GM's draw between the first two witches, seeded
                rng, st = self.rng(st, "first_recruiter")
                first, drawn = rng.choice(witches[:2]), True
        order = ((first,) if first else ()) + tuple(w for w in witches if w != first)  # D18
        return replace(st, x=WitchX(order=order, first_recruiter=first, first_drawn=drawn, dealt=dealt))

    # ------------------------------------------------------------------ coven helpers
    @staticmethod
    def is_converted(st: GameState, name: str) -> bool:
        return st.has_player(name) and nightmod.CONVERTED in st.player(name).statuses

    def in_coven(self, st: GameState, name: str) -> bool:
        return st.has_player(name) and (st.role_of(name) == "witch" or self.is_converted(st, name))

    def faction_of(self, st: GameState, name: str) -> str:
        return "coven" if self.in_coven(st, name) else super().faction_of(st, name)

    def coven_order(self, st: GameState) -> tuple[str, ...]:
        """D18 order of the current coven; a member the order misses (a GM role change) goes last."""
        order = tuple(n for n in st.x.order if self.in_coven(st, n))
        stray = tuple(p.name for p in st.players if self.in_coven(st, p.name) and p.name not in order)
        return order + stray

    def holder_for(self, st: GameState, night: str) -> str | None:
        """D18: tonight's holder of the recruitment right, from the living coven; None when the
        night is blocked by a conversion (WH-C8) or no witch is alive."""
        x: WitchX = st.x
        if x.blocked == night:
            return None
        order = self.coven_order(st)
        if not order:
            return None
        start = order.index(x.after) + 1 if x.after in order else 0  # D18: the first recruiter at 0
        for i in range(len(order)):
            cand = order[(start + i) % len(order)]
            if st.is_alive(cand):
                return cand
        return None

    RESUMABLE = {
        "recruitment_order": "value: the coven in join order, separated by commas, the first recruiter first (D18)",
        "last_recruiter": "player: the witch who held the recruitment right last; tonight's right is the next one's (D18)",
        "blocked": "value: the night with no recruitment after a conversion, e.g. N4 (WH-C8)",
        "compulsory": "value: the night whose holder must recruit after a pass, e.g. N4 (WH-C3, D19)",
        "converted": "player: converted to the coven; value: the night, e.g. N2 (WH-C4; give the role with set_role)",
    }

    def apply_state(self, st: GameState, key: str, player: str, value: str) -> GameState:
        x: WitchX = st.x
        if key == "recruitment_order":
            order = tuple(n.strip() for n in value.replace("，", ",").split(",") if n.strip())
            return st.with_x(order=order, first_recruiter=order[0] if order else None, first_drawn=True)
        if key == "last_recruiter":
            return st.with_x(after=player, first_drawn=True)
        if key == "blocked":
            return st.with_x(blocked=value)
        if key == "compulsory":
            return st.with_x(compulsory=value)
        if key == "converted":
            order = x.order if player in x.order else x.order + (player,)
            return st.with_x(converted=x.converted + ((player, value),), order=order)
        return st

    def gm_notes(self, st: GameState, phase: Phase | None) -> tuple[GmNote, ...]:
        """D18: tonight's holder of the recruitment right (or why nobody holds it), WH-C3 the
        compulsory night, and the coven's rotation order."""
        x: WitchX = st.x
        if x is None:
            return ()
        out = []
        if phase is not None and phase.kind == "night":
            holder = self.holder_for(st, phase.name)
            why = "blocked after a conversion (WH-C8)" if x.blocked == phase.name else \
                ("compulsory: must recruit (WH-C3)" if x.compulsory == phase.name else phase.name)
            out.append(GmNote("night_role", holder or "", "recruiter", why if holder else "nobody: " + why, "D18"))
        if x.order:
            out.append(GmNote("night_role", "", "recruitment order", ", ".join(x.order), "D18"))
        out += [GmNote("title", who, "converted", night, "WH-C4") for who, night in x.converted]
        return tuple(out)

    # ------------------------------------------------------------------ phases
    def on_phase_start(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        st = self._announce_setup(st, run)
        if phase.kind == "night" and self._trial_open(st):
            day = st.phase.name if st.phase else ""
            run.note("waiting", pgettext("gm-note", "%(phase)s starts when the trial of %(day)s ends", phase=phase_label(phase.name), day=phase_label(day)), rule="D11")
            return st.with_x(held=phase)
        st = super().on_phase_start(st, phase, run)
        if phase.kind == "day":
            return st.with_x(revote=None)
        return st.with_x(started=st.x.started | {phase.name})

    def _announce_setup(self, st: GameState, run: RunContext) -> GameState:
        x: WitchX = st.x
        if x.announced:
            return st
        if x.dealt:
            run.note("draw", pgettext("gm-note", "roles dealt from the options' counts with seed %(seed)s", seed=st.seed), rule="WH-S1")
        if x.first_recruiter:
            how = f"drawn with seed {st.seed}" if x.first_drawn else "from the config"
            run.note("draw", pgettext("gm-note", "first recruiter: %(player)s (%(how)s); order %(names)s", player=x.first_recruiter, how=how, names=join_names(x.order)),
                     rule="WH-C1")
        return st.with_x(announced=True)

    def _trial_open(self, st: GameState) -> bool:
        x: WitchX = st.x
        return (x.revote is not None and x.revote.open) or x.grace_pending is not None

    def _release(self, st: GameState, run: RunContext) -> GameState:
        """Start the night that waited for the trial, once nothing keeps the trial open."""
        x: WitchX = st.x
        if x.held is None or self._trial_open(st):
            return st
        held = x.held
        return self.on_phase_start(st.with_x(held=None), held, run)

    def _inclusive_pending(self, st: GameState, phase: Phase) -> bool:
        return self.options.deadline_inclusive and phase.name not in st.x.graced

    # ------------------------------------------------------------------ votes (WH-D7)
    def _generic_vote_problem(self, st: GameState, ev: VoteEvent) -> Problem | None:
        problem = super()._generic_vote_problem(st, ev)
        if problem is not None and problem[0] == "not_candidate":
            return (problem[0], "WH-D2", problem[2])  # revote: only the tied leaders
        return problem

    def on_vote_close(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if self._inclusive_pending(st, phase):
            return st  # D20 option: votes stamped at the deadline still count
        return super().on_vote_close(st, phase, run)

    def resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """WH-D8 round 1 at the day's vote deadline (D11)."""
        if self._inclusive_pending(st, phase):
            run.timer(phase.votes_close_at() + EPS, "wh_grace", phase.name, kind="day")
            return st.with_x(grace_pending=phase.name)
        t = self.tally(st, phase.votes_close_at())
        run.tallies.append(t)
        return self._apply_verdict(st, phase, trial.first_round(t), 1, run)

    def _apply_verdict(self, st: GameState, day: Phase, v: trial.Verdict, rnd: int, run: RunContext) -> GameState:
        if v.kind == "execute":
            return self._propose_execution(st, day, v, run)
        if v.kind == "revote":
            return self._propose_revote(st, day, v, rnd + 1, run)
        if v.players and rnd == 2 and self.options.revote_tie == "revote":
            return self._propose_revote(st, day, v, 3, run)  # D4 option: a second revote
        prop = Proposal(key=f"lynch:{day.name}", kind="lynch", phase=day.name,
                        created_at=run.current_at or day.start,
                        facts=(Fact.of("no_lynch", v.rule, reason=v.reason, candidates=v.players),),
                        summary=pgettext("gm-proposal", "nobody executed (%(reason)s)", reason=v.reason))
        run.note("proposal", prop.summary, rule=v.rule)
        return st.put_proposal(prop)

    def _propose_execution(self, st: GameState, day: Phase, v: trial.Verdict, run: RunContext) -> GameState:
        """WH-D1/D3/D4: one or two executions (WH-D5), roles revealed (WH-D6, WH-C11)."""
        names = v.players
        prop = Proposal(
            key=f"lynch:{day.name}", kind="lynch", phase=day.name, created_at=run.current_at or day.start,
            effects=tuple(Kill(n, "lynch", reveal=True, rule=v.rule) for n in names),
            facts=tuple(Fact.of("lynched", "WH-C11" if self.is_converted(st, n) else "WH-D6", player=n,
                                role=st.role_of(n), converted=self.is_converted(st, n)) for n in names),
            summary=pgettext("gm-proposal", "execute %(names)s (%(reason)s)", names=join_names(names), reason=code_text(v.reason)))
        run.note("proposal", prop.summary, rule=v.rule)
        return st.put_proposal(prop)

    def _propose_revote(self, st: GameState, day: Phase, v: trial.Verdict, rnd: int, run: RunContext) -> GameState:
        """WH-D2, D10: the GM's revote post (the approval) opens round `rnd` among the tied."""
        key = f"revote:{day.name}" if rnd == 2 else f"revote:{day.name}:r{rnd}"
        prop = Proposal(key=key, kind="revote", phase=day.name, created_at=run.current_at or day.start,
                        facts=(Fact.of("revote", v.rule, candidates=v.players, round=rnd, reason=v.reason),),
                        summary=pgettext("gm-proposal", "revote among %(names)s", names=join_names(v.players)),
                        data=(("candidates", v.players), ("round", rnd)))
        run.note("proposal", prop.summary, rule=v.rule)
        return st.put_proposal(prop).with_x(revote=Revote(day.name, v.players, rnd))

    def _revote_end(self, day: Phase, start: datetime) -> datetime:
        """D11: until the day's deadline if that is later than the revote post, else
        `revote_hours` after it. The day's scheduled end stands for that deadline, so a first
        round closed early (vote close pinned to the revote post) keeps the day's own deadline."""
        if day.end is not None and day.end > start:
            return day.end
        return start + timedelta(hours=self.options.revote_hours)

    def _open_revote(self, st: GameState, prop: Proposal, run: RunContext) -> GameState:
        data = dict(prop.data)
        cands, rnd = tuple(data["candidates"]), int(data["round"])
        day = run.phase_named(prop.phase)
        if day is None:
            return st
        start = run.current_at or day.start
        end = self._revote_end(day, start)
        if st.phase is not None and st.phase.name != day.name:
            # approved after the next night started: that night waits for the revote
            if st.phase.kind == "night" and st.phase.name not in st.x.resolved:
                st = st.with_x(held=st.phase)
            st = replace(st, phase=day)
        st = replace(st, votes=(), vote_round=rnd, vote_candidates=cands,
                     closed=st.closed - {f"votes:{day.name}"})
        st = st.with_x(revote=Revote(day.name, cands, rnd, start, end, open=True))
        self._revote_timer(st, run)
        run.facts.append((day.name, Fact.of("revote_open", "D11", candidates=cands, round=rnd, until=end.isoformat())))
        run.note("revote", pgettext("gm-note", "round %(round)s of %(phase)s among %(names)s until %(time)s", round=rnd, phase=phase_label(day.name), names=join_names(cands), time=note_time(end)), rule="WH-D2")
        return st

    def _revote_timer(self, st: GameState, run: RunContext) -> None:
        rv: Revote = st.x.revote
        at = rv.end + (EPS if self.options.deadline_inclusive else timedelta(0))
        run.timer(at, "wh_revote", rv.day, round=rv.round, end=rv.end.isoformat())

    def _close_revote(self, st: GameState, run: RunContext) -> GameState:
        """WH-D8 revote: decide among the votes cast since the revote post, then let the night in."""
        rv: Revote = st.x.revote
        day = run.phase_named(rv.day)
        t = self.tally(st, run.current_at)
        run.tallies.append(t)
        st = replace(st, closed=st.closed | {f"votes:{rv.day}"}).with_x(revote=replace(rv, open=False))
        st = self._apply_verdict(st, day, trial.revote_round(t, len(st.living())), rv.round, run)
        return self._release(st, run)

    def on_proposal_rejected(self, st: GameState, prop: Proposal, run: RunContext) -> GameState:
        if prop.kind == "revote":
            run.note("revote", pgettext("gm-note", "the GM refused %(key)s: nobody is executed unless the GM says so", key=prop.key), rule="WH-D2")
            return self._release(st.with_x(revote=None), run)
        return st

    def on_override(self, st: GameState, ev: Override, run: RunContext) -> GameState:
        """D11: the GM may move an open revote's deadline (kind "revote_deadline", ISO time in
        `note` or `target`)."""
        if ev.kind != "revote_deadline":
            return super().on_override(st, ev, run)
        rv: Revote | None = st.x.revote
        try:
            until = datetime.fromisoformat((ev.note or ev.target).strip())
        except ValueError:
            until = None
        if rv is None or not rv.open or until is None or until.tzinfo is None:
            run.note("override", pgettext("gm-note", "GM revote_deadline ignored: no open revote or no valid time (%(note)r)", note=ev.note),
                     source=ev.source)
            return st
        st = st.with_x(revote=replace(rv, end=until))
        self._revote_timer(st, run)
        run.note("override", pgettext("gm-note", "GM: the revote of %(day)s now closes at %(time)s", day=phase_label(rv.day), time=note_time(until)), source=ev.source,
                 rule="D11")
        return st

    def on_timer(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        if timer.name == "wh_revote":
            rv: Revote | None = st.x.revote
            if (rv is not None and rv.open and rv.day == timer.phase and rv.round == timer.get("round")
                    and rv.end is not None and rv.end.isoformat() == timer.get("end") and st.outcome is None):
                return self._close_revote(st, run)
            return st
        phase = run.phase_named(timer.phase)
        if phase is None:
            return st
        if timer.name == "wh_grace":
            return self._grace_over(st, phase, timer.get("kind"), run)
        if timer.name == "wh_night":
            return self.resolve_night(st, phase, run)
        return st

    def _grace_over(self, st: GameState, phase: Phase, kind: str, run: RunContext) -> GameState:
        """D20 option: the deadline instant has been served; close and resolve now."""
        st = st.with_x(graced=st.x.graced | {phase.name})
        if kind == "day":
            st = replace(st, closed=st.closed | {f"votes:{phase.name}"}).with_x(grace_pending=None)
            return self._release(self.resolve_day(st, phase, run), run)
        st = replace(st, closed=st.closed | {f"actions:{phase.name}"})
        return self.resolve_night(st, phase, run)

    # ------------------------------------------------------------------ night actions
    def on_action_deadline(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if self._inclusive_pending(st, phase):
            return st  # D20 option: PMs stamped at the deadline still count
        return super().on_action_deadline(st, phase, run)

    def action_phase(self, st: GameState, ev: ActionEvent, run: RunContext) -> PhaseId | None:
        """D9: night N takes the PMs from the start of day N-1 up to its deadline; later is late."""
        if self.options.deadline_inclusive:
            for ph in run.phases:
                if (ph.kind == "night" and ph.actions_due_at() == ev.at and ph.name not in st.x.graced
                        and ph.name in st.x.started):
                    return ph.id  # D20 option: a PM exactly at the deadline belongs to that night
        night = super().action_phase(st, ev, run)
        if night is None or f"actions:{night}" in st.closed or str(night) in st.x.resolved:
            return None
        return night

    def role_may_act(self, st: GameState, ev: ActionEvent) -> bool:
        return ev.action in WITCH_VERBS and self.is_converted(st, ev.actor)  # WH-C4

    def action_slot(self, ev: ActionEvent) -> str:
        if ev.action in ("pray", "fire"):
            return "inquisitor"  # WH-I2: one action a night
        if ev.action in ("recruit", "pass"):
            return "recruitment"
        return ev.action

    def action_problem(self, st: GameState, ev: ActionEvent, night: PhaseId | None) -> Problem | None:
        running = st.phase is not None and st.phase.kind == "night" and night == st.phase.id
        return self._problem(st, ev, str(night), check_holder=running)

    def _problem(self, st: GameState, ev: ActionEvent, night: str, check_holder: bool) -> Problem | None:
        """Role- and state-specific validity of one PM (D19); GM-entered actions skip the
        self-target rules the GM may override."""
        a, actor, t, gm = ev.action, ev.actor, ev.target, ev.by_gm
        if t is not None and not st.is_alive(t):
            return ("dead_target", "D19", pgettext("gm-rejection", "%(player)s is dead", player=t))
        if a in ("heal", "check") and self.is_converted(st, actor):
            return ("converted", "WH-C5", pgettext("gm-rejection", "%(actor)s was converted and has lost the night ability", actor=actor))
        if a == "heal" and t == actor and not gm:
            return ("self_target", "WH-H1", pgettext("gm-rejection", "the Herbalist cannot heal herself"))
        if a in ("pray", "fire") and t == actor and not gm:
            return ("self_target", "D19", pgettext("gm-rejection", "the Inquisitor cannot target himself"))
        if a == "check" and t == actor and not gm:
            return ("self_target", "D19", pgettext("gm-rejection", "the Gossip cannot check himself"))
        if a == "check" and self.options.gossip_target == "random" and not gm:
            return ("random_target", "D16", pgettext("gm-rejection", "the GM draws the Gossip's target"))
        if a == "kill" and t is not None and self.in_coven(st, t) and not gm:
            return ("witch_target", "D19", pgettext("gm-rejection", "%(player)s is a witch: victims are chosen among the innocents (WH-K1)", player=t))
        if a in ("recruit", "pass"):
            if st.x.blocked == night:
                return ("recruitment_blocked", "WH-C8", pgettext("gm-rejection", "no recruitment the night after a conversion"))
            if a == "recruit" and t is not None and self.in_coven(st, t):
                return ("witch_target", "D19", pgettext("gm-rejection", "%(player)s is already a witch", player=t))
            if check_holder:
                holder = self.holder_for(st, night)
                if actor != holder:
                    return ("not_holder", "WH-C1", pgettext("gm-rejection", "%(holder)s holds the recruitment right tonight", holder=holder or pgettext("gm-rejection", "nobody")))
        return None

    def queue_action(self, st: GameState, ev: ActionEvent, night: PhaseId | None, run: RunContext) -> GameState:
        st = super().queue_action(st, ev, night, run)
        if ev.action == "pass" and str(night) == st.x.compulsory:  # WH-C3, D19: flag it now
            run.note("warning", pgettext("gm-note", "%(actor)s passes on %(night)s, a compulsory recruitment night: it resolves as a pass unless the GM enters a target", actor=ev.actor, night=phase_label(night)), source=ev.source, rule="WH-C3")
        return st

    def required_actions(self, st: GameState, phase: Phase) -> tuple[Requirement, ...]:
        """WH-I2/D6: the Inquisitor must act every night; WH-C3/D19: on a compulsory night the
        holder must recruit (a pass does not satisfy it)."""
        if phase.kind != "night" or st.outcome is not None or phase.name in st.x.resolved:
            return ()
        acts = self.actions_for(st, phase.id)
        out = []
        for inq in st.holders("inquisitor"):
            if not any(a.actor == inq and a.action in ("pray", "fire") for a in acts):
                out.append(Requirement(inq, ("pray", "fire"), "WH-I2",
                                       pgettext("gm-finding", "%(player)s (Inquisitor) has sent no prayer or holy fire for %(phase)s; without one it counts as a prayer on nobody (D6)", player=inq, phase=phase_label(phase.name))))
        if st.x.compulsory == phase.name:
            holder = self.holder_for(st, phase.name)
            if holder is not None and not any(a.actor == holder and a.action == "recruit" for a in acts):
                out.append(Requirement(holder, ("recruit",), "WH-C3",
                                       pgettext("gm-finding", "%(holder)s must recruit on %(phase)s after last night's pass; a pass or silence resolves as a pass unless the GM enters a target (D19)", holder=holder, phase=phase_label(phase.name))))
        return tuple(out)

    # ------------------------------------------------------------------ night resolution
    def resolve_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        x: WitchX = st.x
        if st.outcome is not None:
            return self.drop_actions(st, phase.id)
        if phase.name in x.resolved:
            return st
        if self._inclusive_pending(st, phase):
            run.timer(phase.actions_due_at() + EPS, "wh_grace", phase.name, kind="night")
            return st
        if x.revote is not None and x.revote.open:
            # the revote reaches the night's deadline: close it, resolve the night after the trial
            now = run.current_at or phase.start
            if x.revote.end is not None and x.revote.end > now:
                run.note("warning", pgettext("gm-note", "the revote of %(day)s is cut short at the deadline of %(phase)s; pin the night's start or move the revote deadline", day=phase_label(x.revote.day), phase=phase_label(phase.name)), rule="D11")
            st = self._close_revote(st, run)
            run.timer(run.current_at or phase.start, "wh_night", phase.name)
            return st
        acts = self.actions_for(st, phase.id)
        st = self.drop_actions(st, phase.id).with_x(resolved=x.resolved | {phase.name})
        valid = self._valid_at_dawn(st, acts, phase.name, run)
        st, inp = self._night_input(st, phase, valid, run)
        out = nightmod.resolve(inp, self.NIGHT_ORDER)
        for rule, text in out.notes:
            run.note("night", text, rule=rule)
        if x.compulsory == phase.name and out.recruitment == nightmod.R_PASSED:
            run.note("warning", pgettext("gm-note", "%(holder)s did not recruit on a compulsory night: resolved as a pass; the next night is compulsory again", holder=inp.holder), rule="D19")
        prop = Proposal(key=f"night:{phase.name}", kind="night", phase=phase.name,
                        created_at=run.current_at or phase.start, effects=out.effects, facts=out.facts,
                        private=out.private, summary=out.summary,
                        data=(("holder", out.holder or ""), ("recruitment", out.recruitment),
                              ("converted", out.converted or "")))
        run.note("proposal", pgettext("gm-note", "night %(phase)s: %(summary)s", phase=phase_label(phase.name), summary=out.summary))
        return st.put_proposal(prop)

    def _valid_at_dawn(self, st: GameState, acts: tuple[ActionEvent, ...], night: str,
                       run: RunContext) -> list[ActionEvent]:
        """Check the queued PMs again against the state at resolution (a day's execution, a
        conversion, the holder); anything no longer valid is reported to the GM."""
        holder = self.holder_for(st, night)
        out = []
        for a in acts:
            spec = self.actions.get(a.action)
            problem: Problem | None = None
            if not st.is_alive(a.actor):
                problem = ("dead_actor", None, f"{a.actor} is dead")
            elif spec and spec.roles and st.role_of(a.actor) not in spec.roles and not self.role_may_act(st, a):
                problem = ("wrong_role", None, f"{a.actor} has no power to {a.action}")
            else:
                problem = self._problem(st, a, night, check_holder=False)
            if problem is None and a.action in ("recruit", "pass") and a.actor != holder:
                problem = ("not_holder", "WH-C1", f"{holder or 'nobody'} holds the recruitment right tonight")
            if problem is not None:
                code, rule, msg = problem
                run.reject(a.action, a.actor, code, source=a.source, target=a.target,
                           rule=rule or (spec.rule if spec else None), message=pgettext("gm-rejection", "%(message)s (at resolution)", message=msg), public=False)
                continue
            out.append(a)
        return out

    def _night_input(self, st: GameState, phase: Phase, valid: list[ActionEvent],
                     run: RunContext) -> tuple[GameState, nightmod.NightInput]:
        def last(*verbs: str, actor: str | None = None) -> ActionEvent | None:
            found = [a for a in valid if a.action in verbs and (actor is None or a.actor == actor)]
            return found[-1] if found else None

        night = phase.name
        holder = self.holder_for(st, night)
        rec = last("recruit", "pass", actor=holder) if holder else None
        inqs = st.holders("inquisitor")
        inq_act = last("pray", "fire")
        heal = last("heal")
        gossip_act = last("check")
        gossips = [g for g in st.holders("gossip") if not self.is_converted(st, g)]
        gossip, gossip_target = (gossip_act.actor, gossip_act.target) if gossip_act else (None, None)
        if self.options.gossip_target == "random" and gossips and gossip_act is None:  # D16 option
            cands = sorted(n for n in st.living_names() if n != gossips[0])
            if cands:
                rng, st = self.rng(st, f"gossip:{night}")
                gossip, gossip_target = gossips[0], rng.choice(cands)
                run.note("draw", pgettext("gm-note", "the Gossip's target on %(night)s: %(target)s (seed %(seed)s)", night=phase_label(night), target=gossip_target, seed=st.seed), rule="D16")
        inp = nightmod.NightInput(
            night=night,
            roles={p.name: p.role for p in st.players},
            living=frozenset(st.living_names()),
            coven=self.coven_order(st),
            prayed=frozenset(p.name for p in st.players if nightmod.PRAYED in p.statuses),
            victims=tuple((a.actor, a.target) for a in valid if a.action == "kill" and self.in_coven(st, a.actor)),
            holder=holder,
            blocked=st.x.blocked == night,
            recruit=rec.target if rec is not None and rec.action == "recruit" else None,
            recruit_missing=holder is not None and rec is None,
            inquisitor=inq_act.actor if inq_act else (inqs[0] if inqs else None),
            inquisitor_action=inq_act.action if inq_act else None,
            inquisitor_target=inq_act.target if inq_act else None,
            heal=heal.target if heal else None,
            herbalist=heal.actor if heal else None,
            gossip=gossip,
            gossip_target=gossip_target,
            heal_announce=self.options.heal_announce,
            blocked_night_post=self.options.blocked_night_post,
            saved_soul_pm=self.options.saved_soul_pm,
        )
        return st, inp

    # ------------------------------------------------------------------ applying
    def after_proposal(self, st: GameState, prop: Proposal, killed: list[str], run: RunContext) -> GameState:
        if prop.kind == "revote":
            return self._open_revote(st, prop, run)
        if prop.kind == "night":
            return self._advance_rotation(st, prop, run)
        return st

    def _advance_rotation(self, st: GameState, prop: Proposal, run: RunContext) -> GameState:
        """D18, WH-C2/C3/C7/C8: the turn is used whatever happened; a conversion blocks the next
        night; a pass (or silence) makes the next night compulsory."""
        data = dict(prop.data)
        holder = data.get("holder") or None
        result = data.get("recruitment", "")
        conv = data.get("converted") or None
        x: WitchX = st.x
        nxt = str(PhaseId(PhaseId.parse(prop.phase).number + 1, "night"))
        st = st.with_x(
            after=holder if holder else x.after,
            blocked=nxt if result == nightmod.R_CONVERTED else None,
            compulsory=nxt if result == nightmod.R_PASSED else None,
            order=x.order + ((conv,) if conv and conv not in x.order else ()),
            converted=x.converted + (((conv, prop.phase),) if conv else ()),
            holders=x.holders + ((prop.phase, holder or ""),),
        )
        nxt_holder = self.holder_for(st, nxt)
        if st.x.compulsory == nxt:
            run.note("warning", pgettext("gm-note", "%(phase)s: recruitment is compulsory for %(holder)s", phase=phase_label(nxt), holder=nxt_holder or pgettext("gm-note", "nobody")), rule="WH-C3")
        return st

    def rename_player(self, st: GameState, old: str, new: str) -> GameState:
        st = super().rename_player(st, old, new)
        return replace(st, vote_candidates=tuple(new if n == old else n for n in st.vote_candidates))

    def rename_in_x(self, x: WitchX, old: str, new: str) -> WitchX:
        def ren(n: str | None) -> str | None:
            return new if n == old else n

        rv = x.revote
        if rv is not None:
            rv = replace(rv, candidates=tuple(ren(n) for n in rv.candidates))
        return replace(x, order=tuple(ren(n) for n in x.order), first_recruiter=ren(x.first_recruiter),
                       after=ren(x.after), converted=tuple((ren(p), n) for p, n in x.converted),
                       holders=tuple((n, ren(h) or "") for n, h in x.holders), revote=rv)

    # ------------------------------------------------------------------ wins (WH-W1..W4, D21)
    def check_win(self, st: GameState) -> Outcome | None:
        coven = [p.name for p in st.living() if self.in_coven(st, p.name)]
        town = [p.name for p in st.living() if not self.in_coven(st, p.name)]
        if not coven:  # WH-W2, D21: even with no townsperson left
            winners = tuple(p.name for p in st.players if p.role != "witch" and not self.is_converted(st, p.name))
            return Outcome("town", winners, "all witches are dead", "WH-W2", factions=("town",))
        if len(coven) == 1 and len(town) == 1 and st.role_of(town[0]) == "inquisitor":  # WH-W3
            return Outcome("draw", (), "the Inquisitor and the last witch", "WH-W3")
        if len(coven) > len(town):  # WH-W1
            winners = tuple(p.name for p in st.players if self.in_coven(st, p.name))
            return Outcome("coven", winners, "the witches outnumber the town", "WH-W1", factions=("coven",))
        return None
