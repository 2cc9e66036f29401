"""End to end: forummod driven exactly as a Game Master drives it, against real FlaskBB and Spirit
servers on 127.0.0.1 seeded with one Italian Lupus day (game_script.toml; issue 9, part 2).

The GM's desk (gm_desk.py) is a forummod config for the seeded game with the store in a
temporary folder and the GM's password in an environment variable. For each engine the desk
polls the forum once over HTTP (`forummod poll`: the game thread, the cemetery and the GM's
inbox, logged in) and records the GM's decisions the way a GM does (`forummod gm --at ...
approve night:N1`, `lynch:D1`, `night:N2`); the read-only tests analyse that store. Tests that
write to the forum (publishing, a poll across a stopped server) work on a copy of the store and
use the `fresh_forum` fixture, which puts the forum back to its seeded state afterwards.

Expected values come from the script's [expected] tables and, for counts at other moments,
from the script's own reference count over its declared intents (`script_before_post`),
never from forummod.
"""

from __future__ import annotations

import re
import signal
import sqlite3
import time
from datetime import datetime, timedelta

import pytest

from forummod.drafting import draft_now
from forummod.forum import write as forum_write
from forummod.publish import publish
from forummod.report import status_report, tally_report
from forummod.service import analyse_game, poll_game
from forummod.store import Store

from .gm_desk import (
    GAME,
    KILL_WHEN_RECORDING_SENT,
    GMDesk,
    expected_lines,
    iso,
    script_before_post,
    tally_lines,
)

pytestmark = pytest.mark.realforum

SECOND = timedelta(seconds=1)
#: of a wait the flood gate asks for, the part really slept: enough for a form's minimum age
REAL_WAIT = 3.1
MINUTE = timedelta(minutes=1)


# --------------------------------------------------------------------------- moments of the game


def before_close(forum) -> datetime:
    """One second before LUP-T1 (22:00): the day's vote is still open."""
    return forum.deadlines["D1_vote_close"] - SECOND


def after_close(forum) -> datetime:
    """One second before LUP-T2 (22:15): the vote is closed, the late vote (22:05) is in."""
    return forum.deadlines["D1_end"] - SECOND


def gm_decisions(desk: GMDesk) -> None:
    """What the GM approves, when: night 1 before the dawn post, the lynch right after the
    close, night 2 the next morning (the script's `now`)."""
    dl, now = desk.forum.deadlines, desk.forum.script.now
    for at, key in ((dl["D1_start"] - 5 * MINUTE, "night:N1"), (dl["D1_vote_close"] + MINUTE, "lynch:D1"),
                    (now, "night:N2")):
        res = desk.cli("gm", "--at", iso(at), "approve", key)
        assert res.rc == 0, res


def open_desk(forum, folder) -> GMDesk:
    desk = GMDesk.create(forum, folder)
    res = desk.cli("poll")
    assert res.rc == 0, res
    gm_decisions(desk)
    return desk


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def desks() -> dict[str, GMDesk]:
    return {}


@pytest.fixture
def desk(real_forum, desks, tmp_path_factory) -> GMDesk:
    """The GM's desk for this engine, polled once per module (read-only tests)."""
    if real_forum.engine not in desks:
        desks[real_forum.engine] = open_desk(real_forum, tmp_path_factory.mktemp(f"desk-{real_forum.engine}"))
    return desks[real_forum.engine]


@pytest.fixture
def work_desk(desk, tmp_path) -> GMDesk:
    """A copy of the polled desk for a test that writes drafts or publications into the store
    (tests that also write to the forum ask for `fresh_forum` first)."""
    return desk.copy(tmp_path / "desk")


@pytest.fixture
def flood_waits(monkeypatch) -> list[float]:
    """The adapters keep each engine's flood interval between two writes of the GM (Spirit: 10 s)
    by asking the process-wide flood gate; here the gate records the wait and sleeps at most
    REAL_WAIT of it (the servers' own flood limits are off in the harness, but phpBB checks a
    form's age against its own clock, and SMF keeps 2 s per IP for moderators such as the GM,
    counted in whole seconds), so publishing several posts takes little time."""
    forum_write.reset_flood_gates()
    waits: list[float] = []
    reserve = forum_write.FloodGate.reserve

    def no_sleep(self, interval, not_before, clock, sleep):
        def record(seconds: float) -> None:
            waits.append(seconds)
            time.sleep(min(seconds, REAL_WAIT))  # checked in real time (phpBB's form age, SMF's flood)
        return reserve(self, interval, not_before, clock, record)

    monkeypatch.setattr(forum_write.FloodGate, "reserve", no_sleep)
    yield waits
    forum_write.reset_flood_gates()


