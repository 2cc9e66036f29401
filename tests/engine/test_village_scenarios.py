"""village.md §8: the 28 machine-checkable scenarios VIL-T-01..28 on fixture F8."""

from __future__ import annotations

from tests.engine.village_f8 import F8


def test_VIL_T_01_pyromaniac_burns_the_house_the_wolves_visited():
    """VIL-T-01 VIL-R-PYROMANIAC VIL-A-32 VIL-N-10 VIL-D-01 VIL-N-11"""
    f = F8(roles={"P3": "pyromaniac", "P6": "villager", "P7": "werewolf", "P8": "witch"},
           buildings={"P1": "farm", "P2": "school", "P6": "farm"})
    n = f.night(2, pack={"target": "P6"}, pyromaniac={"building_of": "P6"}, witch={"heal": False, "poison": None})
    f.expect(n, dead=["P5"], alive_includes=["P6"], vagabond_includes=["P6"], destroyed=["farm@P6"],
             public_post_contains=["farm of P6 burned", "P5 — Werewolf"])


def test_VIL_T_02_owner_anchor_burns_the_wolf_to_the_owners_right():
    """VIL-T-02 VIL-A-32"""
    f = F8(roles={"P3": "pyromaniac", "P6": "villager", "P7": "werewolf", "P8": "witch"},
           buildings={"P1": "farm", "P2": "school", "P6": "farm"}, options={"pyromaniac.anchor": "owner"})
    n = f.night(2, pack={"target": "P6"}, pyromaniac={"building_of": "P6"}, witch={"heal": False, "poison": None})
    f.expect(n, dead=["P7"], alive_includes=["P5", "P6"], vagabond_includes=["P6"])


def test_VIL_T_03_arson_elsewhere_kills_no_wolf_and_burns_the_barkeeper_out():
    """VIL-T-03 VIL-B-TAVERN VIL-B-VAGABOND"""
    f = F8(roles={"P3": "pyromaniac"}, buildings={"P1": "church", "P2": "tavern", "P4": "school"})
    n = f.night(2, pack={"target": "P1"}, pyromaniac={"building_of": "P2"})
    f.expect(n, dead=["P1"], vagabond_includes=["P2"], destroyed=["tavern@P2"], barkeeper="none")


def _t04(options=None):
    f = F8(roles={"P3": "pyromaniac", "P4": "guardian"}, buildings={"P7": "church"}, options=options)
    n = f.night(2, guardian={"target": "P7"}, pack={"target": "P7"}, pyromaniac={"building_of": "P7"})
    return f, n


def test_VIL_T_04_wolf_burns_even_when_the_guardian_protects_the_owner():
    """VIL-T-04 VIL-A-33 VIL-S-PROTECTED"""
    f, n = _t04()
    f.expect(n, dead=["P5"], alive_includes=["P7"], vagabond_includes=["P7"])
    f, n = _t04({"pyromaniac.burn_if_target_saved": False})  # variant, VIL-A-33
    f.expect(n, dead=[], vagabond_includes=["P7"])


def test_VIL_T_05_barkeeper_loses_token_when_his_pick_is_lynched():
    """VIL-T-05 VIL-B-TAVERN VIL-V-7 VIL-A-28 VIL-D-07"""
    f = F8(buildings={"P2": "tavern"})
    d = f.day(2, votes_in_order=[["P2", "P5"], ["P1", "P5"], ["P3", "P5"], ["P4", "P1"]])
    f.expect(d, lynched="P5", revealed={"P5": "werewolf"}, token={"tavern": "lost"})
    n = f.night(3, pack={"target": "P2"})  # pack = P6
    f.expect(n, dead=["P2"])


def test_VIL_T_06_barkeeper_loses_token_even_though_the_lord_pardons():
    """VIL-T-06 VIL-B-MANOR VIL-V-6 VIL-A-28 VIL-A-31 VIL-D-06"""
    f = F8(buildings={"P2": "tavern", "P4": "church", "P8": "manor"})
    d = f.day(2, votes_in_order=[["P2", "P4"], ["P1", "P4"], ["P3", "P4"], ["P5", "P1"]], plea="P4",
              lord={"pardon": "P4"})
    f.expect(d, alive_includes=["P4"], revealed={}, lynched=None, day_ends=True,
             token={"tavern": "lost", "manor": "spent"})


def test_VIL_T_07_lord_pardons_himself_without_a_plea():
    """VIL-T-07 VIL-B-MANOR VIL-A-30"""
    f = F8(buildings={"P6": "manor"})
    d = f.day(2, votes={"P1": "P6", "P2": "P6", "P3": "P6", "P4": "P1"}, lord={"pardon": "P6"})
    f.expect(d, alive_includes=["P6"], revealed={}, lynched=None, token={"manor": "spent"}, day_ends=True)


