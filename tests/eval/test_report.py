"""The HTML report, loaded in real headless Chromium: what a person sees, and nothing executed."""

import pytest
import pytest_asyncio

from tests.eval.synthetic import task, write_task, write_tasks_json
from webfovea.eval.report import gather, write_report
from webfovea.eval.summary import write_summary

pytestmark = pytest.mark.asyncio(loop_scope="session")

EVIL = "<script>window.__pwned = 1</script><|eot_id|><b>bold</b>"

STEPS_A = [
    {
        "thought": "The country filter is a native dropdown; pick Viet Nam.",
        "action": {"name": "select", "args": {"start_box": [540, 300], "option": "Viet Nam"}},
        "action_text": "select(...)",
        "feedback": "Selected 'Viet Nam' in <select id=country>.",
        "point": [720.0, 400.0],
    },
    {
        "thought": "The value is in the first row.",
        "action": {"name": "finished", "args": {"content": "409.5"}},
        "action_text": "finished(...)",
        "feedback": "",
        "point": [100.0, 100.0],
    },
]
STEPS_B = [
    {
        "thought": "I will type the query " + EVIL,
        "action": {"name": "type", "args": {"content": EVIL}},
        "action_text": "type(...)",
        "raw": "Thought: x\nAction: type(content='" + EVIL + "')",
        "feedback": "Typed into <input>: " + EVIL,
    },
]


def build_run(run, *, complete=True, with_summary=True):
    tasks = [
        task("gdp-vn", "409.5", category="form interaction", classes=("select",)),
        task("evil", "ok", category="document extraction", classes=("token_strip",)),
        task("never-ran", "1", category="chart analysis", classes=("hover",)),
    ]
    write_tasks_json(run, tasks)
    write_task(run, tasks[0], answer="409.5", steps=STEPS_A)
    write_task(run, tasks[1], answer=EVIL, steps=STEPS_B)
    if with_summary:
        write_summary(run, tasks, complete=complete, meta={"seed": 3, "workers": 2})
    return tasks


@pytest_asyncio.fixture(loop_scope="session")
async def page(session):
    p = await session.fresh_page()
    await p.set_viewport_size({"width": 1280, "height": 900})
    yield p


async def text_of(page, selector):
    return " ".join((await page.locator(selector).first.inner_text()).split())


async def test_complete_run_report(tmp_path, page):
    build_run(tmp_path)
    out = write_report(tmp_path, images="inline")
    html_text = out.read_text()
    assert "http://" not in html_text.replace("http://127.0.0.1:9/", "")  # no external resources
    await page.goto(out.as_uri())

    assert await text_of(page, "#counts") == "Passed 1/3 (33.3%)"
    assert await page.locator("#partial-banner").count() == 0
    assert "webfovea" in await page.title()
    meta = await text_of(page, "table.meta")
    assert "oracle" in meta and "workers 2" in meta and "seed 3" in meta

    # the per-task table: one row per task, with its badge, and links to the task's section
    row = page.locator('#task-table tr[data-task-id="gdp-vn"]')
    assert " ".join((await row.inner_text()).split()).startswith("gdp-vn PASS finished 409.5 409.5 exact 2")
    missing = " ".join((await page.locator('#task-table tr[data-task-id="never-ran"]').inner_text()).split())
    assert missing.startswith("never-ran FAIL missing (no answer) 1")
    await page.locator('#task-table tr[data-task-id="gdp-vn"] a').click()
    assert page.url.endswith("#task-0")

    # the failure-class table
    assert "select 1/1 100.0%" in await text_of(page, "table:has(th:text('class'))")

    # the timeline of the first task: thought, action, feedback, point, and decoded images
    step = page.locator("#task-0-step-0")
    assert "The country filter is a native dropdown; pick Viet Nam." in await step.inner_text()
    assert 'select(start_box=[540, 300], option="Viet Nam")' in await text_of(page, "#task-0-step-0 .action")
    assert await text_of(page, "#task-0-step-0 .feedback") == "Selected 'Viet Nam' in <select id=country>."
    assert await text_of(page, "#task-0-step-0 .point") == "(720, 400) CSS px"
    sizes = await page.eval_on_selector_all(
        "section.task img",
        "imgs => Promise.all(imgs.map(async i => { await i.decode();"
        " return [i.naturalWidth, i.naturalHeight, i.src.slice(0, 23)]; }))",
    )
    assert sizes == [[720, 405, "data:image/jpeg;base64,"]] * 3

    # a hostile reply is shown as text and never runs
    assert await page.evaluate("window.__pwned") is None
    evil_step = page.locator("#task-1-step-0")
    assert EVIL in await evil_step.locator(".action").inner_text()
    assert EVIL in await evil_step.locator(".feedback").inner_text()
    assert await evil_step.locator("b").count() == 0 and await evil_step.locator("script").count() == 0
    await evil_step.locator("summary").click()
    assert EVIL in await evil_step.locator("pre.raw").inner_text()
    assert EVIL in await text_of(page, "#task-1 code.answer")
    assert await page.locator("main script").count() == 0


