"""A lupus-eresia game from config.example.toml through the CLI (issue 14, item 9): the pack's
missing kill is one `check` finding naming the wolves who may send it (D19), and "Cambio vittima:
sbraniamo X" kills X with no false "not a player" report (D2)."""

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from forummod.cli import main

from tests.example_game import write_example_game

ROME = ZoneInfo("Europe/Rome")
T0 = datetime(2026, 12, 1, 21, 0, tzinfo=ROME)
D1 = datetime(2026, 12, 2, 9, 0, tzinfo=ROME)
N2 = datetime(2026, 12, 2, 22, 15, tzinfo=ROME)
H = timedelta(hours=1)
M = timedelta(minutes=1)
PLAYERS = [{"name": "Aldo", "role": "werewolf"}, {"name": "Bianca", "role": "werewolf"},
           {"name": "Carlo", "role": "seer"}, {"name": "Dario", "role": "farmer"},
           {"name": "Elena", "role": "farmer"}, {"name": "Fabio", "role": "farmer"}]
POSTS = [("Narratore", "Notte 1", T0), ("Narratore", "Giorno 1", D1 + M),
         ("Carlo", "[b]voto Fabio[/b]", D1 + 2 * H), ("Dario", "[b]voto Fabio[/b]", D1 + 3 * H),
         ("Elena", "[b]voto Fabio[/b]", D1 + 4 * H), ("Fabio", "[b]voto Carlo[/b]", D1 + 5 * H)]


def game(tmp_path, messages):
    cfg = write_example_game(tmp_path, "lupus", PLAYERS, posts=POSTS, messages=messages, start=T0)
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def check_json(capsys, cfg, now):
    capsys.readouterr()
    main(["check", "--config", str(cfg), "--json", "--now", now.isoformat()])
    return json.loads(capsys.readouterr().out)["findings"]


def test_D19_check_names_the_wolves_once_for_the_missing_kill(tmp_path, capsys):
    """LUP D19"""
    cfg = game(tmp_path, [("Carlo", "indago Aldo", T0 + H)])
    found = [f for f in check_json(capsys, cfg, N2 + 2 * M) if f["code"] == "missing_action"]
    # in the game's language, Italian (issue 20)
    assert [f["message"].split(" (scade")[0] for f in found] == [
        "ancora nessun MP di uccisione per la Notte 2: la manda uno fra Aldo, Bianca"]


def test_LUP_D2_cambio_vittima_kills_the_new_victim_with_no_false_unknown_name(tmp_path, capsys):
    """LUP-R9 LUP-D2: the later PM counts; its "Cambio vittima:" lead-in is not a name"""
    cfg = game(tmp_path, [("Carlo", "indago Aldo", T0 + H), ("Bianca", "sbraniamo Carlo", N2 + 5 * M),
                          ("Bianca", "Cambio vittima: sbraniamo Dario", N2 + 8 * M)])
    after = D1 + 25 * H
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--json", "--approve-all", "--now", after.isoformat()]) == 0
    st = json.loads(capsys.readouterr().out)
    assert {(d["player"], d["cause"]) for d in st["dead"]} == {("Fabio", "lynch"), ("Dario", "wolves")}
    assert not [f for f in check_json(capsys, cfg, after) if f["code"] == "unknown_name"]
