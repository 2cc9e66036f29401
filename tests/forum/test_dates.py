"""Forum date strings to aware UTC, with relative words resolved against an injected `now`."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.forum.dates import DateNotUnderstood, parse_attr_value, parse_forum_date

NOW = datetime(2024, 3, 2, 9, 0, tzinfo=timezone.utc)
ROME = ZoneInfo("Europe/Rome")


@pytest.mark.parametrize("text,order,expected_local", [
    ("Today, 10:32", "DMY", "2024-03-02 10:32"),
    ("Yesterday, 18:05", "DMY", "2024-03-01 18:05"),
    ("Oggi alle 14:05", "DMY", "2024-03-02 14:05"),
    ("Ieri, 23:59", "DMY", "2024-03-01 23:59"),
    ("Сегодня в 12:00", "DMY", "2024-03-02 12:00"),
    ("Вчера, 08:30", "DMY", "2024-03-01 08:30"),
    ("Vandaag om 09:15", "DMY", "2024-03-02 09:15"),
    ("Gisteren 21:00", "DMY", "2024-03-01 21:00"),
    ("今天 20:15", "DMY", "2024-03-02 20:15"),
    ("昨天 22:10", "DMY", "2024-03-01 22:10"),
    ("Sun Jul 28, 2013 1:34 pm", "DMY", "2013-07-28 13:34"),
    ("martedì 21 gennaio 2020, 14:24", "DMY", "2020-01-21 14:24"),
    ("Lun 8 Jan 2018 18:17", "DMY", "2018-01-08 18:17"),
    ("04-06-2019, 06:55 AM", "MDY", "2019-04-06 06:55"),
    ("10/05/2006, 13h16", "DMY", "2006-05-10 13:16"),
    ("08.11.2009, 16:07", "MDY", "2009-11-08 16:07"),  # dotted dates are day-first everywhere
    ("« Reply #1 on: September 19, 2007, 02:16:51 PM »", "MDY", "2007-09-19 14:16"),
    ("March 1, 2024, noon", "MDY", "2024-03-01 12:00"),
    ("March 1, 2024, 1 p.m.", "MDY", "2024-03-01 13:00"),
    ("2024-3-1 20:15", "YMD", "2024-03-01 20:15"),
    ("2024年3月1日 20:15", "YMD", "2024-03-01 20:15"),
    ("5. Januar 2019 um 20:38", "DMY", "2019-01-05 20:38"),
    ("15 мая 2020 в 14:05", "DMY", "2020-05-15 14:05"),
])
def test_forum_dates_in_forum_local_time(text, order, expected_local):
    dt = parse_forum_date(text, tz=ROME, now=NOW, order=order)
    assert dt.tzinfo is not None and dt.utcoffset().total_seconds() == 0
    assert dt.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == expected_local


def test_relative_dates_follow_the_injected_now():
    later = datetime(2025, 1, 1, 12, 0, tzinfo=timezone.utc)
    assert parse_forum_date("Oggi, 10:00", tz=ROME, now=later, order="DMY").date().isoformat() == "2025-01-01"


def test_attributes_are_iso_or_unix():
    assert parse_attr_value("1587586723", ROME) == datetime(2020, 4, 22, 20, 18, 43, tzinfo=timezone.utc)
    assert parse_attr_value("2020-04-22T22:18:43+0200", ROME) == datetime(2020, 4, 22, 20, 18, 43, tzinfo=timezone.utc)
    assert parse_attr_value("2024-03-01 12:00:00", ROME) == datetime(2024, 3, 1, 11, 0, tzinfo=timezone.utc)


def test_garbage_is_not_a_date():
    with pytest.raises(DateNotUnderstood):
        parse_forum_date("no date here at all", tz=ROME, now=NOW, allow_dateparser=False)


def test_naive_now_is_refused():
    with pytest.raises(ValueError):
        parse_forum_date("Today, 10:00", tz=ROME, now=datetime(2024, 1, 1))
