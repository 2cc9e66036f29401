"""SMF 2.1.4 on a private MariaDB, served by `php -S` on 127.0.0.1 (recipe: ../shared/real-forums-php.md).

Install: the release unpacked. Seed: a private `mariadbd` (its own datadir, socket and loopback
port, started and stopped by PID), SMF's web installer driven by submitting each page's form,
then engines/smf/seed.php through SSI.php. The state is the docroot and the datadir (`db/`):
a reset stops mariadbd, copies the seeded datadir back (a few MB: faster than a dump/restore
of SMF's ~80 tables) and starts it again. Each start points Settings.php and the themes' URLs at
the run's folder and ports. PMs: one row per message with its recipients, members read them
"all at once" (SMF's default), so each PM stands alone in a mailbox (`pm_threads = False`) and
the GM's answers are in his sent folder.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Sequence

import requests
from bs4 import BeautifulSoup

from . import harness
from .base import ForumConversation, ForumMessage, ForumPost
from .harness import EngineUnavailable, HarnessError, ServerProcess
from .php_engine import PhpForum, find_form, form_fields, text_of

UTC = timezone.utc
DB_NAME, DB_USER, DB_PASSWORD = "forum", "forum", "forumpw"
#: Security.php spamProtection(): one login per IP in 2 s, counted in whole seconds from the last
#: attempt (a refused attempt restarts the wait)
LOGIN_FLOOD = 3.1


def _ts(value: Any) -> datetime | None:
    return datetime.fromtimestamp(int(value), UTC) if value not in (None, "", "NULL") else None


def _sql_literal(value: Any) -> str:
    if isinstance(value, bool) or isinstance(value, int):
        return str(int(value))
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _unescape_batch(field: str) -> str | None:
    """A field of `mariadb --batch` output (\\n, \\t, \\\\ and \\0 escaped; NULL for SQL NULL)."""
    if field == "NULL":
        return None
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m.group(1), m.group(1)), field)


def _typed(stored: str) -> str:
    """SMF stores a post HTML-escaped with <br> for newlines: the text as the member typed it."""
    return html.unescape(stored.replace("<br>", "\n"))


#: InnoDB options for datadir creation and server alike: undo logs in their own tablespaces,
#: truncated at the seed's slow shutdown, keep the system tablespace (and a reset's copy) small
INNODB = ("--innodb-undo-tablespaces=2", "--innodb-undo-log-truncate=ON", "--innodb-max-undo-log-size=10M",
          "--innodb-log-file-size=8M", "--innodb-buffer-pool-size=32M")


class MariaDB:
    """A private mariadbd on a datadir, its socket in `folder`, listening on 127.0.0.1:`port`."""

    def __init__(self, folder: Path, port: int):
        self.folder, self.port = folder, port
        self.server: ServerProcess | None = None

    @property
    def datadir(self) -> Path:
        return self.folder / "db"

    @property
    def socket(self) -> Path:
        return self.folder / "mysql.sock"

    def client(self, *args: str) -> list[str]:
        return ["mariadb", "--no-defaults", "-S", str(self.socket), "-uroot", *args]

    def create(self, log: Path) -> None:
        harness.run(["mariadb-install-db", "--no-defaults", f"--datadir={self.datadir}", f"--user={_user()}",
                     "--auth-root-authentication-method=normal", "--skip-test-db", *INNODB], log, what="mariadb-install-db")

    def start(self) -> None:
        cmd = ["mariadbd", "--no-defaults", f"--datadir={self.datadir}", f"--user={_user()}",
               "--bind-address=127.0.0.1", f"--port={self.port}", f"--socket={self.socket}",
               f"--pid-file={self.folder / 'mysqld.pid'}", "--skip-name-resolve", *INNODB, "--skip-log-bin", "--performance-schema=OFF",
               f"--log-error={self.folder / 'mariadb.err'}"]
        self.server = ServerProcess(cmd=cmd, env=harness.clean_env(), cwd=self.folder,
                                    log=self.folder / "mariadb.log", grace=20)
        self.server.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if not self.server.alive():
                raise HarnessError(f"mariadbd exited; {harness.tail(self.folder / 'mariadb.err')}")
            if subprocess.run(self.client("-e", "SELECT 1"), capture_output=True).returncode == 0:
                return
            time.sleep(0.05)
        self.stop()
        raise HarnessError(f"mariadbd did not answer within 60 s; {harness.tail(self.folder / 'mariadb.err')}")

    def stop(self, slow: bool = False) -> None:
        """SIGTERM by PID (a clean shutdown); `slow`: purge and truncate the undo logs first."""
        if self.server:
            if slow and self.server.alive():
                self.sql("SET GLOBAL innodb_fast_shutdown = 0", database="mysql")
            self.server.stop()
            self.server = None

    def alive(self) -> bool:
        return bool(self.server and self.server.alive())

    def sql(self, statements: str, database: str = DB_NAME) -> list[list[str | None]]:
        out = subprocess.run(self.client("--batch", "--skip-column-names", database, "-e", statements),
                             capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise HarnessError(f"SQL failed: {out.stderr.strip()}\n{statements[:400]}")
        return [[_unescape_batch(f) for f in line.split("\t")] for line in out.stdout.splitlines()]


def _user() -> str:
    import pwd
    return pwd.getpwuid(os.getuid()).pw_name


def _bind(sql: str, args: Sequence[Any]) -> str:
    parts = sql.split("?")
    if len(parts) != len(args) + 1:
        raise ValueError(f"{len(args)} arguments for {len(parts) - 1} placeholders: {sql}")
    return parts[0] + "".join(_sql_literal(a) + p for a, p in zip(args, parts[1:]))


class SmfForum(PhpForum):
    engine = "smf"
    version = "2.1.4"
    tarball = "smf-2.1.4.tar.gz"
    needs_modules = ("mysqli", "gd", "xml", "mbstring", "intl")
    db_name = "db"
    state_names = ("www", "db", "pointed.json")
    reset_names = ("db", "www/cache")
    login_path = "index.php?action=login"
    new_pm_path = "index.php?action=pm;sa=send"
    logout_link = r"action=logout"
    pm_threads = False
    foreign_pm_status = (403,)  # "You are not allowed to access this section"
    can_expire_sessions = True

    def __init__(self, *a: Any, **kw: Any):
        super().__init__(*a, **kw)
        self.db: MariaDB | None = None
        self.db_port = 0
        self._last_login = 0.0

    @classmethod
    def check_available(cls) -> None:
        super().check_available()
        missing = [exe for exe in ("mariadbd", "mariadb-install-db", "mariadb") if shutil.which(exe) is None]
        if missing:
            raise EngineUnavailable(f"no {', '.join(missing)} (apt-get install -y mariadb-server)")

    @property
    def seed_inputs(self) -> tuple[Path, ...]:  # type: ignore[override]
        return (*super().seed_inputs, Path(__file__))

    def php_options(self) -> list[str]:
        return [*super().php_options(), "-d", "session.save_path=/tmp"]

    # ------------------------------------------------------------------ install and seed

    def build_seed(self, folder: Path, plan: Path) -> dict:
        state = folder / "state"
        shutil.copytree(self.install_dir / "www", state / "www", symlinks=True)
        bb = folder / "plan-bbcode.json"
        from .php_engine import bbcode_plan
        bb.write_text(json.dumps(bbcode_plan(json.loads(plan.read_text(encoding="utf-8"))), ensure_ascii=False,
                                 indent=1), encoding="utf-8")
        db = MariaDB(state, harness.free_port())
        db.create(folder / "seed.log")
        db.start()
        server = None
        try:
            db.sql(f"CREATE DATABASE {DB_NAME} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci; "
                   f"CREATE USER '{DB_USER}'@'127.0.0.1' IDENTIFIED BY '{DB_PASSWORD}'; "
                   f"GRANT ALL ON {DB_NAME}.* TO '{DB_USER}'@'127.0.0.1';", database="mysql")
            port = harness.free_port()
            server = self._server(state, port, folder / "install-server.log")
            server.start()
            server.wait_until_up(f"http://{harness.LOOPBACK}:{port}/install.php", timeout=60)
            self.install_engine_db(state, port, db.port)
            server.stop()
            harness.run(["php", *self.php_options(), Path(__file__).parent / "engines" / "smf" / "seed.php",
                         state / "www", bb, folder / "seed.json"], folder / "seed.log", cwd=state / "www",
                        what="seed smf")
        finally:
            if server:
                server.stop()
            db.stop(slow=True)
        for name in ("mysql.sock", "mysqld.pid"):
            (state / name).unlink(missing_ok=True)
        (state / "pointed.json").write_text(json.dumps({"url": f"http://127.0.0.1:{port}", "dir": str(state),
                                                        "db_port": db.port}))
        return {}

    def install_engine_db(self, state: Path, port: int, db_port: int) -> None:
        base = f"http://127.0.0.1:{port}"
        fill = {"db_type": "mysql", "db_server": "127.0.0.1", "db_port": str(db_port), "db_user": DB_USER,
                "db_passwd": DB_PASSWORD, "db_name": DB_NAME, "db_prefix": "smf_", "mbname": self.script.forum,
                "boardurl": base, "reg_mode": "0", "username": self.script.gm, "password1": self.script.password,
                "password2": self.script.password, "email": "narratore@valfonda.example",
                "server_email": "narratore@valfonda.example", "password3": DB_PASSWORD}
        s = self.session()
        r = s.get(f"{base}/install.php", timeout=120)
        for _ in range(10):
            if "the installation process is complete" in r.text:
                break
            soup = BeautifulSoup(r.text, "lxml")
            forms = soup.find_all("form")
            if not forms:
                raise HarnessError(f"SMF installer: no form: {text_of(r.text)[:600]}")
            form = forms[-1]
            data = form_fields(form)
            data.update({k: v for k, v in fill.items() if k in data or f'name="{k}"' in r.text})
            data["contbutt"] = "Continue"
            r = s.post(requests.compat.urljoin(r.url, form.get("action") or r.url), data=data, timeout=300)
            if r.status_code >= 400:
                raise HarnessError(f"SMF installer: HTTP {r.status_code}: {text_of(r.text)[:600]}")
        else:
            raise HarnessError(f"SMF installer did not finish: {text_of(r.text)[:800]}")
        (state / "www" / "install.php").unlink()  # what its "delete this install.php file now" does

    # ------------------------------------------------------------------ life

    def point_at_run(self, state: Path, port: int) -> None:
        """Settings.php and the database's URLs and paths, from where they point now (the seed's
        values after a reset copied the datadir back) to this run's folder and ports."""
        marker = state / "pointed.json"
        was = json.loads(marker.read_text())
        seed = json.loads((self.seed_dir / "state" / "pointed.json").read_text())
        url, folder = f"http://127.0.0.1:{port}", str(state)
        cfg = state / "www" / "Settings.php"
        text = cfg.read_text().replace(was["dir"] + "/", folder + "/")
        text = re.sub(r"(\$boardurl = )'[^']*';", lambda m: f"{m.group(1)}'{url}';", text)
        text = re.sub(r"(\$db_port = )\d+;", lambda m: f"{m.group(1)}{self.db_port};", text)
        text = re.sub(r"(\$maintenance = )\d+;", r"\g<1>0;", text)  # a test's close_board ends with its run
        cfg.write_text(text)
        for old in (seed, was):
            for table in ("smf_themes", "smf_settings"):
                self.db.sql(f"UPDATE {table} SET value = REPLACE(REPLACE(value, {_sql_literal(old['url'] + '/')}, "
                            f"{_sql_literal(url + '/')}), {_sql_literal(old['dir'] + '/')}, {_sql_literal(folder + '/')})")
        marker.write_text(json.dumps({"url": url, "dir": folder, "db_port": self.db_port}))
        for f in (state / "www" / "cache").glob("data_*"):
            f.unlink()

    def _server(self, state: Path, port: int, log: Path) -> ServerProcess:
        proc = super()._server(state, port, log)
        if self.db_port:
            proc.cmd[1:1] = ["-d", f"mysqli.default_port={self.db_port}"]
        return proc

    def start(self) -> float:
        """mariadbd first (a free port of its own), then `php -S`."""
        if not (self.db and self.db.alive()):
            if not self.db_port or not harness.port_is_free(self.db_port):
                self.db_port = harness.free_port()
            self.db = MariaDB(self.run_dir, self.db_port)
            self.db.start()
        return super().start()

    def stop(self) -> None:
        super().stop()
        if self.db:
            self.db.stop()

    def close_board(self, reason: str) -> None:
        """What Maintenance > "Enable maintenance mode" does: Settings.php's $maintenance and
        $mmessage (the next start writes $maintenance back to 0)."""
        cfg = self.run_dir / "www" / "Settings.php"
        text = re.sub(r"(\$maintenance = )\d+;", r"\g<1>1;", cfg.read_text())
        literal = reason.replace("\\", "\\\\").replace("'", "\\'")
        cfg.write_text(re.sub(r"(\$mmessage = )'(?:[^'\\]|\\.)*';", lambda m: f"{m.group(1)}'{literal}';", text))

    def break_database(self) -> None:
        """A table gone (a failed upgrade): every topic page is SMF's database error page."""
        self.execute("RENAME TABLE smf_topics TO smf_topics_gone")

    def missing_thread_url(self) -> str:
        return self.url("index.php?topic=9999.0")

    # ------------------------------------------------------------------ database

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:  # type: ignore[override]
        """Read the live database (`?` placeholders, as with SQLite)."""
        return [tuple(row) for row in self.db.sql(_bind(sql, args))]

    def execute(self, sql: str, args: Sequence[Any] = ()) -> None:  # type: ignore[override]
        self.db.sql(_bind(sql, args))

    def _names(self) -> dict[int, str]:
        return {int(i): n for i, n in self.query("SELECT id_member, real_name FROM smf_members")}

    def _newest(self, sql: str, args: tuple) -> int:
        (row,) = self.query(sql, args)
        return int(row[0] or 0)

    def db_posts(self, thread: str | int = "game") -> list[ForumPost]:
        tid = self.thread_ref(thread)
        rows = self.query("SELECT id_msg, id_topic, poster_name, poster_time, body, modified_time FROM smf_messages "
                          "WHERE id_topic = ? AND approved = 1 ORDER BY poster_time, id_msg", (tid,))
        return [ForumPost(id=int(r[0]), thread_id=int(r[1]), author=r[2], at=_ts(r[3]), body=_typed(r[4]),
                          edited=int(r[5] or 0) > 0) for r in rows]

    def db_conversations(self, user: str | None = None) -> list[ForumConversation]:
        """`user`'s mailbox (GM default), inbox and sent: one PM each, newest first."""
        uid = self.account(user or self.script.gm).id
        names = self._names()
        rows = self.query(
            "SELECT p.id_pm, p.subject, p.id_member_from, p.msgtime, p.body, "
            "(SELECT GROUP_CONCAT(r.id_member) FROM smf_pm_recipients r WHERE r.id_pm = p.id_pm), "
            "(SELECT MIN(r.is_read & 1) FROM smf_pm_recipients r WHERE r.id_pm = p.id_pm AND r.id_member = ?) "
            "FROM smf_personal_messages p WHERE (p.id_member_from = ? AND p.deleted_by_sender = 0) OR EXISTS "
            "(SELECT 1 FROM smf_pm_recipients r WHERE r.id_pm = p.id_pm AND r.id_member = ? AND r.deleted = 0) "
            "ORDER BY p.msgtime DESC, p.id_pm DESC", (uid, uid, uid))
        out = []
        for mid, subject, author, at, body, to, read in rows:
            mid, author = int(mid), int(author)
            people = (names.get(author, "?"), *(names.get(int(u), "?") for u in (to or "").split(",") if u))
            msg = ForumMessage(id=mid, conversation_id=mid, author=names.get(author, "?"), at=_ts(at), body=_typed(body))
            out.append(ForumConversation(id=mid, subject=html.unescape(subject), participants=people, messages=(msg,),
                                         unread=None if read is None else read == "0"))
        return out

    def expire_sessions(self, name: str) -> None:
        """A new password salt (the login cookie holds a hash with it) and no session rows."""
        uid = self.account(name).id
        self.execute("UPDATE smf_members SET password_salt = ? WHERE id_member = ?", (f"x{time.time_ns() % 10**15}", uid))
        self.execute("DELETE FROM smf_sessions WHERE data LIKE ?", (f'%"id_member";i:{uid};%',))

    # ------------------------------------------------------------------ URLs

    board_path = "index.php?board={forum}.{start}"  # the board's own page list
    board_per_page = 20  # the seed's setting

    def thread_url(self, page: int = 1, thread: str = "game") -> str:
        tid = self.thread_info(thread)["id"]
        return self.url(f"index.php?topic={tid}.{(page - 1) * self.script.per_page}")

    def reply_form_path(self, thread: str = "game") -> str:
        return f"index.php?action=post;topic={self.thread_info(thread)['id']}.0"

    def inbox_url(self) -> str:
        return self.url("index.php?action=pm")

    def conversation_url(self, conversation_id: int) -> str:
        return self.url(f"index.php?action=pm;pmsg={conversation_id}")

    # ------------------------------------------------------------------ HTTP

    def login(self, name: str, password: str | None = None) -> requests.Session:
        acc = self.account(name)
        s = self.session()
        for _ in range(3):
            page = self._get(s, self.url(self.login_path))
            time.sleep(max(0.0, self._last_login + LOGIN_FLOOD - time.monotonic()))
            self._last_login = time.monotonic()
            r = self.submit(s, page, "form#frmLogin", {"user": acc.login, "passwrd": password or acc.password,
                                                       "cookielength": "-1"})
            # spamProtection('login'): one login attempt per IP every LOGIN_FLOOD seconds
            if not re.search(r"wait about \d+ seconds to login again", text_of(r.text)):
                break
            time.sleep(LOGIN_FLOOD)
        home = self._get(s, self.base_url) if r.ok else r
        if not re.search(self.logout_link, home.text):
            raise HarnessError(f"SMF login of {name}: HTTP {r.status_code}: {text_of(r.text)[:300]}")
        return s

    def reply(self, name: str, text: str, thread: str = "game", session: requests.Session | None = None) -> int:
        s = session or self.login(name)
        tid, uid = self.thread_info(thread)["id"], self.account(name).id
        sql = "SELECT MAX(id_msg) FROM smf_messages WHERE id_topic = ? AND id_member = ?"
        before = self._newest(sql, (tid, uid))
        page = self._get(s, self.url(self.reply_form_path(thread)))
        r = self.submit(s, page, "form#postmodify", {"message": text, "post": "Post"})
        after = self._newest(sql, (tid, uid))
        if after <= before:
            raise HarnessError(f"SMF reply by {name}: not stored: {text_of(r.text)[:400]}")
        return after

    def _pm(self, s: requests.Session, sender: str, path: str, values: dict[str, str]) -> int:
        sql = "SELECT MAX(id_pm) FROM smf_personal_messages WHERE id_member_from = ?"
        uid = self.account(sender).id
        before = self._newest(sql, (uid,))
        page = self._get(s, self.url(path))
        r = self.submit(s, page, "form#postmodify", values | {"post": "Send message"})
        after = self._newest(sql, (uid,))
        if after <= before:
            raise HarnessError(f"SMF PM by {sender}: not stored: {text_of(r.text)[:400]}")
        return after

    def send_pm(self, sender: str, recipient: str, subject: str, text: str,
                session: requests.Session | None = None) -> int:
        s = session or self.login(sender)
        return self._pm(s, sender, self.new_pm_path, {"to": self.account(recipient).login, "subject": subject,
                                                      "message": text})

    def reply_pm(self, name: str, conversation_id: int, text: str, session: requests.Session | None = None) -> int:
        """Answer the newest message of conversation `conversation_id` with its reply form."""
        (row,) = self.query("SELECT id_pm_head FROM smf_personal_messages WHERE id_pm = ?", (conversation_id,))
        last = self._newest("SELECT MAX(id_pm) FROM smf_personal_messages WHERE id_pm_head = ?", (int(row[0]),))
        s = session or self.login(name)
        (author,), = self.query("SELECT id_member_from FROM smf_personal_messages WHERE id_pm = ?", (last,))
        uid = self.account(name).id
        values = {"message": text}
        if int(author) == uid:  # answering one's own message: to its recipient
            (to,), = self.query("SELECT id_member FROM smf_pm_recipients WHERE id_pm = ?", (last,))
            values["to"] = self._names()[int(to)]
        return self._pm(s, name, f"index.php?action=pm;sa=send;f=inbox;pmsg={last};quote;u={author}", values)

    def http_conversation(self, user: str | None, conversation_id: int,
                          session: requests.Session | None = None) -> ForumConversation:
        s = session or self.login(user or self.script.gm)
        page = self._get(s, self.conversation_url(conversation_id)).text
        if not BeautifulSoup(page, "lxml").select_one(f"div#msg{conversation_id}"):  # one of the sent folder
            page = self._get(s, self.url(f"index.php?action=pm;f=sent;pmsg={conversation_id}")).text
        return parse_conversation(page, conversation_id)


