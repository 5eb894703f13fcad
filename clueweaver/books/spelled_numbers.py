"""Spelled numbers read as digits, so that a question typed with digits meets a novel that spells its
numbers, and the reverse: "£250" and "two hundred and fifty pounds", "42 anos" and "quarenta e dous
annos", "20 000 livres" and "vingt mille livres", "3000 Taler" and "dreitausend Taler", "250 kronor" and
"tvåhundrafemtio kronor", "250 de lei" and "două sute cincizeci de lei" give one term.

The analyzers of ``NUMBER_LANGUAGES`` (every word language) read a text's words through ``words_and_numbers``
before their stop words and stemmers (Chinese writes a question's digits in Chinese numerals and Japanese reads
its kanji numerals as digits instead: ``clueweaver.retrieval.analyzers``), and the open-answer F1 compares an
answer's numbers with its reference's by value (``with_digits``, ``clueweaver.protocol.text``). A number is read
from its words: the cardinals one to ninety-nine (``clueweaver.books.cardinals``, English's from
``clueweaver.books.numerals``), their declined forms where a language declines them (Russian, Polish, Czech), the
hundreds, and the words for thousand and million, joined as each language joins them ("and", "et", "e", "und",
"og"), German's, Italian's, Swedish's, Norwegian's and Hungarian's written as one word ("zweihundertfünfzig",
"duecentocinquantamila", "tvåhundrafemtio", "tohundreogfemti", "kétszázötven"). A digit group typed with a
thousands separator ("20,000", "20 000", "20.000") is one number. An article before a hundred, thousand or million
is one ("a hundred", "un millón", "ett tusen"); alone, like any number word that is a stop word of its language
("one", Italian "sei", Russian "три"), it stays a word. Hungarian's suffixed forms ("hármat", "háromszor") stay
words.
"""

from __future__ import annotations

import re
from typing import Callable

from clueweaver.books.cardinals import CARDINAL_WORDS
from clueweaver.books.language import COMBINING_MARKS, fold_accents
from clueweaver.books.numerals import ENGLISH_TENS, ENGLISH_UNITS
from clueweaver.books.ordinals import ordinal_value


def _with_folded(forms: dict) -> dict:
    """The forms case-folded as the analyzers fold them (Greek's final "ς" is "σ"), and their
    accent-folded spellings ("millón", "millon"), as a question may type them."""
    forms = {form.casefold(): value for form, value in forms.items()}
    return forms | {fold_accents(form): value for form, value in forms.items()}


_ENGLISH = {word: n for word, n in ENGLISH_UNITS.items() if n} | ENGLISH_TENS
_ENGLISH |= {
    f"{ten} {unit}": t + u for ten, t in ENGLISH_TENS.items() for unit, u in ENGLISH_UNITS.items() if 0 < u < 10
}
# Portuguese before the 20th century wrote "dous" and "cincoenta" (Dom Casmurro: "quarenta e dous annos")
_OLD_PORTUGUESE = {
    form.replace("dois", "dous").replace("cinquenta", "cincoenta"): n
    for form, n in CARDINAL_WORDS["pt"].items()
    if "dois" in form or "cinquenta" in form
}


def _russian_cases() -> dict[str, int]:
    """Russian's cardinals in the oblique cases a sentence declines them into ("из ста тысяч франков",
    "не меньше восьмидесяти тысяч", "с пятью рублями"): the genitive, dative, instrumental and
    prepositional forms beside the nominative ones of ``CARDINAL_WORDS``."""
    forms = {"двух": 2, "двум": 2, "двумя": 2, "трех": 3, "трем": 3, "тремя": 3, "четырех": 4, "четырем": 4,
             "четырьмя": 4, "сорока": 40, "девяноста": 90}  # fmt: skip
    for word, n in CARDINAL_WORDS["ru"].items():
        if " " in word:  # a ten and its unit decline apart: ``_ten`` reads them in turn
            continue
        if word.endswith("ьдесят"):  # 50-80: both halves decline ("пятидесяти", "пятьюдесятью")
            forms[word[:-6] + "идесяти"] = forms[word[:-6] + "ьюдесятью"] = n
        elif word.endswith("ь"):  # 5-20 and 30 ("пяти", "пятью")
            forms[word[:-1] + "и"] = forms[word + "ю"] = n
    return {form.replace("восеми", "восьми"): n for form, n in forms.items()}  # "восьми", "восьмидесяти"