# --------------------------------------------------------------------------- helpers


def standing_vote_posts(script) -> dict[str, int]:
    """Game-thread post number of each player's vote standing at LUP-T1, from the declared
    intents (a repeated vote keeps its first post, D10); players with a secret vote left out."""
    dl = script.deadlines()
    standing: dict[str, tuple[str, int]] = {}
    for p in script.game_posts:
        if p.intent is None or p.author not in script.players or not dl["D1_start"] <= p.at < dl["D1_vote_close"]:
            continue
        if p.intent.kind == "unvote":
            standing.pop(p.author, None)
        elif standing.get(p.author, ("", 0))[0] != p.intent.target:
            standing[p.author] = (p.intent.target, p.number)
    secret = script._secret_votes(dl["D1_vote_close"])
    return {voter: number for voter, (_, number) in standing.items() if voter not in secret}


def shown_number(forum, number: int) -> int:
    """A script post's number (1-based) as the forum prints it and forummod numbers it: SMF's
    "Reply #N" counts the opening post 0 (the profile's [pagination] first_number)."""
    from forummod.forum.registry import profiles

    return number - 1 + profiles(None)[forum.engine].pagination.first_number


def post_number(forum, key: str) -> int:
    return shown_number(forum, forum.script.post(key).number)


def private_results(analysis, phase: str) -> list[tuple[str, str, str]]:
    """(to, about, verdict) of the engine's private results of `phase`."""
    out = []
    for ph, pr in analysis.run.private:
        if ph == phase:
            params = dict(pr.fact.params)
            out.append((pr.to, params.get("target"), params.get("verdict")))
    return sorted(out)


def expected_private(forum, phase: str) -> list[tuple[str, str, str]]:
    return sorted((r["to"], r["about"], r["verdict"]) for r in forum.expected[phase]["private"])


def accepted_actions(analysis) -> list[str]:
    """The night's accepted, not yet resolved actions as the script writes them ("Aldo check Fede")."""
    return sorted(f"{a.actor} {a.action} {' '.join(a.targets)}" for a in analysis.state.actions)


def _rows(path, queries: dict[str, str]) -> dict[str, list[tuple]]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {name: con.execute(sql).fetchall() for name, sql in queries.items()}
    finally:
        con.close()


def store_contents(path) -> dict[str, list[tuple]]:
    """Everything a poll writes besides its run record: posts (every version), their status,
    PMs, cursors, saved pages, the session cookie."""
    return _rows(path, {t: f"SELECT * FROM {t} ORDER BY 1, 2, 3" for t in
                        ("posts", "post_status", "messages", "cursors", "pages", "cookies")})


def stored_game(path) -> dict[str, list[tuple]]:
    """What was read from the forum, without the moments it was read."""
    return _rows(path, {
        "posts": "SELECT site, thread, post_id, version, number, author, author_id, created_at, edited_at,"
                 " content_hash, page, url FROM posts ORDER BY 1, 2, 3, 4",
        "post_status": "SELECT site, thread, post_id, page, deleted_at FROM post_status ORDER BY 1, 2, 3",
        "messages": "SELECT site, message_id, conversation_id, sender, sender_id, recipients, created_at, subject,"
                    " content_hash, url FROM messages ORDER BY 1, 2",
    })


def integrity(path) -> str:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


def draft_rows(desk: GMDesk) -> dict[int, dict]:
    return {r["id"]: r for r in desk.cli_json("drafts")}


# =========================================================================== 1. the day's count


