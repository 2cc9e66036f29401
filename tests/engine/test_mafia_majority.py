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


# --------------------------------------------------------------------------- issue 27: how a day is decided


SEVEN = PLAYERS + ["Fay", "Gus"]
ROLES7 = dict(ROLES, Fay="mafia", Gus="town")


def game7(**options):
    return Scenario("mafia-majority", SEVEN, ROLES7, options=options)


def no_lynch_reason(run) -> str | None:
    return next((f.get("reason") for _, f in run.facts if f.key == "no_lynch"), None)


def test_plurality_day_a_majority_does_not_close_the_vote_and_the_deadline_lynches_the_leader():
    """majority = "none" (TeamLiquid): 4 of 7 on Eve is no hammer; later votes count, and the
    wagon that leads at the deadline is lynched."""
    g = game7(majority="none").day(1)
    g.vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve").vote("Ann", "Eve")
    g.vote("Gus", "Ann").vote("Fay", "Ann").unvote("Ann").vote("Ann", "Bob").vote("Eve", "Ann").vote("Dan", "Ann")
    run = g.run()
    assert rejected(run) == []
    assert not any(f.key == "hammer" for _, f in run.facts)
    assert dead(run) == {"Ann"}  # Ann 4 (Gus, Fay, Eve, Dan), Eve 2 at the deadline
    assert run.tally_for("D1").majority is None


def test_plurality_day_keeps_the_day_to_its_deadline_and_reports_no_majority_in_the_count():
    g = game7(majority="none").day(1)
    for v in ("Bob", "Cat", "Dan", "Ann", "Gus"):
        g.vote(v, "Eve")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert run.state.phase.name == "D1" and run.state.proposal("lynch:D1") is None
    assert run.current_tally.majority is None and run.current_tally.candidates[0].total == 5


def test_plurality_day_tie_follows_the_tie_option():
    for tie, expected in (("no_lynch", set()), ("first_to_reach", {"Eve"})):
        g = game7(majority="none", tie=tie).day(1)
        g.vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Ann").vote("Gus", "Ann")
        run = g.run()
        assert dead(run) == expected, tie
        if tie == "no_lynch":
            assert no_lynch_reason(run) == "tie"


def test_plurality_day_a_no_lynch_majority_is_one_more_candidate_until_the_deadline():
    g = game7(majority="none").day(1)
    for v in ("Bob", "Cat", "Dan", "Eve"):
        g.vote(v, NO_LYNCH)
    g.vote("Gus", "Ann")
    run = g.run()
    assert dead(run) == set() and no_lynch_reason(run) == "plurality_no_lynch"
    assert rejected(run) == []


def test_plurality_day_with_no_lynch_votes_off_refuses_them():
    g = game7(majority="none", no_lynch=False).day(1).vote("Bob", NO_LYNCH).vote("Cat", "Eve")
    run = g.run()
    assert ("vote", "Bob", "no_lynch_not_allowed") in rejected(run) and dead(run) == {"Eve"}


def test_half_majority_deadline_lynches_a_leader_with_half_the_majority_rounded_up():
    """MafiaScum (game 18916, rule 16): "At deadline, majority is cut in half": 8 alive, majority
    5, so 3 lynch at the deadline and 2 do not."""
    eight = SEVEN + ["Hal"]
    for votes, expected in ((3, {"Eve"}), (2, set())):
        g = Scenario("mafia-majority", eight, dict(ROLES7, Hal="town"), options={"deadline": "half_majority"}).day(1)
        for v in ("Bob", "Cat", "Dan")[:votes]:
            g.vote(v, "Eve")
        g.vote("Gus", "Ann")
        run = g.run()
        assert dead(run) == expected, votes
        if not expected:
            assert no_lynch_reason(run) == "below_half_majority"


def test_half_majority_deadline_still_hammers_and_applies_the_tie_rule_above_the_threshold():
    g = game7(deadline="half_majority").day(1)  # 7 alive: majority 4, half of it 2
    g.vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Ann").vote("Gus", "Ann")
    assert no_lynch_reason(g.run()) == "tie"
    g = game7(deadline="half_majority", tie="first_to_reach").day(1)
    g.vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Ann").vote("Gus", "Ann")
    assert dead(g.run()) == {"Eve"}
    g = game7(deadline="half_majority").day(1)
    for v in ("Bob", "Cat", "Dan", "Gus"):
        g.vote(v, "Eve")
    run = g.run()
    assert dead(run) == {"Eve"} and any(f.key == "hammer" for _, f in run.facts)


def test_half_majority_deadline_with_a_plurality_day():
    """majority = "none" with deadline = "half_majority": no hammer, and the deadline leader
    needs half the majority (7 alive: 2)."""
    g = game7(majority="none", deadline="half_majority").day(1).vote("Bob", "Eve").vote("Cat", "Ann").unvote("Cat")
    run = g.run()
    assert dead(run) == set() and no_lynch_reason(run) == "below_half_majority"


def test_deadline_no_lynch_still_lets_a_majority_hammer():
    g = game7(deadline="no_lynch").day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve")
    assert no_lynch_reason(g.run()) == "deadline_no_majority"
    g.vote("Gus", "Eve")
    assert dead(g.run()) == {"Eve"}


