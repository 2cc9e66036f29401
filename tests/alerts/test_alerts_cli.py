"""Alerts reach the GM (issue 15): `forummod tick` on an archive game, through Apprise to local servers."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from forummod.cli import main

from tests.alerts.servers import JsonSink, SmtpSink
from tests.archive_game import archive_config, players_toml, write_posts

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
ROLES = {"Ann": "mafia"}


@pytest.fixture
def sink():
    s = JsonSink()
    yield s
    s.close()


@pytest.fixture
def smtp():
    s = SmtpSink()
    yield s
    s.close()


def _game(tmp_path, posts, channels: str, *, day_started: timedelta = timedelta(hours=3), pm: str = "",
          alerts: str = "") -> str:
    """A mafia-majority D1 that opened `day_started` ago (48 h vote), posts an hour apart up to now."""
    now = datetime.now(timezone.utc)
    start = now - day_started
    write_posts(tmp_path, [("Mod", "Day 1 begins", start)]
                + [(a, b, now - timedelta(minutes=len(posts) - i)) for i, (a, b) in enumerate(posts)], messages=True)
    if pm:
        (tmp_path / "messages.jsonl").write_text(json.dumps({
            "id": 1, "from": "Ann", "to": "Mod", "subject": "hi", "body": pm,
            "created_at": (now - timedelta(minutes=30)).isoformat()}) + "\n", encoding="utf-8")
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(PLAYERS, ROLES), messages=True,
                                  game_lines='schedule = { vote_close = "48h", day_end = "48h" }',
                                  tables=f"[alerts]\n{alerts}\n{channels}"), encoding="utf-8")
    return str(cfg)


def _tick(capsys, cfg) -> str:
    capsys.readouterr()
    assert main(["tick", "--config", cfg, "--no-publish"]) == 0
    return capsys.readouterr().out


HAMMER = [("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]"), ("Dan", "[b]vote: Eve[/b]")]


def test_a_hammer_alert_is_sent_once_across_two_ticks(tmp_path, capsys, sink, monkeypatch):
    monkeypatch.setenv("FORUMMOD_TEST_HOOK", sink.url)
    cfg = _game(tmp_path, HAMMER, '[alerts.channels.hook]\nkind = "apprise"\nurl_env = "FORUMMOD_TEST_HOOK"\n'
                                  'private = true\n')
    first = _tick(capsys, cfg)
    assert "ALERT hammer: g D1: HAMMER on Eve: 3/3 votes (Bob, Cat, Dan)" in first
    hammers = [m for m in sink.messages() if "HAMMER on Eve" in m]
    assert len(hammers) == 1
    assert {m["title"] for m in sink.received if "HAMMER" in m["message"]} == {"forummod g: hammer"}
    second = _tick(capsys, cfg)
    assert second == ""  # nothing new needs the GM: a cron tick prints nothing
    assert len([m for m in sink.messages() if "HAMMER on Eve" in m]) == 1


def test_a_secret_pm_never_reaches_a_channel_that_is_not_private(tmp_path, capsys, monkeypatch):
    private, public = JsonSink(), JsonSink()
    try:
        monkeypatch.setenv("FORUMMOD_PRIVATE_HOOK", private.url)
        monkeypatch.setenv("FORUMMOD_PUBLIC_HOOK", public.url)
        cfg = _game(tmp_path, [], pm="I think pineapple pizza is the best",
                    channels='[alerts.channels.mine]\nkind = "apprise"\nurl_env = "FORUMMOD_PRIVATE_HOOK"\n'
                             'private = true\n[alerts.channels.team]\nkind = "apprise"\n'
                             'url_env = "FORUMMOD_PUBLIC_HOOK"\nprivate = false\n')
        out = _tick(capsys, cfg)
        assert "ALERT pm_not_understood" in out and "pineapple" in out
        assert any("PM from Ann not understood" in m and "pineapple" in m for m in private.messages())
        assert public.received, "the reduced alert still tells the shared channel that a PM needs reading"
        assert not any("pineapple" in m or "Ann" in m for m in public.messages())
        assert any("a player's PM was not understood" in m for m in public.messages())
    finally:
        private.close()
        public.close()


def test_the_deadline_warning_names_the_missing_voters_by_mail(tmp_path, capsys, smtp, monkeypatch):
    monkeypatch.setenv("FORUMMOD_MAIL", smtp.url)
    cfg = _game(tmp_path, [("Bob", "[b]vote: Eve[/b]")], day_started=timedelta(hours=47),
                channels='[alerts.channels.mail]\nkind = "apprise"\nurl_env = "FORUMMOD_MAIL"\nprivate = true\n')
    out = _tick(capsys, cfg)
    assert "ALERT deadline: g D1: the vote closes in" in out
    mails = [b for b in smtp.bodies() if "the vote closes in" in b]
    assert len(mails) == 1
    assert "not voted (4): Ann, Cat, Dan, Eve" in mails[0]
    assert smtp.mails[0]["To"] == "gm@example.org"
    _tick(capsys, cfg)
    assert len([b for b in smtp.bodies() if "the vote closes in" in b]) == 1


def test_no_deadline_warning_while_the_deadline_is_further_than_the_threshold(tmp_path, capsys):
    cfg = _game(tmp_path, [("Bob", "[b]vote: Eve[/b]")], day_started=timedelta(hours=40), channels="",
                alerts='deadline_warning = "2h"')
    assert "deadline" not in _tick(capsys, cfg)  # 8 h left, warning at 2 h


def test_a_failed_send_is_reported_and_retried_at_the_next_tick(tmp_path, capsys, monkeypatch):
    probe = JsonSink()
    port = probe.port
    probe.close()  # nothing listens on the port now
    monkeypatch.setenv("FORUMMOD_TEST_HOOK", f"json://alerts:s3cr3t-token@127.0.0.1:{port}/")
    cfg = _game(tmp_path, HAMMER, '[alerts.channels.hook]\nkind = "apprise"\nurl_env = "FORUMMOD_TEST_HOOK"\n'
                                  'private = true\n')
    first = _tick(capsys, cfg)
    assert "ALERT hammer" in first
    assert "alert not sent: hook: hammer:D1:1:Eve" in first and "retried at the next pass" in first
    assert "s3cr3t-token" not in first  # the URL's credentials never show
    back = JsonSink(port)
    try:
        second = _tick(capsys, cfg)
        assert "ALERT hammer" not in second  # already shown once
        assert "alert not sent: hook: hammer" not in second
        assert len([m for m in back.messages() if "HAMMER on Eve" in m]) == 1
    finally:
        back.close()


def test_an_unset_url_variable_is_reported_not_raised(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("FORUMMOD_NOT_SET", raising=False)
    cfg = _game(tmp_path, HAMMER, '[alerts.channels.hook]\nkind = "apprise"\nurl_env = "FORUMMOD_NOT_SET"\n'
                                  'private = false\n')
    out = _tick(capsys, cfg)
    assert "alert not sent: hook: hammer:D1:1:Eve: environment variable FORUMMOD_NOT_SET is not set" in out


def test_a_forum_pm_channel_sends_the_alert_to_pm_to(tmp_path, capsys):
    cfg = _game(tmp_path, HAMMER, '[alerts.channels.forum]\nkind = "forum_pm"\nprivate = true\n',
                alerts='pm_to = "ModHome"')
    _tick(capsys, cfg)
    _tick(capsys, cfg)
    outbox = [json.loads(line) for p in tmp_path.glob("*outbox*") for line in p.read_text().splitlines()]
    pms = [o for o in outbox if o.get("kind") == "pm" and "HAMMER on Eve" in o["body"]]
    assert len(pms) == 1 and pms[0]["to"] == "ModHome"


def test_a_failing_poll_alerts_once_after_the_threshold(tmp_path, capsys, sink, monkeypatch):
    import time

    closed = JsonSink()
    port = closed.port
    closed.close()  # the forum is down: nothing listens on its port
    monkeypatch.setenv("FORUMMOD_TEST_HOOK", sink.url)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(f"""
