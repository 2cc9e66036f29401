"""FlaskBB 2.2.0 + conversations plugin 2.0.2 on 127.0.0.1 (recipe: ../shared/real-forums.md).

Install (cached): a venv on the pyenv Python 3.12 at its absolute path (FlaskBB 2.2.0 needs
>= 3.12; the `python3.12` pyenv shim on PATH does not run), the pinned versions of
engines/flaskbb/constraints.txt, and engines/flaskbb/patch_flaskbb.py (future annotations for
3.12, the inverted ForumNotLocked check).
Seed (cached): `flaskbb install --force` (tables, groups, settings, an admin, the welcome topic,
plugin migrations), then engines/flaskbb/seed_flaskbb.py, before any server runs (FlaskBB
memoizes its settings per process for 60 s).
Serve: `flaskbb run` (Werkzeug, threaded, no reloader, no debugger) on 127.0.0.1.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
from pathlib import Path

import requests
from bs4 import BeautifulSoup

from . import harness
from .base import ForumConversation, ForumMessage, ForumPost, RealForum, parse_db_time
from .harness import EngineUnavailable, HarnessError, ServerProcess

ENGINE_DIR = Path(__file__).resolve().parent / "engines" / "flaskbb"
CONSTRAINTS = ENGINE_DIR / "constraints.txt"
PATCH = ENGINE_DIR / "patch_flaskbb.py"
SEED = ENGINE_DIR / "seed_flaskbb.py"

ADMIN = ("admin", "admin@valfonda.example", "admin-password-1")

CONFIG = '''# FlaskBB config of one forummod real-forum run (loaded with from_pyfile: absolute paths)
import os
_HERE = {here!r}
SQLALCHEMY_DATABASE_URI = "sqlite:///" + os.path.join(_HERE, "flaskbb.sqlite")
SECRET_KEY = "forummod-realforum-not-secret"
WTF_CSRF_ENABLED = True
WTF_CSRF_SECRET_KEY = "forummod-realforum-csrf"
WHOOSHEE_DIR = os.path.join(_HERE, "whoosh_index")
REDIS_ENABLED = False
RATELIMIT_ENABLED = False          # /auth is limited to 20 requests per 15 minutes otherwise
RATELIMIT_STORAGE_URI = "memory://"
CACHE_TYPE = "SimpleCache"
LOG_PATH = os.path.join(_HERE, "logs")
USE_DEFAULT_LOGGING = False        # otherwise every command logs into site-packages/logs
'''


def find_python312() -> Path:
    """The Python 3.12 for FlaskBB's venv: $FORUMMOD_FLASKBB_PYTHON when set (and only it),
    else pyenv's newest 3.12 by absolute path, else a python3.12 on PATH that really runs."""
    explicit = os.environ.get("FORUMMOD_FLASKBB_PYTHON")
    if explicit:
        if harness.python_version(Path(explicit)) == (3, 12):
            return Path(explicit)
        raise EngineUnavailable(f"FORUMMOD_FLASKBB_PYTHON={explicit} is not a working Python 3.12")
    candidates: list[str] = []
    roots = [os.environ.get("PYENV_ROOT"), os.path.expanduser("~/.pyenv"), "/root/.pyenv", "/opt/pyenv"]
    for root in filter(None, roots):
        found = glob.glob(os.path.join(root, "versions", "3.12*", "bin", "python3.12"))
        candidates.extend(sorted(found, key=_version_key, reverse=True))
    candidates += ["/usr/bin/python3.12", "/usr/local/bin/python3.12"]
    if shutil.which("python3.12"):
        candidates.append(shutil.which("python3.12"))
    tried = []
    for c in dict.fromkeys(candidates):
        if c and os.path.exists(c):
            tried.append(c)
            if harness.python_version(Path(c)) == (3, 12):
                return Path(c)
    raise EngineUnavailable("FlaskBB 2.2.0 needs Python 3.12 and none runs here "
                            f"(tried: {', '.join(tried) or 'nothing found'}; set FORUMMOD_FLASKBB_PYTHON)")


def _version_key(path: str) -> tuple[int, ...]:
    m = re.search(r"versions/3\.12\.(\d+)", path)
    return (int(m.group(1)),) if m else (-1,)


