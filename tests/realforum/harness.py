"""Machinery shared by the real-forum fixtures: cache folder, install stamps and locks, child
processes with logs, free loopback ports, and a server that starts, answers, stops and resets.

Nothing here knows a forum engine; `flaskbb_engine.py` and `spirit_engine.py` fill in the
install, seed and server commands. Nothing here imports forummod.

Layout of the cache (outside the checkout; `FORUMMOD_REALFORUM_CACHE` moves it):

    ~/.cache/forummod-realforum/
        install.lock                    one install or seed at a time, across processes
        <engine>-<version>-<key>/       the install (venv, project); `.installed` stamp
            seed-<key>/                 the seeded state snapshot + seed.json; `.seeded` stamp

A folder without its stamp is a half-finished job: it is removed and done again.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

import requests

HERE = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"


class EngineUnavailable(Exception):
    """The engine cannot be installed on this machine (no interpreter, no package index):
    its tests skip with this reason."""


class HarnessError(Exception):
    """The harness itself failed (install step, seed, start): a real failure, with the log."""


# --------------------------------------------------------------------------- cache and locks

def cache_root() -> Path:
    env = os.environ.get("FORUMMOD_REALFORUM_CACHE")
    if env:
        root = Path(env).expanduser()
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "forummod-realforum"
    root.mkdir(parents=True, exist_ok=True)
    return root.resolve()


def content_key(*parts: str | bytes | Path) -> str:
    """A short hash of files and strings: an input that changes makes a new cache folder."""
    h = hashlib.sha256()
    for p in parts:
        if isinstance(p, Path):
            data = p.read_bytes() if p.is_file() else b"".join(
                f.relative_to(p).as_posix().encode() + f.read_bytes()
                for f in sorted(p.rglob("*")) if f.is_file() and "__pycache__" not in f.parts)
        elif isinstance(p, str):
            data = p.encode()
        else:
            data = p
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:12]


@contextlib.contextmanager
def file_lock(path: Path, timeout: float = 900.0) -> Iterator[None]:
    """An exclusive advisory lock (flock) held by this process; released even on a crash."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as fh:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise HarnessError(f"timed out after {timeout:.0f} s waiting for the lock {path}")
                time.sleep(0.5)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def stamped(folder: Path, stamp: str) -> dict | None:
    """The stamp's data if `folder` holds a finished job, else None."""
    f = folder / stamp
    if not f.is_file():
        return None
    try:
        return json.loads(f.read_text())
    except ValueError:
        return None


