"""Language-neutral text reading shared by the parser, the self-calibration trigger, the rewards and
evaluation: folding, cue phrases, word counts, and the token F1 of a free-text answer.

No rule here knows the language of what it reads; the same rules serve every language of
``clueweaver.protocol.cues``:

- ``fold``: NFKC (full-width letters and digits to plain ones), case folding, the accents of Latin
  and Greek letters dropped ("é" to "e", "ά" to "α", polytonic breathings too), Russian "ё" read as
  "е" and Polish "ł" as "l", curly quotes straight; so "Élise" is "elise", and a cue written with
  its accents matches a text typed without them (Greek capitals drop the tonos, "FAŁSZ" is "falsz").
- Cue phrases (``find_phrases``): a cue of a spaced script (Latin, Cyrillic) matches whole words
  only: "note" is not "not" and "causeway" is not "cause"; a cue word ending in "*" is a stem and
  matches every word it begins. A cue holding Chinese or Japanese characters matches as a substring,
  since those scripts do not separate words. English negative contractions are spelled out first,
  so "didn't" and "cannot" match the cue "not" and "doesn't mention" matches "does not mention".
- Words (``words``, ``word_equivalents``): a Chinese or Japanese character is a word of its own,
  and counts as 1 / ``CJK_CHARACTERS_PER_WORD`` of an English word, so a Chinese rationale earns
  the length reward of its English translation; so does a letter of Thai (or Lao, Tibetan, Myanmar,
  Khmer) with its marks, 1 / ``UNSPACED_CLUSTERS_PER_WORD``. A word keeps its combining marks
  (Devanagari's vowels: "राम" is one word, not "र" and "म").
- Token F1 (``answer_tokens``, ``token_f1``): SQuAD's normalization (lower case, no punctuation, no
  articles) after folding, with each Chinese or Japanese character a token (the character F1 of
  CMRC and MLQA), each Korean syllable (KorQuAD's) and each Thai letter with its marks, other words
  whole with their marks ("राम" is not "रम"), and articles dropped: those
  of the reference's language when it shows one, else those of every covered language (a short
  answer, "the Red House", shows none).
  Numbers compare by value, however each side writes them (``numbers_language``): "42", "forty-two" and
  "quarenta e dois" are one token, so are "20,000" and "20 000", and "20" meets a Chinese answer's "二十".
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache
from typing import Iterable, Sequence

from clueweaver.books.english_spelling import american_spelling
from clueweaver.books.language import (
    COMBINING_MARKS,
    HAN,
    HANGUL,
    LIGATURES,
    STRESS_MARKS,
    UNDETERMINED,
    UNSPACED_LETTER,
    UNSPACED_SCRIPTS,
    character_fold,
    guess_language,
)
from clueweaver.books.numerals import chinese_numerals
from clueweaver.books.spelled_numbers import NUMBER_LANGUAGES, join_digit_groups, spelled_numbers, with_digits
from clueweaver.protocol.cues import ANSWER_COPULAS, ARTICLES, ELIDED_ARTICLES, every_language

# Han (with the iteration and zero marks), kana: scripts written without spaces between words.
CJK = f"\u3005\u3007\u3040-\u30ff\u31f0-\u31ff{HAN}"
# A Chinese word averages about 1.5 characters, and a Chinese translation runs about 1.5 characters
# per English word; Japanese, richer in kana, runs longer and so counts a little long.
CJK_CHARACTERS_PER_WORD = 1.5
# A Thai word has about 3.1 letters that carry their marks (2,839 in the 907 words pythainlp's dictionary cuts the
# bundled Thai excerpt into); Lao, Tibetan, Myanmar and Khmer are counted alike, unmeasured
UNSPACED_CLUSTERS_PER_WORD = 3.1

_CJK_CHAR = re.compile(f"[{CJK}]")
SPACED_WORD_CHAR = f"[^\\W{CJK}]"  # regex: a word character of a script that separates its words
_IS_SPACED_WORD_CHAR = re.compile(SPACED_WORD_CHAR)
_NOT_AFTER_A_WORD, _NOT_BEFORE_A_WORD = f"(?<!{SPACED_WORD_CHAR})", f"(?!{SPACED_WORD_CHAR})"
_STRAIGHT = str.maketrans(  # and the ligatures spelled out, as one edition prints "cœur" and another "coeur"
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u0451": "\u0435", "\u0142": "l"} | LIGATURES
)
# on Latin and Greek letters; on Cyrillic ones the stress marks only ("за́мок"), not й's breve
_ACCENTS = re.compile(rf"(?<=[a-z\u03b1-\u03c9])[\u0300-\u036f]+|(?<=[\u0430-\u044f])[{STRESS_MARKS}]")


def fold(text: str) -> str:
    """``text`` as rules compare it: NFKC, case-folded, Latin and Greek accents, Cyrillic stress marks, "ё" and "ł"
    folded, "œ" and "æ" spelled out, quotes straight."""
    text = unicodedata.normalize("NFKC", str(text)).casefold().translate(_STRAIGHT)
    return unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFD", text)))


def is_cjk(text: str) -> bool:
    """Whether ``text`` holds a Chinese or Japanese character (then it is matched as a substring)."""
    return bool(_CJK_CHAR.search(text))


# --- cue phrases ------------------------------------------------------------------------------------

_IRREGULAR_NEGATIONS = re.compile(r"\b(?:can't|cannot|won't)\b")
_SPELLED = {"can't": "can not", "cannot": "can not", "won't": "will not"}
_NEGATIVE_CONTRACTION = re.compile(r"n't\b")


def normalize_for_matching(text: str) -> str:
    """``fold``, and English negative contractions spelled out ("didn't" -> "did not", "can't" and
    "cannot" -> "can not", "won't" -> "will not")."""
    text = _IRREGULAR_NEGATIONS.sub(lambda m: _SPELLED[m.group(0)], fold(text))
    return _NEGATIVE_CONTRACTION.sub(" not", text)


def _cue_words(phrase: str) -> list[str]:
    cue_words = normalize_for_matching(phrase).split()
    if not cue_words or not all(word.rstrip("*") for word in cue_words):
        raise ValueError(f"empty cue phrase {phrase!r}")
    return cue_words


def _cue_body(cue_words: list[str]) -> str:
    """A cue's words as a regex: any whitespace between them, a "*" word as a stem."""
    return r"\s+".join(re.escape(word[:-1]) + r"\w*" if word.endswith("*") else re.escape(word) for word in cue_words)


