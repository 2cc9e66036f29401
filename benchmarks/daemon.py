"""The daemon over time (issue 34): memory slope, poll cadence, a throttling forum, the stop.

`forummod run`, a real subprocess, keeps 20 games on four loopback forums up to date: three
demo phpBB forums of six games each (their pages sent without ETags, as real phpBB sends
them, so every pass fetches and parses a page; the GM's inbox is read as well) and one forum
that answers 503 + Retry-After 60 to everything, with two games (`--throttled-games 0`: none,
the load a daemon from before issue 34 could keep up with). Nothing new is ever posted.
Every `--sample` seconds the daemon's RSS (VmRSS) is read, and its journal gives each pass's
time. Reported, per daemon:

- memory: the RSS slope, least squares over the samples after `--warmup`, in MB per hour and
  KB per pass (flat is 0; issue 34 saw about 60 MB an hour, still rising after 25 minutes);
- cadence: each healthy game's median gap between passes over its poll interval (1.0 is on
  time; issue 34 saw 2.0: 20 games at 30 s polled every ~60 s), and its worst game;
- the throttling forum: the requests it received (it asked for 60 s between them);
- a pass: the median seconds a healthy game's pass took, as its journal line says;
- the stop: seconds from SIGTERM to the process's exit (the target is under 10).

`--src DIR` (repeatable) runs another forummod (its `src` folder) alongside under the same load:
each daemon gets forums of its own, all run at once and are sampled in turn, so a
comparison sees the same machine at the same time.

    .venv/bin/python -m benchmarks.daemon                                  # 10 minutes, 30 s intervals
    .venv/bin/python -m benchmarks.daemon --minutes 2 --interval 5
    .venv/bin/python -m benchmarks.daemon --src . --src ../main/src         # this tree and another
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = ROOT / "benchmarks" / "results" / "daemon.json"
PASSWORD_ENV = "FORUMMOD_BENCH_PASSWORD"
PASSWORD = "bench-password"
GM = "Mod"
PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
FORUMS, GAMES_PER_FORUM, THROTTLED_GAMES = 3, 6, 2
T0 = datetime.now(timezone.utc).replace(second=0, microsecond=0) - timedelta(hours=2)  # day 1, open all run
PASS_LINE = re.compile(r"^(\S+ \S+) INFO forummod: (\S+): .* new posts?\b.*?, (\d+\.\d)s$")
STOP_TARGET_S = 10.0


# ---------------------------------------------------------------------------- forums


def demo_forum(posts: int) -> Any:
    """A demo phpBB forum with GAMES_PER_FORUM game threads of `posts` posts, and a GM inbox."""
    from forummod.demo.site import PhpbbSite, SitePM, SiteThread

    site = PhpbbSite(name="Bench Forum", users={GM: PASSWORD})
    for t in range(1, GAMES_PER_FORUM + 1):
        site.threads[t] = SiteThread(t, f"Mafia {t}")
        site.add_post(t, GM, T0, "[b]Day 1[/b] begins. Vote with [b]VOTE: name[/b].")
        for i in range(posts - 1):
            site.add_post(t, PLAYERS[i % len(PLAYERS)], T0 + timedelta(minutes=i + 1),
                          f"[b]VOTE: {PLAYERS[(i + t) % len(PLAYERS)]}[/b] because of post {i}.")
    site.pms.append(SitePM(500, "Ann", GM, T0 + timedelta(hours=1), "night", "I check Bob"))
    return site


class NoEtags:
    """The demo forum's server with If-None-Match ignored (real phpBB sends no ETag on topics)."""

    def __init__(self, site: Any):
        from forummod.demo.site import make_server

        self.server = make_server(site)
        handler = self.server.RequestHandlerClass

        class Plain(handler):  # type: ignore[misc, valid-type]
            def do_GET(self) -> None:
                del self.headers["If-None-Match"]
                super().do_GET()

        self.server.RequestHandlerClass = Plain
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Throttling:
    """A forum that answers 503 + Retry-After to every request, counting them."""

    def __init__(self, retry_after: int = 60):
        self.hits = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                outer.hits += 1
                body = b"<html><body>Service unavailable</body></html>"
                self.send_response(503)
                self.send_header("Retry-After", str(retry_after))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def config_text(folder: Path, healthy: list[str], throttled: str | None, *, interval: int, request_interval: float,
                throttled_games: int = THROTTLED_GAMES) -> str:
    lines = [f'[workspace]\nstore = "{folder / "store.sqlite"}"\n']
    sites = {f"f{i}": base for i, base in enumerate(healthy)} | ({"slow": throttled} if throttled else {})
    for name, base in sites.items():
        lines.append(f'[sites.{name}]\nengine = "phpbb"\nbase_url = "{base}"\nrequest_interval = {request_interval}\n'
                     f'username = "{GM}"\npassword_env = "{PASSWORD_ENV}"\nrecheck_minutes = 0\n')
    players = ", ".join(f'{{ name = "{p}" }}' for p in PLAYERS)
    for name, base in sites.items():
        games = throttled_games if name == "slow" else GAMES_PER_FORUM
        for t in range(1, games + 1):
            lines.append(f'[games.{name}_{t}]\nsite = "{name}"\nthread = "{base}viewtopic.php?t={t}"\n'
                         f'ruleset = "mafia-majority"\ngm = ["{GM}"]\npoll_interval = "{interval}s"\n'
                         f'players = [{players}]\n[games.{name}_{t}.setup]\nroles = {{ mafia = 2, town = 6 }}\n'
                         f'deal = "random"\n[games.{name}_{t}.schedule]\nstart = "{T0.isoformat()}"\n'
                         f'vote_close = "9000h"\nday_end = "9000h"\n')
    return "\n".join(lines)


