"""Plural categories from Unicode CLDR, through Babel: no locale file types a rule.

``plural_rule("ru").category("21")`` → ``'one'``. The number is given *as
shown* (ASCII, ``.`` as the point, after rounding), so ``1.5`` and ``1.50``
may differ as CLDR says they do. A language Babel does not know (a made-up
tag) takes the rules of its base language, else CLDR's root (every number
``other``).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Babel is imported when a rule or a locale is first needed
    from babel import Locale

#: The category names CLDR uses, in CLDR order.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")

#: Categories cached per shown number; bounded so a long run cannot grow it without end.
_CACHE_LIMIT = 4096


@lru_cache(maxsize=64)
def babel_locale(code: str) -> Locale:
    """Babel's locale for a language tag (``pt-BR``, ``de_AT``), its base language's, or root."""
    from babel import Locale, UnknownLocaleError

    tag = code.replace("-", "_")
    while tag:
        try:
            return Locale.parse(tag)
        except (UnknownLocaleError, ValueError, TypeError):
            tag = tag.rpartition("_")[0]
    return Locale("root")


class PluralRule:
    """A language's CLDR plural rule: ``rule.category("21")`` → ``'one'``.

    CLDR's rule is read on first use (a command that shows no number, such as
    ``stratagem --help``, never loads Babel's locale data)."""

    __slots__ = ("_cache", "_categories", "_form", "language")

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self._form: Any = None  # Babel's rule: called with a number, it names the category
        self._categories: tuple[str, ...] | None = None
        self._cache: dict[str, str] = {}

    def _rule(self) -> Any:
        if self._form is None:
            self._form = babel_locale(self.language).plural_form
        return self._form

    @property
    def categories(self) -> tuple[str, ...]:
        """Every category the language uses, in CLDR order."""
        if self._categories is None:
            tags = set(self._rule().tags) | {"other"}
            self._categories = tuple(c for c in CATEGORIES if c in tags)
        return self._categories

    def category(self, shown: str) -> str:
        """The category of a number shown as ``shown`` (``"21"``, ``"1.5"``); never raises."""
        cached = self._cache.get(shown)
        if cached is not None:
            return cached
        try:
            result = str(self._rule()(abs(Decimal(shown))))
        except (InvalidOperation, ArithmeticError, TypeError, ValueError):
            result = "other"
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[shown] = result
        return result

    def __repr__(self) -> str:
        return f"PluralRule({self.language!r})"


@lru_cache(maxsize=64)
def plural_rule(language: str) -> PluralRule:
    """The (shared) plural rule of ``language``."""
    return PluralRule(language)
