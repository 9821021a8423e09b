"""The oracle's plan operations: one typed record and one handler per op, by name in `catalog`."""
