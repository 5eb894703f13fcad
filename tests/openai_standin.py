"""The stand-in OpenAI-compatible server of the tests lives with the benchmark that also uses it."""

from clueweaver.measure.openai_standin import OpenAIStandIn

__all__ = ["OpenAIStandIn"]
