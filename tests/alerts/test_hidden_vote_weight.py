"""Issue 27 item 8: a secret double voter's weight never reaches an alert channel that is not
private; the GM's own alert keeps the true count."""

from __future__ import annotations

from types import SimpleNamespace

from forummod.alerts.decide import _tally_alerts

from tests.engine.scenario import Scenario

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def hammer_alert(public_weights: bool):
    g = Scenario("mafia-majority", PLAYERS, {"Ann": "mafia"}, options={"public_weights": public_weights},
                 extra={"votes": {"Bob": 2}})
    g.day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve")
    run = g.run(now=g.clock, approve_all=False)
    a = SimpleNamespace(run=run, ruleset=g.rs, game_id="g")
    return next(al for al in _tally_alerts(a, run.state.phase.name) if al.kind == "hammer")


def test_a_hidden_double_vote_makes_the_hammer_alert_secret_with_the_threads_count():
    al = hammer_alert(public_weights=False)
    assert "4/4 votes (Bob, Cat, Dan)" in al.text_for(private=True)
    assert al.text_for(private=False) == "g D1: HAMMER on Eve (3/4 votes in the thread)"


def test_a_public_double_vote_is_no_secret():
    al = hammer_alert(public_weights=True)
    assert al.text_for(private=False) == al.text_for(private=True)
