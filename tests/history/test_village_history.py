"""VIL-V-4 in the vote history: the Sheriff's double vote is public, so the thread's view shows
its weight as the GM's does (public_weights = True), through `forummod history --json`."""

from __future__ import annotations

import json

from forummod.cli import main

from tests.cli.village_game import GM, H, T0, players
from tests.example_game import write_example_game


def test_VIL_V_4_the_sheriffs_public_weight_is_in_the_threads_history(tmp_path, capsys):
    r = T0 + 80 * H  # Day 2's dawn, joined with the Sheriff known
    votes = [("阿强", "阿花"), ("老李", "阿花"), ("小明", "老李")]  # 小明 is the Sheriff: x2
    posts = [(GM, "第一夜", T0), (GM, "第二天", r)] + [(v, f"[b]投票 {t}[/b]", r + (37 + i) * H)
                                                   for i, (v, t) in enumerate(votes)]
    cfg = write_example_game(tmp_path, "village", players(), posts=posts, extra={"gm": [GM], "resume": {
        "phase": "D2", "from_post": 2}}, events=[{"kind": "state", "key": "sheriff", "player": "小明"}])
    assert main(["poll", "--config", str(cfg)]) == 0
    now = (r + 41 * H).isoformat()
    out = {}
    for view in ("gm", "public"):
        capsys.readouterr()
        assert main(["history", "--config", str(cfg), "--json", "--now", now, "--day", "D2"]
                    + (["--public"] if view == "public" else [])) == 0
        out[view] = json.loads(capsys.readouterr().out)["days"][0]
    for view in ("gm", "public"):
        rows = [(c["voter"], c["to"], c["weight"]) for c in out[view]["changes"]]
        assert rows == [("阿强", "阿花", 1), ("老李", "阿花", 1), ("小明", "老李", 2)], view
        assert out[view]["counts"][-1]["candidates"] == [{"name": "阿花", "total": 2}, {"name": "老李", "total": 2}]
