"""The chapters a question names ("in chapter 5", "第五回中", "au chapitre V", "в главе 3", "im 3.
Kapitel", "제3장에서"), read as numbers; ``clueweaver.books.named_chapters`` finds them among the book's own.

A reader who remembers where something happened says so, and the words that say it are a scope,
not content: "第五回" matches only the heading of chapter 5 (which the segmenter skips), "chapter"
any paragraph that says the word. Retrieval reads the named chapter's best paragraphs first and
asks without the mention (``clueweaver.retrieval.index``); a mention the book cannot resolve is a
warning, never a silent miss (``clueweaver.segments.segmenter.chapter_mention_warning``).

The forms read: Chinese and Japanese 第N回 / 第N章 / 第N节 / 第N話 (N in Chinese numerals or digits), and N章
with digits alone ("12章で");
the chapter words of English, French, German, Spanish, Portuguese, Italian, Russian, Greek, Polish, Swedish, Czech,
Hungarian, Norwegian and Romanian before
a number in digits, capital Roman numerals, English number words or an ordinal word ("chapitre
premier") or, in its own language, a cardinal number word ("au chapitre cinq", "im Kapitel fünf",
"в главе пять"), or after an ordinal ("the fifth chapter", "the twenty-third chapter", "im dritten
Kapitel", "3. Kapitel", "the 23rd chapter", "au 23e chapitre", "el 23º capítulo", "le cinquième chapitre",
"в пятой главе", "в 23-й главе"), a list of them too ("the second and third chapters"); a plural names a
list or a range ("chapters 3 and 7",
"chapitres 3 à 5", "第二十回到第二十二回", "第三、四回"); chapters counted from either end ("the last
chapter", "the final chapter", "最后一回", "最終章", "au dernier chapitre", "im letzten Kapitel", "в
последней главе"; "the penultimate chapter", "l'avant-dernier chapitre", "倒数第二回"; "the opening
chapter"; "the first three chapters", "les deux derniers chapitres", "в первых трёх главах", "前八十回",
"后四十回", "最初の三章"), resolved against the book's own count. Parts, volumes and books
are read the same way ("Part II", "the second part", "第二卷", "卷二十七", "im zweiten Teil", "во второй части",
"Livre III", "w drugiej części", "i andra delen"): a part names its chapters, and a chapter named with
its part is that part's chapter. A play's acts and scenes are its parts and chapters ("Act II, scene 3",
"во втором действии", "第二幕"), and so are an epistolary novel's letters, an epic's cantos and other units
named by everyday words: marked ``headed_only``, they count only in a book that heads its units so. A
question that quotes a chapter's name names it too ("在“刘姥姥一进荣国府”那一回中":
``clueweaver.books.named_chapters.chapters_titled``).
Korean names them after their number, an ordinal or a count ("제3장에서", "3~5장", "두 번째 장", "마지막 두 장",
"제2부": ``clueweaver.books.korean_mentions``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, partial

from clueweaver.books.cardinals import CARDINAL_WORDS, cardinal_value
from clueweaver.books.korean_mentions import korean_patterns
from clueweaver.books.language import UNSPACED_SCRIPTS
from clueweaver.books.mention_numbers import COUNT_WORDS, LAST, add_number, edge_numbers
from clueweaver.books.numerals import (
    DAI_NUMERALS,
    ENGLISH_ORDINALS,
    FRENCH_ORDINAL_NUMERAL,
    NUMBER_WORDS,
    hebrew_numeral_before,
    number_value,
)
from clueweaver.books.ordinals import (
    LAST_PATTERN,
    NORWEGIAN_ORDINAL,
    ORDINAL_PATTERN,
    RUSSIAN_OBLIQUE,
    RUSSIAN_OBLIQUE_AFTER_NOUN,
    nominative,
    ordinal_value,
    words_pattern,
)

# A number below zero counts from the book's end: -1 the last chapter, -2 the one before it.
_FROM_END_WORDS = {
    LAST: rf"{LAST_PATTERN}|final|finale|closing|concluding|последн(?:ей|юю|яя|ий|ем)|заключительн(?:ой|ую|ая)|"
    r"ostatni(?:ej|m|a|e)?|sista|posledn(?:í|ím)|utolsó|siste|ultimul|ultima",
    -2: r"penultimate|(?:second|next)[\s-]+to[\s-]+last|avant-derni[eè]re?|vorletzt(?:en|em|er|es|e)|"
    r"pen[uú]ltim[oa]|предпоследн(?:ей|юю|яя|ий|ем)|przedostatni(?:ej|m|a|e)?|näst\s+sista|"
    r"předposledn(?:í|ím)|utolsó\s+előtti|nest\s+siste|penultimul|penultima",
}
_OPENING = "opening"  # "the opening chapter"
# The chapter's and a part's words, by the languages whose cardinal numbers may follow them
# (``CARDINAL_WORDS``; English's: its number words, read after every word).
_CHAPTER_WORDS = {
    ("en",): r"chapters?|chap\.|ch\.",
    ("fr",): r"chapitres?",
    ("de", "sv"): r"kapitel(?:n|s)?",  # "des dritten Kapitels"; Swedish's too: "i kapitel tre"
    ("es", "pt"): r"cap[ií]tulos?|cap\.",
    ("it",): r"capitol[oi]|cap\.",
    ("ru",): r"глав(?:ах|ами|ам|ой|ою|а|ы|е|у)|гл\.",  # "в гл. 20", as scholars cite
    ("el",): r"κεφ[άα]λα[ιί](?:ον|ου|ων|ο|α)|κεφ\.",  # "κεφάλαιο", "του κεφαλαίου", "των κεφαλαίων"
    ("pl",): r"rozdzia(?:łach|łami|łem|łów|łu|ły|le|ł)|rozdz\.",  # "w rozdziale 5", "rozdziały 3 i 4", "rozdz. 5"
    ("sv",): r"kapitl(?:ets|ens|et|en)|kap\.",  # "i femte kapitlet" ("kapitel" is German's and Swedish's, above)
    ("cs",): r"kapitol(?:ách|ami|ou|ám|a|e|u|y)?",  # "v kapitole 5", "v páté kapitole"
    ("hu",): r"fejezet(?:ekben|ekből|ekre|eiben|ben|ből|ében|éből|ére|ek|et|re|ről|ig|e)?",  # "az 5. fejezetben"
    # "i kapittel 5", "i femte kapittel"; Danish's "kapitel" and "kapitlerne" too ("i kapitel fire"), but not before
    # "ni", Swedish's "you" ("I vilket kapitel ni läste")
    ("no",): r"kapit(?:telet|tel|lerne|lene|ler|let)|kapitel(?!\s+ni\b)",
    ("ro",): r"capitol(?:ele|elor|ului|ul|e)?",  # "în capitolul 5", "în capitolul al cincilea"
    # languages read as plain words (``und``), whose chapter words the chapter finder reads: a number in digits
    # (theirs too: "अध्याय ३"), an ordinal ("الفصل الثالث"), a Hebrew numeral ("בפרק ג?")
    ("uk",): r"розділ(?:ах|ами|ам|ом|і|у|и|а)?",  # "у розділі 3"
    ("nl",): r"hoofdstuk(?:ken)?",
    ("fi",): r"lu(?:vu(?:issa|ista|ssa|sta|lla|lle|n|t)|ku(?:un|a|jen|ja)?)",  # "luvussa 3", "luku 3"
    ("tr",): r"bölüm(?:lerde|lerin|ler|ünde|ünden|ün|ü|de|den|e)?",  # "3. bölümde"
    ("ar",): r"الفصول|الفصل|فصل",
    ("he",): r"[בל]?פרקים|[בלמ]?פרק",  # "בפרק ג", "מפרק 3"
    ("hi",): r"अध्यायों|अध्याय",
    ("th",): r"บทที่|ตอนที่",  # "ในบทที่ 3": Thai writes no space before it (``_UNIT_START``)
}
# "book" and "Band" only before a number ("the first book" he read is no part)
_PART_WORDS = {
    ("en",): r"parts?|volumes?",
    ("fr",): r"parties|partie|livres?|tomes?",
    # "des zweiten Teils", "des ersten Buches"; "teils" before a number is "partly" ("teils 3 Tage")
    ("de",): r"(?<!zum )teil(?:es|en|e)?|teils(?!\s+\d)|buch(?:es|s)?",
    ("es", "pt", "it"): r"partes?|libr[oi]s?|tom[oi]s?|livros?",
    ("ru",): r"част(?:ями|ях|ью|ь|и)|книг[аеиу]|том[еау]?",
    ("el",): r"μέρο(?:υς|ς|υ)",  # "του πρώτου μέρους"
    ("pl",): r"częś(?:ciach|cią|ci|ć)|(?-i:tom(?:ie|u)?)|księ(?:gach|ga|gi|gę|dze)",  # "Tom 2" is a name and a number
    ("sv",): r"delen|delarna",  # not "del", Spanish "of the" ("después del 1 de mayo")
    ("cs",): r"díl(?:u|e|ech)?|část(?:i|ech)?",
    ("hu",): r"rész(?:ben|ében|éből|éig|e)?|kötet(?:ben|ében)?",
    ("no",): r"bok(?:en)?|bind(?:et)?",  # not "del": Spanish "of the"
    ("ro",): r"partea|părții|volumul|cartea",
    ("nl",): r"deel",
    ("th",): r"ภาคที่",
}
# Units named by everyday words, each kind with its words by the languages whose cardinal numbers may follow them: a
# play's acts and scenes ("Act II, scene 3", "la scène 2 de l'acte III", "во втором действии", "第二幕", "제2막"), an
# epistolary novel's letters ("Letter 4", "la lettre XII"), an epic's cantos, a Christmas book's staves, a
# collection's adventures or episodes. A mention of one counts only in a book that heads its units so
# (``clueweaver.books.named_chapters.counted_mentions``): "the first act of kindness" in a novel names nothing.
_ACT_WORDS = {
    ("en",): r"acts?",
    ("fr",): r"actes?",
    ("de",): r"akt(?:en|es|e|s)?|aufz(?:ügen|üge|uges|ug)",
    ("es",): r"actos?|jornadas?",
    ("it",): r"att[oi]",
    ("pt",): r"atos?|actos?",
    ("ru",): r"акт(?:ах|ами|ам|ом|е|а|ы)?|действи(?:ях|ями|ям|ем|е|и|я)",
    ("el",): r"πρ[άα]ξ(?:εις|εων|ης|η|ις)",
}
_HEADED_CHAPTER_WORDS = {
    "scene": {
        ("en",): r"scenes?",
        ("fr",): r"sc[èe]nes?",
        ("de",): r"szenen?|auftritt(?:en|es|e|s)?",
        ("es",): r"escenas?",
        ("it",): r"scen[ae]",
        ("pt",): r"cenas?",
        ("ru",): r"явлени(?:ях|ями|ям|ем|е|и|я)|сцен(?:ах|ами|ам|ой|е|у|а|ы)",
        ("el",): r"σκην(?:ές|ών|ής|ή|ες|ων|ης|η)",
    },
    "letter": {
        ("en",): r"letters?",
        ("fr",): r"lettres?",
        ("de",): r"briefe?n?",
        ("es", "pt"): r"cartas?",
        ("it",): r"letter[ae]",
        ("ru",): r"письм(?:ах|ами|ам|ом|о|а|е)",
        ("el",): r"επιστολ(?:ές|ών|ής|ή|ες|ων|ης|η)",
    },
    "canto": {  # an epic's: "Canto V", "au chant V", "im fünften Gesang", "в пятой песни"
        ("en", "it"): r"cant(?:os|o|i)",
        ("fr",): r"chants?",
        ("de",): r"gesängen?|gesang(?:es|e)?",
        ("ru",): r"песн(?:ями|ях|ям|ью|ь|и|е|я)",
    },
    "stave": {("en",): r"staves?"},
    "adventure": {("en",): r"adventures?"},
    "episode": {("en",): r"episodes?", ("fr",): r"épisodes?"},
    "section": {("en",): r"sections?"},
}
_CJK_UNITS = {"act": "幕막", "scene": "场場"}


def _kind_pattern(kind: str, words: dict) -> re.Pattern:
    """A kind's words in every language read, and its Chinese, Japanese or Korean unit character."""
    cjk = _CJK_UNITS.get(kind)
    return re.compile(rf"\b(?:{'|'.join(words.values())})\b" + (f"|[{cjk}]" if cjk else ""), re.IGNORECASE)


