"""A request never sleeps long (issue 34, item 1): the waits of one GET add up to at most
`max_wait`; a longer Retry-After or back-off raises `SiteBackoff` saying when to try again,
and a daemon's stop ends any wait at once. Clock and sleep are fakes: nothing waits for real."""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timezone

import pytest
import requests
import responses

from forummod.errors import NetworkError, SiteBackoff, Stopped
from forummod.forum.http import HttpClient
from tests.forum.test_http_policy import URL, client  # the same client on the fake clock


@responses.activate
def test_a_retry_after_longer_than_a_request_may_wait_is_not_slept_but_says_when_to_come_back(clock):
    responses.get(URL, status=503, headers={"Retry-After": "60"})
    c = client(clock, retries=4, max_wait=10.0)
    with pytest.raises(SiteBackoff, match=r"HTTP 503, the forum asked us to wait 60 s \(after 1 attempt\); "
                                          r"try again after \d\d:\d\d") as e:
        c.get(URL)
    assert clock.sleeps == [] and len(responses.calls) == 1
    assert e.value.asked and e.value.until == datetime.fromtimestamp(clock() + 60, tz=timezone.utc)


@responses.activate
def test_the_site_stays_deferred_so_the_next_request_is_not_sent_either(clock):
    responses.get(URL, status=429, headers={"Retry-After": "120"})
    c = client(clock, retries=0)
    with pytest.raises(SiteBackoff):
        c.get(URL)
    with pytest.raises(SiteBackoff, match="not sent: the forum asked us to wait until"):
        c.get(URL)
    assert len(responses.calls) == 1 and clock.sleeps == []


@responses.activate
def test_a_short_retry_after_is_still_waited_for_and_the_request_succeeds(clock):
    responses.get(URL, status=503, headers={"Retry-After": "3"})
    responses.get(URL, body="ok")
    assert client(clock, max_wait=10.0).get(URL).text == "ok"
    assert clock.sleeps == [3.0]


@responses.activate
def test_back_off_stops_before_its_waits_pass_max_wait(clock):
    """A forum answering 503 without Retry-After: 1 s and 2 s back-off fit in 5 s, 4 s more does
    not: three attempts, then SiteBackoff with the next step as the time to come back."""
    responses.get(URL, status=503)
    c = client(clock, retries=10, max_wait=5.0, backoff_base=1.0)
    with pytest.raises(SiteBackoff, match=r"failed after 3 attempts \(HTTP 503\); the next try would wait past 5 s") as e:
        c.get(URL)
    assert len(responses.calls) == 3 and sum(clock.sleeps) <= 5.0
    assert not e.value.asked and e.value.until.timestamp() == pytest.approx(clock() + 4.0)


@responses.activate
def test_retries_used_up_within_the_budget_are_still_a_network_error_saying_how_many(clock):
    responses.get(URL, status=502)
    c = client(clock, retries=1, max_wait=60.0)
    with pytest.raises(NetworkError, match=r"failed after 2 attempts \(HTTP 502\)") as e:
        c.get(URL)
    assert isinstance(e.value, SiteBackoff)  # the daemon backs the forum off all the same


@responses.activate
def test_a_connection_failure_is_named_by_what_broke_never_http_0(clock, caplog):
    responses.get(URL, body=requests.ConnectionError("[Errno 111] Connection refused"))
    c = client(clock, retries=1)
    with caplog.at_level(logging.INFO, logger="forummod.forum.http"), pytest.raises(NetworkError) as e:
        c.get(URL)
    retry_lines = [r.getMessage() for r in caplog.records if "retry" in r.getMessage()]
    assert retry_lines and all("HTTP 0" not in line and "Connection refused" in line for line in retry_lines)
    assert "HTTP 0" not in str(e.value) and "ConnectionError: [Errno 111] Connection refused" in str(e.value)


@responses.activate
def test_a_set_cancel_event_ends_a_wait_at_once_and_sends_nothing_more(clock):
    """The daemon's stop: the real wait is an `Event.wait`, so a back-off of many seconds ends
    as soon as the event is set."""
    responses.get(URL, status=503, headers={"Retry-After": "8"})
    stop = threading.Event()
    c = HttpClient(site="s", base_url="https://forum.example.test/", request_interval=0.0, retries=3,
                   max_wait=10.0, cancel=stop)
    threading.Timer(0.1, stop.set).start()
    with pytest.raises(Stopped):
        c.get(URL)  # would wait 8 s for the retry
    assert len(responses.calls) == 1
    with pytest.raises(Stopped):
        c.get(URL)
    assert len(responses.calls) == 1


@responses.activate
def test_the_limiter_keeps_no_request_times_without_an_hourly_budget(clock):
    """A daemon makes requests for weeks: without a budget nothing needs their times."""
    responses.get(URL, body="x")
    c = client(clock)
    for _ in range(50):
        c.get(URL)
    assert c.limiter.requests == 50 and len(c.limiter._recent) == 0
