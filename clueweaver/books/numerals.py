"""The numbers a heading carries, read as values: digits (full-width ones too), Roman numerals (with
the Cyrillic look-alikes Russian e-texts type: "Глава ХI"), Chinese numerals ("一百零五"), Greek
numerals ("ΙΒ'"), English number words ("twenty-four", "the first") and the ordinal words of the
other languages (``clueweaver.books.ordinals``). The chapter finder (``clueweaver.books.chapters``)
matches the headings; this reads their numbers."""

from __future__ import annotations

import re

from clueweaver.books.ordinals import ordinal_value

# A French ordinal in capital Roman numerals or digits: "CHAPITRE Ier", "Livre IIe", "Chapitre 1er", "XXIIIe"
# (not the words "Le", "De", "Der", "Mère": the first one is the only one in -er, -re or -ère)
FRENCH_ORDINAL_NUMERAL = r"(?-i:[I1](?:er|re|ère)|(?![LCDM](?:e|ème)\b)[IVXLCDM]+(?:e|ème)|\d+(?:e|ème))"
NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred"
)
# Zero is also typed as a white circle (○, U+25CB) for 〇: Project Gutenberg's 三國演義 heads "第一○○回".
CJK_NUMERALS = "零〇○一二三四五六七八九十百千两兩"
_CJK_DIGITS = {c: n for n, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "○": 0, "两": 2, "兩": 2}
# The formal numerals older editions number chapters with after 第 (破戒's "第壱章" to "第弐拾参章", "第廿一回"),
# read as the common ones; only after 第, where no word can be meant ("参加", "陸軍" are words).
_FORMAL_AS_COMMON = {"壱壹": "一", "弐貳贰": "二", "参參叁": "三", "肆": "四", "伍": "五", "陸陆": "六", "柒": "七"}
_FORMAL_AS_COMMON |= {"捌": "八", "玖": "九", "拾": "十", "佰": "百", "仟阡": "千", "廿": "二十", "卅": "三十"}
_FORMAL = str.maketrans({c: common for formal, common in _FORMAL_AS_COMMON.items() for c in formal})
DAI_NUMERALS = CJK_NUMERALS + "".join(_FORMAL_AS_COMMON)  # the numerals after 第 (dai)
# Korean writes the same numbers in Hangul, one syllable for each Han numeral ("제이십삼장", chapter 23; 륙 is 육
# after a vowel); read only where a heading's or a question's 제 and unit stand around them ("제일" alone is "best").
SINO_KOREAN_NUMERALS = "영공일이삼사오육륙칠팔구십백천"
_SINO_KOREAN = str.maketrans(SINO_KOREAN_NUMERALS, "零〇一二三四五六六七八九十百千")
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
# A Hebrew numeral as chapters are numbered ("פרק יא", "פרק ט״ו", "פרק כ״ג", "פרק ג'"): hundreds, tens and units in
# that order, each letter once, 15 and 16 written ט״ו and ט״ז. Without a geresh or gershayim (or an apostrophe or a
# quote typed for them) only one letter, or a teen: the other pairs are words as often ("לא", not, is 31; "לו", to
# him, 36), and an order other than this is a word ("זמן", "כי").
_GERESH = "[\u05f3\u05f4'\"]"
_CANONICAL = (
    f"(?:[קרשת]{_GERESH}?)?(?:ט{_GERESH}?[וז]|[יכלמנסעפצ]{_GERESH}?[אבגדהוזחט]?|[אבגדהוזחט]){_GERESH}?"
    f"|[קרשת]{_GERESH}?"
)
HEBREW_NUMERAL = f"(?=[א-ת]{{0,3}}{_GERESH})(?:{_CANONICAL})|י[אבגדהוזחט]|ט[וז]|[אבגדהוזחטיכלמנסעפצקרשת]"


def hebrew_numeral_before(marks: str) -> str:
    """A Hebrew numeral at the line's end or before one of ``marks``: as a number it ends its phrase, where a
    word its letters spell goes on ("פרק ב: בבית", "בפרק ג?"; "פרק לא נגמר", a chapter not ended, is prose)."""
    return rf"(?:{HEBREW_NUMERAL})(?=\s*(?:$|[{marks}]))"