def _polish_cases() -> dict[str, int]:
    """Polish's cardinals in the oblique cases ("po pięciu latach", "z dwoma synami", "dwudziestu pięciu"): two to
    four in their own forms, five up from one stem with "-u" and "-oma"."""
    forms = {"dwóch": 2, "dwu": 2, "dwom": 2, "dwoma": 2, "dwiema": 2, "dwaj": 2, "trzech": 3, "trzem": 3,
             "trzema": 3, "trzej": 3, "czterech": 4, "czterem": 4, "czterema": 4, "czterej": 4}  # fmt: skip
    units = "pięci sześci siedmi ośmi dziewięci dziesięci jedenast dwunast trzynast czternast piętnast szesnast"
    stems = dict(enumerate((units + " siedemnast osiemnast dziewiętnast").split(), start=5))
    tens = "dwudziest trzydziest czterdziest pięćdziesięci sześćdziesięci siedemdziesięci osiemdziesięci"
    stems |= {10 * t: stem for t, stem in enumerate((tens + " dziewięćdziesięci").split(), start=2)}
    return forms | {stem + end: n for n, stem in stems.items() for end in ("u", "oma")}


def _czech_cases() -> dict[str, int]:
    """Czech's cardinals in the oblique cases ("před pěti lety", "s dvěma bratry", "dvaceti"): two to four in
    their own forms, five up (a one-word compound too: "pětadvaceti") with "-i", nine's "devíti"."""
    forms = {"dvou": 2, "dvěma": 2, "tří": 3, "třech": 3, "třem": 3, "třemi": 3, "čtyř": 4, "čtyřech": 4,
             "čtyřem": 4, "čtyřmi": 4}  # fmt: skip
    for word, n in CARDINAL_WORDS["cs"].items():
        if n >= 5 and " " not in word:
            forms[word[:-2] + "íti" if word.endswith("devět") else word + "i"] = n
    return forms


# Each hundred from two hundred as one word, where a language has them, in their masculine and feminine forms
_HUNDREDS = {
    "es": "doscient trescient cuatrocient quinient seiscient setecient ochocient novecient",
    "pt": "duzent trezent quatrocent quinhent seiscent setecent oitocent novecent",
    "el": "διακόσι τριακόσι τετρακόσι πεντακόσι εξακόσι επτακόσι οκτακόσι εννιακόσι",
}
_HUNDRED_ENDINGS = {"es": ("os", "as"), "pt": ("os", "as"), "el": ("α", "οι", "ες")}
_ONE_HUNDRED = {"es": ("cien", "ciento"), "pt": ("cem", "cento"), "el": ("εκατό", "εκατόν")}
_RUSSIAN_HUNDREDS = "сто двести триста четыреста пятьсот шестьсот семьсот восемьсот девятьсот".split()
_RUSSIAN_HUNDREDS_OF = "двух трех четырех пяти шести семи восьми девяти".split()  # "двухсот", "пятистах"
# The word that multiplies the number before it by a hundred ("two hundred", "deux cents")
HUNDRED_TIMES = {"en": {"hundred"}, "fr": {"cent", "cents"}, "de": {"hundert"}, "sv": {"hundra"},
                 "no": {"hundre", "hundrede"}, "ro": {"sută", "suta", "sute"}, "cs": {"stě", "sta", "set"},
                 "hu": {"száz"}}  # fmt: skip
# The words for a thousand and a million: first those that stand alone ("mille fois", "тысячу раз"), then
# after a "|" those that follow a number only ("millions" alone is no number; Russian's "тысяч" follows one)
_THOUSAND = {"en": "thousand", "fr": "mille mil", "de": "tausend", "es": "mil", "it": "mille | mila", "pt": "mil",
             "ru": "тысяча тысячу тысячей | тысячи тысяч тысячам тысячами тысячах",
             "el": "χίλια χίλιοι χίλιες | χιλιάδες", "sv": "tusen", "no": "tusen tusind",
             "ro": "| mii mie", "pl": "tysiąc tysiąca tysiącem | tysiące tysięcy tysiącach tysiącami tysiącom",
             "cs": "tisíc | tisíce tisíci tisících tisícům", "hu": "ezer"}  # fmt: skip
