"""The drive bays check: a node's NVMe drives fit the bays of the platform it names."""

from __future__ import annotations

import pytest

from configurator.engine.drive_check import drive_bays
from configurator.engine.evaluate import CHECK_CODES, Verdict, evaluate
from configurator.engine.findings import Status
from configurator.engine.rules import RuleParams
from tests.engine.builders import s1

RULES = RuleParams()


@pytest.mark.parametrize(
    ("drives", "bays", "expected"),
    [
        (0, None, Status.NA),  # no platform: its bays are not known
        (30, None, Status.NA),
        (0, 0, Status.PASS),
        (4, 4, Status.PASS),
        (5, 4, Status.FAIL),
        (30, 4, Status.FAIL),
        (1, 0, Status.FAIL),
    ],
)
def test_drives_are_counted_against_the_bays(drives, bays, expected):
    assert drive_bays(s1(nvme=drives, nvme_bays=bays), None, RULES).status is expected


def test_thirty_drives_on_four_bays_fail_with_the_numbers_and_the_fix():
    finding = drive_bays(s1(nvme=30, nvme_bays=4), None, RULES)
    assert finding.numbers == {"nvme": 30, "nvme_bays": 4}
    assert finding.detail == "30 NVMe drives per node; the platform has 4 NVMe bays"
    assert finding.fix == (
        "fit at most 4 NVMe drives per node (26 fewer), or name a platform with at least "
        "30 NVMe bays"
    )
    assert finding.impact


def test_one_drive_and_one_bay_are_counted_in_the_singular():
    finding = drive_bays(s1(nvme=1, nvme_bays=1), None, RULES)
    assert finding.detail == "1 NVMe drive per node in the platform's 1 NVMe bay"


def test_too_many_drives_reject_the_build():
    evaluation = evaluate(s1(nvme=5, nvme_bays=4), RULES)
    assert "drive_bays" in evaluation.failed_codes and evaluation.verdict is Verdict.REJECT
    assert "drive_bays" in CHECK_CODES
