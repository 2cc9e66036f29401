"""The engine words its GM notes, rejection messages and proposal summaries in the game's
language (issue 20, item 1); the machine codes beside them stay English."""

from __future__ import annotations

from forummod.engine.core import run_game
from forummod.i18n import code_text, gm_language, npgettext, pgettext, phase_label

from tests.engine.scenario import Scenario

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROLES = {"Ann": "mafia", "Fay": "mafia", "Bob": "town", "Cat": "cop", "Dan": "doctor", "Eve": "town", "Gus": "town"}


def _hammer_then_late_vote(lang: str):
    g = Scenario("mafia-majority", PLAYERS, ROLES).day(1)
    g.vote("Bob", "Eve").vote("Cat", "Eve").vote("Dan", "Eve").vote("Ann", "Eve")  # 4 of 7: the day ends
    g.vote("Gus", "Bob")  # after the hammer: late
    end = g.phases[-1].end
    return run_game(g.rs, g.setup, tuple(g.phases), list(g.events), now=end, approve_all=True, lang=lang)


def _late(run):
    return next(r for r in run.rejections if r.actor == "Gus")


def test_a_late_vote_in_an_italian_game_gives_an_italian_gm_note_and_rejection_message():
    run = _hammer_then_late_vote("it")
    r = _late(run)
    assert (r.kind, r.reason) == ("vote", "late")  # the codes JSON and the store key on
    assert r.message == "la votazione del Giorno 1 è chiusa"
    notes = [e.text for e in run.log if e.kind == "rejected"]
    assert "voto di Gus su Bob: in ritardo (la votazione del Giorno 1 è chiusa)" in notes
    assert "Ann vota Eve" in [e.text for e in run.log if e.kind == "accepted"]
    assert run.state.proposals[0].summary == "rogo di Eve"


def test_the_english_notes_of_the_same_game_are_todays_text():
    run = _hammer_then_late_vote("en")
    assert _late(run).message == "the vote of D1 is closed"
    assert "vote by Gus on Bob: late (the vote of D1 is closed)" in [e.text for e in run.log]
    assert run.state.proposals[0].summary == "lynch Eve"


def test_a_russian_run_words_its_rejections_in_russian_and_leaves_english_outside_the_run():
    run = _hammer_then_late_vote("ru")
    assert _late(run).message == "голосование фазы День 1 закрыто"
    assert pgettext("gm-note", "%(voter)s votes %(target)s", voter="A", target="B") == "A votes B"


def test_a_missing_translation_falls_back_to_english():
    with gm_language("it"):
        assert pgettext("gm-note", "a sentence no catalog has, %(x)s", x=1) == "a sentence no catalog has, 1"
        assert code_text("an_unknown_code") == "an_unknown_code"
        assert phase_label("setup") == "setup"


def test_russian_plural_forms_follow_the_count():
    forms = {n: npgettext("gm-finding", "%(player)s has not posted since %(since)s (%(last)s; %(n)s post in the "
                          "game): prod after %(limit)s", "%(player)s has not posted since %(since)s (%(last)s; "
                          "%(n)s posts in the game): prod after %(limit)s", n, player="A", since="t", last="l",
                          limit="24h") for n in (1, 2, 5, 21)}
    with gm_language("ru"):
        ru = {n: npgettext("gm-finding", "%(player)s has not posted since %(since)s (%(last)s; %(n)s post in the "
                           "game): prod after %(limit)s", "%(player)s has not posted since %(since)s (%(last)s; "
                           "%(n)s posts in the game): prod after %(limit)s", n, player="A", since="t", last="l",
                           limit="24h") for n in (1, 2, 5, 21)}
    assert "1 пост в игре" in ru[1] and "2 поста в игре" in ru[2] and "5 постов в игре" in ru[5]
    assert "21 пост в игре" in ru[21]
    assert forms[1].endswith("(l; 1 post in the game): prod after 24h") and "5 posts" in forms[5]
