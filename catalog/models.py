"""The hardware catalog: datasheet specs and monthly rental prices of every part a build uses.

Every item has a stable lowercase slug (the public API names items by it), the vendor page its
specs come from, and a monthly rental price in CNY. Database constraints hold what must never
be false: unique slugs, positive counts and watts, threads at least cores.
"""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from configurator.engine.build import Architecture, native_formats
from configurator.jobs.models import LeasedJob


class CatalogItem(models.Model):
    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=120)
    vendor = models.CharField(_("vendor"), max_length=60)
    source_url = models.URLField(_("datasheet source"), max_length=300)
    monthly_price = models.DecimalField(
        _("monthly rental price (CNY)"),
        max_digits=10,
        decimal_places=2,
        validators=[MinValueValidator(Decimal(0))],
    )
    price_is_placeholder = models.BooleanField(
        _("placeholder price"),
        default=True,
        help_text=_("Seeded prices are placeholders until an architect sets the real one."),
    )
    offered = models.BooleanField(_("offered"), default=True)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        abstract = True
        ordering = ["vendor", "name"]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def positive(cls, *names: str) -> list[models.CheckConstraint]:
        """Return one constraint per field that must be above zero."""
        return [
            models.CheckConstraint(
                condition=Q(**{f"{name}__gt": 0}), name=f"%(app_label)s_%(class)s_{name}_positive"
            )
            for name in names
        ]


def price_constraint() -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(monthly_price__gte=0), name="%(app_label)s_%(class)s_price_not_negative"
    )


class DdrGeneration(models.IntegerChoices):
    DDR3 = 3, "DDR3"
    DDR4 = 4, "DDR4"
    DDR5 = 5, "DDR5"


class PcieGeneration(models.IntegerChoices):
    GEN3 = 3, "PCIe 3.0"
    GEN4 = 4, "PCIe 4.0"
    GEN5 = 5, "PCIe 5.0"


class Cpu(CatalogItem):
    socket = models.CharField(
        _("socket"), max_length=20, help_text=_("The CPU socket; a platform takes one socket type.")
    )
    cores = models.PositiveSmallIntegerField(_("cores per socket"))
    threads = models.PositiveSmallIntegerField(_("threads per socket"))
    base_ghz = models.DecimalField(_("base clock GHz"), max_digits=4, decimal_places=2)
    boost_ghz = models.DecimalField(_("max boost GHz"), max_digits=4, decimal_places=2)
    tdp_w = models.PositiveSmallIntegerField(_("TDP W"))
    pcie_gen = models.PositiveSmallIntegerField(_("PCIe generation"), choices=PcieGeneration)
    pcie_lanes = models.PositiveSmallIntegerField(_("PCIe lanes per socket"))
    pcie_lanes_2s = models.PositiveSmallIntegerField(
        _("PCIe lanes usable in 2 sockets"),
        help_text=_("Both sockets together; EPYC loses lanes to the xGMI links (9754: 160)."),
    )
    memory_channels = models.PositiveSmallIntegerField(_("memory channels per socket"))
    ddr_gen = models.PositiveSmallIntegerField(_("DDR generation"), choices=DdrGeneration)
    memory_speed_mts = models.PositiveIntegerField(_("max memory speed MT/s"))
    max_sockets = models.PositiveSmallIntegerField(_("max sockets"), default=2)
    history = HistoricalRecords()

    class Meta(CatalogItem.Meta):
        verbose_name = _("CPU")
        verbose_name_plural = _("CPUs")
        constraints = [
            *CatalogItem.positive(
                "cores", "threads", "base_ghz", "tdp_w", "pcie_lanes", "memory_channels"
            ),
            price_constraint(),
            models.CheckConstraint(
                condition=Q(threads__gte=F("cores")), name="catalog_cpu_threads_at_least_cores"
            ),
            models.CheckConstraint(
                condition=Q(boost_ghz__gte=F("base_ghz")), name="catalog_cpu_boost_at_least_base"
            ),
            models.CheckConstraint(
                condition=Q(max_sockets__in=[1, 2]), name="catalog_cpu_max_sockets_1_or_2"
            ),
        ]


class GpuFormFactor(models.TextChoices):
    PCIE = "pcie", _("PCIe card")
    SXM = "sxm", _("SXM module")


class GpuClass(models.TextChoices):
    CONSUMER = "consumer", _("Consumer")
    DATACENTER = "datacenter", _("Data centre")


