"""Which language to speak: ``--lang``, then the environment, matched to the languages there are.

The order, as GNU gettext has it: ``--lang``; ``STRATAGEM_LANG``; ``LANGUAGE``
(a list, ``de_AT:fr``), unless the locale is ``C`` or ``POSIX``; then the
first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set. A tag is read
case-insensitively, with ``_`` or ``-`` (``pt_BR.UTF-8``, ``DE``, ``de-at``),
and falls back from the most to the least specific: ``de-Latn-AT`` tries
``de-Latn-AT``, ``de-AT``, ``de-Latn``, ``de``. The first language with texts
wins; without any, English.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from stratagem.i18n.catalog import FALLBACK_LANGUAGE

#: The variables naming the locale, most binding first.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def normalize_tag(tag: str) -> str:
    """``pt_BR.UTF-8`` → ``pt-BR``, ``DE`` → ``de``, ``zh_hant_tw`` → ``zh-Hant-TW``."""
    base = tag.strip().split(".")[0].split("@")[0].replace("_", "-")
    parts = [part for part in base.split("-") if part]
    if not parts:
        return ""
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            out.append(part.title())
        elif len(part) in (2, 3):
            out.append(part.upper())
        else:
            out.append(part.lower())
    return "-".join(out)


def fallbacks(tag: str) -> list[str]:
    """The tags to try for ``tag``, most specific first: ``de-AT`` → ``de-AT``, ``de``."""
    parts = normalize_tag(tag).split("-")
    if not parts[0]:
        return []
    language, rest = parts[0], parts[1:]
    script = next((p for p in rest if len(p) == 4 and p.isalpha()), None)
    region = next((p for p in rest if p != script and len(p) in (2, 3)), None)
    out = ["-".join(parts)]
    for candidate in (
        [language, region] if region else None,
        [language, script] if script else None,
        [language],
    ):
        if candidate is not None and "-".join(candidate) not in out:
            out.append("-".join(candidate))
    return out


def requested_tags(environ: Mapping[str, str] | None = None) -> list[str]:
    """The languages the environment asks for, in order (``[]`` when it asks for none)."""
    env = os.environ if environ is None else environ
    own = env.get("STRATAGEM_LANG", "").strip()
    locale = next((env[v].strip() for v in LOCALE_VARIABLES if env.get(v, "").strip()), "")
    if locale.split(".")[0].upper() in ("C", "POSIX"):
        return [own] if own else []
    tags = [own] if own else []
    tags += [tag for tag in env.get("LANGUAGE", "").split(":") if tag.strip()]
    if locale:
        tags.append(locale)
    return tags


def negotiate(requested: str | None, available: Iterable[str],
              environ: Mapping[str, str] | None = None) -> str | None:
    """The available language that best serves ``requested`` (else the environment's).

    Returns the code as the available language spells it (``pt-BR``), or
    None when nothing asked for is available (the caller then uses English).
    """
    by_lower = {code.lower(): code for code in available}
    tags = [requested] if requested else requested_tags(environ)
    for tag in tags:
        for candidate in fallbacks(tag):
            found = by_lower.get(candidate.lower())
            if found is not None:
                return found
    return None


def choose(requested: str | None, available: Iterable[str],
           environ: Mapping[str, str] | None = None) -> str:
    """:func:`negotiate`, else English."""
    return negotiate(requested, available, environ) or FALLBACK_LANGUAGE