_UNIT_KINDS = {
    kind: _kind_pattern(kind, words) for kind, words in {"act": _ACT_WORDS, **_HEADED_CHAPTER_WORDS}.items()
}


def unit_kind(text: str) -> str | None:
    """The kind of unit ``text`` names by an everyday word ("act", "scene", "letter", "canto"...), in any language
    read ("Act II", "Действие", "第二幕", "la lettre XII"), else None."""
    return next((kind for kind, words in _UNIT_KINDS.items() if words.search(text)), None)


# Where a chapter or part word may start: at a word's start, or right after a letter of a script written without
# spaces between words ("ในบทที่ 3", in chapter 3)
_UNIT_START = rf"(?:\b|(?<=[{UNSPACED_SCRIPTS}]))"
CHAPTER_WORD = "|".join(_CHAPTER_WORDS.values())  # a chapter's word in any language read
_BEFORE_NUMBER_ONLY = r"books?|vol\.|band|boek(?:en)?"  # part words only before a number (above)
# "the ninth book", "im zweiten Band(e)", "het negende boek": a part only in a book that heads its units so (the
# Iliad's "BOOK IX.", a novel's "Zweiter Band"), as a scene is
_BOOK_OR_VOLUME_AFTER_ORDINAL = re.compile(r"\b(?:books?|band(?:es|e)?|boek(?:en)?)\b", re.IGNORECASE)
_FINAL_AFTER_UNIT = r"final|finale"  # "le chapitre final", "el capítulo final", "il capitolo finale"
# a number written in digits as an ordinal: "the 23rd chapter", "le 23e chapitre", "el capítulo 23º", "il 23°
# capitolo", "im 23sten Kapitel", "het 23ste hoofdstuk", "в 23-й главе", "в 5-м томе", "по 5-ю главу"
_ORDINAL_SUFFIX = r"(?:st|nd|rd|th|ère|ème|eme|er|re|s?te[nmrs]?|de|e|\.?[ºª°]|-?(?:ая|ый|ой|ей|ую|ом|го|му|й|я|ю|м))"
_DIGIT_ORDINAL = rf"\d+{_ORDINAL_SUFFIX}"
# the words that join numbers in a list or a range; Polish "i" in lower case only, not a Roman I
_JOIN_WORDS = (
    "and|to|through|thru|et|à|au|und|bis|y|a|al|ao|e|и|по|до|και|(?-i:i)|oraz|do|och|till|až|és|og|til|și|şi|en|tot"
)
_JOIN = rf"\s*(?:(?:,\s*)?\b(?:{_JOIN_WORDS})\b|[,&–-]|(?<=\d)—(?=\d))\s*"  # "chapters 3, 4, and 5"; "главы 3—5"
# "from" between the unit's word and a range ("в главах с 3 по 5", "w rozdziałach od 3 do 5", "chapters from 3 to
# 5", "nei capitoli dal 3 al 5", "en los capítulos del 3 al 5", "nos capítulos do 3 ao 5"), not before one number:
# "в главе с 3 героями" is a chapter with three heroes
_RANGE_FROM = rf"(?:(?:с|со|od|von|from|dal|del|de|do|desde)\s+(?=\S+?{_JOIN}))?"
# The numbers after the chapter word, a list of one kind: digits, Roman numerals or words ("chapter 5, ten
# men arrive", "chapter 12, one of them", "chapter V, I learn" name one chapter; after a joining word four digits
# are a year: "au chapitre 3 en 1850"); an ordinal word is tried before the number words it starts with
# ("vingt-troisième" is 23, not "vingt" and a word)
_DIGITS = rf"{_DIGIT_ORDINAL}|\d+|{FRENCH_ORDINAL_NUMERAL}"  # "au chapitre 1er", "au chapitre Ier"
_WORDS = (
    rf"{ORDINAL_PATTERN}|(?:(?:{NUMBER_WORDS})[\s-]*)+|{LAST_PATTERN}|{_FINAL_AFTER_UNIT}|{RUSSIAN_OBLIQUE_AFTER_NOUN}"
)
# a Roman numeral, not a letter before an apostrophe or M., D., C. ("capitolo L'insetto", "chapitre D'Artagnan",
# "chapitre M. Fogg"), and in a list not I ("chapter V, I learn")
_ROMAN = r"(?-i:(?![IVXLCDM]['’])(?![MDC]\.)[IVXLCDM]+)"
_NUMBERS = "|".join(
    rf"(?:{first})\b(?:{_JOIN}(?:{then})\b)*"
    for first, then in ((_DIGITS, rf"(?!\d{{4}})(?:{_DIGITS})"), (_ROMAN, rf"(?!I\b){_ROMAN}"), (_WORDS, _WORDS))
)
# "Book the Third", "Chapter the Last", as older English novels head them
_NUMBERS += rf"|the\s+(?:{ORDINAL_PATTERN}|{'|'.join(ENGLISH_ORDINALS)}|last)\b"
_NUMBERS += "|" + hebrew_numeral_before("?.,:;!")  # "בפרק ג?", not "בפרק לא ברור" (it is not clear)
# an article before the next ordinal of a list, after a joining word: "the third and the fourth chapter", "au
# troisième et au quatrième" (after a comma it begins another phrase: "23º, no 2.º capítulo")
_ARTICLE = r"(?<=[^\W\d_]\s)(?:the|le|la|au|il|al|nel|el|del|o|ao|no|der|die|das|dem|den|im|zum)\s+"
_ORDINAL = (
    rf"{'|'.join(_FROM_END_WORDS.values())}|{_OPENING}|{ORDINAL_PATTERN}|{'|'.join(ENGLISH_ORDINALS)}|"
    rf"{RUSSIAN_OBLIQUE}|{_DIGIT_ORDINAL}|\d+\.|{FRENCH_ORDINAL_NUMERAL}|(?-i:[IVXLCDM]+)(?=\s+глав)|"
    r"(?-i:[IVXLCDM]+)\.(?=\s+(?:fejezet|kapitel|teil|buch|band))|\d+(?=\s+(?:главе|rozdziale|kapitole|розділі)\b)|"
    rf"\d+(?=(?:{_JOIN}\d+)+\s+глав(?:ах|ами)\b)|(?:(?<=\d\sи\s)|(?<=\d[–-]))\d+(?=\s+глав(?:ах|ами)\b)"
)  # "3. Kapitel", "le XXIIIe chapitre", "в XII главе", "im XX. Kapitel", "im II. Teil"; bare digits before a
# chapter's word in its locative singular, which no count takes ("в 9 главе", "w 9 rozdziale", "v 9 kapitole"), or
# listed before its plural ("в 3 и 4 главах", "между 3 и 5 главами", "в 3–5 главах"; "в 3 главах" is a count)
_COUNT = rf"\d+|{'|'.join(COUNT_WORDS)}"
_FIRST_ONES = r"first|premiers|premières|ersten|primer[oa]s|primi|prime|primeir[oa]s|первы[хе]"
_LAST_ONES = r"last|final|derniers|dernières|letzten|[uú]ltim[oa]s|ultimi|ultime|последни[хе]"
_EDGE = rf"(?:(?P<first>{_FIRST_ONES})|(?P<last>{_LAST_ONES}))"
_DAI_NUMBER = rf"[{DAI_NUMERALS}]+|\d+"
_DAI_JOIN = r"到|至|から|~|～|-|－|–|—|、|，|,|和|与|與|及|と"
_DAI_RANGE = r"到|至|から|~|～|-|－|–|—"
_NOT_DAI_NUMERAL = re.compile(rf"[^\d{DAI_NUMERALS}]")  # 第 and the unit around a listed number
# Portuguese writes "dos" for "of the" ("o capítulo dos ciúmes"): a Spanish "dos" after "capítulo" or
# "parte" is two only where no lowercase word follows it but one that joins numbers ("capítulos dos y tres").
_AMBIGUOUS_DOS = r"dos\b(?!\s+(?!(?:a|al|e|y|hasta|de|del)\b)[a-zà-ÿ])"
_ORDINAL_WORD = re.compile(rf"\b(?:{ORDINAL_PATTERN})\b", re.IGNORECASE)
# An ordinal after a chapter's word that is a part's, in the genitive before its word: "в третьей главе седьмой
# части" is the third chapter of the seventh part, not chapter seven; so in Polish and Czech ("w ostatnim rozdziale
# pierwszej części", "v poslední kapitole první části"); but a part's word with its own number after it follows the
# chapter's number ("w rozdziale 3 części 1", "в главе третьей части второй": chapter 3 of part 1, of part 2)
_NOT_A_PARTS_ORDINAL = (
    r"(?!\s+(?:части|тома|книги|części|tomu|księgi|části|dílu|svazku)\b"
    rf"(?!\s*(?:\d|(?-i:[IVXLC]+)\b|(?:{ORDINAL_PATTERN}|{RUSSIAN_OBLIQUE})\b)))"
)
_TIMES_MIN = 5  # 前N回 names chapters from five on: "前两回" is as often "the two times before"
_NOT_BEFORE_FIRST_LAST = r"(?<![之以然此从從随隨往其目提])"  # "之后三回" is three times later, not the last three
# 卷 before its number, as a history's or a collection's 卷 are cited ("卷二十七", 史记's 天官书; "巻三"; a range,
# "卷二至卷五"), not in a word (试卷, 花卷, 胶卷, 席卷) or as the verb with a count after it ("卷一卷", roll it up
# once; "卷三个")
_JUAN_BEFORE_NUMBER = re.compile(
    rf"(?<![试試花春胶膠考答席龙龍蛋画畫手开開])[卷巻]\s*({_DAI_NUMBER})(?:\s*({_DAI_RANGE})\s*[卷巻]\s*({_DAI_NUMBER}))?"
    r"(?!\s*[卷巻个個次遍下本张張把根条條])"
)


