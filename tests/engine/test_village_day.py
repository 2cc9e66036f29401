"""village.md §3.3–§3.6, §5.2, §6: dawn post, day powers, buildings, the lynch vote, the Sheriff, wins."""

from __future__ import annotations

from forummod.engine.events import ActionEvent
from forummod.engine.registry import make_ruleset
from forummod.engine.rulesets.village import VillageOptions
from forummod.schema import fields_of

from tests.engine.village_f8 import F8, H, M, S, render, seg_items


def facts(run, seg=None, key=None):
    items = seg_items(run, seg, "facts") if seg else run.facts
    return [f for _, f in items if key is None or f.key == key]


def pms(run, to=None, key=None):
    return [r.fact for _, r in run.private if (to is None or r.to == to) and (key is None or r.fact.key == key)]


# ---------------------------------------------------------------------- options and timing


def test_options_mirror_7Z_with_defaults_and_decision_docs():
    o = VillageOptions()
    assert o.sheriff.election_day == 2 and o.time.vote_open.seconds == 36 * 3600
    assert o.barkeeper.first_vote == "window" and o.time.barkeeper_window == 0.1
    rs = make_ruleset("village", {"sheriff": {"election_day": 1}, "time": {"lord_window": "3h"}})
    assert rs.options.sheriff.election_day == 1
    assert rs.default_timing(rs.options).day_end == "75h"  # 48 + tie-break 12 + re-vote 12 + Lord 3

    def walk(cls):
        for f in fields_of(cls):
            assert f.metadata.get("doc"), f.name
            if type(f.default).__module__.endswith("options"):
                walk(type(f.default))
    walk(VillageOptions)


def test_default_timing_from_the_time_table():
    rs = make_ruleset("village")
    t = rs.default_timing(rs.options)
    assert (t.first_phase, t.action_deadline, t.night_end, t.vote_close) == ("night", "24h", "30h", "48h")


# ---------------------------------------------------------------------- dawn (VIL-D-01)


def test_VIL_D_01_dawn_post_lists_deaths_in_seat_order_burned_building_poster_and_windows():
    """VIL-D-01"""
    f = F8(roles={"P3": "pyromaniac", "P4": "hunter", "P8": "witch", "P2": "scandalmonger"},
           buildings={"P7": "church", "P1": "school"})
    n = f.night(2, pack={"target": "P4"}, pyromaniac={"building_of": "P7"}, witch={"poison": "P1"},
                scandalmonger={"target": "P7"})
    run = f.run_at(n)
    seq = [f.key for f in facts(run, n) if f.key != "nightfall"]
    assert seq[:5] == ["death", "death", "building_burned", "reaction_window", "victory_pending"]
    deaths = [render(x) for x in facts(run, n, "death")]
    assert deaths == ["P1 — Villager", "P4 — Hunter"]
    assert "cause" not in dict(facts(run, n, "death")[0].params)  # VIL-A-51
    assert run.state.x.poster is None  # P7 became a Vagabond: the poster is void


def test_VIL_A_51_death_causes_and_VIL_A_52_hidden_cards_options():
    """VIL-A-51 VIL-A-52"""
    f = F8(options={"announce.death_causes": True})
    run = f.run_at(f.night(2, pack={"target": "P1"}))
    assert facts(run, key="death")[0].get("cause") == "wolves"
    f = F8(options={"announce.reveal_cards": False})
    n = f.night(2, pack={"target": "P1"})
    f.expect(n, dead=["P1"], revealed={})


# ---------------------------------------------------------------------- cascade and windows (§3.5, §3.6)


def test_VIL_R_HUNTER_shoots_at_dawn_and_the_victory_check_waits():
    """VIL-R-HUNTER"""
    f = F8(roles={"P4": "hunter"}, alive=["P1", "P4", "P5"])
    n = f.night(2, pack={"target": "P4"})
    run = f.g.run(now=n.day.start + M)
    assert run.state.outcome is None  # P1 and P5 left: the pack would win, but the shot is pending
    f.act(n, dawn={"hunter_shot": "P5"})
    f.expect(n, dead=["P4", "P5"], winner="villagers")


def test_VIL_R_HUNTER_window_holds_the_win_until_it_closes():
    """VIL-R-HUNTER VIL-A-49"""
    f = F8(roles={"P4": "hunter"}, alive=["P4", "P5"])
    n = f.night(2, pack={"target": "P4"})
    early = f.g.run(now=n.day.start + M)
    assert early.state.outcome is None and early.state.x.windows[0].kind == "hunter"
    f.expect(n, winner="werewolves")  # no shot in 12 h: the pack wins


def test_VIL_A_47_poisoned_hunter_does_not_shoot_with_not_poisoned():
    """VIL-A-47"""
    f = F8(roles={"P4": "hunter", "P8": "witch"}, options={"hunter.shoot_when": "not_poisoned"})
    run = f.run_at(f.night(2, witch={"poison": "P4"}))
    assert not facts(run, key="reaction_window")
    f = F8(roles={"P4": "hunter", "P8": "witch"})
    run = f.run_at(f.night(2, witch={"poison": "P4"}))
    assert facts(run, key="reaction_window")[0].get("kind") == "hunter"


