"""A probed CPU or GPU name matched to its catalog part, by the whole model name or not at all.

A model is its family and its number *with* every suffix that makes it another part: the
generation of a Xeon E5 ("E5-2680 v4" is not "E5-2690 v4" nor "E5-2680 v3"), the letters
and "+" after a number ("8480+", "8480C", "6548Y+", "9374F", "9654P"), a GPU's variant words
("RTX 4090 D", "RTX 4080 SUPER", "RTX 6000 Ada Generation"). A name the catalog does not hold
as such is an unknown part (None): its checks are not judged, never made on the nearest part.

Plain Python over the engine's catalog: no Django import.
"""

from __future__ import annotations

import re

from configurator.engine import build as engine
from configurator.engine.catalog import Catalog

# What lscpu and nvidia-smi print around a model that is not part of it.
NOISE = re.compile(
    r"\((?:R|TM)\)|\bCPU\b|\bProcessor\b|@.*$|\b\d+-Cores?\b|\bwith Radeon Graphics\b",
    re.IGNORECASE,
)
VENDORS = frozenset({"INTEL", "AMD", "NVIDIA", "GENUINE"})
CPU_FAMILIES = frozenset({"XEON", "EPYC", "RYZEN", "THREADRIPPER", "CORE", "OPTERON"})
GENERATION = re.compile(r"^(.*[0-9].*?)(V[0-9]{1,2})$")  # "E5-2680V4": the v4 written on
# Words after a GPU's number that make it another product.
GPU_VARIANTS = frozenset({"TI", "SUPER", "D", "ADA", "BLACKWELL", "XT", "NVL"})
GPU_MEMORY = re.compile(r"[0-9]+GB")


def _words(name: str) -> list[str]:
    return " ".join(NOISE.sub(" ", name).split()).upper().split()


def cpu_identity(name: str) -> tuple[str, str, str] | None:
    """Return a CPU name's (family, model number with its letters, generation), or None.

    "Intel(R) Xeon(R) CPU E5-2687W v4 @ 3.00GHz" is ("XEON", "E5-2687W", "V4"); "AMD EPYC
    9654 96-Core Processor" is ("EPYC", "9654", ""). The tier word (Gold, Platinum) is not
    part of it: the number is unique within the family, and lscpu drops the tier of some.
    """
    words = [word for word in _words(name) if word not in VENDORS]
    family = next((word for word in words if word in CPU_FAMILIES), None)
    at = next((i for i, word in enumerate(words) if any(ch.isdigit() for ch in word)), None)
    if family is None or at is None:
        return None
    model, generation = words[at], ""
    if split := GENERATION.match(model):
        model, generation = split[1], split[2]
    elif at + 1 < len(words) and re.fullmatch(r"V[0-9]{1,2}", words[at + 1]):
        generation = words[at + 1]
    return family, model, generation


def match_cpu(model: str, catalog: Catalog) -> engine.Cpu | None:
    """Return the catalog CPU an lscpu model name is, or None (an unknown part)."""
    found = catalog.find("cpus", " ".join(NOISE.sub(" ", model).split()))
    if found:
        return found
    identity = cpu_identity(model)
    if identity is None:
        return None
    return next((cpu for cpu in catalog.cpus if cpu_identity(cpu.name) == identity), None)


def _gpu_tokens(name: str) -> list[str]:
    return [token for token in re.split(r"[\s\-/]+", name.upper().replace("GEFORCE", ""))
            if token]  # fmt: skip


def _gpu_model(tokens: list[str]) -> tuple[str, frozenset[str]] | None:
    """Return a GPU's model number ("H100", "4090") and its variant words, or None."""
    model = next((token for token in tokens if any(ch.isdigit() for ch in token)), None)
    if model is None:
        return None
    return model, frozenset(token for token in tokens if token in GPU_VARIANTS)


def match_gpu(product: str, catalog: Catalog, *, sxm_hint: bool) -> engine.Gpu | None:
    """Return the catalog GPU a product name is, its form factor told by SXM/HBM3 or links.

    The model number and its variant words must be the catalog part's ("NVIDIA GeForce RTX
    4090 D" is not the RTX 4090, "NVIDIA H100 NVL" is the H100 NVL and "NVIDIA H200 NVL" no
    catalog part); a form factor or memory size the name states must be the part's. Of the
    parts of one model left, the form factor decides (SXM/HBM3 in the name, or GPUs fully
    joined by NVLink), then the name sharing most words.
    """
    tokens = _gpu_tokens(product)
    variants = frozenset(token for token in tokens if token in GPU_VARIANTS)
    # What the name states must be the part's: its form factor ("NVIDIA H800 PCIe" is not
    # the H800 SXM5) and its memory ("NVIDIA A800 40GB PCIe" is not the 80GB card).
    named_sxm = any("SXM" in token for token in tokens) or "HBM3" in tokens
    named_form = (engine.FormFactor.SXM if named_sxm
                  else engine.FormFactor.PCIE if "PCIE" in tokens else None)  # fmt: skip
    memory = {token for token in tokens if GPU_MEMORY.fullmatch(token)}
    sxm = sxm_hint or named_sxm
    candidates = []
    for gpu in catalog.gpus:
        its_tokens = _gpu_tokens(gpu.name)
        model = _gpu_model(its_tokens)
        if not model or model[0] not in tokens or model[1] != variants:
            continue
        if named_form is not None and gpu.form_factor != named_form:
            continue
        its_memory = {token for token in its_tokens if GPU_MEMORY.fullmatch(token)}
        if memory and its_memory and not memory & its_memory:
            continue
        candidates.append(gpu)
    if not candidates:
        return None
    wanted = engine.FormFactor.SXM if sxm else engine.FormFactor.PCIE
    return max(
        candidates,
        key=lambda gpu: (
            gpu.form_factor == wanted,
            len(set(_gpu_tokens(gpu.name)) & set(tokens)),
            -candidates.index(gpu),
        ),
    )
