"""Plain-data reports of an analysed game, for `--json` output and the terminal.

Pure functions of a `GameAnalysis`; the field names are the documented JSON interface of
`forummod tally --json` and `forummod status --json` (docs/json.md): times are ISO 8601 under
`at` or a key ending in `_at`, a phase is its name ("D2"), a player their configured name.
"""

from __future__ import annotations

from typing import Any

from forummod.engine.types import Tally
from forummod.model import NO_LYNCH, Issue


def _t(dt) -> str | None:
    return dt.isoformat() if dt is not None else None


def _source(src) -> dict[str, Any] | None:
    if src is None:
        return None
    return {"kind": src.kind, "id": src.id, "number": src.number, "thread": src.thread, "url": src.url}


def issue_dict(i: Issue) -> dict[str, Any]:
    return {"code": i.code, "message": i.message, "severity": i.severity, "player": i.player,
            "candidates": list(i.candidates), "rule": i.rule, "at": _t(i.at), "source": _source(i.source),
            "details": i.details}


def tally_dict(t: Tally | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {
        "phase": t.phase,
        "round": t.round,
        "at": _t(t.at),
        "living": t.living,
        "majority": t.majority,
        "restricted_to": list(t.restricted_to),
        "public_view": t.public,
        "candidates": [
            {
                "name": c.name,
                "no_lynch": c.name == NO_LYNCH,
                "total": c.total,
                "bonus": c.bonus,
                "bonus_note": c.bonus_note,
                "to_majority": (t.majority - c.total) if t.majority else None,
                "voters": [{"voter": v.voter, "weight": v.weight, "note": v.note, "at": _t(v.at),
                            "post_id": v.source.id if v.source else None,
                            "post_number": v.source.number if v.source else None,
                            "via": v.source.kind if v.source else None,
                            "secret": v.secret} for v in c.voters],
            }
            for c in t.candidates
        ],
        "not_voting": list(t.not_voting),
    }


def closed_public_tally(a, tally: Tally) -> Tally:
    """The thread's view of a closed day's count (also at night, after a hammer): the one the
    ruleset recorded as the vote closed, else the count with secret votes and hidden weights
    (a secret double voter, the Boia's x3) taken out; later deaths do not change it."""
    recorded = a.run.public_tally_for(tally.phase)
    if recorded is not None and recorded.round == tally.round:
        return recorded
    from forummod.render.build import public_tally

    seats = {p.name: p.seat for p in a.run.state.players}
    return public_tally(tally, seats, weights=a.ruleset.public_weights)


def now_stamped(a, *, public: bool = False) -> bool:
    """Whether `tally_report(a, public=...)`'s count is stamped with the analysis's `now` (the
    count in progress), so the same report at a later instant differs only there and in
    `analysed_at` (kept_reports.py)."""
    st = a.run.state
    if public and st.phase is not None and st.phase.kind == "day" and a.ruleset.voting_open(st):
        return True  # the thread's count of an open vote, made at `now`
    if not a.run.count_at_now:
        return False
    t = a.run.current_tally
    return not public or closed_public_tally(a, t).at == t.at  # the thread's view keeps the count's instant


def tally_report(a, *, public: bool = False) -> dict[str, Any]:
    run = a.run
    st = run.state
    tally = run.current_tally
    if public and st.phase is not None and st.phase.kind == "day" and a.ruleset.voting_open(st):
        tally = a.ruleset.tally(st, a.now, public=True)
    elif public and tally is not None:  # closed: the thread's view as the vote closed
        tally = closed_public_tally(a, tally)
    phase_name = st.phase.name if st.phase else None
    rejections = [r for r in run.rejections if r.kind in ("vote", "unvote") and (not public or r.public)]
    if phase_name:
        ph = st.phase
        rejections = [r for r in rejections if r.at is None or r.at >= ph.start]
    return {
        "game": a.game_id,
        "ruleset": a.game.ruleset,
        "analysed_at": _t(a.now),
        "phase": phase_name,
        "phase_kind": st.phase.kind if st.phase else None,
        "timezone": a.game.timezone,
        "vote_close_at": _t(st.phase.votes_close_at()) if st.phase and st.phase.kind == "day" else None,
        "tally": tally_dict(tally),
        # who held each replaced seat at that moment (the names in the count are theirs)
        "seats": [{"holder": p.name, "replaced": list(p.replaced)} for p in st.players if p.replaced],
        "rejected_votes": [{"voter": r.actor, "target": r.target, "reason": r.reason, "rule": r.rule,
                            "message": r.message, "at": _t(r.at), "source": _source(r.source)} for r in rejections],
        "issues": [issue_dict(i) for i in a.extraction_issues if phase_name is None or i.at is None
                   or st.phase is None or i.at >= st.phase.start],
    }


def status_report(a) -> dict[str, Any]:
    from forummod.gamestate_view import night_view, night_view_json

    st = a.run.state
    out = st.outcome
    names = getattr(a, "names", ())
    return {
        "game": a.game_id,
        "ruleset": a.game.ruleset,
        "analysed_at": _t(a.now),
        "phase": st.phase.name if st.phase else None,
        "phase_start_at": _t(st.phase.start) if st.phase else None,
        "phase_end_at": _t(st.phase.end) if st.phase else None,
        "alive": [p.name for p in st.players if p.alive],
        "dead": [{"player": p.name, "role": p.death.revealed or p.role, "revealed": p.death.revealed is not None,
                  "phase": p.death.phase, "cause": p.death.cause, "at": _t(p.death.at)}
                 for p in st.players if not p.alive and p.death is not None],
        "pending": [{"key": p.key, "kind": p.kind, "phase": p.phase, "summary": p.summary,
                     "created_at": _t(p.created_at)} for p in st.proposals if p.status == "pending"]
        + [{"key": n.key, "kind": "alias", "phase": None, "summary": name_summary(n), "created_at": _t(n.first_at)}
           for n in names if n.status == "pending"],
        "decided": [{"key": p.key, "status": p.status, "summary": p.summary, "decided_at": _t(p.decided_at)}
                    for p in st.proposals if p.status != "pending"]
        + [{"key": n.key, "status": n.status, "summary": name_summary(n), "decided_at": _t(n.decided_at)}
           for n in names if n.status != "pending"],
        "names": [name_dict(n) for n in names],
        "waiting": [f"{type(e).__name__} {getattr(getattr(e, 'phase', None), 'name', '')}".strip()
                    for e in a.run.waiting],
        "game_over": out is not None,
        "result": out.result if out else None,
        "winners": list(out.winners) if out else [],
        "win_reason": out.reason if out else None,
        "rejection_count": len(a.run.rejections),
        "issue_count": len(a.extraction_issues),
        "paused_at": _t(a.run.paused_since),  # paused since then (gm pause), else null
        "gm_events": gm_event_list(a.inputs.events),
        "stalled_at": _t(getattr(a, "stalled_since", None)),  # no activity since then: the game stalled
        "night_desk": night_view_json(night_view(a)),
        "posts_per_phase": posts_per_phase_report(a),  # issue 32
    }


def posts_per_phase_report(a) -> dict[str, Any]:
    """Each seat's posts in every phase so far (checks/phase_posts.py), as `status --json` has it."""
    from forummod.checks.phase_posts import posts_per_phase_json, posts_per_phase_of

    return posts_per_phase_json(posts_per_phase_of(a))


def name_summary(n) -> str:
    """An alias proposal in one line (English, like the engine's summaries; the faces word it)."""
    who = n.player if n.status == "approved" and n.player else " or ".join(n.candidates) or "?"
    parts = [", ".join(dict.fromkeys(e.rule for e in n.evidence))] if n.evidence else []
    if n.uses:
        parts.append(f"{len(n.uses)} vote{'s' if len(n.uses) != 1 else ''} so written")
    return f"“{n.spelling}” → {who}" + (f" ({'; '.join(parts)})" if parts else "")


def name_dict(n) -> dict[str, Any]:
    """One alias proposal for `status --json` (`names`): the spelling, its candidates and evidence,
    every unresolved use, and the GM's verdict."""
    return {
        "key": n.key, "spelling": n.spelling, "status": n.status, "candidates": list(n.candidates),
        "player": n.player, "event": n.event, "decided_at": _t(n.decided_at), "first_at": _t(n.first_at),
        "evidence": [{"rule": e.rule, "player": e.player, "form": e.form, "value": _num(e.value),
                      "source": _source(e.source)} for e in n.evidence],
        "uses": [{"voter": u.voter, "at": _t(u.at), "code": u.code, "source": _source(u.source)} for u in n.uses],
    }


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def gm_event_list(stored) -> list[dict[str, Any]]:
    """The GM's log with event numbers (for `gm undo N`), each marked when an undo took it back."""
    from forummod.service import undone_by

    stored = list(stored)
    undone = undone_by(stored)
    return [{"id": e.id, "at": _t(e.at), "kind": e.kind, "actor": e.actor, "summary": gm_event_summary(e),
             "undone_by": undone.get(e.id)} for e in stored if e.kind != "draw"]


def gm_event_summary(e) -> str:
    from forummod.i18n import readable_instant

    p = e.payload
    if e.kind == "decision":
        return f"{p.get('verdict', 'approve')} {p.get('key')}"
    if e.kind == "extend":
        parts = [f"until {readable_instant(p['until'])}" if p.get("until") else "",
                 f"vote close {readable_instant(p['close'])}" if p.get("close") else ""]
        return f"extend {p.get('phase')} " + ", ".join(x for x in parts if x)
    if e.kind == "phase":
        act = p.get("action")
        if act in ("end", "start"):
            where = f"after post {p['post']}" if act == "end" and p.get("post") is not None else \
                f"at post {p['post']}" if p.get("post") is not None else f"at {readable_instant(p.get('at'))}"
            return f"{act} {p.get('phase')} {where}"
        if act == "end_game":
            return f"end the game: {p.get('result')}" + (f" (winners {', '.join(p['winners'])})" if p.get("winners") else "")
        return str(act)
    if e.kind == "undo":
        return f"undo #{p.get('event')}"
    if e.kind == "override":
        k = p.get("kind")
        if k == "replace":
            when = f" after post {p['at_post']}" if p.get("at_post") is not None else ""
            return f"{p.get('target')} replaces {p.get('player')}{when}"
        return " ".join(x for x in (k, p.get("player"), p.get("target"), p.get("note")) if x)
    if e.kind == "action":
        return f"{p.get('actor')}: {p.get('action')} {' '.join(p.get('targets', ()))}".strip()
    if e.kind == "alias":
        if p.get("verdict") == "approve":
            return f"alias “{p.get('spelling')}” = {p.get('player')}"
        return f"reject {p.get('key')}"
    return e.kind


def secret_roles(a) -> dict[str, str]:
    """The GM-only role list (never in public drafts)."""
    return {p.name: p.role for p in a.run.state.players}
