"""German compounds read as their parts too: "Spuknacht" is also "Spuk" and "Nacht", so a question
about the ghost or the night meets the paragraph that writes the compound, and a question that writes
"Reisepläne" meets one that speaks of the journey's plans.

German writes a new compound whenever it needs one, and Snowball's German stemmer keeps it whole, so
a book and a question that name the same thing in a compound and in a phrase share no term. Lucene's
German analysis splits compounds against a dictionary of words (its DictionaryCompoundWordTokenFilter);
no German dictionary can be had offline here, so the dictionary is the book's own words: a word splits
in two where each part is a word the book writes (stemmed as the analyzer stems it), with the linking
letters German puts between parts (Fugenelemente: "Hochzeit-s-reise"). Its own term stays and the
parts' terms join it, in the book's paragraphs and in the questions asked about the book alike.
"""

from __future__ import annotations

import re
from typing import Collection

from clueweaver.retrieval.analyzers import Analyzer

COMPOUND_LANGUAGES = frozenset({"de"})
MIN_PART = 4  # letters of each part: "Landrat" stays whole, and "ein" or "and" never split a word
# The letters German puts between a compound's parts, tried after none
LINKS = ("s", "es", "n", "en", "e", "er", "ns")
# A derivational suffix is no part, inflected or not: "Vorstellungen" is no compound of "vorstell" and
# "ungen", nor "Freundlichkeit" of "freundlich" and "keit"
_SUFFIX = re.compile("(?:ung|heit|keit|lich|isch|end|schaft|nis|tum|bar|sam|haft|los)(?:e|en|er|es|em|s|n|se|sen)?")


class CompoundSplitter:
    """The parts' terms of the compounds of one book's language, against ``vocabulary``, the terms
    of the words the book writes (``parts``)."""

    def __init__(self, analyzer: Analyzer, vocabulary: Collection[str]) -> None:
        self.analyzer = analyzer
        self.vocabulary = vocabulary
        self._memo: dict[str, tuple[str, ...]] = {}

    def parts(self, word: str) -> tuple[str, ...]:
        """The terms of a normalized word's two parts when it is a compound of two words of the book,
        the most even split first, else ()."""
        found = self._memo.get(word)
        if found is None:
            found = self._memo[word] = self._split(word)
        return found

    def _split(self, word: str) -> tuple[str, ...]:
        if len(word) < 2 * MIN_PART or not word.isalpha():
            return ()
        for head_start in sorted(range(MIN_PART, len(word) - MIN_PART + 1), key=lambda i: abs(2 * i - len(word))):
            head = word[head_start:]
            head_term = None if _SUFFIX.fullmatch(head) else self._term(head)
            if head_term is None:
                continue
            modifier = word[:head_start]
            for link in ("", *LINKS):
                if modifier.endswith(link) and len(modifier) - len(link) >= MIN_PART:
                    modifier_term = self._term(modifier[: len(modifier) - len(link)])
                    if modifier_term is not None:
                        return tuple(dict.fromkeys((modifier_term, head_term)))
        return ()

    def _term(self, part: str) -> str | None:
        """A part's term when the book writes it as a word (not a stop word), else None. Not memoised by
        the analyzer: a novel's words try as many candidate parts as it has words (Effi Briest: 13,745
        for 11,377), most of them nonsense seen once."""
        terms = self.analyzer.word_terms(part, memo=False)
        return terms[0] if len(terms) == 1 and terms[0] in self.vocabulary else None