def test_day_1_count_read_from_the_forum_is_the_scripts_expected_tally(desk):
    """Italian votes (Voto/Rogo), a quoted vote, an edited vote, an unvote, a late vote and a
    spectator's vote, read over HTTP from three pages: the thread's count before LUP-T1 (public
    votes at weight 1, D11) and the GM's final count at LUP-T1 (the Boia's secret PM vote x3 on a
    wolf, LUP-R7) are the script's; the late vote is rejected; the spectator's vote is an issue."""
    forum = desk.forum
    exp = forum.expected["D1"]
    with desk.workspace() as ws:
        public = tally_report(analyse_game(ws, GAME, now=before_close(forum)), public=True)
        final_analysis = analyse_game(ws, GAME, now=after_close(forum))
    final = tally_report(final_analysis)

    assert public["phase"] == "D1" and public["tally"]["public_view"]
    assert tally_lines(public["tally"]) == expected_lines(exp["public"])
    assert public["tally"]["not_voting"] == exp["not_voting"]

    assert final["phase"] == "D1" and final["tally"]["at"] == iso(exp["vote_close"])
    assert tally_lines(final["tally"]) == expected_lines(exp["real"])
    assert final["tally"]["not_voting"] == exp["not_voting"]
    voters = {v["voter"]: v for c in final["tally"]["candidates"] for v in c["voters"]}
    # each public vote is the post the script says: Carlo's quote of Bianca's vote (p06) is not
    # his vote, Ugo's vote is his post as edited (p16), Lia's unvote (p22) took hers away
    assert {n: v["post_number"] for n, v in voters.items() if v["via"] == "post"} == \
        {n: shown_number(forum, k) for n, k in standing_vote_posts(forum.script).items()}
    assert voters["Elio"]["via"] == "message" and voters["Elio"]["secret"] and voters["Elio"]["weight"] == 3

    assert [(r["voter"], r["target"], r["reason"], r["source"]["number"]) for r in final["rejected_votes"]] == \
        [(v["voter"], v["target"], "late", post_number(forum, v["post"])) for v in exp["late"]]
    outsiders = [i for i in final["issues"] if i["code"] == "non_player_vote"]
    assert [(i["player"], i["source"]["number"]) for i in outsiders] == \
        [(v["voter"], post_number(forum, v["post"])) for v in exp["non_player"]]
    assert all(v["target"] in i["details"] for i, v in zip(outsiders, exp["non_player"]))
    assert {"Marta"}.isdisjoint(voters) and "Marta" not in final["tally"]["not_voting"]

    lynch = final_analysis.state.proposal("lynch:D1")
    assert lynch is not None and lynch.status == "approved"
    assert [(d["player"], d["cause"], d["phase"]) for d in status_report(final_analysis)["dead"]] == \
        [(exp["lynch"], "lynch", "D1")]


@pytest.mark.parametrize("key", ["p05", "p10", "p12", "p17", "p21", "p23", "p25", "p27"])
def test_tally_at_a_post_number_is_the_count_just_before_that_post(desk, key):
    """`forummod tally --json --at N` is the GM's count as it stood before game-thread post N:
    the script's reference count over the posts before N and the PMs sent before N's time
    (before p12 the Boia's PM vote does not exist yet and his public vote on Dora stands)."""
    forum = desk.forum
    post = forum.script.post(key)
    rep = desk.cli_json("tally", "--at", str(shown_number(forum, post.number)))
    ref = script_before_post(forum.script, post.number).reference_tally()
    assert rep["analysed_at"] == iso(post.at) and rep["phase"] == "D1"
    assert tally_lines(rep["tally"]) == expected_lines(ref.real)
    assert rep["tally"]["not_voting"] == list(ref.not_voting)
    assert [(r["voter"], r["target"]) for r in rep["rejected_votes"]] == [(v, t) for v, t, _ in ref.late]


def test_edited_vote_counts_as_edited_and_is_flagged_to_the_gm(desk, request):
    """Ugo's post p16 said "Voto: Gina" and was edited to "Voto: Fede" before the store ever saw
    it: the count takes the edited text (above) and the GM is told a voting post was edited."""
    with desk.workspace() as ws:
        a = analyse_game(ws, GAME, now=after_close(desk.forum))
    edited = [(i.player, i.source.number) for i in a.extraction_issues if i.code == "edited_vote"]
    assert edited == [("Ugo", post_number(desk.forum, "p16"))]


def test_late_vote_rejection_cites_the_vote_close_rule(desk):
    with desk.workspace() as ws:
        final = tally_report(analyse_game(ws, GAME, now=after_close(desk.forum)))
    (late,) = final["rejected_votes"]
    assert late["reason"] == "late" and late["rule"] in ("LUP-V2", "LUP-T1", "D18")


