"""A check's numbers are shown in words: every key a check reports has a label."""

import ast
from pathlib import Path

from django.utils import translation

from configurator.web.number_labels import NUMBER_LABELS, number_text, numbers_text

ENGINE = Path(__file__).resolve().parents[2] / "configurator" / "engine"


def _dict_keys(node: ast.AST | None) -> set[str]:
    if not isinstance(node, ast.Dict):
        return set()
    return {key.value for key in node.keys if isinstance(key, ast.Constant)}


def _is_numbers(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "numbers"


def _keys_of(node: ast.AST) -> set[str]:
    """Return the keys one node of a check module puts into a finding's numbers."""
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        keys = set()
        for target in targets:
            if _is_numbers(target):
                keys |= _dict_keys(node.value)
            elif isinstance(target, ast.Subscript) and _is_numbers(target.value):
                keys |= {target.slice.value} if isinstance(target.slice, ast.Constant) else set()
        return keys
    if isinstance(node, ast.FunctionDef) and node.name.endswith("_numbers"):
        returns = (inner for inner in ast.walk(node) if isinstance(inner, ast.Return))
        return set().union(*(_dict_keys(r.value) for r in returns))
    call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    if call and node.func.attr == "update" and _is_numbers(node.func.value):
        return {keyword.arg for keyword in node.keywords if keyword.arg}
    return set()


def reported_keys() -> set[str]:
    """Return every key the engine's checks put into a finding's `numbers`: the dicts
    assigned to `numbers` or returned by a `*_numbers` helper, `numbers["key"] = …` and
    `numbers.update(key=…)`."""
    keys: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            keys |= _keys_of(node)
    return keys


def test_every_number_a_check_reports_has_a_label():
    keys = reported_keys()
    assert {"memory_gb", "by_ratio_gb", "replica_gpus", "fabric_gbps", "headroom"} <= keys
    assert not keys - set(NUMBER_LABELS), sorted(keys - set(NUMBER_LABELS))


def test_numbers_are_written_in_words_in_each_language():
    numbers = {"memory_gb": 1536, "by_ratio_gb": 768, "numa_binding": 1, "headroom": 1}
    with translation.override("en"):
        assert numbers_text(numbers) == (
            "system memory: 1,536 GB · memory by the GPU memory ratio: 768 GB"
            " · NUMA binding: yes · memory headroom: 100%"
        )
    with translation.override("zh-hans"):
        text = numbers_text(numbers)
        assert (
            text
            == "系统内存：1,536 GB · 按显存比例所需内存：768 GB · NUMA 绑定：是 · 内存余量：100%"
        )
        assert "_" not in text and "gb" not in text


def test_a_fraction_is_a_percentage_and_a_factor_keeps_its_sign():
    with translation.override("en"):
        assert number_text("gpu_memory_usable_fraction", 0.9) == "usable share of GPU memory: 90%"
        assert number_text("psu_headroom", 1.1) == "power headroom factor: × 1.10"
