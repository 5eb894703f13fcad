"""Hand-checked weak labels: the audit file, and the precision of the rows of a build it covers.

``docs/finder_weak_label_audit.jsonl`` holds one verdict per Finder row a person checked by reading
the story (the clue, the segment, the gold paragraphs), one JSON object a line: ``example_id``,
``label``, ``gold_ids``, ``verdict`` (``correct`` or ``wrong``), ``note``, and the weak-label
settings of the build it was drawn from (``settings``). A row is correct when its label is right
and, for YES, a gold paragraph carries the clue (the reward pays citing the gold IDs). The Finder's
dataset card reports the precision over the audited rows that are in the build, matched by example
ID, label and gold IDs (a row whose gold IDs changed was not checked as it now is), with the
Wilson 95% lower bound beside it: a precision read from a small sample says little (25 of 25
correct leaves the true precision anywhere above 87%). A build whose audited precision is below
``MIN_PRECISION`` or rests on fewer than ``MIN_CHECKED`` hand-checked rows says so in a warning
(``audit_warning``). How the audit was drawn and read is in ``docs/finder_weak_labels.md``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

from clueweaver.core.errors import ClueWeaverError
from clueweaver.core.jsonl import jsonl_lines

WEAK_LABEL_AUDIT = "docs/finder_weak_label_audit.jsonl"
VERDICTS = ("correct", "wrong")
MIN_PRECISION = 0.90  # what the weak rows that enter training must reach (issue 15)
MIN_CHECKED = 50  # hand-checked rows below which a precision is not evidence of that
WILSON_Z = 1.96  # 95% confidence
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
    for number, line in enumerate(jsonl_lines(Path(path).read_text(encoding="utf-8")), start=1):
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
            "lower_bound": None if not total else round(wilson_lower_bound(correct, total), 3),
        }
    return summary


def wilson_lower_bound(correct: int, total: int, z: float = WILSON_Z) -> float:
    """The lower end of the Wilson score interval of ``correct`` of ``total``: the precision the
    sample shows at least, at the confidence ``z`` stands for; unlike the ratio it widens as the
    sample shrinks, and it stays sound at 0 or ``total`` correct."""
    ratio, spread = correct / total, z * z / total
    margin = z * math.sqrt(ratio * (1 - ratio) / total + spread / (4 * total))
    return (ratio + spread / 2 - margin) / (1 + spread)


def audit_warning(summary: dict | None, weak_rows: int) -> str | None:
    """A warning when a build's ``weak_rows`` weak rows are not shown precise enough: fewer than
    ``MIN_CHECKED`` of them hand-checked (none when no audit was read) or an audited precision below
    ``MIN_PRECISION``; None otherwise, and for a build without weak rows."""
    if not weak_rows:
        return None
    audited = summary["all"] if summary and not summary.get("missing") else {"checked": 0}
    checked, precision, bound = audited["checked"], audited.get("precision"), audited.get("lower_bound")
    if checked >= MIN_CHECKED and precision >= MIN_PRECISION:
        return None
    found = (
        f", {audited['correct']} correct: precision {precision:.1%}, Wilson 95% lower bound {bound:.1%}"
        if checked
        else " (no audit was read)"
    )
    return (
        f"WARNING: weak labels not shown to be {MIN_PRECISION:.0%} precise: {checked} of this build's {weak_rows} "
        f"weak rows were hand-checked{found}; a build needs at least {MIN_CHECKED} checked and {MIN_PRECISION:.0%} "
        "correct. Check more rows (docs/finder_weak_labels.md) or leave bmds out of sources."
    )


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
    precision, bound = summary["all"]["precision"], summary["all"]["lower_bound"]
    shown = "**n/a**" if precision is None else f"**{precision:.1%}** (Wilson 95% lower bound {bound:.1%})"
    return (
        f"Hand check (`{summary['audit']}`, {summary['audited_entries']} verdicts, read from the stories; method in "
        f"docs/finder_weak_labels.md): {summary['all']['checked']} of this build's {summary['weak_rows']} weak rows "
        f"were checked; {shown} precise ({'; '.join(parts)} correct)."
    )
