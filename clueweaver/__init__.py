"""ClueWeaver: compact reader agents for long narratives.

Importing the package stays light: torch, transformers, vLLM and the other heavy dependencies are
imported by the modules that use them.
"""

from clueweaver.books.narrative import Chapter, Narrative, NarrativeError, Paragraph, load_narrative
from clueweaver.protocol.question import Question, QuestionError

__version__ = "0.1.0"

__all__ = [
    "Chapter",
    "Narrative",
    "NarrativeError",
    "Paragraph",
    "Question",
    "QuestionError",
    "load_narrative",
]
