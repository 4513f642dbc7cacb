"""The explorer at scale: packed states, fingerprint sets and arrays (issue 42).

:mod:`.layout` packs a round's state into one fixed-width record and fingerprints
batches of records; :mod:`.successor` gives the successors of a record;
:mod:`.search` is the breadth-first search over records with a visited set of 64-bit
fingerprints; :mod:`.partitioned` runs it on Dask workers, the states partitioned by
fingerprint; :mod:`.findings` reads doomed states, traps and cycles from its edge arrays;
:mod:`.presets` holds the larger decks it was built for. See
``docs/explorer.md``, "The packed explorer".
"""
