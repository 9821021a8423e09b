"""Server-layer interventions: the app's own answers change (saved values drift, order scrambles)."""
