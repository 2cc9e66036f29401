"""The fold opens and closes phases (issue 14, item 0): each phase starts when the one before
really ended, and the plan gives its deadlines from that start; GM moves are timeline events."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from forummod.engine.core import run_game
from forummod.engine.events import Decision, PhaseControl, VoteEvent
from forummod.engine.registry import make_ruleset
from forummod.engine.ruleset import Setup
from forummod.engine.schedule import PhasePlan, extended
from forummod.engine.types import Phase, PhaseId
from forummod.model import Source

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve")


def game(events, now, **options):
    rs = make_ruleset("mafia-majority", options)
    plan = PhasePlan(rs.default_timing(rs.options), start=T0, tz=ZoneInfo("UTC"))
    return run_game(rs, Setup(PLAYERS, {"Ann": "mafia"}, 1), plan, events, now=now)


def vote(voter, target, hours, post):
    return VoteEvent(at=T0 + hours * H, seq=post, voter=voter, target=target,
                     source=Source("post", id=str(post), number=post))


HAMMER = [vote("Bob", "Ann", 1, 2), vote("Cat", "Ann", 2, 3), vote("Dan", "Ann", 3, 4)]  # 3 of 5


def phase(run, name) -> Phase:
    return next(p for p in run.phases if p.name == name)


def test_a_hammer_ends_the_day_at_its_post_and_the_night_deadlines_count_from_there():
    run = game(HAMMER + [Decision(at=T0 + 4 * H, key="lynch:D1")], now=T0 + 5 * H)
    d1, n1 = phase(run, "D1"), phase(run, "N1")
    assert d1.end == T0 + 3 * H and d1.end_post == 4
    assert n1.start == T0 + 3 * H and n1.end == T0 + 27 * H and run.state.phase.name == "N1"
    assert not run.state.is_alive("Ann")
    assert [e.at for e in run.upcoming][:2] == [T0 + 27 * H, T0 + 27 * H]  # N1's deadline and end


def test_without_hammer_ends_day_the_day_keeps_its_72_hours():
    run = game(HAMMER, now=T0 + 5 * H, hammer_ends_day=False)
    assert run.state.phase.name == "D1" and phase(run, "D1").end == T0 + 72 * H
    assert "votes:D1" in run.state.closed  # the vote still closed at the hammer


def test_pause_keeps_the_time_left_and_resume_moves_every_deadline():
    events = [PhaseControl(at=T0 + 10 * H, action="pause"), PhaseControl(at=T0 + 40 * H, action="resume")]
    paused = game(events[:1], now=T0 + 100 * H)
    assert paused.state.phase.name == "D1" and paused.paused_since == T0 + 10 * H
    run = game(events, now=T0 + 41 * H)
    assert phase(run, "D1").end == T0 + 102 * H and run.paused_since is None


def test_gm_end_and_start_are_folded_at_their_instant():
    events = [PhaseControl(at=T0 + 5 * H, action="end", phase="D1"),
              PhaseControl(at=T0 + 8 * H, action="start", phase="D2")]
    run = game(events, now=T0 + 9 * H)
    assert phase(run, "N1").start == T0 + 5 * H and phase(run, "N1").end == T0 + 8 * H
    assert phase(run, "D2").start == T0 + 8 * H and phase(run, "D2").end == T0 + 80 * H
    ignored = game([PhaseControl(at=T0 + 5 * H, action="end", phase="D3")], now=T0 + 6 * H)
    assert any("has not started" in e.text for e in ignored.log)


def test_end_game_by_ruling_stops_the_phases():
    run = game([PhaseControl(at=T0 + 5 * H, action="end_game", result="draw")], now=T0 + 200 * H)
    assert run.state.outcome.result == "draw" and [p.name for p in run.phases] == ["D1"]


def test_an_extension_moves_the_close_alone_or_the_end_with_it():
    d = Phase(PhaseId(1, "day"), T0, end=T0 + 72 * H, vote_close=T0 + 48 * H)
    assert extended(d, None, T0 + 60 * H).vote_close == T0 + 60 * H and extended(d, None, T0 + 60 * H).end == d.end
    assert extended(d, None, T0 + 80 * H).end == T0 + 80 * H
    e = extended(d, T0 + 90 * H, None)
    assert (e.vote_close, e.end) == (T0 + 90 * H, T0 + 90 * H)
