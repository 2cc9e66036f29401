"""`forummod history`: every vote change of each day, its wagon chart as SVG or PNG (issue 32)."""

from __future__ import annotations

from pathlib import Path

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json
from forummod.errors import UsageError

NAME = "history"
HELP = "the vote history of each day (every vote change) and its wagon chart (--svg / --png)"
DESCRIPTION = """The vote history of each day, from the same engine run as `tally`: every vote
change with its time, post, voter, from -> to, weight and notes (late, void, secret, GM entry,
replacement, the hammer), then the day's final count. --public shows what the thread may see
(no secret vote, no hidden weight). --svg DIR / --png DIR write each day's wagon chart
(<game>-<day>[-public].svg/.png; the PNG needs matplotlib: pip install 'forummod[charts]')."""


def add_arguments(p) -> None:
    add_common(p, game=True, now=True)
    p.add_argument("--day", action="append", default=[], metavar="D1",
                   help="only this day (repeat for several; default: every day)")
    p.add_argument("--public", action="store_true", help="the thread's view: no secret vote, no hidden weight")
    p.add_argument("--svg", metavar="DIR", help="write each day's wagon chart as SVG into DIR")
    p.add_argument("--png", metavar="DIR", help="write each day's wagon chart as PNG into DIR (needs matplotlib)")
    p.add_argument("--approve-all", action="store_true", help="approve every proposal as it is made (what-if view)")


def run(args) -> int:
    from forummod.game_history import analyse_with_history, history_views
    from forummod.history_report import history_report

    with open_workspace(args, reads=True) as ws:
        gid = ws.only_game(args.game)
        game = ws.cfg.game(gid)
        now = parse_time(args.now, game.tz) if args.now else None
        a, h = analyse_with_history(ws, gid, now=now, approve_all=args.approve_all)
        days = tuple(d.upper() for d in args.day)
        known = {d.phase for d in h.days}
        for d in days:
            if d not in known:
                raise UsageError(f"no vote history for {d!r} (days so far: {', '.join(sorted(known)) or 'none'})")
        views = history_views(ws, a, h, public=args.public, days=days)
        written = write_charts(gid, views, svg=args.svg, png=args.png, public=args.public)
        if args.json:
            print_json("history", history_report(a, h, public=args.public, days=days, files=written))
        else:
            print(format_history(a, views))
            for f in written:
                print(f)
        return 0


def write_charts(gid: str, views, *, svg: str | None, png: str | None, public: bool) -> list[str]:
    """Each day's chart into the folders asked for; returns the files written."""
    from forummod.render.wagon_chart import chart_svg

    out = []
    suffix = "-public" if public else ""
    for folder, ext in ((svg, "svg"), (png, "png")):
        if not folder:
            continue
        d = Path(folder)
        d.mkdir(parents=True, exist_ok=True)
        for v in views:
            path = d / f"{gid}-{v.phase}{suffix}.{ext}"
            if ext == "svg":
                path.write_text(chart_svg(v.chart) + "\n", encoding="utf-8")
            else:
                from forummod.render.wagon_png import chart_png

                path.write_bytes(chart_png(v.chart))
            out.append(str(path))
    return out


def format_history(a, views) -> str:
    """The history as the GM reads it in a terminal, one block per day."""
    from forummod.i18n import gm_language, pgettext

    lang = a.game.language or a.ruleset.language
    lines = []
    with gm_language(lang):
        for v in views:
            view = pgettext("history", "thread view") if v.public else pgettext("history", "GM view")
            lines.append(f"{a.game.title or a.game_id} — {v.label} ({view})")
            if not v.rows:
                lines.append("  " + pgettext("history", "no vote yet"))
            for r in v.rows:
                where = f" {r.link.label}" if r.link else ""
                weight = f" ×{r.weight}" if r.weight else ""
                mark = "" if r.counted else "✗ "
                notes = f"  [{'; '.join(r.notes)}]" if r.notes else ""
                lines.append(f"  {r.time}{where}  {mark}{r.voter}: {r.before} → {r.after}{weight}{notes}")
            if v.hammer:
                lines.append("  " + v.hammer)
            final = ", ".join(f"{w.name} {w.total} ({', '.join(w.voters)})" for w in v.final)
            lines.append("  " + pgettext("history", "final count: %(wagons)s", wagons=final or "—")
                         + (" — " + pgettext("history", "still open") if v.open else ""))
            lines.append("")
    return "\n".join(lines).rstrip()
