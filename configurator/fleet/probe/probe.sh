#!/usr/bin/env bash
# Node probe of the balanced GPU node configurator: collects what the hardware balance report
# needs into one archive, probe-<host>-<time>.tar.gz, in the current folder. Run it as root
# (dmidecode and the link capabilities of lspci need it); nothing is changed on the node.
#
#   sudo bash probe.sh            # then upload the archive on the configurator's probe page
#   NCCL_TESTS=/opt/nccl-tests/build sudo -E bash probe.sh   # also run all_reduce_perf
set -uo pipefail
# Field names and numbers as the parsers read them: untranslated (lscpu translates its field
# names under zh_CN and other locales), with a decimal point.
export LC_ALL=C

host=$(hostname -s 2>/dev/null || hostname)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$work/probe-$host-$stamp"
mkdir -p "$out"

collect() {  # collect FILE COMMAND...: the command's output, or why there is none
  local file=$1; shift
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "probe: $1 not installed, $file skipped" >&2
    return
  fi
  "$@" >"$out/$file" 2>"$out/$file.err" || echo "probe: '$*' failed, see $file.err" >&2
}

collect lscpu.json lscpu -J
if [ ! -s "$out/lscpu.json" ]; then  # util-linux before 2.30 (CentOS/RHEL 7) has no -J
  rm -f "$out/lscpu.json"
  collect lscpu.txt lscpu
fi
collect numactl-hardware.txt numactl --hardware
collect nvidia-smi-topo.txt nvidia-smi topo -m
collect nvidia-smi-q.xml nvidia-smi -q -x
collect lspci-vv.txt lspci -vv
collect dmidecode-memory.txt dmidecode -t memory

# nccl-tests, when present: all-reduce over every GPU of the node, 8 B to 8 GB.
perf=${NCCL_TESTS:+$NCCL_TESTS/all_reduce_perf}
perf=${perf:-$(command -v all_reduce_perf || true)}
if [ -n "$perf" ] && [ -x "$perf" ]; then
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  "$perf" -b 8 -e 8G -f 2 -g "${gpus:-1}" >"$out/nccl-tests.txt" 2>&1 \
    || echo "probe: all_reduce_perf failed, see nccl-tests.txt" >&2
fi

echo "$host" >"$out/hostname.txt"
tar -czf "probe-$host-$stamp.tar.gz" -C "$work" "probe-$host-$stamp"
echo "probe-$host-$stamp.tar.gz"
