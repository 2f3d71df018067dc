"""The model: frozen data a compiled ruleset is made of (kinds, fields, tables, step
records, the ruleset), and the entities that hold a battle's state.

Nothing here reads a file or runs a step: ``stratagem.compile`` makes this data from the
files ``stratagem.loader`` reads, and ``stratagem.interp`` runs it.
"""
