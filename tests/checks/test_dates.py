"""Issue 16: a guessed date never decides a deadline. A post whose date the page did not show can
have been written any time between its dated neighbours; a deadline in that span is a GM finding."""

from __future__ import annotations

from dataclasses import replace

from forummod.checks import run_checks
from forummod.checks.dates import check_guessed_dates
from forummod.model import PostVersion

from tests.checks.helpers import T0, ctx, day, h, post

P = ["Ann", "Bob", "Cat"]


def guessed(p):
    return replace(p, versions=tuple(PostVersion(v.version, v.html, v.content_hash, v.fetched_at, date_guessed=True)
                                     for v in p.versions))


def test_a_vote_close_between_a_guessed_posts_neighbours_is_a_gm_finding_naming_the_post():
    posts = [post("Ann", h(1), pid="1"), guessed(post("Bob", h(1), pid="2")), post("Cat", h(3), pid="3")]
    found = check_guessed_dates(ctx(P, phases=(day(1, T0, hours=4, vote_close=h(2)),), now=h(5), game_posts=posts))
    [f] = found
    assert (f.code, f.key, f.player, f.at, f.phase, f.severity) == \
        ("date_guessed_deadline", "date_guessed_deadline:2", "Bob", h(2), "D1", "warning")
    assert f.source.number == 2 and "its date was guessed" in f.message and "the vote close of D1" in f.message


def test_a_guessed_post_with_no_deadline_in_its_span_is_shown_as_information():
    posts = [post("Ann", h(1), pid="1"), guessed(post("Bob", h(1), pid="2")), post("Cat", h(1.5), pid="3")]
    [f] = check_guessed_dates(ctx(P, phases=(day(1, T0, hours=4, vote_close=h(2)),), now=h(5), game_posts=posts))
    assert f.code == "date_guessed" and f.severity == "info" and "no deadline falls" in f.message


def test_the_last_post_guessed_is_bounded_by_now_and_a_first_post_guessed_only_by_the_next():
    # post 1 has nothing dated before it: the phase start at T0 lies in (-inf, 1h]; it is no deadline
    # post 3 was read at `now`: the vote close at 2h lies in (1h, now]
    posts = [guessed(post("Ann", h(1), pid="1")), post("Bob", h(1), pid="2"), guessed(post("Cat", h(1), pid="3"))]
    found = check_guessed_dates(ctx(P, phases=(day(1, T0, hours=4, vote_close=h(2)),), now=h(3), game_posts=posts))
    assert [(f.key, f.code) for f in found] == [("date_guessed:1", "date_guessed"),
                                                ("date_guessed_deadline:3", "date_guessed_deadline")]


def test_an_activity_block_boundary_in_the_span_is_a_finding_when_blocks_are_checked():
    # ON-D2: whether Bob posted in block 1 or block 2 of D1 depends on the guessed date
    posts = [post("Ann", h(23), pid="1"), guessed(post("Bob", h(23), pid="2")), post("Cat", h(25), pid="3")]
    c = ctx(P, phases=(day(1, T0, hours=72),), now=h(30), game_posts=posts, ruleset="one-night",
            activity_blocks=True)
    found = [f for f in run_checks(c) if f.code.startswith("date_guessed")]
    assert [f.code for f in found] == ["date_guessed_deadline"] and "block 1 of D1" in found[0].message


def test_no_guessed_post_no_finding():
    posts = [post("Ann", h(1), pid="1"), post("Bob", h(3), pid="2")]
    assert check_guessed_dates(ctx(P, phases=(day(1, T0, hours=4, vote_close=h(2)),), now=h(5),
                                   game_posts=posts)) == []
