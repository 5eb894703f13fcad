"""Chapters as the book names them: heading paragraphs, parts, stories, and the numbers a reader uses.

Headings are short paragraphs such as "CHAPTER IV", "Chapter 12: The Storm", "PART 2" or a bare
"IV." (``is_heading``); a line in capitals right after one is the chapter's name. Then the
structure:

- a **part** ("PART 2", "VOLUME I", "BOOK ONE") followed by chapters groups them; a part heading
  with no chapter after it is a chapter itself;
- a **story** of a collection is a numbered, titled heading directly followed by a heading
  numbered 1 in another style ("I. A SCANDAL IN BOHEMIA", then "I.", "II.", "III."); the story
  ends at the next heading in its own style ("II. THE RED-HEADED LEAGUE");
- parts and stories are not chapters: their heading, and any text before their first chapter (a
  part's epigraph), opens that chapter, so "PART 2" shifts no chapter number.

Each chapter gets a **label**, the number a reader uses: the book's own chapter numbers when they
are all given and unique ("24" in Little Women, whose chapters run on across its parts); else
qualified by the part or story where that makes them unique ("1.2": story I, chapter II; "2.3":
volume II, chapter III); else the chapter's position in reading order. A label that names a part
or story ("1") reaches to its last chapter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred"
)
_NUMBER = rf"(?:\d+|[ivxlcdm]+|(?:(?:{_NUMBER_WORDS})[\s-]*)+|the\s+(?:first|last|\w+th))"
_CHAPTER_WORD = r"(?:chapter|chap\.|adventure|book|part|volume|vol\.|letter|stave|canto|section|episode|act|scene)"
# "CHAPTER IV", "VOLUME I. CHAPTER I", "ADVENTURE II. THE RED-HEADED LEAGUE", "Chapter 12: The Storm"
_HEADING = re.compile(rf"^(?:{_CHAPTER_WORD}\s+{_NUMBER}\.?\s*[.:—–-]?\s*)+(?P<rest>.{{0,80}})$", re.IGNORECASE)
# A bare numeral on its own line ("IV", "II.", "12") starts a chapter in many Gutenberg texts.
_BARE_NUMERAL = re.compile(r"^(?:[IVXLC]+|\d{1,3})\.?$")
PART_ONLY = re.compile(rf"^(?:book|part|volume|vol\.)\s+{_NUMBER}\.?$", re.IGNORECASE)
# One numbered component at the start of a heading: an optional word, then the number.
_COMPONENT = re.compile(rf"(?:(?P<word>{_CHAPTER_WORD})\s+)?(?P<number>{_NUMBER})\b\.?\s*[.:—–-]?\s*", re.IGNORECASE)
_CONTAINER_WORDS = ("book", "part", "volume", "vol.")

_SMALL = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
_UNITS = {w: n for n, w in enumerate((_SMALL + " seventeen eighteen nineteen").split())}
_TENS = {w: 10 * n for n, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if n > 1}
_ORDINALS = {
    w: n
    for n, w in enumerate(
        "_ first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
    )
    if n
}
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def is_heading(text: str) -> bool:
    if "\n" in text or len(text) > 100:
        return False
    if _BARE_NUMERAL.match(text):
        return True
    match = _HEADING.match(text)
    if not match:
        return False
    rest = match.group("rest")
    # "Chapter one was the best of the book." is prose, not a heading.
    return not rest or rest.isupper() or rest.istitle() or not rest.rstrip().endswith((".", "?", "!", ","))


def is_title_line(text: str) -> bool:
    """A short line in capitals after a heading is the chapter's name ("PLAYING PILGRIMS")."""
    letters = [c for c in text if c.isalpha()]
    return 0 < len(text) <= 80 and bool(letters) and all(c.isupper() for c in letters)


def number_value(token: str) -> int | None:
    """The value of a heading's number: 12, XII, "twenty-four", "the first"; None when unreadable."""
    token = token.strip().lower()
    if token.isdigit():
        return int(token)
    if re.fullmatch(r"[ivxlcdm]+", token):
        values = [_ROMAN[c] for c in token]
        total = sum(-v if v < after else v for v, after in zip(values, values[1:] + [0]))
        return total if 0 < total < 4000 and _roman(total) == token else None  # "mild" is a word
    if token.startswith("the"):
        return _ORDINALS.get(token.split()[-1])
    total = 0
    for word in re.split(r"[\s-]+", token):
        if word in _UNITS:
            total += _UNITS[word]
        elif word in _TENS:
            total += _TENS[word]
        elif word == "hundred":
            total = max(total, 1) * 100
        elif word:
            return None
    return total or None


def _roman(value: int) -> str:
    out = ""
    for number, letters in zip(
        (1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1),
        ("m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i"),
    ):
        count, value = divmod(value, number)
        out += letters * count
    return out


@dataclass(frozen=True)
class Heading:
    """A heading's numbered components ((word, number) in order, word "" for a bare numeral), the
    offset in its text where the part's own components end, and the name after the numbers."""

    components: tuple[tuple[str, int | None], ...]
    part_end: int
    name: str

    @classmethod
    def parse(cls, text: str) -> Heading:
        components, position, part_end = [], 0, 0
        while match := _COMPONENT.match(text, position):
            word, number = (match.group("word") or "").lower(), number_value(match.group("number"))
            if not word and (components or number is None):  # a bare number comes first, and must read
                break
            components.append((word, number))
            position = match.end()
            if all(w in _CONTAINER_WORDS for w, _ in components):
                part_end = position
        return cls(tuple(components), part_end, text[position:].strip())

    @property
    def part(self) -> tuple[str, int | None] | None:
        """The part component ("PART 2" in "PART 2 CHAPTER I"), None without one."""
        parts = [c for c in self.components if c[0] in _CONTAINER_WORDS]
        return parts[-1] if parts else None

    @property
    def unit(self) -> tuple[str, int | None] | None:
        """The chapter component, None for a heading that only names a part."""
        units = [c for c in self.components if c[0] not in _CONTAINER_WORDS]
        return units[-1] if units else None

    @property
    def style(self) -> tuple[str, bool] | None:
        """How its chapter number is written: the word, and whether a name follows."""
        return (self.unit[0], bool(self.name)) if self.unit else None