# ---------------------------------------------------------------------------- one daemon


@dataclass
class Run:
    """One daemon under load: its forums, process, RSS samples and journal."""

    src: Path
    folder: Path
    interval: int
    throttled_games: int = THROTTLED_GAMES
    forums: list[NoEtags] = field(default_factory=list)
    throttling: Throttling | None = None
    proc: subprocess.Popen | None = None
    samples: list[tuple[float, float]] = field(default_factory=list)  # (seconds since start, RSS MB)
    lines: list[str] = field(default_factory=list)
    started: float = 0.0
    stop_s: float | None = None

    def start(self, posts: int, request_interval: float) -> None:
        self.forums = [NoEtags(demo_forum(posts)) for _ in range(FORUMS)]
        self.throttling = Throttling() if self.throttled_games else None
        self.folder.mkdir(parents=True, exist_ok=True)
        cfg = self.folder / "forummod.toml"
        cfg.write_text(config_text(self.folder, [f.base_url for f in self.forums],
                                   self.throttling.base_url if self.throttling else None, interval=self.interval,
                                   request_interval=request_interval, throttled_games=self.throttled_games),
                       encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(self.src), PASSWORD_ENV: PASSWORD}
        self.proc = subprocess.Popen([sys.executable, "-m", "forummod", "run", "--config", str(cfg)],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
        self.started = time.monotonic()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def sample(self) -> None:
        assert self.proc is not None
        rss = rss_mb(self.proc.pid)
        if rss is not None:
            self.samples.append((time.monotonic() - self.started, rss))

    def stop(self) -> None:
        assert self.proc is not None
        t = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
            self.stop_s = time.monotonic() - t
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for f in self.forums:
            f.close()
        if self.throttling is not None:
            self.throttling.close()

    def result(self, warmup: float) -> dict[str, Any]:
        passes = self._passes()
        steady = [(t, m) for t, m in self.samples if t >= warmup]
        slope_per_s = _slope(steady)
        span = (steady[-1][0] - steady[0][0]) if len(steady) > 1 else 0.0
        n_steady = sum(1 for times in passes.values() for t in times if t >= warmup)
        healthy = {g: times for g, times in passes.items() if not g.startswith("slow_")}
        cadence = {g: statistics.median(_gaps(times)) / self.interval for g, times in healthy.items() if len(times) > 2}
        return {
            "src": str(self.src),
            "seconds": round(self.samples[-1][0], 1) if self.samples else 0,
            "rss_mb": {"first": _r(self.samples[0][1]) if self.samples else None,
                       "at_warmup": _r(steady[0][1]) if steady else None,
                       "last": _r(self.samples[-1][1]) if self.samples else None,
                       "max": _r(max(m for _, m in self.samples)) if self.samples else None},
            "rss_slope_mb_per_hour": _r(slope_per_s * 3600) if slope_per_s is not None else None,
            "rss_slope_kb_per_pass": (_r(slope_per_s * span * 1024 / n_steady)
                                      if slope_per_s is not None and n_steady else None),
            "passes": sum(len(t) for t in passes.values()),
            "passes_after_warmup": n_steady,
            "pass_seconds_median": _r(statistics.median(secs)) if (secs := self._pass_seconds(warmup)) else None,
            "cadence_ratio_median": _r(statistics.median(cadence.values())) if cadence else None,
            "cadence_ratio_worst": _r(max(cadence.values())) if cadence else None,
            "throttled_forum_requests": self.throttling.hits if self.throttling else None,
            "throttled_game_passes": sum(len(t) for g, t in passes.items() if g.startswith("slow_")),
            "stop_seconds": _r(self.stop_s) if self.stop_s is not None else None,
            "samples": [[_r(t), _r(m)] for t, m in self.samples],
        }

    def _passes(self) -> dict[str, list[float]]:
        """Seconds since the start of each game's passes, from the journal's pass lines."""
        out: dict[str, list[float]] = {}
        first = None
        for line in self.lines:
            m = PASS_LINE.match(line)
            if not m:
                continue
            at = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
            first = at if first is None else first
            out.setdefault(m.group(2), []).append(at - first)
        return out

    def _pass_seconds(self, warmup: float) -> list[float]:
        """What each healthy game's pass after the warm-up took, as its journal line says."""
        out, first = [], None
        for line in self.lines:
            m = PASS_LINE.match(line)
            if not m:
                continue
            at = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
            first = at if first is None else first
            if at - first >= warmup and not m.group(2).startswith("slow_"):
                out.append(float(m.group(3)))
        return out


def rss_mb(pid: int) -> float | None:
    """The resident memory of a live process in MB (Linux's /proc), None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of y over x."""
    if len(points) < 3:
        return None
    mx = statistics.fmean(x for x, _ in points)
    my = statistics.fmean(y for _, y in points)
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else None


def _gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in zip(times[1:], times[2:])]  # from the second pass: the first is the catch-up


