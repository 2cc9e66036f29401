"""MyBB 1.8.37 on SQLite, served by `php -S` on 127.0.0.1 (recipe: ../shared/real-forums-php.md).

Install: MyBB's web installer driven with plain POSTs (nine steps). Seed: engines/mybb/seed.php
(MyBB's datahandlers; flood checks and post merging off). MyBB has no conversations: each
PM is a row of one owner's mailbox (folder 1 inbox, 2 sent), so a conversation of the game
script is several PMs, and a "conversation id" here is a PM id in that owner's mailbox.
Pages show times in the board's zone (UTC) as `m-d-Y, h:i A`; MyBB writes absolute URLs from
its `bburl` setting, which each run points at its own port.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone
from pathlib import Path

import requests
from bs4 import BeautifulSoup

from .base import ForumConversation, ForumMessage, ForumPost
from .harness import HarnessError
from .php_engine import PhpForum, text_of

UTC = timezone.utc
DB = "mybb.sqlite"


def _ts(value: int | None) -> datetime | None:
    return datetime.fromtimestamp(int(value), UTC) if value else None


class MyBBForum(PhpForum):
    engine = "mybb"
    version = "1.8.37"
    tarball = "mybb-1.8.37.tar.gz"
    db_name = f"data/{DB}"
    login_path = "member.php?action=login"
    new_pm_path = "private.php?action=send"
    logout_link = r"member\.php\?action=logout"
    pm_threads = False
    foreign_pm_status = (200,)  # an error page

    # ------------------------------------------------------------------ install

    def install_engine(self, state: Path, port: int, log: Path) -> None:
        base = f"http://127.0.0.1:{port}"
        s = self.session()
        url = f"{base}/install/index.php"
        s.get(url, timeout=60)
        gm, password = self.script.gm, self.script.password
        steps = [
            {"action": "license"}, {"action": "requirements_check"}, {"action": "database_info"},
            {"action": "create_tables", "dbengine": "sqlite", "config[sqlite][dbname]": str(state / "data" / DB),
             "config[sqlite][tableprefix]": "mybb_"},
            {"action": "populate_tables"}, {"action": "templates"}, {"action": "configuration"},
            {"action": "adminuser", "bbname": self.script.forum, "bburl": base, "websitename": self.script.forum,
             "websiteurl": base, "cookiedomain": "", "cookiepath": "/", "contactemail": "gm@valfonda.example",
             "pin": ""},
            {"action": "final", "adminuser": gm, "adminpass": password, "adminpass2": password,
             "adminemail": "narratore@valfonda.example"},
        ]
        for step in steps:
            r = s.post(url, data=step, timeout=300)
            # the final page's only div.error is the "switching from another forum software?" box
            if r.status_code >= 400 or (step["action"] != "final" and '<div class="error">' in r.text):
                raise HarnessError(f"MyBB installer, step {step['action']}: HTTP {r.status_code}: "
                                   f"{text_of(r.text)[-600:]}")
        if not (state / "www" / "install" / "lock").exists():
            raise HarnessError("MyBB installer did not finish (no install/lock)")

    def point_at_run(self, state: Path, port: int) -> None:
        www = state / "www"
        cfg = www / "inc" / "config.php"
        cfg.write_text(re.sub(r"(\$config\['database'\]\['database'\] = )'[^']*'",
                              lambda m: f"{m.group(1)}'{state / 'data' / DB}'", cfg.read_text()))
        url = f"http://127.0.0.1:{port}"
        settings = www / "inc" / "settings.php"
        import sqlite3
        con = sqlite3.connect(state / "data" / DB)
        with con:
            con.execute("UPDATE mybb_settings SET value = ? WHERE name = 'bburl'", (url,))
            # MyBB reads its settings from inc/settings.php, a copy of the table: a test that changed
            # the table (shrink_inbox_pages) and a reset that restored it both hold from here on
            per_page = con.execute("SELECT value FROM mybb_settings WHERE name = 'threadsperpage'").fetchone()
            copied = dict(con.execute("SELECT name, value FROM mybb_settings WHERE name IN ('boardclosed', "
                                      "'boardclosed_reason')").fetchall())
        con.close()
        text = re.sub(r'(\$settings\[\'bburl\'\] = )"[^"]*"', lambda m: f'{m.group(1)}"{url}"', settings.read_text())
        if per_page:
            copied["threadsperpage"] = per_page[0]
        settings.write_text(_with_settings(text, copied))

    def close_board(self, reason: str) -> None:
        """What Board Settings > "Board Closed" does: the table and its copy in inc/settings.php
        (a reset restores the table, and the next start copies it again)."""
        self.execute("UPDATE mybb_settings SET value = '1' WHERE name = 'boardclosed'")
        self.execute("UPDATE mybb_settings SET value = ? WHERE name = 'boardclosed_reason'", (reason,))
        settings = self.run_dir / "www" / "inc" / "settings.php"
        settings.write_text(_with_settings(settings.read_text(), {"boardclosed": "1", "boardclosed_reason": reason}))

    def break_database(self) -> None:
        """A table gone (a failed upgrade): every thread page is MyBB's SQL error page."""
        self.execute("ALTER TABLE mybb_threads RENAME TO mybb_threads_gone")

    def missing_thread_url(self) -> str:
        return self.url("showthread.php?tid=9999")

    # ------------------------------------------------------------------ URLs

    board_path = "forumdisplay.php?fid={forum}&page={page}"  # the board's own page list
    board_per_page = 20  # the seed's setting

    def thread_url(self, page: int = 1, thread: str = "game") -> str:
        tid = self.thread_info(thread)["id"]
        return self.url(f"showthread.php?tid={tid}" + (f"&page={page}" if page > 1 else ""))

    def reply_form_path(self, thread: str = "game") -> str:
        return f"newreply.php?tid={self.thread_info(thread)['id']}"

    def inbox_url(self) -> str:
        return self.url("private.php")

    def conversation_url(self, conversation_id: int) -> str:
        return self.url(f"private.php?action=read&pmid={conversation_id}")

    # ------------------------------------------------------------------ HTTP

    def login(self, name: str, password: str | None = None) -> requests.Session:
        acc = self.account(name)
        s = self.session()
        page = self._get(s, self.url(self.login_path))
        r = self.submit(s, page, "form:has(input[name='action'][value='do_login'])",
                        {"username": acc.login, "password": password or acc.password})
        if "mybbuser" not in s.cookies or r.status_code >= 400:
            raise HarnessError(f"MyBB login of {name}: HTTP {r.status_code}, no mybbuser cookie: {text_of(r.text)[:300]}")
        return s

    def _newest(self, sql: str, args: tuple) -> int:
        (row,) = self.query(sql, args)
        return int(row[0] or 0)

    def reply(self, name: str, text: str, thread: str = "game", session: requests.Session | None = None) -> int:
        s = session or self.login(name)
        tid, uid = self.thread_info(thread)["id"], self.account(name).id
        before = self._newest("SELECT MAX(pid) FROM mybb_posts WHERE tid = ? AND uid = ?", (tid, uid))
        page = self._get(s, self.url(self.reply_form_path(thread)))
        r = self.submit(s, page, "form[name='input']", {"message": text})
        after = self._newest("SELECT MAX(pid) FROM mybb_posts WHERE tid = ? AND uid = ?", (tid, uid))
        if after <= before:
            raise HarnessError(f"MyBB reply by {name}: not stored: {text_of(r.text)[:400]}")
        return after

    def send_pm(self, sender: str, recipient: str, subject: str, text: str,
                session: requests.Session | None = None, path: str = "") -> int:
        """Send a PM over the compose form; returns the id of the sender's saved copy."""
        s = session or self.login(sender)
        uid = self.account(sender).id
        before = self._newest("SELECT MAX(pmid) FROM mybb_privatemessages WHERE uid = ? AND folder = 2", (uid,))
        page = self._get(s, self.url(path or self.new_pm_path))
        r = self.submit(s, page, "form[name='input']", {"to": self.account(recipient).login, "subject": subject,
                                                         "message": text, "options[savecopy]": "1"})
        after = self._newest("SELECT MAX(pmid) FROM mybb_privatemessages WHERE uid = ? AND folder = 2", (uid,))
        if after <= before:
            raise HarnessError(f"MyBB PM by {sender}: not stored: {text_of(r.text)[:400]}")
        return after

    def reply_pm(self, name: str, conversation_id: int, text: str, session: requests.Session | None = None) -> int:
        """MyBB's reply: a new PM "Re: ..." to the other party, from the reply form of that PM."""
        uid = self.account(name).id
        (row,) = self.query("SELECT subject, fromid, toid FROM mybb_privatemessages WHERE pmid = ? AND uid = ?",
                            (conversation_id, uid))
        other = row[2] if row[1] == uid else row[1]
        names = self._names()
        subject = row[0] if row[0].startswith("Re: ") else f"Re: {row[0]}"
        return self.send_pm(name, names[other], subject, text, session=session,
                            path=f"private.php?action=send&pmid={conversation_id}&do=reply")

    # ------------------------------------------------------------------ database

    can_expire_sessions = True

    inbox_per_page = 20  # threadsperpage of the seed: MyBB's private.php lists PMs by it

    def shrink_inbox_pages(self, n: int) -> int:
        self.execute("UPDATE mybb_settings SET value = ? WHERE name = 'threadsperpage'", (str(n),))
        self.restart()  # point_at_run writes the database's value into inc/settings.php
        return n

    def expire_sessions(self, name: str) -> None:
        """A new login key (the `mybbuser` cookie is uid_loginkey) and no session rows."""
        uid = self.account(name).id
        self.execute("UPDATE mybb_users SET loginkey = ? WHERE uid = ?", (f"expired{time.time_ns()}", uid))
        self.execute("DELETE FROM mybb_sessions WHERE uid = ?", (uid,))

    def _names(self) -> dict[int, str]:
        return dict(self.query("SELECT uid, username FROM mybb_users"))

    def db_posts(self, thread: str | int = "game") -> list[ForumPost]:
        tid = self.thread_ref(thread)
        rows = self.query("SELECT pid, tid, username, dateline, message, edittime FROM mybb_posts "
                          "WHERE tid = ? AND visible = 1 ORDER BY dateline, pid", (tid,))
        return [ForumPost(id=r[0], thread_id=r[1], author=r[2], at=_ts(r[3]), body=r[4], edited=bool(r[5]))
                for r in rows]

    def db_conversations(self, user: str | None = None) -> list[ForumConversation]:
        """`user`'s mailbox (GM default), inbox and sent folders: one PM each, newest first."""
        uid = self.account(user or self.script.gm).id
        names = self._names()
        rows = self.query("SELECT pmid, subject, fromid, toid, dateline, message, status FROM mybb_privatemessages "
                          "WHERE uid = ? AND folder IN (1, 2) ORDER BY dateline DESC, pmid DESC", (uid,))
        return [ForumConversation(id=r[0], subject=r[1], participants=(names.get(r[2], "?"), names.get(r[3], "?")),
                                  messages=(ForumMessage(id=r[0], conversation_id=r[0], author=names.get(r[2], "?"),
                                                         at=_ts(r[4]), body=r[5]),),
                                  unread=r[6] == 0)
                for r in rows]