@dataclass(frozen=True)
class Unit:
    """A chapter before numbering: its first paragraph and title, the part or story it belongs to
    (its heading text and number), and its own number (None when the heading has none)."""

    first: int
    title: str
    part: str | None = None
    part_number: int | None = None
    number: int | None = None


def _part_text(text: str, heading: Heading) -> str:
    return text[: heading.part_end].strip().rstrip(".:—–-").strip()


def heading_groups(texts: list[str], flags: list[bool]) -> list[tuple[int, int]]:
    """(first, last) paragraph of each heading: a heading, the chapter heading right after a part
    heading ("PART 1", "CHAPTER ONE") and a name line in capitals after it. ``flags`` (is each
    paragraph a heading) is updated to mark the name lines."""
    groups, i = [], 0
    while i < len(texts):
        if flags[i]:
            first = i
            if PART_ONLY.match(texts[i]) and i + 1 < len(texts) and flags[i + 1]:
                i += 1
            if i + 1 < len(texts) and not flags[i + 1] and is_title_line(texts[i + 1]):
                i += 1
            for j in range(first, i + 1):
                flags[j] = True
            groups.append((first, i))
        i += 1
    return groups


def _opens_story(heading: Heading, group: tuple[int, int], following: tuple[tuple[int, int], Heading] | None) -> bool:
    """A numbered, named heading directly followed by a heading numbered 1 in another style."""
    if following is None or heading.unit is None or not heading.name:
        return False
    (first, _), after = following
    return first == group[1] + 1 and after.unit is not None and after.unit[1] == 1 and after.style != heading.style


def detect_units(texts: list[str], groups: list[tuple[int, int]]) -> list[Unit]:
    """The chapters of a book from its heading groups, with parts and stories folded in."""
    parsed = [Heading.parse(" ".join(texts[a : b + 1])) for a, b in groups]
    units: list[Unit] = []
    part, part_number, story_style, pending = None, None, None, None
    for k, (group, heading) in enumerate(zip(groups, parsed)):
        text = " ".join(texts[group[0] : group[1] + 1])
        following = (groups[k + 1], parsed[k + 1]) if k + 1 < len(groups) else None
        if story_style is not None and heading.style == story_style:
            part, part_number, story_style = None, None, None  # the next story of the collection
        if heading.part is not None and (heading.unit is not None or (following and following[1].unit)):
            part, part_number, story_style = _part_text(text, heading), heading.part[1], None
        start = group[0] if pending is None else pending
        if heading.unit is None and following is not None and following[1].unit is not None:
            pending = start  # a part heading: it opens its first chapter
            continue
        if _opens_story(heading, group, following):
            part, part_number, story_style, pending = text, heading.unit[1], heading.style, start
            continue
        own = heading.unit or heading.part
        units.append(Unit(start, text, part if heading.unit else None, part_number, own[1] if own else None))
        pending = None
    return units


def units_from_titles(starts: dict[int, str]) -> list[Unit]:
    """The chapters a file names itself (a JSONL chapter field, EPUB or Markdown headings)."""
    units = []
    for first, title in sorted(starts.items()):
        heading = Heading.parse(title)
        part = _part_text(title, heading) if heading.part and heading.unit else None
        number = (heading.unit or heading.part or (None, None))[1]
        units.append(Unit(first, title, part, heading.part[1] if part else None, number))
    return units


def labels(units: list[Unit]) -> list[str]:
    """The number a reader uses for each chapter: the book's own when given and unique, else
    qualified by part or story ("1.2") when that makes them unique, else the reading position."""
    if units and all(u.number is not None for u in units):
        own = [str(u.number) for u in units]
        if len(set(own)) == len(own):
            return own
        qualified = [f"{u.part_number}.{u.number}" if u.part_number is not None else str(u.number) for u in units]
        if len(set(qualified)) == len(qualified):
            return qualified
    return [str(n) for n in range(1, len(units) + 1)]


def label_span(label: str, chapter_labels: list[str]) -> tuple[int, int] | None:
    """The first and last position (1-based) of the chapters ``label`` names: one chapter, or
    every chapter of the part or story it names ("1" for "1.1".."1.3"); None when it names none."""
    wanted = label.strip().rstrip(".")
    hits = [n for n, name in enumerate(chapter_labels, start=1) if name == wanted or name.startswith(wanted + ".")]
    return (hits[0], hits[-1]) if hits else None


def describe_labels(chapter_labels: list[str]) -> str:
    """The labels in brief, for an error message: "1-47", or the first and last few."""
    if chapter_labels == [str(n) for n in range(1, len(chapter_labels) + 1)]:
        return f"1-{len(chapter_labels)}" if chapter_labels else "none"
    if len(chapter_labels) <= 8:
        return ", ".join(chapter_labels)
    return ", ".join(chapter_labels[:4]) + ", ..., " + ", ".join(chapter_labels[-2:])
