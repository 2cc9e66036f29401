"""one-night: the deal, the night on moving cards, PM votes, the lynch, the Jager's shot and wins
by final cards. One test per scenario of `one-night.md` (ON-X1..ON-X18), then the rules and the
options the scenarios do not reach."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.config import GameConfig, PlayerConfig, ScheduleConfig, SetupConfig, _validate_roles, configured_roles
from forummod.engine.registry import get_ruleset_class, make_ruleset
from forummod.engine.rulesets.one_night import DEFAULT_DECK, OneNight, parse_positions
from forummod.engine.ruleset import Setup
from forummod.engine.schedule import Pin, build_phases
from forummod.engine.types import PhaseId
from forummod.errors import ConfigError

from tests.engine.scenario import Scenario, dead, rejected

SEED_PLAYERS = ["Berber", "Bobdebouwer", "Kraken", "Legioen", "Tetmiera"]

# A GM deal used by many tests: both werewolves among the players, no Looier/Jager dealt.
WOLVES = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "troublemaker",
          "Tetmiera": "werewolf"}
WOLVES_CENTRE = ["tanner", "hunter", "insomniac"]


def table(roles: dict[str, str], centre: list[str], **options) -> Scenario:
    """A GM-entered deal (ON-S4 option) and the night N1 open for 24 h."""
    return Scenario("one-night", list(roles), roles, options=options, extra={"centre": centre}).night(1, hours=24)


def pm_votes(g: Scenario, *pairs: tuple[str, str]) -> Scenario:
    for voter, target in pairs:
        g.vote(voter, target, channel="pm")
    return g


def after_day(g: Scenario, hours: float = 1) -> datetime:
    return g.phases[-1].end + timedelta(hours=hours)


def shoot(g: Scenario, hunter: str, target: str, channel: str = "pm", hours: float = 1):
    g.act(hunter, "shoot", target, at=after_day(g, hours), channel=channel)
    return g.run(now=after_day(g, hours + 1))


def results(run, to: str) -> list:
    return [r.fact for _, r in run.private if r.to == to]


def result(run, to: str, key: str):
    found = [f for f in results(run, to) if f.key == key]
    assert len(found) == 1, (to, key, results(run, to))
    return found[0]


def final(run) -> dict[str, str]:
    return {p.name: p.role for p in run.state.players}


def winners(run) -> set[str]:
    assert run.state.outcome is not None
    return set(run.state.outcome.winners)


def facts(run, key: str) -> list:
    return [f for _, f in run.facts if f.key == key]


# ====================================================================== the spec's scenarios


def test_ON_X1_robber_takes_the_werewolf_card_and_wins_with_the_werewolves():
    """ON-X1: robber takes the werewolf card and wins with the werewolves."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "troublemaker",
             "Tetmiera": "tanner"}
    centre = ["werewolf", "hunter", "insomniac"]

    def night():
        g = table(roles, centre)
        g.act("Kraken", "rob", "Berber")
        return g.day(1, hours=72)

    g = pm_votes(night(), ("Berber", "Kraken"), ("Legioen", "Kraken"), ("Tetmiera", "Bobdebouwer"))
    run = g.run()
    assert final(run)["Kraken"] == "werewolf" and final(run)["Berber"] == "robber"
    assert dead(run) == {"Kraken"}
    assert run.state.outcome.result == "village"
    assert winners(run) == {"Berber", "Bobdebouwer", "Legioen"}  # W included; the Looier loses

    g = pm_votes(night(), ("Kraken", "Berber"), ("Legioen", "Berber"))
    run = g.run()
    assert dead(run) == {"Berber"}
    assert run.state.outcome.result == "werewolves"
    assert winners(run) == {"Kraken"}


def test_ON_X2_troublemaker_gives_the_seer_player_the_looier_and_the_insomniac_sees_slapeloze():
    """ON-X2: troublemaker gives the seer player the looier and the insomniac sees slapeloze."""
    roles = {"Berber": "seer", "Bobdebouwer": "tanner", "Kraken": "troublemaker", "Legioen": "insomniac",
             "Tetmiera": "werewolf"}
    centre = ["werewolf", "hunter", "robber"]

    def night():
        g = table(roles, centre)
        g.act("Kraken", "swap", "Berber", "Bobdebouwer")
        return g.day(1, hours=72)

    run = pm_votes(night(), ("Kraken", "Berber"), ("Legioen", "Berber")).run()
    assert final(run)["Berber"] == "tanner" and final(run)["Bobdebouwer"] == "seer"
    assert result(run, "Legioen", "insomniac_result").get("card") == "insomniac"
    assert run.state.outcome.result == "tanner" and winners(run) == {"Berber"}

    run = pm_votes(night(), ("Kraken", "Tetmiera"), ("Legioen", "Tetmiera")).run()
    assert run.state.outcome.result == "village"
    assert "Berber" not in winners(run) and "Bobdebouwer" in winners(run)


def test_ON_X3_insomniac_robbed_by_the_robber_learns_dief():
    """ON-X3: insomniac robbed by the robber learns dief."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "insomniac",
             "Tetmiera": "tanner"}
    g = table(roles, ["werewolf", "hunter", "troublemaker"]).act("Kraken", "rob", "Legioen")
    run = g.day(1, hours=72).run()
    assert result(run, "Legioen", "insomniac_result").get("card") == "robber"
    assert result(run, "Kraken", "robber_result").params == (("card", "insomniac"), ("target", "Legioen"))


HUNTER_ROLES = {"Berber": "hunter", "Bobdebouwer": "werewolf", "Kraken": "tanner", "Legioen": "seer",
                "Tetmiera": "robber"}


def hunter_lynched(roles=HUNTER_ROLES, centre=("werewolf", "troublemaker", "insomniac"), **options) -> Scenario:
    g = table(roles, list(centre), **options).day(1, hours=72)
    return pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"), ("Tetmiera", "Berber"))


@pytest.mark.parametrize("target, result, expected", [
    ("Bobdebouwer", "village", {"Berber", "Legioen", "Tetmiera"}),  # a Weerwolf: the Jager wins too
    ("Kraken", "tanner", {"Kraken"}),  # the Looier alone
    ("Legioen", "werewolves", {"Bobdebouwer"}),  # a Ziener: the werewolves
])
def test_ON_X4_the_lynched_jager_names_the_card_that_decides(target, result, expected):
    """ON-X4: the lynched jager names the card that decides."""
    g = hunter_lynched()
    before = g.run(now=after_day(g, 0.5))
    assert before.state.outcome is None  # D9: no winner until the shot
    assert before.state.x.awaiting == ("Berber",)
    assert [f.get("player") for f in facts(before, "hunter_must_shoot")] == ["Berber"]
    run = shoot(g, "Berber", target)
    assert dead(run) == {"Berber", target}
    assert facts(run, "hunter_shot")[0].params == (("card", final(run)[target]), ("hunter", "Berber"),
                                                   ("target", target))
    assert run.state.outcome.result == result and winners(run) == expected
    assert run.state.outcome.rule == "ON-W4"


def test_ON_X4_jager_names_a_seer_with_no_werewolf_among_the_players_nobody_wins():
    """ON-X4: jager names a seer with no werewolf among the players nobody wins."""
    roles = {"Berber": "hunter", "Bobdebouwer": "seer", "Kraken": "tanner", "Legioen": "robber",
             "Tetmiera": "insomniac"}
    run = shoot(hunter_lynched(roles, ("werewolf", "werewolf", "troublemaker")), "Berber", "Bobdebouwer")
    assert run.state.outcome.result == "nobody" and winners(run) == set()


def test_ON_X5_a_changed_pm_vote_replaces_the_first():
    """ON-X5: a changed pm vote replaces the first."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    pm_votes(g, ("Kraken", "Berber"), ("Kraken", "Legioen"))
    run = g.run(now=g.clock + timedelta(minutes=1))
    t = run.current_tally
    assert t.total_for("Berber") == 0 and t.total_for("Legioen") == 1
    assert [v.voter for v in t.candidates[0].voters] == ["Kraken"]