# ---------------------------------------------------------------------- page parsers (harness-own;
# forummod's adapters are tested against these pages, not built on these functions)

_DATE = re.compile(r"(\w{3}) (\d{2}), (\d{4}), (\d{1,2}):(\d{2}) ([AP]M)")
_RELATIVE = re.compile(r"(Today|Yesterday)\s+at (\d{1,2}):(\d{2}) ([AP]M)")
MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                                      "Dec"), 1)}


def parse_page_time(text: str) -> datetime:
    m = _DATE.search(text)
    rel = _RELATIVE.search(text)
    if not m and rel:  # posts of today and yesterday: "<strong>Today</strong> at 10:27 PM"
        day = datetime.now(UTC).date() - timedelta(days=rel.group(1) == "Yesterday")
        hh = int(rel.group(2)) % 12 + (12 if rel.group(4) == "PM" else 0)
        return datetime(day.year, day.month, day.day, hh, int(rel.group(3)), tzinfo=UTC)
    if not m:
        raise ValueError(f"not an SMF date: {text!r}")
    hh = int(m.group(4)) % 12 + (12 if m.group(6) == "PM" else 0)
    return datetime(int(m.group(3)), MONTHS[m.group(1)], int(m.group(2)), hh, int(m.group(5)), tzinfo=UTC)


