"""`forummod run`: the daemon. Polls every game at its interval and acts at every deadline.

It takes the workspace lock for each pass's store step only, so the GM's commands and the
console work while it runs; one daemon per workspace (its own lock, `<store>.daemon.lock`).
SIGHUP reloads the config; SIGTERM or Ctrl-C stop it within 10 s (waits end at once, a pass
at work gets a few seconds to finish).
"""

from __future__ import annotations

import logging

from forummod.cli import add_common
from forummod.commands._common import config_path

NAME = "run"
LOG_LEVEL = logging.INFO  # the daemon's journal: one line per pass per game
HELP = "run as a daemon: poll each game at its interval and act at every deadline (SIGHUP reloads the config)"


def add_arguments(p) -> None:
    add_common(p, json=False)


def run(args) -> int:
    from forummod.scheduler import Daemon

    Daemon(config_path(args)).serve_forever()
    return 0

