"""witch-hunt: the scenarios WH-X1..WH-X24 of ../shared/rules/witch-hunt.md, one test each."""

from datetime import timedelta

from tests.engine.scenario import dead
from tests.engine.witch_hunt_helpers import (
    PLAYERS, facts, game, keys, pms, quiet_night, rejections, split, statuses, votes_at, warnings,
)

TEN = ["W1", "W2", "Her", "Inq", "Gos", "V1", "V2", "V3", "V4", "V5"]
NINE = TEN[:-1]


def trial_day(g, n=1, players=TEN):
    """A 48 h day whose first round closes after 24 h; returns the close instant."""
    start = g.cursor
    close = start + timedelta(hours=24)
    g.day(n, hours=48, deadline=close)
    return close


def test_WH_X1_four_four_split_between_two_only_executes_both_without_revote():
    """WH-X1, WH-D4, WH-D6: all votes split 4-4 between two players: both executed, no revote."""
    g = game(TEN)
    trial_day(g)
    votes_at(g, g.clock, split({"V1": 4, "V2": 4}, TEN))
    run = g.run()
    assert dead(run) == {"V1", "V2"}
    assert run.state.proposal("revote:D1") is None
    assert {f.get("player") for f in facts(run, "lynched")} == {"V1", "V2"}
    assert all(f.rule == "WH-D6" for f in facts(run, "lynched"))


def test_WH_X2_revote_five_five_with_ten_living_executes_both():
    """WH-X2, WH-D2, WH-D3, WH-D8: 4-4-2 goes to a revote; 5-5 with 10 living executes both."""
    g = game(TEN)
    close = trial_day(g)
    votes_at(g, g.clock, split({"V1": 4, "V2": 4, "V3": 2}, TEN))
    votes_at(g, close, split({"V1": 5, "V2": 5}, TEN))
    run = g.run()
    assert run.state.proposal("revote:D1").status == "approved"
    assert facts(run, "revote")[0].get("candidates") == ("V1", "V2")
    assert dead(run) == {"V1", "V2"}  # WH-D3: even living count, both go
    assert [t.round for t in run.tallies if t.phase == "D1"] == [1, 2]


def test_WH_X2_revote_four_four_with_nine_living_executes_nobody():
    """WH-X2, WH-D5, D4: a 4-4 revote tie with 9 living executes nobody."""
    g = game(NINE)
    close = trial_day(g)
    votes_at(g, g.clock, split({"V1": 4, "V2": 4, "V3": 1}, NINE))
    votes_at(g, close, split({"V1": 4, "V2": 4}, NINE))  # one abstains
    run = g.run()
    assert dead(run) == set()
    f = facts(run, "no_lynch")[0]
    assert f.get("reason") == "revote_tie_odd" and f.rule == "WH-D5"


def test_WH_X3_two_witches_kill_healed_player_lives_and_someone_was_saved():
    """WH-X3, WH-K1, WH-H2, WH-H4, D5: the healed victim lives; the heal is announced without a name."""
    g = game().night(1).act("W1", "kill", "V1").act("W2", "kill", "V1").act("Her", "heal", "V1")
    g.act("Inq", "pray", "V8")
    run = g.run()
    assert dead(run) == set()
    assert "healed" in keys(run, "N1") and "nobody_died" in keys(run, "N1")
    assert facts(run, "healed")[0].params == ()  # D5: names nobody


def test_WH_X4_burned_witch_dies_even_when_healed_and_her_role_is_revealed():
    """WH-X4, WH-H3, WH-I5, WH-I6: a burned witch dies although healed; her role is revealed."""
    g = game().night(1).act("Inq", "fire", "W1").act("Her", "heal", "W1")
    run = g.run()
    assert dead(run) == {"W1"}
    d = facts(run, "death", "N1")[0]
    assert (d.get("player"), d.get("role"), d.get("cause")) == ("W1", "witch", "holy_fire")
    assert run.state.player("W1").death.revealed == "witch"
    assert "healed" not in keys(run)


