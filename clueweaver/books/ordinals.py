"""Ordinal words as European novels spell their chapter and part numbers, one to ninety-nine:
"Chapitre vingt et unième", "Глава одиннадцатая", "Capítulo decimotercero", "Capitolo
ventesimo", "Capítulo vigésimo primeiro", "Sechsunddreißigstes Kapitel", "ΚΕΦΑΛΑΙΟΝ ΠΡΩΤΟΝ",
"Chapter the Twenty-Third" (English from thirteen on), "Rozdział dwudziesty pierwszy", "Tjugoförsta kapitlet",
"Kapitola dvacátá první", "Huszonegyedik fejezet", "Tyvende Kapitel" (Norwegian and Danish, to twenty),
"Capitolul al zecelea" (Romanian, to ten); and those of languages read as plain words: "Розділ двадцять третій"
(Ukrainian), "الفصل الحادي والعشرون" (Arabic, to fifty-nine), "Birinci Bölüm", "Ensimmäinen luku" (to twenty),
"פרק שלישי", "पहला अध्याय" (to ten).

``ORDINAL_WORDS`` maps each spelling (lower case, the words of a compound joined by one space) to
its value; ``ORDINAL_PATTERN`` matches any of them, a compound's words joined by spaces or hyphens
("vingt-deuxième", "vingt deuxième"), and ``ordinal_value`` reads one back. The Romance spellings
also count without their accents: Project Gutenberg's ASCII transcriptions drop them ("Capitulo
decimo"). ``LAST_WORDS`` are the words a heading puts in place of the last
chapter's number.
"""

from __future__ import annotations

import re
from collections import defaultdict

from clueweaver.books.cardinals import (
    GERMAN_TEENS,
    GERMAN_TENS,
    GERMAN_UNITS,
    RUSSIAN_TENS,
    french_cardinal,
    italian_cardinals,
)
from clueweaver.books.language import fold_accents

# One to twelve as the headings spell them, the feminine forms beside the masculine (a "partie", a
# "parte", a "глава"); Pushkin's older Russian too ("Глава третия", "Глава осьмая").
_FIRST_TWELVE = {
    1: "premier première erst primero primera primer primeiro primeira primo prima первая первый первое",
    2: "deuxième second seconde zweit segundo segunda secondo seconda вторая второй второе",
    3: "troisième dritt tercero tercera tercer terceiro terceira terzo terza третья третий третье третия",
    4: "quatrième viert cuarto cuarta quarto quarta четвёртая четвертая четвёртый четвертый четвёртое четвертое",
    5: "cinquième fünft quinto quinta пятая пятый пятое",
    6: "sixième sechst sexto sexta sesto sesta шестая шестой шестое",
    7: "septième siebt siebent séptimo séptima sétimo sétima settimo settima седьмая седьмой седьмое",
    8: "huitième acht octavo octava oitavo oitava ottavo ottava восьмая восьмой восьмое осьмая осьмой",
    9: "neuvième neunt noveno novena nono nona девятая девятый девятое",
    10: "dixième zehnt décimo décima decimo decima десятая десятый десятое",
    11: "onzième elft",
    12: "douzième zwölft",
}
_GERMAN_STEMS = frozenset("erst zweit dritt viert fünft sechst siebt siebent acht neunt zehnt elft zwölft".split())
_GERMAN_ENDINGS = ("e", "er", "es", "en")
# Greek ordinal stems from one to ten, with the endings of "κεφάλαιο(ν)" and "μέρος" (-ο, -ον), of a
# feminine (-η) and of the genitive a question may use (-ου, "του τρίτου κεφαλαίου"): "ΚΕΦΑΛΑΙΟΝ ΠΡΩΤΟΝ";
# capitals drop the accent, so each form also counts without it.
_GREEK_STEMS = "πρώτ δεύτερ τρίτ τέταρτ πέμπτ έκτ έβδομ όγδο ένατ δέκατ".split()
_GREEK_ENDINGS = ("ο", "ον", "η", "ου")
# eleven and twelve, then the tens, stressed on their ending ("εικοστό", "τριακοστή")
_GREEK_ELEVEN_TWELVE = ("ενδέκατ", "δωδέκατ")
_GREEK_TENS = "εικοστ τριακοστ τεσσαρακοστ πεντηκοστ εξηκοστ εβδομηκοστ ογδοηκοστ ενενηκοστ".split()


