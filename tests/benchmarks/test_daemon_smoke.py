"""The daemon benchmark (benchmarks/daemon.py) runs end to end for a few seconds, so it never rots.

No timing or memory figure is asserted (they are what the benchmark reports); what is checked:
the daemon ran as a subprocess, was sampled, kept its games polling, asked the throttling
forum no more than its Retry-After allows, and stopped on SIGTERM.
"""

from __future__ import annotations

import json

from benchmarks.daemon import main


def test_a_short_run_reports_memory_cadence_the_throttled_forum_and_the_stop(tmp_path):
    out = tmp_path / "daemon.json"
    assert main(["--minutes", "0.15", "--interval", "2", "--sample", "1", "--request-interval", "0",
                 "--quiet", "--output", str(out)]) == 0
    [d] = json.loads(out.read_text(encoding="utf-8"))["daemons"]
    assert len(d["samples"]) >= 5 and all(mb > 0 for _, mb in d["samples"])
    assert d["passes"] > 20 and d["cadence_ratio_median"] is not None
    assert 1 <= d["throttled_forum_requests"] <= 2  # Retry-After 60: asked at the start only
    assert d["stop_seconds"] is not None  # it exited on SIGTERM (the bound is the realforum soak's)
    assert set(d["rss_mb"]) == {"first", "at_warmup", "last", "max"}
