"""The proving ground: self-hosted websites, task suites and an instrument model to measure
the harness with (docs/architecture.md, "Where each thing lives").

One room per concept: `sites/` (the websites), `suites/` (the built-in and hostile suites),
`oracle/` (the oracle model), `providers/` (loopback provider APIs answering with the oracle),
`breakingweb/` (stateful apps, interventions and their scoring). At this level only what the
rooms share: `plan.py` (plan and navigation-truth helpers), `sessions.py`, `serve.py`.
"""
