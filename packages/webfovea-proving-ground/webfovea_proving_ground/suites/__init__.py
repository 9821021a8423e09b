"""The task suites of the proving ground: the built-in suite (one builder per site) and the hostile suite."""
