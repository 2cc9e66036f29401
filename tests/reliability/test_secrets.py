"""The GM's account never leaks: secrets come from the environment or the keyring, files that
hold a session are owner-only, and no password or session id shows up in any log line (at
DEBUG, urllib3 included), draft, error message or `--json` output of a login + poll + publish
against the demo forum on 127.0.0.1, including the failures (a refused password, a publish
whose answer was lost)."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import os
import stat
import sys
import types
from datetime import datetime, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.config import SiteConfig
from forummod.demo import script as S
from forummod.demo.run import PASSWORD_ENV
from forummod.errors import ConfigError, ForumError
from forummod.forum.login import read_secret
from forummod.lock import WorkspaceLock
from forummod.logsafe import install_redaction
from forummod.service import poll_game
from forummod.store import Store
from tests.reliability.faulty_forum import FaultyForum, GameClock, demo_config, fresh_site, open_workspace

PASSWORD = "Pw-7f3a9c1e-do-not-leak"


# ---------------------------------------------------------------------- where secrets come from


def test_the_config_has_no_place_for_a_secret_only_for_the_name_of_its_variable():
    for f in dataclasses.fields(SiteConfig):
        if any(w in f.name for w in ("password", "key", "token", "secret", "cookie")):
            assert f.name.endswith("_env") or f.type in (bool, "bool"), f.name


def test_a_password_comes_from_its_environment_variable(monkeypatch):
    monkeypatch.setenv("FM_TEST_PW", PASSWORD)
    assert read_secret("FM_TEST_PW", site_name="s") == PASSWORD


def test_the_keyring_is_asked_only_when_the_site_says_so_and_the_variable_is_unset(monkeypatch):
    asked = []
    fake = types.ModuleType("keyring")
    fake.get_password = lambda service, user: asked.append((service, user)) or "from-the-keyring"
    monkeypatch.setitem(sys.modules, "keyring", fake)
    monkeypatch.delenv("FM_TEST_PW", raising=False)
    assert read_secret("FM_TEST_PW", use_keyring=True, site_name="s") == "from-the-keyring"
    assert asked == [("forummod", "s")]
    with pytest.raises(ConfigError, match=r"\$FM_TEST_PW") as e:
        read_secret("FM_TEST_PW", use_keyring=False, site_name="s")
    assert "keyring" not in str(e.value) and len(asked) == 1
    monkeypatch.setenv("FM_TEST_PW", PASSWORD)
    assert read_secret("FM_TEST_PW", use_keyring=True, site_name="s") == PASSWORD and len(asked) == 1


def test_a_missing_password_names_the_variable_to_set():
    with pytest.raises(ConfigError) as e:
        read_secret("FM_SURELY_UNSET_VARIABLE", site_name="forum")
    assert e.value.path == "sites.forum" and "$FM_SURELY_UNSET_VARIABLE" in str(e.value)


# ---------------------------------------------------------------------- files


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_the_store_that_keeps_the_session_cookie_is_owner_only_even_with_a_permissive_umask(tmp_path, clock,
                                                                                            monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    site = fresh_site(S.NOW)
    site.users[S.GM] = PASSWORD
    old = os.umask(0)
    try:
        with FaultyForum(site) as forum:
            cfg = demo_config(tmp_path / "ws", forum.base_url)
            cfg.write_text(cfg.read_text().replace(str(tmp_path / "ws" / "store.sqlite"),
                                                   str(tmp_path / "ws" / "data" / "store.sqlite")))
            with open_workspace(cfg, clock, GameClock(S.NOW)) as ws:
                assert poll_game(ws, "demo").ok
                jar = ws.store.load_cookies("demo")
                store = ws.store.path
                files = [store, Path(f"{store}-wal"), Path(f"{store}-shm")]
                assert all(f.exists() for f in files)
                assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
            with WorkspaceLock(store):
                assert mode(Path(f"{store}.lock")) == 0o600
    finally:
        os.umask(old)
    assert any(c["value"] in site.sessions for c in jar)  # the session cookie lives in the store
    assert mode(store) == 0o600
    assert mode(store.parent) & 0o077 == 0  # the folder made for it is private too
    assert sorted(p.name for p in store.parent.iterdir()) == ["store.sqlite", "store.sqlite.lock"]


# ---------------------------------------------------------------------- outputs


class LogCapture:
    """Everything logged at DEBUG (forummod, urllib3...) through a handler with the CLI's redaction."""

    def __enter__(self) -> "LogCapture":
        self.buf = io.StringIO()
        self.handler = logging.StreamHandler(self.buf)
        self.handler.setLevel(logging.DEBUG)
        self.handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        self.saved = root.level, logging.getLogger("urllib3").level
        root.addHandler(self.handler)
        root.setLevel(logging.DEBUG)
        logging.getLogger("urllib3").setLevel(logging.DEBUG)
        install_redaction()
        return self

    def __exit__(self, *exc) -> None:
        root = logging.getLogger()
        root.removeHandler(self.handler)
        root.setLevel(self.saved[0])
        logging.getLogger("urllib3").setLevel(self.saved[1])

    @property
    def text(self) -> str:
        return self.buf.getvalue()


