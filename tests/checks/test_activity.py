"""Activity blocks (one-night ON-D2, D12) and their edge cases."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from forummod.checks import run_checks
from forummod.checks.activity import check_activity, phase_blocks
from forummod.engine.types import Death

from tests.checks.helpers import T0, codes, ctx, day, h, night, post

UTC = timezone.utc

P = ["Berber", "Kraken", "Legioen"]


def _all_post(at_hours, who=P):
    return [post(n, h(x)) for x in at_hours for n in who]


def test_ON_X6_posts_at_hours_2_and_50_missed_block_24_48():
    posts = [post("Berber", h(2)), post("Berber", h(50))] + _all_post([1, 30, 60], ["Kraken", "Legioen"])
    found = check_activity(ctx(P, phases=(day(1, T0),), now=h(72), game_posts=posts, ruleset="one-night",
                               activity_blocks=True))
    assert codes(found) == [("activity_missed", "Berber")]
    f = found[0]
    assert f.rule == "ON-D2"
    assert "block 2 of D1 (24–48 h" in f.message
    assert f.at == h(48)
    assert f.key == "activity_missed:D1:1:Berber"


def test_ON_X14_post_exactly_on_boundary_counts_for_the_later_block():
    """The day starts at 20:00; a post at exactly 20:00 the next day is in block 24–48, not 0–24."""
    posts = [post("Berber", h(24))] + _all_post([1, 30], ["Kraken", "Legioen"])
    found = check_activity(ctx(P, phases=(day(1, T0),), now=h(47), game_posts=posts, activity_blocks=True))
    assert codes(found) == [("activity_missed", "Berber")]  # and nobody pending in block 24–48
    assert "block 1 of D1 (0–24 h)" in found[0].message


def test_missed_block_is_reported_the_moment_it_closes_and_listed_as_pending_before():
    posts = _all_post([1], ["Kraken", "Legioen"])
    before = check_activity(ctx(P, phases=(day(1, T0),), now=h(24) - timedelta(seconds=1), game_posts=posts,
                                activity_blocks=True))
    assert codes(before) == [("activity_pending", "Berber")]
    assert before[0].severity == "info"
    assert "ends 2026-03-03 20:00 UTC" in before[0].message
    at_close = check_activity(ctx(P, phases=(day(1, T0),), now=h(24), game_posts=posts, activity_blocks=True))
    assert ("activity_missed", "Berber") in codes(at_close)


def test_pending_lists_everyone_who_has_not_posted_yet_in_the_open_block():
    posts = _all_post([1], P) + [post("Kraken", h(25))]
    found = check_activity(ctx(P, phases=(day(1, T0),), now=h(30), game_posts=posts, activity_blocks=True))
    assert sorted(codes(found)) == [("activity_pending", "Berber"), ("activity_pending", "Legioen")]
    assert all(f.at == h(48) for f in found)


def test_day_shorter_than_a_block_is_one_short_block_checked_when_the_day_ends():
    posts = [post("Kraken", h(6)), post("Legioen", h(11))]
    d = day(1, T0, hours=12)
    during = check_activity(ctx(P, phases=(d,), now=h(10), game_posts=posts, activity_blocks=True))
    assert sorted(codes(during)) == [("activity_pending", "Berber"), ("activity_pending", "Legioen")]
    assert during[0].at == h(12)  # the block ends with the day, not 24 h after its start
    after = check_activity(ctx(P, phases=(d, night(2, h(12))), now=h(13), game_posts=posts, activity_blocks=True))
    assert codes(after) == [("activity_missed", "Berber")]
    assert "cut short by the end of the phase" in after[0].message
    assert "0–12 h" in after[0].message


def test_daylight_saving_change_moves_no_block_boundary():
    """D12: 24 h of elapsed time. The day starts 2026-03-28 20:00 CET; clocks go forward that
    night, so block 1 ends at 21:00 CEST (= 20:00 CET + 24 h), and a post at 20:30 CEST is in it.
    (Adding 24 h to a zoned datetime in Python is wall-clock arithmetic, 20:00 CEST: the trap.)"""
    ams = ZoneInfo("Europe/Amsterdam")
    start = datetime(2026, 3, 28, 20, 0, tzinfo=ams)
    boundary = datetime(2026, 3, 29, 21, 0, tzinfo=ams)
    assert boundary - start.astimezone(UTC) == timedelta(hours=24)
    assert phase_blocks(day(1, start), timedelta(hours=24), boundary)[0].end == boundary
    posts = [post("Berber", datetime(2026, 3, 29, 20, 30, tzinfo=ams))]
    found = check_activity(ctx(["Berber"], phases=(day(1, start),), now=boundary, game_posts=posts,
                               activity_blocks=True, tz="Europe/Amsterdam"))
    assert codes(found) == [("activity_pending", "Berber")]  # block 1 kept, block 2 just began
    on_boundary = [post("Berber", boundary)]  # belongs to block 2
    found = check_activity(ctx(["Berber"], phases=(day(1, start),), now=boundary, game_posts=on_boundary,
                               activity_blocks=True, tz="Europe/Amsterdam"))
    assert codes(found) == [("activity_missed", "Berber")]  # and block 2 is already kept
    assert "2026-03-28 20:00 CET – 2026-03-29 21:00 CEST" in found[0].message


def test_replacement_joining_mid_block_is_not_blamed_and_the_old_player_answers_for_earlier_blocks():
    """Kraken replaced OldKraken at 30 h (mid block 2): block 1 is OldKraken's miss, block 2 nobody's,
    block 3 Kraken's."""
    posts = _all_post([1, 30, 60], ["Berber", "Legioen"])
    c = ctx(P, phases=(day(1, T0),), now=h(72), game_posts=posts, activity_blocks=True,
            replaces={"Kraken": [("OldKraken", h(30))]})
    assert sorted(codes(check_activity(c))) == [("activity_missed", "Kraken"), ("activity_missed", "OldKraken")]
    keys = {f.key for f in check_activity(c)}
    assert keys == {"activity_missed:D1:0:OldKraken", "activity_missed:D1:2:Kraken"}


