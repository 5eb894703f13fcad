"""The language a book or a question is written in, from its script and its stop words.

The script decides first: Hangul is Korean (Han characters among it or not), kana present is
Japanese, Han without kana is Chinese, Cyrillic is Russian, Greek is Greek. Latin text is told
apart by its most frequent function words: each Latin language has a short list of words that are
frequent in it and rare in the others, and the language whose words occur most wins.

Our own small test rather than a library, measured against py3langid (the maintained offline
langid.py, restricted to the nine languages) on the 255 questions of the English, Chinese and
French check sets (the 8 English questions about the French novel included): both name every
question's language rightly (ours once "de" joined the French list: one French claim tied with
Spanish without it), and ours, deterministic and offline like py3langid, needs no 4.5 MB model
that takes 2 s to load and runs in 0.4 ms a question against 0.7 ms. A book has thousands of
function words, so either is right on books; a short text that shows no language (a name alone)
gets None from ``guess_language`` instead of a guess, so it raises no cross-language warning.

Codes are ISO 639-1; a text in a script none of them is written in is ``UNDETERMINED``, and so is a
book in the Latin script that shows none of their function words (Dutch, Finnish), one that shows
Polish's or Czech's without their letters (Slovak), or a Cyrillic book without Russian's ы and э
(Ukrainian, Bulgarian): it is read as plain words (a Latin or Cyrillic one cut to its first five letters), and
every trace names it ``und``, instead of being read as English, Polish, Czech or Russian. Danish, which shares
Norwegian's function words, is read as Norwegian.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache
from importlib import resources

SUPPORTED_LANGUAGES: tuple[str, ...] = (
    "en", "zh", "ja", "fr", "de", "es", "it", "ru", "pt", "el", "ko", "pl", "sv", "cs", "hu", "no", "ro",
)  # fmt: skip
UNDETERMINED = "und"  # ISO 639-2 "undetermined": letters of a script no supported language is written in
DEFAULT_LATIN = "en"  # Latin text without function-word evidence

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"  # Han characters, as a regex class's ranges
HANGUL = "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f"  # Hangul syllables and jamo (compatibility jamo too)
KANA = "\u3040-\u30ff"  # hiragana and katakana, full-width
SCRIPT_LANGUAGE = {"cyrillic": "ru", "greek": "el", "han": "zh", "kana": "ja", "hangul": "ko"}
_SCRIPT_PATTERNS = {
    "kana": re.compile(r"[\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9d]"),
    "han": re.compile(f"[{HAN}]"),
    "hangul": re.compile(f"[{HANGUL}]"),
    "cyrillic": re.compile(r"[\u0400-\u04ff]"),
    "greek": re.compile(r"(?=[^\W\d_])[\u0370-\u03ff\u1f00-\u1fff]"),  # letters, monotonic and polytonic
    "latin": re.compile(r"[a-zA-Z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]"),
}


def _mark_ranges() -> str:
    """The combining marks of the Basic Multilingual Plane (Unicode's M categories) as a regex class's ranges."""
    marks = {c for c in range(0x300, 0x10000) if unicodedata.category(chr(c)).startswith("M")}
    starts = sorted(c for c in marks if c - 1 not in marks)
    ends = sorted(c for c in marks if c + 1 not in marks)
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in zip(starts, ends))


# Combining marks, as a regex class's ranges. Python's \w has no marks, and Devanagari, Bengali, Tamil or Thai
# write their vowels with them ("राम" is र, the mark ा, म): a word is its letters and its marks together.
COMBINING_MARKS = _mark_ranges()
# Scripts written without spaces between words that no supported language uses: Thai, Lao, Tibetan, Myanmar, Khmer
UNSPACED_SCRIPTS = "\u0e00-\u0fff\u1000-\u109f\u1780-\u17ff"
# A regex: one letter of those scripts with the vowel and tone marks on it, the unit their words are read in
UNSPACED_LETTER = f"[{UNSPACED_SCRIPTS}][{COMBINING_MARKS}]*"
_LETTER = re.compile(r"[^\W\d_]")
_ASCII_LETTER = re.compile("[a-zA-Z]")
_WORD = re.compile(r"[^\W\d_]+")
KANA_SHARE = 0.05  # of the Han and kana (and any Hangul) characters: below it, stray kana in a Chinese text
# Of the Han, kana and Hangul characters: Korean written in mixed script (국한문) sets its nouns in Han and its
# particles and endings in Hangul, a third or more of its characters; a Chinese text quoting a Korean name has few
HANGUL_SHARE = 0.2

# Function words frequent in one Latin language and rare in the others (words two languages share,
# such as "la" or "que", count for both and decide nothing).
FUNCTION_WORDS = {
    "en": "the and of to was is he she his her him that it with had have you for not but at which this they them "
    "their were been what who why how when where did does would could from by an be are will said there then than",
    "fr": "le la les de à et un une des du est il elle ils elles que qui dans pas pour sur au aux avec ne ce cette se "
    "je vous nous mais était sont son sa ses lui leur où pourquoi comment quoi quel quelle avait été très tout",
    "de": "der die das und ist nicht ein eine einen ich sie er es zu den dem des mit sich auf war auch wie aber noch "
    "wer was warum wo wann um hat hatte wurde nach bei aus von dass daß ihr ihm ihn sein seine",
    "es": "el la los las y que de del pero con por para una un es se su sus lo le al como más muy fue era está qué "
    "quién cuándo dónde cómo yo él ella ellos esta este eso sin sobre también había",
    "it": "il lo gli la le di e è che non un una per del della dei delle con si ma sono mi ho ha era al alla nel "
    "nella perché chi cosa come quando dove anche questo questa più lui lei loro suo sua",
    "pt": "o os e que de do da dos das em um uma não se com por para na nos nas mais ao ele ela eles é foi era seu "
    "sua mas como quem porque quando onde muito também isso este esta pelo pela",
    "pl": "w z na za od nie się że jest jak ale co jej jego ich mu mnie już tylko był była było były tak także przez "
    "przy dla czy jeszcze gdy kiedy który która które którego tego tej bo sobie siebie ty ona oni są być jako tym "
    "tam teraz więc nawet bardzo może ze dlaczego kto gdzie przed bez",
    "sv": "och att det som på är av för med har inte om ett var jag hon han sig så kan hade skulle vid nu från eller "
    "när efter då mig dig honom henne sitt sina vad hvad icke också bara ju nog detta denna dessa hos utan än mot "
    "mycket oss varför hvarför hur vem hvem vilken",
    "cs": "se je na že v to z jako ale by jsem jsi jsme jste jsou byl byla bylo jeho jej její jí ji ho mu mi tak už "
    "jen když který která které kterou co jak proč kde kdo nebo ani pak také tam ještě před pro od při za k ve ze "
    "není než ty ona oni vy však totiž též již neboť zase potom proto tedy velmi tento tato toto této svůj své svou "
    "svého sám sama nás vás jim nám vám ním nich jenž jež kdyby až ať něco",
    "hu": "az és hogy nem is egy van volt meg csak már mint még azt ez ezt mert mit miért hol akkor pedig vagy "
    "nagyon lesz kell után előtt alatt között nincs neki őt ő én le ki fel el be minden mindig most itt ott így úgy "
    "amikor amely ami aki amit akit talán igen lett volna kellett lehet majd mégis azonban tehát vele nekem benne",
    "no": "og ikke jeg det som på til han hun var med av at seg sig så har hadde havde skal skulle kan vil ville bare "
    "meget mye hva hvad hvorfor hvem hvor når nu nå ham sitt sine også etter efter eller noe noget intet ble blev "
    "blitt være været",
    "ro": "și şi să se în la de ce cu pe nu din că care este ei ea fi fost dar cum când unde pentru iar mă îl îi vă "
    "tot prea foarte acum atunci după până sau nici dacă decât încă așa aşa fără spre către numai doar",
}
_FUNCTION_WORD_SETS = {language: frozenset(words.split()) for language, words in FUNCTION_WORDS.items()}
# The letters beyond ASCII each Latin language's prose is written with (English's from its loan words: café,
# naïve, señor). A file read in the wrong codepage shows others: Mac Roman's "Mädchen" read as cp1252 is "MŠdchen".
ACCENTED_LETTERS = {
    "en": "àâæçéèêëîïñôöœü",
    "fr": "àâæçéèêëîïôœùûüÿ",
    "de": "äéöüß",
    "es": "áéíñóúü",
    "it": "àèéìíîòóùú",
    "pt": "àáâãçéêíóôõúü",
    "sv": "åäöéü",
    "pl": "ąćęłńóśźż",
    "cs": "áčďéěíňóřšťúůýž",
    "hu": "áéíóöőúüű",
    "no": "æøåé",
    "ro": "ăâîșşțţ",
}
MIN_EVIDENCE = 2  # function words a text needs before its Latin language is named
# A long Latin text (a book, not a question) in a supported language has a third of its words among
# that language's function words (31-37% in the bundled and NoCha novels); one under 15% is in
# another language (Dutch, Finnish, Turkish...), which is named undetermined, not read as English.
LONG_TEXT_WORDS = 500
MIN_FUNCTION_SHARE = 0.15
# Russian writes ы and э (about 2% of its letters); Ukrainian, Belarusian, Bulgarian and Serbian never
# do, so a long Cyrillic text nearly without them is in another language than Russian.
_RUSSIAN_ONLY_LETTERS = re.compile("[ыэЫЭ]")
# Letters Russian never writes, in today's spelling or the old: Ukrainian ї є ґ, Belarusian ў, Serbian ј љ њ ћ џ ђ,
# Macedonian ѓ ќ ѕ; and "і", which Ukrainian and Belarusian write and Russian wrote before 1918 beside ѣ and ъ
_NOT_RUSSIAN_LETTERS = re.compile("[їєґўјљњћџђѓќѕЇЄҐЎЈЉЊЋЏЂЃЌЅ]")
_UKRAINIAN_I = re.compile("[іІ]")
_OLD_OR_TODAYS_RUSSIAN = re.compile("[ыэъёѣЫЭЪЁѢ]")
MIN_RUSSIAN_ONLY_SHARE = 0.002
# Polish writes ą ę ł ś ć ź ż ń (8-9% of the letters of ELTeC's Polish novels), which Czech and Slovak, sharing
# some of its function words, never do; Czech writes ř ě ů (3%), which Slovak, sharing others, never does (it writes
# ä ô ľ ĺ ŕ); Swedish writes ä and ö (3-4%), where Danish and Norwegian, sharing others, write æ and ø. A long text
# named so without its own letters, or with more of its neighbours', is undetermined.
_OWN_LETTERS = {"pl": re.compile("[ąęłśćźżń]"), "sv": re.compile("[äö]"), "cs": re.compile("[řěů]")}
_NEIGHBOURS_LETTERS = {"pl": re.compile("[řěůť]"), "sv": re.compile("[æø]"), "cs": re.compile("[äôľĺŕ]")}
MIN_OWN_LETTER_SHARE = 0.01
SAMPLE_CHARS = 32_000
SAMPLE_PIECES = 8


def sample(text: str, size: int = SAMPLE_CHARS, pieces: int = SAMPLE_PIECES) -> str:
    """``pieces`` evenly spaced stretches of a long text, ``size`` characters in all: a novel's
    language is the same throughout, and its front matter (a licence, a title page) is not the book."""
    if len(text) <= size:
        return text
    step, width = len(text) // pieces, size // pieces
    return "\n".join(text[start : start + width] for start in range(0, pieces * step, step))


def script_counts(text: str) -> Counter:
    """Letters per script (kana and Han apart; ``other``: letters of any other script)."""
    counts = Counter({script: len(pattern.findall(text)) for script, pattern in _SCRIPT_PATTERNS.items()})
    counts["other"] = len(_LETTER.findall(text)) - sum(counts.values())
    return counts


def script_of(text: str) -> str:
    """The script most of a text's letters are in: ``latin``, ``cyrillic``, ``greek``, ``hangul``
    (Korean, Han characters among it or not), ``han`` (Chinese characters without kana), ``kana``
    (Japanese: kana among the Han characters), ``other`` or ``none`` (no letters). A Han character
    counts as much as a Latin letter: Chinese written with a few English names is still Chinese."""
    counts = script_counts(sample(text))
    cjk = counts["han"] + counts["kana"] + counts["hangul"]
    totals = {script: counts[script] for script in ("latin", "cyrillic", "greek", "other")} | {"cjk": cjk}
    script, letters = max(totals.items(), key=lambda item: item[1])
    if letters == 0:
        return "none"
    if script == "cjk":
        if counts["hangul"] >= HANGUL_SHARE * cjk:
            return "hangul"
        return "kana" if counts["kana"] >= max(1, KANA_SHARE * cjk) else "han"
    return script


def function_word_counts(text: str) -> Counter:
    """How many of a text's words are function words of each Latin language."""
    words = Counter(_WORD.findall(text.casefold()))
    return Counter({
        language: sum(n for word, n in words.items() if word in function_words)
        for language, function_words in _FUNCTION_WORD_SETS.items()
    })  # fmt: skip


def guess_language(text: str, beside: str | None = None) -> str | None:
    """The language a text shows, or None when it shows none: Latin text needs at least
    ``MIN_EVIDENCE`` function words and more of one language's than of any other's (a question
    made of names says nothing; nor does one without letters), a script of no supported language
    gives ``UNDETERMINED``, and so does a long Latin text whose function words are too few to be in
    any supported language (``MIN_FUNCTION_SHARE``), a long Cyrillic one without Russian's ы and э, and a
    short Cyrillic one with letters Russian does not write (Ukrainian ї, є, or і without ы, э, ъ, ё, ѣ; beside
    an undetermined book, one without ы, э, ъ, ё, ѣ).

    ``beside``, the language of the book a question is asked about, lets a short question show its
    language with one function word: any of the book's language names it, else one of another
    language that no third shares ("Warum stirbt Effi?" beside an English book is German)."""
    script = script_of(text)
    if script == "cyrillic" and (_not_russian_letters(text, beside) or _cyrillic_but_not_russian(sample(text))):
        return UNDETERMINED
    if script in SCRIPT_LANGUAGE:
        return SCRIPT_LANGUAGE[script]
    if script == "none":
        return None
    if script == "other":
        return UNDETERMINED
    sampled = sample(text)
    counts = function_word_counts(sampled)
    (best, first), (_, second) = counts.most_common(2)
    words = len(_WORD.findall(sampled))
    long_text = words >= LONG_TEXT_WORDS
    if long_text and (first < MIN_FUNCTION_SHARE * words or _neighbours_prose(best, sampled.casefold())):
        return UNDETERMINED
    if first >= MIN_EVIDENCE and first > second:
        return best
    if beside in _FUNCTION_WORD_SETS and first:
        return beside if counts[beside] else (best if first > second else None)
    return None


def prose_language(text: str) -> str | None:
    """The Latin language whose function words make up ``MIN_FUNCTION_SHARE`` or more of a text's
    words (31-37% in every bundled and NoCha novel), short or long; None for text that is no such
    prose (another script's bytes read in a Latin codepage, whose stray letters make a few
    "words" such as "à" or "é")."""
    sampled = sample(text)
    words = len(_WORD.findall(sampled))
    ((best, first),) = function_word_counts(sampled).most_common(1)
    return best if words and first >= MIN_FUNCTION_SHARE * words else None


def mostly_ascii_letters(text: str) -> bool:
    """Whether half or more of the letters of ``text`` (a long one's ``sample``) are ASCII's."""
    sampled = sample(text)
    return 2 * len(_ASCII_LETTER.findall(sampled)) >= len(_LETTER.findall(sampled))


def _not_russian_letters(text: str, beside: str | None) -> bool:
    """Whether a short Cyrillic text shows letters Russian does not write: a Ukrainian question ("Чому Петро
    вирішив повернутися?") about a Ukrainian book is no Russian question about it; beside an undetermined book,
    neither is one without any of Russian's own letters ("Що сказала Оксана?"). A long text is judged by its
    share of ы and э instead (``_cyrillic_but_not_russian``): a Russian novel may quote a Ukrainian word."""
    if len(_WORD.findall(text)) >= LONG_TEXT_WORDS:
        return False
    if _NOT_RUSSIAN_LETTERS.search(text):
        return True
    russian = _OLD_OR_TODAYS_RUSSIAN.search(text)
    return not russian and (beside == UNDETERMINED or bool(_UKRAINIAN_I.search(text)))


def _cyrillic_but_not_russian(sampled: str) -> bool:
    """A long Cyrillic text almost without ы and э: Ukrainian, Belarusian, Bulgarian or Serbian."""
    if len(_WORD.findall(sampled)) < LONG_TEXT_WORDS:
        return False
    letters = len(_SCRIPT_PATTERNS["cyrillic"].findall(sampled))
    return len(_RUSSIAN_ONLY_LETTERS.findall(sampled)) < MIN_RUSSIAN_ONLY_SHARE * letters


def _neighbours_prose(language: str, folded: str) -> bool:
    """Whether a long text whose function words are ``language``'s is a neighbour's (``_OWN_LETTERS``)."""
    if language not in _OWN_LETTERS:
        return False
    own = len(_OWN_LETTERS[language].findall(folded))
    letters = len(_LETTER.findall(folded))
    return own < MIN_OWN_LETTER_SHARE * letters or len(_NEIGHBOURS_LETTERS[language].findall(folded)) > own


def detect_language(text: str) -> str:
    """The language of a text, one of ``SUPPORTED_LANGUAGES`` or ``UNDETERMINED``; a long text is
    sampled (``sample``), so a whole novel costs no more than 32,000 characters. Latin text without
    evidence (and text without letters) is English, the language ClueWeaver read before it read
    others."""
    return guess_language(text) or DEFAULT_LATIN


# The ligatures one edition prints and another, or a question typed on another keyboard, spells out ("cœur",
# "coeur"; "Cæsar", "Caesar"), case-folded: the analyzers (``clueweaver.retrieval.analyzers``) and the protocol's
# comparisons (``clueweaver.protocol.text``) read them alike
LIGATURES = {"\u0153": "oe", "\u00e6": "ae"}
# OpenCC's tables (opencc-python-reimplemented): traditional to simplified Chinese, old kanji to new, which
# retrieval reads the text with and the chapter finder a question's quoted chapter name
CHARACTER_FOLDS = {"zh": "TSCharacters.txt", "ja": "JPVariants.txt"}
# The stress marks that annotated editions and readers for learners print over a Cyrillic vowel ("за́мок"), which
# no Cyrillic letter composes with: combining grave and acute
STRESS_MARKS = "\u0300\u0301"


@cache
def character_fold(language: str) -> dict[int, str]:
    """The OpenCC table ``language``'s text is folded with (``CHARACTER_FOLDS``), for ``str.translate``:
    each character to the first of its forms (乾 is 干)."""
    try:
        table = resources.files("opencc").joinpath("dictionary", CHARACTER_FOLDS[language]).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError) as exc:
        raise RuntimeError(
            f"{language!r} text is read with its variant characters folded by OpenCC's tables, which this "
            f"environment lacks ({exc}); install them with: pip install opencc-python-reimplemented (OpenCC's C++ "
            "binding, also imported as opencc, does not ship them)"
        ) from exc
    pairs = (line.split("\t") for line in table.splitlines() if "\t" in line)
    fold = {ord(variant): folded.split()[0] for variant, folded in pairs}
    return {key: fold.get(ord(value), value) for key, value in fold.items()}  # one chain: 薴 to 苧 to 苎


def fold_accents(word: str) -> str:
    """``word`` without its combining marks ("hélène" -> "helene", "müller" -> "muller", "πρώτον" ->
    "πρωτον"): how the analyzers and the chapter finder meet words written with and without them."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def language_name(code: str) -> str:
    """The English name of a language code, for messages."""
    return LANGUAGE_NAMES.get(code, code)


LANGUAGE_NAMES = {
    "en": "English", "zh": "Chinese", "ja": "Japanese", "fr": "French", "de": "German", "es": "Spanish",
    "it": "Italian", "ru": "Russian", "pt": "Portuguese", "el": "Greek", "ko": "Korean", "pl": "Polish",
    "sv": "Swedish", "cs": "Czech", "hu": "Hungarian", "no": "Norwegian", "ro": "Romanian",
    UNDETERMINED: "an undetermined language",
}  # fmt: skip
