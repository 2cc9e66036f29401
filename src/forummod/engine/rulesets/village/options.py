"""Options of the Village ruleset: a mirror of village.md §7.Z, one nested table per key group.

`[games.x.options.sheriff] election_day = 2` sets `options.sheriff.election_day`. Every field
cites the decision (VIL-A-nn) or section it implements; defaults are the spec's.
"""

from __future__ import annotations

from typing import Literal

from forummod.records import frozen
from forummod.schema import Duration, setting


def _d(text: str) -> Duration:
    return Duration.parse(text)


@frozen
class SeatingOptions:
    right: Literal["next", "previous"] = setting("next", "§0: 'to X's right' walks the seat order forward (P1→P2) or backward")


@frozen
class SetupOptions:
    building_method: Literal["bag_all", "bag_subset", "draft"] = setting("bag_subset", "§2.2: how building tokens are dealt when not given per player")
    farms: int = setting(3, "§2.4: number of farm tokens dealt (0 = no Farmers, no Sheriff)")


@frozen
class ThiefOptions:
    may_keep: bool = setting(True, "VIL-A-55: the Thief may keep his card and play as Ordinary Townsfolk")


@frozen
class SheriffOptions:
    election_day: int = setting(2, "VIL-A-04: the day of the farmers' sheriff election")
    electorate: Literal["farmers", "all"] = setting("farmers", "VIL-A-05: who votes in the farmers' election (candidates are always Farmers)")
    election_tie: Literal["revote_then_random", "gm_choice"] = setting("revote_then_random", "VIL-A-06: a tied election: one re-vote then a seeded random pick, or the GM chooses")
    breaks_ties: bool = setting(True, "VIL-A-10: the Sheriff breaks lynch ties")
    succession_timeout: Literal["random_farmer", "gm_choice", "none"] = setting("random_farmer", "VIL-A-07: no successor named in time: random living Farmer, GM's choice, or no Sheriff")
    burned_farm_keeps_title: bool = setting(True, "VIL-A-08: a Sheriff whose farm burns keeps the title")
    silenced_keeps_tiebreak: bool = setting(True, "VIL-A-11: a silenced Sheriff keeps the tie-break")
    reelect_if_farmer_returns: bool = setting(False, "VIL-A-09: hold a new election when a farm is filled after all Farmers died")
    base_election_if_no_farms: bool = setting(False, "§2.4: with no farms, all players elect any player on Day 1 (base rule)")


@frozen
class VoteOptions:
    allow_self: bool = setting(False, "VIL-A-45: a player may vote for himself")
    allow_abstain: bool = setting(True, "VIL-A-46: abstaining is allowed (off: the GM is warned of voters without a vote)")
    no_lynch_candidate: bool = setting(False, "VIL-A-46: a 'no lynch' pseudo-candidate exists")
    final_tie: Literal["none", "random"] = setting("none", "VIL-A-44: the re-vote ties again: nobody is lynched, or a seeded random pick")
    dead_voter_votes: Literal["removed", "kept"] = setting("removed", "VIL-A-53: votes of a player who dies mid-vote")


@frozen
class BarkeeperOptions:
    vote_locked: bool = setting(True, "§6.3: the Barkeeper may not change his first vote")
    first_vote: Literal["window", "pm"] = setting("window", "VIL-A-27: 'vote first' as a Barkeeper-only window, or a PM before the vote opens")
    token_loss: Literal["designated", "death"] = setting("designated", "VIL-A-28: the token is lost when his pick is designated, or only when it is executed")
    immune_to_white_werewolf: bool = setting(True, "VIL-A-26: the White Werewolf cannot attack a Barkeeper holding his token")


@frozen
class LordOptions:
    requires_plea: bool = setting(True, "VIL-A-30: only a pleading player can be pardoned (himself excepted)")
    cancels_day_lynch: bool = setting(True, "VIL-A-31: after a pardon nobody is lynched that day (off: re-vote without him)")


