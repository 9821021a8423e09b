"""The tests mirror the rooms: every folder under tests/ is a room of webfovea/ (tests/package/ holds
the top-level modules and package-wide rules, tests/support/ the helpers several rooms share), and
the per-file tables of tests/conftest.py name files that exist, so a moved test keeps its weight
and its slow marker."""

from pathlib import Path

from tests.conftest import FILE_SECONDS, SLOW_TESTS

TESTS = Path(__file__).resolve().parents[1]
PKG = TESTS.parent / "webfovea"
NOT_ROOMS = {"package", "support"}
# The benchmarks' own distributions (packages/): tests/<name>/ mirrors their rooms.
BENCHMARKS = {
    "proving_ground": TESTS.parent / "packages" / "webfovea-proving-ground" / "webfovea_proving_ground",
    "breakingweb": TESTS.parent / "packages" / "webfovea-breakingweb" / "webfovea_breakingweb",
}


def _room(rel: Path) -> Path:
    top = rel.parts[0]
    return BENCHMARKS[top].joinpath(*rel.parts[1:]) if top in BENCHMARKS else PKG / rel


def test_every_test_folder_is_a_room_of_the_package() -> None:
    strays = [
        d.relative_to(TESTS).as_posix()
        for d in sorted(TESTS.rglob("*"))
        if d.is_dir()
        and d.name != "__pycache__"
        and d.relative_to(TESTS).parts[0] not in NOT_ROOMS
        and not _room(d.relative_to(TESTS)).is_dir()
    ]
    assert strays == [], f"test folders that mirror no room of webfovea/ or packages/: {strays}"


def test_no_test_module_at_the_top_of_tests() -> None:
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []


def test_the_conftest_tables_name_existing_files() -> None:
    named = set(FILE_SECONDS) | {t.split("::")[0] for t in SLOW_TESTS}
    assert sorted(f for f in named if not (TESTS / f).is_file()) == []
