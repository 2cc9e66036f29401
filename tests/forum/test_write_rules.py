"""The pure rules of the write side: how a forum's answer is read, where markers count, the
flood gate's slots, and the profile's [reply]/[pm] validation."""

from __future__ import annotations

import threading

import pytest

from forummod.errors import ConfigError
from forummod.forum.http import Fetched
from forummod.forum.profile import parse_profile
from forummod.forum.write import (
    FloodGate,
    encode_fields,
    follow_answer,
    has_marker,
    marker_outside_quotes,
    read_page_answer,
)


def spec(**write):
    return parse_profile({"name": "t", "reply": {"url": "post?t={thread}", **write}}).reply


SPEC = spec(id=[r"[?&]p=(\d+)"], links=["div.msg a @href"], error=["p.error", "div.msg"],
            success=["div.ok"], refused={"/list/?$": "duplicate title"})


def page(text: str, status: int = 200, url: str = "https://f.test/post?t=1", **headers: str) -> Fetched:
    return Fetched(url=url, status=status, text=text, headers=headers)


def test_a_meta_refresh_to_the_new_post_wins_over_the_message_box():
    ans = read_page_answer(SPEC, page('<html><head><meta http-equiv="refresh" content="3; url=./view?t=1&amp;p=77#p77">'
                                      '</head><body><div class="msg">Posted.</div></body></html>'))
    assert (ans.kind, ans.remote_id, ans.url) == ("ok", "77", "https://f.test/view?t=1&p=77#p77")


def test_the_forums_error_is_an_error_unless_the_page_also_says_it_worked():
    assert read_page_answer(SPEC, page('<form><p class="error">Too fast.</p></form>')).message == "Too fast."
    ok = read_page_answer(SPEC, page('<div class="ok">Sent</div><div class="msg">note</div>'))
    assert (ok.kind, ok.remote_id) == ("ok", None)


def test_a_link_on_the_answer_page_names_the_post():
    links = spec(id=[r"[?&]p=(\d+)"], links=["div.msg a @href"], error=["p.error"])
    ans = read_page_answer(links, page('<div class="msg">Done. <a href="view?p=91">see</a></div>'))
    assert (ans.kind, ans.remote_id, ans.url) == ("ok", "91", "https://f.test/view?p=91")


def test_status_codes():
    assert read_page_answer(SPEC, page("<p class='error'>bad token</p>", 400)).kind == "error"
    assert read_page_answer(SPEC, page("oops", 502)).kind == "unknown"  # may have been stored first
    assert read_page_answer(SPEC, page("gone", 404), redirected=True).kind == "unknown"


def test_redirects_are_followed_with_gets_until_something_names_the_post():
    hops = {"https://f.test/a": page("", 302, "https://f.test/a", Location="/b?p=5")}
    got = []

    def get(url):
        got.append(url)
        return hops[url]

    ans = follow_answer(SPEC, page("", 303, Location="https://f.test/a"), get)
    assert (ans.kind, ans.remote_id, got) == ("ok", "5", ["https://f.test/a"])
    refused = follow_answer(SPEC, page("", 302, Location="/list/"), get)
    assert (refused.kind, refused.message) == ("refused", "duplicate title")
    assert follow_answer(SPEC, page("", 302), get).kind == "unknown"  # no Location


def test_markers_count_in_text_attributes_comments_and_escapes_but_not_only_in_quotes():
    assert has_marker('<span title="fm-1-abcdef">x</span>', "fm-1-abcdef")
    assert has_marker("<!-- fm-1-abcdef -->", "fm-1-abcdef")
    assert has_marker("fm&#45;1-abcdef", "fm-1-abcdef")
    assert not has_marker("fm-1-abcde", "fm-1-abcdef") and not has_marker("anything", "")
    quoted = '<blockquote data-fm="quote">fm-1-abcdef</blockquote> I agree'
    assert has_marker(quoted, "fm-1-abcdef") and not marker_outside_quotes(quoted, "fm-1-abcdef")
    assert marker_outside_quotes(quoted + ' <span>fm-1-abcdef</span>', "fm-1-abcdef")