@frozen
class BarberOptions:
    wolf_kill_cancels_lynch: bool = setting(False, "VIL-A-19: killing a werewolf cancels that day's lynch (BGA)")
    white_werewolf_is_wolf: bool = setting(True, "VIL-A-20: the White Werewolf counts as a werewolf for the Barber")


@frozen
class ConfessorOptions:
    public: Literal["target", "none"] = setting("target", "VIL-A-12: post the Confessor's target (the card stays private), or nothing")
    reveals: Literal["card", "wolf_or_not"] = setting("card", "VIL-A-13: the Confessor learns the card, or only werewolf / not")


@frozen
class BonesetterOptions:
    restores_tavern: bool = setting(True, "VIL-A-14: a lost Tavern token counts as spent and can be restored")
    invalid_target: Literal["refused", "wasted"] = setting("refused", "VIL-A-14: an invalid target is refused at no cost, or wastes his token")


@frozen
class SchoolmarmOptions:
    never_votes: bool = setting(True, "VIL-A-15: the Schoolmarm never votes (off: only on days she silences)")
    exactly_two: bool = setting(False, "VIL-A-16: she must name exactly two players when she acts")


@frozen
class BakerOptions:
    mode: Literal["glimpse", "none", "transcript_tail", "risk"] = setting("glimpse", "VIL-A-17: the Baker's forum power")
    glimpse_p: float = setting(0.25, "VIL-A-17: chance of glimpsing one pack member in 'glimpse' mode")
    tail_lines: int = setting(5, "VIL-A-17: pack-channel lines sent in 'transcript_tail' mode")
    opt_in: bool = setting(False, "VIL-A-17: he glimpses only on nights he PMs 'watch'")


@frozen
class BailiffOptions:
    day_vacancies: Literal["next_morning", "after_execution"] = setting("next_morning", "VIL-A-22: when a house emptied by day can be offered")
    silence_means: Literal["refuse", "accept"] = setting("refuse", "VIL-A-23: an unanswered offer counts as refused, or accepted")
    reoffer_after_refusal: bool = setting(True, "VIL-A-24: a refused building may be offered to another Vagabond the same morning")


@frozen
class SeerOptions:
    reveals: Literal["card", "wolf_or_not"] = setting("card", "VIL-A-13: the Seer learns the card, or only werewolf / not")


@frozen
class LittleGirlOptions:
    mode: Literal["transcript", "risk"] = setting("transcript", "VIL-A-18: anonymised pack transcript at dawn, or the BGA risk roll")


@frozen
class GuardianOptions:
    blocks_white_werewolf: bool = setting(True, "VIL-A-38: his protection also blocks the White Werewolf's attack")
    first_night_only: bool = setting(False, "VIL-A-02: the Guardian acts on Night 1 only")
    little_girl: Literal["no_effect", "forbidden"] = setting("no_effect", "VIL-A-59: naming the Little Girl is accepted without effect, or rejected")


@frozen
class WitchOptions:
    self_heal: Literal["always", "night1_only", "never"] = setting("always", "VIL-A-48: when the Witch may heal herself")
    poison_night1: bool = setting(True, "VIL-A-48: the poison may be used on Night 1")
    shown_when_saved: bool = setting(True, "VIL-A-39: she is shown the pack's victim even when already saved")
    sees_white_werewolf_victim: bool = setting(False, "VIL-A-38: she is also shown (and may heal) the White Werewolf's target")


@frozen
class HunterOptions:
    shoot_when: Literal["any_death", "not_poisoned"] = setting("any_death", "VIL-A-47: the Hunter shoots on any death, or not when poisoned")


@frozen
class WhiteWerewolfOptions:
    schedule: Literal["even", "odd"] = setting("even", "VIL-A-37: nights of his solo kill (even: 2, 4, 6; odd: 1, 3, 5)")


