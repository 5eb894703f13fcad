"""What is asked: a multiple-choice question or a TRUE/FALSE claim, with its answer space."""

from __future__ import annotations

from dataclasses import dataclass, field

OPTION_LABELS = ("A", "B", "C", "D")
CLAIM_LABELS = ("TRUE", "FALSE")


class QuestionError(ValueError):
    """A question that cannot be asked (no text, bad option labels)."""


@dataclass(frozen=True)
class Question:
    """``kind`` is "mcq" (options A-D) or "claim" (TRUE/FALSE). Frozen so it can key caches."""

    text: str
    options: dict[str, str] = field(default_factory=dict)
    kind: str = "mcq"

    def __post_init__(self) -> None:
        if not self.text or not self.text.strip():
            raise QuestionError("the question or claim is empty")
        if self.kind not in ("mcq", "claim"):
            raise QuestionError(f"unknown question kind {self.kind!r}; use 'mcq' or 'claim'")
        if self.kind == "claim" and self.options:
            raise QuestionError("a claim takes no options")
        if self.kind == "mcq":
            if len(self.options) < 2:
                raise QuestionError("a multiple-choice question needs at least two options")
            bad = [k for k in self.options if k not in OPTION_LABELS]
            if bad:
                raise QuestionError(f"option labels must be among {', '.join(OPTION_LABELS)}; got {', '.join(bad)}")
            empty = [k for k, v in self.options.items() if not str(v).strip()]
            if empty:
                raise QuestionError(f"option {', '.join(empty)} has no text")
        object.__setattr__(self, "options", dict(sorted(self.options.items())))

    def __hash__(self) -> int:
        return hash((self.text, tuple(self.options.items()), self.kind))

    @classmethod
    def claim(cls, text: str) -> "Question":
        return cls(text=text, kind="claim")

    @property
    def is_claim(self) -> bool:
        return self.kind == "claim"

    @property
    def labels(self) -> tuple[str, ...]:
        """The legal answers."""
        return CLAIM_LABELS if self.is_claim else tuple(self.options)

    def queries(self) -> list[str]:
        """Retrieval queries: the question (or claim) and, for each option, question plus option,
        because an option often carries the clue words the question lacks."""
        if self.is_claim:
            return [self.text]
        return [self.text] + [f"{self.text} {option}" for option in self.options.values()]
