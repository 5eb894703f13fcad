"""TEI texts (.xml), the format of scholarly editions and of ELTeC's novels in a dozen European
languages: their divs' heads are the chapters, a div of headed divs a part, front matter stays
before the first chapter, notes follow the book; a file that is no TEI text is an error naming it.

The real fixture is ELTeC-fra's Marie-Claire (Marguerite Audoux, 1910; CC BY 4.0) cut to whole lines
of the file; the structure test follows ELTeC-deu's Vittoria Accorombona (groups within groups)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import pytest

from clueweaver.books.language import detect_language
from clueweaver.books.narrative import NarrativeError, load_narrative
from clueweaver.books.tei import read_tei

FIXTURE = Path(__file__).parent / "fixtures" / "books_multilingual" / "marie_claire_excerpt.fr.xml"
TEI = '<?xml version="1.0" encoding="{encoding}"?>\n<TEI xmlns="http://www.tei-c.org/ns/1.0">{header}<text>{body}</text></TEI>'
HEADER = "<teiHeader><fileDesc><titleStmt><title>{title}</title></titleStmt></fileDesc></teiHeader>"


def tei(body: str, title: str = "Vittoria Accorombona : ELTeC ausgabe", encoding: str = "UTF-8") -> str:
    return TEI.format(encoding=encoding, header=HEADER.format(title=title), body=body)


def write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_an_eltec_novel_reads_its_chapters_and_every_paragraph():
    book = load_narrative(FIXTURE)
    root = ElementTree.parse(FIXTURE).getroot()
    body = [e for e in root.iter() if e.tag.endswith("}body")][0]
    expected = ["".join(e.itertext()) for e in body.iter() if e.tag.rsplit("}", 1)[-1] in ("head", "p")]
    assert [p.text for p in book.paragraphs] == [" ".join(t.split()) for t in expected if t.strip()]
    assert book.title == "Marie-Claire"  # the corpus's ": édition ELTeC" left out
    assert [(c.label, c.title) for c in book.chapters] == [
        ("1", "PREMIÈRE PARTIE"), ("2", "DEUXIÈME PARTIE"), ("3", "TROISIÈME PARTIE"),
    ]  # fmt: skip
    assert detect_language(book.text) == "fr"


BODY = """<front><div type="liminal"><head>Vorwort</head><p>Diese Geschichte ist wahr.</p></div></front>
<body><div type="group"><head>Erster <lb/>Teil</head>
  <div type="group"><head>Erstes Buch</head>
    <div type="chapter"><head>Erstes Kapitel</head>
      <p>Vittoria sah auf die Stadt<note place="foot">Rom, im Jahre 1575.</note> hinab.<pb n="12"/></p>
      <lg><l>O Rom, o Rom,</l><l>du alte Stadt!</l><l/></lg>
      <milestone unit="section"/><p>Dann kam der Abend.</p></div>
    <div type="chapter"><head>Zweites Kapitel</head><p>Bracciano ritt nach Norden.</p></div></div>
  <div type="group"><head>Zweites Buch</head>
    <div type="chapter"><head>Erstes Kapitel</head><quote><p>Ein Brief aus Florenz, über Siena.</p></quote></div></div>