def test_WH_X5_burned_villager_healed_lives_and_the_heal_is_announced():
    """WH-X5, WH-H2, WH-H4: a burned innocent survives the heal; the save is announced."""
    g = game().night(1).act("Inq", "fire", "V1").act("Her", "heal", "V1")
    run = g.run()
    assert dead(run) == set()
    assert "healed" in keys(run, "N1")


def test_WH_X6_player_killed_by_both_sides_dies_despite_the_heal():
    """WH-X6, WH-H5: targeted by both sides, the player dies despite the heal."""
    g = game().night(1).act("W1", "kill", "V1").act("W2", "kill", "V1").act("Inq", "fire", "V1")
    g.act("Her", "heal", "V1")
    run = g.run()
    assert dead(run) == {"V1"}
    assert facts(run, "death")[0].get("cause") == "witches_and_fire"
    assert "healed" not in keys(run)


def test_WH_X7_prayer_meets_recruiter_soul_saved_right_passes_to_w2_not_compulsory():
    """WH-X7, WH-I4, WH-I3, WH-C7, WH-C9, D22: prayer meets the recruiter; the right passes to W2."""
    g = game().night(1).act("W1", "recruit", "V1").act("Inq", "pray", "V1")
    g.day(1)
    g.night(2)
    run_mid = g.run(now=g.clock + timedelta(minutes=1))
    g.act("W1", "recruit", "V2").act("W2", "pass").act("Inq", "pray", "V8")
    run = g.run()
    assert not run.state.player("V1").statuses & {"converted"}
    assert "prayed" in statuses(run, "V1")
    assert keys(run, "N1") == ["soul_saved", "nobody_died"]
    assert all("V1" not in str(f.params) for _, f in run.facts)  # nobody is told publicly
    assert pms(run) == []  # D22 default: no extra PM; the rest of the coven learns nothing (WH-C9)
    assert ("recruit", "W1", "not_holder", "WH-C1") in rejections(run)
    assert [r.player for r in g.rs.required_actions(run_mid.state, run_mid.state.phase)] == ["Inq"]
    assert "nobody_converted" in keys(run, "N2")  # W2 may pass: N2 was not compulsory


def test_WH_X8_herbalist_converted_on_night_one_heal_works_then_lost_blocked_night_two_w2_on_three():
    """WH-X8, WH-C4, WH-C5, WH-C8, D17, D18: conversion of the Herbalist and the rotation around it."""
    g = game().night(1).act("W1", "recruit", "Her").act("W1", "kill", "V1").act("W2", "kill", "V1")
    g.act("Her", "heal", "V1").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("Her", "kill", "V2").act("W1", "kill", "V2").act("Her", "heal", "V2")
    g.act("W1", "recruit", "V3").act("Inq", "pray", "V8")
    g.day(2)
    g.night(3).act("W1", "recruit", "V4").act("W2", "recruit", "V5").act("Inq", "pray", "V8")
    run = g.run()
    assert "V1" not in dead(run)  # the night-1 heal still works (WH-C5)
    assert keys(run, "N1")[:1] == ["converted"] and "healed" in keys(run, "N1")
    assert pms(run, "Her", "coven_members")[0].get("members") == ("W1", "W2")
    assert {f.get("player") for f in pms(run, "W2", "new_member")} == {"Her", "V5"}
    assert {r for r in rejections(run)} >= {("heal", "Her", "converted", "WH-C5"),
                                             ("recruit", "W1", "recruitment_blocked", "WH-C8")}
    assert "V2" in dead(run)  # Her names victims with the others from night 2
    assert not {"converted", "nobody_converted", "recruit_failed"} & set(keys(run, "N2"))  # D17
    assert ("recruit", "W1", "not_holder", "WH-C1") in rejections(run)
    assert "converted" in statuses(run, "V5") and run.state.x.order == ("W1", "W2", "Her", "V5")


