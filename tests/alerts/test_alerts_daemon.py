"""`run` alerts through the same pipeline pass as `tick`: the daemon's catch-up pass sends, a restart does not resend."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forummod.scheduler import Daemon

from tests.alerts.servers import JsonSink
from tests.scheduler.conftest import write_archive, write_config


def test_the_daemon_sends_a_deadline_alert_once_across_restarts(tmp_path, monkeypatch):
    sink = JsonSink()
    try:
        monkeypatch.setenv("FORUMMOD_TEST_HOOK", sink.url)
        now = datetime.now(timezone.utc)
        start = now - timedelta(hours=71)  # the 72 h vote closes in an hour
        write_archive(tmp_path, [("Mod", "Day 1", start), ("Bob", "[b]vote: Eve[/b]", start + timedelta(minutes=5))])
        cfg = write_config(tmp_path, start=start, extra='[alerts.channels.hook]\nkind = "apprise"\n'
                                                         'url_env = "FORUMMOD_TEST_HOOK"\nprivate = true\n')
        for _ in range(2):
            d = Daemon(cfg)
            d.start()
            assert d.wait_idle(30)  # the catch-up pass runs on the forum's worker
            d.stop()
        closing = [m for m in sink.messages() if "the vote closes in" in m]
        assert len(closing) == 1 and "not voted (4)" in closing[0]
    finally:
        sink.close()
