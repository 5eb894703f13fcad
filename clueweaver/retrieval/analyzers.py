"""One text analyzer per language: how a book's paragraphs and a question become BM25 terms.

Every analyzer applies Unicode NFKC (full-width letters and digits become plain ones), case
folding (German "ß" becomes "ss"), one form of each apostrophe and hyphen and the ligatures spelled out
("cœur" is "coeur"; not where "æ" is a letter, in Norwegian and Danish), then:

- words (en, fr, de, es, it, ru, pt, el, pl, hu, ro): the language's stop words go, then its Snowball stemmer
  (PyStemmer) gives the words of a family one key. Accents are folded where readers write names and
  words both ways (fr, es, it, pt: "Hélène" and "Helene" meet; de: umlauts, as German's own
  stemmer does; el: the tonos, which capitals drop, and polytonic breathings), before the stop
  words and the stemmer, so that a book and a question meet whichever way each is written. Russian
  keeps its letters and folds "ё" to "е", reads the spelling before 1918 as today's (``modern_russian``:
  "Всѣ счастливыя семьи похожи другъ на друга" gives the terms of "Все счастливые семьи похожи друг
  на друга"), and its stems drop the surname suffix -ов/-ев, which Snowball strips from the nominative
  only ("Базаров", "Базарова"). German reads the spelling before 1901 as today's too (``modern_german``:
  "Die Thür", "todt", "passirt" give the terms of "Die Tür", "tot", "passiert"), and Portuguese the
  spelling before 1911 and 1943 (``modern_portuguese``: "elle", "annos", "theatro" are "ele", "anos",
  "teatro"), and English British spelling as American (``clueweaver.books.english_spelling``: "colour",
  "centre" and Austen's "shewed" give the terms of "color", "center", "showed"); a German book's index reads
  its compounds as their parts too, against the book's own words (``clueweaver.retrieval.compounds``:
  "Spuknacht" is also "Spuk" and "Nacht"). A spelled number
  is read as its digits in each of these but Polish, Hungarian and Romanian (``clueweaver.books.spelled_numbers``:
  "two hundred and fifty" and "£250", "vingt mille" and "20 000", "восьмидесяти тысяч" and "80 000" give one
  term), and in none of the languages below. English folds its accents too ("Château d'If" meets "Chateau";
  Maude's War and Peace writes "Natásha"). French, Italian and Greek elided articles go ("l'homme" is "homme",
  "τ'όνομα" is "όνομα"); English possessives too ("Emma's" is "emma").
- Polish (pl), Hungarian (hu) and Romanian (ro): their stop words go (``POLISH_STOP_WORDS``,
  ``HUNGARIAN_STOP_WORDS``, ``ROMANIAN_STOP_WORDS``; bm25s has none of them) and Snowball's stemmer gives a
  noun's cases one key ("rycerza", "rycerzem", "rycerzy"; Hungarian's suffixes: "házban", "házból");
  Romanian's accents are folded first ("fetițele", "fetiţele" with an older edition's cedilla, and
  "fetitele" typed without them meet). Czech (cs) and Norwegian (no): Snowball's stems, stop words kept.
  Each as its tuning set chose (docs/retrieval.md, "Czech and Hungarian", "Norwegian and Romanian").
  Swedish (sv): case-folded words whole, as an undetermined language's are: Snowball's Swedish stemmer
  and bm25s's stop words found fewer checks' evidence on its tuning set, and reading the spelling before
  1906 as today's ("hvad", "gaf") found fewer on its frozen set (docs/retrieval.md, "Polish and Swedish").
- Chinese is read in simplified characters: a traditional character is folded to its simplified
  form (OpenCC's character table, as opencc-python-reimplemented ships it), so a question typed in
  simplified meets a 繁體 edition ("為什麼" is "为什么") and a traditional question a simplified one;
  Japanese in the new kanji forms (OpenCC's table of Japanese variants: "國" is "国", "學" is "学"),
  so a question in today's forms meets a pre-war edition in the old ones (旧字体). A Chinese text's
  numbers in digits are written in Chinese numerals (``clueweaver.books.numerals.chinese_numerals``:
  "500两" is "五百两", "1998年" "一九九八年"), so a question typed with digits meets a novel that
  spells its numbers, as classical and most modern Chinese novels do; a Japanese word of kanji
  numerals is read as its value in digits ("五百" is "500", ``numeral_word_value``), for the same reason.
- Chinese, written without spaces: each run of Han characters gives its character bigrams and its
  unigrams (what Lucene's CJK analyzer does, unigrams added so that a one-character name or word
  still matches). Unigrams of function characters go (the one-character words of bm25s's Chinese
  stop list), as do bigrams of two of them ("他们", "我的"). jieba's word segmentation was measured
  instead and not taken: fewer items with all their evidence on both Chinese check sets, and eight
  times the time of the whole index (docs/retrieval.md, "Languages"). Latin words inside CJK text
  are folded words, unstemmed.
- Korean, written in words (eojeol) that carry their particles and endings ("정희가", "정희를",
  "정희에게"): each run of Hangul (and of the Han characters older texts mix in) gives its character
  bigrams and unigrams, as Lucene's CJK analyzer reads Hangul, so that "정희" meets every form of the
  name; unigrams of the one-syllable particles go (``KOREAN_PARTICLES``), and bigrams of two of them.
- Japanese: its content words in their dictionary forms, cut by MeCab with UniDic
  (``clueweaver.retrieval.morphology``), which found all the evidence of more tuning checks than
  bigrams did. The plain-BM25 baseline keeps bigrams and unigrams (every hiragana and the
  long-vowel mark its function characters).
- any other language or script (``UNDETERMINED``): case-folded words, no stop words, no stemmer; a word of the
  Latin or Cyrillic script cut to its first five letters (``UNKNOWN_LANGUAGE_PREFIX``), which a language's
  endings rarely reach ("dziewczyna", "dziewczyny" meet as "dziew"), chosen on the tuning sets of fourteen
  languages read as if unknown and kept by seventeen frozen sets (docs/retrieval.md, "A language ClueWeaver
  has no stemmer for"). A word
  keeps its combining marks (Devanagari's, Bengali's vowels); Arabic's and Hebrew's optional vowel points,
  the tatweel and the hamza on an alef are folded (``_OPTIONAL_POINTS``), so a vocalized question meets an
  unvocalized book; Thai, Lao, Tibetan, Myanmar and Khmer, which write no spaces between words, give the
  bigrams of their letters (each with its marks), as Chinese gives its characters'. Unmeasured: no check set
  is in these scripts yet.

A word is analyzed once per process (``Analyzer.word_terms`` is memoised), and a book's CJK runs,
which rarely repeat, are cut with numpy over their code points (``Analyzer.cjk_occurrences``), so
a novel is analyzed in a fraction of a second.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from itertools import chain
from typing import Sequence

import numpy as np
import Stemmer
from bm25s import stopwords as bm25s_stopwords

from clueweaver.books.english_spelling import american_spelling
from clueweaver.books.language import (
    CHARACTER_FOLDS,
    COMBINING_MARKS,
    LIGATURES,
    STRESS_MARKS,
    SUPPORTED_LANGUAGES,
    UNDETERMINED,
    UNSPACED_LETTER,
    UNSPACED_SCRIPTS,
    character_fold,
    fold_accents,
)
from clueweaver.books.numerals import chinese_numerals, numeral_word_value
from clueweaver.books.spelled_numbers import NUMBER_LANGUAGES, WORDS, words_and_numbers
from clueweaver.retrieval.morphology import japanese_words

ENGLISH_STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves shall may might must upon said one
    also yet ever even let us mr mrs miss""".split()
)  # ClueWeaver's list since its first version, kept: the English defaults were tuned with it
STEMMERS = {"en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian", "ru": "russian",
            "pt": "portuguese", "el": "greek", "pl": "polish", "cs": "czech", "hu": "hungarian",
            "no": "norwegian", "ro": "romanian"}  # fmt: skip