def test_ON_X6_the_engine_gives_the_day_window_the_activity_blocks_are_counted_in():
    """Engine side of ON-D2/ON-X6: the ruleset turns activity blocks on and the day is one 72 h
    window from its start; the missed-block report is the checks module's test."""
    assert OneNight.activity_blocks is True
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    g.vote("Kraken", "Berber", at=g.phases[-1].start + timedelta(hours=2))  # thread posts: no votes counted
    g.vote("Kraken", "Legioen", at=g.phases[-1].start + timedelta(hours=50))
    run = g.run(now=g.phases[-1].start + timedelta(hours=60))
    day = run.phases[-1]
    assert (day.id, day.end - day.start) == (PhaseId(1, "day"), timedelta(hours=72))
    blocks = {int((r.at - day.start) // timedelta(hours=24)) for r in run.state.x.declared}
    assert blocks == {0, 2}  # block 24-48 h missed: the checks module reports it
    assert run.current_tally.candidates == ()


def test_ON_X7_both_werewolves_in_the_centre_and_no_votes_village_wins():
    """ON-X7: both werewolves in the centre and no votes village wins."""
    roles = {"Berber": "tanner", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "hunter",
             "Tetmiera": "insomniac"}
    run = table(roles, ["werewolf", "troublemaker", "werewolf"]).day(1, hours=72).run()
    assert dead(run) == set()
    assert facts(run, "no_lynch")[0].get("reason") == "no_votes"
    assert run.state.outcome.result == "village" and run.state.outcome.rule == "D5"
    assert winners(run) == {"Bobdebouwer", "Kraken", "Legioen", "Tetmiera"}  # the Looier loses


def test_ON_X8_the_seer_sees_centre_cards_as_dealt_whatever_the_robber_and_troublemaker_do():
    """ON-X8: the seer sees centre cards as dealt whatever the robber and troublemaker do."""
    roles = {"Berber": "seer", "Bobdebouwer": "robber", "Kraken": "troublemaker", "Legioen": "werewolf",
             "Tetmiera": "insomniac"}
    g = table(roles, ["tanner", "werewolf", "hunter"])
    g.act("Berber", "check_centre", positions="links,rechts")
    g.act("Bobdebouwer", "rob", "Legioen").act("Kraken", "swap", "Berber", "Tetmiera")
    run = g.day(1, hours=72).run()
    seen = result(run, "Berber", "seer_centre")
    assert seen.get("positions") == ("links", "rechts") and seen.get("cards") == ("tanner", "hunter")
    assert run.state.x.centre == (("links", "tanner"), ("midden", "werewolf"), ("rechts", "hunter"))


def test_ON_X9_two_tied_on_two_votes_both_die_and_the_village_wins():
    """ON-X9: two tied on two votes both die and the village wins."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"), ("Tetmiera", "Bobdebouwer"),
             ("Berber", "Bobdebouwer"), ("Bobdebouwer", "Kraken"))
    run = g.run()
    assert dead(run) == {"Berber", "Bobdebouwer"}
    assert [f.get("player") for f in facts(run, "lynched")] == ["Berber", "Bobdebouwer"]
    assert run.state.outcome.result == "village" and run.state.outcome.rule == "D7"
    assert winners(run) == {"Bobdebouwer", "Kraken", "Legioen"}


def test_ON_X10_everyone_one_vote_nobody_dies_and_the_werewolves_win():
    """ON-X10: everyone one vote nobody dies and the werewolves win."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    pm_votes(g, ("Berber", "Bobdebouwer"), ("Bobdebouwer", "Kraken"), ("Kraken", "Legioen"),
             ("Legioen", "Tetmiera"), ("Tetmiera", "Berber"))
    run = g.run()
    assert dead(run) == set()
    assert facts(run, "no_lynch")[0].get("reason") == "no_player_over_one"
    assert run.state.outcome.result == "werewolves" and winners(run) == {"Berber", "Tetmiera"}


def test_ON_X11_the_robber_takes_the_jager_card_and_shoots_the_old_jager_does_not():
    """ON-X11: the robber takes the jager card and shoots the old jager does not."""
    roles = {"Berber": "robber", "Bobdebouwer": "hunter", "Kraken": "werewolf", "Legioen": "seer",
             "Tetmiera": "tanner"}
    g = table(roles, ["werewolf", "troublemaker", "insomniac"]).act("Berber", "rob", "Bobdebouwer")
    g.day(1, hours=72)
    pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"))
    g.act("Bobdebouwer", "shoot", "Kraken", at=after_day(g, 0.5))  # H now holds the Dief: no shot
    run = shoot(g, "Berber", "Kraken")
    assert ("shoot", "Bobdebouwer", "no_shot_now") in rejected(run)
    assert dead(run) == {"Berber", "Kraken"}
    assert run.state.outcome.result == "village"
    assert {"Berber", "Bobdebouwer"} <= winners(run) and "Kraken" not in winners(run)


def test_ON_X12_the_looier_lynched_wins_alone():
    """ON-X12: the looier lynched wins alone."""
    roles = {"Berber": "tanner", "Bobdebouwer": "werewolf", "Kraken": "seer", "Legioen": "robber",
             "Tetmiera": "hunter"}
    g = table(roles, ["werewolf", "troublemaker", "insomniac"]).day(1, hours=72)
    run = pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"), ("Bobdebouwer", "Berber")).run()
    assert run.state.outcome.result == "tanner" and run.state.outcome.rule == "ON-W3"
    assert winners(run) == {"Berber"}


def test_ON_X13_a_tie_kills_looier_and_werewolf_both_the_looier_and_the_village_win():
    """ON-X13: a tie kills looier and werewolf both the looier and the village win."""
    roles = {"Berber": "tanner", "Bobdebouwer": "werewolf", "Kraken": "seer", "Legioen": "robber",
             "Tetmiera": "hunter"}
    g = table(roles, ["werewolf", "troublemaker", "insomniac"]).day(1, hours=72)
    pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"), ("Tetmiera", "Bobdebouwer"), ("Berber", "Bobdebouwer"))
    run = g.run()
    assert dead(run) == {"Berber", "Bobdebouwer"}
    out = run.state.outcome
    assert out.result == "tanner_village" and set(out.factions) == {"tanner", "village"}
    assert winners(run) == {"Berber", "Kraken", "Legioen", "Tetmiera"}


def test_ON_X14_the_day_starts_exactly_at_the_gm_post_so_the_boundary_is_exact():
    """Engine side of ON-X14 (D12): the day begins at the exact day-start instant (20:00), so a
    post at exactly 20:00 the next day lies 24 h in, at the start of block 24-48; the block
    report itself is the checks module's test."""
    tz = ZoneInfo("Europe/Amsterdam")
    day_start = datetime(2026, 1, 10, 20, 0, tzinfo=tz).astimezone(timezone.utc)
    phases = build_phases(OneNight.TIMING, start=day_start - timedelta(hours=24), tz=tz,
                          now=day_start + timedelta(hours=1), pins=[Pin(PhaseId(1, "day"), start=day_start)])
    day = next(p for p in phases if p.id == PhaseId(1, "day"))
    assert day.start == day_start
    post = datetime(2026, 1, 11, 20, 0, tzinfo=tz)
    assert (post - day.start) // timedelta(hours=24) == 1


def test_ON_D1_the_72_hour_day_is_elapsed_time_across_a_dst_change():
    """D12 with ON-D1: "72h" is an offset, so the day ends 72 elapsed hours after its start even
    when the clocks move (29 March 2026 in Amsterdam)."""
    tz = ZoneInfo("Europe/Amsterdam")
    day_start = datetime(2026, 3, 28, 20, 0, tzinfo=tz).astimezone(timezone.utc)  # UTC inside the tool
    phases = build_phases(OneNight.TIMING, start=day_start - timedelta(hours=24), tz=tz,
                          now=day_start + timedelta(hours=1), pins=[Pin(PhaseId(1, "day"), start=day_start)])
    day = next(p for p in phases if p.id == PhaseId(1, "day"))
    elapsed = day.end.astimezone(timezone.utc) - day.start.astimezone(timezone.utc)
    assert elapsed == timedelta(hours=72) and day.vote_close == day.end
    assert day.end.astimezone(tz).hour == 21  # the wall clock moved, the boundary did not


def test_ON_X15_a_ziener_lynched_with_both_werewolves_in_the_centre_nobody_wins():
    """ON-X15: a ziener lynched with both werewolves in the centre nobody wins."""
    roles = {"Berber": "seer", "Bobdebouwer": "tanner", "Kraken": "robber", "Legioen": "hunter",
             "Tetmiera": "insomniac"}
    g = table(roles, ["werewolf", "werewolf", "troublemaker"]).day(1, hours=72)
    run = pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber")).run()
    assert dead(run) == {"Berber"}
    assert run.state.outcome.result == "nobody" and run.state.outcome.rule == "D8"
    assert winners(run) == set()


def test_ON_X16_the_pm_vote_counts_and_the_thread_declaration_is_kept_for_the_mismatch_check():
    """ON-X16: the ON-V2 mismatch report is a checks-side test (D13); the engine counts the PM
    vote and keeps the thread declaration the check compares it with."""
    roles = {"Berber": "werewolf", "Daan": "seer", "Fenna": "robber", "Kraken": "troublemaker",
             "Legioen": "werewolf"}
    g = table(roles, WOLVES_CENTRE).day(1, hours=72)
    g.vote("Kraken", "Fenna", channel="thread")  # "Ik stem op Fenna"
    g.vote("Kraken", "Daan", channel="pm")  # "Stem: Daan"
    g.vote("Berber", "Fenna", channel="thread")  # declared, no PM vote
    run = g.run(now=g.clock + timedelta(minutes=1))
    t = run.current_tally
    assert t.total_for("Daan") == 1 and t.total_for("Fenna") == 0
    decl = g.rs.latest_declarations(run.state)
    assert {v: r.target for v, r in decl.items()} == {"Kraken": "Fenna", "Berber": "Fenna"}
    assert decl["Kraken"].source.kind == "post"
    assert "Berber" in t.not_voting  # declared in the thread but sent no PM vote
    assert not run.rejections  # nothing public about it: the check reports to the GM only


def test_ON_X17_a_vote_pm_after_the_deadline_is_late_and_the_earlier_one_stands():
    """ON-X17: a vote pm after the deadline is late and the earlier one stands."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    end = g.phases[-1].end  # stands for 20:00
    pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"))
    g.vote("Kraken", "Legioen", at=end + timedelta(minutes=5), channel="pm")
    g.vote("Legioen", "Kraken", at=end, channel="pm")  # exactly at the deadline: late too (D16)
    g.decide("night:N1", at=end - timedelta(hours=71)).decide("lynch:D1", at=end + timedelta(minutes=30))
    run = g.run(now=end + timedelta(hours=1), approve_all=False)  # the GM approves after the late PMs
    late = [r for r in run.rejections if r.reason == "late"]
    assert {(r.actor, r.rule) for r in late} == {("Kraken", "ON-V1"), ("Legioen", "ON-V1")}
    assert not any(r.public for r in late)  # a PM vote is reported to the GM only
    assert run.tally_for("D1").total_for("Berber") == 2
    assert dead(run) == {"Berber"}


def test_ON_X18_a_lone_werewolf_learns_the_partner_is_in_the_centre_not_where():
    """ON-X18: a lone werewolf learns the partner is in the centre not where."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "troublemaker",
             "Tetmiera": "insomniac"}
    centre = ["tanner", "werewolf", "hunter"]
    run = table(roles, centre).day(1, hours=72).run()
    assert result(run, "Berber", "werewolf_centre").get("position") == ""
    run = table(roles, centre, werewolf_sees_position=True).day(1, hours=72).run()  # D6 option
    assert result(run, "Berber", "werewolf_centre").get("position") == "midden"


