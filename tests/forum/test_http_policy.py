"""The HTTP policy: retries with backoff (and Retry-After), no POST retry, politeness, budget,
login detection and counters. Clock and sleep are fakes: nothing here waits for real."""

from __future__ import annotations

import threading

import pytest
import requests
import responses

from forummod.errors import LoginRequired, NetworkError
from forummod.forum.http import DEFAULT_USER_AGENT, BudgetExceeded, HttpClient, decode_body, parse_retry_after

URL = "https://forum.example.test/viewtopic.php?t=1"


def client(clock, **kw):
    kw.setdefault("request_interval", 0.0)
    return HttpClient(site="s", base_url="https://forum.example.test/", clock=clock, wall_clock=clock,
                      sleep=clock.sleep, **kw)


@responses.activate
def test_get_retries_5xx_and_429_then_succeeds(clock):
    responses.get(URL, status=503)
    responses.get(URL, status=429, headers={"Retry-After": "7"})
    responses.get(URL, body="ok")
    c = client(clock, retries=3)
    assert c.get(URL).text == "ok"
    assert c.stats.requests == 3 and c.stats.retries == 2
    assert 7.0 in clock.sleeps  # Retry-After seconds honoured


@responses.activate
def test_retry_after_http_date_is_honoured(clock):
    responses.get(URL, status=503, headers={"Retry-After": "Sun, 13 Sep 2020 12:26:50 GMT"})
    responses.get(URL, body="ok")
    clock.t = 1_600_000_000.0  # 2020-09-13 12:26:40 UTC: the date is 10 s ahead
    c = client(clock, retries=2)
    c.get(URL)
    assert any(abs(s - 10.0) < 0.01 for s in clock.sleeps)


def test_parse_retry_after_forms():
    assert parse_retry_after("120", 0) == 120
    assert parse_retry_after("garbage", 0) is None


@responses.activate
def test_connection_errors_exhaust_retries_into_network_error(clock):
    responses.get(URL, body=requests.ConnectionError("refused"))
    c = client(clock, retries=2)
    with pytest.raises(NetworkError, match="after 3 attempts"):
        c.get(URL)
    assert c.stats.requests == 3
    assert clock.sleeps[1] > clock.sleeps[0] * 1.2  # exponential backoff


@responses.activate
def test_post_is_never_retried(clock):
    responses.post(URL, status=503)
    c = client(clock, retries=5)
    assert c.post(URL, {"a": "1"}).status == 503
    assert c.stats.requests == 1 and clock.sleeps == []


@responses.activate
def test_post_connection_error_is_not_retried(clock):
    responses.post(URL, body=requests.ConnectionError("reset"))
    c = client(clock, retries=5)
    with pytest.raises(NetworkError, match="not retried"):
        c.post(URL, {})
    assert c.stats.requests == 1


@responses.activate
def test_minimum_interval_is_shared_by_clients_of_one_site(clock):
    responses.get(URL, body="x")
    a = client(clock, request_interval=2.0)
    b = client(clock, request_interval=2.0)
    a.get(URL)
    b.get(URL)
    a.get(URL)
    assert clock.sleeps == [2.0, 2.0]


@responses.activate
def test_interval_is_thread_safe(clock):
    responses.get(URL, body="x")
    c = client(clock, request_interval=1.0)
    threads = [threading.Thread(target=c.get, args=(URL,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert c.limiter.requests == 8 and sorted(clock.sleeps)[-1] <= 7.0 + 1e-9


@responses.activate
def test_hourly_budget_stops_requests(clock):
    responses.get(URL, body="x")
    c = client(clock, hourly_budget=2)
    c.get(URL)
    c.get(URL)
    with pytest.raises(BudgetExceeded):
        c.get(URL)


@responses.activate
def test_user_agent_and_conditional_headers(clock):
    responses.get(URL, status=304)
    c = client(clock)
    f = c.get(URL, etag='"abc"', last_modified="Tue, 01 Sep 2020 10:00:00 GMT")
    sent = responses.calls[0].request.headers
    assert f.not_modified
    assert sent["User-Agent"] == DEFAULT_USER_AGENT and sent["If-None-Match"] == '"abc"'
    assert sent["If-Modified-Since"].startswith("Tue")


@responses.activate
def test_login_page_instead_of_content_raises_login_required(clock):
    responses.get(URL, body="<form><input type=password name=password></form>")
    c = client(clock, login_page=lambda url, text: "password" in text)
    with pytest.raises(LoginRequired, match="login"):
        c.get(URL)


@responses.activate
def test_counters_count_requests_and_bytes(clock):
    responses.get(URL, body="12345")
    c = client(clock)
    c.get(URL)
    assert c.stats.requests == 1 and c.stats.bytes == 5 and c.limiter.bytes == 5


def test_pages_declaring_latin1_but_sending_utf8_are_read_as_utf8():
    assert decode_body("Löwe".encode("utf-8"), "iso-8859-1") == "Löwe"
    assert decode_body("Löwe".encode("latin-1"), "iso-8859-1") == "Löwe"
    assert decode_body("I\u0092ve".encode("utf-8"), None) == "I’ve"
