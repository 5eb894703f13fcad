"""The words a reply names paragraphs with ("paragraph 12", "paragraphs 3 to 5"), labels its answer with
("Answer: B", "Réponse : B", "答案：B") and gives its verdict in ("Oui", "正确", "ΝΑΙ"), per language, for
``clueweaver.protocol.parse`` and ``clueweaver.protocol.citations``. Like the cues (``clueweaver.protocol.cues``),
every language's are read together.
"""

from __future__ import annotations

import re

from clueweaver.protocol.cues import Table, every_language, with_cedillas
from clueweaver.protocol.text import fold, is_cjk

# How a reply names a paragraph in words ("paragraph 12"; ``clueweaver.protocol.citations``), besides "[12]".
PARAGRAPH_WORDS: Table = {
    "en": ("paragraph", "paragraphs", "para", "paras"),
    "fr": ("paragraphe", "paragraphes"),
    "de": ("Absatz", "Absätze", "Absätzen"),
    "es": ("párrafo", "párrafos"),
    "it": ("paragrafo", "paragrafi"),
    "pt": ("parágrafo", "parágrafos"),
    "ru": ("абзац", "абзаца", "абзаце", "абзацы", "абзацах", "абзацев", "абзацам"),
    "el": ("παράγραφος", "παράγραφο", "παραγράφου", "παράγραφοι", "παραγράφους", "παραγράφων"),
    "zh": ("段落",),
    "ja": ("段落",),
    "ko": ("단락", "문단"),
    "pl": ("akapit", "akapitu", "akapicie", "akapitem", "akapity", "akapitów", "akapitach", "akapitami", "akapitom"),
    "sv": ("stycke", "stycket", "stycken", "styckena"),
    "cs": ("odstavec", "odstavce", "odstavci", "odstavcem", "odstavců", "odstavcům", "odstavcích", "odstavcemi"),
    "hu": ("bekezdés", "bekezdést", "bekezdésben", "bekezdésből", "bekezdésre", "bekezdésnek", "bekezdéshez",
           "bekezdése", "bekezdésében", "bekezdések", "bekezdéseket", "bekezdésekben", "bekezdésekből",
           "bekezdésekre"),
    "no": ("avsnitt", "avsnittet", "avsnittene"),
    "ro": ("paragraf", "paragraful", "paragrafe", "paragrafele", "paragrafului", "paragrafelor", "alineat",
           "alineatul", "alineate", "alineatele", "alineatului", "alineatelor"),
}  # fmt: skip
# How a reply joins paragraph numbers into a range ("paragraphs 3 to 5") or a list ("3 and 5").
RANGE_WORDS: Table = {
    "en": ("to", "through"),
    "fr": ("à", "au"),
    "de": ("bis",),
    "es": ("a", "al"),
    "it": ("a", "al"),
    "pt": ("a", "ao"),
    "ru": ("до", "по"),
    "el": ("έως", "ως", "μέχρι"),
    "zh": ("至", "到"),
    "ja": ("から",),
    "pl": ("do",),
    "sv": ("till",),
    "cs": ("až", "do"),
    "hu": ("-tól", "-től"),  # Hungarian joins a range with a dash ("3–5.") or suffixes ("3-tól 5-ig")
    "no": ("til",),
    "ro": ("până la",),
}  # fmt: skip
LIST_WORDS: Table = {
    "en": ("and", "or"),
    "fr": ("et", "ou"),
    "de": ("und", "oder"),
    "es": ("y", "o"),
    "it": ("e", "o"),
    "pt": ("e", "ou"),
    "ru": ("и", "или"),
    "el": ("και", "κι", "ή"),
    "zh": ("和", "与", "及"),
    "ja": ("と",),
    "pl": ("i", "oraz", "lub", "albo"),
    "sv": ("och", "eller", "samt"),
    # Czech "a" (and): after a Czech paragraph word, not Spanish, Italian and Portuguese "a" (to) (the parser)
    "cs": ("a", "nebo"),
    "hu": ("és", "vagy", "valamint"),
    "no": ("og", "eller", "samt"),
    "ro": with_cedillas("și sau"),
}  # fmt: skip
# How a reply labels its answer ("Answer: B", "Réponse : B", "答案：B"), stripped before the answer is read.
ANSWER_WORDS: Table = {
    "en": ("answer", "verdict"),
    "fr": ("réponse",),
    "de": ("Antwort",),
    "es": ("respuesta",),
    "it": ("risposta",),
    "pt": ("resposta",),
    "ru": ("ответ",),
    "el": ("απάντηση",),
    "zh": ("答案", "回答", "答", "判断", "判斷", "結論", "结论"),  # "答：B" too
    "ja": ("答え", "回答", "正解", "判定"),
    # a particle is part of the word: "정답은 B", "정답이 B입니다"
    "ko": ("답", "정답", "답변", "답은", "정답은", "답변은", "답이", "정답이", "답변이"),
    "pl": ("odpowiedź",),
    "sv": ("svar",),
    "cs": ("odpověď",),
    "hu": ("válasz",),
    "no": ("svar",),
    "ro": ("răspuns",),
}  # fmt: skip
OPTION_WORDS: Table = {
    "en": ("option", "choice", "I choose", "I pick", "I select", "I would choose", "I'd choose", "I'd go with"),
    "fr": ("option", "choix", "je choisis"),
    "de": ("Option", "Wahl", "ich wähle"),
    "es": ("opción", "letra", "elijo", "escojo"),
    "it": ("opzione", "lettera", "scelta", "scelgo"),
    "pt": ("opção", "letra", "alternativa", "escolha", "escolho"),
    "ru": ("вариант", "выбираю", "я выбираю"),
    "el": ("επιλογή",),
    # "选B", "我选B", "正确的是B" (the right one is B)
    "zh": ("选项", "選項", "选择", "選擇", "应选", "應選", "选", "選", "我选", "我選", "我选择", "我選擇", "正确的是",
           "正確的是"),
    "ja": ("選択肢",),
    "ko": ("선택지", "보기"),
    "pl": ("opcja", "wariant"),
    "sv": ("alternativ", "alternativet"),
    "cs": ("možnost", "varianta"),
    "hu": ("lehetőség", "opció"),
    "no": ("alternativ", "alternativet"),
    "ro": with_cedillas("opțiune opțiunea varianta variantă"),
}  # fmt: skip
# What a reply may say before its answer without changing it: an opinion ("I think the answer is B", "Je pense que
# c'est B", "应该是B", "たぶんB") or "it is" ("It's B", "C'est la B", "Es la B"); the answer is read as after a label
# (a hedge that gives no answer is ``cues.HEDGING_CUES``).
LEAD_INS: Table = {
    "en": ("I think", "I believe", "I would say", "I'd say", "probably", "most likely", "likely", "it is", "it's"),
    "fr": ("je pense que", "je crois que", "je pense", "je crois", "je dirais", "probablement", "c'est"),
    "de": ("ich denke", "ich glaube", "ich würde sagen", "wahrscheinlich", "es ist"),
    "es": ("creo que", "pienso que", "creo", "diría que", "probablemente", "es"),
    "it": ("penso che", "credo che", "penso che sia", "credo che sia", "credo", "penso", "direi", "probabilmente",
           "è"),
    "pt": ("acho que", "creio que", "acho", "creio", "diria que", "provavelmente", "é"),
    "ru": ("я думаю", "думаю", "я бы сказал", "наверное", "вероятно", "скорее всего", "это"),
    "zh": ("我认为", "我認為", "我觉得", "我覺得", "应该", "應該", "大概", "可能"),
    "ja": ("たぶん", "多分", "おそらく", "恐らく"),
}  # fmt: skip