def _german() -> dict[str, int]:
    """German ordinals from 13 to 99 with their endings ("Dreizehntes Kapitel", "Sechsunddreißigstes
    Kapitel" in Effi Briest): a teen takes "t", a tens word "st", a unit joins its tens with "und"."""
    stems = {teen + "t": value for value, teen in enumerate(GERMAN_TEENS, start=13)}
    for ten_value, ten in enumerate(GERMAN_TENS, start=2):
        for spelling in {ten, ten.replace("ß", "ss")}:  # "dreissig": the Swiss spelling, and ß in capitals
            stems[spelling + "st"] = 10 * ten_value
            stems.update(
                {f"{unit}und{spelling}st": 10 * ten_value + n for n, unit in enumerate(GERMAN_UNITS, start=1)}
            )
    return {stem + ending: value for stem, value in stems.items() for ending in _GERMAN_ENDINGS}


def _french() -> dict[str, int]:
    """French ordinals from 13 to 99: the cardinal's last word takes "ième" ("vingt et unième",
    "soixante-douzième", "quatre-vingt-dix-neuvième")."""

    def ordinal(word: str) -> str:
        word = "vingt" if word == "vingts" else word.removesuffix("e")  # "trois" keeps its s: "troisième"
        return {"cinq": "cinqu", "neuf": "neuv"}.get(word, word) + "ième"

    forms = {}
    for n in range(13, 100):
        *head, last = re.split(r"([ -])", french_cardinal(n))
        forms["".join(head) + ordinal(last)] = n
    return forms


def _english() -> dict[str, int]:
    """English ordinals from 13 to 99 ("thirteenth", "twentieth", "twenty-first"); one to twelve are
    ``numerals.ENGLISH_ORDINALS``, read apart, since "second" is also a noun."""
    units = "first second third fourth fifth sixth seventh eighth ninth".split()
    teens = "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split()
    forms = {word: n for n, word in enumerate(teens, start=13)}
    for ten_value, ten in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2):
        forms[ten[:-1] + "ieth"] = 10 * ten_value
        forms.update({f"{ten} {unit}": 10 * ten_value + n for n, unit in enumerate(units, start=1)})
    return forms


def _romance(tens: str, units: dict[int, str], teens: dict[int, str], fused: bool) -> dict[str, int]:
    """Spanish, Portuguese or (older) Italian ordinals from 11 to 99 built the Latin way: a tens
    ordinal before a unit one ("vigésimo primero"; fused too where the language writes it so,
    "vigesimoprimero"), each in its masculine and feminine forms."""
    forms = dict(teens)
    for ten_value, ten in enumerate(tens.split(), start=2):
        forms[ten] = 10 * ten_value
        for n, unit in units.items():
            forms[f"{ten} {unit}"] = 10 * ten_value + n
            if fused:
                forms[fold_accents(ten) + unit] = 10 * ten_value + n
    return forms | {re.sub(r"o\b", "a", form): n for form, n in forms.items()}


def _spanish() -> dict[str, int]:
    """Spanish, with "primero" and "tercero" also shortened before the noun ("el vigésimo tercer capítulo")."""
    units = dict(enumerate("primero segundo tercero cuarto quinto sexto séptimo octavo noveno".split(), start=1))
    tens = "vigésimo trigésimo cuadragésimo quincuagésimo sexagésimo septuagésimo octogésimo nonagésimo"
    teens = {"undécimo": 11, "duodécimo": 12, "decimotercio": 13, "decimonono": 19, "decimoctavo": 18}
    forms = {}
    for units in (units, {1: "primer", 3: "tercer"}):
        for n, unit in units.items():
            teens[f"décimo {unit}"] = teens[f"decimo{unit}"] = 10 + n
        forms |= _romance(tens, units, teens, True)
    return forms


