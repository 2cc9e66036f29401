"""The measurements: poll cost, parse throughput, recount latency, peak memory (one engine, one size).

Timings are CPU time of this process (`time.process_time`) except where waiting on the
network is the point (the poll). Every speed is reported as a ratio to a baseline measured
in the same run on the same input, interleaved with it page by page or run by run, so a busy
machine slows both sides alike: the ratios are the measure, absolute numbers only a guide.
"""

from __future__ import annotations

import gc
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

from benchmarks.bare import BareLxml, BareSoup, baseline_selectors, post_rows
from benchmarks.game import SynthGame, make_game
from benchmarks.markup import Engine
from benchmarks.server import ForumState, RunningForum
from benchmarks.workspace import GAME_ID, SITE, analysis_now, config_text

cpu = time.process_time


@dataclass(frozen=True)
class Options:
    repeat: int = 5  # runs of each timed step; the median counts
    bs4_pages: int = 8  # pages of the BeautifulSoup reference (it is slow; a sample gives its rate)
    memory: bool = True  # run the replay in a subprocess for its peak memory
    tracemalloc: bool = True  # and once more under tracemalloc
    keep: Path | None = None  # keep the workspace folders under this folder


def run_case(engine: Engine, n_posts: int, opts: Options, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Every measurement for one engine at one size; a JSON-ready dict."""
    game = make_game(n_posts)
    folder = Path(tempfile.mkdtemp(prefix=f"fm-bench-{engine.name}-{n_posts}-", dir=opts.keep))
    pp = engine.per_page
    first_visible = ((n_posts - 1) // pp) * pp  # every page but the last: the last comes as "one new page"
    state = ForumState(engine, list(game.posts), visible=first_visible)
    out: dict[str, Any] = {"engine": engine.name, "posts": n_posts, "pages": engine.pages(n_posts),
                           "per_page": pp, "game": _game_facts(game), "workspace": str(folder)}
    with RunningForum(state) as base_url:
        cfg_path = folder / "forummod.toml"
        cfg_path.write_text(config_text(engine, base_url, folder), encoding="utf-8")
        log(f"  {engine.name} {n_posts}: polling {engine.pages(first_visible)} pages from {base_url}")
        out["poll"] = measure_poll(state, game, cfg_path, base_url, opts.repeat)
    log(f"  {engine.name} {n_posts}: parse throughput")
    out["parse"] = measure_parse(cfg_path, engine, opts)
    log(f"  {engine.name} {n_posts}: recount")
    out["recount"] = measure_recount(cfg_path, game, opts)
    log(f"  {engine.name} {n_posts}: store check")
    out["store_check"] = measure_store_check(folder / "store.sqlite", game, opts)
    if opts.memory:
        log(f"  {engine.name} {n_posts}: replay memory (subprocess)")
        out["memory"] = measure_memory(cfg_path, game, opts)
    if opts.keep is None:
        _remove(folder)
    return out


def _game_facts(game: SynthGame) -> dict[str, Any]:
    return {"days": game.days, "bold_votes": game.votes, "lynched": [p for _, p in game.lynched],
            "quotes": sum(1 for p in game.posts if p.quote), "edited": sum(1 for p in game.posts if p.edited_at)}


def _remove(folder: Path) -> None:
    for p in sorted(folder.rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    folder.rmdir()


# --------------------------------------------------------------------------- poll


def measure_poll(state: ForumState, game: SynthGame, cfg_path: Path, base_url: str, repeat: int) -> dict[str, Any]:
    """First full fetch, a poll with nothing new (a 304; and, from a server that ignores
    If-None-Match, the whole last page against a bare GET and parse of it), a poll after one
    new page and an edit, each through `service.poll_game` into the store, counted by the
    client and by the server."""
    from forummod.config import load_config
    from forummod.service import Workspace, poll_game

    now = analysis_now(game)
    out: dict[str, Any] = {}
    with Workspace(load_config(cfg_path), clock=lambda: now) as ws:
        def step(name: str) -> None:
            state.reset_counters()
            t0 = time.perf_counter()
            rep = poll_game(ws, GAME_ID, inbox=False)
            wall = time.perf_counter() - t0
            if not rep.ok:
                raise RuntimeError(f"poll {name} failed: {rep.error}")
            out[name] = {"requests": rep.requests, "bytes": rep.bytes, "new_posts": rep.new_posts,
                         "edited_posts": rep.edited_posts, "seconds": round(wall, 3),
                         "server_requests": len(state.requests), "server_bytes": state.bytes_sent,
                         "server_304": state.not_modified}

        state.reset_counters()  # the first poll runs in a fresh interpreter, for its peak memory
        child = _run_child("benchmarks.poll_child", [str(cfg_path), now.isoformat()])
        if not child["ok"]:
            raise RuntimeError(f"poll first failed: {child['error']}")
        out["first"] = {**{k: child[k] for k in ("requests", "bytes", "new_posts", "edited_posts", "seconds",
                                                   "peak_rss_mb", "rss_after_imports_mb")},
                        "server_requests": len(state.requests), "server_bytes": state.bytes_sent,
                        "server_304": state.not_modified, "posts": state.visible}
        step("no_news")
        step("no_news_again")  # the better of two, both one conditional request
        if out["no_news_again"]["seconds"] < out["no_news"]["seconds"]:
            out["no_news"] = out["no_news_again"]
        del out["no_news_again"]
        out["no_news_full"] = _poll_without_etags(ws, state, base_url, repeat)
        last_known = state.visible
        edited = _edit_last_known_page(state, game, last_known)
        state.show(len(game.posts))
        step("new_page")
        out["new_page"]["edit_on_refetched_page"] = edited
        out["posts_stored"] = ws.store.post_count(SITE, _thread_id(ws))
    return out


def _poll_without_etags(ws: Any, state: ForumState, base_url: str, repeat: int) -> dict[str, Any]:
    """A poll with nothing new from a server that sends the whole page every time (no 304):
    `service.poll_game` (GET the last known page, parse it, compare with the stored posts,
    mark them seen) against the floor of that work, a bare `requests` GET of the same URL
    plus a bare-lxml parse of the page with the profile's selectors. Wall time (both sides
    wait on the same loopback server), in turn, the median of `repeat` runs of each; the
    ratio should not grow with the thread (issue 17: <= 3, flat from 1,000 to 50,000 posts)."""
    import requests

    from forummod.service import poll_game

    state.etags = False
    try:
        state.reset_counters()
        rep = poll_game(ws, GAME_ID, inbox=False)  # unmeasured: learns which URL a poll reads
        if not rep.ok or rep.new_posts or rep.edited_posts:
            raise RuntimeError(f"poll without ETags: {rep.error or 'posts changed'}")
        paths = list(state.requests)
        session = requests.Session()
        # the selection forummod makes on that page (found before any timing)
        sample = session.get(base_url + paths[-1].lstrip("/"), timeout=30).text
        bare = BareLxml(baseline_selectors(ws.adapter(SITE).profile, sample))
        ours: list[float] = []
        floor: list[float] = []

        def run_ours() -> None:
            t0 = time.perf_counter()
            r = poll_game(ws, GAME_ID, inbox=False)
            ours.append(time.perf_counter() - t0)
            if not r.ok or r.requests != len(paths):
                raise RuntimeError(f"poll without ETags: {r.error or r.requests}")

        def run_floor() -> None:
            rows: list = []
            t0 = time.perf_counter()
            for path in paths:
                resp = session.get(base_url + path.lstrip("/"), timeout=30)
                resp.raise_for_status()
                bare(resp.text, rows)
            floor.append(time.perf_counter() - t0)

        for i in range(max(1, repeat)):
            for f in (run_ours, run_floor)[:: 1 if i % 2 == 0 else -1]:
                gc.collect()
                f()
        o, b = statistics.median(ours), statistics.median(floor)
        return {"requests": len(paths), "seconds": round(o, 4), "bare_get_parse_seconds": round(b, 4),
                "ratio_to_bare": round(o / b, 2), "runs": len(ours)}
    finally:
        state.etags = True


def _thread_id(ws: Any) -> str:
    from forummod.service import thread_refs

    game = ws.cfg.game(GAME_ID)
    return ws.adapter(game.site).thread_id(thread_refs(game)[0])


def _edit_last_known_page(state: ForumState, game: SynthGame, last_known: int) -> int:
    """A player edits a post on the last page the store knows (it becomes a second version).
    The vote stays as it was, so the game still follows its rules."""
    page_start = ((last_known - 1) // state.engine.per_page) * state.engine.per_page
    for number in range(last_known, page_start, -1):
        p = game.posts[number - 1]
        if p.author != "Moderator":
            at = p.at + timedelta(minutes=7)
            state.edit(number, replace(p, paragraphs=(*p.paragraphs, "Edit: added my reads list."), edited_at=at))
            return number
    return 0


# --------------------------------------------------------------------------- parse


def measure_parse(cfg_path: Path, engine: Engine, opts: Options) -> dict[str, Any]:
    """Stored pages to posts through the site adapter's `parse_page` (the poller's parser),
    against bare lxml with the profile's selectors, page by page in turn; the fastest of
    `repeat` passes over all pages counts for each side."""
    from forummod.config import load_config
    from forummod.service import Workspace

    with Workspace(load_config(cfg_path)) as ws:
        adapter = ws.adapter(SITE)
        urls = [r[0] for r in ws.store.db.execute("SELECT url FROM pages WHERE site=? ORDER BY rowid", (SITE,))]
        # the selection forummod makes on these pages (one engine's template: the first shows it)
        sels = baseline_selectors(adapter.profile, ws.store.page(SITE, urls[0])[0])
        bare = BareLxml(sels)
        soup = BareSoup(sels)
        ours_runs: list[float] = []
        bare_runs: list[float] = []
        n_posts = n_bare = 0
        for _ in range(opts.repeat):
            gc.collect()
            ours_t = bare_t = 0.0
            posts: list = []
            rows: list = []
            for i, url in enumerate(urls):
                text = ws.store.page(SITE, url)[0]
                # Whichever side reads a freshly decompressed page first finds it in the CPU cache:
                # the side going first alternates page by page.
                if i % 2 == 0:
                    t0 = cpu()
                    bare(text, rows)
                    t1 = cpu()
                    posts.extend(adapter.parse_page(text, url).posts)
                    t2 = cpu()
                    bare_t += t1 - t0
                    ours_t += t2 - t1
                else:
                    t0 = cpu()
                    posts.extend(adapter.parse_page(text, url).posts)
                    t1 = cpu()
                    bare(text, rows)
                    t2 = cpu()
                    ours_t += t1 - t0
                    bare_t += t2 - t1
            ours_runs.append(ours_t)
            bare_runs.append(bare_t)
            n_posts, n_bare = len(posts), len(post_rows(rows))
            del posts, rows
        sample = urls[: max(1, min(opts.bs4_pages, len(urls)))]
        soup_t = bare_s = 0.0
        soup_rows: list = []
        lxml_rows: list = []
        for i, url in enumerate(sample):
            text = ws.store.page(SITE, url)[0]
            first, second = (soup, bare) if i % 2 == 0 else (bare, soup)
            t0 = cpu()
            first(text, soup_rows if first is soup else lxml_rows)
            t1 = cpu()
            second(text, soup_rows if second is soup else lxml_rows)
            t2 = cpu()
            soup_t += (t1 - t0) if first is soup else (t2 - t1)
            bare_s += (t2 - t1) if first is soup else (t1 - t0)
    if n_bare != n_posts:
        raise RuntimeError(f"bare lxml found {n_bare} posts, forummod {n_posts}: the selectors do not agree")
    best_ours, best_bare = statistics.median(ours_runs), statistics.median(bare_runs)
    return {
        "pages": len(urls), "posts": n_posts,
        "ours_seconds": round(best_ours, 4), "lxml_seconds": round(best_bare, 4),
        "ours_posts_per_s": round(n_posts / best_ours), "lxml_posts_per_s": round(n_posts / best_bare),
        "ratio_to_lxml": round(best_bare / best_ours, 3),
        "us_per_post": round(best_ours / n_posts * 1e6, 1),
        "bs4_sample_pages": len(sample), "bs4_posts_per_s": round(len(soup_rows) / soup_t),
        "bs4_ratio_to_lxml": round(bare_s / soup_t, 3),
        "baseline": {k: " | ".join(v.text() for v in sel) for k, sel in sels.items()},
    }


# --------------------------------------------------------------------------- recount


#: The floor: read the rows a recount needs (every post version, their status, the PMs, the event
#: log, the saved extraction results and snapshots) straight from SQLite into tuples. Kept as
#: text so the fresh process of the cold-process baseline runs exactly this.
SQLITE_READ = """
def sqlite_read(store_path, site, thread, game_id):
    import sqlite3
    db = sqlite3.connect(f"file:{store_path}?mode=ro", uri=True)
    try:
        n = len(db.execute("SELECT * FROM posts WHERE site=? AND thread=?", (site, thread)).fetchall())
        db.execute("SELECT * FROM post_status WHERE site=? AND thread=?", (site, thread)).fetchall()
        db.execute("SELECT * FROM messages WHERE site=?", (site,)).fetchall()
        db.execute("SELECT * FROM events WHERE game=?", (game_id,)).fetchall()
        db.execute("SELECT key, data FROM extractions WHERE game=?", (game_id,)).fetchall()
        db.execute("SELECT * FROM snapshots WHERE game=?", (game_id,)).fetchall()
        return n
    finally:
        db.close()
