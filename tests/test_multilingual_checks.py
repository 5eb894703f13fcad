"""The Chinese and French multi-hop checks over the bundled books: every quote locates exactly one
paragraph, the sets keep their shape, the frozen files are unchanged. No shared data is needed."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from check_sets import assert_distinct_distant_evidence, assert_legal_and_balanced, copies_a_run
from conftest import REPO_ROOT

from clueweaver.benchmarks.checks import (
    BOOKS_DIR,
    CHECK_FILES,
    CROSS_LANGUAGE_FROZEN_FILE,
    CROSS_LANGUAGE_FROZEN_SHA256,
    CROSS_LANGUAGE_JA_FROZEN_FILE,
    CROSS_LANGUAGE_JA_FROZEN_SHA256,
    CROSS_LANGUAGE_JA_TUNING_FILE,
    CROSS_LANGUAGE_JA_ZH_FILE,
    CROSS_LANGUAGE_JA_ZH_SHA256,
    CROSS_LANGUAGE_KO_FROZEN_FILE,
    CROSS_LANGUAGE_KO_FROZEN_SHA256,
    CROSS_LANGUAGE_KO_TUNING_FILE,
    CROSS_LANGUAGE_RU_FROZEN_FILE,
    CROSS_LANGUAGE_RU_FROZEN_SHA256,
    CROSS_LANGUAGE_RU_TUNING_FILE,
    CROSS_LANGUAGE_TUNING_FILE,
    CROSS_LANGUAGE_ZH_FROZEN_FILE,
    CROSS_LANGUAGE_ZH_FROZEN_SHA256,
    CROSS_LANGUAGE_ZH_TUNING_FILE,
    FROZEN_SHA256_BY_LANGUAGE,
    CheckError,
    bundled_book_names,
    checks_file,
    evidence_paragraphs,
    frozen_digest,
    load_bundled_book,
    load_check_book,
    load_language_checks,
    load_multihop_checks,
)
from clueweaver.books.language import guess_language

# Every set but the English one (tests/test_checks.py): "zh-long", "zh-long-2" over 红楼梦 (120 回), "zh-xyj"
# over 西游记 (100 回), "zh-3" and "zh-4" over both (frozen files only), then a novel each in the other languages
LANGUAGES = tuple(key for key in CHECK_FILES if key != "en")
WITH_OPEN_QUESTIONS = (
    "zh-long-2", "zh-xyj", "de", "ru", "ja", "ja-2", "zh-3", "zh-4", "es", "it", "pt", "ru-2", "pt-2", "de-2", "ru-3",
    "fr-2", "ko", "pl", "sv", "cs", "hu", "no", "ro",
)  # fmt: skip  # the later sets add open questions to the multiple-choice and claims
SETS = [(language, frozen) for language in LANGUAGES for frozen in (False, True) if CHECK_FILES[language][frozen]]
SET_IDS = [f"{language}-{'frozen' if frozen else 'tuning'}" for language, frozen in SETS]
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana and Han
HANGUL = re.compile("[\uac00-\ud7a3]")
# characters; Chinese and Japanese (8, 60): a clause written without spaces is short; the sets in spaced words
WORD_SETS = ("fr", "de", "ru", "es", "it", "pt", "ru-2", "pt-2", "de-2", "ru-3", "fr-2", "pl", "sv", "cs", "hu", "no",
             "ro")  # fmt: skip
# a Korean word is two to four syllables: a clause is 10-40 characters
QUOTE_LENGTHS = {language: (20, 120) for language in WORD_SETS} | {"ko": (10, 100)}
# Check IDs begin (tuning, frozen) so; the later Chinese files use their own short prefixes.
ID_PREFIXES = {"zh-long": ("zhl-t-", "zhl-f-"), "zh-long-2": ("zhl2-t-", "zhl2-f-"), "zh-xyj": ("xyj-t-", "xyj-f-"),
               "zh-3": (None, "zh3-f-"), "zh-4": (None, "zh4-f-"), "ja-2": ("ja2-", "fz-ja2-"),
               "ru-2": ("ru2-", "fz-ru2-"), "pt-2": (None, "fz-pt2-"),
               "de-2": (None, "fz-de2-"), "ru-3": (None, "fz-ru3-"), "fr-2": ("fr2-", "fz-fr2-")}  # fmt: skip


def _records(language: str, frozen: bool) -> list[dict]:
    lines = checks_file(language, frozen=frozen).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module", params=SETS, ids=SET_IDS)
def loaded(request):
    """(language, frozen, main checks, cross-language checks), each check with its narrative."""
    language, frozen = request.param
    main = load_language_checks(language, frozen=frozen)
    cross = load_language_checks(language, frozen=frozen, cross_language=True)
    return language, frozen, main, cross


@pytest.fixture(scope="module")
def books():
    return {name: load_bundled_book(name) for name in bundled_book_names()}


# ---------------------------------------------------------------- the bundled books


def test_bundled_books_load_as_many_paragraphs(books):
    """Both novels are whole: hundreds of paragraphs, not one giant block or a fragment."""
    assert set(books) == {"laocan_youji.zh", "le_tour_du_monde.fr", "hongloumeng.zh", "xiyouji.zh", "effi_briest.de",
                          "ottsy_i_deti.ru", "kokoro.ja", "marianela.es", "pinocchio.it", "dom_casmurro.pt",
                          "sanshiro.ja", "igrok.ru", "madame_bovary.fr", "cheongchun.ko", "wilcze_gniazdo.pl",
                          "norrtullsligan.sv", "karbanik.cs", "egy_magyar_amazon.hu",
                          "en_professor.no", "pacatul_rabinului.ro"}  # fmt: skip
    assert len(books["laocan_youji.zh"]) >= 500
    assert len(books["hongloumeng.zh"]) >= 2000
    assert sum(p.is_heading for p in books["hongloumeng.zh"].paragraphs) == 120  # 120 回
    assert sum(p.is_heading for p in books["xiyouji.zh"].paragraphs) == 100  # 100 回
    assert sum(p.is_heading for p in books["effi_briest.de"].paragraphs) == 36
    assert len(books["ottsy_i_deti.ru"].chapters) == 28 and len(books["ottsy_i_deti.ru"]) >= 2000
    igrok = books["igrok.ru"]  # its 97 endnotes, numbered on lines of their own, stay notes in chapter XVII
    assert [c.title for c in igrok.chapters][::8] == ["Глава I", "Глава IX", "Глава XVII"] and len(igrok) == 1257
    assert igrok[1062].text == "Примечания" and igrok.chapters[-1].last_paragraph == len(igrok) - 1
    assert len(books["marianela.es"].chapters) == 22  # -I- to -XXII-
    assert len(books["pinocchio.it"].chapters) == 36 and len(books["dom_casmurro.pt"].chapters) == 148
    kokoro = books["kokoro.ja"].chapters  # 上 36, 中 18, 下 56 sections, from the Aozora heading notes
    assert len(kokoro) == 110 and [c.label for c in kokoro][35:37] == ["1.36", "2.1"] and kokoro[-1].label == "3.56"
    assert not any(mark in p.text for p in books["kokoro.ja"].paragraphs for mark in ("《", "［＃", "｜"))
    sanshiro = books["sanshiro.ja"]  # 一 to 一三, from the Aozora heading notes (中見出し)
    assert [c.label for c in sanshiro.chapters] == [str(n) for n in range(1, 14)] and len(sanshiro) == 2085
    assert not any(mark in p.text for p in sanshiro.paragraphs for mark in ("《", "［＃", "｜"))
    assert len(books["le_tour_du_monde.fr"]) >= 2000
    assert max(len(p.text) for p in books["laocan_youji.zh"].paragraphs) < 2000
    assert "Project Gutenberg" not in books["le_tour_du_monde.fr"].text  # licence stripped
    bovary = books["madame_bovary.fr"]  # ELTeC's TEI: three parts of 9, 15 and 11 chapters, the dedications before
    assert [c.label for c in bovary.chapters][8:10] == ["1.9", "2.1"] and bovary.chapters[-1].label == "3.11"
    assert len(bovary) == 2999 and bovary.chapters[0].first_paragraph == 5 and "<" not in bovary.text
    assert len(books["cheongchun.ko"]) == 1951 and books["cheongchun.ko"][1].text == "안동이다."
    wilcze = books["wilcze_gniazdo.pl"]  # ELTeC's TEI: chapters I to XVI without an XI
    assert len(wilcze) == 872 and [c.title for c in wilcze.chapters][9:11] == ["X", "XII"]
    norrtull = books["norrtullsligan.sv"]  # each chapter's heading with its dated title
    assert (
        len(norrtull) == 901 and norrtull.chapters[1].title == "II. Den 30 september." and len(norrtull.chapters) == 18
    )
    karbanik = books["karbanik.cs"]  # ELTeC's TEI: chapters I. to V., then I. and II. again
    assert len(karbanik) == 1050 and [c.title for c in karbanik.chapters][4:] == ["V.", "I.", "II."]
    amazon = books["egy_magyar_amazon.hu"]  # eight titled chapters and the closing "Befejezés"
    assert len(amazon) == 786 and amazon.chapters[0].title == "I. A haldokló anya" and len(amazon.chapters) == 9
    professor = books["en_professor.no"]  # "1ste Kapitel." to "14de Kapitel.", the edition without a 5th
    assert len(professor) == 1038 and [c.label for c in professor.chapters][3:5] == ["4", "6"]
    rabinului = books["pacatul_rabinului.ro"]  # 17 chapters whose divisions have no head
    assert len(rabinului) == 747 and rabinului.chapters[-1].title == "Chapter 17"


def test_sources_name_every_bundled_book_and_package_data_ships_them():
    sources = (BOOKS_DIR / "SOURCES.md").read_text(encoding="utf-8")
    for path in BOOKS_DIR.glob("*.gz"):
        assert f"`{path.name}`" in sources
        assert path.stat().st_size < 1_200_000  # 红楼梦 is about 1.1 MB gzip-compressed
    assert '"data/books/*"' in (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_bundled_book_keys_need_no_shared_data(monkeypatch, tmp_path):
    monkeypatch.setenv("CLUEWEAVER_SHARED_DATA", str(tmp_path / "nowhere"))
    assert len(load_check_book("bundled:laocan_youji.zh")) >= 500
    with pytest.raises(CheckError, match="no bundled book 'missing'.*laocan_youji.zh"):
        load_check_book("bundled:missing")
    with pytest.raises(CheckError, match="CLUEWEAVER_SHARED_DATA"):
        load_check_book("kdsh:castaways")
    with pytest.raises(CheckError, match="no multi-hop checks in language 'nl'"):
        checks_file("nl")
    with pytest.raises(CheckError, match="'zh-3' is a frozen held-out set only"):
        checks_file("zh-3")
    with pytest.raises(CheckError, match="'zh-4' is a frozen held-out set only"):
        checks_file("zh-4")


def test_cross_language_checks_are_kept_apart(tmp_path):
    base = {
        "book": "bundled:le_tour_du_monde.fr",
        "kind": "claim",
        "options": {},
        "answer": "TRUE",
        "evidence": ["Phileas Fogg avait donné son congé à James Forster", "un vrai Yankee, nommé Forster"],
        "note": "two Forsters",
    }
    records = [
        {**base, "id": "main", "question": "Deux Forster."},
        {**base, "id": "cross", "question": "Two Forsters.", "cross_language": True},
    ]
    path = tmp_path / "checks.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    main = load_multihop_checks(tmp_path / "nowhere", checks_path=path)
    cross = load_multihop_checks(tmp_path / "nowhere", checks_path=path, cross_language=True)
    assert [(c.id, c.cross_language) for _, c in main] == [("main", False)]
    assert [(c.id, c.cross_language) for _, c in cross] == [("cross", True)]


# ---------------------------------------------------------------- the shipped sets


def test_every_quote_locates_exactly_one_paragraph_of_its_bundled_book(books):
    for language, frozen in SETS:
        for record in _records(language, frozen):
            source, _, name = record["book"].partition(":")
            assert source == "bundled", record["id"]
            for quote in record["evidence"]:
                hits = evidence_paragraphs(books[name], quote)
                assert len(hits) == 1, (record["id"], quote, hits)


def test_every_check_needs_distinct_distant_paragraphs(loaded):
    language, frozen, main, cross = loaded
    assert len(main) >= (12 if language in WITH_OPEN_QUESTIONS and not frozen else 20)  # later tuning sets: 12-16
    for narrative, check in main + cross:
        assert_distinct_distant_evidence(narrative, check)


def test_answers_are_legal_and_balanced(loaded):
    """Mostly multiple choice, a third to a half claims of both truth values, answer letters even;
    where a set has open questions, a third of it or more, each with a reference answer."""
    language, frozen, main, cross = loaded
    open_questions = [check for _, check in main if check.question.is_open]
    closed = [check for _, check in main if not check.question.is_open]
    assert_legal_and_balanced(closed, also_legal=[check for _, check in cross])
    assert len(open_questions) >= len(main) / 3 if language in WITH_OPEN_QUESTIONS else not open_questions
    assert all(check.answer.strip() and not check.question.options for check in open_questions)


def test_questions_are_in_the_books_language_and_cross_language_ones_apart(loaded):
    """Chinese and Japanese checks are asked in Han and kana, Korean ones in Hangul, the others in neither; the
    French files add a few English questions, marked."""
    language, frozen, main, cross = loaded
    for _, check in main:
        texts = [check.question.text, *check.question.options.values()]
        assert all(bool(CJK.search(text)) == language.startswith(("zh", "ja")) for text in texts), check.id
        assert all(bool(HANGUL.search(text)) == (language == "ko") for text in texts), check.id
    if language != "fr":
        assert not cross
    else:
        assert 2 <= len(cross) <= len(main) // 4
        for _, check in cross:
            assert re.search(r"\b(the|was|did|what|how|and)\b", check.question.text, re.IGNORECASE), check.id


def test_files_are_valid_jsonl_with_unique_ids_and_short_quotes():
    ids = []
    for language, frozen in SETS:
        low, high = QUOTE_LENGTHS.get(language, (8, 60))
        prefix = ID_PREFIXES[language][frozen] if language in ID_PREFIXES else f"{'fz-' if frozen else ''}{language}-"
        for record in _records(language, frozen):
            ids.append(record["id"])
            assert record["id"].startswith(prefix), record["id"]
            kinds = ("mcq", "claim", "open") if language in WITH_OPEN_QUESTIONS else ("mcq", "claim")
            assert record["note"].strip() and record["kind"] in kinds, record["id"]
            assert record.get("cross_language", False) in (False, True), record["id"]
            built = record["build_check"]
            assert len(built["paragraph_ids"]) == len(record["evidence"]), record["id"]
            for quote in record["evidence"]:
                limits = QUOTE_LENGTHS["fr"] if record.get("cross_language") else (low, high)
                assert limits[0] <= len(quote) <= limits[1], (record["id"], quote)
    assert len(ids) == len(set(ids))


def test_frozen_sets_share_no_evidence_paragraph_with_tuning_nor_within():
    """Across every file over the same book: two pairs over 红楼梦 are held apart too."""

    def every(frozen: bool):
        return [check for language, file_frozen in SETS if file_frozen == frozen for cross in (False, True)
                for _, check in load_language_checks(language, frozen=frozen, cross_language=cross)]  # fmt: skip

    used = {(check.book, i) for check in every(frozen=False) for i in check.gold_ids}
    seen = set()
    for check in every(frozen=True):
        evidence = {(check.book, i) for i in check.gold_ids}
        assert not used & evidence and not seen & evidence, check.id
        seen |= evidence


def _copies(text: str, quote: str, language: str) -> bool:
    """Seven characters of ``quote`` in a row (Chinese, Japanese), four words (Korean, whose words carry their
    particles), or six words (the others)."""
    if language.startswith(("zh", "ja")):
        return copies_a_run(text, quote, 7, characters=True)
    return copies_a_run(text, quote, 4 if language == "ko" else 6)


@pytest.mark.parametrize("language", WITH_OPEN_QUESTIONS)
def test_the_later_sets_questions_do_not_copy_their_quotes(language):
    """A guard against copying, not proof of paraphrase: no question or option repeats seven characters
    (Chinese) or six words of its evidence in a row, so retrieval cannot find a quote by the question's
    own wording."""
    for frozen in (False, True) if CHECK_FILES[language][False] else (True,):
        for record in _records(language, frozen):
            for text in (record["question"], *record["options"].values()):
                assert not any(_copies(text, quote, language) for quote in record["evidence"]), record["id"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_frozen_held_out_sets_are_unchanged(language):
    """Frozen: a new held-out set is a new file, never an edit of this one."""
    path = CHECK_FILES[language][True]
    assert frozen_digest(path) == FROZEN_SHA256_BY_LANGUAGE[language]


def test_docs_state_each_sets_size_and_kinds():
    """docs/retrieval.md's table of the sets gives each file's main count and its MCQ / claim (/ open) split."""
    docs = (REPO_ROOT / "docs" / "retrieval.md").read_text(encoding="utf-8")
    for language, frozen in SETS:
        path = checks_file(language, frozen=frozen)
        main = [r for r in _records(language, frozen) if not r.get("cross_language")]
        kinds = Counter(r["kind"] for r in main)
        row = next(line for line in docs.splitlines() if f"`clueweaver/data/{path.name}`" in line)
        split = f"{kinds['mcq']} MCQ, {kinds['claim']} claims" + (f", {kinds['open']} open" if kinds["open"] else "")
        assert f"{len(main)} ({split})" in row, path.name


# ---------------------------------------------------------------- English questions about the other books

CROSS_LANGUAGE_FILES = (CROSS_LANGUAGE_TUNING_FILE, CROSS_LANGUAGE_FROZEN_FILE)


@pytest.mark.parametrize("path, count", [(CROSS_LANGUAGE_TUNING_FILE, 20), (CROSS_LANGUAGE_FROZEN_FILE, 24)])
def test_the_cross_language_sets_ask_in_english_about_five_books(path, count):
    """English checks over the German, Italian, Spanish, Portuguese and Russian novels: each quote
    locates one paragraph of its book, 2-3 distant gold paragraphs, none another set's evidence."""
    assert not load_multihop_checks(checks_path=path)  # all of it is cross-language
    checks = load_multihop_checks(checks_path=path, cross_language=True)
    assert len(checks) == count
    books = Counter(check.book.removeprefix("bundled:")[-2:] for _, check in checks)
    assert books.keys() == {"de", "it", "es", "pt", "ru"} and min(books.values()) >= 4
    assert {check.question.kind for _, check in checks} == {"mcq", "claim", "open"}
    others = [p for p in CROSS_LANGUAGE_FILES if p != path]
    used = {(check.book, i) for language in ("de", "it", "es", "pt", "ru") for frozen in (False, True)
            for _, check in load_language_checks(language, frozen=frozen) for i in check.gold_ids}  # fmt: skip
    for other in others:
        loaded = load_multihop_checks(checks_path=other, cross_language=True)
        used |= {(check.book, i) for _, check in loaded for i in check.gold_ids}
    for narrative, check in checks:
        assert_distinct_distant_evidence(narrative, check)
        assert check.answer in check.question.labels or (check.question.is_open and check.answer.strip())
        assert re.search(r"\b(the|was|did|what|how|and|who|why)\b", check.question.text, re.IGNORECASE), check.id
        assert not used & {(check.book, i) for i in check.gold_ids}, check.id