# bm25s has no Greek list: the articles, pronouns, particles, prepositions and conjunctions of modern
# Greek, with the katharevousa forms that older novels' narration uses ("εις", "ήτο"); accents are
# folded before they are compared.
GREEK_STOP_WORDS = """ο η το οι τα του της των τον την τη τους τις ένας μια μία ένα έναν ενός μιας και κι
    να θα δεν δε μη μην ότι πως που σε σ στο στη στην στον στα στους στις στου στης με για από απ ως
    προς κατά μετά χωρίς παρά αλλά ή είτε ούτε ουδέ αν εάν όταν ενώ όπως γιατί αφού λοιπόν μα
    αυτός αυτή αυτό αυτοί αυτές αυτά αυτού αυτής αυτών αυτόν αυτήν εγώ εσύ εμείς εσείς μου σου μας
    σας τον τι ποιος ποια ποιο είναι ήταν ήτο ήτον είμαι είχε είχεν έχει έχω ήμουν ήσαν εκεί εδώ
    πολύ πιο ακόμη ακόμα τότε τώρα μόνο όλα όλοι όλες όλη όλο κάθε κάτι τίποτε τίποτα εις εκ εξ διά
    υπό επί μεν δε οποίος οποία οποίον οποίου οποίας""".split()
# bm25s has no Polish list: the prepositions, conjunctions, particles and pronouns (in their cases) of Polish,
# and "być" in its common forms.
POLISH_STOP_WORDS = """w we z ze i a o u na do po za od ku pod nad przed przez przy dla bez aby żeby że lecz ale
    albo lub oraz ani czy bo więc jednak też także jeszcze już tylko nawet bardzo tak nie się sobie siebie sobą
    to ten ta te tego tej temu tym tę tych który która które którego której któremu którym których co coś nic kto
    jak gdy kiedy gdzie dlaczego tu tam teraz ja ty on ona ono oni one my wy mnie mi mną ciebie cię tobie ci tobą
    jego go jemu mu nim niego niemu jej ją nią niej ich im je nich nimi nas nam nami was wam wami jest są był była
    było były być będzie jestem jesteś może""".split()
