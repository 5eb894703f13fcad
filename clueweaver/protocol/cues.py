"""The words the protocol's rules read in a reply, per language, in one place: the Finder's negative-rationale
cues, hedging, the self-calibration trigger's cue families, the temporal cues of evaluation, the
articles token F1 drops, the titles and sentence openers of the specificity reward. The words a reply
names paragraphs ("paragraphs 3 to 5"), labels its answer ("Answer:") and gives its verdict with are
``clueweaver.protocol.reply_words``.

Researchers read novels in English, French, German, Spanish, Italian, Portuguese, Russian, Greek,
Chinese, Japanese, Korean, Polish, Swedish, Czech, Hungarian, Norwegian (bokmål) and Romanian, and a
rule must not need to know which: each rule matches the cues of every language together
(``every_language``), as ``clueweaver.protocol.text.find_phrases`` reads them. A cue of a spaced
script matches whole words, a trailing "*" marking a stem ("упомина*" for every form of the verb,
"nieistotn*" for every form of the Polish adjective, "következtet*" for the Hungarian verb and its
suffixes; only where a language inflects too much to list forms); a cue of Chinese or Japanese
characters matches anywhere, since those scripts do not separate words. Cues are written as a reader
would write them (accents, capitals, "ß", "ё", "ł", "ř", "ő", "ș"): matching folds them the same way
as the text.

Cues of different languages are matched together, so a word that is a cue in one language fires in
the others: a cue is left out where it is also a common word of another covered language (French
"car" would fire on an English car, French "pendant" on a necklace, German "Ehe" on a marriage,
Polish "nie" on German "nie" (never), Swedish "under" (during) on English "under", Hungarian "sem"
(nor) on Portuguese "sem" (without), Norwegian "mens" (while) on French "tu mens" (you lie)), folded
spellings included (Czech "poté" (afterwards) is Portuguese "pote", a jar, Romanian "după" (after)
Polish "dupa"), and phrases too (Romanian "de ce" (why) is French "de ce", of this).
"""

from __future__ import annotations

from typing import Mapping

Table = Mapping[str, tuple[str, ...]]

_CEDILLAS = str.maketrans("șțȘȚ", "şţŞŢ")


def with_cedillas(words: str) -> tuple[str, ...]:
    """Romanian ``words`` (spaced, written with "ș" and "ț") and the older spelling of those holding one, with
    "ş" and "ţ" (a cedilla, as many texts and ELTeC's novels still write them): the tables read as written, not
    folded (titles, sentence openers, the words of citations and labels), need both."""
    written = words.split()
    return tuple(dict.fromkeys(written + [word.translate(_CEDILLAS) for word in written]))


