"""The console over real HTTP: token, same origin, a confirmation before every GM action, the
same events as `forummod gm`, one action at a time under the workspace lock, errors on the page."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.lock import WorkspaceLock
from tests.console.conftest import make_game
from tests.preview.test_server import post, request
from tests.render.game import at


def page(server, game: str = "g") -> str:
    status, _, body = request(server, "GET", f"/?token={server.token}&game={game}")
    assert status == 200
    return body


def served_page(ws, game: str = "g") -> str:
    """The console page of `game` from a server started for this one read (the workspace closed after)."""
    from forummod.console.server import ConsoleServer

    server = ConsoleServer(ws).start()
    try:
        return page(server, game)
    finally:
        server.stop()
        ws.close()


def flash(server) -> str:
    m = re.search(r'id="flash"[^>]*>(.*?)</p>', page(server), re.S)
    return html.unescape(m.group(1)) if m else ""


def events(ws) -> list[tuple]:
    return [(e.kind, e.payload, e.at, e.actor) for e in ws.store.events("g")]


ISO = at(6).isoformat()

#: (console route, its form, the same decision as `forummod gm` arguments)
SAME_AS_CLI = [
    ("/gm/set-vote", {"voter": "Fay", "target": "Ann"}, ["set-vote", "Fay", "Ann"]),
    ("/gm/set-vote", {"voter": "Fay", "target": ""}, ["set-vote", "Fay"]),
    ("/gm/action", {"actor": "Cat", "verb": "check", "target1": "Ann", "target2": ""}, ["action", "Cat", "check", "Ann"]),
    ("/gm/replace", {"player": "Eve", "new_name": "Zed", "post": ""}, ["replace", "Eve", "Zed"]),
    ("/gm/replace", {"player": "Eve", "new_name": "Zed", "post": "3"}, ["replace", "Eve", "Zed", "--post", "3"]),
    ("/gm/extend", {"phase": "D1", "until": "2026-01-08T12:00", "close": ""}, ["extend", "D1", "--until", "2026-01-08T12:00"]),
    ("/gm/extend", {"phase": "D1", "until": "", "close": "2026-01-06T21:00"}, ["extend", "D1", "--close", "2026-01-06T21:00"]),
    ("/gm/end", {"phase": "D1", "when": "", "post": ""}, ["end", "D1"]),
    ("/gm/end", {"phase": "D1", "when": "", "post": "4"}, ["end", "D1", "--post", "4"]),
    ("/gm/note", {"text": "Eve asked for more time"}, ["note", "Eve asked for more time"]),
]


@pytest.mark.parametrize("route,form,cli", SAME_AS_CLI, ids=[" ".join(c[2][:2]) + f" {i}" for i, c in enumerate(SAME_AS_CLI)])
def test_each_correction_form_records_exactly_the_event_of_the_gm_command(console, tmp_path: Path, route, form, cli):
    server, ws, g, _ = console
    assert post(server, route, game="g", at=ISO, confirm="1", **form)[0] == 303
    assert "Recorded #" in flash(server)

    other = make_game(tmp_path / "cli")  # the same game, decided on the command line
    (tmp_path / "cli").mkdir(exist_ok=True)
    cli_ws = other.workspace()
    cli_ws.close()
    assert main(["gm", "--config", str(other.write()), "--at", ISO, *cli]) == 0
    cli_ws = other.workspace(poll=False)
    try:
        assert events(ws) == events(cli_ws) and len(events(ws)) == 1
    finally:
        cli_ws.close()


def test_approve_and_reject_ask_first_then_record_the_decision_of_gm_approve(console):
    server, ws, g, _ = console
    assert post(server, "/gm/set-vote", game="g", voter="Fay", target="Ann", at=ISO, confirm="1")[0] == 303  # hammer
    assert 'id="approve-lynch-D1"' in page(server) and "lynch Ann" in page(server)

    status, _, confirm = post(server, "/gm/approve", game="g", key="lynch:D1")
    assert status == 200 and 'name="confirm" value="1"' in confirm and "lynch:D1 approved" in confirm
    assert [e[0] for e in events(ws)] == ["override"]  # asking records nothing

    assert post(server, "/gm/approve", game="g", key="lynch:D1", confirm="1")[0] == 303
    assert events(ws)[-1][:2] == ("decision", {"key": "lynch:D1", "verdict": "approve"})
    assert 'id="approve-lynch-D1"' not in page(server)
    post(server, "/gm/approve", game="g", key="lynch:D1", confirm="1")  # twice: nothing more
    assert [e[0] for e in events(ws)] == ["override", "decision"]
    assert "already approved" in flash(server)

    status, _, body = post(server, "/gm/reject", game="g", key="night:N9")
    assert status == 303 and "no proposal 'night:N9'" in flash(server)


def test_every_gm_form_shows_what_it_will_record_and_writes_nothing_until_confirmed(console):
    server, ws, g, _ = console
    for route, form, _ in SAME_AS_CLI:
        status, _, body = post(server, route, game="g", **form)
        assert status == 200 and 'id="confirm"' in body and 'id="cancel"' in body, route
        assert re.search(r'<html lang="en"', body)
    assert events(ws) == []


def test_settling_an_ambiguous_name_counts_the_vote_from_its_post(console):
    server, ws, g, _ = console
    body = page(server)
    assert "could be Ann, Bob" in body and 'id="settle-1"' in body
    when = re.search(r'id="settle-1">.*?name="at" value="([^"]+)"', body, re.S).group(1)
    assert post(server, "/gm/set-vote", game="g", voter="Fay", target="Ann", at=when, confirm="1")[0] == 303
    kind, payload, ev_at, _ = events(ws)[0]
    assert payload == {"kind": "set_vote", "player": "Fay", "target": "Ann"} and ev_at == at(5.5)
    assert 'data-candidate="Ann" data-total="5" data-mark="hammer"' in page(server)


def test_the_vote_count_marks_l_minus_1_from_the_tally_report(console):
    server, ws, g, _ = console
    body = page(server)
    assert 'data-candidate="Ann" data-total="4" data-mark="l_minus_1"' in body
    assert 'data-candidate="Bob" data-total="1" data-mark=""' in body
    assert "Majority: 5 of 8 alive." in body


def test_bad_input_is_a_message_on_the_page_and_writes_nothing(console):
    server, ws, g, _ = console
    assert post(server, "/gm/set-vote", game="g", voter="Zed", target="Ann", confirm="1")[0] == 303
    assert "Not done: 'Zed' is not a player" in flash(server)
    assert post(server, "/gm/replace", game="g", player="Eve", new_name="", post="x", confirm="1")[0] == 303
    assert "Not done:" in flash(server)
    assert post(server, "/gm/frobnicate", game="g")[0] == 404
    assert events(ws) == []


ROUTES = ["/poll", "/refresh", "/gm/approve", "/gm/reject", "/gm/set-vote", "/gm/action", "/gm/replace", "/gm/extend",
          "/gm/end", "/gm/note", "/gm/undo"]


@pytest.mark.parametrize("route", ROUTES + ["/drafts/{vc}/publish", "/drafts/{vc}/discard", "/drafts/{vc}/edit"])
def test_every_post_route_refuses_another_site_and_a_wrong_token(console, route):
    server, ws, g, outbox = console
    vc = next(r.id for r in ws.store.drafts("g") if r.kind == "votecount")
    path = route.format(vc=vc)
    form = {"game": "g", "confirm": "1", "voter": "Fay", "target": "Ann", "text": "x", "body": "x", "key": "lynch:D1"}
    assert post(server, path, origin="http://evil.example", **form)[0] == 403
    assert post(server, path, origin=None, **form)[0] == 403
    assert post(server, path, headers={"Sec-Fetch-Site": "cross-site"}, **form)[0] == 403
    assert post(server, path, token="wrong", **form)[0] == 403
    assert request(server, "POST", path, body=form, host="evil.example")[0] == 403
    assert events(ws) == [] and outbox() == [] and ws.store.draft(vc).status == "draft"
    assert not ws.store.draft(vc).edited_by_gm


def test_the_page_needs_the_token_and_the_right_host(console):
    server, *_ = console
    assert request(server, "GET", "/")[0] == 403
    assert request(server, "GET", "/?token=nope")[0] == 403
    assert request(server, "GET", f"/?token={server.token}", host="evil.example")[0] == 403
    status, headers, body = request(server, "GET", f"/?token={server.token}")
    assert status == 200 and server.httpd.server_address[0] == "127.0.0.1"
    csp = headers["Content-Security-Policy"]
    assert "script-src 'sha256-" in csp and "'unsafe-inline'" not in csp.split("script-src", 1)[1].split(";")[0]
    from forummod.console.drafts import script_hash
    from forummod.console.page import COUNTDOWN_JS

    scripts = re.findall(r"<script>(.*?)</script>", body, re.S)
    assert COUNTDOWN_JS in scripts  # the countdown, and else only the drafts page's own scripts:
    allowed = csp.split("script-src", 1)[1].split(";")[0].split()
    assert all(script_hash(code) in allowed for code in scripts) and len(allowed) == len(set(scripts))


@pytest.mark.parametrize("route,form", [
    ("/gm/note", {"text": "held", "confirm": "1"}),
    ("/poll", {}),
    ("/drafts/{vc}/publish", {}),
    ("/refresh", {}),
])
def test_an_action_while_another_run_holds_the_lock_does_nothing_and_says_who(console, route, form):
    server, ws, g, outbox = console
    vc = next(r.id for r in ws.store.drafts("g") if r.kind == "votecount")
    g.vote("Fay", "Ann", 5.8).write()  # a poll would find this post
    posts_before = len(ws.store.posts("f", "game"))
    lock = WorkspaceLock(ws.cfg.workspace.store_path(), command="forummod tick").acquire()
    try:
        assert post(server, route.format(vc=vc), game="g", **form)[0] == 303
        msg = flash(server)
    finally:
        lock.release()
    assert "another forummod run" in msg and "forummod tick" in msg and "Traceback" not in msg
    assert events(ws) == [] and outbox() == [] and len(ws.store.posts("f", "game")) == posts_before


def test_a_cron_tick_runs_while_the_console_is_open_and_returns_75_only_during_an_action(console, monkeypatch):
    server, ws, g, _ = console
    config = str(g.write())
    assert main(["tick", "--config", config, "--no-publish"]) in (0, 1)  # page open, no action: the tick runs

    codes = []
    import forummod.service as service

    real = service.poll_game

    def poll_with_a_tick_meanwhile(*a, **kw):
        codes.append(main(["tick", "--config", config, "--no-publish"]))
        return real(*a, **kw)

    monkeypatch.setattr(service, "poll_game", poll_with_a_tick_meanwhile)
    assert post(server, "/poll", game="g")[0] == 303
    assert codes == [75] and "new post" in flash(server)


def test_poll_now_fetches_new_posts_and_the_vote_count_draft_turns_stale(console):
    server, ws, g, _ = console
    vc = next(r.id for r in ws.store.drafts("g") if r.kind == "votecount")
    assert f'id="draft-{vc}"' in page(server) and 'data-state="fresh"' in page(server)
    g.vote("Fay", "Bob", 5.8).write()
    assert post(server, "/poll", game="g")[0] == 303
    body = page(server)
    assert "g: 1 new post" in body
    card = re.search(rf'<section class="draft[^"]*" id="draft-{vc}"[^>]*>', body).group(0)
    assert 'data-state="stale"' in card
    assert 'data-candidate="Bob" data-total="2"' in body


def test_a_failing_poll_is_a_message_on_the_page(console):
    server, ws, g, _ = console
    (g.root / "posts.jsonl").write_text("{not json\n", encoding="utf-8")
    assert post(server, "/poll", game="g")[0] == 303
    msg = flash(server)
    assert msg.startswith("Not done:") and "Traceback" not in msg


def test_a_night_action_entered_by_the_gm_is_listed_with_the_pms(console):
    server, ws, g, _ = console
    assert post(server, "/gm/set-vote", game="g", voter="Fay", target="Ann", at=ISO, confirm="1")[0] == 303
    assert post(server, "/gm/approve", game="g", key="lynch:D1", confirm="1")[0] == 303
    g.now = at(8)
    assert post(server, "/gm/action", game="g", actor="Cat", verb="check", target1="Bob", target2="", confirm="1")[0] == 303
    body = page(server)
    eid = events(ws)[-1]
    assert re.search(r'<tr class="action counts" data-source="GM #\d+"><td>Cat</td><td>check Bob</td>', body)

    from forummod.gamestate_view import night_view
    from forummod.service import analyse_game

    [x] = night_view(analyse_game(ws, "g")).actions
    assert (x.actor, x.verb, x.targets, x.status, x.source.startswith("GM #")) == ("Cat", "check", ("Bob",), "counts", True)
    assert eid[0] == "action"


def test_undo_from_the_gm_log_appends_a_reversal(console):
    server, ws, g, _ = console
    post(server, "/gm/note", game="g", text="first", confirm="1")
    first = ws.store.events("g")[0].id
    assert f'id="undo-{first}"' in page(server)
    assert post(server, "/gm/undo", game="g", event=str(first), confirm="1")[0] == 303
    assert events(ws)[-1][0] == "undo" and f"undone by #" in page(server)


def test_the_page_speaks_the_games_language_where_the_catalogs_have_the_words(tmp_path: Path):
    from tests.render.game import day_one

    g = day_one(tmp_path, language="it")
    g.now = at(6)
    ws = g.workspace()
    body = served_page(ws)
    assert '<html lang="it"' in body
    assert '<span class="mark l_minus_1">L-1</span>' in body
    assert "Votazione — Giorno 1" in body and "MAGGIORANZA" not in body  # a wagon short of majority
    assert "Note per il Narratore" in body


def test_the_hammer_mark_is_the_drafts_word_for_a_majority_in_the_games_language(tmp_path: Path):
    from tests.render.game import day_one

    g = day_one(tmp_path, language="it")
    g.vote("Fay", "Ann", 5.5)
    g.now = at(6)
    ws = g.workspace()
    body = served_page(ws)
    assert '<span class="mark hammer">MAGGIORANZA</span>' in body


@pytest.mark.parametrize("lang, sentence", [
    ("it", "Cat (Notte 1): Hai indagato su Bob: è INNOCENTE."),
    ("en", "Cat (Night 1): Your investigation of Bob returns NOT GUILTY."),
])
def test_a_private_result_reads_as_the_sentence_of_its_result_pm(tmp_path: Path, lang, sentence):
    """Issue 20: the night desk shows what the cop's PM will say, in the game's language, not
    the fact's key and parameters ("cop_result target=Bob verdict=...")."""
    from tests.render.game import day_one

    g = day_one(tmp_path, language=lang)
    g.vote("Fay", "Ann", 5.5)  # the majority ends D1
    g.pm("Cat", 8, "check Bob")
    g.now = at(20)
    ws = g.workspace()
    assert main(["gm", "--config", str(tmp_path / "forummod.toml"), "approve", "lynch:D1"]) == 0
    body = served_page(ws)
    results = re.search(r"<h3>[^<]*</h3>(<p class=\"note info\">[^<]*</p>)", body[body.find('id="night-h"'):])
    assert results is not None and html.unescape(results.group(1)) == f'<p class="note info">{sentence}</p>'
    assert "cop_result" not in body and "verdict=" not in body


