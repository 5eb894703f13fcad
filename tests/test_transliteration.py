"""A question in Latin letters about a Chinese, Japanese, Korean or Russian book: its names are read in the
book's script (pinyin, romaji, romanization, transliteration), join the BM25 queries, and the trace names each
one."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypinyin import Style, lazy_pinyin
from pypinyin.pinyin_dict import pinyin_dict

from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.books.narrative import from_text
from clueweaver.cli import main
from clueweaver.pipeline import ClueWeaver, PipelineConfig, format_result
from clueweaver.protocol.question import Question
from clueweaver.retrieval import build_index
from clueweaver.retrieval.transliteration import (
    _MAX_MASKS,
    NameBridge,
    _pinyin_syllables,
    _wade_giles,
    english_numbers,
    hepburn,
    korean_key,
    phonetic_key,
    revised_romanization,
    romaji_key,
)
from clueweaver.segments.segmenter import NoMatchError, get_preset, segment_narrative
from clueweaver.sources.base import SourceRequest
from clueweaver.sources.registry import candidate_segments

STORY = [
    "林黛玉自幼多病，住在外祖母家里，每日吃药。",
    "宝玉听说林黛玉来了，忙去看她，两人说了半日的话。",
    "那天林黛玉在园中葬花，宝玉远远看见，便走了过去。",
    "宝玉的丫头袭人劝他早些回去，宝玉只是不听。",
    "清虚观的张道士送来许多玩物，宝玉挑了一个金麒麟。",
    "清虚观里人多，清虚观外车马不断。",
    "贾母说，天热了，明日不去了。",
]


def _zh_bridge() -> NameBridge:
    return NameBridge(STORY, "zh")


def test_a_latin_word_splits_into_every_pinyin_reading_and_a_word_that_is_none_into_nothing():
    assert ("bao", "yu") in _pinyin_syllables("baoyu")
    assert _pinyin_syllables("chang'an")[0] == ("chang", "an")  # the apostrophe ends a syllable
    assert _pinyin_syllables("taoist") == [] and _pinyin_syllables("when") == []


def test_chinese_names_are_read_by_the_pinyin_of_the_books_characters():
    names = {name.asked: name.written for name in _zh_bridge().names("Why did Lin Daiyu and Baoyu meet at Qingxu?")}
    assert names == {"Lin Daiyu": ("林黛玉",), "Baoyu": ("宝玉",), "Qingxu": ("清虚",)}


def test_a_name_hyphenated_by_syllable_as_hawkes_writes_it_is_read_too():
    names = {name.asked: name.written for name in _zh_bridge().names("Did Bao-yu see Lin Dai-yu's flowers?")}
    assert names == {"Bao-yu": ("宝玉",), "Lin Dai-yu's": ("林黛玉",)}


@pytest.mark.parametrize(
    ("asked", "written"),
    [("Lin Tai-yü", "林黛玉"), ("Lín Dàiyù", "林黛玉"), ("Pao-yü", "宝玉"), ("Ch'ing-hsü", "清虚")],
)
def test_wade_giles_and_tone_marks_are_read_as_pinyin(asked, written):
    (name,) = _zh_bridge().names(f"What did {asked} see?")
    assert (name.asked, name.written) == (asked, (written,))


@pytest.mark.parametrize(
    ("wade_giles", "pinyin"),
    [
        ("chia", "jia"),
        ("hsi", "xi"),
        ("k'ung", "kong"),
        ("ssu", "si"),
        ("shih", "shi"),
        ("yeh", "ye"),
        ("ch'ing", "qing"),
    ],
)
def test_a_wade_giles_syllable_is_read_as_its_pinyin(wade_giles, pinyin):
    assert pinyin in _wade_giles(wade_giles)


def test_each_name_is_read_as_often_as_the_question_writes_it():
    names = _zh_bridge().names("Baoyu met Lin Daiyu; then Baoyu left.")
    assert [name.asked for name in names] == ["Baoyu", "Lin Daiyu", "Baoyu"]


def test_a_name_the_book_writes_rarely_or_one_syllable_alone_is_not_read():
    bridge = _zh_bridge()
    assert bridge.names("What did Xiren say?") == []  # 袭人 is written once
    assert bridge.names("What did Jia say?") == []  # one syllable could be forty characters
    # the book never writes 贾宝玉: the given name alone is read
    assert [(n.asked, n.written) for n in bridge.names("What did Jia Baoyu say?")] == [("Baoyu", ("宝玉",))]


# characters with one reading only: pypinyin's own reading of a phrase of them is the oracle
_ONE_READING = [chr(code) for code, readings in pinyin_dict.items() if "," not in readings and 0x4E00 <= code < 0x9FA6]


@given(st.lists(st.sampled_from(_ONE_READING[:3000]), min_size=2, max_size=3))
def test_a_name_spelled_in_pypinyins_reading_finds_the_characters_it_spells(characters):
    name = "".join(characters)
    book = [f"{name}来了。", f"他看见{name}。", f"{name}走了。"]
    spelled = "".join(lazy_pinyin(name, style=Style.NORMAL)).replace("ü", "u").replace("v", "u").capitalize()
    (found,) = NameBridge(book, "zh").names(f"Who is {spelled}?")
    assert name in found.written


@pytest.mark.parametrize(
    "spellings",
    [
        ("Yevgeny", "Evgenii", "Jewgeni", "Евгений"),
        ("Kirsanov", "Kirsanoff", "Кирсанов"),
        ("Kukshina", "Kukschina", "Кукшина"),
        ("Chichikov", "Tschitschikow", "Чичиков"),
    ],
)
def test_russian_names_meet_whichever_transliteration_writes_them(spellings):
    *latin, cyrillic = spellings
    assert len({phonetic_key(spelling) for spelling in latin}) == 1
    book = [f"{cyrillic} пришёл.", f"— Здравствуй, {cyrillic}!", f"{cyrillic} молчал.", "Никто не пришёл."]
    for spelling in latin:
        (found,) = NameBridge(book, "ru").names(f"Why did {spelling} come?")
        assert found.written == (cyrillic,), spelling
    assert NameBridge(book, "ru").names("Why did Nikto come?") == []  # "Никто" is written once


@pytest.mark.parametrize(
    ("asked", "cyrillic"),
    [
        ("Basarow", "Базаров"),  # German: з as a single s between vowels, в as w
        ("Odinzowa", "Одинцова"),  # German: ц as z
        ("Michail", "Михаил"),  # German: х as ch
        ("Wassili", "Василий"),  # German and French: с as ss between vowels
        ("Petrovitch", "Петрович"),  # French, and English before the Second World War: ч as tch
        ("Koukchina", "Кукшина"),  # French: ш as ch, у as ou
        ("Sergueïevna", "Сергеевна"),  # French: г as gu before e, й as ï between vowels
        ("Chichikov", "Чичиков"),  # English ch stays ч
    ],
)
def test_a_russian_name_is_read_as_english_german_and_french_transliterations_write_it(asked, cyrillic):
    book = [f"{cyrillic} пришёл.", f"— Здравствуй, {cyrillic}!", f"{cyrillic} молчал.", "Никто не пришёл."]
    (found,) = NameBridge(book, "ru").names(f"Warum kam {asked}?")
    assert found.written == (cyrillic,)


def test_the_english_reading_of_a_russian_name_goes_first():
    """Chatov is Чатов as English writes it and Шатов as French does: a book with both is read the English way."""
    book = [f"{name} пришёл." for name in ("Чатов", "Шатов") for _ in range(3)]
    assert [n.written for n in NameBridge(book, "ru").names("Qui est Chatov ?")] == [("Чатов",)]
    assert [n.written for n in NameBridge(book[3:], "ru").names("Qui est Chatov ?")] == [("Шатов",)]


@pytest.mark.parametrize(
    ("katakana", "romaji"),
    [("サンシロー", "sanshiro"), ("キョースケ", "kyosuke"), ("シャシン", "shashin"), ("チョット", "chotto"),
     ("ジュンサ", "junsa"), ("ハラグチ", "haraguchi")],
)  # fmt: skip
def test_a_pronunciation_in_katakana_is_written_in_hepburn(katakana, romaji):
    assert hepburn(katakana) == romaji


@pytest.mark.parametrize(
    "spellings", [("Sanshirō", "Sanshirou", "Sanshiro", "Sansiro"), ("Shimbashi", "Shinbashi", "Sinbasi"), ("Sensei",)]
)
def test_japanese_names_meet_whichever_romaji_writes_them(spellings):
    assert len({romaji_key(spelling) for spelling in spellings}) == 1
    assert romaji_key("Sensei") == romaji_key(hepburn("センセー"))  # UniDic writes the long vowel "ー"


def test_japanese_names_are_read_by_the_romaji_of_the_books_nouns():
    book = [
        "三四郎は池のそばに立っていた。",
        "美禰子が三四郎を見た。",
        "三四郎は野々宮に会った。",
        "美禰子は笑った。",
        "美禰子が来た。",
    ]
    names = {
        name.asked: name.written for name in NameBridge(book, "ja").names("Did Sanshiro meet Mineko or Nonomiya?")
    }
    assert names == {"Sanshiro": ("三四郎",), "Mineko": ("美禰子",)}  # 野々宮 is written once


@pytest.mark.parametrize(
    ("hangul", "romanized"),
    [("정희", "jeonghui"), ("일복", "ilbok"), ("양순", "yangsun"), ("엄영록", "eomyeongrok"), ("의성", "uiseong"),
     ("고운사", "gounsa"), ("꽃", "kkot"), ("닭", "dak")],
)  # fmt: skip
def test_hangul_is_written_in_the_revised_romanization_syllable_by_syllable(hangul, romanized):
    assert revised_romanization(hangul) == romanized


@pytest.mark.parametrize(
    "spellings", [("Jeonghui", "Chŏnghŭi", "Chonghui"), ("Dongjin", "Tongjin"), ("Ilbok", "Ilpok")]
)
def test_korean_names_meet_whichever_romanization_writes_them(spellings):
    """The Revised Romanization and McCune-Reischauer's (voicing, breves) meet, and meet the book's Hangul."""
    assert len({korean_key(spelling) for spelling in spellings}) == 1
    assert korean_key("Chŏnghŭi") == korean_key(revised_romanization("정희"))


def test_korean_names_are_read_by_the_romanization_of_the_books_words_with_their_particles():
    book = [
        "정희가 일복에게 편지를 썼다.", "일복은 정희를 기다렸다.", "정희는 울었다.", "엄영록이 장에 왔다.",
        "엄영록은 술을 마셨다.", "엄영록의 누이가 웃었다.", "자네 왔는가.", "자네가 일복인가.", "자네는 누군가.",
        "일복이 갔다.",
    ]  # fmt: skip
    asked = "Did Jeonghui write to Ilbok before Eom Yeongrok came? Jane did not."
    names = {name.asked: name.written for name in NameBridge(book, "ko").names(asked)}
    assert names == {"Jeonghui": ("정희",), "Ilbok": ("일복",), "Eom Yeongrok": ("엄영록",)}  # "Jane" is no 자네


def test_a_book_in_latin_letters_has_no_names_to_read_across_scripts():
    with pytest.raises(ValueError, match="zh, ja, ru, ko"):
        NameBridge(["Emma came."], "en")
    index = build_index(from_text("Emma came.\n\nEmma left.\n\nEmma sang.", title="e", gutenberg=False), None,
                        use_cache=False)  # fmt: skip
    assert index.names_across_scripts(Question.open("Why did Emma come?")) == []


def test_a_question_without_a_latin_name_leaves_the_books_names_unread():
    index = build_index(from_text("\n\n".join(STORY), title="葬花", gutenberg=False), None, use_cache=False)
    assert index.names_across_scripts(Question.open("林黛玉在哪里葬花？")) == [] and index.name_bridge is None
    assert index.names_across_scripts(Question.open("Where did Lin Daiyu bury the flowers?"))
    assert index.name_bridge is not None


def test_an_english_question_about_a_chinese_book_reads_its_names_in_the_books_script():
    narrative = from_text("\n\n".join(STORY), title="葬花", gutenberg=False)
    question = Question.open("Where did Lin Daiyu bury the flowers?")
    read = {p for s in segment_narrative(narrative, question, "focused", encoder=None) for p in s.paragraph_ids}
    assert {0, 1, 2} <= read  # the three paragraphs that write 林黛玉
    off = build_index(narrative, None, use_cache=False, names_across_scripts=False)
    with pytest.raises(NoMatchError):  # without its names the question shares nothing with the book
        segment_narrative(narrative, question, "focused", index=off, encoder=None)
    request = SourceRequest(narrative, question, get_preset("focused"), build_index(narrative, None, use_cache=False))
    assert candidate_segments(request).to_dict()["names_read_across_scripts"] == {"Lin Daiyu": ["林黛玉"]}


def test_a_long_running_reader_keeps_the_places_of_a_bounded_number_of_syllables():
    bridge = NameBridge(["".join(_ONE_READING[:2000])], "zh")
    for syllable in sorted(bridge._by_syllable)[:100]:
        bridge._mask(syllable)
    assert len(bridge._masks) == _MAX_MASKS


def test_segment_says_which_names_it_read_in_the_books_script(tmp_path, capsys):
    book = tmp_path / "葬花.txt"
    book.write_text("\n\n".join(STORY), encoding="utf-8")
    cache = ["--encoder", "none", "--cache-dir", str(tmp_path / "cache")]
    assert main(["segment", str(book), "--question", "Where did Lin Daiyu bury flowers?", *cache, "--json"]) == 0
    captured = capsys.readouterr()
    assert "note: the question's names read as the book writes them: Lin Daiyu: 林黛玉" in captured.err
    payload = json.loads(captured.out)
    assert payload["segment_source"]["names_read_across_scripts"] == {"Lin Daiyu": ["林黛玉"]}


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("He asked ten thousand taels", [("ten thousand", 10000)]),
        ("Eighty-three, or a hundred and fifty?", [("Eighty-three", 83), ("a hundred and fifty", 150)]),
        ("thirteen thousand five hundred jin", [("thirteen thousand five hundred", 13500)]),
        ("one of the three maids, a man", []),  # under ten: 一 and 三 are everywhere in a Chinese book
    ],
)
def test_an_english_question_spells_numbers_a_chinese_or_japanese_book_writes_in_numerals(text, numbers):
    assert english_numbers(text) == numbers


def test_a_spelled_number_is_read_as_the_books_numerals():
    book = ["和尚说：“拿一万两银子来。”", "宝玉病了。", "宝玉又病了。", "宝玉好了，众人散去。"]
    narrative = from_text("\n\n".join(book), title="玉", gutenberg=False)
    index = build_index(narrative, None, use_cache=False)
    question = Question.open("Who asked for ten thousand taels when Baoyu was ill?")
    assert [(n.asked, n.written) for n in index.names_across_scripts(question)] == [
        ("Baoyu", ("宝玉",)), ("ten thousand", ("10000",))
    ]  # fmt: skip
    assert index.rank_question(question)[0][0] == 0  # 一万 met through the digits' numerals
    assert NameBridge(["Он заплатил десять тысяч."], "ru").names("He paid ten thousand") == []  # words there


def test_ask_shows_the_names_it_read_as_the_book_writes_them():
    narrative = from_text("\n\n".join(STORY), title="葬花", gutenberg=False)
    backend = scripted_reader_backend()  # the answer means nothing; what retrieval read is shown whatever it is
    config = PipelineConfig(encoder=None, preset="focused", self_calibration=False)
    result = ClueWeaver(backend, config=config).answer(narrative, Question.open("Where did Lin Daiyu bury flowers?"))
    assert result.trace["segment_source"]["names_read_across_scripts"] == {"Lin Daiyu": ["林黛玉"]}
    assert "Names read as the book writes them: Lin Daiyu: 林黛玉" in format_result(result, narrative)
    unnamed = ClueWeaver(backend, config=config).answer(narrative, Question.open("林黛玉在哪里葬花？"))
    assert "Names read" not in format_result(unnamed, narrative)
