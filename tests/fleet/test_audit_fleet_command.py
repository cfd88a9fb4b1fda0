"""`manage.py audit_fleet FILE [--json]` as api.md promises it."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.fleet.sheets import GOOD, HEADER, LEGACY, P3, csv_bytes, xlsx_bytes

pytestmark = pytest.mark.django_db


def run(tmp_path, content: bytes, *args, name="fleet.csv"):
    """Run the command; return (exit code, stdout, stderr)."""
    import io

    path = tmp_path / name
    path.write_bytes(content)
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("audit_fleet", str(path), *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def test_json_lists_every_node_with_verdict_codes_and_balance(tmp_path):
    code, out, err = run(tmp_path, csv_bytes([GOOD, P3, LEGACY]), "--json")
    nodes = json.loads(out)
    assert code == 1
    assert [node["node_id"] for node in nodes] == ["n1", "n2", "n3"]
    assert nodes[0]["verdict"] == "accept" and nodes[0]["codes"] == []
    assert nodes[1]["verdict"] == "reject" and "P3" in nodes[1]["codes"]
    assert {"P1", "P4", "P6"} <= set(nodes[2]["codes"])
    assert set(nodes[0]["balance"]) >= {"cpu_threads", "pcie_lanes", "memory", "overall"}
    assert "rows" in err  # the progress bar goes to stderr, never into the JSON


def test_sheet_row_gets_the_same_answer_as_the_evaluate_api(tmp_path, client):
    _, out, _ = run(tmp_path, csv_bytes([P3]), "--json")
    body = {"build": {"cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-sxm",
                      "gpu_count": 8, "gpus_per_socket": [4, 4], "memory_gb": 512,
                      "memory_ecc": True, "psu_watts": 6000, "nvlink": True,
                      "numa_binding": True}}  # fmt: skip
    api = client.post("/api/v1/evaluate", body, content_type="application/json").json()
    node = json.loads(out)[0]
    assert node["balance"] == api["balance"]
    assert node["codes"] == [c["code"] for c in api["checks"] if c["status"] == "fail"]


def test_exit_code_0_when_every_node_is_accepted(tmp_path):
    code, out, _ = run(tmp_path, csv_bytes([GOOD]), "--no-progress")
    assert code == 0
    assert "1 accepted" in out


def test_unreadable_row_is_an_error_naming_its_columns(tmp_path):
    bad = ("n4", "xeon-gold-9999", "2", "rtx-4090", "x", "", "256", "maybe", "=A1*2", "", "")
    code, out, _ = run(tmp_path, csv_bytes([GOOD, bad]), "--json")
    node = json.loads(out)[1]
    assert code == 1
    assert node["verdict"] == "error" and node["balance"] is None
    assert set(node["errors"]) == {"cpu", "gpu_count", "memory_ecc", "psu_watts"}
    assert "formula" in node["errors"]["psu_watts"][0]


def test_repeated_and_empty_node_ids_are_errors(tmp_path):
    again = ("n1", *GOOD[1:])
    nameless = ("", *GOOD[1:])
    _, out, _ = run(tmp_path, csv_bytes([GOOD, again, nameless]), "--json")
    nodes = json.loads(out)
    assert nodes[0]["verdict"] == "accept"
    assert "row 2" in nodes[1]["errors"]["node_id"][0]
    assert nodes[2]["errors"]["node_id"]


def test_gbk_csv_with_chinese_headers_is_read(tmp_path):
    header = ("节点编号", "CPU型号", "CPU数量", "GPU型号", "GPU数量", "每路GPU数", "内存容量（GB）",
              "ECC内存", "电源功率（W）", "NVLink", "NUMA绑定", "机柜")  # fmt: skip
    content = csv_bytes([(*P3, "一号机柜")], header=header, encoding="gbk")
    _code, out, _ = run(tmp_path, content, "--json")
    assert json.loads(out)[0]["codes"][0] == "P3"


def test_xlsx_first_sheet_is_read(tmp_path):
    rows = [(*GOOD[:2], 2, *GOOD[3:4], 8, "4+4", 1024, True, 6000, True, True)]
    code, out, _ = run(tmp_path, xlsx_bytes(rows), "--json", name="fleet.xlsx")
    assert code == 0
    assert json.loads(out)[0]["verdict"] == "accept"


def test_xlsx_formula_cell_is_refused(tmp_path):
    rows = [(*GOOD[:6], "=512*2", *GOOD[7:])]
    _, out, _ = run(tmp_path, xlsx_bytes(rows), "--json", name="fleet.xlsx")
    assert "memory_gb" in json.loads(out)[0]["errors"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty"),
        (csv_bytes([GOOD], header=(*HEADER[:-1], "numa")), "numa_binding"),
        (b"%PDF-1.7\x00\x01binary", "not a CSV or XLSX"),
        (b"PK\x03\x04broken zip", "XLSX"),
        (csv_bytes([]), "no node rows"),
        (csv_bytes([(*GOOD, "extra")]), "Line 2 has more cells"),
        (csv_bytes([GOOD, (*P3, "extra")]), "Line 3 has 12 cells; the header has 11"),
    ],
)
def test_unreadable_file_exits_2_with_a_one_line_reason(tmp_path, content, reason):
    with pytest.raises(CommandError, match=reason) as raised:
        run(tmp_path, content, "--json")
    assert raised.value.returncode == 2
    assert "\n" not in str(raised.value)


def test_identical_builds_are_evaluated_once(tmp_path, monkeypatch):
    from configurator.fleet import audit

    calls = []
    original = audit.evaluate
    monkeypatch.setattr(audit, "evaluate", lambda *a: calls.append(1) or original(*a))
    rows = [(f"n{i}", *GOOD[1:]) for i in range(50)] + [(f"m{i}", *P3[1:]) for i in range(50)]
    spelled = ("s1", "Intel Xeon Gold 6530", "2", "NVIDIA A800 80GB SXM4", "8", "4 + 4", "1024",
               "yes", "6000", "1", "是")  # GOOD, named and spelled otherwise  # fmt: skip
    _code, out, _ = run(tmp_path, csv_bytes([*rows, spelled]), "--json")
    nodes = json.loads(out)
    assert len(nodes) == 101
    assert len(calls) == 2
    assert nodes[-1]["balance"] == nodes[0]["balance"]


def test_a_formula_as_node_id_is_an_error_of_that_column(tmp_path):
    code, out, _ = run(tmp_path, csv_bytes([('=HYPERLINK("http://x")', *GOOD[1:])]), "--json")
    assert code == 1
    node = json.loads(out)[0]
    assert node["verdict"] == "error"
    assert "formula" in node["errors"]["node_id"][0]


def test_overlong_node_id_is_an_error(tmp_path):
    code, out, _ = run(tmp_path, csv_bytes([("n" * 201, *GOOD[1:])]), "--json")
    assert code == 1
    assert "at most 200" in json.loads(out)[0]["errors"]["node_id"][0]


def test_gbk_text_far_down_the_sheet_is_found_before_any_output(tmp_path, monkeypatch):
    from configurator.fleet import sheet

    monkeypatch.setattr(sheet, "SAMPLE_BYTES", 64)  # the name comes after the first block
    rows = [(f"n{i}", *GOOD[1:]) for i in range(5)] + [("机柜-节点", *GOOD[1:])]
    code, out, _ = run(tmp_path, csv_bytes(rows, encoding="gbk"), "--json")
    assert json.loads(out)[-1]["node_id"] == "机柜-节点"
    assert code == 0


def test_text_in_no_known_encoding_exits_2(tmp_path):
    content = csv_bytes([GOOD]) + b"n9,\xff\xfe\xfd\n"
    with pytest.raises(CommandError, match="neither UTF-8 nor GBK") as raised:
        run(tmp_path, content, "--json")
    assert raised.value.returncode == 2


def test_a_folder_or_missing_file_exits_2(tmp_path):
    for path in (tmp_path, tmp_path / "missing.csv"):
        with pytest.raises(CommandError) as raised:
            call_command("audit_fleet", str(path), "--json")
        assert raised.value.returncode == 2
