"""The Chinese catalogue writes each term of docs/glossary.md one way, with full-width
punctuation."""

import re
from pathlib import Path

from tests.test_translations import LOCALE, contextual_entries

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"
IDEOGRAPH = "\u4e00-\u9fff"
# An ASCII mark touching a Chinese character: "影响:", "下限, X", "（": a comma, colon, … after
# Chinese or before it (one space between), a bracket right beside it. A product name's own
# brackets, set apart by a space ("OSFP (MCX75310AAS-NEAT) 网卡"), are the name's.
ASCII_BESIDE_CHINESE = re.compile(
    rf"[{IDEOGRAPH}][,;:()?!]|[,;:?!] ?[{IDEOGRAPH}]|[()][{IDEOGRAPH}]"
)
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sdr]|%%")


def glossary_terms() -> list[tuple[str, str, list[str]]]:
    """Return (English, Chinese, forbidden variants) of each row of the glossary's table."""
    text = GLOSSARY.read_text(encoding="utf-8")
    table = text.split("## Terms", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "") or set(cells[0]) <= {"-"}:
            continue
        rows.append((cells[0], cells[1], re.findall(r"`([^`]+)`", cells[2])))
    return rows


def chinese_texts() -> list[tuple[str, str]]:
    """Return (msgid, msgstr) of every entry of the Chinese catalogue."""
    po = (LOCALE / "django.po").read_text(encoding="utf-8")
    return [(msgid, msgstr) for _context, msgid, msgstr in contextual_entries(po)]


def test_the_glossary_lists_terms_and_their_forbidden_variants():
    terms = glossary_terms()
    assert len(terms) >= 20
    forbidden = {variant for _english, _chinese, variants in terms for variant in variants}
    assert {"词元", "批量大小", "拒绝", "瓦"} <= forbidden


def test_the_catalogue_uses_no_forbidden_variant():
    found = [
        (english, variant, msgid)
        for english, _chinese, variants in glossary_terms()
        for variant in variants
        for msgid, msgstr in chinese_texts()
        if variant in msgstr
    ]
    assert not found, found


def test_chinese_text_uses_full_width_punctuation():
    found = [
        msgstr
        for _msgid, msgstr in chinese_texts()
        if ASCII_BESIDE_CHINESE.search(PLACEHOLDER.sub("X", msgstr))
    ]
    assert not found, found


def test_the_punctuation_check_catches_what_the_glossary_forbids():
    assert ASCII_BESIDE_CHINESE.search("影响: 8 卡")
    assert ASCII_BESIDE_CHINESE.search(PLACEHOLDER.sub("X", "取 %(floor)s W 下限, %(sized)s"))
    assert not ASCII_BESIDE_CHINESE.search("影响：8 卡，2·(N + L·s·h)·T")
    assert not ASCII_BESIDE_CHINESE.search("1 × OSFP (MCX75310AAS-NEAT) 网卡")
