"""GRPO training of the Finder with TRL's GRPOTrainer.

    accelerate launch [--config_file configs/accelerate/zero3.yaml] train/finder_grpo.py \
        --config configs/finder/qwen3-4b-grpo.yaml [--FIELD VALUE ...]

Any field of the recipe (clueweaver.training.GRPOScriptArguments, TRL's GRPOConfig and ModelConfig)
can be overridden on the command line; the logic lives in the package clueweaver/training/.
"""

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("clueweaver") is None:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clueweaver.training import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("finder"))
