"""Architects keep the catalog in the admin: lists, search, and sheet imports with a preview."""

import html
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from catalog.import_files import stored_path, unsigned_name
from catalog.models import Gpu, Platform, Psu

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


def test_forced_confirm_of_a_bad_sheet_writes_nothing(architect_client, architect):
    bad_row = L40S_ROW.replace("l40s-test", "bad-gpu").replace(",pcie,", ",floppy,")
    good = preview(architect_client, "gpu", csv_upload(L40S_ROW))
    html = good.content.decode()
    # Swap the stored good file for a bad one behind the preview's back.
    signed = re.search(r'name="import_file_name" value="([^"]*)"', html).group(1)
    path = stored_path(unsigned_name(signed, user=architect))
    path.write_text("\n".join([GPU_COLUMNS, L40S_ROW, bad_row]) + "\n")
    confirm(architect_client, "gpu", good)
    assert not Gpu.objects.filter(slug__in=["l40s-test", "bad-gpu"]).exists()


def preview_text(response) -> str:
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    return html.unescape(text)


@pytest.mark.parametrize(
    "payload", ["=CMD|' /C calc'!A0", '=HYPERLINK("http://x.example","a")', "@SUM(1)", "+1+1"]
)
def test_formula_cells_are_refused_by_row_and_column(architect_client, payload):
    row = L40S_ROW.replace("NVIDIA L40S 48GB", payload.replace(",", ";"))
    response = preview(architect_client, "gpu", csv_upload(row))
    text = preview_text(response)
    assert re.search(r" 1 1 name .* looks like a spreadsheet formula", text)
    assert "process_import" not in response.content.decode()
    assert not Gpu.objects.filter(slug="l40s-test").exists()


def test_a_negative_number_is_not_taken_for_a_formula(architect_client):
    row = L40S_ROW.replace(",350,", ",-5,")
    text = preview_text(preview(architect_client, "gpu", csv_upload(row)))
    assert "greater than or equal to 0" in text
    assert "formula" not in text


def test_a_slug_twice_in_one_sheet_is_refused_by_row(architect_client):
    response = preview(architect_client, "gpu", csv_upload(L40S_ROW, L40S_ROW))
    text = preview_text(response)
    assert re.search(r" 2 1 slug Slug 'l40s-test' is already in row 1 of this sheet", text)
    assert not Gpu.objects.filter(slug="l40s-test").exists()


def test_a_number_column_with_text_gets_a_readable_error(architect_client):
    row = L40S_ROW.replace(",2200,", ",cheap,")
    text = preview_text(preview(architect_client, "gpu", csv_upload(row)))
    assert "monthly_price Enter a number, not 'cheap'." in text
    assert "ConversionSyntax" not in text


def platform_sheet(gpus: str, psus: str | None = None, of: str | None = None):
    from import_export.formats.base_formats import CSV

    from catalog.resources import PlatformResource

    platform = Platform.objects.get(slug=of) if of else Platform.objects.first()
    dataset = PlatformResource().export(Platform.objects.filter(pk=platform.pk))
    cells = {"gpus": gpus, "slug": "plat-test"} | ({"psus": psus} if psus is not None else {})
    dataset[0] = tuple(
        cells.get(header, cell) for header, cell in zip(dataset.headers, dataset[0], strict=True)
    )
    return SimpleUploadedFile("platforms.csv", CSV().export_data(dataset).encode())


def test_a_platforms_psus_export_and_import_by_slug(architect_client):
    sheet = platform_sheet("h200-141g-sxm", of="dell-xe9680")
    assert b"dell-psu-2800w-titanium" in sheet.read()
    sheet.seek(0)
    confirm(architect_client, "platform", preview(architect_client, "platform", sheet))
    platform = Platform.objects.get(slug="plat-test")
    assert list(platform.psus.values_list("slug", flat=True)) == ["dell-psu-2800w-titanium"]


def test_an_unknown_psu_slug_on_a_platform_is_refused_by_row_and_column(architect_client):
    sheet = platform_sheet("h100-80g-sxm", psus="dell-psu-2800w-titanium|no-such-psu")
    text = preview_text(preview(architect_client, "platform", sheet))
    assert re.search(r" 1 1 psus Unknown PSU slug\(s\): no-such-psu\.", text)
    assert not Platform.objects.filter(slug="plat-test").exists()


def test_an_unknown_gpu_slug_on_a_platform_is_refused_by_row_and_column(architect_client):
    response = preview(architect_client, "platform", platform_sheet("h100-80g-sxm|no-such-gpu"))
    text = preview_text(response)
    assert re.search(r" 1 1 gpus Unknown GPU slug\(s\): no-such-gpu\.", text)
    assert not Platform.objects.filter(slug="plat-test").exists()


def test_a_gbk_csv_from_excel_is_imported(architect_client):
    row = L40S_ROW.replace("NVIDIA L40S 48GB", "英伟达 L40S 48GB")
    content = "\n".join([GPU_COLUMNS, row]) + "\n"
    upload = SimpleUploadedFile("gpus.csv", content.encode("gbk"), content_type="text/csv")
    confirm(architect_client, "gpu", preview(architect_client, "gpu", upload))
    assert Gpu.objects.get(slug="l40s-test").name == "英伟达 L40S 48GB"


def export(client, model: str, fmt: str) -> bytes:
    url = reverse(f"admin:catalog_{model}_export")
    response = client.post(url, {"format": fmt, "resource": "0", **EXPORT_FIELDS[model]})
    assert response.status_code == 200, response.content[:500]
    return response.content


EXPORT_FIELDS = {"gpu": {f"gpuresource_{name}": "on" for name in GPU_COLUMNS.split(",")}}


def test_csv_export_escapes_formulas_and_keeps_numbers(architect_client):
    Gpu.objects.filter(slug="l20").update(name='=HYPERLINK("http://x")', notes="-2+3")
    content = export(architect_client, "gpu", "0").decode()
    assert "'=HYPERLINK" in content
    assert "'-2+3" in content
    assert ",48," in content  # numbers stay numbers


def test_xlsx_export_writes_formulas_as_text(architect_client):
    from openpyxl import load_workbook

    Gpu.objects.filter(slug="l20").update(name='=HYPERLINK("http://x")')
    sheet = load_workbook(io.BytesIO(export(architect_client, "gpu", "1"))).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert not [cell for cell in cells if cell.data_type == "f"], "no live formula"
    assert '\'=HYPERLINK("http://x")' in [cell.value for cell in cells]
    memory = [cell.value for cell in cells if cell.column_letter == "I"]
    assert 48 in memory  # numbers stay numbers


def test_a_sheet_over_the_upload_limit_is_refused(architect_client, settings):
    settings.CATALOG_IMPORT_MAX_BYTES = 100
    response = preview(architect_client, "gpu", csv_upload(L40S_ROW))
    assert "sheets up to 100 bytes are accepted" in preview_text(response)
    assert not Gpu.objects.filter(slug="l40s-test").exists()


def test_an_imported_item_is_in_the_next_api_answer(architect_client, client):
    assert "l40s-test" not in client.get("/api/v1/catalog").content.decode()
    confirm(architect_client, "gpu", preview(architect_client, "gpu", csv_upload(L40S_ROW)))
    slugs = {gpu["slug"] for gpu in client.get("/api/v1/catalog").json()["gpus"]}
    assert "l40s-test" in slugs, "the sheet's one revision bump renews the snapshot"