def test_posts_of_the_replaced_account_count_for_the_seat():
    posts = _all_post([1, 30], ["Berber", "Legioen"]) + [post("OldKraken", h(2)), post("Kraken", h(40))]
    c = ctx(P, phases=(day(1, T0),), now=h(47), game_posts=posts, activity_blocks=True,
            replaces={"Kraken": [("OldKraken", h(10))]})
    assert check_activity(c) == []


def test_dead_player_is_no_longer_required_but_a_block_missed_before_death_stands():
    dead = {"Legioen": Death("D1", "modkill", at=h(30))}
    posts = _all_post([1, 30, 60], ["Berber", "Kraken"])
    found = check_activity(ctx(P, phases=(day(1, T0),), now=h(72), game_posts=posts, dead=dead, activity_blocks=True))
    assert codes(found) == [("activity_missed", "Legioen")]
    assert found[0].key == "activity_missed:D1:0:Legioen"


def test_exempt_players_and_the_gm_are_not_checked():
    posts = _all_post([1], ["Kraken", "GM"])
    found = check_activity(ctx(P, phases=(day(1, T0),), now=h(24), game_posts=posts, activity_blocks=True,
                               exempt=("berber", "Legioen")))
    assert codes(found) == [("activity_pending", "Kraken")]  # block 1 kept; GM's post counts for nobody


def test_blocks_are_off_unless_the_ruleset_or_config_turns_them_on():
    c = ctx(P, phases=(day(1, T0),), now=h(24), game_posts=())
    assert check_activity(c) == []  # mafia-majority: activity_blocks False
    assert check_activity(ctx(P, phases=(day(1, T0),), now=h(24), activity_blocks=False,
                              rs=_OneNightLike())) == []
    assert len(check_activity(ctx(P, phases=(day(1, T0),), now=h(23), rs=_OneNightLike()))) == 3


class _OneNightLike:
    """Stands in for a ruleset whose class default turns blocks on (one-night, ON-D2)."""

    activity_blocks = True


def test_only_configured_phases_and_threads_count():
    phases = (night(1, T0), day(1, h(24)))
    posts = [post("Berber", h(30), thread="2")]
    grave = list(posts)
    c = ctx(["Berber"], phases=phases, now=h(47), graveyard=grave, activity_blocks=True)
    assert [(f.code, f.phase) for f in check_activity(c)] == [("activity_pending", "D1")]
    c = ctx(["Berber"], phases=phases, now=h(47), graveyard=grave, activity_blocks=True,
            block_threads=("game", "graveyard"), block_phases=("day", "night"))
    assert [(f.code, f.phase) for f in check_activity(c)] == [("activity_missed", "N1")]


def test_blocks_after_the_game_ended_are_not_checked():
    from forummod.engine.types import Outcome

    c = ctx(P, phases=(day(1, T0),), now=h(72), activity_blocks=True, game_posts=_all_post([1], P),
            outcome=Outcome("town", ("Berber",), at=h(30)))
    assert check_activity(c) == []


def test_disabled_codes_are_left_out_of_run_checks():
    c = ctx(P, phases=(day(1, T0),), now=h(30), activity_blocks=True, game_posts=_all_post([1], ["Kraken"]),
            disabled=("activity_pending",))
    assert {f.code for f in run_checks(c)} == {"activity_missed"}


def test_a_replacement_known_only_from_a_config_event_is_timed_by_that_event():
    """Archived games replay `replace` events: the engine renames Old to New at 30 h."""
    from dataclasses import replace

    from forummod.config import GmEventConfig

    from tests.checks.helpers import game_cfg

    game = replace(game_cfg(["Old"], activity_blocks=True),
                   events=(GmEventConfig(kind="replace", player="Old", target="New", at=h(30)),))
    c = ctx(["New"], phases=(day(1, T0),), now=h(72), game=game, game_posts=[post("Old", h(1))])
    renamed = replace(c.run.state.players[0], replaced=("Old",))
    c = replace(c, run=replace(c.run, state=replace(c.run.state, players=(renamed,))))
    assert [f.key for f in check_activity(c)] == ["activity_missed:D1:2:New"]
