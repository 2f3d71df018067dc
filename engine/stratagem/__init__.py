"""Stratagem: a declarative rules-as-data engine for tabletop mass battles."""

__version__ = "0.1.0"