def test_public_tally_after_the_lynch_is_still_the_closed_days_count(desk):
    forum = desk.forum
    rep = desk.cli_json("tally", "--public", "--at", str(post_number(forum, "p27")))
    assert tally_lines(rep["tally"]) == expected_lines(forum.expected["D1"]["public"])


def test_final_vote_count_draft_lists_every_public_vote(desk):
    forum = desk.forum
    with desk.workspace() as ws:
        a = analyse_game(ws, GAME, now=after_close(forum))
        ((_, plan, body),) = draft_now(ws, GAME, "votecount", analysis=a, store=False)
    names = [(w.name, w.count, [v.voter for v in w.voters]) for w in plan.post.wagons]
    want = [(c["candidate"], str(c["total"]), c["voters"]) for c in forum.expected["D1"]["public"]]
    assert names == want
    assert f"{forum.bold('Dora')} (1)" in body


# =========================================================================== 2. the nights


def test_gm_inbox_is_read_whole_over_http(desk):
    """Every PM of the GM's mailbox (the GM's own answer included) is in the store, read from
    the conversation pages of the logged-in GM, at the times the forum shows."""
    forum = desk.forum
    seeded = sorted((m.author, m.at) for m in forum.inbox_messages())
    with desk.workspace() as ws:
        stored = ws.store.messages("realforum")
    assert sorted((m.sender, m.created_at) for m in stored) == seeded
    assert all(m.url and m.url.startswith(forum.base_url) for m in stored)
    bodies = " ".join(m.body_html for m in stored)
    shown = {(m.author, m.at) for m in forum.inbox_messages()}
    assert all(m.body in bodies for c in forum.script.conversations for m in c.messages if (m.author, m.at) in shown)


def test_night_1_postino_takes_the_seers_result(desk):
    """N1: the Veggente checks Fede, the Inquisitore Bianca, the Postino delivers to himself: the
    Postino gets the Veggente's result (LUP-R2, LUP-X1), the Veggente gets nothing, the Guardia
    Gemella Bianca is ERETICO for the Inquisitore (LUP-R6); nobody dies (D1)."""
    forum = desk.forum
    with desk.workspace() as ws:
        at_deadline = analyse_game(ws, GAME, now=forum.deadlines["N1_action_deadline"] - SECOND)
        later = analyse_game(ws, GAME, now=forum.script.now)
    assert at_deadline.phase.name == "N1"
    assert accepted_actions(at_deadline) == sorted(forum.expected["N1"]["actions"])
    assert private_results(later, "N1") == expected_private(forum, "N1")
    assert not {to for to, _, _ in private_results(later, "N1")} & set(forum.expected["N1"]["no_result"])
    assert ("N1", "nobody_died") in [(ph, f.key) for ph, f in later.run.facts]


def test_night_2_twins_save_the_wolves_victim_and_checks_resolve(desk):
    """N2 (after Fede's lynch): the wolves' kill on Dora and the Twins' protection of Dora,
    two checks: nobody dies (D8), the Veggente sees Gina LOSCO, Carlo is ERETICO."""
    forum = desk.forum
    with desk.workspace() as ws:
        at_deadline = analyse_game(ws, GAME, now=forum.deadlines["N2_action_deadline"] - SECOND)
        later = analyse_game(ws, GAME, now=forum.script.now)
    assert at_deadline.phase.name == "N2"
    assert accepted_actions(at_deadline) == sorted(forum.expected["N2"]["actions"])
    assert private_results(later, "N2") == expected_private(forum, "N2")
    assert ("N2", "nobody_died") in [(ph, f.key) for ph, f in later.run.facts]
    status = status_report(later)
    assert [d["player"] for d in status["dead"]] == [forum.expected["D1"]["lynch"]] and not status["pending"]
    assert "Dora" in status["alive"]


