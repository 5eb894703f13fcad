"""A book's bytes as text: UTF-8 that tolerates a few stray bytes (named in a warning), else an
encoding that decodes every byte into plausible text, else an error that says what to pass.

Real files are mostly UTF-8 with the odd stray byte (a Gutenberg file edited by hand); guessing a
single-byte codepage for them would turn every dash and curly quote into garbage, so UTF-8 is kept
while its well-formed characters outnumber the bad bytes.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import Counter
from pathlib import Path

from clueweaver.books.errors import NarrativeError
from clueweaver.books.language import ACCENTED_LETTERS, HAN, mostly_ascii_letters, prose_language, sample
from clueweaver.core.surrogates import LONE_SURROGATE, lone_surrogate_at
from clueweaver.core.utf8 import utf8_failure

_NOT_CONTROL_BYTES = bytes(range(9, 14)) + bytes(range(32, 256))


# When several single-byte encodings read a file equally well, the one older English and Western
# European texts (most non-UTF-8 Gutenberg files) use: Latin-1's superset; then the one older Mac files use
# (charset-normalizer names Mac Icelandic first, which reads Mac Roman's † ‡ ﬁ ﬂ ‹ › as Icelandic letters).
_PREFERRED_ENCODING = "cp1252"
_PREFERRED_IN_TIES = (_PREFERRED_ENCODING, "mac_roman")
# A character beyond ASCII with the characters on either side of it (captured), for ``_misread``.
_IN_CONTEXT = re.compile(r"(?<=(.))[^\x00-\x7f](?=(.))", re.DOTALL)
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as surrogateescape keeps it
# What a wrong codepage makes of bytes: control characters (C0 but for whitespace, DEL, C1) and
# private-use ones. No book has the first, and a single-byte codec cannot make unassigned ones.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
# A Chinese file of the GBK or Big5 era sets the rare characters its font drew in the user-defined rows, which
# gb18030 and big5 read as private-use ones (a 史记 has 3,125 in 642,000 characters, 0.5%: "舜饬下二女於妫\ue253"):
# a reading mostly in Han may hold that few. A single-byte codec makes none but Mac Roman's Apple logo.
_HAN_READING = re.compile(f"[{HAN}]")
_MIN_HAN_SHARE = 0.3
_MAX_PRIVATE_USE_SHARE = 0.02
_STRAY_BYTES_SHOWN = 5
# charset-normalizer's ceiling on the mess it accepts, raised once when its default (0.2) leaves no
# encoding: an Aozora Bunko text in the old spelling with ruby on every word (夏目漱石『門』: 0.088 over
# the whole file) exceeds the default in some chunk. Every guess must still decode cleanly and plausibly.
_LOOSE_CHAOS = 0.5
# At that ceiling a Chinese codepage can read Shift_JIS bytes as a mess that scores better (『門』's
# first pages: gb18030 0.200, cp932 0.219), or be the only guess (a text whose tables and puzzles set
# full-width letters and rules: 海野十三's 虫喰い算大会). Japanese prose runs on hiragana, a third or more of
# its characters, and such a misreading has none: a reading that gives a tenth goes first, Shift_JIS's
# among them whether or not charset-normalizer guessed it.
_HIRAGANA = re.compile("[\u3041-\u309f]")
_JAPANESE_HIRAGANA_SHARE = 0.1
_SHIFT_JIS = "cp932"  # Microsoft's Shift_JIS, which Aozora Bunko's texts are written in
# charset-normalizer can rank a Nordic, Baltic or Celtic codepage, or a CJK one, over Latin-1 for an older
# Gutenberg file in Latin-1 (a German novel's « » read as Ŧ ŧ by iso8859_10, a Spanish one's ñ as ņ, an
# English one's ´ as half-width katakana by cp932). The languages whose letters cp1252 holds, read in it,
# are prose of their function words (``prose_language``); a misread Japanese, Chinese or Russian file is not.
# Polish, Czech, Hungarian and Romanian are written in the Central European codepages, Latin-2 and cp1250, which
# charset-normalizer can leave out for a Nordic or Celtic one (Latin-2's ą ś ź read as Latin-10's ĥ ķ ļ): both are
# tried, and the reading with the fewest letters foreign to its language goes first, as a Western language's does.
_CP1252_LANGUAGES = frozenset({"en", "fr", "de", "es", "it", "pt", "sv", "no"})
_CENTRAL_EUROPEAN_LANGUAGES = frozenset({"pl", "cs", "hu", "ro"})
_CENTRAL_EUROPEAN_CODEPAGES = ("cp1250", "iso8859_2")
# 7-bit ISO-2022 text (JIS: older Japanese files and e-mail) is all ASCII, so it decodes as UTF-8, into escape
# characters and letters ("\x1b$B8cGZ$O" for 吾輩は). Its escape sequences (ESC, then $ or ( or $( or $), then
# the character set's final byte) say what it is, and these codecs read it: JIS, then JIS with half-width
# katakana, then with JIS X 0212, Korean and Chinese sets, then JIS X 0213.
_ISO_2022_ESCAPE = re.compile(rb"\x1b(?:\$[()]?|\()[@-Z]")
_ISO_2022_CODECS = ("iso2022_jp", "iso2022_jp_ext", "iso2022_jp_2", "iso2022_jp_2004")


def _where(text: str, positions: list[int]) -> str:
    """Byte offsets and line numbers of escaped bytes in a surrogateescape-decoded text."""
    places = [
        f"byte {len(text[:i].encode('utf-8', 'surrogateescape'))}, line {text.count(chr(10), 0, i) + 1}"
        for i in positions[:_STRAY_BYTES_SHOWN]
    ]
    more = f"; {len(positions) - _STRAY_BYTES_SHOWN} more" if len(positions) > _STRAY_BYTES_SHOWN else ""
    return "; ".join(places) + more


def _escaped(data: bytes) -> tuple[str, list[int]]:
    """``data`` decoded with each byte that is not UTF-8 kept as a lone surrogate, and where those
    are (a byte-order mark stays, so that ``_where`` counts its bytes)."""
    text = data.decode("utf-8", "surrogateescape")
    return text, [m.start() for m in _ESCAPED_BYTE.finditer(text)]


def _utf8_with_stray_bytes(data: bytes, path: str, codec: str) -> tuple[str, str | None] | None:
    """``data`` as UTF-8 with each malformed byte replaced by U+FFFD, and a warning naming where
    they were; None when the file is not mostly UTF-8. Mostly: at least as many well-formed
    non-ASCII characters as malformed bytes. A Gutenberg file with one Latin-1 byte pasted into
    its UTF-8 dashes and quotes passes; a Latin-1 or cp1252 file has next to no well-formed UTF-8
    sequences, so it goes on to detection instead of losing every accent."""
    text, bad = _escaped(data)
    well_formed = len(text) - len(text.encode("ascii", "ignore")) - len(bad)
    if well_formed < len(bad):
        return None
    warning = bad and (
        f"{path}: {len(bad)} byte{'s are' if len(bad) > 1 else ' is'} not UTF-8 ({_where(text, bad)}) in a file that "
        "is otherwise UTF-8; read as UTF-8 with each replaced by \ufffd (name the encoding if the file has another)"
    )
    text = _ESCAPED_BYTE.sub("\ufffd", text)
    return (text.removeprefix("\ufeff") if codec == "utf-8-sig" else text), warning or None


def _implausible(text: str) -> str | None:
    """Why ``text`` cannot be what a book says (``_CONTROL``, ``_PRIVATE_USE`` beyond a Han text's few), or None."""
    found = _CONTROL.search(text) or _PRIVATE_USE.search(text)
    if found is None or found.re is _PRIVATE_USE and _rare_characters_of_han_text(text):
        return None
    return f"U+{ord(found.group()):04X} at line {text.count(chr(10), 0, found.start()) + 1}, not a character of a book"


def _rare_characters_of_han_text(text: str) -> bool:
    """Whether ``text`` is mostly Han and its private-use characters are few (``_MAX_PRIVATE_USE_SHARE``)."""
    letters = len(text) - sum(map(str.isspace, text))
    return (
        len(_HAN_READING.findall(text)) >= _MIN_HAN_SHARE * letters
        and len(_PRIVATE_USE.findall(text)) <= _MAX_PRIVATE_USE_SHARE * letters
    )


def _reads_as_japanese(text: str) -> bool:
    """Whether a reading of the bytes is Japanese prose (``_HIRAGANA``)."""
    return len(_HIRAGANA.findall(text)) >= _JAPANESE_HIRAGANA_SHARE * len(text)


def _iso_2022(data: bytes) -> bool:
    """Whether ``data`` is 7-bit text with ISO-2022 escape sequences (``_ISO_2022_ESCAPE``)."""
    return data.isascii() and _ISO_2022_ESCAPE.search(data) is not None


def _guesses(data: bytes) -> list[str]:
    """The encodings to try, most likely first: ISO-2022's for its escapes, else charset-normalizer's
    (cp1252 first where it ties for best), then Shift_JIS, cp1252 and Mac Roman, which it can leave out
    (of a family of codecs that read a file alike it names one: Mac Icelandic for Mac Roman), and the Central
    European codepages."""
    if _iso_2022(data):
        return list(_ISO_2022_CODECS)
    from charset_normalizer import from_bytes

    matches = list(from_bytes(data)) or list(from_bytes(data, threshold=_LOOSE_CHAOS))
    best = matches[0].chaos if matches else 0.0
    tied = any(_PREFERRED_ENCODING in m.could_be_from_charset for m in matches if m.chaos <= best)
    guessed = [m.encoding for m in matches]
    return [_PREFERRED_ENCODING] * tied + guessed + [_SHIFT_JIS, *_PREFERRED_IN_TIES, *_CENTRAL_EUROPEAN_CODEPAGES]


def detect_encoding(data: bytes) -> tuple[str | None, str, str]:
    """The most likely encoding of text that is not UTF-8 (``_guesses``) among those that decode all
    of ``data`` into plausible text, a reading as Japanese prose first (``_HIRAGANA``), then the best
    reading as a language cp1252 or a Central European codepage is made for (``_western_reading``):
    (encoding, its reading, why each other guess was refused); (None, "", reasons) when none does."""
    refused, readings = [], {}
    for guess in dict.fromkeys(_guesses(data)):
        try:
            text = data.decode(guess)
        except UnicodeDecodeError as exc:
            refused.append(f"{guess}: byte {exc.start} is not {guess}")
            continue
        problem = _implausible(text)
        if problem is None:
            readings[guess] = text
        else:
            refused.append(f"{guess}: {problem}")
    if not readings:
        return None, "", "; ".join(refused) or "no encoding charset-normalizer knows reads it"
    japanese = next((guess for guess, text in readings.items() if _reads_as_japanese(text)), None)
    chosen = japanese or _western_reading(readings) or next(iter(readings))
    return chosen, readings[chosen], "; ".join(refused)


def _western_reading(readings: dict[str, str]) -> str | None:
    """Of the readings that are prose of a language cp1252 or Latin-2 is made for (``_CP1252_LANGUAGES``,
    ``_CENTRAL_EUROPEAN_LANGUAGES``), written mostly in ASCII letters as those languages are (a few lines of
    Chinese or Russian read in a Western codepage can hold enough "words" such as "é" or "a" to pass for prose),
    the one with the fewest misread characters (``_misread``), ties going to ``_PREFERRED_IN_TIES``, then to the
    order of the guesses; None when no reading is such prose."""
    scored = []
    for order, (guess, text) in enumerate(readings.items()):
        language = prose_language(text)
        if language in _CP1252_LANGUAGES | _CENTRAL_EUROPEAN_LANGUAGES and mostly_ascii_letters(text):
            preferred = _PREFERRED_IN_TIES.index(guess) if guess in _PREFERRED_IN_TIES else len(_PREFERRED_IN_TIES)
            scored.append((_misread(text, language), preferred, order, guess))
    return min(scored)[-1] if scored else None


def _misread(text: str, language: str) -> int:
    """Characters touching a letter in ``text`` (a whole novel's ``sample``) that no right reading gives:
    not punctuation or an accent standing alone ("it’s", "word—word", "drapers´ shops"), and not one of the
    language's letters (``ACCENTED_LETTERS``), or a capital one after a lowercase letter. What a wrong
    codepage makes of letters and dashes: "MŠdchen", "Se\u064cor", "cafÈ", "himÑI"."""
    letters = ACCENTED_LETTERS[language]
    found = Counter(
        (m.group(1).islower(), m.group())
        for m in _IN_CONTEXT.finditer(sample(text))
        if m.group(1).isalpha() or m.group(2).isalpha()
    )
    return sum(
        n
        for (after_lowercase, character), n in found.items()
        if not unicodedata.category(character).startswith(("P", "Sk"))
        and (character.lower() not in letters or (character.isupper() and after_lowercase))
    )


def without_lone_surrogates(texts: list[str], source: str) -> tuple[list[str], str | None]:
    """``texts`` with each lone surrogate replaced by U+FFFD, and a warning naming how many there were
    and where the first was. Text that reaches a book as text, not bytes (a JSON Lines book, a
    benchmark's inline context), can hold them; nothing after could encode it (its hash, the model)."""
    count = sum(len(LONE_SURROGATE.findall(text)) for text in texts)
    if not count:
        return texts, None
    first = next(where for where in map(lone_surrogate_at, texts) if where)
    warning = (
        f"{source}: {count} lone surrogate{'s' if count > 1 else ''}, half of a character (a broken \\u escape, or "
        f"bytes that were not UTF-8 passed on as text), the first ({first}); each "
        "replaced by \ufffd"
    )
    return [LONE_SURROGATE.sub("\ufffd", text) for text in texts], warning


def decode_text(data: bytes, path: str, encoding: str | None = None) -> tuple[str, str, bool, str | None]:
    """The text, the codec that read it, whether that codec was detected (not UTF-8 or given), and
    a warning about bytes that were replaced. UTF-8 (given or not) tolerates a few stray bytes
    (``_utf8_with_stray_bytes``); any other encoding is taken only when it decodes cleanly."""
    if not data.strip():
        raise NarrativeError(f"{path}: the file is empty")
    codec = text_codec(path, encoding)
    if codec not in (None, "utf-8", "utf-8-sig"):
        try:
            return data.decode(codec), encoding, False, None
        except UnicodeDecodeError as exc:
            raise NarrativeError(f"{path}: cannot decode as {encoding}: {exc}") from exc
    if codec is None and data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "utf-16", False, None
    utf16 = None if codec else _utf16_without_bom(data)
    if utf16:
        return utf16[1], utf16[0], True, None
    sample = data[:8192]
    control_bytes = len(_ISO_2022_ESCAPE.sub(b"", sample).translate(None, _NOT_CONTROL_BYTES))  # bytes 0-8, 14-31
    if b"\x00" in sample or control_bytes > len(sample) * 0.05:
        raise NarrativeError(
            f"{path}: looks like a binary file, not text (if it is text in UTF-16 or UTF-32 without a byte-order "
            "mark, name the encoding: --encoding, or the upload's encoding field)"
        )
    name = codec or ("utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8")
    read = None if codec is None and _iso_2022(data) else _utf8_with_stray_bytes(data, path, name)
    if read is not None:
        return read[0], encoding or name, False, read[1]
    if codec is not None:
        raise NarrativeError(f"{path}: cannot decode as {encoding}: {_utf8_problem(data)}")
    detected, text, refused = detect_encoding(data)
    if detected is None:
        raise NarrativeError(
            f"{path}: not UTF-8 ({_utf8_problem(data)}) and no other encoding reads it cleanly ({refused}); name the "
            "file's encoding (--encoding, or the upload's encoding field)"
        )
    return text, detected, True, None


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """(``utf-16-le`` or ``utf-16-be``, the text) for UTF-16 saved without a byte-order mark, or None. A text's
    line breaks are the code units 0A 00 in little-endian, 00 0A in big-endian, and either read the
    other way round is U+0A00, no character; so the one order the file's first line breaks take is
    its order, if that reading decodes cleanly and is plausible (``_implausible``)."""
    if len(data) % 2:
        return None
    units = [data[i : i + 2] for i in range(0, min(len(data), 8192), 2)]
    little, big = units.count(b"\n\x00"), units.count(b"\x00\n")
    if bool(little) == bool(big):
        return None
    codec = "utf-16-le" if little else "utf-16-be"
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    return None if _implausible(text) else (codec, text)


def text_codec(path: str, encoding: str | None) -> str | None:
    """The codec's canonical name (``utf-8`` for ``UTF8``), or None when none was given."""
    if not encoding:
        return None
    try:
        return codecs.lookup(encoding).name
    except LookupError as exc:
        raise NarrativeError(f"{path}: cannot decode as {encoding}: {exc}") from exc


def strict_utf8(path: Path) -> None:
    """A .jsonl file must be UTF-8 throughout: its rows are data, not prose to repair."""
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NarrativeError(f"{path}, {utf8_failure(data, exc)}") from exc


def _utf8_problem(data: bytes) -> str:
    text, bad = _escaped(data)
    return f"{len(bad)} bytes are not UTF-8: {_where(text, bad)}"
