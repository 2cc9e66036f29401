"""The vote history of a real archived MafiaScum game (Mini 1360, `tests/replay`): equal to
`tally --at` before every post that changed a count, each day's hammer on the moderator's
lynch, and its archive. Reads ../shared/corpus (skipped when absent), never copies it."""

from __future__ import annotations

import pytest

from forummod.archive_export import export_game
from forummod.config import load_config
from forummod.engine.events import RANK_INPUT
from forummod.game_history import analyse_with_history
from forummod.service import Workspace, analyse_game, load_inputs, poll_game
from forummod.store import Store

from tests.history.test_vote_history import counted
from tests.replay import donbot
from tests.replay.test_mafiascum_replay import GAMES, MOD_FINAL_COUNTS


@pytest.fixture(scope="module")
def mini1360(corpus_dir, tmp_path_factory):
    spec, _ = GAMES["game1360"]
    if not (corpus_dir / "mafia" / spec.corpus_file).is_file():
        pytest.skip(f"{spec.corpus_file} is not in the corpus")
    config = donbot.write_game(spec, corpus_dir, tmp_path_factory.mktemp("game1360"))
    with Workspace(load_config(config), Store(":memory:")) as ws:
        assert poll_game(ws, spec.game_id).ok
        a, h = analyse_with_history(ws, spec.game_id, approve_all=True)
        yield ws, a, h


def test_the_history_of_a_real_game_equals_tally_at_around_every_change(mini1360):
    ws, _, h = mini1360
    posts = {p.number: p for p in load_inputs(ws, "game1360").posts["game"] if p.number is not None}
    changed = sorted({c.source.number for d in h.days for c in d.changes if c.source and c.source.kind == "post"})
    assert len(changed) > 20
    checked = 0
    for n in sorted({m for k in changed for m in (k, k + 1) if m in posts}):
        p = posts[n]
        at_n = analyse_game(ws, "game1360", until_post=n, now=p.created_at, approve_all=True)
        ph = at_n.state.phase
        if ph is None or ph.kind != "day":
            continue
        key = (p.created_at, RANK_INPUT, float(n))
        assert counted(h.day(ph.name).count_before(key)) == counted(at_n.run.current_tally), f"before post {n}"
        checked += 1
    assert checked > 20


def test_each_day_is_hammered_on_the_moderators_lynch(mini1360):
    _, _, h = mini1360
    for day, (post, lynched, wagons) in MOD_FINAL_COUNTS["game1360"].items():
        d = h.day(day)
        assert d.hammer is not None and d.hammer.candidate == lynched, day
        final = {c.name: {v.voter for v in c.voters} for c in d.final.candidates if c.voters}
        assert final == wagons, day  # the moderator's own final count


def test_the_finished_real_game_gets_the_full_archive(mini1360, tmp_path):
    ws, a, _ = mini1360
    assert a.state.outcome is not None
    r = export_game(ws, "game1360", tmp_path, png=False, now=a.now, approve_all=True)
    html = next(f for f in r.files if f.suffix == ".html").read_text(encoding="utf-8")
    assert not r.public and html.count('<svg id="chart-D') == 3
    assert "gorckat (replaced rapidcanyon)" in html
    assert "Winners:" in html and html.count('class="hammer-line"') == 3
