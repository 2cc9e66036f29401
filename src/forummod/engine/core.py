"""The fold: run a ruleset over a timeline of events and report everything it decided.

`run_game` is a pure function of (ruleset, setup, phases, events, now, approve_all): the same
inputs always give the same `GameRun`. Proposals wait for the GM: a `Decision` in the timeline
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
from typing import Iterable

from forummod.engine.events import (
    RANK_BOUNDARY, RANK_INPUT, RANK_START, ActionDeadline, ActionEvent, Decision, Draw, Event,
    Override, PhaseEnd, PhaseStart, Timer, UnvoteEvent, VoteClose, VoteEvent,
)
from forummod.engine.ruleset import Ruleset, RunContext, Setup
from forummod.engine.types import GameRun, GameState, Phase, Proposal


def boundary_events(phases: Iterable[Phase]) -> list[Event]:
    """Phase starts, vote closes, action deadlines and ends as timeline events.

    A boundary pinned to a post sorts right after that post (`end_post + 0.5`); an unpinned
    one sorts before every post stamped at the same instant (half-open deadlines). A phase
    whose start is not pinned but follows a phase closed by post N starts right after post N
    and after the GM events entered at it (`N + 0.75`): not before the posts of that minute,
    which would open it before the phase it follows has closed.
    """
    out: list[Event] = []
    prev: Phase | None = None
    for ph in phases:
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
        prev = ph
    return out


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


class _Driver:
    def __init__(self, ruleset: Ruleset, phases: tuple[Phase, ...], now: datetime, approve_all: bool):
        self.rs = ruleset
        self.now = now
        self.approve_all = approve_all
        night_first = not phases or phases[0].kind == "night"
        self.run = RunContext(phases, now, night_first)
        self.standing: dict[str, Decision] = {}  # decisions that arrived before their proposal
        self.deferred: list[Event] = []  # resolutions waiting for a pending proposal
        self.timeline: _Timeline | None = None
        self.future: list[Event] = []

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
            for t in self.run.timers:
                self.timeline.push(t)
            self.run.timers.clear()
        return st

    def _decide(self, st: GameState, prop: Proposal, verdict: str, at: datetime | None) -> GameState:
        if verdict == "approve":
            self.run.note("approved", f"{prop.key}: {prop.summary}", at=at)
            st = st.set_proposal_status(prop.key, "approved", at)
            return self.rs.apply_proposal(st, st.proposal(prop.key), self.run)
        self.run.note("rejected", f"{prop.key} rejected by the GM", at=at)
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
        index = 0
        while True:
            ev = self.timeline.pop()
            if ev is None:
                break
            if ev.at > self.now:
                self.future = [ev] + self.timeline.remaining()
                break
            index += 1
            self.run.current_at = ev.at
            self.run.event_index = index
            before = st.proposals
            st = self._step(st, ev)
            st = self._settle(st, before)
        return st

    def _step(self, st: GameState, ev: Event) -> GameState:
        rs, run = self.rs, self.run
        if isinstance(ev, Decision):
            prop = st.proposal(ev.key)
            if prop is None:
                self.standing[ev.key] = ev
                return st
            if prop.status != "pending":
                run.note("ignored", f"{ev.key} was already {prop.status}; the second decision changes nothing")
                return st
            return self._decide(st, prop, ev.verdict, ev.at)
        if isinstance(ev, Override):
            return rs.on_override(st, ev, run)
        if isinstance(ev, Draw):
            return replace(st, seed=ev.seed) if ev.name == "seed" else st
        if st.outcome is not None and not isinstance(ev, (PhaseStart, PhaseEnd)):
            if isinstance(ev, (VoteEvent, UnvoteEvent)):
                ph = st.phase
                if ph is not None and ph.kind == "day" and f"votes:{ph.name}" in st.closed \
                        and rs.counts_channel(ev):
                    # still report a late vote as late (e.g. ON-V1), not just "game over"
                    run.reject("vote", ev.voter, "late", at=ev.at, source=ev.source,
                               rule=rs.late_vote_rule or rs.vote_rule,
                               message=f"the vote of {ph.name} is closed")
                else:
                    run.reject("vote", ev.voter, "game_over", at=ev.at, source=ev.source,
                               message="the game is over")
            elif isinstance(ev, ActionEvent):
                run.reject(ev.action, ev.actor, "game_over", at=ev.at, source=ev.source,
                           message="the game is over")
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
            self.run.note("waiting", f"{type(ev).__name__} of {label} "
                                     f"waits for the GM to decide {names or 'earlier proposals'}")
            return st
        return self._resolve(st, ev)


def run_game(ruleset: Ruleset, setup: Setup, phases: tuple[Phase, ...], events: Iterable[Event], *,
             now: datetime, approve_all: bool = False, issues: tuple = ()) -> GameRun:
    """Fold the timeline up to `now` and report state, tallies, proposals, facts and rejections."""
    driver = _Driver(ruleset, tuple(phases), now, approve_all)
    st = ruleset.initial_state(setup)
    timeline = boundary_events(phases) + list(events)
    st = driver.fold(st, timeline)
    run = driver.run
    tallies = list(run.tallies)
    ph = st.phase
    if ph is not None and ph.kind == "day" and not any(t.phase == ph.name and t.round == st.vote_round
                                                        for t in tallies):
        closes = ph.votes_close_at()
        at = closes if closes is not None and closes < now else now
        tallies.append(ruleset.tally(st, at, public=False))
    return GameRun(state=st, phases=tuple(phases), tallies=tuple(tallies), public_tallies=tuple(run.public_tallies),
                   rejections=tuple(run.rejections),
                   log=tuple(run.log), facts=tuple(run.facts), private=tuple(run.private), issues=tuple(issues),
                   upcoming=tuple(e for e in driver.future if not isinstance(e, (VoteEvent, UnvoteEvent, ActionEvent))),
                   waiting=tuple(driver.deferred))
