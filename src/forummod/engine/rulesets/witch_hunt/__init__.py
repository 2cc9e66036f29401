"""`witch-hunt` («Охота на ведьм»): see `ruleset.py` and ../shared/rules/witch-hunt.md."""

from forummod.engine.rulesets.witch_hunt.options import WitchHuntOptions
from forummod.engine.rulesets.witch_hunt.ruleset import WitchHunt

__all__ = ["WitchHunt", "WitchHuntOptions"]
