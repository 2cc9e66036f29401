"""village.md §3.2, §4, §5.1: night steps VIL-N-*, roles VIL-R-*, statuses and their decisions."""

from __future__ import annotations


from forummod.engine.registry import make_ruleset

from tests.engine.village_f8 import F8, H, M, render, seg_items


def facts(run, seg=None, key=None):
    items = seg_items(run, seg, "facts") if seg else run.facts
    return [f for _, f in items if key is None or f.key == key]


def pms(run, to=None, key=None):
    return [r.fact for _, r in run.private if (to is None or r.to == to) and (key is None or r.fact.key == key)]


def rejections(run, reason=None):
    return [r for r in run.rejections if reason is None or r.reason == reason]


# ---------------------------------------------------------------------- order and waves


def test_VIL_A_01_night_order_seed_ends_with_scandalmonger_then_dawn_VIL_N_15():
    """VIL-N-15 VIL-A-01"""
    rs = make_ruleset("village")
    order = rs.night_order()
    assert order[-2:] == ("scandalmonger", "dawn")  # VIL-N-14 last, VIL-N-15 dawn
    pact = make_ruleset("village", {"night_order": "pact"}).night_order()
    assert pact.index("scandalmonger") < pact.index("guardian")


def test_VIL_N_15_dawn_resolution_is_one_blocking_proposal_at_the_night_end():
    """VIL-N-15"""
    f = F8()
    n = f.night(2, pack={"target": "P1"})
    run = f.g.run(now=n.phase.end, approve_all=False)
    props = {p.key: p for p in run.state.proposals}
    assert props["wave1:N2"].status == "pending"  # Wave 1 must be approved before the dawn is computed
    assert "dawn:N2" not in props


def test_VIL_N_00_nightfall_post_and_silenced_cleared():
    """VIL-N-00 VIL-S-SILENCED"""
    f = F8(buildings={"P3": "school"})
    d = f.day(2, schoolmarm={"silence": ["P1"]})
    n = f.night(3)
    run = f.run_at(n)
    assert run.state.x.silenced == frozenset()
    assert facts(run, n, "nightfall")[0].get("night") == 3


def test_VIL_N_01_thief_takes_a_card_and_acts_as_it_VIL_R_THIEF():
    """VIL-N-01 VIL-R-THIEF VIL-N-05"""
    f = F8(roles={"P1": "thief"}, thief_cards=("seer", "villager"))
    n = f.night(1)
    f.g.act("P1", "thief_take", card="1", at=n.phase.start + M)
    f.g.act("P1", "check", "P5", at=n.phase.start + 13 * H)  # after Wave 0 closed: he is the Seer now
    run = f.run_at(n)
    assert run.state.role_of("P1") == "seer"
    assert pms(run, "P1", "thief_cards")[0].get("cards") == ("seer", "villager")
    assert pms(run, "P1", "seer_result")[0].get("card") == "werewolf"
    assert run.state.x.thief_cards == ("thief", "villager")


def test_VIL_A_55_thief_must_take_a_wolf_when_both_cards_are_wolves_and_keeps_otherwise():
    """VIL-A-55"""
    f = F8(roles={"P1": "thief"}, thief_cards=("werewolf", "werewolf"))
    n = f.night(1)
    f.g.act("P1", "thief_keep", at=n.phase.start + M)
    run = f.run_at(n)
    assert [r.reason for r in run.rejections] == ["must_swap"]
    assert run.state.role_of("P1") == "werewolf"  # silence when he must swap: a random allowed card
    keep = F8(roles={"P1": "thief"}, thief_cards=("seer", "hunter"))
    n = keep.night(1)
    keep.g.act("P1", "thief_keep", at=n.phase.start + M)
    run = keep.run_at(n)
    assert run.state.role_of("P1") == "thief"
    assert pms(run, "P1", "thief_new_role")[0].get("role") == "villager"
    must = F8(roles={"P1": "thief"}, thief_cards=("seer", "hunter"), options={"thief.may_keep": False})
    n = must.night(1)
    run = must.run_at(n)
    assert run.state.role_of("P1") in ("seer", "hunter")


