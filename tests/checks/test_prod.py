"""Post counts and the prod list."""

from __future__ import annotations

from datetime import timedelta

from forummod.checks import post_counts, prod_list
from forummod.checks.prod import check_prod
from forummod.engine.types import Death
from forummod.schema import Duration

from tests.checks.helpers import T0, ctx, day, h, night, post

P = ["Aldo", "Bea", "Ciro"]
PHASES = (day(1, T0, hours=48), night(1, h(48)), day(2, h(72), hours=None))


def test_post_counts_per_phase_and_game_with_the_last_post():
    posts = [post("Aldo", h(1)), post("Aldo", h(80)), post("Bea", h(2)), post("GM", h(3))]
    counts = {c.player: c for c in post_counts(ctx(P, phases=PHASES, now=h(90), game_posts=posts))}
    assert (counts["Aldo"].posts_phase, counts["Aldo"].posts_game) == (1, 2)
    assert counts["Aldo"].last_post_at == h(80)
    assert counts["Aldo"].last_post is not None and counts["Aldo"].last_post.url
    assert (counts["Bea"].posts_phase, counts["Bea"].posts_game) == (0, 1)
    assert counts["Ciro"].last_post_at is None and counts["Ciro"].silent_since == T0


def test_posts_after_now_are_not_counted():
    posts = [post("Aldo", h(1)), post("Aldo", h(100))]
    counts = {c.player: c for c in post_counts(ctx(P, phases=PHASES, now=h(90), game_posts=posts))}
    assert counts["Aldo"].posts_game == 1


def test_prod_list_holds_living_players_silent_longer_than_prod_after_longest_first():
    posts = [post("Aldo", h(80)), post("Bea", h(10)), post("Ciro", h(30))]
    c = ctx(P, phases=PHASES, now=h(90), game_posts=posts, prod_after=Duration(48 * 3600))
    assert [p.player for p in prod_list(c)] == ["Bea", "Ciro"]
    dead = ctx(P, phases=PHASES, now=h(90), game_posts=posts, dead={"Bea": Death("N1", "mafia", at=h(60))})
    assert [p.player for p in prod_list(dead)] == ["Ciro"]


def test_prod_finding_is_keyed_by_the_start_of_the_silence_and_stable_while_silent():
    posts = [post("Aldo", h(80)), post("Bea", h(10)), post("Ciro", h(85))]
    first = check_prod(ctx(P, phases=PHASES, now=h(90), game_posts=posts))
    later = check_prod(ctx(P, phases=PHASES, now=h(100), game_posts=posts))
    assert [f.key for f in first] == [f"prod:Bea:{h(10).isoformat()}"]
    assert first == later  # same key and same message: reported once
    assert first[0].at == h(10) and first[0].severity == "info"  # silent since


def test_prod_list_only_in_configured_phases_and_not_for_exempt_players():
    posts = [post("Aldo", h(1))]
    in_night = ctx(P, phases=PHASES, now=h(60), game_posts=posts)
    assert prod_list(in_night) == ()
    assert [p.player for p in prod_list(ctx(P, phases=PHASES, now=h(60), game_posts=posts,
                                            prod_phases=("day", "night"), exempt=("Bea",)))] == ["Ciro", "Aldo"]


def test_a_replacement_is_silent_from_when_they_joined():
    posts = [post("OldBea", h(1))]
    c = ctx(P, phases=PHASES, now=h(90), game_posts=posts, replaces={"Bea": [("OldBea", h(70))]})
    counts = {x.player: x for x in post_counts(c)}
    assert counts["Bea"].posts_game == 1  # the seat's posts, by either account
    assert counts["Bea"].silent_since == h(70)
    assert "Bea" not in [p.player for p in prod_list(c)]
    assert "Bea" in [p.player for p in prod_list(ctx(P, phases=PHASES, now=h(70) + timedelta(hours=48),
                                                     game_posts=posts, replaces={"Bea": [("OldBea", h(70))]}))]
