"""Loading, merging and validating Stratagem files."""