def test_VIL_N_02_cupid_links_two_players_VIL_N_03_lovers_learn_each_other_VIL_R_CUPID():
    """VIL-N-02 VIL-N-03 VIL-R-CUPID"""
    f = F8(roles={"P1": "cupid"})
    n = f.night(1)
    f.g.act("P1", "link", "P1", "P5", at=n.phase.start + M)  # Cupid may choose himself
    run = f.run_at(n)
    assert run.state.x.lovers == ("P1", "P5") and run.state.x.lovers_cross
    assert pms(run, "P5", "lover")[0].get("partner") == "P1"
    assert "role" not in dict(pms(run, "P5", "lover")[0].params)  # VIL-A-50: names only


def test_VIL_A_03_lovers_recognition_off_and_VIL_A_50_reveal_roles():
    """VIL-A-03 VIL-A-50"""
    f = F8(roles={"P1": "cupid"}, options={"lovers.recognition": False})
    n = f.night(1)
    f.g.act("P1", "link", "P2", "P3", at=n.phase.start + M)
    assert not pms(f.run_at(n), key="lover")
    f = F8(roles={"P1": "cupid"}, options={"lovers.reveal_roles": True})
    n = f.night(1)
    f.g.act("P1", "link", "P2", "P5", at=n.phase.start + M)
    assert pms(f.run_at(n), "P2", "lover")[0].get("role") == "werewolf"


def test_VIL_N_02_cupid_acts_on_night_1_only():
    """VIL-N-02"""
    f = F8(roles={"P1": "cupid"})
    n = f.night(2)
    f.g.act("P1", "link", "P2", "P3", at=n.phase.start + M)
    assert [r.reason for r in f.run_at(n).rejections] == ["wrong_night"]


def test_VIL_S_LOVER_grief_kills_the_other_lover_at_dawn():
    """VIL-S-LOVER"""
    f = F8(roles={"P2": "cupid"}, state={"lovers": ["P1", "P3"]})
    n = f.night(2, pack={"target": "P1"})
    f.expect(n, dead=["P1", "P3"], revealed={"P1": "villager", "P3": "villager"})


def test_VIL_N_04_guardian_not_the_same_player_two_nights_running_VIL_R_GUARDIAN_VIL_S_PROTECTED():
    """VIL-S-PROTECTED VIL-N-04 VIL-R-GUARDIAN"""
    f = F8(roles={"P4": "guardian"})
    f.expect(f.night(2, guardian={"target": "P1"}, pack={"target": "P1"}), dead=[])  # VIL-S-PROTECTED
    n3 = f.night(3, guardian={"target": "P1"})
    f.expect(n3, rejected=[{"guardian": "P1", "reason": "repeat_target"}])
    f.night(4)  # protects nobody: the streak ends
    f.expect(f.night(5, guardian={"target": "P1"}), rejected=[])


def test_VIL_N_04_guardian_may_protect_himself_and_no_effect_on_poison():
    """VIL-N-04"""
    f = F8(roles={"P4": "guardian", "P8": "witch"})
    n = f.night(2, guardian={"target": "P4"}, witch={"poison": "P4"})
    f.expect(n, dead=["P4"])


def test_VIL_A_02_guardian_first_night_only_option():
    """VIL-A-02"""
    f = F8(roles={"P4": "guardian"}, options={"guardian.first_night_only": True})
    n = f.night(2, guardian={"target": "P1"})
    f.expect(n, rejected=[{"guardian": "P1", "reason": "wrong_night"}])


