"""Algorithm 1 as a product: segment, find (one batched Finder call), pack, interpret, re-check.

``ClueWeaver.answer(narrative, question)`` returns a ``Result``: the answer, its paragraph-cited
rationale, the citations that are valid against the evidence packet, and a JSON-serializable
trace of every stage (the server, the evaluation harness and ``clueweaver ask`` all read it).

Robustness rules, applied everywhere because models misbehave and one bad output must not sink a
question:
- model output never raises; the trace says what could not be read;
- a Finder output that cannot be read keeps its segment (recall first: a dropped segment is never
  read again, while an extra one is only filtered by the packer);
- when the Finder keeps nothing, the retrieved segments are packed as in the no-Finder ablation
  (the Interpreter must commit to an answer, and retrieval's best guess beats an empty packet);
- an Interpreter output without a legal answer is retried once with a format reminder; then the
  answer is a flagged fallback (the first label), never a silent guess;
- prompts that do not fit the model's window come back flagged by the backend and are reported
  in ``trace["warnings"]``, never truncated.

``DirectReader`` is the paper's end-to-end baseline: the head of the book cut to a token-exact
input budget, the Interpreter prompt over it, the same parser.

The modules: ``config`` (PipelineConfig), ``records`` (the Finder's verdicts, the Interpreter's
passes, ``Result``), ``steps`` (the question and reading-limit checks, one Interpreter pass),
``trace`` (stage timings, the trace's head and warnings), ``reader`` (ClueWeaver), ``direct``
(DirectReader) and ``render`` (``format_result``).
"""

from clueweaver.pipeline.algorithm import STAGES, ClueWeaver
from clueweaver.pipeline.config import PipelineConfig
from clueweaver.pipeline.direct import (
    DIRECT_INPUT_BUDGETS,
    DIRECT_OUTPUT_TOKENS,
    DIRECT_STAGES,
    DirectReader,
    Truncation,
)
from clueweaver.pipeline.render import format_result
from clueweaver.pipeline.results import (
    NOT_RUN,
    PARSED,
    PROMPT_TOO_LONG,
    UNPARSEABLE,
    Attempt,
    FinderStep,
    FinderVerdict,
    Interpretation,
    InterpreterPass,
    Result,
    with_total,
)
from clueweaver.pipeline.steps import check_answerable, interpreter_pass, with_format_reminder
from clueweaver.pipeline.trace import TRACE_VERSION, ProgressCallback

__all__ = [
    "DIRECT_INPUT_BUDGETS",
    "DIRECT_OUTPUT_TOKENS",
    "DIRECT_STAGES",
    "NOT_RUN",
    "PARSED",
    "PROMPT_TOO_LONG",
    "STAGES",
    "TRACE_VERSION",
    "UNPARSEABLE",
    "Attempt",
    "ClueWeaver",
    "DirectReader",
    "FinderStep",
    "FinderVerdict",
    "Interpretation",
    "InterpreterPass",
    "PipelineConfig",
    "ProgressCallback",
    "Result",
    "Truncation",
    "check_answerable",
    "format_result",
    "interpreter_pass",
    "with_format_reminder",
    "with_total",
]
