"""witch-hunt: rule ids not covered by a scenario, the trial's timing, options and setup."""

from datetime import timedelta
from types import SimpleNamespace

import pytest

from forummod.engine.events import ActionEvent
from forummod.engine.registry import get_ruleset_class, load_ruleset_options, make_ruleset
from forummod.engine.rulesets.witch_hunt import night as nightmod
from forummod.engine.rulesets.witch_hunt import trial
from forummod.engine.types import Candidate, GameState, Player, Tally
from forummod.errors import ConfigError
from forummod.model import Source

from tests.engine.scenario import Scenario, dead
from tests.engine.witch_hunt_helpers import (
    PLAYERS, ROLES, facts, game, keys, pms, rejections, split, statuses, votes_at, warnings,
)


def tally(**totals: int) -> Tally:
    cands = tuple(Candidate(n, float(v), ()) for n, v in sorted(totals.items(), key=lambda kv: -kv[1]))
    return Tally(phase="D1", at=None, candidates=cands, not_voting=(), living=10)


def gm_act(g: Scenario, actor: str, action: str, *targets: str) -> Scenario:
    g.events.append(ActionEvent(at=g._at(None), seq=g.seq + 0.5, actor=actor, action=action, targets=targets,
                                source=Source("gm"), channel="gm", by_gm=True))
    return g


# --------------------------------------------------------------------------- setup (WH-S*)


def test_WH_S1_default_table_is_dealt_from_the_options_counts_reproducibly():
    """WH-S1, D1: with no roles given, the default table is dealt from the options with the seed."""
    g = Scenario("witch-hunt", PLAYERS, {}, seed=7)
    run = g.day(1).run()
    roles = [p.role for p in run.state.players]
    assert roles.count("witch") == 2 and roles.count("villager") == 8
    assert {r: roles.count(r) for r in ("herbalist", "inquisitor", "gossip")} == {"herbalist": 1, "inquisitor": 1,
                                                                                  "gossip": 1}
    again = Scenario("witch-hunt", PLAYERS, {}, seed=7).day(1).run()
    assert [p.role for p in again.state.players] == roles
    assert any(e.kind == "draw" and e.rule == "WH-S1" for e in run.log)


def test_D1_option_counts_and_white_cards_change_the_deal():
    """WH-S1, D1: the option counts and white cards change the deal."""
    players = [f"P{i}" for i in range(7)]
    g = Scenario("witch-hunt", players, {}, options={"witches": 1, "plain_villagers": 4,
                                                    "white_cards": ["inquisitor", "gossip"]})
    roles = sorted(p.role for p in g.day(1).run().state.players)
    assert roles == ["gossip", "inquisitor", "villager", "villager", "villager", "villager", "witch"]


def test_WH_S2_default_timing_is_night_first_with_D9_deadlines_and_D2_option_day_first():
    """WH-S2, D2, D9: night 1 first; vote closes 48 h after the dawn post, actions due 24 h after the night post."""
    cls = get_ruleset_class("witch-hunt")
    t = cls.default_timing(load_ruleset_options("witch-hunt", {}))
    assert (t.first_phase, t.vote_close, t.action_deadline) == ("night", "48h", "24h")
    assert cls.default_timing(load_ruleset_options("witch-hunt", {"first_phase": "day"})).first_phase == "day"


def test_WH_S3_statuses_converted_and_prayed_are_player_statuses():
    """WH-S3: converted (обращён) and prayed-for (отмолен) are player statuses."""
    g = game().night(1).act("W1", "recruit", "V1").act("Inq", "pray", "V2")
    run = g.run()
    assert statuses(run, "V1") == {"converted"} and statuses(run, "V2") == {"prayed"}


def test_check_setup_reports_counts_first_recruiter_and_missing_witch():
    """WH-S1, D1, D18: setup validation."""
    cls = get_ruleset_class("witch-hunt")

    def cfg(n, options=None, deal=None):
        return SimpleNamespace(players=[SimpleNamespace(name=f"P{i}") for i in range(n)], options=options or {},
                               setup=SimpleNamespace(roles=deal or {}))

    assert cls.check_setup(cfg(13), {}) is None
    assert cls.check_setup(cfg(12), {})[0] == "options.plain_villagers"
    assert cls.check_setup(cfg(12, deal={"witch": 2}), {}) is None
    assert cls.check_setup(cfg(3, {"first_recruiter": "P9"}, {"witch": 1}), {})[0] == "options.first_recruiter"
    roles = {"P0": "villager", "P1": "ведьма", "P2": "villager"}
    assert cls.check_setup(cfg(3, {"first_recruiter": "P0"}, {"x": 1}), roles)[1] == "'P0' is not a witch"
    assert cls.check_setup(cfg(3, {"first_recruiter": "P1"}, {"x": 1}), roles) is None
    assert cls.check_setup(cfg(2, deal={"x": 1}), {"P0": "villager", "P1": "gossip"}) == (
        "players", "witch-hunt needs at least one witch")