def test_VIL_N_05_seer_sees_the_card_VIL_R_SEER_and_VIL_A_13_wolf_or_not():
    """VIL-N-05 VIL-R-SEER VIL-A-13"""
    f = F8(roles={"P1": "seer", "P7": "white_werewolf"})
    n = f.night(2)
    f.g.act("P1", "check", "P7", at=n.phase.start + M)
    assert pms(f.run_at(n), "P1", "seer_result")[0].get("card") == "white_werewolf"
    f = F8(roles={"P1": "seer"}, options={"seer.reveals": "wolf_or_not"})
    n = f.night(2)
    f.g.act("P1", "check", "P5", at=n.phase.start + M)
    f.g.act("P1", "check", "P1", at=n.phase.start + 2 * M)
    run = f.run_at(n)
    assert pms(run, "P1", "seer_result")[0].get("verdict") == "werewolf"
    assert [r.reason for r in run.rejections] == ["self_target"]


def test_VIL_N_06_pack_cannot_target_a_wolf_VIL_A_42_unless_allowed_VIL_R_WEREWOLF():
    """VIL-N-06 VIL-A-42 VIL-R-WEREWOLF"""
    f = F8()
    n = f.night(2, pack={"target": "P6"})
    f.expect(n, rejected=[{"pack": "P6", "reason": "pack_target"}], attack="none", dead=[])
    f = F8(options={"wolves.can_target_wolves": True})
    f.expect(f.night(2, pack={"target": "P6"}), dead=["P6"])


def test_VIL_A_43_pack_plurality_submitter_and_tie():
    """VIL-A-43"""
    f = F8(roles={"P7": "werewolf"})
    n = f.night(2)
    t = n.phase.start
    f.g.act("P5", "kill", "P1", at=t + M).act("P6", "kill", "P2", at=t + 2 * M).act("P7", "kill", "P2", at=t + 3 * M)
    f.expect(n, dead=["P2"])  # plurality
    f = F8(roles={"P7": "werewolf"})
    n = f.night(2)
    f.g.act("P5", "kill", "P1", at=t + M).act("P6", "kill", "P2", at=t + 2 * M)
    f.expect(n, dead=[], attack="none")  # a tie: no kill
    f.g.act("P6", "pack_submitter", "P5", at=t + 3 * M)
    f.expect(n, dead=["P1"])  # the named submitter's vote alone
    f = F8(options={"wolves.no_consensus": "plurality_else_random"})
    n = f.night(2)
    f.g.act("P5", "kill", "P1", at=t + M).act("P6", "kill", "P2", at=t + 2 * M)
    assert len(f.run_at(n).state.dead()) == 1


def test_VIL_S_ATTACKED_the_witch_is_shown_the_pack_victim_VIL_N_11_VIL_R_WITCH():
    """VIL-S-ATTACKED VIL-N-11 VIL-R-WITCH"""
    f = F8(roles={"P8": "witch"})
    n = f.night(2, pack={"target": "P1"}, witch={"heal": True})
    run = f.expect(n, dead=[])
    assert pms(run, "P8", "witch_info")[0].get("victim") == "P1"
    assert run.state.x.heal_left is False and run.state.x.poison_left is True
    n3 = f.night(3, pack={"target": "P2"})
    f.g.act("P8", "heal", at=n3.phase.start + 5 * M)
    f.expect(n3, dead=["P2"], rejected=[{"witch": None, "reason": "potion_used"}])


def test_VIL_N_11_both_potions_one_night_and_poison_kills_through_protection():
    """VIL-N-11"""
    f = F8(roles={"P4": "guardian", "P8": "witch"})
    n = f.night(2, pack={"target": "P1"}, guardian={"target": "P2"}, witch={"heal": True, "poison": "P2"})
    f.expect(n, dead=["P2"])


def test_VIL_A_48_self_heal_and_night_one_poison_options():
    """VIL-A-48"""
    f = F8(roles={"P8": "witch"}, options={"witch.self_heal": "never"})
    f.expect(f.night(2, pack={"target": "P8"}, witch={"heal": True}), dead=["P8"])
    f = F8(roles={"P8": "witch"}, options={"witch.self_heal": "night1_only"})
    f.expect(f.night(1, pack={"target": "P8"}, witch={"heal": True}), dead=[])
    f = F8(roles={"P8": "witch"}, options={"witch.poison_night1": False})
    f.expect(f.night(1, witch={"poison": "P1"}), rejected=[{"poison": "P1", "reason": "wrong_night"}], dead=[])


