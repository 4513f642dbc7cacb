"""Games played on the engine: the bots, a game in the terminal (``session``), whole games
between bots (``simulate``) and their pictures (``plots``)."""
