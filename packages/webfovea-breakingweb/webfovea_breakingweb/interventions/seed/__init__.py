"""Seed-layer interventions: the initial state is built to mislead (decoys, planted or split answers)."""