def test_VIL_A_39_witch_told_nobody_when_already_saved_option():
    """VIL-A-39"""
    f = F8(roles={"P4": "guardian", "P8": "witch"}, options={"witch.shown_when_saved": False})
    run = f.run_at(f.night(2, pack={"target": "P1"}, guardian={"target": "P1"}))
    assert pms(run, "P8", "witch_info")[0].get("victim") == ""
    f = F8(roles={"P4": "guardian", "P8": "witch"})  # default: shown, and a heal is spent
    run = f.run_at(f.night(2, pack={"target": "P1"}, guardian={"target": "P1"}, witch={"heal": True}))
    assert pms(run, "P8", "witch_info")[0].get("victim") == "P1" and run.state.x.heal_left is False


def test_VIL_A_38_white_werewolf_victim_guardian_blocks_and_witch_option():
    """VIL-A-38"""
    base = {"P7": "white_werewolf", "P4": "guardian", "P8": "witch"}
    f = F8(roles=base)
    f.expect(f.night(2, white_werewolf={"target": "P6"}, guardian={"target": "P6"}), dead=[])
    f = F8(roles=base, options={"guardian.blocks_white_werewolf": False})
    f.expect(f.night(2, white_werewolf={"target": "P6"}, guardian={"target": "P6"}), dead=["P6"])
    f = F8(roles=base)
    n = f.night(2, white_werewolf={"target": "P6"})
    f.g.act("P8", "heal", "P6", at=n.phase.start + 9 * M)
    run = f.expect(n, dead=["P6"])  # she is not shown him and cannot heal him
    assert "ww_victim" not in dict(pms(run, "P8", "witch_info")[0].params)
    f = F8(roles=base, options={"witch.sees_white_werewolf_victim": True})
    n = f.night(2, white_werewolf={"target": "P6"})
    f.g.act("P8", "heal", "P6", at=n.phase.start + 9 * M)
    run = f.expect(n, dead=[])
    assert pms(run, "P8", "witch_info")[0].get("ww_victim") == "P6"


def test_VIL_N_09_white_werewolf_solo_kill_VIL_R_WHITE_WEREWOLF_and_wrong_night():
    """VIL-N-09 VIL-R-WHITE-WEREWOLF"""
    f = F8(roles={"P7": "white_werewolf"})
    n = f.night(3, white_werewolf={"target": "P5"})
    f.expect(n, rejected=[{"white_werewolf": "P5", "reason": "wrong_night"}], dead=[])
    f = F8(roles={"P7": "white_werewolf"})
    f.expect(f.night(2, white_werewolf={"target": "P1"}),
             rejected=[{"white_werewolf": "P1", "reason": "not_pack_member"}])


def test_VIL_A_26_white_werewolf_cannot_attack_a_barkeeper_holding_his_token():
    """VIL-A-26"""
    f = F8(roles={"P7": "white_werewolf"}, buildings={"P6": "tavern"})
    f.expect(f.night(2, white_werewolf={"target": "P6"}),
             rejected=[{"white_werewolf": "P6", "reason": "barkeeper_immune"}], dead=[])
    f = F8(roles={"P7": "white_werewolf"}, buildings={"P6": "tavern"},
           options={"barkeeper.immune_to_white_werewolf": False})
    f.expect(f.night(2, white_werewolf={"target": "P6"}), dead=["P6"])


def test_VIL_R_WHITE_WEREWOLF_wins_as_sole_survivor():
    """VIL-R-WHITE-WEREWOLF"""
    f = F8(roles={"P7": "white_werewolf"}, alive=["P5", "P7"])
    f.expect(f.night(2, white_werewolf={"target": "P5"}), dead=["P5"], winner="white_werewolf")


