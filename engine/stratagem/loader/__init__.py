"""Reading Stratagem files: the first phases of the pipeline (``stratagem.compile``).

One module each: :mod:`.yamlio` reads YAML safely with positions, :mod:`.merge` merges
overlays, :mod:`.resolve` finds rulesets and follows ``extends:``/``include:``,
:mod:`.schema` validates against JSON Schemas with readable errors.
"""

from __future__ import annotations

from stratagem.loader.limits import DEFAULT_LIMITS, LoadLimits
from stratagem.loader.yamlio import PosDict, PosList, load_yaml

__all__ = ["DEFAULT_LIMITS", "LoadLimits", "PosDict", "PosList", "load_yaml"]
