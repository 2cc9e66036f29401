"""The fold: run a ruleset over a timeline of events and report everything it decided.

`run_game` is a pure function of (ruleset, setup, phase plan, events, now, approve_all): the
same inputs always give the same `GameRun`. The fold opens and closes phases itself: each
phase starts when the one before really ended (at its deadline, at a hammer, after a GM's
pause), and the plan gives its default deadlines from that start. Proposals wait for the GM: a `Decision` in the timeline
approves or rejects one by key (a decision recorded before its proposal exists applies as soon
as the proposal appears, which is how archived games and `--approve-all` replay). While a
blocking proposal is pending, later resolutions (the next lynch, the next dawn) wait for it,
so nothing is resolved on a state the GM has not confirmed.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import replace
from datetime import datetime
from typing import Callable, Iterable

from forummod.engine.events import (
    RANK_BOUNDARY, RANK_INPUT, RANK_START, ActionDeadline, ActionEvent, Decision, Draw, Event,
    Override, PhaseControl, PhaseEnd, PhaseStart, Timer, UnvoteEvent, VoteClose, VoteEvent,
)
from forummod.engine.ruleset import Ruleset, RunContext, Setup
from forummod.engine.schedule import extended
from forummod.engine.types import Fact, GameRun, GameState, Outcome, Phase, Proposal
from forummod.i18n import gm_language, join_names, note_time, pgettext, phase_label


def boundary_events(phases: Iterable[Phase]) -> list[Event]:
    """Phase starts, vote closes, action deadlines and ends of a fixed list of phases."""
    out: list[Event] = []
    prev: Phase | None = None
    for ph in phases:
        out.extend(phase_boundaries(ph, prev))
        prev = ph
    return out


def phase_boundaries(ph: Phase, prev: Phase | None, *, start: bool = True) -> list[Event]:
    """One phase's start, vote close or action deadline, and end as timeline events.

    A boundary pinned to a post sorts right after that post (`end_post + 0.5`); an unpinned
    one sorts before every post stamped at the same instant (half-open deadlines). A phase
    whose start is not pinned but follows a phase closed by post N starts right after post N
    and after the GM events entered at it (`N + 0.75`): not before the posts of that minute,
    which would open it before the phase it follows has closed.
    """
    out: list[Event] = []
    if start:
        if ph.start_post is not None:
            out.append(PhaseStart(at=ph.start, rank=RANK_INPUT, seq=ph.start_post - 0.5, phase=ph))
        elif prev is not None and prev.end_post is not None and prev.end == ph.start:
            out.append(PhaseStart(at=ph.start, rank=RANK_INPUT, seq=prev.end_post + 0.75, phase=ph))
        else:
            out.append(PhaseStart(at=ph.start, rank=RANK_START, phase=ph))

    def at_end(cls, when: datetime | None) -> None:
        if when is None:
            return
        if ph.end_post is not None and ph.end is not None and when == ph.end:
            out.append(cls(at=when, rank=RANK_INPUT, seq=ph.end_post + 0.5, phase=ph))
        else:
            out.append(cls(at=when, rank=RANK_BOUNDARY, phase=ph))

    if ph.kind == "day":
        at_end(VoteClose, ph.votes_close_at())
    else:
        at_end(ActionDeadline, ph.actions_due_at())
    at_end(PhaseEnd, ph.end)
    return out


class ListPlan:
    """A fixed list of phases as a plan (engine tests write phases by hand): each phase opens
    at its listed start whatever happened before, so a hand-written list means what it says."""

    def __init__(self, phases: Iterable[Phase]):
        self.phases = tuple(phases)
        self.night_first = not self.phases or self.phases[0].kind == "night"
        self.gm_posts: tuple[datetime, ...] | None = None  # see PhasePlan.gm_posts

    def first_phase(self) -> Phase | None:
        return self.phases[0] if self.phases else None

    def next_phase(self, prev: Phase, real_end: datetime, count: int) -> Phase | None:
        ids = [p.id for p in self.phases]
        if prev.id not in ids or ids.index(prev.id) + 1 >= len(ids):
            return None
        return self.phases[ids.index(prev.id) + 1]


class _Timeline:
    """A priority queue of events; rulesets can add timers while the fold runs."""

    def __init__(self, events: Iterable[Event]):
        self._count = itertools.count()
        self._heap: list = []
        for e in events:
            self.push(e)

    def push(self, e: Event) -> None:
        heapq.heappush(self._heap, (e.sort_key, next(self._count), e))

    def pop(self) -> Event | None:
        return heapq.heappop(self._heap)[2] if self._heap else None

    def peek(self) -> Event | None:
        return self._heap[0][2] if self._heap else None

    def remaining(self) -> list[Event]:
        return [e for _, _, e in sorted(self._heap)]


_BOUNDARIES = (PhaseStart, VoteClose, ActionDeadline, PhaseEnd)

#: Called after each folded event with (event, state before, state after, the run so far), and
#: again when settling it (approvals, waiting resolutions) changed the state: how the vote
#: history (engine/history.py) sees every instant `tally --at` could stop at, in one run.
Observer = Callable[[Event, GameState, GameState, RunContext], None]


class _Driver:
    def __init__(self, ruleset: Ruleset, plan, now: datetime, approve_all: bool):
        self.rs = ruleset
        self.plan = plan
        self.now = now
        self.approve_all = approve_all
        self.produced: list[Phase] = []  # the phases the fold opened, with their real boundaries
        self.run = RunContext(self.produced, now, plan.night_first)  # type: ignore[arg-type]
        self.run.gm_posts = getattr(plan, "gm_posts", None)
        self.standing: dict[str, Decision] = {}  # decisions that arrived before their proposal
        self.deferred: list[Event] = []  # resolutions waiting for a pending proposal
        self.timeline: _Timeline | None = None
        self.future: list[Event] = []
        self.live: dict[tuple[str, object], Event] = {}  # the valid boundary of each kind per phase
        self.done: set[tuple[str, object]] = set()
        self.mine: dict[int, Event] = {}  # boundaries the fold itself scheduled, by identity
        self.paused_at: datetime | None = None
        self.pending_ext: dict[str, list[PhaseControl]] = {}  # GM extensions of phases not open yet
        self.start_at: dict[str, tuple[datetime, int | None]] = {}  # GM `start` of the next phase
        self.stamps: dict[str, int] = {}
        self.until: tuple | None = None  # stop before this timeline key (`tally --at N`: before post N)
        self.observe: Observer | None = None  # told of every folded event (engine/history.py)

    # ---- phases: the fold opens and closes them
    @staticmethod
    def _key(ev: Event) -> tuple[str, object]:
        return (type(ev).__name__, ev.phase.id)  # type: ignore[attr-defined]

    def _is_live(self, ev: Event) -> bool:
        """False for a boundary the fold scheduled and later moved (rulesets' own are kept)."""
        return id(ev) not in self.mine or self.live.get(self._key(ev)) is ev

    def _schedule(self, ph: Phase, prev: Phase | None) -> None:
        """Put `ph`'s boundaries not yet passed on the timeline (replacing earlier ones)."""
        for e in phase_boundaries(ph, prev):
            k = self._key(e)
            if k in self.done:
                continue
            self.live[k] = e
            self.mine[id(e)] = e  # the value keeps the object (and so its id) alive
            self.timeline.push(e)
        for i, p in enumerate(self.produced):
            if p.id == ph.id:
                self.produced[i] = ph
                return
        self.produced.append(ph)

    def _replan(self, st: GameState, ph: Phase) -> GameState:
        """`ph` replaces the phase of the same id (an early end, a resume): new deadlines."""
        ids = [p.id for p in self.produced]
        i = ids.index(ph.id) if ph.id in ids else len(ids)
        for kind in ("VoteClose", "ActionDeadline", "PhaseEnd"):
            self.live.pop((kind, ph.id), None)
        self._schedule(ph, self.produced[i - 1] if i > 0 else None)
        if st.phase is not None and st.phase.id == ph.id:
            st = replace(st, phase=ph)
        return st

    def _open_next(self, st: GameState, ended: Phase) -> None:
        """The phase after `ended`, from its real end (the schedule gives its default deadlines)."""
        if st.outcome is not None or self.paused_at is not None:
            return
        nxt = self.plan.next_phase(ended, ended.end, len(self.produced))
        if nxt is None or any(p.id == nxt.id for p in self.produced):
            return
        at_post = self.start_at.pop(nxt.name, None)
        if at_post is not None and hasattr(self.plan, "phase"):  # the GM's `start` at this instant
            nxt = replace(self.plan.phase(nxt.id, at_post[0]), start_post=at_post[1])
        for ext in self.pending_ext.pop(nxt.name, ()):
            nxt = extended(nxt, ext.until, ext.close)
        self._schedule(nxt, ended)

    def _current(self, st: GameState) -> Phase | None:
        if st.phase is None:
            return None
        return next((p for p in self.produced if p.id == st.phase.id), st.phase)

    def _end_early(self, st: GameState, req: tuple, by_gm: bool = False) -> GameState:
        """A ruleset ended a phase before its deadline (e.g. a hammer): it ends at that post.
        A phase whose end the config pins ends there instead; the GM's `end` always applies."""
        name, at, post = req
        ph = next((p for p in self.produced if p.name == name), None)
        if ph is None or ("PhaseEnd", ph.id) in self.done or (self.plan_pins_end(ph) and not by_gm):
            return st
        if ph.end is not None and ph.end <= at and not by_gm:
            return st
        new = replace(ph, end=at, end_post=post,
                      vote_close=min(ph.vote_close, at) if ph.vote_close else None,
                      action_deadline=min(ph.action_deadline, at) if ph.action_deadline else None)
        if post:
            self.run.note("phase", pgettext("gm-note", "%(phase)s ends early at %(time)s (post %(post)s)",
                                            phase=phase_label(name), time=note_time(at), post=post))
        else:
            self.run.note("phase", pgettext("gm-note", "%(phase)s ends early at %(time)s", phase=phase_label(name),
                                            time=note_time(at)))
        return self._replan(st, new)

    def plan_pins_end(self, ph: Phase) -> bool:
        pinned = getattr(self.plan, "end_pinned", None)
        return bool(pinned and pinned(ph.id))

    def _control(self, st: GameState, ev: PhaseControl) -> GameState:
        """The GM's clock: pause and resume every deadline; end the game by ruling."""
        run = self.run
        if ev.action == "pause":
            if self.paused_at is not None:
                run.note("ignored", pgettext("gm-note", "GM pause: the game is already paused"), source=ev.source)
                return st
            self.paused_at = ev.at
            cur = self._current(st)
            if cur is not None:
                for kind in ("VoteClose", "ActionDeadline", "PhaseEnd"):
                    self.live.pop((kind, cur.id), None)
            run.note("phase", pgettext("gm-note", "GM pause: every deadline stops"), source=ev.source)
            return st
        if ev.action == "resume":
            if self.paused_at is None:
                run.note("ignored", pgettext("gm-note", "GM resume: the game is not paused"), source=ev.source)
                return st
            delta = ev.at - self.paused_at
            self.paused_at = None
            cur = self._current(st)
            run.note("phase", pgettext("gm-note", "GM resume: deadlines move by %(delta)s", delta=delta), source=ev.source)
            if cur is None:
                return st

            def mv(kind: str, t: datetime | None) -> datetime | None:
                return t if t is None or (kind, cur.id) in self.done else t + delta

            new = replace(cur, end=mv("PhaseEnd", cur.end), vote_close=mv("VoteClose", cur.vote_close),
                          action_deadline=mv("ActionDeadline", cur.action_deadline), end_post=None)
            if cur.vote_close is None and cur.kind == "day" and cur.end is not None:
                new = replace(new, vote_close=mv("VoteClose", cur.end))
            if cur.action_deadline is None and cur.kind == "night" and cur.end is not None:
                new = replace(new, action_deadline=mv("ActionDeadline", cur.end))
            st = self._replan(st, new)
            if ("PhaseEnd", cur.id) in self.done:  # paused between phases: open the next one now
                self._open_next(st, replace(cur, end=ev.at))
            return st
        if ev.action in ("end", "start", "extend"):
            return self._move(st, ev)
        if ev.action == "end_game":
            if st.outcome is not None:
                run.note("ignored", pgettext("gm-note", "GM end-game: the game is already over"), source=ev.source)
                return st
            out = Outcome(ev.result or "abandoned", tuple(ev.winners), reason=ev.note or "GM ruling", at=ev.at)
            run.note("win", pgettext("gm-note", "game over by GM ruling: %(result)s (%(winners)s)", result=out.result, winners=join_names(out.winners) or pgettext("gm-note", "no winners")),
                     source=ev.source)
            run.facts.append((st.phase.name if st.phase else "",
                              Fact.of("game_over", result=out.result, winners=out.winners)))
            return replace(st, outcome=out)
        run.note("ignored", pgettext("gm-note", "GM %(action)r is not a phase control", action=ev.action), source=ev.source)
        return st

    def _move(self, st: GameState, ev: PhaseControl) -> GameState:
        """The GM's `end`, `start` and `extend` of a phase, at the event's instant."""
        run = self.run
        ph = next((p for p in self.produced if p.name == ev.phase), None)
        ended = ph is not None and ("PhaseEnd", ph.id) in self.done
        if ev.action == "extend":
            if ph is None:
                self.pending_ext.setdefault(ev.phase, []).append(ev)
                run.note("phase", pgettext("gm-note", "GM extend %(phase)s: applies when it starts", phase=phase_label(ev.phase)), source=ev.source)
                return st
            if ended:
                run.note("ignored", pgettext("gm-note", "GM extend %(phase)s: it already ended (gm start opens a phase)", phase=phase_label(ev.phase)),
                         source=ev.source)
                return st
            key = ("VoteClose" if ph.kind == "day" else "ActionDeadline", ph.id)
            new = extended(ph, ev.until, ev.close)
            if key in self.done:  # a closed vote stays closed: record the extension before it (gm --at)
                field_ = "vote_close" if ph.kind == "day" else "action_deadline"
                new = replace(new, **{field_: getattr(ph, field_) or ph.end})
                run.note("phase", pgettext("gm-note", "GM extend %(phase)s: its vote close / action deadline had passed; only the end moves (record the extension with --at before the deadline to reopen it)", phase=phase_label(ev.phase)), source=ev.source)
            run.note("phase", pgettext("gm-note", "GM extend %(phase)s: ends %(time)s", phase=phase_label(ev.phase), time=note_time(new.end)),
                     source=ev.source)
            return self._replan(st, new)
        if ev.action == "end":
            if ph is None or ended:
                run.note("ignored", pgettext("gm-note", "GM end %(phase)s: it already ended", phase=phase_label(ev.phase))
                         if ended else pgettext("gm-note", "GM end %(phase)s: it has not started",
                                                phase=phase_label(ev.phase)), source=ev.source)
                return st
            run.note("phase", pgettext("gm-note", "GM end %(phase)s", phase=phase_label(ev.phase)), source=ev.source)
            return self._end_early(st, (ph.name, ev.at, ev.post), by_gm=True)
        # start: the phase before ends here (if still open) and this one opens with fresh deadlines
        if ph is not None:
            if ended:
                run.note("ignored", pgettext("gm-note", "GM start %(phase)s: it already ended", phase=phase_label(ev.phase)), source=ev.source)
                return st
            fresh = self.plan.phase(ph.id, ev.at) if hasattr(self.plan, "phase") else ph
            fresh = replace(fresh, start=ph.start, start_post=ph.start_post)
            run.note("phase", pgettext("gm-note", "GM start %(phase)s: deadlines count from %(time)s", phase=phase_label(ev.phase), time=note_time(ev.at)), source=ev.source)
            return self._replan(st, self._restarted(fresh, ph, ev.at))
        cur = self.produced[-1] if self.produced else None
        if cur is None or not hasattr(self.plan, "next_id") or self.plan.next_id(cur.id).__str__() != ev.phase:
            run.note("ignored", pgettext("gm-note", "GM start %(phase)s: not the phase after %(previous)s", phase=phase_label(ev.phase), previous=phase_label(cur.name) if cur else pgettext("gm-note", "the start")),
                     source=ev.source)
            return st
        self.start_at[ev.phase] = (ev.at, ev.post)
        if ("PhaseEnd", cur.id) in self.done:  # between phases: open it now
            self._open_next(st, replace(cur, end=ev.at))
            return st
        run.note("phase", pgettext("gm-note", "GM start %(phase)s: %(previous)s ends", phase=phase_label(ev.phase), previous=phase_label(cur.name)), source=ev.source)
        return self._end_early(st, (cur.name, ev.at, None), by_gm=True)

    def _restarted(self, fresh: Phase, ph: Phase, at: datetime) -> Phase:
        """A running phase re-timed from `at` (deadlines already passed stay as they were)."""
        keep = {"VoteClose": "vote_close", "ActionDeadline": "action_deadline"}
        out = replace(fresh, start=ph.start)
        for kind, field_ in keep.items():
            if (kind, ph.id) in self.done:
                out = replace(out, **{field_: getattr(ph, field_)})
        return out

    def _stamp(self, ev: Event) -> str:
        """A token of the event being folded that does not change when other events are added
        (proposal keys made from it stay valid: an approval never renumbers another proposal)."""
        seq = ev.seq
        if seq >= 1e15:  # an event of the GM's log (service.gm_events)
            token = f"gm{int(seq - 1e15)}"
        elif seq >= 1e12:  # a PM, in inbox order
            token = f"pm{int(seq - 1e12)}"
        else:  # a post number (or a boundary's place after one)
            token = str(int(seq)) if float(seq).is_integer() else str(seq)
        base = f"{ev.at.isoformat()}#{token}"
        n = self.stamps.get(base, 0)
        self.stamps[base] = n + 1
        return base if n == 0 else f"{base}.{n}"

    # ---- helpers
    def _blocked(self, st: GameState) -> bool:
        return any(p.status == "pending" and p.blocking for p in st.proposals)

    def _settle(self, st: GameState, before: tuple[Proposal, ...]) -> GameState:
        """Decide proposals created by the last step, then run resolutions that were waiting."""
        changed = True
        while changed:
            changed = False
            for prop in st.pending():
                if prop in before:
                    continue
                dec = self.standing.get(prop.key)
                if dec is not None or self.approve_all:
                    verdict = dec.verdict if dec is not None else "approve"
                    st = self._decide(st, prop, verdict, dec.at if dec else self.run.current_at)
                    changed = True
                    break
            if not self._blocked(st) and self.deferred:
                ev = self.deferred.pop(0)
                before = st.proposals
                st = self._resolve(st, ev)
                changed = True
            if self.run.end_requests:
                st = self._take_end_requests(st)
            for t in self.run.timers:
                self.timeline.push(t)
            self.run.timers.clear()
        return st

    def _decide(self, st: GameState, prop: Proposal, verdict: str, at: datetime | None) -> GameState:
        if verdict == "approve":
            self.run.note("approved", pgettext("gm-note", "%(key)s: %(summary)s", key=prop.key, summary=prop.summary), at=at)
            st = st.set_proposal_status(prop.key, "approved", at)
            return self.rs.apply_proposal(st, st.proposal(prop.key), self.run)
        self.run.note("rejected", pgettext("gm-note", "%(key)s rejected by the GM", key=prop.key), at=at)
        st = st.set_proposal_status(prop.key, "rejected", at)
        return self.rs.on_proposal_rejected(st, prop, self.run)

    def _resolve(self, st: GameState, ev: Event) -> GameState:
        """Run a deferred resolution (day or night) now that nothing blocks it."""
        ph = ev.phase  # type: ignore[attr-defined]
        if isinstance(ev, VoteClose):
            return self.rs.resolve_day(st, ph, self.run)
        if isinstance(ev, ActionDeadline):
            return self.rs.resolve_night(st, ph, self.run)
        if isinstance(ev, PhaseEnd):
            return self.rs.on_phase_end(st, ph, self.run)
        if isinstance(ev, Timer):
            return self.rs.on_timer(st, ev, self.run)
        return st

    # ---- main loop
    def fold(self, st: GameState, events: list[Event]) -> GameState:
        self.timeline = _Timeline(events)
        first = self.plan.first_phase()
        if first is not None:
            self._schedule(first, None)
        index = 0
        while True:
            ev = self.timeline.pop()
            if ev is None:
                break
            if not self._is_live(ev):
                continue  # a boundary moved by an early end, a pause or a resume
            if ev.at > self.now or (self.until is not None and ev.sort_key >= self.until):
                self.future = [ev] + [e for e in self.timeline.remaining() if self._is_live(e)]
                break
            index += 1
            self.run.current_at = ev.at
            self.run.event_index = index
            self.run.event_stamp = self._stamp(ev)
            if id(ev) in self.mine:
                self.done.add(self._key(ev))
                self.live.pop(self._key(ev), None)
            before = st.proposals
            prev = st
            st = self._step(st, ev)
            if isinstance(ev, PhaseEnd):
                self._open_next(st, ev.phase)
            st = self._take_end_requests(st)
            if self.observe is not None:  # the step alone (a hammer's count, before its lynch applies)
                self.observe(ev, prev, st, self.run)
            mid = st
            st = self._settle(st, before)
            if self.observe is not None and st is not mid:  # what settling it changed
                self.observe(ev, mid, st, self.run)
        return st

    def _take_end_requests(self, st: GameState) -> GameState:
        while self.run.end_requests:
            st = self._end_early(st, self.run.end_requests.pop(0))
        return st

    def lookahead(self, st: GameState) -> list[Phase]:
        """The next phase as the schedule has it, when the current one ends after `now`."""
        if not self.produced or st.outcome is not None or self.paused_at is not None:
            return []
        last = self.produced[-1]
        if ("PhaseEnd", last.id) in self.done or last.end is None:
            return []
        nxt = self.plan.next_phase(last, last.end, len(self.produced))
        if nxt is None:
            return []
        self.future.extend(e for e in phase_boundaries(nxt, last))
        return [nxt]

    def _step(self, st: GameState, ev: Event) -> GameState:
        rs, run = self.rs, self.run
        if isinstance(ev, Decision):
            prop = st.proposal(ev.key)
            if prop is None:
                self.standing[ev.key] = ev
                return st
            if prop.status != "pending":
                run.note("ignored", pgettext("gm-note", "%(key)s was already %(status)s; the second decision changes nothing", key=ev.key, status=prop.status))
                return st
            return self._decide(st, prop, ev.verdict, ev.at)
        if isinstance(ev, Override):
            return rs.on_override(st, ev, run)
        if isinstance(ev, Draw):
            return replace(st, seed=ev.seed) if ev.name == "seed" else st
        if isinstance(ev, PhaseControl):
            return self._control(st, ev)
        if st.outcome is not None and not isinstance(ev, (PhaseStart, PhaseEnd)):
            if isinstance(ev, (VoteEvent, UnvoteEvent)):
                ph = st.phase
                if ph is not None and ph.kind == "day" and f"votes:{ph.name}" in st.closed \
                        and rs.counts_channel(ev):
                    # still report a late vote as late (e.g. ON-V1), not just "game over"
                    run.reject("vote", ev.voter, "late", at=ev.at, source=ev.source,
                               rule=rs.late_vote_rule or rs.vote_rule,
                               message=pgettext("gm-rejection", "the vote of %(phase)s is closed", phase=phase_label(ph.name)))
                else:
                    run.reject("vote", ev.voter, "game_over", at=ev.at, source=ev.source,
                               message=pgettext("gm-rejection", "the game is over"))
            elif isinstance(ev, ActionEvent):
                run.reject(ev.action, ev.actor, "game_over", at=ev.at, source=ev.source,
                           message=pgettext("gm-rejection", "the game is over"))
            return st
        if isinstance(ev, PhaseStart):
            if st.outcome is not None:
                return st
            return rs.on_phase_start(st, ev.phase, run)
        if isinstance(ev, VoteEvent):
            return rs.on_vote(st, ev, run)
        if isinstance(ev, UnvoteEvent):
            return rs.on_unvote(st, ev, run)
        if isinstance(ev, ActionEvent):
            return rs.on_action(st, ev, run)
        if isinstance(ev, VoteClose):
            if rs.voting_open(st) and st.phase is not None and st.phase.id == ev.phase.id:
                run.public_tallies.append(rs.tally(st, ev.at, public=True))
            st = rs.on_vote_close(st, ev.phase, run)
            return self._maybe_defer(st, ev)
        if isinstance(ev, ActionDeadline):
            st = rs.on_action_deadline(st, ev.phase, run)
            return self._maybe_defer(st, ev)
        if isinstance(ev, PhaseEnd):
            if st.outcome is not None:
                return st
            return self._maybe_defer(st, ev)
        if isinstance(ev, Timer):
            return self._maybe_defer(st, ev)
        return st

    def _maybe_defer(self, st: GameState, ev: Event) -> GameState:
        if self._blocked(st) or self.deferred:
            self.deferred.append(ev)
            names = ", ".join(p.key for p in st.pending() if p.blocking)
            ph = getattr(ev, "phase", "")
            label = ph.name if isinstance(ph, Phase) else str(ph or "")
            self.run.note("waiting", pgettext("gm-note", "%(what)s waits for the GM to decide %(keys)s",
                                              what=boundary_text(ev, label),
                                              keys=names or pgettext("gm-note", "earlier proposals")))
            return st
        return self._resolve(st, ev)


def boundary_text(ev: Event, phase: str | None = None) -> str:
    """What a deferred event is, as the GM reads it ("the end of D2"), never its class name;
    `phase` defaults to the event's own phase."""
    if phase is None:
        ph = getattr(ev, "phase", "")
        phase = ph.name if isinstance(ph, Phase) else str(ph or "")
    label = phase_label(phase)
    if isinstance(ev, PhaseStart):
        return pgettext("gm-note", "the start of %(phase)s", phase=label)
    if isinstance(ev, VoteClose):
        return pgettext("gm-note", "the vote close of %(phase)s", phase=label)
    if isinstance(ev, ActionDeadline):
        return pgettext("gm-note", "the action deadline of %(phase)s", phase=label)
    if isinstance(ev, PhaseEnd):
        return pgettext("gm-note", "the end of %(phase)s", phase=label)
    if isinstance(ev, PhaseControl):
        return pgettext("gm-note", "the GM's %(action)s of %(phase)s", action=ev.action, phase=label)
    if label:
        return pgettext("gm-note", "a deadline of %(phase)s", phase=label)
    return pgettext("gm-note", "a deadline")


def run_game(ruleset: Ruleset, setup: Setup, phases, events: Iterable[Event], *,
             now: datetime, approve_all: bool = False, issues: tuple = (), until: tuple | None = None,
             lang: str = "en", observe: Observer | None = None) -> GameRun:
    """Fold the timeline up to `now` and report state, tallies, proposals, facts and rejections.

    `lang` is the game's language: the GM notes, rejection messages and proposal summaries are
    worded in it (`forummod.i18n`); the machine codes next to them stay the same.

    `phases` is a plan (`schedule.PhasePlan`: the fold opens each phase when the one before
    really ends, so a hammer or a GM's move shifts what follows) or a fixed list of phases.
    `observe` (optional) is called after every folded event; it only reads.
    """
    with gm_language(lang):
        return _run_game(ruleset, setup, phases, events, now=now, approve_all=approve_all, issues=issues,
                         until=until, observe=observe)


def _run_game(ruleset: Ruleset, setup: Setup, phases, events: Iterable[Event], *,
              now: datetime, approve_all: bool, issues: tuple, until: tuple | None,
              observe: Observer | None = None) -> GameRun:
    plan = ListPlan(phases) if isinstance(phases, (tuple, list)) else phases
    driver = _Driver(ruleset, plan, now, approve_all)
    driver.until = until
    driver.observe = observe
    st = ruleset.initial_state(setup)
    st = driver.fold(st, list(events))
    run = driver.run
    tallies = list(run.tallies)
    ph = st.phase
    at_now = False
    if ph is not None and ph.kind == "day" and not any(t.phase == ph.name and t.round == st.vote_round
                                                        for t in tallies):
        closes = ph.votes_close_at()
        at = closes if closes is not None and closes < now else now
        tallies.append(ruleset.tally(st, at, public=False))
        at_now = closes is None or closes > now
    ahead = driver.lookahead(st)
    return GameRun(state=st, phases=tuple(driver.produced) + tuple(ahead), tallies=tuple(tallies),
                   public_tallies=tuple(run.public_tallies),
                   rejections=tuple(run.rejections),
                   log=tuple(run.log), facts=tuple(run.facts), private=tuple(run.private), issues=tuple(issues),
                   upcoming=tuple(e for e in driver.future if not isinstance(e, (VoteEvent, UnvoteEvent, ActionEvent))),
                   waiting=tuple(driver.deferred), paused_since=driver.paused_at,
                   action_nights=dict(run.action_nights), count_at_now=at_now)
