"""unoformal: the rules of UNO stated once, as a rule table, played, proved and explored."""

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game, PlayerView
from unoformal.engine.record import Record, Replay, load_record, replay, to_record
from unoformal.errors import IllegalActionError, InvalidInputError, UnoError
from unoformal.spec.table import CLASSIC, RuleTable
from unoformal.spec.variants import VARIANTS, load_rules

__all__ = ["CLASSIC", "VARIANTS", "Action", "ActionType", "Game", "IllegalActionError",
           "InvalidInputError", "PlayerView", "Record", "Replay", "RuleTable", "UnoError",
           "load_record", "load_rules", "replay", "to_record"]
__version__ = "0.1.0"
