"""A lynch that ends the game opens no night: the day-end post does not announce "Night N
begins" (found playing mafia-majority live on phpBB, tests/realforum/test_live_games.py). A
lynch that does not end the game still announces the night, also when drafted after the end."""

from __future__ import annotations

from tests.archive_game import players_toml
from tests.cli.test_live_game import H, T0, at, cli, make_game
from tests.cli.village_game import M

ROLES = {"Ann": "mafia", "Bob": "mafia", "Cat": "cop"}
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
# D1: Ann hammered at post 5 (4 of 6); D2 opened by the GM's post 6: Bob hammered at post 9 (3 of 5)
POSTS = [("Mod", "Day 1 begins"), ("Cat", "[b]vote: Ann[/b]"), ("Dan", "[b]vote: Ann[/b]"),
         ("Eve", "[b]vote: Ann[/b]"), ("Fay", "[b]vote: Ann[/b]")]


def test_the_lynch_that_ends_the_game_announces_no_night(tmp_path, capsys):
    posts = POSTS + [("Mod", "Day 2"), ("Cat", "[b]vote: Bob[/b]"), ("Dan", "[b]vote: Bob[/b]"),
                     ("Eve", "[b]vote: Bob[/b]")]
    cfg = make_game(tmp_path, posts, players=players_toml(PLAYERS, ROLES))
    c = ("--config", cfg)
    cli(capsys, "gm", *c, "--at", at(T0 + 5 * H), "approve", "lynch:D1")
    cli(capsys, "gm", *c, "start", "D2", "--post", 6)
    cli(capsys, "gm", *c, "--at", at(T0 + 9 * H), "approve", "night:N1")
    cli(capsys, "gm", *c, "--at", at(T0 + 10 * H), "approve", "lynch:D2")
    rc, out, _ = cli(capsys, "draft", *c, "day_end", "--phase", "D2", "--print", "--now", at(T0 + 11 * H))
    out = out.replace("[b]", "").replace("[/b]", "")
    assert rc == 0 and "Bob has been lynched" in out and "Night 2 begins" not in out
    rc, out, _ = cli(capsys, "draft", *c, "day_end", "--phase", "D1", "--print", "--now", at(T0 + 11 * H))
    out = out.replace("[b]", "").replace("[/b]", "")
    assert rc == 0 and "Ann has been lynched" in out and "Night 1 begins" in out


def test_village_the_execution_that_ends_the_game_announces_no_night(tmp_path, capsys):
    """VIL: the night the execution opened holds only its nightfall and the game's end."""
    from tests.cli.village_game import DAWN1, GM, VOTE_CLOSE1, VOTE_OPEN1, approve_due, draft_text, players, village_game
    from tests.cli.village_game import T0 as V0

    roster = [p for p in players() if p["name"] != "老李"]  # 阿强 is the only werewolf
    cfg = village_game(tmp_path, [(GM, "天亮了", DAWN1 + M), ("老王", "[b]投票 阿强[/b]", VOTE_OPEN1 + H),
                                  ("小红", "[b]投票 阿强[/b]", VOTE_OPEN1 + 2 * H),
                                  ("小明", "[b]投票 阿强[/b]", VOTE_OPEN1 + 3 * H)],
                       [("阿强", "刀 阿花", V0 + H)], roster=roster)
    approve_due(capsys, cfg, VOTE_OPEN1)
    assert cli(capsys, "gm", "--config", cfg, "--at", at(VOTE_OPEN1 + 4 * H), "end", "D1")[0] == 0  # the GM closes the day
    after = VOTE_OPEN1 + 5 * H
    approve_due(capsys, cfg, after)
    end = draft_text(capsys, cfg, "day_end", after, "--phase", "D1")
    assert "阿强 被放逐出局" in end.replace("[b]", "").replace("[/b]", "") and "第2夜" not in end
