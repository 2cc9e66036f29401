"""Missing compulsory actions before the deadline (WH-I2/D6 with WH-X22, WH-C3/D19, ON-V1/D11)."""

from __future__ import annotations

from datetime import timedelta

from forummod.checks.actions import check_missing_actions
from forummod.engine.ruleset import Requirement
from forummod.engine.rulesets.mafia_majority import MafiaMajority

from tests.checks.helpers import T0, ctx, day, h, night
from tests.engine.scenario import Scenario


class MustCheck(MafiaMajority):
    """The cop stands in for the witch-hunt Inquisitor: one action every night, no skipping (WH-I2)."""

    def required_actions(self, st, phase):
        if phase.kind != "night":
            return ()
        done = {a.actor for a in self.actions_for(st, phase.id)}
        return tuple(Requirement(p, ("check",), rule="WH-I2",
                                 message=f"{p} (Inquisitor) has sent no prayer or holy fire")
                     for p in st.holders("cop") if p not in done)


class Given(MafiaMajority):
    def __init__(self, reqs):
        super().__init__()
        self.reqs = reqs

    def required_actions(self, st, phase):
        return self.reqs


def _night_game():
    g = Scenario("mafia-majority", ["Ann", "Bob", "Cat"], {"Ann": "mafia", "Cat": "cop"})
    g.rs = MustCheck()
    g.day(1, hours=1).night(1, hours=12)
    return g, g.phases[-1].action_deadline


def _check(g, now):
    run = g.run(now=now)
    return check_missing_actions(ctx(["Ann", "Bob", "Cat"], phases=run.phases, now=now, run=run,
                                     ruleset="witch-hunt", rs=g.rs))


def test_WH_X22_silent_inquisitor_is_flagged_to_the_gm_before_the_deadline():
    g, deadline = _night_game()
    found = _check(g, deadline - timedelta(hours=5))
    assert [(f.code, f.player, f.rule) for f in found] == [("missing_action", "Cat", "WH-I2")]
    assert found[0].at == deadline and found[0].phase == "N1"
    assert "sent no prayer or holy fire" in found[0].message and "due " in found[0].message


def test_WH_I2_requirement_met_once_the_action_is_queued():
    g, deadline = _night_game()
    g.act("Cat", "check", "Ann")
    assert _check(g, deadline - timedelta(hours=5)) == []


def test_missing_action_is_not_reported_after_the_deadline():
    """D6: past the deadline the ruleset resolves the default (a prayer on nobody); no warning."""
    g, deadline = _night_game()
    assert _check(g, deadline) == []
    assert _check(g, deadline + timedelta(minutes=1)) == []


def test_missing_action_turns_from_info_to_warning_near_the_deadline():
    g, deadline = _night_game()
    early, late = _check(g, deadline - timedelta(hours=5)), _check(g, deadline - timedelta(minutes=30))
    assert (early[0].severity, late[0].severity) == ("info", "warning")
    assert early[0].key == late[0].key  # the same finding, changed: reported again once


def test_WH_C3_WH_X9_compulsory_recruitment_and_ON_V1_D11_pm_vote_requirements_use_their_deadlines():
    n = night(2, T0, hours=24)
    rec = Requirement("W2", ("recruit",), rule="WH-C3", message="W2 must recruit tonight (a pass was last night)")
    found = check_missing_actions(ctx(["W1", "W2"], phases=(n,), now=h(2), rs=Given((rec,)), ruleset="witch-hunt"))
    assert [(f.player, f.rule, f.at) for f in found] == [("W2", "WH-C3", h(24))]
    d = day(1, T0, hours=72)
    vote = Requirement("Kraken", ("vote",), message="Kraken has sent no PM vote (D11)")
    found = check_missing_actions(ctx(["Kraken"], phases=(d,), now=h(60), rs=Given((vote,)), ruleset="one-night"))
    assert [(f.player, f.rule, f.at) for f in found] == [("Kraken", "ON-V1", h(72))]


def test_no_requirements_when_the_vote_window_is_closed_or_the_game_is_over():
    from forummod.engine.types import Outcome

    d = day(1, T0, hours=72)
    vote = Requirement("Kraken", ("vote",))
    assert check_missing_actions(ctx(["Kraken"], phases=(d,), now=h(60), rs=Given((vote,)),
                                     closed=frozenset({"votes:D1"}))) == []
    assert check_missing_actions(ctx(["Kraken"], phases=(d,), now=h(60), rs=Given((vote,)),
                                     outcome=Outcome("town", ()))) == []


def test_a_night_action_owed_during_the_day_is_due_at_the_next_nights_deadline():
    """LUP D19/D20: during the day the wolves may already owe the coming night's kill."""
    d, n = day(2, T0, hours=13), night(3, h(13), hours=11, deadline=h(13.5))
    kill = Requirement("Wolf", ("kill",), rule="D19", message="no kill PM for N3 yet")
    found = check_missing_actions(ctx(["Wolf"], phases=(d, n), now=h(2), current=d, rs=Given((kill,)),
                                      ruleset="lupus-eresia"))
    assert [(f.phase, f.at, f.rule) for f in found] == [("N3", h(13.5), "D19")]


def test_D19_the_packs_kill_is_one_finding_naming_every_wolf_who_may_send_it():
    """LUP D19: "no kill PM for N2 yet" once, with who should send it (not once per wolf, unnamed)"""
    n = night(2, T0, hours=13, deadline=h(12))
    kill = Requirement("Luca", ("kill",), rule="D19", message="no kill PM for N2 yet", any_of=("Luca", "Lara"))
    found = check_missing_actions(ctx(["Luca", "Lara"], phases=(n,), now=h(2), rs=Given((kill,)),
                                      ruleset="lupus-eresia"))
    assert len(found) == 1 and "no kill PM for N2 yet: one of Luca, Lara sends it" in found[0].message