def _portuguese() -> dict[str, int]:
    units = dict(enumerate("primeiro segundo terceiro quarto quinto sexto sétimo oitavo nono".split(), start=1))
    teens = {"undécimo": 11, "duodécimo": 12} | {f"décimo {unit}": 10 + n for n, unit in units.items()}
    tens = "vigésimo trigésimo quadragésimo quinquagésimo sexagésimo septuagésimo octogésimo nonagésimo"
    return _romance(tens, units, teens, False) | {"setuagésimo": 70, "setuagésima": 70}


def _italian() -> dict[str, int]:
    """Italian: today's ordinals drop the cardinal's last vowel and take "esimo" ("undicesimo",
    "ventunesimo", "trentottesimo"; "ventitreesimo", "ventiseiesimo" keep theirs); older texts
    build them the Latin way ("decimoterzo", "vigesimo primo"), or today's tens with a Latin unit
    ("ventesimoprimo")."""
    cardinals = italian_cardinals()
    modern = {(c + "esimo" if c.endswith(("tre", "sei")) else c[:-1] + "esimo"): n for n, c in cardinals.items()}
    latin_units = dict(enumerate("primo secondo terzo quarto quinto sesto settimo ottavo nono".split(), start=1))
    older = {f"decimo{unit}": 10 + n for n, unit in latin_units.items()} | {"decimottavo": 18}
    older |= {f"decimo {unit}": 10 + n for n, unit in latin_units.items()}
    tens_latin = "vigesimo trigesimo quadragesimo quinquagesimo sessagesimo settuagesimo ottuagesimo nonagesimo"
    # and with today's tens ("ventesimoprimo", "trentesimo secondo"), as 19th-century editions write them
    tens_today = "ventesimo trentesimo quarantesimo cinquantesimo sessantesimo settantesimo ottantesimo novantesimo"
    return _romance(tens_latin, latin_units, older | modern, True) | _romance(tens_today, latin_units, {}, True)


def _russian() -> dict[str, int]:
    """Russian ordinals from 11 to 99 in the feminine (глава, часть, книга), masculine (том) and
    neuter forms: "одиннадцатая", "сороковой", "двадцать первая" (a tens cardinal, then a unit ordinal)."""
    stems = ("одиннадцат двенадцат тринадцат четырнадцат пятнадцат шестнадцат семнадцат восемнадцат "
             "девятнадцат").split()  # fmt: skip
    forms = {stem + ending: n for n, stem in enumerate(stems, start=11) for ending in ("ая", "ый", "ое")}
    tens = "двадцат тридцат сороков пятидесят шестидесят семидесят восьмидесят девяност".split()
    for ten_value, stem in enumerate(tens, start=2):
        endings = ("ая", "ой", "ое") if stem == "сороков" else ("ая", "ый", "ое")
        forms.update({stem + ending: 10 * ten_value for ending in endings})
    unit_forms = {
        word: n for n, words in _FIRST_TWELVE.items() if n < 10 for word in words.split() if "а" <= word[0] <= "я"
    }
    for ten_value, cardinal in enumerate(RUSSIAN_TENS, start=2):
        forms.update({f"{cardinal} {unit}": 10 * ten_value + n for unit, n in unit_forms.items()})
    return forms


def _first_twelve() -> dict[str, int]:
    forms = {}
    for value, words in _FIRST_TWELVE.items():
        for word in words.split():
            forms.update(
                dict.fromkeys([word + e for e in _GERMAN_ENDINGS] if word in _GERMAN_STEMS else [word], value)
            )
    return forms


def _with_folded(forms: dict[str, int]) -> dict[str, int]:
    return forms | {fold_accents(form): value for form, value in forms.items()}