# A NO rationale that states why the segment is irrelevant (Table 5, "Negative-rationale quality").
NEGATIVE_RATIONALE_CUES: Table = {
    "en": (
        "does not mention", "not mentioned", "no mention", "never mentions", "does not refer", "no reference",
        "does not address", "does not discuss", "does not describe", "does not concern", "does not involve",
        "does not say", "does not show", "does not contain", "does not help", "not about", "nothing about",
        "no information", "no clue", "no clues", "no evidence", "no indication", "has nothing to do",
        "irrelevant", "unrelated", "not related", "not relevant", "no relevance", "no bearing",
        "only describes", "only about", "instead describes", "focuses on", "is about",
    ),
    "fr": (
        "ne mentionne pas", "ne mentionne jamais", "n'est pas mentionn*", "aucune mention", "ne parle pas",
        "ne fait pas référence", "aucune référence", "ne concerne pas", "ne traite pas", "ne décrit pas",
        "ne dit rien", "ne contient pas", "rien sur", "rien à voir", "aucune information", "aucun indice",
        "aucune preuve", "aucun rapport", "sans rapport", "sans lien", "aucun lien", "hors sujet",
        "non pertinent*", "pas pertinent*", "décrit seulement", "décrit uniquement", "porte sur",
        "se concentre sur", "il s'agit de", "parle de",
    ),
    "de": (
        "erwähnt nicht", "nicht erwähnt", "keine Erwähnung", "kein Hinweis", "keine Hinweise", "keinen Hinweis",
        "keine Information*", "keine Angaben", "keine Beweise", "kein Bezug", "keinen Bezug", "ohne Bezug",
        "nichts mit", "nichts über", "nichts zu tun", "irrelevant", "unerheblich", "belanglos", "nicht relevant",
        "betrifft nicht", "behandelt nicht", "beschreibt nur", "handelt von", "geht es um", "dreht sich um",
        "konzentriert sich auf",
    ),
    "es": (
        "no menciona", "no se menciona", "ninguna mención", "no hace referencia", "ninguna referencia",
        "no trata", "no habla", "no describe", "no dice nada", "no contiene", "nada sobre", "nada que ver",
        "ninguna información", "ninguna pista", "ninguna prueba", "sin relación", "no está relacionad*",
        "no guarda relación", "no es relevante", "irrelevante", "solo describe", "describe solo", "trata de",
        "se centra en",
    ),
    "it": (
        "non menziona", "non viene menzionat*", "nessuna menzione", "non fa riferimento", "nessun riferimento",
        "non parla", "non riguarda", "non tratta", "non descrive", "non dice nulla", "non contiene", "nulla su",
        "niente su", "nulla a che fare", "niente a che fare", "non c'entra", "nessuna informazione",
        "nessun indizio", "nessuna prova", "senza rapporto", "nessun legame", "non è rilevante",
        "non pertinente", "irrilevante", "descrive solo", "parla di", "si concentra su",
    ),
    "pt": (
        "não menciona", "não é mencionad*", "nenhuma menção", "não faz referência", "nenhuma referência",
        "não fala", "não trata", "não descreve", "não diz nada", "não contém", "nada sobre", "nada a ver",
        "nenhuma informação", "nenhuma pista", "nenhuma prova", "sem relação", "não está relacionad*",
        "não é relevante", "irrelevante", "descreve apenas", "apenas descreve", "trata de", "se concentra em",
        "fala de",
    ),
    "ru": (
        "не упомина*", "не упомянут*", "нет упоминани*", "не говорится", "не говорит", "не касается",
        "не относится", "не имеет отношения", "никакого отношения", "не связан*", "нет связи", "нет информации",
        "нет улик", "нет подсказ*", "нет доказательств", "ничего о", "нерелевантн*", "не релевантн*",
        "описывает только", "только описывает", "речь идёт о", "посвящ*",
    ),
    "el": (
        "δεν αναφέρει", "δεν αναφέρεται", "δεν αναφέρονται", "καμία αναφορά", "καμιά αναφορά", "δεν μιλά*",
        "δεν περιγράφει", "δεν αφορά", "δεν σχετίζεται", "δε σχετίζεται", "δεν έχει σχέση", "καμία σχέση",
        "άσχετ*", "δεν περιέχει", "καμία πληροφορία", "κανένα στοιχείο", "καμία ένδειξη", "κανένα τεκμήριο",
        "μη σχετικ*", "δεν είναι σχετικ*", "περιγράφει μόνο", "μόνο περιγράφει", "πρόκειται για",
        "επικεντρώνεται σ*", "μιλά για",
    ),
    "zh": (
        "没有提到", "没有提及", "没提到", "未提到", "未提及", "并未提及", "没有涉及", "未涉及", "没有关于",
        "没有线索", "没有任何线索", "没有证据", "没有信息", "无关", "不相关", "没有关系", "毫无关系",
        "没有关联", "只描写", "只描述", "只讲", "仅描写", "仅描述", "而是描写", "而是讲", "讲的是",
        "描写的是", "描述的是", "是关于",
    ),
    "ja": (
        "言及していない", "言及されていない", "触れていない", "触れられていない", "関係がない", "関係ない",
        "無関係", "関連がない", "手がかりはない", "手がかりがない", "情報はない", "情報がない", "についてのみ",
        "だけを描いて",
    ),
    "ko": (
        "언급하지 않*", "언급되지 않*", "언급이 없*", "언급은 없*", "언급도 없*", "나오지 않*", "다루지 않*",
        "관련이 없*", "관련 없*", "관련성이 없*", "관계가 없*", "관계없*", "무관하*", "상관없*", "상관이 없*",
        "단서가 없*", "단서는 없*", "정보가 없*", "정보는 없*", "증거가 없*", "증거는 없*", "해당하지 않*",
        "묘사할 뿐", "다룰 뿐", "대한 내용*", "초점을 맞추*",
    ),
    "pl": (
        "nie wspomina*", "nie wspomniano", "nie jest wspomnian*", "nie ma wzmianki", "brak wzmianki",
        "żadnej wzmianki", "nie odnosi się", "nie dotyczy", "nie opisuje", "nie mówi o", "nic nie mówi",
        "nie zawiera", "nic o", "nie ma nic wspólnego", "nie ma związku", "bez związku", "brak związku",
        "żadnego związku", "niezwiązan*", "nie jest związan*", "nieistotn*", "nierelewantn*", "brak informacji",
        "nie ma informacji", "żadnych informacji", "brak wskazówek", "żadnych wskazówek", "brak dowodów",
        "żadnych dowodów", "opisuje tylko", "opisuje jedynie", "tylko opisuje", "dotyczy", "opowiada o",
        "jest mowa o", "skupia się na", "koncentruje się na",
    ),
    "sv": (
        "nämner inte", "nämner aldrig", "nämns inte", "nämns aldrig", "omnämns inte", "inget omnämnande",
        "hänvisar inte", "ingen hänvisning", "handlar inte om", "behandlar inte", "beskriver inte", "tar inte upp",
        "berör inte", "säger ingenting", "säger inget", "innehåller inte", "ingenting om", "inget om",
        "ingen information", "inga uppgifter", "ingen ledtråd", "inga ledtrådar", "inga bevis", "inga belägg",
        "inget samband", "saknar samband", "har inget med", "har ingenting med", "har inget att göra",
        "har ingenting att göra", "irrelevant", "ovidkommande", "inte relevant*", "saknar relevans",
        "beskriver bara", "beskriver endast", "handlar om", "fokuserar på", "koncentrerar sig på",
    ),
    "cs": (
        "nezmiňuj*", "nezmíní", "není zmíněn*", "nejsou zmíněn*", "není zmínka", "žádná zmínka", "žádnou zmínku",
        "bez zmínky", "neodkazuje", "nehovoří o", "nemluví o", "nepíše o", "netýká se", "se netýká", "nepojednává",
        "nepopisuje", "neříká nic", "nic neříká", "neobsahuje", "nic o", "nesouvis*", "nemá souvislost",
        "žádná souvislost", "žádnou souvislost", "bez souvislosti", "nemá nic společného", "nemá vztah",
        "irelevantní", "nerelevantní", "není relevantní", "nepodstatn*", "žádné informace", "žádná informace",
        "žádné stopy", "žádné vodítko", "žádná vodítka", "žádné důkazy", "žádný důkaz", "popisuje pouze",
        "popisuje jen", "pouze popisuje", "jen popisuje", "pojednává o", "týká se", "se týká", "jde o",
        "zaměřuje se na", "soustředí se na",
    ),
    "hu": (
        "nem említ*", "nem tesz említést", "említést sem tesz", "nem esik szó", "szó sem esik", "szó sincs",
        "nem szól", "nem szerepel*", "nem utal", "nem hivatkozik", "nem foglalkozik", "nem tárgyalja", "nem írja le",
        "nem tartalmaz", "semmit sem mond", "nem mond semmit", "nincs köze", "semmi köze", "nem kapcsolódik",
        "nincs kapcsolat*", "semmilyen kapcsolat*", "nincs összefüggés*", "nem függ össze", "irreleváns",
        "nem releváns", "lényegtelen", "nincs információ", "semmilyen információ", "nincs adat", "nincs utalás",
        "semmilyen utalás", "nincs nyom*", "nincs bizonyíték", "semmilyen bizonyíték", "csak leírja",
        "csupán leírja", "kizárólag leírja", "szól", "foglalkozik", "összpontosít*", "középpontjában",
    ),
    "no": (
        "nevner ikke", "nevner aldri", "nevnes ikke", "nevnes aldri", "ikke nevnt", "omtaler ikke", "omtales ikke",
        "ingen omtale", "viser ikke til", "ingen henvisning", "handler ikke om", "behandler ikke", "beskriver ikke",
        "tar ikke opp", "berører ikke", "sier ingenting", "sier ikke noe", "inneholder ikke", "ingenting om",
        "ikke noe om", "ingen informasjon", "ingen opplysninger", "ingen ledetråd", "ingen ledetråder", "ingen spor",
        "ingen bevis", "ingen holdepunkter", "ingen sammenheng", "uten sammenheng", "har ingenting med",
        "har ikke noe med", "har ingenting å gjøre", "har ikke noe å gjøre", "irrelevant", "uvedkommende",
        "uvesentlig", "ikke relevant*", "uten relevans", "beskriver bare", "beskriver kun", "handler om",
        "dreier seg om", "fokuserer på", "konsentrerer seg om",
    ),
    "ro": (
        "nu menționează", "nu se menționează", "nu este menționat*", "nu e menționat*", "nu amintește",
        "nu se amintește", "nu pomenește", "nicio mențiune", "nu face referire", "nu se referă", "nicio referire",
        "nu vorbește despre", "nu tratează", "nu descrie", "nu spune nimic", "nu conține", "nimic despre",
        "nu are legătură", "nicio legătură", "fără legătură", "nu are nimic de-a face", "nu are nimic în comun",
        "irelevant*", "nu este relevant*", "nu e relevant*", "lipsit* de relevanță", "nicio informație",
        "niciun indiciu", "nicio dovadă", "niciun element", "descrie doar", "descrie numai", "doar descrie",
        "este vorba despre", "este vorba de", "e vorba de", "se referă la", "se concentrează pe",
    ),
}  # fmt: skip

