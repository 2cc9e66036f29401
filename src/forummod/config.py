"""The config file (TOML) as frozen dataclasses, checked as a whole before anything runs.

Layout: `[workspace]`, `[sites.<name>]` (one per forum), `[games.<id>]` (one per game, with
players, setup, schedule, phase pins, vote syntax, checks and publish policy). Ruleset options
live in `[games.<id>.options]` and are checked by the ruleset itself. Every field's `doc` is the
comment `config.example.toml` shows; `tests/test_config_example.py` keeps the two in sync.
"""

from __future__ import annotations

import re
import tomllib
import types
from collections import Counter
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Mapping
from zoneinfo import ZoneInfo


from forummod.errors import ConfigError
from forummod.model import PlayerSlot, Replacement, Roster
from forummod.records import frozen
from forummod import config_checks as check
from forummod.schema import ClockOrDuration, Duration, SettingError, convert, load, parse_timezone, setting

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
Markup = Literal["bbcode", "markdown"]
Language = Literal["en", "it", "ru", "nl", "zh"]
EditPolicy = Literal["latest", "original", "void"]
VoteForm = Literal["bold", "tag", "hash", "plain", "pm", "mafiascum", "mafiauniverse", "teamliquid"]  # forms, presets
DraftKind = Literal[
    "votecount", "day_start", "day_end", "role_pm", "night_result", "warnings", "prod", "game_over"
]


@frozen(kw_only=True)
class WorkspaceConfig:
    """The [workspace] table: where the store, custom adapters and templates live."""

    store: Path | None = setting(None, "SQLite store file, in a folder you can write (not /proc, /sys or /dev); empty = <config name>.sqlite beside the config file (one store per game folder)")
    adapters_dir: Path | None = setting(None, "folder of your own adapter profiles (*.toml), which must exist; they override the bundled ones")
    templates_dir: Path | None = setting(None, "folder (which must exist) of your own Jinja templates (<kind>/<markup>.j2, or <kind>/<markup>.<lang>.j2 for one language) and phrases/*.toml rewordings; they override the bundled ones")
    lock_stale_after: Duration = setting(Duration(3600), "a run lock older than this is taken as left by a killed run and recovered")
    lock_wait: Duration = setting(Duration(30), "a command that finds the workspace busy (the daemon's pass, another command at work) waits up to this long for it before saying who holds it; 'tick' never waits (cron tries again)")

    def store_path(self) -> Path:
        if self.store is not None:
            return self.store
        from forummod.store_location import legacy_store_path

        return legacy_store_path()  # a config parsed from text, with no file to put the store beside


