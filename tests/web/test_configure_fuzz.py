"""No query string, however wrong, makes the configurator answer a 500."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

FIELDS = ["platform", "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb",
          "memory_ecc", "psu_watts", "nvlink", "numa_binding", "nodes", "nics", "nic",
          "model_params_b", "mode", "batch_size", "precision", "context_length", "start", "fix",
          "pick", "prefer_gpu"]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(["", "0", "-1", "8", "99999999999", "true", "maybe", "4+4", "8+0", "1+1+1",
                     "smc-sys-4028gr-tr", "h100-80g-sxm", "xeon-e5-2680-v4", "S1", "recommend",
                     "P1", "capacity", "train", "fp8", "1e400", "nan"]),
    st.text(max_size=12),
)  # fmt: skip


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8))
def test_any_query_answers_a_page(client, query):
    response = client.get("/configure/", query, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
