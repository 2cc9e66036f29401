"""phpBB 3.3.11 on SQLite, served by `php -S` on 127.0.0.1 (recipe: ../shared/real-forums-php.md).

Install: phpBB's CLI installer (`install/phpbbcli.php install`), then `install/` moved out (the
board refuses to run beside it). Seed: engines/phpbb/seed.php (phpBB's user_add, submit_post,
submit_pm; flood interval off). phpBB takes its URLs from the request (force_server_vars off),
so a run on another port needs only its database path and an empty cache.

PMs: every message is a row of each participant's mailbox, with one message id for both; a
message page shows the PM thread's history below the message. phpBB refuses a form submitted
within the second it was shown: the harness waits 1.1 s between GET and POST.
"""

from __future__ import annotations

import html
import re
import shutil
import time
from datetime import datetime, timezone
from pathlib import Path

import requests
from bs4 import BeautifulSoup

from . import harness
from .base import ForumConversation, ForumMessage, ForumPost
from .harness import HarnessError
from .php_engine import PhpForum, text_of

UTC = timezone.utc
DB = "phpbb.sqlite3"
FORM_AGE = 1.1  # check_form_key(): a form is valid from the second after it was shown

INSTALL_CONFIG = """installer:
    admin: {{name: {gm}, password: {password}, email: narratore@valfonda.example}}
    board: {{lang: en, name: {forum}, description: Lupus}}
    database: {{dbms: sqlite3, dbhost: {db}, dbport: ~, dbuser: ~, dbpasswd: ~, dbname: ~, table_prefix: phpbb_}}
    email: {{enabled: false, smtp_delivery: ~, smtp_host: ~, smtp_port: ~, smtp_auth: ~, smtp_user: ~, smtp_pass: ~}}
    server: {{cookie_secure: false, server_protocol: 'http://', force_server_vars: false, server_name: 127.0.0.1, server_port: {port}, script_path: /}}
    extensions: []
"""


def _ts(value: int | None) -> datetime | None:
    return datetime.fromtimestamp(int(value), UTC) if value else None


