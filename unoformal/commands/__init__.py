"""Sub-commands of the ``unoformal`` command line; each module has ``register(sub)``.

``SUMMARY`` is each command's one-line help, here so that ``unoformal --help`` (and a
command line naming one command) need not import the others: ``verify`` loads Z3,
``explore`` networkx, and neither belongs in ``unoformal rules``'s start-up.
"""

SUMMARY = {
    "rules": "print the rule table as a rules document",
    "replay": "play a game record (JSON) and print the final state",
    "simulate": "play whole games between bots; print seat win rates",
    "play": "play a game in the terminal against the bots, from one seat",
    "verify": "prove the rule table's properties with Z3",
    "validate": "check the engine against the Z3 relation, step by step",
    "explore": "explore the whole state graph of a small deck",
    "conform": "referee game records of any engine; first deviations by cause rule",
    "referee": "referee a game move by move over JSON lines on stdin/stdout (like UCI)",
    "vectors": "write test vectors for other engines: states, legal actions, successors",
    "show": "a record, counterexample or small state graph as one HTML page, step by step",
    "house-rules": "the catalogue of house rules; with --out, its matrix of what each "
                   "rule and pair breaks",
}
