"""Localisation: locale files, CLDR's plural rules and number formats, ICU messages.

Rooms: :mod:`.plural` (CLDR's plural rules, through Babel), :mod:`.language`
(how a language writes numbers, from CLDR), :mod:`.negotiate` (which language
to speak), :mod:`.messages` (parse once, format many), :mod:`.catalog` (locale
files merged into one language's texts, with English behind it), :mod:`.names`
(names in battles per language), :mod:`.check` (``stratagem i18n check``),
:mod:`.engine_keys` (the keys the engine's code uses, found in it),
:mod:`.exchange` (PO and XLIFF). How to translate: docs/translating.md.
"""

from __future__ import annotations

from stratagem.i18n.catalog import (
    ENGINE_LOCALES,
    Catalog,
    Translator,
    engine_catalog,
    load_catalog,
)
from stratagem.i18n.messages import Message, MessageSyntaxError, parse_message
from stratagem.i18n.plural import PluralRule

__all__ = [
    "ENGINE_LOCALES",
    "Catalog",
    "Message",
    "MessageSyntaxError",
    "PluralRule",
    "Translator",
    "engine_catalog",
    "load_catalog",
    "parse_message",
]
