"""The last analysis of each game, kept in the process that made it (issue 30).

A workspace that lives on (the console server, the daemon, a `tick` analysing a game twice)
asks for the same analysis again and again while nothing changed. `service.analyse_game`
keeps each game's last analysis here with its input mark (input_mark.py) and hands it out
again, restamped, while the mark is the same and the clock has not reached the analysis's
`changes_at` (analysis_clock.py): no post, PM, GM event, config or code changed, and no
deadline, timer, stall or later-stamped input was crossed. Anything else is a recount.
One entry per game and options; a recount replaces it.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any, Hashable

from forummod.analysis_clock import restamped, still_right


class AnalysisCache:
    """Game analyses by (game, options), each with the input mark it was made from."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, tuple[str, bool, Any]] = {}
        self._lock = threading.Lock()  # the console serves requests from several threads
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, mark: str, now: datetime | None) -> Any:
        """The analysis kept for `key`, as made at `now`, when it is still right (`now` None:
        the archive's own instant, derived from the inputs, so the mark alone decides); else None."""
        with self._lock:
            entry = self._entries.get(key)
        if entry is not None and entry[0] == mark:
            kept_mark, own_now, a = entry
            if now is None and own_now:
                self.hits += 1
                return a
            if now is not None and still_right(a, now):
                self.hits += 1
                return restamped(a, now)
        self.misses += 1
        return None

    def put(self, key: Hashable, mark: str, own_now: bool, analysis: Any) -> None:
        """Keep `analysis` (made from inputs of `mark`; `own_now`: at the archive's own instant)."""
        with self._lock:
            self._entries[key] = (mark, own_now, analysis)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
