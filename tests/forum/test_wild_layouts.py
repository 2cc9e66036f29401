"""Shapes seen on real saved pages of public forums that forummod was not tuned on (the
pages themselves stay out of the repository; each test writes its own minimal markup of the
shape). One test per mechanism, named after the engine and layout."""

from __future__ import annotations

from datetime import datetime, timezone

from forummod.forum.detect import detect_engine
from forummod.forum.html_engine import parse_thread_page

NOW = datetime(2014, 8, 1, 12, 0, tzinfo=timezone.utc)

SMF11_BARE_DATE_POST = """<tr><td class="windowbg"><a name="msg{mid}"></a>
<table width="100%" cellpadding="5" cellspacing="0" style="table-layout: fixed;"><tr>
<td valign="top" width="16%" rowspan="2" class="poster_info">
<b><a href="https://f.test/index.php?action=profile;u={uid}" title="View the profile of {who}">{who}</a></b>
<div class="smalltext">Newbie<br />Activity: 1</div></td>
<td valign="top" width="85%" class="td_headerandpost"><table width="100%" border="0"><tr>
<td valign="middle"><div style="font-weight: bold;" class="subject" id="subject_{mid}">
<a href="https://f.test/index.php?topic=14.msg{mid}#msg{mid}">Re: Day 1</a></div>
<div class="smalltext">{when}</div></td></tr></table>
<hr width="100%" size="1" class="hrcolor" /><div class="post">{body}</div></td></tr></table></td></tr>"""


def smf11_bare_date_page() -> str:
    posts = [SMF11_BARE_DATE_POST.format(mid=53, uid=16, who="ann", when="December 12, 2009, 02:11:37 PM",
                                         body="vote bob"),
             SMF11_BARE_DATE_POST.format(mid=56, uid=13, who="bob", when="December 12, 2009, 06:23:59 PM",
                                         body="unvote")]
    return ('<html><head><script type="text/javascript">var smf_theme_url = "https://f.test/Themes/custom1";'
            '</script></head><body><table class="bordercolor">' + "".join(posts) + "</table>"
            '<a href="http://www.simplemachines.org/">Powered by SMF 1.1.19</a></body></html>')


def test_smf11_theme_with_the_bare_date_under_the_subject_is_dated(profiles):
    """bitcointalk.org's SMF 1.1 theme prints "December 12, 2009, 02:11:37 PM" under the
    subject without the default theme's "« Reply #1 on: … »" around it."""
    html = smf11_bare_date_page()
    assert detect_engine(profiles, html) == "smf"
    page = parse_thread_page(profiles["smf"], html, url="https://f.test/index.php?topic=14.0", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author) for p in page.posts] == [("53", "ann"), ("56", "bob")]
    assert [p.created_at.isoformat() for p in page.posts] == ["2009-12-12T14:11:37+00:00", "2009-12-12T18:23:59+00:00"]
    assert not any(p.date_guessed for p in page.posts)


def test_phpbb_zone_title_that_is_no_iana_name_falls_back_to_the_offset_shown():
    """phpBB 3.2 (dostips.com) states `All times are <span title="UTC-6">UTC-06:00</span>`:
    the title is a label of a fixed-offset choice, not an IANA name, so the offset is read."""
    from datetime import timedelta

    from forummod.forum.page_locale import stated_zone

    zone, label = stated_zone('<li class="rightside">All times are <span title="UTC-6">UTC-06:00</span></li>')
    assert zone is not None and zone.utcoffset(None) == -timedelta(hours=6)
    assert label == "UTC-06:00"
    zone, label = stated_zone('<li>All times are <span title="Europe/Paris">UTC+01:00</span></li>')
    assert label == "Europe/Paris"