def _patterns(
    unit_after: str, unit_before: str, dai_kinds: tuple[str, ...], words_by_language: dict, worded: bool
) -> tuple:
    """The ways a unit is named, each with how its numbers are read and whether a part so named is
    loose: 倒数第N回; 第N回 (in a list or a range of one kind of unit, ``dai_kinds``: "第二节和第三章" is a section and
    a chapter, "第一百零五回和第3章" two chapters; then alone); 最后一回, 最初の章, 前N回, 后N回; and with
    ``worded``, those built on the unit's word in letters: the word before its number(s); after its ordinal; a
    count of the first or last ones ("the first three chapters", "les trois premiers chapitres"); the word before
    cardinal numbers of its own language (``_cardinal_patterns``)."""
    units = rf"[{''.join(dai_kinds)}](?!(?<=回)[合目])"  # not 回合, a fight's round, nor 回目, a time ("第三回目")
    dai = (
        (re.compile(rf"倒[数數]第\s*({_DAI_NUMBER})\s*{units}"), _from_end, False),
        (
            re.compile(
                "|".join(
                    rf"第\s*(?:{_DAI_NUMBER})(?:\s*[{kind}])?(?:\s*(?:{_DAI_JOIN})\s*第?\s*(?:{_DAI_NUMBER})(?:\s*[{kind}])?)+?"
                    rf"(?<=[{kind}])(?!(?<=回)[合目])"  # as few numbers as end at the unit's character
                    for kind in dai_kinds
                )
            ),
            _dai_listed,
            False,
        ),
        (re.compile(rf"第\s*({_DAI_NUMBER})\s*{units}"), _numbered, False),
        # 终章 / 終章 too, the last chapter (not 始終, "always")
        (
            re.compile(
                rf"(最[后後終终]|最初|(?<![始最])[終终](?={units}))(?:\s*の)?\s*([{DAI_NUMERALS}]+|\d+)?\s*{units}"
            ),
            _dai_edge,
            False,
        ),
        (re.compile(rf"{_NOT_BEFORE_FIRST_LAST}([前后後])\s*([{DAI_NUMERALS}]+|\d+)\s*{units}"), _dai_edge, False),
    )
    if not worded:
        return dai
    return (
        *dai,
        (
            re.compile(
                rf"{_UNIT_START}(?:{unit_before})\s*{_RANGE_FROM}({_NUMBERS}){_NOT_A_PARTS_ORDINAL}", re.IGNORECASE
            ),
            _numbers_listed,
            False,
        ),
        (
            re.compile(
                rf"\b((?:{_ORDINAL})(?:{_JOIN}(?:{_ARTICLE})?(?:{_ORDINAL}))*)\s+(?:{unit_after})\b",
                re.IGNORECASE,
            ),
            _ordinals_listed,
            True,
        ),
        (re.compile(rf"\b{_EDGE}\s+(?P<count>{_COUNT})\s+(?:{unit_after})\b", re.IGNORECASE), _counted, True),
        (re.compile(rf"\b(?P<count>{_COUNT})\s+{_EDGE}\s+(?:{unit_after})\b", re.IGNORECASE), _counted, True),
        *_cardinal_patterns(words_by_language),
    )


