"""Posts a thread's pages imply but the store does not hold (issue 34, item 0).

A poll that follows a wrong "Next" (a board's page list taken for the thread's) or meets a page
whose posts the profile half-reads stops or skips quietly: the count is drawn from part of the
thread and nothing says so. After each poll the store knows how many pages the thread showed
and which pages its live posts came from; a thread of N pages of P posts holds at least
(N - 1) * P + 1. A page never read, or a shortfall of half a page or more, is a `ReadGap` the GM
is told about (poll issue `posts_unread`, alert `posts_unread`). Pure: numbers in, a verdict out.
"""

from __future__ import annotations

from typing import Any, Mapping

from forummod.records import frozen

#: snapshot key + thread role ("read_gap:game"): the gap a thread's last poll left, {} for none
READ_GAP_KEY = "read_gap:"


@frozen
class ReadGap:
    """What a thread's stored posts lack against its page count."""

    role: str  # "game" or "graveyard"
    thread: str  # the store's thread id
    pages: int  # pages the thread showed at its last poll
    per_page: int  # posts a full page holds (the most any page before the last gave), 0: unknown
    read: int  # live posts stored
    expected: int  # the fewest posts the pages imply ((pages - 1) * per_page + 1; pages without a size: 0)
    unread_pages: tuple[int, ...] = ()  # pages 1..pages no stored post came from
    short_pages: tuple[int, ...] = ()  # pages before the last that gave fewer posts than a full page

    @property
    def key(self) -> str:
        """Stable while the gap keeps its shape (new posts on the last page do not change it)."""
        return (f"posts_unread:{self.role}:{self.thread}:{self.pages}:"
                f"{','.join(map(str, self.unread_pages))}:{','.join(map(str, self.short_pages))}")

    def message(self) -> str:
        """The poll's issue, in English (the alert words it in the game's language)."""
        text = (f"{self.role} thread: {self.pages} pages shown, {self.read} posts read"
                + (f" of at least {self.expected} ({self.per_page} a page)" if self.expected else ""))
        if self.unread_pages:
            text += f"; page{'s' if len(self.unread_pages) > 1 else ''} {page_list(self.unread_pages)} not read"
        if self.short_pages:
            text += f"; page{'s' if len(self.short_pages) > 1 else ''} {page_list(self.short_pages)} read short"
        return text + ": the count may miss votes; open the thread in a browser and poll again"

    def payload(self) -> dict[str, Any]:
        return {"role": self.role, "thread": self.thread, "pages": self.pages, "per_page": self.per_page,
                "read": self.read, "expected": self.expected, "unread_pages": list(self.unread_pages),
                "short_pages": list(self.short_pages)}

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> ReadGap:
        return cls(role=str(data["role"]), thread=str(data["thread"]), pages=int(data["pages"]),
                   per_page=int(data["per_page"]), read=int(data["read"]), expected=int(data["expected"]),
                   unread_pages=tuple(int(p) for p in data.get("unread_pages", ())),
                   short_pages=tuple(int(p) for p in data.get("short_pages", ())))


def read_gap(role: str, thread: str, pages: int | None, counts: Mapping[int, int]) -> ReadGap | None:
    """The gap between `pages` (the thread's page count at its last poll) and `counts` (live
    stored posts by page), or None when the store holds what the pages imply.

    A page's size is learnt from the pages before the last (the fullest of them): a forum set to
    25 a page is judged by 25, not by the engine's default. A shortfall under half a page is let
    pass (a post the GM's account may not see, a deletion the store has not noticed yet)."""
    if not pages or pages < 2:
        return None
    read = sum(n for p, n in counts.items() if p <= pages)
    before_last = [n for p, n in counts.items() if p < pages and n > 0]
    per = max(before_last) if before_last else 0
    unread = tuple(p for p in range(1, pages + 1) if counts.get(p, 0) <= 0)
    expected = (pages - 1) * per + 1 if per else 0
    short = tuple(p for p in range(1, pages) if 0 < counts.get(p, 0) < per)
    missing = expected - read
    if not unread and missing < max(2, (per + 1) // 2):
        return None
    return ReadGap(role=role, thread=thread, pages=pages, per_page=per, read=read, expected=expected,
                   unread_pages=unread, short_pages=short)


def page_list(pages: tuple[int, ...]) -> str:
    """"2, 4-6" for (2, 4, 5, 6)."""
    runs: list[list[int]] = []
    for p in pages:
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
