"""Tables and JSON for benchmark results, and the scaling figures across sizes."""

from __future__ import annotations

import json
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

#: The issue's targets, checked in the table (never in a unit test).
TARGETS = {
    "poll_no_news_requests": 1,
    "poll_new_page_requests": 2,
    "parse_ratio_to_lxml": 0.5,  # at least
    "recount_first_ratio_to_sqlite": 15.0,  # at most
    "recount_cold_ratio_to_sqlite": 3.0,  # at most
    "cron_tally_ratio_to_read": 4.0,  # at most
    "poll_no_news_full_ratio_to_bare": 3.0,  # at most: a whole page, no 304, against a bare GET + parse
    "poll_no_news_flat_growth": 1.5,  # at most: 50,000 posts against 1,000
    "replay_rss_kb_per_post": 4.0,  # with a fixed 60 MB: the peak RSS of a replay under this
    "replay_rss_fixed_mb": 60.0,
}


def replay_rss_limit_mb(posts: int) -> float:
    """Issue 17 item 6: a replay's peak memory under 4 KB a post plus a fixed 60 MB."""
    return posts * TARGETS["replay_rss_kb_per_post"] / 1024 + TARGETS["replay_rss_fixed_mb"]


def _full(c: dict[str, Any], key: str) -> float:
    return c["poll"].get("no_news_full", {}).get(key, float("nan"))


#: Issue 17 item 4: the first recount at most 15x the read, a cold one (a fresh process) 3x.
_RECOUNT_LIMIT = {"first": TARGETS["recount_first_ratio_to_sqlite"], "cold": TARGETS["recount_cold_ratio_to_sqlite"]}


