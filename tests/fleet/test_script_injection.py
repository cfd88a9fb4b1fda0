"""Nothing a caller typed runs: every binding-script answer, good or bad, piped into bash.

Each answer runs as `curl … | bash -s -- python train.py` would run it, in a scratch directory
whose PATH starts with stub `numactl` and `taskset` commands that record their argv (then
/usr/bin and /bin, so an injected `touch` would really run). A script ran nothing it should
not when no file besides the stubs' records appears and the stub saw exactly the rank's CPUs.
"""

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator.fleet import selectors
from configurator.fleet.binding import Layout, Parameter, Socket, binding_script, shell_word
from configurator.fleet.delivery import build_layout, facts_layout
from configurator.fleet.models import AuditedBuild, AuditedNode
from configurator.fleet.probe.facts import node_facts
from tests.fleet.probe_archives import dual_socket_synthetic, h200_vm_files, tar_gz
from tests.fleet.sheets import GOOD, csv_bytes

STUB = """#!/bin/sh
printf '%s\\n' "$(basename "$0")" "$@" > "$RECORD"
printf '%s\\0' "NCCL_TOPO_DUMP_FILE=$NCCL_TOPO_DUMP_FILE" "NCCL_IB_HCA=${NCCL_IB_HCA-}" \\
    > "$RECORD.env"
"""
# Text that runs `touch PWNED` (or writes PWNED) if it ever reaches shell code unquoted.
INJECTIONS = [
    "x'$(touch PWNED)",  # the issue's: out of a single-quoted echo, into a command substitution
    "$(touch PWNED)",
    "`touch PWNED`",
    "x; touch PWNED",
    "x\ntouch PWNED\n",
    "x\r\ntouch PWNED\r\n",
    '"; touch PWNED; "',
    "'; touch PWNED; '",
    "x > PWNED",
    "${IFS}$(touch${IFS}PWNED)",
    "\\'\"$(touch PWNED)\"\\'",
]
GOOD_QUERY = {"cpu": "xeon-gold-6530", "gpu": "a800-80g-sxm", "gpu_count": "8"}
FIELDS = ["cpu", "gpu", "gpu_count", "nics", "gpus_per_socket", "memory_gb"]


@dataclass
class Ran:
    returncode: int
    stderr: str
    argv: list[str] | None  # what the stub numactl/taskset saw; None: neither ran
    env: dict[str, str] | None  # the NCCL variables the stub saw
    left: set[str]  # files the script created besides the stubs' records


def pipe_into_bash(body: str, scratch: Path, rank: int = 0) -> Ran:
    """Run a script answer as `curl … | bash -s -- python train.py` in `scratch`."""
    stubs = scratch / "bin"
    stubs.mkdir()
    for name in ("numactl", "taskset"):
        (stubs / name).write_text(STUB)
        (stubs / name).chmod(0o755)
    record = scratch / "argv"
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "LOCAL_RANK": str(rank), "RECORD": str(record),
           "HOME": str(scratch), "LANG": "C.UTF-8"}  # fmt: skip
    done = subprocess.run(
        ["bash", "-s", "--", "python", "train.py"], input=body, cwd=scratch, env=env,
        capture_output=True, text=True, timeout=20, check=False,
    )  # fmt: skip
    env_file = scratch / "argv.env"
    return Ran(
        done.returncode,
        done.stderr,
        record.read_text().splitlines() if record.exists() else None,
        dict(item.split("=", 1) for item in env_file.read_bytes().decode().split("\0")[:-1])
        if env_file.exists()
        else None,
        {path.name for path in scratch.iterdir()} - {"bin", "argv", "argv.env"},
    )


def cpu_list(layout: Layout, rank: int) -> str:
    from configurator.fleet.binding import compact

    return compact(layout.rank_cpus(rank))


def assert_binds(ran: Ran, layout: Layout, rank: int) -> None:
    """The script ran numactl alone, with the rank's CPUs and node, then the command; NCCL
    got the NIC names exactly as the node calls them."""
    node = layout.sockets[layout.gpu_sockets[rank]].numa_node
    assert ran.left == set(), ran.stderr
    assert ran.returncode == 0, ran.stderr
    assert ran.argv == [
        "numactl",
        f"--physcpubind={cpu_list(layout, rank)}",
        f"--membind={node}",
        "python",
        "train.py",
    ]
    assert ran.env == {
        "NCCL_TOPO_DUMP_FILE": f"/tmp/nccl-topo-{rank}.xml",
        "NCCL_IB_HCA": ",".join(f"={name}" for name in layout.nic_names),
    }


