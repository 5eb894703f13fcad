"""Build the Finder's GRPO dataset from benchmark data.

    python data_prep/build_finder_data.py --config configs/data/finder.yaml [--FIELD VALUE ...]

Any field of ``clueweaver.training_data.FinderDataConfig`` can be overridden (``--target-samples
2000``, ``--encoder none``, ``--teacher.backend openai --teacher.model NAME``); see --help.
"""

import sys

from clueweaver.training_data import FinderDataConfig, build_finder_dataset
from clueweaver.training_data.common import run_build_script


def main(argv: list[str] | None = None) -> int:
    return run_build_script(FinderDataConfig, build_finder_dataset, argv, __doc__)


if __name__ == "__main__":
    sys.exit(main())