def _posts(soup: BeautifulSoup, thread_id: int) -> list[ForumPost]:
    out = []
    for div in soup.select("div[id^='msg']"):
        m = re.fullmatch(r"msg(\d+)", div.get("id", ""))
        body = div.select_one("div.inner")
        if not m or body is None:
            continue
        when = div.select_one("div.postinfo a.smalltext, div.keyinfo a.smalltext, div.keyinfo span.smalltext")
        author = div.select_one("div.poster h4")
        out.append(ForumPost(id=int(m.group(1)), thread_id=thread_id, author=author.get_text(strip=True),
                             at=parse_page_time(when.get_text(" ")), body=body.get_text("\n", strip=True),
                             edited=div.select_one("span.modified.mvisible") is not None,
                             html=str(body)))
    return out


def parse_thread_page(html_text: str, thread_id: int = 0) -> list[ForumPost]:
    return _posts(BeautifulSoup(html_text, "lxml"), thread_id)


def parse_inbox(html_text: str) -> list[dict]:
    """The folder's list (all-at-once mode: each row links the message shown below, `#msgN`)."""
    rows = []
    for row in BeautifulSoup(html_text, "lxml").select("tr.windowbg"):
        link = row.select_one("td.pm_subject a")
        m = re.search(r"(?:#msg|pmsg=)(\d+)", link.get("href", "")) if link else None
        if m:
            for mark in link.select("span.new_posts"):
                mark.decompose()
            rows.append({"id": int(m.group(1)), "subject": link.get_text(strip=True), "people": [],
                         "unread": "unread_pm" in row.get("class", [])})
    return rows


def parse_conversation(html_text: str, conversation_id: int = 0) -> ForumConversation:
    """The message `conversation_id` of a folder page (each PM stands alone)."""
    soup = BeautifulSoup(html_text, "lxml")
    posts = [p for p in _posts(soup, conversation_id) if p.id == conversation_id]
    msgs = tuple(ForumMessage(id=p.id, conversation_id=conversation_id, author=p.author, at=p.at, body=p.body)
                 for p in posts)
    div = soup.select_one(f"div#msg{conversation_id}")
    title = div.select_one("div.keyinfo h5, div.keyinfo h3, h5") if div else None
    return ForumConversation(id=conversation_id, subject=title.get_text(strip=True) if title else "",
                             participants=tuple(dict.fromkeys(m.author for m in msgs)), messages=msgs)
