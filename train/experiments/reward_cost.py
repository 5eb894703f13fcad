"""The reward-cost benchmark: every Interpreter reward component vs the total alone, on 64
completions over a ~29k-character packet (see clueweaver.training.reward_cost).

    python train/experiments/reward_cost.py [--completions 64] [--packet-chars 29000] [--repeats 9]
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clueweaver.training.reward_cost import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
