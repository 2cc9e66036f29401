"""`RealForum`: one running forum engine seeded with the game script, as tests see it.

An engine subclass (flaskbb_engine.FlaskBBForum, spirit_engine.SpiritForum) says how to install,
seed, serve, log in, post, and read its database; this class does the rest: the cache, the
snapshot of the seeded state, the server's life (start, stop, reset) and the views of the seed.

Tests get a started forum from the session fixtures in conftest.py and use:

    forum.base_url                       "http://127.0.0.1:PORT/"
    forum.thread_id / graveyard_id       the game thread and the cemetery thread
    forum.thread_url(page) / graveyard_url(page)
    forum.gm, forum.account("Aldo")      Account(name, login, password, id)
    forum.pm_id("elio", user=None)       a seeded conversation's id in `user`'s mailbox (GM default)
    forum.seeded_posts("game")           SeededPost records: key, id, number, page, author, at, body
    forum.script                         the GameScript (expected tally, deadlines, PMs...)
    forum.login("Aldo")                  a requests.Session logged in over HTTP
    forum.reply("Aldo", text)            post a reply over HTTP; returns the new post id
    forum.send_pm("Aldo", "Narratore", subject, text)   a new PM over HTTP; returns its id for the sender
    forum.db_posts("game"), forum.newest_posts(n)          what the database holds now
    forum.db_conversations("Aldo"), forum.newest_messages("Aldo", n)
    forum.http_posts(page), forum.http_inbox(user), forum.http_conversation(user, cid)
    forum.reset()                        back to the seeded state (stop, copy, start)
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, ClassVar, Sequence
from urllib.parse import urljoin

import requests

from . import harness
from .harness import HarnessError, ServerProcess
from .script import GameScript, Intent

UTC = timezone.utc

#: Bump to rebuild every cached install (a change of recipe that no hashed file shows).
RECIPE_VERSION = "1"


@dataclass(frozen=True)
class Account:
    name: str          # as pages show it ("Aldo")
    login: str         # what the login form takes (Spirit stores user names in lower case)
    password: str
    id: int


@dataclass(frozen=True)
class SeededPost:
    key: str           # "p05" (game_script.toml)
    id: int            # the engine's post id
    thread: str        # "game" | "graveyard"
    number: int        # 1-based position in the thread
    page: int
    author: str
    at: datetime       # UTC
    body: str          # the stored markup (Markdown, the engine's quote included)
    edited_at: datetime | None
    intent: Intent | None


@dataclass(frozen=True)
class ForumPost:
    """A post as read back from the database (body = stored markup) or a page (body = text)."""
    id: int
    thread_id: int
    author: str
    at: datetime       # UTC; from a Spirit page only to the minute
    body: str
    edited: bool = False
    html: str = ""


@dataclass(frozen=True)
class ForumMessage:
    id: int
    conversation_id: int
    author: str
    at: datetime
    body: str


@dataclass(frozen=True)
class ForumConversation:
    id: int            # in the owner's mailbox (FlaskBB: one id per mailbox; Spirit: one topic)
    subject: str
    participants: tuple[str, ...]
    messages: tuple[ForumMessage, ...]
    unread: bool | None = None


@dataclass
class Timings:
    install: float = 0.0
    install_cached: bool = True
    seed: float = 0.0
    seed_cached: bool = True
    copy: float = 0.0
    start: float = 0.0
    resets: list[float] = field(default_factory=list)

    def summary(self) -> str:
        inst = "cached" if self.install_cached else f"{self.install:.1f} s"
        seed = "cached" if self.seed_cached else f"{self.seed:.1f} s"
        resets = ", ".join(f"{r:.1f}" for r in self.resets) or "none"
        return f"install {inst}; seed {seed}; copy {self.copy:.2f} s; start {self.start:.1f} s; resets (s) {resets}"


class RealForum:
    """Base of the engine classes; see the module docstring for what tests use."""

    engine: ClassVar[str]
    version: ClassVar[str]
    #: files and folders of a run folder that make the forum's state (snapshot and reset)
    state_names: ClassVar[tuple[str, ...]]
    #: the database file among them
    db_name: ClassVar[str]
    #: files whose content defines the install (hashed into the cache folder's name)
    install_inputs: ClassVar[tuple[Path, ...]] = ()
    #: files whose content defines the seed, besides the game script
    seed_inputs: ClassVar[tuple[Path, ...]] = ()
    up_path: ClassVar[str] = ""
    login_path: ClassVar[str] = ""
    new_pm_path: ClassVar[str] = ""

    def __init__(self, run_dir: Path, script: GameScript | None = None, cache: Path | None = None):
        self.cache = cache or harness.cache_root()
        self.run_dir = run_dir
        self.script = script or GameScript.load()
        self.timings = Timings()
        self.port = 0
        self.server: ServerProcess | None = None
        self.seed: dict[str, Any] = {}
        self._inuse: list[Any] = []
        self._dirs()

    def _dirs(self) -> None:
        self.install_dir = self.cache / f"{self.engine}-{self.version}-{self.install_key()}"
        self.seed_dir = self.install_dir / f"seed-{self.seed_key()}"

    # ------------------------------------------------------------------ engine hooks

    @classmethod
    def check_available(cls) -> None:
        """Raise EngineUnavailable when this machine cannot run the engine."""

    def interpreter(self) -> str:
        """The interpreter the engine's venv is built on (part of the install's cache key)."""
        return ""

    def install_works(self) -> bool:
        """A finished install still runs (its base interpreter was not removed or replaced)."""
        return harness.python_version(self.install_dir / "venv" / "bin" / "python") is not None

    def build_install(self, folder: Path) -> dict:
        raise NotImplementedError

    def build_seed(self, folder: Path, plan: Path) -> dict:
        """Create the database in `folder/state/`, seed it from `plan`, write `folder/seed.json`."""
        raise NotImplementedError

    def write_run_config(self) -> None:
        """Files the server of this run needs besides the state (e.g. FlaskBB's config)."""

    def server_process(self) -> ServerProcess:
        raise NotImplementedError

    # HTTP and database: engine-specific
    def login(self, name: str, password: str | None = None) -> requests.Session:
        """A session logged in over HTTP (the login form and its CSRF token); HarnessError if refused."""
        raise NotImplementedError

    def reply(self, name: str, text: str, thread: str = "game", session: requests.Session | None = None) -> int:
        raise NotImplementedError

    def send_pm(self, sender: str, recipient: str, subject: str, text: str,
                session: requests.Session | None = None) -> int:
        raise NotImplementedError

    def reply_pm(self, name: str, conversation_id: int, text: str, session: requests.Session | None = None) -> int:
        """Answer in a conversation of `name`'s mailbox over HTTP; returns the new message id."""
        raise NotImplementedError

    def thread_url(self, page: int = 1, thread: str = "game") -> str:
        raise NotImplementedError

    def reply_form_path(self, thread: str = "game") -> str:
        raise NotImplementedError

    def inbox_url(self) -> str:
        raise NotImplementedError

    def conversation_url(self, conversation_id: int) -> str:
        raise NotImplementedError

    def db_posts(self, thread: str | int = "game") -> list[ForumPost]:
        raise NotImplementedError

    def db_conversations(self, user: str | None = None) -> list[ForumConversation]:
        raise NotImplementedError

    def page_readers(self) -> Any:
        """The engine module's own page readers: `parse_thread_page(html, thread_id)`,
        `parse_inbox(html)` and `parse_conversation(html, conversation_id)`."""
        return sys.modules[type(self).__module__]

    def http_posts(self, page: int = 1, thread: str = "game",
                   session: requests.Session | None = None) -> list[ForumPost]:
        s = session or self.session()
        return self.page_readers().parse_thread_page(self._get(s, self.thread_url(page, thread)).text,
                                                     self.thread_info(thread)["id"])

    def http_inbox(self, user: str | None = None, session: requests.Session | None = None) -> list[dict]:
        s = session or self.login(user or self.script.gm)
        return self.page_readers().parse_inbox(self._get(s, self.inbox_url()).text)

    def http_conversation(self, user: str | None, conversation_id: int,
                          session: requests.Session | None = None) -> ForumConversation:
        s = session or self.login(user or self.script.gm)
        return self.page_readers().parse_conversation(self._get(s, self.conversation_url(conversation_id)).text,
                                                      conversation_id)

    #: the engine keeps sessions on the server, so a test can make it forget one
    can_expire_sessions: ClassVar[bool] = False

    def expire_sessions(self, name: str) -> None:
        """Make the server forget every session of `name` (cookies held by clients stop working),
        as a session timeout or a logout elsewhere does."""
        raise NotImplementedError

    #: PMs (or conversations) an inbox page lists, as seeded; `shrink_inbox_pages` changes it
    inbox_per_page: ClassVar[int] = 10

    def shrink_inbox_pages(self, n: int) -> int:
        """List `n` PMs an inbox page where the engine has a setting for it (restarting the
        server; a reset undoes it); returns the page size in force, `n` or the seeded one."""
        return self.inbox_per_page

    # ------------------------------------------------------------------ cache keys

    def install_key(self) -> str:
        return harness.content_key(RECIPE_VERSION, self.engine, self.version, self.interpreter(),
                                   *self.install_inputs)

    def seed_key(self) -> str:
        plan = json.dumps(self.script.seed_plan(), ensure_ascii=False, sort_keys=True)
        return harness.content_key(self.install_key(), plan, *self.seed_inputs)

    # ------------------------------------------------------------------ life

    def prepare(self) -> None:
        """Install and seed (each reused from the cache when finished before), then start."""
        self.check_available()
        self._dirs()
        lock = self.cache / "install.lock"  # one install or seed at a time on this machine
        with harness.file_lock(lock):
            if harness.stamped(self.install_dir, ".installed") is not None and not self.install_works():
                (self.install_dir / ".installed").unlink()  # rebuilt below
            data, built = harness.build_once(self.install_dir, ".installed", self.build_install)
            self.timings.install, self.timings.install_cached = data["seconds"], not built
            if built:
                harness.prune_unused(self.cache, f"{self.engine}-*", keep=self.install_dir)
            self._hold_inuse(self.install_dir)
            plan_data = json.dumps(self.script.seed_plan(), ensure_ascii=False, indent=1)
            data, built = harness.build_once(self.seed_dir, ".seeded", lambda folder: self._seed(folder, plan_data))
            self.timings.seed, self.timings.seed_cached = data["seconds"], not built
            if built:
                harness.prune_unused(self.install_dir, "seed-*", keep=self.seed_dir)
            self._hold_inuse(self.seed_dir)
        self.seed = json.loads((self.seed_dir / "seed.json").read_text(encoding="utf-8"))
        t0 = time.monotonic()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        harness.copy_state(self.seed_dir / "state", self.run_dir, self.state_names)
        self.timings.copy = time.monotonic() - t0
        self.port = harness.free_port()
        self.write_run_config()
        self.timings.start = self.start()

    def _seed(self, folder: Path, plan_data: str) -> dict:
        plan = folder / "plan.json"
        plan.write_text(plan_data, encoding="utf-8")
        (folder / "state").mkdir()
        return self.build_seed(folder, plan)

    def _hold_inuse(self, folder: Path) -> None:
        """A shared lock on a cache folder while this session uses it, so that another session
        that rebuilt after an input changed never prunes it under a running server."""
        fh = open(folder / ".inuse", "a+")
        fcntl.flock(fh, fcntl.LOCK_SH)
        self._inuse.append(fh)

    def start(self) -> float:
        """Start the server on `self.port` (a new free port if that one was taken meanwhile) and
        wait until it answers. Returns the seconds until the first answer."""
        if self.server and self.server.alive():
            return 0.0
        timeout = float(os.environ.get("FORUMMOD_REALFORUM_START_TIMEOUT", "60"))
        for attempt in range(3):
            if attempt or not harness.port_is_free(self.port):
                self.port = harness.free_port()
                self.write_run_config()
            self.server = self.server_process()
            self.server.start()
            try:
                return self.server.wait_until_up(self.url(self.up_path), timeout=timeout)
            except HarnessError:
                # another process took the port between our check and the server's bind
                if attempt == 2 or "already in use" not in harness.tail(self.log_path, 15):
                    raise
        raise AssertionError("unreachable")

    def stop(self) -> None:
        if self.server:
            self.server.stop()

    def close(self) -> None:
        self.stop()
        for fh in self._inuse:
            with contextlib.suppress(OSError):
                fcntl.flock(fh, fcntl.LOCK_UN)
                fh.close()
        self._inuse.clear()

    #: what a reset copies back (default: all of `state_names`; an engine whose code lives in
    #: the state copies only its database and caches)
    reset_names: ClassVar[tuple[str, ...]] = ()

    def reset(self) -> float:
        """Back to the seeded state: stop the server, copy the snapshot over the run's state,
        start again on the same port. Returns the seconds it took."""
        t0 = time.monotonic()
        self.stop()
        harness.copy_state(self.seed_dir / "state", self.run_dir, self.reset_names or self.state_names)
        self.start()
        took = time.monotonic() - t0
        self.timings.resets.append(took)
        return took

    def restart(self) -> None:
        """Stop and start without touching the state (e.g. a test of a server that went away)."""
        self.stop()
        self.start()

    @property
    def pid(self) -> int | None:
        return self.server.pid if self.server else None

    @property
    def log_path(self) -> Path:
        return self.run_dir / "server.log"

    def is_up(self) -> bool:
        try:
            return requests.get(self.url(self.up_path), timeout=5).status_code < 500
        except requests.RequestException:
            return False

    # ------------------------------------------------------------------ URLs and seed views

    @property
    def base_url(self) -> str:
        return f"http://{harness.LOOPBACK}:{self.port}/"

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path.lstrip("/"))

    @property
    def password(self) -> str:
        return self.script.password

    @property
    def players(self) -> tuple[str, ...]:
        return self.script.players

    def account(self, name: str) -> Account:
        logins = self.seed.get("logins", {})
        return Account(name=name, login=logins.get(name, name), password=self.password, id=self.seed["users"][name])

    @property
    def gm(self) -> Account:
        return self.account(self.script.gm)

    @property
    def accounts(self) -> dict[str, Account]:
        return {name: self.account(name) for name in self.script.accounts}

    @property
    def forum_id(self) -> int:
        return self.seed["forum_id"]

    def thread_info(self, thread: str = "game") -> dict:
        return self.seed["threads"][thread]

    @property
    def thread_id(self) -> int:
        return self.thread_info("game")["id"]

    @property
    def graveyard_id(self) -> int:
        return self.thread_info("graveyard")["id"]

    def graveyard_url(self, page: int = 1) -> str:
        return self.thread_url(page, "graveyard")

    def post_id(self, key: str) -> int:
        for t in self.seed["threads"].values():
            if key in t["posts"]:
                return t["posts"][key]["id"]
        raise KeyError(key)

    def pm_id(self, key: str, user: str | None = None) -> int:
        """The id of seeded conversation `key` in `user`'s mailbox (the GM's by default)."""
        return self.seed["pms"][key]["ids"][user or self.script.gm]

    @property
    def pm_ids(self) -> dict[str, dict[str, int]]:
        return {k: dict(v["ids"]) for k, v in self.seed["pms"].items()}

    def seeded_posts(self, thread: str = "game") -> list[SeededPost]:
        stored = self.thread_info(thread)["posts"]
        return [SeededPost(key=p.key, id=stored[p.key]["id"], thread=thread, number=p.number,
                           page=p.page(self.script.per_page), author=p.author, at=p.at,
                           body=stored[p.key]["content"], edited_at=p.edited_at, intent=p.intent)
                for p in self.script.threads[thread]]

    def expected_page_sizes(self, thread: str = "game") -> list[int]:
        return [len(p) for p in self.script.pages(thread)]

    @property
    def expected(self) -> dict[str, Any]:
        """The script's [expected] tables (D1 tally, N1/N2 results), times in UTC."""
        return self.script.expected

    @property
    def deadlines(self) -> dict[str, datetime]:
        return self.script.deadlines()

    #: a page anywhere on the forum links this once logged in (the logout link)
    logout_link: ClassVar[str] = r"/(auth|user)/logout"
    #: what the server answers a player who opens another player's conversation (MyBB and
    #: phpBB: an error page with 200)
    foreign_pm_status: ClassVar[tuple[int, ...]] = (403, 404)
    #: the longest PM subject the engine keeps (None: no limit)
    subject_limit: ClassVar[int | None] = None

    def shown_subject(self, subject: str) -> str:
        """`subject` as the engine stores it (cut to its limit)."""
        return subject[:self.subject_limit].rstrip() if self.subject_limit else subject

    #: the engine threads PMs into conversations (FlaskBB, Spirit); MyBB keeps each PM apart
    pm_threads: ClassVar[bool] = True

    def conversation_keys_shown(self, key: str) -> list[int]:
        """Positions (0-based) of the messages of seeded conversation `key` that its page in the
        GM's mailbox shows: all of them, or only the first where each PM stands alone."""
        n = len(self.script.conversation(key).messages)
        return list(range(n)) if self.pm_threads else [0]

    def mailbox_ids(self, user: str | None = None) -> set[int]:
        """The seeded conversation ids of `user`'s mailbox (GM default): one per conversation,
        or one per message where each PM stands alone."""
        who = user or self.script.gm
        if self.pm_threads:
            return {pm["ids"][who] for pm in self.seed["pms"].values() if who in pm["ids"]}
        return {i for pm in self.seed["pms"].values() for i in pm["message_ids"].get(who, [])}

    #: the markup players type on this engine (the seed's bodies, forummod's drafts)
    markup: ClassVar[str] = "markdown"

    def bold(self, text: str) -> str:
        """`text` in bold in this engine's markup."""
        return f"[b]{text}[/b]" if self.markup == "bbcode" else f"**{text}**"

    #: how this engine's pages show times to the GM (for forummod's site `timezone`/`language`)
    page_timezone: ClassVar[str] = "UTC"
    page_language: ClassVar[str] = "en"

    def config_toml(self, *, site: str = "realforum", game: str = "lupus",
                    password_env: str = "FORUMMOD_REALFORUM_PASSWORD", store: str = "") -> str:
        """A forummod config (config.example.toml's schema) for the seeded game on this server.
        The password goes in the environment variable `password_env` (it is `self.password`)."""
        g = self.script
        q = json.dumps
        lines = [
            "[workspace]", f"store = {q(store)}", "",
            f"[sites.{site}]", f"engine = {q(self.engine)}", f"base_url = {q(self.base_url)}",
            f"timezone = {q(self.page_timezone)}", f"language = {q(self.page_language)}",
            f"username = {q(self.gm.login)}", f"password_env = {q(password_env)}",
            "request_interval = 0.0", "retries = 1", "timeout = 10.0", "",
            f"[games.{game}]", f"site = {q(site)}", f"thread = {q(self.thread_url())}",
            f"graveyard = {q(self.graveyard_url())}", f"ruleset = {q(g.ruleset)}", f"title = {q(g.title)}",
            f"language = {q(g.language)}", f"markup = {q(self.markup)}", f"timezone = {q(g.timezone)}",
            f"gm = [{q(g.gm)}]", "seed = 1", "",
        ]
        for name in g.players:
            lines += [f"[[games.{game}.players]]", f"name = {q(name)}", f"role = {q(g.roles[name])}",
                      f"user_id = {q(str(self.account(name).id))}", ""]
        lines += [f"[games.{game}.schedule]", f"start = {q(g.local(g.start).isoformat())}",
                  f"first_phase = {q(g.first_phase)}", f"vote_close = {q(g.vote_close)}",
                  f"day_end = {q(g.day_end)}", f"action_deadline = {q(g.action_deadline)}",
                  f"night_end = {q(g.dawn)}", "", f"[games.{game}.votes]", 'forms = ["bold"]', ""]
        return "\n".join(lines)

    # ------------------------------------------------------------------ database helpers

    @property
    def db_path(self) -> Path:
        return self.run_dir / self.db_name

    def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Write to the live database (one short transaction; the server may be running)."""
        con = sqlite3.connect(self.db_path, timeout=10)
        try:
            with con:
                con.execute(sql, tuple(args))
        finally:
            con.close()

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:
        """Read the live database (read-only connection; the server may be running)."""
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        try:
            return con.execute(sql, tuple(args)).fetchall()
        finally:
            con.close()

    def thread_ref(self, thread: str | int) -> int:
        return thread if isinstance(thread, int) else self.thread_info(thread)["id"]

    def newest_posts(self, n: int = 1, thread: str | int = "game") -> list[ForumPost]:
        """The last `n` posts of a thread, oldest first, from the database."""
        return self.db_posts(thread)[-n:]

    def posts_since_seed(self, thread: str | int = "game") -> list[ForumPost]:
        """Posts written after seeding (by tests, or by forummod publishing)."""
        seeded = {p["id"] for t in self.seed["threads"].values() for p in t["posts"].values()}
        return [p for p in self.db_posts(thread) if p.id not in seeded]

    def newest_messages(self, user: str | None = None, n: int = 1) -> list[ForumMessage]:
        """The last `n` messages in any of `user`'s conversations (GM default), oldest first."""
        msgs = [m for c in self.db_conversations(user) for m in c.messages]
        msgs.sort(key=lambda m: (m.at, m.id))
        return msgs[-n:]

    def inbox_messages(self, user: str | None = None) -> list[ForumMessage]:
        """The messages a poll of `user`'s inbox sees (GM default): every message of the
        conversations where the engine has them; where each PM stands alone (MyBB, phpBB) the
        inbox holds the PMs received, and the account's own answers are in its sent folder."""
        msgs = [m for c in self.db_conversations(user) for m in c.messages]
        me = user or self.script.gm
        return msgs if self.pm_threads else [m for m in msgs if m.author != me]

    def messages_since_seed(self, user: str | None = None) -> list[ForumMessage]:
        seeded = {i for pm in self.seed["pms"].values() for ids in pm["message_ids"].values() for i in ids}
        msgs = [m for c in self.db_conversations(user) for m in c.messages if m.id not in seeded]
        return sorted(msgs, key=lambda m: (m.at, m.id))

    # ------------------------------------------------------------------ shared HTTP helpers

    def session(self) -> requests.Session:
        s = requests.Session()
        s.headers["User-Agent"] = "forummod-realforum-harness"
        return s

    def _get(self, s: requests.Session, url: str) -> requests.Response:
        r = s.get(url, timeout=30)
        if r.status_code >= 400:
            raise HarnessError(f"GET {url}: HTTP {r.status_code}")
        return r


def parse_db_time(text: str | None) -> datetime | None:
    """'2024-03-02 16:45:00.000000' (UTC, as both engines store it in SQLite) -> aware UTC."""
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
