"""The gettext catalogs (issue 20): one `.po` per language, compiled on the fly in a checkout and
by the build hook for a wheel; plural forms, CLDR dates, overrides, extraction."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from forummod.render import LANGUAGES, MARKUPS, phrasebook_for, render_post
from forummod.render.catalog import LOCALE_DIR, catalog, compile_po, po_path
from forummod.render.phrases import format_when

from tests.render.samples import votecount

ROOT = Path(__file__).resolve().parents[2]
ROME = ZoneInfo("Europe/Rome")


def _copy_locale(tmp_path: Path) -> Path:
    dest = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, dest, ignore=shutil.ignore_patterns("*.mo", "*.pot"))
    return dest


def test_every_language_has_a_catalog_that_babel_accepts():
    from babel.messages.pofile import read_po

    for lang in LANGUAGES:
        with po_path(lang).open("rb") as f:
            cat = read_po(f, locale=lang)
        assert [(m.id, e) for m, errs in cat.check() for e in errs] == [], lang


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_template_sentence_is_translated_in_every_language(lang):
    """Template messages (no `<scope>:` context) are all translated; only the GM-notes words the
    render code adds are still English on purpose (they were English before issue 20)."""
    own, english = catalog(lang).own, catalog(lang).source
    missing = [k for k in english if ":" not in k[0] and k[0] != "GM notes" and k not in own]
    assert missing == []


def test_russian_counts_take_the_plural_form_of_the_catalog():
    pb = phrasebook_for("ru", "mafia-majority", "plain")
    assert [pb.plural(n, "vote") for n in (1, 3, 5, 11, 21, 22, 1.5)] == [
        "1 голос", "3 голоса", "5 голосов", "11 голосов", "21 голос", "22 голоса", "1,5 голосов"]


def test_a_template_count_uses_ngettext_of_the_language(tmp_path: Path):
    locale = _copy_locale(tmp_path)
    po = po_path("ru", locale)
    text = po.read_text(encoding="utf-8").replace(
        'msgstr[0] "Не проголосовали (%(num)s):"\nmsgstr[1] "Не проголосовали (%(num)s):"\n'
        'msgstr[2] "Не проголосовали (%(num)s):"',
        'msgstr[0] "Не проголосовал (%(num)s):"\nmsgstr[1] "Не проголосовали (%(num)s):"\n'
        'msgstr[2] "Не проголосовали (%(num)s):"')
    po.write_text(text, encoding="utf-8")
    cat = catalog("ru", locale)
    assert cat.ngettext("Not voting (%(num)s):", "Not voting (%(num)s):", 1) == "Не проголосовал (%(num)s):"
    assert cat.ngettext("Not voting (%(num)s):", "Not voting (%(num)s):", 21) == "Не проголосовал (%(num)s):"
    assert cat.ngettext("Not voting (%(num)s):", "Not voting (%(num)s):", 3) == "Не проголосовали (%(num)s):"


@pytest.mark.parametrize("lang,expected", [
    ("it", "mer 25 nov alle 22:00 (CET)"),
    ("en", "Wed Nov 25 at 22:00 CET"),
    ("ru", "25 ноября (ср) в 22:00 (CET)"),
    ("nl", "wo 25 nov om 22:00 (CET)"),
    ("zh", "11月25日（周三）22:00（CET）"),
])
def test_deadlines_come_from_a_cldr_pattern_with_names_from_cldr_and_the_zone_s_abbreviation(lang, expected):
    pb = phrasebook_for(lang, "mafia-majority", "plain")
    assert pb.when(datetime(2026, 11, 25, 21, 0, tzinfo=ZoneInfo("UTC")), ROME, "deadline") == expected


def test_a_language_without_a_pattern_gets_babel_s_skeleton_format():
    local = datetime(2026, 11, 25, 22, 0, tzinfo=ROME)
    pb = phrasebook_for("fr", "mafia-majority", "plain")  # no French catalog: Babel's French formats
    assert pb.when(local, ROME, "datetime") == "mer. 25 nov., 22:00" == format_when(local, "fr", "", "datetime")
    assert pb.when(local, ROME, "deadline") == "mer. 25 nov., 22:00 (CET)"
    assert pb.when(local, ROME, "vote_time") == "mer. 22:00"


def test_a_quoted_z_in_a_pattern_stays_text_and_an_unquoted_one_is_the_zone():
    local = datetime(2026, 7, 1, 9, 5, tzinfo=ROME)
    assert format_when(local, "en", "HH:mm z 'z'") == "09:05 CEST z"


def test_an_edited_po_is_compiled_again_on_the_next_render_in_a_checkout(tmp_path: Path):
    locale = _copy_locale(tmp_path)
    po = po_path("it", locale)
    assert catalog("it", locale).gettext("No votes yet.") == "Nessun voto per ora."
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Nessun voto per ora."', 'msgstr "Ancora nessun voto."'),
                  encoding="utf-8")
    os.utime(po, ns=(po.stat().st_atime_ns, po.stat().st_mtime_ns + 10**9))
    assert catalog("it", locale).gettext("No votes yet.") == "Ancora nessun voto."


def test_a_compiled_mo_newer_than_its_po_is_what_is_read(tmp_path: Path):
    locale = _copy_locale(tmp_path)
    po = po_path("it", locale)
    mo = po.with_suffix(".mo")
    changed = tmp_path / "changed.po"
    changed.write_text(po.read_text(encoding="utf-8").replace('msgstr "Nessun voto per ora."', 'msgstr "dal .mo"'),
                       encoding="utf-8")
    mo.write_bytes(compile_po(changed))
    os.utime(mo, ns=(mo.stat().st_atime_ns, po.stat().st_mtime_ns + 10**9))
    assert catalog("it", locale).gettext("No votes yet.") == "dal .mo"


def test_a_phrase_override_file_rewords_one_catalog_entry_by_its_context_path(tmp_path: Path):
    """`common:facts.no_lynch[reason=tie]` is `[facts.no_lynch] tie = ...` in phrases/common.it.toml."""
    (tmp_path / "phrases").mkdir()
    (tmp_path / "phrases" / "common.it.toml").write_text('[facts.no_lynch]\ntie = "Pareggio!"\n', encoding="utf-8")
    from forummod.engine.types import Fact

    pb = phrasebook_for("it", "mafia-majority", "plain", tmp_path)
    assert pb.fact(Fact.of("no_lynch", reason="tie")) == "Pareggio!"
    assert pb.fact(Fact.of("no_lynch", reason="no_votes")) == "Nessuno ha votato: oggi non c'è nessun rogo."


def test_a_gm_s_language_template_wins_over_the_shared_one_and_can_extend_it(tmp_path: Path):
    (tmp_path / "votecount").mkdir()
    (tmp_path / "votecount" / "bbcode.ru.j2").write_text(
        '{% extends "default:votecount/bbcode.j2" %}{% block footer %}Своё.{% endblock %}', encoding="utf-8")
    pb = phrasebook_for("ru", "mafia-majority", "bbcode")
    mine = render_post("votecount", votecount(pb), "bbcode", "ru", tmp_path)
    assert mine.startswith("[b]Голосование — День 2[/b]") and mine.endswith("Своё.\n")
    pb_it = phrasebook_for("it", "mafia-majority", "bbcode")
    assert render_post("votecount", votecount(pb_it), "bbcode", "it", tmp_path) == \
        render_post("votecount", votecount(pb_it), "bbcode", "it")  # other languages keep the bundled one


def test_a_gm_s_shared_template_serves_every_language(tmp_path: Path):
    (tmp_path / "prod").mkdir()
    (tmp_path / "prod" / "markdown.j2").write_text("{% trans deadline=post.deadline %}Deadline: {{ deadline }}{% endtrans %}", encoding="utf-8")
    from tests.render.samples import prod

    pb = phrasebook_for("it", "mafia-majority", "markdown")
    assert render_post("prod", prod(pb), "markdown", "it", tmp_path).startswith("Scadenza:")


@pytest.mark.parametrize("markup", MARKUPS)
def test_a_translated_sentence_escapes_its_variables_for_the_markup(markup):
    from forummod.render.env import get_env

    env = get_env(markup, None, "it")
    out = env.from_string("{% trans player=n %}Hello {{ player }},{% endtrans %}").render(n="*[b]x[/b]*")
    from forummod.render.escape import escape

    assert out == f"Ciao {escape('*[b]x[/b]*', markup)}," and "[b]x[/b]" not in out


def test_babel_is_not_imported_by_the_cron_entry_point():
    code = "import sys, forummod.cli, forummod.render, forummod.drafting; print(any(m.startswith('babel') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_extraction_finds_every_template_message_and_the_catalogs_hold_them():
    from forummod.render.catalog_tools import extract

    pot = extract(ROOT)
    extracted = {(m.context or "", m.id if isinstance(m.id, str) else m.id[0]) for m in pot if m.id}
    english = set(catalog("en").source)
    assert ("", "No votes yet.") in extracted and ("votecount", "Deadline: %(deadline)s") in extracted
    assert extracted - english == set(), "run python -m forummod.render.catalog_tools update"
    assert english - extracted == set(), "catalog messages no template or code uses"


def test_a_checkout_compiles_a_catalog_once_and_later_runs_read_the_cached_mo(tmp_path: Path):
    """A cron tick on an editable install reads the compiled catalog from the user cache: Babel's
    catalog machinery is not imported again until the `.po` changes."""
    code = ("import sys; from forummod.render.catalog import catalog; "
            "assert catalog('it').gettext('No votes yet.') == 'Nessun voto per ora.'; "
            "print(any(m.startswith('babel.messages') for m in sys.modules))")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    if any(po_path(lang).with_suffix(".mo").exists() for lang in ("it", "en")):
        pytest.skip("compiled .mo files next to the .po: nothing is compiled on the fly")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                           check=True).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]
    assert list((tmp_path / "cache").rglob("*.mo"))


def test_no_catalog_leaves_one_plural_form_empty_while_filling_the_others():
    """`msgfmt -c` refuses such a catalog, and gettext would print "" for that count."""
    from babel.messages.pofile import read_po

    from forummod.render.catalog import available_languages, po_path

    bad = []
    for lang in available_languages():
        with po_path(lang).open("rb") as f:
            for msg in read_po(f):
                if msg.id and isinstance(msg.string, tuple) and any(msg.string) and not all(msg.string):
                    bad.append((lang, msg.context, msg.id[0]))
    assert bad == []