def test_VIL_B_FARM_successor_on_death_and_VIL_A_07_timeout_options():
    """VIL-B-FARM VIL-A-07"""
    b = {"P1": "farm", "P2": "farm"}
    f = F8(buildings=b, state={"sheriff": "P1"}, options={"sheriff.succession_timeout": "none"})
    f.expect(f.night(3, pack={"target": "P1"}), sheriff=None, sheriff_extinct=True)
    f = F8(buildings=b, state={"sheriff": "P1"}, options={"sheriff.succession_timeout": "gm_choice"})
    n = f.night(3, pack={"target": "P1"})
    run = f.expect(n, sheriff=None)
    assert facts(run, key="sheriff_gm_choice")[0].get("farmers") == ("P2",)
    f.g.events.append(ActionEvent(at=n.day.start + 13 * H - M, actor="GM", action="successor", targets=("P2",),
                                  by_gm=True))
    f.expect(n, sheriff="P2")


def test_VIL_B_FARM_successor_must_be_a_living_farmer():
    """VIL-B-FARM"""
    f = F8(buildings={"P1": "farm", "P2": "farm"}, state={"sheriff": "P1"})
    n = f.night(3, pack={"target": "P1"})
    at = n.day.start + M
    f.g.act("P1", "successor", "P3", at=at, channel="thread").act("P1", "successor", "P2", at=at + M, channel="thread")
    run = f.run_at(n)
    assert [r.reason for r in seg_items(run, n, "rejections")] == ["not_farmer"] and run.state.x.sheriff == "P2"


def test_VIL_A_08_sheriff_whose_farm_burns_keeps_the_title_or_loses_it():
    """VIL-A-08"""
    b = {"P1": "farm", "P2": "farm"}
    roles = {"P3": "pyromaniac"}
    f = F8(roles=roles, buildings=b, state={"sheriff": "P1"})
    f.expect(f.night(2, pyromaniac={"building_of": "P1"}), sheriff="P1", vagabond_includes=["P1"])
    f = F8(roles=roles, buildings=b, state={"sheriff": "P1"}, options={"sheriff.burned_farm_keeps_title": False})
    n = f.night(2, pyromaniac={"building_of": "P1"})
    f.act(n, dawn={"sheriff_successor": "P2"})
    f.expect(n, sheriff="P2")


def test_VIL_A_09_a_refilled_farm_brings_a_new_election_only_with_the_option():
    """VIL-A-09"""
    b = {"P1": "farm", "P4": "bailiff"}
    f = F8(buildings=b, state={"sheriff": "P1"}, options={"sheriff.reelect_if_farmer_returns": True})
    n = f.night(3, pack={"target": "P1"})
    f.act(n, morning={"bailiff": {"offer": {"farm@P1": "P7"}}, "P7": "accept"})
    run = f.expect(n, sheriff_extinct=False, farmers=["P7"])
    n4 = f.night(4)
    f.expect(n4, sheriff="P7")  # the next morning: a single Farmer is Sheriff without a vote


# ---------------------------------------------------------------------- day powers (§5.2)


def test_VIL_B_CHURCH_confessor_once_a_target_other_than_himself_VIL_A_12_VIL_A_13():
    """VIL-B-CHURCH VIL-A-13 VIL-A-12"""
    f = F8(buildings={"P1": "church"}, options={"confessor.public": "none", "confessor.reveals": "wolf_or_not"})
    d = f.day(2, confessor={"target": "P6"})
    f.act(d, confessor={"target": "P5"})
    run = f.expect(d, rejected=[{"confessor": "P5", "reason": "token_spent"}], token={"church": "spent"})
    assert pms(run, "P1", "confessor_result")[0].get("verdict") == "werewolf"
    assert not facts(run, d, "confessor_used")
    f = F8(buildings={"P1": "church"})
    f.expect(f.day(2, confessor={"target": "P1"}), rejected=[{"confessor": "P1", "reason": "self_target"}])


def test_VIL_B_CHURCH_a_vagabond_may_be_confessed():
    """VIL-B-CHURCH"""
    f = F8(buildings={"P1": "church"})
    run = f.expect(f.day(2, confessor={"target": "P7"}), token={"church": "spent"})
    assert pms(run, "P1", "confessor_result")[0].get("card") == "villager"


def test_VIL_B_HOVEL_and_VIL_A_14_wasted_invalid_target_and_no_self():
    """VIL-B-HOVEL VIL-A-14"""
    f = F8(buildings={"P2": "hovel", "P3": "school"}, options={"bonesetter.invalid_target": "wasted"})
    f.expect(f.day(2, bonesetter={"target": "P3"}), rejected=[{"bonesetter": "P3", "reason": "no_spent_token"}],
             token={"hovel": "spent"})
    f = F8(buildings={"P2": "hovel", "P3": "tavern"}, state={"tokens": {"tavern": "lost"}},
           options={"bonesetter.restores_tavern": False})
    f.expect(f.day(2, bonesetter={"target": "P3"}), rejected=[{"bonesetter": "P3", "reason": "no_spent_token"}],
             token={"tavern": "lost", "hovel": "ready"})
    f = F8(buildings={"P2": "hovel"}, state={"tokens": {"hovel": "spent"}})
    f.expect(f.day(2, bonesetter={"target": "P2"}), rejected=[{"bonesetter": "P2", "reason": "token_spent"}])


