"""`webfovea view RUN...`: a local web app in which people read runs, label tasks and review
manuals (docs/view.md). `index.py` lists a run lazily, `pages.py` and `review_pages.py` render,
`server.py` serves on 127.0.0.1; labels go to RUN/labels.jsonl (judge/labels.py), reviews to
RUN/manuals/reviews.jsonl (judge/manuals/reviews.py)."""
