"""A played example game shows its GM notes and findings in the game's language and never an
engine event's class name (issue 20, item 1): the lupus example of config.example.toml, with
late votes and a night resolution waiting for the GM, played in Italian and in English."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from forummod.check_store import check_context
from forummod.checks import run_checks
from forummod.cli import main
from forummod.service import Workspace, analyse_game

from tests.example_game import write_example_game

ROME = ZoneInfo("Europe/Rome")
EVENT_NAMES = re.compile(r"\b(PhaseStart|PhaseEnd|VoteClose|ActionDeadline|PhaseControl|Timer|VoteEvent|"
                         r"UnvoteEvent|ActionEvent|Decision|Override)\b")
PLAYERS = [{"name": n, "role": r} for n, r in (("Aldo", "werewolf"), ("Bianca", "werewolf"), ("Carlo", "seer"),
                                              ("Dario", "farmer"), ("Elena", "farmer"), ("Fabio", "farmer"))]


def _at(d: int, hhmm: str) -> datetime:
    h, m = map(int, hhmm.split(":"))
    return datetime(2026, 12, d, h, m, tzinfo=ROME)


def _play(tmp_path, lang: str):
    vote = "voto" if lang == "it" else "vote"  # the players write in the game's language
    posts = [("Narratore", "Notte 1", _at(1, "21:00")), ("Narratore", "Giorno 1", _at(2, "09:01")),
             ("Carlo", f"[b]{vote} Aldo[/b]", _at(2, "10:00")), ("Dario", f"[b]{vote} Aldo[/b]", _at(2, "11:00")),
             ("Elena", f"[b]{vote} Fabio[/b]", _at(2, "12:00")),
             ("Bianca", f"[b]{vote} Fabio[/b]", _at(2, "22:01")), ("Aldo", f"[b]{vote} Fabio[/b]", _at(2, "22:02"))]
    cfg = write_example_game(tmp_path, "lupus", PLAYERS, posts=posts, extra={"language": lang})
    assert main(["poll", "--config", str(cfg)]) == 0
    ws = Workspace.open(cfg)
    try:
        a = analyse_game(ws, "lupus", now=_at(3, "12:00"))  # the dawn of N1 waits for the GM
        findings = run_checks(check_context(ws.store, a))
    finally:
        ws.store.close()
    return a, findings


def _gm_texts(a, findings) -> list[str]:
    run = a.run
    return ([e.text for e in run.log] + [r.message for r in run.rejections]
            + [p.summary for p in run.state.proposals] + [f.message for f in findings])


@pytest.mark.parametrize("lang", ["it", "en"])
def test_no_engine_event_name_reaches_a_gm_note_or_finding_of_a_played_example_game(tmp_path, lang, capsys):
    a, findings = _play(tmp_path, lang)
    texts = _gm_texts(a, findings)
    assert any(e.kind == "waiting" for e in a.run.log)  # the deferred boundaries are there ...
    assert [t for t in texts if EVENT_NAMES.search(t)] == []  # ... named as the GM reads them


def test_the_italian_example_game_speaks_italian_to_the_gm(tmp_path, capsys):
    a, findings = _play(tmp_path, "it")
    late = [r for r in a.run.rejections if r.reason == "late"]
    assert {r.actor for r in late} == {"Bianca", "Aldo"}
    assert all(r.message == "la votazione del Giorno 1 è chiusa" for r in late)
    notes = [e.text for e in a.run.log]
    assert "la fine di Giorno 1 attende che il GM decida night:N1" in notes
    assert "voto di Bianca su Fabio: in ritardo (la votazione del Giorno 1 è chiusa)" in notes
    assert "inizia Notte 2" in notes
    late_votes = [f.message for f in findings if f.code == "late_vote"]
    assert len(late_votes) == 2 and all(m.endswith(": non conteggiato") for m in late_votes)


def test_the_english_example_game_keeps_its_english_notes(tmp_path, capsys):
    a, findings = _play(tmp_path, "en")
    late = [r for r in a.run.rejections if r.reason == "late"]
    assert {r.actor for r in late} == {"Bianca", "Aldo"}
    assert all(r.message == "the vote of D1 is closed" for r in late)
    notes = [e.text for e in a.run.log]
    assert "the end of D1 waits for the GM to decide night:N1" in notes and "N2 starts" in notes
    assert "vote by Bianca on Fabio: late (the vote of D1 is closed)" in notes
    assert all("came after the vote of D1 closed" in f.message for f in findings if f.code == "late_vote")
