"""The peer protocol (forummod-peer/1, `benchmarks/accuracy/peer.py`) end to end on a tiny
synthetic game, with a fake peer command written here: what the harness sends (roster with
replacements, deaths, moderators, days, posts), how it reads the answer (standings after posts,
the day's lynch) and scores it on the same days and counts as forummod, failures reported.
No real peer and no corpus are needed."""

from __future__ import annotations

import json
import lzma
import sys
from pathlib import Path

import pytest

from benchmarks.accuracy import report
from benchmarks.accuracy.cli import main
from benchmarks.accuracy.corpus import Corpus
from benchmarks.accuracy.game import evaluate
from benchmarks.accuracy.peer import PROTOCOL, command_summary, evaluate_peer, peer_totals, run_peer

THREAD = "111"
B = '<div style="display:inline;font-weight:bold">{}</div>'
POSTS = [  # (user, user_id, html)
    ("Mod", "1", "Welcome. " + B.format("Day 1 begins") + " now."),
    ("Alice", "2", B.format("VOTE: Bob")),
    ("Bob", "3", B.format("VOTE: Alice")),
    ("Carol", "4", B.format("VOTE: Alice")),
    ("Mod", "1", "Vote Count<br>Alice (2) - Bob, Carol<br>Bob (1) - Alice<br>Not voting: Dave"),
    ("Erin", "6", "Replacing in. " + B.format("VOTE: Alice")),
    ("Mod", "1", "Alice has been lynched. She was Town. Night 1 begins."),
]
ARCHIVE = f"""https://forum.mafiascum.net/viewtopic.php?f=53&t={THREAD}
Mini 1: Peer Test
Moderator: Mod
Current Update: Town Win

Players
Alice, Town Vanilla, lynched Day 1
Bob, Mafia Goon, survived
Carol, Town Vanilla, survived
Erin replaced Dave, Town Vanilla, survived"""

# the fake peer: counts bold "VOTE: name" by exact name, reports the standing after each
# requested post and a lynch at majority; it keeps the request for the test to read
FAKE = r'''
import json, re, sys
req = json.load(sys.stdin)
open(sys.argv[1], "w").write(json.dumps(req))
names = {}
for p in req["players"]:
    for n in [p["name"]] + [r["name"] for r in p["replaces"]]:
        names[n] = p["name"]
def standing(day, after):
    votes = {p["name"]: None for p in req["players"] if p["died_at"] is None or p["died_at"] > after}
    for post in req["posts"]:
        if day["start_post"] < post["number"] <= after and post["user"] in names:
            m = re.search(r"VOTE: (\w+)", post["html"])
            if m and m.group(1) in names:
                votes[names[post["user"]]] = names[m.group(1)]
    return votes
days = []
for d in req["days"]:
    row = {"day": d["day"], "counts": [{"after": a, "votes": standing(d, a)} for a in d["counts_after"]],
           "lynch": None, "hammer_post": None}
    if d["outcome_after"] is not None:
        final = standing(d, d["outcome_after"])
        tally = {}
        for t in final.values():
            if t:
                tally[t] = tally.get(t, 0) + 1
        top = [t for t, n in tally.items() if n > len(final) // 2]
        row["lynch"] = top[0] if top else None
    days.append(row)
print("peer log line that is not the answer")
print(json.dumps({"protocol": "forummod-peer/1", "peer": {"name": "fake/peer", "commit": "0" * 40, "licence": "MIT"},
                  "days": days, "notes": ["counts exact names only"]}))
'''


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    root = tmp_path / "donbot"
    root.mkdir()
    (root / "archive.txt").write_text(ARCHIVE, encoding="utf-8")
    (root / "transitions.tsv").write_text("Game Identification\nNumber\tDay 1\n1\t6\t-\n", encoding="utf-8")
    (root / "ids.txt").write_text(THREAD + "\n", encoding="utf-8")
    with lzma.open(root / f"{THREAD}.jsonl.xz", "wt", encoding="utf-8") as f:
        for i, (user, uid, html) in enumerate(POSTS):
            f.write(json.dumps({"number": i, "id": str(100 + i), "user": user, "user_id": uid, "content": html,
                                "time": f"Tue Dec 07, 2010 9:{10 + i:02d} am", "page": "", "forum": "53",
                                "thread": THREAD}) + "\n")
    return root


