"""Whole live games of the five rulesets on real local forums (issue 28, "Done means").

Each game is played on a seeded engine as it would be on a real board: the players write their
votes in the game thread and send their night actions and PM votes to the GM through the
engine's own forms (HTTP, logged in), and the GM's desk drives forummod through its CLI
(`poll`, `tally`, `status --json`, `check`, `gm replace / extend / undo / end / approve`,
`draft`, `publish`) with a config this module writes: the game in the seeded game thread, and a
second game (mafia-majority, other accounts, the cemetery thread) on the same site and GM
account. Every game has

* a hammer (mafia-majority) or a deadline (the GM closes the day with `gm end`: nothing sleeps),
* a replacement, after which the player who left votes again: it must count for nobody,
* an extension and an undo, each checked by what it changes,
* a PM sent before the game's start (listed once as `pm_before_start`, never an action),
* a PM of the second game: never this game's action, no finding here, the other game's action,
* the GM's published dawn, day-end and game-over posts read back from the forum's own thread
  pages over HTTP and checked against the rules: who died, the count, the winners, no smiley
  image, no correction drafted by an undo that changed nothing they stated.

| engine | ruleset | end of the deciding day |
|---|---|---|
| phpBB | mafia-majority (two days, a night between) | hammer |
| phpBB | lupus-eresia (night 1, day 1; in a zone where it is 10:00) | `gm end D1` |
| MyBB | witch-hunt (night 1, day 1) | `gm end D1` |
| MyBB | village (night 1 and its waves, day 1) | `gm end D1` |
| SMF | one-night (the night, the day of PM votes) | `gm end D1` |

Expected values come from the rules files (../shared/rules/*.md) and the moves below, never
from forummod's own output. Time: the game's start is set half an hour before the test runs
(Lupus: 20:00 yesterday in its zone). The engines stamp PMs (and MyBB its posts) to the minute,
while a test night lasts seconds: a PM sent "before the game" is sent through the form and then
dated an hour before the start in the forum's database, a night's PMs on MyBB and SMF are dated
ten minutes into the night the same way, and the GM's phase moves that a minute stamp could tie
with (`gm end N1`, a replacement by time) are given on a whole minute (`--at`).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests

from .base import ForumPost, RealForum
from .gm_desk import PASSWORD_ENV, CliResult, GMDesk

pytestmark = pytest.mark.realforum

UTC = timezone.utc
H = timedelta(hours=1)
M = timedelta(minutes=1)
GAME = "g"
OTHER = "other"
#: the accounts of the second game on the same GM account (cemetery thread)
OTHER_PLAYERS = ("Gina", "Ugo", "Lia", "Zeno")
#: of a flood wait forummod asks for, the part really slept (see `flood_waits`)
REAL_WAIT = 3.1


def iso(t: datetime) -> str:
    return t.isoformat()


# --------------------------------------------------------------------------- the forum side


def backdate_pm(forum: RealForum, pm_id: int, to: datetime) -> None:
    """Date a PM already sent (its id as `send_pm` returned it) at `to`, in every mailbox."""
    ts = int(to.timestamp())
    if forum.engine == "phpbb":
        forum.execute("UPDATE phpbb_privmsgs SET message_time = ? WHERE msg_id = ?", (ts, pm_id))
    elif forum.engine == "mybb":
        (row,) = forum.query("SELECT dateline, fromid, subject FROM mybb_privatemessages WHERE pmid = ?", (pm_id,))
        forum.execute("UPDATE mybb_privatemessages SET dateline = ? WHERE dateline = ? AND fromid = ? AND subject = ?",
                      (ts, *row))  # the sender's copy and the recipient's
    elif forum.engine == "smf":
        forum.execute("UPDATE smf_personal_messages SET msgtime = ? WHERE id_pm = ?", (ts, pm_id))
    else:  # pragma: no cover - the games run on the PHP engines
        raise NotImplementedError(forum.engine)


@dataclass
class Table:
    """The players at the forum: one logged-in session each (logins are slow on SMF and phpBB)."""

    forum: RealForum
    sessions: dict[str, requests.Session] = field(default_factory=dict)

    def session(self, name: str) -> requests.Session:
        if name not in self.sessions:
            self.sessions[name] = self.forum.login(name)
        return self.sessions[name]

    def post(self, name: str, text: str) -> int:
        """`name` replies in the game thread; the post's number in the thread."""
        pid = self.forum.reply(name, text, session=self.session(name))
        return self.number_of(pid)

    def number_of(self, pid: int) -> int:
        ids = [p.id for p in self.forum.db_posts("game")]
        return ids.index(pid) + 1

    def pm(self, sender: str, subject: str, text: str) -> int:
        return self.forum.send_pm(sender, self.forum.gm.name, subject, text, session=self.session(sender))

    def night_pm(self, sender: str, subject: str, text: str, at: datetime) -> int:
        """A night action sent through the form, dated `at` (in the night): the engines stamp PMs
        to the minute, and a night compressed into seconds would share its minute with the next
        day's first posts."""
        pid = self.pm(sender, subject, text)
        backdate_pm(self.forum, pid, at)
        return pid

    def thread(self) -> list[ForumPost]:
        """Every post after the seed as the players see it: the thread's own pages over HTTP."""
        n = len(self.forum.db_posts("game"))
        per = self.forum.script.per_page
        first = len(self.forum.seeded_posts("game")) // per + 1
        s = self.forum.session()
        seeded = {p.id for p in self.forum.seeded_posts("game")}
        shown: dict[int, ForumPost] = {}
        for page in range(first, math.ceil(n / per) + 1):
            for p in self.forum.http_posts(page, session=s):
                shown[p.id] = p
        return [p for p in shown.values() if p.id not in seeded]


