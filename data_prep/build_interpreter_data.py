"""Build the Interpreter's GRPO dataset from benchmark data.

    python data_prep/build_interpreter_data.py --config configs/data/interpreter.yaml [--FIELD VALUE ...]

Any field of ``clueweaver.training_data.InterpreterDataConfig`` can be overridden (``--num-samples
500``, ``--predictions '[runs/base/predictions.jsonl]'``, ``--synthetic.weight 0.3``); see --help.
"""

import sys

from clueweaver.training_data import InterpreterDataConfig, build_interpreter_dataset
from clueweaver.training_data.common import run_build_script


def main(argv: list[str] | None = None) -> int:
    return run_build_script(InterpreterDataConfig, build_interpreter_dataset, argv, __doc__)


if __name__ == "__main__":
    sys.exit(main())
