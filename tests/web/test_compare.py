"""Compare up to three builds side by side."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

LEGACY = (
    "cpu=xeon-e5-2680-v4&cpu_count=2&gpu=h100-80g-pcie&gpu_count=8&gpus_per_socket=4+4"
    "&memory_gb=1024&memory_ecc=true&psu_watts=6400&nvlink=false&numa_binding=true"
    "&platform=smc-sys-4028gr-tr"
)
MODERN = LEGACY.replace("xeon-e5-2680-v4", "xeon-gold-6530").replace(
    "smc-sys-4028gr-tr", "smc-sys-421ge-tnrt"
)


def test_two_builds_side_by_side_with_price_checks_scores_and_gpu_memory(client):
    client.post(reverse("web:compare"), {"build": LEGACY})
    client.post(reverse("web:compare"), {"build": MODERN})
    response = client.get(reverse("web:compare"))
    columns = response.context["columns"]
    assert [c["query"] for c in columns] == [LEGACY, MODERN]
    assert columns[0]["verdict"] == "reject" and columns[1]["verdict"] == "accept"
    assert all(c["gpu_memory_gb"] == 80 for c in columns)
    p1 = dict(response.context["rows"])["P1"]
    assert [cell["status"] for cell in p1] == ["fail", "pass"]
    html = response.content.decode()
    assert "Balance score" in html and "GPU memory per GPU" in html


def test_comparison_keeps_the_last_three(client):
    for n in (2, 4, 6, 8):
        client.post(
            reverse("web:compare"), {"build": LEGACY.replace("gpu_count=8", f"gpu_count={n}")}
        )
    assert len(client.get(reverse("web:compare")).context["columns"]) == 3


def test_adding_over_htmx_answers_the_tray(client):
    response = client.post(reverse("web:compare"), {"build": LEGACY}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.startswith('<span id="compare-tray"') and "1 build in the comparison" in html


def test_a_build_can_be_removed(client):
    client.post(reverse("web:compare"), {"build": LEGACY})
    client.post(reverse("web:compare"), {"remove": LEGACY})
    assert client.get(reverse("web:compare")).context["columns"] == []


WORK = "&model_params_b=7&mode=train&batch_size=64&train_tokens=2e10&deadline_days=30"
SERVE = "&model_params_b=70&mode=infer&concurrent_users=50&target_tokens_per_s=2000"


def test_the_works_time_and_cost_are_compared_as_the_configurator_shows_them(client):
    from django.http import QueryDict

    from configurator.web import presenters, services
    from configurator.web.reading import read_query

    for build in (LEGACY + WORK, MODERN + WORK):
        client.post(reverse("web:compare"), {"build": build})
    response = client.get(reverse("web:compare"))
    work = dict(response.context["work"])
    assert {"Time to train", "Cost per run"} <= set(work)
    for index, build in enumerate((LEGACY + WORK, MODERN + WORK)):
        read = read_query(QueryDict(build))
        assessed = services.configuration_assess(config=read.config, workload=read.workload)
        shown = presenters.assessment_context(assessed)["performance"]  # the configurator's
        assert [work[label][index] for label, _ in shown] == [value for _, value in shown]
    html = response.content.decode()
    assert '<tr class="work"><th scope="row">Cost per run</th>' in html


def test_training_and_serving_builds_show_each_their_figures(client):
    client.post(reverse("web:compare"), {"build": MODERN + WORK})
    client.post(reverse("web:compare"), {"build": MODERN + SERVE})
    work = dict(client.get(reverse("web:compare")).context["work"])
    assert work["Time to train"][1] == "—" and work["Output tokens per second"][0] == "—"
    assert work["Output tokens per second"][1] != "—"


def test_without_work_the_page_says_what_to_give(client):
    client.post(reverse("web:compare"), {"build": LEGACY})
    response = client.get(reverse("web:compare"))
    assert response.context["work"] == []
    assert "Give the workload its work" in response.content.decode()