# --------------------------------------------------------------------------- the GM's desk


@dataclass
class Game:
    """One game on one engine: the forum, the players' table and the GM's desk (a config with
    this game and a second game on the same site and account)."""

    forum: RealForum
    folder: Path
    ruleset: str
    players: list[dict[str, Any]]
    start: datetime
    timezone: str = "UTC"
    language: str = "en"
    extra: str = ""
    other_ruleset: str = "mafia-majority"
    table: Table = field(init=False)
    desk: GMDesk = field(init=False)

    def __post_init__(self) -> None:
        self.table = Table(self.forum)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.desk = GMDesk(self.forum, self.folder)
        self.desk.config_path.write_text(self.config(), encoding="utf-8")

    def config(self) -> str:
        f, q = self.forum, json.dumps
        lines = [
            "[workspace]", f"store = {q(str(self.desk.store_path))}", "",
            "[sites.forum]", f"engine = {q(f.engine)}", f"base_url = {q(f.base_url)}",
            f"timezone = {q(f.page_timezone)}", f"language = {q(f.page_language)}",
            f"username = {q(f.gm.login)}", f"password_env = {q(PASSWORD_ENV)}",
            "request_interval = 0.0", "retries = 1", "timeout = 20.0", "",
            f"[games.{GAME}]", 'site = "forum"', f"thread = {q(f.thread_url())}", f"ruleset = {q(self.ruleset)}",
            f"language = {q(self.language)}", f"markup = {q(f.markup)}", f"timezone = {q(self.timezone)}",
            f"gm = [{q(f.gm.name)}]", "seed = 7", "",
        ]
        for p in self.players:
            lines += [f"[[games.{GAME}.players]]"] + [f"{k} = {q(v)}" for k, v in p.items()] + [""]
        lines += [f"[games.{GAME}.schedule]", f"start = {q(iso(self.start))}", "", self.extra, ""]
        # the second game of the same GM account: other players, the cemetery thread
        lines += [f"[games.{OTHER}]", 'site = "forum"', f"thread = {q(f.graveyard_url())}",
                  f"ruleset = {q(self.other_ruleset)}", f"gm = [{q(f.gm.name)}]", "seed = 3",
                  "players = [" + ", ".join(f"{{ name = {q(n)}, role = {q(r)} }}" for n, r in
                                            zip(OTHER_PLAYERS, ("mafia", "cop", "town", "town"))) + "]",
                  f"[games.{OTHER}.schedule]", f"start = {q(iso(self.start))}", ""]
        return "\n".join(lines)

    # ---- forummod, as the GM types it
    def cli(self, command: str, *args: str) -> CliResult:
        if command in ("poll", "publish", "discard"):
            return self.desk.cli(command, *args)
        return self.desk.cli(command, "--game", GAME, *args)

    def json(self, command: str, *args: str, ok: tuple[int, ...] = (0,)) -> Any:
        res = self.cli(command, "--json", *args)
        assert res.rc in ok, f"forummod {command} {' '.join(args)} -> {res.rc}\n{res.err}\n{res.out}"
        return json.loads(res.out)

    def poll(self) -> None:
        res = self.desk.cli("poll")
        assert res.rc == 0, res

    def gm(self, *args: str) -> dict:
        return self.json("gm", *args)

    def status(self, *args: str) -> dict:
        return self.json("status", *args)

    def tally(self, *args: str) -> dict:
        return self.json("tally", *args)

    def findings(self, *args: str) -> list[dict]:
        """Every current finding (`check --all`)."""
        return self.json("check", "--all", *args, ok=(0, 1))["findings"]

    def new_findings(self) -> list[dict]:
        """What a plain `check` lists: the findings not listed before."""
        return self.json("check", ok=(0, 1))["findings"]

    def actions_read(self, game: str = GAME) -> list[tuple[str, str, tuple[str, ...]]]:
        """(sender, verb, targets) of every PM or post forummod read as a night action of `game`."""
        from forummod.model import ActionIntent
        from forummod.service import analyse_game

        with self.desk.workspace() as ws:
            a = analyse_game(ws, game)
        return [(i.actor, i.action, tuple(i.targets)) for i in a.intents if isinstance(i, ActionIntent)]

    def event_id(self, summary_start: str) -> int:
        """The id of the newest GM event whose summary starts so (what `status` lists)."""
        events = [e for e in self.status()["gm_events"] if e["summary"].startswith(summary_start)]
        assert events, summary_start
        return events[-1]["id"]

    def approve(self, key: str) -> None:
        self.gm("approve", key)

    def publish(self, kind: str, *args: str) -> list[dict]:
        """Draft `kind` and publish every draft made; returns the publications."""
        made = self.json("draft", kind, *args)["drafts"]
        assert made, f"no {kind} draft"
        done = self.json("publish", *[str(d["id"]) for d in made])["publications"]
        assert [p["status"] for p in done] == ["sent"] * len(made), done
        return done

    def published_posts(self) -> dict[str, ForumPost]:
        """The GM's published posts by remote id, as the thread's pages show them."""
        return {str(p.id): p for p in self.table.thread() if p.author == self.forum.gm.name}


def text(post: ForumPost) -> str:
    """A post's text as read on its page, on one line (no space left before punctuation where a
    bold name ended)."""
    return re.sub(r" ([.,:!])", r"\1", " ".join(post.body.split()))


def no_smiley(post: ForumPost) -> None:
    """The forum showed the post as typed: no smiley image in place of "(8)" or "8)"."""
    assert not re.search(r"<img[^>]*(smil|emoji|icon_)", post.html, re.I), post.html


def voters_of(tally: dict, name: str) -> list[str]:
    return next(([v["voter"] for v in c["voters"]] for c in tally["tally"]["candidates"] if c["name"] == name), [])