def _cardinal_patterns(words_by_language: dict) -> list[tuple]:
    """The unit's word of a language before that language's cardinal numbers ("au chapitre cinq", "im
    Kapitel fünf", "en el capítulo veintiuno", "в главе пять"), a list or range of them too ("chapitres
    cinq et six"); a language's own only: after "chapter" an English "once" is no eleven."""
    patterns = []
    for languages, words in words_by_language.items():
        cardinals = [word for language in languages for word in CARDINAL_WORDS.get(language, ())]
        if not cardinals:
            continue
        spelled = words_pattern(cardinals)
        if "dos" in cardinals:
            number = rf"{_AMBIGUOUS_DOS}|(?:{words_pattern([word for word in cardinals if word != 'dos'])})\b"
        else:
            number = rf"(?:{spelled})\b"
        listed = rf"(?:{number})(?:{_JOIN}(?:{number}|\d+\b))*"
        pattern = re.compile(rf"\b(?:{words})\s+({listed})", re.IGNORECASE)
        each = re.compile(rf"\b(?:{spelled})\b", re.IGNORECASE)
        patterns.append((pattern, partial(_cardinals_listed, languages=languages, each=each), False))
    return patterns


def _cardinals_listed(match: re.Match, languages: tuple[str, ...], each: re.Pattern) -> tuple[int, ...]:
    """The numbers of a list of cardinals, each compound read whole before the list is cut at its
    joining words ("vingt et un", "treinta y dos", "vinte e três")."""
    numbers = each.sub(lambda m: str(cardinal_value(m.group(), languages)), match.group(1))
    return _listed(numbers, _range_after(match.group(0)))