def test_unreadable_pm_is_an_issue_and_the_late_pm_is_rejected(desk):
    """Zeno's chat PM is shown to the GM as not understood; Carlo's protection sent at 22:40 is
    late for night 2 (LUP-T3, D17) and is not carried to a later night."""
    forum = desk.forum
    with desk.workspace() as ws:
        a = analyse_game(ws, GAME, now=forum.script.now)
        next_day = analyse_game(ws, GAME, now=forum.deadlines["D2_start"] + MINUTE)
    unread = [(i.player, i.source.kind) for i in a.extraction_issues if i.code == "unparsed_action"]
    assert unread == [(name, "message") for name in forum.expected["N2"]["unparseable"]]
    late = [f"{r.actor} {r.kind} {r.target}" for r in a.run.rejections if r.reason == "late" and r.kind != "vote"]
    assert late == forum.expected["N2"]["late"]
    assert next_day.phase.name == "D2" and next_day.state.actions == ()


def test_night_result_and_day_end_drafts_are_written_in_italian(desk):
    """The engine's facts become Italian sentences (no '⟨seer_result: ...⟩' fallback, no role id)."""
    forum = desk.forum
    with desk.workspace() as ws:
        a = analyse_game(ws, GAME, now=forum.script.now)
        bodies = [b for _, _, b in draft_now(ws, GAME, "night_result", analysis=a, store=False)]
        bodies += [b for _, _, b in draft_now(ws, GAME, "day_end", analysis=a, phase="D1", store=False)]
    assert len(bodies) == 3
    for body in bodies:
        assert "⟨" not in body and "_result" not in body and "werewolf" not in body


def test_night_result_pms_of_one_night_have_distinct_subjects(desk):
    with desk.workspace() as ws:
        a = analyse_game(ws, GAME, now=desk.forum.script.now)
        titles = [plan.title for _, plan, _ in draft_now(ws, GAME, "night_result", analysis=a, store=False)]
    assert len(titles) == 2 and len(set(titles)) == 2


# =========================================================================== 3. publishing


def test_vote_count_is_published_once_and_reads_back_from_the_forum(fresh_forum, work_desk, flood_waits):
    """`forummod draft votecount` then `forummod publish ID`: the GM's reply is on the forum
    (database and thread page) with the thread's count; a second publish posts nothing."""
    forum, desk = fresh_forum, work_desk
    (made,) = desk.cli_json("draft", "votecount", "--now", iso(before_close(forum)))
    assert made["target"] == "thread" and made["phase"] == "D1"
    # drafted as of before the close; the real clock is past it, so the count is stale by design
    (res,) = desk.cli_json("publish", str(made["id"]), "--stale-ok")
    assert res["status"] == "sent" and res["channel"] == "reply"

    (post,) = forum.posts_since_seed()
    assert str(post.id) == res["remote_id"] and post.author == forum.gm.name
    assert res["marker"] and res["marker"] in post.body
    item = "- " if forum.markup == "markdown" else ""  # a Markdown list; BBCode lines
    opening, closing = forum.bold("\0").split("\0")
    wagon = re.compile(rf"{re.escape(item + opening)}[^\s*\[]+{re.escape(closing)} \(\d+\): ")
    lines = [ln for ln in post.body.splitlines() if wagon.match(ln)]
    for line, want in zip(lines, forum.expected["D1"]["public"], strict=True):
        assert line.startswith(f"{item}{forum.bold(want['candidate'])} ({want['total']}): ")
        names = re.findall(r"([^\s,()]+) \(\[", line.split(": ", 1)[1])  # "Bianca ([\#5](link), sab 10:40)"
        assert names == want["voters"]
    assert "Lia, Zeno" in post.body and "Elio x" not in post.body  # the Boia's secret vote stays secret

    shown = forum.http_posts(3)  # what the players see: the 9th post of page 3
    assert [p.id for p in shown][-1] == post.id and len(shown) == 9
    text = " ".join(shown[-1].body.split())
    assert text.startswith("Votazione — Giorno 1")
    for want in forum.expected["D1"]["public"]:
        assert re.search(rf"{want['candidate']} \({want['total']}\): " + ".*".join(want["voters"]), text), want

    (again,) = desk.cli_json("publish", str(made["id"]))
    assert again["status"] == "already_sent" and again["remote_id"] == res["remote_id"]
    assert forum.posts_since_seed() == [post]
    row = draft_rows(desk)[made["id"]]
    assert row["status"] == "published" and row["publication"]["remote_id"] == res["remote_id"]