def build_once(folder: Path, stamp: str, build: Callable[[Path], dict]) -> tuple[dict, bool]:
    """Run `build(folder)` unless `folder` already carries `stamp`; the caller holds the lock.

    A folder without the stamp (an install killed half-way) is removed first. The stamp is
    written last, so it exists only after a complete build. Returns (stamp data, built now).
    """
    done = stamped(folder, stamp)
    if done is not None:
        return done, False
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    t0 = time.monotonic()
    data = build(folder)
    data = {**data, "seconds": round(time.monotonic() - t0, 2), "finished": time.strftime("%Y-%m-%dT%H:%M:%S")}
    tmp = folder / (stamp + ".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(folder / stamp)
    return data, True


def prune_unused(parent: Path, pattern: str, keep: Path) -> None:
    """Remove the folders `parent/pattern` other than `keep` (an older install or seed, left by
    an input that changed) unless a running session holds their `.inuse` lock."""
    for old in parent.glob(pattern):
        if old == keep or not old.is_dir():
            continue
        with open(old / ".inuse", "a+") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            shutil.rmtree(old, ignore_errors=True)


# --------------------------------------------------------------------------- child processes

def tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return f"(no log at {path})"
    return "\n".join(text.splitlines()[-lines:])


def run(cmd: Sequence[str | Path], log: Path, *, env: Mapping[str, str] | None = None,
        cwd: Path | None = None, timeout: float = 600, error: type[Exception] = HarnessError,
        what: str = "") -> None:
    """Run a command to completion, appending its output to `log`; raise `error` with the
    log's tail when it fails."""
    cmd = [str(c) for c in cmd]
    with open(log, "ab") as fh:
        fh.write(f"\n$ {' '.join(cmd)}\n".encode())
        fh.flush()
        try:
            proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  env=dict(env) if env is not None else None, cwd=cwd, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise error(f"{what or cmd[0]}: timed out after {timeout:.0f} s; log {log}:\n{tail(log)}") from None
    if proc.returncode != 0:
        raise error(f"{what or cmd[0]}: exit {proc.returncode}; log {log}:\n{tail(log)}")


def clean_env(extra: Mapping[str, str] | None = None, path_prepend: Path | None = None) -> dict[str, str]:
    """The environment for a child in another venv: without this venv's variables."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "DJANGO_SETTINGS_MODULE", "FLASK_APP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    if path_prepend is not None:
        env["PATH"] = f"{path_prepend}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra or {})
    return env


def pip_install(venv: Path, args: Sequence[str | Path], log: Path, env: Mapping[str, str]) -> None:
    """`pip install` into `venv`. With every version pinned, a failure means the package index
    (or a wheel for this platform) cannot be reached: the engine is unavailable here."""
    try:
        run([venv / "bin" / "python", "-m", "pip", "install", "-q", *args], log, env=env, timeout=900,
            what="pip install")
    except HarnessError:
        lines = [ln for ln in tail(log, 400).splitlines() if "is ignored" not in ln and ln.strip()]
        errors = [ln for ln in lines if "ERROR" in ln or "Error" in ln] or lines
        raise EngineUnavailable(f"pip install failed (no package index?): {' | '.join(errors[-3:])} "
                                f"(log {log})") from None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((LOOPBACK, port))
        except OSError:
            return False
        return True


# --------------------------------------------------------------------------- server processes

def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM when the test process dies, even by SIGKILL
    (Linux prctl PR_SET_PDEATHSIG), so no forum server outlives a killed pytest."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


_LIVE: dict[int, "ServerProcess"] = {}


def _stop_all_at_exit() -> None:
    for proc in list(_LIVE.values()):
        proc.stop()


atexit.register(_stop_all_at_exit)


@dataclass
class ServerProcess:
    """One forum server: started in its own session (so its threads and any child go with it),
    stopped by its PID with SIGTERM, then SIGKILL after `grace` seconds."""

    cmd: list[str]
    env: dict[str, str]
    cwd: Path
    log: Path
    grace: float = 5.0
    popen: subprocess.Popen | None = field(default=None, repr=False)

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen else None

    def start(self) -> None:
        fh = open(self.log, "ab")
        fh.write(f"\n$ {' '.join(self.cmd)}\n".encode())
        fh.flush()
        try:
            self.popen = subprocess.Popen(self.cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                          env=self.env, cwd=self.cwd, start_new_session=True,
                                          preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
        finally:
            fh.close()
        _LIVE[self.popen.pid] = self

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def stop(self) -> None:
        p = self.popen
        if p is None:
            return
        _LIVE.pop(p.pid, None)
        self.popen = None
        if p.poll() is not None:
            return
        # The child leads its own process group (start_new_session): signal that group, whose id
        # is the child's PID, so nothing it spawned outlives it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(self.grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)

    def wait_until_up(self, url: str, timeout: float = 60.0) -> float:
        """Poll `url` until it answers below 500; returns the seconds it took."""
        t0 = time.monotonic()
        last = ""
        while time.monotonic() - t0 < timeout:
            if not self.alive():
                code = self.popen.returncode if self.popen else "?"
                raise HarnessError(f"server exited (code {code}) before answering {url}; log {self.log}:\n"
                                   f"{tail(self.log)}")
            try:
                r = requests.get(url, timeout=5, allow_redirects=False)
                if r.status_code < 500:
                    return time.monotonic() - t0
                last = f"HTTP {r.status_code}"
            except requests.RequestException as e:
                last = type(e).__name__
            time.sleep(0.1)
        self.stop()
        raise HarnessError(f"server did not answer {url} within {timeout:.0f} s (last: {last}); log {self.log}:\n"
                           f"{tail(self.log)}")


def copy_state(src: Path, dst: Path, names: Sequence[str]) -> None:
    """Copy the state files/folders `names` from `src` to `dst`, replacing what is there."""
    dst.mkdir(parents=True, exist_ok=True)
    for name in names:
        s, d = src / name, dst / name
        if d.is_dir():
            shutil.rmtree(d)
        elif d.exists():
            d.unlink()
        for suffix in ("-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                (dst / (name + suffix)).unlink()
        if s.is_dir():
            shutil.copytree(s, d)
        elif s.exists():
            shutil.copy2(s, d)


def python_version(exe: Path) -> tuple[int, int] | None:
    try:
        out = subprocess.run([str(exe), "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    major, minor = out.stdout.split()
    return int(major), int(minor)


def python_exe_of_this_venv() -> Path:
    return Path(sys.executable)