class PhpBBForum(PhpForum):
    engine = "phpbb"
    version = "3.3.11"
    tarball = "phpbb-3.3.11.tar.gz"
    db_name = f"data/{DB}"
    login_path = "ucp.php?mode=login"
    new_pm_path = "ucp.php?i=pm&mode=compose"
    logout_link = r"mode=logout"
    pm_threads = False
    subject_limit = 60  # phpBB cuts a PM's subject to 60 characters
    foreign_pm_status = (200,)  # an error page
    reset_names = ("data", "www/cache")
    can_expire_sessions = True

    # ------------------------------------------------------------------ install

    def install_engine(self, state: Path, port: int, log: Path) -> None:
        www = state / "www"
        cfg = state / "install-config.yml"
        cfg.write_text(INSTALL_CONFIG.format(gm=self.script.gm, password=self.script.password,
                                             forum=self.script.forum, db=state / "data" / DB, port=port))
        (www / "config.php").touch()
        # phpBB's installer stops after a slow step (its own time budget) and resumes where it
        # stopped when run again (store/install_config.php)
        for _ in range(6):
            harness.run(["php", *self.php_options(), www / "install" / "phpbbcli.php", "install", cfg], log, cwd=www,
                        what="phpBB installer")
            if "installer has finished successfully" in log.read_text(errors="replace"):
                break
        else:
            raise HarnessError(f"phpBB installer did not finish; log {log}:\n{harness.tail(log)}")
        shutil.rmtree(www / "install")  # the board refuses to run while install/ exists
        cfg.unlink()

    def point_at_run(self, state: Path, port: int) -> None:
        cfg = state / "www" / "config.php"
        cfg.write_text(re.sub(r"(\$dbhost = )'[^']*'", lambda m: f"{m.group(1)}'{state / 'data' / DB}'",
                              cfg.read_text()))
        cache = state / "www" / "cache" / "production"  # the compiled container holds the old paths
        if cache.is_dir():
            shutil.rmtree(cache)

    def close_board(self, reason: str) -> None:
        """What General > Board settings > "Disable board" does (the config is cached: the cache
        goes, a reset brings it back)."""
        self.execute("UPDATE phpbb_config SET config_value = '1' WHERE config_name = 'board_disable'")
        self.execute("UPDATE phpbb_config SET config_value = ? WHERE config_name = 'board_disable_msg'", (reason,))
        self._drop_cache()

    def break_database(self) -> None:
        """A table gone (a failed upgrade): every topic page is phpBB's SQL error page."""
        self.execute("ALTER TABLE phpbb_topics RENAME TO phpbb_topics_gone")
        self._drop_cache()

    def _drop_cache(self) -> None:
        for f in (self.run_dir / "www" / "cache" / "production").glob("data_*.php"):
            f.unlink()

    def missing_thread_url(self) -> str:
        return self.url("viewtopic.php?t=9999")

    # ------------------------------------------------------------------ URLs

    board_path = "viewforum.php?f={forum}&start={start}"  # the board's own page list
    board_per_page = 25  # the seed's setting

    def thread_url(self, page: int = 1, thread: str = "game") -> str:
        tid = self.thread_info(thread)["id"]
        return self.url(f"viewtopic.php?t={tid}" + (f"&start={(page - 1) * self.script.per_page}" if page > 1 else ""))

    def reply_form_path(self, thread: str = "game") -> str:
        return f"posting.php?mode=reply&t={self.thread_info(thread)['id']}"

    def inbox_url(self) -> str:
        return self.url("ucp.php?i=pm&folder=inbox")

    def conversation_url(self, conversation_id: int) -> str:
        return self.url(f"ucp.php?i=pm&mode=view&p={conversation_id}")

    # ------------------------------------------------------------------ HTTP

    def _form(self, s: requests.Session, url: str) -> requests.Response:
        page = self._get(s, url)
        time.sleep(FORM_AGE)
        return page

    def login(self, name: str, password: str | None = None) -> requests.Session:
        acc = self.account(name)
        s = self.session()
        page = self._form(s, self.url(self.login_path))
        r = self.submit(s, page, "form#login", {"username": acc.login, "password": password or acc.password,
                                                "login": "Login"})
        if not re.search(self.logout_link, r.text):
            raise HarnessError(f"phpBB login of {name}: HTTP {r.status_code}: {text_of(r.text)[:300]}")
        return s

    def _newest(self, sql: str, args: tuple) -> int:
        (row,) = self.query(sql, args)
        return int(row[0] or 0)

    def reply(self, name: str, text: str, thread: str = "game", session: requests.Session | None = None) -> int:
        s = session or self.login(name)
        tid, uid = self.thread_info(thread)["id"], self.account(name).id
        sql = "SELECT MAX(post_id) FROM phpbb_posts WHERE topic_id = ? AND poster_id = ?"
        before = self._newest(sql, (tid, uid))
        page = self._form(s, self.url(self.reply_form_path(thread)))
        r = self.submit(s, page, "form#postform", {"message": text, "post": "Submit"})
        after = self._newest(sql, (tid, uid))
        if after <= before:
            raise HarnessError(f"phpBB reply by {name}: not stored: {text_of(r.text)[:400]}")
        return after

    def _pm(self, s: requests.Session, sender: str, path: str, values: dict[str, str], drop=None) -> int:
        sql = "SELECT MAX(msg_id) FROM phpbb_privmsgs WHERE author_id = ?"
        uid = self.account(sender).id
        before = self._newest(sql, (uid,))
        page = self._form(s, self.url(path))
        r = self.submit(s, page, "form#postform", values | {"post": "Submit"}, drop=drop)
        after = self._newest(sql, (uid,))
        if after <= before:
            raise HarnessError(f"phpBB PM by {sender}: not stored: {text_of(r.text)[:400]}")
        return after

    def send_pm(self, sender: str, recipient: str, subject: str, text: str,
                session: requests.Session | None = None) -> int:
        """A new PM over the compose form (the recipient as the form's address list); its id."""
        s = session or self.login(sender)
        return self._pm(s, sender, self.new_pm_path, {f"address_list[u][{self.account(recipient).id}]": "to",
                                                      "subject": subject, "message": text})

    def reply_pm(self, name: str, conversation_id: int, text: str, session: requests.Session | None = None) -> int:
        """Answer the newest message of the PM thread `conversation_id` with its reply form."""
        last = self._newest("SELECT MAX(msg_id) FROM phpbb_privmsgs WHERE msg_id = ? OR root_level = ?",
                            (conversation_id, conversation_id))
        uid = self.account(name).id
        (author, to), = self.query("SELECT author_id, to_address FROM phpbb_privmsgs WHERE msg_id = ?", (last,))
        # the reply button addresses the message's author: answering one's own message, the other party
        others = [int(u) for u in re.findall(r"u_(\d+)", to or "")] if author == uid else [author]
        s = session or self.login(name)
        return self._pm(s, name, f"ucp.php?i=pm&mode=compose&action=reply&f=0&p={last}",
                        {"message": text, **{f"address_list[u][{o}]": "to" for o in others}},
                        drop=lambda field: field.startswith("address_list["))

    # ------------------------------------------------------------------ database

    def _names(self) -> dict[int, str]:
        return dict(self.query("SELECT user_id, username FROM phpbb_users"))

    def db_posts(self, thread: str | int = "game") -> list[ForumPost]:
        tid = self.thread_ref(thread)
        names = self._names()
        rows = self.query("SELECT post_id, topic_id, poster_id, post_time, post_text, post_edit_count FROM phpbb_posts "
                          "WHERE topic_id = ? AND post_visibility = 1 ORDER BY post_time, post_id", (tid,))
        return [ForumPost(id=r[0], thread_id=r[1], author=names.get(r[2], "?"), at=_ts(r[3]), body=_source(r[4]),
                          edited=bool(r[5])) for r in rows]

    def db_conversations(self, user: str | None = None) -> list[ForumConversation]:
        """`user`'s mailbox (GM default), every folder: one PM each, newest first."""
        uid = self.account(user or self.script.gm).id
        names = self._names()
        rows = self.query(
            "SELECT p.msg_id, p.message_subject, p.author_id, p.message_time, p.message_text, t.pm_unread, p.to_address "
            "FROM phpbb_privmsgs p JOIN phpbb_privmsgs_to t ON t.msg_id = p.msg_id "
            "WHERE t.user_id = ? AND t.pm_deleted = 0 ORDER BY p.message_time DESC, p.msg_id DESC", (uid,))
        out = []
        for mid, subject, author, at, text, unread, to in rows:
            people = (names.get(author, "?"), *(names.get(int(u), "?") for u in re.findall(r"u_(\d+)", to or "")))
            out.append(ForumConversation(id=mid, subject=html.unescape(subject), participants=people, unread=bool(unread),
                                         messages=(ForumMessage(id=mid, conversation_id=mid,
                                                                author=names.get(author, "?"), at=_ts(at),
                                                                body=_source(text)),)))
        return out

    def conversation_keys_shown(self, key: str) -> list[int]:
        """A message page shows the PM thread's history: every message of the conversation."""
        return list(range(len(self.script.conversation(key).messages)))

    inbox_per_page = 25  # topics_per_page of the seed: phpBB lists PMs by it

    def shrink_inbox_pages(self, n: int) -> int:
        """phpBB's PM list follows `topics_per_page`; the restart drops the cached config."""
        self.execute("UPDATE phpbb_config SET config_value = ? WHERE config_name = 'topics_per_page'", (str(n),))
        self.restart()
        return n

    def expire_sessions(self, name: str) -> None:
        """No session rows and no "remember me" keys: every cookie of `name` is a guest's."""
        uid = self.account(name).id
        self.execute("DELETE FROM phpbb_sessions WHERE session_user_id = ?", (uid,))
        self.execute("DELETE FROM phpbb_sessions_keys WHERE user_id = ?", (uid,))


