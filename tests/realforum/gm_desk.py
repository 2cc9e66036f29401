"""A Game Master's desk for the end-to-end tests: forummod set up for one running real forum,
driven the way a GM drives it.

    desk = GMDesk.create(forum, folder)     config (store under `folder`) for the seeded game
    desk.cli("poll")                        `forummod --config ... poll` in this process
    desk.cli_json("tally", "--at", "20")    the same with --json, parsed (exit code 0 asserted)
    desk.spawn("publish", "3", patch=...)   a subprocess `forummod ...` (for SIGKILL tests)
    desk.workspace()                        a forummod.service.Workspace on the desk's config
    desk.copy(folder)                       the same store copied (a writing test works on its own copy)

The GM's password is in the environment variable the config names (PASSWORD_ENV), as a real
GM's would be; nothing secret is written into the config file.

`script_before_post(script, n)` is the game script cut just before game-thread post `n` (PMs
sent after that post's time dropped), so `reference_tally()` on it is the count a GM expects
from `forummod tally --at n`, computed from the script's declared intents, not from forummod.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from .base import RealForum
from .script import GameScript

PASSWORD_ENV = "FORUMMOD_E2E_GM_PASSWORD"
GAME = "lupus"
CONFIG_NAME = "forummod.toml"
STORE_NAME = "store.sqlite"

#: A subprocess running `forummod` with a patch applied first (e.g. one that SIGKILLs itself).
RUNNER = """
import sys
from forummod.cli import main
{patch}
sys.exit(main(sys.argv[1:]))
"""

#: Patch for `spawn`: the process SIGKILLs itself when the publisher records a send as done,
#: i.e. after the adapter posted and before the store knows it (no cleanup, no finally).
KILL_WHEN_RECORDING_SENT = """
import os, signal
from forummod.store import Store
_finish = Store.finish_publication
def _die_when_sent(self, draft_id, at, *, remote_id, url, state="sent", error=None):
    if state == "sent":
        os.kill(os.getpid(), signal.SIGKILL)
    return _finish(self, draft_id, at, remote_id=remote_id, url=url, state=state, error=error)
Store.finish_publication = _die_when_sent
"""


# the one list each listing command's JSON carries (docs/json.md)
LIST_KEYS = {"drafts": "drafts", "draft": "drafts", "publish": "publications", "poll": "polls",
             "check": "findings", "tick": "passes", "discard": "discarded"}


@dataclass(frozen=True)
class CliResult:
    rc: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


@dataclass
class GMDesk:
    forum: RealForum
    folder: Path

    @classmethod
    def create(cls, forum: RealForum, folder: Path) -> "GMDesk":
        desk = cls(forum, folder)
        folder.mkdir(parents=True, exist_ok=True)
        desk.write_config()
        return desk

    @property
    def config_path(self) -> Path:
        return self.folder / CONFIG_NAME

    @property
    def store_path(self) -> Path:
        return self.folder / STORE_NAME

    def write_config(self) -> None:
        """The forum's config for the seeded game (its current port), store in this folder."""
        text = self.forum.config_toml(game=GAME, password_env=PASSWORD_ENV, store=str(self.store_path))
        self.config_path.write_text(text, encoding="utf-8")

    def env(self) -> dict[str, str]:
        return {PASSWORD_ENV: self.forum.password}

    # ------------------------------------------------------------------ forummod

    def cli(self, command: str, *args: str) -> CliResult:
        """`forummod COMMAND --config <desk> ARGS...` in this process (stdout and stderr captured)."""
        from forummod.cli import main

        out, err = io.StringIO(), io.StringIO()
        with _env(self.env()), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main([command, "--config", str(self.config_path), *args])
        return CliResult(rc, out.getvalue(), err.getvalue())

    def cli_json(self, command: str, *args: str) -> Any:
        """The command's data (docs/json.md): the list of a listing command, else the object."""
        res = self.cli(command, "--json", *args)
        assert res.rc == 0, f"forummod {command} {' '.join(args)} -> {res.rc}\n{res.err}\n{res.out}"
        data = res.json()
        assert data["schema_version"] == 1 and data["command"] == command
        key = LIST_KEYS.get(command)
        return data[key] if key in data else data

    def spawn(self, command: str, *args: str, patch: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
        """`forummod COMMAND --config <desk> ARGS...` in a new Python process (the venv's)."""
        argv = [sys.executable, "-c", RUNNER.format(patch=patch), command, "--config", str(self.config_path), *args]
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env={**os.environ, **self.env()})

    @contextlib.contextmanager
    def workspace(self, **kw: Any) -> Iterator[Any]:
        from forummod.service import Workspace

        with _env(self.env()), Workspace.open(self.config_path, **kw) as ws:
            yield ws

    # ------------------------------------------------------------------ store

    def copy(self, folder: Path) -> "GMDesk":
        """A desk in `folder` with a copy of this store (consistent: SQLite's backup API) and a
        config for the forum's current port."""
        folder.mkdir(parents=True, exist_ok=True)
        src = sqlite3.connect(self.store_path)
        dst = sqlite3.connect(folder / STORE_NAME)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        return GMDesk.create(self.forum, folder)

    def query(self, sql: str, args: tuple = ()) -> list[tuple]:
        con = sqlite3.connect(f"file:{self.store_path}?mode=ro", uri=True)
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()


@contextlib.contextmanager
def _env(values: dict[str, str]) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# --------------------------------------------------------------------------- the script, cut


def script_before_post(script: GameScript, number: int) -> GameScript:
    """The game as it stood just before game-thread post `number`: the earlier posts, and the
    PMs sent before that post's time."""
    raw = copy.deepcopy(script.raw)
    cut_at = script.game_posts[number - 1].at
    raw["thread"]["game"] = raw["thread"]["game"][: number - 1]
    for conv in raw["pm"]:
        conv["messages"] = [m for m in conv["messages"] if script.utc(m["at"]) < cut_at]
    return GameScript(raw)


def tally_lines(tally: dict[str, Any]) -> list[tuple[str, float, list[str], dict[str, float]]]:
    """(candidate, total, voters in order, weights that are not 1) from `tally --json`'s tally."""
    return [(c["name"], c["total"], [v["voter"] for v in c["voters"]],
             {v["voter"]: v["weight"] for v in c["voters"] if v["weight"] != 1}) for c in tally["candidates"]]


def expected_lines(lines: Any) -> list[tuple[str, float, list[str], dict[str, float]]]:
    """The same shape from the script's [expected] tables or its reference TallyLines."""
    out = []
    for line in lines:
        if isinstance(line, dict):
            out.append((line["candidate"], float(line["total"]), list(line["voters"]),
                        {k: float(v) for k, v in line.get("weights", {}).items()}))
        else:
            out.append((line.candidate, float(line.total), list(line.voters),
                        {k: float(v) for k, v in line.weights.items()}))
    return out


def iso(moment: datetime) -> str:
    return moment.isoformat()
