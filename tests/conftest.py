"""Fixtures every test area shares.

The tests run offline: every browser they (or the CLIs they start) launch resolves no name but
localhost. A test that needs a real name maps one itself (see tests/browser/test_offline.py).
"""

import os
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
import pytest_asyncio

from tests.support.shared_browser import WorkerBrowser
from webfovea.browser.driver_start import SWITCH_ENV as NODE_CACHE_ENV
from webfovea.browser.session import OFFLINE_ENV, BrowserSession
from webfovea.documents.ocr_cache import ENV as OCR_CACHE_ENV

# WEBFOVEA_TEST_CPU=FILE: each test's CPU seconds, browsers included (tests/support/cpu_profile.py).
pytest_plugins = ["tests.support.cpu_profile"]

os.environ[OFFLINE_ENV] = "1"
# Every Ray start in the tests (in-process or in a CLI the test runs) gets its own local cluster:
# by default ray.init() joins the newest cluster on the machine, which under pytest-xdist is
# another worker's test cluster.
os.environ["RAY_ADDRESS"] = "local"


def pytest_configure(config: pytest.Config) -> None:
    # One fresh OCR cache and Node compile cache (browser/driver_start.py) per test run, shared by
    # its xdist workers (they inherit the controller's environment) and the CLIs they start:
    # never the user's ~/.cache, and never a previous run's, so a run's time does not depend on
    # what ran before it on the machine.
    if "PYTEST_XDIST_WORKER" in os.environ:
        return
    for env, prefix in ((OCR_CACHE_ENV, "webfovea-test-ocr-"), (NODE_CACHE_ENV, "webfovea-test-node-")):
        if env not in os.environ:
            os.environ[env] = tempfile.mkdtemp(prefix=prefix)
            config.add_cleanup(lambda env=env: shutil.rmtree(os.environ.pop(env), ignore_errors=True))


@pytest.fixture(scope="module", autouse=True)
def _no_browsergym_playwright_left() -> Iterator[None]:
    """BrowserGym keeps one sync Playwright per process (browsergym.core._PLAYWRIGHT). A module
    that drove BrowserGym from this thread (tests/breakingweb/gym, harnesses) leaves it running,
    and every async Playwright test after it on the same xdist worker then fails at set-up: it is
    stopped when the module ends."""
    yield
    import sys

    core = sys.modules.get("browsergym.core")
    pw = getattr(core, "_PLAYWRIGHT", None) if core is not None else None
    if pw is None:
        return
    try:
        pw.stop()
    except Exception:
        pass  # started on another thread (tests/environments/gym_support.py stops its own)
    vars(core)["_PLAYWRIGHT"] = None


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _worker_browser() -> AsyncIterator[WorkerBrowser]:
    """One real headless Chromium per test process (xdist worker), launched when a module first
    asks for `session`, closed when the process's tests end."""
    browser = WorkerBrowser()
    try:
        yield browser
    finally:
        await browser.close()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def session(_worker_browser: WorkerBrowser) -> AsyncIterator[BrowserSession]:
    """The worker's Chromium with a context of the module's own (tests/support/shared_browser.py):
    no cookies, storage, routes or tabs of another module. Playwright's objects belong to the
    event loop that made them, so a module that takes `session` runs its tests and async fixtures
    on the worker's one loop: `pytest.mark.asyncio(loop_scope="session")`. A test that needs a
    browser of its own (flags, a crash, a profile folder) launches one."""
    s = await _worker_browser.module_session()
    try:
        yield s
    finally:
        await s.close()