@frozen
class PyromaniacOptions:
    anchor: Literal["pyromaniac", "owner"] = setting("pyromaniac", "VIL-A-32: the wolf burned is the nearest to the Pyromaniac's (or the owner's) right")
    burn_if_target_saved: bool = setting(True, "VIL-A-33: a wolf burns even if the owner was protected, healed or saved")
    ww_counts_as_entry: bool = setting(False, "VIL-A-34: the White Werewolf's target's house counts as entered by the wolves")
    allow_own_building: bool = setting(True, "VIL-A-25: the Pyromaniac may burn his own building")


@frozen
class ScandalmongerOptions:
    requires_alive: bool = setting(False, "VIL-A-40: the poster counts only if he is alive at the close of the vote")
    allow_self: bool = setting(True, "VIL-A-40: he may put the poster on himself")
    barkeeper_target: bool = setting(True, "VIL-A-29: a Barkeeper holding his token is a legal target (worth 0)")
    penalty: int = setting(2, "§5.1.14: votes the poster adds to its holder's score")


@frozen
class WolvesOptions:
    can_target_wolves: bool = setting(False, "VIL-A-42: the pack may target a pack member")
    no_consensus: Literal["plurality_else_none", "plurality_else_random"] = setting("plurality_else_none", "VIL-A-43: the pack's choice: plurality, a tie means no kill or a seeded random pick")


@frozen
class WinOptions:
    wolves_parity: bool = setting(False, "VIL-A-49: the pack also wins once plain werewolves >= all other living players")
    ww_counts_for_pack: bool = setting(False, "VIL-A-49: a living White Werewolf does not block the pack's win")
    villagers_need_piper_dead: bool = setting(True, "VIL-A-49: the villagers must also kill the Piper")


@frozen
class CupidOptions:
    wins_with_lovers: bool = setting(False, "VIL-A-50: Cupid wins with cross-faction lovers instead of the villagers")


@frozen
class LoversOptions:
    recognition: bool = setting(True, "VIL-A-03: the lovers learn each other's name (step VIL-N-03)")
    reveal_roles: bool = setting(False, "VIL-A-50: the lovers also learn each other's card")
    channel: bool = setting(False, "§3.1: the lovers get a private channel")


@frozen
class CharmedOptions:
    channel: bool = setting(False, "§3.1: the charmed players get a private channel (off: the GM PMs the list)")


@frozen
class ElderOptions:
    buildings_affected: bool = setting(False, "VIL-A-56: the Elder's death by the village also removes villagers' building powers")
    village_kill_causes: tuple[Literal["vote", "barber", "hunter", "poison"], ...] = setting(
        ("vote", "barber", "hunter", "poison"), "§5.1.15: deaths of the Elder that cost the villagers their powers")


@frozen
class IdiotOptions:
    sheriff_keeps_title: bool = setting(False, "VIL-A-57: a Sheriff revealed as the Idiot keeps the title")


@frozen
class AnnounceOptions:
    death_causes: bool = setting(False, "VIL-A-51: the dawn post gives causes of death")
    reveal_cards: bool = setting(True, "VIL-A-52: dead players' cards are revealed (never after a pardon)")


@frozen
class TimeOptions:
    night_deadline: Duration = setting(_d("24h"), "§7.Z: after the nightfall post, Wave 1 closes")
    thief_deadline: Duration = setting(_d("12h"), "§7.Z: after the Night 1 nightfall post, Wave 0 (the Thief) closes")
    witch_deadline: Duration = setting(_d("6h"), "§7.Z: after Wave 1 closes, the Witch's wave closes and dawn follows")
    reaction_window: Duration = setting(_d("12h"), "§7.Z: after the post that opens it: Hunter, Sheriff successor or tie-break, Scapegoat")
    vote_open: Duration = setting(_d("36h"), "§7.Z: after the dawn post, the lynch vote opens")
    vote_close: Duration = setting(_d("48h"), "§7.Z: after the dawn post, the lynch vote closes")
    barkeeper_window: float = setting(0.1, "§6.3: the Barkeeper-only share of the vote (or re-vote) window")
    revote_window: Duration = setting(_d("12h"), "§6.5: after the post that calls the re-vote")
    lord_window: Duration = setting(_d("2h"), "§6.6: after the designation post")
    election_deadline: Duration = setting(_d("6h"), "§5.2.1: after the election opens (and again for its re-vote)")
    bailiff_accept_deadline: Duration = setting(_d("6h"), "§5.2.7: after the dawn post, the Bailiff's morning closes")
    draft_pick: Duration = setting(_d("12h"), "§2.2: per pick in the 'draft' building setup")