def assert_refused(response, ran: Ran, status: int = 400) -> None:
    """An error answer: plain text, and under bash it says why, exits 1 and runs nothing."""
    assert response.status_code == status
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert ran.left == set() and ran.argv is None
    assert ran.returncode == 1 and ran.stderr.strip()


# The one quoting helper ---------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(text=st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=40))
def test_a_shell_word_means_exactly_its_text(text):
    done = subprocess.run(
        ["bash", "-c", f"printf %s {shell_word(text)}"], capture_output=True, check=True
    )
    assert done.stdout.decode("utf-8", "surrogateescape") == text


def test_a_parameter_is_expanded_never_run(tmp_path):
    word = shell_word(("/tmp/nccl-topo-", Parameter("LOCAL_RANK"), ".xml"))
    assert word == '/tmp/nccl-topo-"${LOCAL_RANK}".xml'
    rank = "1; touch PWNED $(touch PWNED)"
    done = subprocess.run(
        ["bash", "-c", f"printf %s {word}"], capture_output=True, text=True, cwd=tmp_path,
        env={"LOCAL_RANK": rank, "PATH": "/usr/bin:/bin"}, check=True,
    )  # fmt: skip
    assert done.stdout == f"/tmp/nccl-topo-{rank}.xml"
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError):
        Parameter("LOCAL_RANK}$(id)")


def test_a_nul_is_refused_rather_than_dropped():
    with pytest.raises(ValueError):
        shell_word("mlx5\x000")


@pytest.mark.parametrize("text", INJECTIONS)
def test_hostile_names_and_title_in_a_layout_stay_text(text, tmp_path):
    layout = Layout(
        sockets=(Socket(0, 0, (0, 1, 2, 3)),), gpu_sockets=(0, 0), nic_sockets=(0,),
        nic_names=(f"mlx5_0{text}",),
    )  # fmt: skip
    script = binding_script(layout, title=f"node{text}")
    assert f"export NCCL_IB_HCA={shell_word(f'=mlx5_0{text}')} " in script
    assert_binds(pipe_into_bash(script, tmp_path, rank=1), layout, 1)


# Good answers: the recipes, probed nodes, an audited node -----------------------------------


@pytest.mark.django_db
def test_every_recipe_script_binds_its_first_and_last_rank(client, tmp_path):
    recipes = selectors.recipe_list()
    assert recipes
    for index, listed in enumerate(recipes):
        layout = build_layout(listed["recipe"].build)
        response = client.get(f"{reverse('fleet:build-binding')}?{listed['query']}")
        assert response.status_code == 200
        for rank in (0, len(layout.gpu_sockets) - 1):
            scratch = tmp_path / f"{index}-{rank}"
            scratch.mkdir()
            assert_binds(pipe_into_bash(response.content.decode(), scratch, rank), layout, rank)


def probe(client, files: dict[str, str]):
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(files))
    response = client.post(reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000})
    assert response.status_code == 302
    return response["Location"]


def hostile_probe() -> dict[str, str]:
    """The synthetic dual-socket node with an injection in its host name and NIC names."""
    files = dual_socket_synthetic()
    topo = files["nvidia-smi-topo.txt"]
    for nic, text in (("NIC0", "$(touch PWNED)"), ("NIC1", "`touch PWNED`';touch PWNED;'")):
        topo = topo.replace(f"\t{nic}\t", f"\t{nic}{text}\t").replace(
            f"\n{nic}\t", f"\n{nic}{text}\t"
        )
    files["nvidia-smi-topo.txt"] = topo
    files["hostname.txt"] = "node-1'$(touch PWNED)`touch PWNED`\n"
    return files


@pytest.mark.parametrize(
    ("files", "ranks"), [(h200_vm_files(), (0,)), (hostile_probe(), (0, 5, 7))],
    ids=["real-h200-vm", "hostile-names"],
)  # fmt: skip
def test_a_probed_node_script_binds_its_real_layout(architect_client, tmp_path, files, ranks):
    layout = facts_layout(node_facts(files))
    response = architect_client.get(probe(architect_client, files) + "binding.sh")
    assert response.status_code == 200
    for rank in ranks:
        scratch = tmp_path / str(rank)
        scratch.mkdir()
        assert_binds(pipe_into_bash(response.content.decode(), scratch, rank), layout, rank)


def test_an_audited_node_with_a_hostile_id_binds(architect_client, tmp_path):
    row = ("n1'$(touch PWNED)\ntouch PWNED\n`touch PWNED`", *GOOD[1:])
    architect_client.post(
        reverse("fleet:upload"), {"sheet": SimpleUploadedFile("f.csv", csv_bytes([row]))}
    )
    node = AuditedNode.objects.get()
    response = architect_client.get(reverse("fleet:node-binding", args=[node.pk]))
    assert response.status_code == 200
    layout = build_layout(selectors.build_from_fields(node.build.build))
    assert_binds(pipe_into_bash(response.content.decode(), tmp_path, 3), layout, 3)


