"""forummod against the data: each day's outcome and each moderator count, voter by voter.

A count is *exact* when every voter -> target pair agrees, "not voting" included: the voters
are the seats forummod has alive at that post plus any the moderator lists as voting; a seat
the count does not mention is not voting. A count with names the harness cannot read (a
moderator's own nicknames) is compared on the seats it does name only.

A *moderator error* is a difference at count C for voter V that the moderator's own adjacent
count of the same day contradicts without cause: the moderator's previous count (or next one)
gives V the vote forummod gives at C, forummod gives V that same vote at that count too, and
V's seat posted nothing between the two counts. Nothing V wrote can explain the moderator's
change, so the posts contradict C; such a difference is listed, not counted against forummod.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Mapping, Sequence

from benchmarks.accuracy.modcounts import NOT_VOTING, ModCount
from benchmarks.accuracy.runner import Standing


@dataclass(frozen=True)
class Diff:
    """One voter the moderator and forummod disagree on at a count."""

    voter: str
    moderator: str  # the moderator's target seat, NO_LYNCH or NOT_VOTING
    forummod: str


@dataclass(frozen=True)
class CountCheck:
    """One moderator count against forummod's count just before its post."""

    post: int
    phase: str
    voters: int
    diffs: tuple[Diff, ...]  # every difference (moderator errors included)
    moderator_errors: tuple[Diff, ...]

    @property
    def exact(self) -> bool:
        """Exact once the moderator's own errors are set aside."""
        return len(self.diffs) == len(self.moderator_errors)

    @property
    def strict(self) -> bool:
        return not self.diffs


def diffs_at(count: ModCount, st: Standing) -> tuple[tuple[Diff, ...], int]:
    voters = set(st.living) | {v for v, t in count.votes.items() if t != NOT_VOTING}
    if not count.complete:
        voters &= set(count.listed)
    out = []
    for v in sorted(voters):
        mod = count.votes.get(v, NOT_VOTING)
        fm = st.votes.get(v, NOT_VOTING)
        if mod != fm:
            out.append(Diff(v, mod, fm))
    return tuple(out), len(voters)


def check_counts(counts: Sequence[ModCount], standings: Mapping[int, Standing],
                 seat_posts: Mapping[str, Sequence[int]]) -> list[CountCheck]:
    """Every count that has a forummod standing (a count posted during a day)."""
    rows = [(c, standings[c.post]) for c in counts if c.post in standings]
    out = []
    for i, (c, st) in enumerate(rows):
        diffs, n = diffs_at(c, st)
        errors = []
        for d in diffs:
            for j in (i - 1, i + 1):
                if not 0 <= j < len(rows) or rows[j][1].phase != st.phase:
                    continue
                oc, ost = rows[j]
                if oc.votes.get(d.voter, NOT_VOTING) == d.forummod and ost.votes.get(d.voter, NOT_VOTING) == d.forummod \
                        and not _posted_between(seat_posts.get(d.voter, ()), min(oc.post, c.post), max(oc.post, c.post)):
                    errors.append(d)
                    break
        out.append(CountCheck(c.post, st.phase, n, diffs, tuple(errors)))
    return out


def _posted_between(posts: Sequence[int], lo: int, hi: int) -> bool:
    i = bisect.bisect_right(posts, lo)
    return i < len(posts) and posts[i] < hi