# ====================================================================== setup (ON-S1..ON-S4)


def test_ON_S1_the_default_deck_is_the_seeds_eight_cards():
    """ON-S1: the default deck is the seeds eight cards."""
    assert sum(DEFAULT_DECK.values()) == 8 and DEFAULT_DECK["werewolf"] == 2
    assert set(DEFAULT_DECK) == set(OneNight.ROLES) == {"tanner", "hunter", "werewolf", "seer", "robber",
                                                        "troublemaker", "insomniac"}
    assert OneNight.canonical_role("Onruststoker") == "troublemaker"
    assert OneNight.canonical_role("Looier") == "tanner"


def test_ON_S2_players_plus_three_cards_and_role_pms_for_everyone():
    """ON-S2: players plus three cards and role pms for everyone."""
    assert OneNight.cards_needed(5, {}) == 8 and OneNight.cards_needed(7, {}) == 10
    g = Scenario("one-night", SEED_PLAYERS, seed=12).night(1, hours=24)
    run = g.run(now=g.clock)
    x = run.state.x
    assert [p for p, _ in x.centre] == ["links", "midden", "rechts"]
    deck = sorted([c for _, c in x.dealt] + [c for _, c in x.centre])
    assert deck == sorted(r for r, n in DEFAULT_DECK.items() for _ in range(n))
    pms = {r.to: r.fact for _, r in run.private}
    assert set(pms) == set(SEED_PLAYERS)  # one role PM per player (the deal proposal, ON-S4)
    assert all(pms[p].key == "role_card" and pms[p].get("card") == c for p, c in x.dealt)


