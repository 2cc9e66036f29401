"""What the PHP forum engines (MyBB, phpBB, SMF) share in the real-forum suite.

The engines are the projects' released sources (`../shared/forum-software/*.tar.gz`, see its
SOURCES.md; recipes in `../shared/real-forums-php.md`), served by PHP's built-in server with
Debian's PHP on 127.0.0.1. `FORUMMOD_FORUM_SOFTWARE` names the folder holding the tarballs
(default: `../shared/forum-software` beside the checkout).

Install (cached): the tarball unpacked. Seed (cached): the engine's own installer, then the
engine's own PHP functions (engines/<engine>/seed.php) fed the game script with its Markdown
turned into BBCode. The seeded docroot and database are the state: each run copies them, points
the engine's base URL and database path at the run (`point_at_run`), and serves them with
`PHP_CLI_SERVER_WORKERS` (a single-process `php -S` deadlocks when the engine calls its own
URL). The server leads its own process group, so stopping it stops its workers too.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import tarfile
import time
from pathlib import Path
from typing import Any, ClassVar

import requests
from bs4 import BeautifulSoup

from . import harness
from .base import RealForum
from .harness import EngineUnavailable, HarnessError, ServerProcess

HERE = Path(__file__).resolve().parent
SOFTWARE_ENV = "FORUMMOD_FORUM_SOFTWARE"
APT_HINT = ("apt-get install -y php-cli php-sqlite3 php-mysql php-gd php-xml php-mbstring php-curl php-intl "
            "php-zip php-bcmath")
PHP_WORKERS = "4"


def software_dir() -> Path | None:
    """The folder with the forum tarballs, or None."""
    env = os.environ.get(SOFTWARE_ENV)
    candidates = [Path(env).expanduser()] if env else []
    candidates += [HERE.parents[2] / "shared" / "forum-software", HERE.parents[2].parent / "shared" / "forum-software"]
    return next((c.resolve() for c in candidates if c.is_dir()), None)


@functools.lru_cache(maxsize=None)
def php_modules() -> frozenset[str]:
    try:
        out = subprocess.run(["php", "-m"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(m.strip().lower() for m in out.stdout.splitlines() if m.strip() and not m.startswith("["))


@functools.lru_cache(maxsize=None)
def php_version() -> str:
    out = subprocess.run(["php", "-r", "echo PHP_VERSION;"], capture_output=True, text=True, timeout=60)
    return out.stdout.strip()


_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)


def markdown_to_bbcode(text: str) -> str:
    """The game script's Markdown (bold only) as the BBCode a player of a PHP forum types."""
    return _BOLD.sub(r"[b]\1[/b]", text)


def bbcode_plan(plan: dict[str, Any]) -> dict[str, Any]:
    """The seed plan with every post and PM body in BBCode."""
    out = json.loads(json.dumps(plan))
    for thread in out["threads"]:
        for p in thread["posts"]:
            p["body"] = markdown_to_bbcode(p["body"])
            if p.get("edited_body"):
                p["edited_body"] = markdown_to_bbcode(p["edited_body"])
    for c in out["pms"]:
        for m in c["messages"]:
            m["body"] = markdown_to_bbcode(m["body"])
    return out


def form_fields(form: Any) -> dict[str, str]:
    """What a browser submits of `form` without clicking any button (hidden and filled inputs,
    checked boxes, selected options, textareas)."""
    data: dict[str, str] = {}
    for el in form.find_all(["input", "textarea", "select"]):
        name = el.get("name")
        if not name:
            continue
        kind = (el.get("type") or "text").lower()
        if el.name == "input" and kind in ("submit", "button", "image", "file", "reset"):
            continue
        if kind in ("checkbox", "radio") and not el.has_attr("checked"):
            continue
        if el.name == "textarea":
            data[name] = el.get_text()
        elif el.name == "select":
            opt = el.find("option", selected=True) or el.find("option")
            data[name] = opt.get("value", opt.get_text()) if opt else ""
        else:
            data[name] = el.get("value", "")
    return data


def find_form(html: str, selector: str) -> Any:
    form = BeautifulSoup(html, "lxml").select_one(selector)
    if form is None:
        raise HarnessError(f"no form {selector!r} on the page: {text_of(html)[:400]}")
    return form


def text_of(html: str) -> str:
    return " ".join(BeautifulSoup(html, "lxml").get_text(" ").split())