# The words around an answer's label ("The correct answer is B", "La bonne réponse est B", "La respuesta correcta es
# B", "正确答案是B", "正解はB", "정답은 B"): an article and an adjective before the label's word, an adjective after
# it, then a copula (Han, kana and Hangul ones written without a space).
ANSWER_ARTICLES: Table = {
    "en": ("the", "my"), "fr": ("la", "le"), "de": ("die", "der"), "es": ("la", "el"), "it": ("la", "il"),
    "pt": ("a", "o"), "el": ("η",),
}  # fmt: skip
ANSWER_ADJECTIVES_BEFORE: Table = {
    "en": ("final", "correct", "right", "best"), "fr": ("bonne",), "de": ("richtige",),
    "ru": ("правильный", "верный"), "el": ("σωστή",), "zh": ("正确", "正確", "最佳"),
}  # fmt: skip
ANSWER_ADJECTIVES_AFTER: Table = {
    "fr": ("correcte", "juste", "finale"), "es": ("correcta", "final"), "it": ("corretta", "giusta", "finale"),
    "pt": ("correta", "certa", "final"),
}  # fmt: skip
COPULAS: Table = {
    "en": ("is",), "fr": ("est",), "de": ("ist", "lautet"), "es": ("es",), "it": ("è",), "pt": ("é",),
    "el": ("είναι",), "zh": ("是", "为", "為"), "ja": ("は", "が"), "ko": ("은", "는", "이", "가"),
}  # fmt: skip
# The words a Chinese, Japanese or Korean reply writes after an option's letter: "B项", "B选项", "Bです", "B입니다",
# "Bを選びます", "B를 선택합니다".
LETTER_SUFFIXES: Table = {
    "zh": ("选项", "選項", "项", "項"), "ja": ("です", "を選びます", "を選ぶ"),
    "ko": ("입니다", "이다", "번", "를 선택합니다", "을 선택합니다", "를 고릅니다"),
}  # fmt: skip