</div></body>
<back><div type="notes"><p>Anmerkung des Herausgebers.</p><note n="2">Der Papst war Gregor XIII.</note></div></back>"""


def test_groups_of_chapters_are_parts_and_front_matter_and_notes_no_chapters(tmp_path):
    book = load_narrative(write(tmp_path, "vittoria.xml", tei(BODY)))
    assert book.title == "Vittoria Accorombona"
    assert [(c.label, c.title) for c in book.chapters] == [
        ("1.1", "Erstes Kapitel"), ("1.2", "Zweites Kapitel"), ("2.1", "Zweites Buch Erstes Kapitel"),
    ]  # fmt: skip
    assert book.chapters[2].part == "Zweites Buch" and book[book.chapters[0].first_paragraph].text == "Erster Teil"
    # the part headings chapter I opens with stay in it: chapter II opens at its own heading, not at "Erstes Buch"
    assert [book[c.first_paragraph].text for c in book.chapters] == ["Erster Teil", "Zweites Kapitel", "Zweites Buch"]
    texts = [p.text for p in book.paragraphs]
    assert texts[:2] == ["Vorwort", "Diese Geschichte ist wahr."] and book.paragraphs[1].chapter == 0
    assert "Vittoria sah auf die Stadt hinab." in texts  # the note out of the sentence, the page break no text
    assert "O Rom, o Rom, du alte Stadt!" in texts  # a stanza is one paragraph, its empty line none
    assert "Ein Brief aus Florenz, über Siena." in texts  # a quotation's paragraphs
    # back matter, then the notes in reading order: the one taken out of a sentence, the notes div's
    assert texts[-3:] == ["Anmerkung des Herausgebers.", "Rom, im Jahre 1575.", "Der Papst war Gregor XIII."]
    assert read_tei(tei(BODY), "t").parts == frozenset({"Erster Teil", "Erstes Buch", "Zweites Buch"})


def test_a_tei_file_in_its_declared_encoding_zipped_or_named_tei_reads_the_same(tmp_path):
    plain = load_narrative(write(tmp_path, "v.xml", tei(BODY)))
    latin = load_narrative(write(tmp_path, "v.tei", tei(BODY, encoding="ISO-8859-1"), "latin-1"))
    assert [p.text for p in latin.paragraphs] == [p.text for p in plain.paragraphs]
    with zipfile.ZipFile(tmp_path / "v.zip", "w") as archive:
        archive.writestr("ELTeC/DEU014.xml", tei(BODY))
    assert load_narrative(tmp_path / "v.zip").chapters == plain.chapters
    wrong = write(tmp_path, "w.xml", tei(BODY, encoding="UTF-8"), "latin-1")  # declares UTF-8, is Latin-1
    with pytest.raises(NarrativeError, match="not a readable TEI file .* pass --encoding"):
        load_narrative(wrong)
    assert [p.text for p in load_narrative(wrong, encoding="latin-1").paragraphs] == [p.text for p in plain.paragraphs]


def test_a_level_0_draft_without_body_reads_what_its_text_holds(tmp_path):
    """ELTeC's level-0 Russian drafts put their divs straight into <text>, or skip <text>."""
    draft = tei('<div type="chapter"><head>1.</head><p>Казаки выехали.</p></div>', title="Казаки")
    assert [c.label for c in load_narrative(write(tmp_path, "k.xml", draft)).chapters] == ["1"]


def test_a_level_0_draft_with_front_matter_and_loose_lines_loses_no_text(tmp_path):
    """ELTeC-rus's level-0 Герой нашего времени: a <front>, then its chapters' divs straight in <text>, some lines
    outside any <p> (one broken by a page break). It had been refused as holding no paragraphs."""
    draft = tei(
        '<front><div type="titlepage"><p>Лермонтов М.Ю. Герой нашего времени</p></div></front>'
        '<div type="chapter"><head>1.</head>\n  <p>Бэла</p>\n  Я ехал на перекладных из Тифлиса.\n'
        "  <p>Вся поклажа моей тележки.</p> Перечитывая эти <pb n='31'/> записки.\n</div>"
        '<div type="chapter"><head>2.</head><p>Максим Максимыч</p> — </div>',
        title="Герой нашего времени",
    )
    narrative = load_narrative(write(tmp_path, "geroi.xml", draft))
    assert [p.text for p in narrative.paragraphs] == [
        "Лермонтов М.Ю. Герой нашего времени",
        "1.",
        "Бэла",
        "Я ехал на перекладных из Тифлиса.",
        "Вся поклажа моей тележки.",
        "Перечитывая эти записки.",
        "2.",
        "Максим Максимыч",
    ]  # the lone dash, punctuation alone, is no paragraph
    assert [c.label for c in narrative.chapters] == ["1", "2"]


def test_a_paragraph_holding_a_heading_or_paragraphs_is_the_division_that_lost_its_tag(tmp_path):
    """Герой нашего времени's level-0 draft opens Тамань with <p type="chapter"><head>1.</head>, inside a <p>
    left open: the whole journal had been one paragraph of 105,570 characters, its chapter no chapter."""
    draft = tei(
        '<div type="chapter"><head>1.</head><p>Бэла</p><p>Я ехал на перекладных из Тифлиса.</p></div>'
        '<p>Предисловие к журналу.<p type="chapter"><head>2.</head><p>Тамань</p><p>Тамань — самый скверный '
        "городишко.</p></p></p>",
        title="Герой нашего времени",
    )
    narrative = load_narrative(write(tmp_path, "geroi.xml", draft))
    assert [c.label for c in narrative.chapters] == ["1", "2"]
    assert [p.text for p in narrative.paragraphs][3:] == [
        "Предисловие к журналу.",
        "2.",
        "Тамань",
        "Тамань — самый скверный городишко.",
    ]


