"""Sub-commands of the ``unoformal`` command line; each module has ``register(sub)``."""