def test_options_are_validated_by_the_config_loader():
    """D1, D11, D16: option values are checked with the key path."""
    with pytest.raises(ConfigError):
        load_ruleset_options("witch-hunt", {"white_cards": ["seer"]})
    with pytest.raises(ConfigError):
        load_ruleset_options("witch-hunt", {"gossip_target": "rand"})
    with pytest.raises(ConfigError):
        load_ruleset_options("witch-hunt", {"revote_hours": 0})


# --------------------------------------------------------------------------- trial (WH-D*)


def test_WH_D8_first_round_decision_table():
    """WH-D8, WH-D1, WH-D2, WH-D4, D10: the first round's decision table."""
    assert trial.first_round(tally(A=3, B=1)) == trial.Verdict("execute", ("A",), "plurality", "WH-D1")
    assert trial.first_round(tally(A=4, B=4)).kind == "execute"  # WH-D4
    assert trial.first_round(tally(A=4, B=4, C=2)) == trial.Verdict("revote", ("A", "B"), "tie", "WH-D2")
    assert trial.first_round(tally(A=3, B=3, C=3)).reason == "tie_all"  # D10
    assert trial.first_round(tally(A=3, B=3, C=3, D=1)).players == ("A", "B", "C")
    assert trial.first_round(tally()).reason == "no_votes"


def test_WH_D3_WH_D5_revote_decision_table_by_living_parity():
    """WH-D3, WH-D5, WH-D8, D4: the revote's decision table by living parity."""
    assert trial.revote_round(tally(A=5, B=5), 10).players == ("A", "B")  # WH-D3
    assert trial.revote_round(tally(A=4, B=4), 9).kind == "nobody"  # D4
    assert trial.revote_round(tally(A=2, B=2, C=2), 10).reason == "revote_tie_many"  # WH-D5
    assert trial.revote_round(tally(A=2, B=1), 9).players == ("A",)


def test_WH_D1_plurality_not_majority_executes_the_leader():
    """WH-D1, D3: relative majority."""
    g = game().day(1)
    votes_at(g, g.clock, split({"V1": 3, "V2": 2, "V3": 2}, PLAYERS))
    assert dead(g.run()) == {"V1"}


def test_WH_D7_vote_conventions_replace_unvote_dead_and_no_votes():
    """WH-D7, D12: one standing vote, unvote, votes for non-players reported, no votes means nobody."""
    g = game().day(1).vote("V1", "V2").vote("V1", "V3").vote("V4", "V3").unvote("V4").vote("V5", "Nobody")
    run = g.run()
    assert dead(run) == {"V3"}
    assert ("vote", "V5", "non_player_target", "WH-D7") in rejections(run)
    g = game().day(1)
    run = g.run()
    assert dead(run) == set() and facts(run, "no_lynch")[0].get("reason") == "no_votes"


def test_WH_D6_executed_roles_are_revealed():
    """WH-D6: executed players' roles are revealed."""
    g = game().day(1).vote("V1", "W2").vote("V2", "W2")
    run = g.run()
    f = facts(run, "lynched")[0]
    assert (f.get("player"), f.get("role"), f.get("converted")) == ("W2", "witch", False)


def test_WH_D2_revote_opened_by_the_gm_counts_only_later_votes_for_the_tied():
    """WH-D2, D11: the GM's revote post opens round 2; only later votes for the tied count."""
    g = game(first_phase="day")
    start = g.cursor
    close = start + timedelta(hours=24)
    g.day(1, hours=48, deadline=close)
    votes_at(g, start, split({"V1": 3, "V2": 3, "V3": 1}, PLAYERS))
    g.vote("V5", "V1", at=close + timedelta(minutes=30))  # before the revote post: late
    g.decide("revote:D1", at=close + timedelta(hours=1))
    votes_at(g, close + timedelta(hours=1), [("W1", "V1"), ("W2", "V3"), ("Her", "V2")])
    run = g.run(approve_all=False)
    assert ("vote", "V5", "late", "D20") in rejections(run)
    assert ("vote", "W2", "not_candidate", "WH-D2") in rejections(run)
    x = run.state.x.revote
    assert (x.start, x.end, x.candidates) == (close + timedelta(hours=1), start + timedelta(hours=48), ("V1", "V2"))
    t = run.tally_for("D1")
    assert t.round == 2 and t.restricted_to == ("V1", "V2") and t.total_for("V1") == 1  # first round not carried
    assert run.state.proposal("lynch:D1").status == "pending"
    assert any(f.key == "revote_open" and f.get("until") == (start + timedelta(hours=48)).isoformat()
               for _, f in run.facts)


