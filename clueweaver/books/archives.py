"""A book that comes packed: a .zip holding one book file, or one book file gzip-compressed.

Packed is how many libraries serve books: Aozora Bunko every text (a .zip holding the Shift_JIS
.txt, sometimes with its figures), Project Gutenberg its older and HTML editions (``2600-8.zip``,
``2600-h.zip`` with the images beside the .htm), Russian libraries a FictionBook (``.fb2.zip``);
ClueWeaver ships its own books as ``.txt.gz``. The loader (``clueweaver.books.narrative``) reads
the one book file inside as it would read that file; what else the archive holds is named, not read.
"""

from __future__ import annotations

import codecs
import gzip
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from clueweaver.books.errors import NarrativeError

ZIP_SUFFIX = ".zip"
GZIP_SUFFIX = ".gz"
# The most a packed book may unpack to: a novel with its figures is a few MB; a zip that claims more is
# refused from its directory, before anything is unpacked, and a gzip stream is not read past it.
MAX_UNPACKED_BYTES = 256 * 1024 * 1024
_EPUB_MIMETYPE = b"application/epub+zip"  # an EPUB is a zip whose first member says so
_NAMES_SHOWN = 5
# What zipfile raises for a damaged archive (a bad directory; a header offset before the start: OSError)
DAMAGED_ZIP = (zipfile.BadZipFile, zlib.error, EOFError, OSError)
_UTF8_FLAG = 0x800  # the zip's own mark that a file's name is UTF-8; unmarked, zipfile reads it as cp437
# A Windows zip tool writes names in the system's OEM codepage, which for a Russian or Western European
# system is not the one its texts are in; a Chinese, Japanese or Korean system has one codepage for both.
_NAME_CODEPAGES = {"cp1251": "cp866", "cp1252": "cp850", "iso8859-1": "cp850"}
_CJK_CODECS = frozenset(
    ("gb18030", "gbk", "gb2312", "big5", "big5hkscs", "cp950", "cp932", "shift_jis", "euc_jp", "euc_jis_2004")
    + ("cp949", "euc_kr")
)


@dataclass(frozen=True)
class Unpacked:
    """The book file inside a .zip: its bytes, and every file's name as the zip stores it, the book's
    first: zipfile's reading, and the bytes where the zip does not mark the name UTF-8."""

    data: bytes
    stored_names: tuple[tuple[str, bytes | None], ...]

    @property
    def name(self) -> str:
        """The book file's name as zipfile reads it: its suffix gives the type, whatever the rest says."""
        return self.stored_names[0][0]

    def names(self, text_codec: str | None) -> list[str]:
        """Every file's name, the book's first, readably: an unmarked name's bytes as UTF-8, else in
        the codepage a zip tool on the system of the book's text (``text_codec``) writes names in,
        else as zipfile reads them."""
        codecs_to_try = ["utf-8", *filter(None, [_name_codepage(text_codec)])]
        return [_decoded(name, raw, codecs_to_try) for name, raw in self.stored_names]

    def note(self, archive: str, text_codec: str | None) -> str:
        """How the zip was read, for a reader to see."""
        book, *others = self.names(text_codec)
        unread = f"; not read: {_listed(others)}" if others else ""
        return f"read {book}, the one book file in {archive}{unread}"


def book_suffix(name: str) -> str:
    """A book file's type: its last suffix, lower case, and the one before it for a gzip-compressed
    file (``.txt.gz``), whose type is what it unpacks to."""
    suffixes = Path(name.lower()).suffixes
    if suffixes[-1:] == [GZIP_SUFFIX]:
        return "".join(suffixes[-2:])
    return suffixes[-1] if suffixes else ""


def is_epub_zip(path: Path) -> bool:
    """Whether a .zip is an EPUB by its own declaration (its ``mimetype`` member), whatever its name."""
    try:
        with zipfile.ZipFile(path) as archive:
            return "mimetype" in archive.namelist() and archive.read("mimetype").strip() == _EPUB_MIMETYPE
    except (*DAMAGED_ZIP, ValueError, RuntimeError):  # encrypted or packed unknown too: unpack_zip says why
        return False


def unpack_zip(path: Path, member_suffixes: Sequence[str]) -> Unpacked:
    """The one book file (a name ending in one of ``member_suffixes``) inside the .zip at ``path``. A
    zip holding none or several is an error that lists what it holds: which to read is the reader's call."""
    try:
        with zipfile.ZipFile(path) as archive:
            files = [info for info in archive.infolist() if not info.is_dir() and not _is_metadata(info.filename)]
            books = [info for info in files if book_suffix(info.filename) in member_suffixes]
            if len(books) != 1:
                held = _listed([_decoded(i.filename, _stored_bytes(i), ["utf-8"]) for i in files]) or "nothing"
                raise NarrativeError(
                    f"{path}: a .zip must hold exactly one book file ({', '.join(member_suffixes)}); it holds {held}"
                    + ("; unpack it and give the book file itself" if books else "")
                )
            book = books[0]
            if book.file_size > MAX_UNPACKED_BYTES:
                raise NarrativeError(
                    f"{path}: {book.filename} would unpack to {book.file_size:,} bytes, more than any book"
                )
            stored = [(info.filename, _stored_bytes(info)) for info in [book, *(i for i in files if i is not book)]]
            return Unpacked(archive.read(book), tuple(stored))
    except NotImplementedError as exc:  # Deflate64 (Windows' large archives), PPMd, ...
        raise NarrativeError(
            f"{path}: the book file is packed with a compression method Python cannot unpack ({exc}); unpack it "
            "with another tool and give the book file"
        ) from exc
    except RuntimeError as exc:  # zipfile's other RuntimeError on reading: a member that needs a password
        raise NarrativeError(
            f"{path}: the book file is encrypted; unpack it with its password and give the book file"
        ) from exc
    except DAMAGED_ZIP as exc:
        raise NarrativeError(f"{path}: not a readable zip archive ({exc})") from exc


def gunzip(path: Path) -> bytes:
    """A .gz file's content, read no further than ``MAX_UNPACKED_BYTES``."""
    try:
        with gzip.open(path, "rb") as stream:
            data = stream.read(MAX_UNPACKED_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
        raise NarrativeError(f"{path}: not a readable gzip file ({exc})") from exc
    if len(data) > MAX_UNPACKED_BYTES:
        raise NarrativeError(f"{path}: unpacks to more than {MAX_UNPACKED_BYTES:,} bytes, more than any book")
    return data


def _is_metadata(name: str) -> bool:
    """A file an archiver adds beside the content (macOS's resource forks, hidden files)."""
    return name.startswith("__MACOSX/") or Path(name).name.startswith(".")


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:_NAMES_SHOWN])
    return shown + (f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else "")


def _stored_bytes(info: zipfile.ZipInfo) -> bytes | None:
    """A file's name as the zip stores it, unless the zip marks it UTF-8 (then zipfile read it right)."""
    return None if info.flag_bits & _UTF8_FLAG else info.filename.encode("cp437")


def _name_codepage(text_codec: str | None) -> str | None:
    if not text_codec:
        return None
    name = codecs.lookup(text_codec).name
    return name if name in _CJK_CODECS else _NAME_CODEPAGES.get(name)


def _decoded(name: str, stored: bytes | None, codecs_to_try: list[str]) -> str:
    for codec in codecs_to_try if stored is not None else []:
        try:
            return stored.decode(codec)
        except UnicodeDecodeError:
            continue
    return name
