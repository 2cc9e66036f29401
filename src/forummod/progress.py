"""Progress of long fetches: a rich bar on a terminal, plain log lines otherwise."""

from __future__ import annotations

import logging
import sys
from contextlib import contextmanager
from typing import Callable, Iterator

log = logging.getLogger("forummod.progress")


@contextmanager
def progress_printer(label: str, enabled: bool = True) -> Iterator[Callable[[str, int, int | None], None] | None]:
    """Yield a callback (thread role, pages done, pages total) for `poll_game`."""
    if not enabled:
        yield None
        return
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.markup import escape
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        from forummod.termsafe import safe_streams, unfiltered, visible

        # the bar draws with escape sequences of its own: it writes around the CLI's terminal
        # filter, so its words are made visible and markup-free here ("[bold]" stays text);
        # what is printed while it shows goes through rich's stand-in streams, filtered too
        bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       transient=True, console=Console(file=unfiltered(sys.stderr)))
        tasks: dict[str, int] = {}
        with bar, safe_streams():
            def cb(role: str, done: int, total: int | None) -> None:
                if role not in tasks:
                    tasks[role] = bar.add_task(escape(visible(f"{label} {role} pages")), total=total)
                bar.update(tasks[role], completed=done, total=total)

            yield cb
        return
    last: dict[str, int] = {}

    def plain(role: str, done: int, total: int | None) -> None:
        # a line every 10 pages and at the end keeps cron logs short
        if done == total or done - last.get(role, 0) >= 10 or done == 1:
            last[role] = done
            log.info("%s %s: %d/%s pages", label, role, done, total if total is not None else "?")

    yield plain