def _greek() -> dict[str, int]:
    """Greek ordinals from one to ninety-nine; past twelve a tens ordinal and a unit one in the same
    ending ("δέκατο τρίτο", "εικοστό πρώτο", "ΚΕΦΑΛΑΙΟΝ ΕΙΚΟΣΤΟΝ ΤΡΙΤΟΝ")."""
    stressed = {"ο": "ό", "ον": "όν", "η": "ή", "ου": "ού"}
    forms = {}
    for e in _GREEK_ENDINGS:
        units = {n: stem + e for n, stem in enumerate(_GREEK_STEMS[:9], start=1)}
        tens = {1: _GREEK_STEMS[9] + e} | {t: stem + stressed[e] for t, stem in enumerate(_GREEK_TENS, start=2)}
        forms |= {word: n for n, word in units.items()} | {
            stem + e: n for n, stem in enumerate(_GREEK_ELEVEN_TWELVE, 11)
        }
        for t, ten in tens.items():
            forms[ten] = 10 * t
            forms |= {f"{ten} {unit}": 10 * t + n for n, unit in units.items() if 10 * t + n > 12}
    return _with_folded(forms)


# Polish ordinal stems from one to eighty: each takes an adjective's endings, nominative masculine (rozdział,
# tom), feminine (część, księga) and neuter, the locative a question uses ("w piątym rozdziale", "w drugiej
# części"), the genitive and the feminine accusative ("od trzeciego do piątego rozdziału", "przez drugą część");
# after g an i comes before e, and the soft stem of "trzeci" writes i throughout.
_POLISH_STEMS = (
    "pierwsz drug trzec czwart piąt szóst siódm ósm dziewiąt dziesiąt jedenast dwunast trzynast czternast piętnast "
    "szesnast siedemnast osiemnast dziewiętnast"
).split()
_POLISH_TENS = "dwudziest trzydziest czterdziest pięćdziesiąt sześćdziesiąt siedemdziesiąt osiemdziesiąt".split()
_POLISH_ENDINGS = {
    "drug": ("i", "a", "ie", "im", "iej", "iego", "ą"),
    "trzec": ("i", "ia", "ie", "im", "iej", "iego", "ią"),
}
_POLISH_HARD_ENDINGS = ("y", "a", "e", "ym", "ej", "ego", "ą")
# Swedish ordinals (one form for every gender and case): "Första kapitlet", "Tjugoförsta kapitlet"; "elfte" also
# spelled "elvte", and the old spellings of ELTeC's novels, "FJERDE KAPITLET", "SJETTE KAPITLET".
_SWEDISH_UNITS = "första andra tredje fjärde femte sjätte sjunde åttonde nionde".split()
_SWEDISH_TEENS = "tionde elfte tolfte trettonde fjortonde femtonde sextonde sjuttonde artonde nittonde".split()
_SWEDISH_TENS = "tjugo trettio fyrtio femtio sextio sjuttio åttio".split()


def _with_compounds(forms: dict[str, int]) -> dict[str, int]:
    """``forms`` and each ordinal of the tens followed by one of the units, every form of each with every form of
    the other ("dwudziesty pierwszy", "dvacátá první": 21), as Polish and Czech write them."""
    units = {form: n for form, n in forms.items() if n < 10}
    tens = {form: n for form, n in forms.items() if n >= 20}
    return forms | {f"{ten} {unit}": t + n for ten, t in tens.items() for unit, n in units.items()}


def _polish() -> dict[str, int]:
    """Polish ordinals to eighty-nine in their common forms ("pierwszy", "drugiej", "dwudziesty pierwszy")."""
    stems = dict(enumerate(_POLISH_STEMS, start=1)) | {10 * t: stem for t, stem in enumerate(_POLISH_TENS, start=2)}
    forms = {
        stem + ending: value
        for value, stem in stems.items()
        for ending in _POLISH_ENDINGS.get(stem, _POLISH_HARD_ENDINGS)
    }
    return _with_compounds(forms)