# Markers (registered in pyproject.toml), set here rather than by hand on every test:
# - browser: the test drives Chromium: it takes the `session` fixture, or its module launches a
#   browser itself (directly, through the agent loop, a CLI run or a runner's worker). Checked by
#   running `-m "not browser"` with WEBFOVEA_CHROME=/nonexistent: every such test still passes.
# - slow: the test took 5 s or more alone (`--durations`, 2-core machine); SLOW_TESTS names them.
_LAUNCHES = re.compile(
    r"BrowserSession|Harness\.(launch|connect)|run_task|async_playwright|find_chrome|chromium"
    r"|webfovea\.cli|CliRunner|\"webfovea\", \"(bench|run|replay|ab|mcp)\"|-m\", \"webfovea|run_bench"
    r"|webfovea\.runner|webfovea\.mcp|tests\.runner\.helpers"
)

SLOW_TESTS = frozenset(
    {
        # module path relative to tests/, then the test function's name (parameters aside);
        # from `--durations` of tests/envs (now proving_ground), tests/harness and `-m "not browser"` (2026-12-02)
        "breakingweb/test_bench.py::test_paired_run_scores_state_and_reports_per_family",
        "breakingweb/test_shop_bank.py::test_stratified_sample_passes_with_the_oracle",
        "breakingweb/test_shop_bank.py::test_same_seed_gives_the_same_hashes",
        "breakingweb/test_seam.py::test_the_oracle_operates_the_app_in_chromium",
        "proving_ground/suites/test_hostile.py::test_the_judge_sees_an_unguarded_run",
        "breakingweb/test_interventions_browser.py::test_recoverable",
        "breakingweb/test_own_apps_browser.py::test_every_template_passes_under_the_oracle",
        "breakingweb/test_own_apps_browser.py::test_same_seed_twice_same_hashes",
        "proving_ground/oracle/test_verify.py::test_reclicking_a_covered_button_loops_until_the_loop_breaker_fires",
        "proving_ground/oracle/test_verify.py::test_the_oracle_waits_out_a_429_and_the_quirk_retries_too_fast",
        "proving_ground/oracle/test_verify.py::test_trusting_the_toast_misses_a_503_unless_verify_catches_it",
        "proving_ground/oracle/test_verify.py::test_with_verify_the_oracle_sees_the_missing_item_and_saves_again",
        "breakingweb/test_determinism.py::test_same_task_seed_variant_same_hashes_across_processes",
        "proving_ground/suites/test_builtin.py::test_first_targets_exist_and_misaligned_clicks_miss",
        "proving_ground/suites/test_plans.py::test_plans_reach_their_answers",
        "cli/test_cli.py::test_bench_cap_follows_the_model_row_and_is_recorded",
        "harness/test_connect_settle.py::test_connect_over_cdp_and_click",
        "driving/test_honest_endings.py::test_a_dialog_storm_ends_the_task_as_page_unresponsive",
        "driving/test_honest_endings.py::test_an_endless_script_ends_the_task_quickly_as_page_unresponsive",
        "driving/test_honest_endings.py::test_downloads_are_capped_in_size_and_count_and_kept_in_the_task_folder",
        "driving/test_honest_endings.py::test_empty_model_replies_are_a_model_error_with_back_off",
        "harness/test_round_trip.py::test_scroll_breaker_needs_no_change",
        "guardrails/test_verify.py::test_verify_on_lets_the_model_redo_the_save",
        "runner/test_interrupt.py::test_ctrl_c_then_resume",
        "runner/test_ray.py::test_ray_matches_local",
        "runner/test_ray.py::test_ray_two_nodes_without_shared_output_folder",
        "runner/test_ray.py::test_ctrl_c_then_resume_on_ray",
        "breakingweb/gym/test_agentlab_experiment.py::test_an_agentlab_experiment_is_scored_by_the_backend_and_loaded_by_agentlab",
        "breakingweb/gym/test_bid_contract.py::test_the_intervention_variant_is_scored_the_same_way",
        "breakingweb/gym/test_bid_contract.py::test_refused_bids_never_run_then_bids_solve_the_clean_task",
        "breakingweb/gym/test_gui_contract.py::test_the_screenshot_has_the_familys_viewport_and_points_land",
        "environments/test_browsergym_loops.py::test_a_computer_use_models_tool_call_is_the_action_in_browsergyms_own_loop",
        "environments/test_browsergym_loops.py::test_an_agentlab_study_runs_the_agent_and_agentlab_reads_its_results",
    }
)


