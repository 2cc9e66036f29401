"""Spirit (django-spirit 0.14.3, Django 5.2.19) on 127.0.0.1 (recipe: ../shared/real-forums.md).

Install (cached): a venv on this Python (3.11), the pinned versions of
engines/spirit/constraints.txt, `spirit startproject mysite`, and the settings module
engines/spirit/settings_realforum.py (rate limits off, double-post threshold 0, DEBUG off,
loopback hosts; paths and port from the environment, so one install serves every run).
Seed (cached): `migrate`, `createcachetable`, then engines/spirit/seed_spirit.py.
Serve: `manage.py runserver 127.0.0.1:PORT --noreload --insecure` (threaded; --insecure serves
the static files with DEBUG off).

Spirit's PMs are private topics: one topic id for every participant. Spirit stores user names
in lower case (the login form takes any case); pages show the nickname, spelt as seeded.
Page times are shown only as `title="March 2, 2024, 1:10 p.m."` (UTC, to the minute).
"""

from __future__ import annotations

import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import requests
from bs4 import BeautifulSoup

from . import harness
from .base import ForumConversation, ForumMessage, ForumPost, RealForum, parse_db_time
from .harness import HarnessError, ServerProcess

ENGINE_DIR = Path(__file__).resolve().parent / "engines" / "spirit"
CONSTRAINTS = ENGINE_DIR / "constraints.txt"
SETTINGS = ENGINE_DIR / "settings_realforum.py"
SEED = ENGINE_DIR / "seed_spirit.py"
SETTINGS_MODULE = "mysite.settings.realforum"

MONTHS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"), 1)}
# Django's default DATETIME_FORMAT ("N j, Y, P"): "March 2, 2024, 1:10 p.m.", "7 p.m.", "noon"
_DATE = re.compile(r"(\w+)\.? (\d{1,2}), (\d{4}), (?:(noon)|(midnight)|(\d{1,2})(?::(\d{2}))? ([ap])\.m\.)")


def parse_page_time(text: str) -> datetime:
    m = _DATE.search(text)
    if not m:
        raise ValueError(f"not a Spirit date: {text!r}")
    month = next(v for k, v in MONTHS.items() if k.startswith(m.group(1).lower()[:3]))
    if m.group(4):
        hh, mm = 12, 0
    elif m.group(5):
        hh, mm = 0, 0
    else:
        hh, mm = int(m.group(6)) % 12 + (12 if m.group(8) == "p" else 0), int(m.group(7) or 0)
    return datetime(int(m.group(3)), month, int(m.group(2)), hh, mm, tzinfo=timezone.utc)


