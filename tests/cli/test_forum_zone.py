"""Issue 28 item 5: a wrong zone never drops every vote silently. Real HTTP to phpBB-shaped
thread pages on 127.0.0.1 (the synthetic prosilver pages of tests/forum/forum_synth.py).

* `init --from-thread` writes the zone the page states for `sites.x.timezone` (in words, by
  its `<time datetime>` elements or by its clock against the server's), not the ruleset's;
* `doctor` reads the page's clock ("Current time: …", MyBB's footer) and names the zone, where
  the newest post alone (a minute old, under a zone an hour off) could not tell;
* posts dated before the game's start that hold votes are a finding (`vote_before_start`);
* fixing `sites.x.timezone` re-dates the stored posts on the next poll, from their saved pages,
  and the votes count; the stored versions keep the date first read (history)."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, urlsplit

import pytest

from forummod.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "forum"))
from forum_synth import BASE_TIME, PER_PAGE, page_html  # noqa: E402

POSTS = 12  # two pages; post i is written at BASE_TIME + i minutes (2024-03-01 12:0i UTC)
ROME_WINTER = timedelta(hours=1)


def serve(render: Callable[[int], str]):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            parts = urlsplit(self.path)
            if parts.path != "/viewtopic.php":
                self.send_response(404)
                self.end_headers()
                return
            body = render(int(parse_qs(parts.query).get("start", ["0"])[0]) // PER_PAGE + 1).encode()
            self.send_response(200)  # with the server's Date header
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def shown_in(offset: timedelta, *, plain: bool = False, footer: str = "") -> Callable[[int], str]:
    """The thread with every date shown as a forum at UTC+`offset` shows it: in `<time
    datetime>` elements (the instant beside the wall time), or as plain text."""
    def render(page: int) -> str:
        def wall(m: re.Match) -> str:
            when = datetime.fromisoformat(m.group(1))
            text = f"{when + offset:%a %b %d, %Y %I:%M %p}"
            return text if plain else f'<time datetime="{m.group(1)}">{text}</time>'

        html = re.sub(r'<time datetime="([^"]+)">[^<]*</time>', wall, page_html(POSTS, page))
        return html.replace("<p>Powered by phpBB</p>", f"<p>{footer}</p><p>Powered by phpBB</p>")
    return render


@pytest.fixture
def forum():
    servers = []

    def start(render):
        servers.append(serve(render))
        return f"http://127.0.0.1:{servers[-1].server_address[1]}/"
    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def cli(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def site_and_game_zones(path: Path) -> tuple[str, str]:
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    (site,) = data["sites"].values()
    (game,) = data["games"].values()
    return site["timezone"], game["timezone"]


# --------------------------------------------------------------------------- init


def test_init_takes_the_zone_the_page_states_not_the_rulesets(tmp_path, capsys, forum):
    """An Italian game on a forum showing UTC: the site's zone is UTC, the game's stays Rome's."""
    base = forum(shown_in(timedelta(0)))
    path = tmp_path / "forummod.toml"
    rc, out, err = cli(capsys, "init", path, "--engine", "phpbb", "--ruleset", "lupus-eresia",
                       "--from-thread", f"{base}viewtopic.php?t=1")
    assert rc == 0, err
    assert site_and_game_zones(path) == ("UTC", "Europe/Rome")
    assert "timezone: UTC (stated by the thread page" in out


def test_init_names_a_zone_whose_offset_the_page_shows(tmp_path, capsys, forum):
    """The page's <time> elements show UTC+01:00: Europe/Rome (the ruleset's zone, which knows
    summer time) when it agrees today; a zone of another offset by its Etc name."""
    now_rome = datetime.now(timezone.utc).astimezone(__import__("zoneinfo").ZoneInfo("Europe/Rome")).utcoffset()
    base = forum(shown_in(now_rome))
    path = tmp_path / "forummod.toml"
    assert cli(capsys, "init", path, "--engine", "phpbb", "--ruleset", "lupus-eresia",
               "--from-thread", f"{base}viewtopic.php?t=1")[0] == 0
    assert site_and_game_zones(path) == ("Europe/Rome", "Europe/Rome")
    base = forum(shown_in(timedelta(hours=-5)))
    path = tmp_path / "other.toml"
    assert cli(capsys, "init", path, "--engine", "phpbb", "--ruleset", "mafia-majority",
               "--from-thread", f"{base}viewtopic.php?t=1")[0] == 0
    assert site_and_game_zones(path)[0] == "Etc/GMT+5"


# --------------------------------------------------------------------------- doctor