# (Romanian "mie" alone is "to me": "o mie", a thousand, stays words)
_MILLION = {"en": "million | millions", "fr": "million | millions", "de": "million | millionen",
            "es": "millón | millones", "it": "milione | milioni", "pt": "milhão | milhões",
            "ru": "миллион | миллиона миллионов миллионам миллионами миллионах",
            "el": "εκατομμύριο | εκατομμύρια", "sv": "miljon | miljoner", "no": "million | millioner",
            "ro": "milion | milioane", "pl": "milion miliona | miliony milionów milionach milionami",
            "cs": "milion milionu | miliony milionů milionech", "hu": "millió"}  # fmt: skip
# The cardinals one to ninety-nine of each language whose text's numbers are read (``CARDINAL_WORDS`` spells more
# languages', which only a chapter's mention reads)
_SMALL = {language: CARDINAL_WORDS.get(language, {}) for language in _THOUSAND}
_SMALL |= {"en": _ENGLISH, "pt": CARDINAL_WORDS["pt"] | _OLD_PORTUGUESE, "ru": CARDINAL_WORDS["ru"] | _russian_cases()}
_SMALL |= {"pl": CARDINAL_WORDS["pl"] | _polish_cases(), "cs": CARDINAL_WORDS["cs"] | _czech_cases()}
# Swedish and Norwegian "ett" alone is the article "a" as often as one, and neither language keeps stop words: a
# number only before a hundred, thousand or million ("ett tusen"; ``ARTICLES``), as French "un" is
_SMALL |= {lang: {form: n for form, n in CARDINAL_WORDS[lang].items() if form != "ett"} for lang in ("sv", "no")}
SMALL = {language: _with_folded(forms) for language, forms in _SMALL.items()}
# The words for one that are articles or pronouns too, a number only before a hundred, thousand or million
# ("a hundred"), after a join word ("mille et une") or, in Russian and Greek, after a ten ("двадцати одного")
_ARTICLES = {"en": "a an one", "fr": "un une", "de": "ein eine einem einer einen", "es": "un una uno",
             "it": "un uno una", "pt": "um uma", "el": "ένα μια μία ένας",
             "ru": "одного одной одному одним одном одну одно одною", "sv": "en ett", "no": "en ett et ei",
             "ro": "un o", "hu": "egy"}  # fmt: skip


HUNDRED_WORDS = {
    language: _with_folded(
        dict.fromkeys(_ONE_HUNDRED[language], 100)
        | {stem + end: 100 * n for n, stem in enumerate(stems.split(), start=2) for end in _HUNDRED_ENDINGS[language]}
    )
    for language, stems in _HUNDREDS.items()
} | {"ru": dict(zip(_RUSSIAN_HUNDREDS, range(100, 1000, 100))) | {"ста": 100}}
# Polish writes each hundred as one word, and declines it ("dwieście", "dwustu"); Czech's "sto" alone is one
_POLISH_HUNDREDS = "sto dwieście trzysta czterysta pięćset sześćset siedemset osiemset dziewięćset"
_POLISH_HUNDREDS_OF = "stu dwustu trzystu czterystu pięciuset sześciuset siedmiuset ośmiuset dziewięciuset"
HUNDRED_WORDS["pl"] = _with_folded(
    {word: 100 * n for words in (_POLISH_HUNDREDS, _POLISH_HUNDREDS_OF) for n, word in enumerate(words.split(), 1)}
)
HUNDRED_WORDS["cs"] = {"sto": 100, "stu": 100}
HUNDRED_WORDS["ru"] |= {
    stem + end: 100 * n for n, stem in enumerate(_RUSSIAN_HUNDREDS_OF, start=2) for end in ("сот", "стах")
}
SCALES = {
    language: _with_folded(
        dict.fromkeys(_THOUSAND[language].replace("|", "").split(), 1000)
        | dict.fromkeys(_MILLION[language].replace("|", "").split(), 10**6)
    )
    for language in _THOUSAND
}


def _following_only(language: str) -> set[str]:
    """The scale words of ``language`` that follow a number only: those after the "|" of its entries."""
    words = _THOUSAND[language].partition("|")[2].split() + _MILLION[language].partition("|")[2].split()
    return set(_with_folded(dict.fromkeys(words)))


FOLLOWING_ONLY = {language: _following_only(language) for language in _THOUSAND}
ARTICLES = {language: set(_with_folded(dict.fromkeys(words.split()))) for language, words in _ARTICLES.items()}
# The word a number's parts are joined by after a hundred or a thousand ("two hundred and fifty", "mil e
# quinhentos", "hundert und zwanzig"), after a thousand only in French ("mille et une")
JOINS = {"en": ("and", ("hundred", "scale")), "fr": ("et", ("scale",)), "de": ("und", ("hundred", "scale")),
         "pt": ("e", ("hundred", "scale")), "no": ("og", ("hundred", "scale"))}  # fmt: skip