class PhpForum(RealForum):
    """A PHP engine served by `php -S` from the run's copy of the seeded docroot."""

    tarball: ClassVar[str]
    #: PHP extensions the engine needs (names as `php -m` prints them, lower case)
    needs_modules: ClassVar[tuple[str, ...]] = ("pdo_sqlite", "sqlite3", "gd", "xml", "mbstring", "intl")
    page_language = "en"
    markup = "bbcode"
    up_path = "/index.php"
    state_names = ("www", "data")
    reset_names = ("data",)

    @classmethod
    def tarball_path(cls) -> Path | None:
        folder = software_dir()
        return folder / cls.tarball if folder else None

    @classmethod
    def check_available(cls) -> None:
        if shutil.which("php") is None:
            raise EngineUnavailable(f"no php on PATH ({APT_HINT})")
        missing = [m for m in cls.needs_modules if m not in php_modules()]
        if missing:
            raise EngineUnavailable(f"PHP lacks {', '.join(missing)} ({APT_HINT})")
        path = cls.tarball_path()
        if path is None or not path.is_file():
            raise EngineUnavailable(f"no {cls.tarball} (set {SOFTWARE_ENV} to the folder of the forum tarballs)")

    def interpreter(self) -> str:
        return f"php {php_version()}"

    def install_works(self) -> bool:
        return shutil.which("php") is not None

    @property
    def install_inputs(self) -> tuple[Path, ...]:  # type: ignore[override]
        return (self.tarball_path(), HERE / "php_engine.py")  # type: ignore[return-value]

    @property
    def seed_inputs(self) -> tuple[Path, ...]:  # type: ignore[override]
        return (HERE / "engines" / self.engine / "seed.php",)

    # ------------------------------------------------------------------ install and seed

    def build_install(self, folder: Path) -> dict:
        """The release unpacked into `folder/www` (installed per seed: its config holds paths)."""
        with tarfile.open(self.tarball_path()) as tar:
            tar.extractall(folder / "src", filter="tar")
        (top,) = list((folder / "src").iterdir())
        top.rename(folder / "www")
        (folder / "src").rmdir()
        return {"php": php_version()}

    def build_seed(self, folder: Path, plan: Path) -> dict:
        state = folder / "state"
        shutil.copytree(self.install_dir / "www", state / "www", symlinks=True)
        (state / "data").mkdir()
        bb = folder / "plan-bbcode.json"
        bb.write_text(json.dumps(bbcode_plan(json.loads(plan.read_text(encoding="utf-8"))), ensure_ascii=False,
                                 indent=1), encoding="utf-8")
        port = harness.free_port()
        server = self._server(state, port, folder / "install-server.log")
        server.start()
        try:
            server.wait_until_up(f"http://{harness.LOOPBACK}:{port}/", timeout=60)
            self.install_engine(state, port, folder / "seed.log")
            server.stop()
            harness.run(["php", *self.php_options(), HERE / "engines" / self.engine / "seed.php", state / "www", bb,
                         folder / "seed.json"], folder / "seed.log", cwd=state / "www", what=f"seed {self.engine}")
        finally:
            server.stop()
        return {}

    def install_engine(self, state: Path, port: int, log: Path) -> None:
        """Run the engine's installer on the server at `port` (state/www, database in state/data)."""
        raise NotImplementedError

    def point_at_run(self, state: Path, port: int) -> None:
        """Make the docroot in `state` use its own database and `http://127.0.0.1:port/`."""
        raise NotImplementedError

    def php_options(self) -> list[str]:
        # opcache.revalidate_freq=0: a settings file a test rewrites (MyBB's inc/settings.php, SMF's
        # Settings.php) is read again at the next request, not up to 2 s later
        return ["-d", "memory_limit=256M", "-d", "max_execution_time=300", "-d", "display_errors=stderr",
                "-d", "opcache.revalidate_freq=0"]

    def _server(self, state: Path, port: int, log: Path) -> ServerProcess:
        env = harness.clean_env({"PHP_CLI_SERVER_WORKERS": PHP_WORKERS})
        cmd = ["php", *self.php_options(), "-S", f"{harness.LOOPBACK}:{port}", "-t", str(state / "www")]
        return ServerProcess(cmd=cmd, env=env, cwd=state / "www", log=log)

    def server_process(self) -> ServerProcess:
        self.point_at_run(self.run_dir, self.port)
        return self._server(self.run_dir, self.port, self.log_path)

    def stop(self) -> None:
        """Stop the server and wait until its port is free again: `php -S` workers leave a
        moment after their parent, and a restart wants the same port (stored URLs hold it)."""
        super().stop()
        deadline = time.monotonic() + 10
        while self.port and not harness.port_is_free(self.port) and time.monotonic() < deadline:
            time.sleep(0.1)

    # ------------------------------------------------------------------ a busy board (issue 34, item 0)

    #: the board's page `n` (what its own page list links), with {forum} and {start} / {page}
    board_path: ClassVar[str] = ""
    board_per_page: ClassVar[int] = 20

    def board_url(self, page: int = 1) -> str:
        return self.url(self.board_path.format(forum=self.forum_id, page=page,
                                               start=(page - 1) * self.board_per_page))

    def make_board_busy(self, threads: int, posts: int, newer: int = 0) -> None:
        """Through the engine's own functions (engines/<engine>/busy_board.php): `posts` more
        replies in the game thread, then `threads` new threads on its board, the first `newer` of
        them after the game thread's last post and the rest before its first (a busy board with
        the game thread near its top, as a running game's is)."""
        last = max(p.at for p in self.seeded_posts())
        authors = [self.account(name).id for name in self.players[:5]]
        plan = {"forum_id": self.forum_id, "thread_id": self.thread_id, "threads": threads, "newer": newer, "posts": posts,
                "authors": authors, "start": int(last.timestamp()) + 3600, "forum_name": self.script.forum}
        path = self.run_dir / "busy-board.json"
        path.write_text(json.dumps(plan), encoding="utf-8")
        harness.run(["php", *self.php_options(), HERE / "engines" / self.engine / "busy_board.php", self.run_dir / "www",
                     path], self.run_dir / "busy-board.log", cwd=self.run_dir / "www", what=f"busy board on {self.engine}")

    # ------------------------------------------------------------------ HTTP helpers

    def session(self) -> requests.Session:
        s = super().session()
        s.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) forummod-realforum-harness"
        return s

    def submit(self, s: requests.Session, page: requests.Response, selector: str, values: dict[str, str],
               drop: Any = None, **kw: Any) -> requests.Response:
        """Submit the form `selector` of `page` with `values` over its own fields (those for
        which `drop(name)` is true left out)."""
        form = find_form(page.text, selector)
        data = {k: v for k, v in form_fields(form).items() if not (drop and drop(k))} | values
        action = requests.compat.urljoin(page.url, form.get("action") or page.url)
        r = s.post(action, data=data, headers={"Referer": page.url}, timeout=60, **kw)
        if r.status_code >= 500:
            raise HarnessError(f"POST {action}: HTTP {r.status_code}: {text_of(r.text)[:400]}")
        return r