def test_WH_D2_revote_rejected_by_the_gm_executes_nobody():
    """WH-D2: a revote the GM refuses executes nobody."""
    g = game(first_phase="day").day(1)
    votes_at(g, g.clock, split({"V1": 2, "V2": 2, "V3": 1}, PLAYERS))
    g.decide("revote:D1", verdict="reject", at=g.phases[-1].end + timedelta(minutes=5))
    run = g.run(now=g.phases[-1].end + timedelta(hours=1), approve_all=False)
    assert dead(run) == set() and run.state.x.revote is None


def test_D11_revote_past_the_day_end_holds_the_night_and_closes_at_its_deadline():
    """D11, WH-D2: a revote past the day's end holds the night, which resolves after the trial."""
    g = game().night(1).act("Inq", "pray", "V8")
    g.day(1)
    votes_at(g, g.clock, split({"V1": 2, "V2": 2, "V3": 1}, PLAYERS))
    end = g.cursor
    g.night(2)
    votes_at(g, end + timedelta(hours=1), [("W1", "V1"), ("W2", "V1"), ("Her", "V2")])  # in the held night
    g.act("W1", "kill", "V4", at=end + timedelta(hours=2)).act("W2", "kill", "V4", at=end + timedelta(hours=2))
    run = g.run()
    assert "V1" in dead(run)
    assert "V4" in dead(run)  # the night still resolved, after the trial
    assert any(rule == "D11" for _, rule in warnings(run))
    order = [p.key for p in run.state.proposals]
    assert order.index("lynch:D1") < order.index("night:N2")


def test_D11_revote_hours_option_sets_the_window_after_the_post():
    """D11: revote_hours option."""
    g = game(revote_hours=2, first_phase="day").day(1)
    votes_at(g, g.clock, split({"V1": 2, "V2": 2, "V3": 1}, PLAYERS))
    end = g.cursor
    g.night(1, hours=12)
    g.vote("W1", "V2", at=end + timedelta(hours=1))
    g.vote("W2", "V1", at=end + timedelta(hours=3))
    run = g.run()
    assert run.state.x.revote.end == end + timedelta(hours=2)
    assert "V2" in dead(run)
    assert ("vote", "W2", "no_vote_now", "WH-D7") in rejections(run)


def test_D11_gm_moves_the_revote_deadline():
    """D11: the GM sets another revote deadline."""
    g = game(first_phase="day").day(1)
    votes_at(g, g.clock, split({"V1": 2, "V2": 2, "V3": 1}, PLAYERS))
    end = g.cursor
    g.gm("revote_deadline", at=end + timedelta(minutes=10), note=(end + timedelta(hours=1)).isoformat())
    g.vote("W1", "V2", at=end + timedelta(minutes=20))
    g.vote("W2", "V1", at=end + timedelta(hours=2))  # after the GM's deadline
    run = g.run(now=end + timedelta(hours=30))
    assert "V2" in dead(run) and "V1" not in dead(run)


def test_D4_option_revote_gives_one_more_round_after_an_unresolved_tie():
    """D4, WH-D5: option revote: a second revote after an unresolved tie."""
    nine = PLAYERS[:9]
    g = game(nine, revote_tie="revote", first_phase="day")
    start = g.cursor
    close = start + timedelta(hours=24)
    g.day(1, hours=48, deadline=close)
    votes_at(g, start, split({"Her": 4, "Inq": 4, "Gos": 1}, nine))
    votes_at(g, close, split({"Her": 4, "Inq": 4}, nine))
    votes_at(g, start + timedelta(hours=48), split({"Her": 5, "Inq": 4}, nine))
    run = g.run(now=start + timedelta(hours=80))
    assert run.state.proposal("revote:D1:r3").status == "approved"
    assert dead(run) == {"Her"}


# --------------------------------------------------------------------------- night (WH-N*)


def test_WH_N1_to_WH_N7_night_order_is_one_explicit_list():
    """WH-N1, WH-N2, WH-N3, WH-N4, WH-N5, WH-N6, WH-N7, D13: the night order is one explicit list."""
    order = get_ruleset_class("witch-hunt").NIGHT_ORDER
    assert order == ("kill", "recruit", "inquisitor", "heal", "resolve", "check", "dawn")
    inp = nightmod.NightInput(night="N1", roles={"W1": "witch", "W2": "witch", "V": "villager", "G": "gossip"},
                              living=frozenset({"W1", "W2", "V", "G"}), coven=("W1", "W2"), prayed=frozenset(),
                              victims=(("W1", "V"), ("W2", "V")), holder="W1", recruit="V", gossip="G",
                              gossip_target="V")
    out = nightmod.resolve(inp, order)
    assert out.deaths == (("V", "witches"),) and out.recruitment == "converted"
    assert out.private[0].fact.get("status") == "converted"
    # the list drives the resolution: checking before WH-N5 would miss tonight's conversion
    early = nightmod.resolve(inp, ("kill", "recruit", "inquisitor", "heal", "check", "resolve", "dawn"))
    assert early.private[0].fact.get("status") == "innocent"


