"""A recipe's name and result are one text each: the guide's are message ids, others data."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from configurator.engine.catalogue import GUIDE_RECIPES
from configurator.models import Scenario

migration = importlib.import_module("configurator.migrations.0009_scenario_texts_in_catalogue")
BEFORE = [("configurator", "0007_scenario_result_zh")]
S2 = "Mid-size distributed training"


@pytest.mark.django_db
def test_a_fresh_install_seeds_the_guides_texts_as_the_catalogue_has_them():
    seeded = {row.code: (row.name, row.result) for row in Scenario.objects.all()}
    assert seeded == {code: tuple(map(str, texts)) for code, texts in GUIDE_RECIPES.items()}


@pytest.mark.parametrize(
    ("text", "chinese", "kept"),
    [
        (S2, "中型模型分布式训练", S2),
        ("Inference farm", "", "Inference farm"),
        ("Inference farm", "推理集群", "Inference farm · 推理集群"),
        (S2, "我们的训练", f"{S2} · 我们的训练"),
        ("", "只有中文", "只有中文"),
    ],
)  # fmt: skip
def test_the_one_text_keeps_what_the_two_columns_said(text, chinese, kept):
    assert migration.joined(text, chinese) == kept


def migrate(targets=None):
    """Migrate to `targets`, by default every app's latest migration, and return its models."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_migration_drops_the_guides_chinese_and_keeps_an_architects():
    old = migrate(BEFORE).get_model("configurator", "Scenario")
    s2 = old.objects.get(code="S2")
    assert s2.name_zh == "中型模型分布式训练" and s2.result_zh.startswith("7B–34B 数据并行")
    s4 = old.objects.create(
        code="S4", name="Inference farm", name_zh="推理集群", result="", result_zh="",
        params_max_b=70, for_infer=True, cpu=s2.cpu, memory_gb=512,
    )  # fmt: skip
    migrate()  # 0008–0010 and anything after them
    assert Scenario.objects.get(code="S2").name == "Mid-size distributed training"
    assert Scenario.objects.get(code="S4").name == "Inference farm · 推理集群"
    assert {f.name for f in Scenario._meta.get_fields()}.isdisjoint({"name_zh", "result_zh"})
    assert s4.pk == Scenario.objects.get(code="S4").pk