# Dutch "hoofdstuk 3 tot 5", Spanish "20 al 22"
_RANGE_WORDS = "to|through|thru|à|au|bis|a|al|ao|по|до|do|till|až|til|tot"
_RANGE = re.compile(rf"-|–|—|\b(?:{_RANGE_WORDS})\b", re.IGNORECASE)
# Czech and Slovak "a" is "and": "kapitoly 3 a 5" are two chapters, where Spanish "capítulos 3 a 5" are three
_CZECH_UNIT = re.compile(rf"(?:{_CHAPTER_WORDS['cs',]}|{_PART_WORDS['cs',]})\b", re.IGNORECASE)
_CZECH_RANGE = re.compile(rf"-|–|—|\b(?:{_RANGE_WORDS.replace('|a|', '|')})\b", re.IGNORECASE)


def _range_after(unit: str) -> re.Pattern:
    """The words that make a range of two numbers after the chapter or part word ``unit``."""
    return _CZECH_RANGE if _CZECH_UNIT.match(unit) else _RANGE


@dataclass(frozen=True)
class ChapterMention:
    """A place where a text names chapters (or, with ``part``, parts): the words as written and the
    numbers they give (below zero, counted from the end: -1 the last)."""

    text: str
    numbers: tuple[int, ...]
    part: bool = False
    loose: bool = False  # a part named by an ordinal ("the first part"), which may be a letter's or a plan's
    headed_only: bool = False  # named by an everyday word ("act", "letter"): counts where the book heads its units so
    start: int = field(default=0, compare=False)  # where ``text`` begins in the text it was read from
    relation: str | None = None  # named as a bound: "before", "through", "after", "from" (``chapter_scope``)


