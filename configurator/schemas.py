"""The public API's request and response shapes (api.md), validated by pydantic.

Numbers are strict (a string is not a count) and bounded, so absurd input is refused with the
field it came from instead of reaching the engine. Every list and mapping has a maximum length
too, so no request can make the API collect (and answer) one error per element of a huge list.
"""

from typing import Annotated, Literal

from ninja import Schema
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model

from configurator.engine.build import MAX_GPUS_PER_NODE, MAX_NODES, NAMED_PARTS, Workload
from configurator.engine.fields import Declared, declarations


def _no_nul(value: str) -> str:
    # Databases such as PostgreSQL cannot store or compare NUL characters.
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


Text = Annotated[str, AfterValidator(_no_nul)]

MAX_NVME_PER_NODE = 32
MAX_BOM_LINES = 32  # a recommended build has about eight lines
MAX_BOM_LINE_KEYS = 16
MAX_RULE_CHANGES = 64  # more than every rule parameter there is
WORKLOAD_FIELDS = tuple(declarations(Workload))

Key = Annotated[str, Field(max_length=64)]
Scalar = Annotated[str, Field(max_length=300)] | int | float | bool | None
BomLine = Annotated[dict[Key, Scalar], Field(max_length=MAX_BOM_LINE_KEYS)]


class StrictSchema(BaseModel):
    # A plain pydantic model (ninja accepts one as a body): ninja's `Schema` would wrap every
    # nested object in an ORM getter. `from_attributes` keeps pydantic's wording for a body that
    # is not an object ("a valid dictionary or object"), without naming our classes.
    model_config = ConfigDict(strict=True, extra="forbid", from_attributes=True)


class BuildFields(StrictSchema):
    """The API's build but for the parts it names by slug (`BuildIn`, below)."""

    cpu: Text = Field(min_length=1, max_length=120, description="CPU slug or catalog name")
    cpu_count: int = Field(ge=1, le=2, description="Sockets: 1 or 2")
    gpu: Text = Field(min_length=1, max_length=120, description="GPU slug or catalog name")
    gpu_count: int = Field(ge=1, le=MAX_GPUS_PER_NODE, description="GPUs in one node")
    gpus_per_socket: list[int] | None = Field(
        None, min_length=1, max_length=2, description="GPUs on each socket; default: even split"
    )
    memory_gb: int = Field(ge=1, le=65536, description="System memory of one node, GB")
    memory_ecc: bool
    psu_watts: int = Field(ge=1, le=100000, description="Usable PSU output after redundancy, W")
    nvlink: bool | None = Field(None, description="Default: true where the GPU has NVLink")
    numa_binding: bool = True
    nodes: int = Field(1, ge=1, le=MAX_NODES)
    nics: int = Field(0, ge=0, le=16, description="High-speed NICs (InfiniBand/RoCE) per node")
    nic: Text | None = Field(None, max_length=120, description="NIC slug; default x16, 25 W")
    nic_speed_gbps: int | None = Field(
        None, ge=1, le=3200, description="Speed of each NIC, Gb/s, when no NIC slug is given"
    )
    nvme: int = Field(0, ge=0, le=MAX_NVME_PER_NODE, description="NVMe drives per node")
    platform: Text | None = Field(None, max_length=120, description="Platform slug")
    dimm_count: int | None = Field(None, ge=1, le=64, description="DIMMs per node")
    bom: list[BomLine] | None = Field(
        None,
        max_length=MAX_BOM_LINES,
        description="Bill of materials, as /recommend returns it; informational only",
    )


# The API's build: the fields above and a slug of each part a build names
# (`engine.build.NAMED_PARTS`), declared there once.
BuildIn = create_model(
    "BuildIn",
    __base__=BuildFields,
    __module__=__name__,
    **{
        part.name: (Text | None, Field(None, max_length=120, description=f"{part.label} slug"))
        for part in NAMED_PARTS
    },
)