def test_D13_night_choices_are_simultaneous_pm_order_does_not_matter():
    """D13, WH-N4, WH-N1: the heal counts whether it arrives before or after the witches' choice."""
    a = game().night(1).act("Her", "heal", "V1").act("W1", "kill", "V1").act("W2", "kill", "V1").run()
    b = game().night(1).act("W1", "kill", "V1").act("W2", "kill", "V1").act("Her", "heal", "V1").run()
    assert dead(a) == dead(b) == set() and keys(a) == keys(b)


def test_WH_N5_conversion_stands_before_deaths_and_WH_N7_dawn_lists_recruitment_then_deaths():
    """WH-N5, WH-N7, D15: conversion before deaths; the dawn announces recruitment, then deaths."""
    g = game().night(1).act("W1", "recruit", "V1").act("Inq", "fire", "V1")
    run = g.run()
    assert keys(run, "N1") == ["converted", "death"]
    assert facts(run, "death")[0].get("converted") is True


def test_WH_N6_gossip_status_is_computed_after_the_witches_and_inquisitor():
    """WH-N6, WH-G1, D16: the Gossip's status is computed after the night's prayer."""
    g = game().night(1).act("Inq", "pray", "V3").act("Gos", "check", "V3").act("W1", "kill", "V3")
    g.act("W2", "kill", "V3")
    run = g.run()
    assert "V3" in dead(run)
    assert pms(run, "Gos")[0].get("status") == "prayed"  # does not say the target dies (D16)


def test_D13_players_killed_tonight_still_act():
    """D13: a Gossip killed tonight gets the result; a burned witch still names a victim."""
    g = game().night(1).act("W1", "kill", "Gos").act("W2", "kill", "Gos").act("Inq", "fire", "W1")
    g.act("Gos", "check", "W2")
    run = g.run()
    assert dead(run) == {"Gos", "W1"}
    assert pms(run, "Gos")[0].get("status") == "cursed"


def test_D9_pm_in_the_day_counts_for_the_next_night_late_pm_is_not_carried():
    """D9: day PMs count for the next night; a late PM is rejected and not carried."""
    g = game()
    start = g.cursor
    g.night(1, hours=12, deadline=start + timedelta(hours=10)).act("Inq", "pray", "V8")
    g.act("W1", "kill", "V1", at=start + timedelta(hours=11))  # late for N1
    g.act("W2", "kill", "V1", at=start + timedelta(hours=11))
    g.day(1).act("W1", "kill", "V2").act("W2", "kill", "V2")  # for N2
    g.night(2)
    run = g.run()
    assert ("kill", "W1", "late", "D9") in rejections(run)
    assert dead(run) == {"V2"}


def test_actions_are_checked_again_at_resolution_a_witch_executed_by_day_does_not_kill():
    """WH-K1, D13: a PM queued by day is checked again at resolution."""
    g = game().night(1).act("Inq", "pray", "V8")
    g.day(1).act("W1", "kill", "V2").act("W2", "kill", "V2")
    for v in ("V3", "V4", "V5"):
        g.vote(v, "W1")
    g.night(2)
    run = g.run()
    assert ("kill", "W1", "dead_actor", "WH-K1") in rejections(run)
    assert "V2" not in dead(run)


# --------------------------------------------------------------------------- roles


def test_WH_H1_herbalist_may_heal_the_same_player_on_consecutive_nights():
    """WH-H1: the same player may be healed on consecutive nights."""
    g = game().night(1).act("Her", "heal", "V1").act("W1", "kill", "V1").act("W2", "kill", "V1")
    g.day(1)
    g.night(2).act("Her", "heal", "V1").act("W1", "kill", "V1").act("W2", "kill", "V1")
    run = g.run()
    assert "V1" not in dead(run) and len(facts(run, "healed")) == 2


def test_WH_H2_heal_saves_from_the_witches_and_WH_H4_only_a_real_save_is_announced():
    """WH-H2, WH-H4: only a heal that saved an attacked player is announced."""
    g = game().night(1).act("Her", "heal", "V1").act("W1", "kill", "V2").act("W2", "kill", "V2")
    run = g.run()
    assert dead(run) == {"V2"} and "healed" not in keys(run)


def test_D14_option_announces_only_heals_against_holy_fire():
    """D14, WH-H4: option: announce only heals against holy fire."""
    g = game(heal_announce="holy_fire").night(1).act("Her", "heal", "V1").act("W1", "kill", "V1")
    g.act("W2", "kill", "V1")
    g.day(1)
    g.night(2).act("Her", "heal", "V1").act("Inq", "fire", "V1")
    run = g.run()
    assert dead(run) == set()
    assert "healed" not in keys(run, "N1") and "healed" in keys(run, "N2")


def test_WH_I1_inquisitor_can_be_killed_by_the_witches():
    """WH-I1: the Inquisitor can be killed."""
    g = game().night(1).act("W1", "kill", "Inq").act("W2", "kill", "Inq")
    run = g.run()
    assert dead(run) == {"Inq"} and facts(run, "death")[0].get("role") == "inquisitor"


