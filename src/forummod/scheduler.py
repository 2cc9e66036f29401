"""The daemon: APScheduler 3.x jobs that keep every game up to date and never miss a deadline.

What to run and when is a pure plan (`plan_jobs`) computed from the config and each game's
last analysis: one coalesced poll job per game at its interval, a date job at every upcoming
deadline (vote close, action deadline, phase end, ruleset timers such as a revote window),
a reminder before each deadline, and a job at every activity-block close. The `Daemon`
applies the plan to an APScheduler and re-plans after every pass, since deadlines move when
the GM extends them. At start every game gets a pass at once: the engine folds everything up
to now, so a deadline that passed while the daemon was down is handled exactly once.

How it runs (issue 34): a job only queues its game with the game's forum, where one worker
thread per forum runs the passes one at a time (per-host queues, as download managers and
crawlers keep them): a slow, throttling or down forum delays only its own games. A pass reads
the forum without the workspace lock and takes the lock only to store and act (`fetch_game`,
then `game_pass` under `locked`), so `forummod gm`, `publish` and the console wait at most
for that short part instead of being refused for the daemon's life. A forum that asks us to
wait or keeps failing is never slept for: its games are deferred (`site_health`), their passes
run on from the store without asking it, and the first good poll says it works again. A stop
(SIGTERM) ends every wait at once and gives passes at work `STOP_GRACE` seconds.
"""

from __future__ import annotations

import gc
import logging
import random
import signal
import threading
import time
from dataclasses import replace
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from forummod.config import Config, load_config
from forummod.engine.events import ActionDeadline, PhaseEnd, Timer, VoteClose
from forummod.errors import ForummodError, LockBusy, Stopped
from forummod.records import frozen
from forummod.site_health import SiteHealth, failed, succeeded

log = logging.getLogger("forummod.scheduler")

#: A deadline job runs just after its instant: deadlines are half-open, so at the instant itself
#: the fold would still count it as open.
AFTER = timedelta(milliseconds=200)
DAEMON_WAIT = 3.0  # seconds one request of the daemon may wait in all; longer defers the forum instead
STOP_GRACE = 8.0  # seconds a stop waits for passes at work (SIGTERM: the process ends within 10 s)
#: Seconds between two full garbage collections of the daemon. `service.analyse_game` freezes
#: everything alive while it reads a game (the collector then skips the loaded posts) and
#: unfreezes it into the oldest generation, which the collector's own schedule then never
#: collects: a daemon's garbage cycles piled up, about 1 MB a minute (issue 34, item 3).
COLLECT_EVERY_S = 60.0
#: What a queued pass is for, weakest first: two requests for one game make one pass, the stronger.
WHY_RANK = {"reminder": 0, "poll": 1, "block": 2, "deadline": 3, "start": 4}


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
        # the config refuses a poll_interval under config_checks.MIN_POLL_INTERVAL (30 s) for a forum
        # other people use: no silent clamp here
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


def forum_key(cfg: Config, site_name: str) -> str:
    """Which forum a site entry is: its origin (two entries for one forum share a worker and its
    back-off, as they share its politeness), or the entry itself for an archive."""
    from forummod.forum.http import origin

    site = cfg.sites[site_name]
    return (origin(site.base_url) if site.engine != "archive" else "") or f"{site.engine}:{site_name}"


class _Job:
    """A queued pass of one game; `done` is set once it ran (or was dropped at a stop)."""

    def __init__(self, game: str, why: str):
        self.game, self.why = game, why
        self.done = threading.Event()
        self.result: Any = None


