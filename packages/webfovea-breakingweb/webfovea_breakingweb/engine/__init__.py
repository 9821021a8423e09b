"""What stateful apps run on: typed state and its spec, the JSON API, the page, diffs, control routes."""
