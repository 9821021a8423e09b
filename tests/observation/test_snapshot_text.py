"""Pure parts of structured mode: snapshot lines, ref spellings, truncation rules."""

from webfovea.actions.catalog import offered, parser_specs
from webfovea.browser import snapshot_text as st
from webfovea.config import make_config
from webfovea.observation.truncate import truncate
from webfovea.parsing import parse_reply

SNAP = (
    """- main [ref=e2]:
  - heading "Stations" [level=1] [ref=e3]
  - table [ref=e4]:
    - rowgroup [ref=e5]:
"""
    + "".join(
        f"""      - row "ST-{i:04d} Alpine {i}.5" [ref=e{10 + 4 * i}]:
        - cell "ST-{i:04d}" [ref=e{11 + 4 * i}]
        - cell "Alpine" [ref=e{12 + 4 * i}]
        - cell "{i}.5" [ref=e{13 + 4 * i}]
"""
        for i in range(1, 400)
    )
    + """  - button "Next page" [ref=e9999]
- contentinfo [ref=e10000]:
  - paragraph [ref=e10001]: Footer text
"""
)


def _specs(points: bool = False):
    return parser_specs(offered(make_config(), snapshot=True, refs=True, points=points))


def test_ref_spellings_parse_to_one_ref():
    specs = _specs()
    for written in ("ref='e12'", "[ref=e12]", "ref=e12", "'e12'", "ref='[ref=e12]'", "element='E12'"):
        parsed = parse_reply(f"Thought: t\nAction: click({written})", specs)
        assert parsed.action is not None and parsed.action.args.get("ref") == "e12", (
            written,
            parsed.rejection,
        )
    parsed = parse_reply("Thought: t\nAction: fill(ref='f3e12', content='hi')", specs)
    assert parsed.action.args == {"ref": "f3e12", "content": "hi"}
    parsed = parse_reply("Thought: t\nAction: click(ref='button 12')", specs)
    assert parsed.action is None and "snapshot reference" in parsed.rejection.reason


def test_hybrid_keeps_points():
    parsed = parse_reply("Thought: t\nAction: click(start_box='(10,20)')", _specs(points=True))
    assert parsed.action.args == {"start_box": (10.0, 20.0)}


def test_lines_parents_inline_text():
    nodes = st.parse(SNAP)
    by = st.by_ref(nodes)
    assert by["e15"].role == "cell" and by["e15"].name == "ST-0001"
    assert nodes[by["e15"].parent].ref == "e14"
    assert by["e10001"].text == "Footer text"
    hits = st.find(nodes, "ST-0200")
    assert [n.ref for n, _ in hits] == ["e810", "e811"]
    assert hits[1][1][0].ref == "e810"  # nearest ancestor first: the row


def test_truncation_keeps_structure_refs_and_is_idempotent():
    budget = 6000
    cut = truncate(SNAP, budget)
    assert cut.truncated and len(cut.text.encode()) <= budget
    assert truncate(cut.text, budget).text == cut.text  # truncating twice changes nothing
    kept = st.by_ref(st.parse(cut.text))
    full = st.by_ref(st.parse(SNAP))
    for ref, node in kept.items():  # never renumbered: every printed ref names the same line
        assert full[ref].line.strip() == node.line.strip()
    # headings, controls, table edges kept; the omitted run says how to get it
    assert {"e3", "e9999", "e14", "e1606"} <= set(kept)
    assert "rows omitted (snapshot(ref='e5')" in cut.text and "find(text=" in cut.text
    assert truncate(SNAP, budget).text == cut.text  # deterministic


def test_no_main_region_falls_back_to_headings_and_controls():
    text = "\n".join(f"- paragraph [ref=e{i}]: text {i} " + "x" * 60 for i in range(300))
    text += '\n- heading "Title" [level=1] [ref=e900]\n- link "More" [ref=e901]'
    cut = truncate(text, 3000)
    assert "e900" in cut.text and "e901" in cut.text and len(cut.text.encode()) <= 3000