def store_texts(store: Store) -> list[str]:
    db = store.db
    out = [r[0] for r in db.execute("SELECT body FROM drafts")]
    out += [r[0] for r in db.execute("SELECT body FROM draft_history")]
    out += [r[0] or "" for r in db.execute("SELECT error FROM publications")]
    out += [r[0] or "" for r in db.execute("SELECT error FROM poll_runs")]
    out += [r[0] for r in db.execute("SELECT payload FROM findings")]
    return out


def test_no_secret_in_logs_drafts_errors_or_json_output(tmp_path, clock, monkeypatch, capsys):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    site = fresh_site(S.FIRST_POLL)
    site.users[S.GM] = PASSWORD
    site.clock = clock  # the forum's "2 seconds since the form was shown" on the client's fake clock
    outputs: dict[str, str] = {}
    with FaultyForum(site) as forum, LogCapture() as logs:
        cfg = demo_config(tmp_path / "ws", forum.base_url)
        game_clock = GameClock(S.FIRST_POLL)
        with open_workspace(cfg, clock, game_clock) as ws:
            # login + poll
            report = poll_game(ws, "demo")
            assert report.ok, report.error
            # publish a reply (login form, form tokens, sid in the form's URL)
            from forummod.publish import publish

            d1, _ = ws.store.upsert_draft(game="demo", kind="votecount", phase="D1", slot="", target="thread",
                                          markup="bbcode", lang="it", title="", body="[b]Conta dei voti[/b]\nFede: 3",
                                          at=S.FIRST_POLL)
            assert publish(ws, d1).status == "sent"
            # a publish whose answer is lost: applied by the forum, the connection reset
            d2, _ = ws.store.upsert_draft(game="demo", kind="prod", phase="D1", slot="", target="thread",
                                          markup="bbcode", lang="it", title="", body="Zeno, ci sei?", at=S.FIRST_POLL)
            forum.inject("reset", method="POST", match="posting.php", times=1)
            with pytest.raises(ForumError) as lost:
                publish(ws, d2)
            outputs["lost publish error"] = str(lost.value)
            # the session expires and the forum wants a new login mid-poll
            sessions = set(site.sessions)
            site.sessions.clear()
            play_to_now(site, game_clock)
            report = poll_game(ws, "demo")
            assert report.ok, report.error
            outputs["poll report"] = repr(report)
            stored = store_texts(ws.store)
            cookies = [c["value"] for c in ws.store.load_cookies("demo")]
        sessions |= set(site.sessions)
        # the command line, --json everywhere it reports
        for args in (["poll", "--json"], ["tally", "--json"], ["status", "--json"], ["drafts", "--json"],
                     ["drafts", "--show", str(d2), "--json"], ["publish", str(d1), "--dry-run", "--json"],
                     ["poll", "-v"]):
            code = main([*args, "--config", str(cfg)])
            out, err = capsys.readouterr()
            outputs[" ".join(args)] = out + err
            assert code in (0, 1), (args, err)
        # a refused password: the error says so without showing it
        monkeypatch.setenv(PASSWORD_ENV, PASSWORD + "-but-wrong")
        site.sessions.clear()
        (tmp_path / "ws" / "store.sqlite").unlink()
        code = main(["poll", "--json", "--config", str(cfg)])
        out, err = capsys.readouterr()
        outputs["refused login"] = out + err
        assert code == 1 and "the forum says the credentials are wrong" in out + err
        outputs["log"] = logs.text

    secrets = {"password": PASSWORD, "wrong password": PASSWORD + "-but-wrong"}
    secrets.update({f"session {i}": s for i, s in enumerate(sorted(sessions) + cookies)})
    assert len(sessions) >= 2 and any(c in sessions for c in cookies)  # there were real sessions to leak
    assert "POST" in outputs["log"] and "sid=***" in outputs["log"]  # DEBUG really logged the requests
    for where, text in [*outputs.items(), *((f"store text {i}", t) for i, t in enumerate(stored))]:
        for what, value in secrets.items():
            assert value not in text, f"{what} leaked in {where}"