def _swedish() -> dict[str, int]:
    """Swedish ordinals to eighty-nine ("första", "elfte", "tjugoförsta")."""
    forms = {word: n for n, word in enumerate(_SWEDISH_UNITS, start=1)}
    forms |= {word: n for n, word in enumerate(_SWEDISH_TEENS, start=10)} | {"elvte": 11, "fjerde": 4, "sjette": 6}
    for t, ten in enumerate(_SWEDISH_TENS, start=2):
        forms[ten + "nde"] = 10 * t
        forms |= {ten + unit: 10 * t + n for n, unit in enumerate(_SWEDISH_UNITS, start=1)}
    return forms


# Czech ordinals from one to ninety: a hard stem takes an adjective's endings, masculine, feminine (kapitola,
# část) and neuter, and the locative a question uses ("v páté kapitole"); "první" and "třetí" end in -í, and -ím.
_CZECH_HARD = (  # from four: two is "druhý", three the soft "třetí"
    "čtvrt pát šest sedm osm devát desát jedenáct dvanáct třináct čtrnáct patnáct šestnáct sedmnáct osmnáct devatenáct"
).split()
_CZECH_TENS = "dvacát třicát čtyřicát padesát šedesát sedmdesát osmdesát devadesát".split()
_CZECH_HARD_ENDINGS = ("ý", "á", "é", "ém", "ou")
# Hungarian ordinals from one to ninety-nine ("első", "tizenegyedik", "huszonegyedik"): the cardinal's ordinal stem
# and -dik, the tens joining their units ("tizen-", "huszon-").
_HUNGARIAN_UNITS = "első második harmadik negyedik ötödik hatodik hetedik nyolcadik kilencedik".split()
_HUNGARIAN_UNITS_JOINED = "egyedik kettedik harmadik negyedik ötödik hatodik hetedik nyolcadik kilencedik".split()
_HUNGARIAN_TENS = (("tizedik", "tizen"), ("huszadik", "huszon"), ("harmincadik", "harminc"),
                   ("negyvenedik", "negyven"), ("ötvenedik", "ötven"), ("hatvanadik", "hatvan"),
                   ("hetvenedik", "hetven"), ("nyolcvanadik", "nyolcvan"), ("kilencvenedik", "kilencven"))  # fmt: skip


def _czech() -> dict[str, int]:
    """Czech ordinals to ninety-nine in their common forms ("první", "páté", "dvacátá první")."""
    stems = {2: "druh"} | dict(enumerate(_CZECH_HARD, start=4))
    stems |= {10 * t: stem for t, stem in enumerate(_CZECH_TENS, start=2)}
    forms = {stem + ending: n for n, stem in stems.items() for ending in _CZECH_HARD_ENDINGS}
    forms |= {word: n for n, stem in ((1, "první"), (3, "třetí")) for word in (stem, stem + "m")}
    return _with_compounds(forms)


def _hungarian() -> dict[str, int]:
    """Hungarian ordinals to ninety-nine ("első", "tizenegyedik", "huszonegyedik")."""
    forms = {word: n for n, word in enumerate(_HUNGARIAN_UNITS, start=1)}
    for t, (alone, joined) in enumerate(_HUNGARIAN_TENS, start=1):
        forms[alone] = 10 * t
        forms |= {joined + unit: 10 * t + n for n, unit in enumerate(_HUNGARIAN_UNITS_JOINED, start=1)}
    return forms


