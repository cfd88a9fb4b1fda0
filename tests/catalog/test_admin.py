"""Architects keep the catalog in the admin: lists, search, and sheet imports with a preview."""

import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from catalog.models import Gpu, Psu

pytestmark = pytest.mark.django_db

GPU_COLUMNS = (
    "slug,name,vendor,source_url,monthly_price,price_is_placeholder,offered,notes,memory_gb,"
    "memory_type,tdp_w,pcie_gen,form_factor,nvlink_gbps,ecc,gpu_class,architecture"
)
L40S_ROW = (
    "l40s-test,NVIDIA L40S 48GB,NVIDIA,https://www.nvidia.com/en-us/data-center/l40s/,2200,1,1,,"
    "48,GDDR6,350,4,pcie,0,1,datacenter,ada"
)


def csv_upload(*rows: str) -> SimpleUploadedFile:
    content = "\n".join([GPU_COLUMNS, *rows]) + "\n"
    return SimpleUploadedFile("gpus.csv", content.encode(), content_type="text/csv")


def preview(client, model: str, upload, fmt: str = "0"):
    url = reverse(f"admin:catalog_{model}_import")
    return client.post(url, {"import_file": upload, "format": fmt, "resource": "0"})


def confirm(client, model: str, preview_response):
    html = preview_response.content.decode()
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', html))
    data = {name: fields[name] for name in ("import_file_name", "original_file_name", "format")}
    data["resource"] = fields.get("resource", "")
    return client.post(reverse(f"admin:catalog_{model}_process_import"), data)


@pytest.mark.parametrize("model", ["cpu", "gpu", "memorymodule", "psu", "nic", "platform"])
def test_architect_sees_each_catalog_list(architect_client, model):
    response = architect_client.get(reverse(f"admin:catalog_{model}_changelist"))
    assert response.status_code == 200


def test_admin_search_finds_an_item(architect_client):
    response = architect_client.get(reverse("admin:catalog_gpu_changelist"), {"q": "4090"})
    assert "rtx-4090" in response.content.decode()
    assert "h100-80g-sxm" not in response.content.decode()


def test_presales_reads_but_cannot_change_the_catalog(presales_client):
    gpu = Gpu.objects.get(slug="l20")
    assert presales_client.get(reverse("admin:catalog_gpu_changelist")).status_code == 200
    change = reverse("admin:catalog_gpu_change", args=[gpu.pk])
    response = presales_client.post(change, {"name": "renamed"})
    assert response.status_code == 403
    assert presales_client.get(reverse("admin:catalog_gpu_import")).status_code == 403


def test_csv_import_previews_then_writes(architect_client):
    response = preview(architect_client, "gpu", csv_upload(L40S_ROW))
    assert response.status_code == 200
    assert not Gpu.objects.filter(slug="l40s-test").exists(), "the preview writes nothing"
    confirm(architect_client, "gpu", response)
    gpu = Gpu.objects.get(slug="l40s-test")
    assert (gpu.memory_gb, gpu.tdp_w, gpu.nvlink_gbps) == (48, 350, 0)


def test_xlsx_import_writes_new_psu(architect_client):
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["slug", "name", "vendor", "source_url", "monthly_price", "price_is_placeholder",
                  "offered", "notes", "rated_w", "efficiency"])  # fmt: skip
    sheet.append(["psu-test-2600", "Test 2600 W", "Supermicro", "https://www.supermicro.com/",
                  80, True, True, "", 2600, "titanium"])  # fmt: skip
    buffer = io.BytesIO()
    workbook.save(buffer)
    upload = SimpleUploadedFile("psus.xlsx", buffer.getvalue())
    response = preview(architect_client, "psu", upload, fmt="1")
    assert response.status_code == 200
    confirm(architect_client, "psu", response)
    assert Psu.objects.get(slug="psu-test-2600").rated_w == 2600


def test_bad_csv_names_row_and_column_and_writes_nothing(architect_client):
    bad_row = L40S_ROW.replace("l40s-test", "bad-gpu").replace(",350,", ",-5,")
    before = Gpu.objects.count()
    response = preview(architect_client, "gpu", csv_upload(L40S_ROW, bad_row))
    html = response.content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert response.status_code == 200
    assert "Some rows failed to validate" in text
    # The error table gives the row number (2), its error count, then the column and message.
    assert re.search(r" 2 1 tdp_w Ensure this value is greater than or equal to 0", text)
    assert "process_import" not in html, "a sheet with errors cannot be confirmed"
    assert Gpu.objects.count() == before


def test_forced_confirm_of_a_bad_sheet_writes_nothing(architect_client):
    bad_row = L40S_ROW.replace("l40s-test", "bad-gpu").replace(",pcie,", ",floppy,")
    good = preview(architect_client, "gpu", csv_upload(L40S_ROW))
    html = good.content.decode()
    # Swap the stored good file for a bad one behind the preview's back.
    name = re.search(r'name="import_file_name" value="([^"]*)"', html).group(1)
    from import_export.tmp_storages import TempFolderStorage

    TempFolderStorage(name=name).save("\n".join([GPU_COLUMNS, L40S_ROW, bad_row]) + "\n")
    confirm(architect_client, "gpu", good)
    assert not Gpu.objects.filter(slug__in=["l40s-test", "bad-gpu"]).exists()