class SiteWorker(threading.Thread):
    """One forum's passes, one at a time, in the order they were asked for, with the forum's
    back-off (`site_health`) and a workspace (store connection, adapters) of its own."""

    def __init__(self, daemon: "Daemon", key: str):
        super().__init__(name=f"forummod {key}", daemon=True)  # a pass stuck in a socket never holds the exit
        self.d, self.key = daemon, key
        self.health = SiteHealth()
        self.ws: Any = None
        self._queue: dict[str, _Job] = {}
        self._cond = threading.Condition()
        self._busy = False

    def submit(self, game: str, why: str) -> _Job:
        with self._cond:
            job = self._queue.get(game)
            if job is None:
                job = self._queue[game] = _Job(game, why)
                self._cond.notify_all()
            elif WHY_RANK.get(why, 1) > WHY_RANK.get(job.why, 1):
                job.why = why
            return job

    def idle(self) -> bool:
        with self._cond:
            return not self._queue and not self._busy

    def wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def run(self) -> None:
        stop = self.d.stopping
        try:
            while not stop.is_set():
                with self._cond:
                    while not self._queue and not stop.is_set():
                        self._cond.wait(0.5)
                    if stop.is_set():
                        break
                    game = next(iter(self._queue))
                    job = self._queue.pop(game)
                    self._busy = True
                try:
                    job.result = self.d.run_one(self, job.game, job.why)
                except Exception:  # a pass must never end the forum's worker
                    log.exception("%s: the pass failed", job.game)
                finally:
                    job.done.set()
                    with self._cond:
                        self._busy = False
                        self._cond.notify_all()
        finally:
            with self._cond:
                for job in self._queue.values():
                    job.done.set()
                self._queue.clear()
            if self.ws is not None:
                self.ws.close()

    def base_interval(self, cfg: Config) -> timedelta:
        """The forum's shortest poll interval: the first pause of its back-off."""
        seconds = [g.poll_interval.seconds for g in cfg.games.values()
                   if g.active and g.site in cfg.sites and forum_key(cfg, g.site) == self.key]
        return timedelta(seconds=max(1, min(seconds)) if seconds else 60)