async def test_partial_summary_is_announced(tmp_path, page):
    build_run(tmp_path, complete=False)
    out = write_report(tmp_path, tmp_path / "elsewhere" / "r.html")
    await page.goto(out.as_uri())
    banner = await text_of(page, "#partial-banner")
    assert banner.startswith("PARTIAL RUN: 1 of 3 tasks have no result")
    assert await page.locator("#partial-banner").is_visible()
    assert await text_of(page, "#counts") == "Passed 1/3 (33.3%)"


async def test_run_without_summary_reads_results(tmp_path, page):
    build_run(tmp_path, with_summary=False)
    assert not (tmp_path / "summary.json").exists()
    await page.goto(write_report(tmp_path).as_uri())
    assert "NO SUMMARY" in await text_of(page, "#partial-banner")
    assert await text_of(page, "#counts") == "Passed 1/3 (33.3%)"  # scored against tasks.json
    assert await page.locator("#task-table tr.task-row").count() == 3

    # without tasks.json either: answers are listed, nothing is claimed as passed
    (tmp_path / "tasks.json").unlink()
    await page.goto(write_report(tmp_path).as_uri())
    assert "NO tasks.json" in await text_of(page, "#partial-banner")
    assert await page.locator("#task-table tr.task-row").count() == 2
    assert "UNSCORED" in await text_of(page, '#task-table tr[data-task-id="gdp-vn"]')
    assert await page.locator("section.task img").count() == 3


async def test_damaged_run_still_reports(tmp_path):
    build_run(tmp_path)
    (tmp_path / "summary.json").write_text('{"tasks": 3, "per_ta')  # torn write
    summary, warning = gather(tmp_path)
    assert "summary file is unreadable" in warning and "NO SUMMARY" in warning
    assert summary["passed"] == 1 and summary["per_task"]["never-ran"]["status"] == "missing"
    (tmp_path / "tasks.json").write_text("[{")
    summary, warning = gather(tmp_path)
    assert "tasks.json is unreadable" in warning and len(summary["per_task"]) == 2
    assert "evil" in write_report(tmp_path).read_text()


async def test_a_lazy_report_links_the_screenshots_and_they_load(tmp_path, page):
    build_run(tmp_path)
    inline = write_report(tmp_path, tmp_path / "inline.html", images="inline").stat().st_size
    out = write_report(tmp_path)  # the default: linked, loaded as they scroll into view
    assert "data:image" not in out.read_text()
    assert out.stat().st_size < inline / 2, (out.stat().st_size, inline)
    await page.goto(out.as_uri())
    imgs = page.locator("section.task img")
    await imgs.last.scroll_into_view_if_needed()
    loaded = await page.eval_on_selector_all(
        "section.task img",
        "imgs => Promise.all(imgs.map(async i => { i.loading = 'eager'; await i.decode();"
        " return [i.naturalWidth > 0, i.getAttribute('loading'), i.getAttribute('src')]; }))",
    )
    assert loaded and all(ok for ok, _, _ in loaded), loaded
    assert all(not src.startswith(("/", "data:")) and src.endswith(".png") for _, _, src in loaded)
    moved = write_report(tmp_path, tmp_path / "sub" / "r.html")  # written elsewhere: links still hold
    await page.goto(moved.as_uri())
    srcs = await page.eval_on_selector_all("section.task img", "imgs => imgs.map(i => i.getAttribute('src'))")
    assert srcs and all(s.startswith("../") for s in srcs)
