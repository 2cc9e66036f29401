"""The bundled demo game: a short Italian *Lupus* game written by the project.

Ten players, a night and a day played out, the second day in progress. It shows what a GM
meets every day: votes in bold and in tags, a vote inside a quote (does not count), a
misspelt name, an edited vote, an unvote, a late vote, the Boia's secret vote by PM, a dead
player posting in the game thread, a living one in the cemetery, and a PM nobody can parse.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from forummod.records import frozen

TZ = ZoneInfo("Europe/Rome")
GM = "Narratore"
TITLE = "Lupus in Tabula #7 — Il villaggio di Valfonda"
GRAVEYARD_TITLE = "Cimitero — Lupus in Tabula #7"


def t(day: int, hh: int, mm: int = 0) -> datetime:
    """Local time on 2026-11-(22+day)."""
    return datetime(2026, 11, 22 + day, hh, mm, tzinfo=TZ)


PLAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Aldo", "seer", ("aldino",)),
    ("Bianca", "twin_guard", ()),
    ("Carlo", "twin_guard", ()),
    ("Dora", "farmer", ()),
    ("Elio", "executioner", ()),
    ("Fede", "werewolf", ("federico",)),
    ("Gina", "werewolf", ()),
    ("Lia", "postman", ()),
    ("Ugo", "inquisitor", ()),
    ("Zeno", "martyr", ()),
)

FIRST_POLL = t(2, 18, 0)  # the GM's first look: day 1 at 18:00
NOW = t(3, 18, 0)  # the demo looks at the game again on day 2 at 18:00


@frozen
class DemoPost:
    author: str
    at: datetime
    bbcode: str
    edited_at: datetime | None = None
    edited_bbcode: str | None = None  # the body after the edit


@frozen
class DemoPM:
    sender: str
    at: datetime
    subject: str
    body: str


GAME: tuple[DemoPost, ...] = (
    DemoPost(GM, t(1, 21, 0),
             "[b]Benvenuti a Valfonda![/b]\n\nI ruoli sono stati consegnati in privato. "
             "Giocatori: Aldo, Bianca, Carlo, Dora, Elio, Fede, Gina, Lia, Ugo, Zeno.\n\n"
             "[b]Notte 1[/b]: inviate i poteri entro le 22:30. Rogo alle 22:00, chiusura del giorno alle 22:15."),
    DemoPost(GM, t(2, 9, 0), "[b]Giorno 1[/b]\n\nIl villaggio si sveglia: stanotte nessuno è morto. "
                             "Si vota con [b]Voto: nome[/b]."),
    DemoPost("Aldo", t(2, 10, 5), "Buongiorno a tutti. Notte tranquilla, ma qualcuno era sveglio, ne sono sicuro."),
    DemoPost("Bianca", t(2, 10, 40), "Fede ieri sera era troppo silenzioso.\n\n[b]Voto: Fede[/b]"),
    DemoPost("Carlo", t(2, 11, 15),
             "[quote=Bianca]Fede ieri sera era troppo silenzioso.\n\n[b]Voto: Fede[/b][/quote]\n"
             "Non sono ancora convinto, aspetto di sentire gli altri."),
    DemoPost("Fede", t(2, 12, 0), "Accusarmi così presto è sospetto.\n\n[b]Voto: Bianca[/b]"),
    DemoPost("Dora", t(2, 13, 30), "[b]Rogo: Fede[/b]"),
    DemoPost("Elio", t(2, 14, 0), "Per me Dora parla poco.\n\n[b]Voto: Dora[/b]"),
    DemoPost("Gina", t(2, 15, 20), "Sono d'accordo con Fede.\n\n[b]Voto: Bianc[/b]"),
    DemoPost("Zeno", t(2, 16, 0), "Io voterei Fede, ma prima voglio sentire Lia."),
    DemoPost("Ugo", t(2, 17, 45), "[b]Voto: Gina[/b]",
             edited_at=t(2, 18, 10), edited_bbcode="Ci ho ripensato.\n\n[b]Voto: Fede[/b]"),
    DemoPost("Carlo", t(2, 19, 0), "Ok, mi avete convinto.\n\n[b]Voto: Fede[/b]"),
    DemoPost("Lia", t(2, 20, 30), "[b]Voto: Fede[/b]"),
    DemoPost("Lia", t(2, 21, 0), "Aspettate, forse mi sbaglio. [b]Tolgo il voto[/b]"),
    DemoPost("Aldo", t(2, 21, 50), "[b]Voto: Fede[/b]"),
    DemoPost("Dora", t(2, 22, 5), "Cambio idea! [b]Voto: Gina[/b]"),
    DemoPost(GM, t(2, 22, 20), "[b]Il rogo è chiuso.[/b] Fede viene messo al rogo."),
    DemoPost(GM, t(3, 9, 0), "[b]Giorno 2[/b]\n\nStanotte nessuno è morto."),
    DemoPost("Gina", t(3, 9, 30), "Aldo ieri ha votato troppo tardi.\n\n[b]Voto: Aldo[/b]"),
    DemoPost("Aldo", t(3, 10, 0), "Ho le mie ragioni.\n\n[b]Voto: Gina[/b]"),
    DemoPost("Bianca", t(3, 11, 0), "[b]Voto: Gina[/b]"),
    DemoPost("Zeno", t(3, 12, 30), "Questa volta non aspetto: [vote]Gina[/vote]"),
    DemoPost("Dora", t(3, 13, 0), "[b]VOTE: Gina[/b]"),
    DemoPost("Fede", t(3, 14, 0), "Ve lo avevo detto che Gina era innocente!"),
)

GRAVEYARD: tuple[DemoPost, ...] = (
    DemoPost(GM, t(1, 21, 5), "Benvenuti nel cimitero. Qui possono scrivere solo i morti."),
    DemoPost("Fede", t(2, 22, 40), "Eccomi qui. Che peccato."),
    DemoPost("Dora", t(3, 15, 0), "Fede, chi è l'altro lupo?"),
)

PMS: tuple[DemoPM, ...] = (
    DemoPM("Aldo", t(1, 21, 30), "Notte 1", "Veggente: indago Fede"),
    DemoPM("Ugo", t(1, 21, 40), "Notte 1", "Inquisitore: sondo Bianca"),
    DemoPM("Lia", t(1, 22, 0), "Notte 1", "Postino: consegno a me stesso"),
    DemoPM("Elio", t(2, 15, 0), "Voto segreto", "voto segreto: Fede"),
    DemoPM("Gina", t(2, 22, 18), "Notte 2", "sbrano Dora"),
    DemoPM("Bianca", t(2, 22, 20), "Notte 2", "proteggiamo Dora"),
    DemoPM("Aldo", t(2, 22, 22), "Notte 2", "indago Gina"),
    DemoPM("Ugo", t(2, 22, 25), "Notte 2", "indago Carlo"),
    DemoPM("Zeno", t(2, 23, 0), "ciao", "ciao GM, stasera non riesco a decidere niente, scusa"),
)

#: The GM's decisions, as if taken with `forummod gm approve` after each deadline.
DECISIONS: tuple[tuple[datetime, str], ...] = (
    (t(2, 8, 55), "night:N1"),
    (t(2, 22, 20), "lynch:D1"),
    (t(3, 8, 55), "night:N2"),
)