def no_corrections(game: "Game") -> bool:
    return not [d for d in game.json("drafts")["drafts"] if d["slot"].endswith("correction")]


def early_pm(findings: list[dict], words: str) -> list[dict]:
    """The `pm_before_start` findings of the PM saying `words`."""
    return [f for f in findings if f["code"] == "pm_before_start" and words in (f["details"] or "") + f["message"]]


@pytest.fixture
def flood_waits(monkeypatch) -> list[float]:
    """The GM's writes wait the engine's flood interval through forummod's flood gate: the wait
    is recorded and at most REAL_WAIT of it slept (phpBB checks a form's age against its own
    clock; SMF keeps 2 s per IP for moderators, counted in whole seconds)."""
    import time

    from forummod.forum import write as forum_write

    forum_write.reset_flood_gates()
    waits: list[float] = []
    reserve = forum_write.FloodGate.reserve

    def short(self, interval, not_before, clock, sleep):
        def record(seconds: float) -> None:
            waits.append(seconds)
            time.sleep(min(seconds, REAL_WAIT))
        return reserve(self, interval, not_before, clock, record)

    monkeypatch.setattr(forum_write.FloodGate, "reserve", short)
    yield waits
    forum_write.reset_flood_gates()


def this_minute() -> datetime:
    return datetime.now(UTC).replace(second=0, microsecond=0)


@pytest.fixture
def start() -> datetime:
    """The games' start: half an hour ago, to the second."""
    return datetime.now(UTC).replace(microsecond=0) - 30 * M


# =========================================================================== mafia-majority (phpBB)


def test_mafia_majority_whole_game_on_phpbb(phpbb_fresh, tmp_path, start, flood_waits):
    """mafia-majority on phpBB: D1 ends at the hammer post (a majority of the living, half plus
    one: 4 of 6); the replaced player's later vote counts for nobody; the cop's check and the
    doctor's protection resolve N1 (the protected victim lives); D2's hammer lynches the last
    mafioso and town wins. The day-end, dawn and game-over posts are read back from phpBB."""
    forum = phpbb_fresh
    roles = {"Aldo": "mafia", "Bianca": "mafia", "Carlo": "cop", "Dora": "doctor", "Elio": "town", "Fede": "town"}
    g = Game(forum, tmp_path / "desk", "mafia-majority", [{"name": n, "role": r} for n, r in roles.items()], start)
    t = g.table

    # before the game: a sign-up PM that reads like an action
    early = t.pm("Carlo", "Iscrizione", "Ci sono! check Aldo")
    backdate_pm(forum, early, start - H)
    g.poll()
    assert len(early_pm(g.new_findings(), "Ci sono")) == 1
    # the GM extends D1 (72 h by default) to 96 h from the start, and takes back a kill typed by mistake
    g.gm("extend", "D1", "--until", iso(start + 96 * H))
    assert g.status()["phase_end_at"] == iso(start + 96 * H)
    g.gm("kill", "Fede")
    assert "Fede" not in g.status()["alive"]
    g.gm("undo", str(g.event_id("kill")))
    assert g.status()["alive"] == list(roles)

    # D1
    t.post("Carlo", "[b]vote: Aldo[/b]")
    t.post("Dora", "I agree. [b]vote: Aldo[/b]")
    elio = t.post("Elio", "[b]vote: Fede[/b]")
    g.poll()
    g.gm("replace", "Elio", "Marta", "--post", str(elio))
    t.post("Elio", "[b]vote: Aldo[/b]")  # Elio left: counts for nobody
    t.post("Fede", "[b]vote: Aldo[/b]")
    g.poll()
    count = g.tally()["tally"]
    aldo = next(c for c in count["candidates"] if c["name"] == "Aldo")
    assert aldo["total"] == 3 and [v["voter"] for v in aldo["voters"]] == ["Carlo", "Dora", "Fede"]
    (left,) = [f for f in g.findings() if f["code"] == "replaced_player_post"]
    assert left["message"].startswith("Elio was replaced by Marta") and left["source"]["number"] == elio + 1, left
    hammer = t.post("Marta", "Sorry I'm late, replacing Elio. [b]vote: Aldo[/b]")  # 4 of 6: majority
    late = t.post("Bianca", "[b]vote: Carlo[/b]")  # after the hammer: late
    g.poll()
    st = g.status()
    assert st["phase"] == "N1" and [p["key"] for p in st["pending"]] == ["lynch:D1"]
    assert [r["voter"] for r in g.tally("--at", str(late + 1))["rejected_votes"]] == ["Bianca"]
    g.approve("lynch:D1")
    (day1,) = g.publish("day_end", "--phase", "D1")

    # N1: the mafia kill the cop, the doctor protects him, the cop checks Bianca; Gina (other game) sends a kill
    t.pm("Bianca", "kill", "kill Carlo")
    t.pm("Dora", "protect", "protect Carlo")
    t.pm("Carlo", "check", "check Bianca")
    t.pm("Gina", "kill", "kill Ugo")  # Gina plays only in the other game
    g.poll()
    assert sorted(g.actions_read()) == [("Bianca", "kill", ("Carlo",)), ("Carlo", "check", ("Bianca",)),
                                        ("Dora", "protect", ("Carlo",))]
    assert ("Gina", "kill", ("Ugo",)) in g.actions_read(OTHER)
    g.gm("end", "N1")
    st = g.status()
    assert st["phase"] == "D2" and [p["key"] for p in st["pending"]] == ["night:N1"]
    g.approve("night:N1")
    st = g.status()
    assert st["alive"] == ["Bianca", "Carlo", "Dora", "Marta", "Fede"]
    assert [(d["player"], d["cause"]) for d in st["dead"]] == [("Aldo", "lynch")]
    (dawn,) = g.publish("day_start", "--phase", "D2")
    results = g.json("draft", "night_result", "--phase", "N1")["drafts"]
    assert [(d["target"], "guilty" in d["body"].lower()) for d in results] == [("pm:Carlo", True)]

    # D2: 5 alive, majority 3
    t.post("Carlo", "[b]vote: Bianca[/b]")
    t.post("Dora", "[b]vote: Bianca[/b]")
    t.post("Fede", "[b]vote: Bianca[/b]")
    g.poll()
    g.approve("lynch:D2")
    st = g.status()
    assert st["game_over"] and st["result"] == "town"
    (day2,) = g.publish("day_end", "--phase", "D2")
    (over,) = g.publish("game_over")

    # the PM before the start: listed once, never an action; Gina's PM is the other game's
    assert early_pm(g.new_findings(), "Ci sono") == []  # listed once: not again
    assert len(early_pm(g.findings(), "Ci sono")) == 1
    # the other game's PM is no finding here (the seeded PMs of 2024 are before the start)
    assert not [f for f in g.findings() if f["player"] == "Gina" and f["code"] != "pm_before_start"]

    # read back from phpBB's thread pages: the count, the lynch, the dawn, the winners
    shown = g.published_posts()
    end1, dawn2, end2, final = (text(shown[p["remote_id"]]) for p in (day1, dawn, day2, over))
    assert "Aldo (4): Carlo, Dora, Fede, Marta" in end1 and "Elio" not in end1  # majority of 6: 4
    assert re.search(r"Aldo has been lynched.*Aldo was revealed as Mafia", end1)
    assert "Night 1 begins" in end1
    assert "Nobody died" in dawn2 and "Alive (5): Bianca, Carlo, Dora, Marta, Fede" in dawn2
    assert "it takes 3 to lynch" in dawn2  # half of 5, rounded down, plus one
    assert "Bianca (3): Carlo, Dora, Fede" in end2 and "Bianca has been lynched" in end2
    assert "Night 2 begins" not in end2  # the lynch ended the game
    assert "Town wins" in final and "Winners: Carlo, Dora, Marta, Fede" in final
    for p in (day1, dawn, day2, over):
        no_smiley(shown[p["remote_id"]])
    assert no_corrections(g)