# A verdict in the reply's own language, besides the YES / NO and TRUE / FALSE the prompts ask for (a
# claim may also be answered yes or no): a small model often answers "Oui", "正确" or "ΝΑΙ". Chinese and
# Japanese words match at the start of the answer, the longest first, so "不正确" is not "正确".
# The words that open a reason after an option's letter ("B because she left", "B, parce que…", "B因为…"): the
# letter is the answer, the rest its rationale ("parce" is only ever "parce que", "parce qu'elle"). Not "as", "car",
# "da" or "since": "A car", "A da Silva".
BECAUSE_WORDS: Table = {
    "en": ("because",), "fr": ("parce", "puisque"), "de": ("weil", "denn"), "es": ("porque", "ya que"),
    "it": ("perché", "poiché"), "pt": ("porque", "pois"), "ru": ("потому что", "так как", "поскольку"),
    "zh": ("因为", "因為", "由于", "由於"), "ja": ("なぜなら",), "ko": ("왜냐하면",),
}  # fmt: skip
# After a comma, a reason's words that alone would be a word of the answer ("D, car Valjean…", "B, as the letter
# shows", "C, da er…").
COMMA_BECAUSE_WORDS: Table = {"en": ("as", "since"), "fr": ("car",), "de": ("da",), "es": ("pues",)}
# After a comma, a reservation about the answer ("la D, aunque no estoy seguro", "B, although I am not sure"): the
# answer stands, unless the reservation names another option ("B, хотя возможно и A").
CONCESSION_WORDS: Table = {
    "en": ("although", "though"), "fr": ("bien que", "quoique", "mais"), "de": ("obwohl", "aber"),
    "es": ("aunque", "pero"), "it": ("anche se", "sebbene", "ma"), "pt": ("embora", "ainda que", "mas"),
    "ru": ("хотя", "но"), "zh": ("虽然", "但", "不过"), "ja": ("ただし", "けれど"), "ko": ("하지만", "다만"),
}  # fmt: skip
# An opinion said after the answer ("D, je crois.", "B, I think", "C, glaube ich"): the answer stands.
AFTERTHOUGHTS: Table = {
    "en": ("I think", "I believe", "I guess", "probably"), "fr": ("je crois", "je pense", "probablement"),
    "de": ("glaube ich", "denke ich", "wahrscheinlich", "vermutlich"), "es": ("creo", "pienso", "probablemente"),
    "it": ("credo", "penso", "probabilmente"), "pt": ("acho", "creio", "provavelmente"),
    "ru": ("думаю", "наверное", "вероятно", "по-моему"),
}  # fmt: skip
# What opens a reply that gives no verdict though it may begin with one's word: not knowing or not telling ("No sé",
# "Non saprei", "I can't tell", "无法判断"), or a "no" that opens another kind of clause ("No es que…", "Not that…").
NO_VERDICT_OPENINGS: Table = {
    "en": ("I don't know", "I do not know", "not sure", "I'm not sure", "no idea", "unsure", "uncertain", "I cannot",
           "I can't", "cannot be determined", "hard to say", "not that"),
    "fr": ("je ne sais pas", "aucune idée", "pas sûr", "incertain", "je ne peux pas", "impossible de", "je ne saurais",
           "difficile à dire", "ce n'est pas que", "non pas que"),
    "de": ("ich weiß nicht", "weiß nicht", "unsicher", "keine Ahnung", "ich kann nicht", "lässt sich nicht",
           "schwer zu sagen", "nicht dass"),
    "es": ("no sé", "no lo sé", "no estoy seguro", "no estoy segura", "ni idea", "no puedo", "no se puede",
           "no sabría", "difícil de decir", "no es que"),
    "it": ("non so", "non lo so", "non sono sicuro", "non sono sicura", "non posso", "non è possibile", "non saprei",
           "difficile dire", "non che", "non è che"),
    "pt": ("não sei", "não tenho certeza", "não posso", "não é possível", "não saberia", "difícil dizer", "não que",
           "não é que"),
    "ru": ("не знаю", "не уверен", "не уверена", "не могу", "невозможно", "трудно сказать"),
    "zh": ("不知道", "不确定", "不確定", "无法", "無法", "很难说", "很難說"),
    "ja": ("わかりません", "分かりません", "判断できません", "何とも言えません"),
    "ko": ("모르겠습니다", "모르겠다", "잘 모르겠습니다", "알 수 없습니다", "판단할 수 없습니다"),
}  # fmt: skip
# The words that open a reasoning's conclusion ("…, so the answer is C", "…所以答案是A", "…따라서 정답은 B입니다"):
# an answer unread whole is read by what follows the last of them.
CONCLUSION_WORDS: Table = {
    "en": ("so", "therefore", "thus", "hence"), "fr": ("donc", "par conséquent"),
    "de": ("also", "daher", "deshalb", "somit"), "es": ("por lo tanto", "por tanto", "así que", "entonces"),
    "it": ("quindi", "dunque", "pertanto"), "pt": ("portanto", "logo", "então"),
    "ru": ("поэтому", "итак", "следовательно", "значит"), "zh": ("所以", "因此", "因而", "综上", "綜上"),
    "ja": ("よって", "したがって", "だから", "ゆえに"), "ko": ("따라서", "그러므로", "그래서"),
}  # fmt: skip
YES_WORDS: Table = {
    "en": ("yes",), "fr": ("oui",), "de": ("ja",), "es": ("sí",), "it": ("sì",), "pt": ("sim",), "ru": ("да",),
    "el": ("ναι",), "zh": ("是", "是的"), "ja": ("はい",), "ko": ("네", "예"), "pl": ("tak",), "sv": ("ja",),
    "cs": ("ano",), "hu": ("igen",), "no": ("ja",), "ro": ("da",),
}  # fmt: skip
NO_WORDS: Table = {
    # and "not really": a reply that hedges its no is a no
    "en": ("no", "not really"), "fr": ("non", "pas vraiment"), "de": ("nein", "nicht wirklich"),
    "es": ("no", "no realmente"), "it": ("no", "non proprio", "non davvero"), "pt": ("não", "não exatamente"),
    "ru": ("нет", "не совсем так"),
    "el": ("όχι",), "zh": ("否", "不是"), "ja": ("いいえ",), "ko": ("아니요", "아니오"), "pl": ("nie",),
    "sv": ("nej",), "cs": ("ne",), "hu": ("nem",), "no": ("nei",), "ro": ("nu",),
}  # fmt: skip
# A negated verdict is the other one: "not false", "Ce n'est pas faux", "No es falso", "没错", "間違いない" are TRUE;
# "not true", "n'est pas vrai", "stimmt nicht", "No es cierto", "не верно" FALSE. A verdict's words are read within one
# clause, so "No, es falso" stays FALSE.
TRUE_WORDS: Table = {
    "en": ("true", "correct", "not false", "not incorrect", "not untrue"),
    "fr": ("vrai", "vraie", "exact", "exacte", "pas faux", "pas fausse", "n'est pas faux", "n'est pas fausse"),
    "de": ("wahr", "richtig", "korrekt", "zutreffend", "trifft zu", "stimmt", "nicht falsch", "nicht unzutreffend"),
    "es": ("verdadero", "verdadera", "cierto", "verdad", "correcto", "correcta", "no es falso", "no es falsa"),
    "it": ("vero", "vera", "corretto", "corretta", "giusto", "non è falso", "non è falsa", "non è sbagliato"),
    "pt": ("verdadeiro", "verdadeira", "verdade", "correto", "correta", "certo", "certa", "não é falso",
           "não é falsa"),
    "ru": ("верно", "правда", "истина", "правильно", "не ложно", "не неверно", "соответствует действительности",
           "соответствует"),
    "el": ("αληθές", "αληθής", "σωστό"), "zh": ("正确", "正確", "对", "對", "真", "没错", "沒錯", "不是错的",
           "不是錯的", "不是错误的", "不是錯誤的"),
    "ja": ("正しい", "真", "本当", "間違いない", "間違いありません", "誤りではない", "間違いではない",
           "間違いではありません"),
    "ko": ("참", "참입니다", "사실", "사실입니다", "맞다", "맞습니다", "옳다", "옳습니다", "틀리지 않았습니다",
           "틀리지 않습니다"),
    "pl": ("prawda", "prawdziwe"), "sv": ("sant", "sann", "riktigt"), "cs": ("pravda", "pravdivé"), "hu": ("igaz",),
    "no": ("sant",), "ro": ("adevărat", "adevărată"),
}  # fmt: skip
FALSE_WORDS: Table = {
    "en": ("false", "untrue", "incorrect", "not true", "not correct"),
    "fr": ("faux", "fausse", "inexact", "inexacte", "pas vrai", "pas vraie", "n'est pas vrai", "n'est pas vraie",
           "pas exact", "n'est pas exact"),
    "de": ("falsch", "unwahr", "inkorrekt", "unzutreffend", "trifft nicht zu", "nicht wahr", "nicht richtig",
           "stimmt nicht"),
    "es": ("falso", "falsa", "incorrecto", "incorrecta", "no es cierto", "no es verdad", "no es verdadera",
           "no es verdadero"),
    "it": ("falso", "falsa", "scorretto", "errato", "errata", "sbagliato", "sbagliata", "non è vero", "non è vera"),
    "pt": ("falso", "falsa", "incorreto", "incorreta", "errado", "errada", "não é verdade", "não é verdadeira",
           "não é verdadeiro"),
    "ru": ("неверно", "ложь", "ложно", "неправильно", "не верно", "неправда", "не правда",
           "не соответствует действительности", "не соответствует"),
    "el": ("ψευδές", "ψευδής", "λάθος"),
    "zh": ("错误", "錯誤", "错", "錯", "假", "不正确", "不正確", "不对", "不對"),
    "ja": ("誤り", "偽", "間違い", "正しくない", "正しくありません", "誤っている", "間違っている", "嘘", "うそ",
           "ウソ"),
    "ko": ("거짓", "거짓입니다", "틀리다", "틀립니다", "틀렸다", "틀렸습니다", "사실이 아닙니다", "사실이 아니다",
           "사실 아님", "맞지 않습니다", "맞지 않다", "옳지 않습니다", "옳지 않다"),
    "pl": ("fałsz", "fałszywe", "nieprawda", "nieprawdziwe"), "sv": ("falskt", "falsk", "osant", "felaktigt"),
    "cs": ("nepravda", "nepravdivé"), "hu": ("hamis",), "no": ("usant", "usann", "feil"),
    "ro": ("fals", "falsă", "neadevărat", "neadevărată"),
}  # fmt: skip
# After a Chinese or Japanese verdict word in the same clause, what makes it none: a negation, a question, a doubt,
# or the word made a noun ("相关性不大", "相关度低", "正确与否", "真假难辨", "是真的吗", "正しいとは言えない",
# "正しいかもしれない"); "正确的", "正しいです", "相关，但…" stay verdicts.
VERDICT_QUALIFIERS: Table = {
    "zh": ("不", "没", "沒", "无", "無", "非", "难", "難", "吗", "嗎", "么", "麼", "与否", "與否", "性", "度", "低"),
    "ja": ("ない", "ません", "ず", "とは", "か"),
}
# A claim's verdict said to hold in part ("True in part", "TRUE, partially", "Vrai en partie", "Верно лишь отчасти")
# is no verdict: the reply is asked again for TRUE or FALSE rather than read as one.
PARTLY_WORDS: Table = {
    "en": ("partly", "partially", "in part", "not entirely", "not quite", "not completely"),
    "fr": ("en partie", "partiellement", "pas tout à fait", "pas entièrement"),
    "de": ("teilweise", "zum Teil", "nicht ganz", "nicht völlig"), "es": ("en parte", "parcialmente", "no del todo"),
    "it": ("in parte", "parzialmente", "non del tutto"), "pt": ("em parte", "parcialmente", "não totalmente"),
    "ru": ("частично", "отчасти", "не совсем", "не полностью"), "zh": ("部分", "不完全"), "ja": ("一部", "部分的"),
    "ko": ("부분적으로", "일부"),
}  # fmt: skip
# A Finder verdict said as relevance ("Relevant", "Not relevant", "不相关"), read as YES or NO when it opens the
# answer; later in it, a word of the sentence ("NO, nothing relevant" is NO).
RELEVANT_WORDS: Table = {
    # a negated irrelevance too: "not irrelevant", "n'est pas sans rapport"
    "en": ("relevant", "not irrelevant"),
    "fr": ("pertinent", "pertinente", "n'est pas sans rapport", "pas sans rapport"),
    "de": ("relevant", "nicht irrelevant"), "es": ("relevante", "no es irrelevante"),
    "it": ("rilevante", "pertinente", "non è irrilevante"), "pt": ("relevante", "não é irrelevante"),
    "ru": ("релевантно", "релевантен", "относится", "имеет отношение"),
    "zh": ("相关", "相關", "有关", "有關", "有关系", "有關係", "有关联", "有關聯", "不是不相关", "不是不相關",
           "并非无关", "並非無關"),
    "ja": ("関連あり", "関連する", "関係あり", "関連がある", "関係がある", "関連があります", "関係があります",
           "関連しています", "関係しています", "該当します", "該当する"),
    "ko": ("관련 있음", "관련이 있습니다", "관련이 있다", "관련 있습니다", "관련됩니다", "관련됨", "해당합니다",
           "해당됩니다", "관련이 없지 않습니다"),
}  # fmt: skip
IRRELEVANT_WORDS: Table = {
    "en": ("irrelevant", "not relevant"),
    "fr": ("non pertinent", "non pertinente", "pas pertinent", "n'est pas pertinent", "n'est pas pertinente"),
    "de": ("irrelevant", "nicht relevant", "hat mit der Frage nichts zu tun", "hat nichts mit der Frage zu tun",
           "hat damit nichts zu tun"),
    "es": ("irrelevante", "no relevante", "no es relevante"),
    "it": ("irrilevante", "non rilevante", "non pertinente"),
    "pt": ("irrelevante", "não relevante", "não é relevante"),
    "ru": ("нерелевантно", "нерелевантен", "не относится", "не имеет отношения"),
    "zh": ("不相关", "不相關", "无关", "無關", "没有关系", "沒有關係", "无关系", "無關係"),
    "ja": ("関連なし", "関係なし", "無関係", "関連しない", "関係ない", "関連がない", "関係がない", "関係ありません",
           "関連ありません", "関係がありません", "関連がありません", "関連していません", "関連していない",
           "関係していません", "関係していない", "該当しません", "該当しない"),
    "ko": ("해당하지 않습니다", "해당되지 않습니다", "관련 없음", "관련이 없습니다", "관련이 없다", "관련 없습니다",
           "무관합니다", "무관하다", "무관"),
}  # fmt: skip
# What a claim's verdict is said of ("The claim is true", "L'affirmation est fausse", "Die Aussage ist falsch", "该说法
# 正确", "その主張は正しい", "Утверждение неверно"; or of "it": "C'est faux", "Es falso", "È vero"), stripped with a
# determiner before it and a copula after it before the verdict is read. An answer's label (``ANSWER_WORDS``:
# "判断错误") is read so too.
CLAIM_DETERMINERS: Table = {
    "en": ("the", "this", "that"), "fr": ("l'", "cette", "cet"), "de": ("die", "diese"), "es": ("la", "esta", "esa"),
    "it": ("l'", "questa"), "pt": ("a", "esta", "essa"), "ru": ("это", "данное"),
    "zh": ("该", "該", "这个", "這個", "此", "这一", "這一"), "ja": ("その", "この"),
}  # fmt: skip
CLAIM_SUBJECTS: Table = {
    "en": ("claim", "statement", "assertion", "it", "it's", "this", "that", "that's"),
    "fr": ("affirmation", "assertion", "déclaration", "c'est", "ce", "il", "cela", "ceci"),
    "de": ("Aussage", "Behauptung", "das", "es", "dies"), "es": ("afirmación", "declaración", "es", "esto", "eso"),
    "it": ("affermazione", "è", "ciò", "questo"), "pt": ("afirmação", "é", "está", "isso", "isto"),
    "ru": ("утверждение", "это"),
    "zh": ("说法", "說法", "陈述", "陳述", "论断", "論斷", "主张", "主張", "这", "這", "它"),
    "ja": ("主張", "記述", "それ", "これ"),
    "ko": ("주장은", "이 주장은", "그 주장은", "진술은"),
}  # fmt: skip
# What a Finder's verdict is said of ("The segment is relevant", "Ce passage n'est pas pertinent", "该段落与问题无关",
# "この段落は関係ない"), stripped with a determiner before it, a copula after it and, in Chinese, "with the question".
FINDER_DETERMINERS: Table = {
    "en": ("the", "this"), "fr": ("le", "ce", "cet"), "de": ("der", "dieser", "das", "dieses"), "es": ("el", "este"),
    "it": ("il", "questo"), "pt": ("o", "este", "esse"), "ru": ("этот", "данный"),
    "zh": ("该", "該", "这", "這", "此", "本"), "ja": ("この", "その"),
}  # fmt: skip
FINDER_SUBJECTS: Table = {
    "en": ("segment", "passage", "excerpt", "paragraph", "text"), "fr": ("passage", "segment", "extrait", "texte"),
    "de": ("Abschnitt", "Passage", "Segment", "Auszug", "Text"), "es": ("fragmento", "pasaje", "segmento", "texto"),
    "it": ("passo", "brano", "segmento", "testo"), "pt": ("trecho", "segmento", "texto"),
    "ru": ("отрывок", "фрагмент", "сегмент", "текст"),
    "zh": ("段落与问题", "段落和问题", "片段与问题", "段与问题", "段落與問題", "段與問題", "段文字与问题",
           "段文字與問題", "段落", "片段", "段文字", "段"),
    "ja": ("段落", "部分", "箇所"),
    # a Korean subject with its particle, as ``CLAIM_SUBJECTS``'s
    "ko": ("부분은", "단락은", "대목은", "구절은", "이 부분은", "이 단락은", "이 대목은", "이 구절은", "해당 부분은",
           "해당 단락은"),
}  # fmt: skip
# The question a Finder's verdict is said against, where a language puts it before the verdict: "Der Abschnitt ist
# für die Frage relevant", "この部分は質問に関係があります", "이 부분은 질문과 관련이 있습니다".
FINDER_OBJECTS: Table = {
    "de": ("für die Frage", "zur Frage"), "ja": ("質問に", "質問と", "問いに"), "ko": ("질문과", "질문에"),
}  # fmt: skip
# Verdict words that are also common words of another covered language: Polish "nie" is German "nie" (never) and
# folded French "nié", Swedish "osant" French "osant" (daring), Czech "ne" French and Italian "ne", folded Czech
# "ano" Spanish "año" and Portuguese "ano" (year), Hungarian "nem" Portuguese "nem" (nor) and "igen" Swedish "igen"
# (again), Norwegian "nei" Italian "nei" (in the), "usant" French "usant" (wearing), "ja" (German's and Swedish's
# too) Polish "ja" (I) and folded Portuguese "já" (already), Romanian "da" Italian "da" (from), Portuguese "da" (of
# the) and German "da" (there), "nu" Swedish "nu" (now) and French "nu" (naked); and folded Spanish "sí" and Italian
# "sì" are Romanian "și" (and). As an answer's first word each is a verdict; later in it, a word of the sentence,
# which names no second verdict ("JA, er war nie dort" is yes, "Oui, il ne ment pas" oui).
VERDICTS_ALSO_WORDS = ("nie", "osant", "ne", "ano", "nem", "igen", "nei", "usant", "ja", "da", "nu", "si")


def words_regex(*tables: Table) -> str:
    """Alternatives matching the words of ``tables``, longest first: a word of a spaced script whole (digits may
    follow: "paragraph12"), a Chinese or Japanese word anywhere; each also without its accents ("reponse", Greek
    capitals: "ΑΠΑΝΤΗΣΗ")."""
    words = {word for table in tables for word in every_language(table)}
    spelled = sorted(words | {fold(word) for word in words}, key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w) if is_cjk(w) else rf"\b{re.escape(w)}(?![^\W\d_])" for w in spelled) + ")"