def machine() -> dict[str, Any]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor()
    load = None
    try:
        load = Path("/proc/loadavg").read_text().split()[:3]
    except OSError:
        pass
    import lxml.etree

    return {"cpu": cpu, "cores": _cores(), "python": sys.version.split()[0], "platform": platform.platform(),
            "lxml": ".".join(map(str, lxml.etree.LXML_VERSION[:3])),
            "libxml2": ".".join(map(str, lxml.etree.LIBXML_VERSION)), "loadavg_at_start": load}


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def scaling(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Per engine: cost per post at each size and the ratio between consecutive sizes (1.0 =
    linear growth; 10x the posts at 2.0 per post would be quadratic-ish)."""
    out: dict[str, Any] = {}
    by_engine: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        by_engine.setdefault(c["engine"], []).append(c)
    for engine, cs in by_engine.items():
        cs = sorted(cs, key=lambda c: c["posts"])
        rows = []
        for c in cs:
            rows.append({
                "posts": c["posts"],
                "poll_no_news_ms": round(c["poll"]["no_news"]["seconds"] * 1000, 1),
                "poll_no_news_full_ms": round(_full(c, "seconds") * 1000, 1),
                "poll_first_peak_rss_mb": c["poll"]["first"].get("peak_rss_mb"),
                "poll_first_ms_per_page": round(c["poll"]["first"]["seconds"] * 1000 / max(1, c["poll"]["first"]["requests"]), 2),
                "parse_us_per_post": c["parse"]["us_per_post"],
                "bare_lxml_us_per_post": round(1e6 / c["parse"]["lxml_posts_per_s"], 1),
                "parse_ratio_to_lxml": c["parse"]["ratio_to_lxml"],
                "sqlite_read_us_per_post": round(c["recount"]["sqlite_read_seconds"] / c["posts"] * 1e6, 2),
                "recount_cold_us_per_post": c["recount"]["cold"]["us_per_post"],
                "recount_warm_us_per_post": c["recount"]["warm"]["us_per_post"],
                "peak_rss_mb": c.get("memory", {}).get("peak_rss_mb"),
            })
        growth = []
        for a, b in zip(rows, rows[1:]):
            growth.append({"from": a["posts"], "to": b["posts"],
                           **{k: round(b[k] / a[k], 2) for k in a if k.endswith(("per_post", "per_page", "_ms"))
                              if a[k]}})
        if len(rows) > 2:  # the whole span too (issue 17: the no-news poll at 50,000 within 1.5x of 1,000)
            a, b = rows[0], rows[-1]
            growth.append({"from": a["posts"], "to": b["posts"],
                           **{k: round(b[k] / a[k], 2) for k in a if k.endswith(("per_post", "per_page", "_ms"))
                              if a[k]}})
        out[engine] = {"sizes": rows, "per_post_growth": growth}
    return out


def write_json(path: Path, cases: list[dict[str, Any]], meta: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": machine(),
           "targets": TARGETS, **meta, "cases": cases, "scaling": scaling(cases)}
    path.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")


def _ok(flag: bool) -> str:
    return "ok" if flag else "MISS"


def table(cases: list[dict[str, Any]]) -> str:
    """The results as a plain-text table, one column per (engine, size)."""
    cols = [f"{c['engine']} {c['posts']:,}" for c in cases]
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, values: Iterable[Any]) -> None:
        rows.append((label, [str(v) for v in values]))

    row("pages (posts a page)", (f"{c['pages']} ({c['per_page']})" for c in cases))
    row("game days / bold votes", (f"{c['game']['days']} / {c['game']['bold_votes']}" for c in cases))
    row("POLL first fetch: requests", (c["poll"]["first"]["requests"] for c in cases))
    row("  bytes", (f"{c['poll']['first']['bytes'] / 2**20:.1f} MiB" for c in cases))
    row("  seconds (wall, server in-process)", (c["poll"]["first"]["seconds"] for c in cases))
    row("  peak RSS MB (target < 150 at 50k)", (f"{c['poll']['first'].get('peak_rss_mb', float('nan')):.0f}" for c in cases))
    row("no new posts: requests (target 1)",
        (f"{c['poll']['no_news']['requests']} {_ok(c['poll']['no_news']['requests'] <= 1)}" for c in cases))
    row("  bytes", (c["poll"]["no_news"]["bytes"] for c in cases))
    row("  ms (wall)", (f"{c['poll']['no_news']['seconds'] * 1000:.1f}" for c in cases))
    row("no new posts, no 304: ms (wall)", (f"{_full(c, 'seconds') * 1000:.1f}" for c in cases))
    row("  bare GET + lxml parse of that page ms", (f"{_full(c, 'bare_get_parse_seconds') * 1000:.1f}" for c in cases))
    row("  ratio (target <= 3)", (f"{_full(c, 'ratio_to_bare'):.2f} {_ok(_full(c, 'ratio_to_bare') <= 3)}" for c in cases))
    row("one new page: requests (target 2)",
        (f"{c['poll']['new_page']['requests']} {_ok(c['poll']['new_page']['requests'] <= 2)}" for c in cases))
    row("  bytes / new posts / edited", (f"{c['poll']['new_page']['bytes'] / 1024:.0f} KiB / {c['poll']['new_page']['new_posts']}"
                                         f" / {c['poll']['new_page']['edited_posts']}" for c in cases))
    row("PARSE forummod posts/s", (f"{c['parse']['ours_posts_per_s']:,}" for c in cases))
    row("  bare lxml posts/s", (f"{c['parse']['lxml_posts_per_s']:,}" for c in cases))
    row("  ratio to lxml (target >= 0.5)",
        (f"{c['parse']['ratio_to_lxml']:.2f} {_ok(c['parse']['ratio_to_lxml'] >= 0.5)}" for c in cases))
    row("  BeautifulSoup ratio to lxml", (f"{c['parse']['bs4_ratio_to_lxml']:.3f}" for c in cases))
    row("RECOUNT sqlite read ms", (f"{c['recount']['sqlite_read_seconds'] * 1000:.1f}" for c in cases))
    for mode in ("first", "cold", "warm"):
        row(f"  {mode}: load/extract/fold/checks ms",
            ("/".join(f"{c['recount'][mode][k + '_seconds'] * 1000:.0f}" for k in ("load", "extract", "fold", "checks"))
             for c in cases))
        row(f"  {mode}: total ms", (f"{c['recount'][mode]['total_seconds'] * 1000:.0f}" for c in cases))
        if mode == "cold":
            row("  cold: the read in a fresh process ms",
                (f"{c['recount']['cold'].get('sqlite_read_seconds', float('nan')) * 1000:.1f}" for c in cases))
            row("  cold: ratio to the in-process read",
                (f"{c['recount']['cold'].get('ratio_to_in_process_read', float('nan')):.1f}" for c in cases))
        limit = _RECOUNT_LIMIT.get(mode)
        row(f"  {mode}: ratio to read" + (f" (target <= {limit:g})" if limit else ""),
            (f"{c['recount'][mode]['ratio_to_sqlite_read']:.1f}"
             + (f" {_ok(c['recount'][mode]['ratio_to_sqlite_read'] <= limit)}" if limit else "") for c in cases))
    if all("store_check" in c for c in cases):
        row("STORE open / quick_check / integrity_check ms",
            (f"{c['store_check']['open_seconds'] * 1000:.1f} / {c['store_check']['quick_check_seconds'] * 1000:.0f} / "
             f"{c['store_check']['integrity_check_seconds'] * 1000:.0f}" for c in cases))
        row("  quick_check: ratio to the read of the rows",
            (f"{c['store_check']['quick_check_ratio_to_read']:.2f}" for c in cases))
    row("CRON whole `forummod tally` CPU ms", (f"{_proc(c, 'tally_cpu_seconds') * 1000:.0f}" for c in cases))
    row("  fresh process reading the rows ms", (f"{_proc(c, 'read_cpu_seconds') * 1000:.0f}" for c in cases))
    row("  ratio (target <= 4)", (f"{_proc(c, 'ratio_to_read'):.1f} {_ok(_proc(c, 'ratio_to_read') <= 4)}" for c in cases))
    row("  votes read / findings / deaths", (f"{c['recount']['intents']} / {c['recount']['findings']} / "
                                              f"{c['recount']['deaths']}" for c in cases))
    if all("memory" in c for c in cases):
        row("MEMORY replay peak RSS MB (target < 4 KB a post + 60)",
            (f"{c['memory']['peak_rss_mb']:.0f} < {replay_rss_limit_mb(c['posts']):.0f} "
             f"{_ok(c['memory']['peak_rss_mb'] < replay_rss_limit_mb(c['posts']))}" for c in cases))
        row("  RSS after imports MB", (f"{c['memory']['rss_after_imports_mb']:.0f}" for c in cases))
        if all("tracemalloc_peak_mb" in c["memory"] for c in cases):
            row("  tracemalloc peak MB", (f"{c['memory']['tracemalloc_peak_mb']:.0f}" for c in cases))
    width = max(len(r[0]) for r in rows)
    colw = [max(len(h), *(len(r[1][i]) for r in rows)) for i, h in enumerate(cols)]
    lines = [" " * width + "  " + "  ".join(h.rjust(w) for h, w in zip(cols, colw))]
    for label, vals in rows:
        lines.append(label.ljust(width) + "  " + "  ".join(v.rjust(w) for v, w in zip(vals, colw)))
    return "\n".join(lines)


def _proc(c: dict[str, Any], key: str) -> float:
    return c["recount"].get("process", {}).get(key, float("nan"))


def scaling_table(cases: list[dict[str, Any]]) -> str:
    sc = scaling(cases)
    lines = []
    for engine, data in sc.items():
        if len(data["sizes"]) < 2:
            continue
        lines.append(f"{engine}: per-post cost at each size (growth to the next size; 1.0 = linear)")
        for r in data["sizes"]:
            lines.append(f"  {r['posts']:>7,} posts: parse {r['parse_us_per_post']:.0f} us (bare lxml "
                         f"{r['bare_lxml_us_per_post']:.0f} us, ratio {r['parse_ratio_to_lxml']:.2f}), sqlite read "
                         f"{r['sqlite_read_us_per_post']:.1f} us, recount cold {r['recount_cold_us_per_post']:.0f} us, "
                         f"warm {r['recount_warm_us_per_post']:.0f} us, poll {r['poll_first_ms_per_page']:.1f} ms/page, "
                         f"poll with nothing new {r['poll_no_news_ms']:.1f} ms (no 304: {r['poll_no_news_full_ms']:.1f} ms)")
        for g in data["per_post_growth"]:
            parts = ", ".join(f"{k.replace('_us_per_post', '').replace('_ms_per_page', '')} x{v:.2f}"
                              for k, v in g.items() if k not in ("from", "to"))
            lines.append(f"  {g['from']:,} -> {g['to']:,}: {parts}")
    return "\n".join(lines)


def markdown(cases: list[dict[str, Any]]) -> str:
    """The main figures as a Markdown table (for the README), one column per (engine, size)."""
    head = "| | " + " | ".join(f"{c['engine']} {c['posts']:,}" for c in cases) + " |"
    rows = [head, "|---|" + "---:|" * len(cases)]

    def row(label: str, fn: Any) -> None:
        rows.append(f"| {label} | " + " | ".join(fn(c) for c in cases) + " |")

    row("pages (posts a page)", lambda c: f"{c['pages']:,} ({c['per_page']})")
    row("first fetch: requests / MiB", lambda c: f"{c['poll']['first']['requests']:,} / {c['poll']['first']['bytes'] / 2**20:.0f}")
    row("poll, nothing new: requests / bytes", lambda c: f"{c['poll']['no_news']['requests']} / {c['poll']['no_news']['bytes']}")
    row("poll, one new page: requests / KiB", lambda c: f"{c['poll']['new_page']['requests']} / {c['poll']['new_page']['bytes'] / 1024:.0f}")
    row("parse: forummod posts/s", lambda c: f"{c['parse']['ours_posts_per_s']:,}")
    row("parse: bare lxml posts/s", lambda c: f"{c['parse']['lxml_posts_per_s']:,}")
    row("**parse: ratio to bare lxml** (≥ 0.5)", lambda c: f"**{c['parse']['ratio_to_lxml']:.2f}**")
    row("parse: BeautifulSoup ratio to lxml", lambda c: f"{c['parse']['bs4_ratio_to_lxml']:.3f}")
    row("first fetch: peak RSS, MB (< 150 at 50,000)", lambda c: f"{c['poll']['first'].get('peak_rss_mb', float('nan')):.0f}")
    row("poll, nothing new: ms (wall)", lambda c: f"{c['poll']['no_news']['seconds'] * 1000:.1f}")
    row("**poll, nothing new, no 304: ratio to a bare GET + parse** (≤ 3)", lambda c: f"**{_full(c, 'ratio_to_bare'):.2f}**")
    row("SQLite read of the rows, ms", lambda c: f"{c['recount']['sqlite_read_seconds'] * 1000:.0f}")
    for mode in ("first", "cold", "warm"):
        row(f"recount {mode}: load / extract / fold / checks, ms",
            lambda c, m=mode: " / ".join(f"{c['recount'][m][k + '_seconds'] * 1000:.0f}"
                                         for k in ("load", "extract", "fold", "checks")))
        row(f"**recount {mode}: ratio to the read**" + (" in a fresh process" if mode == "cold" else "")
            + (f" (≤ {_RECOUNT_LIMIT[mode]:g})" if mode in _RECOUNT_LIMIT else ""),
            lambda c, m=mode: f"**{c['recount'][m]['ratio_to_sqlite_read']:.1f}**")
    row("**cron `forummod tally`: ratio to a fresh process reading the rows** (≤ 4)",
        lambda c: f"**{_proc(c, 'ratio_to_read'):.1f}**")
    if all("store_check" in c for c in cases):
        row("store file MiB; open / quick_check / integrity_check, ms",
            lambda c: f"{c['store_check']['file_mib']:.0f}; {c['store_check']['open_seconds'] * 1000:.1f} / "
                      f"{c['store_check']['quick_check_seconds'] * 1000:.0f} / "
                      f"{c['store_check']['integrity_check_seconds'] * 1000:.0f}")
        row("quick_check: ratio to the open / to the read of the rows (at most once a day)",
            lambda c: f"{c['store_check']['quick_check_ratio_to_open']:.0f} / "
                      f"{c['store_check']['quick_check_ratio_to_read']:.2f}")
    if all("memory" in c for c in cases):
        row("**replay peak RSS, MB** (< 4 KB a post + 60)",
            lambda c: f"**{c['memory']['peak_rss_mb']:.0f}** (< {replay_rss_limit_mb(c['posts']):.0f})")
        row("RSS after imports / tracemalloc peak, MB",
            lambda c: f"{c['memory']['rss_after_imports_mb']:.0f} / "
                      + (f"{c['memory']['tracemalloc_peak_mb']:.0f}" if "tracemalloc_peak_mb" in c["memory"] else "not run"))
    return "\n".join(rows)

