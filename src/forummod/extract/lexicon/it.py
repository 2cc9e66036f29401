"""Italian (lupus-eresia): phrases from rules/lupus-eresia.md §8."""

from types import MappingProxyType as _M

from forummod.extract.lexicon.words import Act, Words

WORDS = Words(
    # LUP-V1 / §8: "Voto: NOME", "Voto NOME", "Rogo: NOME", "Rogo NOME", "[voto]NOME[/voto]"
    vote=(r"voto", r"io\s+voto", r"rogo", r"al\s+rogo", r"voto\s+al\s+rogo"),
    # §8: "Tolgo il voto", "Ritiro il voto" (optionally "... a/da NOME")
    unvote=(r"tolgo\s+il\s+(?:mio\s+)?voto", r"ritiro\s+il\s+(?:mio\s+)?voto", r"tolgo\s+voto",
            r"ritiro\s+voto", r"unvoto"),
    abstain=(r"mi\s+astengo", r"astensione"),  # LUP-G4: abstaining is allowed
    no_lynch=(r"nessun\s+rogo", r"nessun\s+linciaggio", r"nessuno", r"no\s+rogo"),
    connectors=(r"per", r"a", r"ad", r"da", r"contro", r"su"),
    stop=("segreto", "del", "della", "di", "è", "e", "va", "non", "il", "lo", "la", "mio", "tuo",
          "suo", "che", "se", "quando", "perché", "finale", "conta", "conteggio", "contato"),
    self_words=(r"me\s+stess[oa]", r"me", r"a\s+me"),
    conj=(r"e", r"ed", r","),
    alt=(r"o", r"oppure", r"/"),
    roles=_M({"veggenti": "seer", "lupo scorbutico": "grumpy_wolf", "branco": "werewolf",
              "gemelle": "twin_guard", "guardie": "twin_guard"}),
)

ACTIONS = {
    "lupus-eresia": (
        Act("check", r"indago(?:\s+su)?|sondo|indagine\s+su|controllo"),  # LUP-R1, LUP-R6
        # LUP-R2: "consegno (la sondata) a NOME"; "a me stesso" / "a me" = the sender
        Act("deliver", r"consegno(?:\s+la\s+sondata)?(?:\s+a)?|consegna(?:\s+la\s+sondata)?(?:\s+a)?"),
        Act("protect", r"proteggiamo|proteggo|protezione\s+su"),  # LUP-R4
        # LUP-R7, D12 (before "voto segreto", which it contains)
        Act("withdraw_secret_vote", r"(?:ritiro|tolgo|annullo)\s+(?:il\s+)?(?:mio\s+)?voto\s+segreto"),
        Act("secret_vote", r"voto\s+segreto(?:\s+del\s+boia)?"),  # LUP-R7
        Act("kill", r"sbraniamo|sbrano|(?:cambio\s+)?vittima|uccidiamo|mangiamo"),  # LUP-R9, D2
        Act("designate", r"se\s+muoio,?\s+indico|indico"),  # LUP-R8
    ),
    "mafia-majority": (  # the commands the Italian role PMs quote
        Act("check", r"indago(?:\s+su)?|controllo"),
        Act("protect", r"proteggo|salvo"),
        Act("kill", r"uccido|uccidiamo|elimino"),
    ),
}
