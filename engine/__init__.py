"""Stratagem: a declarative rules-as-data engine for tabletop mass battles."""

from stratagem import _native

__version__ = "0.1.0"

#: "compiled" (the hot modules compiled by setup.py), "sources" (compiled, but running the
#: sources: STRATAGEM_PURE=1 or an edited source) or "plain" (nothing was compiled)
BUILD = _native.choose()
