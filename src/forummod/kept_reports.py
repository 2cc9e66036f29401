"""`status` and `tally` reports kept in the store with the analysis they came from (issue 30).

A cron `forummod status` or `tally` is a fresh process: without this it recounts the whole game
even when nothing changed since the last one. Each plain report (`status`, `tally`, `tally
--public`; no `--at`, no `--approve-all`) is kept under its kind with the analysis's input mark,
instant and `changes_at`; the next command reads the mark (a few indexed queries), and while
it is the same and the clock has not reached `changes_at`, prints the kept report restamped:
`analysed_at`, and the count's `at` when it is the count in progress (report.now_stamped).
A kept report is exactly the report a recount would print (tests/cli/test_kept_reports.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from forummod.errors import StoreError

KINDS = ("status", "tally", "tally_public")
PREFIX = "kept_report:"


def kept_report(ws: Any, game_id: str, kind: str, now: datetime | None) -> tuple[dict[str, Any], str] | None:
    """(report, the language its words are in) of `kind` as of `now` (None: the real clock, or
    an archive's own instant) when the kept one is still right; else None. A store that does
    not exist yet is not made here (bad input is refused before any store is made)."""
    from forummod.service import _store_exists

    if not _store_exists(ws):
        return None
    note = ws.store.snapshot(game_id, PREFIX + kind)
    if not isinstance(note, dict) or not isinstance(note.get("report"), str):
        return None
    archive = ws.cfg.sites[ws.cfg.game(game_id).site].engine == "archive"
    try:
        made = datetime.fromisoformat(note["now"])
        until = datetime.fromisoformat(note["until"]) if note.get("until") else None
    except (KeyError, TypeError, ValueError):
        return None
    if now is None and not archive:
        now = ws.clock()
    if now is None:  # an archive's own instant: the inputs decide it, and the mark the inputs
        if not note.get("own_now"):
            return None
    elif now < made or (until is not None and now >= until):
        return None
    from forummod.service import game_mark

    if note.get("mark") != game_mark(ws, game_id):
        return None
    import json

    report = json.loads(note["report"])  # kept as text: the keys in the report's own order
    if now is not None and now != made:
        report = restamped(report, now, bool(note.get("count_at_now")))
    return report, note.get("lang") or "en"


def keep_report(ws: Any, a: Any, kind: str, report: dict[str, Any], *, own_now: bool) -> None:
    """Keep `report` (of `kind`, made from analysis `a`; `own_now`: at an archive's own instant)."""
    if not a.mark or not getattr(ws.store, "writable", True):  # a store opened read-only keeps nothing
        return
    import json

    from forummod.report import now_stamped

    try:
        ws.store.remember(a.game_id, PREFIX + kind, {
            "mark": a.mark, "now": a.now.isoformat(), "until": a.changes_at.isoformat() if a.changes_at else None,
            "own_now": own_now, "count_at_now": now_stamped(a, public=kind == "tally_public") if kind != "status" else False,
            "lang": a.game.language or a.ruleset.language,
            "report": json.dumps(report, ensure_ascii=False, default=str)}, a.now)
    except StoreError:
        pass  # a read-only store: the next command recounts


def restamped(report: dict[str, Any], now: datetime, count_at_now: bool) -> dict[str, Any]:
    out = dict(report, analysed_at=now.isoformat())
    if count_at_now and isinstance(out.get("tally"), dict):
        out["tally"] = dict(out["tally"], at=now.isoformat())
    return out
