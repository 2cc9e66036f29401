"""Findings come out in the game's language (`games.<id>.language`, else the ruleset's), with
the same codes and keys as in English (issue 20, item 1)."""

from __future__ import annotations

from dataclasses import replace

from forummod.checks import run_checks
from forummod.engine.types import Death

from tests.checks.helpers import T0, ctx, day, game_cfg, h, post

P = ["Berber", "Kraken", "Legioen"]
D1 = day(1, T0, hours=24)


def _in(lang: str, names, **kw):
    """A check context whose game is configured in `lang`."""
    return ctx(names, game=replace(game_cfg(names, **{k: v for k, v in kw.items() if k == "activity_blocks"}),
                                   language=lang), **{k: v for k, v in kw.items() if k != "activity_blocks"})


def _missed_block(lang: str):
    posts = [post(n, h(1)) for n in ("Kraken", "Legioen")]
    found = run_checks(_in(lang, P, phases=(day(1, T0),), now=h(24), game_posts=posts, activity_blocks=True))
    return next(f for f in found if f.code == "activity_missed")


def test_ON_D2_a_missed_activity_block_in_a_russian_game_is_worded_in_russian():
    f = _missed_block("ru")
    assert (f.code, f.key, f.player) == ("activity_missed", "activity_missed:D1:0:Berber", "Berber")
    assert f.message == ("Berber не писал в игровой теме во время: блок 1 фазы День 1 (0–24 ч): "
                         "2026-03-02 20:00 UTC – 2026-03-03 20:00 UTC")


def test_the_english_activity_finding_is_todays_text():
    assert _missed_block("en").message == ("Berber did not post in the game thread during block 1 of D1 (0–24 h): "
                                           "2026-03-02 20:00 UTC – 2026-03-03 20:00 UTC")


def test_a_dead_players_post_in_a_chinese_game_is_worded_in_chinese():
    dead = {"Aldo": Death("D1", "lynch", at=h(2))}
    names = ["Aldo", "Bea", "Ciro"]
    found = run_checks(_in("zh", names, phases=(D1,), now=h(5), game_posts=[post("Aldo", h(3), number=7)],
                           dead=dead))
    f = next(f for f in found if f.code == "dead_post")
    assert f.message == ("Aldo 已出局（放逐，第1天，2026-03-02 22:00 UTC），却在游戏帖发言（第 7 楼，"
                         "2026-03-02 23:00 UTC）")


def test_a_game_without_a_language_takes_the_rulesets_language():
    names = ["Aldo", "Bea", "Ciro"]
    c = ctx(names, phases=(D1,), now=h(5), game_posts=[post("Aldo", h(3), number=7)],
            dead={"Aldo": Death("D1", "lynch", at=h(2))})
    assert c.game.language == "" and c.ruleset.language == "en"
    f = next(f for f in run_checks(c) if f.code == "dead_post")
    assert f.message.startswith("Aldo is dead (lynch in D1, 2026-03-02 22:00 UTC) but posted in the game thread")