def test_VIL_T_08_barkeeper_votes_first_earlier_vote_is_void_and_told():
    """VIL-T-08 VIL-V-3 VIL-A-27 VIL-V-5 VIL-A-44"""
    f = F8(buildings={"P2": "tavern"})
    d = f.day(2, votes_in_order=[["P1", "P5"], ["P2", "P4"], ["P3", "P5"]])
    f.expect(d, void_votes=[["P1", "P5"]], counted={"P4": 1, "P5": 1}, gm_notified=["P1"], tie=["P4", "P5"],
             revote_between=["P4", "P5"])


def test_VIL_T_09_silenced_barkeeper_has_no_first_vote_duty_and_keeps_token():
    """VIL-T-09 VIL-B-SCHOOL VIL-S-SILENCED VIL-V-1 VIL-A-15"""
    f = F8(buildings={"P2": "tavern", "P3": "school", "P4": "church"})
    d = f.day(2, schoolmarm={"silence": ["P2", "P4"]},
              votes_in_order=[["P1", "P5"], ["P5", "P1"], ["P6", "P5"], ["P2", "P5"], ["P3", "P5"], ["P4", "P5"]])
    f.expect(d, rejected=[{"vote": "P2", "reason": "silenced"}, {"vote": "P3", "reason": "no_vote_right"},
                          {"vote": "P4", "reason": "silenced"}],
             void_votes=[], counted={"P5": 2, "P1": 1}, lynched="P5", token={"tavern": "held"})


def test_VIL_T_10_vagabond_cannot_be_silenced_and_nobody_votes_the_barkeeper():
    """VIL-T-10 VIL-B-VAGABOND VIL-V-2 VIL-B-TAVERN"""
    f = F8(buildings={"P2": "tavern", "P3": "school"})
    d = f.day(2, schoolmarm={"silence": ["P4"]}, votes_in_order=[["P2", "P1"], ["P1", "P2"]])
    f.expect(d, rejected=[{"schoolmarm": "P4", "reason": "vagabond_immune"},
                          {"vote": "P1", "reason": "barkeeper_immune"}],
             counted={"P1": 1}, lynched="P1", token={"tavern": "lost"})


def test_VIL_T_11_bailiff_moves_a_vagabond_in_and_the_spent_token_is_refreshed():
    """VIL-T-11 VIL-B-BAILIFF VIL-D-01b"""
    f = F8(buildings={"P1": "barbershop", "P2": "bailiff", "P3": "school"}, state={"tokens": {"barbershop": "spent"}})
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"barbershop@P1": "P7"}}, "P7": "accept"})
    f.expect(n, dead=["P1"], building={"P7": "barbershop"}, token={"barbershop": "ready"}, vagabond_excludes=["P7"])
    d = f.day(2, schoolmarm={"silence": ["P7"]})
    f.expect(d, silenced=["P7"])


def test_VIL_T_12_vagabond_refuses_and_a_dead_bailiff_hands_out_nothing():
    """VIL-T-12 VIL-B-BAILIFF VIL-D-01b"""
    f = F8(buildings={"P1": "church", "P2": "bailiff"})
    n = f.night(2, pack={"target": "P1"}, morning={"bailiff": {"offer": {"church@P1": "P7"}}, "P7": "refuse"})
    f.expect(n, vagabond_includes=["P7"], empty=["church@P1"])
    n3 = f.night(3, pack={"target": "P2"})
    f.expect(n3, bailiff_step="skipped", empty_includes=["church@P1", "bailiff@P2"])


def test_VIL_T_13_bonesetter_restores_a_spent_token_which_is_one_time_again():
    """VIL-T-13 VIL-B-HOVEL VIL-B-CHURCH VIL-A-12"""
    f = F8(buildings={"P1": "church", "P2": "hovel"})
    d1 = f.day(1, confessor={"target": "P5"})
    f.expect(d1, token={"church": "spent"}, private_to={"P1": "P5: Werewolf"},
             public_post_contains=["Confessor", "P5"])
    d2 = f.day(2)
    f.then(d2, {"bonesetter": {"target": "P1"}}, {"confessor": {"target": "P6"}})
    f.expect(d2, token={"hovel": "spent", "church": "spent"}, confessor_uses_total=2,
             private_to={"P1": "P6: Werewolf"})


def test_VIL_T_14_bonesetter_restores_the_tavern_and_invalid_target_costs_nothing():
    """VIL-T-14 VIL-B-HOVEL VIL-A-14"""
    f = F8(buildings={"P2": "tavern", "P3": "hovel", "P4": "school"}, state={"tokens": {"tavern": "lost"}})
    d = f.day(3, bonesetter_in_order=[{"target": "P4"}, {"target": "P2"}])
    f.expect(d, rejected=[{"bonesetter": "P4", "reason": "no_spent_token"}],
             token={"tavern": "held", "hovel": "spent"})


