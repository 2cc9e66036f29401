"""`forummod doctor` checks the zone the forum shows its times in (issue 16 item 4: a wrong zone
must never pass silently): the zone the thread's last page states against `sites.x.timezone`,
else the newest post of the last hour against the server's HTTP Date, else "cannot tell" —
each with the key to set. Real HTTP to a phpBB-shaped thread of two pages on 127.0.0.1."""

from __future__ import annotations

import json
import re
import sys
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest

from forummod.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "forum"))
from forum_synth import PER_PAGE, page_html  # noqa: E402

POSTS = 12  # two pages: doctor reads the last one


def serve(newest_shown: datetime, footer: str = ""):
    """The thread with every post's date as plain text (no machine-readable datetime, as many
    styles print it): the last post at `newest_shown` (a wall time), the others in 2024."""

    def render(page: int) -> bytes:
        html = page_html(POSTS, page)

        def plain(m: re.Match) -> str:
            when = datetime.fromisoformat(m.group(1))
            n = int((when - datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)).total_seconds() // 60)
            shown = newest_shown if n == POSTS else when
            return f"{shown:%a %b %d, %Y %I:%M %p}"

        html = re.sub(r'<time datetime="([^"]+)">[^<]*</time>', plain, html)
        return html.replace("<p>Powered by phpBB</p>", f"<p>{footer}</p><p>Powered by phpBB</p>").encode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            parts = urlsplit(self.path)
            if parts.path != "/viewtopic.php":
                self.send_response(404)
                self.end_headers()
                return
            body = render(int(parse_qs(parts.query).get("start", ["0"])[0]) // PER_PAGE + 1)
            self.send_response(200)  # sends the server's Date header, as every web server does
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def doctor(tmp_path, server, tz: str, capsys) -> tuple[int, dict, str]:
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    path = tmp_path / "forummod.toml"
    path.write_text(f"""
[workspace]
store = "{tmp_path / 'store.sqlite'}"
[sites.f]
engine = "phpbb"
base_url = "{base}"
timezone = "{tz}"
request_interval = 0.0
[games.g]
site = "f"
thread = "{base}viewtopic.php?t=1"
ruleset = "mafia-majority"
players = [{{ name = "Ann" }}, {{ name = "Bob" }}]
""", encoding="utf-8")
    try:
        rc = main(["doctor", "--config", str(path), "--json"])
    finally:
        server.shutdown()
    out = capsys.readouterr().out
    (zone,) = [c for c in json.loads(out)["checks"] if c["check"] == "zone"]
    return rc, zone, out


def now_in(tz: str) -> datetime:
    return datetime.now(timezone.utc).astimezone(ZoneInfo(tz)).replace(tzinfo=None)


def test_doctor_reports_the_zone_the_page_states_when_the_config_says_another(tmp_path, capsys):
    server = serve(datetime(2024, 3, 2, 9, 0), footer='All times are <span title="Europe/Rome">UTC+01:00</span>')
    rc, zone, _ = doctor(tmp_path, server, "America/New_York", capsys)
    assert rc == 1 and not zone["ok"] and zone["where"] == "sites.f.timezone"
    assert "Europe/Rome" in zone["message"] and "America/New_York" in zone["message"]
    assert 'sites.f.timezone = "Europe/Rome"' in zone["message"]


def test_doctor_accepts_a_stated_zone_that_agrees(tmp_path, capsys):
    server = serve(datetime(2024, 3, 2, 9, 0), footer='All times are <span title="Europe/Rome">UTC+01:00</span>')
    rc, zone, _ = doctor(tmp_path, server, "Europe/Rome", capsys)
    assert zone["ok"] and "Europe/Rome" in zone["message"]


def test_doctor_infers_a_wrong_zone_from_a_fresh_post_in_the_future_of_the_servers_clock(tmp_path, capsys):
    # the forum shows Tokyo time (UTC+9); the config says UTC: the newest post is 9 h in the future
    server = serve(now_in("Asia/Tokyo") - timedelta(minutes=5))
    rc, zone, _ = doctor(tmp_path, server, "UTC", capsys)
    assert rc == 1 and not zone["ok"] and zone["where"] == "sites.f.timezone"
    assert "UTC+09:00" in zone["message"] and "not UTC" in zone["message"]


def test_doctor_agrees_when_a_fresh_post_fits_the_configured_zone(tmp_path, capsys):
    server = serve(now_in("Asia/Tokyo") - timedelta(minutes=5))
    rc, zone, _ = doctor(tmp_path, server, "Asia/Tokyo", capsys)
    assert zone["ok"] and "agrees" in zone["message"]


def test_doctor_says_it_cannot_tell_when_the_newest_post_is_old_and_names_the_key(tmp_path, capsys):
    server = serve(datetime(2024, 3, 2, 9, 0))
    rc, zone, _ = doctor(tmp_path, server, "UTC", capsys)
    assert zone["ok"] and "cannot tell" in zone["message"] and "sites.f.timezone" in zone["message"]


def test_doctor_offline_reads_no_thread(tmp_path, capsys):
    server = serve(datetime(2024, 3, 2, 9, 0))
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    path = tmp_path / "forummod.toml"
    path.write_text(f'[sites.f]\nengine = "phpbb"\nbase_url = "{base}"\n[games.g]\nsite = "f"\n'
                    f'thread = "{base}viewtopic.php?t=1"\nruleset = "mafia-majority"\n'
                    'players = [{ name = "Ann" }, { name = "Bob" }]\n', encoding="utf-8")
    try:
        main(["doctor", "--config", str(path), "--json", "--offline"])
    finally:
        server.shutdown()
    assert all(c["check"] != "zone" for c in json.loads(capsys.readouterr().out)["checks"])
