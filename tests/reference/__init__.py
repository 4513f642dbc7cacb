"""Reference implementations the live code is checked against (see ``engine_v1``)."""
