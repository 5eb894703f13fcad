"""Japanese words by morphological analysis, as Lucene's Japanese analyzer (Kuromoji) reads them:
MeCab (through fugashi) with the UniDic dictionary (unidic-lite) cuts a text into words, and each
content word becomes its dictionary form, so that 書いた, 書きます and 書く meet and 其の is one
term however it is spelled; particles, auxiliary verbs, symbols and the verbs that only help
another (いる, 行く after a te-form) go. It found all the evidence of more checks than character
bigrams did on both Japanese tuning sets, and on the two frozen sets together (docs/retrieval.md,
"Results").
"""

from __future__ import annotations

import threading

# UniDic's parts of speech whose words are kept (its first field); a verb or adjective marked
# "possibly auxiliary" (非自立可能: いる, ある, なる, 行く, ない) goes too
CONTENT_PARTS = frozenset("名詞 動詞 形容詞 副詞 形状詞 代名詞 連体詞 感動詞 接頭辞 接尾辞".split())
_AUXILIARY_PARTS = frozenset({"動詞", "形容詞"})
_LEMMA_FIELD = 7  # UniDic's dictionary form; a word unknown to the dictionary has six fields and no lemma
_MEMO_LIMIT = 500_000  # words kept: a few novels' vocabulary
_local = threading.local()  # a MeCab tagger is not safe to share between threads
_terms: dict[tuple[str, str], str | None] = {}  # (surface, features) -> term


def japanese_words(text: str) -> list[str]:
    """The content words of a Japanese text in their dictionary forms, in order; a word the
    dictionary does not know (a Latin word, a digit run, a rare name) as it is written."""
    words = []
    for node in _tagger()(text):
        key = (node.surface, node.feature_raw)
        term = _terms.get(key, "")
        if term == "":
            term = _term(node.feature_raw.split(","), node.surface)
            if len(_terms) < _MEMO_LIMIT:
                _terms[key] = term
        if term:
            words.append(term)
    return words


def noun_readings(text: str) -> list[tuple[str, str | None]]:
    """Each word of a Japanese text with its pronunciation in katakana when it is a noun (UniDic's
    ``pron``: 三四郎 サンシロー), None for any other word: the names a question in romaji can be read in
    (``clueweaver.retrieval.transliteration``)."""
    return [
        (node.surface, node.feature.pron if node.feature.pos1 == "名詞" and node.feature.pron else None)
        for node in _tagger()(text)
    ]


def _term(fields: list[str], surface: str) -> str | None:
    """A content word's term: its lemma without UniDic's gloss ("パイプ-pipe", "私-代名詞"), or its
    surface when the dictionary does not know it; None for any other word."""
    if fields[0] not in CONTENT_PARTS or (fields[0] in _AUXILIARY_PARTS and fields[1] == "非自立可能"):
        return None
    lemma = fields[_LEMMA_FIELD] if len(fields) > _LEMMA_FIELD and fields[_LEMMA_FIELD] not in ("", "*") else surface
    return lemma.split("-")[0] or surface


def _tagger():
    """This thread's MeCab tagger, made on first use."""
    tagger = getattr(_local, "tagger", None)
    if tagger is None:
        try:
            import fugashi
            import unidic_lite  # noqa: F401  (fugashi finds its dictionary through it)
        except ImportError as exc:
            raise RuntimeError(
                f"Japanese retrieval cuts words with MeCab and UniDic, which this environment lacks ({exc}); "
                "install them with: pip install fugashi unidic-lite"
            ) from exc
        tagger = _local.tagger = fugashi.Tagger()
    return tagger