NUMBER_LANGUAGES = frozenset(_THOUSAND)
# The languages whose tens and units are words apart in every case, which ``SMALL`` lists in the nominative only
SPACED_TENS = frozenset({"ru", "el", "pl", "cs"})
# A text's words and the marks that end a number ("cincuenta, mil quinientos" is two numbers)
MARKS = frozenset(',;:.!?()[]«»"“”„…—–/')
# A plain class scans fastest; stray quotes and dashes are trimmed per word, and a word keeps its combining marks
# (Devanagari's, Thai's vowels)
_WORD = rf"[\w{COMBINING_MARKS}'\-]+"
WORDS = re.compile(_WORD)
WORDS_AND_MARKS = re.compile(_WORD + "|[" + re.escape("".join(sorted(MARKS))) + "]")
_DIGIT = re.compile(r"\d")
_DIGIT_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:[,. ]\d{3})+(?![\d]|[.,]\d)")


def join_digit_groups(text: str) -> str:
    """``text`` with each number typed in groups of three ("20,000", "20 000", "20.000") as one ("20000")."""
    return _DIGIT_GROUPS.sub(lambda m: re.sub(r"\D", "", m.group()), text)


def words_and_numbers(normalized: str, language: str, stop_word: Callable[[str], bool]) -> list[str]:
    """The words of a normalized text (``WORDS``), each spelled number as its value in digits ("two
    hundred and fifty" -> "250"); a one-word number that is a stop word (``_stop_number``) stays a word."""
    digits = _DIGIT.search(normalized) is not None
    text = join_digit_groups(normalized) if digits else normalized
    words = WORDS.findall(text)
    if not (
        digits
        or not _STARTS[language].isdisjoint(words)
        or "-" in text
        and _HYPHENATED[language].search(text)
        or any(scale in text for scale, _ in _FUSED_SCALES.get(language, ()))
    ):
        return words  # most paragraphs: no number word, digit or compound that may start one
    return _numbers_as_digits(WORDS_AND_MARKS.findall(text), language, stop_word)


def spelled_numbers(text: str, language: str) -> list[tuple[str, int]]:
    """The numbers ``text`` spells in ``language``'s words, each as written and with its value ("a hundred
    and fifty": 150); numbers typed in digits are not spelled."""
    return [(text[start:end], value) for start, end, value in _spelled_spans(text, language)]


def with_digits(text: str, language: str) -> str:
    """``text`` with each number it spells in ``language``'s words written in digits, and each number typed
    in groups of three as one: "twenty thousand", "20,000" and "20 000" are all "20000"."""
    for start, end, value in reversed(_spelled_spans(text, language)):
        text = f"{text[:start]}{value}{text[end:]}"
    return join_digit_groups(text)


def _spelled_spans(text: str, language: str) -> list[tuple[int, int, int]]:
    """Where ``text`` spells a number in ``language``'s words (``spelled_numbers``): (start, end, value)."""
    matches = list(WORDS_AND_MARKS.finditer(text))
    words = [match.group().casefold() for match in matches]
    found, i = [], 0
    while i < len(words):
        read = None if words[i].isdigit() else _number_at(words, i, language)
        if read is None:
            parts = words[i].split("-")
            leading = _leading_read(parts, language) if len(parts) > 1 else None
            if leading:  # "fifty-dollar": "fifty"
                written = "-".join(matches[i].group().split("-")[: leading[1]])
                found.append((matches[i].start(), matches[i].start() + len(written), leading[0]))
            i += 1
            continue
        first = i - 1 if _after_article(words, i, language) else i
        found.append((matches[first].start(), matches[read[1] - 1].end(), read[0]))
        i = read[1]
    return found


