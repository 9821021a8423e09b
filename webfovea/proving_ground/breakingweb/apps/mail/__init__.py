"""The mail client: folders and labels, read/unread, stars, bulk selection, search, threads,
reply and forward with attachments (state.py, content.py, routes.py, page.py + mail.js, tasks.py)."""
