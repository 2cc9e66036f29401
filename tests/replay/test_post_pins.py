"""Phase pins by post number, as archived games use them: a phase closed by the moderator's post
N ends right after post N, and the next phase — pinned or not — opens after it.

Forum times have minute resolution, so the posts just before the moderator's closing post often
share its minute. A following phase whose start is not pinned starts at that same instant; it
must still start after post N (and after the GM events entered at N), not before every post of
that minute — which would close the day early and move a dawn kill into the next phase.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forummod.engine.core import run_game
from forummod.engine.events import Override, VoteEvent
from forummod.engine.registry import make_ruleset
from forummod.engine.ruleset import Setup
from forummod.engine.schedule import Pin, build_phases
from forummod.engine.types import PhaseId
from forummod.model import Source

UTC = timezone.utc
T0 = datetime(2011, 2, 6, 19, 34, tzinfo=UTC)
CLOSE = datetime(2011, 2, 7, 17, 23, tzinfo=UTC)  # the minute of posts 9 and 10
PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve")
ROLES = {"Ann": "mafia", "Bob": "town", "Cat": "town", "Dan": "town", "Eve": "town"}


def _vote(number: int, at: datetime, voter: str, target: str) -> VoteEvent:
    return VoteEvent(at=at, seq=float(number), voter=voter, target=target,
                     source=Source("post", id=str(number), number=number))


def _run(events):
    rs = make_ruleset("mafia-majority", {"first_phase": "day", "deadline": "plurality"})
    posts = {1: T0, 9: CLOSE, 10: CLOSE}
    # D1 pinned to posts 1..10; N1 not pinned: it inherits D1's end
    phases = build_phases(rs.default_timing(rs.options), start=T0, tz=UTC, now=CLOSE + timedelta(hours=1),
                          pins=[Pin(PhaseId(1, "day"), start_post=1, end_post=10)], post_times=posts)
    assert phases[1].start == CLOSE and phases[1].start_post is None
    return run_game(rs, Setup(PLAYERS, ROLES, 1), phases, events, now=CLOSE + timedelta(hours=1), approve_all=True)


def test_a_vote_in_the_minute_of_the_closing_post_still_counts_for_the_day():
    run = _run([_vote(5, T0 + timedelta(hours=1), "Bob", "Cat"),
                _vote(9, CLOSE, "Cat", "Ann"), _vote(9, CLOSE, "Dan", "Ann")])
    assert run.rejections == ()
    dead = {p.name: p.death.phase for p in run.state.players if not p.alive}
    assert dead == {"Ann": "D1"}  # the deadline plurality of the votes up to post 10


def test_a_gm_kill_entered_at_the_closing_post_dies_in_the_phase_that_post_closed():
    run = _run([Override(at=CLOSE, seq=10.5, kind="kill", player="Bob", cause="endgame",
                         source=Source("config", id="0"))])
    bob = run.state.player("Bob")
    assert (bob.death.phase, bob.death.cause) == ("D1", "endgame")
    assert run.state.phase is not None and run.state.phase.name == "N1"  # and the night opened after it