def test_the_cross_language_frozen_set_is_unchanged():
    assert frozen_digest(CROSS_LANGUAGE_FROZEN_FILE) == CROSS_LANGUAGE_FROZEN_SHA256
    assert frozen_digest(CROSS_LANGUAGE_ZH_FROZEN_FILE) == CROSS_LANGUAGE_ZH_FROZEN_SHA256
    assert frozen_digest(CROSS_LANGUAGE_JA_FROZEN_FILE) == CROSS_LANGUAGE_JA_FROZEN_SHA256
    assert frozen_digest(CROSS_LANGUAGE_RU_FROZEN_FILE) == CROSS_LANGUAGE_RU_FROZEN_SHA256
    assert frozen_digest(CROSS_LANGUAGE_KO_FROZEN_FILE) == CROSS_LANGUAGE_KO_FROZEN_SHA256
    assert frozen_digest(CROSS_LANGUAGE_JA_ZH_FILE) == CROSS_LANGUAGE_JA_ZH_SHA256


def test_the_japanese_questions_about_a_chinese_novel_are_twins_of_its_checks_in_japanese_forms():
    """Each check asks a 西游记 tuning check again in Japanese (its gold, its kind), in kana and kanji as a Japanese
    reader writes them."""
    checks = load_multihop_checks(checks_path=CROSS_LANGUAGE_JA_ZH_FILE, cross_language=True)
    twins = {check.id: check for _, check in load_language_checks("zh-xyj", frozen=False)}
    assert len(checks) == len(twins) == 15
    for _, check in checks:
        twin = twins[re.match(r"Cross-language: (\S+) ", check.note).group(1)]
        assert (check.gold_ids, check.question.kind) == (twin.gold_ids, twin.question.kind), check.id
        assert guess_language(check.question.text) == "ja", check.id