def test_words_between_a_quotations_elements_and_a_stanza_across_a_page_break_are_read(tmp_path):
    """ELTeC-eng's Middlemarch sets each chapter's motto as a quotation whose source sits between its elements,
    and Bulwer's letters put their text straight into <quote>: those words had been dropped. A page break inside
    a poem had cut one stanza into two paragraphs."""
    body = (
        '<body><div type="chapter"><head>CHAPTER I.</head>'
        "<quote><l>Since I can do no good because a woman,</l><l>Reach constantly at something that is near it.</l>"
        "—The Maid's Tragedy: BEAUMONT AND FLETCHER.</quote>"
        "<p>Miss Brooke had that kind of beauty.</p>"
        "<quote>LETTER I. DEAR M. LE MARQUIS,—How can I thank you?</quote>"
        "<lg><l>Wir sind die Welt:</l><pb n='2'/><l>Not, Brot und Brunst!</l></lg>"
        "</div></body>"
    )
    texts = [p.text for p in load_narrative(write(tmp_path, "m.xml", tei(body, title="Middlemarch"))).paragraphs]
    assert texts == [
        "CHAPTER I.",
        "Since I can do no good because a woman, Reach constantly at something that is near it.",
        "—The Maid's Tragedy: BEAUMONT AND FLETCHER.",
        "Miss Brooke had that kind of beauty.",
        "LETTER I. DEAR M. LE MARQUIS,—How can I thank you?",
        "Wir sind die Welt: Not, Brot und Brunst!",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("<html><body><p>x</p></body></html>", r"the root element is <html>, not a TEI text's <TEI>"),
        ('<teiCorpus xmlns="http://www.tei-c.org/ns/1.0"><TEI/></teiCorpus>', "a teiCorpus holds several texts"),
        ("<TEI><text>", "not a readable TEI file"),
        ('<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/></TEI>', r"has no <text> or <body>"),
        (tei("<body><div><pb n='1'/></div></body>"), "the TEI text has no text paragraphs"),
        (
            tei("<body><p>x</p></body>", encoding="klingon"),
            r"declares an unknown encoding: klingon\); pass --encoding",
        ),
    ],
)
def test_a_file_that_is_no_tei_text_is_an_error_that_names_it(tmp_path, content, message):
    with pytest.raises(NarrativeError, match=message):
        load_narrative(write(tmp_path, "bad.xml", content))


# CLiGS's textbox (Alarcón's El niño de la bola, ne0175) joins a chapter's number and its name with a colon.
CLIGS = """<body><div type="part"><head>LIBRO PRIMERO.: EN LO ALTO DE LA SIERRA.</head>
  <div n="1" type="chapter"><head>I.: SINFONÍA.</head><p>Entre la vetusta Ciudad y la Capital.</p></div>
  <div n="2" type="chapter"><head>II.: NUESTRO HÉROE.</head><p>Manuel Venegas era huérfano.</p></div></div>
<div type="part"><head>LIBRO II.: ANTECEDENTES.</head>
  <div n="3" type="chapter"><head>- I -: Escenario</head><p>El pueblo dormía.</p></div>
  <div n="4" type="chapter"><head>II-Popery and the bench</head><p>Don Trinidad Muley habló.</p></div></div>
<div type="part"><head>EPÍLOGO.:</head>
  <div n="5" type="chapter"><head>I.: LLEGADA DE DESAIX Á MARENGO.</head><p>Era el mes de junio.</p></div>
  <div n="6" type="chapter"><head>II.: LA RIFA.</head><p>La rifa se hizo al fin.</p></div></div></body>"""


def test_a_heading_that_sets_its_number_apart_with_a_mark_opens_its_chapter(tmp_path):
    """ "II.: NUESTRO HÉROE.", "- I -: Escenario", "II-Popery" are no headings in running text (a
    title in mixed case after a numeral could be a sentence's first words); marked ones number
    their chapters, which had been taken for their part's name or left out."""
    book = load_narrative(write(tmp_path, "ne0175.xml", tei(CLIGS, title="El niño de la bola")))
    assert [(c.label, c.title) for c in book.chapters] == [
        ("1.1", "I.: SINFONÍA."), ("1.2", "II.: NUESTRO HÉROE."), ("2.1", "- I -: Escenario"),
        ("2.2", "II-Popery and the bench"), ("3.1", "I.: LLEGADA DE DESAIX Á MARENGO."), ("3.2", "II.: LA RIFA."),
    ]  # fmt: skip
    assert book.chapters[4].part == "EPÍLOGO"


