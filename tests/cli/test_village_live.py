"""A village game from config.example.toml run through the CLI as a GM would (issue 14, item 9):
the public count and the day-end post show the Sheriff/poster weights (VIL-V-4), the §6.8 plea
and pardon written in plain text are read (VIL-B-MANOR), the dawn post of a past day lists that
dawn's living (VIL-D-01)."""

from tests.cli.village_game import (
    DAWN1, GM, H, M, T0, VOTE_CLOSE1, VOTE_OPEN1, approve_due, draft_text, players, status_json, village_game,
)

NIGHT1 = [("阿强", "刀 老王", T0 + 2 * H), ("老李", "刀 老王", T0 + 3 * H), ("阿花", "海报 小明", T0 + 4 * H)]


def test_VIL_V_4_public_votecount_and_day_end_show_the_poster_plus_2(tmp_path, capsys):
    """VIL-V-4 VIL-V-7 VIL-S-POSTER"""
    cfg = village_game(tmp_path, [(GM, "天亮了", DAWN1 + M), ("阿强", "[b]投票 阿花[/b]", VOTE_OPEN1 + H),
                                  ("老李", "[b]投票 阿花[/b]", VOTE_OPEN1 + 2 * H),
                                  ("小红", "[b]投票 阿花[/b]", VOTE_OPEN1 + 3 * H),
                                  ("小明", "[b]投票 阿强[/b]", VOTE_OPEN1 + 4 * H)], NIGHT1)
    after = VOTE_CLOSE1 + 6 * H
    approve_due(capsys, cfg, after)
    count = draft_text(capsys, cfg, "votecount", VOTE_OPEN1 + 5 * H)
    assert "[b]小明[/b]（2票，+2 海报）" in count  # the poster is public: it counts in the thread's view
    end = draft_text(capsys, cfg, "day_end", after)
    assert "小明（2票，+2 海报）" in end and "阿花（3票）：阿强、老李、小红" in end
    assert "阿花 被放逐出局" in end.replace("[b]", "").replace("[/b]", "")


def test_VIL_B_MANOR_plain_text_plea_and_pardon_are_read(tmp_path, capsys):
    """VIL-B-MANOR VIL-V-6 VIL-A-30 (§6.8: 领主大人，请赦免我！ is a plea)"""
    roster = players(小红={"building": "manor"})
    cfg = village_game(tmp_path, [(GM, "天亮了", DAWN1 + M), ("阿强", "[b]投票 阿花[/b]", VOTE_OPEN1 + H),
                                  ("老李", "[b]投票 阿花[/b]", VOTE_OPEN1 + 2 * H),
                                  ("小红", "[b]投票 阿花[/b]", VOTE_OPEN1 + 3 * H),
                                  ("阿花", "领主大人，请赦免我！", VOTE_CLOSE1 + 30 * M),
                                  ("小红", "好吧，我赦免 阿花", VOTE_CLOSE1 + 60 * M)], NIGHT1, roster=roster)
    after = VOTE_CLOSE1 + 6 * H
    keys = approve_due(capsys, cfg, after)
    assert "plea:D1:1" in keys
    st = status_json(capsys, cfg, after)
    assert "阿花" in st["alive"] and [d["player"] for d in st["dead"]] == ["老王"]
    end = draft_text(capsys, cfg, "day_end", after)
    assert "向领主求赦免" in end and "赦免了" in end


def test_VIL_D_01_dawn_post_of_a_past_day_lists_that_dawns_living(tmp_path, capsys):
    """VIL-D-01: drafted after Day 1's lynch, the Day 1 dawn post still lists the lynched player"""
    cfg = village_game(tmp_path, [(GM, "天亮了", DAWN1 + M), ("阿强", "[b]投票 阿花[/b]", VOTE_OPEN1 + H),
                                  ("老李", "[b]投票 阿花[/b]", VOTE_OPEN1 + 2 * H),
                                  ("小红", "[b]投票 阿花[/b]", VOTE_OPEN1 + 3 * H)], NIGHT1)
    after = VOTE_CLOSE1 + 6 * H
    approve_due(capsys, cfg, after)
    assert "阿花" not in status_json(capsys, cfg, after)["alive"]
    dawn = draft_text(capsys, cfg, "day_start", after, "--phase", "D1")
    assert "[b]存活玩家（5人）：[/b]小明、小红、阿强、阿花、老李" in dawn
    assert "海报" in dawn  # the poster is announced at dawn (VIL-D-01), ...
    assert "家门口被贴了" not in draft_text(capsys, cfg, "day_end", after)  # ... not at the day's end


def test_VIL_D_01_a_dawn_approved_late_is_still_the_nights_post(tmp_path, capsys):
    """VIL-D-01: the GM approves Night 1's wave only once Day 1 has begun; the dawn's deaths and
    the poster still belong to the night and its dawn post, not to Day 1's end"""
    from forummod.cli import main
    cfg = village_game(tmp_path, [(GM, "天亮了", DAWN1 + M)], NIGHT1)
    late = DAWN1 + 3 * H
    for key in ("nightfall:N1", "wave1:N1", "dawn:N1"):
        assert main(["gm", "--config", str(cfg), "--at", late.isoformat(), "approve", key]) == 0
    st = status_json(capsys, cfg, late + H)
    assert [(d["player"], d["phase"]) for d in st["dead"]] == [("老王", "N1")]
    dawn = draft_text(capsys, cfg, "day_start", late + H, "--phase", "D1")
    assert "老王" in dawn and "家门口被贴了" in dawn


def test_VIL_D_06_VIL_D_07_a_silent_sheriff_re_vote_and_pardon_window_all_end_in_the_day(tmp_path, capsys):
    """VIL-V-5 VIL-D-06 VIL-D-07: with the default schedule the tie goes to the Sheriff (silent),
    then to the re-vote, then to the Lord's window, and the execution still lands in the day"""
    import json

    from forummod.cli import main
    from tests.example_game import write_example_game
    r = T0 + 80 * H  # Day 2's dawn, joined with the Sheriff known (item 5)
    close = r + 48 * H
    votes = [("阿强", "阿花"), ("老李", "阿花"), ("小明", "老李")]  # 2 - 2: the Sheriff's vote counts twice
    posts = [(GM, "第一夜", T0), (GM, "第二天", r)] + [(v, f"[b]投票 {t}[/b]", r + (37 + i) * H)
                                                   for i, (v, t) in enumerate(votes)]
    revote = close + 12 * H  # the Sheriff stayed silent for his 12 h window: the re-vote opens
    posts += [(v, f"[b]投票 {t}[/b]", revote + (1 + i) * H)
              for i, (v, t) in enumerate((("阿强", "阿花"), ("老李", "阿花"), ("小红", "阿花"), ("小明", "老李")))]
    roster = players(小红={"building": "manor"})
    cfg = write_example_game(tmp_path, "village", roster, posts=posts, extra={"gm": [GM], "resume": {
        "phase": "D2", "from_post": 2}}, events=[{"kind": "state", "key": "sheriff", "player": "小明"}])
    assert main(["poll", "--config", str(cfg)]) == 0
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--json", "--approve-all", "--now", (r + 100 * H).isoformat()]) == 0
    st = json.loads(capsys.readouterr().out)
    executed = [d for d in st["dead"] if d["player"] == "阿花"]
    assert executed and executed[0]["cause"] == "lynch" and executed[0]["phase"] == "D2"
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--json", "--approve-all", "--now", (r + 73 * H).isoformat()]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "D2"  # the Lord's window is still open in the day