def test_VIL_T_15_white_werewolf_kills_every_second_night():
    """VIL-T-15 VIL-N-09 VIL-A-37 VIL-R-WHITE-WEREWOLF VIL-N-06"""
    f = F8(roles={"P7": "white_werewolf"})
    f.expect(f.night(1), called=["pack"], not_called=["white_werewolf_solo"])
    f.expect(f.night(2, pack={"target": "P1"}, white_werewolf={"target": "P6"}), dead=["P1", "P6"])
    f.expect(f.night(3), not_called=["white_werewolf_solo"])
    f.expect(f.night(4), called=["white_werewolf_solo"])
    # variant: schedule odd (VIL-A-37) -> solo nights 1, 3, 5
    v = F8(roles={"P7": "white_werewolf"}, options={"white_werewolf.schedule": "odd"})
    v.night(1)
    v.night(2, pack={"target": "P1"}, white_werewolf={"target": "P6"})
    for k in (3, 4, 5):
        last = v.night(k)
    run = v.run_at(last)
    solo = [t.night for t in run.state.x.nights if "white_werewolf_solo" in t.called]
    assert solo == [1, 3, 5]


def test_VIL_T_16_scandalmonger_poster_overturns_the_plurality():
    """VIL-T-16 VIL-S-POSTER VIL-R-SCANDALMONGER VIL-V-4 VIL-N-14"""
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P4": "church"})
    f.night(2, scandalmonger={"target": "P4"})
    d = f.day(2, votes={"P1": "P3", "P2": "P3", "P5": "P3", "P6": "P4", "P7": "P4"})
    f.expect(d, score={"P3": 3, "P4": 4}, lynched="P4", poster=None)


def _t17(options=None):
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P1": "farm", "P2": "farm", "P4": "church"},
           state={"sheriff": "P1", "poster": "P4"}, options=options)
    return f, f.day(3, votes={"P1": "P3", "P2": "P4", "P5": "P3"})  # P1 counts twice


def test_VIL_T_17_poster_creates_a_tie_and_the_sheriff_breaks_it():
    """VIL-T-17 VIL-V-5 VIL-A-10 VIL-S-SHERIFF VIL-D-05"""
    f, d = _t17()
    f.expect(d, score={"P3": 3, "P4": 3}, tie=["P3", "P4"], sheriff_choice_requested="P1")
    f.act(d, sheriff_choice="P3")
    f.expect(d, lynched="P3")
    f, d = _t17({"sheriff.breaks_ties": False})  # variant, VIL-A-10
    f.expect(d, revote_between=["P3", "P4"])


def test_VIL_T_18_poster_void_when_its_holders_house_burns_the_same_night():
    """VIL-T-18 VIL-S-POSTER VIL-A-40"""
    f = F8(roles={"P3": "pyromaniac", "P8": "scandalmonger"}, buildings={"P4": "church"})
    n = f.night(2, pyromaniac={"building_of": "P4"}, scandalmonger={"target": "P4"})
    f.expect(n, vagabond_includes=["P4"], poster=None)


def test_VIL_T_19_poster_on_a_vagabond_is_rejected_at_submission():
    """VIL-T-19 VIL-B-VAGABOND VIL-N-14"""
    f = F8(roles={"P8": "scandalmonger"})
    n = f.night(2, scandalmonger={"target": "P4"})
    f.expect(n, rejected=[{"scandalmonger": "P4", "reason": "vagabond_immune"}], poster=None)


def test_VIL_T_20_sheriff_succession_among_farmers_then_extinction():
    """VIL-T-20 VIL-B-FARM VIL-D-02 VIL-A-09 VIL-A-04"""
    f = F8(buildings={"P1": "farm", "P2": "farm", "P3": "farm", "P4": "bailiff"})
    d2 = f.day(2, election={"P1": "P1", "P2": "P1", "P3": "P2"})
    f.expect(d2, sheriff="P1")
    n3 = f.night(3, pack={"target": "P1"}, dawn={"sheriff_successor": "P2"})
    f.expect(n3, sheriff="P2")
    f.day(3, votes={"P4": "P2", "P5": "P2", "P6": "P2"}, sheriff_successor="P3")
    n4 = f.night(4, pack_target="P3")
    f.expect(n4, sheriff=None, sheriff_extinct=True)
    f.act(n4, morning={"bailiff": {"offer": {"farm@P1": "P7"}}, "P7": "accept"})
    f.expect(n4, farmers=["P7"], sheriff=None)


def test_VIL_T_21_successor_not_named_in_time_is_a_random_living_farmer():
    """VIL-T-21 VIL-A-07 VIL-B-FARM"""
    f = F8(buildings={"P1": "farm", "P2": "farm", "P3": "farm"}, state={"sheriff": "P1"})
    n = f.night(3, pack={"target": "P1"}, dawn={"sheriff_successor": "timeout"})
    f.expect(n, sheriff_in=["P2", "P3"])