def test_no_lynch_needs_half_closes_the_day_at_half_the_living_when_they_are_even():
    """MafiaScum (e.g. game 16214 rule 4): "If an even number of players are alive, a no lynch
    requires exactly half"; odd: the same as a lynch."""
    six = PLAYERS + ["Fay"]
    g = Scenario("mafia-majority", six, dict(ROLES, Fay="town"), options={"no_lynch_needs": "half"}).day(1)
    for v in ("Bob", "Cat", "Dan"):
        g.vote(v, NO_LYNCH)
    g.vote("Eve", "Ann")
    run = g.run()
    assert no_lynch_reason(run) == "half_no_lynch" and ("vote", "Eve", "late") in rejected(run)
    g = game7(no_lynch_needs="half").day(1)
    for v in ("Bob", "Cat", "Dan"):
        g.vote(v, NO_LYNCH)
    g.vote("Eve", "Ann")
    run = g.run()  # 7 alive: half rounded up is 4, the majority: 3 do not close the vote
    assert ("vote", "Eve", "late") not in rejected(run) and no_lynch_reason(run) == "plurality_no_lynch"


def test_half_no_lynch_does_not_lower_a_lynch_majority():
    six = PLAYERS + ["Fay"]
    g = Scenario("mafia-majority", six, dict(ROLES, Fay="town"), options={"no_lynch_needs": "half"}).day(1)
    g.vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve").vote("Fay", "Ann")
    run = g.run()
    assert ("vote", "Fay", "late") not in rejected(run) and not any(f.key == "hammer" for _, f in run.facts)


def test_majority_none_with_deadline_no_lynch_is_refused_by_the_config_check():
    from types import SimpleNamespace

    from forummod.engine.rulesets.mafia_majority import MafiaMajority

    bad = SimpleNamespace(options={"majority": "none", "deadline": "no_lynch"})
    assert MafiaMajority.check_setup(bad, {})[0] == "options.deadline"
    assert MafiaMajority.check_setup(SimpleNamespace(options={"majority": "none"}), {}) is None


# --------------------------------------------------------------------------- issue 27: per-seat votes


def weighted(votes: dict[str, int], **options):
    return Scenario("mafia-majority", SEVEN, ROLES7, options=options, extra={"votes": votes})


def test_a_double_voters_vote_adds_two_to_the_wagon_and_can_hammer():
    """Majority stays counted in players (7 alive: 4); Bob's double vote makes Eve's wagon 4 with
    three voters, and the day ends there."""
    g = weighted({"Bob": 2}).day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve").vote("Gus", "Ann")
    run = g.run()
    assert dead(run) == {"Eve"} and ("vote", "Gus", "late") in rejected(run)
    # the thread's count shows Eve on 3 of a majority of 4: the day-end line tells no number
    hammer = next(f for _, f in run.facts if f.key in ("hammer", "hammer_hidden"))
    assert hammer.key == "hammer_hidden" and hammer.get("votes") is None
    t = run.tally_for("D1")
    assert t.majority == 4 and [v.weight for v in t.candidates[0].voters] == [2.0, 1.0, 1.0]


def test_a_public_double_vote_is_told_in_the_hammer_line():
    g = weighted({"Bob": 2}, public_weights=True).day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve")
    hammer = next(f for _, f in g.run().facts if f.key in ("hammer", "hammer_hidden"))
    assert hammer.key == "hammer" and hammer.get("votes") == 4


def test_a_double_voter_decides_the_deadline_plurality():
    g = weighted({"Gus": 2}, majority="none").day(1).vote("Bob", "Eve").vote("Gus", "Ann")
    assert dead(g.run()) == {"Ann"}  # one double vote beats one vote
    g = weighted({"Gus": 2}, majority="none").day(1).vote("Bob", "Eve").vote("Cat", "Eve").vote("Gus", "Ann")
    assert dead(g.run()) == set()  # 2 against 2: a tie, no lynch by default
    g = weighted({"Gus": 2}, majority="none", tie="first_to_reach").day(1)
    g.vote("Gus", "Ann").vote("Bob", "Eve").vote("Cat", "Eve")
    assert dead(g.run()) == {"Ann"}  # Ann reached 2 first


def test_a_replacement_keeps_the_seats_double_vote():
    g = weighted({"Bob": 2}).day(1).gm("replace", "Bob", "Zed").vote("Zed", "Eve").vote("Cat", "Eve")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert run.current_tally.total_for("Eve") == 3


def test_a_seat_with_no_votes_may_not_vote_and_is_not_listed_as_not_voting():
    g = weighted({"Bob": 0}).day(1).vote("Bob", "Eve").vote("Cat", "Eve")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert ("vote", "Bob", "no_vote_right") in rejected(run)
    assert "Bob" not in run.current_tally.not_voting and run.current_tally.majority == 4


def test_the_public_count_hides_a_double_vote_unless_public_weights():
    for public, expected in ((False, (2, [1.0, 1.0])), (True, (3, [2.0, 1.0]))):
        g = weighted({"Bob": 2}, public_weights=public).day(1).vote("Bob", "Eve").vote("Cat", "Eve")
        run = g.run(now=g.clock + timedelta(minutes=1))
        t = g.rs.tally(run.state, g.clock, public=True)
        assert (t.candidates[0].total, [v.weight for v in t.candidates[0].voters]) == expected, public
        assert run.current_tally.total_for("Eve") == 3  # the GM's count always weighs


def test_gm_set_votes_gives_a_seat_its_votes_from_then_on():
    g = game7().day(1).vote("Bob", "Eve").gm("set_votes", "Bob", value="2").vote("Cat", "Eve").vote("Dan", "Eve")
    run = g.run()
    assert dead(run) == {"Eve"} and any(f.key == "hammer_hidden" for _, f in run.facts)  # hidden weight
    assert run.current_tally.total_for("Eve") == 4
    g = weighted({"Bob": 2}).day(1).gm("set_votes", "Bob", value="1").vote("Bob", "Eve").vote("Cat", "Eve")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert run.current_tally.total_for("Eve") == 2
