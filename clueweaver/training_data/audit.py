"""Hand-checked weak labels: the audit file, and the precision of the rows of a build it covers.

``docs/finder_weak_label_audit.jsonl`` holds one verdict per Finder row a person checked by reading
the story (the clue, the segment, the gold paragraphs), one JSON object a line: ``example_id``,
``label``, ``gold_ids``, ``verdict`` (``correct`` or ``wrong``), ``note``, and the weak-label
settings of the build it was drawn from (``settings``). A row is correct when its label is right
and, for YES, a gold paragraph carries the clue (the reward pays citing the gold IDs). The Finder's
dataset card reports the precision over the audited rows that are in the build, matched by example
ID, label and gold IDs (a row whose gold IDs changed was not checked as it now is). How the audit
was drawn and read is in ``docs/finder_weak_labels.md``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from clueweaver.errors import ClueWeaverError

WEAK_LABEL_AUDIT = "docs/finder_weak_label_audit.jsonl"
VERDICTS = ("correct", "wrong")
_REPO_ROOT = Path(__file__).resolve().parents[2]


class AuditError(ClueWeaverError, ValueError):
    """An audit file that cannot be read; names the file and line."""


def resolve_audit(path: str) -> Path:
    """``path`` as given, or under the repository when relative and absent from the working folder."""
    given = Path(path)
    return given if given.is_absolute() or given.exists() else _REPO_ROOT / given


def load_audit(path: str | Path) -> list[dict]:
    """The verdicts of an audit file (see the module doc)."""
    entries = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            missing = [k for k in ("example_id", "label", "gold_ids", "verdict") if k not in entry]
            if missing or entry["verdict"] not in VERDICTS:
                raise AuditError(f"needs example_id, label, gold_ids and a verdict of {', '.join(VERDICTS)}")
        except (json.JSONDecodeError, AuditError) as exc:
            raise AuditError(f"{path}, line {number}: {exc}") from None
        entries.append(entry)
    return entries


def _key(row: dict) -> tuple:
    return row["example_id"], row["label"], tuple(sorted(row["gold_ids"]))


def audit_summary(rows: list[dict], entries: list[dict], source: str) -> dict:
    """Precision of the audited rows among ``rows`` (the weak rows of a build), per label."""
    verdicts = {_key(entry): entry["verdict"] for entry in entries}
    checked = Counter((row["label"], verdicts[_key(row)]) for row in rows if _key(row) in verdicts)
    summary = {"audit": source, "audited_entries": len(entries), "weak_rows": len(rows)}
    for label in ("YES", "NO", "all"):
        correct = sum(n for (lab, verdict), n in checked.items() if verdict == "correct" and label in (lab, "all"))
        total = sum(n for (lab, _), n in checked.items() if label in (lab, "all"))
        summary[label] = {
            "checked": total,
            "correct": correct,
            "precision": round(correct / total, 3) if total else None,
        }
    return summary


def audit_section(summary: dict | None) -> str:
    """The dataset card's account of the hand check."""
    if summary is None:
        return "No weak-label audit was configured (`weak_label_audit: null`), so the weak rows' precision is unknown."
    if summary.get("missing"):
        return f"The audit file `{summary['audit']}` was not found, so the weak rows' precision is unknown."
    parts = [
        f"{summary[label]['correct']} of {summary[label]['checked']} {name}"
        for label, name in (("YES", "positives"), ("NO", "negatives"))
    ]
    precision = summary["all"]["precision"]
    shown = "n/a" if precision is None else f"{precision:.1%}"
    return (
        f"Hand check (`{summary['audit']}`, {summary['audited_entries']} verdicts, read from the stories; method in "
        f"docs/finder_weak_labels.md): {summary['all']['checked']} of this build's {summary['weak_rows']} weak rows "
        f"were checked; **{shown}** precise ({'; '.join(parts)} correct)."
    )
