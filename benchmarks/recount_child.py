"""A cold recount in a fresh interpreter: `python -m benchmarks.recount_child CONFIG NOW`.

What a cron `tick` or `tally` does after its start: load the game and the saved extraction
results from the store, extract (only posts without a saved result), fold and check, with
nothing remembered in the process (no text model, name or extraction cache). Prints one JSON
line: the stage timings of `benchmarks.suite.recount` and its facts.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path


def main(argv: list[str]) -> int:
    cfg_path, now = Path(argv[0]), datetime.fromisoformat(argv[1])
    from forummod.config import load_config
    from forummod.service import Workspace

    from benchmarks.suite import recount

    with Workspace(load_config(cfg_path), clock=lambda: now) as ws:
        out = recount(ws, now)
    print(json.dumps(out, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