# =========================================================================== lupus-eresia (phpBB)


def local_zone(hour: int) -> tuple[str, ZoneInfo]:
    """A whole-hour zone (Etc/GMT±N) where the clock shows `hour` now, whenever the test runs:
    the Lupus day's deadlines are clock times (LUP-T1..T3), hours away in that zone."""
    offset = (hour - datetime.now(UTC).hour + 12) % 24 - 12  # -12..+11
    name = "Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}"  # POSIX sign: Etc/GMT-3 is UTC+3
    return name, ZoneInfo(name)


def test_lupus_eresia_whole_game_on_phpbb(phpbb_fresh, tmp_path, flood_waits):
    """lupus-eresia on phpBB, in a zone where it is 10 in the morning: night 1 (from the GM's
    opening at 20:00 yesterday) ended at LUP-T3 22:30 (D20); the GM's dawn post opens day 1,
    and the PMs sent during the day are night 2's (D17) on the night desk; the GM extends the
    day and takes the extension back (the day ends at LUP-T2 again); the replaced player's
    vote counts for nobody; the GM closes the day (`gm end`): night 2 then ends at 22:30 of the
    same evening (LUP-T3, D20); the lynch of the only wolf ends the game: Heresy wins with the
    farmers (LUP-W2, LUP-W4), the Inquisitore loses."""
    forum = phpbb_fresh
    zone, tz = local_zone(10)
    today = datetime.now(tz).replace(hour=0, minute=0, second=0, microsecond=0)
    start = today - 4 * H  # 20:00 yesterday
    roles = {"Aldo": "werewolf", "Bianca": "seer", "Carlo": "farmer", "Dora": "farmer", "Elio": "inquisitor"}
    g = Game(forum, tmp_path / "desk", "lupus-eresia", [{"name": n, "role": r} for n, r in roles.items()], start,
             timezone=zone, language="it")
    t = g.table

    early = t.pm("Elio", "Iscrizione", "Posso giocare? indago Aldo")
    backdate_pm(forum, early, start - H)
    g.poll()
    assert len(early_pm(g.new_findings(), "Posso giocare")) == 1
    st = g.status()
    assert st["phase"] == "D1" and st["phase_start_at"] == iso((today - 90 * M).astimezone(UTC))  # N1 ended 22:30
    assert st["phase_end_at"] == iso((today + 22 * H + 15 * M).astimezone(UTC))  # LUP-T2
    assert [p["key"] for p in st["pending"]] == ["night:N1"]
    g.approve("night:N1")  # nobody dies on night 1 (D1)
    (dawn,) = g.publish("day_start", "--phase", "D1")  # the GM's post opening day 1

    # the day: votes, and night 2's actions sent already (D17)
    t.post("Bianca", "Secondo me è lui. [b]Voto: Aldo[/b]")
    t.post("Aldo", "[b]Voto: Carlo[/b]")
    dora = t.post("Dora", "[b]Voto: Elio[/b]")
    t.pm("Bianca", "Veggente", "indago Carlo")
    t.pm("Aldo", "Lupi", "sbrano Bianca")
    t.pm("Gina", "kill", "kill Ugo")  # the other game's player
    g.poll()
    g.gm("replace", "Dora", "Marta", "--post", str(dora))
    t.post("Dora", "[b]Voto: Bianca[/b]")  # Dora left: counts for nobody
    t.post("Marta", "Eccomi, sostituisco Dora. [b]Voto: Aldo[/b]")
    t.post("Carlo", "[b]Voto: Aldo[/b]")
    t.post("Elio", "[b]Voto: Carlo[/b]")
    g.poll()
    assert sorted(g.actions_read()) == [("Aldo", "kill", ("Bianca",)), ("Bianca", "check", ("Carlo",))]
    assert ("Gina", "kill", ("Ugo",)) in g.actions_read(OTHER)
    (left,) = [f for f in g.findings() if f["code"] == "replaced_player_post"]
    assert left["message"].startswith("Dora") and left["source"]["number"] == dora + 1, left

    # the extension and its undo
    g.gm("extend", "D1", "--until", iso(today + 23 * H))
    assert g.status()["phase_end_at"] == iso((today + 23 * H).astimezone(UTC))
    g.gm("undo", str(g.event_id("extend")))
    assert g.status()["phase_end_at"] == iso((today + 22 * H + 15 * M).astimezone(UTC))

    count = g.tally()["tally"]
    assert [(c["name"], c["total"], [v["voter"] for v in c["voters"]]) for c in count["candidates"]] == \
        [("Aldo", 3, ["Bianca", "Marta", "Carlo"]), ("Carlo", 2, ["Aldo", "Elio"])]
    g.gm("end", "D1")  # the GM closes the day now
    st = g.status()
    assert st["phase"] == "N2" and st["phase_end_at"] == iso((today + 22 * H + 30 * M).astimezone(UTC))  # LUP-T3
    assert [p["key"] for p in st["pending"]] == ["lynch:D1"]
    desk = st["night_desk"]  # night 2's desk holds the PMs sent during day 1 (D17)
    assert desk["night"] == "N2"
    assert sorted((a["actor"], a["verb"], tuple(a["targets"]), a["status"]) for a in desk["actions"]) == \
        [("Aldo", "kill", ("Bianca",), "counts"), ("Bianca", "check", ("Carlo",), "counts")], desk
    g.approve("lynch:D1")
    st = g.status()
    assert st["game_over"] and sorted(st["winners"]) == ["Bianca", "Carlo", "Marta"]
    (day1,) = g.publish("day_end", "--phase", "D1")
    (over,) = g.publish("game_over")

    assert early_pm(g.new_findings(), "Posso giocare") == []
    assert len(early_pm(g.findings(), "Posso giocare")) == 1
    assert not [f for f in g.findings() if f["player"] == "Gina" and f["code"] != "pm_before_start"]

    shown = g.published_posts()
    opening, end1, final = (text(shown[p["remote_id"]]) for p in (dawn, day1, over))
    assert "non ci sono vittime" in opening and "Vivi (5): Aldo, Bianca, Carlo, Dora, Elio" in opening  # D1
    assert "alle 22:00" in opening  # LUP-T1
    assert "Aldo va al rogo" in end1 and "Lupo Mannaro" in end1  # LUP-V3; roles revealed (D5)
    assert "Aldo (3): Bianca, Marta, Carlo Carlo (2): Aldo, Elio" in end1 and "Dora" not in end1
    assert "Notte 2" not in end1  # the lynch ended the game
    assert "Eresia" in final and "Vincitori: Bianca, Carlo, Marta" in final  # LUP-W2, LUP-W4
    for p in (dawn, day1, over):
        no_smiley(shown[p["remote_id"]])
    assert no_corrections(g)  # the undone extension was recorded after the dawn post: it stays true


