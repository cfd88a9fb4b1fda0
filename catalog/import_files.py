"""Where the admin keeps an uploaded sheet between its preview and its confirmation.

django-import-export's TempFolderStorage opens whatever name the confirmation form posts
(`import_file_name`) in the system's temporary directory, and deletes it after the import:
whoever may import could read and delete another user's sheet, or any file of that directory.
`ImportFileStorage` writes each sheet under a random name of its own in a folder of its own
(`CATALOG_IMPORT_TMP_DIR`) and opens no other name; the admin hands the browser that name
signed for the user (`signed_name`), and takes back only a name it signed for the same user
within `CATALOG_IMPORT_KEEP_SECONDS` (`unsigned_name`). Sheets older than that are deleted
whenever a new one is saved.
"""

import os
import re
import time
from contextlib import suppress
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from import_export.tmp_storages import BaseStorage

NAME = re.compile(r"[0-9a-f]{32}")
SALT = "catalog.import-file"


class ImportFileGone(Exception):
    """The name is not one this storage made for this user, or its sheet is gone or expired."""


def import_folder() -> Path:
    """Return the folder of sheets awaiting confirmation, made private on first use."""
    folder = Path(settings.CATALOG_IMPORT_TMP_DIR)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def stored_path(name: str) -> Path:
    """Return a stored sheet's path; raise ImportFileGone for a name this storage never makes."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ImportFileGone(name)
    return import_folder() / name


def signed_name(name: str, *, user: AbstractBaseUser) -> str:
    """Return a stored sheet's name signed for `user`, to travel in the confirmation form."""
    return signing.TimestampSigner(salt=f"{SALT}:{user.pk}").sign(name)


def unsigned_name(value: str, *, user: AbstractBaseUser) -> str:
    """Return the name `signed_name` signed for `user`, if its sheet is still stored.

    Raise ImportFileGone for a name signed for someone else, altered, expired, or whose
    sheet was already imported.
    """
    signer = signing.TimestampSigner(salt=f"{SALT}:{user.pk}")
    try:
        name = signer.unsign(value, max_age=settings.CATALOG_IMPORT_KEEP_SECONDS)
    except signing.BadSignature as error:  # SignatureExpired included
        raise ImportFileGone(value) from error
    if not stored_path(name).is_file():
        raise ImportFileGone(value)
    return name


class ImportFileStorage(BaseStorage):
    """IMPORT_EXPORT_TMP_STORAGE_CLASS: sheets under random names in a folder of their own."""

    def save(self, data: bytes | str) -> None:
        name = os.urandom(16).hex()
        path = stored_path(name)
        content = data.encode(self.encoding or "utf-8") if isinstance(data, str) else data
        # O_EXCL: never write through a name someone else made (a link planted in advance).
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with open(descriptor, "wb") as file:
            file.write(content)
        self.name = name
        _delete_expired(path.parent)

    def read(self) -> bytes | str:
        try:
            with open(stored_path(self.name), self.read_mode, encoding=self.encoding) as file:
                return file.read()
        except FileNotFoundError as error:
            raise ImportFileGone(self.name) from error

    def remove(self) -> None:
        with suppress(FileNotFoundError):
            stored_path(self.name).unlink()


def _delete_expired(folder: Path) -> None:
    """Delete the sheets no confirmation can name any more (previewed, never confirmed)."""
    oldest = time.time() - settings.CATALOG_IMPORT_KEEP_SECONDS
    for path in folder.iterdir():
        with suppress(OSError):
            if NAME.fullmatch(path.name) and path.stat().st_mtime < oldest:
                path.unlink()