def chapter_mentions(text: str) -> list[ChapterMention]:
    """Every chapter and part mention in ``text``, in the order written; a number that cannot be
    read ("chapter the seventy-seventh") makes none."""
    found: list[tuple[int, ChapterMention]] = []
    taken: list[range] = []
    for part, patterns in _patterns_by_unit(_UNIT_WORD.search(text) is not None):
        for pattern, read, loose in patterns:
            for match in pattern.finditer(text):
                span = range(match.start(), match.end())
                if any(span.start < other.stop and other.start < span.stop for other in taken):
                    continue
                numbers = read(match)
                if numbers:
                    taken.append(span)
                    words = match.group(0).strip()
                    headed_only = (
                        unit_kind(words) is not None or part and loose and _BOOK_OR_VOLUME_AFTER_ORDINAL.search(words)
                    )
                    start = match.start() + len(match.group(0)) - len(match.group(0).lstrip())
                    mention = ChapterMention(words, numbers, part, part and loose, bool(headed_only), start)
                    found.append((match.start(), mention))
    return [mention for _, mention in sorted(found, key=lambda item: item[0])]


def _value(token: str) -> tuple[int, ...]:
    """One number: a count from the end ("last", "penultimate", "предпоследней"), "opening", an
    ordinal (a Russian one in any case), or a number as a heading writes it."""
    lowered = token.lower().removeprefix("the ")
    if written := re.fullmatch(rf"(\d+|[ivxlcdm]+){_ORDINAL_SUFFIX}", lowered):  # "23rd", "23e", "XXIIIe"
        lowered = written.group(1)
    for value, words in _FROM_END_WORDS.items():
        if re.fullmatch(words, lowered):
            return (value,)
    if lowered == _OPENING:
        return (1,)
    if lowered in ENGLISH_ORDINALS:
        return (ENGLISH_ORDINALS.index(lowered) + 1,)
    return _one(nominative(lowered))