def test_WH_X9_pass_makes_next_night_compulsory_flagged_pass_resolves_as_pass_and_again():
    """WH-X9, WH-C2, WH-C3, D19: a pass makes the next night compulsory; a flagged pass resolves as a pass."""
    g = game(first_recruiter="W2")
    g.night(1).act("W2", "recruit", "Inq").act("Inq", "pray", "V8")  # fails: N2 is not compulsory
    g.day(1)
    g.night(2).act("W1", "pass").act("Inq", "pray", "V8")
    g.day(2)
    g.night(3).act("Inq", "pray", "V8")
    before = g.run(now=g.clock + timedelta(minutes=1))
    g.act("W2", "pass")
    g.day(3)
    g.night(4)
    run = g.run(now=g.clock + timedelta(minutes=1))  # inside night 4
    assert "nobody_converted" in keys(run, "N2")
    req = g.rs.required_actions(before.state, before.state.phase)
    assert [(r.player, r.actions, r.rule) for r in req] == [("W2", ("recruit",), "WH-C3")]
    assert any("compulsory" in text and rule == "WH-C3" for text, rule in warnings(run))
    assert "nobody_converted" in keys(run, "N3")
    assert any(rule == "D19" for _, rule in warnings(run))
    assert run.state.x.compulsory == "N4"
    assert g.rs.holder_for(run.state, "N4") == "W1"


def test_WH_X10_inquisitor_and_one_witch_left_is_a_draw():
    """WH-X10, WH-W3, WH-K3: the Inquisitor and one witch left is a draw with no winners."""
    g = game(["W1", "Inq", "V1", "Her"], first_recruiter="").day(1)
    g.vote("W1", "V1").vote("Inq", "V1")
    g.night(1).act("Inq", "fire", "Her")
    run = g.run()
    assert dead(run) == {"V1", "Her"}
    out = run.state.outcome
    assert (out.result, out.winners, out.rule) == ("draw", (), "WH-W3")


def test_WH_X11_three_witches_against_two_townsfolk_after_dawn_coven_wins():
    """WH-X11, WH-W1, WH-W4: after the dawn, three witches against two townsfolk win."""
    g = game(["W1", "W2", "V1", "V2", "V3", "Her"])
    g.night(1).act("W1", "recruit", "V1").act("W1", "kill", "V2").act("W2", "kill", "V2")
    run = g.run()
    out = run.state.outcome
    assert out.result == "coven" and out.rule == "WH-W1"
    assert set(out.winners) == {"W1", "W2", "V1"}


def test_WH_X12_converted_player_executed_reveals_converted_and_former_role():
    """WH-X12, WH-D6, WH-C11: an executed converted player is revealed as converted with the former role."""
    g = game().night(1).act("W1", "recruit", "Gos").act("Inq", "pray", "V8")
    g.day(1)
    for v in ("V1", "V2", "V3"):
        g.vote(v, "Gos")
    run = g.run()
    f = facts(run, "lynched", "D1")[0]
    assert (f.get("player"), f.get("role"), f.get("converted"), f.rule) == ("Gos", "gossip", True, "WH-C11")
    assert run.state.player("Gos").death.revealed == "gossip"


def test_WH_X13_three_way_tie_revote_then_odd_two_way_tie_nobody_or_clear_leader():
    """WH-X13, WH-D2, WH-D5, WH-D8, D10, D4: three-way tie, then the revote's outcomes."""
    def first(g):
        close = trial_day(g)
        votes_at(g, g.clock, split({"V1": 3, "V2": 3, "V3": 3}, NINE))
        return close

    g = game(NINE)
    votes_at(g, first(g), split({"V1": 4, "V2": 4, "V3": 1}, NINE))
    run = g.run()
    assert facts(run, "revote")[0].get("candidates") == ("V1", "V2", "V3")
    assert facts(run, "revote")[0].get("reason") == "tie_all"  # D10
    assert dead(run) == set()

    g = game(NINE)
    votes_at(g, first(g), split({"V1": 5, "V2": 3, "V3": 1}, NINE))
    assert dead(g.run()) == {"V1"}


