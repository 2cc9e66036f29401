"""What a page that is not the thread is (issue 34, item 8): maintenance, an error, a login form,
a CAPTCHA, "topic does not exist", a blank page.

A board closed for maintenance, an SQL error, a Cloudflare check or a deleted topic all used to be
reported as "no posts matched selector ...; the forum layout may have changed" while the page said
plainly what was wrong. `page_trouble` reads such a page the way a person would: the engines' own
sentences (and the usual ones of other software, in the languages the profiles read), the HTTP
status, a password form, an empty body; and it quotes the page's own words, short and safe to
print in a terminal. Pure: a parsed page in, a verdict out; it is asked only about pages without
posts, and only pages short enough to be a notice are read for sentences (a thread page whose
posts the selectors miss is a layout change, whatever its posts say).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Sequence

from forummod.errors import ErrorPage
from forummod.forum.html_engine import first, first_element, parse_html
from forummod.forum.profile import Profile

KINDS = ("maintenance", "error", "not_found", "captcha", "login", "blank")

#: what each kind means, in the error a command prints (the alert words it in the GM's language)
WORDS = {
    "maintenance": "the forum is closed (maintenance)",
    "error": "the forum shows an error page",
    "not_found": "the forum says the thread does not exist",
    "captcha": "the forum shows a CAPTCHA or browser check instead of the page",
    "login": "the forum shows its login form",
    "blank": "the forum sent a blank page",
}

NOTICE_MAX = 4000  # visible characters: a notice page is short; a thread page whose posts were missed is not
QUOTE_MAX = 160

_CAPTCHA = re.compile(
    r"cf-challenge|challenge-platform|cf_chl_|cf-turnstile|cf-browser-verification|g-recaptcha|h-captcha|"
    r"hcaptcha\.com|google\.com/recaptcha|ddos-guard|sucuri website firewall|"
    r"checking your browser|just a moment\.\.\.|attention required! \| cloudflare|verify you are (?:a )?human|"
    r"are you a robot", re.IGNORECASE)

#: what a browser check says of itself ("Checking if the site connection is secure")
_CHALLENGE = re.compile(r"check|verif|secur|robot|human|captcha|challenge|javascript", re.IGNORECASE)

_SUBJECT = r"(?:topic|thread|discussion|post|message|page|board|forum|subject)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(rx, re.IGNORECASE)) for kind, rx in (
    # a database failing: before "not found" ("Table 'x' doesn't exist")
    ("error", r"\bSQL ERROR\b|\bSQL error\b|\bdatabase error\b|\bTable '[^']+' doesn't exist|\bno such table\b|"
              r"\bSQLSTATE\b|MySQL server has gone away|\bcould not connect to (?:the )?database|"
              r"error establishing a database connection|\bdatabase connection failed|\btoo many connections\b"),
    ("maintenance", r"\bmaintenance\b|\b(?:board|forum|site|website|community)\b[^.!\n]{0,60}?\b(?:is|are|has been)\s+"
                    r"(?:currently\s+|temporarily\s+|now\s+)?(?:closed|disabled|offline|unavailable)\b|"
                    r"\bmanutenzione\b|\bWartung\w*|\bonderhoud\b|\bmantenimiento\b|"
                    r"техническ\w+ работ|обслуживани\w+|форум (?:временно )?закрыт|维护|论坛已关闭|站点已关闭"),
    ("not_found", rf"\b{_SUBJECT}\b[^.!\n]{{0,60}}?\b(?:does not exist|doesn't exist|do not exist|could not be found|"
                  r"cannot be found|can't be found|was not found|not found|no longer exists?|has been (?:deleted|removed)|"
                  r"appears to be either missing)|\binvalid (?:thread|topic|post)\b|\bno (?:thread|topic) specified\b|"
                  r"\b(?:discussione|argomento|messaggio|pagina)\b[^.!\n]{0,60}?\b(?:non esiste|non (?:è stat[oa] )?"
                  r"trovat[oa])|\b(?:Thema|Beitrag|Seite|Thread)\b[^.!\n]{0,60}?\b(?:existiert nicht|nicht gefunden)|"
                  r"\b(?:sujet|discussion|message|page)\b[^.!\n]{0,60}?(?:n'existe pas|introuvable)|"
                  r"\b(?:onderwerp|topic|bericht|pagina)\b[^.!\n]{0,60}?\b(?:bestaat niet|niet gevonden)|"
                  r"(?:тема|сообщение|страница)[^.!\n]{0,60}?(?:не существует|не найден)|"
                  r"(?:主题|帖子|页面)[^。!\n]{0,30}?(?:不存在|未找到|找不到)"),
    ("login", r"\b(?:do not|don't) have permission\b|\bnot logged in\b|\brequires you to be (?:registered and )?logged in\b|\bnot (?:authori[sz]ed|permitted) to\b|\baccess denied\b|"
              r"\bmust (?:be logged in|log in|login)\b|\bplease (?:log ?in|sign in)\b|\bregistered (?:users|members) only\b|"
              r"\bnon (?:hai|sei autorizzat)\w*|\bkeine Berechtigung\b"),
    ("error", r"\bGeneral Error\b|\bInternal Server Error\b|\bFatal error\b|\bAn Error Has Occurred\b|\bInternal Error\b|"
              r"\bService Unavailable\b|\bBad Gateway\b|\bGateway Time-?out\b|\bwe ran into some problems\b|"
              r"\bsomething went wrong\b|\bthere is a problem\b|\bsi è verificato un errore\b|\bFehler aufgetreten\b"),
))
#: words in a notice beside a login form that make it a login page ("missing or off limits ... please login")
_ASKS_LOGIN = re.compile(r"log ?in|sign in|off limits|permission|authori[sz]|accedi|anmelden|inloggen|войд|登录", re.IGNORECASE)
_BLOCKS = {"p", "div", "td", "th", "li", "dd", "dt", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "section",
           "article", "main", "body", "center", "form", "fieldset", "table"}
_INVISIBLE = "//body//text()[not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template)]"
_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


@dataclass(frozen=True)
class PageTrouble:
    """A page that is not the content asked for: its kind (`KINDS`) and its own words."""

    kind: str
    message: str = ""  # the page's own words, one line, at most QUOTE_MAX characters, terminal-safe

    def error(self, url: str, *, status: int = 200, site: str = "") -> ErrorPage:
        """The error a command reports: "<url>: the forum is closed (maintenance): «Back at nine.»"."""
        return ErrorPage(self.kind, WORDS[self.kind], self.message, url, status=status, site=site)


def safe_quote(text: str, limit: int = QUOTE_MAX) -> str:
    """`text` as one short line a terminal shows as it is: whitespace runs become one space,
    control and bidi-override characters become visible escapes (\\x1b, \\u202e), the end is cut
    with an ellipsis."""
    out = []
    for ch in " ".join(text.split()):
        o = ord(ch)
        if unicodedata.category(ch) == "Cc" or o in _BIDI:
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
        else:
            out.append(ch)
    line = "".join(out)
    return line if len(line) <= limit else line[:limit - 1].rstrip() + "…"


def page_trouble(root: Any, text: str, *, status: int = 200, login_selectors: Sequence[Any] = ()) -> PageTrouble | None:
    """What kind of non-content page `root` (parsed from `text`) is, or None when it looks like
    none (then a page without posts is a layout change). `login_selectors`: the profile's
    `[login] login_page` extractors; any form with a password field counts too."""
    visible = [t for t in root.xpath(_INVISIBLE) if t.strip()] if root is not None else []
    title = _title(root)
    if not visible:  # nothing to read: a browser check, a bare login form, or nothing at all
        if _CAPTCHA.search(text):
            return PageTrouble("captcha", safe_quote(title))
        return PageTrouble("login" if _has_login_form(root, login_selectors) else "blank", safe_quote(title))
    if _CAPTCHA.search(text):
        said = next((" ".join(t.split()) for t in visible if _CHALLENGE.search(t)), "") or _heading(root)
        return PageTrouble("captcha", safe_quote(f"{title}: {said}" if title and said and said != title else
                                                 said or title))
    short = sum(len(t) for t in visible) <= NOTICE_MAX
    hit = _first_sentence(visible, title) if short else None
    login_form = short and _has_login_form(root, login_selectors)
    if (hit is not None or login_form) and _has_posts(root):
        hit, login_form = None, False  # a thread page the selectors miss: its posts' words are no notice
    if hit is not None:
        kind, where = hit
        said = _message_around(where, title)
        if kind == "not_found" and login_form and _ASKS_LOGIN.search(said):
            kind = "login"  # SMF to a guest: "missing or off limits to you. Please login below"
        return PageTrouble(kind, safe_quote(said))
    if login_form:
        return PageTrouble("login", safe_quote(title or _heading(root)))
    if status >= 500:
        return PageTrouble("error", safe_quote(_heading(root) or title))
    if status in (404, 410):
        return PageTrouble("not_found", safe_quote(_heading(root) or title))
    return None


def has_posts(profile: Profile, root: Any) -> bool:
    """The profile finds a post (a container with an id) on the page."""
    post = first_element(profile.posts.container, root)
    return post is not None and bool(first(profile.posts.id, post))


def is_login_page(profile: Profile, url: str, text: str, root: Any = None) -> bool:
    """True when a page is the forum's login form rather than the content asked for: a login form
    (the profile's `[login] login_page`) on a page with no post and no other notice. A board closed
    for maintenance shows SMF's administrator login, a MyBB guest sees a login box on every page:
    those are no login pages (logging in would not help, and a refused login stops the run's)."""
    spec = profile.login
    if not spec.login_page:
        return False
    if root is None:
        if "password" not in text.lower():
            return False
        root = parse_html(text)
    if has_posts(profile, root):
        return False  # content is there; a login box in the sidebar does not count
    if not any(ex.elements(root) for ex in spec.login_page):
        return False
    trouble = page_trouble(root, text, login_selectors=spec.login_page)
    return trouble is not None and trouble.kind == "login"


def trouble_error(profile: Profile, text: str, url: str, *, status: int = 200, site: str = "",
                  root: Any = None) -> ErrorPage | None:
    """The `ErrorPage` for a page that is a notice rather than the thread (`page_trouble`), else
    None (a page without posts that says nothing is a layout change)."""
    if root is None:
        root = parse_html(text)
    if status < 400 and has_posts(profile, root):
        return None
    trouble = page_trouble(root, text, status=status, login_selectors=profile.login.login_page)
    return trouble.error(url, status=status, site=site) if trouble else None


def _has_posts(root: Any) -> bool:
    """Whether the page repeats post-shaped blocks (an author and a date, at least twice): then it
    is a thread page the selectors miss, whatever words its posts hold (`structural`)."""
    from forummod.errors import LayoutChanged
    from forummod.forum.structural import StructureUnsure, infer_structure  # the fallback's reader, on a failed page

    try:
        return infer_structure(root).blocks >= 2
    except StructureUnsure as e:  # blocks it would not read as posts with certainty: still repeated blocks
        return e.structure.blocks >= 2
    except LayoutChanged:
        return False


def _title(root: Any) -> str:
    if root is None:
        return ""
    found = root.xpath("//title")
    return " ".join(found[0].text_content().split()) if found else ""


def _heading(root: Any) -> str:
    for tag in ("h1", "h2", "h3"):
        for el in root.iter(tag):
            words = " ".join(el.text_content().split())
            if words:
                return words
    return ""


def _has_login_form(root: Any, login_selectors: Sequence[Any]) -> bool:
    if any(ex.elements(root) for ex in login_selectors):
        return True
    return bool(root.xpath("//form[.//input[translate(@type, 'PASSWORD', 'password') = 'password']]"))


def _plain(text: str) -> str:
    """Text as the patterns read it: one space for any run of whitespace, typographic apostrophes plain."""
    return " ".join(text.split()).replace("\u2019", "'")


def _first_sentence(visible: list[Any], title: str) -> tuple[str, Any] | None:
    """(kind, text node or the title) of the first notice sentence: patterns in order, each over
    the title and the page's visible text."""
    plain = [(node, _plain(node)) for node in visible]
    title = _plain(title)
    for kind, rx in _PATTERNS:
        if title and rx.search(title):
            for node, text in plain:  # the page usually says it again in its body: quote that
                if rx.search(text):
                    return kind, node
            return kind, title
        for node, text in plain:
            if rx.search(text):
                return kind, node
    return None


def _message_around(where: Any, title: str) -> str:
    """The words of the block holding `where` (a text node of the page, or the title): MyBB's
    `td.trow1` with its reason, phpBB's `<p>`, SMF's `div.information`; a heading ("Maintenance
    Mode", "MyBB SQL Error") with the block that follows it."""
    if isinstance(where, str) and not hasattr(where, "getparent"):
        return where
    el = where.getparent()
    if el is not None and getattr(where, "is_tail", False):  # text after an element: its parent's
        el = el.getparent()
    while el is not None and el.tag not in _BLOCKS:
        el = el.getparent()
    if el is None:
        return str(where)
    words = _words(el)
    if el.tag in _HEADINGS and len(words) < 40:
        after = _block_after(el)
        if after:
            words = f"{words}: {after}"
    return words or title


_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


def _words(el: Any) -> str:
    """An element's text as one line, its pieces apart ("SQL ERROR<br>no such table")."""
    return " ".join(" ".join(el.itertext()).split())


def _block_after(heading: Any) -> str:
    """The words of the first element with text after `heading` or after the box it heads."""
    cur = heading
    while cur is not None:
        sib = cur.getnext()
        while sib is not None:
            if isinstance(sib.tag, str) and _words(sib):
                return _words(sib)
            sib = sib.getnext()
        parent = cur.getparent()
        if parent is None or parent.tag in ("body", "html") or _words(parent) != _words(heading):
            return ""
        cur = parent  # the heading's own bar (SMF's div.cat_bar): what follows the bar
    return ""
