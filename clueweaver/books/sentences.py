"""Sentences in any language: the one splitter every stage that cuts text into sentences uses
(ChronoRAG's chunks, over-long paragraphs, the stand-in reader, the reward-cost batch).

A sentence ends at a run of marks:

- the Chinese and Japanese full stops, exclamation, question marks and semicolon (。！？；｡．)
  end one wherever they stand, since these scripts put no space after them;
- the Western marks . ! ? and the ellipsis … end one only before whitespace or the end of the
  text (so 3.14, "e.g.the" and "他……他" go on), and so does the Greek question mark ";" (U+037E,
  which Unicode makes the semicolon), after a Greek letter only: elsewhere ";" is a semicolon; so do
  the full stops and question marks of other scripts (Devanagari's danda "।", Arabic's "؟", ``_OTHER_MARKS``);

closing quotation marks and brackets right after the marks stay with the sentence. No sentence
ends after a title or abbreviation of the supported languages ("Mr.", "Mme", "Hr.", "sig.", "кн.") or a
letter alone ("M. Fogg", "D. Glória", "z. B.", "т. е."), nor where the text goes on in lower case ('"Who?" he said',
after a dialogue dash too: "«Кто там?» — спросил он", "¿Quién es? —preguntó Pablo"; in Japanese, a
quotation that the particle と or って follows: "「どこへ行くんですか。」と私は聞いた。"),
nor inside a pair of quotation marks 「」 『』 “” „“ 《》 «» (either way round: French « », German
» «), so a quoted speech of several sentences is one. Only pairs that close in the text protect:
a quotation left open (a speech that runs on into the next paragraph) protects nothing. Straight
quotes " and ' are not pairs here, since the same mark opens and closes and ’ is the apostrophe.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterator

from clueweaver.books.language import HAN

# Scripts written without spaces between words (Han, kana) with their punctuation and full-width
# forms, as the body of a regex character class.
CJK_CHARACTERS = f"\u2e80-\u2fff\u3000-\u30ff{HAN}\uff00-\uffef"
_CJK_MARKS = "\u3002\uff01\uff1f\uff1b\uff61\uff0e"  # 。！？；｡．
_GREEK_QUESTION = r"(?<=[\u0370-\u03ff\u1f00-\u1fff])[;\u037e]"  # "Πού πας;"
# The full stops and question marks of other scripts, which end a sentence before whitespace as "." does: the
# Devanagari danda and double danda (। ॥), Arabic's question mark and Urdu's full stop (؟ ۔), Armenian's (։),
# Ethiopic's (።), Myanmar's (။) and Khmer's (។)
_OTHER_MARKS = "\u0964\u0965\u061f\u06d4\u0589\u1362\u104b\u17d4"
_SENTENCE_MARKS = re.compile(rf"(?:[{_CJK_MARKS}.!?\u2026{_OTHER_MARKS}]|{_GREEK_QUESTION})+")
# Closing marks kept with the sentence even where they pair with nothing in the text; 〕 closes a Chinese play's
# stage direction ("〔外面下着雪。〕")
_CLOSERS = frozenset("\"'\u201d\u2019)]\uff09\uff3d\u3011\u3009\u3015\u3017\u300d\u300f\u300b\u00bb\u00ab")
# Each quotation mark that can close a pair, and the opening marks it closes.
_CLOSES = {
    "\u300d": "\u300c",  # 」 「
    "\u300f": "\u300e",  # 』 『
    "\u201d": "\u201c\u201e",  # ” closes “ and „
    "\u201c": "\u201e",  # “ closes „ (German)
    "\u300b": "\u300a",  # 》 《
    "\u00bb": "\u00ab",  # » closes «
    "\u00ab": "\u00bb",  # « closes » (German » «)
}
_OPENS = frozenset("\u300c\u300e\u201c\u201e\u300a\u00ab\u00bb")
_QUOTE_MARK = re.compile("[" + "".join(sorted(_OPENS | set(_CLOSES))) + "]")
_SPACES = re.compile(r"\s*")
_LAST_MARKS = re.compile(
    rf"(?:[{_CJK_MARKS}.!?\u2026{_OTHER_MARKS}]|{_GREEK_QUESTION})[{re.escape(''.join(sorted(_CLOSERS)))}]*\s*$"
)
# Titles and abbreviations after which a full stop ends no sentence ("Mr. Holmes", "Mme Aouda", "Hr.
# Hulme", "il sig. Antonio", "кн. Мышкин"), as a whole word.
_TITLES = (
    "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "rev", "capt", "col", "gen", "fr",  # English
    "mm", "mme", "mlle", "mgr", "cf",  # French
    "hr", "frl", "nr", "vgl", "bzw", "ca",  # German
    "sra", "srta", "dña", "ud", "vd", "uds", "exa", "exma", "sig", "sigg", "dott", "avv", "mons",  # Romance
    "гг", "гр", "кн", "им", "см", "св", "κα", "δρ",  # Russian, Greek
)  # fmt: skip
# A capital letter alone is an initial ("M. Fogg", "А. П. Чехов"), but for the pronouns ("said I.", "сказал: Я.");
# a small one only where it is an abbreviation ("v." von, "z. B.", "г." господин, "т. е.", "κ." κύριος), since
# "сказал я.", "così è.", "assim é." end sentences
_INITIAL = r"(?![IЯ]\.)[A-ZÀ-ÖØ-ÞА-ЯЁΑ-Ω]"
_ONE_LETTER_ABBREVIATIONS = "vzгтκ"
_TITLE = re.compile(rf"(?<!\S)(?:(?i:{'|'.join(_TITLES)})|{_INITIAL}|[{_ONE_LETTER_ABBREVIATIONS}])\.\Z")
_LONGEST_TITLE = max(map(len, _TITLES)) + 1
_QUOTATIVE = re.compile("と|って")  # the Japanese particle after a quotation: what was said, and the sentence goes on
_DASH = re.compile(r"(?:(?:[—–]|--)\s*)?")  # a dialogue dash ("--" in older transcriptions) before who spoke


def _quoted(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends (the closing mark's offset) of the outermost quotations that close in the
    text, in order. A closing mark closes the innermost open quotation it pairs with, dropping any
    opened inside it and left open."""
    stack: list[tuple[str, int]] = []
    still_open: Counter[str] = Counter()  # so that a mark with nothing open to close looks no further
    pairs = []
    for match in _QUOTE_MARK.finditer(text):
        mark, at = match.group(), match.start()
        closes = [opener for opener in _CLOSES.get(mark, "") if still_open[opener]]
        if closes:
            innermost = next(k for k in range(len(stack) - 1, -1, -1) if stack[k][0] in closes)
            pairs.append((stack[innermost][1], at))
            still_open.subtract(opener for opener, _ in stack[innermost:])
            del stack[innermost:]
        elif mark in _OPENS:
            stack.append((mark, at))
            still_open[mark] += 1
    starts, ends = [], []
    for start, end in sorted(pairs):
        if ends and start < ends[-1]:
            continue  # inside the quotation before it
        starts.append(start)
        ends.append(end)
    return starts, ends


