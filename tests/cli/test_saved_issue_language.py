"""A game's saved extraction results are worded in its language (issue 20, item 1): a second
analysis in the same language reuses them; after the GM switches the game's language, every
post and PM is read again and the issues come out in the new language."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from forummod.cli import main
from forummod.service import Workspace, analyse_game

from tests.example_game import write_example_game

ROME = ZoneInfo("Europe/Rome")
PLAYERS = [{"name": n, "role": r} for n, r in (("Aldo", "werewolf"), ("Bianca", "werewolf"), ("Carlo", "seer"),
                                              ("Dario", "farmer"), ("Elena", "farmer"), ("Fabio", "farmer"))]
POSTS = [("Narratore", "Notte 1", datetime(2026, 12, 1, 21, 0, tzinfo=ROME)),
         ("Narratore", "Giorno 1", datetime(2026, 12, 2, 9, 1, tzinfo=ROME)),
         ("Carlo", "[b]vote Zorro[/b]", datetime(2026, 12, 2, 10, 0, tzinfo=ROME))]
PMS = [("Dario", "ciao, come stai?", datetime(2026, 12, 1, 22, 0, tzinfo=ROME))]
NOW = datetime(2026, 12, 2, 12, 0, tzinfo=ROME)


def _write(tmp_path, lang: str):
    return write_example_game(tmp_path, "lupus", PLAYERS, posts=POSTS, messages=PMS, extra={"language": lang})


def _analyse(cfg):
    ws = Workspace.open(cfg)
    try:
        a = analyse_game(ws, "lupus", now=NOW)
    finally:
        ws.store.close()
    return a, {i.code: i.message for i in a.extraction_issues if i.code in ("unparsed_action", "unknown_name")}


def test_saved_issues_are_reused_in_the_same_language_and_reworded_when_it_changes(tmp_path, capsys):
    cfg = _write(tmp_path, "it")
    assert main(["poll", "--config", str(cfg)]) == 0
    first, issues = _analyse(cfg)
    assert issues == {"unparsed_action": "MP da Dario non capito come azione: “ciao, come stai?”",
                      "unknown_name": "“Zorro” non è un giocatore di questa partita: non contato: “vote Zorro”"}
    assert first.fresh  # read and saved

    again, issues_again = _analyse(cfg)
    assert again.fresh == {} and issues_again == issues  # reused: nothing read again

    _write(tmp_path, "en")  # the GM switches the game to English
    english, issues_en = _analyse(cfg)
    assert set(english.fresh) == set(first.fresh)  # every post and PM read again
    assert issues_en == {"unparsed_action": "PM from Dario not understood as an action: “ciao, come stai?”",
                         "unknown_name": "“Zorro” is not a player of this game: not counted: “vote Zorro”"}
