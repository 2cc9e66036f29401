"""Issue 16 item 1 through the CLI: a post whose date the forum page does not show, just around a
22:00 vote close. The post is stored (flagged), its vote counts in post-number order (right after
the post before it), and whether it was late is a GM finding naming the post, not a ruling.

Once through real HTTP (a phpBB-markup page served on 127.0.0.1, polled by `forummod poll`)
and once on the archive engine (`date_guessed` in its JSON lines)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from forummod.cli import main
from forummod.store import Store

from tests.archive_game import archive_config, players_toml
from tests.page_server import serve_page

START = datetime(2026, 3, 2, 10, 0, tzinfo=timezone.utc)
CLOSE = datetime(2026, 3, 2, 22, 0, tzinfo=timezone.utc)  # vote_close = 12h after the start
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
SCHEDULE = f'[games.g.schedule]\nstart = "{START.isoformat()}"\nvote_close = "12h"\nday_end = "14h"\n'
# (author, text, phpBB date or None where the page shows none); post 4's date is unreadable
THREAD = [("Mod", "Day 1 begins", "Mon Mar 02, 2026 10:00 am"),
          ("Bob", "<b>vote: Eve</b>", "Mon Mar 02, 2026 12:00 pm"),
          ("Cat", "<b>vote: Eve</b>", "Mon Mar 02, 2026 9:58 pm"),
          ("Dan", "<b>vote: Bob</b>", None),
          ("Eve", "<b>vote: Dan</b>", "Mon Mar 02, 2026 10:03 pm"),
          ("Fay", "good night", "Mon Mar 02, 2026 10:10 pm")]


def cli(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def phpbb_page() -> str:
    posts = []
    for n, (author, text, date) in enumerate(THREAD, 1):
        shown = f" » {date}" if date else " » (date hidden by the style)"
        posts.append(f'<div id="p{n}" class="post"><div class="postbody"><p class="author">by <strong>'
                     f'<a href="./memberlist.php?mode=viewprofile&amp;u={n + 1}">{author}</a></strong>{shown}</p>'
                     f'<div class="content">{text}</div></div></div>')
    return "<html><head><title>Game</title></head><body id='phpbb'>" + "".join(posts) + "</body></html>"


@pytest.fixture
def phpbb_server():
    with serve_page(phpbb_page().encode(), path_ok=lambda path: path.startswith("/viewtopic.php")) as base:
        yield base


def http_config(tmp_path, base: str):
    players = ", ".join(f'{{ name = "{p}" }}' for p in PLAYERS)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(f"""
[workspace]
store = "{tmp_path / 's.sqlite'}"

[sites.f]
engine = "phpbb"
base_url = "{base}"
timezone = "UTC"
request_interval = 0.0
retries = 0