# =========================================================================== witch-hunt (MyBB)


def test_witch_hunt_whole_game_on_mybb(mybb_fresh, tmp_path, start, flood_waits):
    """witch-hunt on MyBB, in Russian: night 1 (WH-S2, D2): both witches name Fede (WH-K1), the
    Herbalist heals Elio, the Inquisitor's holy fire burns the witch Aldo (WH-I5); the GM ends the
    night: Fede and Aldo die (roles revealed, WH-I6). Day 1: the replaced player's vote counts for
    nobody; the GM extends the trial, and takes back a kill typed by mistake; at the deadline
    (the GM closes the day) Bianca, the last witch, has the most votes (WH-D1) and is executed:
    the town wins (WH-W2), every townsman named, dead or alive (D21)."""
    forum = mybb_fresh
    roles = {"Aldo": "witch", "Bianca": "witch", "Carlo": "herbalist", "Dora": "inquisitor", "Elio": "villager",
             "Fede": "villager"}
    g = Game(forum, tmp_path / "desk", "witch-hunt", [{"name": n, "role": r} for n, r in roles.items()], start,
             language="ru", extra=f'[games.{GAME}.options]\nfirst_recruiter = "Bianca"\n')
    t = g.table

    early = t.pm("Carlo", "Запись", "Я в игре! лечу Dora")
    backdate_pm(forum, early, start - H)
    g.poll()
    assert len(early_pm(g.new_findings(), "Я в игре")) == 1
    assert g.status()["phase"] == "N1"

    # night 1 (the PMs dated in the night, ten minutes after the start)
    t.night_pm("Aldo", "Ночь", "жертва Fede", start + 10 * M)
    t.night_pm("Bianca", "Ночь", "жертва Fede", start + 10 * M)
    t.night_pm("Carlo", "Ночь", "лечу Elio", start + 10 * M)
    t.night_pm("Dora", "Ночь", "огонь Aldo", start + 10 * M)
    t.night_pm("Gina", "kill", "kill Ugo", start + 10 * M)  # the other game's player
    g.poll()
    assert sorted(g.actions_read()) == [("Aldo", "kill", ("Fede",)), ("Bianca", "kill", ("Fede",)),
                                        ("Carlo", "heal", ("Elio",)), ("Dora", "fire", ("Aldo",))]
    assert ("Gina", "kill", ("Ugo",)) in g.actions_read(OTHER)
    g.gm("end", "N1", "--at", iso(this_minute()))  # MyBB stamps posts to the minute: the day opens on one
    st = g.status()
    assert st["phase"] == "D1" and [p["key"] for p in st["pending"]] == ["night:N1"]
    g.approve("night:N1")
    st = g.status()
    assert sorted((d["player"], d["role"]) for d in st["dead"]) == [("Aldo", "witch"), ("Fede", "villager")]
    (dawn,) = g.publish("day_start", "--phase", "D1")

    # day 1: a 48 h trial from the dawn post (D9), extended to 72 h; a kill typed by mistake, taken back
    d1 = datetime.fromisoformat(g.status()["phase_start_at"])
    g.gm("extend", "D1", "--until", iso(d1 + 72 * H))
    assert g.status()["phase_end_at"] == iso(d1 + 72 * H)
    g.gm("kill", "Carlo")
    g.gm("undo", str(g.event_id("kill")))
    assert g.status()["alive"] == ["Bianca", "Carlo", "Dora", "Elio"]
    t.post("Carlo", "[b]Голосую за Bianca[/b]")
    elio = t.post("Elio", "[b]Голос: Carlo[/b]")
    g.poll()
    g.gm("replace", "Elio", "Marta", "--post", str(elio))
    t.post("Elio", "[b]Голос: Dora[/b]")  # Elio left: counts for nobody
    t.post("Marta", "Я вместо Elio. [b]Голос: Bianca[/b]")
    t.post("Bianca", "[b]Голос: Carlo[/b]")
    t.post("Dora", "[b]Казнить Bianca[/b]")
    g.poll()
    count = g.tally()["tally"]
    assert [(c["name"], c["total"], [v["voter"] for v in c["voters"]]) for c in count["candidates"]] == \
        [("Bianca", 3, ["Carlo", "Marta", "Dora"]), ("Carlo", 1, ["Bianca"])]
    (left,) = [f for f in g.findings() if f["code"] == "replaced_player_post"]
    assert left["message"].startswith("Elio") and left["source"]["number"] == elio + 1, left
    g.gm("end", "D1")  # the deadline, as the GM closes the day
    assert [p["key"] for p in g.status()["pending"]] == ["lynch:D1"]
    g.approve("lynch:D1")
    st = g.status()
    assert st["game_over"] and st["result"] == "town"
    assert sorted(st["winners"]) == ["Carlo", "Dora", "Fede", "Marta"]
    (day1,) = g.publish("day_end", "--phase", "D1")
    (over,) = g.publish("game_over")

    assert early_pm(g.new_findings(), "Я в игре") == []
    assert len(early_pm(g.findings(), "Я в игре")) == 1
    assert not [f for f in g.findings() if f["player"] == "Gina" and f["code"] != "pm_before_start"]

    shown = g.published_posts()
    opening, end1, final = (text(shown[p["remote_id"]]) for p in (dawn, day1, over))
    assert "Святой огонь Инквизитора испепелил игрока Aldo." in opening  # WH-I5
    assert "ведьмы принесли в жертву игрока Fede." in opening  # WH-K1: healed was Elio, not Fede
    assert "Роль игрока Aldo: Ведьма." in opening and "Роль игрока Fede: Мирный житель." in opening  # WH-I6
    assert "никого не обращали" in opening  # the holder sent nothing: a pass (WH-C2, D19)
    assert "Живы (4): Bianca, Carlo, Dora, Elio" in opening
    assert "на костёр отправляется Bianca!" in end1 and "Роль игрока Bianca: Ведьма." in end1  # WH-D1, WH-D6
    assert "Bianca (3): Carlo, Marta, Dora Carlo (1): Bianca" in end1 and "Dora (" not in end1
    assert "город побеждает" in final and "Победители: Carlo, Dora, Marta, Fede" in final  # WH-W2, D21
    for p in (dawn, day1, over):
        no_smiley(shown[p["remote_id"]])
    assert no_corrections(g)  # the kill taken back was recorded after the dawn post