def test_WH_X14_recruiting_the_inquisitor_or_a_prayed_player_fails_right_passes_not_compulsory():
    """WH-X14, WH-C6, WH-C7, WH-I1, WH-I3: recruiting the Inquisitor or a prayed player fails."""
    g = game().night(1).act("W1", "recruit", "Inq").act("Inq", "pray", "V1")
    g.day(1)
    g.night(2).act("W2", "recruit", "V1").act("Inq", "pray", "V8")  # V1 is отмолен since night 1
    run = g.run()
    assert "recruit_failed" in keys(run, "N1") and "recruit_failed" in keys(run, "N2")
    assert run.state.x.holders == (("N1", "W1"), ("N2", "W2"))
    assert run.state.x.compulsory is None
    assert not {"converted"} & (statuses(run, "Inq") | statuses(run, "V1"))


def test_WH_X15_victim_also_recruited_is_converted_then_dies_revealed_converted():
    """WH-X15, WH-C10, WH-C11, WH-C8, WH-N5: converted and killed the same night; next night blocked."""
    g = game().night(1).act("W1", "kill", "V1").act("W2", "kill", "V1").act("W1", "recruit", "V1")
    g.act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("W2", "recruit", "V2")
    run = g.run()
    assert keys(run, "N1")[0] == "converted"
    d = facts(run, "death", "N1")[0]
    assert (d.get("player"), d.get("role"), d.get("converted"), d.rule) == ("V1", "villager", True, "WH-C11")
    assert ("recruit", "W2", "recruitment_blocked", "WH-C8") in rejections(run)
    assert pms(run, "V1") == []  # dead on arrival: no coven PM to the new member


def test_WH_X16_recruited_and_burned_dies_even_if_healed_conversion_announced_heal_not():
    """WH-X16, WH-C10, WH-H3, WH-H4, D15: converted and burned dies despite the heal."""
    g = game().night(1).act("W1", "recruit", "V1").act("Inq", "fire", "V1").act("Her", "heal", "V1")
    run = g.run()
    assert dead(run) == {"V1"}
    assert "converted" in keys(run, "N1") and "healed" not in keys(run, "N1")
    d = facts(run, "death", "N1")[0]
    assert (d.get("cause"), d.get("converted"), d.get("role")) == ("holy_fire", True, "villager")
    assert run.state.x.blocked == "N2"


def test_WH_X17_gossip_sees_former_role_and_status_after_the_nights_actions():
    """WH-X17, WH-G1, WH-N6: the Gossip's card and status after the witches' and Inquisitor's actions."""
    g = game().night(1).act("W1", "recruit", "V1").act("Gos", "check", "V1").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("Inq", "pray", "V2").act("Gos", "check", "V2")
    g.day(2)
    g.night(3).act("Inq", "pray", "V8").act("Gos", "check", "Inq")
    run = g.run()
    got = [(f.get("target"), f.get("role"), f.get("status")) for f in pms(run, "Gos", "gossip_result")]
    assert got == [("V1", "villager", "converted"), ("V2", "villager", "prayed"), ("Inq", "inquisitor", "innocent")]


def test_WH_X18_a_lone_witch_cannot_kill_but_still_recruits():
    """WH-X18, WH-K3, WH-C4: a lone witch cannot kill but recruits."""
    g = game(["W1", "Inq", "Her", "V1", "V2", "V3"])
    g.night(1).act("W1", "kill", "V1").act("W1", "recruit", "V2").act("Inq", "pray", "V3")
    run = g.run()
    assert dead(run) == set()
    assert "converted" in statuses(run, "V2")
    assert any(e.rule == "WH-K3" for e in run.log)


def test_WH_X19_four_witches_two_two_split_kills_nobody_two_one_one_kills_the_doubled():
    """WH-X19, WH-K2, D7: four witches, 2-2 split kills nobody; 2-1-1 kills the doubled name."""
    four = ["W1", "W2", "W3", "W4"] + PLAYERS[2:]
    roles = {p: "witch" if p.startswith("W") else game().setup.roles[p] for p in four}

    g = game(four, roles).night(1)
    g.act("W1", "kill", "V1").act("W2", "kill", "V1").act("W3", "kill", "V2").act("W4", "kill", "V2")
    run = g.run()
    assert dead(run) == set() and any(e.rule == "WH-K2" for e in run.log)

    g = game(four, roles).night(1)
    g.act("W1", "kill", "V1").act("W2", "kill", "V1").act("W3", "kill", "V2").act("W4", "kill", "V3")
    assert dead(g.run()) == {"V1"}


