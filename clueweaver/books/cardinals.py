"""Cardinal number words, one to ninety-nine, in the European languages a reader names a chapter in:
"au chapitre cinq", "im Kapitel dreiundzwanzig", "en el capítulo veintiuno", "nel capitolo
ventitré", "no capítulo vinte e três", "в главе двадцать пять", "στο κεφάλαιο πέντε", "w rozdziale
trzy", "i kapitel tjugotre", "v kapitole tři", "i kapittel treogtyve", "în capitolul trei", "in hoofdstuk
drieëntwintig" (English's are ``numerals.NUMBER_WORDS``; the ordinals built from these are
``clueweaver.books.ordinals``). All but Dutch's are read as digits in a book's text too, with their declined
forms (``clueweaver.books.spelled_numbers``); Hungarian names a chapter by its ordinal ("a harmadik fejezet") more
often than by its cardinal.

``CARDINAL_WORDS`` maps each language to its spellings (lower case, a compound's words joined by one
space, with and without accents) and their values. The words that are also a language's article
("un", "une", "ein", "eine", "una", "um", "uma", "ένα", Dutch "een"; Swedish's and Norwegian's "en" are not
listed) are left out when they stand alone: "un chapitre un peu long" names no chapter 1.
"""

from __future__ import annotations

import re

from clueweaver.books.language import fold_accents

_FRENCH_SMALL = (
    "_ un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize "
    "dix-sept dix-huit dix-neuf"
).split()
_FRENCH_TENS = {20: "vingt", 30: "trente", 40: "quarante", 50: "cinquante", 60: "soixante"}
GERMAN_UNITS = "ein zwei drei vier fünf sechs sieben acht neun".split()  # as a compound's first part ("einundzwanzig")
GERMAN_TEENS = "dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn".split()
GERMAN_TENS = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()
_ITALIAN_UNITS = "_ uno due tre quattro cinque sei sette otto nove".split()
_ITALIAN_TEENS = "undici dodici tredici quattordici quindici sedici diciassette diciotto diciannove".split()
_ITALIAN_TENS = "_ _ venti trenta quaranta cinquanta sessanta settanta ottanta novanta".split()
RUSSIAN_TENS = "двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто".split()
# "één" is Dutch's one, "een" its article; Hungarian "egy" is both
_ARTICLES = frozenset("un une ein eine una um uma ένα een egy".split())


def french_cardinal(n: int) -> str:
    """1 to 99 in French: "vingt et un", "soixante-douze", "quatre-vingts", "quatre-vingt-dix-neuf"."""
    if n < 20:
        return _FRENCH_SMALL[n]
    if n >= 80:
        return "quatre-vingts" if n == 80 else f"quatre-vingt-{_FRENCH_SMALL[n - 80]}"
    ten = 60 if n >= 70 else n - n % 10
    rest = n - ten
    if not rest:
        return _FRENCH_TENS[ten]
    return _FRENCH_TENS[ten] + (f" et {_FRENCH_SMALL[rest]}" if rest in (1, 11) else f"-{_FRENCH_SMALL[rest]}")


def italian_cardinals() -> dict[int, str]:
    """11 to 99 in Italian, the tens dropping their vowel before "uno" and "otto" ("ventuno", "trentotto")."""
    cardinals = dict(enumerate(_ITALIAN_TEENS, start=11))
    for t in range(2, 10):
        for u in range(10):
            ten = _ITALIAN_TENS[t][:-1] if u in (1, 8) else _ITALIAN_TENS[t]
            cardinals[10 * t + u] = ten + (_ITALIAN_UNITS[u] if u else "")
    return cardinals


def _french() -> dict[str, int]:
    forms = {french_cardinal(n): n for n in range(1, 100)}
    forms["quatre-vingt"] = 80
    # the spelling of 1990 joins every compound with hyphens: "vingt-et-un", "soixante-et-onze"
    return forms | {form.replace(" ", "-"): n for form, n in forms.items()}


def _german() -> dict[str, int]:
    forms = {"eins": 1, "zehn": 10, "elf": 11, "zwölf": 12} | {w: n for n, w in enumerate(GERMAN_UNITS[1:], start=2)}
    forms |= {teen: n for n, teen in enumerate(GERMAN_TEENS, start=13)}
    for ten_value, ten in enumerate(GERMAN_TENS, start=2):
        forms[ten] = 10 * ten_value
        forms |= {f"{unit}und{ten}": 10 * ten_value + n for n, unit in enumerate(GERMAN_UNITS, start=1)}
    return forms | {form.replace("ß", "ss"): n for form, n in forms.items()}  # "dreissig": Swiss, and in capitals


