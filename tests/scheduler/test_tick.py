"""tick: one pass per active game; a broken game is reported and the others still run."""

from forummod.cli import main
from forummod.store import Store

from tests.scheduler.conftest import write_archive, write_config


def test_a_malformed_archive_in_one_game_does_not_stop_the_other_games(tmp_path, capsys):
    from datetime import datetime, timedelta, timezone

    start = datetime.now(timezone.utc) - timedelta(hours=1)
    write_archive(tmp_path, [("Mod", "Day 1", start), ("Bob", "[b]vote: Eve[/b]", start + timedelta(minutes=5))])
    cfg = write_config(tmp_path, start=start)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "author": "X"\n', encoding="utf-8")
    text = cfg.read_text()
    text += f"""
[sites.broken]
engine = "archive"
posts_file = "{bad}"

[games.g2]
site = "broken"
thread = "game"
ruleset = "mafia-majority"
players = [{{ name = "Q1" }}, {{ name = "Q2" }}, {{ name = "Q3" }}]
"""
    cfg.write_text(text)
    rc = main(["tick", "--config", str(cfg), "--json"])
    out = capsys.readouterr().out
    assert rc == 1  # one game failed
    assert '"game": "g1"' in out and '"game": "g2"' in out
    assert "not valid JSON" in out
    with Store(tmp_path / "store.sqlite") as s:
        assert s.post_count("arch", "game") == 2  # g1 was polled and stored all the same