def test_WH_I2_one_action_a_night_later_pm_replaces_and_self_target_is_rejected():
    """WH-I2, WH-I5, D19: one action a night, the later PM replaces; self-target rejected."""
    g = game().night(1).act("Inq", "pray", "V1").act("Inq", "fire", "V2").act("Inq", "fire", "Inq")
    run = g.run()
    assert dead(run) == {"V2"}  # WH-I5: an innocent burned without heal dies
    assert ("fire", "Inq", "self_target", "D19") in rejections(run)


def test_WH_I2_gm_entered_action_satisfies_the_requirement():
    """WH-I2, D6: a GM-entered action satisfies the requirement."""
    g = game().night(1)
    gm_act(g, "Inq", "fire", "W1")
    mid = g.run(now=g.clock + timedelta(minutes=1))
    assert g.rs.required_actions(mid.state, mid.state.phase) == ()
    assert g.rs.required_actions(mid.state, g.phases[0]) == ()
    assert dead(g.run()) == {"W1"}


def test_WH_I3_prayer_is_silent_and_makes_the_player_unconvertible_for_good():
    """WH-I3, WH-C6, WH-C2: prayer is silent and lasts."""
    g = game().night(1).act("Inq", "pray", "V1")
    g.day(1)
    g.night(2).act("Inq", "pray", "V8")
    g.day(2)
    g.night(3).act("W1", "recruit", "V1").act("Inq", "pray", "V8")  # N2 (W2, silent) was a pass too
    run = g.run()
    assert keys(run, "N1") == ["nobody_converted", "nobody_died"]  # W1 sent nothing: a pass
    assert pms(run) == []
    assert "recruit_failed" in keys(run, "N3") and "converted" not in statuses(run, "V1")


def test_WH_I4_D22_option_tells_recruiter_and_inquisitor_the_saved_name():
    """WH-I4, WH-C9, D22: option: PM the saved name to the recruiter and the Inquisitor only."""
    g = game(saved_soul_pm=True).night(1).act("W1", "recruit", "V1").act("Inq", "pray", "V1")
    run = g.run()
    assert {(r.to, r.fact.get("player")) for _, r in run.private} == {("W1", "V1"), ("Inq", "V1")}
    assert pms(run, "W2") == []  # WH-C9


def test_WH_I6_role_of_a_burned_player_is_revealed_at_dawn():
    """WH-I6: a burned player's role is revealed."""
    g = game().night(1).act("Inq", "fire", "Gos")
    run = g.run()
    f = facts(run, "death", "N1")[0]
    assert (f.get("role"), f.rule) == ("gossip", "WH-I6")


def test_WH_I7_holy_fire_cannot_kill_the_last_witch_facing_the_inquisitor():
    """WH-I7, WH-W3: holy fire cannot kill the last witch facing the Inquisitor alone."""
    inp = nightmod.NightInput(night="N5", roles={"Inq": "inquisitor", "W1": "witch"}, living=frozenset({"Inq", "W1"}),
                              coven=("W1",), prayed=frozenset(), inquisitor="Inq", inquisitor_action="fire",
                              inquisitor_target="W1")
    out = nightmod.resolve(inp, get_ruleset_class("witch-hunt").NIGHT_ORDER)
    assert out.deaths == () and out.notes[0][0] == "WH-I7"
    three = nightmod.NightInput(night="N5", roles={"Inq": "inquisitor", "W1": "witch", "V": "villager"},
                                living=frozenset({"Inq", "W1", "V"}), coven=("W1",), prayed=frozenset(),
                                inquisitor="Inq", inquisitor_action="fire", inquisitor_target="W1")
    assert nightmod.resolve(three, get_ruleset_class("witch-hunt").NIGHT_ORDER).deaths == (("W1", "holy_fire"),)


def test_WH_G1_gossip_self_check_rejected_and_converted_gossip_loses_it_WH_C5():
    """WH-G1, WH-C5, D19: self-check rejected; a converted Gossip's check works that night only."""
    g = game().night(1).act("Gos", "check", "Gos").act("Gos", "check", "W1").act("W1", "recruit", "Gos")
    g.act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("Gos", "check", "V1")
    run = g.run()
    assert ("check", "Gos", "self_target", "D19") in rejections(run)
    assert [f.get("status") for f in pms(run, "Gos", "gossip_result")] == ["cursed"]  # night-1 check works
    assert ("check", "Gos", "converted", "WH-C5") in rejections(run)