# bm25s has no Hungarian list either: its articles, conjunctions, particles, postpositions and pronouns, and "van"
# in its common forms.
HUNGARIAN_STOP_WORDS = """a az egy és is hogy nem ne de meg csak már még mint ha mert vagy sem pedig akkor
    után előtt alatt fölött között mellett nélkül ellen felé ki be le fel el össze vissza ez ezt azt ennek annak
    ebben abban erre arra itt ott én te ő mi ti ők engem téged őt minket titeket őket nekem neked neki nekünk
    nektek nekik velem veled vele van volt lesz nincs vannak voltak lett mit miért hol hova mikor hogyan kit
    kinek melyik amely amelyet ami amit aki akit""".split()
# Nor a Romanian list: its prepositions, conjunctions, pronouns and particles, and "a fi" and "a avea" in their
# common forms (the articles are endings, which the stemmer takes)
ROMANIAN_STOP_WORDS = """și să se în la de ce cu pe nu din că care este era sunt fi fost a al ai ale un o unui unei
    niște lui ei el ea ele lor le îl îi mă mi te ți ne vă cum când unde pentru iar dar sau nici dacă decât încă
    așa tot prea foarte acum atunci după până fără spre către numai doar mai ca am are avem aveți au avea avut va
    vor""".split()
# Korean's one-syllable particles, as function characters: subject, topic, object, genitive, dative and
# locative, comitative, "also", instrumental, "only"
KOREAN_PARTICLES = "이가은는을를의에와과도로만"
STOP_WORD_LISTS = {  # for Chinese, Japanese and Korean: the function characters
    "en": ENGLISH_STOP_WORDS,
    "zh": [word for word in bm25s_stopwords.STOPWORDS_CHINESE if len(word) == 1],
    "ja": [*map(chr, range(0x3041, 0x30A0)), "\u30fc"],  # hiragana and the long-vowel mark
    "fr": bm25s_stopwords.STOPWORDS_FRENCH,
    "de": bm25s_stopwords.STOPWORDS_GERMAN,
    "es": bm25s_stopwords.STOPWORDS_SPANISH,
    "it": bm25s_stopwords.STOPWORDS_ITALIAN,
    "ru": bm25s_stopwords.STOPWORDS_RUSSIAN,
    "pt": bm25s_stopwords.STOPWORDS_PORTUGUESE,
    "el": GREEK_STOP_WORDS,
    "ko": list(KOREAN_PARTICLES),
    "pl": POLISH_STOP_WORDS,
    "hu": HUNGARIAN_STOP_WORDS,
    "ro": ROMANIAN_STOP_WORDS,
}
# zh, ja, ko: the Latin words inside; English since 2026-12-06 (docs/retrieval.md, "Languages")
ACCENT_FOLDED = frozenset({"en", "fr", "de", "es", "it", "pt", "el", "ro", "zh", "ja", "ko"})
ELISIONS = {
    "fr": frozenset("l m t qu n s j d c jusqu quoiqu lorsqu puisqu".split()),
    "it": frozenset("c l all dall dell nell sull coll pell gl agl dagl degl negl sugl un m t s v d".split()),
    "el": frozenset("σ τ μ θ ν απ κατ μετ παρ υπ επ αφ εφ".split()),  # "τ'όνομα", "σ'αυτό", "απ'όλους"
}
CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})  # read in character n-grams or (Japanese) MeCab's words
# cut into words by MeCab; Chinese measured better as bigrams than as jieba's words
MORPHEME_LANGUAGES = frozenset({"ja"})
# Han (with the iteration marks), kana and Hangul, as code-point ranges; NFKC has already turned half-width
# kana into full-width ones, and Hangul jamo into syllables
CJK_RANGES = ((0x3005, 0x3005), (0x3007, 0x3007), (0x3041, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF),
              (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3134F),
              (0x1100, 0x11FF), (0x3131, 0x318F), (0xAC00, 0xD7A3))  # fmt: skip