class SpiritForum(RealForum):
    engine = "spirit"
    version = "0.14.3"
    state_names = ("db.sqlite3", "st_search", "media")
    db_name = "db.sqlite3"
    install_inputs = (CONSTRAINTS, SETTINGS)
    seed_inputs = (SEED,)
    up_path = "/"
    login_path = "/user/login/"
    new_pm_path = "/topic/private/publish/"

    @classmethod
    def check_available(cls) -> None:
        if sys.version_info[:2] < (3, 10):
            raise harness.EngineUnavailable("Spirit 0.14.3 with Django 5.2 needs Python >= 3.10")

    def interpreter(self) -> str:
        return f"{getattr(sys, '_base_executable', sys.executable)} {sys.version.split()[0]}"

    # ------------------------------------------------------------------ install and seed

    @property
    def venv(self) -> Path:
        return self.install_dir / "venv"

    @property
    def project(self) -> Path:
        return self.install_dir / "mysite"

    def build_install(self, folder: Path) -> dict:
        log = folder / "install.log"
        env = harness.clean_env()
        harness.run([harness.python_exe_of_this_venv(), "-m", "venv", folder / "venv"], log, env=env,
                    what="python -m venv")
        harness.pip_install(folder / "venv", ["-c", CONSTRAINTS, "django-spirit==0.14.3", "Django==5.2.19"], log, env)
        harness.run([folder / "venv" / "bin" / "spirit", "startproject", "mysite"], log, cwd=folder,
                    env=harness.clean_env(path_prepend=folder / "venv" / "bin"), what="spirit startproject")
        (folder / "mysite" / "mysite" / "settings" / "realforum.py").write_text(SETTINGS.read_text())
        return {"python": sys.version.split()[0]}

    def _env(self, data: Path, port: int = 0) -> dict[str, str]:
        return harness.clean_env({"DJANGO_SETTINGS_MODULE": SETTINGS_MODULE, "FORUMMOD_SPIRIT_DATA": str(data),
                                  "FORUMMOD_SPIRIT_PORT": str(port or 8000), "PYTHONUNBUFFERED": "1"},
                                 path_prepend=self.venv / "bin")

    def build_seed(self, folder: Path, plan: Path) -> dict:
        state, log = folder / "state", folder / "seed.log"
        env = self._env(state)
        py = self.venv / "bin" / "python"
        harness.run([py, "manage.py", "migrate", "-v0"], log, env=env, cwd=self.project, what="migrate")
        harness.run([py, "manage.py", "createcachetable"], log, env=env, cwd=self.project, what="createcachetable")
        harness.run([py, SEED, plan, folder / "seed.json"], log, env=env, cwd=self.project, what="seed Spirit")
        return {}

    # ------------------------------------------------------------------ server

    def server_process(self) -> ServerProcess:
        cmd = [str(self.venv / "bin" / "python"), "manage.py", "runserver", f"{harness.LOOPBACK}:{self.port}",
               "--noreload", "--insecure"]
        return ServerProcess(cmd=cmd, env=self._env(self.run_dir, self.port), cwd=self.project, log=self.log_path)

    # ------------------------------------------------------------------ URLs

    def thread_url(self, page: int = 1, thread: str = "game") -> str:
        # /topic/<id>/<slug>/: `/topic/<id>/?page=N` redirects to the slug and loses the page
        path = self.thread_info(thread)["path"]
        return self.url(path if page == 1 else f"{path}?page={page}")

    def reply_form_path(self, thread: str = "game") -> str:
        return f"/comment/{self.thread_info(thread)['id']}/publish/"

    def inbox_url(self) -> str:
        return self.url("/topic/private/")

    def conversation_url(self, conversation_id: int) -> str:
        return self.url(f"/topic/private/{conversation_id}/")

    # ------------------------------------------------------------------ HTTP

    @staticmethod
    def csrf(html: str) -> str:
        tag = BeautifulSoup(html, "lxml").find("input", {"name": "csrfmiddlewaretoken"})
        if tag is None:
            raise HarnessError("no CSRF token on the page")
        return tag["value"]

    def login(self, name: str, password: str | None = None) -> requests.Session:
        acc = self.account(name)
        s = self.session()
        url = self.url(self.login_path)
        token = self.csrf(self._get(s, url).text)
        r = s.post(url, data={"csrfmiddlewaretoken": token, "username": acc.login, "password": password or acc.password},
                   headers={"Referer": url}, allow_redirects=False, timeout=30)
        if r.status_code != 302 or "sessionid" not in s.cookies:
            raise HarnessError(f"Spirit login of {name}: HTTP {r.status_code}, no redirect")
        return s

    def _publish_comment(self, s: requests.Session, topic_id: int, text: str, who: str) -> int:
        url = self.url(f"/comment/{topic_id}/publish/")
        token = self.csrf(self._get(s, url).text)
        r = s.post(url, data={"csrfmiddlewaretoken": token, "comment": text}, headers={"Referer": url},
                   allow_redirects=False, timeout=30)
        m = re.search(r"/comment/(\d+)/find/", r.headers.get("Location", ""))
        if r.status_code != 302 or not m:
            raise HarnessError(f"Spirit comment by {who}: HTTP {r.status_code} {r.headers.get('Location')}")
        return int(m.group(1))

    def reply(self, name: str, text: str, thread: str = "game", session: requests.Session | None = None) -> int:
        return self._publish_comment(session or self.login(name), self.thread_info(thread)["id"], text, name)

    def reply_pm(self, name: str, conversation_id: int, text: str, session: requests.Session | None = None) -> int:
        return self._publish_comment(session or self.login(name), conversation_id, text, name)

    def send_pm(self, sender: str, recipient: str, subject: str, text: str,
                session: requests.Session | None = None) -> int:
        """Start a private topic over HTTP; returns its id (the same for both participants)."""
        s = session or self.login(sender)
        url = self.url(self.new_pm_path)
        token = self.csrf(self._get(s, url).text)
        r = s.post(url, data={"csrfmiddlewaretoken": token, "title": subject, "comment": text,
                              "users": self.account(recipient).login}, headers={"Referer": url},
                   allow_redirects=False, timeout=30)
        m = re.search(r"/topic/private/(\d+)/", r.headers.get("Location", ""))
        if r.status_code != 302 or not m:
            raise HarnessError(f"Spirit PM by {sender}: HTTP {r.status_code} {r.headers.get('Location')}")
        return int(m.group(1))

    # ------------------------------------------------------------------ database

    can_expire_sessions = True

    def expire_sessions(self, name: str) -> None:
        """Django keeps sessions in the database: drop them all (only the test's users log in)."""
        self.execute("DELETE FROM django_session")

    def _names(self) -> dict[int, str]:
        return dict(self.query("SELECT user_id, nickname FROM spirit_user_userprofile"))

    def db_posts(self, thread: str | int = "game") -> list[ForumPost]:
        tid = self.thread_ref(thread)
        names = self._names()
        rows = self.query("SELECT id, topic_id, user_id, date, comment, modified_count FROM spirit_comment_comment "
                          "WHERE topic_id = ? AND action = 0 AND is_removed = 0 ORDER BY date, id", (tid,))
        return [ForumPost(id=r[0], thread_id=r[1], author=names.get(r[2], "?"), at=parse_db_time(r[3]), body=r[4],
                          edited=r[5] > 0) for r in rows]

    def db_conversations(self, user: str | None = None) -> list[ForumConversation]:
        """The private topics `user` (GM default) takes part in, newest activity first."""
        uid = self.account(user or self.script.gm).id
        names = self._names()
        topics = self.query(
            "SELECT t.id, t.title FROM spirit_topic_topic t JOIN spirit_topic_private_topicprivate p "
            "ON p.topic_id = t.id WHERE p.user_id = ? AND t.is_removed = 0 ORDER BY t.last_active DESC, t.id DESC",
            (uid,))
        out = []
        for tid, title in topics:
            people = tuple(names.get(u, "?") for (u,) in self.query(
                "SELECT user_id FROM spirit_topic_private_topicprivate WHERE topic_id = ? ORDER BY id", (tid,)))
            msgs = tuple(ForumMessage(id=r[0], conversation_id=tid, author=names.get(r[1], "?"),
                                      at=parse_db_time(r[2]), body=r[3])
                         for r in self.query("SELECT id, user_id, date, comment FROM spirit_comment_comment "
                                             "WHERE topic_id = ? AND action = 0 ORDER BY date, id", (tid,)))
            out.append(ForumConversation(id=tid, subject=title, participants=people, messages=msgs))
        return out