def test_VIL_B_SCHOOL_schoolmarm_silences_two_at_most_not_herself_VIL_D_03_VIL_S_SILENCED():
    """VIL-S-SILENCED VIL-D-03 VIL-B-SCHOOL"""
    f = F8(buildings={"P3": "school", "P1": "farm", "P2": "farm", "P4": "church"})
    d = f.day(3, schoolmarm={"silence": ["P1", "P2"]})
    f.then(d, {"schoolmarm": {"silence": ["P4"]}}, {"schoolmarm": {"silence": ["P3"]}})
    f.act(d, votes={"P1": "P5", "P4": "P5", "P6": "P4"})
    run = f.expect(d, silenced=["P1", "P2"], rejected=[
        {"schoolmarm": "P4", "reason": "limit"}, {"schoolmarm": "P3", "reason": "self_target"},
        {"vote": "P1", "reason": "silenced"}], lynched=None)
    assert [x.get("player") for x in facts(run, d, "silenced")] == ["P1", "P2"]


def test_VIL_D_03_no_silencing_once_the_vote_is_open():
    """VIL-D-03"""
    f = F8(buildings={"P3": "school", "P1": "farm"})
    d = f.day(3)
    f.g.act("P3", "silence", "P1", at=d.phase.vote_close - H, channel="thread")
    f.expect(d, rejected=[{"schoolmarm": "P1", "reason": "late"}], silenced=[])


def test_VIL_A_15_schoolmarm_votes_on_days_she_does_not_silence_and_VIL_A_16_exactly_two():
    """VIL-A-15 VIL-A-16"""
    f = F8(buildings={"P3": "school", "P1": "farm"}, options={"schoolmarm.never_votes": False})
    f.expect(f.day(2, votes={"P3": "P5"}), lynched="P5")
    f = F8(buildings={"P3": "school", "P1": "farm"}, options={"schoolmarm.never_votes": False})
    f.expect(f.day(2, schoolmarm={"silence": ["P1"]}, votes={"P3": "P5"}),
             rejected=[{"vote": "P3", "reason": "no_vote_right"}], lynched=None)
    f = F8(buildings={"P3": "school", "P1": "farm", "P2": "farm"}, options={"schoolmarm.exactly_two": True})
    d = f.day(2, schoolmarm={"silence": ["P1"]})
    run = f.expect(d, silenced=[])
    assert [r.reason for r in run.rejections] == ["exactly_two"]
    f.act(d, schoolmarm={"silence": ["P1", "P2"]})
    f.expect(d, silenced=["P1", "P2"])


def test_VIL_B_BARBER_lover_target_kills_both_and_VIL_A_20_white_werewolf_option():
    """VIL-A-20 VIL-B-BARBER"""
    f = F8(roles={"P2": "cupid"}, state={"lovers": ["P3", "P5"]},
           buildings={"P1": "barbershop", "P3": "school", "P5": "manor"})
    f.expect(f.day(2, barber={"target": "P5"}), dead=["P5", "P3"], alive_includes=["P1"])
    f = F8(roles={"P7": "white_werewolf"}, buildings={"P1": "barbershop", "P7": "church"},
           options={"barber.white_werewolf_is_wolf": False})
    f.expect(f.day(2, barber={"target": "P7"}), dead=["P7", "P1"])
    f = F8(roles={"P7": "piper"}, buildings={"P1": "barbershop", "P7": "church"})
    f.expect(f.day(2, barber={"target": "P7"}), dead=["P7", "P1"])  # the Piper is "a villager" here


def test_VIL_A_19_barber_killing_a_wolf_cancels_the_lynch_with_the_option():
    """VIL-A-19"""
    f = F8(buildings={"P1": "barbershop", "P5": "church"}, options={"barber.wolf_kill_cancels_lynch": True})
    d = f.day(2, barber={"target": "P5"}, votes={"P1": "P2", "P3": "P2"})
    f.expect(d, dead=["P5"], lynch_still_held=False, lynched=None)


def test_VIL_A_54_same_instant_day_powers_run_in_5_2_order():
    """VIL-A-54"""
    f = F8(buildings={"P1": "church", "P2": "barbershop", "P4": "hovel", "P5": "manor"})
    d = f.day(2)
    at = d.phase.start + 14 * H
    f.g.act("P2", "barber", "P5", at=at, channel="thread")  # posted first...
    f.g.act("P1", "confess", "P5", at=at, channel="thread")  # ...same instant: the Confessor goes first
    run = f.expect(d, dead=["P5"], token={"church": "spent", "barbershop": "spent"})
    assert pms(run, "P1", "confessor_result")[0].get("card") == "werewolf"


def test_VIL_A_21_day_powers_close_at_the_vote_close_or_its_opening():
    """VIL-A-21"""
    f = F8(buildings={"P1": "church"})
    d = f.day(2)
    f.g.act("P1", "confess", "P5", at=d.phase.vote_close - M, channel="thread")
    f.expect(d, token={"church": "spent"})
    f = F8(buildings={"P1": "church"}, options={"day_ability_cutoff": "vote_open"})
    d = f.day(2)
    f.g.act("P1", "confess", "P5", at=d.phase.vote_close - M, channel="thread")
    f.expect(d, rejected=[{"confessor": "P5", "reason": "late"}], token={"church": "ready"})


def test_VIL_A_53_votes_of_a_voter_killed_mid_vote_are_removed_or_kept():
    """VIL-A-53"""
    for mode, want in (("removed", {"P3": 1}), ("kept", {"P3": 2})):
        f = F8(buildings={"P1": "barbershop", "P5": "manor"}, options={"vote.dead_voter_votes": mode})
        d = f.day(2, votes_in_order=[["P5", "P3"], ["P2", "P3"]])
        f.g.act("P1", "barber", "P5", at=d.phase.vote_close - H, channel="thread")
        f.expect(d, counted=want, lynched="P3")


