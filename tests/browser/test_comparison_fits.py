"""A delivered node's comparison with its quote reads on a desktop without scrolling sideways:
the step to take wraps in its cell, its command too (templates/fleet/includes/comparison.html)."""

import pytest

from tests.browser.test_phone_width import PHONE, phone, signed_in  # noqa: F401
from tests.pages import page_data

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
DESKTOP = {**PHONE, "width": 1280, "height": 900}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_comparison_fits_a_desktop(phone, live_server, presales, architect, language):  # noqa: F811
    values = page_data(presales, architect)
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", DESKTOP)
    signed_in(phone, live_server, architect, language)
    phone.get(f"{live_server.url}/fleet/probes/{values['probe']}/")
    scroll, box = phone.execute_script(
        "const w = document.querySelector('#comparison .table-wrap');"
        "return [w.scrollWidth, w.clientWidth];"
    )
    assert scroll <= box, f"{language}: the comparison is {scroll}px in a {box}px box"
