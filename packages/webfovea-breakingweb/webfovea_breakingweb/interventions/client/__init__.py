"""Client-layer interventions: the page's script misleads what the agent sees or clicks."""