def test_a_scene_whose_heading_lists_its_cast_opens_it(tmp_path):
    """A scene's heading in a play of CLiGS's théâtre classique names who is on stage, long and ending
    as a sentence does (Corneille's La Suite du Menteur): still the scene's heading."""
    cast = "SCÈNE III. Dorante, Mélisse, déguisée en servante, cachant son visage sous une coiffe ; Cliton, Lyse."
    scenes = "".join(
        f'<div type="scene"><head>{head}</head><sp><l>Vers {k}.</l></sp></div>'
        for k, head in enumerate(["SCÈNE PREMIÈRE. Dorante, Cliton.", "SCÈNE II. Lyse, Dorante.", cast], 1)
    )
    play = tei(f'<body><div type="act"><head>ACTE I</head>{scenes}</div></body>', title="La Suite du Menteur")
    book = load_narrative(write(tmp_path, "menteur.xml", play))
    assert [(c.label, c.title) for c in book.chapters][2] == ("3", cast) and len(book.chapters) == 3


def test_chapter_divisions_without_heads_are_the_chapters(tmp_path):
    """ELTeC's Con gli occhi chiusi and the Sonatas of Valle-Inclán mark each chapter as a <div
    type="chapter"> with no <head>: 0 chapters before. A letter quoted between a story's paragraphs
    (CLiGS's nd0028) is no chapter."""
    chapters = "".join(
        f'<div type="chapter"><p>{text}</p><p>Domenico contava il denaro.</p></div>'
        for text in ("Usciti dalla trattoria i cuochi.", "Per tutto un inverno, Pietro.", "Masa attendeva.")
    )
    front = '<front><div type="liminal"><p>A mia madre.</p></div></front>'
    book = load_narrative(write(tmp_path, "tozzi.xml", tei(f"{front}<body>{chapters}</body>", title="Con gli occhi")))
    assert [(c.label, c.title, book[c.first_paragraph].text) for c in book.chapters] == [
        ("1", "Chapter 1", "Usciti dalla trattoria i cuochi."), ("2", "Chapter 2", "Per tutto un inverno, Pietro."),
        ("3", "Chapter 3", "Masa attendeva."),
    ]  # fmt: skip
    assert book.paragraphs[0].text == "A mia madre." and book.paragraphs[0].chapter == 0
    noted = f'<body>{chapters}<div type="chapter"><pb n="9"/></div></body><back><note>Nota.</note></back>'
    ending = load_narrative(write(tmp_path, "noted.xml", tei(noted)))  # an empty last division opens no chapter
    assert len(ending.chapters) == 3 and ending.paragraphs[-1].text == "Nota."
    letter = "<div><head>Histoire d'un mort</head><p>Un matin.</p><div><p>« J'ai lu »</p></div><p>Je sonnai.</p></div>"
    story = load_narrative(write(tmp_path, "nd0028.xml", tei(f"<body>{letter}</body>")))
    assert [c.title for c in story.chapters] == ["Histoire d'un mort"]


BOITO = "(Queste annotazioni sono tolte dall'albo di un artista pedante)"


