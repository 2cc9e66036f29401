"""A full replay in a fresh interpreter, for its peak memory: `python -m benchmarks.replay_child CONFIG NOW`.

Loads the game from the store, extracts, folds and runs the checks (what `forummod replay`
plus `forummod check` do), then prints one JSON line: the peak RSS after the imports and at
the end, the replay's seconds, and with `--tracemalloc` the peak of Python allocations.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from datetime import datetime
from pathlib import Path


def _maxrss_mb() -> float:
    """Peak RSS of this process image: /proc's VmHWM where there is one (ru_maxrss of a child
    started by vfork/posix_spawn also counts the parent's pages before the exec)."""
    try:
        for line in open("/proc/self/status", encoding="ascii"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(argv: list[str]) -> int:
    cfg_path, now = Path(argv[0]), datetime.fromisoformat(argv[1])
    trace = "--tracemalloc" in argv
    from forummod.check_store import run_checks_saving
    from forummod.config import load_config
    from forummod.service import Workspace, analyse, load_inputs

    base = _maxrss_mb()
    if trace:
        import tracemalloc

        tracemalloc.start()
    t0 = time.perf_counter()
    with Workspace(load_config(cfg_path), clock=lambda: now) as ws:
        inputs = load_inputs(ws, "bench")
        a = analyse(inputs, now=now, approve_all=True)
        findings = run_checks_saving(ws.store, a)[1]
    seconds = time.perf_counter() - t0
    out = {"rss_after_imports_mb": round(base, 1), "peak_rss_mb": round(_maxrss_mb(), 1),
           "replay_seconds": round(seconds, 3), "findings": len(findings)}
    if trace:
        out["tracemalloc_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
