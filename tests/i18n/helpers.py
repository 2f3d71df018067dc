"""Shared bits of the i18n tests: the shipped languages and a command-line runner."""

from __future__ import annotations

from pathlib import Path

from stratagem.i18n.catalog import ENGINE_LOCALES, read_locale
from stratagem.i18n.language import Language

FIXTURES = Path(__file__).parent / "fixtures"


def shipped_language(code: str) -> Language:
    """A shipped language: its name from the engine's locale file, its rules from CLDR."""
    locale = read_locale(ENGINE_LOCALES / f"{code}.yaml")
    return Language(code, locale.name or "")


def run_i18n(argv: list[str]) -> int:
    """Run ``stratagem i18n ...`` through the real command line; returns the exit status."""
    from stratagem.cli import main

    return main(["i18n", *argv])