def _numbered(match: re.Match) -> tuple[int, ...]:
    """第五回, "the fifth chapter": the one number of the match's first group."""
    return _value(match.group(1))


def _numbers_listed(match: re.Match) -> tuple[int, ...]:
    return _listed(match.group(1), _range_after(match.group(0)))


def _ordinals_listed(match: re.Match) -> tuple[int, ...]:
    """ "the fifth chapter", "the second-to-last chapter", "the second and third chapters": one ordinal
    read whole, a list of them one by one."""
    ordinals, unit = match.group(1), match.string[match.end(1) : match.end()].strip()
    return (
        _value(ordinals) if re.fullmatch(_ORDINAL, ordinals, re.IGNORECASE) else _listed(ordinals, _range_after(unit))
    )


def _one(token: str) -> tuple[int, ...]:
    value = number_value(token)
    return (value,) if value else ()


def _from_end(match: re.Match) -> tuple[int, ...]:
    """倒数第二回: the second chapter from the end."""
    return tuple(-n for n in _one(match.group(1)))


def _listed(numbers: str, ranges: re.Pattern = _RANGE) -> tuple[int, ...]:
    """The numbers of "3", "3 and 7", "3, 5 and 7", "3-5" ("chapters 3 to 5": each chapter between);
    a number's words joined by a hyphen are one number ("twenty-one"), and so are an ordinal's ("vingt et
    unième", "vingt-deuxième")."""
    numbers = _ORDINAL_WORD.sub(lambda m: str(ordinal_value(m.group())), numbers)
    numbers = re.sub(rf"\b(\d+){_ORDINAL_SUFFIX}(?!\w)", r"\1", numbers)  # "23-й и 24-й": 23 and 24
    numbers = re.sub(rf"({_JOIN}){_ARTICLE}", r"\1", numbers, flags=re.IGNORECASE)  # "3 et au 4": 3 et 4
    numbers = re.sub(rf"\b({NUMBER_WORDS})-(?=(?:{NUMBER_WORDS})\b)", r"\1 ", numbers, flags=re.IGNORECASE)
    values: list[int] = []
    pieces = re.split(rf"({_JOIN})", numbers, flags=re.IGNORECASE)
    for k in range(0, len(pieces), 2):
        value = next(iter(_value(pieces[k].strip())), None)
        if value is None:
            break
        add_number(values, value, k >= 2 and bool(ranges.search(pieces[k - 1])))
    return tuple(dict.fromkeys(values))


def _dai_listed(match: re.Match) -> tuple[int, ...]:
    """第N回 in a list or a range: "第三、四回", "第三、四、五回", "第二十回到第二十二回", "第30-32回"."""
    pieces = re.split(rf"\s*({_DAI_JOIN})\s*", match.group(0).strip())
    values: list[int] = []
    for k in range(0, len(pieces), 2):
        value = _one(_NOT_DAI_NUMERAL.sub("", pieces[k]))
        if not value:
            return ()
        add_number(values, value[0], k >= 2 and bool(re.fullmatch(_DAI_RANGE, pieces[k - 1])))
    return tuple(dict.fromkeys(values))


def _juan_listed(match: re.Match) -> tuple[int, ...]:
    """卷N, or a range of them, "卷二至卷五"."""
    return _first_to_last(match.group(1), match.group(3))


def _first_to_last(first: str, last: str | None) -> tuple[int, ...]:
    """A number, or a range from it to ``last`` when one is given."""
    values = list(_one(first))
    if values and last and (end := _one(last)):
        add_number(values, end[0], joined_by_range=True)
    return tuple(values)


