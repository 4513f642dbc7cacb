"""unoformal: the rules of UNO stated once, as a rule table, played, proved and explored."""

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game, PlayerView
from unoformal.errors import IllegalActionError, InvalidInputError, UnoError
from unoformal.spec.table import CLASSIC, RuleTable
from unoformal.spec.variants import VARIANTS, load_rules

__all__ = ["CLASSIC", "VARIANTS", "Action", "ActionType", "Game", "IllegalActionError",
           "InvalidInputError", "PlayerView", "RuleTable", "UnoError", "load_rules"]
__version__ = "0.1.0"