def test_VIL_D_01b_and_VIL_A_23_unanswered_offer_refused_or_accepted():
    """VIL-D-01b VIL-A-23"""
    b = {"P1": "church", "P2": "bailiff"}
    f = F8(buildings=b)
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"church@P1": "P7"}}})
    f.expect(n, vagabond_includes=["P7"], empty=["church@P1"])
    f = F8(buildings=b, options={"bailiff.silence_means": "accept"})
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"church@P1": "P7"}}})
    f.expect(n, building={"P7": "church"})


def test_VIL_D_01b_bailiff_facts_name_each_building_by_code_and_holder():
    """VIL-D-01b, VIL-B-BAILIFF, §0: the morning, the offer and the answer name a building by its
    code and its last holder (parallel tuples for the morning's list), never by a `code@Pk` id,
    so a phrase can say "the church of P1" in every language; the offer carries the deadline."""
    f = F8(roles={"P8": "witch"}, buildings={"P1": "church", "P2": "bailiff", "P3": "farm"})
    n = f.night(2, pack={"target": "P1"}, witch={"poison": "P3"},
                morning={"bailiff": {"offer": {"church@P1": "P7"}}, "P7": "accept"})
    run = f.expect(n, building={"P7": "church"})
    (morning,) = facts(run, n, "bailiff_morning")
    assert morning.get("buildings") == ("church", "farm") and morning.get("holders") == ("P1", "P3")
    assert morning.get("deadline")
    (offer,) = facts(run, n, "bailiff_offer")
    assert (offer.get("building"), offer.get("holder"), offer.get("vagabond")) == ("church", "P1", "P7")
    assert offer.get("deadline") == morning.get("deadline")
    (answer,) = facts(run, n, "bailiff_answer")
    assert (answer.get("building"), answer.get("holder"), answer.get("answer")) == ("church", "P1", "accepted")
    assert not [f for f in facts(run) for v in dict(f.params).values() if isinstance(v, str) and "@" in v]


def test_VIL_B_role_pm_facts_name_the_building_or_the_vagabond():
    """§2.2, VIL-B-VAGABOND: the role PM's extra fact is the player's building code ('' for a
    Vagabond); buildings are public, so it carries nothing secret."""
    f = F8(buildings={"P1": "farm", "P2": "barbershop"})
    f.night(1)
    st = f.g.run(now=f.g.phases[0].start + M).state
    rs = f.g.rs
    assert [(x.key, x.get("building"), x.rule) for x in rs.role_pm_facts(st, "P2")] == \
        [("your_building", "barbershop", "VIL-B-BARBER")]
    assert [x.get("building") for x in rs.role_pm_facts(st, "P5")] == [""]
    assert rs.role_pm_facts(st, "P9") == ()


def test_VIL_A_24_reoffer_after_refusal_and_its_option():
    """VIL-A-24"""
    b = {"P1": "church", "P2": "bailiff"}
    f = F8(buildings=b)
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"church@P1": "P7"}}, "P7": "refuse"})
    f.act(n, morning={"bailiff": {"offer": {"church@P1": "P8"}}, "P8": "accept"})
    f.expect(n, building={"P8": "church"})
    f = F8(buildings=b, options={"bailiff.reoffer_after_refusal": False})
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"church@P1": "P7"}}, "P7": "refuse"})
    f.act(n, morning={"bailiff": {"offer": {"church@P1": "P8"}}})
    f.expect(n, rejected=[{"bailiff": "P8", "reason": "already_offered"}], vagabond_includes=["P8"])


def test_VIL_A_22_day_vacancies_wait_for_next_morning_or_follow_the_execution():
    """VIL-A-22"""
    b = {"P1": "church", "P2": "bailiff"}
    f = F8(buildings=b)
    d = f.day(2, votes={"P3": "P1", "P4": "P1"})
    run = f.expect(d, lynched="P1")
    assert run.state.x.morning is None or run.state.x.morning.day != 2 or not run.state.x.morning.available
    n = f.night(3, morning={"bailiff": {"offer": {"church@P1": "P7"}}, "P7": "accept"})
    f.expect(n, building={"P7": "church"})
    f = F8(buildings=b, options={"bailiff.day_vacancies": "after_execution"})
    d = f.day(2, votes={"P3": "P1", "P4": "P1"})
    close = d.phase.vote_close
    f.g.act("P2", "assign", "P7", at=close + H, channel="thread", building="church@P1")
    f.g.act("P7", "accept", at=close + H + M, channel="thread")
    f.expect(d, building={"P7": "church"})


def test_VIL_B_BAILIFF_only_vagabonds_and_never_a_destroyed_building():
    """VIL-B-BAILIFF"""
    f = F8(roles={"P3": "pyromaniac"}, buildings={"P1": "church", "P2": "bailiff", "P8": "manor"},
           alive=["P1", "P2", "P3", "P4", "P5", "P6", "P7"])
    n = f.night(2, pack={"target": "P1"}, pyromaniac={"building_of": "P1"})
    f.act(n, morning={"bailiff": {"offer": {"church@P1": "P7"}}})
    f.expect(n, rejected=[{"bailiff": "P7", "reason": "not_available"}], destroyed=["church@P1"])


def test_VIL_A_58_bailiff_before_the_election_a_new_farmer_votes_and_stands_VIL_D_02():
    """VIL-D-02 VIL-A-58"""
    f = F8(buildings={"P1": "farm", "P2": "farm", "P3": "farm", "P4": "bailiff"})
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"farm@P1": "P7"}}, "P7": "accept"})
    d = f.day(2, election={"P7": "P7", "P2": "P7", "P3": "P2"})
    f.expect(d, sheriff="P7", election_held=True)