def test_doctor_reads_the_pages_clock_when_the_newest_post_is_a_minute_old(tmp_path, capsys, forum):
    """The forum shows UTC, the config says Europe/Rome; the newest post is a minute old, which
    under Rome looks an hour old ("cannot tell" before): MyBB's "Current time:" footer tells."""
    now = datetime.now(timezone.utc).replace(second=0, microsecond=0)

    def render(page: int) -> str:
        html = shown_in(timedelta(0), plain=True, footer=f"<strong>Current time:</strong> {now:%d %b %Y, %I:%M %p}")(page)
        return html.replace(f"{BASE_TIME + timedelta(minutes=POSTS):%a %b %d, %Y %I:%M %p}",
                            f"{now - timedelta(minutes=1):%a %b %d, %Y %I:%M %p}")
    base = forum(render)
    path = tmp_path / "forummod.toml"
    path.write_text(config(tmp_path, base, "Europe/Rome"), encoding="utf-8")
    rc, out, _ = cli(capsys, "doctor", "--config", path, "--json")
    (zone,) = [c for c in json.loads(out)["checks"] if c["check"] == "zone"]
    assert rc == 1 and not zone["ok"] and "cannot tell" not in zone["message"]
    assert "UTC (page clock)" in zone["message"] and 'sites.f.timezone = "UTC"' in zone["message"]
    path.write_text(config(tmp_path, base, "UTC"), encoding="utf-8")
    rc, out, _ = cli(capsys, "doctor", "--config", path, "--json")
    (zone,) = [c for c in json.loads(out)["checks"] if c["check"] == "zone"]
    assert zone["ok"] and "UTC" in zone["message"]


# --------------------------------------------------------------------------- poll, finding, re-dating


def config(tmp_path: Path, base: str, zone: str) -> str:
    players = ", ".join(f'{{ name = "player{i}" }}' for i in range(1, 8))
    return f"""
[workspace]
store = "{tmp_path / 'store.sqlite'}"
[sites.f]
engine = "phpbb"
base_url = "{base}"
timezone = "{zone}"
request_interval = 0.0
recheck_minutes = 0
[games.g]
site = "f"
thread = "{base}viewtopic.php?t=1"
ruleset = "mafia-majority"
players = [{players}]
[games.g.schedule]
start = "{BASE_TIME.isoformat()}"
"""


def votes(capsys, path) -> int:
    rc, out, err = cli(capsys, "tally", "--config", path, "--json", "--now", (BASE_TIME + timedelta(hours=2)).isoformat())
    assert rc in (0, 1), err
    return sum(len(c["voters"]) for c in json.loads(out)["tally"]["candidates"])


def test_a_wrong_zone_is_a_finding_and_fixing_it_re_dates_the_stored_posts(tmp_path, capsys, forum):
    base = forum(shown_in(timedelta(0), plain=True))  # plain dates: read in the configured zone
    path = tmp_path / "forummod.toml"
    path.write_text(config(tmp_path, base, "Europe/Rome"), encoding="utf-8")
    assert cli(capsys, "poll", "--config", path)[0] == 0
    assert votes(capsys, path) == 0  # every post an hour early, before the game's start
    rc, out, _ = cli(capsys, "check", "--config", path, "--json", "--now", (BASE_TIME + timedelta(hours=2)).isoformat())
    early = [f for f in json.loads(out)["findings"] if f["code"] == "vote_before_start"]
    assert len(early) == POSTS and all(f["severity"] == "warning" for f in early)
    assert "sites.f.timezone" in early[0]["message"] and "Europe/Rome" in early[0]["message"]

    path.write_text(config(tmp_path, base, "UTC"), encoding="utf-8")  # the GM fixes the key
    rc, out, err = cli(capsys, "poll", "--config", path, "--json")
    assert rc == 0, err
    issues = json.loads(out)["polls"][0]["issues"]
    assert any(i["code"] == "zone_redated" and f"{POSTS} stored post(s) re-dated" in i["message"] for i in issues)
    assert votes(capsys, path) == 7  # each player's latest vote counts now
    rc, out, _ = cli(capsys, "check", "--config", path, "--json", "--now", (BASE_TIME + timedelta(hours=2)).isoformat())
    assert not [f for f in json.loads(out)["findings"] if f["code"] == "vote_before_start"]
    with sqlite3.connect(tmp_path / "store.sqlite") as db:  # history kept: the first reading stays stored
        first = db.execute("SELECT created_at FROM posts WHERE number=1 AND version=1").fetchone()[0]
        derived = db.execute("SELECT d.created_at, d.zone FROM post_dates d JOIN posts p USING (site, thread, post_id)"
                             " WHERE p.number=1").fetchone()
    assert datetime.fromisoformat(first) == BASE_TIME + timedelta(minutes=1) - ROME_WINTER
    assert (datetime.fromisoformat(derived[0]), derived[1]) == (BASE_TIME + timedelta(minutes=1), "UTC")