def test_an_alias_proposal_has_its_approve_button_and_one_approval_counts_the_vote(tmp_path: Path):
    from forummod.console.server import ConsoleServer

    g = make_game(tmp_path)
    g.post("Fay", 5.6, "[b]Vote: Bobby[/b]")  # no player's name; close to Bob only
    ws = g.workspace()
    server = ConsoleServer(ws).start()
    try:
        body = page(server)
        assert 'id="approve-alias-bobby"' in body and 'id="reject-alias-bobby"' in body
        assert "“Bobby” means Bob? (close to Bob (75%); 1 vote so written)" in html.unescape(body)
        assert 'data-candidate="Bob" data-total="1"' in body  # nothing counts before approval

        status, _, confirm = post(server, "/gm/approve", game="g", key="alias:bobby")
        assert status == 200 and "alias:bobby approved: “Bobby” means Bob" in html.unescape(confirm)
        assert events(ws) == []
        assert post(server, "/gm/approve", game="g", key="alias:bobby", confirm="1")[0] == 303
        (kind, payload, _, actor), = events(ws)
        assert kind == "alias" and payload["spelling"] == "Bobby" and payload["player"] == "Bob" and actor == "gm"
        body = page(server)
        assert 'id="approve-alias-bobby"' not in body and 'data-candidate="Bob" data-total="2"' in body
    finally:
        server.stop()
        ws.close()