def test_VIL_A_04_election_day_option_and_VIL_A_05_electorate_all():
    """VIL-A-04 VIL-A-05"""
    f = F8(buildings={"P1": "farm", "P2": "farm"}, options={"sheriff.election_day": 1,
                                                           "sheriff.electorate": "all"})
    d = f.day(1, election={"P4": "P2", "P5": "P2", "P1": "P1"})
    f.expect(d, sheriff="P2")
    f = F8(buildings={"P1": "farm", "P2": "farm"})
    f.expect(f.day(1), sheriff=None, election_held=False)


def test_VIL_A_06_election_tie_revote_then_random():
    """VIL-A-06"""
    f = F8(buildings={"P1": "farm", "P2": "farm"})
    d = f.day(2, election={"P1": "P1", "P2": "P2"})
    run = f.expect(d, tie=["P1", "P2"], revote=True, sheriff_in=["P1", "P2"])
    assert facts(run, d, "sheriff_elected")[0].get("how") == "random"


def test_VIL_A_41_poster_has_no_effect_on_the_election():
    """VIL-A-41"""
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P1": "farm", "P2": "farm"})
    f.night(2, scandalmonger={"target": "P2"})
    f.expect(f.day(2, election={"P1": "P1", "P2": "P1"}), sheriff="P1")


def test_VIL_base_election_when_no_farms_option():
    f = F8(options={"sheriff.base_election_if_no_farms": True, "setup.farms": 0})
    f.expect(f.day(1, election={"P1": "P4", "P2": "P4", "P5": "P3"}), sheriff="P4")


# ---------------------------------------------------------------------- the vote (§6)


def test_VIL_V_1_who_may_vote_dead_and_revealed_idiot_and_VIL_R_IDIOT():
    """VIL-R-IDIOT VIL-V-1 VIL-V-7"""
    f = F8(roles={"P4": "idiot"}, buildings={"P1": "farm"})
    d = f.day(2, votes={"P1": "P4", "P2": "P4"})
    run = f.expect(d, lynched=None, revealed={"P4": "idiot"}, alive_includes=["P4"])
    d3 = f.day(3, votes={"P4": "P5"})
    f.expect(d3, rejected=[{"vote": "P4", "reason": "no_vote_right"}])
    d4 = f.day(4, votes={"P1": "P4", "P2": "P4"})
    f.expect(d4, lynched="P4")  # only the first designation is survived


def test_VIL_A_57_sheriff_revealed_as_idiot_loses_the_title():
    """VIL-A-57"""
    f = F8(roles={"P1": "idiot"}, buildings={"P1": "farm", "P2": "farm"}, state={"sheriff": "P1"})
    d = f.day(3, votes={"P3": "P1", "P4": "P1"})
    f.act(d, sheriff_successor="P2")
    f.expect(d, sheriff="P2", alive_includes=["P1"])
    f = F8(roles={"P1": "idiot"}, buildings={"P1": "farm", "P2": "farm"}, state={"sheriff": "P1"},
           options={"idiot.sheriff_keeps_title": True})
    f.expect(f.day(3, votes={"P3": "P1", "P4": "P1"}), sheriff="P1")


def test_VIL_V_2_votes_outside_the_window_are_ignored_and_the_last_valid_vote_counts():
    """VIL-V-2"""
    f = F8()
    d = f.day(2, votes_in_order=[["P1", "P3"], ["P1", "P4"], ["P2", "P4"]])
    f.g.vote("P3", "P2", at=d.phase.start + H)  # before the vote opens
    f.g.vote("P7", "P2", at=d.phase.vote_close + S)  # after it closed
    f.expect(d, counted={"P4": 2}, lynched="P4",
             rejected=[{"vote": "P3", "reason": "vote_not_open"}, {"vote": "P7", "reason": "vote_not_open"}])


def test_VIL_A_45_self_vote_allowed_with_the_option():
    """VIL-A-45"""
    f = F8(options={"vote.allow_self": True})
    f.expect(f.day(2, votes={"P4": "P4", "P1": "P4"}), lynched="P4")


def test_VIL_A_46_no_lynch_candidate_and_abstain_warning():
    """VIL-A-46"""
    from forummod.model import NO_LYNCH
    f = F8(options={"vote.no_lynch_candidate": True})
    f.expect(f.day(2, votes={"P1": NO_LYNCH, "P2": NO_LYNCH, "P3": "P4"}), lynched=None)
    f = F8()
    f.expect(f.day(2, votes={"P1": NO_LYNCH}), rejected=[{"vote": "P1", "reason": "no_lynch_not_allowed"}])
    f = F8(options={"vote.allow_abstain": False})
    d = f.day(2, votes={"P1": "P4"})
    run = f.run_at(d)
    assert sum(1 for e in run.log if e.kind == "warning" and e.rule == "VIL-A-46") == 7


def test_VIL_V_3_barkeeper_locked_and_missed_window():
    """VIL-V-3"""
    f = F8(buildings={"P2": "tavern"})
    d = f.day(2, votes_in_order=[["P2", "P5"], ["P2", "P6"], ["P1", "P5"]])
    f.expect(d, rejected=[{"vote": "P2", "reason": "vote_locked"}], lynched="P5", token={"tavern": "lost"})
    f = F8(buildings={"P2": "tavern"})
    d = f.day(2)
    f.g.vote("P1", "P5", at=d.phase.vote_close - 10 * H)  # after the 72-minute window
    f.g.vote("P2", "P5", at=d.phase.vote_close - 9 * H)
    run = f.expect(d, rejected=[{"vote": "P2", "reason": "no_vote_right"}], lynched="P5", token={"tavern": "held"})
    assert facts(run, d, "barkeeper_missed")


