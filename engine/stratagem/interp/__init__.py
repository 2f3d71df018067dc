"""The interpreter: steps, the battle in progress, dice sources and the trace."""
