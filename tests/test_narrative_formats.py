"""Narrative features the benchmark loaders rely on: texts without blank lines between
paragraphs, single HTML documents, and the normalization used to find strings in paragraphs."""

from clueweaver.books.narrative import from_html, from_text, normalize_text

WRAPPED = """THE QUIET HARBOUR
By A. N. Author
Nell had kept the light on Gull Point for eleven years, and in all that
time no ship had foundered on the reef below her tower. She trimmed the
wick at dusk and again at midnight.
"You will ruin your eyes," the harbourmaster told her.
She laughed at him. The lamp was brighter than any star, she said, and a
star had never yet ruined anybody's eyes, though it had guided a great
many sailors home across the dark water of the bay.
That winter the supply boat did not come for three weeks, and the oil
ran low.
"""


def test_hard_wrapped_text_without_blank_lines_is_cut_at_paragraph_ends():
    narrative = from_text(WRAPPED * 3, title="harbour")  # many lines, no blank line between paragraphs
    texts = [p.text for p in narrative.paragraphs]
    assert texts[0] == "THE QUIET HARBOUR By A. N. Author"  # short lines with no wider line before them stay joined
    assert texts[1] == (
        "Nell had kept the light on Gull Point for eleven years, and in all that time no ship had "
        "foundered on the reef below her tower. She trimmed the wick at dusk and again at midnight."
    )
    assert texts[2] == '"You will ruin your eyes," the harbourmaster told her.'
    assert texts[3].startswith("She laughed at him.") and texts[3].endswith("dark water of the bay.")
    assert texts[4] == "That winter the supply boat did not come for three weeks, and the oil ran low."
    # after a wide line the short title lines stand alone
    assert texts[5:7] == ["THE QUIET HARBOUR", "By A. N. Author"] and texts[7:11] == texts[1:5]
    assert len(narrative) == 17


def test_one_paragraph_per_line_text_keeps_every_line():
    long_line = "The inspector read the letter twice, " * 10
    text = "\n".join([long_line + "first.", '"Well?" said Holmes.', long_line + "second."])
    assert [p.text for p in from_text(text, title="t").paragraphs] == [
        normalize_text(long_line + "first."),
        '"Well?" said Holmes.',
        normalize_text(long_line + "second."),
    ]


def test_blank_line_paragraphs_are_left_alone():
    text = "CHAPTER I\n\nA short\nwrapped paragraph.\n\nContents\nChapter 1. The Sea\nChapter 2. The Shore"
    assert [p.text for p in from_text(text, title="t").paragraphs] == [
        "CHAPTER I",
        "A short wrapped paragraph.",
        "Contents Chapter 1. The Sea Chapter 2. The Shore",
    ]


def test_html_document_blocks_become_paragraphs_and_headings_chapters():
    html = (
        "<html><body><h1>THE TIDE</h1><p>Belgian<br/>politics were <i>dull</i>.</p>"
        "<div><p>Second.</p></div><h2>Part Two</h2><p>Third.</p></body></html>"
    )
    narrative = from_html(html, title="The Tide", source="x.html")
    assert [p.text for p in narrative.paragraphs] == [
        "THE TIDE",
        "Belgian politics were dull .",
        "Second.",
        "Part Two",
        "Third.",
    ]
    assert [(c.title, c.first_paragraph) for c in narrative.chapters] == [("THE TIDE", 0), ("Part Two", 3)]


def test_normalize_text_matches_stored_paragraphs():
    assert normalize_text("  bell\n rang\t twice ") == "bell rang twice"
    assert normalize_text("cafe\u0301") == "caf\u00e9"