# An Interpreter reason that declines to decide (Table 6, "Hedging").
HEDGING_CUES: Table = {
    "en": (
        "cannot determine", "cannot be determined", "can not be determined", "unable to determine",
        "impossible to determine", "impossible to tell", "cannot tell", "hard to say", "difficult to say",
        "insufficient evidence", "insufficient information", "not enough information", "not enough evidence",
        "does not provide enough", "not possible to determine", "no way to know", "unclear from", "it is unclear",
        "not clear from", "cannot be sure", "cannot be certain",
    ),
    "fr": (
        "impossible de déterminer", "impossible à déterminer", "impossible de dire", "impossible de savoir",
        "ne peut pas être déterminé*", "on ne peut pas déterminer", "ne permet pas de déterminer",
        "difficile à dire", "difficile de dire", "pas assez d'informations", "pas assez d'éléments",
        "informations insuffisantes", "preuves insuffisantes", "n'est pas clair", "on ne peut pas être sûr",
        "impossible d'être sûr",
    ),
    "de": (
        "nicht bestimmen", "nicht feststellen", "nicht feststellbar", "lässt sich nicht sagen",
        "kann nicht bestimmt werden", "schwer zu sagen", "unmöglich zu sagen", "nicht genug Informationen",
        "nicht genügend Informationen", "unzureichende Informationen", "unzureichende Beweise", "ist unklar",
        "nicht sicher sagen",
    ),
    "es": (
        "no se puede determinar", "no puedo determinar", "no es posible determinar", "imposible determinar",
        "imposible saber", "difícil de decir", "difícil saber", "información insuficiente",
        "pruebas insuficientes", "no hay suficiente información", "no hay información suficiente",
        "no está claro", "no se puede saber", "no se puede estar seguro",
    ),
    "it": (
        "non si può determinare", "non è possibile determinare", "impossibile determinare", "impossibile dire",
        "impossibile sapere", "difficile dire", "difficile da dire", "informazioni insufficienti",
        "prove insufficienti", "non ci sono abbastanza informazioni", "non è chiaro", "non si può sapere",
        "non si può essere sicuri",
    ),
    "pt": (
        "não é possível determinar", "não se pode determinar", "não posso determinar", "impossível determinar",
        "impossível dizer", "impossível saber", "difícil dizer", "difícil de dizer", "informação insuficiente",
        "informações insuficientes", "provas insuficientes", "não há informação suficiente", "não está claro",
        "não se pode saber",
    ),
    "ru": (
        "невозможно определить", "нельзя определить", "не удаётся определить", "не могу определить",
        "трудно сказать", "сложно сказать", "невозможно сказать", "недостаточно информации",
        "недостаточно данных", "недостаточно доказательств", "неясно", "не ясно", "нельзя сказать наверняка",
        "нельзя быть уверен*",
    ),
    "el": (
        "δεν μπορεί να προσδιοριστεί", "δεν μπορώ να προσδιορίσω", "αδύνατον να προσδιοριστεί",
        "αδύνατο να προσδιοριστεί", "δύσκολο να πούμε", "δύσκολο να πει κανείς", "αδύνατο να πούμε",
        "ανεπαρκή στοιχεία", "ανεπαρκείς πληροφορίες", "δεν υπάρχουν αρκετές πληροφορίες",
        "δεν υπάρχουν επαρκή στοιχεία", "δεν είναι σαφές", "είναι ασαφές", "δεν μπορούμε να είμαστε βέβαιοι",
    ),
    "zh": (
        "无法确定", "无法判断", "不能确定", "难以确定", "难以判断", "很难说", "不好说", "证据不足", "信息不足",
        "没有足够的信息", "没有足够的证据", "尚不清楚", "无从得知", "无法得知", "不确定",
    ),
    "ja": (
        "判断できない", "特定できない", "断定できない", "わからない", "分からない", "情報が不足", "証拠が不足",
        "情報が足りない", "明らかではない", "はっきりしない",
    ),
    "ko": (
        "판단할 수 없*", "판단하기 어렵*", "알 수 없*", "확인할 수 없*", "단정할 수 없*", "단정하기 어렵*",
        "말하기 어렵*", "확실하지 않*", "불분명하*", "분명하지 않*", "정보가 부족하*", "증거가 부족하*",
        "정보가 충분하지 않*", "증거가 충분하지 않*",
    ),
    "pl": (
        "nie można ustalić", "nie da się ustalić", "nie sposób ustalić", "nie można określić", "nie da się określić",
        "nie można stwierdzić", "nie da się stwierdzić", "nie można rozstrzygnąć", "niemożliwe do ustalenia",
        "niemożliwe do określenia", "trudno powiedzieć", "trudno stwierdzić", "trudno ocenić",
        "brak wystarczających informacji", "brak wystarczających dowodów", "nie ma wystarczających informacji",
        "za mało informacji", "niewystarczając* informacj*", "niewystarczając* dowod*", "nie jest jasne",
        "niejasne", "nie wiadomo", "nie można być pewnym", "nie można mieć pewności",
    ),
    "sv": (
        "går inte att avgöra", "kan inte avgöras", "kan inte avgöra", "omöjligt att avgöra", "omöjligt att säga",
        "omöjligt att veta", "går inte att säga", "går inte att fastställa", "kan inte fastställas",
        "svårt att säga", "svårt att avgöra", "otillräcklig information", "otillräckliga uppgifter",
        "otillräckliga bevis", "otillräckligt underlag", "inte tillräckligt med information",
        "inte tillräcklig information", "för lite information", "oklart", "inte klart", "framgår inte",
        "kan inte vara säker",
    ),
    "cs": (
        "nelze určit", "nelze rozhodnout", "nelze zjistit", "nelze stanovit", "nelze posoudit", "nelze říci",
        "nelze říct", "nedá se určit", "nedá se říci", "není možné určit", "nemohu určit", "těžko říci", "těžko říct",
        "je těžké říci", "nedostatek informací", "nedostatek důkazů", "není dostatek informací", "není dost informací",
        "nedostatečn* informac*", "nedostatečn* důkaz*", "málo informací", "není jasné", "nejasné", "není zřejmé",
        "nelze vědět", "nelze si být jist*",
    ),
    "hu": (
        "nem lehet megállapítani", "nem állapítható meg", "nem lehet eldönteni", "nem dönthető el",
        "nem lehet tudni", "nem tudható", "nem lehet megmondani", "nehéz megmondani", "nehéz eldönteni",
        "nehéz megállapítani", "nincs elég információ", "nincs elegendő információ", "nincs elég adat",
        "kevés az információ", "elégtelen információ", "elégtelen bizonyíték*", "nincs elég bizonyíték",
        "nem egyértelmű", "nem világos", "nem derül ki", "nem lehet biztos*",
    ),
    "no": (
        "kan ikke avgjøres", "kan ikke avgjøre", "umulig å avgjøre", "umulig å si", "umulig å vite",
        "ikke mulig å avgjøre", "ikke mulig å si", "ikke mulig å fastslå", "kan ikke fastslås", "vanskelig å si",
        "vanskelig å avgjøre", "utilstrekkelig informasjon", "utilstrekkelige opplysninger", "utilstrekkelig* bevis",
        "ikke nok informasjon", "ikke tilstrekkelig informasjon", "ikke tilstrekkelig med informasjon",
        "for lite informasjon", "uklart", "ikke klart", "fremgår ikke", "framgår ikke", "kan ikke være sikker*",
    ),
    "ro": (
        "nu se poate determina", "nu se poate stabili", "nu se poate spune", "nu se poate ști", "nu pot determina",
        "nu putem determina", "nu pot stabili", "nu putem stabili", "imposibil de determinat", "imposibil de stabilit",
        "imposibil de spus", "imposibil de știut", "greu de spus", "greu de stabilit", "greu de determinat",
        "informații insuficiente", "dovezi insuficiente", "nu există suficiente informații",
        "nu sunt suficiente informații", "nu există informații suficiente", "nu există destule informații",
        "prea puține informații", "nu este clar", "nu e clar", "neclar*", "nu reiese", "nu putem fi sigur*",
    ),
}  # fmt: skip

