"""Stateful apps: session-bound typed state, a JSON API, a client-side UI, canonical
state/diff hashing and the control routes. `envs/stateful_site.py` wires them (with the
interventions) into the proving ground."""
