"""The rule table: every rule of UNO (docs/rules.md) as frozen data, cited to its rule ID."""

from unoformal.spec.cards import Color, Face, Kind, parse_face
from unoformal.spec.deck import Deck
from unoformal.spec.table import CLASSIC, Rule, RuleTable
from unoformal.spec.variants import VARIANTS, derive, load_rules

__all__ = ["CLASSIC", "VARIANTS", "Color", "Deck", "Face", "Kind", "Rule", "RuleTable",
           "derive", "load_rules", "parse_face"]