def play_to_now(site, game_clock) -> None:
    from tests.reliability.faulty_forum import play_to

    play_to(site, S.NOW)
    game_clock.now = S.NOW


# ---------------------------------------------------------------------- the preview page


@pytest.fixture(scope="module")
def preview_server(tmp_path_factory):
    from forummod.config import load_config
    from forummod.preview.server import PreviewServer
    from forummod.service import Workspace

    folder = tmp_path_factory.mktemp("preview")
    (folder / "forummod.toml").write_text(
        '[workspace]\nstore = "store.sqlite"\n[sites.f]\nengine = "archive"\nposts_file = "posts.jsonl"\n'
        '[games.g1]\nsite = "f"\nthread = "game"\nruleset = "mafia-majority"\ngm = ["Mod"]\n'
        'players = [{ name = "Ann" }, { name = "Bob" }, { name = "Cat" }]\n', encoding="utf-8")
    (folder / "posts.jsonl").write_text("", encoding="utf-8")
    ws = Workspace(load_config(folder / "forummod.toml"))
    server = PreviewServer(ws, refresh=lambda ws: "nothing to refresh").start()
    yield server, ws
    server.stop()
    ws.close()


@pytest.fixture
def preview(preview_server, request):
    """The preview server and a fresh open draft on it."""
    import requests

    server, ws = preview_server
    did, _ = ws.store.upsert_draft(game="g1", kind="votecount", phase="D1", slot=request.node.name, target="thread",
                                   markup="bbcode", lang="en", title="", body="[b]Vote count[/b]",
                                   at=datetime.now(timezone.utc))
    with requests.Session() as session:
        yield server, ws, did, session


def test_the_preview_listens_on_loopback_only_and_wants_its_token(preview):
    server, ws, did, s = preview
    assert server.httpd.server_address[0] == "127.0.0.1"
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/?token=") and len(server.token) >= 24
    base = f"http://127.0.0.1:{server.port}/"
    assert s.get(base).status_code == 403
    wrong_last = "y" if server.token.endswith("x") else "x"  # a token that differs in its last character only
    assert s.get(base + "?token=" + server.token[:-1] + wrong_last).status_code == 403
    ok = s.get(server.url)
    assert ok.status_code == 200 and "Vote count" in ok.text
    from forummod.preview.page import SCRIPT_SOURCE

    csp = ok.headers["Content-Security-Policy"]  # no script runs but the page's own, allowed by its hash
    assert f"script-src {SCRIPT_SOURCE};" in csp and "default-src 'none'" in csp and "unsafe-inline" not in \
        csp.split("style-src")[0]
    # DNS rebinding: a page of evil.example resolving to 127.0.0.1 sends its own Host
    assert s.get(server.url, headers={"Host": f"evil.example:{server.port}"}).status_code == 403


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site", "Origin": None},
    {"Referer": "http://evil.example/page"},
    {},  # neither Origin nor Referer: cannot be shown to come from the page
], ids=["other origin", "opaque origin", "cross-site fetch", "other referer", "no origin"])
def test_the_preview_refuses_cross_site_posts_even_with_the_token(preview, headers):
    server, ws, did, s = preview
    r = s.post(f"http://127.0.0.1:{server.port}/drafts/{did}/discard", data={"token": server.token},
               headers={k: v for k, v in headers.items() if v is not None}, allow_redirects=False)
    assert r.status_code == 403
    assert ws.store.draft(did).status == "draft"


def test_the_preview_accepts_its_own_page_posting_with_the_token(preview):
    server, ws, did, s = preview
    origin = f"http://127.0.0.1:{server.port}"
    no_token = s.post(f"{origin}/drafts/{did}/discard", data={"token": "guess"}, headers={"Origin": origin},
                      allow_redirects=False)
    assert no_token.status_code == 403 and ws.store.draft(did).status == "draft"
    r = s.post(f"{origin}/drafts/{did}/discard", data={"token": server.token},
               headers={"Origin": origin, "Sec-Fetch-Site": "same-origin"}, allow_redirects=False)
    assert r.status_code == 303
    assert ws.store.draft(did).status == "discarded"


