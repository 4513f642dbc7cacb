"""Adapters: other UNO engines played and written down as unoformal records."""
