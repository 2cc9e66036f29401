"""A real forummod workspace for a synthetic game: a config file, a store, the serving forum.

The config is what a GM would write for the game (site, thread, roster with roles, the
`mafia-majority` ruleset, the schedule), so polling goes through `service.poll_game` and the
recount through `service.load_inputs` / `service.analyse` exactly as the commands do.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from benchmarks.game import GM, START, SynthGame, config_players
from benchmarks.markup import Engine

GAME_ID = "bench"
SITE = "forum"


def config_text(engine: Engine, base_url: str, folder: Path) -> str:
    players = "\n".join(f'[[games.{GAME_ID}.players]]\nname = "{name}"\nrole = "{role}"\n'
                        for name, role in config_players())
    return f"""# Written by `python -m benchmarks` for a synthetic {engine.name} game.
[workspace]
store = "{(folder / 'store.sqlite').as_posix()}"

[sites.{SITE}]
engine = "{engine.name}"
base_url = "{base_url}"
timezone = "UTC"
language = "en"
request_interval = 0.0
retries = 1
timeout = 30.0

[games.{GAME_ID}]
site = "{SITE}"
thread = "{base_url}{engine.thread_path}"
ruleset = "mafia-majority"
timezone = "UTC"
gm = ["{GM}"]
seed = 11

{players}
[games.{GAME_ID}.schedule]
start = "{START.isoformat()}"
"""


def analysis_now(game: SynthGame) -> datetime:
    """The instant the recount is made for: just after the last post."""
    return game.end + timedelta(minutes=1)
