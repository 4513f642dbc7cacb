"""``python -m unoformal``: the same as the ``unoformal`` command."""

import sys

from unoformal.cli import main

sys.exit(main())
