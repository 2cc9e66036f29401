"""Issue 28 item 4 (ON D15): with `reveal = "all"` the game-over post shows the centre cards;
with the option `killed_and_winners` it does not. ON-X1 played through the CLI on the archive
source to its game-over draft."""

from __future__ import annotations

from forummod.cli import main

from tests.cli.test_example_defaults import ON_DAY, ONE_NIGHT, H
from tests.cli.test_live_game import cli
from tests.example_game import write_example_game


def game_over_text(tmp_path, capsys, reveal: str) -> str:
    x1 = next(s for s in ONE_NIGHT if s.rule == "ON-X1")
    cfg = write_example_game(tmp_path, "one_night", x1.players, posts=x1.posts, messages=x1.pms,
                             extra={"setup": x1.setup, "options": {"reveal": reveal}})
    assert main(["poll", "--config", str(cfg)]) == 0
    rc, out, err = cli(capsys, "draft", "--config", cfg, "game_over", "--print", "--approve-all",
                       "--now", (ON_DAY + 73 * H).isoformat())
    assert rc == 0, err
    return out


def test_ON_D15_the_game_over_post_shows_the_centre_cards(tmp_path, capsys):
    out = game_over_text(tmp_path, capsys, "all")
    assert "Het spel is voorbij" in out  # the game-over post, in Dutch
    assert [line for line in out.splitlines() if line.startswith("Op tafel")] == [  # the deal's centre
        "Op tafel, Links: [b]Weerwolf[/b].", "Op tafel, Midden: [b]Looier[/b].", "Op tafel, Rechts: [b]Jager[/b]."]


def test_ON_D15_option_killed_and_winners_reveals_no_centre_card(tmp_path, capsys):
    out = game_over_text(tmp_path, capsys, "killed_and_winners")
    assert "Het spel is voorbij" in out and "Op tafel" not in out