def _counted(small: str, tens: str, first_ten: int, join: str) -> dict[str, int]:
    """One up from the ``small`` words (space-separated, in order), then each of the ``tens`` (from
    ``first_ten``) alone and joined by ``join`` to a unit ("treinta y dos", "vinte e três", "двадцать пять";
    ``join`` "": Swedish "tjugotre")."""
    units = ["_", *small.split()]
    forms = {word: n for n, word in enumerate(units) if n}
    for ten_value, ten in enumerate(tens.split(), start=first_ten):
        forms[ten] = 10 * ten_value
        forms |= {f"{ten}{join}{units[n]}": 10 * ten_value + n for n in range(1, 10)}
    return forms


def _spanish() -> dict[str, int]:
    small = (
        "uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete "
        "dieciocho diecinueve veinte veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete "
        "veintiocho veintinueve"
    )
    return _counted(small, "treinta cuarenta cincuenta sesenta setenta ochenta noventa", 3, " y ")


def _portuguese() -> dict[str, int]:
    small = "um dois três quatro cinco seis sete oito nove dez onze doze treze catorze quinze dezesseis dezessete "
    forms = _counted(
        small + "dezoito dezenove", "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa", 2, " e "
    )
    # "duas" for a feminine noun, and as Portugal spells them
    return forms | {"duas": 2, "quatorze": 14, "dezasseis": 16, "dezassete": 17, "dezanove": 19}


def _italian() -> dict[str, int]:
    forms = {word: n for n, word in enumerate(_ITALIAN_UNITS) if n} | {"dieci": 10}
    forms |= {word: n for n, word in italian_cardinals().items()}
    # a compound ending in three writes its accent: "ventitré", "trentatré"
    return forms | {word[:-1] + "é": n for word, n in forms.items() if word.endswith("tre") and n > 10}


def _russian() -> dict[str, int]:
    small = (
        "один два три четыре пять шесть семь восемь девять десять одиннадцать двенадцать тринадцать четырнадцать "
        "пятнадцать шестнадцать семнадцать восемнадцать девятнадцать"
    )
    return _counted(small, " ".join(RUSSIAN_TENS), 2, " ") | {"одна": 1, "две": 2}


def _greek() -> dict[str, int]:
    small = (
        "ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα δέκα έντεκα δώδεκα δεκατρία δεκατέσσερα δεκαπέντε δεκαέξι "
        "δεκαεπτά δεκαοκτώ δεκαεννέα"
    )
    tens = "είκοσι τριάντα σαράντα πενήντα εξήντα εβδομήντα ογδόντα ενενήντα"
    forms = _counted(small, tens, 2, " ")
    # the spoken forms beside the written ones: "εφτά", "οχτώ", "εννιά", "δεκαεφτά"
    spoken = {"επτά": "εφτά", "οκτώ": "οχτώ", "εννέα": "εννιά"}
    return (
        forms
        | {re.sub("|".join(spoken), lambda m: spoken[m.group()], form): n for form, n in forms.items()}
        | {"τέσσερις": 4, "τρεις": 3}
    )


def _polish() -> dict[str, int]:
    small = (
        "jeden dwa trzy cztery pięć sześć siedem osiem dziewięć dziesięć jedenaście dwanaście trzynaście czternaście "
        "piętnaście szesnaście siedemnaście osiemnaście dziewiętnaście"
    )
    tens = (
        "dwadzieścia trzydzieści czterdzieści pięćdziesiąt sześćdziesiąt siedemdziesiąt osiemdziesiąt dziewięćdziesiąt"
    )
    return _counted(small, tens, 2, " ") | {"dwie": 2}  # feminine


def _czech() -> dict[str, int]:
    small = (
        "jedna dva tři čtyři pět šest sedm osm devět deset jedenáct dvanáct třináct čtrnáct patnáct šestnáct sedmnáct "
        "osmnáct devatenáct"
    )
    tens = "dvacet třicet čtyřicet padesát šedesát sedmdesát osmdesát devadesát"
    # and the units before the tens, as older prose and speech join them: "jednadvacet", "třiadvacet"
    units_first = _units_first(small.replace("jedna", "jedn"), tens, "a")
    return _counted(small, tens, 2, " ") | units_first | {"jeden": 1, "dvě": 2}


def _units(small: str) -> list[tuple[str, int]]:
    """The ``small`` words (space-separated, from one up) with their values."""
    return [(word, n) for n, word in enumerate(small.split(), start=1)]


def _tens(tens: str) -> dict[str, int]:
    """The ``tens`` words (space-separated, from twenty up) with their values."""
    return {word: 10 * t for t, word in enumerate(tens.split(), start=2)}


def _units_first(small: str, tens: str, join: str) -> dict[str, int]:
    """Each unit of the ``small`` words before each of the ``tens``, in one word joined by ``join`` (Czech
    "třiadvacet", Dano-Norwegian "treogtyve", Dutch "drieëntwintig": its "en" is written "ën" after an e)."""
    return {
        f"{unit}{'ën' if join == 'en' and unit.endswith('e') else join}{ten}": t + n
        for ten, t in _tens(tens).items()
        for unit, n in _units(small)[:9]
    }


