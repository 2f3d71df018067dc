"""Campaigns: a war of several battles on a calendar, kept in the GM's own files.

:mod:`.war` fights and lets time pass on the armies' texts (nothing is written);
:mod:`.yamledit` changes only the values that change in a person's YAML;
:mod:`.store` writes one command's files all together, one writer at a time;
:mod:`.rules` reads a ruleset's `campaign:` section. See docs/campaign.md.
"""