@frozen
class VillageOptions:
    night_order: Literal["seed", "pact"] = setting("seed", "VIL-A-01: night order: the seed's (Scandalmonger last) or the Pact preset")
    seating: SeatingOptions = setting(SeatingOptions(), "§0: seat direction")
    setup: SetupOptions = setting(SetupOptions(), "§2.2, §2.4: building deal")
    thief: ThiefOptions = setting(ThiefOptions(), "§5.1.8: Thief")
    sheriff: SheriffOptions = setting(SheriffOptions(), "§5.2.1: farmers' Sheriff")
    vote: VoteOptions = setting(VoteOptions(), "§6: lynch vote")
    barkeeper: BarkeeperOptions = setting(BarkeeperOptions(), "§5.2.8: Barkeeper")
    lord: LordOptions = setting(LordOptions(), "§5.2.9: Lord")
    barber: BarberOptions = setting(BarberOptions(), "§5.2.6: Barber")
    confessor: ConfessorOptions = setting(ConfessorOptions(), "§5.2.2: Confessor")
    bonesetter: BonesetterOptions = setting(BonesetterOptions(), "§5.2.3: Bonesetter")
    schoolmarm: SchoolmarmOptions = setting(SchoolmarmOptions(), "§5.2.4: Schoolmarm")
    baker: BakerOptions = setting(BakerOptions(), "§5.2.5: Baker")
    bailiff: BailiffOptions = setting(BailiffOptions(), "§5.2.7: Bailiff")
    seer: SeerOptions = setting(SeerOptions(), "§5.1.3: Seer")
    little_girl: LittleGirlOptions = setting(LittleGirlOptions(), "§5.1.6: Little Girl")
    guardian: GuardianOptions = setting(GuardianOptions(), "§5.1.9: Guardian")
    witch: WitchOptions = setting(WitchOptions(), "§5.1.5: Witch")
    hunter: HunterOptions = setting(HunterOptions(), "§5.1.7: Hunter")
    white_werewolf: WhiteWerewolfOptions = setting(WhiteWerewolfOptions(), "§5.1.12: White Werewolf")
    pyromaniac: PyromaniacOptions = setting(PyromaniacOptions(), "§5.1.13: Pyromaniac")
    scandalmonger: ScandalmongerOptions = setting(ScandalmongerOptions(), "§5.1.14: Scandalmonger")
    wolves: WolvesOptions = setting(WolvesOptions(), "§5.1.2: the pack")
    win: WinOptions = setting(WinOptions(), "§1: win conditions")
    cupid: CupidOptions = setting(CupidOptions(), "§5.1.4: Cupid")
    lovers: LoversOptions = setting(LoversOptions(), "§5.1.4: lovers")
    charmed: CharmedOptions = setting(CharmedOptions(), "§5.1.11: charmed players")
    elder: ElderOptions = setting(ElderOptions(), "§5.1.15: Elder")
    idiot: IdiotOptions = setting(IdiotOptions(), "§5.1.16: Village Idiot")
    announce: AnnounceOptions = setting(AnnounceOptions(), "§3.3: dawn post")
    day_ability_cutoff: Literal["vote_close", "vote_open"] = setting("vote_close", "VIL-A-21: the any-time day powers close at the vote's close, or its opening")
    time: TimeOptions = setting(TimeOptions(), "§7.Z time: windows and deadlines")
