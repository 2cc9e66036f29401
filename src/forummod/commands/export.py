"""`forummod export`: the post-game archive as HTML, Markdown and BBCode files (issue 32)."""

from __future__ import annotations

from pathlib import Path

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json

NAME = "export"
HELP = "write the game's archive: one self-contained HTML page, a Markdown and a BBCode post"
DESCRIPTION = """Write the record of a game into --out (default: the current folder):
<game>-archive.html (one self-contained page: inline CSS and SVG charts, nothing fetched),
<game>-archive.md and <game>-archive.bbcode.txt (for the forum), and each day's wagon chart as
<game>-archive-<day>.png when matplotlib is installed. The roster and roles, deaths by phase,
each day's final count, chart and vote history, the night actions as resolved, replacements and
the GM's decisions, in the game's language.

A finished game gets the full archive; a game still running gets the thread's view (roles only
as deaths revealed them, no secret vote, no night action, no GM log) unless --full.
--image-base URL: where you will upload the PNGs, so the posts show them."""


def add_arguments(p) -> None:
    add_common(p, game=True, now=True)
    p.add_argument("--out", metavar="DIR", default=".", help="folder for the files (default: .)")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--public", action="store_true", help="the thread's view, even of a finished game")
    view.add_argument("--full", action="store_true", help="everything, even while the game runs (GM only!)")
    p.add_argument("--no-png", action="store_true", help="do not write the PNG charts")
    p.add_argument("--image-base", metavar="URL", default="",
                   help="the http(s) address the PNG charts will have, for the Markdown and BBCode posts")
    p.add_argument("--approve-all", action="store_true",
                   help="approve every proposal as it is made (an archived game replayed without its decisions)")


def run(args) -> int:
    from forummod.archive_export import export_game

    with open_workspace(args, reads=True) as ws:
        gid = ws.only_game(args.game)
        game = ws.cfg.game(gid)
        now = parse_time(args.now, game.tz) if args.now else None
        public = True if args.public else False if args.full else None
        r = export_game(ws, gid, Path(args.out), public=public, png=not args.no_png, image_base=args.image_base,
                        now=now, approve_all=args.approve_all)
        if args.json:
            print_json("export", {"game": gid, "public_view": r.public, "files": [str(f) for f in r.files],
                                  "charts": [str(c) for c in r.charts], "note": r.png_skipped or None})
        else:
            for f in (*r.files, *r.charts):
                print(f)
            if r.png_skipped:
                print(r.png_skipped)
        return 0
