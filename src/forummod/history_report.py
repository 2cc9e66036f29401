"""`forummod history --json` (issue 32): each day's vote changes and counts as data (docs/json.md)."""

from __future__ import annotations

from typing import Any, Sequence

from forummod.engine.history import VoteHistory
from forummod.model import NO_LYNCH
from forummod.report import _source, _t


def history_report(a: Any, h: VoteHistory, *, public: bool, days: Sequence[str] = (),
                   files: Sequence[str] = ()) -> dict[str, Any]:
    hidden = public and not a.ruleset.public_weights
    out = []
    for d in h.view(public):
        if days and d.phase not in days:
            continue
        out.append({
            "phase": d.phase,
            "start_at": _t(d.start),
            "end_at": _t(d.end),
            "open": d.open,
            "majority": d.majority,
            "hammer": None if d.hammer is None else {
                "at": _t(d.hammer.at), "candidate": d.hammer.candidate, "no_lynch": d.hammer.candidate == NO_LYNCH,
                "total": d.hammer.total, "source": _source(d.hammer.source)},
            "changes": [{"at": _t(c.at), "voter": c.voter, "from": c.before, "to": c.after,
                         "weight": 1 if hidden else c.weight, "counted": c.counted, "reason": c.reason or None,
                         "rule": c.rule, "notes": list(c.notes), "source": _source(c.source)} for c in d.changes],
            "counts": [{"at": _t(p.at), "candidates": [{"name": c.name, "total": c.total} for c in p.tally.candidates],
                        "majority": p.tally.majority} for p in d.points],
        })
    return {"game": a.game_id, "ruleset": a.game.ruleset, "analysed_at": _t(a.now), "public_view": public,
            "days": out, "files": list(files)}
