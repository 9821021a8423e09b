"""Task-type skills (seed 000 §6.3): short checklists per task category, shown to the model
when the task's category is known or classified (`checklists = "auto"`, off by default)."""
