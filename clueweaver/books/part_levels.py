"""The levels of parts over the chapters that ``clueweaver.books.chapter_structure`` finds: the parts a
source marks (``with_marked_parts``), and volumes, the outer of two levels of parts. Les Misérables
(Hapgood's translation) heads "VOLUME I" / "FANTINE" over "BOOK FIRST—A JUST MAN", "BOOK SECOND—THE
FALL" …, its books counted from one again in each volume; The Brothers Karamazov (Garnett's) heads
"PART II" over Books IV to VI, its books counted on. A volume's heading opens its first chapter, as a
part's does, each chapter records its volume, and a book whose parts count anew in each volume is
labelled by volume, part and chapter ("1.2.3": ``clueweaver.books.chapter_labels``)."""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections import Counter
from typing import TYPE_CHECKING

from clueweaver.books.chapters import Heading
from clueweaver.books.numerals import DAI_NUMERALS, number_value

if TYPE_CHECKING:
    from clueweaver.books.chapter_structure import HeadingGroup, Unit

_MIN_VOLUMES = 2  # one "VOLUME I" over a book's parts is a title page's


def volume_words(groups: list[HeadingGroup]) -> frozenset[str]:
    """The part words that head volumes: twice or more, and each heading in the word followed by a part's
    heading in another word, in its own group ("PART I" over "Book I. The History Of A Family") or in the
    next, never by a chapter's."""
    over, not_over = Counter(), set()
    for k, group in enumerate(groups):
        heading = group.heading
        if heading.part is None or heading.is_epilogue:
            continue
        word = heading.components[0][0]
        inner = heading.components[1] if len(heading.components) > 1 else None
        if heading.unit is None and inner is None and k + 1 < len(groups):
            following = groups[k + 1].heading
            heads_a_part = following.part is not None and not (following.unit or following.is_epilogue)
            inner = following.components[0] if heads_a_part else None
        if heading.unit is None and inner is not None and inner[0] != word:
            over[word] += 1
        else:
            not_over.add(word)
    return frozenset(word for word, count in over.items() if count >= _MIN_VOLUMES and word not in not_over)


def heads_volume(heading: Heading, words: frozenset[str]) -> bool:
    """Whether a heading is a volume's alone ("VOLUME I", with or without its name), no part's or chapter's."""
    return heading.unit is None and len(heading.components) == 1 and heading.components[0][0] in words


def volumes_apart(texts: list[str], groups: list[HeadingGroup], words: frozenset[str]) -> list[HeadingGroup]:
    """The heading groups with a volume's heading apart from its first part's ("PART I", then "Book I. The
    History Of A Family"), which ``chapter_structure.heading_groups`` joins as a part's heading and its name."""
    apart = []
    for group in groups:
        if group.last > group.first and heads_volume(Heading.parse(texts[group.first]), words):
            rest = " ".join(texts[group.first + 1 : group.last + 1])
            lead = dataclasses.replace(group, last=group.first, text=texts[group.first])
            apart += [
                dataclasses.replace(lead, heading=Heading.parse(lead.text)),
                dataclasses.replace(group, first=group.first + 1, text=rest, heading=Heading.parse(rest)),
            ]
        else:
            apart.append(group)
    return apart


def keys_in_volumes(groups: list[HeadingGroup], keys: list, words: frozenset[str]) -> list:
    """Each heading's key (what makes two headings the same) with the number of the volume it is in: Les
    Misérables' "BOOK FIRST" in volume II is another heading than volume I's, not its repeat."""
    if not words:
        return keys
    volume, scoped = None, []
    for group, key in zip(groups, keys):
        if heads_volume(group.heading, words):
            volume = group.heading.part[1]
            scoped.append(key)
        else:
            scoped.append((volume, key))
    return scoped


def with_volumes(units: list[Unit], groups: list[HeadingGroup], words: frozenset[str]) -> list[Unit]:
    """The units with the volume each is in: the last volume heading at or before its opening, up to an
    epilogue, which no volume holds (The Brothers Karamazov's after Part IV)."""
    starts = [group for group in groups if heads_volume(group.heading, words)]
    firsts = [group.first for group in starts]
    placed, closed = [], None  # the volume an epilogue closed
    for unit in units:
        k = bisect.bisect_right(firsts, unit.first)
        if Heading.parse(unit.part or unit.title).is_epilogue:
            closed = k
        volume = starts[k - 1] if k and closed != k else None
        placed.append(
            dataclasses.replace(unit, volume=volume.text, volume_number=volume.heading.part[1]) if volume else unit
        )
    return placed