"""
exec(SQLITE_READ)  # the same text runs in the fresh process of the cold-process baseline




def recount(ws: Any, now: Any) -> dict[str, Any]:
    """load inputs and saved extraction results → extract → fold → checks, timed by stage
    (CPU seconds), as `service.analyse_game` does it (new results are saved, and the saving
    counts as extraction). The fold is `engine.core.run_game` inside `service.analyse`, timed
    through a wrapper; the rest of `analyse` (extraction, timeline, phases) counts as extraction."""
    from forummod import service
    from forummod.check_store import run_checks_saving
    from forummod.engine.registry import make_ruleset
    from forummod.extract.saved import context_fingerprint

    fold = [0.0]
    run_game = service.run_game

    def timed_run_game(*a: Any, **kw: Any) -> Any:
        t = cpu()
        try:
            return run_game(*a, **kw)
        finally:
            fold[0] += cpu() - t

    service.run_game = timed_run_game
    try:
        t0 = cpu()
        inputs = service.load_inputs(ws, GAME_ID)
        ruleset = make_ruleset(inputs.game.ruleset, inputs.game.options)
        fingerprint = context_fingerprint(service.extract_context(inputs, ruleset))
        saved = ws.store.saved_extractions(GAME_ID, fingerprint)
        t1 = cpu()
        a = service.analyse(inputs, now=now, approve_all=True, saved=saved)
        if a.fresh:
            ws.store.save_extractions(GAME_ID, fingerprint, dict(a.fresh))
        t2 = cpu()
        findings = run_checks_saving(ws.store, a)[1]
        t3 = cpu()
    finally:
        service.run_game = run_game
    tally = a.run.current_tally
    return {"load": t1 - t0, "extract": t2 - t1 - fold[0], "fold": fold[0], "checks": t3 - t2, "total": t3 - t0,
            "facts": {"posts": sum(len(v) for v in inputs.posts.values()), "intents": len(a.intents),
                      "extraction_issues": len(a.extraction_issues), "findings": len(findings),
                      "rejections": len(a.run.rejections), "deaths": sum(1 for p in a.state.players if not p.alive),
                      "phase": str(a.state.phase.id) if a.state.phase is not None else None,
                      "outcome": a.state.outcome.result if a.state.outcome is not None else None,
                      "tallies": len(a.run.tallies),
                      "tally_leader": tally.candidates[0].name if tally is not None and tally.candidates else None}}


def measure_recount(cfg_path: Path, game: SynthGame, opts: Options) -> dict[str, Any]:
    """The whole re-derivation from the store against reading its rows, run by run in turn.

    First: the very first recount of the game (nothing saved in the store, nothing remembered):
    every post body is read; `repeat` runs, each after the saved results are deleted and the
    caches cleared. Cold: a fresh process after an earlier run (a `forummod tick` from cron):
    `repeat` fresh interpreters (`benchmarks.recount_child`), extraction results come from the
    store, post bodies are not read again; its baseline is the same read in a fresh
    interpreter (`benchmarks.read_child`, in turn with the recount children), since a fresh
    process's first reads meet fresh memory and cold modules, which the benchmark process's
    own read does not (its ratio to that read is reported too). Warm: later runs in the same
    process (the daemon's next pass). The median run of each counts; the read's median is
    the baseline."""
    from forummod.config import load_config
    from forummod.extract import clear_caches
    from forummod.service import Workspace

    now = analysis_now(game)
    n = max(1, opts.repeat)
    reads: list[float] = []

    def read() -> None:
        gc.collect()
        t0 = cpu()
        sqlite_read(store_path, SITE, thread, GAME_ID)
        reads.append(cpu() - t0)
        gc.collect()

    with Workspace(load_config(cfg_path), clock=lambda: now) as ws:
        thread = _thread_id(ws)
        store_path = ws.store.path
        firsts, warms = [], []
        for _ in range(n):
            ws.store.db.execute("DELETE FROM extractions")
            ws.store.db.commit()
            clear_caches()  # nothing saved or remembered
            read()
            firsts.append(recount(ws, now))
        for _ in range(n):
            read()
            warms.append(recount(ws, now))
    colds: list[dict[str, Any]] = []
    cold_reads: list[float] = []
    child_args = [str(cfg_path), now.isoformat()]
    read_args = [str(store_path), SITE, thread, GAME_ID]
    _run_child("benchmarks.recount_child", child_args)  # unmeasured: fills the bytecode cache
    _run_child("benchmarks.read_child", read_args)
    for i in range(n):  # the store now holds every result: a fresh process reads them
        # against the same read in a fresh interpreter (fresh memory, cold module), in turn
        for run in ((lambda: colds.append(_run_child("benchmarks.recount_child", child_args))),
                    (lambda: cold_reads.append(_run_child("benchmarks.read_child", read_args)["read"])))[
                        :: 1 if i % 2 == 0 else -1]:
            run()
        read()
    read_s = statistics.median(reads)
    cold_read_s = statistics.median(cold_reads)

    def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
        return sorted(runs, key=lambda r: r["total"])[(len(runs) - 1) // 2]

    first, cold, warm = median_run(firsts), median_run(colds), median_run(warms)
    for r in (*firsts, *colds, *warms):
        if r["facts"] != first["facts"]:
            raise RuntimeError(f"recounts disagree: {first['facts']} != {r['facts']}")

    def stages(r: dict[str, Any], runs: list[dict[str, Any]], base: float) -> dict[str, Any]:
        return {**{f"{k}_seconds": round(r[k], 4) for k in ("load", "extract", "fold", "checks", "total")},
                "ratio_to_sqlite_read": round(r["total"] / base, 2),
                "us_per_post": round(r["total"] / max(1, r["facts"]["posts"]) * 1e6, 1), "runs": len(runs)}

    cold_out = {**stages(cold, colds, cold_read_s), "sqlite_read_seconds": round(cold_read_s, 4),
                "ratio_to_in_process_read": round(cold["total"] / read_s, 2)}
    return {"sqlite_read_seconds": round(read_s, 4), "first": stages(first, firsts, read_s), "cold": cold_out,
            "warm": stages(warm, warms, read_s), "process": measure_cold_process(cfg_path, game, thread, opts),
            **warm["facts"]}


def measure_store_check(store_path: Path, game: SynthGame, opts: Options) -> dict[str, Any]:
    """What SQLite's damage checks cost against opening the store and reading its rows (issue
    34): `quick_check` reads the whole file, so it runs at most once a day at open (and before
    each publish); `integrity_check` is `forummod store check`. Run by run in turn, medians."""
    from forummod.store import Store
    from forummod.store_file import problems

    thread = "1"
    with Store(store_path) as s:
        thread = s.db.execute("SELECT thread FROM posts LIMIT 1").fetchone()[0]
    opens, quicks, fulls, reads = [], [], [], []
    for _ in range(max(1, opts.repeat)):
        t0 = cpu()
        s = Store(store_path, check="never")
        opens.append(cpu() - t0)
        t0 = cpu()
        if problems(s.db):
            raise RuntimeError("the benchmark's store is damaged")
        quicks.append(cpu() - t0)
        t0 = cpu()
        problems(s.db, full=True)
        fulls.append(cpu() - t0)
        s.close()
        t0 = cpu()
        sqlite_read(store_path, SITE, thread, GAME_ID)
        reads.append(cpu() - t0)
    o, q, f, r = (statistics.median(x) for x in (opens, quicks, fulls, reads))
    return {"open_seconds": round(o, 5), "quick_check_seconds": round(q, 4), "integrity_check_seconds": round(f, 4),
            "sqlite_read_seconds": round(r, 4), "file_mib": round(store_path.stat().st_size / 2**20, 1),
            "quick_check_ratio_to_open": round(q / o, 1) if o else None,
            "quick_check_ratio_to_read": round(q / r, 2) if r else None}


def measure_cold_process(cfg_path: Path, game: SynthGame, thread: str, opts: Options) -> dict[str, Any]:
    """A cron `forummod tally` that recounts (its kept report dropped before each run) as a
    whole process (interpreter start, imports, config, store, the recount with saved results,
    the output) against a fresh interpreter that opens the
    store and reads the rows (`SQLITE_READ`), run in turn; CPU seconds of each child
    (user + system), the median of `repeat` runs after one unmeasured run of each. Bytecode
    is cached under a temporary folder, as an installed package has it."""
    import resource

    from forummod.config import load_config

    store_path = load_config(cfg_path).workspace.store_path()
    env = _bytecode_env()
    tally = [sys.executable, "-m", "forummod", "tally", "--config", str(cfg_path), "--now", analysis_now(game).isoformat()]
    read = [sys.executable, "-c", SQLITE_READ + f"\nsqlite_read({str(store_path)!r}, {SITE!r}, {thread!r}, {GAME_ID!r})"]

    def child_cpu(cmd: list[str]) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        wall = time.perf_counter() - t0
        if res.returncode != 0:
            raise RuntimeError(f"{cmd[2:4]} failed ({res.returncode}): {res.stderr[-2000:]}")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall

    def forget_kept() -> None:
        """Drop the tally kept by the last run (kept_reports.py, issue 30): each run recounts, as
        a cron tally after a new post does (benchmarks/incremental.py measures the kept one)."""
        db = sqlite3.connect(store_path)
        with db:
            db.execute("DELETE FROM snapshots WHERE key LIKE 'kept_report:%'")
        db.close()

    forget_kept()
    child_cpu(tally)
    child_cpu(read)
    tallies, reads, tally_wall, read_wall = [], [], [], []
    for i in range(max(1, opts.repeat)):
        for cmd, cpus, walls in ((tally, tallies, tally_wall), (read, reads, read_wall))[:: 1 if i % 2 == 0 else -1]:
            if cmd is tally:
                forget_kept()
            c, w = child_cpu(cmd)
            cpus.append(c)
            walls.append(w)
    t, r = statistics.median(tallies), statistics.median(reads)
    return {"tally_cpu_seconds": round(t, 4), "read_cpu_seconds": round(r, 4), "ratio_to_read": round(t / r, 2),
            "tally_wall_seconds": round(statistics.median(tally_wall), 3),
            "read_wall_seconds": round(statistics.median(read_wall), 3), "runs": len(tallies)}


# --------------------------------------------------------------------------- memory


def measure_memory(cfg_path: Path, game: SynthGame, opts: Options) -> dict[str, Any]:
    """Peak memory of a full replay (load → extract → fold → checks) in a fresh interpreter:
    the peak RSS (VmHWM), the RSS after imports, and (second run) tracemalloc's peak of Python allocations."""
    out = _child(cfg_path, game, trace=False)
    if opts.tracemalloc:
        out["tracemalloc_peak_mb"] = _child(cfg_path, game, trace=True)["tracemalloc_peak_mb"]
    return out


def _child(cfg_path: Path, game: SynthGame, *, trace: bool) -> dict[str, Any]:
    args = [str(cfg_path), analysis_now(game).isoformat()]
    return _run_child("benchmarks.replay_child", args + ["--tracemalloc"] if trace else args)


def _bytecode_env() -> dict[str, str]:
    """The environment of a measured child process: bytecode cached under a temporary folder,
    as an installed package has it (with PYTHONDONTWRITEBYTECODE a fresh interpreter would
    compile every module it imports and the cold figures would time the compiler)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "fm-bench-pycache")
    return env


def _run_child(module: str, args: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, "-m", module, *args]
    root = Path(__file__).resolve().parent.parent
    env = _bytecode_env()
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=root, env=env, timeout=3600)
    if res.returncode != 0:
        raise RuntimeError(f"{module} failed ({res.returncode}): {res.stderr[-2000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])