@pytest.mark.parametrize(
    ("path", "count", "frozen", "twin_sets", "books"),
    [
        (CROSS_LANGUAGE_ZH_TUNING_FILE, 16, False, ("zh-long", "zh-xyj"), ("hongloumeng.zh", "xiyouji.zh")),
        (CROSS_LANGUAGE_ZH_FROZEN_FILE, 24, True, ("zh-long", "zh-xyj"), ("hongloumeng.zh", "xiyouji.zh")),
        (CROSS_LANGUAGE_JA_TUNING_FILE, 8, False, ("ja", "ja-2"), ("kokoro.ja", "sanshiro.ja")),
        (CROSS_LANGUAGE_JA_FROZEN_FILE, 12, True, ("ja", "ja-2"), ("kokoro.ja", "sanshiro.ja")),
        (CROSS_LANGUAGE_KO_TUNING_FILE, 8, False, ("ko",), ("cheongchun.ko",)),
        (CROSS_LANGUAGE_KO_FROZEN_FILE, 12, True, ("ko",), ("cheongchun.ko",)),
    ],
)
def test_the_cjk_cross_language_sets_are_english_twins_of_checks_in_the_books_language(
    path, count, frozen, twin_sets, books
):
    """Each check asks a check of the same split again in English (its gold, its kind), its names
    in pinyin, romaji or the Revised Romanization; the books share the set."""
    checks = load_multihop_checks(checks_path=path, cross_language=True)
    assert len(checks) == count and not load_multihop_checks(checks_path=path)
    twins = {check.id: check for key in twin_sets for _, check in load_language_checks(key, frozen=frozen)}
    assert Counter(check.book for _, check in checks) == {f"bundled:{book}": count // len(books) for book in books}
    for _, check in checks:
        twin = twins[re.match(r"Cross-language: (\S+) ", check.note).group(1)]
        assert (check.gold_ids, check.question.kind) == (twin.gold_ids, twin.question.kind), check.id
        assert check.question.text.isascii() and re.search(
            r"\b(the|was|did|what|how|who)\b", check.question.text, re.I
        )


@pytest.mark.parametrize(
    ("path", "count", "frozen"), [(CROSS_LANGUAGE_RU_TUNING_FILE, 8, False), (CROSS_LANGUAGE_RU_FROZEN_FILE, 12, True)]
)
def test_the_russian_cross_language_sets_are_german_and_french_twins_of_russian_checks(path, count, frozen):
    """Each check asks a Russian check of the same split again, alternately in German and French (its gold,
    its kind), its names in Latin letters; the two novels share the set."""
    checks = load_multihop_checks(checks_path=path, cross_language=True)
    assert len(checks) == count and not load_multihop_checks(checks_path=path)
    twins = {check.id: check for key in ("ru", "ru-2") for _, check in load_language_checks(key, frozen=frozen)}
    books = Counter(check.book for _, check in checks)
    assert books == {"bundled:ottsy_i_deti.ru": count // 2, "bundled:igrok.ru": count // 2}
    for number, (_, check) in enumerate(checks):
        twin = twins[re.match(r"Cross-language: (\S+) ", check.note).group(1)]
        assert (check.gold_ids, check.question.kind) == (twin.gold_ids, twin.question.kind), check.id
        assert not re.search("[\u0400-\u04ff]", check.question.text), check.id
        assert guess_language(check.question.text) == ("de", "fr")[number % 2], check.id