@frozen(kw_only=True)
class SiteConfig:
    """One [sites.<name>] table: a forum, its engine profile and the GM's account there."""

    engine: str = setting(doc="forum engine profile: phpbb, vbulletin, xenforo, discourse, smf, invision, mybb, forumfree, discuz, flaskbb, spirit, archive, or 'auto'", required=True)
    base_url: str = setting("", "forum root URL, e.g. https://forum.example.org/, without user name or password (not needed for engine 'archive')")
    timezone: str = setting("UTC", "timezone in which the forum shows times to the GM's account")
    language: Language = setting("en", "language of the forum's date words ('Today', 'Oggi', 'Сегодня', 'Vandaag', '今天')")
    username: str = setting("", "the GM's forum account name (for login, inbox and publishing)")
    password_env: str = setting("", "name of the environment variable holding the password (never the password itself)")
    api_key_env: str = setting("", "name of the environment variable holding an API key (Discourse), instead of a password")
    use_keyring: bool = setting(False, "read the password from the OS keyring (service 'forummod', this site's name) when the variable is unset")
    request_interval: float = setting(2.0, "minimum seconds between two requests to this site; at least 0.5, except for a forum on this machine (localhost, 127.0.0.1, ::1)")
    flood_interval: float | None = setting(None, "minimum seconds between two posts or PMs of the GM's account (a batch of role PMs waits this long between PMs); empty = the engine profile's (phpBB 15, MyBB 61, SMF 5), 0 = none (an account the forum exempts, e.g. a moderator)")
    hourly_budget: int = setting(0, "maximum requests per hour to this site across all games; 0 = no cap")
    timeout: float = setting(30.0, "seconds to wait for a connection or a response")
    retries: int = setting(4, "retries of an idempotent request after a network error, 429 or 5xx: 0 to 10 (the waits double up to a minute)")
    user_agent: str = setting("", "User-Agent header, on one line; empty = 'forummod/<version> (+https://example.invalid/forummod)'")
    posts_file: Path | None = setting(None, "engine 'archive': JSONL file of posts (see README, 'Archive files')")
    messages_file: Path | None = setting(None, "engine 'archive': JSONL file of private messages to the GM")
    max_post_chars: int = setting(0, "longest post this forum accepts, in characters; 0 = the engine profile's default (longer drafts are split into parts)")
    max_pm_chars: int = setting(0, "longest private message this forum accepts; 0 = the engine profile's default")
    inbox_max_pages: int = setting(20, "most inbox pages one poll reads (a loop guard; a poll that reaches it says so and the next poll reads on)")
    recheck_minutes: int = setting(60, "every this many minutes a poll also re-reads the recent pages it has moved past, for edits made there (0 = never; 'forummod poll --recheck' does it now)")
    recheck_hours: float = setting(72.0, "the pages re-read for edits are those holding posts of the last this many hours")
    recheck_max_pages: int = setting(6, "most earlier pages one re-read for edits fetches (the newest of them)")

    def __post_init__(self) -> None:
        if self.inbox_max_pages < 1:
            raise SettingError("inbox_max_pages", f"{self.inbox_max_pages}: must be at least 1 (the default is 20)")
        for key in ("recheck_minutes", "recheck_hours", "recheck_max_pages", "hourly_budget"):
            if getattr(self, key) < 0:
                raise SettingError(key, f"{getattr(self, key)}: must not be negative")
        for key in ("max_post_chars", "max_pm_chars"):
            if getattr(self, key) < 0:
                raise SettingError(key, f"{getattr(self, key)}: must not be negative (0 = the engine's default)")
        if self.flood_interval is not None and self.flood_interval < 0:
            raise SettingError("flood_interval", f"{self.flood_interval:g}: must not be negative (0 = no wait between two posts)")
        if self.request_interval < 0:
            raise SettingError("request_interval", f"{self.request_interval:g}: must not be negative; give the "
                                                   "seconds between two requests, e.g. 2.0 (the default)")
        if self.timeout <= 0:
            raise SettingError("timeout", f"{self.timeout:g}: must be more than 0 seconds, e.g. 30.0 (the default)")
        check.retries_in_range(self.retries)
        check.no_credentials("base_url", self.base_url, "username")
        check.one_line("user_agent", self.user_agent, "a line break would split the HTTP header; write the "
                                                      "User-Agent on one line, or leave it empty for forummod's own")
        check.one_line("username", self.username, "write the GM's account name on one line, as the forum shows it")
        for key in ("password_env", "api_key_env"):
            # a secret pasted here instead of a variable's name must not be echoed back
            if getattr(self, key) and not _ENV_NAME.fullmatch(getattr(self, key)):
                raise SettingError(key, f"{key} must be the name of an environment variable (e.g. FORUM_PASSWORD) "
                                        "that holds the secret, not the secret itself")

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


@frozen(kw_only=True)
class ReplacementConfig:
    """A former occupant of a seat, so their earlier posts count for it."""

    name: str = setting(doc="forum name of the player who was replaced", required=True)
    at: datetime | None = setting(None, "when the replacement took over (ISO 8601 with offset)")
    at_post: int | None = setting(None, "or: the first game-thread post number of the replacement")

    def __post_init__(self) -> None:
        check.one_line("name", self.name, "a forum name is one line; write it as the forum shows it")


@frozen(kw_only=True)
class PlayerConfig:
    """One player of a game: forum name, aliases, replacements and secret role."""

    name: str = setting(doc="the player's forum name (the current occupant of the seat)", required=True)
    aliases: tuple[str, ...] = setting((), "other names players use for them (nicknames, short forms)")
    replaces: tuple[ReplacementConfig, ...] = setting((), "players this seat replaced, oldest first")
    role: str = setting("", "secret role (ruleset role id); empty = dealt by setup or given in roles_file")
    building: str = setting("", "village only: building code (farm, church, ...) or empty for a Vagabond")
    votes: int = setting(1, "mafia-majority only: how many votes this seat casts (2 = a double voter, 0 = may not vote); a replacement keeps it")
    user_id: str = setting("", "forum user id, when names can change")

    def __post_init__(self) -> None:
        check.one_line("name", self.name, "a forum name is one line; write it as the forum shows it")
        for i, alias in enumerate(self.aliases):
            check.one_line(f"aliases[{i}]", alias, "an alias is a name players write on one line")


@frozen(kw_only=True)
class SetupConfig:
    """How roles are dealt when the players list does not give them all."""

    roles: Mapping[str, int] = setting(types.MappingProxyType({}), "role id -> count for a random deal; empty = roles come from the players or roles_file")
    deal: Literal["config", "random"] = setting("config", "'config' = roles as written; 'random' = deal `roles` with the game's seed")
    buildings: Mapping[str, int] = setting(types.MappingProxyType({}), "village only: building code -> count for a random draw")
    centre: tuple[str, ...] = setting((), "one-night only: the three centre cards (Links, Midden, Rechts) when the GM deals by hand")


