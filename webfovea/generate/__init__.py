"""Tasks generated from any site (seed 000 §6.3, "synthetic tasks with programmatic truth"):
`webfovea generate --site URL` explores the site as a user would and writes retrieval tasks
whose answers it can prove from what it read (docs/generate.md)."""