class FlaskBBForum(RealForum):
    engine = "flaskbb"
    version = "2.2.0"
    state_names = ("flaskbb.sqlite", "whoosh_index")
    db_name = "flaskbb.sqlite"
    install_inputs = (CONSTRAINTS, PATCH)
    seed_inputs = (SEED,)
    up_path = "/"
    login_path = "/auth/login"
    new_pm_path = "/conversations/new"

    _python: Path | None = None

    @classmethod
    def check_available(cls) -> None:
        cls._python = find_python312()

    def interpreter(self) -> str:
        py = self._python
        return f"{py} {harness.python_version(py)}" if py else "python3.12 (not looked up yet)"

    @property
    def admin(self) -> tuple[str, str]:
        return ADMIN[0], ADMIN[2]

    # ------------------------------------------------------------------ install and seed

    @property
    def venv(self) -> Path:
        return self.install_dir / "venv"

    def build_install(self, folder: Path) -> dict:
        log = folder / "install.log"
        py = self._python or find_python312()
        env = harness.clean_env()
        harness.run([py, "-m", "venv", folder / "venv"], log, env=env, what="python3.12 -m venv")
        harness.pip_install(folder / "venv", ["-c", CONSTRAINTS, "flaskbb==2.2.0",
                                              "flaskbb-plugin-conversations==2.0.2"], log, env)
        site = next((folder / "venv" / "lib").glob("python3.12/site-packages"))
        harness.run([folder / "venv" / "bin" / "python", PATCH, site / "flaskbb"], log, env=env,
                    what="patch FlaskBB")
        return {"python": str(py)}

    def _flaskbb(self, cfg: Path, instance: Path) -> list[str]:
        return [str(self.venv / "bin" / "flaskbb"), "--config", str(cfg), "--instance", str(instance)]

    def build_seed(self, folder: Path, plan: Path) -> dict:
        state = folder / "state"
        (state / "logs").mkdir()
        instance = folder / "instance"
        instance.mkdir()
        cfg = folder / "flaskbb.cfg"
        cfg.write_text(CONFIG.format(here=str(state)))
        log = folder / "seed.log"
        env = harness.clean_env(path_prepend=self.venv / "bin")  # `install` runs pybabel
        harness.run(self._flaskbb(cfg, instance) + ["install", "--force", "-u", ADMIN[0], "-e", ADMIN[1],
                                                    "-p", ADMIN[2]], log, env=env, what="flaskbb install")
        harness.run([self.venv / "bin" / "python", SEED, cfg, instance, plan, folder / "seed.json"], log,
                    env=env, cwd=folder, what="seed FlaskBB")
        return {}

    # ------------------------------------------------------------------ server

    def write_run_config(self) -> None:
        (self.run_dir / "logs").mkdir(exist_ok=True)
        (self.run_dir / "instance").mkdir(exist_ok=True)
        (self.run_dir / "flaskbb.cfg").write_text(CONFIG.format(here=str(self.run_dir)))

    def server_process(self) -> ServerProcess:
        cmd = self._flaskbb(self.run_dir / "flaskbb.cfg", self.run_dir / "instance") + [
            "run", "-h", harness.LOOPBACK, "-p", str(self.port), "--no-reload", "--no-debugger", "--with-threads"]
        return ServerProcess(cmd=cmd, env=harness.clean_env(path_prepend=self.venv / "bin"), cwd=self.run_dir,
                             log=self.log_path)

    # ------------------------------------------------------------------ URLs

    def thread_url(self, page: int = 1, thread: str = "game") -> str:
        path = self.thread_info(thread)["path"]  # /topic/<id>-<slug>; pagination links use it
        return self.url(path if page == 1 else f"{path}?page={page}")

    def reply_form_path(self, thread: str = "game") -> str:
        return f"/topic/{self.thread_info(thread)['id']}/post/new"

    def inbox_url(self) -> str:
        return self.url("/conversations/inbox")

    def conversation_url(self, conversation_id: int) -> str:
        return self.url(f"/conversations/{conversation_id}/view")

    # ------------------------------------------------------------------ HTTP

    @staticmethod
    def csrf(html: str) -> str:
        soup = BeautifulSoup(html, "lxml")
        tag = soup.find("input", {"name": "csrf_token"})
        if tag is None:
            meta = soup.find("meta", {"name": "csrf-token"})
            if meta is None:
                raise HarnessError("no CSRF token on the page")
            return meta["content"]
        return tag["value"]

    def login(self, name: str, password: str | None = None) -> requests.Session:
        acc = self.account(name) if name != ADMIN[0] else None
        login, default = (acc.login, acc.password) if acc else (ADMIN[0], ADMIN[2])
        password = password or default
        s = self.session()
        token = self.csrf(self._get(s, self.url(self.login_path)).text)
        r = s.post(self.url(self.login_path), data={"csrf_token": token, "login": login, "password": password,
                                                  "submit": "Login"}, allow_redirects=False, timeout=30)
        if r.status_code != 302 or "session" not in s.cookies:
            raise HarnessError(f"FlaskBB login of {name}: HTTP {r.status_code}, no redirect")
        return s

    def reply(self, name: str, text: str, thread: str = "game", session: requests.Session | None = None) -> int:
        s = session or self.login(name)
        url = self.url(self.reply_form_path(thread))
        token = self.csrf(self._get(s, url).text)
        r = s.post(url, data={"csrf_token": token, "content": text, "submit": "Reply"}, allow_redirects=False,
                   timeout=30)
        m = re.search(r"/post/(\d+)", r.headers.get("Location", ""))
        if r.status_code != 302 or not m:
            raise HarnessError(f"FlaskBB reply by {name}: HTTP {r.status_code} {r.headers.get('Location')}")
        return int(m.group(1))

    def send_pm(self, sender: str, recipient: str, subject: str, text: str,
                session: requests.Session | None = None) -> int:
        """Start a conversation over HTTP; returns its id in the sender's mailbox."""
        s = session or self.login(sender)
        url = self.url(self.new_pm_path)
        token = self.csrf(self._get(s, url).text)
        r = s.post(url, data={"csrf_token": token, "to_user": self.account(recipient).login, "subject": subject,
                              "message": text, "send_message": "Start Conversation"},
                   allow_redirects=False, timeout=30)
        if r.status_code != 302:
            raise HarnessError(f"FlaskBB PM by {sender}: HTTP {r.status_code}")
        rows = self.query("SELECT id FROM conversations WHERE user_id = ? AND subject = ? ORDER BY id DESC LIMIT 1",
                          (self.account(sender).id, subject))
        return rows[0][0]

    def reply_pm(self, name: str, conversation_id: int, text: str, session: requests.Session | None = None) -> int:
        s = session or self.login(name)
        url = self.conversation_url(conversation_id)
        token = self.csrf(self._get(s, url).text)
        r = s.post(url, data={"csrf_token": token, "message": text, "submit": "Send Message"},
                   allow_redirects=False, timeout=30)
        if r.status_code != 302:
            raise HarnessError(f"FlaskBB PM reply by {name}: HTTP {r.status_code}")
        rows = self.query("SELECT id FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT 1",
                          (conversation_id,))
        return rows[0][0]

    # ------------------------------------------------------------------ database

    def db_posts(self, thread: str | int = "game") -> list[ForumPost]:
        tid = self.thread_ref(thread)
        rows = self.query("SELECT id, topic_id, username, date_created, content, date_modified FROM posts "
                          "WHERE topic_id = ? ORDER BY date_created, id", (tid,))
        return [ForumPost(id=r[0], thread_id=r[1], author=r[2], at=parse_db_time(r[3]), body=r[4],
                          edited=r[5] is not None) for r in rows]

    def db_conversations(self, user: str | None = None) -> list[ForumConversation]:
        """`user`'s mailbox (GM default), drafts and trash left out, newest first."""
        uid = self.account(user or self.script.gm).id
        names = dict(self.query("SELECT id, username FROM users"))
        convs = self.query("SELECT id, subject, from_user_id, to_user_id, unread FROM conversations "
                           "WHERE user_id = ? AND draft = 0 AND trash = 0 ORDER BY date_modified DESC, id DESC", (uid,))
        out = []
        for cid, subject, frm, to, unread in convs:
            msgs = tuple(ForumMessage(id=m[0], conversation_id=cid, author=names.get(m[1], "?"),
                                      at=parse_db_time(m[2]), body=m[3] or "")
                         for m in self.query("SELECT id, user_id, date_created, message FROM messages "
                                             "WHERE conversation_id = ? ORDER BY id", (cid,)))
            out.append(ForumConversation(id=cid, subject=subject or "", participants=(names.get(frm, "?"),
                                                                                     names.get(to, "?")),
                                         messages=msgs, unread=bool(unread)))
        return out