_CJK = "".join(f"{chr(first)}-{chr(last)}" for first, last in CJK_RANGES)
_NON_CJK_WORD = re.compile(rf"(?:[^\W{_CJK}]|[{COMBINING_MARKS}'\-])+")  # the Latin (and other) words of CJK text
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_UNSPACED_LETTER = re.compile(f"[{UNSPACED_SCRIPTS}]")
_CLUSTER = re.compile(UNSPACED_LETTER)
# Cyrillic stress marks (``STRESS_MARKS``: "за́мок"), left out in Russian and in a book read as plain words
# (Ukrainian, Bulgarian)
_STRESS_MARKS = dict.fromkeys(map(ord, STRESS_MARKS))
# What Arabic and Hebrew readers write or leave out: the vowel points (harakat, niqqud) and cantillation, the
# tatweel that stretches a word, and the hamza on an alef (أ, إ, آ are ا), as Lucene's Arabic normalizer reads them
_OPTIONAL_POINTS = (
    {c: None for c in range(0x0591, 0x06EE) if unicodedata.category(chr(c)) == "Mn"}
    | {
        0x0640: None,
        0x0622: "\u0627",
        0x0623: "\u0627",
        0x0625: "\u0627",
    }
    | _STRESS_MARKS
)
_CHARACTER_FOLDS = (("\u2019", "'"), ("\u2018", "'"), ("\u02bc", "'"), ("`", "'"), ("\u2010", "-"), ("\u2011", "-"))
# The ligatures spelled out (``LIGATURES``): Madame Bovary's ELTeC file writes "cœur", Project Gutenberg's Le Tour
# du monde "coeur". Norwegian and Danish write æ as a letter of its own ("være"), and a book in a language
# ClueWeaver does not know may too (Icelandic), so theirs stay.
_LIGATURES = tuple(LIGATURES.items())
_LETTER_AE = frozenset({"no", UNDETERMINED})
_CHARACTER_AND_LIGATURE_FOLDS = _CHARACTER_FOLDS + _LIGATURES
_MEMO_LIMIT = 500_000  # words kept per analyzer: a few novels' vocabulary
# Russian before the 1918 reform, the spelling of most editions and archives of the time: its letters
# ѣ, і, ѳ, ѵ are today's е, и, ф, и; a word's final ъ went; adjectives ended in -аго, -яго, -ыя (today
# -ого, -его, -ые); prefixes kept their з before a voiceless consonant ("разсказъ", "безпокойство");
# "ея" is "её", "онѣ" and "однѣ" are "они" and "одни". E-texts typed in a codepage without "і" write
# the Latin "i" in its place ("Божiй"), read as "и" inside a Cyrillic word. Stress marks go (``_STRESS_MARKS``).
_RUSSIAN_LETTERS = str.maketrans("ёѣіѳѵѐѝ", "ееифиеи") | _STRESS_MARKS
_OLD_RUSSIAN_ENDINGS = (("аго", "ого"), ("яго", "его"), ("ыя", "ые"))
_OLD_RUSSIAN_PREFIX = re.compile("^(бе|во|в|и|ни|ра|ро|чре|чере)з(?=[кпстфхцчшщ])")
_OLD_RUSSIAN_WORDS = {"ея": "ее", "оне": "они", "одне": "одни"}
_CYRILLIC = re.compile("[а-я]")
# German before the 1901 orthography, as 19th-century editions print it (ELTeC's and the Deutsches
# Textarchiv's): "th" where today's German writes "t" ("Thür", "Theil", "Muth", "thun"), "dt" for "t"
# ("todt", "tödten"), and loan verbs in "-iren" for "-ieren" ("studiren", "passirt"). Folded alike in a
# book and a question; a word that keeps its "th" today (a name, "Theater") folds alike on both sides.
_OLD_GERMAN_LETTERS = re.compile("th|dt")
_OLD_GERMAN_VERB = re.compile("(?<=[^aeiouhw])ir(?=(?:en|end|ende|enden|t|te|ten|ter|tes|st)$)")
_OLD_GERMAN_VERB_LETTERS = 7  # a loan verb in "-iren" has seven letters or more; "Hirten" has six, "-wirt" is German
# Portuguese before the reforms of 1911 (Portugal) and 1943 (Brazil), as Gutenberg's Dom Casmurro and ELTeC's
# novels print it: Greek "ph", "th", "rh" and "y" ("pharmacia", "theatro", "lyrio"), doubled consonants
# ("elle", "annos", "commercio"; "rr" and "ss" are today's too), a silent "h" between vowels ("sahir",
# "comprehender"), "-ae" for "-ai" ("vae", "pae"; "mãe", accent-folded, and the old "mãi" meet as "mai").
_OLD_PORTUGUESE_SPELLINGS = {"ph": "f", "th": "t", "rh": "r", "y": "i"}
_OLD_PORTUGUESE_LETTERS = re.compile("ph|th|rh|y")
_OLD_PORTUGUESE_DOUBLE = re.compile(r"([bcdfglmnpt])\1")
_OLD_PORTUGUESE_SILENT_H = re.compile("(?<=[aeiou])h(?=[aeiou])")
_SURNAME_STEM_LETTERS = 4  # what a Russian stem keeps at least when its -ов/-ев goes (``_surname_stem``)
# The letters of a Latin or Cyrillic word kept in a language ClueWeaver has no stemmer for: 5 found all the evidence
# of the most tuning checks of fourteen languages read as if unknown (381 summed over the four paper presets,
# whole words 312; 4, 6 and 7 letters 374, 375, 329)
UNKNOWN_LANGUAGE_PREFIX = 5
# A term of lower-case Latin or Cyrillic letters, an elision's apostrophe or a compound's hyphen among them
_PREFIXED_WORD = re.compile("[a-z\u00df-\u024f\u0430-\u045f\u0491'-]+")
_BIGRAM_SHIFT = 21  # a code point has 21 bits: a bigram's key is (first << 21) | second


