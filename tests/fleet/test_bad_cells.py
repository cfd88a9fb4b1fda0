"""A cell that is no value of its column is that row's error, by column; the rest is judged."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from configurator.fleet.models import FleetAudit
from configurator.fleet.rows import MAX_DIGITS, RowErrors, cells_to_values
from tests.fleet.sheets import GOOD, HEADER, P3, csv_bytes
from tests.fleet.test_audit_fleet_command import run

pytestmark = pytest.mark.django_db

COLUMN = {name: index for index, name in enumerate(HEADER)}


def row(node_id: str, **cells: str) -> tuple[str, ...]:
    values = [node_id, *GOOD[1:]]
    for name, value in cells.items():
        values[COLUMN[name]] = value
    return tuple(values)


# Sheet rows 2, 3, … (row 1 holds the headers).
ROWS = [
    GOOD,
    row("sup", gpus_per_socket="²"),
    row("huge", gpu_count="9" * 400),
    row("float", memory_gb="1e400"),
    row("arabic", psu_watts="٦٠٠٠"),
    row("mixed", gpus_per_socket="4+٤"),
    row("leading", memory_gb="0" * 5000 + "1024"),
    P3,
]
BAD = {3: "gpus_per_socket", 4: "gpu_count", 5: "memory_gb", 6: "psu_watts", 7: "gpus_per_socket"}


def test_an_uploaded_sheet_lists_each_bad_cell_by_row_and_column(architect_client):
    architect_client.post(
        reverse("fleet:upload"), {"sheet": SimpleUploadedFile("f.csv", csv_bytes(ROWS))}
    )
    audit = FleetAudit.objects.get()
    assert audit.status == FleetAudit.Status.INVALID  # all or nothing, as before
    assert {(p["row"], p["column"]) for p in audit.problems} == set(BAD.items())
    [huge] = [p["message"] for p in audit.problems if p["row"] == 4]
    assert f"at most {MAX_DIGITS} digits" in huge and len(huge) < 200
    assert not audit.nodes.exists()


def test_the_command_judges_every_other_row(tmp_path):
    code, out, _ = run(tmp_path, csv_bytes(ROWS), "--json")
    nodes = {node["row"]: node for node in json.loads(out)}
    assert code == 1
    assert nodes[2]["verdict"] == "accept"
    assert nodes[8]["verdict"] == "accept"  # 0…01024 is 1024
    assert nodes[9]["verdict"] == "reject" and "P3" in nodes[9]["codes"]
    for number, column in BAD.items():
        assert nodes[number]["verdict"] == "error"
        assert list(nodes[number]["errors"]) == [column]


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [("gpu_count", "8", 8), ("gpu_count", "+8", 8), ("gpu_count", "8.0", 8),
     ("memory_gb", "0" * 600 + "512", 512), ("gpus_per_socket", "4 + 4", [4, 4]),
     ("nics", "-1", -1)],
)  # fmt: skip
def test_whole_numbers_as_people_and_excel_write_them(name, text, value):
    assert cells_to_values({name: text}) == {name: value}


@pytest.mark.parametrize(
    ("name", "text"),
    [("gpu_count", "9" * 400), ("gpu_count", "1" + "0" * MAX_DIGITS), ("memory_gb", "1e400"),
     ("memory_gb", "١٠٢٤"), ("cpu_count", "²"), ("gpus_per_socket", "²"),
     ("gpus_per_socket", "4+" + "9" * 400), ("gpus_per_socket", "٤+٤"), ("gpu_count", "8.5")],
)  # fmt: skip
def test_no_other_text_is_a_number(name, text):
    with pytest.raises(RowErrors) as error:
        cells_to_values({name: text})
    assert list(error.value.errors) == [name]