def test_published_vote_count_shows_no_markup_escapes(fresh_forum, work_desk, flood_waits, request):
    """The count as the players read it on the forum: no backslash of the Markdown escaping left."""
    forum, desk = fresh_forum, work_desk
    (made,) = desk.cli_json("draft", "votecount", "--now", iso(before_close(forum)))
    (res,) = desk.cli_json("publish", str(made["id"]), "--stale-ok")  # an as-of count: stale by design
    shown = next(p for p in forum.http_posts(3) if str(p.id) == res["remote_id"])
    assert "(CET)" in shown.body
    assert "\\" not in shown.body and 'class="math"' not in shown.html


def test_night_result_pms_are_sent_once_and_the_players_read_them(fresh_forum, work_desk, flood_waits):
    """`forummod draft night_result --phase N2` and `publish`: Aldo and Ugo each get one PM from
    the GM with their result, read back from their own mailboxes (database and, logged in as
    the player, over HTTP); publishing again sends nothing; nobody else gets a PM."""
    forum, desk = fresh_forum, work_desk
    made = desk.cli_json("draft", "night_result", "--phase", "N2", "--now", iso(forum.script.now))
    by_player = {d["target"].removeprefix("pm:"): d for d in made}
    expected = {r["to"]: r for r in forum.expected["N2"]["private"]}
    assert set(by_player) == set(expected)
    ids = [str(d["id"]) for d in made]
    results = desk.cli_json("publish", *ids)
    assert [r["status"] for r in results] == ["sent"] * len(ids)

    for player, d in by_player.items():
        want = expected[player]
        (conv,) = [c for c in forum.db_conversations(player) if c.subject == forum.shown_subject(d["title"])]
        (msg,) = conv.messages
        assert msg.author == forum.gm.name and want["about"] in msg.body and want["verdict"] in msg.body
        read = forum.http_conversation(player, conv.id)
        assert want["about"] in read.messages[-1].body and want["verdict"] in read.messages[-1].body
    sent = {player: forum.messages_since_seed(player) for player in forum.players}
    assert {p for p, msgs in sent.items() if msgs} == set(expected)

    again = desk.cli_json("publish", *ids)
    assert [r["status"] for r in again] == ["already_sent"] * len(ids)
    assert {p: forum.messages_since_seed(p) for p in forum.players} == sent
    if forum.engine == "spirit":  # the second PM waited for Spirit's flood interval (10 s)
        assert len(flood_waits) == 1 and 0 < flood_waits[0] <= 10


def test_night_1_results_go_to_the_postino_and_the_inquisitor(work_desk):
    """The N1 result drafts: the Postino gets the Veggente's verdict on Fede, the Veggente none."""
    forum = work_desk.forum
    made = work_desk.cli_json("draft", "night_result", "--phase", "N1", "--now", iso(forum.script.now))
    assert sorted(d["target"] for d in made) == sorted(f"pm:{r['to']}" for r in forum.expected["N1"]["private"])
    for d in made:
        want = next(r for r in forum.expected["N1"]["private"] if f"pm:{r['to']}" == d["target"])
        assert want["about"] in d["body"] and want["verdict"] in d["body"]


class SimulatedCrash(BaseException):
    """Raised where the process would die: nothing in forummod catches it."""


def test_publish_that_crashed_after_posting_is_found_by_its_marker(fresh_forum, work_desk, flood_waits, monkeypatch):
    """The publisher records "sending", the adapter posts the reply, and the process dies before
    recording it: the next `forummod publish` finds the post by its marker and records it,
    so the forum holds exactly one copy; a third publish is a no-op."""
    forum, desk = fresh_forum, work_desk
    (made,) = desk.cli_json("draft", "votecount", "--now", iso(before_close(forum)))

    finish = Store.finish_publication

    def crash_when_sent(self, draft_id, at, *, remote_id, url, state="sent", error=None):
        if state == "sent":
            raise SimulatedCrash(f"process died before recording draft {draft_id} as {remote_id}")
        return finish(self, draft_id, at, remote_id=remote_id, url=url, state=state, error=error)

    with monkeypatch.context() as m:
        m.setattr(Store, "finish_publication", crash_when_sent)
        with desk.workspace() as ws, pytest.raises(SimulatedCrash):
            publish(ws, made["id"], stale_ok=True)  # an as-of count: stale by design
    (post,) = forum.posts_since_seed()
    row = draft_rows(desk)[made["id"]]
    assert row["status"] == "draft" and row["publication"]["state"] == "sending"
    assert integrity(desk.store_path) == "ok"

    (res,) = desk.cli_json("publish", str(made["id"]))
    assert res["status"] == "recovered" and res["remote_id"] == str(post.id)
    assert forum.posts_since_seed() == [post]
    assert draft_rows(desk)[made["id"]]["status"] == "published"
    (again,) = desk.cli_json("publish", str(made["id"]))
    assert again["status"] == "already_sent" and forum.posts_since_seed() == [post]