# =========================================================================== village (MyBB)


def approve_pending(g: Game, rounds: int = 12) -> list[str]:
    """Approve every proposal as it comes up (the village's night waves come one by one), each
    as of when it was made (the dawn, and the day's vote window, count from its approval)."""
    done: list[str] = []
    for _ in range(rounds):
        pending = [p for p in g.status()["pending"] if p["kind"] != "alias"]
        if not pending:
            break
        g.gm("--at", pending[0]["created_at"], "approve", pending[0]["key"])
        done.append(pending[0]["key"])
    return done


def test_village_whole_game_on_mybb(mybb_fresh, tmp_path, start, flood_waits):
    """village on MyBB, in Chinese: night 1's pack kills Dora (VIL-N-06) and the Seer looks at
    Aldo (VIL-N-05); the GM ends the night and approves its waves: the dawn post names the dead
    and her card (VIL-D-01, VIL-A-52). Day 1 (the vote open from the dawn, `options.time`): the
    GM enters a vote by mistake and undoes it, extends the vote, the replaced player's vote
    counts for nobody; at the deadline (the GM closes the day) the only werewolf is executed
    and the village wins (VIL-A-49)."""
    forum = mybb_fresh
    roles = {"Aldo": "werewolf", "Bianca": "seer", "Carlo": "villager", "Dora": "villager", "Elio": "villager"}
    buildings = {"Carlo": "farm", "Dora": "farm"}
    players = [{"name": n, "role": r} | ({"building": buildings[n]} if n in buildings else {}) for n, r in roles.items()]
    g = Game(forum, tmp_path / "desk", "village", players, start, language="zh",
             extra=f'[games.{GAME}.options.time]\nvote_open = "0h"\n')
    t = g.table

    early = t.pm("Bianca", "报名", "我来玩！验 Aldo")
    backdate_pm(forum, early, start - H)
    g.poll()
    assert len(early_pm(g.new_findings(), "我来玩")) == 1
    assert g.status()["phase"] == "N1"

    t.night_pm("Aldo", "夜", "刀 Dora", start + 10 * M)
    t.night_pm("Bianca", "夜", "验 Aldo", start + 10 * M)
    t.night_pm("Gina", "kill", "kill Ugo", start + 10 * M)  # the other game's player
    g.poll()
    assert sorted(g.actions_read()) == [("Aldo", "kill", ("Dora",)), ("Bianca", "check", ("Aldo",))]
    assert ("Gina", "kill", ("Ugo",)) in g.actions_read(OTHER)
    # MyBB stamps posts to the minute: the night ends, and its waves are approved, on the minute
    # before the day's first posts (an approval in their own minute would come after them)
    g.gm("end", "N1", "--at", iso(this_minute() - M))
    approve_pending(g)
    st = g.status()
    assert st["phase"] == "D1" and [(d["player"], d["phase"]) for d in st["dead"]] == [("Dora", "N1")]
    (dawn,) = g.publish("day_start", "--phase", "D1")

    t.post("Bianca", "[b]投票 Aldo[/b]")
    elio = t.post("Elio", "[b]投票 Carlo[/b]")
    g.poll()
    g.gm("set-vote", "Carlo", "Bianca")  # the GM's slip: Carlo has not voted
    assert voters_of(g.tally(), "Bianca") == ["Carlo"]
    g.gm("undo", str(g.event_id("set")))
    assert voters_of(g.tally(), "Bianca") == [] and "Carlo" in g.tally()["tally"]["not_voting"]
    g.gm("replace", "Elio", "Marta", "--post", str(elio))
    t.post("Elio", "[b]投票 Bianca[/b]")  # Elio left: counts for nobody
    t.post("Marta", "我替补 Elio。[b]投票 Aldo[/b]")
    t.post("Carlo", "[b]投票 Aldo[/b]")
    t.post("Aldo", "[b]投票 Bianca[/b]")
    g.poll()
    close = datetime.fromisoformat(g.tally()["vote_close_at"])
    g.gm("extend", "D1", "--close", iso(close + 24 * H), "--until", iso(close + 24 * H))
    assert g.tally()["vote_close_at"] == iso(close + 24 * H)
    count = g.tally()["tally"]
    assert [(c["name"], c["total"], [v["voter"] for v in c["voters"]]) for c in count["candidates"]] == \
        [("Aldo", 3, ["Bianca", "Marta", "Carlo"]), ("Bianca", 1, ["Aldo"])]
    (left,) = [f for f in g.findings() if f["code"] == "replaced_player_post"]
    assert left["message"].startswith("Elio") and left["source"]["number"] == elio + 1, left
    g.gm("end", "D1")  # the deadline, as the GM closes the day
    approve_pending(g)
    st = g.status()
    assert st["game_over"] and "Aldo" in [d["player"] for d in st["dead"]]
    assert sorted(st["winners"]) == ["Bianca", "Carlo", "Dora", "Marta"]
    (day1,) = g.publish("day_end", "--phase", "D1")
    (over,) = g.publish("game_over")

    assert early_pm(g.new_findings(), "我来玩") == []
    assert len(early_pm(g.findings(), "我来玩")) == 1
    assert not [f for f in g.findings() if f["player"] == "Gina" and f["code"] != "pm_before_start"]

    shown = g.published_posts()
    opening, end1, final = (text(shown[p["remote_id"]]) for p in (dawn, day1, over))
    assert "出局：Dora — 村民" in opening  # VIL-D-01, the card revealed (VIL-A-52)
    assert "存活玩家（4人）： Aldo、Bianca、Carlo、Elio" in opening
    assert "Aldo 被放逐出局" in end1 and "出局：Aldo — 狼人" in end1
    assert "Aldo（3票）：Bianca、Marta、Carlo Bianca（1票）：Aldo" in end1 and "Elio" not in end1
    assert "第2夜" not in end1  # the execution ended the game
    assert "好人阵营获胜" in final and "获胜者： Bianca、Carlo、Dora、Marta" in final  # VIL-A-49
    for p in (dawn, day1, over):
        no_smiley(shown[p["remote_id"]])
    assert no_corrections(g)


