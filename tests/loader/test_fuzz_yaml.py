"""Fuzzing the YAML loader: text made of YAML's punctuation, tags, anchors, aliases and deep
nesting either loads or is refused with a Stratagem error naming the file (never another
exception). Derandomized with a fixed number of examples, so CI runs the same cases."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.errors import StratagemError
from stratagem.loader.yamlio import load_yaml

FUZZ = settings(derandomize=True, max_examples=200, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

TOKENS = ["kind: army\n", "a: ", "- ", "[", "]", "{", "}", ", ", ": ", "\n", "  ", "&x ", "*x",
          "!!python/object ", "!!binary ", "!!int ", "? ", "|\n", ">-\n", "'", '"', "#", "\t",
          "1e308", ".nan", "0x", "<<: *x\n", "---\n", "...\n", "%YAML 1.1\n", "\\u0000", "é",
          "key", "0", "-", "~", "null", "yes", "\ufeff"]


@FUZZ
@given(parts=st.lists(st.sampled_from(TOKENS), max_size=40),
       depth=st.integers(0, 300), opener=st.sampled_from(["[", "{a: ", "- "]))
def test_any_text_loads_or_is_refused_with_its_file_named(parts: list[str], depth: int,
                                                          opener: str) -> None:
    closer = {"[": "]", "{a: ": "}", "- ": ""}[opener]
    text = "".join(parts) + "\nb: " + opener * depth + "1" + closer * depth + "\n"
    try:
        load_yaml("fuzz.yaml", text=text)
    except StratagemError as err:
        assert "fuzz.yaml" in err.render(), err.render()