def test_publish_killed_after_sending_a_pm_is_found_by_its_marker(fresh_forum, work_desk, flood_waits):
    """`forummod publish` in its own process is SIGKILLed right after the forum accepted the PM
    and before the store recorded it: the store is sound, the next publish recovers the PM
    from the GM's sent messages by its marker, and Aldo has exactly one result PM."""
    forum, desk = fresh_forum, work_desk
    (made,) = desk.cli_json("draft", "night_result", "--phase", "N2", "--to", "Aldo", "--now", iso(forum.script.now))
    proc = desk.spawn("publish", str(made["id"]), patch=KILL_WHEN_RECORDING_SENT)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    (msg,) = forum.messages_since_seed("Aldo")
    assert integrity(desk.store_path) == "ok"
    assert draft_rows(desk)[made["id"]]["publication"]["state"] == "sending"

    (res,) = desk.cli_json("publish", str(made["id"]))
    assert res["status"] == "recovered" and res["marker"] in msg.body
    (mine,) = [c for c in forum.db_conversations() if c.subject == forum.shown_subject(made["title"])]
    assert res["remote_id"] == str(mine.id)  # the conversation's id in the GM's own mailbox
    assert forum.messages_since_seed("Aldo") == [msg]


# =========================================================================== 4. a server that goes away


def test_poll_while_the_server_is_stopped_fails_cleanly_and_the_next_poll_recovers(fresh_forum, work_desk,
                                                                                   tmp_path, request):
    """The game goes on (a reply, a new PM, an answer in a known conversation) and then the forum goes down: a poll reports the
    failure of each thread and the inbox in plain words, exit code 1, and leaves the store as
    it was (integrity_check ok, same posts, PMs and cursors; the failed run on record). Once
    the forum is back, one poll fetches what was missed and the store and the tally equal
    those of a clean run from scratch."""
    forum, desk = fresh_forum, work_desk
    forum.reply("Aldo", "Torno stasera, ora non posso leggere tutto.")
    forum.send_pm("Ugo", forum.gm.name, "Domanda", "A che ora si chiude il rogo domani?")  # a new conversation
    forum.reply_pm("Lia", forum.pm_id("lia", user="Lia"), "Postino: consegno a Ugo")  # and a known one
    before = store_contents(desk.store_path)

    forum.stop()
    try:
        res = desk.cli("poll")
    finally:
        forum.start()
    assert res.rc == 1
    failed = [ln for ln in res.err.splitlines() if ln.startswith(f"{GAME}: poll failed: ")]
    assert failed and "Connection refused" in failed[-1]
    for part in ("game thread: GET", "graveyard thread: GET", "inbox: GET"):
        assert part in failed[-1] and f"  ! {part}" in res.out
    assert forum.password not in res.out + res.err
    assert integrity(desk.store_path) == "ok"
    assert store_contents(desk.store_path) == before
    (last_run,) = desk.query("SELECT status, new_posts, new_messages FROM poll_runs ORDER BY id DESC LIMIT 1")
    assert last_run == ("failed", 0, 0)
    desk.write_config()  # the same port unless another process took it meanwhile

    with desk.workspace() as ws:
        report = poll_game(ws, GAME)
    assert report.ok and (report.new_posts, report.new_messages) == (1, 2)
    assert integrity(desk.store_path) == "ok"

    clean = open_desk(forum, tmp_path / "clean")
    assert stored_game(desk.store_path) == stored_game(clean.store_path)
    for now in (before_close(forum), after_close(forum), forum.script.now):
        with desk.workspace() as ws, clean.workspace() as cws:
            got, want = analyse_game(ws, GAME, now=now), analyse_game(cws, GAME, now=now)
            assert tally_report(got) == tally_report(want)
            assert status_report(got) == status_report(want)
