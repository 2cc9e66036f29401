"""`village`: Werewolves of Millers Hollow with The Village expansion (shared/rules/village.md)."""

from .game import Village
from .options import VillageOptions

__all__ = ["Village", "VillageOptions"]
