"""Stateful apps: session-bound typed state, a JSON API, a client-side UI, canonical
state/diff hashing and the control routes. `proving_ground/breakingweb/site.py` wires them (with the
interventions) into the proving ground."""