def test_VIL_N_07_little_girl_transcript_at_dawn_VIL_R_LITTLE_GIRL():
    """VIL-N-07 VIL-R-LITTLE-GIRL"""
    f = F8(roles={"P3": "little_girl"})
    n = f.night(2, pack={"target": "P1"})
    lines = pms(f.run_at(n), "P3", "little_girl_transcript")[0].get("lines")
    assert lines == ("kill P1",) and all("P5" not in line for line in lines)  # authors removed


def test_VIL_A_18_little_girl_risk_mode_caught_dies_instead_of_the_victim():
    """VIL-A-18 VIL-R-LITTLE-GIRL VIL-N-07"""
    caught = None
    for seed in range(1, 60):
        f = F8(roles={"P3": "little_girl", "P8": "witch"}, options={"little_girl.mode": "risk"}, seed=seed)
        n = f.night(2, pack={"target": "P1"})
        f.g.act("P3", "spy", at=n.phase.start + 5 * M, mode="big")
        run = f.run_at(n)
        rec = run.state.x.nights[-1]
        if rec.lg_caught:
            caught = run
            break
    assert caught is not None
    assert not caught.state.is_alive("P3") and caught.state.is_alive("P1")
    assert pms(caught, "P8", "witch_info")[0].get("victim") == "P3"
    f = F8(roles={"P3": "little_girl"})
    n = f.night(2)
    f.g.act("P3", "spy", at=n.phase.start + M, mode="big")
    assert [r.reason for r in f.run_at(n).rejections] == ["not_in_mode"]


def test_VIL_N_08_baker_glimpses_a_pack_member_VIL_B_BAKERY_VIL_A_17():
    """VIL-N-08 VIL-B-BAKERY VIL-A-17"""
    f = F8(buildings={"P2": "bakery"}, options={"baker.glimpse_p": 1.0})
    run = f.run_at(f.night(2))
    assert pms(run, "P2", "baker_glimpse")[0].get("player") in ("P5", "P6")
    f = F8(buildings={"P2": "bakery"}, options={"baker.glimpse_p": 0.0})
    assert pms(f.run_at(f.night(2)), "P2", "baker_glimpse")[0].get("player") == ""
    f = F8(buildings={"P2": "bakery"}, options={"baker.opt_in": True, "baker.glimpse_p": 1.0})
    n = f.night(2)
    assert not pms(f.run_at(n), "P2", "baker_glimpse")
    f.g.act("P2", "watch", at=n.phase.start + M)
    assert pms(f.run_at(n), "P2", "baker_glimpse")
    f = F8(buildings={"P2": "bakery"}, options={"baker.mode": "transcript_tail", "baker.tail_lines": 1})
    n = f.night(2, pack={"target": "P1"})
    assert pms(f.run_at(n), "P2", "baker_transcript")[0].get("lines") == ("kill P1",)
    f = F8(buildings={"P2": "bakery"}, options={"baker.mode": "none"})
    assert not pms(f.run_at(f.night(2)), "P2")


def test_VIL_N_10_pyromaniac_is_one_time_VIL_R_PYROMANIAC_VIL_A_35():
    """VIL-N-10 VIL-A-35 VIL-R-PYROMANIAC VIL-A-25"""
    f = F8(roles={"P3": "pyromaniac"}, buildings={"P1": "church", "P2": "manor"})
    n = f.night(2, pyromaniac={"building_of": "P1"})
    run = f.expect(n, destroyed=["church@P1"], vagabond_includes=["P1"], dead=[])
    assert run.state.x.buildings[0].token == ""  # VIL-A-35: the unused token burned with it
    n3 = f.night(3, pyromaniac={"building_of": "P2"})
    f.expect(n3, rejected=[{"pyromaniac": "P2", "reason": "power_used"}], destroyed=["church@P1"])


