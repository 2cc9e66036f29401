"""The benchmark suite runs end to end at a tiny size, so it never rots.

No timing is asserted (timings are what the suite reports, as ratios). What is checked: every
metric comes out in the JSON and the table, the polls cost what the design promises (one
conditional request when nothing is new, two when one page was added), and forummod and the
bare-lxml baseline found the same posts.
"""

from __future__ import annotations

import json

import pytest

from benchmarks.cli import main

ENGINES = ("phpbb", "xenforo")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "latest.json"
    code = main(["--sizes", "200", "--engines", ",".join(ENGINES), "--repeat", "1", "--bs4-pages", "1",
                 "--no-tracemalloc", "--quiet", "--output", str(out)])
    assert code == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_every_engine_and_size_has_every_metric(results):
    assert [(c["engine"], c["posts"]) for c in results["cases"]] == [(e, 200) for e in ENGINES]
    for c in results["cases"]:
        assert set(c["poll"]) >= {"first", "no_news", "no_news_full", "new_page"}
        assert {"seconds", "bare_get_parse_seconds", "ratio_to_bare"} <= set(c["poll"]["no_news_full"])
        assert {"ratio_to_lxml", "ours_posts_per_s", "lxml_posts_per_s", "bs4_ratio_to_lxml"} <= set(c["parse"])
        assert {"sqlite_read_seconds", "first", "cold", "warm"} <= set(c["recount"])
        for mode in ("first", "cold", "warm"):
            assert {"load_seconds", "extract_seconds", "fold_seconds", "checks_seconds", "total_seconds",
                    "ratio_to_sqlite_read"} <= set(c["recount"][mode])
        assert {"peak_rss_mb", "rss_after_imports_mb"} <= set(c["memory"])
        assert c["poll"]["first"]["peak_rss_mb"] > 0  # the first poll ran in a fresh interpreter
        assert {"tally_cpu_seconds", "read_cpu_seconds", "ratio_to_read"} <= set(c["recount"]["process"])
        assert c["recount"]["cold"]["runs"] == c["recount"]["first"]["runs"] == 1  # cold: fresh interpreters
        assert c["recount"]["cold"]["sqlite_read_seconds"] > 0  # against the read in a fresh interpreter too
        assert {"open_seconds", "quick_check_seconds", "integrity_check_seconds", "quick_check_ratio_to_open",
                "quick_check_ratio_to_read", "file_mib"} <= set(c["store_check"])
    assert results["machine"]["cpu"] is not None and results["targets"]


def test_polls_cost_one_request_without_news_and_two_with_a_new_page(results):
    for c in results["cases"]:
        poll = c["poll"]
        assert poll["first"]["requests"] == poll["first"]["server_requests"] == c["pages"] - 1
        assert poll["no_news"]["requests"] == 1 and poll["no_news"]["server_304"] == 1
        assert poll["no_news"]["new_posts"] == 0 and poll["no_news"]["bytes"] == 0
        assert poll["no_news_full"]["requests"] == 1  # a server without ETags: the last page, whole, once
        assert poll["new_page"]["requests"] == 2 and poll["new_page"]["server_requests"] == 2
        assert poll["new_page"]["new_posts"] == c["posts"] - poll["first"]["posts"]
        assert poll["new_page"]["edited_posts"] == 1  # the edit on the re-fetched page became a version
        assert poll["posts_stored"] == c["posts"]


def test_the_parse_and_recount_read_the_whole_game(results):
    for c in results["cases"]:
        assert c["parse"]["posts"] == c["posts"]  # forummod and bare lxml agree on the post count
        assert c["recount"]["posts"] == c["posts"]
        assert c["recount"]["intents"] > 0 and c["recount"]["deaths"] >= 1  # votes counted, someone lynched
        assert c["recount"]["rejections"] == 0  # the synthetic game follows the rules it is counted by


def test_the_table_names_every_figure(results, capsys):
    from benchmarks.report import table

    text = table(results["cases"])
    for label in ("POLL first fetch", "no new posts", "one new page", "PARSE", "ratio to lxml", "BeautifulSoup",
                  "RECOUNT", "first:", "cold:", "warm:", "MEMORY", "no 304"):
        assert label in text


def test_the_real_corpus_pages_are_parsed_per_engine_or_skipped_with_a_reason(results):
    corpus = results["corpus_parse"]
    if "skipped" in corpus:
        assert "corpus" in corpus["skipped"]
        return
    assert corpus["engines"] and all(e["posts"] > 0 and e["ratio_to_lxml"] > 0 for e in corpus["engines"].values())
    fallback = corpus["fallback"]
    assert fallback["pages"] == len(corpus["fallback_pages"])
    if fallback["pages"]:  # timed apart from the ratio's pages
        assert fallback["posts"] > 0 and fallback["ours_posts_per_s"] > 0
