"""Compiling rule files into the model's frozen data, through one pipeline
(:mod:`stratagem.compile.pipeline`) that every command shares."""

from stratagem.compile.pipeline import (
    Pipeline,
    load_ruleset,
    ruleset_for_document,
    validate_file,
)

__all__ = ["Pipeline", "load_ruleset", "ruleset_for_document", "validate_file"]
