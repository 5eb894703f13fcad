"""The names a question writes in Latin letters, found as a book in another script writes them: "Lin
Daiyu" is 林黛玉 in 红楼梦 (the pinyin of the book's own characters), "Sanshiro" is 三四郎 in 三四郎 (the
romaji of the nouns MeCab reads in the book), "Bazarov" is Базаров in Отцы и дети (the book's
capitalized words transliterated), and so is German's "Basarow"; "Jeonghui" is 정희 in 청춘 (the
Revised Romanization of the book's words' first syllables, which McCune-Reischauer's "Chŏnghŭi" shares).

An English question about a Chinese, Japanese, Korean or Russian novel shares no word with it, so BM25 ranks nothing
and only a multilingual encoder could read it (slow on a CPU: minutes for a European novel, 25 for
红楼梦). Its names are what it does share, by sound: read in the book's script they go into the
BM25 query (``RetrievalIndex.rank_question``) and the trace names each one
(``Candidates.names_read``). A name counts when the book writes it ``MIN_OCCURRENCES`` times or
more; a Chinese one needs two syllables at least ("Jia" alone could be any of forty characters).
The numbers such a question spells ("ten thousand taels") are shared too: in a Chinese or Japanese
book they are read in digits, which its analyzer writes as the book's numerals (一万).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Sequence

import numpy as np
from pypinyin.pinyin_dict import pinyin_dict

from clueweaver.books.language import HAN, fold_accents
from clueweaver.books.spelled_numbers import spelled_numbers
from clueweaver.retrieval.morphology import noun_readings

SCRIPT_LANGUAGES = ("zh", "ja", "ru", "ko")  # the book languages whose names a Latin question can be read in
NUMERAL_LANGUAGES = ("zh", "ja")  # whose analyzers read digits as the book's numerals (books/numerals.py)
MIN_SPELLED_NUMBER = 10  # two numerals at least ("十三", "二十"): "one" or "three" alone is 一 or 三, everywhere
MIN_OCCURRENCES = 3
MAX_FORMS = 2  # the forms kept for one name: its most frequent, and one at least a fifth as frequent
_MIN_SHARE = 0.2
_MAX_WORDS = 3  # "Jia Bao Yu" at most
_MAX_SYLLABLES = 5  # a Chinese name or place: 2-4 characters, "Huaguoshan" 3
_MAX_MASKS = 64  # the syllables whose places in the book are kept between questions (a book's length each)
_MAX_SPLITS = 16  # the ways of splitting one name into syllables that are looked up (most have one to four)
# "Daiyu", "Chang'an", "Baoyu's", and Hawkes's "Bao-yu", "Xi-feng" (a hyphen inside a name parts its syllables)
# and with its marks: tones ("Lín Dàiyù"), Wade-Giles's ü and aspiration ("Pao-yü", "T'ang"), long vowels ("Sanshirō"),
# McCune-Reischauer's breves ("Chŏnghŭi")
_LATIN_UPPER, _LATIN_LOWER = "A-ZÀ-ÖØ-ÞĀĒĪŌŪŎŬ", "a-zß-öø-ÿāēīōūǎěǐǒǔǖǘǚǜŏŭ"
_LATIN_WORD = re.compile(rf"\b[{_LATIN_UPPER}]['’]?[{_LATIN_LOWER}]+(?:['’-][{_LATIN_LOWER}]+)*(?:['’]s)?\b")
_HAN_CHARACTER = re.compile(rf"[{HAN}]")
_CYRILLIC_NAME = re.compile(r"\b[А-ЯЁ][а-яё]{2,}\b")
_CYRILLIC_LATIN = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "a b v g d e e zh z i i k l m n o p r s t u f kh ts ch sh shch _ y _ e yu ya".split(),
    )
)  # "_": the hard and soft signs, which no transliteration writes


@dataclass(frozen=True)
class BridgedName:
    """A name as the question writes it and the forms the book writes it in."""

    asked: str
    written: tuple[str, ...]


class NameBridge:
    """The names of one book that a question in Latin letters can be read in (``names``)."""

    def __init__(self, texts: Sequence[str], language: str) -> None:
        if language not in SCRIPT_LANGUAGES:
            raise ValueError(f"names are read across scripts for {', '.join(SCRIPT_LANGUAGES)}, not {language!r}")
        self.language = language
        self._text = "\n".join(texts)
        if language == "zh":
            self._codes = np.frombuffer(self._text.encode("utf-32-le"), dtype=np.uint32)
            self._by_syllable = _characters_by_syllable(set(_HAN_CHARACTER.findall(self._text)))
            self._masks: dict[str, np.ndarray] = {}
        else:
            self._by_key = _NAMES_BY_KEY[language](self._text)

    def names(self, text: str) -> list[BridgedName]:
        """The names ``text`` writes in Latin letters that the book writes in its script (``_names``),
        and in a Chinese or Japanese book the numbers it spells in English, in digits, which the book's
        analyzer reads as its numerals ("ten thousand taels": 10000, 一万)."""
        spelled = english_numbers(text) if self.language in NUMERAL_LANGUAGES else []
        return self._names(text) + [BridgedName(words, (str(value),)) for words, value in spelled]

    def _names(self, text: str) -> list[BridgedName]:
        """The names ``text`` writes in Latin letters that the book writes in its script, longest first
        where they overlap ("Jia Baoyu" before "Baoyu"), each as often as ``text`` writes it (as the
        question's own words, a name asked twice weighs twice in the query)."""
        runs = _latin_runs(text)
        if self.language in ("ja", "ru"):
            return [name for run in runs for word in run if (name := self._by_sound(word))]
        words_read = self._chinese if self.language == "zh" else self._korean  # a name of one to three words
        found: list[BridgedName] = []
        for run in runs:
            start = 0
            while start < len(run):
                for length in range(min(_MAX_WORDS, len(run) - start), 0, -1):
                    if name := words_read(run[start : start + length]):
                        found.append(name)
                        start += length
                        break
                else:
                    start += 1
        return found

    def _chinese(self, words: list[str]) -> BridgedName | None:
        syllables = [_pinyin_syllables(fold_accents(_bare(word))) for word in words]
        counts: Counter = Counter()
        usual: set[str] = set()  # the forms read in each character's first reading ("亲姐" is qin jie, not "qingxu")
        for combination in _products(syllables)[:_MAX_SPLITS]:
            if 2 <= len(combination) <= _MAX_SYLLABLES:
                found = self._han_ngrams(combination)
                counts.update(found)
                usual.update(form for form in found if tuple(map(_first_reading, form)) == combination)
        return _bridged(" ".join(words), counts, usual)

    def _han_ngrams(self, syllables: tuple[str, ...]) -> Counter:
        """How often the book writes each run of characters that reads ``syllables`` in order."""
        size = len(syllables)
        if len(self._codes) < size:
            return Counter()
        if any(syllable not in self._by_syllable for syllable in syllables):
            return Counter()
        stop = len(self._codes) - size + 1
        starts = np.ones(stop, dtype=bool)
        for offset, syllable in enumerate(syllables):
            starts &= self._mask(syllable)[offset : stop + offset]
        return Counter(self._text[i : i + size] for i in np.flatnonzero(starts).tolist())

    def _mask(self, syllable: str) -> np.ndarray:
        """Where the book has a character that reads ``syllable`` (kept: a question's names share syllables)."""
        if syllable not in self._masks:
            if len(self._masks) >= _MAX_MASKS:  # a book's worth of characters each: keep the latest
                self._masks.pop(next(iter(self._masks), None), None)  # (another thread may have taken it)
            characters = self._by_syllable[syllable]
            table = np.zeros(int(characters.max()) + 1, dtype=bool)
            table[characters] = True
            self._masks[syllable] = table[np.minimum(self._codes, len(table) - 1)] & (self._codes < len(table))
        return self._masks[syllable]

    def _korean(self, words: list[str]) -> BridgedName | None:
        """A Korean name written in one to three words ("Eom Yeongrok", "Jeonghui"): the first syllables
        of the book's words that romanize as the words joined."""
        key = korean_key("".join(map(_bare, words)))
        return _bridged(" ".join(words), self._by_key.get(key, Counter())) if len(key) >= _MIN_KOREAN_KEY else None

    def _by_sound(self, word: str) -> BridgedName | None:
        """A Russian or Japanese name: the book's words whose transliteration has ``word``'s key (a
        Russian one's first reading that the book writes, ``russian_readings``)."""
        if self.language == "ja":
            keys = [romaji_key(_bare(word))]
        else:
            keys = list(dict.fromkeys(map(phonetic_key, russian_readings(fold_accents(_bare(word))))))
        for key in keys:
            if len(key) >= 4 and (name := _bridged(word, self._by_key.get(key, Counter()))):
                return name
        return None


def _bridged(asked: str, counts: Counter, usual: set[str] | None = None) -> BridgedName | None:
    """The forms the book writes ``MIN_OCCURRENCES`` times or more, the ``usual`` ones (when any is)
    first, then by frequency: the first and at most one more at least a fifth as frequent."""
    ranked = [(form, n) for form, n in counts.most_common() if n >= MIN_OCCURRENCES]
    preferred = [(form, n) for form, n in ranked if usual and form in usual]
    ranked = preferred or ranked
    if not ranked:
        return None
    top = ranked[0][1]
    return BridgedName(asked, tuple(form for form, n in ranked[:MAX_FORMS] if n >= _MIN_SHARE * top))


def writes_latin_names(text: str) -> bool:
    """Whether ``text`` writes a capitalized word in Latin letters: without one there is no name to
    read, and no book's names need working out."""
    return _LATIN_WORD.search(text) is not None


def _latin_runs(text: str) -> list[list[str]]:
    """The capitalized Latin words of ``text`` in runs of words one space or hyphen apart."""
    runs: list[list[str]] = []
    end = -1
    for match in _LATIN_WORD.finditer(text):
        if runs and text[end : match.start()] in (" ", "-"):
            runs[-1].append(match.group())
        else:
            runs.append([match.group()])
        end = match.end()
    return runs


def english_numbers(text: str) -> list[tuple[str, int]]:
    """The numbers ``text`` spells in English words ("ten thousand", "eighty-three", "a hundred and
    fifty"), each as written with its value, from ``MIN_SPELLED_NUMBER`` on."""
    return [(words, value) for words, value in spelled_numbers(text, "en") if value >= MIN_SPELLED_NUMBER]


def _bare(word: str) -> str:
    """A word without its possessive, in lower case, its apostrophes straight ("Chang’an" -> "chang'an")."""
    return re.sub(r"['’]s$", "", word).replace("’", "'").lower()


def _products(choices: list[list[tuple[str, ...]]]) -> list[tuple[str, ...]]:
    combined: list[tuple[str, ...]] = [()]
    for options in choices:
        combined = [done + option for done in combined for option in options]
    return combined


# ---------------------------------------------------------------- Chinese: pinyin


@cache
def _readings() -> dict[int, frozenset[str]]:
    """Every character's toneless pinyin readings (pypinyin's table of single characters)."""
    return {code: frozenset(map(fold_accents, readings.split(","))) for code, readings in pinyin_dict.items()}


def _first_reading(character: str) -> str | None:
    readings = _first_readings()
    return readings.get(ord(character))


@cache
def _first_readings() -> dict[int, str]:
    """Every character's usual reading: pypinyin lists it first ("亲": qin before qing)."""
    return {code: fold_accents(readings.split(",")[0]) for code, readings in pinyin_dict.items()}


@cache
def _syllables() -> frozenset[str]:
    return frozenset(s for readings in _readings().values() for s in readings)


def _characters_by_syllable(characters: set[str]) -> dict[str, np.ndarray]:
    """The book's characters that can be read as each syllable, as code points."""
    readings = _readings()
    by_syllable: dict[str, list[int]] = {}
    for character in characters:
        for syllable in readings.get(ord(character), ()):
            by_syllable.setdefault(syllable, []).append(ord(character))
    return {syllable: np.array(codes, dtype=np.uint32) for syllable, codes in by_syllable.items()}


def _pinyin_syllables(word: str) -> list[tuple[str, ...]]:
    """Every way ``word`` splits into pinyin syllables ("xian": ("xian",) and ("xi", "an")); an
    apostrophe or a hyphen ends a syllable ("chang'an", "bao-yu"); and, read as Wade-Giles, its
    syllables' pinyin ("hsi-feng": ("xi", "feng")). None for a word that is neither ("Taoist")."""
    splits: list[tuple[str, ...]] = [()]
    for piece in re.split(r"['-]", word):
        splits = [done + rest for done in splits for rest in _split(piece)]
    wade_giles = [_wade_giles(syllable) for syllable in word.split("-")]
    return list(dict.fromkeys(splits + _products([[(s,) for s in options] for options in wade_giles])))


# Wade-Giles, the romanization of older translations and scholarship ("Chia Pao-yü", "Hsi-feng", "Sun
# Wu-k'ung"): its initials as pinyin's, the longest first, and its finals that pinyin writes otherwise.
_WADE_GILES_INITIALS = (
    ("ch'", ("ch", "q")), ("ch", ("zh", "j")), ("hs", ("x",)), ("ts'", ("c",)), ("tz'", ("c",)), ("ts", ("z",)),
    ("tz", ("z",)), ("k'", ("k",)), ("k", ("g",)), ("p'", ("p",)), ("p", ("b",)), ("t'", ("t",)), ("t", ("d",)),
    ("j", ("r",)),
)  # fmt: skip
_WADE_GILES_FINALS = (("ih", ("i",)), ("ung", ("ong",)), ("eh", ("e",)), ("en", ("en", "an")), ("o", ("o", "e", "uo")))
_WADE_GILES_WHOLE = {"ssu": ("si",), "szu": ("si",), "tzu": ("zi",), "tz'u": ("ci",), "erh": ("er",), "i": ("yi",),
                     "yu": ("yu", "you")}  # fmt: skip


@cache
def _wade_giles(syllable: str) -> tuple[str, ...]:
    """The pinyin syllables a Wade-Giles syllable can be ("chia": jia; "k'ung": kong; "ssu": si; "yu",
    which is "yü" or "yu" once its marks are gone: yu or you); none when it is no syllable either way."""
    if syllable in _WADE_GILES_WHOLE:
        return _WADE_GILES_WHOLE[syllable]
    rest, initials = next(
        ((syllable[len(wg) :], options) for wg, options in _WADE_GILES_INITIALS if syllable.startswith(wg)),
        (syllable, ("",)),
    )
    rests = {rest} | {
        rest[: len(rest) - len(wg)] + end for wg, ends in _WADE_GILES_FINALS if rest.endswith(wg) for end in ends
    }
    return tuple(sorted(c for c in (initial + r for initial in initials for r in rests) if c in _syllables()))


@cache
def _split(letters: str) -> tuple[tuple[str, ...], ...]:
    if not letters:
        return ((),)
    syllables = _syllables()
    return tuple(
        (letters[:end], *rest)
        for end in range(min(6, len(letters)), 0, -1)
        if letters[:end] in syllables
        for rest in _split(letters[end:])
    )


# ---------------------------------------------------------------- Russian: transliteration


_GERMAN_SOUNDS = {"tsch": "ch", "sch": "sh", "ch": "kh", "z": "ts"}
_GERMAN_LETTERS = re.compile("tsch|sch|ch|z")
_FRENCH_SOUNDS = {"tch": "ch", "ch": "sh"}
_FRENCH_LETTERS = re.compile("tch|ch|gu(?=[eiy])")  # gu before e or i: its g alone (Sergueï)
_FRENCH_SEMIVOWEL = re.compile("(?<=[aeiou])i(?=[aeiou])")  # ï between vowels, its mark folded: й (Sergueïevna)
_SINGLE_S_BETWEEN_VOWELS = re.compile("(?<=[aeiouy])s(?=[aeiouy])")  # з; с is ss there (Wassili, Vassili)


def phonetic_key(latin: str) -> str:
    """A name in Latin letters reduced to what its English, French and German transliterations share
    ("Yevgeny", "Evgenii", "Jewgeni" and Евгений's "evgenii" are all "evgeni"; "Kirsanoff" and
    "kirsanov" "kirsanov"; German "Kukschina" and "Kukshina" "kukshina"; "Petrovitch" and "Petrovich"
    "petrovich"). Where their letters differ in sound, ``russian_readings`` reads a word each way."""
    key = latin.lower().replace("'", "").replace("-", "")
    spellings = (("tsch", "ch"), ("tch", "ch"), ("sch", "sh"), ("ck", "k"), ("x", "ks"), ("w", "v"), ("ph", "f"),
                 ("ou", "u"), ("kh", "h"), ("ff", "v"))  # fmt: skip
    for spelling, sound in spellings:
        key = key.replace(spelling, sound)
    key = re.sub(r"^ye|(?<=[aeiou])ye", "e", key.replace("j", "y")).replace("y", "i")
    return re.sub(r"(.)\1+", r"\1", key)  # doubled letters once: "ii" (-ий) and "i", "ss" and "s"


def russian_readings(word: str) -> tuple[str, ...]:
    """A lower-case Latin word as English, German and French transliterations of Russian write it, each
    in English's letters (``phonetic_key`` folds the rest). German writes х as ch, ц as z and з as a single
    s between vowels (Michail, Odinzowa, Basarow); French ш as ch, з as a single s between vowels, й as i
    between vowels and г as gu before e and i (Koukchina, Sergueïevna). A German genitive ("Basarows
    Vater") is not read: the main characters' names it adds lowered the tuning set's recall."""
    german = _GERMAN_LETTERS.sub(lambda m: _GERMAN_SOUNDS[m.group()], word)
    french = _FRENCH_LETTERS.sub(lambda m: _FRENCH_SOUNDS.get(m.group(), m.group()[0]), word)
    french = _FRENCH_SEMIVOWEL.sub("y", french)
    return (word, *(_SINGLE_S_BETWEEN_VOWELS.sub("z", reading) for reading in (german, french)))


def _cyrillic_names(text: str) -> dict[str, Counter]:
    """The book's capitalized words by the phonetic key of their transliteration."""
    by_key: dict[str, Counter] = {}
    for word, count in Counter(_CYRILLIC_NAME.findall(text)).items():
        latin = "".join(_CYRILLIC_LATIN.get(c, c) for c in word.lower()).replace("_", "")
        by_key.setdefault(phonetic_key(latin), Counter())[word] += count
    return by_key


# ---------------------------------------------------------------- Japanese: romaji

_KANA = dict(
    zip(
        "アイウエオカキクケコガギグゲゴサシスセソザジズゼゾタチツテトダヂヅデドナニヌネノハヒフヘホバビブベボ"
        "パピプペポマミムメモヤユヨラリルレロワヰヱヲンヴ",
        "a i u e o ka ki ku ke ko ga gi gu ge go sa shi su se so za ji zu ze zo ta chi tsu te to da ji zu de do "
        "na ni nu ne no ha hi fu he ho ba bi bu be bo pa pi pu pe po ma mi mu me mo ya yu yo ra ri ru re ro "
        "wa i e o n vu".split(),
    )
)
_SMALL_Y = {"ャ": "a", "ュ": "u", "ョ": "o"}  # after an i-row kana: キャ kya, シャ sha
_SMALL_VOWELS = {"ァ": "a", "ィ": "i", "ゥ": "u", "ェ": "e", "ォ": "o"}  # ファ fa, ティ ti


def hepburn(katakana: str) -> str:
    """A pronunciation in katakana in Hepburn romaji, long vowels written once (サンシロー: sanshiro)."""
    out = ""
    double = False
    for kana in katakana:
        if kana in _SMALL_Y and out.endswith("i"):
            out = out[:-1] + ("" if out[-3:-1] in ("sh", "ch") or out.endswith("ji") else "y") + _SMALL_Y[kana]
        elif kana in _SMALL_VOWELS and out:
            out = out[:-1] + _SMALL_VOWELS[kana]
        elif kana == "ッ":
            double = True
        elif kana in _KANA:
            romaji = _KANA[kana]
            out += (romaji[0] if double and romaji[0] not in "aiueon" else "") + romaji
            double = False
    return out


def romaji_key(romaji: str) -> str:
    """A Japanese name in romaji reduced to what Hepburn, Kunrei and a reader's spelling share
    ("Sanshirō", "Sanshirou", "Sanshiro" and サンシロー's "sanshiro"; "Sensei" and センセー's "sense")."""
    key = fold_accents(romaji.lower())
    key = key.replace("'", "").replace("-", "")
    for spelling, sound in (("shi", "si"), ("chi", "ti"), ("tsu", "tu"), ("fu", "hu"), ("ji", "zi"), ("sh", "sy"),
                            ("ch", "ty"), ("j", "zy"), ("ou", "o"), ("ei", "e")):  # fmt: skip
        key = key.replace(spelling, sound)
    key = re.sub(r"m(?=[bpm])", "n", key)  # "Shimbashi" and "Shinbashi"
    return re.sub(r"([aeiou])\1+", r"\1", key)  # long vowels once: "oo", "uu"


def _japanese_names(text: str) -> dict[str, Counter]:
    """The book's nouns, alone and two in a row (names MeCab cuts in two), by the key of their romaji."""
    by_key: dict[str, Counter] = {}
    words = noun_readings(text)
    for (surface, reading), (next_surface, next_reading) in zip(words, [*words[1:], ("", None)]):
        if reading is None:
            continue
        by_key.setdefault(romaji_key(hepburn(reading)), Counter())[surface] += 1
        if next_reading is not None:
            pair = romaji_key(hepburn(reading + next_reading))
            by_key.setdefault(pair, Counter())[surface + next_surface] += 1
    return by_key


# ---------------------------------------------------------------- Korean: Revised Romanization

# A Hangul syllable is (initial, medial, final): 0xAC00 + (initial * 21 + medial) * 28 + final
_KOREAN_INITIALS = "g kk n d tt r m b pp s ss _ j jj ch k t p h".split()  # "_": ㅇ, silent
_KOREAN_MEDIALS = "a ae ya yae eo e yeo ye o wa wae oe yo u wo we wi yu eu ui i".split()
_KOREAN_FINALS = "_ k k k n n n t l k m l l l p l m p p t t ng t t k t p t".split()  # "_": none
_HANGUL_WORD = re.compile("[\uac00-\ud7a3]+")
_KOREAN_NAME_SYLLABLES = (2, 3)  # a given name, or a surname and a given name: a word's first syllables
_KOREAN_VOICING = str.maketrans("gdbr", "ktpl")
# Keys of four letters are words as often as names: an English question's "Jane" and "Iron" read as 자네 ("you")
# and 이런 ("such") in 청춘; from five, "Ilbok" is 일복 and "Kim Uil" 김우일 ("Uil" alone is not read)
_MIN_KOREAN_KEY = 5


def revised_romanization(hangul: str) -> str:
    """Hangul syllables in the Revised Romanization, syllable by syllable, as names are written
    (정희: jeonghui, 일복: ilbok; no sound change across syllables)."""
    out = []
    for syllable in hangul:
        code = ord(syllable) - 0xAC00
        initial, medial, final = code // 588, code % 588 // 28, code % 28
        out.append((_KOREAN_INITIALS[initial] + _KOREAN_MEDIALS[medial] + _KOREAN_FINALS[final]).replace("_", ""))
    return "".join(out)


def korean_key(latin: str) -> str:
    """A Korean name in Latin letters reduced to what the Revised and McCune-Reischauer romanizations
    share: voicing (g and k, d and t, b and p, j and ch), ŏ and eo, ŭ and eu, l and r ("Jeonghui" and
    "Chŏnghŭi" are "conghui"; "Dongjin" and "Tongjin" "tongcin")."""
    key = fold_accents(latin.lower()).replace("'", "").replace("-", "")
    for spelling, sound in (("eo", "o"), ("eu", "u"), ("ch", "c"), ("j", "c"), ("sh", "s"), ("ng", "N")):
        key = key.replace(spelling, sound)
    return re.sub(r"(.)\1+", r"\1", key.translate(_KOREAN_VOICING).replace("N", "ng"))


def _korean_names(text: str) -> dict[str, Counter]:
    """The first two and three syllables of the book's words (a name with its particles: 정희가, 엄영록이),
    by the key of their romanization."""
    by_key: dict[str, Counter] = {}
    for word, count in Counter(_HANGUL_WORD.findall(text)).items():
        for size in _KOREAN_NAME_SYLLABLES:
            if len(word) >= size:
                by_key.setdefault(korean_key(revised_romanization(word[:size])), Counter())[word[:size]] += count
    return by_key


# How the book's names are found by the key of their Latin letters, per language (Chinese: by pinyin syllables)
_NAMES_BY_KEY = {"ja": _japanese_names, "ru": _cyrillic_names, "ko": _korean_names}
