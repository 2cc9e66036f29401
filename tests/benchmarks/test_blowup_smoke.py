"""The huge-post benchmark (benchmarks/blowup.py) runs end to end at a tiny size, so it never rots.

No timing is asserted: the ratios are what the benchmark reports. What is checked: every
shape and step is measured at both sizes and the JSON says whether the target was met.
"""

from __future__ import annotations

import json

from benchmarks.blowup import SHAPES, TARGET_RATIO, main


def test_every_shape_and_step_is_measured_at_both_sizes(tmp_path):
    out = tmp_path / "blowup.json"
    assert main(["--small", "2000", "--large", "8000", "--repeat", "1", "--quiet", "--output", str(out)]) == 0
    res = json.loads(out.read_text(encoding="utf-8"))
    assert set(res["shapes"]) == set(SHAPES) and res["target_ratio"] == TARGET_RATIO
    for per_step in res["shapes"].values():
        assert set(per_step) == {"page parser", "post text", "vote grammar", "bbcode to html"}
        for v in per_step.values():
            assert v["small_s"] >= 0 and v["large_s"] >= 0
    assert isinstance(res["met"], bool)
