"""The cold recount's floor in a fresh interpreter: `python -m benchmarks.read_child STORE SITE THREAD GAME`.

A cron `tick` is a fresh process: its first reads allocate fresh memory and meet a cold
sqlite3 module, which a read in the long-running benchmark process does not. The cold
recount (`benchmarks.recount_child`) is compared with this: the same `SQLITE_READ` as the
in-process baseline, in a new interpreter, timed from after its imports. Prints one JSON
line: {"read": CPU seconds, "posts": rows}.
"""

from __future__ import annotations

import json
import sys
import time


def main(argv: list[str]) -> int:
    import sqlite3  # noqa: F401 (an import the recount child has done before its timing starts, too)

    from benchmarks.suite import sqlite_read  # type: ignore[attr-defined]

    t0 = time.process_time()
    n = sqlite_read(*argv[:4])
    print(json.dumps({"read": time.process_time() - t0, "posts": n}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