# ---------------------------------------------------------------------- page parsers (harness-own;
# forummod's adapters are tested against these pages, not built on these functions)

def parse_thread_page(html: str, thread_id: int = 0) -> list[ForumPost]:
    soup = BeautifulSoup(html, "lxml")
    out = []
    for row in soup.select("div.post-row"):
        content = row.select_one("div.post-content")
        out.append(ForumPost(
            id=int(row["id"]), thread_id=thread_id, author=row.select_one(".author-name a").get_text(strip=True),
            at=parse_db_time(row.select_one(".post-meta time")["datetime"]),
            body=content.get_text("\n", strip=True), edited="Last modified" in row.select_one(".post-meta").text,
            html=str(content)))
    return out


def parse_inbox(html: str) -> list[dict]:
    rows = []
    for row in BeautifulSoup(html, "lxml").select("div.conversation-row"):
        link = row.select_one(".conversation-subject a")
        rows.append({"id": int(re.search(r"/conversations/(\d+)/view", link["href"]).group(1)),
                     "subject": link.get_text(strip=True),
                     "people": [a.get_text(strip=True) for a in row.select(".conversation-meta a")],
                     "unread": "unread" in row.get("class", [])})
    return rows


def parse_conversation(html: str, conversation_id: int = 0) -> ForumConversation:
    soup = BeautifulSoup(html, "lxml")
    msgs = tuple(ForumMessage(
        id=int(row["id"][3:]), conversation_id=conversation_id,
        author=row.select_one(".author-name a").get_text(strip=True),
        at=parse_db_time(row.select_one(".message-header time[data-what_to_display]")["datetime"]),
        body=row.select_one(".message-content").get_text("\n", strip=True))
        for row in soup.select("div.conversation-row[id^='mid']"))
    subject = soup.select_one(".conversation-header strong")
    return ForumConversation(id=conversation_id, subject=subject.get_text(strip=True) if subject else "",
                             participants=tuple(dict.fromkeys(m.author for m in msgs)), messages=msgs)