def _workload_field(field: Declared) -> tuple[object, object]:
    """Return the pydantic annotation and `Field` of one declared workload field."""
    spec = field.spec
    if spec.kind == "choice":
        annotation = Literal[tuple(value for value, _label in spec.choices)]
    elif spec.kind == "str":
        annotation = Text
    else:
        annotation = {"int": int, "float": float}[spec.kind]
    # A field another one can fill (a model's size, filled by the named model) is optional
    # here; inputs.workload_errors refuses a request without either.
    if field.optional or spec.required_unless:
        annotation = annotation | None
    bounds = {"ge": spec.ge, "gt": spec.gt, "le": spec.le, "max_length": spec.max_length}
    options = {key: value for key, value in bounds.items() if value is not None}
    if spec.description is not None:
        options["description"] = spec.description
    required = field.required and not spec.required_unless
    default = ... if required else field.stated_default
    return annotation, Field(default, **options)


# The API's workload (api.md): every field as `engine.build.Workload` declares it.
WorkloadIn = create_model(
    "WorkloadIn",
    __base__=StrictSchema,
    __module__=__name__,
    **{field.name: _workload_field(field) for field in WORKLOAD_FIELDS},
)


class EvaluateIn(StrictSchema):
    build: BuildIn
    workload: WorkloadIn | None = None
    profile: Text | None = Field(None, max_length=64, description="Rule profile; default profile")


class WorkloadRequestIn(StrictSchema):
    workload: WorkloadIn
    profile: Text | None = Field(
        None, max_length=64, description="Rule profile whose usable GPU memory share applies"
    )


class RecommendIn(StrictSchema):
    workload: WorkloadIn
    profile: Text | None = Field(None, max_length=64, description="Rule profile; default profile")
    limit: int = Field(5, ge=1, le=20, description="How many builds at most")


class RulesPatchIn(StrictSchema):
    parameters: dict[Key, int | float] = Field(min_length=1, max_length=MAX_RULE_CHANGES)
    profile: Text | None = Field(None, max_length=64)
    note: Text = Field("", max_length=300)
    base_version: int | None = Field(
        None, ge=1, description="The version these changes start from; a stale one gets 409"
    )
    dry_run: bool = Field(
        False, description="Publish nothing; answer what would change (nodes, recipes, quotes)"
    )


class ErrorsOut(Schema):
    errors: dict[str, list[str]]


class RulesOut(Schema):
    version: int
    profile: str
    parameters: dict[str, int | float]
    published_at: str
    published_by: str | None


class VersionChangesOut(Schema):
    version: int
    changes: dict[str, list[int | float | None]]
    note: str
    published_at: str
    published_by: str | None


class StaleOut(Schema):
    errors: dict[str, list[str]]
    current: RulesOut
    since: list[VersionChangesOut]


class MessageOut(Schema):
    message_id: str = Field(description="The English text with %(name)s placeholders")
    params: dict[str, object] = Field(description="Values of the placeholders")


class CheckOut(Schema):
    code: str
    status: Literal["pass", "fail", "warn", "na"]
    title: str = Field(description="The check's title in English, whatever the language asked")
    title_zh: str = Field(
        description="The title in Simplified Chinese (kept from v1; `title_translated` is the "
        "title in the language asked, `title_message` its id)"
    )
    title_translated: str = Field(description="The title in the language asked (Accept-Language)")
    detail: str
    impact: str
    fix: str
    numbers: dict[str, float | int | str | bool | None]
    title_message: MessageOut
    detail_message: MessageOut
    fix_message: MessageOut
    fix_change: dict[str, int | bool | str | list[int]] | None = Field(
        None,
        description="The build change the fix describes, as build fields and the values they "
        'take (`{"gpus_per_socket": [4, 4]}`); null when the fix is not one the check can '
        "name without the catalog (a part to pick) or there is nothing to fix",
    )
    covered_by: str | None = Field(
        None,
        description="The code of the check that owns and counts this check's problem (P3 for "
        "`memory`, P4 for `numa`'s overloaded socket): status `na`, so one problem fails "
        "once; null otherwise",
    )
    rule_title: str = Field(
        "",
        description="The rule's name in English, whatever the outcome (`title` says what "
        'passed on a pass: "ECC server memory" for P6, named "Non-ECC consumer memory")',
    )


class PitfallOut(Schema):
    code: str
    title: str
    title_translated: str = Field(description="The title in the language asked (Accept-Language)")
    detail: str
    impact: str
    fix: str
    monthly_loss: float | None = Field(
        None, description="What the pitfall costs per month in CNY by the guide's measured loss"
    )