[workspace]
store = "{tmp_path / 's.sqlite'}"

[sites.f]
engine = "phpbb"
base_url = "http://127.0.0.1:{port}/"
request_interval = 0.0
retries = 0
timeout = 5.0

[games.g]
site = "f"
thread = "1"
ruleset = "mafia-majority"
gm = ["Mod"]
players = {players_toml(PLAYERS)}

[alerts]
poll_failing = "2s"
[alerts.channels.hook]
kind = "apprise"
url_env = "FORUMMOD_TEST_HOOK"
private = false
""", encoding="utf-8")

    def tick() -> str:
        capsys.readouterr()
        assert main(["tick", "--config", str(cfg), "--no-publish"]) == 1  # the poll failed
        return capsys.readouterr().out

    assert "poll_failing" not in tick()  # failing, but not for 2 s yet
    assert not sink.received
    time.sleep(2.2)
    out = tick()
    assert "ALERT poll_failing: g: polling has failed for" in out
    assert len(sink.received) == 1 and "polling has failed" in sink.messages()[0]
    assert "poll_failing" not in tick()  # the same failing stretch alerts once
    assert len(sink.received) == 1



def test_a_pms_words_reach_the_alert_pm_and_the_gm_notes_as_written(tmp_path, capsys):
    """Issue 34, item 10: the PM text in an issue was escaped twice (its entities kept, then
    escaped again): "Tom &amp; Jerry" in the alert PM and the tally, "&amp;amp;" in Markdown notes."""
    said = 'I think Tom & "Jerry" <3 are cute'
    cfg = _game(tmp_path, [], '[alerts.channels.forum]\nkind = "forum_pm"\nprivate = true\n', pm=said,
                alerts='pm_to = "ModHome"')
    _tick(capsys, cfg)
    outbox = [json.loads(line) for p in tmp_path.glob("*outbox*") for line in p.read_text().splitlines()]
    assert [o["body"] for o in outbox if o.get("kind") == "pm"] == [f"g D1: PM from Ann not understood as an "
                                                                    f"action: “{said}”"]
    assert main(["tally", "--config", cfg]) == 0
    assert f"! PM from Ann not understood as an action: “{said}”" in capsys.readouterr().out
    text = open(cfg, encoding="utf-8").read().replace('gm = ["Mod"]', 'gm = ["Mod"]\nmarkup = "markdown"')
    open(cfg, "w", encoding="utf-8").write(text)
    assert main(["draft", "warnings", "--print", "--config", cfg]) == 0
    notes = capsys.readouterr().out
    assert "I think Tom &amp; \"Jerry\" &lt;3 are cute" in notes and "&amp;amp;" not in notes  # Markdown's one escape
