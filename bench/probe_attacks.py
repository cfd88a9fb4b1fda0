"""Hostile probe archives against the upload and the report page, each in a fresh process.

    .venv/bin/python -m bench.probe_attacks [--only numactl-upload,long-name,...]
    .venv/bin/python -m bench.probe_attacks --parsers   # each parser at its file's limit

For each attack (the builders are tests/fleet/probe_archives.py) two fresh child processes
sign in as an architect on production settings (DEBUG off) and PostgreSQL
(`RELIABILITY_DATABASE_URL`, default the cfg_i8 database), make one good request first (so
imports and the catalog snapshot are not counted), then the hostile one: the first child
measures its wall time and the growth of the process's peak RSS (`ru_maxrss` after minus
before), the second its tracemalloc peak (tracing slows Python down, so it is not timed).
The archives are built by this parent process and handed over as files, so their building
never counts. Prints the table of docs/reliability.md "Hostile probe archives".

`--parsers` runs each parser, in this process, on the worst text its file's byte limit
(files.FILE_BYTES) lets through: once timed, once under tracemalloc.
"""

import argparse
import contextlib
import html
import json
import os
import re
import resource
import secrets
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get(
    "RELIABILITY_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cfg_i8"
)
CHILD_TIMEOUT_S = 600
ERRORLIST = re.compile(r'class="errorlist[^"]*"[^>]*>\s*<li>(.*?)</li>', re.S)

# name -> (what the row says, what is sent: "upload" an archive or "view" a stored probe)
ATTACKS = {
    "real": ("for comparison: the real H200 VM's probe, upload", "upload"),
    "numactl-upload": ("numactl `node 0 cpus: 0-3000000`, upload", "upload"),
    "numactl-view": ("the same, stored: a view of its report", "view"),
    "empty-entries": ("660 KB archive of empty entries", "upload"),
    "long-name": ("GNU long-name header of 300 MB (304 KB archive)", "upload"),
    "pax-header": ("PAX header of 300 MB (304 KB archive)", "upload"),
    "skipped-member": ("1 GB member no parser reads (1 MB archive)", "upload"),
    "nul": ("NUL in hostname.txt and nvidia-smi-topo.txt", "upload"),
}


def env() -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "configurator.settings.base",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": DATABASE_URL,
    }


def build(name: str, folder: Path) -> Path:
    """Write the attack's archive (or, for a view, the stored files as JSON) to a file."""
    from tests.fleet import probe_archives as a

    path = folder / name
    if name == "numactl-view":
        path.write_text(json.dumps(a.numactl_range_files()))
        return path
    archive = {
        "real": lambda: a.tar_gz(a.h200_vm_files()),
        "numactl-upload": lambda: a.tar_gz(a.numactl_range_files()),
        "empty-entries": a.empty_entries_archive,
        "long-name": a.gnu_long_name_archive,
        "pax-header": a.pax_header_archive,
        "skipped-member": a.huge_skipped_member_archive,
        "nul": lambda: a.tar_gz(a.nul_files()),
    }[name]()
    path.write_bytes(archive)
    return path


# -- the child --------------------------------------------------------------------------------


