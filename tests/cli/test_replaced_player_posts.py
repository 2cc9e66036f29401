"""Issue 28 item 1: after a replacement, the player who left counts for nobody.

Played through the CLI on the archive source (a mafia-majority day): Zed replaces Dan at post
9 (`gm replace Dan Zed --post 9`, or the config's `replaces`); Dan's own `vote: Bob` in post 10
is not the seat's vote, and `check` names it (`replaced_player_post`, in the game's language);
Dan's earlier vote (post 8) still counts as the seat's, now Zed's; his later posts are no
activity of the seat."""

from __future__ import annotations

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts
from tests.cli.test_live_game import PLAYERS, ROLES, SLOW, T0, H, cli, cli_json

POSTS = SLOW + [("Mod", "Zed replaces Dan"), ("Dan", "I'm still here! [b]vote: Ann[/b]"), ("Eve", "hmm")]


def game(tmp_path, *, in_config: bool, language: str = "") -> str:
    write_posts(tmp_path, POSTS, T0)
    names = [("Zed" if p == "Dan" and in_config else p) for p in PLAYERS]
    extra = {"Zed": 'replaces = [{ name = "Dan", at_post = 9 }]'} if in_config else {}
    lang = f'language = "{language}"' if language else ""
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(names, ROLES, extra), game_lines=lang,
                                  tables=f'[games.g.schedule]\nstart = "{T0.isoformat()}"\n'), encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    if not in_config:
        assert main(["gm", "--config", str(cfg), "replace", "Dan", "Zed", "--post", "9"]) == 0
    return str(cfg)


def votes_of(capsys, cfg) -> dict[str, str]:
    rep = cli_json(capsys, "tally", "--config", cfg, "--now", (T0 + 12 * H).isoformat())
    return {v["voter"]: c["name"] for c in rep["tally"]["candidates"] for v in c["voters"]}


def test_a_replaced_players_vote_after_the_replacement_counts_for_nobody_and_is_a_finding(tmp_path, capsys):
    for in_config in (False, True):
        folder = tmp_path / str(in_config)
        folder.mkdir()
        cfg = game(folder, in_config=in_config)
        votes = votes_of(capsys, cfg)
        assert votes.get("Zed") == "Bob", in_config  # Dan's post-8 vote is the seat's, now Zed's
        assert "Ann" not in [t for v, t in votes.items() if v == "Zed"]
        found = [f for f in cli_json(capsys, "check", "--config", cfg, "--now", (T0 + 12 * H).isoformat())["findings"]
                 if f["code"] == "replaced_player_post"]
        assert len(found) == 1 and found[0]["severity"] == "warning", in_config
        assert "Dan was replaced by Zed" in found[0]["message"] and "vote: Ann" in found[0]["message"]
        assert found[0]["player"] == "Dan", in_config  # who wrote it, not the seat's new holder


def test_the_finding_is_worded_in_the_games_language(tmp_path, capsys):
    cfg = game(tmp_path, in_config=True, language="it")
    found = [f for f in cli_json(capsys, "check", "--config", cfg, "--now", (T0 + 12 * H).isoformat())["findings"]
             if f["code"] == "replaced_player_post"]
    assert [f["message"].split(":")[0] for f in found] == [
        "Dan è stato sostituito da Zed, ma ha inviato un post dopo la sostituzione"]


def test_before_the_replacement_the_old_players_votes_still_count(tmp_path, capsys):
    cfg = game(tmp_path, in_config=False)
    rep = cli_json(capsys, "tally", "--config", cfg, "--at", 9)
    assert {v["voter"]: c["name"] for c in rep["tally"]["candidates"] for v in c["voters"]}.get("Dan") == "Bob"
    rc, out, _ = cli(capsys, "check", "--config", cfg, "--now", (T0 + 8.5 * H).isoformat())
    assert "replaced_player_post" not in out
