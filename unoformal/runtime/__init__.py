"""How the commands run: the compiled build (``compiled``), long campaigns of parallel
jobs (``campaign``) and Ctrl-C (``interrupts``)."""
