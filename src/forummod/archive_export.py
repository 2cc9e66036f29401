"""`forummod export`: the post-game archive of one game, written to files (issue 32, item 4).

Gathers from one analysis with the vote-history recorder: the game view, each day's history
(GM or thread view), each night's actions as the night desk has them, the GM's log and the
replacements the fold applied; `render.archive` builds the record and the `export` templates
write it as one self-contained HTML page (inline CSS and SVG charts), a Markdown post and a
BBCode post, in the game's language. Each day's chart is also written as PNG when matplotlib is
installed, so a GM can upload it; `image_base` (where they will host it) puts it in the posts.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from forummod.records import frozen

FORMATS = (("html", "html"), ("markdown", "md"), ("bbcode", "bbcode.txt"))


@frozen
class ExportResult:
    public: bool
    files: tuple[Path, ...]
    charts: tuple[Path, ...]
    png_skipped: str = ""  # why no PNG was written ("" when they were)


def export_game(ws: Any, game_id: str, out_dir: Path, *, public: bool | None = None, png: bool = True,
                image_base: str = "", now: datetime | None = None, approve_all: bool = False) -> ExportResult:
    """Write the archive files into `out_dir`. `public` None: the full archive once the game is
    over, the thread's view while it runs (a running game's archive must not reveal roles)."""
    from forummod.game_history import analyse_with_history, history_views
    from forummod.gamestate_view import received_actions
    from forummod.render import phrasebook_for
    from forummod.render.archive import build_archive
    from forummod.render.env import render_template
    from forummod.render.view import game_view
    from forummod.render.wagon_chart import chart_svg
    from forummod.render.wagon_png import chart_png, png_available
    from forummod.report import gm_event_list

    a, h = analyse_with_history(ws, game_id, now=now, approve_all=approve_all)
    if public is None:
        public = a.state.outcome is None
    game = a.game
    lang = game.language or a.ruleset.language
    user_dir = ws.cfg.workspace.templates_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{game_id}-archive" + ("-public" if public else "")
    days = history_views(ws, a, h, public=public)
    svgs = {d.phase: chart_svg(d.chart, element_id=f"chart-{d.phase}") for d in days}
    charts: list[Path] = []
    skipped = ""
    if png and days:
        if png_available():
            for d in days:
                path = out_dir / f"{stem}-{d.phase}.png"
                path.write_bytes(chart_png(d.chart))
                charts.append(path)
        else:
            skipped = "matplotlib is not installed (pip install 'forummod[charts]'): no PNG charts"
    base = image_base.rstrip("/") + "/" if image_base else ""
    images = {p.stem.rsplit("-", 1)[-1]: base + p.name for p in charts} if base else {}
    nights = {ph.name: received_actions(a, ph) for ph in a.run.phases if ph.kind == "night" and ph.start <= a.now}
    decisions = gm_event_list(a.inputs.events)
    gv = game_view(a)
    files = []
    for markup, ext in FORMATS:
        pb = phrasebook_for(lang, game.ruleset, markup, user_dir).with_tz(game.tz)
        post = build_archive(gv, pb, public=public, lang=lang, days=days, svgs=svgs if markup == "html" else {},
                             images=images, nights=nights, decisions=decisions, replacements=h.replacements,
                             generated=a.now)
        path = out_dir / f"{stem}.{ext}"
        path.write_text(render_template("export", markup, lang, post, user_dir), encoding="utf-8")
        files.append(path)
    return ExportResult(public, tuple(files), tuple(charts), skipped)
