"""Parse throughput on real forum pages (../shared/corpus), per engine, against bare lxml.

The synthetic pages date their posts with `<time datetime>`; real pages carry the dates
forums really print, so the parse set needs both. Every corpus page of a supported engine
that has a gold file is parsed by `html_engine.parse_thread_page` with its engine's profile
and by bare lxml with, for every field, the selector forummod reads it with on that page
(`bare.baseline_selectors(profile, page)`, chosen before any timing), each page twice per run
(once per side) in a random order drawn anew for every run; CPU time per engine and run, the
median run counts. A page where the bare container finds another number of posts than
forummod (read by the structural fallback, or with decoy or hidden posts dropped) is timed in
the same shuffled runs but reported apart (its posts per second) and left out of the ratio
(its baseline would not do the same work).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

#: corpus folder -> engine profile
ENGINE_DIRS = {"phpbb": "phpbb", "vbulletin": "vbulletin", "xenforo": "xenforo", "smf": "smf", "ipb": "invision",
               "discourse": "discourse"}
NOW = datetime(2020, 9, 1, 12, 0, tzinfo=timezone.utc)  # the pages were captured in 2020


def corpus_dir() -> Path | None:
    """$FORUMMOD_CORPUS, else ../shared/corpus beside the checkout; None when absent."""
    env = os.environ.get("FORUMMOD_CORPUS")
    path = Path(env) if env else Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
    return path if path.is_dir() else None


def corpus_pages(root: Path) -> list[tuple[str, str, bytes, str]]:
    """(engine, relative path, bytes, URL) of the pages with a gold file, sorted."""
    import json

    out = []
    for folder, engine in ENGINE_DIRS.items():
        for page in sorted((root / folder).glob("*.html")):
            gold = page.with_name(page.name[:-5] + ".gold.json")
            expected = page.with_name(page.name[:-5] + ".expected.json")
            if not gold.exists() and not expected.exists():
                continue
            url = ""
            if gold.exists():
                try:
                    url = json.loads(gold.read_text(encoding="utf-8")).get("url", "") or ""
                except ValueError:
                    url = ""
            out.append((engine, f"{folder}/{page.name}", page.read_bytes(), url or f"https://corpus.invalid/{folder}/{page.name}"))
    return out


def measure_corpus_parse(repeat: int = 5, seed: int = 17) -> dict[str, Any]:
    """Per engine: posts, pages, CPU seconds of each side (median run) and the ratio; or a skip note."""
    from zoneinfo import ZoneInfo

    from benchmarks.bare import BareLxml, baseline_selectors, post_rows
    from forummod.errors import ForummodError
    from forummod.forum.html_engine import parse_thread_page
    from forummod.forum.registry import profiles

    root = corpus_dir()
    if root is None:
        return {"skipped": "no corpus: ../shared/corpus is absent (set FORUMMOD_CORPUS to its folder)"}
    profs = profiles()
    utc = ZoneInfo("UTC")
    pages, fallback, failed = [], [], []
    for engine, rel, data, url in corpus_pages(root):
        prof = profs[engine]
        bare = BareLxml(baseline_selectors(prof, data))
        try:
            ours = len(parse_thread_page(prof, data, url=url, tz=utc, now=NOW).posts)
        except ForummodError as e:
            failed.append({"page": rel, "error": str(e)[:200]})
            continue
        rows: list = []
        bare(data, rows)
        entry = (engine, rel, data, url, prof, bare, ours)
        (pages if len(post_rows(rows)) == ours else fallback).append(entry)
    rng = random.Random(seed)
    per_run: list[dict[str, list[float]]] = []
    fallback_runs: list[list[float]] = []  # [ours, bare] seconds over the pages read another way
    apart = {id(p) for p in fallback}
    for _ in range(max(1, repeat)):
        work = [(p, side) for p in pages + fallback for side in ("ours", "bare")]
        rng.shuffle(work)
        times: dict[str, list[float]] = {}
        other = [0.0, 0.0]
        for entry, side in work:
            engine, rel, data, url, prof, bare, _ = entry
            t0 = time.process_time()
            if side == "ours":
                parse_thread_page(prof, data, url=url, tz=utc, now=NOW)
            else:
                bare(data, [])
            spent = time.process_time() - t0
            (other if id(entry) in apart else times.setdefault(engine, [0.0, 0.0]))[0 if side == "ours" else 1] += spent
        per_run.append(times)
        fallback_runs.append(other)
    engines: dict[str, Any] = {}
    for engine in ENGINE_DIRS.values():
        mine = [p for p in pages if p[0] == engine]
        if not mine:
            continue
        ours_t = statistics.median(r[engine][0] for r in per_run)
        bare_t = statistics.median(r[engine][1] for r in per_run)
        ratios = [r[engine][1] / r[engine][0] for r in per_run]
        n = sum(p[6] for p in mine)
        engines[engine] = {"pages": len(mine), "posts": n, "ours_seconds": round(ours_t, 4),
                           "lxml_seconds": round(bare_t, 4), "ours_posts_per_s": round(n / ours_t),
                           "ratio_to_lxml": round(statistics.median(ratios), 3)}
    ours_all = statistics.median(sum(v[0] for v in r.values()) for r in per_run)
    bare_all = statistics.median(sum(v[1] for v in r.values()) for r in per_run)
    return {"corpus": str(root), "runs": len(per_run), "engines": engines,
            "all": {"pages": len(pages), "posts": sum(p[6] for p in pages), "ratio_to_lxml": round(bare_all / ours_all, 3)},
            "fallback_pages": [{"page": p[1], "engine": p[0], "posts": p[6]} for p in fallback],
            "fallback": _fallback_figures(fallback, fallback_runs), "failed": failed}


def _fallback_figures(fallback: list, runs: list[list[float]]) -> dict[str, Any]:
    """Throughput on the pages read apart (structural fallback, or posts forummod drops): the
    bare baseline there selects other elements (or none), so its ratio is for reference only."""
    if not fallback:
        return {"pages": 0, "posts": 0}
    n = sum(p[6] for p in fallback)
    ours_t = statistics.median(r[0] for r in runs)
    return {"pages": len(fallback), "posts": n, "ours_seconds": round(ours_t, 4),
            "ours_posts_per_s": round(n / ours_t) if ours_t else 0,
            "bare_first_selectors_ratio": round(statistics.median(r[1] / r[0] for r in runs if r[0]), 3)}


def corpus_table(doc: dict[str, Any]) -> str:
    if "skipped" in doc:
        return f"PARSE real corpus pages: skipped ({doc['skipped']})"
    lines = [f"PARSE real corpus pages ({doc['corpus']}, random order, median of {doc['runs']} runs; target >= 0.6)"]
    for engine, e in doc["engines"].items():
        lines.append(f"  {engine:<10} {e['pages']:>2} pages {e['posts']:>4} posts  {e['ours_posts_per_s']:>6,} posts/s  "
                     f"ratio to bare lxml {e['ratio_to_lxml']:.2f} {'ok' if e['ratio_to_lxml'] >= 0.6 else 'MISS'}")
    a = doc["all"]
    lines.append(f"  {'all':<10} {a['pages']:>2} pages {a['posts']:>4} posts  ratio to bare lxml {a['ratio_to_lxml']:.2f}")
    if doc["fallback_pages"]:
        fb = doc.get("fallback") or {}
        lines.append(f"  apart, the bare container finds another post count (structural fallback, or posts forummod "
                     f"drops; not in the ratio): {fb.get('pages', 0)} pages "
                     f"{fb.get('posts', 0)} posts  {fb.get('ours_posts_per_s', 0):,} posts/s: "
                     + ", ".join(f"{p['page']} ({p['posts']} posts)" for p in doc["fallback_pages"]))
    if doc["failed"]:
        lines.append("  not parsed: " + ", ".join(f"{p['page']}" for p in doc["failed"]))
    return "\n".join(lines)
