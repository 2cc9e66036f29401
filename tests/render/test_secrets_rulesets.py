"""Secrets of lupus-eresia, witch-hunt and one-night stay secret in every language and markup.

Public drafts name only the roles the rules have revealed (a dead player's, LUP D5); the
lupus dawn after a protected kill says nobody died and names nobody (D8); witch-hunt dawns
never name the healed player (D5), the converted one (WH-C4), the recruitment target (WH-C9)
or the soul saved by prayer (WH-I4); one-night shows no card before the lynch. Private
results are written to their recipient ("you"), never about them in the third person.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from forummod.engine.catalog import ROLES
from forummod.engine.types import Fact
from forummod.render import LANGUAGES, MARKUPS, build, phrasebook_for, plan_drafts, render_post

from tests.engine.scenario import Scenario
from tests.render import ruleset_games as games

# ------------------------------------------------------------------ lupus-eresia


def lupus_mid_game(**options) -> Scenario:
    """D1 lynches the Contadino Dora (the Boia votes her in public, a wolf in secret); N2 the
    Twins protect the wolves' victim Zeno; D2 is under way."""
    g = Scenario("lupus-eresia", list(games.LUPUS_ROLES), games.LUPUS_ROLES, options=options)
    g.night(1).act("Aldo", "check", "Gina").act("Lia", "deliver", "Vito").act("Ugo", "check", "Bianca")
    g.day(1)
    for voter in ("Aldo", "Bianca", "Fede", "Gina", "Elio"):
        g.vote(voter, "Dora")
    g.act("Elio", "secret_vote", "Fede")  # real tally: Dora 4, Fede 3 (the Boia's x3), Gina 2
    for voter in ("Dora", "Carlo"):
        g.vote(voter, "Gina")
    g.night(2).act("Fede", "kill", "Zeno").act("Bianca", "protect", "Zeno").act("Aldo", "check", "Vito")
    g.day(2, hours=48).vote("Carlo", "Fede")
    return g


def thread_texts(gv, ruleset: str, lang: str, markup: str) -> list[str]:
    pb = phrasebook_for(lang, ruleset, markup)
    drafts = [d for d in plan_drafts(gv, pb) if d.target == "thread"]
    assert {"day_start", "votecount"} <= {d.kind for d in drafts}
    return [render_post(d.kind, d.post, markup, lang) for d in drafts]


def _mid_d2(g: Scenario):
    return games.view(g, games.start_of(g, "D2", hours=30))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_lupus_public_drafts_name_only_the_dead_players_roles(lang, markup):
    g = lupus_mid_game()
    texts = thread_texts(_mid_d2(g), "lupus-eresia", lang, markup)
    pb = phrasebook_for(lang, "lupus-eresia", "plain")
    hidden = {pb.role(r) for r in ROLES["lupus-eresia"] if r != "farmer"}  # only Dora (farmer) died
    for text in texts:
        assert not [w for w in hidden if w in text], text
        assert "⟨" not in text, text
    assert any(pb.role("farmer") in t for t in texts)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_lupus_without_reveals_public_drafts_name_no_role_and_no_faction(lang, markup):
    g = lupus_mid_game(reveal_roles=False)
    pb = phrasebook_for(lang, "lupus-eresia", "plain")
    words = {pb.role(r) for r in ROLES["lupus-eresia"]}
    words |= {pb.faction(f) for f in ("VILLAGGIO/ERESIA", "VILLAGGIO/INQUISIZIONE", "BRANCO", "SOLITARIO")}
    for text in thread_texts(_mid_d2(g), "lupus-eresia", lang, markup):
        assert not [w for w in words if w in text], text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lupus_the_templar_is_not_named_when_roles_stay_hidden(lang):
    """The heretic the Templare takes along dies without a word about the Templare (D5 off)."""
    g = games.lupus(reveal_roles=False)
    pb = phrasebook_for(lang, "lupus-eresia", "plain")
    post = build.build_day_end(games.view(g), pb, "D1")
    text = " ".join(str(s) for s in post.announcements)
    assert "Bianca" in text and "Teo" in text
    assert pb.role("templar") not in text and pb.role("twin_guard") not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lupus_a_saved_victim_leaves_a_dawn_that_names_nobody(lang):
    """D8: the Twins' protection shows only as a night without victims."""
    g = lupus_mid_game()
    pb = phrasebook_for(lang, "lupus-eresia", "plain")
    post = build.build_day_start(_mid_d2(g), pb, "D2")
    assert post.nobody_died and list(post.announcements) == [pb.fact(Fact.of("nobody_died"))]
    text = " ".join(str(s) for s in post.announcements)
    assert not [n for n in games.LUPUS_ROLES if n in text], text