def test_a_titled_division_after_the_last_numbered_chapter_is_a_chapter_of_its_own(tmp_path):
    """Le Captain Cap (ELTeC) closes its second part with "Breuvages", its cocktails, after chapter
    XLVII; Boito's stories (ELTeC) end in two that head their division twice, titled and unnumbered.
    A TEI body's division is no edition's back matter (notes and colophon stand in <back>): each is a
    chapter, numbered on after the parts ("3"), where it had been the last chapter's text."""
    prose = "<p>Le Captain Cap versa dans un grand verre un peu de chaque flacon qui se trouvait là.</p>"
    heads = ("Chapitre I -- Où l'on fait connaissance.", "Chapitre II -- Où il est question du porc.")
    first = "".join(f'<div type="chapter"><head>{head}</head>{prose}</div>' for head in heads)
    body = (
        f'<body><div type="group"><head>Première partie</head>{first}</div>'
        f'<div type="group"><head>Deuxième partie</head><div type="chapter"><head>{heads[0]}</head>{prose}</div>'
        f'<div type="chapter"><head>Breuvages</head>{prose}{prose}</div></div>'
        f'<div type="group"><div type="chapter"><head>IL COLORE A VENEZIA</head><head>{BOITO}</head>'
        f"{prose}</div></div></body>"
        '<back><div type="notes"><head>Notes</head><p>(1) Glace pilée, quelques gouttes d\'angustura.</p></div></back>'
    )
    book = load_narrative(write(tmp_path, "allais.xml", tei(body, title="Le Captain Cap")))
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1.1", f"Première partie {heads[0]}", "Première partie"), ("1.2", heads[1], "Première partie"),
        ("2.1", f"Deuxième partie {heads[0]}", "Deuxième partie"), ("3", "Breuvages", None),
        ("4", f"IL COLORE A VENEZIA {BOITO}", None),
    ]  # fmt: skip
    last = [p.text for p in book.paragraphs if p.chapter == 5]
    assert last[-2:] == ["Notes", "(1) Glace pilée, quelques gouttes d'angustura."]  # the notes follow the book
    # the titles of a part whose headings carry no number stay its chapters (CLiGS's rp0023: "3ª PARTE")
    stories = "".join(f"<div><head>{name}</head>{prose}</div>" for name in ("A luz não se extingue", "Santa Eponina"))
    third = f"<div><head>3ª PARTE</head><head>Os seus papéis</head>{stories}</div>"
    parts = f"<body><div><head>1ª PARTE</head>{first}</div>{third}</body>"
    papers = load_narrative(write(tmp_path, "rp0023.xml", tei(parts, title="A Morte do Palhaço")))
    assert [(c.title, c.part) for c in papers.chapters][-2:] == [
        ("A luz não se extingue", "3ª PARTE"), ("Santa Eponina", "3ª PARTE"),
    ]  # fmt: skip


def test_a_collection_s_stories_of_one_piece_between_stories_of_chapters_are_chapters(tmp_path):
    """ELTeC's Chandeneux and Judith Gautier collect stories, some in numbered chapters and some in one piece,
    in one flat run of divisions: "Les Filles du colonel" had been the end of the story before's last chapter.
    A title with an elided article ("L'Étoile aux cheveux d'or") is no chapter numbered L, 50, and a story's
    title over its subtitle names its part with it ("Le Livre de Thot", "Conte magique": the part had been the
    subtitle alone)."""
    prose = "<p>Le capitaine rentra ce soir-là, fatigué, et sa femme l'attendait au salon depuis une heure.</p>"

    def story(title: str, chapters: int) -> str:
        if not chapters:
            return f'<div type="chapter"><head>{title}</head>{prose * 2}</div>'
        numerals = ["I", "II", "III"][:chapters]
        heads = "".join(f"<head>{line}</head>" for line in title.split(" / "))
        first = f'<div type="chapter">{heads}<head>I</head>{prose}</div>'
        return first + "".join(f'<div type="chapter"><head>{n}</head>{prose}</div>' for n in numerals[1:])

    stories = [("La Femme du capitaine", 2), ("Les Filles du colonel", 0), ("L'Étoile aux cheveux d'or", 0)]
    stories += [("Le Livre de Thot / Conte magique", 3)]  # a title over the story's subtitle
    body = "<body>" + "".join(story(title, chapters) for title, chapters in stories) + "</body>"
    book = load_narrative(write(tmp_path, "chandeneux.xml", tei(body, title="Contes")))
    thot = "Le Livre de Thot Conte magique"
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1.1", "I", "La Femme du capitaine"), ("1.2", "II", "La Femme du capitaine"),
        ("2", "Les Filles du colonel", None), ("3", "L'Étoile aux cheveux d'or", None),
        ("4.1", "I", thot), ("4.2", "II", thot), ("4.3", "III", thot),
    ]  # fmt: skip
    assert [len(c.paragraph_ids) for c in book.chapters[2:4]] == [3, 3]  # each its title and its text
    assert book[book.chapters[4].first_paragraph].text == "Le Livre de Thot"


LONG_NAME = "In What Wise Birdalone Was Clad, and How She Went Her Ways from the Isle of Increase Unsought."


