"""Messages checked where they are written: every message a step formats (its ``event:``,
an `emit`'s key, a `require`'s ``message:``) against the ruleset's locale texts.

- the key has a text in the reference language (English when the ruleset has English
  texts, else its first language), the ruleset's own or the engine's;
- every placeholder of that text is a value the step hands it (``compile.steps.STEPS``:
  ``hands``, plus its ``with:``; a `set` hands the names it sets, an `update` the fields
  it changes);
- no text of any language quotes a placeholder the step hands into literal text: ICU reads
  the apostrophe in ``{side} needs '{field}'`` as the start of quoted text, and the
  reader sees ``{field}``, not the field.

``validate`` and every command read rulesets through the pipeline, which runs these
checks; ``stratagem i18n check`` reports what they find for each ruleset, and the last one
(:func:`engine_literal_errors`) over the engine's own texts too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from stratagem.compile.steps import STEPS
from stratagem.errors import Location, StratagemError, caret, in_order
from stratagem.i18n.catalog import (
    ENGINE_LOCALES,
    FALLBACK_LANGUAGE,
    LocaleFile,
    message_location,
)
from stratagem.i18n.check import read_locales
from stratagem.i18n.engine_keys import engine_keys
from stratagem.i18n.messages import Message, literal_placeholders
from stratagem.model.ruleset import Ruleset
from stratagem.model.steps import (
    KIND,
    Block,
    EmitStep,
    ForEachStep,
    IfStep,
    RepeatStep,
    RequireStep,
    SetStep,
    Step,
    UpdateStep,
)


@dataclass(frozen=True)
class Use:
    """One step that formats a message: the key, what it hands, where the step is."""

    key: str
    hands: frozenset[str]
    step: str
    location: Location | None


def message_uses(rs: Ruleset) -> list[Use]:
    """Every message a step of the ruleset formats, with the values it hands."""
    return [use for proc in rs.procedures.values() for use in _uses(proc.steps)]


def _uses(block: Block) -> Iterator[Use]:
    for step in block.steps:
        kind = KIND[type(step)]
        with_ = set(step.params)
        if isinstance(step, EmitStep):
            yield Use(step.key, frozenset(with_), kind, step.location)
        elif isinstance(step, RequireStep):
            if step.message:
                yield Use(step.message, frozenset(with_), kind, step.location)
        elif step.event:
            yield Use(step.event, frozenset(with_ | set(STEPS[kind].hands) | _own(step)),
                      kind, step.location)
        for inner in _blocks(step):
            yield from _uses(inner)


def _own(step: Step) -> set[str]:
    """The names a step hands besides its fixed ones: what a `set` sets, what an `update`
    changes."""
    if isinstance(step, SetStep):
        return {name for name, _ in step.values}
    if isinstance(step, UpdateStep):
        return set(step.assign) | set(step.add)
    return set()


def _blocks(step: Step) -> tuple[Block, ...]:
    if isinstance(step, (ForEachStep, RepeatStep)):
        return (step.body,)
    if isinstance(step, IfStep):
        return (step.then, step.otherwise)
    return ()


def reference_language(files: Mapping[str, list[Path]]) -> str:
    """The language every text is checked against: English when the ruleset has English
    texts, else its first language (English, the engine's, when it has none)."""
    if FALLBACK_LANGUAGE in files or not files:
        return FALLBACK_LANGUAGE
    return sorted(files)[0]


def check_messages(rs: Ruleset) -> list[StratagemError]:
    """Every problem of the messages the ruleset's steps format (see the module's text),
    each at its place: a missing key at the step, a placeholder at the text."""
    errors: list[StratagemError] = []
    reference = reference_language(rs.locale_files)
    languages = {lang: _texts(lang, rs.locale_files.get(lang, []), errors)
                 for lang in sorted({*rs.locale_files, reference})}
    uses = message_uses(rs)
    by_key: dict[str, list[Use]] = {}
    for use in uses:
        by_key.setdefault(use.key, []).append(use)
    ref_texts = languages[reference]
    for key, found in by_key.items():
        if key not in ref_texts:
            first = found[0]
            errors.append(StratagemError(
                f"the message '{key}' has no text in the reference language ({reference})",
                location=first.location,
                hint=f"add `{key}: \"...\"` under `messages:` in the ruleset's "
                     f"locales/{reference}.yaml (the engine's texts do not have it either)",
                key="messages.no_text", params={"message": key, "lang": reference}))
            continue
        message, located = ref_texts[key]
        for use in found:
            unknown = sorted({a.split(".")[0] for a in message.arguments} - use.hands)
            for name in unknown:
                hands = ", ".join(sorted(use.hands)) or "nothing but its `with:`"
                errors.append(StratagemError(
                    f"the message '{key}' shows {{{name}}}, but the `{use.step}` step at "
                    f"{_short(use.location)} does not hand it a value '{name}'",
                    location=_at(located, message, message.source.find("{" + name)),
                    context=caret(message.source, max(message.source.find("{" + name), 0)),
                    hint=f"add it to the step's `with:` (with: {{{name}: ...}}); it hands: "
                         + hands, key="messages.not_handed",
                    params={"message": key, "name": name, "step": use.step,
                            "at": _short(use.location), "hands": hands}))
    handed: dict[str, frozenset[str]] = {
        key: frozenset().union(*(use.hands for use in found)) for key, found in by_key.items()}
    errors.extend(_literals(languages.values(), handed))
    return in_order(errors)


def engine_literal_errors() -> list[StratagemError]:
    """The same check over the engine's own texts, against the parameters its code passes
    each key (``stratagem i18n check`` runs it with the rulesets')."""
    handed = engine_keys().params()
    errors: list[StratagemError] = []
    languages = [_texts(path.stem, [], errors) for path in sorted(ENGINE_LOCALES.glob("*.yaml"))]
    return in_order(errors + _literals(languages, handed))


def _literals(languages: Iterable[Mapping[str, tuple[Message, Location | None]]],
              handed: Mapping[str, Iterable[str]]) -> list[StratagemError]:
    """Every text that quotes into literal text a placeholder its key is handed."""
    errors = []
    for texts in languages:
        for key, (message, located) in texts.items():
            names = set(handed.get(key, ()))
            for offset, name in literal_placeholders(message):
                if name in names:
                    errors.append(literal_placeholder(key, name, message, located, offset))
    return errors


def literal_placeholder(key: str, name: str, message: Message, location: Location | None,
                        offset: int) -> StratagemError:
    """A text whose ICU quoting shows ``{name}`` as it is written, not the value."""
    return StratagemError(
        f"the message '{key}' shows {{{name}}} as literal text: the apostrophe before it "
        "starts ICU quoted text, so the reader sees the braces, not the value",
        location=_at(location, message, offset), context=caret(message.source, offset),
        hint=f"write ''{{{name}}}'' for apostrophes around the value, or typographic "
             f"quotes: ‘{{{name}}}’ or “{{{name}}}”", key="messages.literal",
        params={"message": key, "name": name})


def _texts(lang: str, paths: list[Path], errors: list[StratagemError]
           ) -> dict[str, tuple[Message, Location | None]]:
    """The texts of a language: the engine's, then the ruleset's files in order (a later
    one rewords an earlier one), each with where it is written."""
    engine = ENGINE_LOCALES / f"{lang}.yaml"
    texts: dict[str, tuple[Message, Location | None]] = {}
    for locale in read_locales([engine] if engine.is_file() else [], lang, []) + \
            read_locales(paths, lang, errors):
        texts.update(_located(locale))
    return texts


def _located(locale: LocaleFile) -> dict[str, tuple[Message, Location | None]]:
    return {key: (message, locale.locations.get(key)) for key, message in
            locale.messages.items()}


def _at(location: Location | None, message: Message, offset: int) -> Location | None:
    if location is None or offset < 0:
        return location
    return message_location(location, message.source, offset)


def _short(location: Location | None) -> str:
    if location is None:
        return "the ruleset"
    return str(Location(location.file, location.line, location.column))