@lru_cache(maxsize=64)
def phrase_pattern(phrases: tuple[str, ...]) -> re.Pattern:
    """One regex matching any of ``phrases`` (see the module doc), after the same normalization as
    the text: a word boundary where a cue begins or ends with a letter of a spaced script. Cues are
    grouped by the boundaries they need, each group checking its boundaries once (a few hundred
    checks would take a second to compile), longest phrases first so the reported match is the
    most specific one."""
    groups: dict[tuple[bool, bool], list[str]] = {}
    for phrase in sorted(phrases, key=len, reverse=True):
        cue_words = _cue_words(phrase)
        starts_a_word = bool(_IS_SPACED_WORD_CHAR.match(cue_words[0]))
        ends_a_word = cue_words[-1].endswith("*") or bool(_IS_SPACED_WORD_CHAR.match(cue_words[-1][-1]))
        groups.setdefault((starts_a_word, ends_a_word), []).append(_cue_body(cue_words))
    alternatives = [
        (_NOT_AFTER_A_WORD if starts else "") + f"(?:{'|'.join(bodies)})" + (_NOT_BEFORE_A_WORD if ends else "")
        for (starts, ends), bodies in groups.items()
    ]
    return re.compile("|".join(alternatives) or r"(?!x)x")  # no phrase: matches nothing