_HEBREW_LETTERS = {letter: value * step for letters, step in (("אבגדהוזחט", 1), ("יכלמנסעפצ", 10), ("קרשת", 100))
                   for value, letter in enumerate(letters, start=1)}  # fmt: skip
# Norwegian and Danish ordinals in digits, as their chapter headings write them ("1ste Kapitel.", "2det", "6te")
DANISH_ORDINAL_DIGITS = re.compile(r"(\d+)(?:ste|den|det|dje|die|de|te|nde)")
# Russian e-texts often type a roman numeral's X and I as the Cyrillic look-alikes Х and І ("Глава Х").
_CYRILLIC_ROMAN = str.maketrans("хі", "xi")
# The keraia that follows a Greek numeral, typed in any of its look-alikes
KERAIA = "\u0374\u0384\u02b9'\u2019"
_SMALL = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
ENGLISH_UNITS = {w: n for n, w in enumerate((_SMALL + " seventeen eighteen nineteen").split())}
ENGLISH_TENS = {
    w: 10 * n for n, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if n > 1
}
ENGLISH_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
_ORDINALS = {w: n for n, w in enumerate(ENGLISH_ORDINALS, start=1)}
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
# The value of each Greek numeral letter: units, tens, hundreds (ϛ stigma 6, also written ΣΤ; ϝ digamma 6,
# ϟ ϙ koppa 90, ϡ sampi 900)
_GREEK_DIGITS = {
    letter: value * step
    for letters, step in (("αβγδεϛζηθ", 1), ("ικλμνξοπϟ", 10), ("ρστυφχψωϡ", 100))
    for value, letter in enumerate(letters, start=1)
} | {"ϝ": 6, "ϙ": 90}


def number_value(token: str) -> int | None:
    """The value of a heading's number: 12, XII (ХII, with a Cyrillic Х), "twenty-four", "the first", "first", 二十三
    or 이십삼; None when unreadable."""
    token = token.strip().rstrip(".").rstrip("ºª°").rstrip(".")  # "2.ª": 2
    if re.fullmatch(FRENCH_ORDINAL_NUMERAL, token):  # "Ier", "IIe", "1er": the numeral without its ending
        token = token.rstrip("eèrm")
    if danish := DANISH_ORDINAL_DIGITS.fullmatch(token):  # "1ste", "2det", "6te": Norwegian and Danish
        token = danish.group(1)
    token = token.lower()
    if token.isdigit():
        return int(token)
    common = token.translate(_FORMAL).translate(_SINO_KOREAN)
    if common and all(c in _CJK_DIGITS or c in _CJK_UNITS for c in common):
        return _cjk_value(common)
    if (ordinal := ordinal_value(token)) is not None:
        return ordinal
    if token[:1] in _HEBREW_LETTERS and re.fullmatch(HEBREW_NUMERAL, token):
        return sum(_HEBREW_LETTERS.get(c, 0) for c in token)
    if token[:1] in _GREEK_DIGITS:
        return _greek_value(token.rstrip(KERAIA))
    roman = token.translate(_CYRILLIC_ROMAN)
    if re.fullmatch(r"[ivxlcdm]+", roman):
        values = [_ROMAN[c] for c in roman]
        total = sum(-v if v < after else v for v, after in zip(values, values[1:] + [0]))
        return total if 0 < total < 4000 and _roman(total) == roman else None  # "mild" is a word
    if token in _ORDINALS:  # "FIRST EPILOGUE"
        return _ORDINALS[token]
    if token.startswith("the"):  # "Chapter the First", "Chapter the Twenty-Third"
        last = token.removeprefix("the").strip()
        return _ORDINALS.get(last) or ordinal_value(last)
    total = 0
    for word in re.split(r"[\s-]+", token):
        if word in ENGLISH_UNITS:
            total += ENGLISH_UNITS[word]
        elif word in ENGLISH_TENS:
            total += ENGLISH_TENS[word]
        elif word == "hundred":
            total = max(total, 1) * 100
        elif word:
            return None
    return total or None