@frozen(kw_only=True)
class ScheduleConfig:
    """The game's clock: start, phase lengths and deadlines, unless the ruleset's defaults fit."""

    start: datetime | None = setting(None, "game start (the GM's opening post), ISO 8601 with offset; empty = first game-thread post")
    first_phase: Literal["", "night", "day"] = setting("", "phase the game opens with; empty = the ruleset's default")
    vote_close: str = setting("", "when a day's vote closes: clock time '22:00' or offset from the day's start '48h'; empty = ruleset default")
    day_end: str = setting("", "when a day ends: clock time or offset from the day's start (an offset not shorter than vote_close's); empty = ruleset default")
    action_deadline: str = setting("", "when night actions are due: clock time or offset from the night's start; empty = ruleset default")
    night_end: str = setting("", "when a night ends and the next day starts (the dawn): clock time '09:00' or offset '24h' from the night's start (an offset not shorter than action_deadline's); empty = ruleset default")
    reminder_before: Duration = setting(Duration(3600), "remind about a deadline this long before it")

    def __post_init__(self) -> None:
        for key in ("vote_close", "day_end", "action_deadline", "night_end"):
            v = getattr(self, key)
            if v:
                try:
                    ClockOrDuration.parse(v)
                except ValueError as e:
                    raise SettingError(key, str(e)) from None


@frozen(kw_only=True)
class PhasePin:
    """A phase boundary the GM fixes by hand where the schedule does not match what happened."""

    name: str = setting(doc="phase name: 'D1', 'N2', ... ('Day 1' and 'Night 2' also work)", required=True)
    start: datetime | None = setting(None, "when the phase started (ISO 8601)")
    start_post: int | None = setting(None, "or: game-thread post number that opened the phase")
    end: datetime | None = setting(None, "when the phase ended")
    end_post: int | None = setting(None, "or: game-thread post number that closed it (posts after it are outside)")
    vote_close: datetime | None = setting(None, "day only: when the vote closed, if not at the end")
    action_deadline: datetime | None = setting(None, "night only: when night actions were due, if not at the end")


@frozen(kw_only=True)
class VoteConfig:
    """Which vote forms count and how edits and fuzzy names are treated."""

    forms: tuple[VoteForm, ...] = setting((), "which vote forms count: bold (a bold 'VOTE: X'), tag ([vote]X[/vote]), hash (##vote X), plain (a vote phrase on its own line), pm (votes sent by PM), or a community's preset: mafiascum (bold, tag), mafiauniverse (hash, bold), teamliquid (bold, hash); empty = the ruleset's default: bold and tag (one-night adds pm: the PM is the vote, ON-V1)")
    edit_policy: EditPolicy = setting("latest", "an edited post's votes: 'latest' version, 'original' version, or 'void' (ignore them); always flagged")
    count_no_lynch: bool = setting(True, "accept votes for 'no lynch' where the ruleset has that option")
    fuzzy_margin: int = setting(10, "fuzzy name matching: the best match must beat the next by this many points (0-100)")
    fuzzy_cutoff: int = setting(80, "fuzzy name matching: minimum similarity (0-100) to consider a name")


@frozen(kw_only=True)
class ChecksConfig:
    """Tuning of the rule checks (activity blocks, prods, exemptions) for one game."""

    activity_blocks: bool | None = setting(None, "require a post in every block of block_hours; empty = the ruleset's default (on for one-night)")
    block_hours: int = setting(24, "length of an activity block in hours, counted from the phase start")
    block_phases: tuple[Literal["day", "night"], ...] = setting(("day",), "phases in which activity blocks apply")
    block_threads: tuple[str, ...] = setting(("game",), "threads whose posts count for activity: game, graveyard")
    exempt: tuple[str, ...] = setting((), "players exempt from activity checks")
    prod_after: Duration = setting(Duration(48 * 3600), "a living player silent this long goes on the prod list")
    verbatim_words: int = setting(12, "a post copying this many consecutive words of a GM PM is flagged (ON-D4)")
    prod_phases: tuple[Literal["day", "night"], ...] = setting(("day",), "phases during which silent players go on the prod list")
    disabled: tuple[str, ...] = setting((), "finding codes to leave out, e.g. ['activity_pending', 'edited_vote'] (codes: 'forummod check --help')")


@frozen(kw_only=True)
class PublishConfig:
    """What the tool may publish without a click, and how it marks its posts."""

    auto: tuple[DraftKind, ...] = setting((), "draft kinds published without the GM's click (e.g. ['votecount']); empty = never")
    marker: bool = setting(True, "add an invisible marker to each published post, used to find it again after a crash")
    pm_subject_prefix: str = setting("", "text put before the subject of every PM the tool sends, e.g. '[Lupus 12]'")


@frozen(kw_only=True)
class DraftsConfig:
    """What the drafted posts show beyond their defaults (issue 32)."""

    post_counts: bool = setting(False, "the vote count post lists each living player's posts in the day so far and in the game")