def find_phrases(text: str, phrases: tuple[str, ...]) -> list[str]:
    """The cue phrases present in ``text`` (folded as ``normalize_for_matching`` folds), in order of
    appearance."""
    return [
        " ".join(m.group(0).split()) for m in phrase_pattern(tuple(phrases)).finditer(normalize_for_matching(text))
    ]


# --- words ------------------------------------------------------------------------------------------

_LETTERS = f"(?:[^\\W_{CJK}{UNSPACED_SCRIPTS}]|[{COMBINING_MARKS}])+"  # a word's letters with their marks ("राम")
_WORD = re.compile(f"[{CJK}]|{UNSPACED_LETTER}|{_LETTERS}(?:'{_LETTERS})?")
_IS_CLUSTER = re.compile(UNSPACED_LETTER)


def words(text: str) -> list[str]:
    """Words of ``text`` as written: runs of letters, marks and digits (inner apostrophes kept), and each
    Chinese or Japanese character, and each Thai (Lao, Tibetan, Myanmar, Khmer) letter with its marks, on its own."""
    return _WORD.findall(str(text))


def word_equivalents(tokens: Iterable[str]) -> int:
    """How many English words ``tokens`` (of ``words``) amount to: a CJK character counts
    1 / ``CJK_CHARACTERS_PER_WORD``, a Thai letter with its marks 1 / ``UNSPACED_CLUSTERS_PER_WORD``."""
    tokens = list(tokens)
    characters = sum(1 for token in tokens if is_cjk(token))
    clusters = sum(1 for token in tokens if _IS_CLUSTER.match(token))
    return (
        len(tokens) - characters - clusters
        + round(characters / CJK_CHARACTERS_PER_WORD) + round(clusters / UNSPACED_CLUSTERS_PER_WORD)
    )  # fmt: skip


def word_count(text: str) -> int:
    """The length of ``text`` in English words (``word_equivalents`` of its ``words``)."""
    return word_equivalents(words(text))


# --- token F1 ---------------------------------------------------------------------------------------

_ARTICLES = frozenset(fold(article) for article in every_language(ARTICLES))
_ARTICLES_BY_LANGUAGE = {language: frozenset(map(fold, articles)) for language, articles in ARTICLES.items()}
_ELIDED_ARTICLE = re.compile(r"(?<!\w)(" + "|".join(ELIDED_ARTICLES) + r")'(?=\w)")
_COPULA_ENDING = re.compile(
    rf"(?<=\w)(?:{'|'.join(sorted(every_language(ANSWER_COPULAS), key=len, reverse=True))})[\W_]*$"
)
_PUNCTUATION = re.compile(rf"[^\w\s{COMBINING_MARKS}]|_")  # on ASCII exactly string.punctuation, SQuAD's
# Each Chinese, Japanese or Korean character is a token: Korean words carry their particles ("정희가",
# "정희를"), so KorQuAD scores answers by their syllables, as CMRC does Chinese by its characters
_TOKEN = re.compile(f"[{CJK}{HANGUL}]|{UNSPACED_LETTER}|[^\\s{CJK}{HANGUL}{UNSPACED_SCRIPTS}]+")


def text_tokens(text: str, punctuation: str = " ") -> list[str]:
    """``text`` folded and cut into tokens: each CJK character and Hangul syllable alone, other words whole;
    punctuation replaced by ``punctuation`` first (a space splits "don't" in two, "" joins it as SQuAD does)."""
    return _TOKEN.findall(_PUNCTUATION.sub(punctuation, _ELIDED_ARTICLE.sub(r"\1 ", fold(text))))


