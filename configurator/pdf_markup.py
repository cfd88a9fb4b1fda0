"""Text into reportlab's Paragraph markup: the one place where text becomes markup.

A Paragraph reads its text as markup (`<a href>`, `<img src>`, `<font>`, entities), so text
from a probe, a sheet, a quote or a translation goes through `markup` first; only tags the
code itself writes (`<b>`, `<br/>`) are composed around the escaped parts.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape


def markup(text: object) -> str:
    """Return text as Paragraph markup that shows it literally (&, < and > escaped)."""
    return escape(str(text))


def markup_lines(texts: Iterable[object]) -> str:
    """Return texts as Paragraph markup, one line each."""
    return "<br/>".join(markup(text) for text in texts)