def test_VIL_A_25_own_and_empty_buildings_may_burn_vagabonds_cannot():
    """VIL-A-25"""
    f = F8(roles={"P3": "pyromaniac"}, buildings={"P3": "church", "P1": "manor"}, alive=[p for p in
           ["P2", "P3", "P4", "P5", "P6", "P7", "P8"]])
    f.expect(f.night(2, pyromaniac={"building_of": "P1"}), destroyed=["manor@P1"])  # empty building
    f = F8(roles={"P3": "pyromaniac"}, buildings={"P3": "church"})
    f.expect(f.night(2, pyromaniac={"building_of": "P3"}), destroyed=["church@P3"])
    f = F8(roles={"P3": "pyromaniac"}, buildings={"P3": "church"}, options={"pyromaniac.allow_own_building": False})
    f.expect(f.night(2, pyromaniac={"building_of": "P3"}),
             rejected=[{"pyromaniac": "P3", "reason": "own_building"}], destroyed=[])
    f = F8(roles={"P3": "pyromaniac"})
    f.expect(f.night(2, pyromaniac={"building_of": "P4"}),
             rejected=[{"pyromaniac": "P4", "reason": "vagabond_immune"}])


def test_VIL_A_33_and_VIL_A_32_fire_kill_is_not_stopped_by_a_heal():
    """VIL-A-33 VIL-A-32"""
    f = F8(roles={"P3": "pyromaniac", "P8": "witch"}, buildings={"P7": "church"})
    n = f.night(2, pack={"target": "P7"}, pyromaniac={"building_of": "P7"}, witch={"heal": True})
    f.expect(n, dead=["P5"], alive_includes=["P7"])


def test_VIL_A_34_white_werewolf_entry_counts_only_with_the_option():
    """VIL-A-34"""
    roles = {"P3": "pyromaniac", "P7": "white_werewolf"}
    f = F8(roles=roles, buildings={"P6": "church"})
    f.expect(f.night(2, white_werewolf={"target": "P6"}, pyromaniac={"building_of": "P6"}), dead=["P6"])
    f = F8(roles=roles, buildings={"P6": "church"}, options={"pyromaniac.ww_counts_as_entry": True})
    # the fire cancels his attack on P6, and burns the wolf nearest the Pyromaniac's right (P5)
    f.expect(f.night(2, white_werewolf={"target": "P6"}, pyromaniac={"building_of": "P6"}), dead=["P5"])


def test_VIL_A_32_seating_right_previous_walks_backwards():
    """VIL-A-32"""
    f = F8(roles={"P3": "pyromaniac", "P6": "villager", "P1": "werewolf"}, buildings={"P6": "farm"},
           options={"seating.right": "previous"})
    f.expect(f.night(2, pack={"target": "P6"}, pyromaniac={"building_of": "P6"}), dead=["P1"])


def test_VIL_R_PYROMANIAC_no_wolf_burns_when_the_pack_attacked_nobody():
    """VIL-R-PYROMANIAC"""
    f = F8(roles={"P3": "pyromaniac"}, buildings={"P7": "church"})
    f.expect(f.night(2, pyromaniac={"building_of": "P7"}), dead=[], vagabond_includes=["P7"])


def test_VIL_N_12_piper_charms_two_VIL_N_13_charmed_learn_the_list_VIL_S_CHARMED_VIL_R_PIPER():
    """VIL-S-CHARMED VIL-N-13 VIL-N-12 VIL-R-PIPER"""
    f = F8(roles={"P7": "piper"})
    n = f.night(2)
    f.g.act("P7", "charm", "P1", "P2", at=n.phase.start + M)
    run = f.run_at(n)
    assert run.state.x.charmed == {"P1", "P2"}
    assert pms(run, "P1", "charmed_list")[0].get("players") == ("P1", "P2")
    n3 = f.night(3)
    f.g.act("P7", "charm", "P1", "P3", at=n3.phase.start + M)
    f.g.act("P7", "charm", "P7", at=n3.phase.start + 2 * M)
    run = f.run_at(n3)
    assert [r.reason for r in seg_items(run, n3, "rejections")] == ["already_charmed", "self_target"]
    f = F8(roles={"P7": "piper"}, options={"charmed.channel": True})
    n = f.night(2)
    f.g.act("P7", "charm", "P1", at=n.phase.start + M)
    assert not pms(f.run_at(n), key="charmed_list")