# The self-calibration trigger's families (``clueweaver.protocol.calibration``): a reversed polarity,
# a question about causes, a question that asks for an inference.
NEGATION_CUES: Table = {
    "en": ("not", "except", "false", "incorrect", "least"),
    "fr": ("ne", "n'", "pas", "sauf", "excepté", "hormis", "faux", "fausse", "incorrect", "incorrecte",
           "le moins", "la moins", "les moins"),
    "de": ("nicht", "kein*", "außer", "ausgenommen", "falsch*", "unzutreffend", "am wenigsten"),
    "es": ("no", "excepto", "salvo", "falso", "falsa", "incorrecto", "incorrecta", "menos"),
    "it": ("non", "tranne", "eccetto", "falso", "falsa", "errato", "errata", "scorretto", "meno"),
    "pt": ("não", "exceto", "salvo", "falso", "falsa", "incorreto", "incorreta", "menos"),
    "ru": ("не", "нет", "кроме", "за исключением", "ложн*", "неверн*", "неправильн*", "наименее", "меньше всего"),
    "el": ("δεν", "δε", "μην", "μη", "όχι", "εκτός", "ψευδ*", "λάθος", "λανθασμέν*", "λιγότερο"),
    "zh": ("不", "没", "并非", "除了", "除外", "以外", "错误", "最少"),
    "ja": ("ない", "なかっ", "ません", "以外", "除いて", "誤", "間違"),  # "なかった": the past's "ない"
    "ko": ("않*", "아니*", "없*", "못하*", "못했*", "제외*", "말고", "틀린", "거짓*", "가장 적*"),
    # Polish "nie" alone is German "nie" (never): the phrases that carry it instead
    "pl": ("nie jest", "nie są", "nie był*", "nie ma", "nie mają", "nie miał*", "nie może", "nie mógł", "nie mogł*",
           "żaden", "żadn*", "nieprawda", "nieprawdziw*", "fałszyw*", "błędn*", "niepoprawn*", "z wyjątkiem", "oprócz",
           "najmniej"),
    # not "ej" (Spanish "p. ej."), "osant" (French "osant", daring), "inga" (the name Inga)
    "sv": ("inte", "icke", "ingen", "inget", "utom", "förutom", "falsk*", "felaktig*", "osann", "minst"),
    # Czech "ne" alone (no) is French "ne", a cue already: Czech fuses it with its verb ("není", "nemá")
    "cs": ("není", "nejsou", "nebyl*", "nemá", "nemají", "neměl*", "nemůže", "nemohl*", "neplatí", "nikoli",
           "nikoliv", "žádn*", "nepravda", "nepravdiv*", "nesprávn*", "chybn*", "myln*", "kromě", "s výjimkou",
           "vyjma", "nejméně"),
    # Hungarian "nem" alone is Portuguese "nem" (nor), "sem" (nor) Portuguese "sem" (without): the phrases that
    # carry "nem" instead, not "nem tud*" (Portuguese "nem tudo", not everything); "hamis" listed, not a stem: the
    # name Hamish
    "hu": ("nem igaz", "nem igazak", "nem helyes", "nem volt", "nem voltak", "nem lehet", "nincs", "nincsen",
           "nincsenek", "egyik sem", "kivéve", "kivételével", "hamis", "hamisak", "helytelen*", "téves", "tévesek",
           "legkevésbé", "legkevesebb*"),
    # not "usant" (untrue): French "usant" (wearing), as Swedish "osant"; nor "intet" (nothing), Swedish's too
    "no": ("ikke", "ingen", "unntatt", "bortsett fra", "med unntak av", "usann", "uriktig*", "feil", "falsk*",
           "minst"),
    # Romanian "nu" alone (not) is Swedish "nu" (now) and French "nu" (naked): the phrases that carry it instead;
    # not "nici" (nor): Polish "nici" (threads)
    "ro": ("nu este", "nu sunt", "nu e", "nu era", "nu erau", "nu a fost", "nu au fost", "nu are", "nu au",
           "nu avea", "nu poate", "nu putea", "niciun*", "nicio", "fals", "falsă", "false", "falși", "neadevărat*",
           "incorect*", "greșit*", "cu excepția", "exceptând", "în afară de", "cel mai puțin", "cea mai puțin"),
    # Languages read as plain words (``und``), so that tau(q) fires on their questions too. Finnish "ei" alone is
    # Romanian "ei" (they), "en" and "et" French: the forms and phrases that carry its negation instead; Dutch
    # "vals" is French "valse" (waltz); Hebrew "אף" alone is a nose
    "uk": ("не", "ні", "немає", "жоден", "жодн*", "ніколи", "крім", "за винятком", "хибн*", "неправильн*",
           "неправдив*", "найменш*"),
    "nl": ("niet", "geen", "nooit", "behalve", "uitgezonderd", "onjuist*", "fout", "foute", "het minst"),
    "tr": ("değil", "değildir", "yok", "hiç", "hiçbir", "asla", "hariç", "dışında", "yanlış"),
    "fi": ("eikä", "eivät", "emme", "ette", "ei ole", "ei ollut", "ilman", "paitsi", "lukuun ottamatta", "väärä*",
           "virheellinen", "vähiten"),
    "ar": ("لا", "لم", "لن", "ليس", "ليست", "غير", "إلا", "باستثناء", "ما عدا", "خطأ", "خاطئ*", "أقل"),
    "he": ("לא", "אין", "אינו", "אינה", "אינם", "אף אחד", "אף פעם", "מלבד", "חוץ מ*", "שגוי*", "הכי פחות"),
    "hi": ("नहीं", "न", "मत", "सिवाय", "के अलावा", "गलत", "ग़लत", "सबसे कम"),
}  # fmt: skip
CAUSAL_CUES: Table = {
    "en": ("why", "reason", "reasons", "because", "cause", "causes", "caused"),
    "fr": ("pourquoi", "raison", "raisons", "parce que", "cause", "causé", "causée", "à cause"),
    "de": ("warum", "weshalb", "wieso", "weswegen", "Grund", "Gründe", "weil", "Ursache", "verursacht"),
    "es": ("por qué", "porque", "razón", "razones", "motivo", "motivos", "causa", "causó", "causado"),
    "it": ("perché", "motivo", "motivi", "ragione", "ragioni", "causa", "causato", "causata"),
    "pt": ("por que", "por quê", "porque", "razão", "razões", "motivo", "motivos", "causa", "causou"),
    "ru": ("почему", "зачем", "отчего", "причин*", "потому что", "из-за", "вызвал*"),
    "el": ("γιατί", "για ποιο λόγο", "για ποιον λόγο", "αιτία", "αιτίες", "επειδή", "διότι", "εξαιτίας",
           "προκάλεσ*"),
    "zh": ("为什么", "为何", "原因", "因为", "由于", "导致", "缘故"),
    "ja": ("なぜ", "どうして", "理由", "原因", "せいで"),
    "ko": ("왜", "어째서", "이유*", "원인*", "때문*", "까닭*"),
    # not "bo" (Swedish "bo", to live)
    "pl": ("dlaczego", "czemu", "powód", "powody", "powodu", "powodów", "przyczyn*", "ponieważ", "gdyż", "dlatego że",
           "spowodował*"),
    "sv": ("varför", "orsak*", "anledning*", "eftersom", "därför att", "på grund av"),  # not "skäl": folded, a shell
    "cs": ("proč", "důvod*", "příčin*", "protože", "poněvadž", "neboť", "kvůli", "způsobil*"),
    # not "oka" (its reason) alone: Polish "oka" (of an eye)
    "hu": ("miért", "mi okból", "az oka", "okát", "okai", "mert", "mivel", "ugyanis", "miatt", "okoz*"),
    "no": ("hvorfor", "grunn", "grunnen", "grunner", "årsak*", "fordi", "ettersom", "på grunn av", "forårsak*",
           "skyldes"),
    # Romanian "de ce" (why) alone is French "de ce" (of this): the phrases that carry it instead; not "motiv"
    # (reason) alone: German "Motiv" (motif)
    "ro": ("de ce a", "de ce au", "de ce l-a", "de ce l-au", "de ce i-a", "de ce i-au", "de ce s-a", "de ce s-au",
           "de ce o", "de ce nu", "de ce este", "de ce e", "de ce era", "de ce se", "pentru ce", "din ce motiv",
           "motivul", "motivele", "motivului", "cauz*", "pentru că", "deoarece", "fiindcă", "întrucât"),
    # not Ukrainian "через" (Russian "through"), Dutch "reden" (German "reden", to talk), Hebrew "כי" (also "that")
    "uk": ("чому", "навіщо", "через що", "бо", "тому що", "оскільки", "спричин*"),
    "nl": ("waarom", "waardoor", "omdat", "de reden", "redenen", "oorzaak", "oorzaken", "veroorzaakt*"),
    "tr": ("neden", "niçin", "niye", "sebep*", "çünkü", "yüzünden", "dolayı", "nedeniyle"),
    "fi": ("miksi", "minkä takia", "minkä vuoksi", "syy", "syyt", "syynä", "koska", "vuoksi", "takia", "aiheutt*"),
    "ar": ("لماذا", "لأن", "لان", "بسبب", "السبب", "سبب", "الأسباب", "أدى", "أدت"),
    "he": ("למה", "מדוע", "מפני ש*", "בגלל", "סיבה", "הסיבה", "גרם*"),
    "hi": ("क्यों", "किसलिए", "कारण", "क्योंकि", "वजह"),
}  # fmt: skip
INFERENTIAL_CUES: Table = {
    "en": (
        "infer", "infers", "inferred", "inference",
        "deduce", "deduces", "deduced",
        "imply", "implies", "implied", "implication", "implications",
        "suggest", "suggests", "suggested",
        "most likely",
    ),
    "fr": ("inférer", "déduire", "déduit", "implique", "impliquer", "suggère", "suggérer", "laisse entendre",
           "le plus probable", "la plus probable", "le plus vraisemblable"),
    "de": ("folgern", "gefolgert", "schließen", "schlussfolgern", "impliziert", "andeuten", "deutet an", "legt nahe",
           "am wahrscheinlichsten", "höchstwahrscheinlich"),
    "es": ("inferir", "deducir", "deduce", "implica", "implicar", "sugiere", "sugerir", "más probable"),
    "it": ("inferire", "dedurre", "deduce", "implica", "implicare", "suggerisce", "suggerire", "più probabile"),
    "pt": ("inferir", "deduzir", "deduz", "implica", "implicar", "sugere", "sugerir", "mais provável"),
    "ru": ("вывод*", "заключить", "подразумева*", "предполага*", "намека*", "скорее всего", "наиболее вероятн*",
           "вероятнее всего"),
    "el": ("συμπεραίν*", "συμπέρασμα", "συνάγ*", "υπονο*", "υποδηλ*", "υπαινίσσεται", "πιθανότατα",
           "το πιθανότερο", "πιο πιθανό"),
    "zh": ("推断", "推测", "推知", "推出", "暗示", "意味着", "表明", "最可能", "最有可能"),
    "ja": ("推測", "推論", "推定", "示唆", "暗示", "意味する", "最も可能性"),
    "ko": ("추론*", "추측*", "짐작*", "암시*", "시사*", "의미하*", "가장 가능성*", "가장 그럴듯*"),
    "pl": ("wywnioskow*", "wnioskow*", "wnioskuj*", "wniosek", "wnioski", "wydedukow*", "dedukow*", "implikuj*",
           "sugeruj*", "sugerow*", "zasugerow*", "najprawdopodobniej", "najbardziej prawdopodobn*"),
    "sv": ("slutsats*", "sluta sig till", "härled*", "antyd*", "implicer*", "tyder på", "troligast",
           "mest sannolik*", "mest trolig*"),
    # not "vyvoz*": folded, Czech "vývoz" (export)
    "cs": ("vyvodi*", "vyvozuj*", "usoud*", "usuzuj*", "odvodit", "deduk*", "vyplývá", "implikuj*", "naznač*",
           "nejspíš*", "nejpravděpodobněj*", "s největší pravděpodobností"),
    "hu": ("következtet*", "kikövetkeztet*", "deduk*", "implikál*", "sugall*", "sejtet*", "mire utal*", "arra utal*",
           "legvalószínűbb*"),
    # not "slutning*" (inference): "i slutningen av" (at the end of)
    "no": ("slutte seg til", "slutter seg til", "slutte oss til", "slutninger", "utled*", "konklu*", "antyd*",
           "impliser*", "tyder på", "mest sannsynlig*", "mest trolig"),
    # not "deduc*": English "deduct"
    "ro": ("deduce", "deduc", "deducem", "deduceți", "dedus", "dedusă", "deducție", "deducția", "infera", "inferă",
           "inferăm", "inferență", "concluzi*", "sugerează", "sugera", "sugerat", "implică", "lasă să se înțeleagă",
           "reiese", "cel mai probabil", "cea mai probabilă"),
    # not Turkish "ima" (implication): Hungarian "ima" (prayer)
    "uk": ("висновок", "висновку", "зробити висновок", "випливає", "натяка*", "найімовірніше", "найвірогідніше",
           "найбільш імовірн*"),
    "nl": ("afleiden", "afgeleid", "concluderen", "impliceert", "suggereert", "doet vermoeden", "waarschijnlijk"),
    "tr": ("çıkarılabilir", "sonucuna", "anlaşılıyor", "en olası", "büyük olasılıkla", "muhtemelen"),
    "fi": ("päätellä", "päätelmä*", "johtopäätö*", "viittaa", "vihjaa", "todennäköisimmin", "luultavasti"),
    "ar": ("نستنتج", "يستنتج", "استنتاج", "يدل", "يشير", "يوحي", "على الأرجح", "الأرجح"),
    "he": ("להסיק", "מסיקים", "מסקנה", "משתמע", "רומז", "מרמז", "ככל הנראה", "סביר להניח"),
    "hi": ("निष्कर्ष", "अनुमान", "संकेत", "सबसे संभावित", "शायद"),
}  # fmt: skip