def test_D16_option_random_gossip_target_is_drawn_with_the_seed():
    """D16, WH-G1: option: the Gossip's target is drawn with the seed."""
    g = game(gossip_target="random").night(1).act("Gos", "check", "W1").act("Inq", "pray", "V8")
    run = g.run()
    assert ("check", "Gos", "random_target", "D16") in rejections(run)
    got = pms(run, "Gos", "gossip_result")
    assert len(got) == 1 and got[0].get("target") != "Gos"
    again = game(gossip_target="random").night(1).act("Inq", "pray", "V8").run()
    assert pms(again, "Gos")[0].get("target") == got[0].get("target")
    assert any(e.kind == "draw" and e.rule == "D16" for e in run.log)


def test_WH_K1_witch_may_not_name_a_witch_and_a_silent_witch_names_nobody():
    """WH-K1, D19: victims among the innocents; a silent witch names nobody."""
    g = game().night(1).act("W1", "kill", "W2").act("W2", "kill", "V1")
    run = g.run()
    assert ("kill", "W1", "witch_target", "D19") in rejections(run)
    assert all(not r.public for r in run.rejections)
    assert dead(run) == set()


def test_WH_K2_more_than_three_witches_even_split_handled_in_the_pure_night():
    """WH-K2, D7: an even split between two victims kills nobody."""
    inp = nightmod.NightInput(night="N1", roles={}, living=frozenset({"A", "B", "C", "D", "X", "Y"}),
                              coven=("A", "B", "C", "D"), prayed=frozenset(),
                              victims=(("A", "X"), ("B", "X"), ("C", "Y"), ("D", "Y")))
    out = nightmod.resolve(inp, get_ruleset_class("witch-hunt").NIGHT_ORDER)
    assert out.victim is None and out.notes[0][0] == "WH-K2"


def test_WH_K3_lone_witch_named_victim_survives_in_the_pure_night():
    """WH-K3: a lone witch cannot kill."""
    inp = nightmod.NightInput(night="N1", roles={}, living=frozenset({"A", "X", "Y"}), coven=("A",),
                              prayed=frozenset(), victims=(("A", "X"),))
    out = nightmod.resolve(inp, get_ruleset_class("witch-hunt").NIGHT_ORDER)
    assert out.victim is None and out.notes[0][0] == "WH-K3"


def test_WH_C1_first_recruiter_is_drawn_between_the_first_two_witches_and_recorded():
    """WH-C1, D18: the draw between the first two witches, seeded and logged."""
    three = ["W1", "W2", "W3"] + PLAYERS[2:]
    roles = {p: "witch" if p.startswith("W") else ROLES[p] for p in three}
    firsts = set()
    for seed in range(1, 30):
        run = Scenario("witch-hunt", three, roles, seed=seed).night(1).run()
        firsts.add(run.state.x.first_recruiter)
        assert run.state.x.first_drawn and run.state.x.order[2] == "W3"
    assert firsts == {"W1", "W2"}
    run = Scenario("witch-hunt", three, roles, seed=4).night(1).run()
    assert any(e.kind == "draw" and e.rule == "WH-C1" and "drawn" in e.text for e in run.log)
    assert Scenario("witch-hunt", three, roles, seed=4).night(1).run().state.x.order == run.state.x.order


def test_WH_C1_D18_option_first_recruiter_and_non_holder_pm_rejected_at_night():
    """WH-C1, D18: option first_recruiter; a non-holder's recruitment is rejected."""
    g = game(first_recruiter="W2").night(1).act("W1", "recruit", "V1").act("W2", "recruit", "V2")
    run = g.run()
    assert run.state.x.order == ("W2", "W1", "V2")
    assert ("recruit", "W1", "not_holder", "WH-C1") in rejections(run)
    assert "converted" in statuses(run, "V2")


def test_WH_C1_recruit_sent_by_day_is_judged_against_the_holder_at_resolution():
    """WH-C1, D18: a recruitment sent by day is judged against the holder at resolution."""
    g = game().night(1).act("W1", "recruit", "Inq").act("Inq", "pray", "V8")  # N2 is W2's
    g.day(1).act("W1", "recruit", "V1").act("W2", "recruit", "V2")
    g.night(2).act("Inq", "pray", "V8")
    run = g.run()
    assert ("recruit", "W1", "not_holder", "WH-C1") in rejections(run)
    assert "converted" in statuses(run, "V2") and "converted" not in statuses(run, "V1")


def test_WH_C2_silent_holder_has_passed_and_the_next_night_is_compulsory():
    """WH-C2, WH-C3, D19: a silent holder has passed."""
    g = game().night(1).act("Inq", "pray", "V8")
    run = g.run()
    assert "nobody_converted" in keys(run, "N1") and run.state.x.compulsory == "N2"


def test_WH_C3_gm_entered_target_on_a_compulsory_night_converts():
    """WH-C3, D19: the GM enters a target on a compulsory night."""
    g = game().night(1).act("W1", "pass").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("W2", "pass")
    gm_act(g, "W2", "recruit", "V3")
    run = g.run()
    assert "converted" in statuses(run, "V3") and run.state.x.compulsory is None