def test_VIL_A_27_barkeeper_first_vote_by_pm():
    """VIL-A-27"""
    f = F8(buildings={"P2": "tavern"}, options={"barkeeper.first_vote": "pm"})
    d = f.day(2, votes_in_order=[["P1", "P5"]])
    f.g.vote("P2", "P5", at=d.phase.start + H, channel="pm")
    f.expect(d, counted={"P5": 2}, void_votes=[], token={"tavern": "lost"})


def test_VIL_A_28_token_lost_only_on_death_option():
    """VIL-A-28"""
    f = F8(buildings={"P2": "tavern", "P8": "manor"}, options={"barkeeper.token_loss": "death"})
    f.expect(f.day(2, votes_in_order=[["P2", "P8"], ["P1", "P8"]], lord={"pardon": "P8"}),
             token={"tavern": "held", "manor": "spent"}, lynched=None)


def test_VIL_B_TAVERN_barkeeper_token_restored_by_a_bailiff_assignment():
    """VIL-B-TAVERN"""
    f = F8(buildings={"P1": "tavern", "P2": "bailiff"}, state={"tokens": {"tavern": "lost"}})
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"tavern@P1": "P7"}}, "P7": "accept"})
    f.expect(n, token={"tavern": "held"}, building={"P7": "tavern"})
    f.expect(f.night(3, pack={"target": "P7"}), rejected=[{"pack": "P7", "reason": "barkeeper_immune"}])


def test_VIL_V_4_sheriff_weight_and_VIL_S_SHERIFF_and_VIL_A_11_silenced_sheriff():
    """VIL-S-SHERIFF VIL-A-11 VIL-V-4"""
    f = F8(buildings={"P1": "farm", "P2": "farm"}, state={"sheriff": "P1"})
    f.expect(f.day(3, votes={"P1": "P3", "P2": "P4"}), score={"P3": 2, "P4": 1}, lynched="P3")
    b = {"P1": "farm", "P2": "farm", "P3": "school"}
    f = F8(buildings=b, state={"sheriff": "P1"})
    d = f.day(3, schoolmarm={"silence": ["P1"]}, votes={"P4": "P7", "P5": "P8"})
    f.act(d, sheriff_choice="P8")
    f.expect(d, rejected=[], lynched="P8")
    f = F8(buildings=b, state={"sheriff": "P1"}, options={"sheriff.silenced_keeps_tiebreak": False})
    d = f.day(3, schoolmarm={"silence": ["P1"]}, votes={"P4": "P7", "P5": "P8"})
    f.expect(d, revote_between=["P7", "P8"])


def test_VIL_V_5_scapegoat_dies_on_a_tie_and_rules_the_next_vote_VIL_R_SCAPEGOAT():
    """VIL-R-SCAPEGOAT VIL-V-5"""
    f = F8(roles={"P8": "scapegoat"})
    d = f.day(2, votes={"P1": "P3", "P2": "P4"})
    f.g.act("P8", "scapegoat_ruling", "P1", "P2", at=d.phase.vote_close + H, channel="thread")
    f.expect(d, lynched="P8", dead=["P8"])
    d3 = f.day(3, votes={"P1": "P5", "P3": "P5", "P4": "P5"})
    f.expect(d3, rejected=[{"vote": "P3", "reason": "no_vote_right"}, {"vote": "P4", "reason": "no_vote_right"}],
             counted={"P5": 1})


def test_VIL_V_6_lord_may_pardon_the_scapegoat_and_VIL_A_30_needs_a_plea():
    """VIL-A-30 VIL-V-6"""
    f = F8(roles={"P8": "scapegoat"}, buildings={"P7": "manor"})
    d = f.day(2, votes={"P1": "P3", "P2": "P4"}, lord={"pardon": "P8"})
    run = f.run_at(d)
    assert [r.reason for r in run.rejections] == ["no_plea"] and not run.state.is_alive("P8")
    f = F8(roles={"P8": "scapegoat"}, buildings={"P7": "manor"})
    d = f.day(2, votes={"P1": "P3", "P2": "P4"}, plea="P8", lord={"pardon": "P8"})
    f.expect(d, lynched=None, alive_includes=["P8"], token={"manor": "spent"})
    f = F8(roles={"P8": "scapegoat"}, buildings={"P7": "manor"}, options={"lord.requires_plea": False})
    f.expect(f.day(2, votes={"P1": "P3", "P2": "P4"}, lord={"pardon": "P8"}), lynched=None)


def test_VIL_A_31_after_a_pardon_the_vote_is_held_again_with_the_option():
    """VIL-A-31"""
    f = F8(buildings={"P8": "manor"}, options={"lord.cancels_day_lynch": False})
    d = f.day(2, votes={"P1": "P3", "P2": "P3", "P4": "P7"}, plea="P3", lord={"pardon": "P3"})
    close = d.phase.vote_close
    f.g.vote("P1", "P3", at=close + H)  # the pardoned player is not a target any more
    f.g.vote("P2", "P4", at=close + H + M)
    f.g.vote("P1", "P4", at=close + H + 2 * M)
    f.expect(d, lynched="P4", alive_includes=["P3"], token={"manor": "spent"})


