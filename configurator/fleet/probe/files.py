"""The files of a probe archive: the names probe.sh writes and the command each holds."""

FILES = {
    "lscpu.json": "lscpu -J",
    "numactl-hardware.txt": "numactl --hardware",
    "nvidia-smi-topo.txt": "nvidia-smi topo -m",
    "nvidia-smi-q.xml": "nvidia-smi -q -x",
    "lspci-vv.txt": "lspci -vv",
    "dmidecode-memory.txt": "dmidecode -t memory",
    "nccl-tests.txt": "all_reduce_perf (nccl-tests)",
}
REQUIRED = ("lscpu.json", "nvidia-smi-q.xml")
HOSTNAME = "hostname.txt"
