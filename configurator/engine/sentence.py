"""Read a customer's one-line request into the workload's fields (docs/sentence.md).

"serve Qwen2.5-72B to 50 users, first token under 1 s", "用 H20 部署 DeepSeek-R1，1000 tok/s",
"train a 7B on 1T tokens in 14 days", "7B LoRA 便宜点": `read_sentence` finds in the text

- a **model** of the known-model table (`model_shapes.MODEL_SHAPES`) by its id, name or
  repository, separators optional ("Qwen2.5-72B", "qwen 2.5 72b", "DeepSeek R1");
- a **GPU** of the catalog the caller passes, by its model number and any qualifier
  ("H20", "RTX 4090", "H100 SXM"), with the count before it noted ("8 × H100", "8 卡");
- a **choice** of a choice field by one of its declared phrases (`Input.choice_words`):
  the mode ("serve", "训练"), the fine-tuning method ("LoRA"), the precision ("FP8");
- **quantities**: a number (digits, "1,000", "3e11", "1.5", or Chinese numerals "五十"),
  a magnitude (k, M, B, T, 千, 万, 亿) and a unit of a field's declared `unit` ("1 s",
  "500 ms", "1000 tok/s", "1T tokens", "14 days", "两周", "3万元/月"); each is given to the
  page field whose unit it carries and whose words (`Input.words`) stand beside it — only
  comparators and small words between ("first token under 1 s", "50 users", "并发 50") —
  within the field's modes, bounds deciding between fields of one unit and the first declared
  field breaking a tie ("1T tokens" is the tokens to train on, not a context);
- **cheap** words ("on a budget", "便宜点"): said back as a note, since the builds are ranked
  by what they cost.

Everything else either is a small word (articles, "please", "用", "的", comparators) or is
said back as not read. The mode not said is the one mode every field read applies to ("50
users": inference; "LoRA": fine-tuning). Nothing here knows a field by its name but the mode
and the preferred GPU, whose roles the grammar needs: the fields, their kinds, units, bounds,
modes and words are read from `build.Workload`'s declaration. No Django, no external service.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from configurator.engine.build import Workload
from configurator.engine.fields import Declared, declarations
from configurator.engine.messages import Message, Written, _, join
from configurator.engine.model_shapes import DISTILLED, MODEL_SHAPES

MAX_SENTENCE = 300  # characters: a longer text is refused before it is read
MODE = "mode"  # the field the others' modes refer to
PREFERRED_GPU = "gpu"  # the field a GPU named in the sentence fills
PER_USER_TIME = "target_tpot_s"  # the field one user's rate fills: a time per output token

# The page's fields, as declared; the sentence sets only what the form shows.
FIELDS: tuple[Declared, ...] = tuple(f for f in declarations(Workload) if f.spec.page)
_BY_NAME = {f.name: f for f in FIELDS}
_MODEL_FIELD = next(f.name for f in FIELDS if f.spec.searchable)
_NUMBER_FIELDS = tuple(f for f in FIELDS if f.spec.kind in ("int", "float"))

# Units, by the declared unit's message id: each word and what one of it is in that unit.
# "per month" words make a price a monthly one; a currency alone is taken as monthly too.
_CURRENCY = ("cny", "rmb", "yuan", "元", "块钱", "块")
_PER_MONTH = ("/month", "/mo", "a month", "per month", "monthly", "/月", "每月")
UNITS: Mapping[str, Mapping[str, float]] = MappingProxyType(
    {
        "seconds": {
            "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "秒": 1, "秒钟": 1,
            "ms": 1e-3, "msec": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3, "毫秒": 1e-3,
            "min": 60, "mins": 60, "minute": 60, "minutes": 60, "分钟": 60,
        },
        "days": {
            "d": 1, "day": 1, "days": 1, "天": 1, "日": 1, "h": 1 / 24, "hour": 1 / 24,
            "hours": 1 / 24, "hrs": 1 / 24, "小时": 1 / 24, "个小时": 1 / 24, "week": 7,
            "weeks": 7, "wk": 7, "周": 7, "星期": 7, "个星期": 7, "礼拜": 7, "个礼拜": 7,
            "month": 30, "months": 30, "个月": 30,
        },
        "tokens per second": {
            word: 1
            for word in ("tok/s", "toks/s", "tokens/s", "token/s", "t/s", "tps", "tokens/sec",
                         "tokens per second", "tokens a second", "tokens per sec",
                         "token per second", "token a second", "token per sec", "词元/秒",
                         "token/秒", "tokens/秒", "字/秒", "token每秒", "tokens每秒")
        },
        "tokens": {"tokens": 1, "token": 1, "toks": 1, "tok": 1, "词元": 1, "个token": 1},
        "billion parameters": {
            "parameters": 1e-9, "params": 1e-9, "param": 1e-9, "参数": 1e-9, "参数量": 1e-9,
        },
        "CNY per month": {
            **{word: 1 for word in _CURRENCY + _PER_MONTH},
            **{f"{c} {m}": 1 for c in _CURRENCY for m in _PER_MONTH},
        },
    }
)  # fmt: skip
PARAMETERS = "billion parameters"  # the unit a bare "7B" or "70亿" is read in
RATE = "tokens per second"  # the unit a per-user word makes one user's rate
PRICE = "CNY per month"  # the unit a "¥" amount is read in
GPU_COUNT = "GPUs"  # a count of GPUs: no field of the form, said back as a note
# An amount in another currency than the budget's (CNY): said back as a note, never converted.
FOREIGN = "another currency"
_FOREIGN_CURRENCY = ("usd", "us$", "dollars", "dollar", "美元", "美金", "eur", "euros", "euro",
                     "欧元")  # fmt: skip
UNITS_AND_COUNT: Mapping[str, Mapping[str, float]] = MappingProxyType(
    {**UNITS, GPU_COUNT: {w: 1 for w in ("gpus", "gpu", "cards", "card", "x", "×", "*", "卡",
                                        "张卡", "张", "块卡", "片")},
     FOREIGN: {**{w: 1 for w in _FOREIGN_CURRENCY},
               **{f"{c} {m}": 1 for c in _FOREIGN_CURRENCY for m in _PER_MONTH}}}
)  # fmt: skip

# Magnitudes a number may carry ("7B", "1.5k", "3万").
MAGNITUDES: Mapping[str, float] = MappingProxyType(
    {
        "k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9,
        "billion": 1e9, "t": 1e12, "trillion": 1e12, "千": 1e3, "万": 1e4, "百万": 1e6,
        "千万": 1e7, "亿": 1e8, "十亿": 1e9, "万亿": 1e12,
    }
)  # fmt: skip

# "Make it cheap" without a figure: said back, not a field.
CHEAP = (
    "cheap", "cheaper", "cheapest", "low cost", "lowest cost", "low-cost", "on a budget",
    "budget-friendly", "affordable", "inexpensive", "cost-effective", "save money", "便宜点",
    "便宜些", "便宜的", "便宜", "省钱", "低成本", "成本低", "性价比高", "性价比", "划算", "实惠",
)  # fmt: skip
# Words that make a rate beside them one user's ("20 tokens/s per user", "每路 20 token/秒"):
# the rate is the per-user speed, never the total; away from a rate they are small words.
PER_USER = (
    "per user", "per-user", "each user", "per person", "per stream", "per request",
    "per session", "/user", "each", "每个用户", "每用户", "每位用户", "单用户", "每人", "每路",
    "单路", "每个请求", "每请求", "每并发",
)  # fmt: skip
# Words that carry no field: comparators ("under", "以内") and small words, in both languages.
FILLERS = (
    "a", "an", "the", "to", "for", "of", "on", "in", "at", "by", "with", "and", "or", "about",
    "around", "approximately", "approx", "roughly", "some", "my", "our", "we", "i", "need",
    "needs", "want", "wants", "would", "like", "please", "can", "could", "you", "it", "that",
    "this", "is", "are", "be", "model", "models", "llm", "run", "running", "use", "using",
    "get", "me", "us", "from", "under", "below", "less than", "at most", "max", "maximum",
    "no more than", "not more than", "within", "up to", "at least", "min", "minimum",
    "more than", "over", "above", "every", "instruct", "base", "build", "server",
    "servers", "node", "nodes", "gpu", "gpus", "card", "cards", "finish", "finished", "done",
    "target", "time", "latency", "how", "many", "much", "which", "what", "should", "must",
    "has", "have", "will", "just", "only", "also", "plus", "as", "so", "then", "than",
    "all", "one", "ones", "good", "fast", "quick", "quickly", "customer", "customers",
    "≤", "<=", "<", "≥", ">=", ">", "~", "≈",
    "用", "使用", "采用", "在", "上", "跑", "要", "需要", "想", "想要", "我", "我们", "请",
    "帮我", "帮", "给", "和", "与", "及", "并且", "并", "同时", "以及", "的", "了", "这个",
    "一个", "个", "大模型", "模型", "一点", "点", "一些", "些", "一下", "吧", "呢", "啊",
    "呀", "把", "做", "进行", "来", "对", "支持", "满足", "能够", "能", "可以", "时间", "延迟",
    "以内", "之内", "内", "以下", "不超过", "不到", "低于", "小于", "少于", "最多", "至多",
    "以上", "至少", "不低于", "大于", "超过", "达到", "约", "大约", "左右", "差不多", "完成",
    "搞定", "完", "服务器", "机器", "节点", "显卡", "一台", "台", "方案", "配置", "怎么",
    "如何", "多少", "目标", "要求", "保证", "控制在", "控制", "为", "是", "有", "大概",
    "每个", "每", "时", "下", "客户", "版本", "版", "满血版", "满血", "way", "best", "option",
    "options", "solution", "setup", "rent", "renting", "rented", "租", "租用", "月租",
)  # fmt: skip
# Characters that separate phrases; a number's field words must stand on its side of them.
PUNCTUATION = ",;!?()[]:：、。，；！？（）“”\"'|·="
GLUE = ":：="  # between a field's words and its number: "users: 50"


@dataclass(frozen=True, slots=True)
class Read:
    """One field the sentence set: its declared name, its value as the form takes it (a
    number, a choice's value, a model id, a GPU slug) and the words it was read from."""

    field: str
    value: object
    words: str


@dataclass(frozen=True, slots=True)
class Reading:
    """What a sentence says: the fields it set (in declared order), the fragments it could
    not read (as written) and what else it said back (`notes`, messages)."""

    sentence: str
    reads: tuple[Read, ...] = ()
    unread: tuple[str, ...] = ()
    notes: tuple[Message, ...] = ()

    def values(self) -> dict[str, object]:
        """Return the fields set, by declared name."""
        return {read.field: read.value for read in self.reads}


class SentenceTooLong(ValueError):
    """A sentence over `MAX_SENTENCE` characters: refused before it is read."""


@dataclass
class _Span:
    start: int
    end: int
    kind: str  # model, gpu, choice, word, quantity, cheap, filler
    field: str | None = None  # the field a model, GPU, choice or field word belongs to
    value: object = None  # a model id, GPU slugs, a choice value; a quantity's amount
    unit: str | None = None  # a quantity's unit (a declared unit's id, or GPU_COUNT)
    used: bool = False  # a field word: it named a quantity


def _phrase(text: str, head: bool = True) -> str:
    """Return a pattern for a phrase: separators optional, ASCII ends on word boundaries
    (`head`: its start too; a unit follows its number at once, "300ms")."""
    chunks = [re.escape(chunk) for chunk in re.split(r"[\s\-]+", text.strip()) if chunk]
    body = r"[\s\-]*".join(chunks)
    head = r"(?<![a-z0-9])" if head and re.match(r"[a-z0-9]", text, re.I) else ""
    tail = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$", text, re.I) else ""
    return head + body + tail


def _alternation(words: Iterable[str]) -> str:
    """Return the units as one pattern, the longest first ("tok/s" before "tok")."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "|".join(_phrase(word, head=False) for word in ordered)


_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[+-]?\d+)?"
_CHINESE = "零〇一二两三四五六七八九十百千万亿"
_CHINESE_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
                   "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
_CHINESE_SMALL = {"十": 10, "百": 100, "千": 1000}


def chinese_number(text: str) -> float:
    """Return the value of a Chinese numeral: 十四 14, 五十 50, 两千 2000, 一万五千 15000."""
    total, section, digit = 0.0, 0.0, 0
    for char in text:
        if char in _CHINESE_DIGITS:
            digit = _CHINESE_DIGITS[char]
        elif char in _CHINESE_SMALL:
            section += (digit or 1) * _CHINESE_SMALL[char]
            digit = 0
        elif char == "万":
            total += (section + digit or 1) * 1e4
            section, digit = 0.0, 0
        elif char == "亿":
            total = (total + section + digit or 1) * 1e8
            section, digit = 0.0, 0
    return total + section + digit


@cache
def _quantity_pattern() -> re.Pattern[str]:
    units = [word for words in UNITS_AND_COUNT.values() for word in words]
    # An ASCII magnitude ends its word ("500ms" is milliseconds, not 500 million seconds;
    # "1000 t/s" is a rate, not 1000 trillion).
    magnitude = "|".join(
        re.escape(m) + ("(?![a-z/])" if m.isascii() else "")
        for m in sorted(MAGNITUDES, key=len, reverse=True)
    )
    return re.compile(
        rf"(?P<currency>[¥￥$]\s*)?"
        rf"(?:(?<![0-9a-z.])(?P<digits>{_DIGITS})(?![0-9])|(?P<chinese>[{_CHINESE}]+))"
        rf"(?:\s*(?P<magnitude>{magnitude}))?"
        rf"(?:[\s\-]*(?P<unit>{_alternation(units)}))?",
        re.IGNORECASE,
    )


def _compact(word: str) -> str:
    return re.sub(r"[\s\-]+", "", word.lower())


@cache
def _unit_words() -> dict[str, tuple[str, float]]:
    """Return each unit word, compacted, with its unit and scale."""
    return {
        _compact(word): (unit, scale)
        for unit, words in UNITS_AND_COUNT.items()
        for word, scale in words.items()
    }


@cache
def _model_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each known model's names as patterns: letters and digits, separators optional."""
    patterns = []
    for shape in MODEL_SHAPES.values():
        for name in {shape.id, shape.name, shape.repo}:
            runs = re.findall(r"[a-z]+|[0-9]+", name.lower())
            body = r"[\s\-_./]*".join(re.escape(run) for run in runs)
            patterns.append((re.compile(rf"(?<![a-z0-9]){body}(?![a-z0-9])", re.I), shape.id))
    # The longest names first: "Qwen2.5-72B" before a shorter name it starts with.
    return tuple(sorted(patterns, key=lambda item: len(item[0].pattern), reverse=True))


# A distilled model's name: its teacher's name, "distill", its base's family and size
# ("DeepSeek-R1-Distill-Qwen-7B"); the teacher's name alone must not name it.
@cache
def _distilled_pattern() -> re.Pattern[str]:
    teachers = "|".join(pattern.pattern for pattern, _model in _model_patterns())
    return re.compile(
        rf"(?:(?<![a-z0-9])[a-z0-9\-_.]+/)?(?:(?:{teachers})[\s\-_]*)?(?<![a-z0-9])"
        rf"distill(?:ed)?[\s\-_]*[a-z]+[\s\-_]*\d+(?:\.\d+)?b(?![a-z0-9])",
        re.I,
    )


def _runs(name: str) -> tuple[str, ...]:
    """Return a name's letter and number runs, lower case: the same however it is written."""
    return tuple(re.findall(r"[a-z]+|[0-9]+(?:\.[0-9]+)?", name.lower()))


@cache
def _distilled() -> dict[tuple[str, ...], str]:
    return {_runs(name): base for name, base in DISTILLED.items()}


def _distilled_span(match: re.Match[str]) -> _Span:
    """A distilled model: its base's id where the known-model table holds the base, else
    its name as written, a model not known (said back)."""
    said = match.group(0)
    runs = _runs(said.rsplit("/", 1)[-1])
    base = _distilled().get(runs)
    if base in MODEL_SHAPES:
        return _Span(match.start(), match.end(), "model", _MODEL_FIELD, base)
    return _Span(match.start(), match.end(), "unknown_model", value=base)


_GPU_VENDOR_WORDS = ("nvidia", "geforce", "rtx", "tesla")


def _gpu_terms(name: str) -> tuple[str, tuple[str, ...]] | None:
    """Return a GPU name's model number ("h100", "4090") and its qualifiers ("sxm5", "80gb")."""
    runs = [run for run in re.findall(r"[a-z0-9]+", name.lower()) if run not in _GPU_VENDOR_WORDS]
    key = next((run for run in runs if re.search(r"\d", run)), None)
    if key is None:
        return None
    return key, tuple(run for run in runs if run != key)


def _qualifies(said: str, qualifier: str) -> bool:
    """Return whether a word said beside a GPU's number names one of its qualifiers."""
    said = said.lower().replace(" ", "")
    said = re.sub(r"(\d+)g$", r"\1gb", said)
    return said == qualifier or (len(said) >= 3 and qualifier.startswith(said))


_GPU_QUALIFIER = r"(?:sxm\d?|pcie|nvl|\d+\s*(?:gb|g|gib))"


def _gpu_spans(text: str, gpus: Iterable[tuple[str, str]], taken: list[_Span]) -> list[_Span]:
    """Find the catalog's GPUs by model number, with the qualifiers said after it."""
    by_key: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for slug, name in gpus:
        terms = _gpu_terms(name)
        if terms:
            by_key.setdefault(terms[0], []).append((slug, name, terms[1]))
    spans = []
    vendor = "|".join(_GPU_VENDOR_WORDS)
    for key in sorted(by_key, key=len, reverse=True):
        pattern = re.compile(
            rf"(?<![a-z0-9])(?:(?:{vendor})[\s\-]*)*{re.escape(key)}"
            rf"(?P<qualifiers>(?:[\s\-]*{_GPU_QUALIFIER}(?![a-z0-9]))*)(?![a-z0-9])",
            re.I,
        )
        for match in pattern.finditer(text):
            if _overlaps(match.start(), match.end(), taken + spans):
                continue
            said = re.findall(r"sxm\d?|pcie|nvl|\d+\s*(?:gb|gib|g)", match["qualifiers"], re.I)
            named = [
                (slug, name)
                for slug, name, qualifiers in by_key[key]
                if all(any(_qualifies(word, q) for q in qualifiers) for word in said)
            ]
            named = named or [(slug, name) for slug, name, _qualifiers in by_key[key]]
            spans.append(_Span(match.start(), match.end(), "gpu", PREFERRED_GPU, tuple(named)))
    return spans


def _overlaps(start: int, end: int, spans: Iterable[_Span]) -> bool:
    return any(start < span.end and span.start < end for span in spans)


@cache
def _word_patterns() -> tuple[tuple[re.Pattern[str], str, str | None, object, bool], ...]:
    """Every phrase of the lexicon: (pattern, kind, field, choice value, whether it holds a
    digit), longest first."""
    entries: list[tuple[str, str, str | None, object]] = []
    for f in FIELDS:
        entries += [(word, "word", f.name, None) for word in f.spec.words]
        for value, words in f.spec.choice_words:
            entries += [(word, "choice", f.name, value) for word in words]
    entries += [(word, "cheap", None, None) for word in CHEAP]
    entries += [(word, "per_user", None, None) for word in PER_USER]
    entries += [(word, "filler", None, None) for word in FILLERS]
    entries.sort(key=lambda entry: len(entry[0]), reverse=True)
    return tuple(
        (re.compile(_phrase(word), re.I), kind, name, value, bool(re.search(r"\d", word)))
        for word, kind, name, value in entries
    )


def _take(pattern: re.Pattern[str], text: str, taken: list[_Span], make) -> None:
    """Add `make(match)` for each match of `pattern` that no span taken already covers."""
    for match in pattern.finditer(text):
        if match.end() > match.start() and not _overlaps(match.start(), match.end(), taken):
            span = make(match)
            if span is not None:
                taken.append(span)


def _maker(kind: str, name: str | None, value: object):
    return lambda match: _Span(match.start(), match.end(), kind, name, value)


def _quantity(match: re.Match[str]) -> _Span | None:
    """Return a number with its magnitude and unit, in the unit's own terms (500 ms: 0.5)."""
    if match["digits"]:
        number = float(match["digits"].replace(",", ""))
    elif match["chinese"] in _NOT_NUMBERS and not (match["unit"] or match["magnitude"]):
        return None
    else:
        number = chinese_number(match["chinese"])
    magnitude = MAGNITUDES[match["magnitude"].lower()] if match["magnitude"] else 1.0
    amount, unit = number * magnitude, None
    if match["unit"]:
        unit, scale = _unit_words()[_compact(match["unit"])]
        amount *= scale
    elif match["currency"]:
        unit = PRICE
    elif magnitude >= 1e8:  # "7B", "70亿", "1T": a parameter count
        unit, amount = PARAMETERS, amount / 1e9
    if match["currency"] and match["currency"].strip() == "$":
        unit = FOREIGN  # "$5000 a month": dollars, whatever follows
    return _Span(match.start(), match.end(), "quantity", value=amount, unit=unit)


# Chinese numerals that stand alone in ordinary words ("一个", "一些", "千万"), not numbers
# unless a unit or magnitude follows ("一个月", "一万").
_NOT_NUMBERS = frozenset({"一", "百", "千", "万", "亿", "千万"})


def read_sentence(sentence: str, gpus: Iterable[tuple[str, str]] = ()) -> Reading:
    """Return the workload fields a sentence sets (module docstring); `gpus`: the catalog's
    GPUs as (slug, name), which a GPU named in the sentence is matched against."""
    if len(sentence) > MAX_SENTENCE:
        raise SentenceTooLong(sentence[:40])
    text = unicodedata.normalize("NFKC", sentence).strip()
    taken: list[_Span] = []
    _take(_distilled_pattern(), text, taken, _distilled_span)
    for pattern, model in _model_patterns():
        _take(pattern, text, taken, _maker("model", _MODEL_FIELD, model))
    taken += _gpu_spans(text, gpus, taken)
    # Phrases that hold a digit ("4-bit", "个epoch") before the numbers, then the numbers,
    # then every other phrase, longest first.
    words = _word_patterns()
    for pattern, kind, name, value, _digit in (word for word in words if word[4]):
        _take(pattern, text, taken, _maker(kind, name, value))
    _take(_quantity_pattern(), text, taken, _quantity)
    for pattern, kind, name, value, _digit in words:
        _take(pattern, text, taken, _maker(kind, name, value))
    taken.sort(key=lambda span: span.start)
    return _Reader(text, taken).reading()


class _Reader:
    """Turn the spans found in a sentence into fields, notes and what was not read."""

    def __init__(self, text: str, spans: list[_Span]) -> None:
        self.text = text
        self.spans = spans
        self.values: dict[str, tuple[object, str]] = {}  # field -> (value, words)
        self.notes: list[Message] = []

    def said(self, span: _Span) -> str:
        return self.text[span.start : span.end].strip()

    def set(self, name: str, value: object, words: str) -> None:
        if name in self.values:
            if self.values[name][0] != value:
                self.notes.append(
                    _(
                        "%(words)s: %(field)s was given already as %(first)s; the first is kept.",
                        words=words, field=_BY_NAME[name].spec.label,
                        first=self.values[name][1],
                    )
                )  # fmt: skip
            return
        self.values[name] = (value, words)

    def reading(self) -> Reading:
        for span in self.spans:
            if span.kind in ("model", "choice"):
                self.set(span.field, span.value, self.said(span))
            elif span.kind == "gpu":
                self.gpu(span)
        mode = self.values.get(MODE, (None, ""))[0]
        for span in self.spans:
            if span.kind == "quantity":
                self.quantity(span, mode)
        self.settle_mode()
        for span in self.spans:
            if span.kind == "unknown_model":
                self.notes.append(
                    _(
                        "%(words)s: a distilled model; the known models do not hold its base "
                        "%(base)s: give its size instead, such as 7B.",
                        words=self.said(span), base=Written(span.value),
                    )
                    if span.value
                    else _(
                        "%(words)s: a distilled model the known models do not hold: give its "
                        "size instead, such as 7B.",
                        words=self.said(span),
                    )
                )  # fmt: skip
        cheap = [self.said(span) for span in self.spans if span.kind == "cheap"]
        if cheap:
            self.notes.append(
                _(
                    "%(words)s: the builds are ranked cheapest first; give a monthly budget to "
                    "set a limit.",
                    words=join(cheap),
                )
            )  # fmt: skip
        for span in self.spans:
            if span.kind == "word" and not span.used and span.field not in self.values:
                self.notes.append(
                    _(
                        "%(words)s: no number beside it for %(field)s.",
                        words=self.said(span), field=_BY_NAME[span.field].spec.label,
                    )
                )  # fmt: skip
        reads = tuple(Read(f.name, *self.values[f.name]) for f in FIELDS if f.name in self.values)
        return Reading(self.text, reads, self.unread(), tuple(self.notes))

    def gpu(self, span: _Span) -> None:
        named = span.value  # (slug, name) pairs
        if len(named) == 1:
            self.set(PREFERRED_GPU, named[0][0], self.said(span))
            return
        self.notes.append(
            _(
                "%(words)s names %(count)s GPUs (%(names)s): pick one as the preferred GPU.",
                words=self.said(span), count=len(named),
                names=Written("; ".join(name for _slug, name in named)),
            )
        )  # fmt: skip

    def neighbours(self, span: _Span) -> tuple[_Span | None, _Span | None]:
        """Return the field words just before and after a quantity: only small words,
        spaces and no punctuation between them."""
        index = self.spans.index(span)
        found = []
        for step in (-1, 1):
            at, edge, word = index + step, span.start if step < 0 else span.end, None
            while 0 <= at < len(self.spans):
                other = self.spans[at]
                gap = self.text[other.end : edge] if step < 0 else self.text[edge : other.start]
                if gap.strip(f" \t{GLUE}"):
                    break
                if other.kind in ("filler", "per_user"):
                    edge = other.start if step < 0 else other.end
                    at += step
                    continue
                if other.kind == "word" and not other.used:
                    word = other
                break
            found.append(word)
        return found[0], found[1]

    def quantity(self, span: _Span, mode: object) -> None:
        said = self.said(span)
        if span.unit == GPU_COUNT:
            self.notes.append(
                _(
                    "%(words)s: the form takes no GPU count; the recommender finds how many are "
                    "needed, and the build below takes any count.",
                    words=said,
                )
            )  # fmt: skip
            span.used = True
            return
        if span.unit == FOREIGN:
            for word in self.neighbours(span):
                if word is not None:
                    word.used = True  # "budget 5000 USD": the budget's word is answered
            self.notes.append(
                _(
                    "%(words)s: a budget is read in CNY (元) only; give it in CNY a month.",
                    words=said,
                )
            )  # fmt: skip
            span.used = True
            return
        if span.unit == RATE and self.beside(span, "per_user"):
            self.per_user_rate(span)
            return
        before, after = self.neighbours(span)
        candidates = [
            f
            for f in _NUMBER_FIELDS
            if span.unit is None or (str(f.spec.unit) == span.unit and f.spec.unit_alone)
        ]
        # A field word beside the number names its field; it may make a rate of the unit
        # ("每秒 3000 token": tokens per second).
        named = [
            word
            for word in (before, after)
            if word is not None
            and _BY_NAME[word.field].spec.kind in ("int", "float")
            and (span.unit is None or str(_BY_NAME[word.field].spec.unit).startswith(span.unit))
        ]
        if named:
            word = named[0]
            field = _BY_NAME[word.field]
            words = self.text[min(word.start, span.start) : max(word.end, span.end)].strip()
            word.used = True
            if not self.fits(field, span.value, words):
                span.used = True  # said back in the note
                return
        elif span.unit is None:
            return  # a bare number: not read
        else:
            fitting = [f for f in candidates if f.applies_to(mode)] or candidates
            within = [f for f in fitting if _within(f, span.value)] or fitting
            if not within:
                return
            field, words = within[0], said
            if not self.fits(field, span.value, words):
                span.used = True  # said back in the note
                return
        span.used = True
        self.set(field.name, _typed(field, span.value), words)

    def fits(self, field: Declared, value: float, words: str) -> bool:
        """Return whether a number is within the field's declared bounds; if not, say so
        (the field and its bounds) and give the field nothing."""
        if math.isfinite(value) and _within(field, value):
            return True
        spec = field.spec
        low, high = _bound(spec.gt if spec.gt is not None else spec.ge), _bound(spec.le)
        if spec.gt is not None:
            bounds = _("more than %(low)s and at most %(high)s", low=low, high=high)
        else:
            bounds = _("from %(low)s to %(high)s", low=low, high=high)
        self.notes.append(
            _(
                "%(words)s: %(field)s takes %(bounds)s; not read.",
                words=words, field=spec.label, bounds=bounds,
            )
        )  # fmt: skip
        return False

    def beside(self, span: _Span, kind: str) -> bool:
        """Return whether a phrase of `kind` stands just before or after the span, with only
        small words and spaces between."""
        index = self.spans.index(span)
        for step in (-1, 1):
            at, edge = index + step, span.start if step < 0 else span.end
            while 0 <= at < len(self.spans):
                other = self.spans[at]
                gap = self.text[other.end : edge] if step < 0 else self.text[edge : other.start]
                if gap.strip(f" \t{GLUE}"):
                    break
                if other.kind == kind:
                    other.used = True
                    return True
                if other.kind != "filler":
                    break
                edge = other.start if step < 0 else other.end
                at += step
        return False

    def per_user_rate(self, span: _Span) -> None:
        """Read one user's rate ("20 tokens/s per user") as the time per output token each
        user sees (1 / the rate), never as the total rate, and say so."""
        field, said = _BY_NAME[PER_USER_TIME], self.said(span)
        span.used = True
        if span.value <= 0 or not math.isfinite(span.value):
            self.fits(field, math.nan, said)
            return
        seconds = 1 / span.value
        if not self.fits(field, seconds, said):
            return
        value = _typed(field, seconds)
        self.notes.append(
            _(
                "%(words)s: a rate per user, not in all: read as %(field)s, %(value)s s.",
                words=said, field=field.spec.label, value=f"{value:g}",
            )
        )  # fmt: skip
        self.set(field.name, value, said)

    def settle_mode(self) -> None:
        """Take the mode every field read applies to when none was said; drop a field that
        does not apply to the mode said, saying so."""
        modes = [
            (f, set(f.spec.modes))
            for f in FIELDS
            if f.name in self.values and f.spec.modes and f.name != MODE
        ]
        if MODE not in self.values:
            common = set.intersection(*(m for _f, m in modes)) if modes else set()
            if len(common) == 1:
                words = next(self.values[f.name][1] for f, m in modes)
                self.values[MODE] = (common.pop(), words)
            return
        mode, said = self.values[MODE]
        for f, allowed in modes:
            if mode in allowed:
                continue
            words = self.values[f.name][1]
            (only,) = allowed if len(allowed) == 1 else (None,)
            others = [m for g, m in modes if g is not f]
            if only and _related(mode, only) and all(only in m for m in others):
                # "train a 7B with LoRA": a fine-tuning method makes the training a fine-tune.
                self.values[MODE] = (only, f"{said} · {words}")
                self.notes.append(
                    _(
                        "%(words)s: %(field)s applies to %(mode)s only, so the mode is %(mode)s.",
                        words=words, field=f.spec.label, mode=_mode_label(only),
                    )
                )  # fmt: skip
                mode = only
                continue
            del self.values[f.name]
            self.notes.append(
                _(
                    "%(words)s: %(field)s applies to another mode than %(mode)s.",
                    words=words, field=f.spec.label, mode=_mode_label(mode),
                )
            )  # fmt: skip

    def unread(self) -> tuple[str, ...]:
        """Return the runs of the sentence that no phrase covers, as written."""
        covered = [False] * len(self.text)
        for span in self.spans:
            if span.kind != "quantity" or span.used:
                for index in range(span.start, span.end):
                    covered[index] = True
        fragments, current = [], []
        for index, char in enumerate(self.text):
            if covered[index] or char in PUNCTUATION:
                fragments.append("".join(current))
                current = []
            else:
                current.append(char)
        fragments.append("".join(current))
        return tuple(
            fragment.strip(" -")
            for fragment in fragments
            if any(char.isalnum() for char in fragment)
        )


def _related(mode: object, other: object) -> bool:
    """Return whether a declared field applies to both modes (training and fine-tuning)."""
    return any(mode in f.spec.modes and other in f.spec.modes for f in FIELDS)


def _mode_label(mode: object) -> Message:
    return dict(_BY_NAME[MODE].spec.choices)[mode]


def _bound(value: float) -> str:
    """Return a declared bound as a reader writes it: 1,000,000, 1e+16, 0.5."""
    if float(value).is_integer() and abs(value) < 1e12:
        return f"{value:,.0f}"
    return f"{value:g}"


def _within(field: Declared, value: float) -> bool:
    spec = field.spec
    return not (
        (spec.ge is not None and value < spec.ge)
        or (spec.gt is not None and value <= spec.gt)
        or (spec.le is not None and value > spec.le)
    )


def _typed(field: Declared, value: float) -> float | int:
    """Return the value as the field takes it: a whole number for an int field; nine
    significant digits (300 ms is 0.3 s, not 0.30000000000000004)."""
    value = float(f"{value:.9g}")
    if field.spec.kind == "int" and value.is_integer():
        return int(value)
    return value
