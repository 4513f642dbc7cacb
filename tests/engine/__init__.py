"""Engine tests: one per rule ID, seed records, stateful and variant tests."""
