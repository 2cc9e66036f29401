"""Extraction issues are worded in the game's language (issue 20, item 1): the GM reads
"MP da Anna non capito come azione" in an Italian game, and a saved result is keyed by the
language and by its catalog, so it is never shown in a language it was not worded in."""

from __future__ import annotations

import shutil

from forummod.extract import extract_message, extract_post
from forummod.extract import saved
from forummod.extract.saved import catalog_version, context_fingerprint, decode, encode

from tests.extract.helpers import ctx, message, post, roster

SEATS = roster("Anna", "Bruno", "Carla")


def test_an_unread_pm_of_an_italian_game_is_reported_in_italian():
    ex = extract_message(message("ciao, come stai?"), ctx(SEATS, "it", "lupus-eresia"))
    assert [(i.code, i.message) for i in ex.issues] == [
        ("unparsed_action", "MP da Anna non capito come azione: “ciao, come stai?”")]


def test_an_unknown_name_in_an_italian_vote_is_reported_in_italian():
    ex = extract_post(post("<b>voto Zorro</b>"), ctx(SEATS, "it", "lupus-eresia"))
    assert [(i.code, i.message) for i in ex.issues] == [
        ("unknown_name", "“Zorro” non è un giocatore di questa partita: non contato: “voto Zorro”")]


def test_a_non_player_vote_of_an_italian_game_is_reported_in_italian():
    ex = extract_post(post("<b>voto Bruno</b>", author="Zed"), ctx(SEATS, "it", "lupus-eresia"))
    assert [i.message for i in ex.issues] == ["Zed non è un giocatore di questa partita: “voto Bruno”"]


def test_a_russian_game_counts_its_multiple_votes_with_the_russian_plural():
    seats = roster("Anna", "Борис", "Вера", "Глеб")
    ex = extract_post(post("<b>голос Борис</b> <b>голос Вера</b> <b>голос Глеб</b>"),
                      ctx(seats, "ru", "mafia-majority"))
    multiple = [i.message for i in ex.issues if i.code == "multiple_votes"]
    assert multiple == ["Anna подал 3 голоса в одном посте; засчитан последний: Борис, Вера, Глеб"]


def test_the_english_issue_texts_are_unchanged():
    ex = extract_message(message("hello there"), ctx(SEATS, "en", "mafia-majority"))
    assert [i.message for i in ex.issues] == ["PM from Anna not understood as an action: “hello there”"]
    ex = extract_post(post("<b>vote Zorro</b>"), ctx(SEATS))
    assert [i.message for i in ex.issues] == ["“Zorro” is not a player of this game: not counted: “vote Zorro”"]


def test_a_saved_issue_keeps_its_wording_and_the_key_names_the_language():
    it = ctx(SEATS, "it", "lupus-eresia")
    ex = extract_message(message("ciao"), it)
    assert decode(encode(ex)) == ex
    assert context_fingerprint(it) == context_fingerprint(ctx(SEATS, "it", "lupus-eresia"))
    assert context_fingerprint(it) != context_fingerprint(ctx(SEATS, "en", "lupus-eresia"))


def test_an_edited_catalog_changes_the_key_of_the_saved_results(tmp_path, monkeypatch):
    locale = tmp_path / "locale"
    shutil.copytree(saved._LOCALE_DIR / "it", locale / "it")
    monkeypatch.setattr(saved, "_LOCALE_DIR", locale)
    it = ctx(SEATS, "it", "lupus-eresia")
    before = context_fingerprint(it)
    assert catalog_version("en") == ""
    po = locale / "it" / "LC_MESSAGES" / "forummod.po"
    po.write_text(po.read_text(encoding="utf-8").replace("non capito come azione", "non letto come azione"),
                  encoding="utf-8")
    assert context_fingerprint(it) != before
