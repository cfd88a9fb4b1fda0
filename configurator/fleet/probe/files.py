"""The files of a probe archive: the names probe.sh writes and the command each holds."""

FILES = {
    "lscpu.json": "lscpu -J",
    "lscpu.txt": "lscpu",
    "numactl-hardware.txt": "numactl --hardware",
    "nvidia-smi-topo.txt": "nvidia-smi topo -m",
    "nvidia-smi-q.xml": "nvidia-smi -q -x",
    "lspci-vv.txt": "lspci -vv",
    "dmidecode-memory.txt": "dmidecode -t memory",
    "nccl-tests.txt": "all_reduce_perf (nccl-tests)",
}
# A file another one stands in for: plain `lscpu` where `lscpu -J` is missing (util-linux
# before 2.30, as on CentOS/RHEL 7); probe.sh writes it then.
STANDS_IN = {"lscpu.txt": "lscpu.json"}


def present(files: dict[str, str], name: str) -> str | None:
    """Return which file holds what `name` holds (it, or one standing in for it), or None."""
    for candidate in (name, *(other for other, what in STANDS_IN.items() if what == name)):
        if files.get(candidate, "").strip():
            return candidate
    return None


HOSTNAME = "hostname.txt"
KB, MB = 1024, 1024 * 1024
# The most each file may unpack to: many times the largest real output (a summary of lscpu
# is 5 KB, nvidia-smi -q -x 27 KB a GPU, lspci -vv about 2 KB a PCI function, dmidecode
# 1.2 KB a DIMM slot), small enough that no parser's working set grows past a few MB.
FILE_BYTES = {
    "lscpu.json": 256 * KB,
    "lscpu.txt": 256 * KB,  # plain lscpu: about 2 KB
    "numactl-hardware.txt": 1 * MB,  # 8,192 CPUs listed one by one: 40 KB
    "nvidia-smi-topo.txt": 256 * KB,
    "nvidia-smi-q.xml": 4 * MB,  # 128 GPUs: 3.5 MB
    "lspci-vv.txt": 4 * MB,
    "dmidecode-memory.txt": 1 * MB,
    "nccl-tests.txt": 2 * MB,  # NCCL_DEBUG=INFO makes it long; only its last lines are read
    HOSTNAME: 4 * KB,  # a host name is at most 253 characters
}