def _numbers_as_digits(words: list[str], language: str, stop_word: Callable[[str], bool]) -> list[str]:
    """``words`` and marks (``WORDS_AND_MARKS``: a mark ends a number) with each spelled number as its
    value in digits, without the marks."""
    starts = _STARTS[language]
    keys = [_modern_russian_number(word) for word in words] if language == "ru" else words
    out: list[str] = []
    i = 0
    while i < len(words):
        key = keys[i]
        read = _number_at(keys, i, language) if key in starts or _may_start(key, language) else None
        if read is None or (read[1] == i + 1 and _stop_number(words[i], read[0], language, stop_word)):
            if key not in MARKS:
                out.append(words[i])
            i += 1
            continue
        if _after_article(keys, i, language):
            out.pop()
        out.append(str(read[0]))
        i = read[1]
    return out


def _leading_read(parts: list[str], language: str) -> tuple[int, int] | None:
    """The number spelled by a hyphenated word's first parts ("fifty-dollar"), and how many parts it
    takes; None when it is typed in digits ("24-hour") or the word is an ordinal ("twenty-first")."""
    if parts[0].isdigit() or ordinal_value("-".join(parts)) is not None:
        return None
    return _number_at(parts, 0, language)


def _stop_number(word: str, value: int, language: str, stop_word: Callable[[str], bool]) -> bool:
    """Whether a number written as one word stays a word: it, or a word of its value, is a stop word
    (Russian's list holds "два" and "три", so "двух" and "трёх" stay words too)."""
    return stop_word(word) or any(stop_word(form) for form in _WORDS_OF[language].get(value, ()))


def _modern_russian_number(word: str) -> str:
    """A Russian word without the final ъ of the spelling before 1918 ("пятьсотъ", "тысячъ")."""
    return word[:-1] if word.endswith("ъ") and len(word) > 1 else word


def _number_at(words: list[str], start: int, language: str) -> tuple[int, int] | None:
    """The value of the number spelled from ``words[start]`` and the index after it; None if none starts there."""
    scales, following, hundreds = SCALES[language], FOLLOWING_ONLY[language], HUNDRED_WORDS.get(language, {})
    join, articles = JOINS.get(language, ("", ()))[0], ARTICLES.get(language, ())
    total = current = 0
    last = ""  # the kind of the last word read: "small", "hundred" or "scale"
    i = start
    while i < len(words):
        word, ten = words[i], _ten(current, last, language)
        small = _small_at(words, i, language) if last != "small" and current % 100 == 0 or ten else None
        if small is None and word in articles and (i > start and words[i - 1] == join or ten):
            small = 1, i + 1  # "mille et une", "a thousand and one", "двадцати одного"
        if small is not None and (small[0] < 100 or current == 0) and (not ten or small[0] < 10):
            current, last, i = current + small[0], _kind(small[0]), small[1]
        elif word in hundreds and current == 0:
            current, last, i = hundreds[word], "hundred", i + 1
        elif word in HUNDRED_TIMES.get(language, ()) and current < 100 and last != "hundred":
            current, last, i = max(current, 1) * 100, "hundred", i + 1
        elif word in scales and last != "scale" and total % scales[word] == 0 and (last or word not in following):
            total, current, last, i = total + max(current, 1) * scales[word], 0, "scale", i + 1
        elif _joins(words, i, language, last):
            i += 1
        else:
            break
    if not last:
        return None
    return total + current, i - 1 if words[i - 1] == join else i  # a join word ends no number


def _ten(current: int, last: str, language: str) -> bool:
    """Whether the number read so far ends in a ten that a unit may follow as a word of its own
    (``SPACED_TENS``: "двадцати пяти", "είκοσι πέντε")."""
    return language in SPACED_TENS and last == "small" and current % 10 == 0 and current % 100 >= 20


def _kind(value: int) -> str:
    """What a value read as one word ends a number with: a thousand ("dreitausend"), a hundred, or its units."""
    if value >= 1000 and value % 1000 == 0:
        return "scale"
    return "hundred" if value >= 100 and value % 100 == 0 else "small"


def _joins(words: list[str], i: int, language: str, last: str) -> bool:
    """Whether ``words[i]`` joins the number read so far, ending in ``last``, to the number after it."""
    join, after = JOINS.get(language, ("", ()))
    if words[i] != join or last not in after or i + 1 >= len(words):
        return False
    after = words[i + 1]
    return (
        after in HUNDRED_WORDS.get(language, ())
        or after in ARTICLES.get(language, ())
        or bool(_small_at(words, i + 1, language))
    )