def _dai_edge(match: re.Match) -> tuple[int, ...]:
    """The first or last chapters counted: 最后一回 / 最終章 (the last), 最初の章 (the first), 前八十回 (the
    first eighty), 后四十回 (the last forty), 最后三回. After 前 or 后 a count of one is "the chapter
    before", which a question's text cannot place, and 回, which counts times too, needs five or more
    (西游记's "前两回虽赢" is "won the two times before")."""
    edge, count = match.group(1), match.group(2)
    value = number_value(count) if count else 1
    if edge in ("前", "后", "後") and (value or 0) < (_TIMES_MIN if match.group(0).endswith("回") else 2):
        return ()
    return edge_numbers(edge in ("前", "最初"), value)


def _counted(match: re.Match) -> tuple[int, ...]:
    """A count of the first or last chapters: "the first three", "les deux derniers", "в первых трёх"."""
    count = match.group("count").lower()
    value = int(count) if count.isdigit() else COUNT_WORDS[count]
    return edge_numbers(bool(match.group("first")), value) if value >= 2 else ()


# A number in digits before 章 without 第, as a Japanese or Chinese question may write it ("12章で", "3章から5章",
# "在12章里"); not a count of chapters ("全12章", "共12章", "12章からなる", "12章ある"), and in Chinese numerals only
# after 第 ("三章" is as often three chapters)
_DIGITS = r"\d+|[０-９]+"
_DIGITS_BEFORE_ZHANG = re.compile(
    rf"(?<![第全共计計约約总總\d０-９])({_DIGITS})(?:\s*章?\s*(?:{_DAI_RANGE})\s*({_DIGITS}))?\s*章"
    r"(?=では|で|には|に|の|を|が|は|まで|と|中|里|裡|内|末|$|[，,。？?、！!\s」）)]|から(?!な|成))"
)


# Norwegian and Danish "del" (a part) after their own ordinals alone ("i annen del", "i første og anden del"):
# Spanish "del" is "of the" ("el segundo del grupo")
_NORWEGIAN_PART = re.compile(
    rf"\b((?:{NORWEGIAN_ORDINAL})(?:{_JOIN}(?:{NORWEGIAN_ORDINAL}))*)\s+del(?:en|e)?\b", re.IGNORECASE
)
# A Japanese counter's ordinal ("三章目", "3話目": the third chapter, the third episode); not 回目, which counts times
# ("二回目の訪問", the second visit)
_COUNTER_ORDINAL = re.compile(rf"(?<![第全共\d０-９{DAI_NUMERALS}])([{DAI_NUMERALS}]+|{_DIGITS})\s*[章話话]目")


def _digits_listed(match: re.Match) -> tuple[int, ...]:
    """12章, or a range of them ("3章から5章", "3～5章")."""
    return _first_to_last(match.group(1), match.group(2))


# A unit's word in letters in any language read ("chapter", "глава", "Teil", "book", "scene", "letter"): a text
# without one matches none of the patterns built on these words, which are most of the compiling
_UNIT_WORD = re.compile(
    "|".join([CHAPTER_WORD, *_PART_WORDS.values(), _BEFORE_NUMBER_ONLY, *(w.pattern for w in _UNIT_KINDS.values())]),
    re.IGNORECASE,
)


@cache
def _patterns_by_unit(worded: bool) -> tuple[tuple[bool, tuple], ...]:
    """The chapters' patterns (scenes', letters'... too), then the parts' and acts' (``part`` True), compiled on
    the first text read; those built on a unit's word in letters (``worded``) on the first text that has one: they
    take most of a second, which a command that reads no question (``clueweaver chapters``, ``index``) or no such
    word need not pay."""
    units, acts = _CHAPTER_WORDS, _joined(_PART_WORDS, _ACT_WORDS)
    for words in _HEADED_CHAPTER_WORDS.values():
        units = _joined(units, words)
    chapter, part = "|".join(units.values()), "|".join(acts.values())
    chapters = _patterns(chapter, chapter, ("回章话話", "节節", "场場"), units, worded)
    parts = _patterns(
        rf"{part}|{_BOOK_OR_VOLUME_AFTER_ORDINAL.pattern}",
        rf"{part}|{_BEFORE_NUMBER_ONLY}",
        ("卷巻部", "幕"),
        acts,
        worded,
    )
    parts = (
        *parts,
        (_NORWEGIAN_PART, _ordinals_listed, True),
        (_JUAN_BEFORE_NUMBER, _juan_listed, False),
        *korean_patterns("부|편|권|막"),
    )
    return (
        False,
        (
            *chapters,
            (_DIGITS_BEFORE_ZHANG, _digits_listed, False),
            (_COUNTER_ORDINAL, _numbered, False),
            *korean_patterns("장"),
            *korean_patterns("절"),
        ),
    ), (True, parts)


def _joined(words: dict, more: dict) -> dict:
    """Two tables of a unit's words by language as one: a language's words in both, each alternative kept."""
    return {
        **words,
        **{languages: f"{words[languages]}|{w}" if languages in words else w for languages, w in more.items()},
    }
