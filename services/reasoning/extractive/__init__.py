"""The offline ``extractive`` engine (see ``engine.py``)."""

from services.reasoning.extractive.engine import ExtractiveLLM

__all__ = ["ExtractiveLLM"]
