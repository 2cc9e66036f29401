"""Golden posts of lupus-eresia, witch-hunt and one-night, rendered from real engine runs.

Per ruleset: the dawn post, the end-of-day post and a night-result PM, in the ruleset's own
language and in English, both markups (`tests/render/ruleset_games.py` plays the games).
Regenerate after a deliberate phrase or template change with `FORUMMOD_UPDATE_GOLDEN=1`, then
read every changed file: it is what the GM would post.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forummod.render import MARKUPS, build, phrasebook_for, render_post

from tests.render import ruleset_games as games

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("FORUMMOD_UPDATE_GOLDEN") == "1"


def _pm(g, phase: str, player: str):
    def make(pb):
        gv = games.view(g)
        [pm] = [p for p in build.build_night_results(gv, pb, phase) if p.player == player]
        return pm
    return make


def _day_start(g, day: str):
    def make(pb):
        return build.build_day_start(games.view(g, games.start_of(g, day)), pb, day)
    return make


def _day_end(g, day: str):
    def make(pb):
        return build.build_day_end(games.view(g), pb, day)
    return make


LUPUS, WITCH, ONE_NIGHT = games.lupus(), games.witch_hunt(), games.one_night()

#: (ruleset, case, kind, builder, languages): the game's own language first, then English.
CASES = (
    ("lupus-eresia", "day_start", "day_start", _day_start(LUPUS, "D2"), ("it", "en")),
    ("lupus-eresia", "day_end", "day_end", _day_end(LUPUS, "D1"), ("it", "en")),
    ("lupus-eresia", "night_result", "night_result", _pm(LUPUS, "N1", "Vito"), ("it", "en")),
    ("witch-hunt", "day_start", "day_start", _day_start(WITCH, "D1"), ("ru", "en")),
    ("witch-hunt", "day_end", "day_end", _day_end(WITCH, "D1"), ("ru", "en")),
    ("witch-hunt", "night_result", "night_result", _pm(WITCH, "N1", "Дарья"), ("ru", "en")),
    ("witch-hunt", "night_result_converted", "night_result", _pm(WITCH, "N1", "Жанна"), ("ru", "en")),
    ("one-night", "day_start", "day_start", _day_start(ONE_NIGHT, "D1"), ("nl", "en")),
    ("one-night", "day_end", "day_end", _day_end(ONE_NIGHT, "D1"), ("nl", "en")),
    ("one-night", "night_result", "night_result", _pm(ONE_NIGHT, "N1", "Berber"), ("nl", "en")),
)

PARAMS = [pytest.param(rs, case, kind, make, lang, markup, id=f"{rs}.{case}.{markup}.{lang}")
          for rs, case, kind, make, langs in CASES for lang in langs for markup in MARKUPS]


@pytest.mark.parametrize("ruleset,case,kind,make,lang,markup", PARAMS)
def test_ruleset_post_matches_golden_file(ruleset, case, kind, make, lang, markup):
    pb = phrasebook_for(lang, ruleset, markup)
    post = make(pb)
    assert post is not None, f"{ruleset} {case}: the game produced no {kind} post"
    text = render_post(kind, post, markup, lang)
    assert "⟨" not in text, f"a fact has no phrase: {text}"
    path = GOLDEN / f"{ruleset}_{case}.{markup}.{lang}.txt"  # <case>.<markup>.<lang>, as test_golden reads it
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with FORUMMOD_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8")


def test_the_games_produce_the_facts_the_golden_posts_show():
    """The scenarios still exercise what the golden files are meant to show."""
    keys = {rs: {f.key for _, f in games.view(g).run.facts} | {r.fact.key for _, r in games.view(g).run.private}
            for rs, g in (("lupus-eresia", LUPUS), ("witch-hunt", WITCH), ("one-night", ONE_NIGHT))}
    assert {"lynched", "death", "delivered_result", "visitors", "seer_result"} <= keys["lupus-eresia"]
    assert {"converted", "healed", "revote", "revote_open", "lynched", "gossip_result", "coven_members"} \
        <= keys["witch-hunt"]
    assert {"day_begins", "lynched", "hunter_must_shoot", "hunter_shot", "final_card", "centre_card",
            "seer_centre", "role_card"} <= keys["one-night"]
