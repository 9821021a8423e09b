"""The issue tracker: tickets on a board of columns (dragged between them), a filtered list,
ticket pages with assignee, priority, labels, estimate and comments (state.py, content.py,
routes.py, page.py + tracker.js, tasks.py)."""