# Bad answers ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_issues_url_creates_nothing(client, tmp_path):
    response = client.get(
        reverse("fleet:build-binding")
        + "?cpu=x%27%24%28touch%20PWNED%29&gpu=a800-80g-sxm&gpu_count=8"
    )
    ran = pipe_into_bash(response.content.decode(), tmp_path)
    assert_refused(response, ran)
    assert "cpu: Unknown CPU" in response.content.decode()
    assert response.content.decode().splitlines()[:3] == [
        "#!/bin/sh",
        "printf '%s\\n' 'No binding script: a field of the build is wrong. Open the address "
        "without | bash to read which.' >&2",
        "exit 1",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("text", INJECTIONS)
def test_an_injection_in_any_field_is_refused_inert(client, tmp_path, field, text):
    response = client.get(reverse("fleet:build-binding"), {**GOOD_QUERY, field: text})
    body = response.content.decode()
    assert_refused(response, pipe_into_bash(body, tmp_path))
    assert f"# {field}: " in body
    # Past `exit 1`, only comment lines: the caller's text never starts a line of its own.
    assert all(line.startswith("# ") for line in body.splitlines()[3:])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [("gpu_count", "9" * 400), ("memory_gb", "1e400"), ("memory_gb", "9" * 400),
     ("gpus_per_socket", "²"), ("gpus_per_socket", "4+٤"), ("cpu_count", "²")],
)  # fmt: skip
def test_an_impossible_number_is_a_400_naming_its_field(client, tmp_path, field, value):
    response = client.get(reverse("fleet:build-binding"), {**GOOD_QUERY, field: value})
    assert_refused(response, pipe_into_bash(response.content.decode(), tmp_path))
    assert f"# {field}: " in response.content.decode()


def test_missing_probe_node_and_layout_are_inert_404s(architect_client, tmp_path):
    files = h200_vm_files()
    del files["numactl-hardware.txt"]
    answers = [
        architect_client.get(probe(architect_client, files) + "binding.sh"),
        architect_client.get(reverse("fleet:probe-binding", args=[9999])),
        architect_client.get(reverse("fleet:node-binding", args=[9999])),
    ]
    architect_client.post(
        reverse("fleet:upload"), {"sheet": SimpleUploadedFile("f.csv", csv_bytes([GOOD]))}
    )
    AuditedBuild.objects.update(build={**AuditedBuild.objects.get().build, "cpu": "gone"})
    answers.append(
        architect_client.get(reverse("fleet:node-binding", args=[AuditedNode.objects.get().pk]))
    )
    for index, response in enumerate(answers):
        scratch = tmp_path / str(index)
        scratch.mkdir()
        assert_refused(response, pipe_into_bash(response.content.decode(), scratch), 404)


# Any query string ---------------------------------------------------------------------------

QUERY_FIELDS = ["cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb",
                "memory_ecc", "psu_watts", "nvlink", "nics"]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(["", "0", "1", "2", "4", "8", "16", "-1", "8.0", "1e400", "9" * 400, "²",
                     "4+4", "8+0", "2+2", "true", "no", "xeon-gold-6530", "epyc-9754",
                     "h100-80g-sxm", "l20", "a800-80g-sxm"]),
    st.integers(-(10**30), 10**30).map(str),
    st.text(max_size=20),
    st.sampled_from(INJECTIONS),
    st.tuples(st.text(max_size=6), st.sampled_from(INJECTIONS)).map("".join),
)  # fmt: skip


@pytest.mark.django_db
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    base=st.sampled_from([{}, GOOD_QUERY]),
    query=st.dictionaries(st.sampled_from(QUERY_FIELDS), VALUES, max_size=6),
)
def test_any_query_string_answers_an_inert_script(client, base, query):
    response = client.get(f"{reverse('fleet:build-binding')}?{urlencode({**base, **query})}")
    assert response.status_code in (200, 400)
    with tempfile.TemporaryDirectory() as scratch:
        ran = pipe_into_bash(response.content.decode(), Path(scratch))
    assert ran.left == set()
    if response.status_code == 200:
        assert ran.returncode == 0, ran.stderr
        assert ran.argv[0] == "numactl" and ran.argv[1].startswith("--physcpubind=")
        assert ran.argv[-2:] == ["python", "train.py"]
    else:
        assert_refused(response, ran)