class GpuArchitecture(models.TextChoices):
    """The engine's Architecture (configurator/engine/build.py), an open list: add new ones."""

    VOLTA = "volta", _("Volta")
    TURING = "turing", _("Turing")
    AMPERE = "ampere", _("Ampere")
    ADA = "ada", _("Ada Lovelace")
    HOPPER = "hopper", _("Hopper")
    BLACKWELL = "blackwell", _("Blackwell")


def throughput_field(label: str, help_text: str) -> models.DecimalField:
    """Return a datasheet tensor throughput (TFLOPS or TOPS, dense): 0 or more, 0 not known."""
    return models.DecimalField(
        label,
        max_digits=7,
        decimal_places=2,
        default=0,
        validators=[MinValueValidator(Decimal(0))],
        help_text=help_text,
    )


class Gpu(CatalogItem):
    memory_gb = models.PositiveSmallIntegerField(_("memory GB"))
    memory_type = models.CharField(_("memory type"), max_length=20)
    tdp_w = models.PositiveSmallIntegerField(_("TDP W"))
    pcie_gen = models.PositiveSmallIntegerField(_("PCIe generation"), choices=PcieGeneration)
    form_factor = models.CharField(_("form factor"), max_length=8, choices=GpuFormFactor)
    nvlink_gbps = models.PositiveSmallIntegerField(
        _("NVLink GB/s"), default=0, help_text=_("Total NVLink bandwidth; 0 means none.")
    )
    ecc = models.BooleanField(_("ECC memory"))
    gpu_class = models.CharField(_("class"), max_length=12, choices=GpuClass)
    architecture = models.CharField(
        _("architecture"),
        max_length=12,
        choices=GpuArchitecture,
        help_text=_(
            "Decides the number formats it runs: FP8 needs Ada, Hopper or later; FP4 Blackwell."
        ),
    )
    # Dense tensor throughput as the datasheet states it, without structured sparsity; 0 means
    # the GPU has no such format (FP8 before Ada and Hopper) or the figure is not known.
    bf16_tflops = throughput_field(
        _("BF16/FP16 tensor TFLOPS (dense)"),
        _("Dense, without sparsity, FP32 accumulate; 0: not known."),
    )
    fp8_tflops = throughput_field(
        _("FP8 tensor TFLOPS (dense)"),
        _("Dense, without sparsity; 0: the GPU has no FP8 tensor cores."),
    )
    int8_tops = throughput_field(
        _("INT8 tensor TOPS (dense)"), _("Dense, without sparsity; 0: not known.")
    )
    memory_bandwidth_gbs = models.PositiveIntegerField(
        _("memory bandwidth GB/s"), default=0, help_text=_("0: not known.")
    )
    history = HistoricalRecords()

    class Meta(CatalogItem.Meta):
        verbose_name = _("GPU")
        verbose_name_plural = _("GPUs")
        constraints = [*CatalogItem.positive("memory_gb", "tdp_w"), price_constraint()]

    def clean(self) -> None:
        # The formats a GPU runs follow from its architecture (engine/build.py): a datasheet
        # FP8 figure on an architecture without FP8 tensor cores is a mistake in the row.
        known = self.architecture in {arch.value for arch in Architecture}
        if (
            known
            and self.fp8_tflops
            and "fp8" not in native_formats(Architecture(self.architecture))
        ):
            raise ValidationError(
                {
                    "fp8_tflops": _(
                        "%(architecture)s has no FP8 tensor cores: give 0 (FP8 needs Ada, "
                        "Hopper or later)."
                    )
                    % {"architecture": self.get_architecture_display()}
                }
            )


class MemoryModule(CatalogItem):
    ddr_gen = models.PositiveSmallIntegerField(_("DDR generation"), choices=DdrGeneration)
    capacity_gb = models.PositiveSmallIntegerField(_("capacity GB"))
    registered = models.BooleanField(_("registered (RDIMM)"))
    ecc = models.BooleanField(_("ECC"))
    speed_mts = models.PositiveIntegerField(_("speed MT/s"))
    history = HistoricalRecords()

    class Meta(CatalogItem.Meta):
        verbose_name = _("memory module")
        verbose_name_plural = _("memory modules")
        ordering = ["ddr_gen", "capacity_gb"]
        constraints = [*CatalogItem.positive("capacity_gb", "speed_mts"), price_constraint()]