def test_a_headless_division_opening_with_a_chapter_heading_is_headed_by_it(tmp_path):
    """ELTeC's The Water of the Wondrous Isles heads its first chapter and sets the others' headings
    as their first paragraph, names of a line and more among them (6 chapters read before, its parts
    alone; its 109 now); a contents list in a headless division (Malombra's fourth part: "Capitolo I.
    …", "Capitolo II. …") heads nothing."""
    chapters = "".join(
        f'<div type="chapter"><p>Chapter {n} ~ {name}</p><p>Four days they wended the wood.</p></div>'
        for n, name in (("II", "Now Shall Be Told of the House"), ("VIII", LONG_NAME))
    )
    group = (
        '<body><div type="group"><head>The First Part: Of the House of Captivity</head>'
        '<div type="chapter"><head>Chapter I ~ Catch at Utterhay</head><p>Whilom, as tells the tale.</p></div>'
        f'{chapters}<div type="chapter"><p>Capitolo I. Lo so</p><p>Capitolo II. Un mistero</p></div></div></body>'
    )
    book = load_narrative(write(tmp_path, "morris.xml", tei(group, title="The Water of the Wondrous Isles")))
    assert [(c.label, c.title) for c in book.chapters] == [
        ("1", "Chapter I ~ Catch at Utterhay"), ("2", "Chapter II ~ Now Shall Be Told of the House"),
        ("8", f"Chapter VIII ~ {LONG_NAME}"),
    ]  # fmt: skip
    assert book[book.chapters[-1].last_paragraph].text == "Capitolo II. Un mistero"


# Effi Briest's first sentence in the Deutsches Textarchiv's layout (its "DTA-Basisformat"): Fraktur's long s,
# the word-break hyphen "¬" before a line break, a running head and a page break inside a word, an
# initial set apart, a printer's error beside its correction and an abbreviation beside its expansion.
DTA = """<body><div n="1" type="chapter"><head>Erſtes Kapitel.</head>
<p><hi rendition="#in">I</hi>n Front des ſchon ſeit Kurfürſt Georg Wil¬<lb/>
helm von der Familie von Brieſt bewohnten Herren¬<lb/>
<fw type="header" place="top">Effi Brieſt.</fw><pb n="2"/>
hauſes zu Hohen-Cremmen fiel heller Sonnenſchein<lb/>
auf die <choice><sic>mittagsſtile</sic><corr>mittagsſtille</corr></choice> Dorfſtraße
<choice><abbr>u.</abbr><expan>und</expan></choice> den Park.</p></div>
<div n="2" type="chapter"><head>Zweites Kapitel.</head><p>Effi war noch keine Stunde fort.</p></div></body>"""


def test_a_dta_text_reads_its_broken_words_whole_and_its_edition_s_readings(tmp_path):
    """A word the printer broke at a line's end ("Wil¬<lb/>helm") is one word, across a running head
    and a page break too (it had been "Wil¬ helm", which no search for Wilhelm finds); of a
    <choice>, the edition's correction and expansion are read, not both halves run together; "Erſtes
    Kapitel" is chapter 1. ELTeC's Portuguese novels keep some such hyphens as "has¬ teada"."""
    book = load_narrative(write(tmp_path, "fontane_effibriest_1896.xml", tei(DTA, title="Effi Briest")))
    assert book.paragraphs[1].text == (
        "In Front des ſchon ſeit Kurfürſt Georg Wilhelm von der Familie von Brieſt bewohnten Herrenhauſes zu "
        "Hohen-Cremmen fiel heller Sonnenſchein auf die mittagsſtille Dorfſtraße und den Park."
    )
    assert [c.label for c in book.chapters] == ["1", "2"]
    margarida = tei("<body><div><head>I</head><p>acercou-se da bandeira has¬ teada na Ilha.</p></div></body>")
    assert load_narrative(write(tmp_path, "margarida.xml", margarida)).paragraphs[1].text.endswith("hasteada na Ilha.")


def test_a_token_annotated_text_reads_its_anonymous_blocks_as_paragraphs_of_spaced_words(tmp_path):
    """CLiGS's textbox sets each word of its annotated novellas in a <w>, with no space between them, inside
    <ab><s>: each word had become a paragraph of its own (11,484 for one novella)."""
    words = ["L'ora", "pericolosa", "non", "è", "l'ora", "del", "confessionale", ",", "quando", "(", "fuori", ")", "."]
    tokens = "".join(f'<w lemma="{w.lower()}" cligs:tag="X">{w}</w>' for w in words)
    body = f'<body><div xml:id="it0018_d1"><ab><s>{tokens}</s></ab><ab><s><w>Salvo</w><pc>!</pc></s></ab></div></body>'
    namespaced = tei(body, title="Efficacia d'una giarrettiera").replace(
        "<TEI ", '<TEI xmlns:cligs="https://cligs.hypotheses.org/ns/cligs" '
    )
    narrative = load_narrative(write(tmp_path, "it0018.xml", namespaced))
    assert [p.text for p in narrative.paragraphs] == [
        "L'ora pericolosa non è l'ora del confessionale, quando (fuori).",
        "Salvo!",
    ]
