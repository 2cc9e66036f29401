"""The first poll in a fresh interpreter, for its peak memory: `python -m benchmarks.poll_child CONFIG NOW`.

Polls the benchmark game once through `service.poll_game` into its store (the forum is served
by the parent) and prints one JSON line: the poll's counts, its wall seconds, the RSS after
the imports and the peak RSS (VmHWM).
"""

from __future__ import annotations

import json
import sys
import time
from datetime import datetime
from pathlib import Path

from benchmarks.replay_child import _maxrss_mb


def main(argv: list[str]) -> int:
    cfg_path, now = Path(argv[0]), datetime.fromisoformat(argv[1])
    from forummod.config import load_config
    from forummod.service import Workspace, poll_game

    base = _maxrss_mb()
    t0 = time.perf_counter()
    with Workspace(load_config(cfg_path), clock=lambda: now) as ws:
        rep = poll_game(ws, "bench", inbox=False)
    out = {"ok": rep.ok, "error": rep.error, "requests": rep.requests, "bytes": rep.bytes, "new_posts": rep.new_posts,
           "edited_posts": rep.edited_posts, "seconds": round(time.perf_counter() - t0, 3),
           "rss_after_imports_mb": round(base, 1), "peak_rss_mb": round(_maxrss_mb(), 1)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
