"""The document view: a PDF, spreadsheet, CSV, JSON or text file that a navigation or a download
yields becomes a page the model can see, scroll, search and read (docs/documents.md).

`sniff` (what the bytes are), `document` (conversion), `render` (the view's HTML), `pdf` and
`tables` (the readers), `limits` (what a document may cost), `views` (serving views in the
browser). The harness opens them (`harness/pages.py`) when the `documents` switch is on.
"""
