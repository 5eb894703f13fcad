"""GRPO training data for the Finder and the Interpreter, built with inference's own segmenter
(``clueweaver.segments.segmenter``), prompts (``clueweaver.protocol.prompts``) and packer
(``clueweaver.segments.packing``), so a model is trained on exactly what it is asked at serving time.

Entry points: ``build_finder_dataset(FinderDataConfig)`` and
``build_interpreter_dataset(InterpreterDataConfig)`` (scripts: ``data_prep/build_*_data.py``).
"""

from clueweaver.training_data.common import DatasetBuild, PromptTokenCounter, ReadingCase, SourceConfig, TeacherConfig
from clueweaver.training_data.finder import FINDER_SCHEMA, FinderDataConfig, build_finder_dataset, build_finder_rows
from clueweaver.training_data.hard_cases import HardCaseConfig, HardCaseMiner, read_hard_items
from clueweaver.training_data.interpreter import (
    INTERPRETER_SCHEMA,
    InterpreterDataConfig,
    SyntheticConfig,
    build_interpreter_dataset,
    build_interpreter_rows,
)
from clueweaver.training_data.labels import TeacherLabeler

__all__ = [
    "FINDER_SCHEMA",
    "INTERPRETER_SCHEMA",
    "DatasetBuild",
    "FinderDataConfig",
    "HardCaseConfig",
    "HardCaseMiner",
    "InterpreterDataConfig",
    "PromptTokenCounter",
    "ReadingCase",
    "SourceConfig",
    "SyntheticConfig",
    "TeacherConfig",
    "TeacherLabeler",
    "build_finder_dataset",
    "build_finder_rows",
    "build_interpreter_dataset",
    "build_interpreter_rows",
    "read_hard_items",
]
