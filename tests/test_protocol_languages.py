"""The protocol in every language: a reply, a question or an answer in Chinese, French, German,
Russian, Greek, Japanese, Korean, Polish, Swedish, Czech, Hungarian, Norwegian or Romanian is read as its English
twin is (same structure, same paragraph citations)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from clueweaver.evaluation.open_metrics import is_temporal, rouge_l
from clueweaver.protocol import cues
from clueweaver.protocol.calibration import calibration_cues, needs_self_calibration
from clueweaver.protocol.citations import paragraph_references
from clueweaver.protocol.open_rewards import open_answer_reward_components
from clueweaver.protocol.parse import (
    normalize_choice,
    normalize_claim_answer,
    normalize_finder_answer,
    normalize_open_answer,
    parse_finder,
    parse_interpreter,
    parse_interpreter_strict,
)
from clueweaver.protocol.prompts import calibration_messages, finder_messages, interpreter_messages
from clueweaver.protocol.question import Question
from clueweaver.protocol.rewards import finder_reward_components, interpreter_reward_components, specific_details
from clueweaver.protocol.text import answer_tokens, find_phrases, fold, numbers_language, token_f1, word_count


def reply(reason: str, answer: str) -> str:
    return f"<reason>{reason}</reason>\n<answer>{answer}</answer>"


# --- Finder -----------------------------------------------------------------------------------------

NEGATIVE = {"label": "NO", "gold_ids": [], "allowed_ids": list(range(10, 20))}
POSITIVE = {"label": "YES", "gold_ids": [12, 13], "allowed_ids": list(range(10, 20))}

NO_STATING_WHY = {
    "en": "The segment describes the wedding breakfast and does not mention Hannah or any servant.",
    "zh": "这一段描写婚礼早餐，没有提到汉娜或任何仆人。",
    "fr": "Le passage décrit le repas de noces et ne mentionne pas Hannah ni aucun domestique.",
    "de": "Der Abschnitt beschreibt das Hochzeitsfrühstück und hat nichts mit Hannah oder einer Dienerin zu tun.",
    "ru": "Отрывок описывает свадебный завтрак и не упоминает Ханну или какую-либо служанку.",
    "el": "Το απόσπασμα περιγράφει το γαμήλιο πρόγευμα και δεν αναφέρει τη Χάνα ούτε καμία υπηρέτρια.",
    "ko": "이 단락은 결혼식 아침 식사를 묘사하며 해나나 어떤 하인도 언급하지 않는다.",
    "pl": "Ten fragment opisuje śniadanie weselne i nie wspomina o Hannah ani o żadnej służącej.",
    "sv": "Det här avsnittet beskriver bröllopsfrukosten och nämner inte Hannah eller någon tjänarinna.",
    "cs": "Tento úsek popisuje svatební snídani a nezmiňuje Hannah ani žádnou služebnou.",
    "hu": "A részlet az esküvői reggelit írja le, és nem említi Hannah-t vagy bármelyik szolgálót.",
    "no": "Dette avsnittet beskriver bryllupsfrokosten og nevner ikke Hannah eller noen tjenestepike.",
    "ro": "Fragmentul descrie micul dejun de nuntă și nu menționează pe Hannah sau vreo servitoare.",
}
NO_WITHOUT_WHY = {
    "en": "The segment describes the wedding breakfast at Hartfield in detail.",
    "zh": "这一段详细描写了哈特菲尔德的婚礼早餐。",
    "fr": "Le passage décrit en détail le repas de noces à Hartfield.",
    "de": "Der Abschnitt schildert ausführlich das Hochzeitsfrühstück in Hartfield.",
    "ru": "Отрывок подробно описывает свадебный завтрак в Хартфилде и его гостей.",
    "el": "Το απόσπασμα περιγράφει με λεπτομέρειες το γαμήλιο πρόγευμα στο Χάρτφιλντ.",
    "ko": "이 단락은 하트필드에서의 결혼식 아침 식사를 자세히 묘사한다.",
    "pl": "Ten fragment szczegółowo opisuje śniadanie weselne w Hartfield.",
    "sv": "Det här avsnittet beskriver bröllopsfrukosten på Hartfield i detalj.",
    "cs": "Tento úsek podrobně popisuje svatební snídani v Hartfieldu.",
    "hu": "A részlet részletesen leírja a hartfieldi esküvői reggelit.",
    "no": "Dette avsnittet beskriver bryllupsfrokosten på Hartfield i detalj.",
    "ro": "Fragmentul descrie în detaliu micul dejun de nuntă de la Hartfield.",
}
YES_CITING = {
    "en": "Mr. Woodhouse says he is glad he thought of Hannah as a servant [12, 13].",
    "zh": "伍德豪斯先生说他很高兴想到让汉娜来当仆人 [12, 13]。",
    "fr": "M. Woodhouse se dit heureux d'avoir pensé à Hannah comme domestique [12, 13].",
    "de": "Herr Woodhouse sagt, er sei froh, an Hannah als Dienerin gedacht zu haben [12, 13].",
    "ru": "Мистер Вудхаус рад, что подумал о Ханне как о служанке [12, 13].",
    "el": "Ο κύριος Γούντχαους χαίρεται που σκέφτηκε τη Χάνα για υπηρέτρια [12, 13].",
    "ko": "우드하우스 씨는 해나를 하인으로 생각해 낸 것이 기쁘다고 말한다 [12, 13].",
    "pl": "Pan Woodhouse mówi, że cieszy się, iż pomyślał o Hannah jako o służącej [12, 13].",
    "sv": "Herr Woodhouse säger att han är glad att han tänkte på Hannah som tjänarinna [12, 13].",
    "cs": "Pan Woodhouse říká, že je rád, že si na Hannah vzpomněl jako na služebnou [12, 13].",
    "hu": "Woodhouse úr azt mondja, örül, hogy Hannah-ra gondolt szolgálóként [12, 13].",
    "no": "Herr Woodhouse sier at han er glad for at han tenkte på Hannah som tjenestepike [12, 13].",
    "ro": "Domnul Woodhouse spune că se bucură că s-a gândit la Hannah ca servitoare [12, 13].",
}


@pytest.mark.parametrize("language", ["zh", "fr", "de", "ru", "el", "ko", "pl", "sv", "cs", "hu", "no", "ro"])
@pytest.mark.parametrize(
    "rationales,answer,case",
    [(NO_STATING_WHY, "NO", NEGATIVE), (NO_WITHOUT_WHY, "NO", NEGATIVE), (YES_CITING, "YES", POSITIVE)],
    ids=["no-stating-why", "no-without-why", "yes-citing"],
)
def test_a_finder_reply_earns_what_its_english_twin_earns(language, rationales, answer, case):
    english = finder_reward_components(reply(rationales["en"], answer), **case)
    assert finder_reward_components(reply(rationales[language], answer), **case) == english
    assert english["format"] == 1.0 and english["length"] == 0.25


FINDER_VERDICTS = {"zh": ("是", "否"), "fr": ("Oui", "Non"), "de": ("JA", "NEIN"), "ru": ("Да", "Нет"),
                   "el": ("ΝΑΙ", "ΟΧΙ"), "ko": ("네", "아니요"), "pl": ("TAK", "NIE"),
                   "sv": ("Ja", "Nej"), "cs": ("ANO", "NE"), "hu": ("Igen", "Nem"), "no": ("JA", "NEI"),
                   "ro": ("Da", "Nu")}  # fmt: skip


@pytest.mark.parametrize("language", ["zh", "fr", "de", "ru", "el", "ko", "pl", "sv", "cs", "hu", "no", "ro"])
def test_a_finder_verdict_in_the_reply_language_is_read_at_inference_and_unpaid_in_training(language):
    """Inference reads "Oui" as YES (a small model answers in the book's language); training pays
    only the label the prompt asks for, and "Oui" nothing, as it pays "**YES**" (``strict_label``)."""
    for verdict, label, rationale, case in zip(
        FINDER_VERDICTS[language], ("YES", "NO"), (YES_CITING, NO_STATING_WHY), (POSITIVE, NEGATIVE)
    ):
        read = parse_finder(reply(rationale[language], verdict), case["allowed_ids"])
        assert (read.answer, read.answer_legal) == (label, True)
        assert read == replace(parse_finder(reply(rationale[language], label), case["allowed_ids"]), raw=read.raw)
        paid = finder_reward_components(reply(rationale[language], verdict), **case)
        assert sum(paid.values()) == 0.0  # what an unparseable reply earns


@pytest.mark.parametrize(
    "text,expected",
    [("TAK", "TRUE"), ("Nie.", "FALSE"), ("PRAWDA", "TRUE"), ("Fałsz", "FALSE"), ("FALSZ", "FALSE"),
     ("Nieprawda", "FALSE"), ("Odpowiedź: PRAWDA", "TRUE"), ("JA", "TRUE"), ("Nej", "FALSE"), ("SANT", "TRUE"),
     ("Falskt.", "FALSE"), ("Svar: SANT", "TRUE"), ("prawda czy fałsz", None), ("sant eller falskt", None)],
)  # fmt: skip
def test_polish_and_swedish_claim_verdicts(text, expected):
    """Typed without its "ł", "FALSZ" is "Fałsz", as "reponse" is "réponse"."""
    assert normalize_claim_answer(text) == expected


def test_polish_nie_after_a_german_verdict_is_germans_never_not_a_second_verdict():
    """Polish "nie" is German "nie" (never): first, it is NO; after a German "JA", a word of the sentence."""
    assert normalize_finder_answer("Nie") == "NO" and normalize_finder_answer("Ja, er war nie dort") == "YES"
    assert normalize_finder_answer("Nie, nie ma tam nic") == "NO"
    assert normalize_finder_answer("Tak, nie ma go") == "YES"


@pytest.mark.parametrize(
    "text,expected",
    [("ANO", "TRUE"), ("Ne.", "FALSE"), ("PRAVDA", "TRUE"), ("Nepravda", "FALSE"), ("NEPRAVDIVÉ", "FALSE"),
     ("nepravdive", "FALSE"), ("Odpověď: PRAVDA", "TRUE"), ("Odpoved: NEPRAVDA", "FALSE"), ("IGEN", "TRUE"),
     ("Nem", "FALSE"), ("IGAZ", "TRUE"), ("Hamis.", "FALSE"), ("Válasz: IGAZ", "TRUE"), ("Valasz: HAMIS", "FALSE"),
     ("pravda nebo nepravda", None), ("igaz vagy hamis", None), ("Nem igaz", None)],
)  # fmt: skip
def test_czech_and_hungarian_claim_verdicts(text, expected):
    """Typed without its accents, "Odpoved" is "Odpověď"; "Nem igaz" (not true) names two verdicts, so none."""
    assert normalize_claim_answer(text) == expected


@pytest.mark.parametrize(
    "alone,verdict,beside",
    [("Ne", "NO", "Oui, il ne ment pas"), ("Ano", "YES", "No, el año pasado"), ("Nem", "NO", "Sim, nem sempre"),
     ("Igen", "YES", "Nej, aldrig igen")],
)  # fmt: skip
def test_czech_and_hungarian_verdict_words_after_another_languages_verdict_are_words_of_its_sentence(
    alone, verdict, beside
):
    """Czech "ne" is French "ne", folded Czech "ano" Spanish "año" (year), Hungarian "nem" Portuguese "nem" (nor)
    and "igen" Swedish "igen" (again): alone each is a verdict; after another language's verdict, a word of its
    sentence ("Oui, il ne ment pas" is oui)."""
    assert normalize_finder_answer(alone) == verdict
    assert normalize_finder_answer(beside) == normalize_finder_answer(beside.split(",")[0])


@pytest.mark.parametrize(
    "text,expected",
    [("JA", "TRUE"), ("Nei.", "FALSE"), ("SANT", "TRUE"), ("Usant", "FALSE"), ("Feil.", "FALSE"),
     ("Svar: USANT", "FALSE"), ("DA", "TRUE"), ("Nu.", "FALSE"), ("ADEVĂRAT", "TRUE"), ("Adevarat", "TRUE"),
     ("Fals.", "FALSE"), ("FALSĂ", "FALSE"), ("Răspuns: ADEVĂRAT", "TRUE"), ("Raspuns: FALS", "FALSE"),
     ("usant eller sant", None), ("adevărat sau fals", None)],
)  # fmt: skip
def test_norwegian_and_romanian_claim_verdicts(text, expected):
    """Typed without its accents, "Raspuns" is "Răspuns", "Adevarat" "Adevărat"."""
    assert normalize_claim_answer(text) == expected


@pytest.mark.parametrize(
    "alone,verdict,beside",
    [("Nei", "NO", "Sì, nei capitoli seguenti"), ("Da", "YES", "Nein, da war niemand"), ("Nu", "NO", "Ja, nu vet jag"),
     ("Ja", "YES", "Não, já saiu"), ("Sí", "YES", "Nu, și nici nu")],
)  # fmt: skip
def test_norwegian_and_romanian_verdict_words_after_another_languages_verdict_are_words_of_its_sentence(
    alone, verdict, beside
):
    """Norwegian "nei" is Italian "nei" (in the), "ja" folded Portuguese "já" (already), Romanian "da" Italian "da"
    (from) and German "da" (there), "nu" Swedish "nu" (now), and folded Spanish "sí" Romanian "și" (and). Alone each
    is a verdict; after another language's verdict, a word of its sentence."""
    assert normalize_finder_answer(alone) == verdict
    assert normalize_finder_answer(beside) == normalize_finder_answer(beside.split(",")[0])
    assert normalize_claim_answer("Vrai, en usant de ruse") == "TRUE"  # French "usant" (using) is no Norwegian FALSE


@pytest.mark.parametrize(
    "text,verdict",
    [("Da der Brief fehlt", None), ("Nei capitoli 3 e 5", None), ("Nu vet vi mer", None), ("Ja myślę, że tak", None),
     ("Si tratta di lui", None), ("Da, este scris", "YES"), ("DA este scris", "YES"), ("Nu.", "NO"), ("Ja", "YES"),
     ("Svar: NEI", "NO"), ("Da — [3]", "YES"), ("Nei [4]", "NO")],
)  # fmt: skip
def test_a_verdict_word_that_is_another_languages_word_is_a_verdict_only_standing_alone(text, verdict):
    """German "Da" (since), Italian "Nei" (in the), Swedish "Nu" (now), Polish "Ja" (I), Italian "Si" open sentences;
    in capitals or followed by nothing or by punctuation, they are the verdict asked for."""
    assert normalize_finder_answer(text) == verdict
    assert normalize_claim_answer(text) == {"YES": "TRUE", "NO": "FALSE", None: None}[verdict]


@pytest.mark.parametrize(
    "text,verdict",
    [("The claim is true.", "TRUE"), ("This statement is false", "FALSE"), ("It's true", "TRUE"),
     ("That is not true", "FALSE"), ("The statement is incorrect", "FALSE"), ("Answer: the claim is false", "FALSE"),
     ("L’affirmation est fausse", "FALSE"), ("C'est vrai", "TRUE"), ("Die Aussage ist falsch", "FALSE"),
     ("Diese Behauptung ist wahr", "TRUE"), ("Es ist nicht wahr", "FALSE"), ("La afirmación es falsa", "FALSE"),
     ("Es verdad", "TRUE"), ("No es cierto", "FALSE"), ("L'affermazione è vera", "TRUE"), ("Non è vero", "FALSE"),
     ("A afirmação é falsa", "FALSE"), ("Não é verdade", "FALSE"), ("Утверждение неверно", "FALSE"),
     ("Это не верно", "FALSE"), ("Данное утверждение верно", "TRUE"), ("该说法正确", "TRUE"),
     ("这个说法是错误的", "FALSE"), ("判断错误", "FALSE"), ("その主張は正しい", "TRUE"), ("主張は誤りです", "FALSE"),
     ("이 주장은 참입니다", "TRUE"), ("Ce n’est pas vrai.", "FALSE"), ("Das stimmt nicht", "FALSE"),
     ("Stimmt.", "TRUE"),
     ("Es incorrecto", "FALSE"), ("È sbagliato", "FALSE"), ("Está errado", "FALSE"), ("Это правильно", "TRUE"),
     # said of the claim but no verdict, or two
     ("The claim cannot be verified", None), ("This is unclear", None), ("Die Aussage ist wahr oder falsch", None),
     ("It depends", None), ("The claim is true, not false", "TRUE"), ("It is false, not true", "FALSE")],
)  # fmt: skip
def test_a_claim_verdict_said_of_the_claim_is_read(text, verdict):
    """A small model answers a claim in a sentence of its language ("L'affirmation est fausse", "该说法正确"): what
    it is said of and the copula go, and the verdict is read as when alone; a negated verdict is the other one."""
    assert normalize_claim_answer(text) == verdict


@pytest.mark.parametrize(
    "text,verdict",
    [("That is not false", "TRUE"), ("The claim is not incorrect.", "TRUE"), ("Ce n'est pas faux", "TRUE"),
     ("Das ist nicht falsch", "TRUE"), ("No es falso", "TRUE"), ("Non è falso", "TRUE"), ("Não é falsa", "TRUE"),
     ("Это не ложно", "TRUE"), ("没错", "TRUE"), ("間違いない", "TRUE"), ("誤りではない", "TRUE"),
     # the same words in two clauses: "No" answers, then the claim is called false
     ("No, es falso", "FALSE"), ("Non, c'est faux", "FALSE"), ("Não, é falso", "FALSE"), ("No. False.", "FALSE"),
     ("間違い", "FALSE"), ("No, es cierto", None), ("Yes, not false", "TRUE"), ("No, not false", None),
     # a Chinese copula before the verdict is no "是" (yes): "是错误的" is "(it) is wrong"
     ("是错误的", "FALSE"), ("是假的", "FALSE"), ("是对的", "TRUE"), ("是的", "TRUE"), ("是", "TRUE"),
     ("正しくありません", "FALSE"), ("それは誤りです", "FALSE"), ("これは正しい", "TRUE"), ("本当です", "TRUE"),
     ("Ce n'est pas exact", "FALSE")],
)  # fmt: skip
def test_a_negated_false_is_true_within_one_clause(text, verdict):
    """A claim called not false is TRUE ("No es falso", read FALSE from "no" and "falso" before); "No, es falso"
    answers no and calls it false, two clauses, both FALSE; "No, es cierto" contradicts itself and stays unread."""
    assert normalize_claim_answer(text) == verdict


@pytest.mark.parametrize(
    "text,verdict",
    [("Relevant", "YES"), ("Not relevant", "NO"), ("Irrelevant.", "NO"), ("Relevant, see [3]", "YES"),
     ("Nicht relevant", "NO"), ("Non pertinent", "NO"), ("No relevante", "NO"), ("Не относится", "NO"),
     ("相关", "YES"), ("不相关", "NO"), ("无关", "NO"), ("関連なし", "NO"), ("関係あり", "YES"),
     ("関係ありません", "NO"), ("関係ない", "NO"), ("是相关的", "YES"), ("是无关的", "NO"),
     ("No, nothing relevant", "NO"), ("NO. The segment is not relevant", "NO"), ("YES, relevant", "YES"),
     ("Relevant? No", None), ("Not relevant, yes", None)],
)  # fmt: skip
def test_a_finder_verdict_said_as_relevance_is_read_where_it_opens_the_answer(text, verdict):
    """ "Relevant" or "不相关" opening the answer is the Finder's YES or NO; later in it, a word of the sentence
    ("No, nothing relevant" is NO), while a YES or NO later still contradicts it."""
    assert normalize_finder_answer(text) == verdict


def test_a_claim_sentence_is_read_at_inference_and_paid_nothing_in_training():
    reply = "<reason>[4] 与 [9] 相矛盾。</reason><answer>该说法错误</answer>"
    claim = Question.claim("宝玉从未去过潇湘馆。")
    assert (parse_interpreter(reply, claim).answer, parse_interpreter(reply, claim).answer_legal) == ("FALSE", True)
    assert not parse_interpreter_strict(reply, claim).answer_legal


def test_the_negative_rationale_twins_differ_only_in_stating_why():
    stated, unstated = (
        finder_reward_components(reply(t["zh"], "NO"), **NEGATIVE) for t in (NO_STATING_WHY, NO_WITHOUT_WHY)
    )
    assert (stated["negative_rationale"], unstated["negative_rationale"]) == (0.75, 0.375)


def test_a_chinese_rationale_is_non_trivial_by_its_characters():
    assert finder_reward_components(reply("无关。", "NO"), **NEGATIVE)["negative_rationale"] == 0.0
    assert finder_reward_components(reply("无关无关无关无关无关无关", "NO"), **NEGATIVE)["negative_rationale"] == 0.0


# --- Interpreter ------------------------------------------------------------------------------------

KORVIN = Question(
    "Why did the Tr'en let Korvin go?",
    {"A": "He represented an unsolveable problem", "B": "He would not tell the truth",
     "C": "He disrespected the ruler", "D": "He refused to answer"},
)  # fmt: skip
EVIDENCE = {
    "en": '[40] The Ruler frowned. "You are an insoluble problem," he said to Korvin.\n'
    "[41] After 3 days the guard left the door of the cell unlocked, and Korvin walked out.",
    "zh": "[40] 统治者皱起眉头。“你是一个无法解决的难题，”他对科尔文说。\n"
    "[41] 三天后，守卫没有锁上牢房的门，科尔文走了出去。",
    "fr": "[40] Le Souverain fronça les sourcils. « Vous êtes un problème insoluble », dit-il à Korvin.\n"
    "[41] Au bout de trois jours, le garde laissa la porte de la cellule ouverte, et Korvin sortit.",
    "de": "[40] Der Herrscher runzelte die Stirn. „Du bist ein unlösbares Problem“, sagte er zu Korvin.\n"
    "[41] Nach drei Tagen ließ der Wächter die Zellentür offen, und Korvin ging hinaus.",
    "el": "[40] Ο Άρχοντας συνοφρυώθηκε. «Είσαι ένα άλυτο πρόβλημα», είπε στον Κόρβιν.\n"
    "[41] Ύστερα από τρεις μέρες ο φρουρός άφησε ανοιχτή την πόρτα του κελιού, και ο Κόρβιν βγήκε.",
    "ko": "[40] 통치자는 얼굴을 찌푸렸다. “당신은 풀 수 없는 문제요.” 그가 코르빈에게 말했다.\n"
    "[41] 사흘 뒤 간수는 감방 문을 잠그지 않고 두었고, 코르빈은 걸어 나갔다.",
    "pl": "[40] Władca zmarszczył brwi. „Jesteś nierozwiązywalnym problemem” — powiedział do Korvina.\n"
    "[41] Po trzech dniach strażnik zostawił drzwi celi otwarte i Korvin wyszedł.",
    "sv": "[40] Härskaren rynkade pannan. ”Du är ett olösligt problem”, sade han till Korvin.\n"
    "[41] Efter tre dagar lämnade vakten celldörren olåst, och Korvin gick ut.",
    "cs": "[40] Vládce se zamračil. „Jsi neřešitelný problém,“ řekl Korvinovi.\n"
    "[41] Po třech dnech nechal strážný dveře cely odemčené a Korvin odešel.",
    "hu": "[40] Az uralkodó összevonta a szemöldökét. „Megoldhatatlan probléma vagy” – mondta Korvinnak.\n"
    "[41] Három nap múlva az őr nyitva hagyta a cella ajtaját, és Korvin kisétált.",
    "no": "[40] Herskeren rynket pannen. «Du er et uløselig problem», sa han til Korvin.\n"
    "[41] Etter tre dager lot vakten celledøren stå ulåst, og Korvin gikk ut.",
    "ro": "[40] Conducătorul se încruntă. „Ești o problemă de nerezolvat”, îi spuse lui Korvin.\n"
    "[41] După trei zile, paznicul lăsă ușa celulei descuiată, iar Korvin ieși.",
}
FULL_MARKS = {
    "en": 'The Ruler tells Korvin he is "an insoluble problem" [40]; right after that the guard leaves the cell '
    "unlocked and Korvin walks out [41], so the Tr'en let him go because he was a problem they could not solve.",
    "zh": "统治者对科尔文说他是「一个无法解决的难题」[40]；随后守卫没有锁上牢门，科尔文走了出去 [41]，"
    "所以特伦人放他走，因为他是一个他们解决不了的难题。",
    "fr": "Le Souverain dit à Korvin qu'il est « un problème insoluble » [40] ; ensuite le garde laisse la cellule "
    "ouverte et Korvin sort [41], donc les Tr'en le laissent partir parce qu'ils ne savent pas le résoudre.",
    "de": "Der Herrscher nennt Korvin „ein unlösbares Problem“ [40]; danach lässt der Wächter die Zelle offen und "
    "Korvin geht hinaus [41], also lassen die Tr'en ihn gehen, weil sie ihn nicht lösen können.",
    "el": "Ο Άρχοντας λέει στον Κόρβιν ότι είναι «ένα άλυτο πρόβλημα» [40]· αμέσως μετά ο φρουρός αφήνει το "
    "κελί ανοιχτό και ο Κόρβιν βγαίνει [41], άρα οι Τρ'εν τον άφησαν να φύγει επειδή δεν μπορούσαν να τον λύσουν.",
    "ko": "통치자는 코르빈에게 그가 “풀 수 없는 문제”라고 말한다 [40]. 그 직후 간수가 감방 문을 잠그지 않고 "
    "코르빈은 걸어 나간다 [41]. 그러니 트렌인들이 그를 놓아준 것은 그가 그들이 풀 수 없는 문제였기 때문이다.",
    "pl": "Władca mówi Korvinowi, że jest „nierozwiązywalnym problemem” [40]; zaraz potem strażnik zostawia celę "
    "otwartą i Korvin wychodzi [41], więc Tr'enowie pozwolili mu odejść, ponieważ był problemem, którego nie umieli "
    "rozwiązać.",
    "sv": "Härskaren säger till Korvin att han är ”ett olösligt problem” [40]; strax därefter lämnar vakten cellen "
    "olåst och Korvin går ut [41], så Tr'en lät honom gå eftersom han var ett problem som de inte kunde lösa.",
    "cs": "Vládce říká Korvinovi, že je „neřešitelný problém“ [40]; hned nato strážný nechá celu odemčenou a Korvin "
    "odejde [41], takže ho Tr'enové propustili, protože byl problémem, který nedokázali vyřešit.",
    "hu": "Az uralkodó azt mondja Korvinnak, hogy „megoldhatatlan probléma” [40]; közvetlenül utána az őr nyitva "
    "hagyja a cellát, és Korvin kisétál [41], tehát a Tr'enek azért engedték el, mert olyan probléma volt, amelyet "
    "nem tudtak megoldani.",
    "no": "Herskeren sier til Korvin at han er «et uløselig problem» [40]; rett etter det lar vakten cellen stå "
    "ulåst, og Korvin går ut [41], så Tr'en lot ham gå fordi han var et problem de ikke kunne løse.",
    "ro": "Conducătorul îi spune lui Korvin că este „o problemă de nerezolvat” [40]; imediat după aceea paznicul lasă "
    "celula descuiată și Korvin iese [41], așa că tr'enii l-au lăsat să plece pentru că era o problemă pe care nu o "
    "puteau rezolva.",
}
HEDGED = {
    "en": "There is not enough information, but the ruler calls him a problem [40].",
    "zh": "信息不足，但统治者称他是个难题 [40]。",
    "fr": "Il n'y a pas assez d'informations, mais le souverain le traite de problème [40].",
    "de": "Es gibt nicht genug Informationen, aber der Herrscher nennt ihn ein Problem [40].",
    "el": "Δεν υπάρχουν αρκετές πληροφορίες, αλλά ο άρχοντας τον λέει πρόβλημα [40].",
    "ko": "정보가 부족하지만, 통치자는 그를 문제라고 부른다 [40].",
    "pl": "Nie ma wystarczających informacji, ale władca nazywa go problemem [40].",
    "sv": "Det finns inte tillräckligt med information, men härskaren kallar honom ett problem [40].",
    "cs": "Není dostatek informací, ale vládce ho nazývá problémem [40].",
    "hu": "Nincs elég információ, de az uralkodó problémának nevezi [40].",
    "no": "Det finnes ikke nok informasjon, men herskeren kaller ham et problem [40].",
    "ro": "Nu există suficiente informații, dar conducătorul îl numește o problemă [40].",
}


def interpreter(rationale: str, language: str, answer: str = "A") -> dict[str, float]:
    return interpreter_reward_components(
        reply(rationale, answer), question=KORVIN, answer="A", allowed_ids=[40, 41], hard=True,
        evidence=EVIDENCE[language],
    )  # fmt: skip


@pytest.mark.parametrize("language", ["zh", "fr", "de", "el", "ko", "pl", "sv", "cs", "hu", "no", "ro"])
def test_an_interpreter_reply_earns_what_its_english_twin_earns(language):
    english = interpreter(FULL_MARKS["en"], "en")
    assert sum(english.values()) == pytest.approx(4.8)  # every bonus: quotation, citations, length
    assert interpreter(FULL_MARKS[language], language) == english


@pytest.mark.parametrize("language", ["zh", "fr", "de", "el", "ko", "pl", "sv", "cs", "hu", "no", "ro"])
@pytest.mark.parametrize("answer", ["A", "C"])
def test_hedging_costs_what_it_costs_in_english(language, answer):
    """The hedging component only: German capitalizes "Problem", which the evidence then holds as a
    name (a limit of ``clueweaver.protocol.details``), where English writes "a problem"."""
    english = interpreter(HEDGED["en"], "en", answer)
    assert english["hedging"] == interpreter(HEDGED[language], language, answer)["hedging"] == -0.4


@pytest.mark.parametrize(
    "rationale,evidence,details",
    [("Élise le dit [3].", "[3] « Va-t'en », dit Élise.", ["Élise"]),  # a name in running text
     ("Le comte refuse [3].", "[3] Le comte refuse. Mme Dambreuse rit.", []),  # a sentence opener
     ("Mme Dambreuse rit [3].", "[3] Le comte refuse. Mme Dambreuse rit.", ["Dambreuse"]),  # after a title
     ("Андрей вошёл [3].", "[3] Вошёл князь Андрей.", ["Андрей"]),
     ("她等了３天 [3]。", "[3] 她等了3天。", ["3"]),  # full-width digits
     ("「紫色的信」[3]", "[3] 她收到了一封紫色的信。", ["紫色的信"]),
     ("Hrabě Vorovka odešel [3].", "[3] Hrabě Vorovka odešel.", ["Vorovka"]),  # a Czech title
     ("Gróf Teleki belépett [3].", "[3] Gróf Teleki belépett.", ["Teleki"]),  # a Hungarian one
     ("Az ajtó nyitva maradt [3].", "[3] Az ajtó nyitva maradt.", []),  # a Hungarian sentence opener
     ("Frk. Janna lo [3].", "[3] Frk. Janna lo.", ["Janna"]),  # a Norwegian title
     ("Coana Mariţa tăcu [3].", "[3] Coana Mariţa tăcu.", ["Mariţa"]),  # a Romanian one
     ("Totuşi ea tăcu [3].", "[3] Totuşi ea tăcu.", [])],  # a Romanian sentence opener, with a cedilla
)  # fmt: skip
def test_specific_details_in_every_language(rationale, evidence, details):
    assert specific_details(rationale, evidence) == details


# --- self-calibration trigger -------------------------------------------------------------------------

QUESTION_TWINS = {
    "negated": {
        "en": "Which of the following is NOT true of Korvin?",
        "zh": "以下关于科尔文的说法哪一项不正确？",
        "fr": "Laquelle de ces affirmations n'est pas vraie de Korvin ?",
        "de": "Welche Aussage über Korvin ist nicht wahr?",
        "ru": "Какое утверждение о Корвине не верно?",
        "el": "Ποια από τις παρακάτω προτάσεις για τον Κόρβιν δεν είναι αληθής;",
        "ko": "다음 중 코르빈에 대해 옳지 않은 것은?",
        "pl": "Które z poniższych stwierdzeń o Korvinie NIE jest prawdziwe?",
        "sv": "Vilket av följande påståenden om Korvin är INTE sant?",
        "cs": "Které z následujících tvrzení o Korvinovi NENÍ pravdivé?",
        "hu": "Melyik állítás NEM IGAZ Korvinra?",
        "no": "Hvilket av følgende utsagn om Korvin er IKKE sant?",
        "ro": "Care dintre următoarele afirmații despre Korvin NU este adevărată?",
    },
    "causal": {
        "en": "Why did the Tr'en let Korvin go?",
        "zh": "特伦人为什么放走了科尔文？",
        "fr": "Pourquoi les Tr'en ont-ils laissé partir Korvin ?",
        "de": "Warum ließen die Tr'en Korvin gehen?",
        "ru": "Почему тренцы отпустили Корвина?",
        "el": "Γιατί οι Τρ'εν άφησαν τον Κόρβιν να φύγει;",
        "ja": "なぜトレン人はコーヴィンを逃がしたのか？",
        "ko": "트렌인들은 왜 코르빈을 놓아주었나?",
        "pl": "Dlaczego Tr'enowie pozwolili Korvinowi odejść?",
        "sv": "Varför lät Tr'en Korvin gå?",
        "cs": "Proč Tr'enové nechali Korvina odejít?",
        "hu": "Miért engedték el a Tr'enek Korvint?",
        "no": "Hvorfor lot Tr'en Korvin gå?",
        "ro": "De ce l-au lăsat tr'enii pe Korvin să plece?",
    },
    "inferential": {
        "en": "What can we infer from the longest dialogue in the story?",
        "zh": "从故事中最长的对话可以推断出什么？",
        "fr": "Que peut-on déduire du plus long dialogue de l'histoire ?",
        "de": "Was lässt sich aus dem längsten Dialog der Geschichte folgern?",
        "ru": "Какой вывод можно сделать из самого длинного диалога?",
        "el": "Τι συμπεραίνουμε από τον μεγαλύτερο διάλογο της ιστορίας;",
        "ko": "이야기에서 가장 긴 대화로부터 무엇을 추론할 수 있는가?",
        "pl": "Co możemy wywnioskować z najdłuższego dialogu w opowiadaniu?",
        "sv": "Vad kan vi dra för slutsatser av den längsta dialogen i berättelsen?",
        "cs": "Co můžeme vyvodit z nejdelšího dialogu v příběhu?",
        "hu": "Mire következtethetünk a történet leghosszabb párbeszédéből?",
        "no": "Hva kan vi utlede av den lengste dialogen i fortellingen?",
        "ro": "Ce putem deduce din cel mai lung dialog al povestirii?",
    },
    "quiet": {
        "en": "Who keeps the lamps on the quay?",
        "zh": "谁看管码头上的灯？",
        "fr": "Qui garde les lampes du quai ?",
        "de": "Wer hütet die Lampen am Kai?",
        "ru": "Кто следит за фонарями на причале?",
        "el": "Ποιος φυλάει τα φανάρια στην προκυμαία;",
        "ko": "부두의 등불은 누가 지키는가?",
        "pl": "Kto pilnuje latarni na nabrzeżu?",
        "sv": "Vem vaktar lyktorna på kajen?",
        "cs": "Kdo hlídá lampy na nábřeží?",
        "hu": "Ki vigyáz a rakparti lámpákra?",
        "no": "Hvem passer på lyktene på kaia?",
        "ro": "Cine păzește felinarele de pe chei?",
    },
}
TWIN_CASES = [(kind, language) for kind, twins in QUESTION_TWINS.items() for language in twins if language != "en"]


@pytest.mark.parametrize("kind,language", TWIN_CASES)
@pytest.mark.parametrize("make", [lambda text: Question(text, {"A": "x", "B": "y"}), Question.open])
def test_the_trigger_fires_on_a_question_as_on_its_english_twin(kind, language, make):
    english, twin = make(QUESTION_TWINS[kind]["en"]), make(QUESTION_TWINS[kind][language])
    assert set(calibration_cues(twin)) == set(calibration_cues(english))
    assert needs_self_calibration(twin) == needs_self_calibration(english) == (kind != "quiet")


def test_a_japanese_question_in_the_past_negative_is_negated():
    """ "行かなかった" (did not go) holds no "ない": the past's negative is its own cue."""
    assert calibration_cues(Question.open("先生はなぜ手紙を出さなかったのか？")) == {
        "negation": ["なかっ"],
        "causal": ["なぜ"],
    }
    assert calibration_cues(Question.open("真ん中に立ったのは誰か？")) == {}


def test_the_cues_of_other_languages_stay_quiet_in_english():
    for text in ("Whose car was parked by the pendant lamp?", "What motif recurs?", "Who came to the den?"):
        assert calibration_cues(Question.open(text)) == {}, text


def test_polish_and_swedish_cues_stay_quiet_where_their_words_mean_something_else():
    """German "nie" (never) is no Polish negation, Italian "un po'" no Polish "po" (after), English
    "under" no Swedish "under" (during)."""
    assert calibration_cues(Question.open("Wer war nie in Berlin?")) == {}
    assert not is_temporal("Chi ha bevuto un po' di vino?") and not is_temporal("Who slept under the bridge?")


def test_czech_and_hungarian_cues_stay_quiet_where_their_words_mean_something_else():
    """Portuguese "nem" (nor) and the name Hamish are no Hungarian negation ("hamis", false), Polish "oka" (of an
    eye) no Hungarian reason, Portuguese "pote" (jar) no Czech "poté" (afterwards), Swedish "utan" (without) and
    "mig" (me) no Hungarian "után" (after) and "míg" (while)."""
    for text in ("Quem nem sequer olhou para Capitu?", "Whom did Hamish marry?"):
        assert calibration_cues(Question.open(text)) == {}, text
    assert calibration_cues(Question.open("Co Anna zobaczyła kątem oka?")) == {}
    assert not any(map(is_temporal, ["Quem quebrou o pote de doce?", "Vem gick utan mig?"]))


def test_norwegian_and_romanian_cues_stay_quiet_where_their_words_mean_something_else():
    """French "tu mens" (you lie) is no Norwegian "mens" (while), Polish "dupa" no folded Romanian "după" (after),
    French "de ce" (of this) no Romanian "de ce" (why), Swedish "nu" (now) no Romanian "nu" (not), German "Motiv"
    (motif) no Romanian reason."""
    assert not any(map(is_temporal, ["Pourquoi Emma dit-elle « tu mens » ?", "Kto napisał na murze „dupa”?"]))
    for text in ("Que pense Emma de ce bal ?", "Vem är här nu?", "Welches Motiv kehrt wieder?"):
        assert calibration_cues(Question.open(text)) == {}, text


# --- open answers -----------------------------------------------------------------------------------


def test_chinese_answers_are_scored_by_character():
    assert answer_tokens("林黛玉的诗。") == ["林", "黛", "玉", "的", "诗"]
    assert token_f1("林黛玉", ["林黛玉的诗"]) == pytest.approx(2 * 1 * 0.6 / 1.6)  # P = 3/3, R = 3/5
    assert token_f1("林黛玉", ["贾宝玉"]) == pytest.approx(1 / 3)  # only 玉 shared
    assert token_f1("Élise 和 Korvin", ["Élise"]) == pytest.approx(2 / 4)  # Latin words whole: 3 tokens, 1 shared
    assert rouge_l("林黛玉写的诗", ["林黛玉的诗"]) == pytest.approx(2 * 1 * (5 / 6) / (1 + 5 / 6))


def test_a_traditional_or_old_form_answer_meets_its_simplified_or_new_form_reference():
    """A model reading Project Gutenberg's traditional 紅樓夢 answers "賈寶玉" where the reference says "贾宝玉";
    Japanese old kanji ("櫻") meet their new forms ("桜"), as retrieval reads both."""
    assert token_f1("賈寶玉", ["贾宝玉"]) == 1.0 and token_f1("大觀園", ["大观园里"]) == pytest.approx(6 / 7)
    assert token_f1("櫻の木", ["桜の木"]) == 1.0
    assert token_f1("贾宝玉", ["林黛玉"]) == pytest.approx(1 / 3)  # still only 玉 shared


def test_korean_answers_are_scored_by_syllable():
    """KorQuAD's F1: a Korean word carries its particles, so "정희" against "정희가" shares two syllables of
    three where whole words would share none."""
    assert answer_tokens("정희의 편지.") == ["정", "희", "의", "편", "지"]
    assert token_f1("정희", ["정희가"]) == pytest.approx(2 * 1 * (2 / 3) / (1 + 2 / 3))
    assert token_f1("일복", ["정희가"]) == 0.0


def test_a_japanese_or_korean_copula_on_the_answers_end_is_dropped_before_f1():
    """ "先生です" is the polite "先生" (the teacher), "코르빈입니다" "코르빈": the copula is written onto the
    answer, where English writes "It was" apart (SQuAD keeps those words)."""
    assert token_f1("先生です。", ["先生"]) == 1.0 and token_f1("お嬢さんでした", ["お嬢さん"]) == 1.0
    assert token_f1("코르빈입니다", ["코르빈"]) == 1.0
    assert answer_tokens("先生ですか") == ["先", "生", "で", "す", "か"]  # only at the end
    assert answer_tokens("です") == ["で", "す"]  # a copula alone is the answer
    assert token_f1("It was Korvin", ["Korvin"]) == pytest.approx(0.5)


def test_f1_drops_the_articles_of_the_references_language_when_it_shows_one():
    # English: "die" is a word, not the German article (P = 3/3, R = 3/8)
    assert token_f1("she would die", ["He said that she would die of shame"]) == pytest.approx(6 / 11)
    assert token_f1("die Brücke", ["Brücke"]) == 1.0  # a name alone shows no language: every article goes
    assert token_f1("ett olösligt problem", ["olösligt problem"]) == 1.0
    assert token_f1("en mer", ["mer"]) == pytest.approx(2 / 3)  # French "en" (in) is no Swedish article here
    assert token_f1("egy megoldhatatlan probléma", ["megoldhatatlan probléma"]) == 1.0
    assert token_f1("až ráno", ["ráno"]) == pytest.approx(2 / 3)  # folded Czech "až" (until) is no Hungarian "az"
    assert token_f1("o problemă de nerezolvat", ["problemă de nerezolvat"]) == 1.0
    assert token_f1("et ulykke", ["ulykke"]) == pytest.approx(2 / 3)  # French "et" (and) is no Norwegian article here
    assert (
        token_f1("η Χαδούλα", ["Χαδούλα"]) == 1.0
        and token_f1("Χαδούλα", ["Η γριά Χαδούλα ήταν εκεί και δεν μιλούσε"]) > 0
    )


def test_french_answers_fold_accents_case_and_articles():
    assert token_f1("Elise et la reine", ["Élise et la Reine."]) == 1.0
    assert token_f1("l’épée", ["L'ÉPÉE"]) == token_f1("l'épée", ["épée"]) == 1.0  # the elided article goes
    assert token_f1("une lettre d'Élise", ["la lettre"]) == pytest.approx(2 * 1 / 2 * 1 / 1.5)  # {lettre, delise}
    assert rouge_l("Élise", ["elise"]) == 1.0  # rouge-score's own tokens would keep only "lise"
    assert token_f1("son cœur et son œil", ["son coeur et son oeil"]) == 1.0  # an edition's ligatures spelled out
    assert token_f1("База́ров и за́мок", ["Базаров и замок"]) == 1.0  # a Russian edition's stress marks
    assert token_f1("чай", ["чаи"]) == 0.0  # й keeps its breve
    assert token_f1("the grey colour of the theatre", ["the gray color of the theater"]) == 1.0  # British, American


@pytest.mark.parametrize(
    "answer,reference",
    [("42", "forty-two"), ("quarenta e dois anos", "42 anos"), ("quarenta e dous", "42"),
     ("vingt mille livres", "20 000 livres"), ("20.000 Taler", "zwanzigtausend Taler"),
     ("£250 pounds", "two hundred and fifty pounds"), ("сто рублей", "100 рублей"), ("έξι μέρες", "6 μέρες"),
     ("二十两", "20两"), ("２０両", "二十両"), ("tvåhundrafemtio kronor", "250 kronor"),
     ("to hundre og femti kroner", "250 kroner"), ("po dwudziestu pięciu latach", "po 25 latach"),
     ("pět set korun", "500 korun"), ("háromezer forint", "3000 forint"), ("două sute de lei", "200 de lei")],
)  # fmt: skip
def test_numbers_are_compared_by_value_however_each_side_writes_them(answer, reference):
    assert token_f1(answer, [reference]) == token_f1(reference, [answer]) == 1.0


def test_numbers_of_other_values_or_none_stay_apart():
    assert token_f1("forty-three", ["42"]) == token_f1("43", ["forty-two"]) == 0.0
    assert token_f1("二十一", ["20"]) == pytest.approx(2 * (2 / 3) / (2 / 3 + 1))  # 二 十 一 against 二 十
    assert token_f1("3,5 Taler", ["35 Taler"]) == 1.0  # punctuation goes inside digits, as SQuAD drops it


@pytest.mark.parametrize(
    "answer,reference,language",
    [("forty-two", "42", "en"), ("quarenta e dois", "42", "pt"),  # a short answer: its number words decide
     ("42", "They said forty-two was the number", "en"), ("20", "二十两银子", "zh"),  # the reference's language
     ("Emma", "Emma Woodhouse", None), ("mil", "1000", "es")],  # no number; a tie: the first alphabetically
)  # fmt: skip
def test_the_language_numbers_are_read_in(answer, reference, language):
    assert numbers_language(answer, reference) == language


def test_an_open_answer_in_digits_earns_what_the_spelled_answer_earns():
    def overlap(answer: str) -> float:
        return open_answer_reward_components(
            reply(FULL_MARKS["fr"], answer), references=["Au bout de trois jours."], gold_ids=[40, 41],
            allowed_ids=[40, 41], evidence=EVIDENCE["fr"], question="Au bout de combien de jours Korvin sort-il ?",
        )["reference_overlap"]  # fmt: skip

    assert overlap("Au bout de 3 jours") == overlap("au bout de trois jours") == 2.5 > overlap("Au bout de 4 jours")


@pytest.mark.parametrize(
    "language,question,answer,reference",
    [("en", "Who is an insoluble problem?", "Korvin, an insoluble problem", "Korvin: an insoluble problem."),
     ("zh", "谁是无法解决的难题？", "科尔文，无法解决的难题", "科尔文：无法解决的难题。"),
     ("fr", "Qui est un problème insoluble ?", "Korvin, un probleme insoluble", "Korvin : un problème insoluble."),
     ("de", "Wer ist ein unlösbares Problem?", "Korvin, ein unlösbares Problem", "Korvin: ein unlösbares Problem."),
     ("el", "Ποιος είναι ένα άλυτο πρόβλημα;", "Κόρβιν, ένα άλυτο πρόβλημα", "Κόρβιν: ένα άλυτο πρόβλημα."),
     ("ko", "풀 수 없는 문제는 누구인가?", "코르빈, 풀 수 없는 문제", "코르빈: 풀 수 없는 문제."),
     ("pl", "Kto jest nierozwiązywalnym problemem?", "Korvin, nierozwiązywalny problem",
      "Korvin: nierozwiązywalny problem."),
     ("sv", "Vem är ett olösligt problem?", "Korvin, ett olösligt problem", "Korvin: ett olösligt problem."),
     ("cs", "Kdo je neřešitelný problém?", "Korvin, neřešitelný problém", "Korvin: neřešitelný problém."),
     ("hu", "Ki egy megoldhatatlan probléma?", "Korvin, egy megoldhatatlan probléma",
      "Korvin: egy megoldhatatlan probléma."),
     ("no", "Hvem er et uløselig problem?", "Korvin, et uløselig problem", "Korvin: et uløselig problem."),
     ("ro", "Cine este o problemă de nerezolvat?", "Korvin, o problemă de nerezolvat",
      "Korvin: o problemă de nerezolvat.")],
)  # fmt: skip
def test_an_open_answer_earns_what_its_english_twin_earns(language, question, answer, reference):
    english = open_answer_reward_components(
        reply(FULL_MARKS["en"], "Korvin, an insoluble problem"), references=["Korvin: an insoluble problem."],
        gold_ids=[40, 41], allowed_ids=[40, 41], evidence=EVIDENCE["en"], question="Who is an insoluble problem?",
    )  # fmt: skip
    twin = open_answer_reward_components(
        reply(FULL_MARKS[language], answer), references=[reference], gold_ids=[40, 41], allowed_ids=[40, 41],
        evidence=EVIDENCE[language], question=question,
    )  # fmt: skip
    assert twin == english and english["reference_overlap"] == 2.5 and english["specificity"] == 0.3


def test_temporal_questions_in_every_language():
    assert all(
        map(is_temporal, ["Que fait Emma après le bal ?", "舞会之后艾玛做了什么？", "Was tat Emma, nachdem sie ging?",
                          "Τι έκανε η Έμμα μετά τον χορό;", "무도회가 끝난 후에 에마는 무엇을 했나?",
                          "Co zrobiła Emma, zanim wyszła z balu?", "Vad gjorde Emma efter balen?",
                          "Co udělala Emma, když odešla z plesu?", "Mit csinált Emma, miután elhagyta a bált?",
                          "Hva gjorde Emma etter ballet?", "Ce a făcut Emma după ce a plecat de la bal?"])
    )  # fmt: skip
    assert not is_temporal("Qui garde les lampes du quai ?")


# --- prompts ----------------------------------------------------------------------------------------

OPEN = Question.open("Pourquoi Hester doute-t-elle du récit de Silas Garrow ?")
PACKET = "[6] Hester éteignit sa lampe peu après minuit."


def test_the_open_interpreter_answers_in_the_language_of_the_question():
    recheck = calibration_messages(OPEN, PACKET, "<reason>[6]</reason><answer>sa lampe</answer>")
    for messages in (interpreter_messages(OPEN, PACKET), recheck):
        assert "in the language of the question" in messages[0]["content"]
    mcq = Question(OPEN.text, {"A": "x", "B": "y"})
    for messages in (finder_messages(OPEN, PACKET), interpreter_messages(mcq, PACKET)):
        assert "language" not in messages[0]["content"]  # the other prompts are as trained


# --- reading: cues, words, references, answer labels -----------------------------------------------


@pytest.mark.parametrize("table", [name for name in dir(cues) if name.endswith("_CUES")])
def test_every_cue_matches_its_own_spelling_and_folded(table):
    phrases = cues.every_language(getattr(cues, table))
    for cue in phrases:
        written = cue.replace("*", "")
        assert find_phrases(written, phrases) and find_phrases(fold(written), phrases), cue


def test_cue_matching_is_whole_words_for_spaced_scripts_and_substrings_for_cjk():
    assert find_phrases("Он не упоминается в отрывке.", ("не упомина*",)) == ["не упоминается"]
    assert find_phrases("Он упоминается.", ("не упомина*",)) == []
    assert find_phrases("IRRELEVANT的内容", ("irrelevant",)) == ["irrelevant"]  # a CJK character is no letter
    assert find_phrases("irrelevantly", ("irrelevant",)) == []
    assert find_phrases("这与问题毫无关系。", ("无关", "毫无关系")) == ["毫无关系"]  # the longest cue wins
    assert find_phrases("Le passage n’est pas mentionné.", ("n'est pas mentionn*",)) == ["n'est pas mentionne"]


def test_word_counts_read_a_cjk_character_as_two_thirds_of_a_word():
    assert word_count("没有提到汉娜") == 4 and word_count("Hannah 没有") == 2 and word_count("Élise n'est pas là") == 4


@pytest.mark.parametrize(
    "text,cited",
    [("见第12段和【14】", (12, 14)), ("[15、16]", (15, 16)), ("［17］", (17,)), ("第3至5段", (3, 4, 5)),
     ("paragraphes 3 et 5", (3, 5)), ("Absatz 7", (7,)), ("párrafos 8 a 10", (8, 9, 10)), ("абзацы 11 и 12", (11, 12)),
     ("段落20", (20,)), ("παράγραφοι 21 έως 23", (21, 22, 23)), ("ΠΑΡΑΓΡΑΦΟΣ 24 και 26", (24, 26)),
     ("단락 27", (27,)), ("28번 단락과 30번째 문단", (28, 30)), ("31~33번 단락", (31, 32, 33)),
     ("akapit 34", (34,)), ("akapity 35–37", (35, 36, 37)), ("w akapicie 38 i 40", (38, 40)),
     ("akapity 41 do 43", (41, 42, 43)), ("stycke 44", (44,)), ("styckena 45–47", (45, 46, 47)),
     ("i stycket 48 och 50", (48, 50)), ("stycken 51 till 53", (51, 52, 53)), ("odstavec 54", (54,)),
     ("odstavce 55–57", (55, 56, 57)), ("v odstavci 58 nebo 60", (58, 60)), ("odstavce 61 až 63", (61, 62, 63)),
     ("ve 64. odstavci", (64,)), ("65. a 67. odstavec", (65, 67)), ("bekezdés 68", (68,)),
     ("a 69–71. bekezdésben", (69, 70, 71)), ("a 72., 73. és 75. bekezdésekben", (72, 73, 75)),
     ("az 5. és a 7. bekezdés", (5, 7)),
     ("v kapitole 3. Odstavec 76 líčí útěk", (76,)),  # a capital after a number's dot opens a sentence
     ("avsnitt 77", (77,)), ("avsnittene 78–80", (78, 79, 80)), ("i avsnitt 81 og 83", (81, 83)),
     ("avsnitt 84 til 86", (84, 85, 86)), ("i 87. avsnitt", (87,)), ("88. og 90. avsnitt", (88, 90)),
     ("paragraful 91", (91,)), ("paragrafele 92–94", (92, 93, 94)), ("în paragrafele 95 și 97", (95, 97)),
     ("paragrafele 98 până la 100", (98, 99, 100)), ("alineatele 101 şi 103", (101, 103)),
     ("paragrafele 104 sau 106", (104, 106)), ("odstavce 107 a 109", (107, 109)),
     ("párrafos 110 a 112", (110, 111, 112)), ("odstavce 113, 115 a 117", (113, 115, 117)),
     ("bekezdések 118-tól 120-ig", (118, 119, 120))],
)  # fmt: skip
def test_paragraph_references_in_every_language(text, cited):
    assert paragraph_references(text) == (cited, ())


def test_answer_labels_in_every_language_are_stripped():
    assert normalize_open_answer("答案：林黛玉") == "林黛玉" and normalize_open_answer("Réponse : Élise") == "Élise"
    assert normalize_choice("Ответ: B", KORVIN) == "B" and normalize_choice("选项 C", KORVIN) == "C"
    assert normalize_open_answer("정답: 코르빈") == "코르빈" and normalize_choice("답: D", KORVIN) == "D"
    assert normalize_choice("Απάντηση: D", KORVIN) == "D" and normalize_open_answer("ΑΠΑΝΤΗΣΗ: Κόρβιν") == "Κόρβιν"
    assert normalize_open_answer("Odpowiedź: Korvin") == "Korvin" and normalize_choice("Opcja B", KORVIN) == "B"
    assert normalize_open_answer("Svar: Korvin") == "Korvin" and normalize_choice("Alternativ C", KORVIN) == "C"
    assert normalize_open_answer("Odpověď: Korvin") == "Korvin" and normalize_choice("Možnost B", KORVIN) == "B"
    assert normalize_open_answer("Válasz: Korvin") == "Korvin" and normalize_choice("Lehetőség C", KORVIN) == "C"
    assert normalize_open_answer("Svar: Korvin") == "Korvin" and normalize_choice("Alternativet B", KORVIN) == "B"
    assert normalize_open_answer("Răspuns: Korvin") == "Korvin" and normalize_choice("Varianta B", KORVIN) == "B"
    assert normalize_choice("Opțiunea C", KORVIN) == "C" and normalize_choice("Opţiunea D", KORVIN) == "D"


@pytest.mark.parametrize(
    "text",
    ["答案是B", "答案为B。", "正确答案是B", "选B", "应选B", "B项", "B选项", "正解はB", "答えはBです", "Bです",
     "정답은 B입니다", "답은 B", "B입니다", "Ｂ", "（Ｂ）", "La bonne réponse est B", "Die richtige Antwort ist B",
     "La respuesta correcta es B", "La risposta corretta è B", "A resposta correta é B", "The right answer is B",
     "答：B", "答案：选B", "我选B", "正确的是B", "最佳答案是B", "Правильный ответ: B", "Die Antwort lautet B",
     "La respuesta es la B", "Respuesta: la B", "A resposta é a B", "La réponse est la B", "Η απάντηση είναι Β",
     "Ответ: Б", "Answer: option B", "B is correct.", "Option B is correct", "B ist richtig", "B es correcta",
     "Вариант B правильный", "B是正确的", "Bが正しい", "Bが正しいです", "B가 맞습니다", "I choose B", "I'd go with B",
     "B (He would not tell the truth)"],
)  # fmt: skip
def test_a_letter_is_read_as_each_language_says_it_is_the_answer(text):
    """A model answering in the question's language wraps the letter in its own words, or writes it full-width."""
    assert normalize_choice(text, KORVIN) == "B"


@pytest.mark.parametrize(
    "text",
    ["I think B", "I think the answer is B", "Most likely, B", "Je pense que c'est B", "C’est la réponse B",
     "C'est la B", "Ich denke B", "Wahrscheinlich B", "Creo que es la B", "Acho que é a B", "Я думаю, ответ Б",
     "Ответ — Б", "我认为是B", "我觉得选B", "答案应该是B", "大概是B", "恐らくB", "たぶんBです", "Je choisis la B",
     "Ich wähle B", "Elijo la B", "Scelgo B", "Escolho a B", "Выбираю Б", "Bを選びます", "B를 선택합니다", "It's B",
     "Es la B", "È la B", "Es ist B", "Это Б"],
)  # fmt: skip
def test_a_letter_given_with_a_lead_in_is_the_answer_given(text):
    """ "I think the answer is B", "It's B" and "Je choisis la B" answer B: the opinion, "it is" or the choosing goes
    as a label does; "I think B or C" stays two letters."""
    assert normalize_choice(text, KORVIN) == "B"
    assert normalize_choice(text.replace("B", "B or C").replace("Б", "Б или В"), KORVIN) is None


@pytest.mark.parametrize(
    "text,verdict",
    [("I think it's true", "TRUE"), ("I think the claim is false", "FALSE"), ("Most likely, TRUE", "TRUE"),
     ("Je pense que c'est faux", "FALSE"), ("Ich glaube, das ist falsch", "FALSE"), ("Creo que es falso", "FALSE"),
     ("Я думаю, это неверно", "FALSE"), ("我认为是错误的", "FALSE"), ("应该是对的", "TRUE"), ("たぶん正しい", "TRUE"),
     ("I think", None), ("Probably not", None), ("Likely true, but maybe false", None)],
)  # fmt: skip
def test_a_verdict_given_with_a_lead_in_is_the_verdict_given(text, verdict):
    assert normalize_claim_answer(text) == verdict


@pytest.mark.parametrize(
    "text,verdict", [("I think YES", "YES"), ("Probably not relevant", "NO"), ("我认为相关", "YES"), ("I think", None)]
)
def test_a_finder_verdict_given_with_a_lead_in_is_the_verdict_given(text, verdict):
    assert normalize_finder_answer(text) == verdict


@pytest.mark.parametrize(
    "text,verdict",
    [("正确与否无法判断", None), ("真假难辨", None), ("是真的吗", None), ("对不对", None),
     ("正しいとは言えない", None), ("正しくないとは言えない", None), ("正しいかもしれない", None),
     ("正しいです", "TRUE"), ("正しいと思います", "TRUE"), ("正确的", "TRUE"), ("错误，原文写的是对的", "FALSE"),
     ("間違いないです", "TRUE"), ("正確", "TRUE"), ("錯誤", "FALSE")],
)  # fmt: skip
def test_a_chinese_or_japanese_verdict_word_qualified_in_its_clause_is_none(text, verdict):
    """ "正しいとは言えない" (it cannot be called right) had read TRUE from its opening "正しい": a negation, a
    question, a doubt or a noun's suffix after the word in its clause, or the other label's word, leaves it unread;
    what follows a comma is another clause."""
    assert normalize_claim_answer(text) == verdict


@pytest.mark.parametrize(
    "text,verdict",
    [("True in part", None), ("TRUE, partially", None), ("Vrai en partie", None), ("Verdadero en parte", None),
     ("Richtig, aber nur teilweise", None), ("Верно лишь отчасти", None), ("Partly true", None),
     ("TRUE. The claim is partly about the will.", "TRUE"), ("Falso", "FALSE")],
)  # fmt: skip
def test_a_claim_said_to_hold_in_part_is_asked_again_not_read(text, verdict):
    """ "True in part" had read TRUE: a partial verdict is none, so the reply is asked again for TRUE or FALSE; a later
    sentence that says "partly" is the rationale's."""
    assert normalize_claim_answer(text) == verdict
    assert normalize_finder_answer("Yes, partially") == "YES"  # a segment relevant in part is relevant


@pytest.mark.parametrize(
    "text,verdict",
    [("FALSE. It is partly true, but the date is wrong.", "FALSE"), ("TRUE! It is not false.", "TRUE"),
     ("FALSO\nDon Quijote no lucha contra gigantes de verdad.", "FALSE"),
     ("VERDADERO. Pedro no es su hermano.", "TRUE"),
     ("- Verdict: **true**\n- Reason: she refuses him.", "TRUE"),
     # a later sentence that says the other verdict of the claim, or alone, undoes the first
     ("Wahr.\nDie Aussage ist falsch.", None), ("TRUE. Actually, FALSE.", None),
     ("TRUE. But he never went, so it is false.", None)],
)  # fmt: skip
def test_a_verdict_stands_unless_a_later_sentence_says_the_other_one(text, verdict):
    """Any later word naming the other verdict had undone the first ("FALSE. It is partly true…", the "verdad" of a
    Spanish rationale); read past its rationale whole, the first frozen reply set's "Wahr.\nDie Aussage ist falsch."
    was TRUE. A later sentence counts where it says a verdict of the claim, opens with one or holds one alone."""
    assert normalize_claim_answer(text) == verdict


@pytest.mark.parametrize(
    "text,verdict",
    [("Certo", "TRUE"), ("Errada", "FALSE"), ("Sbagliata", "FALSE"), ("Errata", "FALSE"), ("嘘です", "FALSE"),
     ("うそ", "FALSE"), ("嘘ではない", None)],
)  # fmt: skip
def test_a_claims_verdict_in_everyday_words_is_read(text, verdict):
    """Portuguese "certo" (right), the feminine "errada" and "sbagliata", Japanese "嘘" (a lie) were unread."""
    assert normalize_claim_answer(text) == verdict


@pytest.mark.parametrize(
    "text,verdict",
    [("The segment is relevant", "YES"), ("This passage is not relevant", "NO"),
     ("Ce passage n'est pas pertinent", "NO"), ("Dieser Abschnitt ist relevant", "YES"),
     ("Este fragmento no es relevante", "NO"), ("Questo passo è rilevante", "YES"),
     ("Этот отрывок не относится", "NO"), ("该段落与问题无关", "NO"), ("该片段与问题相关", "YES"),
     ("这段不相关", "NO"), ("この段落は関係ない", "NO"), ("この段落は関連があります", "YES"),
     # the segment named by its number, or by a determiner alone before a copula
     ("Segment 3 is relevant", "YES"), ("Paragraph [12] is not relevant", "NO"), ("This is relevant", "YES"),
     ("Das ist nicht relevant", "NO"), ("Questo è rilevante", "YES"), ("这是无关的", "NO"),
     # a sentence about the segment's text names no verdict
     ("The text mentions a letter", None), ("Segment 3 mentions a letter", None), ("Thistle is relevant", None),
     ("段落里没有提到", None)],
)  # fmt: skip
def test_a_finder_verdict_said_of_the_segment_is_read(text, verdict):
    """A Finder answering in a sentence says its verdict of the segment: what it is said of and the copula go, and
    the verdict is read as when alone, as a claim's is."""
    assert normalize_finder_answer(text) == verdict


def test_a_chinese_relevance_made_a_noun_is_no_finder_verdict():
    """ "相关性不大" (the relevance is slight) and "相关度低" (low relevance) had read YES from their "相关"."""
    answers = ("相关性不大", "相关度低", "相关", "相关的", "相关，但不多")
    assert [normalize_finder_answer(text) for text in answers] == [None, None, "YES", "YES", "YES"]


_FINDER, _CLAIM = normalize_finder_answer, normalize_claim_answer


@pytest.mark.parametrize(
    "text,verdict,read",
    [# the first frozen reply set's misses (and "No sé", read NO)
     ("Partially. The segment names the letter, not its sender.", "YES", _FINDER), ("En partie.", "YES", _FINDER),
     ("NO, only partially", "NO", _FINDER),
     ("Der Abschnitt ist für die Frage relevant, da er den Tod beschreibt.", "YES", _FINDER),
     ("この部分は質問に関係があります。", "YES", _FINDER), ("関連していません。", "NO", _FINDER),
     ("이 부분은 질문과 관련이 있습니다.", "YES", _FINDER), ("관련 없음", "NO", _FINDER),
     ("No sé.", None, _FINDER), ("No idea.", None, _FINDER), ("Non lo so", None, _FINDER), ("不确定", None, _FINDER),
     ("L'affirmation n'est pas vraie.", "FALSE", _CLAIM), ("L'affermazione non è vera: lui resta.", "FALSE", _CLAIM),
     ("그 주장은 사실이 아닙니다.", "FALSE", _CLAIM), ("맞지 않습니다. 그는 돌아옵니다.", "FALSE", _CLAIM),
     ("Não sei.", None, _CLAIM),
     # the second's (and "nicht ganz", "No puedo", "不是错的", misread): a "no" inside a rationale's clause names no
     # verdict, one that closes a clause does
     ("Die Behauptung trifft zu.", "TRUE", _CLAIM), ("Das trifft nicht zu.", "FALSE", _CLAIM),
     ("Das stimmt nicht ganz, ist aber auch nicht völlig falsch.", None, _CLAIM),
     ("No puedo determinarlo con el pasaje.", None, _CLAIM),
     ("Утверждение не соответствует действительности.", "FALSE", _CLAIM), ("这个说法不是错的。", "TRUE", _CLAIM),
     ("이 주장은 틀리지 않았습니다.", "TRUE", _CLAIM),
     ("Ce segment n'est pas sans rapport avec la question.", "YES", _FINDER),
     ("Der Abschnitt hat mit der Frage nichts zu tun.", "NO", _FINDER),
     ("Данный отрывок не имеет отношения к вопросу.", "NO", _FINDER), ("這段文字與問題無關。", "NO", _FINDER),
     ("一部関連しています。", "YES", _FINDER), ("## Réponse\nOui, le passage est pertinent.", "YES", _FINDER),
     ("Sì, il brano descrive Renzo, ma non risponde del tutto.", "YES", _FINDER),
     ("Sim, mas na verdade não.", None, _FINDER),
     # the third's (and "Non saprei", "No es que…", misread)
     ('{"answer": "true"}', "TRUE", _CLAIM), ('{"resposta": "FALSE"}', "FALSE", _CLAIM),
     ("The claim is not untrue: she returns.\nAnswer: TRUE", "TRUE", _CLAIM),
     ("Die Behauptung ist nicht unzutreffend, da er verhaftet wird.", "TRUE", _CLAIM),
     ("Не соответствует. Он погибает под трамваем.", "FALSE", _CLAIM),
     ("この主張は間違いではないと思います。", "TRUE", _CLAIM),
     ("Фрагмент подходит: здесь он приходит к старухе.\nОтвет: YES", "YES", _FINDER),
     ("不是不相关——这一段讲到他买车。", "YES", _FINDER), ("此段與問題沒有關係。", "NO", _FINDER),
     ("該当します。", "YES", _FINDER), ("이 구절은 질문에 해당합니다.", "YES", _FINDER),
     ("관련이 없지 않습니다.", "YES", _FINDER), ("Non saprei: potrebbe essere rilevante o meno.", None, _FINDER),
     ("No es que el fragmento no sea relevante.", None, _FINDER),
     # the fourth's: a reasoning's conclusion, JSON of several keys or fenced, a sentence or clause opening with "No"
     ("The passage describes the ball, not the duel, so the answer is NO.", "NO", _FINDER),
     ("他最后出家了，这和原文一致。所以答案是：对。", "TRUE", _CLAIM),
     ('```json\n{"relevant": "否"}\n```', "NO", _FINDER),
     ('{"respuesta": "FALSO", "motivo": "nunca aparece"}', "FALSE", _CLAIM),
     ("Réponse : pas vraiment. Le passage parle d'autre chose.", "NO", _FINDER),
     ("Sí, el fragmento es relevante. No hay otra escena que lo explique.", "YES", _FINDER),
     ("La afirmación es correcta, no hay duda: lo perdió todo.", "TRUE", _CLAIM),
     ("**判斷：假**\n\n原文中她嫁給了二少爺。", "FALSE", _CLAIM)],
)  # fmt: skip
def test_a_verdict_in_the_words_a_frozen_reply_set_missed(text, verdict, read):
    """Each frozen reply set (``clueweaver bench replies``), measured once, missed or misread forms like these; they
    tuned the next round, which the next set judged."""
    assert read(text) == verdict


_LEFT = Question("Who left?", {"A": "Emma", "B": "Harriet", "C": "Mr. Knightley", "D": "Frank Churchill"})


@pytest.mark.parametrize(
    "text,letter",
    [("B is the correct answer", "B"), ("B ist die richtige Antwort", "B"), ("B est la bonne réponse", "B"),
     ("B是正确答案", "B"), ("Bが正解です", "B"), ("B가 정답입니다", "B"), ("정답이 B입니다", "B"),
     # a reason after the letter, or on the lines after it
     ("The answer is B because she left.", "B"), ("B, parce qu'elle part.", "B"), ("B因为她走了", "B"),
     ("Harriet because she left", "B"), ("B\n\nBecause she left.", "B"), ("B\nThe letter shows it.\nC is wrong.", "B"),
     ("Harriet (B)", "B"), ("I would say B.", "B"), ("Je dirais B", "B"),
     # the first frozen reply set's misses: a reason after a comma, an opinion after the answer, "letra"
     ("B, car elle part.", "B"), ("B, as the letter shows.", "B"), ("B, je crois.", "B"), ("Credo B.", "B"),
     ("Letra B", "B"), ("Resposta correta: letra B", "B"), ("정답은 B입니다.", "B"),
     # the second frozen reply set's misses
     ("La respuesta correcta es la B) Harriet.", "B"), ("A resposta é a B, Harriet.", "B"),
     ("Alternativa correta: (B)", "B"),
     ("Ответ: С) Mr. Knightley", "C"),
     # the third frozen reply set's misses, and its misreads: another option named after the first
     ('{"réponse": "B"}', "B"), ("La bonne réponse est la B : elle part.", "B"),
     ("La risposta giusta è B (Harriet).", "B"),
     ("정답은 B입니다. 그녀가 떠납니다.", "B"), ("②", "B"), ("「Harriet」です。", "B"),
     ("Respuesta: D... no, perdón, es la B.", None), ("Risposta: D\n\nQuindi la risposta corretta è B.", None),
     # the fourth frozen reply set's: a conclusion, a final labelled line, a reservation
     ("Emma stays at Hartfield, so the answer is B.", "B"), ("Ni A ni C.\n\nRéponse finale : B", "B"),
     ("### Ответ\nB", "B"), ("Creo que es la B, aunque no estoy del todo seguro.", "B"),
     ("**Resposta:** B\n\nA alternativa A não está errada em si.", "B"), ("B, хотя возможно и A.", None),
     # still none: two options, an option's text under another's letter, a reason that is no reason word
     ("B\nC", None), ("Emma (B)", None), ("B or C", None), ("A car arrived", None)],
)  # fmt: skip
def test_an_option_said_to_be_the_answer_or_given_with_its_reason_is_read(text, letter):
    """ "B is the correct answer", "B가 정답입니다", "The answer is B because she left." and "B" on its own line
    above the reason were unread."""
    assert normalize_choice(text, _LEFT) == letter


def test_an_option_whose_text_opens_with_an_answer_word_is_read_by_its_text():
    question = Question("他最后怎么做？", {"A": "选择沉默", "B": "离开", "C": "答应", "D": "答案不明"})
    answers = ("选择沉默", "答案不明", "选B", "答案是C")
    assert [normalize_choice(text, question) for text in answers] == ["A", "D", "B", "C"]
    hedged = Question("What did he do?", {"A": "He left", "B": "Probably nothing", "C": "He stayed", "D": "He wrote"})
    assert [normalize_choice(text, hedged) for text in ("Probably nothing", "Probably C")] == ["B", "C"]


@pytest.mark.parametrize(
    "text",
    ["答案是B或C", "B项和C项", "答えはBかCです", "a b", "La B C", "Ответ: В", "B is not correct",
     "B is incorrect", "That is correct", "A is correct, B is not", "B (He refused to answer)"],
)  # fmt: skip
def test_a_letter_said_with_another_in_those_words_is_no_answer(text):
    """Nor a Cyrillic letter that names one option by its place and another by its look ("В": B or C)."""
    assert normalize_choice(text, KORVIN) is None


def test_a_greek_or_cyrillic_option_letter_is_read_by_its_place():
    assert [normalize_choice(f"Απάντηση: {letter}", KORVIN) for letter in "ΑΒΓΔ"] == ["A", "B", "C", "D"]
    assert [normalize_choice(f"Ответ: {letter}", KORVIN) for letter in "АБГ"] == ["A", "B", "D"]
    # "С" is no option's place in the Russian alphabet, so it is read by its look: the Latin C a Russian keyboard types
    assert [normalize_choice(text, KORVIN) for text in ("Ответ: С", "с")] == ["C", "C"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [("答案是正确", "TRUE"), ("判断：错误", "FALSE"), ("结论：正确", "TRUE"), ("Verdict: FALSE", "FALSE"),
     ("The answer is true", "TRUE"), ("La réponse est FAUX", "FALSE")],
)  # fmt: skip
def test_a_verdict_after_its_label_and_a_copula_is_read(text, verdict):
    assert normalize_claim_answer(text) == verdict


@pytest.mark.parametrize(
    ("text", "answer"),
    [("The answer is Korvin", "Korvin"), ("答案是贾宝玉", "贾宝玉"), ("답은 코르빈", "코르빈"),
     ("Antwort ist Korvin", "Korvin"), ("La réponse est Korvin", "Korvin"),
     ("Answering that is hard", "Answering that is hard"), ("답 코르빈", "답 코르빈")],
)  # fmt: skip
def test_an_open_answer_loses_its_label_said_with_a_copula(text, answer):
    assert normalize_open_answer(text) == answer