# ---------------------------------------------------------------------- page parsers (harness-own;
# forummod's adapters are tested against these pages, not built on these functions)

def _comments(soup: BeautifulSoup) -> list[tuple[int, str, datetime, Any, bool]]:
    out = []
    for row in soup.select("div.comments_list__comment"):
        dates = [li.get("title") for li in row.select("ul.comment__info__date li") if li.get("title")]
        out.append((int(row["data-pk"]), row.select_one("a.comment__info__username__link span").get_text(strip=True),
                    parse_page_time(dates[-1]), row.select_one("div.comment__text"),
                    row.select_one("a[href*='/history/']") is not None))
    return out


def parse_thread_page(html: str, thread_id: int = 0) -> list[ForumPost]:
    return [ForumPost(id=pk, thread_id=thread_id, author=author, at=at, body=body.get_text("\n", strip=True),
                      edited=edited, html=str(body))
            for pk, author, at, body, edited in _comments(BeautifulSoup(html, "lxml"))]


def parse_inbox(html: str) -> list[dict]:
    rows = []
    for link in BeautifulSoup(html, "lxml").select("a.topic__link"):
        m = re.search(r"/topic/private/(\d+)/", link["href"])
        if m:
            rows.append({"id": int(m.group(1)), "subject": link.get_text(strip=True), "people": [],
                         "unread": "is-visited" not in link.get("class", [])})
    return rows


def parse_conversation(html: str, conversation_id: int = 0) -> ForumConversation:
    soup = BeautifulSoup(html, "lxml")
    msgs = tuple(ForumMessage(id=pk, conversation_id=conversation_id, author=author, at=at,
                              body=body.get_text("\n", strip=True))
                 for pk, author, at, body, _ in _comments(soup))
    title = soup.select_one("h1.headline")
    people = tuple(a.get_text(strip=True) for a in soup.select("a.menu_list__participant__user")) or \
        tuple(dict.fromkeys(m.author for m in msgs))
    return ForumConversation(id=conversation_id, subject=title.get_text(strip=True) if title else "",
                             participants=people, messages=msgs)