class EfficiencyClass(models.TextChoices):
    GOLD = "gold", "80 PLUS Gold"
    PLATINUM = "platinum", "80 PLUS Platinum"
    TITANIUM = "titanium", "80 PLUS Titanium"


class Psu(CatalogItem):
    rated_w = models.PositiveIntegerField(_("rated output W"))
    efficiency = models.CharField(_("efficiency class"), max_length=12, choices=EfficiencyClass)
    history = HistoricalRecords()

    class Meta(CatalogItem.Meta):
        verbose_name = _("power supply")
        verbose_name_plural = _("power supplies")
        ordering = ["rated_w"]
        constraints = [*CatalogItem.positive("rated_w"), price_constraint()]


class NicFabric(models.TextChoices):
    INFINIBAND = "infiniband", "InfiniBand"
    ETHERNET = "ethernet", _("Ethernet (RoCE)")
    VPI = "vpi", _("InfiniBand or Ethernet (VPI)")


class Nic(CatalogItem):
    """A high-speed network card for the east-west traffic of multi-node training."""

    speed_gbps = models.PositiveIntegerField(_("speed Gb/s per port"))
    ports = models.PositiveSmallIntegerField(_("ports"), default=1)
    fabric = models.CharField(_("fabric"), max_length=12, choices=NicFabric)
    pcie_gen = models.PositiveSmallIntegerField(_("PCIe generation"), choices=PcieGeneration)
    pcie_lanes = models.PositiveSmallIntegerField(_("PCIe lanes"), default=16)
    tdp_w = models.PositiveSmallIntegerField(_("max power W"))
    history = HistoricalRecords()

    class Meta(CatalogItem.Meta):
        verbose_name = _("network card")
        verbose_name_plural = _("network cards")
        ordering = ["speed_gbps", "name"]
        constraints = [
            *CatalogItem.positive("speed_gbps", "ports", "pcie_lanes", "tdp_w"),
            price_constraint(),
        ]


class GpuAttach(models.TextChoices):
    DIRECT = "direct", _("Direct to CPU")
    SWITCH = "switch", _("Through PCIe switches")


class NvlinkKind(models.TextChoices):
    NONE = "none", _("None")
    BRIDGE = "bridge", _("NVLink bridges")
    NVSWITCH = "nvswitch", _("NVSwitch baseboard")


