"""The shapes of a number as people type it: into a form, a query string or a sheet cell.

Python's `int()` and `float()` take more than anyone means: digits of other scripts (`²`
passes `str.isdigit()` and fails `int()`; `٣` and `８` pass both), underscores (`1_000`),
`nan`, `inf` and `1e400` (which is `inf`), and `int()` raises past 4,300 digits. Every reader
of typed numbers (the pages' fields in `fields.py`, the fleet sheet's cells in
`fleet/rows.py`) matches one of these shapes first, in the ASCII digits 0–9, and bounds the
length before converting.
"""

import re

# A whole number: `8`, `+8`, `-1`, and `8.0` as Excel writes it. Groups: sign, digits.
WHOLE = re.compile(r"([+-]?)([0-9]+)(?:\.0*)?", re.ASCII)
# A decimal number: `7`, `0.5`, `.5`, `3e11` (an exponent of at most three digits).
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?", re.ASCII)
# Digits alone: one count of `4+4`.
DIGITS = re.compile(r"[0-9]+", re.ASCII)