@dataclass(frozen=True)
class Analyzer:
    """Text to BM25 terms for one language (see the module's docstring)."""

    language: str
    stop_words: frozenset[str] = frozenset()
    stemmer: str | None = None  # a Snowball algorithm of PyStemmer
    accents: bool = False  # fold accents
    elisions: frozenset[str] = frozenset()
    morphemes: bool = False  # Japanese: words cut by MeCab and UniDic (``clueweaver.retrieval.morphology``)
    numbers: bool = True  # spelled numbers read as digits (``clueweaver.books.spelled_numbers``)
    prefix_letters: int | None = None  # a Latin or Cyrillic word cut to its first letters (``UNDETERMINED``)
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def cjk(self) -> bool:
        return self.language in CJK_LANGUAGES

    @property
    def bigrams(self) -> bool:
        """Whether CJK runs are read as character bigrams and unigrams (not cut into words)."""
        return self.cjk and not self.morphemes

    def normalize(self, text: str) -> str:
        """NFKC, case folding, one apostrophe and one hyphen, and œ and æ spelled out but where æ is a letter
        (``_LIGATURES``; Russian: "ё" and "ѣ" are "е", "і" is "и"). Case folding can leave a letter and its
        mark apart (polytonic "ῖ" folds to "ι" and a combining perispomeni), which would end a word at the
        mark, so they are composed again."""
        text = unicodedata.normalize("NFKC", text).casefold()
        if not text.isascii():
            text = unicodedata.normalize("NFC", text)
        for character, replacement in (
            _CHARACTER_FOLDS if self.language in _LETTER_AE else _CHARACTER_AND_LIGATURE_FOLDS
        ):
            if character in text:  # rare: cheaper than translating every character
                text = text.replace(character, replacement)
        if self.language == UNDETERMINED:
            return text.translate(_OPTIONAL_POINTS)
        if self.language == "zh":  # numbers as the novel writes them: "500两" is "五百两"
            text = chinese_numerals(text)
        if self.language in CHARACTER_FOLDS:
            return text.translate(character_fold(self.language))
        return text.translate(_RUSSIAN_LETTERS) if self.language == "ru" else text

    def words(self, normalized: str) -> list[str]:
        """The words of a normalized text: in Japanese its content words' dictionary forms; in
        Chinese those outside the CJK runs."""
        if self.morphemes:
            return japanese_words(normalized)
        if self.numbers and self.language in NUMBER_LANGUAGES:  # "two hundred and fifty" is "250", as typed
            return words_and_numbers(normalized, self.language, self._stop_word)
        return (_NON_CJK_WORD if self.cjk else WORDS).findall(normalized)

    def _stop_word(self, word: str) -> bool:
        """Whether a normalized word is one of the stop words (``_comparable``)."""
        return self._comparable(word) in self.stop_words

    def _comparable(self, word: str) -> str:
        """A normalized word as the stop words and the stemmer read it: its accents folded where the
        language folds them, in one spelling where the language writes it two ways (``_ONE_SPELLING``)."""
        word = fold_accents(word) if self.accents else word
        return _ONE_SPELLING[self.language](word) if self.language in _ONE_SPELLING else word

    def word_terms(self, word: str, *, memo: bool = True) -> tuple[str, ...]:
        """The terms of one normalized word, memoised (``memo``): a novel repeats most of its words,
        where the candidate parts of its compounds are seen once (``clueweaver.retrieval.compounds``)."""
        terms = self._memo.get(word)
        if terms is None:
            terms = self._word_terms(word)
            if memo and len(self._memo) < _MEMO_LIMIT:
                self._memo[word] = terms
        return terms

    def tokenize(self, text: str) -> list[str]:
        """A text's terms: its words' and (Chinese) its CJK runs'."""
        normalized = self.normalize(text)
        terms = list(chain.from_iterable(map(self.word_terms, self.words(normalized))))
        if self.bigrams:
            terms += chain.from_iterable(map(self._run_terms, _CJK_RUN.findall(normalized)))
        return terms

    def _word_terms(self, word: str) -> tuple[str, ...]:
        """A word's terms. Possessives and contractions keep their stem ("emma's" -> "emma", "don't"
        -> "don't"); elided articles go ("l'homme" -> "homme"); hyphenated words give the compound and
        its parts ("well-known" -> "well-known", "well", "known"). A Japanese word is its own term
        (``japanese_words`` gave its dictionary form; a one-kanji word is a word), a Latin one folded
        (folding kana would drop their voicing marks)."""
        if self.morphemes:
            if _CJK_RUN.search(word):
                value = numeral_word_value(word)  # "五百" is "500", as a question typed with digits writes it
                return (word if value is None else str(value),)
            return (fold_accents(word),)
        if not word.isascii() and _UNSPACED_LETTER.search(word):
            return _cluster_bigrams(word)
        if word.isalpha():  # most words: no apostrophe, hyphen or digit to handle
            parts = (word,)
        else:
            base = word.strip("'-_")
            base = base[:-2] if self.language == "en" and base.endswith("'s") else base
            elided, apostrophe, rest = base.partition("'")
            base = rest if apostrophe and elided in self.elisions else base
            parts = (base, *base.split("-")) if "-" in base else (base,)
            parts = tuple(p.strip("'_") for p in parts)
        kept = [
            p for p in map(self._comparable, parts) if p and p not in self.stop_words and (len(p) > 1 or p.isdigit())
        ]
        if self.prefix_letters:
            return tuple(p[: self.prefix_letters] if _PREFIXED_WORD.fullmatch(p) else p for p in kept)
        if not (self.stemmer and kept):
            return tuple(kept)
        stems = _stemmer(self.stemmer).stemWords(kept)
        return tuple(map(_surname_stem, stems)) if self.language == "ru" else tuple(stems)

    def _run_terms(self, run: str) -> list[str]:
        """A CJK run's unigrams (not function characters) and bigrams (not two function characters)."""
        function = [c in self.stop_words for c in run]
        unigrams = [c for c, f in zip(run, function) if not f]
        return unigrams + [run[i : i + 2] for i in range(len(run) - 1) if not (function[i] and function[i + 1])]

    def code_points(self, normalized: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The code points of normalized texts joined by newlines (a newline ends a CJK run, so no
        n-gram crosses two texts), with each one's text, whether it is CJK and whether it is a
        function character: (codes, text_of, cjk, function)."""
        joined = "\n".join(normalized)
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
        text_of = np.repeat(np.arange(len(normalized)), [len(t) + 1 for t in normalized])[: len(codes)]
        cjk = np.zeros(len(codes), dtype=bool)
        for first, last in CJK_RANGES:
            cjk |= (codes >= first) & (codes <= last)
        function = np.isin(codes, [ord(c) for c in self.stop_words if len(c) == 1])
        return codes, text_of, cjk, function

    def cjk_occurrences(self, normalized: Sequence[str]) -> tuple[np.ndarray, list[str], np.ndarray]:
        """Every CJK unigram and bigram of normalized texts, as ``_run_terms`` gives them, counted
        with numpy over the texts' code points (a novel has a million of them, few repeated runs):
        (the text of each occurrence, the distinct terms, each occurrence's term among them)."""
        codes, text_of, cjk, function = self.code_points(normalized)
        unigram = cjk & ~function
        bigram = cjk[:-1] & cjk[1:] & ~(function[:-1] & function[1:])
        keys = np.concatenate([codes[unigram], (codes[:-1][bigram] << _BIGRAM_SHIFT) | codes[1:][bigram]])
        texts = np.concatenate([text_of[unigram], text_of[:-1][bigram]])
        distinct, occurrence_term = np.unique(keys, return_inverse=True)
        low = (1 << _BIGRAM_SHIFT) - 1
        terms = [chr(k) if k <= low else chr(k >> _BIGRAM_SHIFT) + chr(k & low) for k in distinct.tolist()]
        return texts, terms, occurrence_term


def _cluster_bigrams(word: str) -> tuple[str, ...]:
    """A word of Thai, Lao, Tibetan, Myanmar or Khmer, which write no spaces between words (so a "word" here is a
    clause): the bigrams of its letters, each with its marks, as CJK runs are read (a one-letter run is itself)."""
    clusters = _CLUSTER.findall(word)
    return tuple(clusters) if len(clusters) == 1 else tuple(map("".join, zip(clusters, clusters[1:])))


@cache
def _stemmer(algorithm: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(algorithm)


def _surname_stem(stem: str) -> str:
    """A Russian stem without the possessive suffix -ов/-ев of surnames and place names. Snowball
    takes the nominative's suffix for a genitive plural ending ("базаров" -> "базар") but keeps it
    in every other case ("базарова", "базаровым" -> "базаров"), so a character named in one case
    never met the other; at least four letters stay ("слов", "голов" keep theirs)."""
    return stem[:-2] if len(stem) >= _SURNAME_STEM_LETTERS + 2 and stem.endswith(("ов", "ев")) else stem


def modern_russian(word: str) -> str:
    """A normalized Russian word (its letters already today's) in today's spelling: without a final
    ъ, its adjective ending and its prefix's з as the 1918 reform wrote them (``_OLD_RUSSIAN_ENDINGS``,
    ``_OLD_RUSSIAN_PREFIX``). A word in today's spelling comes back as it is, but for the few whose
    root looks like such a prefix ("низкий" is "ниский" here), which a book and a question fold alike."""
    word = word.replace("i", "и") if "i" in word and _CYRILLIC.search(word) else word
    word = word[:-1] if word.endswith("ъ") and len(word) > 1 else word
    word = _OLD_RUSSIAN_WORDS.get(word, word)
    for old, new in _OLD_RUSSIAN_ENDINGS:
        if word.endswith(old) and len(word) > len(old) + 2:
            word = word[: -len(old)] + new
            break
    return _OLD_RUSSIAN_PREFIX.sub(r"\1с", word)


def modern_german(word: str) -> str:
    """A normalized German word in the spelling of 1901 onwards (``_OLD_GERMAN_LETTERS``,
    ``_OLD_GERMAN_VERB``): "thür" is "tür", "todt" "tot", "studirt" "studiert"."""
    if "t" in word:
        word = _OLD_GERMAN_LETTERS.sub("t", word)
    if len(word) >= _OLD_GERMAN_VERB_LETTERS and "ir" in word:
        word = _OLD_GERMAN_VERB.sub("ier", word)
    return word


def modern_portuguese(word: str) -> str:
    """A normalized, accent-folded Portuguese word in the spelling of 1911 and 1943 onwards
    (``_OLD_PORTUGUESE_LETTERS``, ``_OLD_PORTUGUESE_DOUBLE``, ``_OLD_PORTUGUESE_SILENT_H``): "elle" is
    "ele", "annos" "anos", "theatro" "teatro", "lyrio" "lirio", "sahir" "sair", "vae" "vai"."""
    if len(word) < 3 or word.isdigit():
        return word
    word = _OLD_PORTUGUESE_LETTERS.sub(lambda m: _OLD_PORTUGUESE_SPELLINGS[m.group()], word)
    word = _OLD_PORTUGUESE_SILENT_H.sub("", _OLD_PORTUGUESE_DOUBLE.sub(r"\1", word))
    return word[:-1] + "i" if word.endswith("ae") else word


# The one spelling of a word written two ways: each language's old spelling today's, British English American
_ONE_SPELLING = {"ru": modern_russian, "de": modern_german, "pt": modern_portuguese, "en": american_spelling}


@cache
def plain_analyzer(language: str) -> Analyzer:
    """``language``'s analyzer with its stop words (and CJK function characters) kept: the units of
    the plain-BM25 baseline, which never left words out (``clueweaver.evaluation.retrieval``).
    Japanese keeps character bigrams there, the baseline's units for CJK, not MeCab's words; spelled
    numbers stay words, as plain BM25 reads them."""
    return dataclasses.replace(
        analyzer_for(language), stop_words=frozenset(), morphemes=False, numbers=False, _memo={}
    )


@cache
def analyzer_for(language: str) -> Analyzer:
    """The analyzer of a supported language, or the plain word analyzer for ``UNDETERMINED``."""
    if language == UNDETERMINED:
        return Analyzer(UNDETERMINED, prefix_letters=UNKNOWN_LANGUAGE_PREFIX)
    if language not in SUPPORTED_LANGUAGES:
        raise ValueError(f"unknown language {language!r}; use one of {', '.join(SUPPORTED_LANGUAGES)}")
    analyzer = Analyzer(language, frozenset(), STEMMERS.get(language), language in ACCENT_FOLDED,
                        ELISIONS.get(language, frozenset()), morphemes=language in MORPHEME_LANGUAGES)  # fmt: skip
    stop_words = (analyzer.normalize(word) for word in STOP_WORD_LISTS.get(language, ()))
    fold = analyzer.accents and not analyzer.cjk  # CJK function characters are kana and Han, never folded
    folded = frozenset(fold_accents(word) if fold else word for word in stop_words)
    return dataclasses.replace(analyzer, stop_words=folded)