# A question about time (the subset ChronoRAG reports on its own; ``clueweaver.evaluation.open_metrics``).
TEMPORAL_CUES: Table = {
    "en": ("when", "while", "during", "after", "before"),
    "fr": ("quand", "lorsque", "durant", "après", "avant"),
    "de": ("wann", "während", "nachdem", "bevor"),
    "es": ("cuándo", "cuando", "mientras", "durante", "después", "antes"),
    "it": ("quando", "mentre", "durante", "dopo", "prima"),
    "pt": ("quando", "enquanto", "durante", "depois", "antes"),
    "ru": ("когда", "пока", "во время", "после", "перед", "до того как"),
    "el": ("πότε", "όταν", "ενώ", "κατά τη διάρκεια", "μετά", "πριν"),
    "zh": ("什么时候", "何时", "时候", "期间", "之后", "以后", "之前", "以前"),
    "ja": ("いつ", "とき", "時に", "の間", "の後", "の前", "後で", "前に"),
    "ko": ("언제", "동안", "후에", "뒤에", "전에", "무렵*", "때", "때에", "때는", "때의"),
    # not Polish "po" (after): Italian "un po'"; nor Swedish "under" (during): English "under"
    "pl": ("kiedy", "gdy", "podczas", "w trakcie", "w czasie", "po tym jak", "po tym, jak", "przed", "zanim"),
    "sv": ("när", "medan", "efter", "innan", "före"),
    # not Czech "po" (after), as for Polish, nor "poté" (afterwards) alone: folded, Portuguese "pote" (jar)
    "cs": ("kdy", "když", "zatímco", "během", "v průběhu", "poté co", "poté, co", "předtím", "před"),
    # not "alatt" (during): also "under" ("a híd alatt"); nor "után" (after), "míg" (while): folded, Swedish "utan"
    # (without), "mig" (me)
    "hu": ("mikor", "amikor", "mialatt", "miközben", "során", "idején", "utána", "miután", "előtt", "előtte",
           "mielőtt"),
    # not "mens" (while): French "mens" (you lie); nor "da" (when): Italian "da" (from), Portuguese "da" (of the);
    # nor "under" (during), as for Swedish
    "no": ("når", "etter", "etterpå", "før", "i løpet av", "samtidig som"),
    # not "după" (after) alone: folded, Polish "dupa" (backside)
    "ro": ("când", "în timp ce", "în vreme ce", "în timpul", "după ce", "după aceea", "înainte", "înaintea"),
}  # fmt: skip