def test_VIL_N_14_scandalmonger_poster_VIL_R_SCANDALMONGER_VIL_S_POSTER():
    """VIL-S-POSTER VIL-N-14 VIL-R-SCANDALMONGER"""
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P8": "church", "P2": "school"})
    n = f.night(2, scandalmonger={"target": "P8"})  # himself: allowed (VIL-A-40)
    run = f.expect(n, poster="P8")
    assert any(render(x) == "poster player=P8" for x in facts(run, n))
    d = f.day(2, votes={"P1": "P3"})
    f.expect(d, score={"P3": 1, "P8": 2}, lynched="P8", poster=None)  # +2 without any vote


def test_VIL_A_40_scandalmonger_self_option_and_requires_alive():
    """VIL-A-40"""
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P8": "church"}, options={"scandalmonger.allow_self": False})
    f.expect(f.night(2, scandalmonger={"target": "P8"}),
             rejected=[{"scandalmonger": "P8", "reason": "self_target"}])
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P4": "church"})
    f.night(2, scandalmonger={"target": "P4"})
    d = f.day(2, votes={"P1": "P3"})
    f.g.act("P5", "noop")  # harmless unknown action
    f.expect(d, score={"P3": 1, "P4": 2})
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P4": "church"}, state={"poster": "P4"},
           alive=["P1", "P2", "P3", "P4", "P5", "P6", "P7"], options={"scandalmonger.requires_alive": True})
    d = f.day(2, votes={"P1": "P3"})
    f.expect(d, score={"P3": 1}, lynched="P3")


def test_VIL_A_29_poster_on_the_barkeeper_counts_zero_or_is_illegal():
    """VIL-A-29"""
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P2": "tavern"})
    f.night(2, scandalmonger={"target": "P2"})
    d = f.day(2, votes_in_order=[["P2", "P3"], ["P1", "P4"]])
    f.expect(d, score={"P3": 1, "P4": 1})
    f = F8(roles={"P8": "scandalmonger"}, buildings={"P2": "tavern"},
           options={"scandalmonger.barkeeper_target": False})
    f.expect(f.night(2, scandalmonger={"target": "P2"}),
             rejected=[{"scandalmonger": "P2", "reason": "barkeeper_immune"}])


def test_VIL_R_ELDER_survives_the_first_attack_unrevealed():
    """VIL-R-ELDER"""
    f = F8(roles={"P1": "elder"})
    f.expect(f.night(2, pack={"target": "P1"}), dead=[], revealed={})
    f.expect(f.night(3, pack={"target": "P1"}), dead=["P1"], revealed={"P1": "elder"})


def test_VIL_R_ELDER_killed_by_the_village_removes_villager_powers_VIL_A_56():
    """VIL-R-ELDER VIL-A-56 VIL-R-SEER"""
    f = F8(roles={"P1": "elder", "P2": "seer"}, buildings={"P3": "church"})
    d = f.day(2, votes={"P3": "P1", "P4": "P1"})
    run = f.expect(d, lynched="P1")
    assert run.state.x.powers_lost and facts(run, d, "elder_powers_lost")
    n = f.night(3)
    f.g.act("P2", "check", "P5", at=n.phase.start + M)
    f.expect(n, rejected=[{"seer": "P5", "reason": "power_lost"}])
    d3 = f.day(3, confessor={"target": "P5"})  # building powers are kept by default
    f.expect(d3, token={"church": "spent"})
    f = F8(roles={"P1": "elder"}, buildings={"P3": "church"}, options={"elder.buildings_affected": True})
    f.day(2, votes={"P3": "P1", "P4": "P1"})
    d3 = f.day(3, confessor={"target": "P5"})
    f.expect(d3, rejected=[{"confessor": "P5", "reason": "no_power"}], token={"church": "ready"})
