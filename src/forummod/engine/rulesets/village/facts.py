"""Every fact key the Village ruleset emits: what it means and its params (for the templates).

Public facts go into GM posts; private ones (marked PM) are PM drafts to one player. Role ids
are the catalog's (`werewolf`, `white_werewolf`...); building codes are §0's. A building is named
by its code and its holder (`building` + `holder`, or the parallel tuples `buildings` + `holders`),
never by its `code@Pk` id, so a phrase can say it in words ("the hovel of P2").
"""

FACTS = {
    # nightfall and dawn (VIL-N-00, VIL-D-01)
    "nightfall": "night, deadline: the 'Night N' post; Wave 1 closes at deadline",
    "death": "player, role (when cards are revealed), cause (only with announce.death_causes): 'Pk — <Card>'",
    "nobody_died": "nobody died in the night",
    "building_burned": "building (code), holder, vagabond (the owner who is now a Vagabond, or '' if it was empty): '<code> of Pk burned; Pk is now a Vagabond'",
    "poster": "player: the Scandalmonger's poster hangs on this player's door (+2 at the next lynch)",
    "reaction_window": "kind (hunter | successor | scapegoat), player, deadline: a window is open",
    "victory_pending": "the victory check waits for an open Hunter or Sheriff window",
    "game_over": "result (lovers | piper | white_werewolf | werewolves | villagers | nobody), winners",
    "elder_powers_lost": "player: the village killed the Elder; villagers' character powers are lost",
    # Bailiff (VIL-D-01b)
    "bailiff_morning": "bailiff, buildings (codes), holders (their last holders, same order), deadline: empty buildings he may offer this morning",
    "bailiff_offer": "building (code), holder (its last holder), vagabond, deadline (the morning's close): the Bailiff offers the building",
    "bailiff_answer": "building (code), holder, vagabond, answer (accepted | refused), how (answer | silence)",
    "building_assigned": "building (code), player: the player moves in; the token is ready/held again",
    # Sheriff (VIL-D-02, VIL-B-FARM)
    "election_open": "candidates, electors, round, deadline: the farmers' sheriff election",
    "election_tie": "players, round: the election is tied",
    "sheriff_elected": "player, how (vote | sole_farmer | random | gm)",
    "sheriff_none": "reason (no_farmers): there will be no Sheriff",
    "sheriff_successor": "player, previous, how (named | random): the new Sheriff",
    "sheriff_extinct": "previous: no Farmer is alive; the title is gone for the rest of the game",
    "sheriff_gm_choice": "previous, farmers: the GM must name the successor",
    # day powers (§5.2)
    "silenced": "player, by: the Schoolmarm silences the player for today's lynch",
    "confessor_used": "confessor, target: 'the Confessor has used his token on Pk'",
    "bonesetter_restored": "bonesetter, target, building (code), token (ready | held)",
    "bonesetter_wasted": "bonesetter, target: an invalid target spent the Bonesetter's token",
    "barber_kill": "barber, target: the Barber kills the target (card in the death fact)",
    "barber_forgiven": "barber: the target was a werewolf; the Barber is forgiven",
    "barber_executed": "barber: the target was not a werewolf; the Barber is executed for murder",
    "hunter_shot": "hunter, target: the Hunter's shot",
    "scapegoat_ruling": "scapegoat, voters: only these may vote at the next lynch",
    # the lynch (VIL-D-04 … VIL-D-07)
    "vote_open": "round, barkeeper (who must vote first, or ''), candidates (re-vote only), deadline",
    "barkeeper_missed": "player: the Barkeeper missed his window and does not vote today",
    "tie": "players, round: the top score is shared",
    "sheriff_choice_requested": "sheriff, players, deadline: the Sheriff must name one of the tied",
    "sheriff_choice": "sheriff, player: the Sheriff's tie-break",
    "revote": "players, deadline: one re-vote between the tied players",
    "designated": "player, scapegoat (bool): the designated player",
    "barkeeper_token_lost": "player: the Barkeeper voted for the designated player and loses his token",
    "lord_window": "player, deadline: the condemned may plead and the Lord may pardon",
    "plea": "player: the condemned asks the Lord for mercy",
    "pardoned": "player, lord: pardoned; nothing is revealed",
    "idiot_revealed": "player, role: the Village Idiot survives and loses his vote",
    "lynched": "player, scapegoat (bool): executed (card in the death fact)",
    "no_lynch": "reason (no_votes | tie | pardon | barber_wolf | no_lynch_vote | gm): nobody is lynched today",
    # private (PM drafts)
    "thief_cards": "PM cards: the two set-aside cards",
    "thief_new_role": "PM role: the Thief's role from now on (villager when he keeps his card)",
    "cupid_confirm": "PM lovers",
    "lover": "PM partner, role (only with lovers.reveal_roles)",
    "guardian_confirm": "PM target",
    "seer_result": "PM target, card (seer.reveals = card) or verdict (werewolf | not_werewolf)",
    "pack_confirm": "PM target ('' = no attack), members (Night 1 only)",
    "little_girl_transcript": "PM lines: the pack's night messages, authors removed",
    "little_girl_peek": "PM player: the pack member she saw, or ''",
    "baker_glimpse": "PM player: the pack member he glimpsed awake, or '' (saw nothing)",
    "baker_transcript": "PM lines: the last lines of the pack's night messages",
    "baker_peek": "PM player: risk mode, the pack member he saw, or ''",
    "ww_confirm": "PM target",
    "pyromaniac_confirm": "PM building (code), holder",
    "witch_info": "PM victim ('' = nobody was attacked), ww_victim (only with witch.sees_white_werewolf_victim)",
    "witch_confirm": "PM healed, poisoned ('' when unused)",
    "piper_confirm": "PM targets",
    "charmed_list": "PM players: every living charmed player",
    "scandalmonger_confirm": "PM target",
    "confessor_result": "PM target, card or verdict: 'Pk: <Card>'",
    "vote_void": "PM target: your vote came before the Barkeeper's and is void; post it again",
    # role PM (Ruleset.role_pm_facts)
    "your_building": "PM building (code, '' = Vagabond): the public building the player holds and its power, with the commands (§2.2, §5.2)",
}