def test_ON_S3_players_act_as_their_dealt_card_and_are_not_told_it_moved():
    """ON-S3: players act as their dealt card and are not told it moved."""
    roles = {"Berber": "troublemaker", "Bobdebouwer": "robber", "Kraken": "werewolf", "Legioen": "seer",
             "Tetmiera": "werewolf"}
    g = table(roles, ["tanner", "hunter", "insomniac"])
    g.act("Bobdebouwer", "rob", "Berber")  # the Dief takes the Onruststoker card first...
    g.act("Berber", "swap", "Kraken", "Legioen")  # ...the dealt Onruststoker still swaps after it
    run = g.day(1, hours=72).run(now=g.phases[-1].start + timedelta(hours=1))
    assert final(run) == {"Berber": "robber", "Bobdebouwer": "troublemaker", "Kraken": "seer",
                          "Legioen": "werewolf", "Tetmiera": "werewolf"}
    assert [f.key for f in results(run, "Berber")] == ["role_card"]  # not told the card moved
    assert [f.key for f in results(run, "Kraken")] == ["role_card", "werewolf_partner"]
    assert [f.key for f in results(run, "Legioen")] == ["role_card"]  # dealt Ziener, sent no look


def test_ON_S4_the_seeded_deal_is_reproducible_and_the_seed_recorded():
    """ON-S4: the seeded deal is reproducible and the seed recorded."""
    def deal(seed):
        st = make_ruleset("one-night").initial_state(Setup(tuple(SEED_PLAYERS), {}, seed))
        return st.x.dealt, st.x.centre, st.x.deal_seed, st.x.deal_source

    assert deal(7) == deal(7)
    assert deal(7)[2:] == (7, "seeded")
    assert len({deal(s)[:2] for s in range(1, 8)}) > 1
    # the base-class route (deal + deal_centre) gives the same table as a deal made here
    rs = make_ruleset("one-night")
    setup = Setup(tuple(SEED_PLAYERS), {}, 7)
    roles = rs.deal(setup, DEFAULT_DECK)
    assert tuple(roles.items()) == deal(7)[0]
    again = rs.initial_state(Setup(tuple(SEED_PLAYERS), roles, 7))
    assert again.x.centre == deal(7)[1] == tuple(rs.deal_centre(setup, DEFAULT_DECK).items())


def test_ON_S4_a_gm_entered_deal_with_the_centre_by_position():
    """ON-S4: a gm entered deal with the centre by position."""
    roles = dict(WOLVES)
    st = make_ruleset("one-night").initial_state(
        Setup(tuple(roles), {**roles, "Kraken": "Dief"}, 3, {"centre": {"Rechts": "Slapeloze", "Links": "Looier",
                                                                         "Midden": "Jager"}}))
    assert st.x.deal_source == "gm"
    assert st.x.centre == (("links", "tanner"), ("midden", "hunter"), ("rechts", "insomniac"))
    assert st.role_of("Kraken") == "robber"
    with pytest.raises(ConfigError):
        make_ruleset("one-night").initial_state(Setup(tuple(roles), {"Berber": "werewolf"}, 3,
                                                      {"centre": WOLVES_CENTRE}))


def _game(dealt: dict[str, str] | None = None, players=SEED_PLAYERS, **setup) -> GameConfig:
    dealt = dealt or {}
    return GameConfig(site="s", thread="t", ruleset="one-night",
                      players=tuple(PlayerConfig(name=p, role=dealt.get(p, "")) for p in players),
                      setup=SetupConfig(**setup))