# Seconds each test file took in a full four-worker run (files of 8 s or more: the wall times of
# `WEBFOVEA_TEST_CPU=FILE pytest -n 4 --dist loadfile`, tests/support/cpu_profile.py, 2026-12-04,
# a quiet machine). The workers take the files in the order `_spread` below gives (scripts/test
# passes --no-loadscope-reorder: xdist would otherwise order them by their number of tests), so
# the run does not end with one worker still in a long file while the others are idle; an
# unlisted file counts as light. Refresh when the order looks off.
FILE_SECONDS = {
    "runner/test_ray.py": 130,
    # from the helpers' runs under load (2026-12-07), roughly halved for a quiet machine
    "judge/test_judge_compare.py": 25,
    "runner/test_run_budget.py": 20,
    "app/test_browse.py": 15,
    # added at stop 51 (helpers' runs at load 20-40, roughly halved): a headed browser under
    # Xvfb with a scripted person (mostly waiting), three bench runs of the protocol ablation
    "breakingweb/test_people_run_browser.py": 60,
    "app/test_protocol_ablation.py": 60,
    "routing/test_step_routing.py": 35,
    "vision/test_template_matching.py": 25,
    "generate/test_generate.py": 20,
    "guardrails/test_answer_holds_pdfjs.py": 12,
    "observation/test_scoping_on_screen.py": 90,  # real grid libraries from npm, 10 tests
    "breakingweb/test_design_rules.py": 89,
    "cli/test_cli.py": 75,
    "proving_ground/oracle/test_misreads.py": 69,
    "feedback/test_widget_settle.py": 61,
    "observation/test_scoped_snapshot.py": 56,
    "breakingweb/test_shop_bank.py": 52,
    "driving/test_honest_endings.py": 50,
    "app/test_replay_suites.py": 46,
    "breakingweb/test_own_apps_browser.py": 43,
    "breakingweb/gym/test_bid_contract.py": 35,  # measured at load 15-18 (2026-12-07)
    "breakingweb/gym/test_agentlab_experiment.py": 28,
    "breakingweb/gym/test_gui_contract.py": 17,
    "app/test_manuals.py": 43,
    "breakingweb/test_determinism.py": 36,
    "harness/test_round_trip.py": 35,
    "proving_ground/suites/test_hostile.py": 35,
    "proving_ground/oracle/test_verify.py": 35,
    "eval/test_ab.py": 35,
    "export/test_webretriever_export.py": 34,
    "breakingweb/test_recovery_browser.py": 34,
    "breakingweb/test_bench.py": 33,
    "models/test_anthropic_shapes.py": 31,
    "observation/test_structured_browser.py": 31,
    "breakingweb/test_interventions_browser.py": 29,
    "environments/test_browsergym.py": 29,
    "environments/test_browsergym_loops.py": 35,  # BrowserGym's own env, AgentLab (2026-12-07, load 12: 53 s)
    "cache/test_workflow_cache.py": 25,
    "feedback/test_settle.py": 25,
    "runner/test_safety_queue.py": 25,
    "breakingweb/test_calendar_browser.py": 24,
    "runner/test_model_faults.py": 23,
    "models/test_routes.py": 23,
    "app/test_add_a_suite.py": 23,
    "guardrails/test_site_guard.py": 22,
    "driving/test_agent.py": 21,
    "observation/test_capture_bound.py": 20,
    "proving_ground/providers/test_shapes.py": 20,
    "models/test_conventions_cap.py": 20,
    "feedback/test_detector.py": 19,
    "runner/test_local_faults.py": 19,
    "documents/test_view.py": 17,
    "proving_ground/oracle/test_suite.py": 17,
    "models/test_openai_shapes.py": 16,
    "runner/test_safety_orphans.py": 16,
    "mcp/test_mcp_http.py": 15,
    "view/test_view_browser.py": 15,  # measured alone, not in the four-worker run (2026-12-07)
    "mcp/test_mcp_ts_client.py": 25,  # Node + the TS SDK; the first run also installs it (~25 s)
    "mcp/test_mcp_browser.py": 20,
    "mcp/test_mcp_browser_http.py": 15,
    "runner/test_interrupt.py": 15,
    "record/test_config_recorded.py": 15,
    "documents/test_view_snapshot.py": 15,
    "breakingweb/test_pairing.py": 15,
    "record/test_raised_steps.py": 14,
    "mcp/test_mcp_stdio.py": 14,
    "runner/test_disk_faults.py": 14,
    "proving_ground/oracle/test_model.py": 14,
    "runner/test_work_dir.py": 14,
    "proving_ground/suites/test_builtin.py": 14,
    "observation/test_compress.py": 14,
    "feedback/test_pointer_keys.py": 13,
    "proving_ground/suites/test_plans.py": 13,
    "runner/test_safety_resume.py": 13,
    "proving_ground/test_sites.py": 13,
    "runner/test_oracle_e2e.py": 12,
    "judge/test_truth_e2e.py": 12,
    "observation/test_zoom.py": 12,
    "harness/test_connect_settle.py": 12,
    "guardrails/test_verify.py": 11,
    "feedback/test_page_cannot_forge.py": 11,
    "mcp/test_mcp_routes.py": 10,
    "actions/test_upload.py": 9,
    "guardrails/test_ocr_check.py": 9,
    "observation/test_oracle_structured.py": 9,
    "browser/test_frames_click.py": 9,
    "breakingweb/test_seam.py": 9,
    "breakingweb/test_booking.py": 9,
    "models/test_vision_model.py": 9,
    "execution/test_forms.py": 9,
    "actions/test_files_everywhere.py": 8,
    "browser/test_offline.py": 8,
    "mcp/test_mcp_inprocess.py": 8,
}