def fake_cmd(tmp_path: Path) -> tuple[str, Path]:
    script = tmp_path / "fake_peer.py"
    script.write_text(FAKE, encoding="utf-8")
    seen = tmp_path / "request.json"
    return f"{sys.executable} {script} {seen}", seen


def test_the_request_holds_what_a_gm_gives_and_the_answer_is_scored(tiny: Path, tmp_path: Path):
    corpus = Corpus.open(tiny)
    fm = evaluate(corpus, THREAD)
    assert not fm.error and [c.post for c in fm.counts] == [4]
    cmd, seen = fake_cmd(tmp_path)
    pg = evaluate_peer(corpus, THREAD, fm, cmd)
    assert pg.error == ""
    req = json.loads(seen.read_text())
    assert req["protocol"] == PROTOCOL and req["moderators"] == ["Mod"]
    assert [p["number"] for p in req["posts"]] == list(range(len(POSTS)))
    assert req["posts"][1] == {"number": 1, "user": "Alice", "user_id": "2", "html": POSTS[1][2],
                               "time": "Tue Dec 07, 2010 9:11 am"}
    players = {p["seat"]: p for p in req["players"]}
    assert players["Erin"]["name"] == "Erin" and [r["name"] for r in players["Erin"]["replaces"]] == ["Dave"]
    assert players["Alice"]["died_at"] == 6 and players["Bob"]["died_at"] is None  # lynched at the day's end
    (day,) = req["days"]
    assert day["start_post"] == 0 and day["end_post"] == 6
    assert day["counts_after"] == [3]  # the count in post 4 is compared with the standing after post 3
    assert day["outcome_after"] == 5
    assert [(d.expected, d.got, d.right, d.forummod_right) for d in pg.days] == [("Alice", "Alice", True, True)]
    (c,) = pg.counts
    assert c.post == 4 and c.answered and c.exact and c.forummod_exact
    t = peer_totals([pg])
    assert (t["days_right"], t["days_with_outcome"], t["counts_exact"], t["counts"]) == (1, 1, 1, 1)
    assert pg.extra["peer"]["name"] == "fake/peer"


def test_a_wrong_standing_is_not_exact_and_a_failing_peer_is_reported(tiny: Path, tmp_path: Path):
    corpus = Corpus.open(tiny)
    fm = evaluate(corpus, THREAD)
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import json,sys\nreq=json.load(sys.stdin)\nprint(json.dumps({'days': [{'day': 1, 'counts': "
                     "[{'after': 3, 'votes': {'Alice': 'Carol'}}], 'lynch': 'Bob'}]}))\n", encoding="utf-8")
    pg = evaluate_peer(corpus, THREAD, fm, f"{sys.executable} {wrong}")
    assert pg.error == "" and not pg.counts[0].exact and pg.days[0].got == "Bob" and pg.days[0].right is False
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nsys.stderr.write('no such game')\nsys.exit(3)\n", encoding="utf-8")
    pg = evaluate_peer(corpus, THREAD, fm, f"{sys.executable} {broken}")
    assert pg.error.startswith("exit 3") and "no such game" in pg.error
    s = command_summary("broken", [pg])
    assert s["all"]["failed_games"] == 1
    assert any("exit 3" in line for line in report.peer_lines(s))


def test_the_command_line_puts_the_peer_next_to_forummod(tiny: Path, tmp_path: Path, capsys):
    cmd, _ = fake_cmd(tmp_path)
    out = tmp_path / "out"
    assert main(["--corpus", str(tiny), "--peer-cmd", cmd, "--peer-cmd", cmd, "--out", str(out)]) == 0  # two peers
    assert "peer fake/peer: days right 1/1, counts exact 1/1" in capsys.readouterr().out
    data = json.loads((out / "accuracy.json").read_text())
    assert data["meta"]["peer_cmd"] == [cmd, cmd] and [r["all"]["counts_exact"] for r in data["peer"]["commands"]] == [1, 1]
    md = (out / "accuracy.md").read_text()
    assert "| peer: days right / days with an outcome | 1/1 (100.0%)" in md
    assert "| forummod on the same counts | 1/1 (100.0%)" in md and md.count("### fake/peer") == 2


def test_the_donbot_python_probe_still_says_what_it_found(tiny: Path, tmp_path: Path):
    res = run_peer(Corpus.open(tiny), [], str(tmp_path / "no-python"))
    assert res["available"] is False and "donbot-python" in res["summary"]