class PerformanceOut(Schema):
    time_to_train_days: float | None = None
    time_to_train_s: float | None = Field(
        None, description="Training: the run's time in seconds (time_to_train_days unrounded)"
    )
    tokens_per_s: float | None = None
    time_to_first_token_s: float | None = Field(
        None, description="Inference: mean time to the first token under the load given"
    )
    time_per_output_token_s: float | None = Field(
        None,
        description="Inference: mean time between a user's output tokens under the load given "
        "(continuous batching)",
    )
    cost_per_run: float | None = None
    cost_per_million_tokens: float | None = None
    currency: str
    meets_target: bool
    meets_ttft_target: bool | None = None
    meets_tpot_target: bool | None = Field(
        None, description="Whether time_per_output_token_s is within target_tpot_s, when given"
    )
    monthly_price: float
    assumptions: list[str]


class BalanceOut(Schema):
    cpu_threads: float
    pcie_lanes: float
    memory: float
    overall: float
    threshold: float
    balanced: bool


class RulesetRef(Schema):
    version: int
    profile: str


class ReferenceOut(Schema):
    """Another published rule profile's verdict on the same build (domain.md §8)."""

    profile: str
    name: str
    version: int
    verdict: Literal["accept", "reject"]


class EvaluationOut(Schema):
    verdict: Literal["accept", "reject"]
    pitfalls: list[PitfallOut]
    checks: list[CheckOut]
    balance: BalanceOut
    ruleset: RulesetRef
    monthly_price: float | None = None
    currency: str | None = None
    balance_monthly_loss: float | None = Field(
        None, description="An unbalanced node: what its lost utilisation costs a month, CNY"
    )
    performance: PerformanceOut | None = None
    references: list[ReferenceOut] = Field(
        default_factory=list,
        description="Every other rule profile's verdict on the same build and workload: "
        "which published reference (operator baseline, NVIDIA RA) the build meets",
    )


class SizingOut(Schema):
    total_gb: float
    per_gpu_gb: float | None
    gpu_count: int | None
    breakdown: dict[str, float]
    assumptions: list[str]
    gpu: str | None = None
    gpus_needed: int | None = None
    unit: str = Field(description="What GB means here, and what the makers' figures mean")
    gpu_memory_gib: int | None = Field(None, description="The card's memory as its maker states it")
    card_gb: float | None = Field(None, description="The card's memory in GB (10^9 bytes)")
    usable_fraction: float | None = Field(None, description="Share of the card sizing may fill")
    usable_gb: float | None = Field(None, description="What each GPU may fill, GB")
    performance: PerformanceOut | None = None


class BomLineOut(Schema):
    kind: str
    slug: str
    name: str
    qty: int
    unit_price: float
    monthly_price: float


class RecommendedBuildOut(Schema):
    cpu: str
    cpu_count: int
    gpu: str
    gpu_count: int
    gpus_per_socket: list[int]
    memory_gb: int
    memory_ecc: bool
    psu_watts: int
    nvlink: bool
    numa_binding: bool
    nodes: int
    nics: int
    nic: str | None
    platform: str
    dimm_count: int
    bom: list[BomLineOut]


class ReplicasOut(Schema):
    """How an inference build serves the model: whole copies, each over `gpus` GPUs."""

    gpus: int
    count: int
    sequences_each: int
    nodes_each: int


class RecommendationOut(Schema):
    build: RecommendedBuildOut
    evaluation: EvaluationOut
    monthly_price: float
    currency: str
    why: str
    scenario: str | None
    psu_redundancy: str
    replicas: ReplicasOut | None = None
    performance: PerformanceOut | None = None


class MissOut(Schema):
    """A target a closest build misses: asked, done, and the target it would meet."""

    field: str = Field(description="The workload field of the target, e.g. target_ttft_s")
    target: float = Field(description="The target as the workload gives it")
    value: float = Field(description="What the build does (days, tokens/s, s, CNY a month)")
    passes_with: float = Field(description="The target the build meets, two significant figures")
    text: str


class ClosestOut(RecommendationOut):
    misses: list[MissOut]


class RecommendOut(Schema):
    builds: list[RecommendationOut]
    reason: str | None
    ruleset: RulesetRef
    closest: list[ClosestOut] = Field(
        default_factory=list,
        description="Without builds: the closest ones, what each misses and what it meets",
    )
