"""Network-layer interventions: the middleware in front of the apps and the families it applies."""
