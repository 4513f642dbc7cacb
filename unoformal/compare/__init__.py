"""The engine compared with something else, each module named for what it compares.

- ``relation``: the engine, step by step, against the Z3 relation built from the same
  commands (``unoformal validate``);
- ``successors``: every successor of a small deck's state graph against the relation's
  (the cross-check);
- ``records``: any engine's game records against the rules, first deviations by cause
  (``unoformal conform``); ``deviations`` goes on past each (``follow`` applies the
  engine's move as the record states it), ``listing`` lists and sums them up;
- ``live``: another engine playing move by move against the rules (``unoformal referee``);
- ``vectors``: states, legal actions and successors for other engines to be tested on
  (``unoformal vectors``).
"""