class Platform(CatalogItem):
    """A chassis with its board: what it takes and how its GPU slots reach the sockets."""

    sockets = models.PositiveSmallIntegerField(_("sockets"))
    cpu_socket = models.CharField(_("CPU socket it takes"), max_length=20)
    pcie_gen = models.PositiveSmallIntegerField(_("PCIe generation"), choices=PcieGeneration)
    gpu_form_factor = models.CharField(_("GPU form factor"), max_length=8, choices=GpuFormFactor)
    gpus = models.ManyToManyField(
        Gpu,
        blank=True,
        verbose_name=_("GPUs it takes"),
        help_text=_("For SXM baseboards, the GPU modules of the board; empty means any card."),
    )
    gpu_slots_socket0 = models.PositiveSmallIntegerField(_("GPU slots on socket 0"))
    gpu_slots_socket1 = models.PositiveSmallIntegerField(_("GPU slots on socket 1"), default=0)
    gpu_attach = models.CharField(_("GPU attach"), max_length=8, choices=GpuAttach)
    pcie_switch_uplinks = models.PositiveSmallIntegerField(
        _("PCIe switch uplinks"),
        default=0,
        help_text=_("x16 uplinks from the PCIe switches to the CPUs; 0 when GPUs are direct."),
    )
    nvlink = models.CharField(_("NVLink"), max_length=10, choices=NvlinkKind)
    dimm_slots_per_socket = models.PositiveSmallIntegerField(_("DIMM slots per socket"))
    psu_bays = models.PositiveSmallIntegerField(_("PSU bays"))
    psu_max_w = models.PositiveIntegerField(
        _("largest PSU per bay W"), help_text=_("The highest-rated PSU module a bay takes.")
    )
    max_power_w = models.PositiveIntegerField(
        _("total PSU rating W"), help_text=_("Every bay filled with its largest PSU.")
    )
    rated_power_w = models.PositiveIntegerField(
        _("maker's power figure W"),
        default=0,
        help_text=_(
            "The maker's published maximum system power, or the usable output (after "
            "redundancy) of the PSU configuration it ships fully populated; 0 when neither "
            "is published. P7 uses it instead of the component estimate."
        ),
    )
    rated_gpu_w = models.PositiveIntegerField(
        _("GPU power of that figure W"),
        default=0,
        help_text=_("The TDP of each GPU the maker's figure is stated for."),
    )
    power_source_url = models.URLField(_("power figure source"), max_length=300, blank=True)
    psus = models.ManyToManyField(
        Psu,
        blank=True,
        related_name="platforms",
        verbose_name=_("PSUs it takes"),
        help_text=_(
            "The PSU models its bays take; empty means any PSU of the platform's own vendor "
            "up to the bay rating. A bill never puts one vendor's PSU in another's chassis."
        ),
    )
    nic_slots = models.PositiveSmallIntegerField(_("NIC slots (x16)"), default=2)
    nvme_bays = models.PositiveSmallIntegerField(_("NVMe bays"), default=4)
    rack_units = models.PositiveSmallIntegerField(_("rack units"), default=4)
    history = HistoricalRecords(m2m_fields=[gpus, psus])

    class Meta(CatalogItem.Meta):
        verbose_name = _("platform")
        verbose_name_plural = _("platforms")
        constraints = [
            *CatalogItem.positive(
                "sockets", "gpu_slots_socket0", "psu_bays", "psu_max_w", "max_power_w"
            ),
            price_constraint(),
            models.CheckConstraint(
                condition=Q(sockets__in=[1, 2]), name="catalog_platform_sockets_1_or_2"
            ),
            models.CheckConstraint(
                condition=Q(rated_power_w=0) | Q(rated_gpu_w__gt=0),
                name="catalog_platform_power_figure_names_its_gpu_power",
            ),
            models.CheckConstraint(
                condition=Q(sockets=2) | Q(gpu_slots_socket1=0),
                name="catalog_platform_socket1_slots_need_two_sockets",
            ),
            models.CheckConstraint(
                condition=Q(gpu_attach="switch", pcie_switch_uplinks__gt=0)
                | Q(gpu_attach="direct", pcie_switch_uplinks=0),
                name="catalog_platform_switch_uplinks_match_attach",
            ),
        ]

    @property
    def gpu_slots(self) -> int:
        return self.gpu_slots_socket0 + self.gpu_slots_socket1

    def clean(self) -> None:
        if self.sockets == 1 and self.gpu_slots_socket1:
            raise ValidationError(
                {"gpu_slots_socket1": _("A single-socket platform has no GPU slots on socket 1.")}
            )
        if (self.gpu_attach == GpuAttach.SWITCH) != (self.pcie_switch_uplinks > 0):
            raise ValidationError(
                {"pcie_switch_uplinks": _("Give uplinks exactly when GPUs sit behind switches.")}
            )


class ImportJob(LeasedJob):
    """A catalog sheet too long to import within a request, checked and imported by a task.

    Nothing is written unless every row passes: the rows are checked first (`rows_checked`
    counts them, so the admin shows progress), then written in one transaction.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        CHECKING = "checking", _("checking rows")
        WRITING = "writing", _("writing")
        DONE = "done", _("imported")
        REFUSED = "refused", _("refused: rows with errors, nothing imported")
        FAILED = "failed", _("failed: nothing imported")
        STOPPED = "stopped", _("failed: the worker stopped, nothing imported")

    RUNNING = (Status.QUEUED, Status.CHECKING, Status.WRITING)
    QUEUED = Status.QUEUED
    ACTIVE = RUNNING
    STOPPED = Status.STOPPED

    model = models.CharField(_("catalog list"), max_length=40)  # e.g. "catalog.gpu"
    file_name = models.CharField(_("file"), max_length=255)
    file_format = models.CharField(_("format"), max_length=8)  # csv or xlsx
    data = models.BinaryField(_("sheet"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    rows_total = models.PositiveIntegerField(_("rows"), default=0)
    rows_checked = models.PositiveIntegerField(_("rows checked"), default=0)
    totals = models.JSONField(_("totals"), default=dict, blank=True)
    errors = models.JSONField(_("errors"), default=list, blank=True)
    error_count = models.PositiveIntegerField(_("rows with errors"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("started by"),
    )
    created_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("sheet import")
        verbose_name_plural = _("sheet imports")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_status_display()})"

    @property
    def running(self) -> bool:
        return self.status in self.RUNNING