def test_ON_S4_check_setup_validates_the_deck():
    """ON-S4: check setup validates the deck."""
    ok_random = _game(deal="random", roles=dict(DEFAULT_DECK))
    assert OneNight.check_setup(ok_random, configured_roles(ok_random)) is None
    _validate_roles(ok_random, "games.g", None)  # the config's players + 3 count passes too
    short = _game(deal="random", roles={"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1})
    with pytest.raises(ConfigError, match="need 8 cards"):
        _validate_roles(short, "games.g", None)
    no_wolf = _game(deal="random", roles={"seer": 1, "robber": 1, "troublemaker": 1, "tanner": 1, "hunter": 1,
                                          "insomniac": 3})
    assert OneNight.check_setup(no_wolf, {})[0] == "setup.roles"
    both = _game(deal="random", roles=dict(DEFAULT_DECK), centre=tuple(WOLVES_CENTRE))
    assert OneNight.check_setup(both, {})[0] == "setup.centre"

    gm = _game(WOLVES, centre=tuple(WOLVES_CENTRE))
    assert OneNight.check_setup(gm, configured_roles(gm)) is None
    _validate_roles(gm, "games.g", None)
    counted = _game(WOLVES, centre=tuple(WOLVES_CENTRE), roles=dict(DEFAULT_DECK, tanner=0, troublemaker=2))
    assert OneNight.check_setup(counted, configured_roles(counted))[0] == "setup.centre"  # not the stated deck
    for centre, words in ((("tanner", "hunter"), "exactly the three"), (("tanner", "hunter", "joker"), "unknown card")):
        bad = _game(WOLVES, centre=centre)
        path, msg = OneNight.check_setup(bad, configured_roles(bad))
        assert path == "setup.centre" and words in msg
    no_centre = _game(WOLVES)
    assert OneNight.check_setup(no_centre, configured_roles(no_centre))[0] == "setup.centre"
    half = _game({"Berber": "werewolf"}, centre=tuple(WOLVES_CENTRE))
    assert OneNight.check_setup(half, configured_roles(half))[0] == "players"
    day_first = GameConfig(site="s", thread="t", ruleset="one-night", players=gm.players, setup=gm.setup,
                           schedule=ScheduleConfig(first_phase="day"))
    assert OneNight.check_setup(day_first, configured_roles(day_first))[0] == "schedule.first_phase"


# ====================================================================== night (ON-N1..ON-N9)


def test_ON_N1_ON_N2_looier_and_jager_have_no_night_action_and_no_result():
    """ON-N1, ON-N2: looier and jager have no night action and no result."""
    g = table(HUNTER_ROLES, ["werewolf", "troublemaker", "insomniac"])
    g.act("Kraken", "check", "Berber").act("Berber", "rob", "Kraken")
    run = g.day(1, hours=72).run(now=g.phases[-1].start + timedelta(hours=1))
    assert ("check", "Kraken", "wrong_role") in rejected(run) and ("rob", "Berber", "wrong_role") in rejected(run)
    assert [f.key for f in results(run, "Kraken")] == ["role_card"]
    assert [f.key for f in results(run, "Berber")] == ["role_card"]


def test_ON_N3_werewolves_learn_each_other():
    """ON-N3: werewolves learn each other."""
    run = table(WOLVES, WOLVES_CENTRE).day(1, hours=72).run(now=datetime(2026, 1, 6, 10, tzinfo=timezone.utc))
    assert result(run, "Berber", "werewolf_partner").get("partners") == ("Tetmiera",)
    assert result(run, "Tetmiera", "werewolf_partner").get("partners") == ("Berber",)


def test_ON_N3_a_werewolf_with_no_other_werewolf_card_is_told_so():
    """ON-N3: a werewolf with no other werewolf card is told so."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "troublemaker",
             "Tetmiera": "insomniac"}
    run = table(roles, ["tanner", "hunter", "seer"]).day(1, hours=72).run()
    assert [f.key for f in results(run, "Berber")] == ["role_card", "werewolf_alone"]


def test_ON_N4_the_seer_looks_at_one_player_or_two_centre_cards_last_valid_pm_counts():
    """ON-N4: the seer looks at one player or two centre cards last valid pm counts."""
    roles = {"Berber": "seer", "Bobdebouwer": "robber", "Kraken": "werewolf", "Legioen": "troublemaker",
             "Tetmiera": "werewolf"}
    g = table(roles, ["tanner", "hunter", "insomniac"])
    g.act("Berber", "check_centre", positions="Links en Midden").act("Berber", "check", "Kraken")
    g.act("Berber", "check", "Berber")  # invalid: rejected, the earlier valid look stands (D14)
    g.act("Bobdebouwer", "rob", "Kraken")  # after the seer: the seer saw the card before it moved
    run = g.day(1, hours=72).run()
    assert ("check", "Berber", "self_target") in rejected(run)
    assert [f.key for f in results(run, "Berber")] == ["role_card", "seer_player"]
    assert result(run, "Berber", "seer_player").params == (("card", "werewolf"), ("target", "Kraken"))


@pytest.mark.parametrize("positions", ["links", "links,links", "links,midden,rechts", "boven,links", ""])
def test_ON_N4_a_centre_look_needs_two_distinct_positions(positions):
    """ON-N4: a centre look needs two distinct positions."""
    roles = {"Berber": "seer", "Bobdebouwer": "robber", "Kraken": "werewolf", "Legioen": "troublemaker",
             "Tetmiera": "werewolf"}
    g = table(roles, ["tanner", "hunter", "insomniac"]).act("Berber", "check_centre", positions=positions)
    run = g.day(1, hours=72).run()
    assert ("check_centre", "Berber", "bad_positions") in rejected(run)
    assert [f.key for f in results(run, "Berber")] == ["role_card"]


def test_parse_positions_reads_dutch_and_english_words():
    assert parse_positions("Links en Rechts") == ("links", "rechts")
    assert parse_positions("left, middle") == ("links", "midden")
    assert parse_positions("boven") is None and parse_positions(None) is None


def test_ON_N5_the_robber_swaps_then_sees_the_new_card_and_cannot_rob_themself():
    """ON-N5: the robber swaps then sees the new card and cannot rob themself."""
    g = table(WOLVES, WOLVES_CENTRE).act("Kraken", "rob", "Kraken").act("Kraken", "rob", "Tetmiera")
    run = g.day(1, hours=72).run()
    assert ("rob", "Kraken", "self_target") in rejected(run)
    assert result(run, "Kraken", "robber_result").params == (("card", "werewolf"), ("target", "Tetmiera"))
    assert final(run)["Tetmiera"] == "robber"


def test_ON_N6_the_troublemaker_swaps_two_others_without_looking():
    """ON-N6: the troublemaker swaps two others without looking."""
    g = table(WOLVES, WOLVES_CENTRE)
    g.act("Legioen", "swap", "Legioen", "Berber").act("Legioen", "swap", "Berber", "Berber")
    g.act("Legioen", "swap", "Berber", "Bobdebouwer")
    run = g.day(1, hours=72).run()
    assert ("swap", "Legioen", "self_target") in rejected(run) and ("swap", "Legioen", "same_target") in rejected(run)
    assert final(run)["Berber"] == "seer" and final(run)["Bobdebouwer"] == "werewolf"
    assert [f.key for f in results(run, "Legioen")] == ["role_card"]  # no look, no PM by default


def test_ON_N7_the_insomniac_sees_the_final_card_after_the_troublemaker():
    """ON-N7: the insomniac sees the final card after the troublemaker."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "troublemaker", "Legioen": "insomniac",
             "Tetmiera": "tanner"}
    g = table(roles, ["werewolf", "hunter", "robber"]).act("Kraken", "swap", "Legioen", "Berber")
    run = g.day(1, hours=72).run()
    assert result(run, "Legioen", "insomniac_result").get("card") == "werewolf"


def test_ON_N8_results_go_to_the_learners_only_and_the_day_begins_with_nobody_dead():
    """ON-N8: results go to the learners only and the day begins with nobody dead."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "troublemaker",
             "Tetmiera": "insomniac"}
    g = table(roles, ["tanner", "hunter", "werewolf"])
    g.act("Bobdebouwer", "check", "Tetmiera").act("Kraken", "rob", "Bobdebouwer")
    g.act("Legioen", "swap", "Berber", "Tetmiera")
    run = g.day(1, hours=72).run(now=g.phases[-1].start + timedelta(minutes=5))
    night = run.state.proposal("night:N1")
    assert night.status == "approved"
    assert {r.to for r in night.private} == {"Berber", "Bobdebouwer", "Kraken", "Tetmiera"}
    assert [(f.key, f.params) for f in night.facts] == [("day_begins", ())]  # no secret in public
    assert dead(run) == set()  # no one dies at night
    # the GM holds the results until approving: nothing is sent before
    held = g.run(now=g.phases[-1].start + timedelta(minutes=5), approve_all=False)
    assert held.state.proposal("night:N1").status == "pending"
    assert not any(r.fact.key != "role_card" for _, r in held.private)


def test_ON_N8_option_the_troublemaker_gets_a_confirmation():
    """ON-N8: option the troublemaker gets a confirmation."""
    g = table(WOLVES, WOLVES_CENTRE, troublemaker_confirm=True).act("Legioen", "swap", "Berber", "Kraken")
    run = g.day(1, hours=72).run()
    assert result(run, "Legioen", "troublemaker_done").params == (("first", "Berber"), ("second", "Kraken"))


def test_ON_N9_foreign_late_and_early_actions_are_no_action_and_stay_private():
    """ON-N9: foreign late and early actions are no action and stay private."""
    g = Scenario("one-night", list(WOLVES), WOLVES, extra={"centre": WOLVES_CENTRE})
    g.act("Kraken", "rob", "Berber", at=datetime(2026, 1, 5, 8, tzinfo=timezone.utc))  # before the deal
    g.night(1, hours=24)
    g.act("Bobdebouwer", "rob", "Berber")  # the Ziener cannot rob
    g.act("Kraken", "rob", "Zed")  # not a player
    g.act("Kraken", "rob", "Berber", at=g.phases[-1].end)  # at the deadline: late (D16)
    g.day(1, hours=72)
    g.act("Legioen", "swap", "Berber", "Kraken")  # during the day: late, not kept for a later night
    run = g.run()
    codes = {(r.kind, r.actor, r.reason, r.rule) for r in run.rejections}
    assert codes >= {("rob", "Kraken", "before_deal", "ON-N9"), ("rob", "Bobdebouwer", "wrong_role", "ON-N9"),
                     ("rob", "Kraken", "non_player_target", "ON-N9"), ("rob", "Kraken", "late", "ON-N9"),
                     ("swap", "Legioen", "late", "ON-N9")}
    assert all(not r.public for r in run.rejections if r.kind in ("rob", "swap"))
    assert final(run) == WOLVES and run.state.actions == ()


# ====================================================================== day (ON-D1..ON-D5)


def test_ON_D1_one_night_then_one_72_hour_day_later_phases_do_nothing():
    """ON-D1: one night then one 72 hour day later phases do nothing."""
    assert (OneNight.TIMING.first_phase, OneNight.TIMING.day_end, OneNight.TIMING.vote_close) == ("night", "72h", "72h")
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72).night(2).day(2)
    g.vote("Kraken", "Berber", channel="pm")  # in N2 by the schedule: no vote open
    run = g.run()
    assert run.state.phase.id == PhaseId(1, "day")
    assert run.state.proposal("night:N2") is None and run.state.proposal("lynch:D2") is None
    assert run.state.outcome is not None and run.state.outcome.result == "werewolves"  # D5 after D1


def test_ON_D2_engine_side_activity_blocks_are_on_for_this_ruleset():
    """ON-D2: the checks module counts the blocks (its tests cover ON-D2, ON-X6, ON-X14); the
    engine's part is `activity_blocks = True` and the day's exact window."""
    assert get_ruleset_class("one-night").activity_blocks is True
    run = table(WOLVES, WOLVES_CENTRE).day(1, hours=72).run()
    day = run.phases[-1]
    assert day.vote_close == day.end == day.start + timedelta(hours=72)


def test_ON_D3_talking_about_roles_in_the_thread_moves_nothing():
    """ON-D3: claims in the thread are allowed; a night action written in a day post is not an
    action (rejected privately), so nothing is revealed or changed by it."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    g.act("Kraken", "rob", "Berber", channel="thread")  # "ik was Dief: ruil met Berber"
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert ("rob", "Kraken", "late") in rejected(run)
    assert all(not r.public for r in run.rejections) and final(run) == WOLVES


def test_ON_D4_engine_side_every_gm_pm_is_addressed_to_one_player():
    """ON-D4 (D4, D13): the verbatim flag is a checks test; the engine gives, per player, the
    results the GM sends them, which the check compares the player's posts with."""
    g = table(WOLVES, WOLVES_CENTRE).act("Bobdebouwer", "check", "Kraken")
    run = g.day(1, hours=72).run(now=g.phases[-1].start + timedelta(hours=1))
    by_player = {p: [f.key for f in results(run, p)] for p in WOLVES}
    assert by_player["Bobdebouwer"] == ["role_card", "seer_player"]
    assert by_player["Berber"] == ["role_card", "werewolf_partner"]
    assert {r.to for _, r in run.private} <= set(WOLVES)


def test_ON_D5_outside_contact_is_not_observable_a_gm_note_changes_nothing():
    """ON-D5: nothing to enforce; the GM may log a note and the game state stays as it was."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    before = g.run(now=g.clock + timedelta(minutes=1)).state
    g.gm("note", note="Kraken PM'de Berber buiten de draad")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert run.state.players == before.players and run.state.votes == before.votes
    assert any(e.kind == "override" and "note" in e.text for e in run.log)


# ====================================================================== votes (ON-V1..ON-V4)


def test_ON_V1_only_pm_votes_count_and_the_tally_lists_who_has_no_pm_vote():
    """ON-V1: only pm votes count and the tally lists who has no pm vote."""
    g = table(WOLVES, WOLVES_CENTRE)
    g.vote("Kraken", "Berber", channel="pm")  # sent during the night: no vote open (D16)
    g.day(1, hours=72)
    g.vote("Kraken", "Berber", channel="thread").vote("Legioen", "Berber", channel="thread")
    g.vote("Bobdebouwer", "Berber", channel="pm").vote("Tetmiera", "Zed", channel="pm")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert ("vote", "Kraken", "no_vote_now") in rejected(run)
    assert ("vote", "Tetmiera", "non_player_target") in rejected(run)
    t = run.current_tally
    assert t.total_for("Berber") == 1
    assert set(t.not_voting) == {"Berber", "Kraken", "Legioen", "Tetmiera"}  # D11: listed for the GM
    assert run.tallies[-1].public is False
    assert g.rs.tally(run.state, None, public=True).candidates == ()  # PM votes stay with the GM


def test_ON_V1_self_votes_are_invalid_and_a_pm_unvote_withdraws():
    """ON-V1: self votes are invalid and a pm unvote withdraws."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    g.vote("Kraken", "Kraken", channel="pm")
    g.vote("Legioen", "Berber", channel="pm").unvote("Legioen", channel="pm")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert ("vote", "Kraken", "self_vote") in rejected(run)
    assert run.current_tally.candidates == ()
    g2 = table(WOLVES, WOLVES_CENTRE, self_vote=True).day(1, hours=72)  # D11 option
    run = g2.vote("Kraken", "Kraken", channel="pm").run(now=g2.clock + timedelta(minutes=1))
    assert run.current_tally.total_for("Kraken") == 1


def test_ON_V2_a_thread_vote_is_only_a_declaration():
    """ON-V2: a thread vote is only a declaration."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    g.vote("Kraken", "Berber", channel="thread").vote("Legioen", "Berber", channel="thread")
    g.vote("Kraken", "Tetmiera", channel="pm")
    g.unvote("Legioen", channel="thread")
    run = g.run()
    assert run.tally_for("D1").total_for("Berber") == 0
    assert {v: r.target for v, r in g.rs.latest_declarations(run.state).items()} == {"Kraken": "Berber",
                                                                                     "Legioen": ""}
    assert dead(run) == set()  # one PM vote: nobody has more than one (D2)


def test_ON_V3_the_most_voted_dies_and_the_final_card_is_revealed():
    """ON-V3: the most voted dies and the final card is revealed."""
    g = table(WOLVES, WOLVES_CENTRE).act("Kraken", "rob", "Berber").day(1, hours=72)
    pm_votes(g, ("Bobdebouwer", "Kraken"), ("Legioen", "Kraken"), ("Tetmiera", "Berber"))
    run = g.run()
    assert facts(run, "lynched")[0].params == (("card", "werewolf"), ("player", "Kraken"), ("votes", 2))
    assert run.state.player("Kraken").death.revealed == "werewolf"


def test_ON_V3_the_lynch_waits_for_the_gm_and_a_tie_can_kill_nobody_by_option():
    """ON-V3: the lynch waits for the gm and a tie can kill nobody by option."""
    g = table(WOLVES, WOLVES_CENTRE, tie="nobody").day(1, hours=72)  # D2 option
    pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"), ("Berber", "Bobdebouwer"), ("Tetmiera", "Bobdebouwer"))
    run = g.run()
    assert dead(run) == set() and facts(run, "no_lynch")[0].get("reason") == "tie"
    assert run.state.outcome.result == "werewolves"  # D5
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"))
    run = g.run(approve_all=False)
    assert run.state.proposal("night:N1").status == "pending"
    assert run.state.proposal("lynch:D1") is None  # waits for the night to be approved
    assert run.state.outcome is None


def test_ON_V3_the_gm_may_refuse_the_lynch_and_declare_nobody_dead():
    """ON-V3 with the GM deciding: a refused lynch proposal kills nobody; a GM 'no_lynch' then
    ends the day and D5 names the winners."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber"))
    end = g.phases[-1].end
    g.decide("night:N1", at=g.phases[-1].start).decide("lynch:D1", "reject", at=end + timedelta(minutes=5))
    run = g.run(now=end + timedelta(minutes=10), approve_all=False)
    assert dead(run) == set() and run.state.outcome is None
    g.gm("no_lynch", at=end + timedelta(minutes=20))
    run = g.run(now=end + timedelta(minutes=30), approve_all=False)
    assert dead(run) == set() and facts(run, "no_lynch")[0].get("reason") == "gm"
    assert run.state.outcome.result == "werewolves" and run.state.outcome.rule == "D5"


