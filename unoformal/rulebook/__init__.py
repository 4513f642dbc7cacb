"""The rule table: every rule of UNO (docs/rules.md) as frozen data, cited to its rule ID."""

from unoformal.rulebook.cards import Color, Face, Kind, parse_face
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC, Rule, RuleTable
from unoformal.rulebook.variants import VARIANTS, derive, load_rules

__all__ = ["CLASSIC", "VARIANTS", "Color", "Deck", "Face", "Kind", "Rule", "RuleTable",
           "derive", "load_rules", "parse_face"]