# Dropped from answers before token F1 (SQuAD drops English's): the reference's language's when it
# shows one, else every language's together (``clueweaver.protocol.text.reference_articles``).
ARTICLES: Table = {
    "en": ("a", "an", "the"),
    "fr": ("le", "la", "les", "l", "un", "une", "des", "du"),
    "de": ("der", "die", "das", "dem", "den", "des", "ein", "eine", "einen", "einem", "einer", "eines"),
    "es": ("el", "la", "los", "las", "lo", "un", "una", "unos", "unas"),
    "it": ("il", "lo", "la", "i", "gli", "le", "l", "un", "uno", "una"),
    "pt": ("o", "a", "os", "as", "um", "uma", "uns", "umas"),
    "el": ("ο", "η", "το", "οι", "τα", "του", "της", "των", "τον", "την", "τη", "τους", "τις", "ένας", "μια",
           "μία", "ένα", "έναν", "ενός", "μιας"),
    # Polish has none; Swedish not "en" and "de": French and Spanish "en" (in), "de" (of) would go from
    # every short answer that shows no language
    "sv": ("ett", "den", "det"),
    # Czech has none; Hungarian not "az": folded, Czech "až" (until, only), which would go from every Czech answer
    "hu": ("a", "egy"),
    # Norwegian not "en", "et", "ei", "de": French and Spanish "en" (in), French "et" (and), Romanian "ei" (they),
    # French and Spanish "de" (of) would go from every short answer that shows no language, as for Swedish
    "no": ("den", "det"),
    # Romanian writes its definite articles onto the noun ("omul"): its indefinite ones
    "ro": ("un", "o", "unui", "unei", "niște"),
}  # fmt: skip
# Articles written elided onto the next word ("l'épée", "un'amica"): split off before punctuation goes.
ELIDED_ARTICLES = ("l", "un")
# The copulas a Japanese or Korean short answer ends with ("先生です", "코르빈입니다"): dropped from its end before
# token F1, as articles are; English writes its own apart ("It was Korvin"), and SQuAD keeps those.
ANSWER_COPULAS: Table = {
    "ja": ("です", "でした", "である", "であった", "だった"),
    "ko": ("입니다", "이었다", "이었습니다", "였습니다"),
}

