"""Open an uploaded probe archive (tar.gz) in memory, refusing anything unsafe or oversized.

Nothing is extracted to disk: members are read by name, only regular files, each and all
together below documented limits (docs/fleet.md), so a crafted archive (a path escaping the
folder, a link, a decompression bomb) is refused with a reason instead of being unpacked.
"""

from __future__ import annotations

import io
import posixpath
import tarfile

from django.utils.translation import gettext as _

from configurator.fleet.probe.files import FILES, HOSTNAME, REQUIRED

MAX_ARCHIVE_BYTES = 10 * 1024 * 1024
MAX_MEMBER_BYTES = 20 * 1024 * 1024
MAX_TOTAL_BYTES = 60 * 1024 * 1024


class ArchiveError(ValueError):
    """The archive cannot be read as a probe archive."""


def read_archive(content: bytes) -> dict[str, str]:
    """Return the probe files of a tar.gz by base name (text); raise ArchiveError."""
    if len(content) > MAX_ARCHIVE_BYTES:
        raise ArchiveError(
            _("The archive is over %(limit)s MB.") % {"limit": MAX_ARCHIVE_BYTES // 2**20}
        )
    files: dict[str, str] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(content), mode="r:gz") as archive:
            total = 0
            for member in archive.getmembers():
                name = posixpath.basename(member.name)
                if (name not in FILES and name != HOSTNAME) or not member.isfile():
                    continue  # links, folders and other files are never read
                total += member.size
                if member.size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES:
                    raise ArchiveError(
                        _("The archive unpacks to over %(limit)s MB.")
                        % {"limit": MAX_TOTAL_BYTES // 2**20}
                    )
                data = archive.extractfile(member).read(MAX_MEMBER_BYTES + 1)
                files[name] = data.decode("utf-8", errors="replace")
    except (tarfile.TarError, OSError, EOFError) as error:
        raise ArchiveError(_("This is not a tar.gz archive, or it is damaged.")) from error
    missing = [name for name in REQUIRED if not files.get(name, "").strip()]
    if missing:
        raise ArchiveError(
            _("The archive lacks %(files)s.")
            % {"files": ", ".join(f"{name} ({FILES[name]})" for name in missing)}
        )
    return files
