"""``unoformal show``: a trace, a counterexample or a small state graph as one page.

:mod:`.trace` turns the inputs into plain JSON data through the public API (a record's
replay, ``Game.view``, the table's words, the explorer's labels); :mod:`.page` writes
that data and the page's own script into one self-contained HTML file (no network, no
server), which a teacher can mail or put on a course page.
"""
