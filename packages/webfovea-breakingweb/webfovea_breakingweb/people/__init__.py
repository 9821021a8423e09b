"""People's runs (`bench breakingweb --harness human`): a person at a headed browser takes each
task twice, cold then warm after the backend reset, and each attempt is scored by the same
backend evaluator as an agent's run (docs/breakingweb.md, "People's runs")."""
