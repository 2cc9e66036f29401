"""The preview server: token, loopback only, same-origin POSTs, sanitized pages."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlencode

from forummod.preview.html import render_markup


def request(server, method: str, path: str, *, body: dict | None = None, headers: dict | None = None,
            host: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    h = {"Host": host or f"127.0.0.1:{server.port}"}
    h.update(headers or {})
    data = None
    if body is not None:
        data = urlencode(body)
        h["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=data, headers=h)
    resp = conn.getresponse()
    out = resp.status, dict(resp.getheaders()), resp.read().decode()
    conn.close()
    return out


def post(server, path: str, token: str | None = None, origin: str | None = "self", **kw):
    headers = kw.pop("headers", {})
    if origin == "self":
        headers["Origin"] = f"http://127.0.0.1:{server.port}"
    elif origin:
        headers["Origin"] = origin
    return request(server, "POST", path, body={"token": token or server.token, **kw}, headers=headers)


def test_it_listens_on_loopback_only(served):
    server, *_ = served
    assert server.httpd.server_address[0] == "127.0.0.1"
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/?token=")


def test_the_page_needs_the_token(served):
    server, *_ = served
    assert request(server, "GET", "/")[0] == 403
    assert request(server, "GET", "/?token=wrong")[0] == 403
    status, headers, page = request(server, "GET", f"/?token={server.token}")
    assert status == 200 and "Vote Count — Day 1" in page


def test_a_foreign_host_header_is_refused(served):
    server, *_ = served
    assert request(server, "GET", f"/?token={server.token}", host="evil.example")[0] == 403


def test_the_page_allows_only_its_own_script_by_hash_and_shows_no_injected_markup(served):
    import re

    from forummod.preview.page import DRAFTS_JS, script_source

    server, ws, ids, _ = served
    status, headers, page = request(server, "GET", f"/?token={server.token}")
    csp = headers["Content-Security-Policy"]
    assert csp.startswith(f"default-src 'none'; script-src {script_source(DRAFTS_JS)}; connect-src 'self';")
    assert "unsafe-inline" not in csp.split("style-src")[0] and "unsafe-eval" not in csp and "'self'" not in \
        csp.split("script-src")[1].split(";")[0]
    assert re.findall(r"<script[^>]*>(.*?)</script>", page, re.I | re.S) == [DRAFTS_JS]  # one script, the page's
    assert "onerror=" not in page and "javascript:" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the player's name, as text


def test_cross_site_posts_are_refused(served):
    server, ws, ids, outbox = served
    did = ids[("votecount", "thread")]
    assert post(server, f"/drafts/{did}/publish", origin="http://evil.example")[0] == 403
    assert post(server, f"/drafts/{did}/publish", origin=None)[0] == 403
    assert post(server, f"/drafts/{did}/publish", headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert post(server, f"/drafts/{did}/publish", token="wrong")[0] == 403
    assert outbox() == [] and ws.store.draft(did).status == "draft"


def test_publish_from_the_page_posts_once(served):
    server, ws, ids, outbox = served
    did = ids[("votecount", "thread")]
    status, headers, _ = post(server, f"/drafts/{did}/publish")
    assert status == 303 and headers["Location"] == f"/?token={server.token}#draft-{did}"
    assert post(server, f"/drafts/{did}/publish")[0] == 303
    assert len(outbox()) == 1 and ws.store.draft(did).status == "published"
    page = request(server, "GET", f"/?token={server.token}")[2]
    assert "was already published" in page


def test_a_referer_from_the_page_is_enough_without_origin(served):
    server, ws, ids, outbox = served
    did = ids[("role_pm", "Bob")]
    ref = {"Referer": f"http://127.0.0.1:{server.port}/?token={server.token}"}
    assert post(server, f"/drafts/{did}/discard", origin=None, headers=ref)[0] == 303
    assert ws.store.draft(did).status == "discarded"


def test_edit_saves_the_gms_version(served):
    server, ws, ids, _ = served
    did = ids[("votecount", "thread")]
    assert post(server, f"/drafts/{did}/edit", body="[b]mine[/b]\r\nline 2")[0] == 303
    d = ws.store.draft(did)
    assert d.body == "[b]mine[/b]\nline 2" and d.edited_by_gm


def test_errors_are_shown_on_the_page(served):
    server, ws, ids, _ = served
    post(server, f"/drafts/{ids[('warnings', 'gm')]}/publish")
    assert "never posted" in request(server, "GET", f"/?token={server.token}")[2]


def test_sanitizer_keeps_forum_markup_and_drops_everything_active():
    html = render_markup('[b]b[/b] [url=https://ok.example]ok[/url] [color=red]c[/color] <script>x</script>', "bbcode")
    assert "<strong>b</strong>" in html and 'href="https://ok.example"' in html and "color:red" in html
    assert "<script" not in html
    md = render_markup("**b** <img src=x onerror=alert(1)> [x](javascript:alert(1))", "markdown")
    assert "<strong>b</strong>" in md and "<img" not in md and 'href="javascript' not in md


def _new_vote(ws, tmp_game_root, voter: str, target: str, when: str = "2026-01-05T14:50:00+00:00") -> None:
    """A new post in the archive thread, polled into the store the page reads."""
    from forummod.service import poll_game

    posts = tmp_game_root / "posts.jsonl"
    lines = posts.read_text(encoding="utf-8").splitlines()
    n = len(lines) + 1
    # in D1, before the workspace's now (at(6)): the game is still in the draft's phase
    lines.append(json.dumps({"id": n, "number": n, "author": voter, "created_at": when,
                             "bbcode": f"[b]Vote: {target}[/b]"}))
    posts.write_text("\n".join(lines) + "\n", encoding="utf-8")
    poll_game(ws, "g")


def _card(page: str, did: int) -> str:
    start = page.index(f'id="draft-{did}"')
    return page[start:page.index("</section>", start)]


def test_a_new_vote_marks_the_card_stale_and_only_its_publish_anyway_button_sends_it(served, tmp_path):
    server, ws, ids, outbox = served
    did = ids[("votecount", "thread")]
    page = request(server, "GET", f"/?token={server.token}")[2]
    assert 'data-state="fresh"' in _card(page, did) and "this stale text anyway" not in _card(page, did)
    post(server, f"/drafts/{did}/edit", body=ws.store.draft(did).body + "\nGM: mind the deadline.")
    _new_vote(ws, tmp_path, "Fay", "Bob")

    card = _card(request(server, "GET", f"/?token={server.token}")[2], did)
    assert 'data-state="stale"' in card and "Stale:" in card and "Your edit is kept" in card
    assert "--- your edit" in card and "+++ fresh render" in card and "-GM: mind the deadline." in card
    assert 'name="stale_ok" value="1"' in card and "Yes, publish this stale text anyway" in card

    # a publish without the stale card's consent (a page loaded before the vote) is refused
    post(server, f"/drafts/{did}/publish")
    page = request(server, "GET", f"/?token={server.token}")[2]
    assert "is stale" in page and "--stale-ok" in page and outbox() == []
    assert post(server, f"/drafts/{did}/publish", stale_ok="1")[0] == 303
    assert len(outbox()) == 1 and "GM: mind the deadline." in outbox()[0]["bbcode"]
    assert 'data-state="published"' in _card(request(server, "GET", f"/?token={server.token}")[2], did)


def test_revert_drops_the_gms_stale_edit_for_the_fresh_render_and_the_card_is_fresh_again(served, tmp_path):
    server, ws, ids, outbox = served
    did = ids[("votecount", "thread")]
    post(server, f"/drafts/{did}/edit", body="[b]my own count[/b]")
    _new_vote(ws, tmp_path, "Fay", "Bob")
    card = _card(request(server, "GET", f"/?token={server.token}")[2], did)
    assert 'data-state="stale"' in card and f'id="revert-{did}"' in card

    assert post(server, f"/drafts/{did}/revert")[0] == 303
    d = ws.store.draft(did)
    assert not d.edited_by_gm and "my own count" not in d.body and "Fay" in d.body
    card = _card(request(server, "GET", f"/?token={server.token}")[2], did)
    assert 'data-state="fresh"' in card and f'id="revert-{did}"' not in card
    assert any(h["note"] == "reverted to the fresh render" for h in ws.store.draft_history(did))


# ---------------------------------------------------------------- issue 15, item 4: the page's new routes

def test_live_preview_returns_the_sanitized_rendering_and_stores_nothing(served):
    from tests.preview.conftest import HOSTILE_POST

    server, ws, ids, _ = served
    did = ids[("votecount", "thread")]
    before = ws.store.draft(did)
    status, headers, html = post(server, f"/drafts/{did}/preview", body="[b]Mine[/b] " + HOSTILE_POST, js="1")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    import lxml.html

    root = lxml.html.fragment_fromstring(html, create_parent="div")
    assert [e.text for e in root.iter("strong")][0] == "Mine" and not root.xpath("//script | //img | //a")
    assert not [a for e in root.iter() for a in e.attrib if a.startswith("on")]
    assert html == render_markup("[b]Mine[/b] " + HOSTILE_POST, "bbcode")
    after = ws.store.draft(did)
    assert (after.body, after.edited_by_gm, after.updated_at) == (before.body, False, before.updated_at)


def test_live_preview_keeps_the_token_origin_and_host_checks(served):
    server, ws, ids, _ = served
    did = ids[("votecount", "thread")]
    path = f"/drafts/{did}/preview"
    assert post(server, path, origin="http://evil.example", body="x", js="1")[0] == 403
    assert post(server, path, origin=None, body="x", js="1")[0] == 403
    assert post(server, path, token="wrong", body="x", js="1")[0] == 403
    assert post(server, path, headers={"Sec-Fetch-Site": "cross-site"}, body="x", js="1")[0] == 403
    assert request(server, "POST", path, body={"token": server.token, "body": "x", "js": "1"},
                   headers={"Origin": f"http://127.0.0.1:{server.port}"}, host="evil.example")[0] == 403
    assert post(server, "/drafts/999/preview", body="x", js="1")[0] == 409  # no such draft: said, not a crash


def test_preview_without_script_shows_the_unsaved_edit_once_on_the_page(served):
    server, ws, ids, _ = served
    did = ids[("votecount", "thread")]
    status, headers, _ = post(server, f"/drafts/{did}/preview", body="[b]Unsaved words[/b]")
    assert status == 303 and headers["Location"].endswith(f"#draft-{did}")
    card = _card(request(server, "GET", f"/?token={server.token}")[2], did)
    assert "Preview of your unsaved edit" in card and "<strong>Unsaved words</strong>" in card
    assert '<details class="edit" open>' in card and ">[b]Unsaved words[/b]</textarea>" in card
    assert not ws.store.draft(did).edited_by_gm
    again = _card(request(server, "GET", f"/?token={server.token}")[2], did)
    assert "Unsaved words" not in again  # shown once, like the flash message


def _hand_post(tmp_path, marker: str) -> None:
    """The GM pastes the text into the forum by hand: the archive forum now shows a post carrying the marker."""
    with (tmp_path / "posts.outbox.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"id": "hand-1", "kind": "reply", "thread": "game", "author": "Mod", "marker": marker,
                            "bbcode": f"my count\n[size=1]{marker}[/size]", "created_at": "2026-01-05T14:55:00+00:00"})
                + "\n")


def test_copy_to_post_by_hand_records_the_marker_and_the_next_poll_finds_the_post(served, tmp_path):
    from forummod.service import poll_game

    server, ws, ids, outbox = served
    did = ids[("votecount", "thread")]
    status, headers, text = post(server, f"/drafts/{did}/by-hand", js="1")
    pub = ws.store.publication(did)
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert pub.state == "uncertain" and text == ws.store.draft(did).body.rstrip("\n") + f"\n[size=1]{pub.marker}[/size]\n"
    assert outbox() == []  # nothing sent: the GM posts it

    card = _card(request(server, "GET", f"/?token={server.token}")[2], did)
    assert f"[size=1]{pub.marker}[/size]" in card and "marker on the last line" in card
    assert "next poll finds it by its marker" in card and f'data-copy="raw-{did}"' in card

    post(server, f"/drafts/{did}/publish")  # forummod does not send it a second time on its own
    assert outbox() == [] and "you took its text" in request(server, "GET", f"/?token={server.token}")[2]
    assert post(server, f"/drafts/{did}/by-hand", js="1")[2] == text  # copied again: the same marker

    _hand_post(tmp_path, pub.marker)
    poll_game(ws, "g")
    assert ws.store.draft(did).status == "published" and ws.store.publication(did).remote_id == "hand-1"


def test_copy_to_post_by_hand_without_script_redirects_to_the_open_raw_text(served):
    server, ws, ids, outbox = served
    did = ids[("role_pm", "Bob")]
    assert post(server, f"/drafts/{did}/by-hand")[0] == 303
    page = request(server, "GET", f"/?token={server.token}")[2]
    card = _card(page, did)
    assert "recorded as posted by you" in page and '<details class="raw-box" open>' in card
    assert ws.store.publication(did).marker in card and outbox() == []


def test_copy_to_post_by_hand_keeps_the_checks_and_refuses_a_stale_draft_without_consent(served, tmp_path):
    server, ws, ids, outbox = served
    did = ids[("votecount", "thread")]
    assert post(server, f"/drafts/{did}/by-hand", origin="http://evil.example", js="1")[0] == 403
    assert post(server, f"/drafts/{did}/by-hand", token="wrong", js="1")[0] == 403
    assert ws.store.publication(did) is None
    _new_vote(ws, tmp_path, "Fay", "Bob")
    status, _, said = post(server, f"/drafts/{did}/by-hand", js="1")
    assert status == 409 and "is stale" in said and ws.store.publication(did) is None
    assert post(server, f"/drafts/{did}/by-hand", js="1", stale_ok="1")[0] == 200
    gm = ids[("warnings", "gm")]
    assert post(server, f"/drafts/{gm}/by-hand", js="1")[0] == 409  # the GM's notes are never posted


def test_a_draft_of_an_earlier_phase_is_published_only_from_its_unfolded_form(served, tmp_path):
    server, ws, ids, outbox = served
    did = ids[("votecount", "thread")]
    _new_vote(ws, tmp_path, "Fay", "Bob", when="2026-01-07T11:00:00+00:00")  # D1 is over: the night has begun
    page = request(server, "GET", f"/?token={server.token}")[2]
    folded = page[page.index('<details class="folded past"'):]
    folded = folded[:folded.index("</details>\n</section>") if "</details>\n</section>" in folded else None]
    assert f'id="draft-{did}"' in folded and '<details class="folded past" id="past-g">' in page  # closed
    assert f'id="publish-{did}"' not in page.split('<details class="folded past"')[0]
    assert 'name="folded_ok" value="1"' in _card(page, did) and "the game is in N1 now" in _card(page, did)

    post(server, f"/drafts/{did}/publish")  # a form from before the fold (or a forged one) is refused
    assert "is of D1" in request(server, "GET", f"/?token={server.token}")[2] and outbox() == []
    post(server, f"/drafts/{did}/publish", folded_ok="1", stale_ok="1")
    assert len(outbox()) == 1 and ws.store.draft(did).status == "published"