# Norwegian and Danish ordinals from one to twenty ("Første Kapitel", "Tyvende Kapitel"), in their spellings of then
# and now ("anden" and "annen", "syvende" and "sjuende", "ottende" and "åttende", "tyvende" and "tjuende"); those
# Swedish shares ("tredje", "femte") are Swedish's already
_NORWEGIAN = {
    1: "første", 2: "anden annen andet", 3: "tredje", 4: "fjerde", 5: "femte", 6: "sjette", 7: "syvende sjuende",
    8: "ottende åttende", 9: "niende", 10: "tiende", 11: "ellevte", 12: "tolvte", 13: "trettende", 14: "fjortende",
    15: "femtende", 16: "sekstende", 17: "syttende", 18: "attende", 19: "nittende", 20: "tyvende tjuende",
}  # fmt: skip
# Romanian ordinals from one to ten after the noun: "Capitolul întâi", "Capitolul al doilea", "Partea a doua" (the
# feminine), with the cedilla's "ş" of older editions beside today's "ș"
_ROMANIAN = {
    1: "întâi întâiul întâia primul prima", 2: "al_doilea a_doua", 3: "al_treilea a_treia", 4: "al_patrulea a_patra",
    5: "al_cincilea a_cincea", 6: "al_șaselea a_șasea al_şaselea a_şasea", 7: "al_șaptelea a_șaptea al_şaptelea",
    8: "al_optulea a_opta", 9: "al_nouălea a_noua", 10: "al_zecelea a_zecea",
}  # fmt: skip


# Languages read as plain words (``und``) whose books number chapters in words. Ukrainian ("Розділ перший",
# "Розділ двадцять третій"; feminine to ten for "Частина перша"), the apostrophe typed three ways; Finnish
# ("Ensimmäinen luku") and Turkish ("Birinci Bölüm", also typed without the dotless ı) to twenty; Hindi ("पहला
# अध्याय") and Hebrew ("פרק ראשון") to ten; Arabic to fifty-nine ("الفصل الأول", "الفصل الحادي والعشرون", the
# hamza on the alef written or not); Dutch ("Tweede hoofdstuk", "het derde deel") to twenty.
_UKRAINIAN_UNITS = "перший другий третій четвертий п'ятий шостий сьомий восьмий дев'ятий".split()
_UKRAINIAN_TEENS = (
    "десятий одинадцятий дванадцятий тринадцятий чотирнадцятий п'ятнадцятий шістнадцятий сімнадцятий "
    "вісімнадцятий дев'ятнадцятий"
).split()
_UKRAINIAN_TENS = "двадцять тридцять сорок п'ятдесят шістдесят сімдесят вісімдесят дев'яносто".split()
_UKRAINIAN_TENS_ORDINAL = "двадцятий тридцятий сороковий п'ятдесятий шістдесятий сімдесятий вісімдесятий дев'яностий"
_UKRAINIAN_FEMININE = "перша друга третя четверта п'ята шоста сьома восьма дев'ята десята".split()
_FINNISH = (
    "ensimmäinen toinen kolmas neljäs viides kuudes seitsemäs kahdeksas yhdeksäs kymmenes yhdestoista kahdestoista "
    "kolmastoista neljästoista viidestoista kuudestoista seitsemästoista kahdeksastoista yhdeksästoista "
    "kahdeskymmenes"
).split()
_DUTCH = (
    "eerste tweede derde vierde vijfde zesde zevende achtste negende tiende elfde twaalfde dertiende veertiende "
    "vijftiende zestiende zeventiende achttiende negentiende twintigste"
).split()
_TURKISH = (
    "birinci ikinci üçüncü dördüncü beşinci altıncı yedinci sekizinci dokuzuncu onuncu on_birinci on_ikinci "
    "on_üçüncü on_dördüncü on_beşinci on_altıncı on_yedinci on_sekizinci on_dokuzuncu yirminci"
).split()
_HINDI = {1: "पहला", 2: "दूसरा", 3: "तीसरा", 4: "चौथा", 5: "पाँचवाँ पांचवां", 6: "छठा छठवाँ छठवां", 7: "सातवाँ सातवां",
          8: "आठवाँ आठवां", 9: "नौवाँ नौवां नवाँ नवां", 10: "दसवाँ दसवां"}  # fmt: skip
_HEBREW = {1: "ראשון", 2: "שני", 3: "שלישי", 4: "רביעי", 5: "חמישי", 6: "שישי ששי", 7: "שביעי", 8: "שמיני",
           9: "תשיעי", 10: "עשירי"}  # fmt: skip