def _source(stored: str) -> str:
    """phpBB stores s9e XML (`<r><B><s>[b]</s>Voto<e>[/b]</e></B></r>`): its text is the BBCode typed."""
    if not stored.startswith(("<r>", "<t>")):
        return stored
    text = re.sub(r"<[^>]+>", "", stored)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


# ---------------------------------------------------------------------- page parsers (harness-own;
# forummod's adapters are tested against these pages, not built on these functions)

def _post(div, thread_id: int, pid: int) -> ForumPost:
    body = div.select_one("div.content")
    when = div.select_one("p.author time")
    author = div.select_one("p.author a.username, p.author a.username-coloured, dl.postprofile a.username, "
                            "dl.postprofile a.username-coloured")
    at = datetime.fromisoformat(when["datetime"]).astimezone(UTC) if when else parse_page_time(
        div.select_one("p.author, div.author").get_text(" "))
    return ForumPost(id=pid, thread_id=thread_id, author=author.get_text(strip=True), at=at,
                     body=body.get_text("\n", strip=True), edited=div.select_one("div.notice") is not None,
                     html=str(body))


_DATE = re.compile(r"(\w{3}) (\w{3}) (\d{2}), (\d{4}) (\d{1,2}):(\d{2}) ([ap]m)")
MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                                      "Dec"), 1)}


