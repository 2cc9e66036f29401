"""The accuracy report: totals per half, per-game lines, every miss with its class.

Written as `accuracy.json` (everything, for tools) and `accuracy.md` (for people) in the
folder given by `--out`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any, Mapping, Sequence

from benchmarks.accuracy.game import GameReport


def totals(games: Sequence[GameReport]) -> dict[str, Any]:
    days = [d for g in games for d in g.days]
    scored = [d for d in days if d.right is not None]
    counts = [c for g in games for c in g.counts]
    misses = [m for g in games for m in g.misses]
    return {
        "games": len(games),
        "failed_games": sum(1 for g in games if g.error),
        "posts": sum(g.posts for g in games),
        "days": len(days),
        "days_with_outcome": len(scored),
        "days_right": sum(1 for d in scored if d.right),
        "days_outcome_not_in_data": sum(1 for d in days if d.expected is not None and not d.in_data),
        "counts": len(counts),
        "counts_exact": sum(1 for c in counts if c.exact),
        "counts_strict": sum(1 for c in counts if c.strict),
        "counts_with_moderator_error": sum(1 for c in counts if c.moderator_errors),
        "moderator_errors": sum(1 for m in misses if m.cls == "moderator_error"),
        "voter_misses": sum(1 for m in misses if m.cls != "moderator_error"),
        "miss_classes": dict(Counter(m.cls for m in misses if m.cls != "moderator_error").most_common()),
        "day_classes": dict(Counter(d.cls for d in scored if not d.right).most_common()),
        "cpu_seconds": round(sum(g.seconds for g in games), 1),
    }


def _pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "0/0"


def write(out: Path, games: Sequence[GameReport], meta: Mapping[str, Any], peer: Mapping[str, Any] | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    halves = {h: totals([g for g in games if g.half == h]) for h in ("tune", "check")}
    data = {"meta": dict(meta), "all": totals(games), "halves": halves, "peer": peer,
            "games": [asdict(g) for g in games]}
    (out / "accuracy.json").write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    (out / "accuracy.md").write_text(markdown(games, data), encoding="utf-8")


def markdown(games: Sequence[GameReport], data: Mapping[str, Any]) -> str:
    meta, peer = data["meta"], data["peer"]
    lines = ["# forummod on real games: accuracy report", "",
             f"Run {meta.get('started', '')}; {meta.get('wall_seconds', 0):.0f} s wall, jobs {meta.get('jobs')}; "
             f"corpus `{meta.get('corpus')}`; forummod {meta.get('forummod_version', '')}.", "",
             "| | all | tune | check |", "|---|---|---|---|"]
    cols = [data["all"], data["halves"]["tune"], data["halves"]["check"]]
    rows = [("games", lambda t: f"{t['games']} ({t['failed_games']} failed)"),
            ("days right / days with an outcome", lambda t: _pct(t["days_right"], t["days_with_outcome"])),
            ("moderator counts exact (moderator errors set aside)", lambda t: _pct(t["counts_exact"], t["counts"])),
            ("moderator counts exact, strict", lambda t: _pct(t["counts_strict"], t["counts"])),
            ("moderator errors (voter entries) / counts with one", lambda t: f"{t['moderator_errors']} / {t['counts_with_moderator_error']}"),
            ("voter misses", lambda t: str(t["voter_misses"])),
            ("days whose end is not in the data (not scored)", lambda t: str(t["days_outcome_not_in_data"]))]
    for label, f in rows:
        lines.append(f"| {label} | " + " | ".join(f(t) for t in cols) + " |")
    if peer:
        lines += ["", "## Peer", ""] + peer_lines(peer)
    lines += ["", "## Miss classes (voter entries of counts, moderator errors apart)", "",
              "| class | all | tune | check |", "|---|---:|---:|---:|"]
    for cls, n in data["all"]["miss_classes"].items():
        lines.append(f"| {cls} | {n} | {data['halves']['tune']['miss_classes'].get(cls, 0)} | "
                     f"{data['halves']['check']['miss_classes'].get(cls, 0)} |")
    lines += ["", "## Wrong days by class", "", "| class | days |", "|---|---:|"]
    lines += [f"| {c or '?'} | {n} |" for c, n in data["all"]["day_classes"].items()]
    lines += ["", "## Games", "", "| thread | game | half | posts | days right | counts exact | misses | mod errors | notes |",
              "|---|---|---|---:|---|---|---:|---:|---|"]
    for g in games:
        sd = [d for d in g.days if d.right is not None]
        note = "; ".join(filter(None, [g.error.splitlines()[0] if g.error else "", ", ".join(g.limitations),
                                        ("co-moderators: " + ", ".join(g.co_moderators)) if g.co_moderators else "",
                                        ("unmatched: " + ", ".join(g.unmatched)) if g.unmatched else ""]))
        lines.append(f"| {g.thread} | {g.title.replace('|', '/')} | {g.half} | {g.posts} | "
                     f"{sum(1 for d in sd if d.right)}/{len(sd)} | {sum(1 for c in g.counts if c.exact)}/{len(g.counts)} | "
                     f"{sum(1 for m in g.misses if m.cls != 'moderator_error')} | "
                     f"{sum(1 for m in g.misses if m.cls == 'moderator_error')} | {note.replace('|', '/')} |")
    lines += ["", "## Wrong days", "", "| thread | day | archive | forummod | how | hammer post | transition | class |",
              "|---|---:|---|---|---|---:|---:|---|"]
    for g in games:
        for d in g.days:
            if d.right is False:
                lines.append(f"| {g.thread} | D{d.day} | {d.expected} | {d.got} | {d.reason} | {d.hammer_post or ''} | "
                             f"{d.transition} | {d.cls} |")
    lines += ["", "## Every miss", "", "| thread | count post | day | voter | moderator | forummod | class | post | evidence | suggestions |",
              "|---|---:|---|---|---|---|---|---:|---|---|"]
    for g in games:
        for m in g.misses:
            ev = m.evidence.replace("|", "/").replace("\n", " ")[:200]
            lines.append(f"| {g.thread} | {m.post} | {m.phase} | {m.voter} | {_t(m.moderator)} | {_t(m.forummod)} | "
                         f"{m.cls} | {m.at_post or ''} | {ev} | {', '.join(m.suggestions)} |")
    return "\n".join(lines) + "\n"


def _t(x: str) -> str:
    return {"__no_lynch__": "no lynch", "__not_voting__": "not voting"}.get(x, x)


def peer_lines(peer: Mapping[str, Any]) -> list[str]:
    """The report's Peer section: a peer command's figures next to forummod's on the same days and
    counts (`peer.command_summary`), and/or the donbot-python probe's finding."""
    lines = [peer.get("summary", "")]
    for run in peer.get("commands", ()):
        lines += ["", f"### {(run.get('peer') or {}).get('name') or run['command']}", ""] + command_lines(run)
    if "all" in peer:
        lines += command_lines(peer)
    if peer.get("donbot_python"):
        lines += ["", "donbot-python (`--peer`): " + peer["donbot_python"].get("summary", "")]
    return lines