def test_the_preview_never_logs_its_token(preview, caplog):
    server, ws, did, s = preview
    caplog.set_level(logging.DEBUG)
    s.get(server.url)
    s.post(f"http://127.0.0.1:{server.port}/drafts/{did}/edit", data={"token": server.token, "body": "x"},
           headers={"Origin": f"http://127.0.0.1:{server.port}"}, allow_redirects=False)
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("forummod"))
    assert "preview GET /" in ours and server.token not in ours  # (the test's own HTTP client logs it)


# ---------------------------------------------------------------------- the mask hides values, not words


def test_the_mask_leaves_key_names_and_variable_names_readable(ws_dir_with_password_key, capsys):
    """Issue 19, failure 4: "sites.f.password: *** key" and "no password: *** $FORUM_PASSWORD_VAR"."""
    code = main(["tally", "--config", str(ws_dir_with_password_key)])
    err = capsys.readouterr().err
    assert code == 2
    assert "sites.f.password: unknown key; did you mean 'password_env'?" in err
    assert "***" not in err


def test_a_missing_password_names_its_variable_in_clear(monkeypatch):
    from forummod.logsafe import redact

    monkeypatch.delenv("FORUM_PASSWORD_VAR", raising=False)
    with pytest.raises(ConfigError) as e:
        read_secret("FORUM_PASSWORD_VAR", site_name="spirit")
    assert redact(str(e.value)) == "sites.spirit: no password: set $FORUM_PASSWORD_VAR"


@pytest.mark.parametrize("text, hidden", [
    ("POST body username=gm&password=pw-9f8e7d&login=Login", "pw-9f8e7d"),
    ("{'login': 'gm', 'password': 'pw-9f8e7d'}", "pw-9f8e7d"),
    ('{"api_key": "k-9f8e7d"}', "k-9f8e7d"),
    ("Cookie: phpbb_sid=9f8e7d6c5b4a", "9f8e7d6c5b4a"),
    ("headers:\nAuthorization: Bearer 9f8e7d6c5b4a", "9f8e7d6c5b4a"),
    # session ids where forums put them, before any cookie names them (issue 34, item 6)
    ('http://f "GET /ucp.php?mode=login&sid=b306c1cc3a47edf56a15be6cd0ee9325 HTTP/1.1" 302', "b306c1cc3a47edf5"),
    ("GET https://f/index.php?PHPSESSID=pdqvpmg5ovk11sjolre1i6cc9b;action=pm", "pdqvpmg5ovk11sjolre1i6cc9b"),
    ("GET https://f/showthread.php?s=0123456789abcdef0123456789abcdef&t=5", "0123456789abcdef0123456789abcdef"),
    ("GET https://f/viewtopic.php?t=5&amp;sid=b306c1cc3a47edf56a15be6cd0ee9325", "b306c1cc3a47edf5"),
    ("the jar holds phpbb3_49yrw_sid=b306c1cc3a47 for the site", "b306c1cc3a47"),
    ("POST https://f/login?session_id=Zx81-qq&next=/", "Zx81-qq"),
])
def test_the_mask_still_hides_a_value_next_to_its_name(text, hidden):
    from forummod.logsafe import redact

    out = redact(text)
    assert hidden not in out and "***" in out


@pytest.mark.parametrize("text", [
    "sites.spirit.password: unknown key; did you mean 'password_env'?",
    "no password: set $FORUM_PASSWORD_VAR or the keyring",
    "password_env = FORUM_PASSWORD",
    "the forum refused the password (wrong password?)",
    "a cookie: none stored yet",
    "the session expired or a login is needed",
    "GET https://f/search.php?s=werewolf&posts=30",
    "GET https://f/viewtopic.php?t=5&start=10#p1014",
    "sites.f.session_cookie: unknown key",
])
def test_the_mask_leaves_ordinary_words_alone(text):
    from forummod.logsafe import redact

    assert redact(text) == text


@pytest.fixture
def ws_dir_with_password_key(tmp_path):
    text = ('[workspace]\nstore = "store.sqlite"\n\n[sites.f]\nengine = "phpbb"\nbase_url = "http://127.0.0.1:9/"\n'
            'username = "gm"\npassword = "hunter2hunter2"\n\n'
            '[games.g1]\nsite = "f"\nthread = "3"\nruleset = "mafia-majority"\ngm = ["Mod"]\n'
            'players = [{ name = "Ann" }, { name = "Bob" }, { name = "Cat" }]\n')
    path = tmp_path / "forummod.toml"
    path.write_text(text, encoding="utf-8")
    return path