# Titles before a name ("Mr. Knightley", "Mme Bovary", "Herr Settembrini"): the word after one is a
# name, the title itself is not (``clueweaver.protocol.details``).
TITLES: Table = {
    "en": ("Mr", "Mrs", "Miss", "Ms", "Dr", "Sir", "Lady", "Lord", "Madam", "Madame", "Monsieur", "Mademoiselle",
           "Captain", "Colonel", "Major", "General", "Professor", "Uncle", "Aunt", "Father", "Mother", "Saint"),
    "fr": ("M", "Mme", "Mlle", "Maître", "Comte", "Comtesse"),
    "de": ("Herr", "Frau", "Fräulein", "Graf", "Gräfin"),
    "es": ("Don", "Doña", "Señor", "Señora", "Señorita"),
    "it": ("Signor", "Signore", "Signora", "Signorina"),
    "pt": ("Dom", "Dona", "Senhor", "Senhora"),
    "ru": ("Князь", "Княгиня", "Граф", "Графиня"),
    "el": ("Κύριος", "Κυρία", "Κυρ", "Κυρά", "Δεσποινίς"),
    "pl": ("Pan", "Pani", "Panna", "Panicz", "Hrabia", "Hrabina", "Książę", "Księżna", "Ksiądz", "Doktor"),
    "sv": ("Herr", "Fru", "Fröken", "Greve", "Grevinnan", "Friherre", "Friherrinnan", "Kapten", "Doktor", "Pastor"),
    "cs": ("Pan", "Paní", "Slečna", "Hrabě", "Hraběnka", "Kníže", "Kněžna", "Doktor", "Páter", "Mistr"),
    # Hungarian writes "úr" and "asszony" after the name; these open a sentence before one ("Gróf Teleki")
    "hu": ("Gróf", "Grófné", "Báró", "Báróné", "Herceg", "Hercegnő", "Doktor", "Özvegy"),
    "no": ("Herr", "Hr", "Fru", "Frøken", "Frk", "Greve", "Grevinne", "Doktor", "Kaptein", "Pastor"),
    "ro": with_cedillas("Domnul Domnule Doamna Doamnă Domnișoara Dl Dna Conu Coana Cucoana Jupân Jupânul Părintele "
                         "Contele Contesa Doctorul Rabinul"),
}  # fmt: skip

