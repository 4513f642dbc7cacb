"""The page: the trace data and the page's own script and style in one HTML file.

The data goes in as JSON inside ``<script type="application/json">`` with ``<``, ``>``,
``&`` and U+2028/2029 escaped, so no text of a record can close the element (``</script>``)
or open another; the script reads it with ``JSON.parse`` and puts every value into the page
as text. A Content-Security-Policy allows only this page's own script and style (by their
SHA-256), no other script, no network. The output is a function of the input alone
(sorted keys, no date), so the same input gives the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

# ASCII JSON (json.dumps' default) has no U+2028/2029 or lone surrogates left to escape.
_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def embed(data: Any) -> str:
    """``data`` as JSON that is inert inside a script element."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return "".join(_ESCAPES.get(c, c) for c in text) if any(c in text for c in _ESCAPES) \
        else text


def _asset(name: str) -> str:
    return resources.files("unoformal.show").joinpath(name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def render(data: dict[str, Any]) -> str:
    """The whole page for ``data`` (see :mod:`unoformal.show.trace`)."""
    script, style = _asset("page.js"), _asset("page.css")
    policy = (f"default-src 'none'; script-src {_sha256(script)}; style-src {_sha256(style)}; "
              "img-src 'none'; base-uri 'none'; form-action 'none'")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>unoformal show</title>",
        f"<style>{style}</style></head><body>",
        f'<script type="application/json" id="data">{embed(data)}</script>',
        '<main id="app"></main>',
        "<noscript>This page steps through its trace with JavaScript.</noscript>",
        f"<script>{script}</script>",
        "</body></html>", ""])


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place: a
    reader never sees half a page, and a failure leaves the old file as it was."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                               dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
