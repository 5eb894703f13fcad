"""Build the rows of the Interpreter's optional open-answer GRPO recipe from a benchmark of open
questions with reference answers (GutenQA-style).

    python data_prep/build_open_answer_data.py --benchmark gutenqa --output data/interpreter_open/train.jsonl
"""

import argparse
import sys

from clueweaver.training_data.open_answers import open_answer_rows, write_open_answer_data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", default="gutenqa", help="gutenqa, squality, narrativeqa or jsonl")
    parser.add_argument("--path", help="the benchmark's file or folder (default: under the shared data folder)")
    parser.add_argument("--split", help="a split or subset, where the benchmark has them")
    parser.add_argument("--limit", type=int, help="only the first N items")
    parser.add_argument("--preset", default="detectiveqa", help="packing preset of the evidence packets")
    parser.add_argument("--encoder", default=None, help="dense encoder of the segmenter (default: BM25 alone)")
    parser.add_argument("--output", default="data/interpreter_open/train.jsonl")
    args = parser.parse_args(argv)
    rows = open_answer_rows(
        args.benchmark, args.path, split=args.split, limit=args.limit, preset=args.preset, encoder=args.encoder
    )
    if not rows:
        print(f"{args.benchmark}: no open question with reference answers", file=sys.stderr)
        return 2
    print(f"{len(rows)} rows -> {write_open_answer_data(rows, args.output)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
