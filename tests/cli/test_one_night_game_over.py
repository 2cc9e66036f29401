"""Issue 28 item 4 (ON D15): with `reveal = "all"` the game-over post shows the centre cards;
with the option `killed_and_winners` it shows neither them nor the cards of players alive who
did not win. ON-X1 and ON-X12 played through the CLI on the archive source to the game-over draft."""

from __future__ import annotations

from forummod.cli import main

from tests.cli.test_example_defaults import ON_DAY, ONE_NIGHT, H
from tests.cli.test_live_game import cli
from tests.example_game import write_example_game


def game_over_text(tmp_path, capsys, reveal: str, rule: str = "ON-X1") -> str:
    x1 = next(s for s in ONE_NIGHT if s.rule == rule)
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


def test_ON_D15_option_killed_and_winners_lists_only_their_cards_in_the_game_over_post(tmp_path, capsys):
    """ON-X12: the Looier is lynched and wins alone: with the option only his card is listed"""
    (tmp_path / "all").mkdir()
    (tmp_path / "some").mkdir()
    assert game_over_text(tmp_path / "all", capsys, "all", "ON-X12").count("[*]") == 5
    out = game_over_text(tmp_path / "some", capsys, "killed_and_winners", "ON-X12")
    assert out.count("[*]") == 1 and "Looier" in out