def _cjk_value(token: str) -> int:
    """A number in Chinese numerals: 十一 11, 二十 20, 一百零五 105, 两百 200; without 十百千, digit
    by digit (一二〇: 120)."""
    if not any(c in _CJK_UNITS for c in token):
        return int("".join(str(_CJK_DIGITS[c]) for c in token))
    total, digit = 0, 0
    for c in token:
        if c in _CJK_UNITS:
            total, digit = total + (digit or 1) * _CJK_UNITS[c], 0
        else:
            digit = _CJK_DIGITS[c]
    return total + digit


def _greek_value(letters: str) -> int | None:
    """A Greek numeral's value ("ιβ" 12, "στ" 6, "ρκγ" 123); None unless it has at most one letter
    of each order (hundreds, tens, units), largest first."""
    letters = letters[:-2] + "ϛ" if letters.endswith("στ") else letters
    values = [_GREEK_DIGITS.get(c) for c in letters]
    if None in values:
        return None
    orders = [len(str(value)) for value in values]
    return sum(values) if orders == sorted(set(orders), reverse=True) else None


def _roman(value: int) -> str:
    out = ""
    for number, letters in zip(
        (1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1),
        ("m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i"),
    ):
        count, value = divmod(value, number)
        out += letters * count
    return out


_CJK_DIGIT_CHARACTERS = "〇一二三四五六七八九"
_DIGITS = re.compile(r"\d+")
_CHINESE_NUMERAL_LIMIT = 10**8  # up to 九千九百九十九万...: past it a number is written digit by digit


def chinese_numerals(text: str) -> str:
    """``text`` with its numbers in digits written in Chinese numerals, as a Chinese novel writes them
    ("500两" is "五百两", "第12回" "第十二回", "105" "一百零五"); a year ("1998年"), a number with a
    leading zero or one past the limit digit by digit ("一九九八年")."""

    def written(match: re.Match) -> str:
        digits = match.group()
        value = int(digits)
        year = len(digits) == 4 and text[match.end() : match.end() + 1] == "年"
        if year or digits[0] == "0" and len(digits) > 1 or value >= _CHINESE_NUMERAL_LIMIT:
            return "".join(_CJK_DIGIT_CHARACTERS[int(d)] for d in digits)
        return chinese_numeral(value)

    return _DIGITS.sub(written, text)


def chinese_numeral(value: int) -> str:
    """0 to 99,999,999 in Chinese numerals: 10 十, 12 十二, 105 一百零五, 1050 一千零五十, 20000 二万,
    10500 一万零五百."""
    if value == 0:
        return "〇"
    high, low = divmod(value, 10_000)
    if not high:
        return _below_ten_thousand(low, leading=True)
    tail = ("零" if low < 1000 else "") + _below_ten_thousand(low, leading=False) if low else ""
    return _below_ten_thousand(high, leading=True) + "万" + tail


def _below_ten_thousand(value: int, *, leading: bool) -> str:
    """1 to 9,999; ``leading``: the number's first group, where 10-19 drop their 一 ("十二", not "一十二")."""
    out, gap = "", False
    for unit, character in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = value // unit % 10
        if not digit:
            gap = gap or bool(out)
            continue
        out += "零" if gap else ""
        gap = False
        out += "" if (unit == 10 and digit == 1 and not out and leading) else _CJK_DIGIT_CHARACTERS[digit]
        out += character
    return out


def numeral_word_value(word: str) -> int | None:
    """The value of a word written only in Chinese numerals, with 万 (ten thousand): 三 3, 五百 500,
    十二万三千 123000; None for any other word. A Japanese text's numbers, cut by MeCab as words of
    their own, are read so (a question's "500円" meets a novel's "五百円")."""
    if (
        not word
        or word.count("万") > 1
        or any(c not in _CJK_DIGITS and c not in _CJK_UNITS and c != "万" for c in word)
    ):
        return None
    high, ten_thousands, low = word.partition("万")
    if not ten_thousands:
        return _cjk_value(word)
    return (_cjk_value(high) if high else 1) * 10_000 + (_cjk_value(low) if low else 0)
