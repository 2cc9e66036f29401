"""Phases from the schedule: clock deadlines in the game's timezone, offsets in elapsed time,
pins by time or post, GM extensions, daylight-saving changes."""

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from forummod.engine.ruleset import Timing
from forummod.engine.schedule import Extension, Pin, build_phases, current_phase, resolve
from forummod.engine.types import PhaseId
from forummod.schema import ClockOrDuration

ROME = ZoneInfo("Europe/Rome")
UTC = timezone.utc


def local(y, m, d, h, mi=0):
    return datetime(y, m, d, h, mi, tzinfo=ROME).astimezone(UTC)


LUPUS_LIKE = Timing(first_phase="night", vote_close="22:00", day_end="22:15", action_deadline="22:30",
                    night_end="09:00")


def test_clock_deadlines_fall_on_the_next_wall_clock_time_in_the_game_timezone():
    phases = build_phases(LUPUS_LIKE, start=local(2026, 12, 1, 21, 0), tz=ROME, now=local(2026, 12, 3, 12))
    n1, d1, n2, d2 = phases[:4]
    assert (n1.id, d1.id, n2.id, d2.id) == (PhaseId(1, "night"), PhaseId(1, "day"), PhaseId(2, "night"),
                                            PhaseId(2, "day"))
    assert n1.action_deadline == local(2026, 12, 1, 22, 30)
    assert n1.end == d1.start == local(2026, 12, 2, 9, 0)
    assert d1.vote_close == local(2026, 12, 2, 22, 0) and d1.end == local(2026, 12, 2, 22, 15)
    assert n2.action_deadline == local(2026, 12, 2, 22, 30)


def test_clock_deadline_follows_the_wall_clock_across_a_daylight_saving_change():
    # Europe/Rome leaves summer time on 2026-10-25 03:00 -> 02:00
    phases = build_phases(LUPUS_LIKE, start=local(2026, 10, 23, 21, 0), tz=ROME, now=local(2026, 10, 27, 12))
    closes = [p.vote_close.astimezone(ROME).strftime("%H:%M") for p in phases if p.kind == "day"]
    assert set(closes) == {"22:00"}
    d = [p for p in phases if p.kind == "day"]
    assert d[1].vote_close - d[0].vote_close == timedelta(hours=25)


def test_offset_deadlines_are_elapsed_time_and_ignore_daylight_saving():
    t = Timing(first_phase="day", vote_close="72h", day_end="72h", action_deadline="24h", night_end="24h")
    start = local(2026, 10, 24, 20, 0)
    [d1, *_] = build_phases(t, start=start, tz=ROME, now=start + timedelta(hours=1))
    assert d1.end - d1.start == timedelta(hours=72)
    assert d1.end.astimezone(ROME).hour == 19  # one hour "earlier" on the clock after the change


def test_pins_by_post_number_fix_phase_boundaries_for_archived_games():
    t = Timing(first_phase="day", vote_close="72h", day_end="72h", action_deadline="24h", night_end="24h")
    posts = {1: datetime(2010, 12, 6, 16, 8, tzinfo=UTC), 80: datetime(2010, 12, 9, 1, 0, tzinfo=UTC),
             95: datetime(2010, 12, 10, 2, 0, tzinfo=UTC)}
    pins = [Pin(PhaseId(1, "day"), start_post=1, end_post=80), Pin(PhaseId(1, "night"), end_post=95)]
    d1, n1, d2 = build_phases(t, start=posts[1], tz=UTC, now=datetime(2010, 12, 10, 3, tzinfo=UTC),
                              pins=pins, post_times=posts)[:3]
    assert d1.start_post == 1 and d1.end_post == 80 and d1.end == posts[80] and d1.vote_close == posts[80]
    assert n1.start == posts[80] and n1.end == posts[95]
    assert d2.start == posts[95]


def test_gm_extension_moves_the_deadline_and_the_end():
    t = Timing(first_phase="day", vote_close="48h", day_end="48h")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    until = start + timedelta(hours=60)
    [d1, *_] = build_phases(t, start=start, tz=UTC, now=start, extensions=[Extension(PhaseId(1, "day"), until)])
    assert d1.vote_close == until and d1.end == until


def test_phases_stop_after_the_first_future_one():
    t = Timing(first_phase="day", vote_close="48h", day_end="48h")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    phases = build_phases(t, start=start, tz=UTC, now=start + timedelta(hours=50))
    assert [p.name for p in phases] == ["D1", "N1", "D2"]
    assert current_phase(phases, start + timedelta(hours=50)).name == "N1"


def test_a_clock_time_equal_to_the_start_means_the_next_day():
    base = local(2026, 12, 1, 22, 0)
    assert resolve(ClockOrDuration.parse("22:00"), base, ROME) == local(2026, 12, 2, 22, 0)


def test_an_offset_is_elapsed_time_even_when_the_start_is_given_in_local_time():
    start = datetime(2026, 10, 24, 20, 0, tzinfo=ROME)  # not converted to UTC by the caller
    end = resolve(ClockOrDuration.parse("72h"), start, ROME)
    assert end - start.astimezone(UTC) == timedelta(hours=72)


def test_a_night_opened_in_the_morning_dawns_the_morning_after_its_deadline():
    phases = build_phases(LUPUS_LIKE, start=local(2026, 12, 1, 8, 0), tz=ROME, now=local(2026, 12, 2, 12))
    n1, d1 = phases[:2]
    assert n1.action_deadline == local(2026, 12, 1, 22, 30)
    assert n1.end == d1.start == local(2026, 12, 2, 9, 0)
