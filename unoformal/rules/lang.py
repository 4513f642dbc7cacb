"""Deprecated path: the card statements moved to :mod:`unoformal.language.cards`. A name
read here is forwarded with a DeprecationWarning for one minor version."""

from __future__ import annotations

from unoformal.language.moved import forwarding

__getattr__ = forwarding("unoformal.rules.lang", ["unoformal.language.cards"], "0.2.0")