def test_ON_V4_the_jagers_shot_first_valid_naming_counts_by_pm_or_thread():
    """ON-V4: the jagers shot first valid naming counts by pm or thread."""
    g = hunter_lynched()
    g.decide("night:N1", at=g.phases[-1].start).decide("lynch:D1", at=after_day(g, 0.1))
    g.act("Berber", "shoot", "Kraken", at=after_day(g, -1))  # before the lynch post: not yet
    g.act("Berber", "shoot", "Berber", at=after_day(g, 0.2))  # self: invalid, may name again
    g.act("Berber", "shoot", "Bobdebouwer", at=after_day(g, 0.4), channel="thread")
    g.act("Berber", "shoot", "Kraken", at=after_day(g, 0.6))  # cannot be changed
    run = g.run(now=after_day(g, 1), approve_all=False)
    assert [r.reason for r in run.rejections if r.kind == "shoot"] == ["no_shot_now", "invalid_target",
                                                                      "already_shot"]
    assert all(r.rule == "ON-V4" for r in run.rejections if r.kind == "shoot")
    assert run.state.proposal("shot:D1:Berber").effects[0].player == "Bobdebouwer"
    g.decide("shot:D1:Berber", at=after_day(g, 1.5))
    run = g.run(now=after_day(g, 2), approve_all=False)
    assert dead(run) == {"Berber", "Bobdebouwer"} and run.state.outcome.result == "village"


