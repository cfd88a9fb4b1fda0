"""Open an uploaded probe archive (tar.gz) in memory, refusing anything unsafe or oversized.

Nothing is extracted to disk: members are read by name, only regular files, so a crafted
archive (a path escaping the folder, a link) is refused with a reason instead of unpacked.
Every read has a budget (docs/fleet.md "Limits"), checked before it allocates:

- headers are read one at a time (`TarFile.next()`, never `getmembers()`), at most
  MAX_MEMBERS of them, each extended header (GNU long name, PAX) sized before tarfile reads
  it whole into memory, a chain of them short (tarfile follows one by recursion);
- every member's size counts against MAX_UNPACKED_BYTES, skipped ones too (skipping still
  decompresses), and each probe file against its own limit (`files.FILE_BYTES`);
- the decompressed stream itself stops at MAX_STREAM_BYTES and the whole read at
  MAX_SECONDS, whatever the headers claim.
"""

from __future__ import annotations

import gzip
import io
import posixpath
import tarfile
import time
import zlib

from django.utils.translation import gettext as _

from configurator.fleet.probe.files import FILE_BYTES, FILES, present

MAX_ARCHIVE_BYTES = 10 * 1024 * 1024  # packed, as uploaded
# probe.sh writes about 15 members (the folder, 7 outputs, their .err files, hostname.txt).
MAX_MEMBERS = 256
# A name (or link target) is a Linux path: at most PATH_MAX, 4096 bytes (linux/limits.h).
MAX_NAME_BYTES = 4096
# A PAX header holds a few records (path, mtime, xattrs such as SELinux labels): under 1 KB.
MAX_PAX_BYTES = 64 * 1024
MAX_EXTENDED_IN_A_ROW = 4  # GNU tar and bsdtar write at most a long name and a long link
MAX_UNPACKED_BYTES = 32 * 1024 * 1024  # every member's declared size together
MAX_STREAM_BYTES = 40 * 1024 * 1024  # the unpacked tar stream: members, headers, padding
MAX_SECONDS = 3.0

EXTENDED = {
    tarfile.GNUTYPE_LONGNAME: ("GNU long name", MAX_NAME_BYTES),
    tarfile.GNUTYPE_LONGLINK: ("GNU long link", MAX_NAME_BYTES),
    tarfile.XHDTYPE: ("PAX", MAX_PAX_BYTES),
    tarfile.XGLTYPE: ("PAX global", MAX_PAX_BYTES),
    tarfile.SOLARIS_XHDTYPE: ("Solaris extended", MAX_PAX_BYTES),
}


class ArchiveError(ValueError):
    """The archive cannot be read as a probe archive."""


def _mb(size: int) -> str:
    return f"{size / 2**20:,.0f}" if size >= 2**20 else f"{size / 2**20:,.2f}"


class _Budget:
    """The decompressed stream, refusing to run past MAX_STREAM_BYTES or MAX_SECONDS.

    tarfile reads through it; a seek forward (skipping a member) is refused before it
    decompresses, when it would pass the limit.
    """

    def __init__(self, packed: gzip.GzipFile) -> None:
        self._packed = packed
        self._deadline = time.monotonic() + MAX_SECONDS

    def _check(self, end: int) -> None:
        if end > MAX_STREAM_BYTES:
            raise ArchiveError(
                _("The archive's unpacked tar stream is over %(limit)s MB.")
                % {"limit": _mb(MAX_STREAM_BYTES)}
            )
        if time.monotonic() > self._deadline:
            raise ArchiveError(
                _("Reading the archive took over %(limit)s s.") % {"limit": f"{MAX_SECONDS:g}"}
            )

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = MAX_STREAM_BYTES + 1 - self._packed.tell()  # tarfile never reads to the end
        self._check(self._packed.tell() + size)
        data = self._packed.read(size)
        self._check(self._packed.tell())
        return data

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = offset if whence == io.SEEK_SET else self._packed.tell() + offset
        self._check(target)
        position = self._packed.seek(target)
        self._check(position)
        return position

    def tell(self) -> int:
        return self._packed.tell()