def test_flood_gate_gives_consecutive_slots_to_two_threads():
    now = [100.0]
    lock = threading.Lock()
    waits = []

    def clock():
        with lock:
            return now[0]

    def sleep(s):
        waits.append(s)

    gate = FloodGate()
    gate.mark(100.0)
    threads = [threading.Thread(target=gate.reserve, args=(15.0, 0.0, clock, sleep)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(waits) == [15.0, 30.0]
    assert gate.reserve(0.0, 140.0, clock, sleep) == 40.0  # not_before (a form's minimum age)


def test_windows_1252_is_what_a_latin1_form_gets():
    assert encode_fields({"m": "è — ☾"}, "ISO-8859-1") == {"m": "è \x97 &#9790;".encode("latin-1")}
    assert encode_fields({"m": "è"}, "utf-8") == {"m": "è"}


@pytest.mark.parametrize("bad,where", [
    ({"reply": {"url": "x", "colour": "red"}}, "unknown keys"),
    ({"pm": {"url": "x", "flood_interval": -1}}, "must not be negative"),
    ({"reply": {"url": "x", "submit": ["post"]}}, "reply.submit"),
    ({"reply": {"url": "x", "id": ["(unclosed"]}}, "bad regex"),
])
def test_profile_write_sections_are_checked(bad, where):
    with pytest.raises(ConfigError, match=where):
        parse_profile({"name": "t", **bad})


def test_published_urls_lose_session_ids_and_nothing_else():
    from forummod.forum.write import clean_url

    sid = "0123456789abcdef0123456789abcdef"
    assert clean_url(f"https://f.test/viewtopic.php?f=2&t=7&p=10&sid={sid}#p10") == "https://f.test/viewtopic.php?f=2&t=7&p=10#p10"
    assert clean_url(f"https://f.test/showthread.php?s={sid}&p=9#post9") == "https://f.test/showthread.php?p=9#post9"
    assert clean_url("https://f.test/index.php?topic=1.msg5;sort=x#msg5") == "https://f.test/index.php?topic=1.msg5;sort=x#msg5"


def test_a_link_rule_reading_an_element_id_names_the_post_without_making_a_url_of_the_id():
    """SMF 2.1 answers a reply with `topic=T.new#new`; the new post is the `div#msgN` holding the
    "new" anchor. "msg43" is no address: the post's link comes from the profile's post_url."""
    smf = spec(id=[r"^msg(\d+)$"], links=[{"css": "xpath://div[starts-with(@id,'msg')][a[@id='new']]", "attr": "id"}],
               post_url="index.php?msg={id}")
    ans = read_page_answer(smf, page('<div id="msg42"><p>old</p></div><div id="msg43"><a id="new"></a><p>mine</p></div>',
                                     url="https://f.test/index.php?topic=2.new"))
    assert (ans.kind, ans.remote_id, ans.url) == ("ok", "43", None)


def test_smiley_codes_are_kept_text_only_where_an_engine_would_read_them():
    """Issue 28, item 9: SMF's PM form turns codes into images with no option to stop it; a word
    joiner after the first character keeps each code text, and nothing inside a word is touched."""
    from forummod.forum.registry import profiles
    from forummod.forum.write import WORD_JOINER, smileys_as_text

    codes = profiles(None)["smf"].pm.smileys
    out = smileys_as_text("Ann (8), Bob (2) :) ::) O0 BOO0 http://x.test/a:Db", codes)
    assert out.replace(WORD_JOINER, "") == "Ann (8), Bob (2) :) ::) O0 BOO0 http://x.test/a:Db"
    assert f"(8{WORD_JOINER})" in out and f":{WORD_JOINER})" in out and f":{WORD_JOINER}:)" in out
    assert "BOO0" in out and "a:Db" in out  # inside a word: no smiley there, left alone
    assert smileys_as_text("8)", ()) == "8)"
    for engine in ("smf", "phpbb", "mybb"):  # the replies' own "disable smileys" option
        assert profiles(None)[engine].reply.no_smileys


def test_smf_replies_write_list_items_as_li_because_smileys_are_off():
    """SMF parses the [*] item shorthand only in a post with smileys on (Subs.php, parse_bbc), and
    replies go with "Don't use smileys": the game-over post's role list showed raw "[*]" (seen in
    the live One Night game, tests/realforum/test_live_games.py). Its items go as [li]...[/li]."""
    from forummod.forum.registry import profiles
    from forummod.forum.write import list_items_as

    smf = profiles(None)["smf"].reply
    assert smf.no_smileys and smf.list_items == "li"
    body = "[b]Roles[/b]\n[list]\n[*][b]Ann[/b] — Cop (8)\n[*]Bob — Goon\n[/list]\nNot [*] here"
    assert list_items_as(body, smf.list_items) == \
        "[b]Roles[/b]\n[list]\n[li][b]Ann[/b] — Cop (8)[/li]\n[li]Bob — Goon[/li]\n[/list]\nNot [*] here"
    assert list_items_as(body, "") == body
    for engine in ("phpbb", "mybb"):  # their [*] does not depend on smileys
        assert profiles(None)[engine].reply.list_items == ""
