"""Deprecated path: the rule language moved to :mod:`unoformal.language` (conditions,
effects, commands and the two protocols, in modules of their own). A name read here is
forwarded with a DeprecationWarning for one minor version."""

from __future__ import annotations

from unoformal.language.moved import forwarding

__getattr__ = forwarding(
    "unoformal.rules.commands",
    ["unoformal.language.commands", "unoformal.language.conditions",
     "unoformal.language.effects", "unoformal.language.coverage",
     "unoformal.language.protocols"], "0.2.0")
