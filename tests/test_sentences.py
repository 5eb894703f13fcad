"""The one sentence splitter (clueweaver.books.sentences): CJK and Western marks, titles, text that
goes on in lower case, quotations it never cuts inside, and lossless joins."""

from __future__ import annotations

import pytest

from clueweaver.books.sentences import ends_with_sentence_mark, sentence_spans, split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Mr. Penrose walked home. Then he slept.", ["Mr. Penrose walked home.", "Then he slept."]),
        ('"Who?" he said. "Me!" She left.', ['"Who?" he said.', '"Me!"', "She left."]),
        ("Pi is 3.14 or so. Yes… and no… Fine!", ["Pi is 3.14 or so.", "Yes… and no…", "Fine!"]),
        ("今日は晴れ。明日は雨？そうですね！", ["今日は晴れ。", "明日は雨？", "そうですね！"]),
        ("他……他走了。好；不好．", ["他……他走了。", "好；", "不好．"]),  # 。；．and full-width marks
        # never inside a quotation: 「」 “” 《》, the Chinese closing quote stays with its sentence
        ("「行了。走吧。」他说。『好』", ["「行了。走吧。」", "他说。", "『好』"]),
        ("他说：“我走了。你别送。”然后他走了。", ["他说：“我走了。你别送。”", "然后他走了。"]),
        ("他读《三国。演义》。", ["他读《三国。演义》。"]),
        # a play's stage direction closes with 〕 after its full stop, which stays with the sentence
        ("〔外面下着雪。〕周萍走进来。", ["〔外面下着雪。〕", "周萍走进来。"]),
        ("“I am here. Come in,” he said. She came.", ["“I am here. Come in,” he said.", "She came."]),
        # French « » with their inner spaces, German » « and „ “
        ("« Bonjour. Entrez. » Il partit. Elle resta.", ["« Bonjour. Entrez. »", "Il partit.", "Elle resta."]),
        ("Er sagte: »Komm. Jetzt.« Sie kam.", ["Er sagte: »Komm. Jetzt.«", "Sie kam."]),
        ("Er sagte: „Komm. Jetzt.“ Sie kam.", ["Er sagte: „Komm. Jetzt.“", "Sie kam."]),
        ("Она сказала: «Иди. Сейчас.» Он ушёл.", ["Она сказала: «Иди. Сейчас.»", "Он ушёл."]),
        # the Greek question mark is the semicolon (U+037E folds to it), after a Greek letter only
        (
            "— Πώς πάει, μάνα; Θα βήξη\u037e Όχι. « Τι θέλεις; Φύγε! » είπε.",
            ["— Πώς πάει, μάνα;", "Θα βήξη\u037e", "Όχι.", "« Τι θέλεις; Φύγε! » είπε."],
        ),
        ("He came; she left.", ["He came; she left."]),
        # a quotation left open (a speech running on into the next paragraph) protects nothing
        ("“Open quote. Never closed. Here.", ["“Open quote.", "Never closed.", "Here."]),
    ],
)
def test_sentences_in_several_languages(text, sentences):
    assert [text[a:b] for a, b in sentence_spans(text)] == sentences
    assert "".join(split_sentences(text)) == text  # lossless: each sentence keeps the spaces after it


def test_split_sentences_joins_back_to_the_text():
    text = "  Leading space. 第一句。第二句！ Trailing.  "
    assert split_sentences(text) == ["  Leading space. ", "第一句。", "第二句！ ", "Trailing.  "]
    assert split_sentences("") == [] and split_sentences("   ") == ["   "] and sentence_spans("   ") == []


def test_inside_quotations_on_request_and_sentence_ends():
    text = "“I went home. I slept.” Then I woke."
    assert len(sentence_spans(text)) == 2 and len(sentence_spans(text, keep_quotes=False)) == 3
    assert ends_with_sentence_mark("他走了。”") and ends_with_sentence_mark("Done!) ")
    assert not ends_with_sentence_mark("他走了，") and not ends_with_sentence_mark("第一回 甄士隐")
    assert ends_with_sentence_mark("Πού πας;") and not ends_with_sentence_mark("the first half;")


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("M. Fogg entra. Mme Aouda le suivit.", ["M. Fogg entra.", "Mme Aouda le suivit."]),
        (
            "Herr v. Innstetten kam, z. B. um 5 Uhr. Effi lachte.",
            ["Herr v. Innstetten kam, z. B. um 5 Uhr.", "Effi lachte."],
        ),
        ("Il sig. Antonio rise. Pinocchio scappò.", ["Il sig. Antonio rise.", "Pinocchio scappò."]),
        ("Chamou D. Glória. Ela veio.", ["Chamou D. Glória.", "Ela veio."]),
        ("Пришёл г. Кирсанов, т. е. отец. Все встали.", ["Пришёл г. Кирсанов, т. е. отец.", "Все встали."]),
        ("Ο κ. Παύλος ήρθε. Όλοι σηκώθηκαν.", ["Ο κ. Παύλος ήρθε.", "Όλοι σηκώθηκαν."]),
        ("The eyes of Doctor T. J. Eckleburg. Blue.", ["The eyes of Doctor T. J. Eckleburg.", "Blue."]),
        # a dialogue dash, then who spoke, in lower case: one sentence with the speech
        ("«Кто там?» — спросил Базаров. Никто.", ["«Кто там?» — спросил Базаров.", "Никто."]),
        # a pronoun or verb of one letter ends a sentence as any word does
        ("— Да, — сказал я. — Ну? — Кто? — Я. — Входи.", ["— Да, — сказал я.", "— Ну?", "— Кто?", "— Я.", "— Входи."]),
        ('Così è. Assim é. "Yes," said I. Then.', ["Così è.", "Assim é.", '"Yes," said I.', "Then."]),
        ("¿Quién es? —preguntó Pablo—. ¡No lo sé!", ["¿Quién es? —preguntó Pablo—.", "¡No lo sé!"]),
        ("— Dunque? — gli domandarono. — Sì.", ["— Dunque? — gli domandarono.", "— Sì."]),
        ("Vem cá! --disse ella. --Não.", ["Vem cá! --disse ella.", "--Não."]),
        (
            "「どこへ行くんですか。」と私は聞いた。「来たまえ。」私は行った。",
            ["「どこへ行くんですか。」と私は聞いた。", "「来たまえ。」", "私は行った。"],
        ),
        ("「いいえ？」って言ったでしょう。", ["「いいえ？」って言ったでしょう。"]),
    ],
)
def test_titles_initials_and_dialogue_dashes_of_the_supported_languages_end_no_sentence(text, sentences):
    # each had been cut after the title, the initial or the speech ("M." | "Fogg entra.")
    assert [text[a:b] for a, b in sentence_spans(text)] == sentences
