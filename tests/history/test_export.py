"""`forummod export` (issue 32, item 4): one self-contained HTML page, a Markdown and a BBCode
post, from the log, in the game's language; the public archive never holds a secret."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forummod.archive_export import export_game
from forummod.cli import main

from tests.history.demo_game import demo_workspace, write_demo
from tests.history.test_vote_history import hammer_game
from tests.render.game import GUS, XSS, at

EXTERNAL = re.compile(r"<script|<link|<img|<iframe|\bsrc=|url\(|@import|xlink:href", re.I)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    ws = demo_workspace(root)
    yield ws, root
    ws.close()


def read(files, ext):
    return next(f for f in files if f.name.endswith(ext)).read_text(encoding="utf-8")


def test_the_full_archive_is_one_self_contained_page_with_every_part_of_the_game(demo, tmp_path):
    ws, _ = demo
    r = export_game(ws, "demo", tmp_path, public=False)
    html = read(r.files, ".html")
    assert EXTERNAL.search(html) is None  # inline CSS and SVG only: nothing fetched, no script
    assert '<html lang="it">' in html
    assert html.count('<svg id="chart-D') == 2  # a wagon chart per day, inline
    # roster and roles (the drafts' words), deaths by phase, final counts, night actions, decisions
    assert "Boia (Villaggio/Inquisizione)" in html and "Lupo Mannaro (Branco)" in html
    assert "<strong>Fede</strong> è stato messo al rogo." in html
    assert "Votazione — Giorno 1" in html and "Elio ×3" in html  # the GM's count, the Boia's weight
    assert "sbrano" not in html and "kill → Dora" in html  # the night actions as the engine read them
    assert "approve lynch:D1" in html
    assert r.public is False and [p.name for p in r.charts] == ["demo-archive-D1.png", "demo-archive-D2.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in r.charts)


def test_a_running_game_gets_the_public_archive_with_no_secret(demo, tmp_path):
    """LUP-D11: the Boia's secret vote and weight, unrevealed roles, PMs and GM decisions stay out."""
    ws, _ = demo
    r = export_game(ws, "demo", tmp_path)  # the demo's game is not over: the thread's view
    assert r.public
    for f in r.files:
        text = f.read_text(encoding="utf-8")
        assert "Boia" not in text and "×3" not in text and "segret" not in text.lower(), f.name
        assert "LOSCO" not in text and "Night actions" not in text and "approve" not in text, f.name
        assert "Lupo Mannaro" in text  # Fede's role, revealed by the lynch
    html = read(r.files, ".html")
    d1 = html[html.index('id="chart-D1"'):html.index("</svg>", html.index('id="chart-D1"'))]
    assert 'data-public="true"' in d1
    assert 'data-candidate="Fede" data-final="5"' in d1  # five public votes, not the GM's 8 (Boia x3)


def test_the_forum_versions_escape_hostile_names_and_show_hosted_charts(tmp_path):
    g = hammer_game(tmp_path)
    ws = g.workspace()
    main(["gm", "--config", str(tmp_path / "forummod.toml"), "end-game", "--winners", "Ann", "Fay",
          "--result", "mafia"])
    ws.close()
    ws = g.workspace(poll=False)
    r = export_game(ws, "g", tmp_path / "out", image_base="https://img.example/town/")
    assert r.public is False  # the game is over: the full archive
    html, md, bb = read(r.files, ".html"), read(r.files, ".md"), read(r.files, ".bbcode.txt")
    assert XSS not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "[b]Gus[/b]" not in bb.replace("[b]" + GUS + "[/b]", "")  # only escaped: [\u200db]Gus
    assert "<script>" not in md
    assert "[img]https://img.example/town/g-archive-D1.png[/img]" in bb
    assert "![Wagons — Day 1](https://img.example/town/g-archive-D1.png)" in md
    # English throughout, the drafts' own sentences
    for text in (html, md, bb):
        assert "Roles" in text and "Winners:" in text and "Vote Count — Day 1" in text and "HAMMER: Ann" in text
    ws.close()


def test_export_command_writes_the_files_and_reports_them(tmp_path, capsys):
    cfg = write_demo(tmp_path)
    ws = demo_workspace(tmp_path)
    ws.close()
    assert main(["export", "--config", str(cfg), "--out", str(tmp_path / "arch"), "--no-png"]) == 0
    out = capsys.readouterr().out.split()
    assert [Path(p).name for p in out] == ["demo-archive-public.html", "demo-archive-public.md",
                                           "demo-archive-public.bbcode.txt"]
