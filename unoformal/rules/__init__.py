"""The rules' meaning, stated once in a small language that the engine, the Z3 relation
and the words all interpret. One module per rulebook section, each statement built for a
table (its values folded in): the Wild Draw Four's legality (:mod:`.challenge`, over the
card statements of :mod:`.lang`); the state's fields (:mod:`.state`); moves as guarded
commands (:mod:`.commands`): answering a draw card (:mod:`.respond`) and the out-of-turn
moves (:mod:`.uno`), all listed by :mod:`.book`. The layers run: the table's values
(``unoformal.rulebook``), then this, then its interpreters (``unoformal.engine``,
``unoformal.verification.z3``). Which rules are stated here so far, ``docs/rules.md``
says rule by rule ("Stated in the rule language"); ``docs/rule-language.md`` says how a
statement is written."""