def parse_page_time(text: str) -> datetime:
    m = _DATE.search(text)
    if not m:
        raise ValueError(f"not a phpBB date: {text!r}")
    hh = int(m.group(5)) % 12 + (12 if m.group(7) == "pm" else 0)
    return datetime(int(m.group(4)), MONTHS[m.group(2)], int(m.group(3)), hh, int(m.group(6)), tzinfo=UTC)


def parse_thread_page(html: str, thread_id: int = 0) -> list[ForumPost]:
    soup = BeautifulSoup(html, "lxml")
    return [_post(div, thread_id, int(div["id"][1:])) for div in soup.select("div.post[id^='p']")
            if re.fullmatch(r"p\d+", div["id"])]


def parse_inbox(html: str) -> list[dict]:
    rows = []
    for row in BeautifulSoup(html, "lxml").select("ul.topiclist.cplist li.row"):
        link = row.select_one("a.topictitle")
        m = re.search(r"[?&]p=(\d+)", link["href"]) if link else None
        if m:
            rows.append({"id": int(m.group(1)), "subject": link.get_text(strip=True), "people": [],
                         "unread": "pm_unread" in " ".join(row.get("class", []))})
    return rows


def parse_conversation(html: str, conversation_id: int = 0) -> ForumConversation:
    """The message and the thread's history below it, oldest first."""
    soup = BeautifulSoup(html, "lxml")
    posts = []
    for div in soup.select("div.post"):
        m = re.fullmatch(r"(?:post-|pr)(\d+)", div.get("id") or "") or \
            re.fullmatch(r"pr(\d+)", (div.select_one("div.postbody[id^='pr']") or {}).get("id", "") or "")
        if m and div.select_one("div.content"):
            posts.append(_post(div, conversation_id, int(m.group(1))))
    unique = {p.id: p for p in posts}
    msgs = tuple(ForumMessage(id=p.id, conversation_id=conversation_id, author=p.author, at=p.at, body=p.body)
                 for p in sorted(unique.values(), key=lambda p: (p.at, p.id)))
    title = soup.select_one("div.post.pm h3, div#post-content h3")
    return ForumConversation(id=conversation_id, subject=title.get_text(strip=True) if title else "",
                             participants=tuple(dict.fromkeys(m.author for m in msgs)), messages=msgs)