def _cut(text: str, end: int, starts: list[int], ends: list[int]) -> int | None:
    """Where a sentence whose marks end at ``end`` ends: after the closing marks that follow, and
    after the quotation it stands in when only spaces part it from the closing mark (French
    "« Bonjour. »"); None inside a quotation that goes on."""
    while True:
        while end < len(text) and text[end] in _CLOSERS:
            end += 1
        inside = bisect.bisect_left(starts, end) - 1  # the last quotation opening before the cut
        if inside < 0 or end > ends[inside]:
            return end
        if text[end : ends[inside]].strip():
            return None
        end = ends[inside] + 1


def _ends_sentence(text: str, marks: re.Match, end: int, following: int) -> bool:
    """Whether ``marks`` (with closing marks up to ``end``) end a sentence whose next word starts at ``following``."""
    if not any(c in _CJK_MARKS for c in marks.group()) and following == end < len(text):
        return False  # a Western mark before no space: 3.14, "etc.)."
    after_title = _TITLE.search(text, max(0, end - _LONGEST_TITLE), end) is not None
    following = _DASH.match(text, following).end()  # '«Кто там?» — спросил он', '¿Quién es? —preguntó'
    quoted = text[end - 1] in "」』" and _QUOTATIVE.match(text, following) is not None  # 「…？」と聞いた
    return not after_title and not quoted and not (following < len(text) and text[following].islower())