def test_WH_C4_the_new_member_kills_and_recruits_with_the_coven_from_the_next_night():
    """WH-C4: the new member kills with the coven from the next night."""
    g = game().night(1).act("W1", "recruit", "V1").act("V1", "kill", "V2").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("V1", "kill", "V3").act("W2", "kill", "V3").act("Inq", "pray", "V8")
    run = g.run()
    assert ("kill", "V1", "wrong_role", "WH-K1") in rejections(run)  # not a witch yet on night 1
    assert "V3" in dead(run) and "V2" not in dead(run)


def test_WH_C6_WH_C7_failed_recruitment_passes_the_right_without_making_a_skip():
    """WH-C6, WH-C7, WH-C3: a failed recruitment passes the right and is no skip."""
    g = game().night(1).act("W1", "recruit", "Inq").act("Inq", "pray", "V8")
    run = g.run()
    assert keys(run, "N1")[0] == "recruit_failed"
    assert run.state.x.after == "W1" and run.state.x.compulsory is None


def test_WH_C8_blocked_night_uses_no_turn_and_D17_option_announces_it():
    """WH-C8, D17, D18: the blocked night uses no turn; option announces it."""
    g = game(blocked_night_post="nobody_converted").night(1).act("W1", "recruit", "V1").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("Inq", "pray", "V8")
    run = g.run()
    assert keys(run, "N2")[0] == "nobody_converted" and facts(run, "nobody_converted")[0].rule == "D17"
    assert run.state.x.after == "W1" and run.state.x.compulsory is None
    assert run.state.x.holders == (("N1", "W1"), ("N2", ""))


def test_WH_C9_failed_recruitment_target_stays_hidden_from_the_coven():
    """WH-C9: a failed target stays hidden."""
    g = game().night(1).act("W1", "recruit", "Inq").act("Inq", "pray", "V8")
    run = g.run()
    assert pms(run) == [] and all("Inq" not in str(f.params) for _, f in run.facts)


def test_WH_C10_healed_victim_converted_the_same_night_survives_as_a_witch():
    """WH-C10, WH-C4, WH-H2: a healed victim converted the same night survives as a witch."""
    g = game().night(1).act("W1", "kill", "V1").act("W2", "kill", "V1").act("W1", "recruit", "V1")
    g.act("Her", "heal", "V1")
    run = g.run()
    assert "V1" not in dead(run) and "converted" in statuses(run, "V1")
    assert pms(run, "V1", "coven_members")[0].get("members") == ("W1", "W2")


def test_WH_C11_converted_player_killed_at_night_is_revealed_with_former_role():
    """WH-C11: a converted player killed at night shows the former role."""
    g = game().night(1).act("W1", "recruit", "Her").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("Inq", "fire", "Her")
    run = g.run()
    f = facts(run, "death", "N2")[0]
    assert (f.get("role"), f.get("converted"), f.rule) == ("herbalist", True, "WH-C11")


def test_converted_player_cannot_be_recruited_or_named_as_victim():
    """WH-K1, D19: a converted player is a witch: not a valid victim."""
    g = game().night(1).act("W1", "recruit", "V1").act("Inq", "pray", "V8")
    g.day(1)
    g.night(2).act("W2", "kill", "V1")
    run = g.run()
    assert ("kill", "W2", "witch_target", "D19") in rejections(run)


# --------------------------------------------------------------------------- wins (WH-W*)


def test_WH_W1_coven_must_strictly_outnumber_the_town():
    """WH-W1: the coven must strictly outnumber the town."""
    g = game(["W1", "W2", "V1", "V2", "V3"]).night(1).act("W1", "kill", "V1").act("W2", "kill", "V1")
    run = g.run()
    assert run.state.outcome is None  # 2 witches vs 2 townsfolk
    assert g.rs.check_win(run.state) is None


def test_WH_W2_D21_town_wins_when_all_witches_are_dead_even_with_no_townsperson_alive():
    """WH-W2, D21: all witches dead: town wins even with no townsperson alive."""
    rs = make_ruleset("witch-hunt")
    st = GameState(ruleset="witch-hunt", players=(
        Player("W1", "witch", 1, alive=False), Player("V1", "villager", 2, alive=False),
        Player("V2", "villager", 3, alive=False, statuses=frozenset({"converted"}))))
    out = rs.check_win(st)
    assert (out.result, out.winners) == ("town", ("V1",))


def test_WH_W3_draw_only_with_the_inquisitor_not_another_townsperson():
    """WH-W3: a draw needs the Inquisitor."""
    g = game(["W1", "Her", "V1", "V2"], first_recruiter="").day(1).vote("W1", "V1").vote("Her", "V1")
    g.night(1).act("W1", "kill", "V2")  # alone: nobody dies (WH-K3)
    run = g.run()
    assert run.state.outcome is None