def test_ON_V4_no_winner_while_the_gm_has_not_approved_the_shot_and_a_refusal_reopens_it():
    """ON-V4: no winner while the gm has not approved the shot and a refusal reopens it."""
    g = hunter_lynched()
    end = g.phases[-1].end
    g.decide("night:N1", at=end - timedelta(hours=70)).decide("lynch:D1", at=end + timedelta(minutes=10))
    g.act("Berber", "shoot", "Kraken", at=end + timedelta(minutes=20))
    run = g.run(now=end + timedelta(minutes=30), approve_all=False)
    assert run.state.proposal("shot:D1:Berber").status == "pending" and run.state.outcome is None
    g.decide("shot:D1:Berber", "reject", at=end + timedelta(minutes=40))
    g.act("Berber", "shoot", "Bobdebouwer", at=end + timedelta(minutes=50))
    g.decide("shot:D1:Berber:2", at=end + timedelta(minutes=55))
    run = g.run(now=end + timedelta(hours=1), approve_all=False)
    assert dead(run) == {"Berber", "Bobdebouwer"} and run.state.outcome.result == "village"


def test_ON_V4_the_gm_is_reminded_after_hunter_hours_and_may_enter_a_seeded_random_shot():
    """ON-V4: the gm is reminded after hunter hours and may enter a seeded random shot."""
    g = hunter_lynched(hunter_hours=6)
    end = g.phases[-1].end
    early = g.run(now=end + timedelta(hours=1))
    assert [t.name for t in early.upcoming if hasattr(t, "name")] == ["hunter_reminder"]
    assert early.upcoming[0].at == end + timedelta(hours=6)
    run = g.run(now=end + timedelta(hours=7))
    assert run.state.x.reminded == ("Berber",)
    assert any(e.kind == "reminder" and e.rule == "ON-V4" for e in run.log)
    g.gm("shoot", "Berber", at=end + timedelta(hours=8))
    a = g.run(now=end + timedelta(hours=9))
    b = g.run(now=end + timedelta(hours=9))
    assert dead(a) == dead(b) and len(dead(a)) == 2 and a.state.outcome is not None


def test_ON_V4_option_a_standing_shot_by_pm_counts():
    """ON-V4: option a standing shot by pm counts."""
    g = hunter_lynched(hunter_preselect=True)
    g.act("Berber", "shoot", "Bobdebouwer", at=g.phases[-1].start + timedelta(hours=1))
    run = g.run()
    assert dead(run) == {"Berber", "Bobdebouwer"} and run.state.outcome.result == "village"


def test_ON_V4_option_a_jager_named_by_a_jager_shoots_in_a_custom_deck():
    """ON-V4: option a jager named by a jager shoots in a custom deck."""
    roles = {"Berber": "hunter", "Bobdebouwer": "hunter", "Kraken": "tanner", "Legioen": "seer",
             "Tetmiera": "werewolf"}
    centre = ("werewolf", "troublemaker", "insomniac")
    run = shoot(hunter_lynched(roles, centre), "Berber", "Bobdebouwer")
    assert dead(run) == {"Berber", "Bobdebouwer"}  # D10: the named Jager does not shoot
    assert run.state.outcome is not None and run.state.outcome.rule == "D5"
    g = hunter_lynched(roles, centre, hunter_chain=True)
    g.act("Berber", "shoot", "Bobdebouwer", at=after_day(g, 1))
    run = shoot(g, "Bobdebouwer", "Tetmiera", hours=2)
    assert dead(run) == {"Berber", "Bobdebouwer", "Tetmiera"}
    assert run.state.outcome.result == "village"


# ====================================================================== wins (ON-W1..ON-W6)


def test_ON_W1_a_village_card_lynched_the_werewolves_win():
    """ON-W1: a village card lynched the werewolves win."""
    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    run = pm_votes(g, ("Berber", "Legioen"), ("Tetmiera", "Legioen")).run()
    assert run.state.outcome.result == "werewolves" and run.state.outcome.rule == "ON-W1"
    assert winners(run) == {"Berber", "Tetmiera"}