def sentence_spans(text: str, *, keep_quotes: bool = True) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text`` in order, the whitespace around them left out.
    ``keep_quotes=False`` cuts inside quotations too: for a quoted "sentence" too long to keep
    whole (a told story, a letter), whose own sentence ends are the best places left to cut."""
    starts, ends = _quoted(text) if keep_quotes else ([], [])
    spans, start = [], _SPACES.match(text).end()
    for marks in _SENTENCE_MARKS.finditer(text):
        end = _cut(text, marks.end(), starts, ends)
        if end is None:
            continue
        following = _SPACES.match(text, end).end()
        if _ends_sentence(text, marks, end, following):
            spans.append((start, end))
            start = following
    if start < len(text):
        spans.append((start, len(text.rstrip())))
    return spans


def ends_with_sentence_mark(text: str) -> bool:
    """Whether ``text`` ends with the mark that ends a sentence (closing quotes after it aside)."""
    return _LAST_MARKS.search(text) is not None


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` in order, each with the whitespace after it, so that
    ``"".join(split_sentences(text)) == text`` (the first keeps any leading whitespace)."""
    cuts = [start for start, _ in sentence_spans(text)[1:]]
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])] if text else []


# Where a sentence too long for a paragraph is cut when it has to be: ，、；,;
_CLAUSE_MARKS = ("\uff0c", "\u3001", "\uff1b", ",", ";")


def _clause_runs(text: str, start: int, end: int, limit: int) -> Iterator[tuple[int, int]]:
    """``text[start:end]`` as runs of at most ``limit`` characters, each cut after the last clause
    mark (，、；,;) in the second half of the limit, else before the last space there, else at the
    limit: the second half, so that no run is cut short for a mark near its start."""
    while end - start > limit:
        half = start + limit // 2
        window = text[half : start + limit]
        mark, space = max(window.rfind(m) for m in _CLAUSE_MARKS), window.rfind(" ")
        cut = half + mark + 1 if mark >= 0 else half + space if space >= 0 else start + limit
        yield start, cut
        start = cut + text.startswith(" ", cut)
    yield start, end


def _runs_within(text: str, limit: int) -> Iterator[tuple[int, int]]:
    """The sentences of ``text``, each longer than ``limit`` cut at the sentence ends inside its
    quotations (a long quoted speech is one sentence), then by ``_clause_runs``."""
    for start, end in sentence_spans(text):
        if end - start <= limit:
            yield start, end
            continue
        for a, b in sentence_spans(text[start:end], keep_quotes=False):
            yield from _clause_runs(text, start + a, start + b, limit)


def split_long_paragraph(text: str, limit: int) -> list[str]:
    """A normalized paragraph as paragraphs of at most ``limit`` characters: itself when it fits,
    else as many whole sentences as fit in each, in order (``_runs_within`` cuts a longer
    sentence). The same text always gives the same paragraphs, so their IDs stay stable."""
    if len(text) <= limit:
        return [text]
    pieces: list[tuple[int, int]] = []
    for start, end in _runs_within(text, limit):
        if pieces and end - pieces[-1][0] <= limit:
            pieces[-1] = (pieces[-1][0], end)
        else:
            pieces.append((start, end))
    return [text[start:end] for start, end in pieces]