# Words that open sentences without being names, for short evidence that never shows them in lower case.
SENTENCE_OPENERS: Table = {
    "en": tuple(
        "A About After Again All Also Although An And Another Any As At Because Before Both But By Each Even Every "
        "For From He Her Here Hers Him His How However I If In Into It Its Just Let Many Me More Most My Neither "
        "No Nor Not Now Of Oh On Once One Only Or Our Perhaps She So Some Still Such That The Their Them Then There "
        "These They This Those Though Thus To Too Under Until Upon We Well What When Where Whether Which While Who "
        "Whom Whose Why With Yes Yet You Your".split()
    ),
    "fr": tuple("Le La Les Un Une Des Il Elle Ils Elles Je Nous Vous On Ce Cette Ces Mais Et Puis Alors Quand Si "
                "Dans Sur Pour Avec Après Avant Comme Pourtant Cependant Enfin Oui Non".split()),
    "de": tuple("Der Die Das Ein Eine Er Sie Es Ich Wir Ihr Aber Und Dann Als Wenn Doch Nach Vor In Im Am Auf Mit "
                "Für Noch Nun So Ja Nein".split()),
    "es": tuple("El La Los Las Un Una Él Ella Ellos Yo Pero Entonces Cuando Si En Con Por Para Después Antes "
                "Como Sin Sí No".split()),
    "it": tuple("Il Lo La Gli Le Un Una Lui Lei Io Noi Ma Poi Quando Se In Con Per Dopo Prima Come Sì No".split()),
    "pt": tuple("O A Os As Um Uma Ele Ela Eles Eu Mas Então Quando Se Em Com Por Para Depois Antes Como Sim "
                "Não".split()),
    "ru": tuple("Он Она Оно Они Я Мы Вы Ты Но И А Тогда Когда Если В На С По После До Как Да Нет Это Этот Эта "
                "Там Здесь Потом".split()),
    "el": tuple("Ο Η Το Οι Τα Ένας Μια Ένα Αυτός Αυτή Αυτό Εγώ Εμείς Εσύ Εσείς Αλλά Και Τότε Όταν Αν Σε Στο Στη "
                "Στην Με Για Από Μετά Πριν Όπως Ναι Όχι Εκεί Εδώ Ύστερα Ενώ Δεν".split()),
    "pl": tuple("On Ona Ono Oni One Ja My Wy Ty Ale A I Lecz Jednak Więc Potem Wtedy Kiedy Gdy Jeśli Jeżeli W We "
                "Na Z Ze Do Po Przed Za Jak Tak Nie To Ten Ta Te Tam Tu Już".split()),
    # not "Hans" (his) nor "De" (they): the names Hans and De Winter
    "sv": tuple("Den Det En Ett Han Hon Jag Vi Ni Men Och Så Sedan Då När Om Där Här Efter Innan Med För Till På I "
                "Av Nu Ja Nej Inte Hennes Deras Dess".split()),
    "cs": tuple("On Ona Ono Oni Ony Já My Vy Ty Ale A I Pak Potom Tehdy Když Kdyby Jestli Jestliže Pokud V Ve Na Z "
                "Ze Do Po Před Za Jak Tak Ne Ano To Ten Ta Tam Tady Teď Už Již Proto Protože Však Co Kdo".split()),
    # not "De" (but): the name De Winter, as for Swedish
    "hu": tuple("A Az Egy Ő Ők Én Mi Ti Te Ön És Aztán Akkor Amikor Mikor Ha Mert Hogy Ez Azt Ezt Itt Ott Most Már "
                "Nem Igen Hát Csak Majd Ekkor Azonban Tehát Így Ki Mit Miért Hol".split()),
    # not "Da" (then), "De" (they), "Du" (you), "Hans" (his): the names Da Silva, De Winter, Du Roy and Hans; nor
    # "Disse" (these), "Hvem" (who), "Nå" (now), which open Portuguese ("Disse", said) and Swedish sentences too:
    # those languages' specificity reads them as before
    "no": tuple("Den Det Denne Dette En Et Han Hun Jeg Vi Dere Men Og Så Når Om Der Her Etter Før Med For Til På I "
                "Av Ja Nei Ikke Aldri Hennes Deres Hva Hvorfor Hvor Hvordan Likevel Derfor".split()),
    # not "Da" (yes), "De" (of): the names Da Silva and De Winter; nor "Era" (was), "Voi" (you), "Din" (from), "Mai"
    # (more), which open Spanish, Italian and Portuguese ("Era"), Italian ("Voi"), Swedish ("Din", your) and German
    # ("Mai", May) sentences too: those languages' specificity reads them as before
    "ro": with_cedillas("El Ea Ei Ele Eu Noi Tu Dar Și Iar Apoi Atunci Când Dacă Deși În La Cu Pe După Ca Cum Nu Se "
                         "Să Acesta Aceasta Această Acest Aici Acolo Acum Deci Totuși Însă Așa Un O Ce Cine Unde "
                         "Pentru Numai Doar Chiar Poate"),
}  # fmt: skip


def every_language(table: Table) -> tuple[str, ...]:
    """The cues of every language of ``table`` in one tuple, English first, each once: what a rule
    matches when it does not know the language of the text it reads."""
    return tuple(dict.fromkeys(cue for cues in table.values() for cue in cues))