def test_ON_W2_a_werewolf_lynched_the_village_side_wins_alive_and_dead():
    """ON-W2: a werewolf lynched the village side wins alive and dead."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "hunter",
             "Tetmiera": "tanner"}
    g = table(roles, ["werewolf", "troublemaker", "insomniac"]).day(1, hours=72)
    run = pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber")).run()
    assert run.state.outcome.result == "village" and run.state.outcome.rule == "ON-W2"
    assert winners(run) == {"Bobdebouwer", "Kraken", "Legioen"}


def test_ON_W3_the_looier_wins_alone_even_with_werewolves_alive():
    """ON-W3: the looier wins alone even with werewolves alive."""
    roles = {"Berber": "tanner", "Bobdebouwer": "werewolf", "Kraken": "seer", "Legioen": "robber",
             "Tetmiera": "werewolf"}
    g = table(roles, ["hunter", "troublemaker", "insomniac"]).day(1, hours=72)
    run = pm_votes(g, ("Kraken", "Berber"), ("Legioen", "Berber")).run()
    assert winners(run) == {"Berber"} and run.state.outcome.factions == ("tanner",)


def test_ON_W4_the_jager_card_decides_nothing_the_named_card_does():
    """ON-W4: the jager card decides nothing the named card does."""
    run = shoot(hunter_lynched(), "Berber", "Tetmiera")  # a Dief
    assert run.state.outcome.result == "werewolves" and winners(run) == {"Bobdebouwer"}
    assert run.state.outcome.rule == "ON-W4"


def test_ON_W5_a_player_dealt_the_seer_who_ends_a_werewolf_wins_with_the_werewolves():
    """ON-W5: a player dealt the seer who ends a werewolf wins with the werewolves."""
    g = table(WOLVES, WOLVES_CENTRE).act("Legioen", "swap", "Bobdebouwer", "Tetmiera").day(1, hours=72)
    run = pm_votes(g, ("Berber", "Kraken"), ("Bobdebouwer", "Kraken")).run()
    assert final(run)["Bobdebouwer"] == "werewolf"
    assert winners(run) == {"Berber", "Bobdebouwer"} and "Tetmiera" not in winners(run)


def test_ON_W6_winners_are_named_alive_or_dead_and_the_final_post_reveals_every_card():
    """ON-W6: winners are named alive or dead and the final post reveals every card."""
    g = table(WOLVES, WOLVES_CENTRE).act("Kraken", "rob", "Berber").day(1, hours=72)
    run = pm_votes(g, ("Bobdebouwer", "Kraken"), ("Legioen", "Kraken")).run()
    assert run.state.outcome.result == "village" and "Berber" in winners(run)  # Berber now holds the Dief
    reveal = {f.get("player"): (f.get("dealt"), f.get("card")) for f in facts(run, "final_card")}
    assert reveal["Kraken"] == ("robber", "werewolf") and reveal["Berber"] == ("werewolf", "robber")
    assert len(reveal) == 5
    assert [(f.get("position"), f.get("card")) for f in facts(run, "centre_card")] == [
        ("links", "tanner"), ("midden", "hunter"), ("rechts", "insomniac")]
    game_over = facts(run, "game_over")[0]
    assert set(game_over.get("winners")) == winners(run)


def test_D15_final_card_says_whether_the_card_moved_from_the_dealt_one():
    """D15, ON-S3: `moved` is true only when the final card is not the dealt one, so the post
    says "dealt X" only for a card that actually changed hands."""
    g = table(WOLVES, WOLVES_CENTRE).act("Kraken", "rob", "Berber").day(1, hours=72)
    run = pm_votes(g, ("Bobdebouwer", "Kraken"), ("Legioen", "Kraken")).run()
    moved = {f.get("player"): f.get("moved") for f in facts(run, "final_card")}
    assert moved["Kraken"] is True and moved["Berber"] is True  # the Dief and the robbed werewolf
    assert {p for p, m in moved.items() if not m} == {"Bobdebouwer", "Legioen", "Tetmiera"}


def test_ON_W6_option_reveal_only_the_killed_and_the_winners():
    """ON-W6: option reveal only the killed and the winners."""
    g = table(WOLVES, WOLVES_CENTRE, reveal="killed_and_winners").day(1, hours=72)
    run = pm_votes(g, ("Bobdebouwer", "Kraken"), ("Legioen", "Kraken")).run()
    assert {f.get("player") for f in facts(run, "final_card")} == {"Kraken", "Berber", "Tetmiera"}
    assert facts(run, "centre_card") == []


def test_ON_N3_the_d1_option_lets_a_lone_werewolf_look_at_one_centre_card():
    """ON-N3 with the D1 option: a werewolf with no partner among the players may look at one
    centre card; off by default, and never for a werewolf who has a partner."""
    roles = {"Berber": "werewolf", "Bobdebouwer": "seer", "Kraken": "robber", "Legioen": "troublemaker",
             "Tetmiera": "insomniac"}
    centre = ["tanner", "werewolf", "hunter"]
    g = table(roles, centre).act("Berber", "check_centre", positions="rechts")
    run = g.day(1, hours=72).run()
    assert ("check_centre", "Berber", "wrong_role") in rejected(run)  # off by default (D1)
    g = table(roles, centre, lone_wolf_peek=True).act("Berber", "check_centre", positions="rechts")
    run = g.day(1, hours=72).run()
    assert result(run, "Berber", "werewolf_peek").params == (("card", "hunter"), ("position", "rechts"))
    g = table(WOLVES, WOLVES_CENTRE, lone_wolf_peek=True).act("Berber", "check_centre", positions="links")
    assert ("check_centre", "Berber", "wrong_role") in rejected(g.day(1, hours=72).run())  # has a partner


def test_a_replay_of_the_same_events_gives_the_same_game():
    g = table(WOLVES, WOLVES_CENTRE).act("Kraken", "rob", "Tetmiera").act("Legioen", "swap", "Berber", "Kraken")
    g.day(1, hours=72)
    pm_votes(g, ("Berber", "Kraken"), ("Bobdebouwer", "Kraken"))
    a, b = g.run(), g.run()
    assert a.state == b.state and a.facts == b.facts and a.private == b.private


def test_options_reject_a_non_positive_hunter_hours():
    with pytest.raises(ConfigError):
        make_ruleset("one-night", {"hunter_hours": 0})


def test_gm_replace_renames_the_seat_in_the_table():
    g = table(WOLVES, WOLVES_CENTRE).gm("replace", "Kraken", "Zed")
    run = g.run(now=g.clock + timedelta(minutes=1))
    assert ("Zed", "robber") in run.state.x.dealt


def test_D11_players_without_a_pm_vote_are_listed_while_the_vote_is_open():
    """ON-V1 / D11: the GM hears who has not voted by PM yet; a thread declaration is not a vote."""
    from forummod.engine.registry import make_ruleset

    g = table(WOLVES, WOLVES_CENTRE).day(1, hours=72)
    pm_votes(g, ("Berber", "Tetmiera"))
    g.vote("Kraken", "Berber", channel="thread")
    run = g.run(now=g.phases[-1].start + timedelta(hours=2))
    rs = make_ruleset("one-night")
    owed = {r.player for r in rs.required_actions(run.state, run.state.phase)}
    assert "Berber" not in owed  # voted by PM
    assert "Kraken" in owed  # only declared in the thread
    assert all(r.rule == "ON-V1" for r in rs.required_actions(run.state, run.state.phase))
