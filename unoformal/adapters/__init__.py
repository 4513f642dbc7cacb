"""Adapters: other UNO engines played and written down as unoformal records (``rlcard``),
and the kit that turns any engine's log, as a trace of JSON lines, into records (``kit``)."""
