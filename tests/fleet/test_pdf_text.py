"""Text in a PDF is shown as written: a probe's host name or DIMM locator is never markup."""

import ast
import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from configurator.pdf_markup import markup
from tests.fleet.probe_archives import dual_socket_synthetic, fixture, tar_gz

LINK = '<a href="https://evil.example/pay">pay here</a>'


def hostile_probe(image: Path) -> dict[str, str]:
    """A node whose host name is a link and whose non-ECC DIMM's locator embeds a file."""
    files = dual_socket_synthetic()
    files["hostname.txt"] = f"{LINK} & co < 2\n"
    dimms = fixture("synthetic/dmidecode-memory-non-ecc.SYNTHETIC.txt")
    files["dmidecode-memory.txt"] = re.sub(
        r"^\tLocator: .*$", f'\tLocator: <img src="{image}" width="90" height="90"/>&amp;',
        dimms, count=1, flags=re.M,
    )  # fmt: skip
    return files


def parts(pdf: bytes) -> tuple[list[object], list[str], str]:
    """Return a PDF's link annotations, its XObjects' subtypes, and its text on one line."""
    reader = PdfReader(io.BytesIO(pdf))
    annotations, xobjects = [], []
    for page in reader.pages:
        annotations += list(page.get("/Annots") or [])
        found = (page["/Resources"].get("/XObject") or {}).values()
        xobjects += [str(ref.get_object().get("/Subtype")) for ref in found]
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    return annotations, xobjects, text


@pytest.mark.django_db
def test_probe_report_shows_markup_in_names_as_text(architect_client, tmp_path):
    image = tmp_path / "server-file.png"
    Image.new("RGB", (8, 8), "red").save(image)
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(hostile_probe(image)))
    response = architect_client.post(
        reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000}
    )
    pdf = architect_client.get(response["Location"] + "report.pdf")
    assert pdf.status_code == 200
    annotations, xobjects, text = parts(pdf.content)
    assert annotations == []  # no live link
    assert "/Image" not in xobjects  # no file of the server embedded
    squeezed = text.replace(" ", "")
    assert f"{LINK} & co < 2".replace(" ", "") in squeezed
    assert f'<imgsrc="{image}"'.replace(" ", "") in squeezed and "/>&amp;" in squeezed


def test_markup_escapes_what_reportlab_reads_as_markup():
    assert markup('<a href="x">&amp;</a>') == '&lt;a href="x"&gt;&amp;amp;&lt;/a&gt;'


PDF_MODULES = ["configurator/fleet/pdf.py", "configurator/quotes/pdf.py"]
ESCAPERS = {"markup", "markup_lines"}


@pytest.mark.parametrize("path", PDF_MODULES)
def test_every_paragraph_gets_escaped_text(path):
    """Each Paragraph's text is a call of the one escaping helper (no caller can forget it)."""
    tree = ast.parse((Path(settings.BASE_DIR) / path).read_text())
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Paragraph"
    ]
    assert calls
    for call in calls:
        text = call.args[0]
        escaped = [text]
        if isinstance(text, ast.IfExp):
            escaped = [text.body, text.orelse]
        for branch in escaped:
            assert isinstance(branch, ast.Call) and branch.func.id in ESCAPERS, (
                f"{path}:{call.lineno}: a Paragraph's text must come from markup()"
            )