@frozen(kw_only=True)
class GmEventConfig:
    """A GM ruling written in the game's `events` list, replayed like a `gm` command."""

    kind: Literal["kill", "revive", "replace", "modkill", "lynch", "no_lynch", "set_role", "set_vote", "shoot",
                  "extend", "approve", "reject", "note", "state", "set_votes"] = setting(doc="what the GM did (approve/reject take a proposal key or phase; shoot: a Jager's shot the GM enters; state: a fact only the state knows, for a resumed game: see the ruleset's resumable keys; set_votes: mafia-majority, the player's votes from then on in value)", required=True)
    at: datetime | None = setting(None, "when (ISO 8601)")
    at_post: int | None = setting(None, "or: the game-thread post number it happened at")
    player: str = setting("", "the player concerned")
    target: str = setting("", "second player (replace: the new player's forum name)")
    role: str = setting("", "set_role: the role id")
    phase: str = setting("", "approve/extend: the phase, e.g. 'D2'; kill before a resume: the phase of the death")
    until: datetime | None = setting(None, "extend: the new deadline")
    note: str = setting("", "free text shown in the log")
    cause: str = setting("", "kill: the cause in the death list, e.g. 'night_kill' or 'endgame' (as 'gm kill --cause'); empty = 'gm'")
    key: str = setting("", "state: which resumable fact, e.g. 'sheriff' (village), 'recruitment_order' (witch-hunt)")
    value: str = setting("", "state: its value, e.g. 'used', 'N2', or names separated by commas; set_votes: the number of votes, e.g. '2'")


@frozen(kw_only=True)
class ResumeConfig:
    """Join a game already under way: the phase and post where counting starts."""

    phase: str = setting("", "join a game under way: the phase the tool takes over at, e.g. 'D3'; empty = from the start")
    from_post: int | None = setting(None, "the game-thread post number that opened that phase: counting starts there")
    at: datetime | None = setting(None, "or: when that phase started (ISO 8601), when no post number fits")


@frozen(kw_only=True)
class GameConfig:
    """One [games.<id>] table: threads, ruleset, players, schedule and options of a game."""

    site: str = setting(doc="name of a [sites.<name>] table", required=True)
    thread: str = setting(doc="the game thread: its URL on the site's forum, or the engine's thread id", required=True)
    ruleset: str = setting(doc="lupus-eresia, witch-hunt, one-night, village or mafia-majority", required=True)
    graveyard: str = setting("", "the graveyard/cemetery thread, if any (URL or id)")
    title: str = setting("", "game name shown in posts; empty = the game's id")
    language: Literal["", "en", "it", "ru", "nl", "zh", "de"] = setting("", "language of drafts and vote words; empty = the ruleset's language")
    markup: Markup = setting("bbcode", "markup of drafted posts: bbcode or markdown")
    timezone: str = setting("UTC", "the game's timezone (deadlines, activity blocks)")
    gm: tuple[str, ...] = setting((), "forum names of the moderators (their posts are not votes)")
    pm_tag: str = setting("", "a tag this game's PMs carry in their subject, e.g. '[Lupus 7]': ties a PM to this game when one account runs several; empty = by sender and time")
    active: bool = setting(True, "poll this game in tick/run")
    seed: int = setting(0, "random seed for deals and draws; 0 = choose one and record it in the log")
    roles_file: Path | None = setting(None, "TOML file mapping player name -> role, kept apart from this config")
    poll_interval: Duration = setting(Duration(600), "how often the daemon polls this game; at least 30s (a forum on this machine: any)")
    players: tuple[PlayerConfig, ...] = setting(doc="players in seat order (at least 2)", required=True)
    options: Mapping[str, Any] = setting(types.MappingProxyType({}), "ruleset options (see the ruleset's section of the README)")
    setup: SetupConfig = setting(SetupConfig(), "role counts and dealing")
    schedule: ScheduleConfig = setting(ScheduleConfig(), "deadlines")
    phases: tuple[PhasePin, ...] = setting((), "phase pins: exact starts/ends that override the schedule (archived games)")
    votes: VoteConfig = setting(VoteConfig(), "vote syntax and edits")
    checks: ChecksConfig = setting(ChecksConfig(), "moderation checks")
    publish: PublishConfig = setting(PublishConfig(), "publish policy")
    drafts: DraftsConfig = setting(DraftsConfig(), "what drafted posts show (post counts in the vote count)")
    events: tuple[GmEventConfig, ...] = setting((), "GM events to replay (kills, replacements, modkills) for archived games")
    resume: ResumeConfig = setting(ResumeConfig(), "join a game already under way (earlier history as [[events]])")

    def __post_init__(self) -> None:
        if not self.thread.strip():
            raise SettingError("thread", "is empty: give the game thread's address as the browser shows it "
                                         "(e.g. https://forum.example.org/viewtopic.php?t=123) or its number")
        for key in ("thread", "graveyard"):
            check.no_credentials(key, getattr(self, key), f"sites.{self.site}.username")
        for i, gm in enumerate(self.gm):
            check.one_line(f"gm[{i}]", gm, "a forum name is one line; write it as the forum shows it")

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def roster(self) -> Roster:
        return Roster(
            players=tuple(
                PlayerSlot(
                    name=p.name,
                    aliases=p.aliases,
                    replacements=tuple(Replacement(r.name, r.at, r.at_post) for r in p.replaces),
                    user_id=p.user_id or None,
                )
                for p in self.players
            ),
            gms=self.gm,
        )


