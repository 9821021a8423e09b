"""Per-step routing: before each model call, who takes the step (a model, a rule, a CV routine)."""
