"""The document view: a PDF, spreadsheet, CSV, JSON or text file that a navigation or a download
yields becomes a page the model can see, scroll, search and read (docs/documents.md).

`sniff` (what the bytes are), `document` (conversion), `render` (the view's HTML), `pdf` and
`tables` (the readers), `limits` (what a document may produce), `sandbox` + `worker` + `codec`
(conversion and rendering in a limited child process, its reply as JSON), `search` (the whole
document for find_text/read_text), `views` (serving views in the browser). The harness opens
them (`harness/pages.py`) when the `documents` switch is on.
"""
