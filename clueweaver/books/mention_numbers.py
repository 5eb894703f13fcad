"""The numbers a chapter mention reads, shared by every language's reading (``clueweaver.books.chapter_mentions``,
``clueweaver.books.korean_mentions``): ranges, the last chapter, and counts from either end."""

from __future__ import annotations

MAX_RANGE = 20  # the most chapters one range names ("chapters 3-7"); a longer one is read as its two ends
LAST = -1  # the number of "the last chapter", "最后一回", "dernier chapitre": whichever the book's last is
# "the first three chapters", "les deux derniers chapitres", "в первых трёх главах": the count's words
COUNT_WORDS = {
    word: value
    for value, words in {
        2: "two deux zwei dos due dois duas два две двух",
        3: "three trois drei tres tre três три трёх трех",
        4: "four quatre vier cuatro quattro quatro четыре четырёх четырех",
        5: "five cinq fünf funf cinco cinque пять пяти",
        6: "six sechs seis sei шесть шести",
        7: "seven sept sieben siete sette sete семь семи",
        8: "eight huit acht ocho otto oito восемь восьми",
        9: "nine neuf neun nueve nove девять девяти",
        10: "ten dix zehn diez dieci dez десять десяти",
        11: "eleven onze elf once undici одиннадцать одиннадцати",
        12: "twelve douze zwölf zwolf doce dodici doze двенадцать двенадцати",
    }.items()
    for word in words.split()
}


def add_number(values: list[int], value: int, joined_by_range: bool) -> None:
    """Add ``value`` to a list being read; after a range's word, with each number between."""
    if joined_by_range and values and 0 < values[-1] < value <= values[-1] + MAX_RANGE:
        values.extend(range(values[-1] + 1, value + 1))
    else:
        values.append(value)


def edge_numbers(first: bool, count: int | None) -> tuple[int, ...]:
    """The first ``count`` chapters (1, 2, ...) or the last ones (..., -2, -1: counted from the end)."""
    if not count:
        return ()
    return tuple(range(1, count + 1)) if first else tuple(range(-count, 0))
