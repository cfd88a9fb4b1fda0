"""GPUs gain their datasheet tensor throughput and memory bandwidth, for time and cost of work.

Dense figures, without structured sparsity (a datasheet's starred figures halved), BF16/FP16
with FP32 accumulate. Each value's source is added to the item's notes.
"""

from decimal import Decimal

import django.core.validators
from decimal import Decimal
from django.db import migrations, models


ADA_WHITEPAPER = (
    "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf"
)
A100_DATASHEET = (
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
    "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"
)
H100_DATASHEET = "https://www.nvidia.com/en-us/data-center/h100/"
L40S_DATASHEET = "https://www.nvidia.com/en-us/data-center/l40s/"
L20_LISTING = (
    "https://www.tomshardware.com/pc-components/gpus/new-nvidia-ai-gpus-designed-to-get-around-"
    "us-export-bans-come-to-china-h20-l20-and-l2-to-fill-void-left-by-restricted-models"
)

# slug -> (BF16/FP16 TFLOPS, FP8 TFLOPS, INT8 TOPS, memory GB/s, source and note)
THROUGHPUT = {
    "rtx-4090": (
        "165.2",
        "330.3",
        "660.6",
        1008,
        f"Throughput: Ada architecture whitepaper, appendix A ({ADA_WHITEPAPER}): FP16/BF16 "
        "tensor with FP32 accumulate 165.2 TFLOPS, FP8 with FP32 accumulate 330.3, INT8 660.6 "
        "TOPS (dense); 1008 GB/s GDDR6X.",
    ),
    "l20": (
        "119.5",
        "239",
        "239",
        864,
        "Throughput: NVIDIA publishes no L20 datasheet; the partner listing reported at "
        f"{L20_LISTING} gives BF16/FP16 tensor 119.5 TFLOPS, FP8 and INT8 239 (dense), 864 GB/s.",
    ),
    "l40s": (
        "362.05",
        "733",
        "733",
        864,
        f"Throughput: L40S datasheet ({L40S_DATASHEET}): BF16/FP16 tensor 362.05 TFLOPS, FP8 "
        "733, INT8 733 TOPS (dense; the starred figures are with sparsity), 864 GB/s.",
    ),
    "a800-80g-pcie": (
        "312",
        "0",
        "624",
        1935,
        f"Throughput: A100 datasheet ({A100_DATASHEET}), A100 80GB PCIe: BF16/FP16 tensor 312 "
        "TFLOPS, INT8 624 TOPS (dense), 1,935 GB/s; Ampere has no FP8.",
    ),
    "a800-80g-sxm": (
        "312",
        "0",
        "624",
        2039,
        f"Throughput: A100 datasheet ({A100_DATASHEET}), A100 80GB SXM: BF16/FP16 tensor 312 "
        "TFLOPS, INT8 624 TOPS (dense), 2,039 GB/s; Ampere has no FP8.",
    ),
    "h100-80g-pcie": (
        "756",
        "1513",
        "1513",
        2000,
        f"Throughput: H100 datasheet ({H100_DATASHEET}), H100 PCIe: BF16/FP16 tensor 1,513 "
        "TFLOPS, FP8 and INT8 3,026 with sparsity, so 756 / 1,513 / 1,513 dense; 2 TB/s.",
    ),
    "h100-80g-sxm": (
        "989.4",
        "1978.9",
        "1978.9",
        3350,
        f"Throughput: H100 datasheet ({H100_DATASHEET}), H100 SXM: BF16/FP16 tensor 1,979 "
        "TFLOPS, FP8 and INT8 3,958 with sparsity, so 989.4 / 1,978.9 / 1,978.9 dense; 3.35 TB/s.",
    ),
}


def fill_throughput(apps, schema_editor) -> None:
    Gpu = apps.get_model("catalog", "Gpu")
    for slug, (bf16, fp8, int8, bandwidth, note) in THROUGHPUT.items():
        gpu = Gpu.objects.filter(slug=slug).first()
        if gpu is None:
            continue
        gpu.bf16_tflops, gpu.fp8_tflops, gpu.int8_tops = Decimal(bf16), Decimal(fp8), Decimal(int8)
        gpu.memory_bandwidth_gbs = bandwidth
        gpu.notes = f"{gpu.notes} {note}".strip()
        gpu.save()


def clear_throughput(apps, schema_editor) -> None:
    Gpu = apps.get_model("catalog", "Gpu")
    for slug, (*_, note) in THROUGHPUT.items():
        gpu = Gpu.objects.filter(slug=slug).first()
        if gpu is not None:
            gpu.notes = gpu.notes.replace(note, "").strip()
            gpu.save()


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0009_platform_power"),
    ]

    operations = [
        migrations.AddField(
            model_name="gpu",
            name="bf16_tflops",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Dense, without sparsity, FP32 accumulate; 0: not known.",
                max_digits=7,
                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                verbose_name="BF16/FP16 tensor TFLOPS (dense)",
            ),
        ),
        migrations.AddField(
            model_name="gpu",
            name="fp8_tflops",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Dense, without sparsity; 0: the GPU has no FP8 tensor cores.",
                max_digits=7,
                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                verbose_name="FP8 tensor TFLOPS (dense)",
            ),
        ),
        migrations.AddField(
            model_name="gpu",
            name="int8_tops",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Dense, without sparsity; 0: not known.",
                max_digits=7,
                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                verbose_name="INT8 tensor TOPS (dense)",
            ),
        ),
        migrations.AddField(
            model_name="gpu",
            name="memory_bandwidth_gbs",
            field=models.PositiveIntegerField(
                default=0, help_text="0: not known.", verbose_name="memory bandwidth GB/s"
            ),
        ),
        migrations.AddField(
            model_name="historicalgpu",
            name="bf16_tflops",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Dense, without sparsity, FP32 accumulate; 0: not known.",
                max_digits=7,
                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                verbose_name="BF16/FP16 tensor TFLOPS (dense)",
            ),
        ),
        migrations.AddField(
            model_name="historicalgpu",
            name="fp8_tflops",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Dense, without sparsity; 0: the GPU has no FP8 tensor cores.",
                max_digits=7,
                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                verbose_name="FP8 tensor TFLOPS (dense)",
            ),
        ),
        migrations.AddField(
            model_name="historicalgpu",
            name="int8_tops",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                help_text="Dense, without sparsity; 0: not known.",
                max_digits=7,
                validators=[django.core.validators.MinValueValidator(Decimal("0"))],
                verbose_name="INT8 tensor TOPS (dense)",
            ),
        ),
        migrations.AddField(
            model_name="historicalgpu",
            name="memory_bandwidth_gbs",
            field=models.PositiveIntegerField(
                default=0, help_text="0: not known.", verbose_name="memory bandwidth GB/s"
            ),
        ),
        migrations.RunPython(fill_throughput, clear_throughput),
    ]
