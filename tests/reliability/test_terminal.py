"""Forum text reaches the GM's terminal as text (issue 34, item 5): a post or PM carrying
terminal controls (OSC 52 writing the clipboard, OSC 0 retitling the window, CSI erasing the
line above, a bidi override, a lone carriage return) prints them as visible escapes from every
command, while Chinese, Cyrillic, emoji and "[bold]" stay exactly as written; `--json` output
is json.dumps' own, byte for byte.

The game is read both ways the tool reads: the demo phpBB over HTTP and an archive file."""

from __future__ import annotations

import json

import pytest

from forummod.cli import main
from forummod.termsafe import visible
from tests.reliability.test_hostile import NOW, game  # noqa: F401 (the fixture)

OSC52 = "\x1b]52;c;cm0gLXJmIH4K\x07"  # the clipboard gets "rm -rf ~"
OSC0 = "\x1b]0;PWNED\x07"  # the window title
CSI = "\x1b[2K\x1b[1A"  # erase the line, go up one: a warning above disappears
BIDI = "\u202e"  # right-to-left override: "exe.gnp" reads "png.exe"
WORDS = "你好 Привет 🐺 [bold]loud[/bold]"
POST = f"Good morning {OSC0}{OSC52} [b]VOTE: Bob{CSI}[/b] {WORDS}\rnot counted"
PM = f"{BIDI}exe.gnp {OSC52} {WORDS}"
#: what must never reach the terminal raw
RAW = ("\x1b", "\x07", "\x9b", BIDI, "\r")


def run(capsys, *args: str) -> str:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code in (0, 1), (args, code, err)
    return out + err


@pytest.mark.parametrize("how", ["forum", "archive"])
def test_a_hostile_post_and_pm_print_escaped_from_every_command(how, game, capsys, tmp_path):
    g = game(how, [("Ann", POST), ("Bob", "[b]VOTE: Ann[/b]")], pms=[("Cat", f"night {BIDI}gnp", PM)])
    cfg = str(tmp_path / "g0" / "forummod.toml")
    at = ["--now", NOW.isoformat()]
    shown = {" ".join(a): run(capsys, *a, "--config", cfg) for a in (
        ["poll", "-vv"], ["tally", *at], ["status", *at], ["check", "--all", *at], ["draft", "all", *at], ["drafts"],
        ["history", *at], ["replay", *at])}
    warnings = next(d.id for d in g.ws.store.drafts("g1") if d.kind == "warnings")
    shown["drafts --show"] = run(capsys, "drafts", "--show", str(warnings), "--config", cfg)
    if how == "forum":  # the page as saved from the forum, for a bug report
        page = tmp_path / "page.html"
        page.write_text(g.site.thread_page(1, 0, None), encoding="utf-8")
        shown["parse"] = run(capsys, "parse", str(page))

    for command, text in shown.items():
        for ch in RAW:
            assert ch not in text.replace("\r\n", "\n"), f"{ch!r} reached the terminal raw from `{command}`"
    # the hostile text is there, escaped, with the rest of it unchanged
    assert "\\x1b]52;c;cm0gLXJmIH4K\\x07" in shown[f"tally {' '.join(at)}"]  # the PM not understood
    assert visible(OSC52) in shown["drafts --show"] and "你好 Привет 🐺" in shown["drafts --show"]
    if how == "forum":
        assert visible(OSC0 + OSC52) + " VOTE: Bob" + visible(CSI) + " " + WORDS in shown["parse"], shown["parse"]


def test_json_output_is_json_dumps_own_bytes(game, capsys, tmp_path):
    game("archive", [("Ann", POST)], pms=[("Cat", f"night {BIDI}gnp", PM)])
    out = run(capsys, "tally", "--json", "--now", NOW.isoformat(), "--config", str(tmp_path / "g0" / "forummod.toml"))
    data = json.loads(out)
    assert out == json.dumps(data, ensure_ascii=False, indent=2) + "\n"  # nothing rewritten after json.dumps
    assert "\\u001b]52;" in out and BIDI in out  # JSON's own escape; what JSON leaves raw stays raw


@pytest.mark.parametrize("text, shown", [
    ("plain words", "plain words"),
    ("你好 Привет 🐺 é\tcol\nline\r\n", "你好 Привет 🐺 é\tcol\nline\r\n"),
    ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
    ("\x9b2K \x85 \x00 \x7f", "\\x9b2K \\x85 \\x00 \\x7f"),
    ("a\rb", "a\\x0db"),
    ("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", "\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067"
                                                              "\\u2068\\u2069"),
    ("\u200d\u200f zero width joiner and marks stay", "\u200d\u200f zero width joiner and marks stay"),
])
def test_visible_escapes_controls_and_overrides_only(text, shown):
    assert visible(text) == shown


def test_the_progress_bar_keeps_its_own_drawing_but_shows_text_escaped(monkeypatch):
    """The bar writes its escape sequences around the filter; a label or a line printed while it
    shows is filtered all the same (rich's stand-in for stderr would pass a bidi override)."""
    import io
    import sys

    from forummod.progress import progress_printer
    from forummod.termsafe import safe_streams

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    with safe_streams(), progress_printer(f"g1 {BIDI}[bold]x[/bold]") as step:
        step("game", 1, 2)
        print(f"a note {OSC0}{BIDI}", file=sys.stderr)
    shown = tty.getvalue()
    assert "\x1b[?25l" in shown  # the bar's own drawing (cursor hidden)
    assert BIDI not in shown and "\x07" not in shown and "\x1b]" not in shown
    assert "g1 \\u202e[bold]x[/bold] game pages" in shown and f"a note {visible(OSC0)}\\u202e" in shown