class _BoundedTarInfo(tarfile.TarInfo):
    """A tar header whose extended headers are sized before tarfile reads them into memory.

    `_proc_member` is tarfile's documented point of extension (see its comment in
    tarfile.py); it runs on each header just after its 512 bytes are read.
    """

    def _proc_member(self, tarfile_):
        kind = EXTENDED.get(self.type)
        if kind is None:
            tarfile_.extended_in_a_row = 0
            return super()._proc_member(tarfile_)
        tarfile_.extended_in_a_row = getattr(tarfile_, "extended_in_a_row", 0) + 1
        if tarfile_.extended_in_a_row > MAX_EXTENDED_IN_A_ROW:
            raise ArchiveError(
                _("The archive chains more than %(limit)s extended headers.")
                % {"limit": MAX_EXTENDED_IN_A_ROW}
            )
        name, limit = kind
        if self.size > limit:
            raise ArchiveError(
                _("A %(kind)s header of %(size)s bytes is in the archive; the limit is "
                  "%(limit)s bytes.")
                % {"kind": name, "size": f"{self.size:,}", "limit": f"{limit:,}"}
            )  # fmt: skip
        return super()._proc_member(tarfile_)

    def _proc_sparse(self, tarfile_):
        raise self._sparse()

    # A PAX header can announce a sparse member too (GNU.sparse.*): refused the same way.
    def _proc_gnusparse_00(self, *args):
        raise self._sparse()

    _proc_gnusparse_01 = _proc_gnusparse_10 = _proc_gnusparse_00

    def _sparse(self) -> ArchiveError:
        # A sparse member's map is read block by block into a list: probe.sh never writes one.
        return ArchiveError(_("The archive holds a sparse member; probe.sh never writes one."))


def _member_name(member: tarfile.TarInfo) -> str:
    size = len(member.name.encode("utf-8", "surrogateescape"))
    if size > MAX_NAME_BYTES:
        raise ArchiveError(
            _("A member's name is %(size)s bytes long; the limit is %(limit)s bytes.")
            % {"size": f"{size:,}", "limit": f"{MAX_NAME_BYTES:,}"}
        )
    return posixpath.basename(member.name)


def _text(data: bytes) -> str:
    # NUL never reaches the database (PostgreSQL refuses it in text and JSON) and no parser
    # needs it, but refusing the archive would leave a real node without its report for one
    # byte: firmware strings (SMBIOS in dmidecode, PCI VPD in lspci) can carry NUL padding.
    # So a NUL reads as U+FFFD, the mark undecodable bytes get too: shown, never stored.
    return data.decode("utf-8", errors="replace").replace("\x00", "\ufffd")


def read_archive(content: bytes) -> dict[str, str]:
    """Return the probe files of a tar.gz by base name (text); raise ArchiveError."""
    if len(content) > MAX_ARCHIVE_BYTES:
        raise ArchiveError(
            _("The archive is over %(limit)s MB.") % {"limit": _mb(MAX_ARCHIVE_BYTES)}
        )
    files: dict[str, str] = {}
    try:
        stream = _Budget(gzip.GzipFile(fileobj=io.BytesIO(content), mode="rb"))
        with tarfile.open(fileobj=stream, mode="r:", tarinfo=_BoundedTarInfo) as archive:
            members, total = 0, 0
            while (member := archive.next()) is not None:
                members += 1
                if members > MAX_MEMBERS:
                    raise ArchiveError(
                        _("The archive has more than %(limit)s members; probe.sh writes "
                          "about 15.") % {"limit": MAX_MEMBERS}
                    )  # fmt: skip
                name = _member_name(member)
                total += member.size  # skipped members too: skipping them decompresses them
                if total > MAX_UNPACKED_BYTES:
                    raise ArchiveError(
                        _("The archive unpacks to over %(limit)s MB.")
                        % {"limit": _mb(MAX_UNPACKED_BYTES)}
                    )
                if name not in FILE_BYTES or not member.isfile():
                    continue  # links, folders and other files are never read
                if member.size > FILE_BYTES[name]:
                    raise ArchiveError(
                        _("%(file)s is %(size)s MB; the limit for it is %(limit)s MB.")
                        % {"file": name, "size": _mb(member.size),
                           "limit": _mb(FILE_BYTES[name])}
                    )  # fmt: skip
                files[name] = _text(archive.extractfile(member).read(member.size))
    except (tarfile.TarError, OSError, EOFError, zlib.error) as error:  # zlib's, reading a member
        raise ArchiveError(_("This is not a tar.gz archive, or it is damaged.")) from error
    if not any(present(files, name) for name in FILES):  # any subset makes a partial report
        raise ArchiveError(
            _("The archive holds none of the probe files: %(files)s.")
            % {"files": ", ".join(f"{name} ({FILES[name]})" for name in FILES)}
        )
    return files