def _small_at(words: list[str], i: int, language: str) -> tuple[int, int] | None:
    """The number 1-99 at ``words[i]`` (the longest of one to four words: "vingt et un", "treinta y
    dos", "quatre vingt dix sept"), or typed in digits, or a German or Italian number written as one
    word, with the index after it."""
    if i >= len(words):
        return None
    forms = SMALL[language]
    for length in (4, 3, 2, 1):
        if i + length <= len(words):
            key = " ".join(words[i : i + length]).replace("-", " ")
            if key in forms:
                return forms[key], i + length
    word = words[i]
    if word.isdigit():
        return int(word), i + 1
    fused = _fused_value(word, language) if language in _FUSED_SCALES else None
    return (fused, i + 1) if fused else None


def _after_article(words: list[str], i: int, language: str) -> bool:
    """Whether ``words[i]`` is a hundred, thousand or million after a word for one, which the number
    takes in ("a hundred", "un millón")."""
    scale = words[i] in SCALES[language] or words[i] in HUNDRED_TIMES.get(language, ())
    return scale and i > 0 and words[i - 1] in ARTICLES.get(language, ())


# German, Italian, Swedish, Norwegian and Hungarian write a number as one word ("zweihundertfünfzig",
# "duecentocinquantamila", "tvåhundrafemtio", "tohundreogfemti", "kétszázötven"): its scale words, largest first
# (Italian's hundred loses its "o" before "otto" and "ottanta": "centotto"), its word for one before a scale
# ("eintausend", "etthundra") and the word that joins the rest ("hundertundzwanzig", "hundreogfemti")
_FUSED_SCALES = {"de": (("tausend", 1000), ("hundert", 100)),
                 "it": (("mila", 1000), ("mille", 1000), ("cento", 100), ("cent", 100)),
                 "sv": (("tusen", 1000), ("hundra", 100)),
                 "no": (("tusind", 1000), ("tusen", 1000), ("hundrede", 100), ("hundre", 100)),
                 "hu": (("ezer", 1000), ("száz", 100))}  # fmt: skip
_FUSED_ONE = {"de": "ein", "sv": "ett", "no": "ett", "hu": "egy"}
_FUSED_JOIN = {"de": "und", "no": "og"}


def _fused_value(word: str, language: str, below: int = 10**6) -> int | None:
    """The value of a number written as one word (``_FUSED_SCALES``: "dreitausend" 3000,
    "neunzehnhundertachtundvierzig" 1948, "duecentocinquanta" 250, "tremila" 3000, "centotto" 108,
    "tvåhundrafemtio" 250), below ``below``; None for any other word."""
    one, join = _FUSED_ONE.get(language, ""), _FUSED_JOIN.get(language, "")
    for scale_word, scale in _FUSED_SCALES[language]:
        head, found, tail = word.partition(scale_word)
        if not found or scale >= below:
            continue
        times = 1 if head in ("", one) else _part_value(head, language, below=scale)
        rest = 0 if tail in ("", join) else _part_value(tail.removeprefix(join), language, below=scale)
        if times and rest is not None:
            return times * scale + rest
    return None


def _part_value(part: str, language: str, below: int) -> int | None:
    value = SMALL[language].get(part)
    value = _fused_value(part, language, below) if value is None else value
    return value if value is not None and value < below else None


def _may_start(word: str, language: str) -> bool:
    """Whether a word outside ``_STARTS`` may begin a number: digits, a hyphenated compound, a fused one."""
    if word.isdigit():
        return True
    if "-" in word:
        return word.partition("-")[0] in _STARTS[language]
    return language in _FUSED_SCALES and any(scale in word for scale, _ in _FUSED_SCALES[language])


# The words a number may begin with, per language: a word not among them is passed over at the cost of one lookup
_STARTS = {
    language: {key.split()[0] for key in SMALL[language]}
    | set(HUNDRED_WORDS.get(language, ()))
    | HUNDRED_TIMES.get(language, set())
    | set(SCALES[language])
    for language in NUMBER_LANGUAGES
}
_STARTS["ru"] |= {word + "ъ" for word in _STARTS["ru"]}  # the spelling before 1918
_WORDS_OF = {  # the one-word forms of each value 1-99
    language: {value: [form for form, n in forms.items() if n == value and " " not in form] for value in range(1, 100)}
    for language, forms in SMALL.items()
}
# A number's word before a hyphen ("vingt-deux", "deux-cents")
_HYPHENATED = {
    language: re.compile(rf"(?<![\w'-])(?:{'|'.join(map(re.escape, sorted(_STARTS[language])))})-")
    for language in NUMBER_LANGUAGES
}
