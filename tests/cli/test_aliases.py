"""Names settled once (issue 27 item 3), through the real command line on an archived game: an
unknown name becomes a pending alias proposal with its evidence (`status --json`, `check`), one
approval records an alias event and every vote so written counts (the earlier ones too), `gm
undo` takes it back, `replay` reproduces it, a rejection is remembered, a tie asks the GM to
pick, `gm alias` settles any spelling, and `--approve-all` accepts the proposals."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
PLAYERS = ["havingfitz", "Jack Black", "Jill Bean", "Cat", "Dan", "Eve", "Gus"]
POSTS = [("Mod", "Day 1 begins"), ("Cat", "[b]vote: fitz[/b]"), ("Dan", "[b]vote: Eve[/b]"),
         ("Eve", "[b]vote: FITZ[/b]"), ("Gus", "[b]vote: JB[/b]"), ("Dan", "[b]vote: jb[/b]")]
SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "schema" / "forummod.schema.json"


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    write_posts(tmp_path, POSTS, T0)
    path = tmp_path / "forummod.toml"
    path.write_text(archive_config(tmp_path, players_toml(PLAYERS, {"Cat": "mafia"}), tables=f"""[games.g.schedule]
start = "{T0.isoformat()}"
vote_close = "24h"
day_end = "24h"
"""), encoding="utf-8")
    assert main(["poll", "--config", str(path), "-q"]) == 0
    return path


def run(capsys, *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(list(argv))
    return rc, capsys.readouterr().out


def js(capsys, *argv: str) -> dict:
    rc, out = run(capsys, *argv, "--json")
    assert rc in (0, 1), out
    return json.loads(out)


def wagon(tally: dict, name: str) -> list[str]:
    for c in (tally["tally"] or {}).get("candidates", ()):
        if c["name"] == name:
            return [v["voter"] for v in c["voters"]]
    return []


def names(status: dict) -> dict[str, dict]:
    return {n["key"]: n for n in status["names"]}


def test_an_unknown_name_is_a_pending_proposal_with_its_evidence_and_counts_nothing(cfg, capsys):
    st = js(capsys, "status", "--config", str(cfg))
    fitz = names(st)["alias:fitz"]
    assert fitz["status"] == "pending" and fitz["candidates"] == ["havingfitz"] and fitz["player"] is None
    assert {e["rule"] for e in fitz["evidence"]} >= {"part", "same_spelling"}
    assert [(u["voter"], u["source"]["number"]) for u in fitz["uses"]] == [("Cat", 2), ("Eve", 4)]
    assert {"key": "alias:fitz", "kind": "alias", "phase": None} .items() <= \
        next(p for p in st["pending"] if p["key"] == "alias:fitz").items()
    assert wagon(js(capsys, "tally", "--config", str(cfg)), "havingfitz") == []  # nothing counts before approval

    rc, text = run(capsys, "status", "--config", str(cfg))
    assert "pending: alias:fitz — “fitz” means havingfitz? (a part of havingfitz, written by 2 players; " \
           "2 votes so written)" in text and "forummod gm approve alias:fitz" in text
    rc, text = run(capsys, "check", "--config", str(cfg))
    assert "alias_proposed" in text and "it probably means havingfitz" in text


def test_one_approval_counts_every_vote_so_written_and_undo_takes_it_back(cfg, capsys):
    rc, out = run(capsys, "gm", "approve", "alias:FITZ", "--config", str(cfg))
    assert rc == 0 and "recorded #1: alias:fitz approved: “fitz” means havingfitz" in out
    assert wagon(js(capsys, "tally", "--config", str(cfg)), "havingfitz") == ["Cat", "Eve"]  # the earlier posts too
    st = js(capsys, "status", "--config", str(cfg))
    assert names(st)["alias:fitz"]["status"] == "approved" and names(st)["alias:fitz"]["event"] == 1
    assert "alias:fitz" not in [p["key"] for p in st["pending"]]
    assert st["gm_events"][0]["kind"] == "alias" and st["gm_events"][0]["summary"] == "alias “fitz” = havingfitz"
    assert js(capsys, "replay", str(cfg))["names"] == st["names"]  # the log replays it
    rc, out = run(capsys, "gm", "approve", "alias:fitz", "--config", str(cfg))
    assert rc == 0 and "already approved" in out  # twice: nothing more

    assert run(capsys, "gm", "undo", "1", "--config", str(cfg))[0] == 0
    assert wagon(js(capsys, "tally", "--config", str(cfg)), "havingfitz") == []
    assert names(js(capsys, "status", "--config", str(cfg)))["alias:fitz"]["status"] == "pending"


def test_a_rejection_is_remembered_so_the_gm_is_not_asked_again(cfg, capsys):
    assert run(capsys, "gm", "reject", "alias:fitz", "--config", str(cfg))[0] == 0
    st = js(capsys, "status", "--config", str(cfg))
    assert names(st)["alias:fitz"]["status"] == "rejected" and "alias:fitz" not in [p["key"] for p in st["pending"]]
    assert "alias:fitz" in [d["key"] for d in st["decided"]]
    asked = [f["key"] for f in js(capsys, "check", "--config", str(cfg))["findings"] if f["code"] == "alias_proposed"]
    assert asked == ["alias:jb:Jack Black/Jill Bean"]  # the tie is still asked; fitz is not
    assert wagon(js(capsys, "tally", "--config", str(cfg), "--approve-all"), "havingfitz") == []


def test_a_tie_is_proposed_with_both_players_and_the_gm_picks(cfg, capsys):
    jb = names(js(capsys, "status", "--config", str(cfg)))["alias:jb"]
    assert jb["candidates"] == ["Jack Black", "Jill Bean"]
    rc = main(["gm", "approve", "alias:jb", "--config", str(cfg)])
    err = capsys.readouterr().err
    assert rc == 2 and "could be Jack Black or Jill Bean; pick one" in err
    assert run(capsys, "gm", "approve", "alias:jb", "--player", "Jill Bean", "--config", str(cfg))[0] == 0
    assert wagon(js(capsys, "tally", "--config", str(cfg)), "Jill Bean") == ["Gus", "Dan"]
    assert wagon(js(capsys, "tally", "--config", str(cfg), "--approve-all"), "Jill Bean") == ["Gus", "Dan"]


def test_gm_alias_settles_any_spelling_and_refuses_another_players_name(cfg, capsys):
    rc, out = run(capsys, "gm", "alias", "F", "havingfitz", "--config", str(cfg))
    assert rc == 0 and "“F” means havingfitz" in out
    assert main(["gm", "alias", "Cat", "Dan", "--config", str(cfg)]) == 2
    assert "already Cat's name" in capsys.readouterr().err
    assert main(["gm", "alias", "Zed", "Nobody", "--config", str(cfg)]) == 2


def test_approve_all_accepts_the_proposals_with_one_candidate_and_replay_save_records_them(cfg, capsys):
    t = js(capsys, "tally", "--config", str(cfg), "--approve-all")
    assert wagon(t, "havingfitz") == ["Cat", "Eve"] and wagon(t, "Jack Black") == wagon(t, "Jill Bean") == []
    st = js(capsys, "status", "--config", str(cfg), "--approve-all")
    assert names(st)["alias:fitz"]["status"] == "approved" and names(st)["alias:fitz"]["event"] is None
    assert names(st)["alias:jb"]["status"] == "pending"  # a tie waits for the GM
    assert wagon(js(capsys, "tally", "--config", str(cfg)), "havingfitz") == []  # a what-if: nothing recorded

    rc, out = run(capsys, "replay", str(cfg), "--approve-all", "--save")
    assert rc == 0
    st = js(capsys, "status", "--config", str(cfg))
    assert names(st)["alias:fitz"]["status"] == "approved" and names(st)["alias:fitz"]["event"] is not None
    assert [e["actor"] for e in st["gm_events"] if e["kind"] == "alias"] == ["replay"]


def test_status_json_with_proposals_matches_the_schema(cfg, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    main(["gm", "approve", "alias:fitz", "--config", str(cfg)])
    out = js(capsys, "status", "--config", str(cfg))
    assert {n["status"] for n in out["names"]} == {"approved", "pending"}
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(out))
    assert not errors, errors[:3]


def test_the_proposal_reads_in_the_games_language(tmp_path: Path, capsys):
    write_posts(tmp_path, POSTS, T0)
    path = tmp_path / "forummod.toml"
    path.write_text(archive_config(tmp_path, players_toml(PLAYERS, {"Cat": "mafia"}), game_lines='language = "it"'),
                    encoding="utf-8")
    assert main(["poll", "--config", str(path), "-q"]) == 0
    rc, text = run(capsys, "status", "--config", str(path))
    assert "in attesa: alias:fitz — “fitz” vuol dire havingfitz? (una parte di havingfitz, scritto da 2 " \
           "giocatori; 2 voti scritti così)" in text
    assert js(capsys, "status", "--config", str(path))["names"][0]["evidence"][0]["rule"] == "part"  # codes stay