def test_WH_X20_rotation_after_pass_conversion_blocked_night_then_v_then_w2():
    """WH-X20, D18, WH-C3, WH-C8: rotation through a pass, a conversion and a blocked night."""
    g = game(first_recruiter="W2")
    g.night(1).act("W2", "pass").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("W1", "recruit", "V1").act("Inq", "pray", "V8")
    g.day(2)
    quiet_night(g, 3)
    g.day(3)
    g.night(4).act("V1", "pass").act("Inq", "pray", "V8")
    g.day(4)
    g.night(5)
    run = g.run(now=g.clock + timedelta(minutes=1))  # inside night 5
    x = run.state.x
    assert x.order == ("W2", "W1", "V1")
    assert x.holders == (("N1", "W2"), ("N2", "W1"), ("N3", ""), ("N4", "V1"))
    assert "converted" in keys(run, "N2") and "nobody_converted" in keys(run, "N4")
    assert x.compulsory == "N5" and g.rs.holder_for(run.state, "N5") == "W2"


def test_WH_X21_rotation_skips_a_witch_executed_today():
    """WH-X21, D18: the right skips a witch executed today."""
    g = game()
    g.night(1).act("W1", "recruit", "V1").act("Inq", "pray", "V8")  # order W1, W2, V1
    g.day(1)
    quiet_night(g, 2)  # blocked (WH-C8)
    for n, holder in ((3, "W2"), (4, "V1"), (5, "W1")):
        g.day(n - 1)
        g.night(n).act(holder, "recruit", "Inq").act("Inq", "pray", "V8")  # fails each time
    g.day(5)
    for v in ("V2", "V3", "V4"):
        g.vote(v, "W2")
    g.night(6)
    run = g.run(now=g.clock + timedelta(minutes=1))  # inside night 6
    assert [h for _, h in run.state.x.holders] == ["W1", "", "W2", "V1", "W1"]
    assert "W2" in dead(run)
    assert g.rs.holder_for(run.state, "N6") == "V1"


def test_WH_X22_self_heal_rejected_and_a_silent_inquisitor_is_flagged_then_prays_on_nobody():
    """WH-X22, WH-H1, WH-I2, D6: self-heal rejected; a silent Inquisitor is flagged, then prays on nobody."""
    g = game().night(1).act("Her", "heal", "Her").act("W1", "kill", "V1").act("W2", "kill", "V1")
    mid = g.run(now=g.clock + timedelta(minutes=1))
    run = g.run()
    assert ("heal", "Her", "self_target", "WH-H1") in rejections(run)
    req = g.rs.required_actions(mid.state, mid.state.phase)
    assert [(r.player, r.rule) for r in req] == [("Inq", "WH-I2")]
    assert any(e.rule == "D6" and "prayer on nobody" in e.text for e in run.log)
    assert dead(run) == {"V1"}


def test_WH_X23_last_witch_executed_town_wins_with_every_never_converted_player():
    """WH-X23, WH-W2, WH-W4, D21: the last witch executed; every never-converted player wins."""
    g = game().night(1).act("W1", "recruit", "V1").act("Inq", "fire", "V1")
    g.act("W1", "kill", "V2").act("W2", "kill", "V2")
    trial_day(g)
    votes_at(g, g.clock, split({"W1": 4, "W2": 4}, ["V3", "V4", "V5", "V6", "V7", "V8", "Her", "Gos"]))
    run = g.run()
    out = run.state.outcome
    assert out.result == "town" and out.rule == "WH-W2"
    assert set(out.winners) == set(PLAYERS) - {"W1", "W2", "V1"}
    assert "V2" in out.winners and "V2" in dead(run)  # dead townsfolk win too (D21)


def test_WH_X24_prayer_on_a_witch_does_nothing_and_tells_nobody():
    """WH-X24, WH-I3: prayer on a witch does nothing and nobody is told."""
    g = game().night(1).act("Inq", "pray", "W1")
    run = g.run()
    assert "prayed" not in statuses(run, "W1")
    assert pms(run) == []
    assert "soul_saved" not in keys(run) and dead(run) == set()
