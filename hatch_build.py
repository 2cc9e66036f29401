"""Hatchling build hook: compile the gettext catalogs (`.po`) into the wheel as `.mo`.

The `.po` files under `src/forummod/locale/` are what translators edit and what the repository
keeps; a wheel carries the compiled `.mo` next to each, so an installed forummod reads them
without Babel's catalog machinery. An editable install skips this: forummod compiles a `.po`
on first use (`forummod.render.catalog`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LOCALE = Path("src") / "forummod" / "locale"


class CatalogBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root)
        self._tmp = tempfile.TemporaryDirectory(prefix="forummod-mo-")
        out = Path(self._tmp.name)
        for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po")):
            lang = po.parent.parent.name
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang, domain=po.stem)
            errors = [(m.id, err) for m, errs in catalog.check() for err in errs]
            if errors:
                raise ValueError(f"{po}: {len(errors)} broken messages, first: {errors[0]}")
            mo = out / lang / "LC_MESSAGES" / f"{po.stem}.mo"
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as f:
                write_mo(f, catalog)
            build_data["force_include"][str(mo)] = f"forummod/locale/{lang}/LC_MESSAGES/{po.stem}.mo"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
