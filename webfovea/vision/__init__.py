"""Classical vision: what a screenshot shows, found without a model (template matching)."""