class Daemon:
    """Plans the jobs and runs each game's passes on its forum's worker (module docstring)."""

    def __init__(self, config_path: Path, *, scheduler: Any = None, clock: Callable[[], datetime] | None = None,
                 pass_fn: Callable[..., Any] | None = None, workspace_factory: Callable[[Config], Any] | None = None,
                 stop_grace: float = STOP_GRACE):
        from apscheduler.schedulers.background import BackgroundScheduler

        self.config_path = Path(config_path)
        self.cfg = load_config(self.config_path)
        from forummod.config import config_warnings

        for warning in config_warnings(self.cfg):
            log.warning("%s", warning)
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.scheduler = scheduler or BackgroundScheduler(timezone=timezone.utc)
        self.stop_grace = stop_grace
        self._pass_fn = pass_fn
        self._ws_factory = workspace_factory
        self.stopping = threading.Event()
        self._write = threading.Lock()  # this process's passes take the workspace lock one at a time
        self._storing: set[str] = set()  # workers (thread names) inside `locked`: writing or acting
        self._plan = threading.Lock()
        self._count = threading.Lock()
        self.workers: dict[str, SiteWorker] = {}
        self._own_lock: Any = None  # the daemon's own lock: one daemon per workspace
        self.analyses: dict[str, Any] = {}
        self.passes = 0
        self._collected = time.monotonic()

    # ---- lifecycle
    def start(self) -> None:
        """Take the daemon's own lock, start the scheduler and a catch-up pass of every game."""
        from forummod.lock import WorkspaceLock

        ws_cfg = self.cfg.workspace
        self._own_lock = WorkspaceLock(ws_cfg.store_path(), stale_after_s=ws_cfg.lock_stale_after.seconds,
                                       command="forummod run", suffix=".daemon.lock").acquire()
        log.info("forummod daemon started: %d active games", sum(1 for g in self.cfg.games.values() if g.active))
        self.scheduler.start()
        for gid, game in self.cfg.games.items():  # catch-up pass for every game
            if game.active:
                self.request(gid, "start")
        self.replan()

    def stop(self) -> None:
        """Stop: every wait ends at once (`Stopped`); a pass storing or acting under the lock gets
        `stop_grace` seconds to finish; a pass still reading its forum is left to the exit at
        once (it has stored nothing: what it read is stored in one transaction, later)."""
        self.stopping.set()
        try:
            self.scheduler.shutdown(wait=False)  # jobs only queue passes: nothing to wait for
        except Exception:  # already stopped
            pass
        for w in self.workers.values():
            w.wake()
        deadline = time.monotonic() + self.stop_grace
        for w in list(self.workers.values()):
            while w.is_alive() and time.monotonic() < deadline:
                w.join(min(0.1, max(0.0, deadline - time.monotonic())))
                if w.is_alive() and w.name not in self._storing:
                    break  # in a network call (or between steps): nothing of it to keep
        stuck = [w.key for w in self.workers.values() if w.is_alive()]
        if stuck:
            log.warning("stopping without waiting for %s (a request still in flight; nothing half-stored)",
                        ", ".join(stuck))
        if self._own_lock is not None:
            self._own_lock.release()
            self._own_lock = None
        log.info("forummod daemon stopped after %d pass%s", self.passes, "" if self.passes == 1 else "es")

    def reload(self) -> None:
        """SIGHUP: read the config again (a bad file keeps the old one and says why); each worker
        takes the new config at its next pass."""
        from forummod.errors import ConfigError

        try:
            cfg = load_config(self.config_path)
        except ConfigError as e:
            log.error("config reload failed, keeping the previous config: %s", e)
            return
        self.cfg = cfg
        log.info("config reloaded")
        self.replan()

    # ---- work
    def request(self, game_id: str, why: str = "poll") -> _Job | None:
        """Queue a pass of `game_id` with its forum's worker (what every job does)."""
        if self.stopping.is_set():
            return None
        cfg = self.cfg
        game = cfg.games.get(game_id)
        if game is None or game.site not in cfg.sites:
            return None
        key = forum_key(cfg, game.site)
        with self._plan:
            worker = self.workers.get(key)
            if worker is None:
                worker = self.workers[key] = SiteWorker(self, key)
                worker.start()
        return worker.submit(game_id, why)

    def run_pass(self, game_id: str, why: str = "poll", timeout: float = 120.0) -> Any:
        """Queue a pass and wait for it (tests, and a caller that needs the result)."""
        job = self.request(game_id, why)
        if job is None:
            return None
        job.done.wait(timeout)
        return job.result

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until no pass is queued or running (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(w.idle() for w in list(self.workers.values())):
                return True
            time.sleep(0.02)
        return False

    @contextmanager
    def locked(self, what: str) -> Iterator[None]:
        """The workspace lock for one step of a pass, waited for up to `workspace.lock_wait`
        (a GM's command at work); `LockBusy` after that, `Stopped` at a stop."""
        from forummod.lock import WorkspaceLock

        if self.stopping.is_set():
            raise Stopped("stopping; the pass was not begun")
        ws_cfg = self.cfg.workspace
        patience = float(ws_cfg.lock_wait.seconds)
        if not self._write.acquire(timeout=patience or 0.001):
            raise LockBusy(f"another pass of this daemon kept the workspace for {patience:g} s")
        try:
            lock = WorkspaceLock(ws_cfg.store_path(), stale_after_s=ws_cfg.lock_stale_after.seconds,
                                 command=f"forummod run: {what}").acquire(patience, stop=self.stopping)
            me = threading.current_thread().name
            self._storing.add(me)
            try:
                yield
            finally:
                self._storing.discard(me)
                lock.release()
        finally:
            self._write.release()

    def run_one(self, worker: SiteWorker, game_id: str, why: str) -> Any:
        """One pass of `game_id` on its forum's worker thread (see the module docstring)."""
        if self.stopping.is_set():
            return None
        cfg = self.cfg
        game = cfg.games.get(game_id)
        if game is None or (not game.active and why != "start"):
            return None  # left the config, or set inactive, since the job was queued
        try:
            ws = self._workspace(worker, cfg)
            if self._pass_fn is not None:  # a whole custom pass (tests), under the lock
                with self.locked(f"pass {game_id}"):
                    result = self._pass_fn(ws, game_id, poll=why != "reminder")
                    analysis = self._analyse(ws, game_id)
            else:
                result = self._game_pass(worker, ws, game_id, why)
                analysis = getattr(result, "analysis", None)
        except Stopped:
            return None
        except LockBusy as e:
            log.warning("%s: pass skipped, the workspace stayed busy: %s; the next pass goes on", game_id, e)
            return None
        with self._count:
            self.passes += 1
            collect = time.monotonic() - self._collected >= COLLECT_EVERY_S
            if collect:
                self._collected = time.monotonic()
        if collect:
            gc.collect()  # see COLLECT_EVERY_S
        if analysis is not None:
            with self._plan:
                self.analyses[game_id] = analysis
        self.replan()  # deadlines move when the GM extends them
        return result

    def _workspace(self, worker: SiteWorker, cfg: Config) -> Any:
        """The worker's workspace on the current config (a reload is taken between passes); its
        store is first opened under the lock (opening it may record the games' identity)."""
        from forummod.service import Workspace

        if worker.ws is None:
            ws = self._ws_factory(cfg) if self._ws_factory else Workspace(cfg, clock=self.clock)
            ws.http_wait, ws.cancel = DAEMON_WAIT, self.stopping
            with self.locked("open the store"):
                ws.store
            worker.ws = ws
        elif worker.ws.cfg is not cfg:
            worker.ws.cfg = cfg
            worker.ws._adapters.clear()
        return worker.ws

    def _analyse(self, ws: Any, game_id: str) -> Any:
        from forummod.service import analyse_game

        try:
            return analyse_game(ws, game_id, now=self.clock())
        except Exception as e:  # a broken game must not stop the daemon
            log.error("%s: analysis failed: %s", game_id, e)
            return None

    def _game_pass(self, worker: SiteWorker, ws: Any, game_id: str, why: str) -> Any:
        """Fetch without the lock (unless the forum is backed off), then store and act under it,
        then learn from the poll how the forum is doing."""
        from forummod.pipeline import PassReport, game_pass
        from forummod.service import fetch_game

        poll = why != "reminder"
        now = self.clock()
        fetched, not_polled = None, None
        if poll and worker.health.blocked(now):
            h = worker.health
            not_polled = (f"not polled: {worker.key} is left alone until {_hhmm(h.until)} after {h.failures} "
                          f"failed tr{'y' if h.failures == 1 else 'ies'} in a row; the last: {h.error}", h.until)
        elif poll:
            fresh = None if why in ("start", "deadline", "block") else worker.base_interval(self.cfg) / 2
            try:
                fetched = fetch_game(ws, game_id, inbox_fresh=fresh, write_guard=lambda: self.locked(f"poll {game_id}"))
            except (Stopped, LockBusy):
                raise
            except ForummodError as e:  # bad local input (a password variable unset, an archive file)
                report = PassReport(game_id, None, error=str(e))
                log.info("%s", report.line())
                return report
        with self.locked(f"pass {game_id}"):
            result = game_pass(ws, game_id, poll=poll, fetched=fetched, not_polled=not_polled)
            if getattr(result, "analysis", None) is None and game_id not in self.analyses and result.error is None:
                # a quiet pass answered from the last process's note carries no analysis; the
                # daemon plans its deadlines from one, so the first such pass makes it (issue 30)
                result = replace(result, analysis=self._analyse(ws, game_id))
        if fetched is not None:
            self._learn(worker, result.poll, now)
        return result

    def _learn(self, worker: SiteWorker, poll: Any, now: datetime) -> None:
        """Back the forum off after a poll it refused or failed; say so once it answers again."""
        if poll is None:
            return
        if poll.retry_at is not None:
            worker.health = failed(worker.health, now, error=poll.error or "", retry_at=poll.retry_at,
                                   base=worker.base_interval(self.cfg), jitter=random.random())
            h = worker.health
            log.warning("%s: backed off until %s (%d failed tr%s in a row): %s", worker.key, _hhmm(h.until),
                        h.failures, "y" if h.failures == 1 else "ies", poll.error)
        elif poll.ok:
            before = worker.health
            worker.health, recovered = succeeded(before)
            if recovered:
                log.warning("%s: polling works again (it failed %d time%s from %s)", worker.key, before.failures,
                            "" if before.failures == 1 else "s", _hhmm(before.down_since))

    def replan(self) -> None:
        if self.stopping.is_set():
            return
        from apscheduler.triggers.date import DateTrigger
        from apscheduler.triggers.interval import IntervalTrigger

        with self._plan:
            now = self.clock()
            wanted = {j.id: j for j in plan_jobs(self.cfg, self.analyses, now)}
            for job in self.scheduler.get_jobs():
                if job.id not in wanted:
                    job.remove()
            existing = {j.id: j for j in self.scheduler.get_jobs()}
            for spec in wanted.values():
                old = existing.get(spec.id)
                if old is not None and spec.kind == "poll" and getattr(old.trigger, "interval", None) == \
                        timedelta(seconds=spec.every_s):
                    continue
                if old is not None and spec.kind != "poll":
                    continue  # a date job is keyed by its instant: the same id is the same job
                if spec.kind == "poll":
                    trigger = IntervalTrigger(seconds=spec.every_s, start_date=now + timedelta(seconds=spec.every_s))
                else:
                    trigger = DateTrigger(run_date=spec.at)
                self.scheduler.add_job(self.request, trigger, args=(spec.game, spec.kind), id=spec.id,
                                       name=spec.why, replace_existing=True, coalesce=True, max_instances=1,
                                       misfire_grace_time=None)

    def serve_forever(self) -> None:
        """Block until SIGTERM/SIGINT; SIGHUP reloads the config."""
        signal.signal(signal.SIGTERM, lambda *_: self.stopping.set())
        signal.signal(signal.SIGINT, lambda *_: self.stopping.set())
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, lambda *_: threading.Thread(target=self.reload, daemon=True).start())
        try:
            self.start()
            while not self.stopping.wait(0.5):
                pass
        finally:
            self.stop()


def _hhmm(at: datetime | None) -> str:
    """An instant as this computer's clock shows it, to the second."""
    return at.astimezone().strftime("%H:%M:%S") if at is not None else "?"
