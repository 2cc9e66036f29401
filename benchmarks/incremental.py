"""Issue 30, "pay only for what changed": `python -m benchmarks.incremental`.

Measures, on the synthetic phpBB games of `benchmarks.game` served from a loopback forum and
polled through the real `service.poll_game` into a real store:

- the scale table, one column a size (1,000 / 10,000 / 50,000 / 200,000 posts): the first poll
  (a fresh process), the first recount with every proposal approved and the checks (nothing
  saved: every body read, every quoted text written once), a recount from the saved
  extraction results (what a new post costs), a cron `status` and `tally` with nothing new (fresh
  processes, against a fresh process reading the rows and one reading a single row), the
  console page with nothing new (in the console server's process) and a poll with nothing new;
- a 20-game `tick` with nothing new (a fresh process) against one process doing the same 20
  GETs, parses and row reads with bare `requests`, lxml and sqlite3 (`BARE_TICK`);
- a cron `poll` with nothing new (a fresh process) against a fresh process doing its GET and
  parse (`BARE_POLL`).

Every ratio is taken in one run, the two sides interleaved run by run (a busy machine slows
both alike); the load average is recorded with each figure. Timings are CPU seconds of the
child processes (user + system) unless marked wall. No test asserts a timing: the smoke test
(tests/benchmarks/test_incremental_smoke.py) runs it tiny so it does not rot.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

from benchmarks.game import make_game
from benchmarks.markup import ENGINES
from benchmarks.server import ForumState, RunningForum
from benchmarks.suite import SQLITE_READ, _bytecode_env, _remove, _run_child, _thread_id
from benchmarks.workspace import GAME_ID, SITE, analysis_now, config_text

cpu = time.process_time
ENGINE = ENGINES["phpbb"]
DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results" / "incremental.json"


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def child_cpu(cmd: list[str], *, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(CPU seconds user + system, wall seconds, stdout) of one child process."""
    env = env or _bytecode_env()
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root / "src"), str(root), env.get("PYTHONPATH", "")) if p)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    wall = time.perf_counter() - t0
    if res.returncode not in (0, 1):
        raise RuntimeError(f"{cmd[:4]} failed ({res.returncode}): {res.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, res.stdout


def interleaved(sides: dict[str, list[str]], repeat: int) -> dict[str, Any]:
    """Run each side's command `repeat` times in turn (after one unmeasured run each): the median
    CPU and wall seconds of each, the ratios of the first side to the others, the load."""
    for cmd in sides.values():
        child_cpu(cmd)
    cpus: dict[str, list[float]] = {k: [] for k in sides}
    walls: dict[str, list[float]] = {k: [] for k in sides}
    before = load()
    names = list(sides)
    for i in range(max(1, repeat)):
        for name in (names if i % 2 == 0 else names[::-1]):
            c, w, _ = child_cpu(sides[name])
            cpus[name].append(c)
            walls[name].append(w)
    out: dict[str, Any] = {"runs": max(1, repeat), "load_before": before, "load_after": load()}
    for name in names:
        out[f"{name}_cpu_seconds"] = round(_median(cpus[name]), 4)
        out[f"{name}_wall_seconds"] = round(_median(walls[name]), 4)
    first = names[0]
    for name in names[1:]:
        out[f"ratio_to_{name}"] = round(_median(cpus[first]) / _median(cpus[name]), 2)
    return out


# --------------------------------------------------------------------------- the bare sides

#: A fresh process's floor of a nothing-new cron poll: GET the thread's last page with bare
#: `requests` and read it with bare lxml and the profile's selectors. Run as `-c` text.
BARE_POLL = """
import json, sys
import requests
from benchmarks.bare import BareLxml, BareSpec
url, sels = sys.argv[1], json.loads(sys.argv[2])
bare = BareLxml({k: tuple(BareSpec(**s) for s in v) for k, v in sels.items()})
rows = []
r = requests.get(url, timeout=30)
r.raise_for_status()
bare(r.text, rows)
print(len(rows))
"""

#: A fresh process's floor of a nothing-new `tick` over many games: for each game, read its
#: thread cursor and the stored posts of the last page (bare sqlite3), GET that page (bare
#: requests) and read it (bare lxml, the profile's selectors), compare the posts. One process,
#: the same GETs, parses and row reads as the tick.
BARE_TICK = """
import json, sqlite3, sys
import requests
from benchmarks.bare import BareLxml, BareSpec
store, sels, games = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
bare = BareLxml({k: tuple(BareSpec(**s) for s in v) for k, v in sels.items()})
db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
session = requests.Session()
same = 0
for site, thread in games:
    cursor = json.loads(db.execute("SELECT data FROM cursors WHERE site=? AND stream=?",
                                   (site, "thread:" + thread)).fetchone()[0])
    page = cursor["last_page"]
    stored = dict(db.execute("SELECT p.post_id, p.content_hash FROM posts p JOIN post_status s ON s.site=p.site"
                             " AND s.thread=p.thread AND s.post_id=p.post_id WHERE s.site=? AND s.thread=? AND s.page=?",
                             (site, thread, page)).fetchall())
    r = session.get(cursor["page_ref"]["url"], timeout=30)
    r.raise_for_status()
    rows = []
    bare(r.text, rows)
    same += sum(1 for row in rows if isinstance(row, tuple) and len(row) > 1 and str(row[0]).lstrip("p") in stored)
print(same)
"""

#: A fresh process that opens the store and reads one row of it: the floor of printing a
#: report kept there.
BARE_ROW = """
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
print(db.execute("SELECT count(*) FROM snapshots WHERE game=?", (sys.argv[2],)).fetchone()[0])
"""


def _selectors(ws: Any, url: str) -> str:
    """The profile's selections on the page at `url` (benchmarks.bare), as JSON for a child."""
    import requests

    from benchmarks.bare import baseline_selectors

    sels = baseline_selectors(ws.adapter(SITE).profile, requests.get(url, timeout=30).text)
    return json.dumps({k: [asdict(s) for s in v] for k, v in sels.items()})


# --------------------------------------------------------------------------- one size


def scale_case(n_posts: int, repeat: int, log: Callable[[str], None], keep: Path | None = None) -> dict[str, Any]:
    """Every figure of the scale table for one game size."""
    from forummod.config import load_config
    from forummod.service import Workspace

    game = make_game(n_posts)
    folder = Path(tempfile.mkdtemp(prefix=f"fm-incr-{n_posts}-", dir=keep))
    state = ForumState(ENGINE, list(game.posts), visible=len(game.posts))
    now = analysis_now(game)
    out: dict[str, Any] = {"posts": n_posts, "pages": ENGINE.pages(n_posts), "days": game.days,
                           "workspace": str(folder)}
    with RunningForum(state) as base_url:
        cfg = folder / "forummod.toml"
        cfg.write_text(config_text(ENGINE, base_url, folder), encoding="utf-8")
        log(f"  {n_posts:,}: first poll (fresh process)")
        out["first_poll"] = _first_poll(cfg, now)
        log(f"  {n_posts:,}: first recount with approvals and checks")
        out["first_recount"] = _first_recount(cfg, now, n_posts)
        log(f"  {n_posts:,}: recount from saved results")
        out["saved_recount"] = _saved_recount(cfg, now, n_posts, repeat)
        log(f"  {n_posts:,}: console page, nothing new")
        out["console"] = _console(cfg, now, repeat)
        log(f"  {n_posts:,}: cron status and tally, nothing new")
        out["cron"] = _cron_reports(cfg, now, repeat)
        log(f"  {n_posts:,}: poll, nothing new")
        out["poll"] = _polls(cfg, now, state, base_url, repeat)
    if keep is None:
        _remove(folder)
    return out


def _first_poll(cfg: Path, now: Any) -> dict[str, Any]:
    before = load()
    child = _run_child("benchmarks.poll_child", [str(cfg), now.isoformat()])
    if not child["ok"]:
        raise RuntimeError(f"first poll failed: {child['error']}")
    return {"seconds": child["seconds"], "us_per_post": round(child["seconds"] / max(1, child["new_posts"]) * 1e6, 1),
            "posts": child["new_posts"], "peak_rss_mb": child["peak_rss_mb"], "load_before": before,
            "load_after": load()}


def _first_recount(cfg: Path, now: Any, n_posts: int) -> dict[str, Any]:
    """The game's first recount with every proposal approved and its checks, nothing saved
    before: every body read and extracted, every text the checks quote read and written (in
    one write: `check_store.PostTexts`), in a fresh workspace (CPU seconds)."""
    from forummod.check_store import PostTexts, run_checks_saving
    from forummod.config import load_config
    from forummod.extract import clear_caches
    from forummod.service import Workspace, analyse_game

    with Workspace(load_config(cfg), clock=lambda: now) as ws:
        ws.store.db.execute("DELETE FROM extractions")
        ws.store.db.execute("DELETE FROM snapshots WHERE key=?", (PostTexts.KEY,))
        clear_caches()
        writes = []
        real = ws.store.remember

        def counting(game: str, key: str, *a: Any, **kw: Any) -> bool:
            if key == PostTexts.KEY:
                writes.append(key)
            return real(game, key, *a, **kw)

        ws.store.remember = counting  # type: ignore[method-assign]
        before = load()
        gc.collect()
        t0 = cpu()
        a = analyse_game(ws, GAME_ID, now=now, approve_all=True)
        t1 = cpu()
        ctx, findings = run_checks_saving(ws.store, a)
        t2 = cpu()
        texts = len((ws.store.snapshot(GAME_ID, PostTexts.KEY) or {}).get("texts", {}))
    return {"seconds": round(t2 - t0, 3), "analysis_seconds": round(t1 - t0, 3), "checks_seconds": round(t2 - t1, 3),
            "us_per_post": round((t2 - t0) / n_posts * 1e6, 1), "findings": len(findings),
            "deaths": sum(1 for p in a.state.players if not p.alive), "texts_quoted": texts,
            "post_text_writes": len(writes), "load_before": before, "load_after": load()}


def _saved_recount(cfg: Path, now: Any, n_posts: int, repeat: int) -> dict[str, Any]:
    """A recount with the extraction results saved (what the next new post costs: the fold runs
    again from the start, post bodies are not read again) and its checks, in-process."""
    from forummod.check_store import run_checks_saving
    from forummod.config import load_config
    from forummod.service import Workspace, analyse_game

    runs = []
    before = load()
    with Workspace(load_config(cfg), clock=lambda: now) as ws:
        analyse_game(ws, GAME_ID, now=now)  # results saved for the plain view
        for _ in range(max(1, repeat)):
            ws.analyses.clear()
            gc.collect()
            t0 = cpu()
            a = analyse_game(ws, GAME_ID, now=now)
            run_checks_saving(ws.store, a)
            runs.append(cpu() - t0)
    s = _median(runs)
    return {"seconds": round(s, 3), "us_per_post": round(s / n_posts * 1e6, 1), "runs": len(runs),
            "load_before": before, "load_after": load()}


def _console(cfg: Path, now: Any, repeat: int) -> dict[str, Any]:
    """The console page in the console server's process: the first load (a recount), then
    loads with nothing new, a second apart on the workspace's clock (CPU ms, median)."""
    from forummod.config import load_config
    from forummod.console.server import ConsoleServer
    from forummod.drafting import refresh_drafts
    from forummod.service import Workspace

    clock = [now]
    with Workspace(load_config(cfg), clock=lambda: clock[0]) as ws:
        refresh_drafts(ws, GAME_ID)  # the drafts a tick has made: the page lists them
        ws.analyses.clear()
        server = ConsoleServer(ws)
        before = load()
        gc.collect()
        t0 = cpu()
        server.console_page(GAME_ID)
        first = cpu() - t0
        loads = []
        for _ in range(max(3, repeat * 4)):
            clock[0] += timedelta(seconds=1)
            t0 = cpu()
            server.console_page(GAME_ID)
            loads.append(cpu() - t0)
        view = server._views[GAME_ID][1]
    return {"first_load_ms": round(first * 1000, 1), "nothing_new_ms": round(_median(loads) * 1000, 2),
            "loads": len(loads), "view_right_until": view.until.isoformat() if view.until else None,
            "load_before": before, "load_after": load()}


def _cron_reports(cfg: Path, now: Any, repeat: int) -> dict[str, Any]:
    """`forummod status` and `tally` with nothing new since the last (fresh processes) against
    a fresh process reading the rows a recount reads (`SQLITE_READ`) and one reading a row."""
    from forummod.config import load_config
    from forummod.service import Workspace

    with Workspace(load_config(cfg), clock=lambda: now) as ws:
        thread = _thread_id(ws)
        store = str(ws.store.path)
    py = sys.executable
    later = (now + timedelta(seconds=30)).isoformat()
    read = [py, "-c", SQLITE_READ + f"\nsqlite_read({store!r}, {SITE!r}, {thread!r}, {GAME_ID!r})"]
    row = [py, "-c", BARE_ROW, store, GAME_ID]
    out = {}
    for command in ("status", "tally"):
        cmd = [py, "-m", "forummod", command, "--config", str(cfg), "--now", later]
        child_cpu([py, "-m", "forummod", command, "--config", str(cfg), "--now", now.isoformat()])  # keeps it
        out[command] = interleaved({"command": cmd, "read": read, "row": row}, repeat)
    return out


def _polls(cfg: Path, now: Any, state: ForumState, base_url: str, repeat: int) -> dict[str, Any]:
    """A poll with nothing new: in-process (a 304; and from a server without ETags, against a
    bare GET + parse: benchmarks.suite), and as a cron `forummod poll` process against a fresh
    process doing the bare GET and parse of the same page."""
    from forummod.config import load_config
    from forummod.service import Workspace, poll_game

    from benchmarks.suite import _poll_without_etags

    out: dict[str, Any] = {"load_before": load()}
    with Workspace(load_config(cfg), clock=lambda: now) as ws:
        times = []
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            rep = poll_game(ws, GAME_ID, inbox=False)
            times.append(time.perf_counter() - t0)
            if not rep.ok or rep.new_posts:
                raise RuntimeError(f"poll with nothing new: {rep.error or rep.new_posts}")
        out["etag_ms"] = round(_median(times) * 1000, 2)
        out["no_etag"] = _poll_without_etags(ws, state, base_url, repeat)
        url = ws.store.cursor(SITE, "thread:" + _thread_id(ws)).page_ref.url
        sels = _selectors(ws, url)
    state.etags = False
    try:
        py = sys.executable
        out["process"] = interleaved({"poll": [py, "-m", "forummod", "poll", "--config", str(cfg), "--no-inbox"],
                                      "bare": [py, "-c", BARE_POLL, url, sels]}, repeat)
    finally:
        state.etags = True
    out["load_after"] = load()
    return out


# --------------------------------------------------------------------------- many games


def tick_case(n_games: int, posts_each: int, repeat: int, log: Callable[[str], None],
              keep: Path | None = None) -> dict[str, Any]:
    """`forummod tick` over `n_games` games with nothing new (a fresh process; every forum
    answers the whole page, no 304) against `BARE_TICK` doing the same GETs, parses and reads."""
    from contextlib import ExitStack

    from forummod.config import load_config
    from forummod.service import Workspace

    folder = Path(tempfile.mkdtemp(prefix=f"fm-tick-{n_games}-", dir=keep))
    games = [make_game(posts_each, seed=11 + i) for i in range(n_games)]
    with ExitStack() as stack:
        states = [ForumState(ENGINE, list(g.posts), visible=len(g.posts)) for g in games]
        bases = [stack.enter_context(RunningForum(s)) for s in states]
        cfg = folder / "forummod.toml"
        cfg.write_text(_many_games_config(folder, bases), encoding="utf-8")
        py = sys.executable
        tick = [py, "-m", "forummod", "tick", "--config", str(cfg)]
        log(f"  {n_games} games of {posts_each:,} posts: first ticks")
        for _ in range(2):  # the first polls and passes, then one that settles every game
            child_cpu(tick)
        for s in states:
            s.etags = False
        with Workspace(load_config(cfg)) as ws:
            pairs = []
            for gid in ws.cfg.games:
                from forummod.service import stored_thread_id, thread_refs

                pairs.append((ws.cfg.game(gid).site, stored_thread_id(ws, gid, thread_refs(ws.cfg.game(gid))[0])))
            store = str(ws.store.path)
            url = ws.store.cursor(pairs[0][0], "thread:" + pairs[0][1]).page_ref.url
            import requests

            from benchmarks.bare import baseline_selectors

            sels = json.dumps({k: [asdict(x) for x in v] for k, v in
                               baseline_selectors(ws.adapter(pairs[0][0]).profile,
                                                  requests.get(url, timeout=30).text).items()})
        bare = [py, "-c", BARE_TICK, store, sels, json.dumps(pairs)]
        log(f"  {n_games} games: tick with nothing new against the bare process")
        out = interleaved({"tick": tick, "bare": bare}, repeat)
        _, _, printed = child_cpu(tick + ["--json"])
        passes = json.loads(printed)["passes"]
        out.update({"games": n_games, "posts_each": posts_each,
                    "new_posts": sum((p["poll"] or {}).get("new_posts", 0) for p in passes),
                    "requests": sum((p["poll"] or {}).get("requests", 0) for p in passes)})
    if keep is None:
        _remove(folder)
    return out


def _many_games_config(folder: Path, bases: list[str]) -> str:
    from benchmarks.game import config_players

    players = "\n".join(f'[[games.PLACEHOLDER.players]]\nname = "{name}"\nrole = "{role}"\n'
                        for name, role in config_players())
    parts = [f'[workspace]\nstore = "{(folder / "store.sqlite").as_posix()}"\n']
    for i, base in enumerate(bases):
        parts.append(f"""
[sites.forum{i}]
engine = "{ENGINE.name}"
base_url = "{base}"
timezone = "UTC"
language = "en"
request_interval = 0.0
retries = 1
timeout = 30.0

[games.g{i}]
site = "forum{i}"
thread = "{base}{ENGINE.thread_path}"
ruleset = "mafia-majority"
timezone = "UTC"
gm = ["Moderator"]
seed = {11 + i}

{players.replace("PLACEHOLDER", f"g{i}")}""")
    return "".join(parts)


# --------------------------------------------------------------------------- the command


def _sizes(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip().lower()
        out.append(int(float(part.rstrip("k")) * (1000 if part.endswith("k") else 1)))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.incremental", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=_sizes, default=[1000, 10000, 50000, 200000], help="game sizes (1k, 10k...)")
    p.add_argument("--games", type=int, default=20, help="games of the many-games tick (0: skip it)")
    p.add_argument("--game-posts", type=int, default=1000, help="posts of each of those games")
    p.add_argument("--repeat", type=int, default=5, help="runs of each timed step (the median counts)")
    p.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    p.add_argument("--keep", type=Path, default=None, help="keep the workspaces under this folder")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    from benchmarks.report import machine

    started = time.monotonic()
    doc: dict[str, Any] = {"machine": machine(), "command": "python -m benchmarks.incremental " +
                           " ".join(argv if argv is not None else sys.argv[1:]), "scale": [], "tick": None}
    if args.games:
        log(f"tick over {args.games} games")
        doc["tick"] = tick_case(args.games, args.game_posts, args.repeat, log, args.keep)
    for n in args.sizes:
        log(f"{n:,} posts")
        doc["scale"].append(scale_case(n, args.repeat, log, args.keep))
    doc["seconds"] = round(time.monotonic() - started, 1)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    print(table(doc))
    print(f"\nwritten: {args.output}")
    return 0


def table(doc: dict[str, Any]) -> str:
    """The figures as Markdown tables (the scale table and the targets)."""
    cases = doc["scale"]
    lines = []
    if cases:
        head = "| | " + " | ".join(f"{c['posts']:,}" for c in cases) + " |"
        lines += [head, "|---|" + "---:|" * len(cases)]

        def row(label: str, fn: Callable[[dict[str, Any]], Any]) -> None:
            vals = []
            for c in cases:
                try:
                    vals.append(str(fn(c)))
                except (KeyError, TypeError):
                    vals.append("")
            lines.append(f"| {label} | " + " | ".join(vals) + " |")

        row("first poll: s (µs a post)", lambda c: f"{c['first_poll']['seconds']:.1f} ({c['first_poll']['us_per_post']:.0f})")
        row("first recount with approvals + checks: s (µs a post)",
            lambda c: f"{c['first_recount']['seconds']:.1f} ({c['first_recount']['us_per_post']:.0f})")
        row("  quoted texts / their writes", lambda c: f"{c['first_recount']['texts_quoted']} / "
                                                    f"{c['first_recount']['post_text_writes']}")
        row("recount from saved results + checks: s (µs a post)",
            lambda c: f"{c['saved_recount']['seconds']:.2f} ({c['saved_recount']['us_per_post']:.0f})")
        row("cron `status`, nothing new: CPU s", lambda c: f"{c['cron']['status']['command_cpu_seconds']:.3f}")
        row("  ratio to a process reading the rows / one row", lambda c: f"{c['cron']['status']['ratio_to_read']} / "
                                                                      f"{c['cron']['status']['ratio_to_row']}")
        row("cron `tally`, nothing new: CPU s", lambda c: f"{c['cron']['tally']['command_cpu_seconds']:.3f}")
        row("  ratio to a process reading the rows / one row", lambda c: f"{c['cron']['tally']['ratio_to_read']} / "
                                                                      f"{c['cron']['tally']['ratio_to_row']}")
        row("console page: first load ms", lambda c: f"{c['console']['first_load_ms']:.0f}")
        row("console page, nothing new: ms", lambda c: f"{c['console']['nothing_new_ms']:.1f}")
        row("poll, nothing new (304): ms wall", lambda c: f"{c['poll']['etag_ms']:.1f}")
        row("poll, nothing new, no 304: ratio to a bare GET + parse",
            lambda c: f"{c['poll']['no_etag']['ratio_to_bare']}")
        row("cron `poll` process, nothing new: CPU s (ratio to a bare GET + parse process)",
            lambda c: f"{c['poll']['process']['poll_cpu_seconds']:.3f} ({c['poll']['process']['ratio_to_bare']})")
        row("load average before / after the size", lambda c: f"{c['first_poll']['load_before'][0]} / "
                                                             f"{c['poll']['load_after'][0]}")
    t = doc.get("tick")
    if t:
        lines += ["", f"{t['games']}-game `tick`, nothing new ({t['posts_each']:,} posts each, no 304): "
                  f"{t['tick_cpu_seconds']:.3f} s CPU ({t['tick_wall_seconds']:.3f} s wall) against "
                  f"{t['bare_cpu_seconds']:.3f} s ({t['bare_wall_seconds']:.3f} s): ratio {t['ratio_to_bare']} "
                  f"(load {t['load_before'][0]} → {t['load_after'][0]})"]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