def _with_settings(text: str, values: dict[str, str]) -> str:
    """inc/settings.php with `values` written in (MyBB's settings cache: one line a setting)."""
    for name, value in values.items():
        literal = value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")
        text = re.sub(rf'(\$settings\[\'{name}\'\] = )"[^"\n]*"', lambda m: f'{m.group(1)}"{literal}"', text)
    return text


# ---------------------------------------------------------------------- page parsers (harness-own;
# forummod's adapters are tested against these pages, not built on these functions)

_DATE = re.compile(r"(\d{2})-(\d{2})-(\d{4}), (\d{1,2}):(\d{2}) ([AP]M)")


def parse_page_time(text: str) -> datetime:
    m = _DATE.search(text)
    if not m:
        raise ValueError(f"not a MyBB date: {text!r}")
    hh = int(m.group(4)) % 12 + (12 if m.group(6) == "PM" else 0)
    return datetime(int(m.group(3)), int(m.group(1)), int(m.group(2)), hh, int(m.group(5)), tzinfo=UTC)


def _posts(soup: BeautifulSoup, thread_id: int) -> list[ForumPost]:
    out = []
    for div in soup.select("div.post[id^='post_']"):
        body = div.select_one("div.post_body")
        date = div.select_one("span.post_date")
        shown = date.select_one("span[title]")
        out.append(ForumPost(id=int(div["id"].split("_")[1]), thread_id=thread_id,
                             author=div.select_one("div.author_information span.largetext").get_text(strip=True),
                             at=parse_page_time(shown["title"] if shown else date.get_text(" ")),
                             body=body.get_text("\n", strip=True), edited=div.select_one("span.edited_post") is not None,
                             html=str(body)))
    return out


def parse_thread_page(html: str, thread_id: int = 0) -> list[ForumPost]:
    return _posts(BeautifulSoup(html, "lxml"), thread_id)


def parse_inbox(html: str) -> list[dict]:
    rows = []
    for link in BeautifulSoup(html, "lxml").select("a[href*='action=read'][href*='pmid=']"):
        m = re.search(r"pmid=(\d+)", link["href"])
        if m and link.get_text(strip=True):
            rows.append({"id": int(m.group(1)), "subject": link.get_text(strip=True), "people": [],
                         "unread": "new_pm" in link.get("class", [])})
    return rows


def parse_conversation(html: str, conversation_id: int = 0) -> ForumConversation:
    soup = BeautifulSoup(html, "lxml")
    msgs = tuple(ForumMessage(id=conversation_id, conversation_id=conversation_id, author=p.author, at=p.at,
                              body=p.body) for p in _posts(soup, conversation_id))
    container = soup.select_one("td#posts_container")
    title = container.find_parent("tr").find_previous_sibling("tr").select_one("td.thead strong") if container else None
    return ForumConversation(id=conversation_id, subject=title.get_text(strip=True) if title else "",
                             participants=tuple(dict.fromkeys(m.author for m in msgs)), messages=msgs)