def test_WH_W4_win_is_checked_after_the_revote():
    """WH-W4, WH-D2: the win is checked after the revote."""
    four = ["W1", "V1", "V2", "Inq"]
    g = game(four, first_recruiter="", first_phase="day")
    start = g.cursor
    g.day(1, hours=48, deadline=start + timedelta(hours=24))
    votes_at(g, start, [("V1", "W1"), ("V2", "Inq"), ("W1", "V2"), ("Inq", "V1")])  # 4-way tie
    votes_at(g, start + timedelta(hours=24), [("V1", "W1"), ("V2", "W1"), ("Inq", "W1")])
    run = g.run()
    assert run.state.proposal("revote:D1").status == "approved"
    assert run.state.outcome.result == "town" and run.state.outcome.rule == "WH-W2"


# --------------------------------------------------------------------------- D20 and GM commands


def test_D20_default_a_vote_at_the_deadline_is_late_option_counts_it():
    """D20: a vote at the deadline is late; option deadline_inclusive counts it."""
    for inclusive, expect in ((False, {"V1"}), (True, {"V2"})):
        g = game(deadline_inclusive=inclusive, first_phase="day").day(1)
        g.vote("V3", "V1").vote("V4", "V1").vote("V5", "V2").vote("V6", "V3")
        g.vote("V7", "V2", at=g.phases[-1].end).vote("V4", "V2", at=g.phases[-1].end)
        g.night(1).act("Inq", "pray", "V8")
        run = g.run()
        assert dead(run) == expect
        assert (("vote", "V7", "no_vote_now", "WH-D7") in rejections(run)) is not inclusive


def test_D20_option_pm_at_the_night_deadline_counts():
    """D20: option deadline_inclusive: a PM at the night deadline counts."""
    for inclusive in (False, True):
        g = game(deadline_inclusive=inclusive)
        start = g.cursor
        g.night(1, hours=12, deadline=start + timedelta(hours=10)).act("Inq", "pray", "V8")
        g.act("W1", "kill", "V1").act("W2", "kill", "V1", at=start + timedelta(hours=10))
        run = g.run()
        assert ("V1" in dead(run)) is inclusive


def test_gm_replace_renames_the_seat_in_the_coven_order():
    """D18: a replacement keeps the seat's place in the coven order."""
    g = game().night(1).gm("replace", "W1", "Wnew").act("Wnew", "recruit", "V1").act("Inq", "pray", "V8")
    run = g.run()
    assert run.state.x.order == ("Wnew", "W2", "V1") and "converted" in statuses(run, "V1")


def test_required_actions_is_empty_by_day_and_after_the_night_acted():
    """WH-I2, WH-C3: nothing owed by day or once the Inquisitor acted."""
    g = game().night(1).act("Inq", "pray", "V1")
    mid = g.run(now=g.clock + timedelta(minutes=1))
    assert g.rs.required_actions(mid.state, mid.state.phase) == ()
    g.day(1)
    run = g.run(now=g.cursor - timedelta(hours=1))
    assert g.rs.required_actions(run.state, run.state.phase) == ()


def test_D11_default_schedule_gives_the_revote_its_24_hours_before_the_night_resolves():
    """D9, D11, WH-D2: with the default deadlines the revote runs 24 h from the GM's revote post
    (the first round's close), overlapping the next night, which resolves after the execution."""
    from zoneinfo import ZoneInfo

    from forummod.engine.core import run_game
    from forummod.engine.schedule import build_phases
    from tests.engine.scenario import T0

    g = game()
    tim = g.rs.default_timing(g.rs.options)
    now = T0 + timedelta(days=5)
    g.phases = list(build_phases(tim, start=T0, tz=ZoneInfo("UTC"), now=now))
    d1 = g.phases[1]
    assert (d1.name, d1.vote_close - d1.start) == ("D1", timedelta(hours=48))
    g.clock = T0
    g.act("Inq", "pray", "V8")
    votes_at(g, d1.start, split({"V1": 3, "V2": 3, "V3": 1}, PLAYERS))
    close = d1.vote_close
    g.act("W1", "kill", "V5", at=close + timedelta(hours=1)).act("W2", "kill", "V5", at=close + timedelta(hours=1))
    votes_at(g, close + timedelta(hours=23), [("W1", "V2"), ("W2", "V2"), ("Her", "V1")])
    g.vote("Gos", "V1", at=close + timedelta(hours=24))  # at the deadline: already day 2
    run = run_game(g.rs, g.setup, tuple(g.phases), g.events, now=now, approve_all=True)
    assert facts(run, "revote_open")[0].get("until") == (close + timedelta(hours=24)).isoformat()
    rounds = [(t.round, t.total_for("V1"), t.total_for("V2")) for t in run.tallies if t.phase == "D1"]
    assert rounds == [(1, 3, 3), (2, 1, 2)]
    assert {"V2", "V5"} <= dead(run) and "V1" not in dead(run)
    assert not [w for w in warnings(run) if w[1] == "D11"]
