"""How a turn ends: the steps the moves that end one share.

Apart from ``rules.turn`` (the moves) so that ``rules.house`` (a rule file's ``end-turn``)
reads the same steps without importing the module that builds through it.
"""

from __future__ import annotations

from unoformal.language.effects import Clear, Effect, PassTurn, SetPhase
from unoformal.rules.state import PLAY

# The turn moves on, and no earlier move decides it any more (a draw's or a misplay's
# end of turn).
TURN_ENDS: tuple[Effect, ...] = (SetPhase(PLAY), PassTurn(1))
# A pass ends it so, the card drawn kept (DRAW-1's keep, EXT-PASS; a rule file's
# `end-turn`, rules.house)
PASS_ENDS: tuple[Effect, ...] = (Clear("drawn"), *TURN_ENDS)
