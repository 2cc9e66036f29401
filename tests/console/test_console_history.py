"""The console's vote-history and player pages over HTTP (issue 32, items 1 and 2): token and
Host checks, every vote change with its post, the chart inline as SVG (no script), the PNG to
attach, the thread's view without a hidden weight, a player's posts, votes, PM actions, post
counts per phase and activity blocks; hostile names stay text."""

from __future__ import annotations

import http.client
import re

import pytest

from forummod.console.server import ConsoleServer
from tests.preview.test_server import request
from tests.render.game import XSS


def get(server, path: str, **kw):
    return request(server, "GET", path, **kw)


def raw_get(server, path: str) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{server.port}"})
    r = conn.getresponse()
    out = r.status, dict(r.getheaders()), r.read()
    conn.close()
    return out


@pytest.mark.parametrize("path", ["/history", "/player", "/history/chart.png"])
def test_every_history_route_wants_the_token_and_the_loopback_host(console, path):
    server, *_ = console
    assert get(server, f"{path}?game=g")[0] == 403
    assert get(server, f"{path}?token=wrong&game=g")[0] == 403
    assert get(server, f"{path}?token={server.token}&game=g", host="evil.example")[0] == 403


def test_the_history_page_lists_every_vote_change_with_its_post_and_draws_the_chart_without_script(console):
    server, *_ = console
    status, headers, body = get(server, f"/history?token={server.token}&game=g")
    assert status == 200 and "script-src" in headers["Content-Security-Policy"]
    assert "<script" not in body  # the chart is inline SVG: nothing to run
    rows = re.findall(r"<tr class=\"[^\"]*\" data-codes=\"[^\"]*\"><td>[^<]*</td>\s*<td><a href=\"([^\"]+)\"[^>]*>(#\d+)</a></td>\s*"
                      r"<td>([^<]*)</td><td>([^<]*)</td>", body)
    assert [(label, voter, moved) for _, label, voter, moved in rows][:2] == [
        ("#2", "Bob", "— → Ann"), ("#3", "Cat", "— → Ann")]
    assert rows[0][0] == "https://forum.example/viewtopic.php?p=2#p2"
    assert '<svg id="chart-D1" class="wagon-chart"' in body
    assert re.search(r'<path class="wagon" data-candidate="Ann" data-final="4"', body)
    assert 'class="majority"' in body  # mafia-majority: the majority line
    assert XSS not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_the_chart_is_a_png_to_download_and_an_unknown_day_is_404(console):
    server, *_ = console
    status, headers, data = raw_get(server, f"/history/chart.png?token={server.token}&game=g&day=D1")
    assert status == 200 and headers["Content-Type"] == "image/png" and data[:4] == b"\x89PNG"
    assert 'filename="g-D1.png"' in headers["Content-Disposition"]
    assert raw_get(server, f"/history/chart.png?token={server.token}&game=g&day=D9")[0] == 404


def test_the_thread_view_shows_no_hidden_double_vote(tmp_path):
    from tests.history.test_vote_history import hammer_game

    ws = hammer_game(tmp_path).workspace()
    server = ConsoleServer(ws).start()
    try:
        gm = get(server, f"/history?token={server.token}&game=g")[2]
        pub = get(server, f"/history?token={server.token}&game=g&view=public")[2]
    finally:
        server.stop()
        ws.close()
    assert "<td>2</td>" in gm and 'data-candidate="Ann" data-final="5"' in gm and "HAMMER: Ann" in gm
    assert 'data-final="5"' not in pub and 'data-candidate="Ann" data-final="4"' in pub
    assert "HAMMER" not in pub and 'class="hammer"' not in pub
    weights = re.findall(r"<td>[^<]*→[^<]*</td><td>([^<]*)</td>", pub)
    assert weights and set(weights) == {""}  # no weight column entry in the thread's view


def test_a_players_page_has_their_posts_votes_counts_and_blocks(console):
    server, _, g, _ = console
    status, _, body = get(server, f"/player?token={server.token}&game=g&name=Cat")
    assert status == 200 and "<script" not in body
    assert re.findall(r'<article class="post game" id="post-game-(\d+)"', body) == ["3"]
    assert "Vote: Ann" in body
    votes = body[body.index('id="votes"'):body.index('id="actions"')]
    assert "— → Ann" in votes
    counts = body[body.index('id="counts"'):body.index('id="activity"')]
    assert re.findall(r"<td>(\d+)</td>", counts) == ["1"] and "<b>1</b>" in counts
    assert 'data-state="posted"' in body
    assert get(server, f"/player?token={server.token}&game=g&name=Nobody")[0] == 404


def test_the_console_page_links_to_the_history(console):
    server, *_ = console
    body = get(server, f"/?token={server.token}&game=g")[2]
    assert f'href="/history?token={server.token}&amp;game=g" id="history-link"' in body


def test_every_word_of_the_pages_is_declared_for_the_catalogs():
    """The templates ask for words with W('...'); the catalog tools find only the declared ones."""
    import inspect

    from forummod.console import history_page

    asked = set(re.findall(r"W\('([^']*)'", inspect.getsource(history_page))) - {'...'}  # the docstring's
    asked |= set(re.findall(r'W\("([^"]*)"', inspect.getsource(history_page)))
    assert asked and asked <= set(history_page.MESSAGES)


def test_the_pages_speak_the_games_language(tmp_path):
    from tests.history.demo_game import demo_workspace

    ws = demo_workspace(tmp_path)
    server = ConsoleServer(ws).start()
    try:
        body = get(server, f"/history?token={server.token}&game=demo")[2]
        player = get(server, f"/player?token={server.token}&game=demo&name=Ugo")[2]
    finally:
        server.stop()
        ws.close()
    assert '<html lang="it">' in body and "Storia dei voti" in body and "Votazione — Giorno 1" in body
    assert "Carri — Giorno 1" in body and "arrivato dopo la chiusura" in body  # a late vote, the drafts' words
    actions = player[player.index('id="actions"'):player.index('id="posts"')]
    assert "check → Bianca" in actions and "check → Carlo" in actions  # Ugo's PMs, GM only
    assert "modificato" in player and "Versioni precedenti (1)" in player  # his edited vote and its first text
    assert "Voto: Gina" in player.split("Versioni precedenti")[1]