@cache
def _launches_a_browser(path: Path) -> bool:
    return bool(_LAUNCHES.search(path.read_text(encoding="utf-8")))


def _spread(items: list[pytest.Item], weight: Callable[[pytest.Item], int]) -> list[pytest.Item]:
    """The files in the order the workers take them: the heavy ones heaviest first, spread evenly
    among the light ones. Heaviest first alone ran four heavy files at once (each a CLI, a runner
    with its own browsers or a Ray cluster: the load went past 12 on two cores and the run got
    slower); spread, the longest still start early and the run does not end in one of them.
    A file's tests keep their order (module fixtures, tests that reuse an earlier run)."""
    files: dict[Path, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(Path(str(item.path)), []).append(item)
    heavy = sorted((f for f in files if weight(files[f][0])), key=lambda f: -weight(files[f][0]))
    light = [f for f in files if not weight(files[f][0])]
    per_heavy = len(light) / max(1, len(heavy))
    order: list[Path] = []
    for i, f in enumerate(heavy):
        order += [f, *light[round(i * per_heavy) : round((i + 1) * per_heavy)]]
    order += light[round(len(heavy) * per_heavy) :]
    return [item for f in order for item in files[f]]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).parent

    def weight(item: pytest.Item) -> int:
        return FILE_SECONDS.get(Path(str(item.path)).relative_to(root).as_posix(), 0)

    items[:] = _spread(items, weight)
    for item in items:
        path = Path(str(item.path))
        if "session" in getattr(item, "fixturenames", ()) or _launches_a_browser(path):
            item.add_marker(pytest.mark.browser)
        name = getattr(item, "originalname", item.name)
        if f"{path.relative_to(root).as_posix()}::{name}" in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