def _swedish() -> dict[str, int]:
    small = "ett två tre fyra fem sex sju åtta nio tio elva tolv tretton fjorton femton sexton sjutton arton nitton"
    return _counted(small, "tjugo trettio fyrtio femtio sextio sjuttio åttio nittio", 2, "") | {"tjugoen": 21}


# Danish counts its tens from fifty in scores ("halvtreds", two and a half twenties: 50), and older books write them
# long ("halvtredsindstyve"); a Danish book is read as Norwegian (``clueweaver.books.language``)
_DANISH_TENS = "tyve tredive fyrre halvtreds tres halvfjerds firs halvfems"
_DANISH_LONG_TENS = (
    "tyve tredive fyrretyve halvtredsindstyve tresindstyve halvfjerdsindstyve firsindstyve halvfemsindstyve"
)


def _norwegian() -> dict[str, int]:
    small = "ett to tre fire fem seks sju åtte ni ti elleve tolv tretten fjorten femten seksten sytten atten nitten"
    forms = _counted(small, "tjue tretti førti femti seksti sytti åtti nitti", 2, "") | {"syv": 7, "tjueen": 21}
    # the tens and compounds as Dano-Norwegian and Danish count them: "tyve", "tredve", "treogtyve" (three and
    # twenty), "femogfyrre", "otteoghalvfjerds" (Danish's eight is "otte")
    danish_units = "en to tre fire fem seks syv otte ni"
    forms |= {"otte": 8} | _tens("tyve tredve") | _units_first(small.replace("ett", "en"), "tyve tredve", "og")
    for tens in (_DANISH_TENS, _DANISH_LONG_TENS):
        forms |= _tens(tens) | _units_first(danish_units, tens, "og")
    return forms


def _romanian() -> dict[str, int]:
    small = (
        "unu doi trei patru cinci șase șapte opt nouă zece unsprezece doisprezece treisprezece paisprezece "
        "cincisprezece șaisprezece șaptesprezece optsprezece nouăsprezece"
    )
    tens = "douăzeci treizeci patruzeci cincizeci șaizeci șaptezeci optzeci nouăzeci"
    forms = _counted(small, tens, 2, " și ") | {"două": 2, "douăsprezece": 12}
    return forms | {form.replace("ș", "ş"): n for form, n in forms.items()}  # the cedilla of older editions


def _hungarian() -> dict[str, int]:
    """Hungarian writes each number below a hundred as one word: "tizenkettő", "huszonöt", "harminckét" (two
    is "kettő" alone, "két" before a noun)."""
    units = [*_units("egy kettő három négy öt hat hét nyolc kilenc"), ("két", 2)]
    tens = dict(zip(range(30, 100, 10), "harminc negyven ötven hatvan hetven nyolcvan kilencven".split()))
    forms = dict(units) | {"tíz": 10, "húsz": 20} | {word: value for value, word in tens.items()}
    for value, ten in ({10: "tizen", 20: "huszon"} | tens).items():
        forms |= {ten + unit: value + n for unit, n in units}
    return forms


def _dutch() -> dict[str, int]:
    small = (
        "één twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien vijftien zestien zeventien "
        "achttien negentien"
    )
    tens = "twintig dertig veertig vijftig zestig zeventig tachtig negentig"
    return dict(_units(small)) | _tens(tens) | _units_first(small, tens, "en")


def _spelled(forms: dict[str, int]) -> dict[str, int]:
    """The forms with a compound's words joined by one space, with and without accents, articles left out."""
    spaced = {re.sub(r"[\s-]+", " ", form): n for form, n in forms.items() if form not in _ARTICLES}
    return spaced | {folded: n for form, n in spaced.items() if (folded := fold_accents(form)) not in _ARTICLES}


CARDINAL_WORDS: dict[str, dict[str, int]] = {
    language: _spelled(forms())
    for language, forms in (
        ("fr", _french),
        ("de", _german),
        ("es", _spanish),
        ("pt", _portuguese),
        ("it", _italian),
        ("ru", _russian),
        ("el", _greek),
        ("pl", _polish),
        ("cs", _czech),
        ("sv", _swedish),
        ("no", _norwegian),
        ("ro", _romanian),
        ("hu", _hungarian),
        ("nl", _dutch),
    )
}


def cardinal_value(token: str, languages: tuple[str, ...]) -> int | None:
    """The value of a cardinal number word or compound of one of ``languages`` (any case, a compound's
    words joined by spaces or hyphens); None when it is none."""
    key = re.sub(r"[\s-]+", " ", token.strip().lower())
    return next((CARDINAL_WORDS[lang][key] for lang in languages if key in CARDINAL_WORDS[lang]), None)
