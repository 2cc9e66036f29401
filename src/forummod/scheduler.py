"""The daemon: APScheduler 3.x jobs that keep every game up to date and never miss a deadline.

What to run and when is a pure plan (`plan_jobs`) computed from the config and each game's
last analysis: one coalesced poll job per game at its interval, a date job at every upcoming
deadline (vote close, action deadline, phase end, ruleset timers such as a revote window),
a reminder before each deadline, and a job at every activity-block close. The `Daemon`
applies the plan to an APScheduler and re-plans after every pass, since deadlines move when
the GM extends them. At start every game gets a pass at once: the engine folds everything up
to now, so a deadline that passed while the daemon was down is handled exactly once.
"""

from __future__ import annotations

import logging
import signal
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from forummod.config import Config, load_config
from forummod.engine.events import ActionDeadline, PhaseEnd, Timer, VoteClose
from forummod.records import frozen

log = logging.getLogger("forummod.scheduler")

#: A deadline job runs just after its instant: deadlines are half-open, so at the instant itself
#: the fold would still count it as open.
AFTER = timedelta(milliseconds=200)


@frozen
class JobSpec:
    id: str
    game: str
    kind: str  # poll, deadline, reminder, block
    at: datetime | None = None  # date jobs
    every_s: int | None = None  # interval jobs
    why: str = ""


def deadline_times(run: Any) -> list[tuple[datetime, str]]:
    """Upcoming deadlines of an analysed game: (instant, what)."""
    out = []
    for ev in getattr(run, "upcoming", ()):
        if isinstance(ev, VoteClose):
            out.append((ev.at, f"vote close {ev.phase.name}"))
        elif isinstance(ev, ActionDeadline):
            out.append((ev.at, f"action deadline {ev.phase.name}"))
        elif isinstance(ev, PhaseEnd):
            out.append((ev.at, f"end of {ev.phase.name}"))
        elif isinstance(ev, Timer):
            out.append((ev.at, f"{ev.name} {ev.phase}".strip()))
    return out


def block_closes(game_cfg: Any, run: Any, ruleset: Any, now: datetime) -> list[datetime]:
    """Activity-block ends still ahead in the current phase (ON-D2 and games that enable blocks)."""
    checks = game_cfg.checks
    enabled = checks.activity_blocks if checks.activity_blocks is not None else ruleset.activity_blocks
    st = run.state
    if not enabled or st.phase is None or st.phase.kind not in checks.block_phases:
        return []
    step = timedelta(hours=checks.block_hours)
    end = st.phase.end
    out, t = [], st.phase.start + step
    while t <= (end or now + 2 * step) and len(out) < 100:
        if t > now:
            out.append(t)
        t += step
    return out


def plan_jobs(cfg: Config, analyses: dict[str, Any], now: datetime) -> list[JobSpec]:
    """Every job the daemon should have now (pure)."""
    jobs: list[JobSpec] = []
    for gid, game in cfg.games.items():
        if not game.active:
            continue
        # the config refuses a poll_interval under config_checks.MIN_POLL_INTERVAL (30 s): no silent clamp here
        jobs.append(JobSpec(f"poll:{gid}", gid, "poll", every_s=game.poll_interval.seconds, why="poll"))
        a = analyses.get(gid)
        if a is None or a.run.state.outcome is not None:
            continue
        seen = set()
        for at, what in deadline_times(a.run):
            if at <= now or at in seen:
                continue
            seen.add(at)
            jobs.append(JobSpec(f"deadline:{gid}:{at.isoformat()}", gid, "deadline", at=at + AFTER,
                                why=what))
            before = at - game.schedule.reminder_before.td
            if before > now:
                jobs.append(JobSpec(f"reminder:{gid}:{at.isoformat()}", gid, "reminder", at=before,
                                    why=f"reminder: {what}"))
        for at in block_closes(game, a.run, a.ruleset, now):
            if at not in seen:
                jobs.append(JobSpec(f"block:{gid}:{at.isoformat()}", gid, "block", at=at + AFTER,
                                    why="activity block closes"))
    return jobs