_ARABIC_UNITS = "الأول الثاني الثالث الرابع الخامس السادس السابع الثامن التاسع".split()
_ARABIC_TENS = "العشرون الثلاثون الأربعون الخمسون".split()


def _ukrainian() -> dict[str, int]:
    forms = dict(zip(_UKRAINIAN_UNITS, range(1, 10))) | dict(zip(_UKRAINIAN_TEENS, range(10, 20)))
    for tens, (cardinal, ordinal) in enumerate(zip(_UKRAINIAN_TENS, _UKRAINIAN_TENS_ORDINAL.split()), start=2):
        forms[ordinal] = 10 * tens
        forms |= {f"{cardinal} {unit}": 10 * tens + n for n, unit in enumerate(_UKRAINIAN_UNITS, start=1)}
    forms |= dict(zip(_UKRAINIAN_FEMININE, range(1, 11)))
    return {form.replace("'", apostrophe): n for form, n in forms.items() for apostrophe in "'’ʼ"}


def _arabic() -> dict[str, int]:
    units = dict(zip(_ARABIC_UNITS, range(1, 10))) | {"الاول": 1, "الحادي": 1}
    forms = {"العاشر": 10} | {f"{unit} عشر": 10 + n for unit, n in units.items() if n > 1 or unit == "الحادي"}
    for tens, word in enumerate(_ARABIC_TENS, start=2):
        forms[word] = 10 * tens
        forms |= {f"{unit} و{word}": 10 * tens + n for unit, n in units.items() if unit not in ("الأول", "الاول")}
    forms = forms | dict(zip(_ARABIC_UNITS, range(1, 10))) | {"الاول": 1}
    return forms | {form.replace("أ", "ا"): n for form, n in forms.items()}


def _turkish() -> dict[str, int]:
    forms = _spelled(dict(zip(range(1, 21), _TURKISH)))
    return forms | {form.replace("ı", "i"): n for form, n in forms.items()}  # "ALTINCI" lower-cased is "altinci"


def _spelled(spellings: dict[int, str]) -> dict[str, int]:
    """Each value's spellings, a space between them ("_" joins a spelling's words: "al_doilea" is "al doilea")."""
    return {word.replace("_", " "): value for value, words in spellings.items() for word in words.split()}


def _spaced(forms: dict[str, int]) -> dict[str, int]:
    """The forms with a compound's words joined by one space ("soixante-douzième": "soixante douzième")."""
    return {re.sub(r"[\s-]+", " ", form): value for form, value in forms.items()}


ORDINAL_WORDS: dict[str, int] = _spaced(
    _with_folded(_first_twelve() | _french() | _spanish() | _portuguese() | _italian())
    | _english()
    | _german()
    | _russian()
    | _greek()
    | _polish()
    | _swedish()
    | _czech()
    | _hungarian()
    | _spelled(_NORWEGIAN)
    | _spelled(_ROMANIAN)
    | _ukrainian()
    | _arabic()
    | _turkish()
    | dict(zip(_FINNISH, range(1, 21)))
    | dict(zip(_DUTCH, range(1, 21)))
    | _spelled(_HINDI)
    | _spelled(_HEBREW)
)


def _trie_pattern(words) -> str:
    """A regex matching exactly ``words`` (none with a space), as a trie: each shared beginning written once, so
    that a heading is matched in time of its length, not of the number of words."""
    trie: dict = {}
    for word in words:
        node = trie
        for character in word:
            node = node.setdefault(character, {})
        node[""] = {}

    def branch(node: dict) -> str:
        parts = [re.escape(c) + branch(child) for c, child in node.items() if c]
        if not parts:
            return ""
        alternatives = "|".join(sorted(parts, key=len, reverse=True))
        optional = "?" if "" in node else ""
        return f"(?:{alternatives}){optional}" if len(parts) > 1 or optional else alternatives

    return branch(trie)


