"""The parse set of real corpus pages (benchmarks/corpus.py) without its corpus: a clear skip."""

from __future__ import annotations

from benchmarks.corpus import corpus_table, measure_corpus_parse


def test_the_corpus_parse_set_skips_with_a_message_when_the_corpus_is_absent(tmp_path, monkeypatch):
    monkeypatch.setenv("FORUMMOD_CORPUS", str(tmp_path / "no-such-corpus"))
    doc = measure_corpus_parse(repeat=1)
    assert "corpus is absent" in doc["skipped"] and "FORUMMOD_CORPUS" in doc["skipped"]
    assert corpus_table(doc).startswith("PARSE real corpus pages: skipped (no corpus")