def child(name: str, path: str, mode: str) -> dict[str, object]:
    import django

    django.setup()
    from django.contrib.auth.models import Group
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.test.client import BOUNDARY, encode_multipart

    from configurator.fleet.models import NodeProbe
    from configurator.roles import ARCHITECTS
    from tests.factories import UserFactory
    from tests.fleet.probe_archives import h200_vm_files, tar_gz

    user = UserFactory(username=f"bench-{secrets.token_hex(4)}", is_staff=True)
    user.groups.add(Group.objects.get(name=ARCHITECTS))
    client = Client(raise_request_exception=False)
    client.force_login(user)

    def multipart(content: bytes) -> bytes:
        archive = SimpleUploadedFile("probe.tar.gz", content)
        return encode_multipart(BOUNDARY, {"archive": archive, "psu_watts": 1500,
                                           "numa_binding": "on"})  # fmt: skip

    def upload(body: bytes):
        # Encoded before it is sent, so only what the server does with the body is measured.
        kind = f"multipart/form-data; boundary={BOUNDARY}"
        return client.post("/fleet/probes/", body, content_type=kind, secure=True)

    good = upload(multipart(tar_gz(h200_vm_files())))  # warm: imports, catalog, templates
    assert good.status_code == 302, good.status_code
    assert client.get(good["Location"], secure=True).status_code == 200
    if ATTACKS[name][1] == "view":
        stored = NodeProbe.objects.create(
            hostname="bench", file_name="probe.tar.gz", files=json.loads(Path(path).read_text()),
            psu_watts=1500, numa_binding=True, findings=[], created_by=user,
        )  # fmt: skip

        def send():
            return client.get(f"/fleet/probes/{stored.pk}/", secure=True)
    else:
        body = multipart(Path(path).read_bytes())

        def send():
            return upload(body)

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if mode == "memory":
        tracemalloc.start()
    start = time.perf_counter()
    response = send()
    seconds = time.perf_counter() - start
    result: dict[str, object] = {"status": response.status_code}
    if mode == "memory":
        result["traced_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    else:
        result["seconds"] = seconds
        result["rss_mb"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    body = response.content.decode(errors="replace")
    if refusal := ERRORLIST.search(body):  # the form again, with its error
        result["answer"] = html.unescape(refusal[1])
    NodeProbe.objects.filter(created_by=user).delete()
    user.delete()
    return result


# -- the parsers at their limits ---------------------------------------------------------------


def worst_files() -> list[tuple[str, str, str]]:
    """Return (file, what it holds, text): the largest or densest text each limit lets in."""
    from tests.fleet.probe_archives import fixture

    gpu = fixture("h200-vm/nvidia-smi-q.xml").split("<gpu ", 1)[1].rsplit("</gpu>", 1)[0]
    function = (
        "{:02x}:{:02x}.0 3D controller: NVIDIA\n\tLnkCap: Speed 16GT/s, Width x16\n"
        "\tLnkSta: Speed 2.5GT/s (downgraded), Width x8 (downgraded)\n\tNUMA node: 0\n"
    )
    header = "\t" + "\t".join(f"GPU{i}" for i in range(256)) + "\tCPU Affinity\tNUMA Affinity\n"
    rows = "".join(
        f"GPU{i}\t" + "\t".join(["NV18"] * 256) + f"\t{i % 8 * 1000}-{i % 8 * 1000 + 999}"
        f"\t{i % 8}\n"
        for i in range(256)
    )
    nodes = "".join(
        f"node {n} cpus: "
        + " ".join(str(n * 8 + c) for c in range(8))
        + f"\nnode {n} size: 1000 MB\n"
        for n in range(1024)
    )
    return [
        ("nvidia-smi-q.xml", "128 real H200 GPUs",
         "<nvidia_smi_log>" + f"<gpu {gpu}</gpu>" * 128 + "</nvidia_smi_log>"),
        ("nvidia-smi-q.xml", "a million empty elements",
         "<nvidia_smi_log>" + "<a/>" * (2**20 - 10) + "</nvidia_smi_log>"),
        ("lspci-vv.txt", "8,192 GPU functions",
         "".join(function.format(bus, dev) for bus in range(256) for dev in range(32))),
        ("lspci-vv.txt", "4 million empty lines", "\n" * 4 * 2**20),
        ("dmidecode-memory.txt", "one block of 200,000 fields",
         "Memory Device\n" + "a: b\n" * 200_000),
        ("nvidia-smi-topo.txt", "256 devices × 256 links", header + rows[: 2**18 - len(header)]),
        ("numactl-hardware.txt", "1,024 nodes of 8 CPUs", nodes),
        ("numactl-hardware.txt", "one node listing CPU 0 30,000 times",
         "node 0 cpus: " + ",".join(["0"] * 30_000) + "\n"),
        ("lscpu.json", "80,000 empty lists", '{"lscpu": [' + ",".join(["[]"] * 80_000) + "]}"),
    ]  # fmt: skip


def parser_budgets() -> None:
    from configurator.fleet.probe import parsers as p
    from configurator.fleet.probe.facts import PARSERS
    from configurator.fleet.probe.files import FILE_BYTES

    print("| file, holding | size | answer | time | tracemalloc peak |")
    print("|---|---|---|---|---|")
    for name, what, text in worst_files():
        assert len(text.encode()) <= FILE_BYTES[name], name
        parse = PARSERS[name]
        start = time.perf_counter()
        try:
            parse(text)
            answer = "read"
        except p.ProbeParseError as error:
            answer = f"refused: {error}"
        seconds = time.perf_counter() - start
        tracemalloc.start()
        with contextlib.suppress(p.ProbeParseError):
            parse(text)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        size = len(text.encode()) / 2**20
        print(f"| `{name}`, {what} | {size:.2f} MB | {answer} | {seconds:.2f} s | {peak:.1f} MB |")


# -- the parent -------------------------------------------------------------------------------


def run_child(name: str, path: Path, mode: str) -> dict[str, object]:
    command = [sys.executable, "-m", "bench.probe_attacks", "--child", name, str(path), mode]
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env(), capture_output=True, text=True,
            timeout=CHILD_TIMEOUT_S, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"status": f"over {CHILD_TIMEOUT_S} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"status": f"exit {done.returncode}: {done.stderr.strip()[-300:]}"}
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default=",".join(ATTACKS))
    parser.add_argument("--child", nargs=3, metavar=("NAME", "PATH", "MODE"))
    parser.add_argument("--parsers", action="store_true")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    if args.parsers:
        parser_budgets()
        return
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v0"], cwd=ROOT, env=env(), check=True
        )
    print("| attack | answer | time | peak RSS growth | tracemalloc peak |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="probe-attacks-") as folder:
        for name in args.only.split(","):
            path = build(name, Path(folder))
            timed = run_child(name, path, "time")
            traced = run_child(name, path, "memory")
            answer = str(timed["status"]) + (f" ({timed['answer']})" if "answer" in timed else "")
            seconds = f"{timed['seconds']:.2f} s" if "seconds" in timed else "—"
            rss = f"{timed['rss_mb']:,.1f} MB" if "rss_mb" in timed else "—"
            peak = f"{traced['traced_mb']:,.1f} MB" if "traced_mb" in traced else "—"
            print(f"| {ATTACKS[name][0]} | {answer} | {seconds} | {rss} | {peak} |", flush=True)


if __name__ == "__main__":
    main()