def test_VIL_T_22_barber_vagabond_illegal_wolf_forgiven_villager_costs_his_life():
    """VIL-T-22 VIL-B-BARBER VIL-A-20 VIL-A-19"""
    b = {"P1": "barbershop", "P4": "church", "P5": "manor"}
    f = F8(buildings=b)
    d = f.day(2, barber={"target": "P7"})
    f.expect(d, rejected=[{"barber": "P7", "reason": "vagabond_immune"}], token={"barbershop": "ready"})
    f = F8(buildings=b)
    d = f.day(2, barber={"target": "P5"})
    run = f.g.run(now=d.phase.start + 15 * 3600 * __import__("datetime").timedelta(seconds=1))
    from tests.engine.village_f8 import check
    check(run, d, {"dead": ["P5"], "alive_includes": ["P1"], "revealed": {"P5": "werewolf"},
                   "token": {"barbershop": "spent"}, "lynch_still_held": True})
    f = F8(buildings=b)
    d = f.day(2, barber={"target": "P4"})
    f.expect(d, dead=["P4", "P1"], revealed={"P4": "villager", "P1": "villager"})


def test_VIL_T_23_barber_kill_runs_the_full_cascade():
    """VIL-T-23 VIL-R-HUNTER VIL-S-LOVER VIL-B-BARBER"""
    f = F8(roles={"P2": "cupid", "P4": "hunter"}, state={"lovers": ["P3", "P4"]},
           buildings={"P1": "barbershop", "P3": "school"})
    d = f.day(2, barber={"target": "P3"}, hunter_shot="P6")
    f.expect(d, dead=["P3", "P1", "P4", "P6"])


def test_VIL_T_24_pack_cannot_target_the_barkeeper_no_legal_target_no_attack():
    """VIL-T-24 VIL-N-06 VIL-R-WEREWOLF VIL-B-TAVERN"""
    f = F8(buildings={"P2": "tavern"}, alive=["P2", "P5"])
    n = f.night(5, pack={"target": "P2"})
    f.expect(n, rejected=[{"pack": "P2", "reason": "barkeeper_immune"}], attack="none", dead=[], winner=None)


def test_VIL_T_25_piper_wins_right_after_a_lynch():
    """VIL-T-25 VIL-R-PIPER VIL-S-CHARMED"""
    f = F8(roles={"P7": "piper"}, alive=["P1", "P2", "P7"], state={"charmed": ["P1"]})
    d = f.day(4, votes={"P1": "P2", "P7": "P2"})
    f.expect(d, lynched="P2", winner="piper")


def test_VIL_T_26_single_farmer_is_sheriff_and_only_farmers_vote():
    """VIL-T-26 VIL-D-02 VIL-A-05 VIL-A-06 VIL-B-FARM"""
    f = F8(buildings={"P1": "farm", "P2": "school"})
    f.expect(f.day(2), sheriff="P1", election_held=False)
    v = F8(buildings={"P1": "farm", "P2": "farm", "P3": "farm"})
    d = v.day(2, election={"P4": "P2", "P1": "P2", "P2": "P3", "P3": "P1"})
    v.expect(d, rejected=[{"election": "P4", "reason": "not_farmer"}], tie=["P1", "P2", "P3"], revote=True)


def test_VIL_T_27_lovers_cannot_vote_for_each_other_and_self_vote_is_invalid():
    """VIL-T-27 VIL-V-2 VIL-A-45 VIL-R-CUPID"""
    f = F8(roles={"P2": "cupid"}, state={"lovers": ["P1", "P3"]})
    d = f.day(2, votes={"P1": "P3", "P4": "P4", "P2": "P5"})
    run = f.expect(d, rejected=[{"vote": "P1", "reason": "lover_target"}, {"vote": "P4", "reason": "self_target"}],
                   counted={"P5": 1}, lynched="P5")
    lover = next(r for r in run.rejections if r.reason == "lover_target")
    assert lover.public is False  # told to the voter only


def test_VIL_T_28_guardian_may_name_the_little_girl_without_effect():
    """VIL-T-28 VIL-A-59 VIL-R-GUARDIAN VIL-R-LITTLE-GIRL VIL-N-04"""
    f = F8(roles={"P3": "little_girl", "P4": "guardian"})
    f.expect(f.night(2, guardian={"target": "P3"}, pack={"target": "P3"}), rejected=[], dead=["P3"])
    v = F8(roles={"P3": "little_girl", "P4": "guardian"}, options={"guardian.little_girl": "forbidden"})
    v.expect(v.night(2, guardian={"target": "P3"}, pack={"target": "P3"}),
             rejected=[{"guardian": "P3", "reason": "not_protectable"}], dead=["P3"])