def test_lupus_closed_day_counts_keep_the_boia_s_void_public_vote():
    """D11: thread counts list public votes as posted, the Boia's void one included, also once
    the rogo has closed (the end-of-day post and the final count)."""
    g = lupus_mid_game()
    gv = _mid_d2(g)
    pb = phrasebook_for("it", "lupus-eresia", "plain")
    live = build.build_votecount(games.view(g, games.start_of(g, "D1", hours=11)), pb, "D1")
    assert [(w.name, w.count) for w in live.wagons][0] == ("Dora", "5")  # while open: Elio's vote shows
    closed = build.build_votecount(gv, pb, "D1")
    day_end = build.build_day_end(gv, pb, "D1")
    assert "Elio" not in closed.not_voting
    assert [(w.name, w.count) for w in day_end.wagons][0] == ("Dora", "5")


# ------------------------------------------------------------------ witch-hunt


def witch_night(*acts: tuple[str, str, str], **options) -> Scenario:
    g = Scenario("witch-hunt", list(games.WITCH_ROLES), games.WITCH_ROLES,
                 options={"first_recruiter": "Анна", **options})
    g.night(1, hours=24)
    for actor, action, target in acts:
        g.act(actor, action, target)
    g.day(1, hours=48)
    return g


WITCH_NIGHTS = {
    # healed Egor (D5), converted Zhanna (WH-C4), prayed-for Zoya (WH-I3)
    "heal_and_convert": ((("Анна", "kill", "Егор"), ("Борис", "kill", "Егор"), ("Анна", "recruit", "Жанна"),
                          ("Вера", "heal", "Егор"), ("Глеб", "pray", "Зоя")), {"Егор", "Жанна", "Зоя"}),
    # the recruiter meets the prayer (WH-I4): Zoya is saved, her name stays with Anna and Gleb
    "soul_saved": ((("Анна", "recruit", "Зоя"), ("Глеб", "pray", "Зоя")), {"Зоя"}),
    # recruiting the Inquisitor fails (WH-C6); the target stays hidden from the coven (WH-C9)
    "recruit_failed": ((("Анна", "recruit", "Глеб"), ("Глеб", "pray", "Илья")), {"Глеб", "Илья"}),
}


@pytest.mark.parametrize("night", sorted(WITCH_NIGHTS))
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_witch_hunt_dawn_names_nobody_the_rules_keep_secret(night, lang, markup):
    acts, secret = WITCH_NIGHTS[night]
    g = witch_night(*acts)
    gv = games.view(g, games.start_of(g, "D1"))
    pb = phrasebook_for(lang, "witch-hunt", markup)
    post = build.build_day_start(gv, pb, "D1")
    announced = "\n".join(str(s) for s in post.announcements)
    assert announced and "⟨" not in announced
    assert not [n for n in secret if n in announced], announced
    assert not post.deaths  # nobody died: no role is revealed


@pytest.mark.parametrize("night", ["soul_saved", "recruit_failed"])
def test_witch_hunt_the_rest_of_the_coven_never_learns_a_failed_target(night):
    acts, secret = WITCH_NIGHTS[night]
    run = games.view(witch_night(*acts), None).run
    to_boris = [r for _, r in run.private if r.to == "Борис"]
    for lang in LANGUAGES:
        pb = phrasebook_for(lang, "witch-hunt", "plain")
        assert not [r for r in to_boris if any(n in str(pb.fact(r.fact)) for n in secret)]


# ------------------------------------------------------------------ one-night


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_one_night_shows_no_card_in_the_thread_before_the_lynch(lang, markup):
    g = games.one_night()
    texts = thread_texts(games.view(g, games.start_of(g, "D1", hours=30)), "one-night", lang, markup)
    pb = phrasebook_for(lang, "one-night", "plain")
    cards = {pb.role(r) for r in ROLES["one-night"]}
    for text in texts:
        assert not [c for c in cards if c in text], text


# ------------------------------------------------------------------ private results


def _private_results():
    lupus_g, witch_g = games.lupus(), games.witch_hunt()
    yield "lupus-eresia", games.view(lupus_g).run.private
    yield "lupus-eresia", games.view(lupus_mid_game()).run.private
    yield "witch-hunt", games.view(witch_g).run.private
    yield "one-night", games.view(games.one_night()).run.private


@pytest.mark.parametrize("lang", LANGUAGES)
def test_private_results_speak_to_their_recipient(lang):
    """A PM's sentences say "you": the recipient's own name never appears in them."""
    seen = 0
    for ruleset, private in _private_results():
        pb = phrasebook_for(lang, ruleset, "plain")
        for _, r in private:
            text = str(pb.fact(r.fact))
            assert text and "⟨" not in text, (ruleset, r)
            assert r.to not in text, (ruleset, r.fact.key, text)
            seen += 1
    assert seen >= 20
