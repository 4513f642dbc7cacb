"""The rule language's fourth reading: a small-deck model as a Promela program for Spin.

Beside the engine (``run``/``holds``), the Z3 relation (``encode``) and the words
(``text``), :mod:`.conditions` reads every condition as a Promela expression and
:mod:`.effects` every effect as Promela statements; :mod:`.model` builds the program (one
``d_step`` per command, binding and chance outcome) and :mod:`.spin` runs Spin on it, so
Spin's count of states is an independent check of the explorer's (docs/explorer.md)."""
