"""forummod: counts votes, checks rules and drafts moderator posts for forum Werewolf/Mafia games."""

__version__ = "0.1.0"