@frozen(kw_only=True)
class AlertChannelConfig:
    """Where alerts go: a forum PM or an Apprise service, and whether it may see secrets."""

    kind: Literal["forum_pm", "apprise"] = setting(doc="'forum_pm': a PM on the game's forum to the GM (or alerts.pm_to); 'apprise': a notification service (Discord, Telegram, e-mail...) through Apprise", required=True)
    private: bool = setting(doc="true = only the GM reads this channel; false = secret roles and night actions are left out of what it gets", required=True)
    url_env: str = setting("", "apprise: name of the environment variable holding the Apprise URL (e.g. FORUMMOD_DISCORD_URL); never the URL itself")
    games: tuple[str, ...] = setting((), "only alerts of these games; empty = every game")

    def __post_init__(self) -> None:
        if self.kind == "apprise" and not _ENV_NAME.fullmatch(self.url_env):
            raise SettingError("url_env", "url_env must name the environment variable that holds the Apprise URL "
                                          "(e.g. FORUMMOD_DISCORD_URL), not the URL itself")
        if self.kind == "forum_pm" and self.url_env:
            raise SettingError("url_env", "url_env is for kind = 'apprise'; a forum PM goes through the game's site")


@frozen(kw_only=True)
class AlertsConfig:
    """Which alerts are raised, how early, and their channels."""

    deadline_warning: Duration = setting(Duration(7200), "warn this long before a vote closes or night actions are due, while votes or actions are missing")
    poll_failing: Duration = setting(Duration(1800), "alert when polling a game has failed for this long")
    disabled: tuple[str, ...] = setting((), "alert kinds to leave out: hammer, l_minus_1, proposal, deadline, pm_not_understood, poll_failing, "
                                        "posts_unread, poll_recovered")
    pm_to: str = setting("", "forum_pm channels: the forum account that gets the alert PMs; empty = the site's username (where a forum refuses a PM to oneself, name another account)")
    max_attempts: int = setting(10, "a failed send is retried at each pass, up to this many attempts")
    channels: Mapping[str, AlertChannelConfig] = setting(types.MappingProxyType({}), "where alerts go, by a name you choose; tick/run output always shows them")

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise SettingError("max_attempts", f"{self.max_attempts}: must be at least 1 (the default is 10)")
        check.one_line("pm_to", self.pm_to, "a forum name is one line; write it as the forum shows it")


@frozen(kw_only=True)
class Config:
    """A whole parsed config file: workspace, sites, games and alerts."""

    workspace: WorkspaceConfig = setting(WorkspaceConfig(), "where forummod keeps its data")
    sites: Mapping[str, SiteConfig] = setting(types.MappingProxyType({}), "forums, by a name you choose")
    games: Mapping[str, GameConfig] = setting(types.MappingProxyType({}), "games, by an id you choose")
    alerts: AlertsConfig = setting(AlertsConfig(), "alerts to the GM: what, how early, and on which channels")
    source: Path | None = setting(None, "(set by the loader) the file this config came from", internal=True)
    store_note: str = setting("", "(set by the loader) why the store is not the default one beside the config", internal=True)

    def game(self, game_id: str) -> GameConfig:
        try:
            return self.games[game_id]
        except KeyError:
            from forummod.schema import _did_you_mean

            raise ConfigError(f"games.{game_id}", "no such game" + _did_you_mean(game_id, self.games)) from None

    def site_of(self, game_id: str) -> SiteConfig:
        return self.sites[self.game(game_id).site]


# --------------------------------------------------------------------------- loading