def words_pattern(words) -> str:
    """A regex matching exactly ``words``; a space between a compound's words matches spaces or hyphens. The
    compounds whose first words go on alike are written once ("dwudziesty pierwszy" ... "osiemdziesiątej
    dziewiątej": the tens' forms, then the units'): a trie of every compound had been 51 KB, and each
    process compiled it six times over inside the chapter patterns (4 s on every start)."""
    rests_by_head: dict[str, set] = defaultdict(set)
    singles = []
    for word in words:
        head, space, rest = word.partition(" ")
        if space:
            rests_by_head[head].add(rest)
        else:
            singles.append(word)
    heads_by_rests: dict[frozenset, list] = defaultdict(list)
    for head, rests in rests_by_head.items():
        heads_by_rests[frozenset(rests)].append(head)
    compounds = [
        rf"(?:{_trie_pattern(heads)})[\s-]+(?:{words_pattern(rests)})" for rests, heads in heads_by_rests.items()
    ]
    parts = sorted(compounds, key=len, reverse=True) + ([_trie_pattern(singles)] if singles else [])
    return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"


ORDINAL_PATTERN = words_pattern(ORDINAL_WORDS)
NORWEGIAN_ORDINAL = words_pattern(_spelled(_NORWEGIAN))  # before "del" in a question: a part
# The word a heading gives the book's last chapter or scene in place of its number ("Capítulo último",
# "Letztes Kapitel", "Явление последнее", "Dernier chapitre"; English "Chapter the Last" says "the
# last"): the chapter finder numbers it one past the chapter before it.
LAST_WORDS = frozenset(
    _with_folded(dict.fromkeys(
        "last dernier dernière letzte letzter letztes letzten último última ultimo ultima "
        "последняя последний последнее τελευταίο τελευταίον τελευταία τελευταίος ostatni ostatnia sista poslední "
        "utolsó siste ultimul laatste".split(), 0
    ))
)  # fmt: skip
LAST_PATTERN = words_pattern(LAST_WORDS)


def ordinal_value(token: str) -> int | None:
    """The value of an ordinal word or compound as a heading writes it (any case, a compound's words
    joined by spaces or hyphens); None when it is none."""
    return ORDINAL_WORDS.get(re.sub(r"[\s-]+", " ", token.strip().lower().replace("\u0307", "")))  # "İ" is "i"


# A Russian ordinal in an oblique case, as a question declines it: feminine "в пятой главе", "в главе
# третьей", "пятую главу", "третью главу", masculine or neuter "во втором эпилоге", "в третьем томе", "второго
# действия"; "двадцать первой" too
_NOMINATIVE_ENDINGS = {"ого": "ое", "его": "е", "ой": "ая", "ей": "я", "ом": "ое", "ем": "е", "ую": "ая", "ью": "ья"}
_TENS = rf"(?:(?:{'|'.join(RUSSIAN_TENS)})\s+)?"
RUSSIAN_OBLIQUE = rf"{_TENS}[а-яё]+(?:{'|'.join(_NOMINATIVE_ENDINGS)})"
# after its noun, a genitive is the next noun's: "в главе второй", "в томе втором", "главы с третьей по пятую", but
# "в явлении второго действия"
RUSSIAN_OBLIQUE_AFTER_NOUN = rf"{_TENS}[а-яё]+(?:ой|ей|ом|ем|ую|ью)"


def nominative(token: str) -> str:
    """A Russian ordinal in an oblique case in the nominative that ``ordinal_value`` reads ("пятой": "пятая",
    "третьей": "третья", "втором": "второе", "третьем": "третье", "второго": "второе"); any other token as it
    is."""
    lowered = token.lower()
    if not re.fullmatch(RUSSIAN_OBLIQUE, lowered) or ordinal_value(lowered) is not None:
        return token
    ending = next(e for e in _NOMINATIVE_ENDINGS if lowered.endswith(e))
    return lowered.removesuffix(ending) + _NOMINATIVE_ENDINGS[ending]