def test_VIL_A_44_final_tie_random_option_and_VIL_V_7_public_tally():
    """VIL-A-44 VIL-V-7"""
    f = F8(options={"vote.final_tie": "random"})
    d = f.day(2, votes={"P1": "P3", "P2": "P4"})
    f.g.vote("P1", "P3", at=d.phase.vote_close + H).vote("P2", "P4", at=d.phase.vote_close + 2 * H)
    run = f.expect(d, revote_between=["P3", "P4"])
    assert len([p for p in ("P3", "P4") if not run.state.is_alive(p)]) == 1
    f = F8(buildings={"P1": "farm"}, state={"sheriff": "P1"})
    d = f.day(3, votes={"P1": "P3"})
    run = f.run_at(d)
    rs = f.g.rs
    st = f.g.run(now=d.phase.vote_close - M).state
    assert rs.tally(st, None, public=True).candidates[0].total == 2  # VIL-V-4: the weights are public
    assert rs.tally(st, None).candidates[0].total == 2


def test_VIL_V_4_public_tally_keeps_the_sheriff_x2_and_the_poster_plus_2():
    """VIL-V-4 (LUP-D11's secrecy is Lupus only)"""
    f = F8(buildings={"P1": "farm", "P7": "church"}, state={"sheriff": "P1", "poster": "P7"},
           roles={"P8": "scandalmonger"})
    d = f.day(3, votes={"P1": "P3", "P2": "P4"})
    st = f.g.run(now=d.phase.vote_close - M).state
    public = f.g.rs.tally(st, None, public=True)
    assert {c.name: c.total for c in public.candidates} == {"P3": 2, "P4": 1, "P7": 2}
    p3 = next(c for c in public.candidates if c.name == "P3")
    assert (p3.voters[0].weight, p3.voters[0].note) == (2.0, "Sheriff x2")
    p7 = next(c for c in public.candidates if c.name == "P7")
    assert (p7.bonus, p7.bonus_note) == (2.0, "poster")


def test_VIL_D_06_VIL_D_07_default_schedule_leaves_room_for_a_tie_break_and_the_pardon_window():
    """VIL-D-06 VIL-D-07 VIL-V-5: the day must not end before the execution"""
    from datetime import timedelta, timezone

    from forummod.engine.schedule import build_phases
    from tests.engine.scenario import T0
    rs = make_ruleset("village")
    t, o = rs.default_timing(rs.options), rs.options.time
    phases = build_phases(t, start=T0, tz=timezone.utc, now=T0 + timedelta(days=10))
    day = next(p for p in phases if p.kind == "day")
    windows = (o.reaction_window, o.revote_window, o.lord_window)  # a silent Sheriff, the re-vote, the Lord
    assert day.end >= day.vote_close + timedelta(seconds=sum(w.seconds for w in windows))
    no_tiebreak = make_ruleset("village", {"sheriff": {"breaks_ties": False}})
    assert no_tiebreak.default_timing(no_tiebreak.options).day_end == "62h"  # re-vote and the Lord only


def test_VIL_D_04_VIL_D_05_VIL_D_06_VIL_D_07_lynch_procedure_posts():
    """VIL-D-04 VIL-D-05 VIL-D-06 VIL-D-07 VIL-V-6 VIL-V-4"""
    f = F8(buildings={"P8": "manor"})
    d = f.day(2, votes={"P1": "P3", "P2": "P3"})
    run = f.expect(d, lynched="P3", revealed={"P3": "villager"})
    keys = [x.key for x in facts(run, d)]
    assert keys.index("vote_open") < keys.index("designated") < keys.index("lord_window") < keys.index("lynched")


def test_VIL_B_VAGABOND_immune_to_schoolmarm_barber_pyromaniac_scandalmonger_not_to_wolves():
    """VIL-B-VAGABOND"""
    f = F8(roles={"P8": "scandalmonger", "P3": "pyromaniac"})
    n = f.night(2, scandalmonger={"target": "P7"}, pyromaniac={"building_of": "P7"}, pack={"target": "P7"})
    f.expect(n, dead=["P7"], rejected=[{"scandalmonger": "P7", "reason": "vagabond_immune"},
                                       {"pyromaniac": "P7", "reason": "vagabond_immune"}])


# ---------------------------------------------------------------------- wins (§1, VIL-A-49)


def test_VIL_A_49_villagers_need_the_piper_dead_and_VIL_A_36_pyromaniac_wins_with_them():
    """VIL-A-49 VIL-A-36 VIL-R-VILLAGER"""
    f = F8(roles={"P7": "piper", "P3": "pyromaniac", "P8": "scandalmonger"}, alive=["P1", "P5", "P7", "P3"])
    d = f.day(2, votes={"P1": "P5", "P3": "P5"})
    f.expect(d, winner=None)
    f = F8(roles={"P7": "piper", "P3": "pyromaniac"}, alive=["P1", "P5", "P7", "P3"],
           options={"win.villagers_need_piper_dead": False})
    run = f.expect(f.day(2, votes={"P1": "P5", "P3": "P5"}), winner="villagers")
    assert "P3" in run.state.outcome.winners and "P7" not in run.state.outcome.winners


def test_VIL_A_49_pack_win_white_werewolf_blocks_unless_option_and_parity():
    """VIL-A-49"""
    f = F8(roles={"P7": "white_werewolf"}, alive=["P1", "P5", "P7"])
    f.expect(f.night(2, pack={"target": "P1"}), winner=None)
    f = F8(roles={"P7": "white_werewolf"}, alive=["P1", "P5", "P7"], options={"win.ww_counts_for_pack": True})
    run = f.expect(f.night(2, pack={"target": "P1"}), winner="werewolves")
    assert run.state.outcome.winners == ("P5", "P6")
    f = F8(alive=["P1", "P2", "P5", "P6"], options={"win.wolves_parity": True})
    f.expect(f.night(2), winner="werewolves")