# =========================================================================== one-night (SMF)


def test_one_night_whole_game_on_smf(smf_fresh, tmp_path, start, flood_waits):
    """one-night on SMF, in Dutch, the GM's deal with its centre (Links Weerwolf, Midden Jager,
    Rechts Looier): the Ziener looks at Aldo, the Dief robs Dora, the Onruststoker swaps Aldo and
    Elio (ON-N4..N6): Elio ends the night holding the Weerwolf and his Slapeloze sees it (ON-N7).
    The GM ends the night; the day's votes are PMs (ON-V1); Elio is replaced by Marta and his
    later PM vote counts for nobody; the GM extends the day and takes it back (72 h, ON-D1);
    at the deadline (the GM closes the day) Marta, holding the Weerwolf, dies (ON-V3): the
    village side wins by the final cards (ON-W2, ON-W5); the game-over post shows every final
    card and the centre (D15)."""
    forum = smf_fresh
    roles = {"Aldo": "werewolf", "Bianca": "seer", "Carlo": "robber", "Dora": "troublemaker", "Elio": "insomniac"}
    g = Game(forum, tmp_path / "desk", "one-night", [{"name": n, "role": r} for n, r in roles.items()], start,
             language="nl", extra=f'[games.{GAME}.setup]\ncentre = ["werewolf", "hunter", "tanner"]\n')
    t = g.table

    early = t.pm("Carlo", "Aanmelding", "Ik doe mee! ruil met Bianca")
    backdate_pm(forum, early, start - H)
    g.poll()
    assert len(early_pm(g.new_findings(), "Ik doe mee")) == 1
    assert g.status()["phase"] == "N1"

    t.night_pm("Bianca", "Nacht", "bekijk Aldo", start + 10 * M)
    t.night_pm("Carlo", "Nacht", "ruil met Dora", start + 10 * M)
    t.night_pm("Dora", "Nacht", "verwissel Aldo en Elio", start + 10 * M)
    t.night_pm("Gina", "kill", "kill Ugo", start + 10 * M)  # the other game's player
    g.poll()
    assert sorted(g.actions_read()) == [("Bianca", "check", ("Aldo",)), ("Carlo", "rob", ("Dora",)),
                                        ("Dora", "swap", ("Aldo", "Elio"))]
    assert ("Gina", "kill", ("Ugo",)) in g.actions_read(OTHER)
    g.gm("end", "N1", "--at", iso(this_minute() - M))  # PMs are stamped to the minute: the day opens on one
    approve_pending(g)
    st = g.status()
    assert st["phase"] == "D1" and st["dead"] == []
    results = {d["target"]: d["body"] for d in g.json("draft", "night_result", "--phase", "N1")["drafts"]}
    assert "Weerwolf" in results["pm:Bianca"] and "Aldo" in results["pm:Bianca"]  # ON-N4
    assert "Onruststoker" in results["pm:Carlo"]  # ON-N5: the card he robbed
    assert "Weerwolf" in results["pm:Elio"]  # ON-N7: his card at the end of the night
    assert "midden" in results["pm:Aldo"]  # ON-N3, D6: the other werewolf is in the centre
    assert "Weerwolf" not in results.get("pm:Dora", "") and "Elio" not in results.get("pm:Dora", "")  # ON-N8
    (dawn,) = g.publish("day_start", "--phase", "D1")

    d1 = datetime.fromisoformat(g.status()["phase_start_at"])
    assert g.status()["phase_end_at"] == iso(d1 + 72 * H)  # ON-D1
    g.gm("extend", "D1", "--until", iso(d1 + 96 * H))
    assert g.status()["phase_end_at"] == iso(d1 + 96 * H)
    g.gm("undo", str(g.event_id("extend")))
    assert g.status()["phase_end_at"] == iso(d1 + 72 * H)

    t.pm("Bianca", "Stem", "ik stem op Elio")
    t.post("Carlo", "Ik heb de Onruststoker nu. [b]Ik stem op Elio[/b]")  # a declaration (ON-V2): no vote
    g.poll()
    # PMs are stamped to the minute: the seat changes hands just before this one
    g.gm("replace", "Elio", "Marta", "--at", iso(this_minute() - timedelta(seconds=1)))
    t.pm("Elio", "Stem", "stem op Aldo")  # Elio left: counts for nobody
    t.pm("Carlo", "Stem", "stem op Marta")
    t.pm("Aldo", "Stem", "stem op Marta")
    t.pm("Marta", "Stem", "stem op Carlo")
    g.poll()
    count = g.tally()["tally"]
    assert [(c["name"], c["total"], sorted(v["voter"] for v in c["voters"])) for c in count["candidates"]] == \
        [("Marta", 3, ["Aldo", "Bianca", "Carlo"]), ("Carlo", 1, ["Marta"])]  # ON-V1: PMs only, Carlo's post no vote
    assert voters_of(g.tally(), "Aldo") == []  # Elio's vote after leaving
    assert [f for f in g.findings() if f["code"] == "replaced_player_post" and f["message"].startswith("Elio")]
    g.gm("end", "D1")  # the deadline, as the GM closes the day
    approve_pending(g)
    st = g.status()
    assert st["game_over"] and [d["player"] for d in st["dead"]] == ["Marta"]
    assert sorted(st["winners"]) == ["Aldo", "Bianca", "Carlo", "Dora"]
    (day1,) = g.publish("day_end", "--phase", "D1")
    (over,) = g.publish("game_over")

    assert early_pm(g.new_findings(), "Ik doe mee") == []
    assert len(early_pm(g.findings(), "Ik doe mee")) == 1
    assert not [f for f in g.findings() if f["player"] == "Gina" and f["code"] != "pm_before_start"]

    shown = g.published_posts()
    opening, end1, final = (text(shown[p["remote_id"]]) for p in (dawn, day1, over))
    assert "niemand gestorven" in opening and "Levend (5): Aldo, Bianca, Carlo, Dora, Elio" in opening  # ON-N8
    assert "Met 3 stemmen wordt Marta gelyncht" in end1 and "Marta: eindkaart Weerwolf" in end1  # ON-V3
    assert "Aldo: eindkaart Slapeloze (begonnen als Weerwolf)" in end1  # the Onruststoker's swap (ON-N6)
    assert "Carlo: eindkaart Onruststoker (begonnen als Dief)" in end1  # the Dief's robbery (ON-N5)
    assert "het dorp wint" in final and "Winnaars: Aldo, Bianca, Carlo, Dora" in final  # ON-W2, ON-W5
    for pos, card in (("Links", "Weerwolf"), ("Midden", "Jager"), ("Rechts", "Looier")):
        assert f"Op tafel, {pos}: {card}." in final  # D15: the centre cards
    assert "[*]" not in final and "[/list]" not in final  # the role list is a list on SMF too
    assert shown[over["remote_id"]].html.count("<li") == 5
    for p in (dawn, day1, over):
        no_smiley(shown[p["remote_id"]])
    assert no_corrections(g)
