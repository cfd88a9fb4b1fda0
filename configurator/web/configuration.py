"""A configured build as the configurator page holds it: the permalink's fields, plain data.

The field names are the build fields of api.md ("Web pages"), so a permalink reads like an
`/api/v1/evaluate` body. No Django here: the page's form turns a query string into a
`Configuration`, and the option, pricing and fix modules work on it as plain data.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

# The order of the permalink's query parameters: api.md's example first, then the extras.
PERMALINK_FIELDS = (
    "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb", "memory_ecc",
    "psu_watts", "nvlink", "numa_binding", "platform", "nodes", "nics", "nic", "nvme",
)  # fmt: skip
WORKLOAD_FIELDS = ("model_params_b", "mode", "batch_size", "precision", "context_length")
# The amount of work (api.md "Work, time and cost"): in the permalink only when given.
WORK_FIELDS = (
    "train_tokens", "epochs", "dataset_tokens", "deadline_days",
    "concurrent_users", "prompt_tokens", "output_tokens", "target_tokens_per_s", "target_ttft_s",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Configuration:
    """One node of a build, `nodes` alike; slugs name the parts."""

    cpu: str
    cpu_count: int
    gpu: str
    gpu_count: int
    gpus_per_socket: tuple[int, ...]
    memory_gb: int
    memory_ecc: bool
    psu_watts: int
    nvlink: bool
    numa_binding: bool = True
    platform: str = ""  # empty: no platform chosen, the board's limits are not checked
    nodes: int = 1
    nics: int = 0
    nic: str = ""
    nvme: int = 0  # NVMe drives per node

    def changed(self, **changes: object) -> Configuration:
        return replace(self, **changes)

    @classmethod
    def from_build(cls, build) -> Configuration:
        """Return the configuration of an engine `Build`, from its fields (`Build.as_fields`);
        a permalink holds no DIMM count or NIC speed (the page derives them from the parts)."""
        values = build.as_fields()
        return cls(
            **{name: values[name] for name in cls.field_names()}
            | {
                "gpus_per_socket": tuple(values["gpus_per_socket"]),
                "platform": values["platform"] or "",
                "nic": values["nic"] or "",
            }
        )

    def build_input(self) -> dict[str, object]:
        """Return the build in the shape of `/api/v1/evaluate`'s `build`."""
        values = asdict(self)
        values["gpus_per_socket"] = list(self.gpus_per_socket)
        values["platform"] = self.platform or None
        values["nic"] = self.nic or None
        return values

    def query(self) -> list[tuple[str, str]]:
        """Return the permalink's query parameters, named as the build fields."""
        params = []
        for name in PERMALINK_FIELDS:
            value = getattr(self, name)
            if name in ("platform", "nic") and not value:
                continue
            if name == "nodes" and value == 1:
                continue
            if name in ("nics", "nvme") and value == 0:
                continue
            params.append((name, query_value(value)))
        return params

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


@dataclass(frozen=True, slots=True)
class WorkloadChoice:
    """The workload the customer runs, as the page's form holds it."""

    model_params_b: float
    mode: str
    batch_size: int = 1
    precision: str = "bf16"
    context_length: int = 2048
    train_tokens: float | None = None
    epochs: float | None = None
    dataset_tokens: float | None = None
    deadline_days: float | None = None
    concurrent_users: int | None = None
    prompt_tokens: int | None = None
    output_tokens: int | None = None
    target_tokens_per_s: float | None = None
    target_ttft_s: float | None = None

    def workload_input(self) -> dict[str, object]:
        """Return the workload in the shape of the API's `workload` (work fields when given)."""
        return {name: value for name, value in asdict(self).items() if value is not None}

    def query(self) -> list[tuple[str, str]]:
        given = [name for name in WORK_FIELDS if getattr(self, name) is not None]
        return [(name, query_value(getattr(self, name))) for name in (*WORKLOAD_FIELDS, *given)]


def query_value(value: object) -> str:
    """Write one field as the permalink does: `true`/`false`, `4+4`, `70` rather than `70.0`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "+".join(str(item) for item in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