def test_VIL_S_LOVER_cross_faction_lovers_win_alone_and_VIL_A_50_cupid_option():
    """VIL-S-LOVER VIL-A-50"""
    f = F8(roles={"P2": "cupid"}, state={"lovers": ["P1", "P5"]}, alive=["P1", "P5", "P6"])
    run = f.expect(f.day(2, votes={"P1": "P6", "P5": "P6"}), winner="lovers")
    assert run.state.outcome.winners == ("P1", "P5")
    f = F8(roles={"P2": "cupid"}, state={"lovers": ["P1", "P5"]}, alive=["P1", "P5", "P6"],
           options={"cupid.wins_with_lovers": True})
    run = f.expect(f.day(2, votes={"P1": "P6", "P5": "P6"}), winner="lovers")
    assert run.state.outcome.winners == ("P1", "P2", "P5")


def test_VIL_nobody_wins_when_everyone_is_dead():
    f = F8(roles={"P5": "piper"}, alive=["P1", "P5"], buildings={"P1": "barbershop", "P5": "manor"})
    f.expect(f.day(2, barber={"target": "P5"}), dead=["P1", "P5"], winner="nobody")


def test_VIL_A_27_pm_mode_without_a_pm_the_barkeeper_does_not_vote():
    """VIL-A-27 VIL-V-3"""
    f = F8(buildings={"P2": "tavern"}, options={"barkeeper.first_vote": "pm"})
    d = f.day(2, votes_in_order=[["P1", "P5"], ["P2", "P5"]])
    f.expect(d, rejected=[{"vote": "P2", "reason": "no_vote_right"}], counted={"P5": 1}, token={"tavern": "held"})


def test_VIL_V_3_a_barkeeper_killed_in_his_window_opens_the_vote():
    """VIL-V-3 VIL-B-BARBER"""
    f = F8(buildings={"P1": "barbershop", "P2": "tavern"}, options={"day_ability_cutoff": "vote_close"})
    d = f.day(2)
    opens = d.phase.vote_close - 12 * H
    f.g.act("P1", "barber", "P2", at=opens + M, channel="thread")
    f.g.vote("P3", "P5", at=opens + 2 * M).vote("P4", "P5", at=opens + 3 * M)
    f.expect(d, void_votes=[], lynched="P5")


def test_GM_approval_holds_the_dawn_and_nothing_applies_before_it():
    """VIL-D-01: the dawn post is a blocking proposal; deaths apply only once the GM approves it."""
    f = F8()
    n = f.night(2, pack={"target": "P1"})
    end = n.phase.end
    run = f.g.run(now=end + H, approve_all=False)
    assert run.state.is_alive("P1") and run.state.proposal("wave1:N2").status == "pending"
    f.g.decide("wave1:N2", at=end + 2 * H)
    run = f.g.run(now=end + 3 * H, approve_all=False)
    dawn = run.state.proposal("dawn:N2")
    assert dawn.status == "pending" and run.state.is_alive("P1")
    f.g.decide("dawn:N2", at=end + 4 * H)
    run = f.g.run(now=end + 5 * H, approve_all=False)
    assert not run.state.is_alive("P1")


def test_replay_is_deterministic_with_the_recorded_seed():
    """VIL-A-06 VIL-A-43: seeded draws give the same result on every replay."""
    def play(seed):
        f = F8(buildings={"P1": "farm", "P2": "farm", "P3": "farm"}, seed=seed,
               options={"wolves.no_consensus": "plurality_else_random"})
        d = f.day(2, election={"P1": "P1", "P2": "P2", "P3": "P3"})
        n = f.night(3)
        f.g.act("P5", "kill", "P7", at=n.phase.start + M).act("P6", "kill", "P8", at=n.phase.start + 2 * M)
        run = f.run_at(n)
        return run.state.x.sheriff, tuple(run.state.living_names())
    assert play(3) == play(3)
    assert len({play(s) for s in range(1, 12)}) > 1


def test_buildings_drawn_with_the_seed_when_not_given():
    """§2.2 bag_subset: tokens drawn reproducibly; farms default to setup.farms; Vagabonds fill the gaps."""
    from forummod.engine.ruleset import Setup
    rs = make_ruleset("village")
    setup = Setup(tuple(f"P{i}" for i in range(1, 9)), {}, seed=7, extra={"building_pool": {"church": 1, "tavern": 1}})
    a = rs.initial_state(setup).x.buildings
    assert a == rs.initial_state(setup).x.buildings
    assert sorted(b.code for b in a) == ["church", "farm", "farm", "farm", "tavern"]
    assert {b.code: b.token for b in a}["tavern"] == "held"


def test_VIL_R_HUNTER_gm_enters_the_shot_and_gm_no_lynch_override():
    """VIL-R-HUNTER VIL-D-05: GM overrides `shoot` and `no_lynch`."""
    f = F8(roles={"P4": "hunter"})
    n = f.night(2, pack={"target": "P4"})
    f.g.gm("shoot", "P4", "P5", at=n.day.start + M)
    f.expect(n, dead=["P4", "P5"])
    f = F8()
    d = f.day(2, votes={"P1": "P3"})
    f.g.gm("no_lynch", at=d.phase.vote_close - M)
    f.expect(d, lynched=None, day_ends=True)
