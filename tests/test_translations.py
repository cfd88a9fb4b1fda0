"""Every interface text has its Chinese translation, compiled."""

import gettext
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "zh_Hans" / "LC_MESSAGES"


def entries(po: str) -> list[tuple[str, str]]:
    """Return (msgid, msgstr) pairs of a .po file, multi-line strings joined."""
    return [(msgid, msgstr) for _, msgid, msgstr in contextual_entries(po)]


def contextual_entries(po: str) -> list[tuple[str, str, str]]:
    """Return (msgctxt, msgid, msgstr) of a .po file's entries; msgctxt is "" when absent."""
    pairs: list[dict[str, str]] = []
    key = None
    context = ""
    for line in po.splitlines():
        if line.startswith("msgctxt "):
            context = line.split(" ", 1)[1].strip().strip('"')
            continue
        if line.startswith("msgid "):
            pairs.append({"msgctxt": context, "msgid": "", "msgstr": ""})
            context = ""
        if line.startswith(("msgid ", "msgstr", "msgid_plural")):
            key = line.split(" ", 1)[0].split("[")[0]
            line = line.split(" ", 1)[1]
        elif not line.startswith('"'):
            key = None
            continue
        if pairs and key in ("msgid", "msgstr"):
            pairs[-1][key] += line.strip().strip('"')
    return [(pair["msgctxt"], pair["msgid"], pair["msgstr"]) for pair in pairs if pair["msgid"]]


def test_every_entry_is_translated():
    po = (LOCALE / "django.po").read_text(encoding="utf-8")
    untranslated = [msgid for msgid, msgstr in entries(po) if not msgstr]
    assert not untranslated
    assert "#, fuzzy" not in po


def test_compiled_catalog_matches_its_source():
    with (LOCALE / "django.mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)
    po = (LOCALE / "django.po").read_text(encoding="utf-8")

    def compiled(context: str, msgid: str) -> str:
        text = msgid.replace("\\n", "\n")
        return catalog.pgettext(context, text) if context else catalog.gettext(text)

    stale = [
        msgid
        for context, msgid, msgstr in contextual_entries(po)
        if "%(n)s" not in msgid and compiled(context, msgid) != msgstr
    ]
    assert not stale, "run compilemessages after editing django.po"