def load_config(path: Path) -> Config:
    """Read, parse and validate a config file; raise ConfigError naming the first problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("", f"config file not found: {path} (create one with 'forummod init')") from None
    except UnicodeDecodeError as e:
        raise ConfigError("", f"not UTF-8 text ({e})", file=str(path)) from None
    return parse_config(text, source=path)


def parse_config(text: str, source: Path | None = None) -> Config:
    file = str(source) if source else None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("", f"not valid TOML: {e}", file=file) from None
    for internal in ("source", "store_note"):
        if internal in data:
            raise ConfigError(internal, "unknown key", file=file)
    if not data.get("sites") and not data.get("games"):  # an empty file, or one with only [workspace]
        raise ConfigError("", "the config has no [sites] and no [games]: a forum and a game to run are needed; "
                              "see config.example.toml (every setting), or write a starter with 'forummod init'",
                          file=file)
    if not data.get("games"):
        raise ConfigError("games", "no game: add a [games.<id>] table with the site, thread, ruleset and players "
                                   "(see config.example.toml, or 'forummod init')", file=file)
    try:
        cfg = load(Config, data)
        cfg = replace(cfg, source=source)
        base = source.parent if source else Path.cwd()
        cfg = _resolve_paths(cfg, base)
        validate(cfg)
        cfg = _default_store(cfg)
        check.store_path_usable(cfg.workspace.store_path())
    except ConfigError as e:
        if e.file is None and file is not None:
            raise ConfigError(e.path, e.message, file=file) from None
        raise
    return cfg


def _resolve_paths(cfg: Config, base: Path) -> Config:
    """Relative file paths in the config are relative to the config file, not the cwd."""

    def fix(p: Path | None) -> Path | None:
        return p if p is None or p.is_absolute() else (base / p)

    ws = replace(cfg.workspace, store=fix(cfg.workspace.store), adapters_dir=fix(cfg.workspace.adapters_dir),
                 templates_dir=fix(cfg.workspace.templates_dir))
    sites = {n: replace(s, posts_file=fix(s.posts_file), messages_file=fix(s.messages_file)) for n, s in cfg.sites.items()}
    games = {g: replace(c, roles_file=fix(c.roles_file)) for g, c in cfg.games.items()}
    return replace(cfg, workspace=ws, sites=types.MappingProxyType(sites), games=types.MappingProxyType(games))


def _default_store(cfg: Config) -> Config:
    """An empty `workspace.store` means the file beside the config (or the old shared store while
    it still holds this config's game: see `forummod.store_location`)."""
    if cfg.workspace.store is not None or cfg.source is None:
        return cfg
    from forummod.store_location import choose_store

    choice = choose_store(cfg.source, cfg.games)
    return replace(cfg, workspace=replace(cfg.workspace, store=choice.path), store_note=choice.note)


def validate(cfg: Config) -> None:
    """Cross-key checks that single fields cannot express."""
    from forummod.engine.registry import is_ruleset, ruleset_names, load_ruleset_options

    check.folders_exist(cfg.workspace.adapters_dir, cfg.workspace.templates_dir)  # before engines are looked up there
    for name, site in cfg.sites.items():
        p = f"sites.{name}"
        try:
            parse_timezone(site.timezone)
        except ValueError as e:
            raise ConfigError(f"{p}.timezone", str(e)) from None
        if site.engine == "archive":
            if site.posts_file is None:
                raise ConfigError(f"{p}.posts_file", "engine 'archive' needs posts_file")
        else:
            check.base_url_usable(f"{p}.base_url", site.base_url, site.engine)
            check.pace_polite(f"{p}.request_interval", site.base_url, site.request_interval)
        if site.engine in ("archive", "auto"):
            continue
        from forummod.forum_engines import is_known_engine, known_engines

        if not is_known_engine(site.engine, cfg.workspace.adapters_dir):
            from forummod.schema import _did_you_mean

            engines = known_engines(cfg.workspace.adapters_dir)

            raise ConfigError(f"{p}.engine", f"unknown engine {site.engine!r}" + _did_you_mean(site.engine, engines)
                              + f" (known: {', '.join(sorted(engines))})")

    for gid, game in cfg.games.items():
        p = f"games.{gid}"
        if game.site not in cfg.sites:
            from forummod.schema import _did_you_mean

            raise ConfigError(f"{p}.site", f"no [sites.{game.site}] table" + _did_you_mean(game.site, cfg.sites))
        try:
            parse_timezone(game.timezone)
        except ValueError as e:
            raise ConfigError(f"{p}.timezone", str(e)) from None
        if not is_ruleset(game.ruleset):  # imports only that ruleset (a cron tally imports no other)
            from forummod.schema import _did_you_mean

            raise ConfigError(f"{p}.ruleset", f"unknown ruleset {game.ruleset!r}" + _did_you_mean(game.ruleset, ruleset_names())
                              + f" (known: {', '.join(ruleset_names())})")
        _validate_thread_refs(game, cfg.sites[game.site], p, cfg)
        _validate_players(game, p)
        options = load_ruleset_options(game.ruleset, game.options, f"{p}.options")
        check.schedule_consistent(f"{p}.schedule", game.ruleset, options, {
            k: getattr(game.schedule, k) for k in ("vote_close", "day_end", "action_deadline", "night_end")})
        _validate_votes(game, p)
        _validate_roles(game, p, cfg)
        _validate_resume(game, p)
    _validate_alerts(cfg)


def _validate_alerts(cfg: Config) -> None:
    """Alert kinds and channel games must exist (issue 15: alerts reach the GM)."""
    from forummod.schema import _did_you_mean

    if cfg.alerts.disabled:  # the alerts package only when there are kinds to check (not on every cron tally)
        from forummod.alerts.decide import ALERT_KINDS
    for i, kind in enumerate(cfg.alerts.disabled):
        if kind not in ALERT_KINDS:
            raise ConfigError(f"alerts.disabled[{i}]", f"unknown alert kind {kind!r}" + _did_you_mean(kind, ALERT_KINDS)
                              + f" (kinds: {', '.join(ALERT_KINDS)})")
    for name, ch in cfg.alerts.channels.items():
        for gid in ch.games:
            if gid not in cfg.games:
                raise ConfigError(f"alerts.channels.{name}.games", f"no game {gid!r}" + _did_you_mean(gid, cfg.games)
                                  + f" (games: {', '.join(cfg.games) or 'none'})")


def config_warnings(cfg: Config) -> list[str]:
    """What is allowed but probably wrong: shown by the commands that load the config, never an error.

    A game whose `markup` is not what its engine renders would publish raw tags (BBCode
    on a Markdown forum shows `[b]` and the marker as text)."""
    from forummod.forum_engines import engine_markups

    out = []
    markups = None
    for gid, game in cfg.games.items():
        site = cfg.sites.get(game.site)
        if site is None or site.engine in ("archive", "auto"):
            continue
        markups = markups if markups is not None else engine_markups(cfg.workspace.adapters_dir)
        engine = markups.get(site.engine, "")
        if engine and engine != game.markup:
            out.append(f"games.{gid}.markup is {game.markup!r} but sites.{game.site}.engine {site.engine!r} renders "
                       f"{engine}: its drafts would show raw markup on the forum; set markup = \"{engine}\"")
    return out


def _validate_resume(game: GameConfig, p: str) -> None:
    """[resume] names a phase and where it opened (issue 14: joining a game under way)."""
    from forummod.engine.types import PhaseId

    r = game.resume
    if not r.phase:
        if r.from_post is not None or r.at is not None:
            raise ConfigError(f"{p}.resume.phase", "set the phase to take over at, e.g. phase = \"D3\"")
        return
    try:
        PhaseId.parse(r.phase)
    except ValueError:
        raise ConfigError(f"{p}.resume.phase", f"{r.phase!r} is not a phase name: use e.g. 'D3' or 'N2'") from None
    if r.from_post is None and r.at is None:
        raise ConfigError(f"{p}.resume.from_post", "give the post that opened the phase (from_post = 412) or its time (at)")


def _validate_thread_refs(game: GameConfig, site: SiteConfig, p: str, cfg: Config) -> None:
    """On a web forum a thread is its URL (http/https, on some host) or the engine's numeric
    id; anything else ("topic one") would be fetched as a path and fail as a 404 at every poll.
    An archive names its threads freely."""
    if site.engine == "archive":
        return
    from urllib.parse import urljoin, urlsplit

    check.poll_interval_long_enough(f"{p}.poll_interval", game.poll_interval, site.base_url)
    for key in ("thread", "graveyard"):
        value = getattr(game, key).strip()
        if not value or value.isdigit():
            continue
        parts = urlsplit(value)
        absolute = parts.scheme in ("http", "https") and bool(parts.netloc)
        ok = not any(ch.isspace() for ch in value) and (absolute or (not parts.scheme and _engine_knows(
            site.engine, urljoin(site.base_url, value), cfg)))
        if not ok:
            example = (site.base_url.rstrip("/") + "/...") if site.base_url else "https://forum.example/..."
            raise ConfigError(f"{p}.{key}", f"{value!r} is not a thread URL or id: give the thread's address as the "
                              f"browser shows it (e.g. {example}) or its number")
        if absolute and site.base_url:
            check.thread_on_site(f"{p}.{key}", value, site.base_url, game.site)


def _engine_knows(engine: str, url: str, cfg: Config) -> bool:
    """A relative thread reference is accepted when the engine's profile reads it as a thread."""
    from forummod.forum_engines import engine_reads_thread

    return engine_reads_thread(engine, url, cfg.workspace.adapters_dir)


def _validate_votes(game: GameConfig, p: str) -> None:
    """`players[].votes`: 0 or more, and only where the ruleset counts a seat's own votes."""
    from forummod.engine.registry import get_ruleset_class

    for i, pl in enumerate(game.players):
        if pl.votes < 0:
            raise ConfigError(f"{p}.players[{i}].votes", f"{pl.votes} votes: give 0 (may not vote), 1 or more")
        if pl.votes != 1 and not get_ruleset_class(game.ruleset).seat_votes:
            raise ConfigError(f"{p}.players[{i}].votes", f"{game.ruleset} has no per-seat votes (its roles carry "
                                                         "their weights); only mafia-majority counts them")
    for i, ev in enumerate(game.events):
        if ev.kind != "set_votes":
            continue
        if not get_ruleset_class(game.ruleset).seat_votes:
            raise ConfigError(f"{p}.events[{i}].kind", f"{game.ruleset} has no per-seat votes; only mafia-majority counts them")
        if not ev.value.strip().isdigit():
            raise ConfigError(f"{p}.events[{i}].value", f"set_votes needs the number of votes (0, 1, 2, ...), not {ev.value!r}")


def _validate_players(game: GameConfig, p: str) -> None:
    check.enough_players(f"{p}.players", len(game.players), game.ruleset)
    seen: dict[str, str] = {}
    for i, pl in enumerate(game.players):
        for acc in (pl.name, *(r.name for r in pl.replaces)):
            key = acc.casefold().strip()
            if not key:
                raise ConfigError(f"{p}.players[{i}].name", "empty player name")
            if key in seen:
                raise ConfigError(f"{p}.players[{i}]", f"player {acc!r} is listed twice (also {seen[key]})")
            seen[key] = f"players[{i}]"
    names = {pl.name.casefold(): pl.name for pl in game.players}
    alias_owner: dict[str, str] = {}
    for i, pl in enumerate(game.players):
        for a in pl.aliases:
            key = a.casefold().strip()
            if key in names and names[key] != pl.name:
                raise ConfigError(f"{p}.players[{i}].aliases", f"alias {a!r} of {pl.name!r} is another player's name")
            if key in alias_owner and alias_owner[key] != pl.name:
                raise ConfigError(f"{p}.players[{i}].aliases",
                                  f"alias {a!r} matches two players: {alias_owner[key]!r} and {pl.name!r}")
            alias_owner[key] = pl.name
    for gm in game.gm:
        if gm.casefold() in names:
            raise ConfigError(f"{p}.gm", f"{gm!r} is both a moderator and a player")


def load_roles_file(path: Path) -> dict[str, str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError("roles_file", f"roles file not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("roles_file", f"{path}: not valid TOML: {e}") from None
    roles = data.get("roles", data)
    if not isinstance(roles, dict) or not all(isinstance(v, str) for v in roles.values()):
        raise ConfigError("roles_file", f"{path}: expected 'player = \"role\"' lines (optionally under [roles])")
    return dict(roles)


def configured_roles(game: GameConfig) -> dict[str, str]:
    """Player -> role from the players list and the roles file (the file wins)."""
    roles = {pl.name: pl.role for pl in game.players if pl.role}
    if game.roles_file is not None:
        roles.update(load_roles_file(game.roles_file))
    return roles


def _validate_roles(game: GameConfig, p: str, cfg: Config) -> None:
    from forummod.engine.registry import get_ruleset_class
    from forummod.schema import _did_you_mean

    rs = get_ruleset_class(game.ruleset)
    valid = rs.role_ids()
    written = configured_roles(game)
    players = {pl.name for pl in game.players}
    # a role as the rules or the examples write it: 'guardia_gemella', 'lupo mannaro', 'Lupo Mannaro'
    roles = {player: rs.canonical_role(role) for player, role in written.items()}
    for player, role in written.items():
        if player not in players:
            raise ConfigError(f"{p}.roles_file", f"{player!r} is not a player of this game" + _did_you_mean(player, players))
        if roles[player] not in valid:
            raise ConfigError(f"{p}.players.{player}.role", f"unknown role {role!r} for {game.ruleset}" + _did_you_mean(role, valid)
                              + f" (roles: {', '.join(sorted(valid))})")
    for role in game.setup.roles:
        if rs.canonical_role(role) not in valid:
            raise ConfigError(f"{p}.setup.roles.{role}", f"unknown role for {game.ruleset}" + _did_you_mean(role, valid))
    if game.setup.deal == "random":
        total = sum(game.setup.roles.values())
        need = rs.cards_needed(len(game.players), game.options)
        if total != need:
            raise ConfigError(f"{p}.setup.roles",
                              f"role counts add up to {total} but {len(game.players)} players need {need} cards")
    elif game.setup.roles:
        counts = Counter(roles.values())
        for role, n in game.setup.roles.items():
            have = counts.get(rs.canonical_role(role), 0)
            if have != n:
                raise ConfigError(f"{p}.setup.roles.{role}",
                                  f"setup says {n} but the players' roles give {have}")
    problem = rs.check_setup(game, roles)
    if problem:
        raise ConfigError(f"{p}.{problem[0]}", problem[1])


def convert_value(tp: Any, value: Any, path: str) -> Any:
    """Re-exported for rulesets that load nested option tables."""
    return convert(tp, value, path)