def answer_tokens(text: str, articles: frozenset[str] = _ARTICLES, numbers: str | None = None) -> list[str]:
    """SQuAD's answer normalization, language-neutral: ``text_tokens`` with punctuation removed,
    without ``articles`` (by default those of every covered language), its numbers written one way, read
    in the language ``numbers`` (``numbers_alike``), British and American English spelled one way ("colour" is
    "color": ``american_spelling``), a Japanese or Korean copula at its end dropped (``ANSWER_COPULAS``), Han
    characters in one form (``_one_form``)."""
    folded = _one_form(_COPULA_ENDING.sub("", fold(text)), numbers)
    tokens = text_tokens(numbers_alike(folded, numbers), punctuation="")
    return [american_spelling(token) for token in tokens if token not in articles]


def _one_form(text: str, language: str | None) -> str:
    """``text``'s Han characters in the form retrieval reads them in: a traditional edition's answer meets a
    simplified reference ("東京" is "东京"), and in Japanese an old kanji form its new one ("櫻" is "桜")."""
    return text.translate(character_fold("ja" if language == "ja" else "zh")) if is_cjk(text) else text


# The languages that write numbers in Chinese numerals: digits in an answer are compared as those numerals,
# since Chinese F1 counts characters ("二十两" has three, which "20两" must match)
_NUMERAL_LANGUAGES = frozenset({"zh", "ja"})


def numbers_alike(text: str, language: str | None) -> str:
    """``text`` with its numbers written one way: in Chinese numerals for Chinese and Japanese, else in
    digits, the numbers spelled in ``language``'s words read as digits (none when ``language`` is
    None) and digit groups joined ("20 000" is "20000")."""
    if language in _NUMERAL_LANGUAGES:
        return chinese_numerals(join_digit_groups(text))
    return with_digits(text, language) if language in NUMBER_LANGUAGES else join_digit_groups(text)


def numbers_language(prediction: str, reference: str) -> str | None:
    """The language an answer and its reference spell numbers in: the one the reference shows, else the
    one the answer shows, else (a short answer shows none: "forty-two", "quarenta e dois") the language
    in whose words the two spell the most numbers, the first in alphabetical order on a tie; None when
    a shown language spells no numbers here or the two spell none."""
    for text in (reference, prediction):
        language = _language_shown(text)
        if language is not None and language != UNDETERMINED:
            return language if language in NUMBER_LANGUAGES | _NUMERAL_LANGUAGES else None
    spelled = {
        language: len(spelled_numbers(reference, language)) + len(spelled_numbers(prediction, language))
        for language in NUMBER_LANGUAGES
    }
    most = max(spelled.values())
    return min(language for language, count in spelled.items() if count == most) if most else None


@lru_cache(maxsize=4096)
def _language_shown(text: str) -> str | None:
    return guess_language(text)


@lru_cache(maxsize=4096)
def reference_articles(reference: str) -> frozenset[str]:
    """The articles F1 drops for a reference answer: its language's when it shows one (so an English
    answer keeps "die" and "I", articles in German and Italian; Chinese and Russian have none), else
    every covered language's."""
    language = _language_shown(reference)
    if language is None or language == UNDETERMINED:
        return _ARTICLES
    return _ARTICLES_BY_LANGUAGE.get(language, frozenset())


def _f1(prediction_tokens: list[str], reference_tokens: list[str]) -> float:
    common = sum((Counter(prediction_tokens) & Counter(reference_tokens)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(prediction_tokens), common / len(reference_tokens)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction: str, references: Sequence[str]) -> float:
    """The best token F1 of ``prediction`` against any reference (0 for an empty answer): SQuAD's
    for English, character F1 for Chinese, Japanese and Korean (``answer_tokens``), numbers compared by value."""
    scores = [0.0]
    for reference in references:
        articles, numbers = reference_articles(reference), numbers_language(prediction, reference)
        tokens = answer_tokens(prediction, articles, numbers)
        if tokens:
            scores.append(_f1(tokens, answer_tokens(reference, articles, numbers) or [""]))
    return max(scores)