def command_lines(peer: Mapping[str, Any]) -> list[str]:
    """One peer command's figures next to forummod's, per half and per game."""
    lines = [peer.get("summary", "")]
    if "all" in peer:
        info = peer.get("peer") or {}
        about = ", ".join(f"{k} {info[k]}" for k in ("name", "commit", "licence", "version") if info.get(k))
        if about:
            lines += ["", f"Peer: {about}."]
        cols = [peer["all"], peer["halves"]["tune"], peer["halves"]["check"]]
        lines += ["", "| | all | tune | check |", "|---|---|---|---|"]
        rows = [("peer: days right / days with an outcome", lambda t: _pct(t["days_right"], t["days_with_outcome"])),
                ("forummod on the same days", lambda t: _pct(t["forummod_days_right"], t["days_with_outcome"])),
                ("peer: days it decided nothing (no majority reached, no lynch)", lambda t: str(t["days_undecided"])),
                ("days right by both / the peer only / forummod only",
                 lambda t: f"{t['days_both_right']} / {t['days_peer_only']} / {t['days_forummod_only']}"),
                ("peer: moderator counts exact (moderator errors set aside)", lambda t: _pct(t["counts_exact"], t["counts"])),
                ("peer: the same, strict", lambda t: _pct(t["counts_strict"], t["counts"])),
                ("forummod on the same counts", lambda t: _pct(t["forummod_counts_exact"], t["counts"])),
                ("counts the peer answered", lambda t: f"{t['counts_answered']}/{t['counts']}"),
                ("games the peer failed", lambda t: f"{t['failed_games']} of {t['games']}")]
        for label, f in rows:
            lines.append(f"| {label} | " + " | ".join(f(t) for t in cols) + " |")
        notes = sorted({n for g in peer.get("games", ()) for n in (g.get("extra") or {}).get("notes", ())})
        if notes:
            lines += [""] + [f"- {n}" for n in notes]
        lines += ["", "| thread | half | peer days right | forummod days right | peer counts exact | forummod counts exact | peer error |",
                  "|---|---|---|---|---|---|---|"]
        for g in peer.get("games", ()):
            sd = [d for d in g["days"] if d["right"] is not None]
            err = (g["error"].splitlines()[0] if g["error"] else "").replace("|", "/")[:160]
            lines.append(f"| {g['thread']} | {g['half']} | {sum(1 for d in sd if d['right'])}/{len(sd)} | "
                         f"{sum(1 for d in sd if d['forummod_right'])}/{len(sd)} | "
                         f"{sum(1 for c in g['counts'] if c['exact'])}/{len(g['counts'])} | "
                         f"{sum(1 for c in g['counts'] if c['forummod_exact'])}/{len(g['counts'])} | {err} |")
    return lines