def number_past(last_part: int | None, units: list[Unit]) -> int:
    """The number of what closes a book after its chapters (an epilogue, an appendix): one past the
    last part, or past the last chapter in a book without parts or whose chapters' numbers run on
    across its parts (Middlemarch's "FINALE." is 87, after chapter 86 of book 8, not 9, which chapter
    9 is); one past what closes it already, so that an epilogue and an extra after it ("尾声", "番外一")
    are 3 and 4 after parts 1 and 2."""
    numbers = [unit.number for unit in units]
    runs_on = None not in numbers and len(set(numbers)) == len(numbers)
    if last_part is None or runs_on:
        return (numbers[-1] or 0) + 1
    closed = units[-1].part_number is None and (numbers[-1] or 0) > last_part
    return (numbers[-1] if closed else last_part) + 1


def with_marked_parts(
    units: list[Unit], texts: list[str], parts: frozenset[str], groups: list[HeadingGroup]
) -> list[Unit]:
    """The units under the part headings a source marks (an Aozora Bunko text's large headings:
    "上　先生と私"), which name no part word a heading could be read by: each unit after one belongs
    to it, numbered as its heading numbers it ("第三章" over sections "一", "二": "3.2") or else in
    reading order. Not a unit whose heading already names its part, or is that part heading (a part
    without chapters under it), or an epilogue, numbered after the parts already (五瓣の椿's "終章",
    marked as its stories are; ELTeC's El alma enferma, whose "EPÍLOGO" is a division of its last
    part), nor one after a chapter with sections of its own under the same marked heading (三太郎の日記's
    "十 蚊帳" among chapters "九", "十一" of numbered sections, all under "斷片": "10", not "3.10"). An
    appendix (``chapter_structure._appendices``) is numbered on after the chapters and parts before it, as an
    epilogue is ("3" after parts 1 and 2; "7" after El abuelo del rey's six parts, its source's). A marked
    heading past the headings a unit opens with opens the first unit after it, as a part's heading does
    ("PURGATORIO" opens its Canto I, not the end of Inferno's last); one among them stays in that unit (ELTeC's
    "Erster Band", "Erstes Buch" over "I.": chapter I keeps its "Erstes Buch", and II opens at its own heading)."""
    starts = [i for i, text in enumerate(texts) if text in parts]
    numbers = [_marked_part_number(texts[i]) or k for k, i in enumerate(starts, start=1)]
    placed, before = [], (0, False)  # the marked heading over the unit before, and whether it had a part of its own
    for unit in units:
        k = bisect.bisect_right(starts, unit.first)  # the part headings at or before the unit's opening
        is_the_part = k > 0 and starts[k - 1] == unit.first and unit.title.startswith(texts[unit.first])
        if k > 0 and (_opening_end(placed[-1].first, groups) if placed else -1) < starts[k - 1] < unit.first:
            unit = dataclasses.replace(unit, first=starts[k - 1])
        keep = k == 0 or unit.part or is_the_part or before == (k, True) or Heading.parse(unit.title).is_epilogue
        if unit.appendix and placed:
            placed.append(dataclasses.replace(unit, number=number_past(placed[-1].part_number, placed)))
        else:
            placed.append(
                unit if keep else dataclasses.replace(unit, part=texts[starts[k - 1]], part_number=numbers[k - 1])
            )
        before = (k, bool(unit.part))
    return placed


def _opening_end(first: int, groups: list[HeadingGroup]) -> int:
    """The last paragraph of the headings a unit opening at ``first`` starts with: its heading groups that follow
    one another with no paragraph between ("Erster Band Erstes Buch", then "I.")."""
    end = first
    for group in groups[bisect.bisect_left(groups, first, key=lambda group: group.first) :]:
        if group.first > end + 1:
            break
        end = max(end, group.last)
    return end


# "第一巻": 第 and a number before a word no heading form reads (Japanese 巻; 編 is a part's word since 6db5f56),
# the number of a part whose heading the source marks as one
_DAI_NUMBER = re.compile(rf"^第\s*(?P<number>[{DAI_NUMERALS}\d]+)")


def _marked_part_number(text: str) -> int | None:
    """A marked part heading's own number: its heading's, or the number after 第 whatever word follows
    (二都物語's "第一巻　甦る", "第二巻　黄金の糸": 1 and 2, not their places among the large headings)."""
    dai = _DAI_NUMBER.match(text)
    return Heading.parse(text).number or (number_value(dai["number"]) if dai else None)