def _r(x: float) -> float:
    return round(x, 3)


# ---------------------------------------------------------------------------- main


def measure(srcs: list[Path], *, minutes: float, interval: int, sample: float, warmup: float, posts: int,
            request_interval: float, folder: Path, progress: bool = True,
            throttled_games: int = THROTTLED_GAMES) -> dict[str, Any]:
    runs = [Run(src, folder / f"daemon{i}", interval, throttled_games) for i, src in enumerate(srcs)]
    for r in runs:
        r.start(posts, request_interval)
    end = time.monotonic() + minutes * 60
    try:
        while time.monotonic() < end:
            for r in runs:  # in turn: every daemon sampled at (nearly) the same moments
                r.sample()
            if progress:
                print(" ".join(f"{r.samples[-1][1]:.1f}" if r.samples else "-" for r in runs), "MB",
                      file=sys.stderr, flush=True)
            time.sleep(sample)
    finally:
        for r in runs:
            r.stop()
    return {"generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "settings": {"minutes": minutes, "interval_s": interval, "sample_s": sample, "warmup_s": warmup,
                         "posts_per_thread": posts, "request_interval_s": request_interval,
                         "games": FORUMS * GAMES_PER_FORUM + throttled_games,
                         "forums": FORUMS + (1 if throttled_games else 0)},
            "daemons": [r.result(warmup) for r in runs]}


def table(doc: dict[str, Any]) -> str:
    rows = [("forummod src", "RSS first / last, MB", "slope MB/h", "KB/pass", "passes", "pass s",
             "cadence median / worst", "throttled forum requests", "stop s")]
    for d in doc["daemons"]:
        rss = d["rss_mb"]
        rows.append((d["src"], f"{rss['first']} / {rss['last']}", str(d["rss_slope_mb_per_hour"]),
                     str(d["rss_slope_kb_per_pass"]), str(d["passes"]), str(d["pass_seconds_median"]),
                     f"{d['cadence_ratio_median']} / {d['cadence_ratio_worst']}", str(d["throttled_forum_requests"]),
                     str(d["stop_seconds"])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.daemon", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=10.0, help="how long the daemons run")
    p.add_argument("--interval", type=int, default=30, help="every game's poll interval, seconds")
    p.add_argument("--sample", type=float, default=5.0, help="seconds between RSS samples")
    p.add_argument("--warmup", type=float, default=None, help="seconds left out of the slope (default: a third)")
    p.add_argument("--posts", type=int, default=30, help="posts of each game thread")
    p.add_argument("--request-interval", type=float, default=2.0, help="each forum's request_interval, seconds")
    p.add_argument("--throttled-games", type=int, default=THROTTLED_GAMES,
                   help="games on the forum answering 503 + Retry-After 60 (0: no such forum)")
    p.add_argument("--src", type=Path, action="append", help="a forummod src folder to run (repeatable; default: this tree's)")
    p.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    p.add_argument("--quiet", action="store_true", help="print only the table")
    args = p.parse_args(argv)
    srcs = [s.resolve() for s in (args.src or [ROOT / "src"])]
    warmup = args.warmup if args.warmup is not None else args.minutes * 60 / 3
    with tempfile.TemporaryDirectory(prefix="forummod-bench-daemon-") as tmp:
        doc = measure(srcs, minutes=args.minutes, interval=args.interval, sample=args.sample, warmup=warmup,
                      posts=args.posts, request_interval=args.request_interval, folder=Path(tmp),
                      progress=not args.quiet, throttled_games=args.throttled_games)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