class Daemon:
    """Owns the workspace lock, the store and an APScheduler; one pass at a time per workspace."""

    def __init__(self, config_path: Path, *, scheduler: Any = None, clock: Callable[[], datetime] | None = None,
                 pass_fn: Callable[..., Any] | None = None, workspace_factory: Callable[[Config], Any] | None = None):
        from apscheduler.schedulers.background import BackgroundScheduler

        self.config_path = Path(config_path)
        self.cfg = load_config(self.config_path)
        from forummod.config import config_warnings

        for warning in config_warnings(self.cfg):
            log.warning("%s", warning)
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.scheduler = scheduler or BackgroundScheduler(timezone=timezone.utc)
        self._pass_fn = pass_fn
        self._ws_factory = workspace_factory
        self._work = threading.Lock()  # passes never overlap (a pass writes one transaction per poll)
        self._stop = threading.Event()
        self.ws = None
        self.lock = None
        self.analyses: dict[str, Any] = {}
        self.passes = 0

    # ---- lifecycle
    def start(self) -> None:
        from forummod.lock import WorkspaceLock
        from forummod.service import Workspace

        self.lock = WorkspaceLock(self.cfg.workspace.store_path(),
                                  stale_after_s=self.cfg.workspace.lock_stale_after.seconds).acquire()
        self.ws = self._ws_factory(self.cfg) if self._ws_factory else Workspace(self.cfg, clock=self.clock)
        log.info("forummod daemon started: %d active games", sum(1 for g in self.cfg.games.values() if g.active))
        self.scheduler.start()
        for gid in list(self.cfg.games):  # catch-up pass for every game
            if self.cfg.games[gid].active:
                self.run_pass(gid, "start")
        self.replan()

    def stop(self) -> None:
        """Clean shutdown: wait for a running pass to finish, then close the store and the lock."""
        self._stop.set()
        try:
            self.scheduler.shutdown(wait=True)
        except Exception:  # already stopped
            pass
        with self._work:
            if self.ws is not None:
                self.ws.close()
                self.ws = None
            if self.lock is not None:
                self.lock.release()
                self.lock = None
        log.info("forummod daemon stopped after %d pass%s", self.passes, "" if self.passes == 1 else "es")

    def reload(self) -> None:
        """SIGHUP: read the config again (a bad file keeps the old one and says why)."""
        from forummod.errors import ConfigError

        try:
            cfg = load_config(self.config_path)
        except ConfigError as e:
            log.error("config reload failed, keeping the previous config: %s", e)
            return
        with self._work:
            self.cfg = cfg
            if self.ws is not None:
                self.ws.cfg = cfg
                self.ws._adapters.clear()
        log.info("config reloaded")
        self.replan()

    # ---- work
    def run_pass(self, game_id: str, why: str = "") -> Any:
        if self._stop.is_set():
            return None
        with self._work:
            if self.ws is None:
                return None
            from forummod.pipeline import game_pass
            from forummod.service import analyse_game

            fn = self._pass_fn or game_pass
            result = fn(self.ws, game_id, poll=why not in ("reminder",))
            self.passes += 1
            try:
                self.analyses[game_id] = analyse_game(self.ws, game_id, now=self.clock())
            except Exception as e:  # a broken game must not stop the daemon
                log.error("%s: analysis failed: %s", game_id, e)
        if why not in ("start",):
            self.replan()
        return result

    def replan(self) -> None:
        if self._stop.is_set():
            return
        from apscheduler.triggers.date import DateTrigger
        from apscheduler.triggers.interval import IntervalTrigger

        now = self.clock()
        wanted = {j.id: j for j in plan_jobs(self.cfg, self.analyses, now)}
        for job in self.scheduler.get_jobs():
            if job.id not in wanted:
                job.remove()
        existing = {j.id for j in self.scheduler.get_jobs()}
        for spec in wanted.values():
            if spec.id in existing and spec.kind == "poll":
                continue
            if spec.kind == "poll":
                trigger = IntervalTrigger(seconds=spec.every_s, start_date=now + timedelta(seconds=spec.every_s))
            else:
                trigger = DateTrigger(run_date=spec.at)
            self.scheduler.add_job(self.run_pass, trigger, args=(spec.game, spec.kind), id=spec.id,
                                   name=spec.why, replace_existing=True, coalesce=True, max_instances=1,
                                   misfire_grace_time=None)

    def serve_forever(self) -> None:
        """Block until SIGTERM/SIGINT; SIGHUP reloads the config."""
        signal.signal(signal.SIGTERM, lambda *_: self._stop.set())
        signal.signal(signal.SIGINT, lambda *_: self._stop.set())
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, lambda *_: threading.Thread(target=self.reload, daemon=True).start())
        self.start()
        try:
            while not self._stop.wait(0.5):
                pass
        finally:
            self.stop()
