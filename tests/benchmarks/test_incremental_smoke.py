"""`python -m benchmarks.incremental` runs end to end at a tiny size, so it never rots (issue 30).

No timing is asserted. What is checked: every figure of the scale table and the many-games tick
comes out, the nothing-new runs really had nothing new (no post fetched, the same findings), and
the first recount wrote the texts its checks quoted once.
"""

from __future__ import annotations

import json

import pytest

from benchmarks.incremental import main


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("incr") / "incremental.json"
    assert main(["--sizes", "120", "--games", "2", "--game-posts", "60", "--repeat", "1", "--quiet",
                 "--output", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_every_figure_comes_out(results):
    [case] = results["scale"]
    assert case["posts"] == 120
    for key in ("first_poll", "first_recount", "saved_recount", "console", "cron", "poll"):
        assert "load_before" in (case[key] if key != "cron" else case[key]["status"]), key
    assert case["first_poll"]["posts"] == 120
    for command in ("status", "tally"):
        assert {"command_cpu_seconds", "read_cpu_seconds", "row_cpu_seconds", "ratio_to_read",
                "ratio_to_row"} <= set(case["cron"][command])
    assert {"first_load_ms", "nothing_new_ms"} <= set(case["console"])
    assert {"poll_cpu_seconds", "bare_cpu_seconds", "ratio_to_bare"} <= set(case["poll"]["process"])
    assert {"tick_cpu_seconds", "bare_cpu_seconds", "ratio_to_bare", "load_before"} <= set(results["tick"])


def test_the_nothing_new_runs_had_nothing_new(results):
    tick = results["tick"]
    assert tick["games"] == 2 and tick["new_posts"] == 0 and tick["requests"] == 2  # one GET a game
    [case] = results["scale"]
    assert case["poll"]["no_etag"]["requests"] == 1


def test_the_first_recount_wrote_its_quoted_texts_once(results):
    [case] = results["scale"]
    first = case["first_recount"]
    assert first["post_text_writes"] == (1 if first["texts_quoted"] else 0)