[games.g]
site = "f"
thread = "{base}viewtopic.php?t=1"
ruleset = "mafia-majority"
gm = ["Mod"]
players = [{players}]
{SCHEDULE}""", encoding="utf-8")
    return cfg


def assert_guessed_post_is_counted_in_order_and_left_to_the_gm(capsys, cfg, at: datetime):
    now = ("--at", at.isoformat())
    rc, out, err = cli(capsys, "tally", "--config", cfg, "--json", *now)
    assert rc == 0, err
    rep = json.loads(out)
    assert rep["phase"] == "D1"
    votes = {c["name"]: [v["voter"] for v in c["voters"]] for c in rep["tally"]["candidates"]}
    # Dan's post 4 sits between Cat's 21:58 and Eve's 22:03: counted right after post 3, before the close
    assert votes == {"Eve": ["Bob", "Cat"], "Bob": ["Dan"]}
    assert [r["voter"] for r in rep["rejected_votes"]] == ["Eve"]  # 22:03 is read from the page: late
    [issue] = [i for i in rep["issues"] if i["code"] == "date_guessed"]
    assert "post #4 by Dan" in issue["message"] and "post-number order" in issue["message"]
    rc, text, _ = cli(capsys, "tally", "--config", cfg, *now)
    assert "! post #4 by Dan: the forum page showed no readable date" in text

    rc, out, err = cli(capsys, "check", "--config", cfg, "--json", "--now", at.isoformat())
    assert rc == 1, err
    findings = json.loads(out)["findings"]
    [f] = [f for f in findings if f["code"] == "date_guessed_deadline"]
    assert f["player"] == "Dan" and f["source"]["number"] == 4 and f["phase"] == "D1"
    assert "post #4 by Dan: its date was guessed" in f["message"] and "the vote close of D1" in f["message"]
    assert f["at"] == CLOSE.isoformat() and f["severity"] == "warning"
    assert not [x for x in findings if x["code"] == "late_vote" and x["player"] == "Dan"]  # no silent ruling
    rc, text, _ = cli(capsys, "check", "--config", cfg, "--all", "--now", at.isoformat())
    assert "date_guessed_deadline: post #4 by Dan: its date was guessed" in text


def test_a_polled_page_with_an_undated_post_at_the_vote_close_is_left_to_the_gm(tmp_path, capsys, phpbb_server):
    cfg = http_config(tmp_path, phpbb_server)
    rc, _, err = cli(capsys, "poll", "--config", cfg)
    assert rc == 0, err
    with Store(tmp_path / "s.sqlite") as store:
        [thread] = {r[0] for r in store.db.execute("SELECT thread FROM posts")}
        posts = store.posts("f", thread)
    assert [p.number for p in posts] == [1, 2, 3, 4, 5, 6]
    assert [p.post_id for p in posts if p.date_guessed] == ["4"]  # stored, with its flag
    assert_guessed_post_is_counted_in_order_and_left_to_the_gm(capsys, cfg, CLOSE + timedelta(minutes=30))


def test_an_archive_post_marked_date_guessed_is_ordered_by_number_not_by_its_time(tmp_path, capsys):
    # the archive's guess for post 4 is the fetch time (23:30, after the close): the post order wins
    guess = datetime(2026, 3, 2, 23, 30, tzinfo=timezone.utc)
    times = [START, START + timedelta(hours=2), CLOSE - timedelta(minutes=2), guess,
             CLOSE + timedelta(minutes=3), CLOSE + timedelta(minutes=10)]
    lines = []
    for n, ((author, text, _), at) in enumerate(zip(THREAD, times), 1):
        row = {"id": n, "number": n, "author": author, "html": text, "created_at": at.isoformat()}
        if n == 4:
            row["date_guessed"] = True
        lines.append(json.dumps(row))
    (tmp_path / "posts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(PLAYERS), tables=SCHEDULE), encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    assert_guessed_post_is_counted_in_order_and_left_to_the_gm(capsys, cfg, guess + timedelta(minutes=1))


def test_an_archive_date_guessed_that_is_not_a_boolean_names_the_line(tmp_path):
    from forummod.errors import ArchiveError
    from forummod.forum.archive import load_posts

    path = tmp_path / "posts.jsonl"
    path.write_text(json.dumps({"id": 1, "author": "Ann", "text": "hi", "created_at": START.isoformat(),
                                "date_guessed": "yes"}) + "\n", encoding="utf-8")
    with pytest.raises(ArchiveError, match=r"posts.jsonl:1: field 'date_guessed' must be true or false"):
        load_posts(path)


def test_parse_marks_the_post_whose_date_was_guessed(tmp_path, capsys):
    page = tmp_path / "page.html"
    page.write_text(phpbb_page(), encoding="utf-8")
    rc, out, _ = cli(capsys, "parse", page, "--json", "--timezone", "UTC")
    assert rc == 0
    rows = json.loads(out)["posts"]
    assert [r["number"] for r in rows if r["date_guessed"]] == [4]
    assert rows[3]["created_at"] == (CLOSE - timedelta(minutes=2)).isoformat()  # bounded by post 3
    rc, out, err = cli(capsys, "parse", page, "--timezone", "UTC")
    assert "#4 [4] Dan (5) 2026-03-02T21:58:00+00:00 (date not shown on the page: guessed, ordering only)" in out
    assert "date_unreadable: post 4" in err
