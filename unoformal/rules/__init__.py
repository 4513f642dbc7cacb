"""The rules' meaning, stated once in a small language (:mod:`.lang`) that the engine, the
Z3 relation and the words all interpret. One module per rulebook section, each statement
built for a table (its values folded in); the first is the Wild Draw Four's legality
(:mod:`.challenge`). The layers run: the table's values (``unoformal.spec``), then this,
then its interpreters (``unoformal.engine``, ``unoformal.verification.z3``). Which rules
are stated here so far, ``docs/rules.md`` says rule by rule ("Stated in the rule
language"); ``docs/rule-language.md`` says how a statement is written."""
