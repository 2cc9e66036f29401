"""mafia-majority: hammer at majority, plurality or no-lynch at the deadline, parity wins."""

from datetime import timedelta

from forummod.engine.types import PhaseId
from forummod.model import NO_LYNCH

from tests.engine.scenario import Scenario, dead, rejected

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
ROLES = {"Ann": "mafia", "Bob": "town", "Cat": "cop", "Dan": "doctor", "Eve": "town"}


def game(**options):
    return Scenario("mafia-majority", PLAYERS, ROLES, options=options)


def test_majority_of_living_ends_the_day_at_once_and_later_votes_are_late():
    g = Scenario("mafia-majority", PLAYERS + ["Fay", "Gus"], dict(ROLES, Fay="mafia", Gus="town")).day(1)
    g.vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve").vote("Ann", "Eve")  # 4 of 7 = majority
    g.vote("Gus", "Bob")
    run = g.run()
    assert dead(run) == {"Eve"}
    assert ("vote", "Gus", "late") in rejected(run)
    assert any(f.key == "hammer" for _, f in run.facts)


def test_last_mafia_lynched_gives_town_the_win_with_dead_town_included():
    g = game().day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Ann", "Eve")
    g.night(1).act("Ann", "kill", "Bob").day(2).vote("Cat", "Ann").vote("Dan", "Ann")
    run = g.run()
    assert run.state.outcome is not None and run.state.outcome.result == "town"
    assert set(run.state.outcome.winners) == {"Bob", "Cat", "Dan", "Eve"}


def test_tally_reports_majority_marker_and_not_voting():
    g = game().day(1).vote("Bob", "Ann").vote("Cat", "Ann")
    run = g.run(now=g.clock + timedelta(minutes=1))
    t = run.current_tally
    assert t.majority == 3
    assert t.candidates[0].name == "Ann" and t.candidates[0].total == 2
    assert [v.voter for v in t.candidates[0].voters] == ["Bob", "Cat"]
    assert set(t.not_voting) == {"Ann", "Dan", "Eve"}


def test_plurality_leader_is_lynched_at_the_deadline():
    g = game().day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Ann")
    run = g.run()
    assert dead(run) == {"Eve"}


def test_tie_at_the_deadline_is_no_lynch_by_default():
    g = game().day(1).vote("Bob", "Eve").vote("Cat", "Ann")
    run = g.run()
    assert dead(run) == set()
    assert any(f.key == "no_lynch" and f.get("reason") == "tie" for _, f in run.facts)


def test_tie_option_first_to_reach_lynches_who_got_there_first():
    g = game(tie="first_to_reach").day(1).vote("Bob", "Eve").vote("Cat", "Ann")
    run = g.run()
    assert dead(run) == {"Eve"}


def test_no_lynch_majority_ends_the_day_without_a_lynch():
    g = game().day(1)
    for v in ("Bob", "Cat", "Dan"):
        g.vote(v, NO_LYNCH)
    run = g.run()
    assert dead(run) == set()
    assert any(f.key == "no_lynch" and f.get("reason") == "majority_no_lynch" for _, f in run.facts)


def test_unvote_withdraws_and_a_dead_player_cannot_vote():
    g = game().day(1).vote("Bob", "Ann").unvote("Bob").vote("Cat", "Eve")
    g.night(1).act("Ann", "kill", "Bob").day(2).vote("Bob", "Eve")
    run = g.run()
    assert run.tally_for("D1").candidates[0].name == "Eve"
    assert run.tally_for("D1").total_for("Ann") == 0
    assert ("vote", "Bob", "dead_voter") in rejected(run)


def test_night_kill_is_blocked_by_the_doctor_and_the_cop_learns_guilt():
    g = game().day(1).night(1)
    g.act("Ann", "kill", "Eve").act("Dan", "protect", "Eve").act("Cat", "check", "Ann")
    run = g.run()
    assert dead(run) == set()
    results = [(to.to, to.fact.get("verdict")) for _, to in run.private]
    assert ("Cat", "guilty") in results


def test_pending_lynch_holds_the_night_until_the_gm_approves():
    g = game().day(1).vote("Bob", "Eve").vote("Cat", "Eve").night(1).act("Ann", "kill", "Bob")
    run = g.run(approve_all=False)
    assert run.state.proposal("lynch:D1").status == "pending"
    assert run.state.proposal("night:N1") is None
    g.decide("lynch:D1", at=g.phases[-1].end + timedelta(hours=1))
    run = g.run(now=g.phases[-1].end + timedelta(hours=2), approve_all=False)
    assert "Eve" in dead(run)
    assert run.state.proposal("night:N1").status == "pending"


def test_a_second_approval_changes_nothing():
    g = game().day(1).vote("Bob", "Eve").vote("Cat", "Eve")
    end = g.phases[-1].end
    g.decide("lynch:D1", at=end + timedelta(minutes=5)).decide("lynch:D1", at=end + timedelta(minutes=6))
    run = g.run(now=end + timedelta(hours=1), approve_all=False)
    assert dead(run) == {"Eve"}
    assert any(e.kind == "ignored" for e in run.log)


def test_mafia_wins_at_parity():
    g = game().day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Ann", "Eve")
    g.night(1).act("Ann", "kill", "Bob").day(2).vote("Ann", "Cat").vote("Dan", "Cat")
    run = g.run()
    assert run.state.outcome.result == "mafia"
    assert run.state.outcome.winners == ("Ann",)


def test_gm_replace_keeps_votes_on_the_seat():
    g = game().day(1).vote("Bob", "Eve").gm("replace", "Eve", "Zed").vote("Cat", "Zed")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert run.current_tally.candidates[0].name == "Zed"
    assert run.current_tally.candidates[0].total == 2


def test_a_game_whose_roles_nobody_told_forummod_never_ends_by_a_win_check():
    """With no role known every player looks like town: the first lynch must not end the game
    (a GM counting votes only). Once any role is known, the win check is back."""
    g = Scenario("mafia-majority", PLAYERS, {}).day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Ann", "Eve")
    run = g.run()
    assert dead(run) == {"Eve"} and run.state.outcome is None
    assert not any(f.key == "game_over" for _, f in run.facts)
    g = Scenario("mafia-majority", PLAYERS, {"Eve": "mafia"}).day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Ann", "Eve")
    assert g.run().state.outcome.result == "town"
