"""Localisation: locale files, plural rules as data, and a small ICU MessageFormat subset.

Rooms: :mod:`.plural` (a locale's ``plural:`` rule), :mod:`.language` (how a
language writes numbers), :mod:`.messages` (parse once, format many),
:mod:`.catalog` (locale files merged into one language's texts, with English
behind it), :mod:`.check` (``stratagem i18n check``), :mod:`.engine_keys`
(the keys the engine itself uses). How to translate: docs/translating.md.
"""

from __future__ import annotations

from stratagem.i18n.catalog import (
    ENGINE_LOCALES,
    Catalog,
    Translator,
    engine_catalog,
    load_catalog,
)
from stratagem.i18n.engine_keys import ENGINE_KEYS, ENGINE_MESSAGES
from stratagem.i18n.messages import Message, MessageSyntaxError, parse_message
from stratagem.i18n.plural import PluralRule

__all__ = [
    "ENGINE_KEYS",
    "ENGINE_LOCALES",
    "ENGINE_MESSAGES",
    "Catalog",
    "Message",
    "MessageSyntaxError",
    "PluralRule",
    "Translator",
    "engine_catalog",
    "load_catalog",
    "parse_message",
]
