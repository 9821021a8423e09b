"""The OCR cross-check (guardrails/ocr_check.py) on the proving ground's custom font: the page's
text holds private-use characters the font draws as digits, so an answer read from the screen
is on the screen (OCR) but not in the text read — no evidence against it: neither the verifier
nor the agent is told otherwise, and nothing holds it (tests/guardrails/test_answer_holds.py
holds the cases that do)."""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tests.guardrails.test_verifier import ACCEPT, Roles, act
from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.documents import ocr
from webfovea.guardrails import ocr_check
from webfovea.task import Task
from webfovea_proving_ground.sites.fonts import build_pua_font, encode_pua

in_loop = pytest.mark.asyncio(loop_scope="session")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")

SEED = 5
SCORE = "8436"


def _page() -> str:
    return f"""<style>@font-face {{ font-family: pua; src: url('/pua.ttf'); }}
.n {{ font-family: pua, sans-serif; font-size: 28px; }} body {{ font: 28px sans-serif; }}</style>
<h1>City rankings</h1><table><tr><th>City</th><th>Score</th></tr>
<tr><td>Vienna</td><td class="n">{encode_pua(SCORE, SEED)}</td></tr></table>"""


async def _run(session, tmp_path: Path, agent: list[str], verdicts: list[str], disable: list[str]):
    model = Roles(ScriptedModel(agent), ScriptedModel(verdicts))
    pages: dict[str, str | bytes] = {"/": _page(), "/pua.ttf": build_pua_font(SEED)}
    with serve_pages(pages) as srv:
        task = Task(task_id="t", task="What is Vienna's score?", website=srv.url("/"), answer=SCORE)
        result = await run_task(
            task, tmp_path / "t", model=model, config=make_config(disable=disable), session=session
        )
    return result, model


@needs_tesseract
@in_loop
async def test_an_answer_on_the_screen_but_not_in_the_text_read_goes_to_the_verifier_unflagged(
    session, tmp_path
):
    result, model = await _run(
        session,
        tmp_path,
        [act("read_text(near='Vienna')"), act(f"finished(content='{SCORE}')")],
        [ACCEPT],
        disable=[],
    )
    assert result.status == "finished" and result.evidence is not None
    ocr = result.evidence["ocr"]
    assert ocr["in_ocr"] is True and ocr["in_text"] is False and ocr["mismatch"] is False
    assert ocr["note"] is None and "on the screen" in ocr["why"]
    assert "Cross-check" not in model.verifier.seen[0].task


@needs_tesseract
@in_loop
async def test_without_a_verifier_an_answer_on_the_screen_is_not_held(session, tmp_path):
    # The custom font's digits are on the screen; the text read holds private-use characters.
    # That is no evidence against the answer: it stands at the first finished.
    result, model = await _run(
        session,
        tmp_path,
        [act("read_text(near='Vienna')"), act(f"finished(content='{SCORE}')")],
        [],
        disable=["verifier"],
    )
    assert result.status == "finished" and result.steps == 2 and result.holds is None
    assert model.verifier.calls == 0


def test_numbers_are_compared_without_their_separators():
    assert ocr_check.numbers_of("about 1,234.5 and 7") == ["12345", "7"]
    assert ocr_check.holds("Total 1 234.5 units", "12345")
    assert not ocr_check.holds("112345", "12345")


def test_the_check_is_skipped_with_a_note_without_tesseract(monkeypatch):
    monkeypatch.setattr(ocr_check.ocr, "available", lambda: False)
    image = Image.new("RGB", (200, 60), "white")
    ImageDraw.Draw(image).text((10, 20), "8436", fill="black")
    got = ocr_check.check("8436", image, ["8436"])
    assert got is not None and got.skipped and not got.mismatch
    assert got.in_ocr is None and "tesseract is not installed" in (got.note or "")
    assert ocr_check.check("no digits here", image, []) is None


def _table_page() -> str:
    rows = "".join(f"<tr><td>Town {i}</td><td>{1000 + 7 * i}</td></tr>" for i in range(60))
    return f"<style>body {{ font: 20px sans-serif; }}</style><h1>Towns</h1><table>{rows}</table>"


@needs_tesseract
@in_loop
async def test_the_region_holding_the_answer_is_read_first(session, tmp_path):
    # Town 3's figure (1021) is in the page text: only the lines around it are read, and they
    # show it, so the whole screenshot is never recognised.
    model = Roles(
        ScriptedModel([act("read_text(near='Town 3')"), act("finished(content='1021')")]),
        ScriptedModel([ACCEPT]),
    )
    with serve_pages({"/": _table_page()}) as srv:
        task = Task(task_id="t", task="Town 3's figure?", website=srv.url("/"), answer="1021")
        result = await run_task(task, tmp_path / "t", model=model, config=make_config(), session=session)
    assert result.status == "finished" and result.evidence is not None
    ocr = result.evidence["ocr"]
    assert ocr["in_ocr"] is True and ocr["mismatch"] is False, ocr
    left, top, right, bottom = ocr["region"]
    width, height = Image.open(tmp_path / "t" / "step_001.png").size
    assert (right - left) * (bottom - top) < 0.1 * width * height, ocr["region"]


def test_a_region_without_the_digits_falls_back_to_the_whole_image():
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed")
    image = Image.new("RGB", (600, 200), "white")
    draw = ImageDraw.Draw(image)
    draw.text((20, 20), "Label", fill="black", font_size=28)
    draw.text((300, 140), "8436", fill="black", font_size=28)
    got = ocr_check.check("8436", image, ["8436"], region=(0, 0, 200, 80))
    assert got is not None and got.in_ocr is True and got.region is None


@pytest.fixture
def reads(monkeypatch) -> Iterator[list[tuple[tuple[int, int], int]]]:
    """Every image this process hands to a reader: (its size as sent, how many times the reader
    enlarges it). The reader here is this process's own Tesseract."""
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed")
    monkeypatch.setenv("WEBFOVEA_OCR_CACHE", "off")
    got: list[tuple[tuple[int, int], int]] = []

    def reader(png: bytes, how: ocr.Read) -> str | None:
        got.append((Image.open(io.BytesIO(png)).size, how.enlarge))
        return ocr.read_here(png, how)

    ocr.read_through(reader)
    yield got
    ocr.read_through(None)


def test_the_whole_image_is_read_at_its_size_first_and_enlarged_only_for_small_text(reads):
    big = Image.new("RGB", (600, 200), "white")
    ImageDraw.Draw(big).text((40, 60), "Total 8436", fill="black", font_size=48)
    got = ocr_check.check("8436", big, [])
    assert got is not None and got.in_ocr is True and reads == [((600, 200), 1)]  # legible: one read
    small = Image.new("RGB", (600, 200), "white")
    ImageDraw.Draw(small).text((40, 90), "Total 8436 of 9120", fill="black", font_size=9)
    reads.clear()
    got = ocr_check.check("8436", small, [])
    # Too small at its own size: read again enlarged, and found there. The reader enlarges it:
    # this process sends the image at its own size both times.
    assert reads == [((600, 200), 1), ((600, 200), 2)] and got is not None and got.in_ocr is True


def test_a_captures_own_png_is_sent_as_it_is(reads, monkeypatch):
    encoded: list[tuple[int, int]] = []
    real = ocr_check._png
    monkeypatch.setattr(ocr_check, "_png", lambda im: encoded.append(im.size) or real(im))
    sent: list[bytes] = []
    reader = ocr._reader
    assert reader is not None
    ocr.read_through(lambda png, how: sent.append(png) or reader(png, how))
    small = Image.new("RGB", (600, 200), "white")
    ImageDraw.Draw(small).text((40, 90), "Total 8436 of 9120", fill="black", font_size=9)
    buf = io.BytesIO()
    small.save(buf, format="PNG", compress_level=9)
    png = buf.getvalue()
    got = ocr_check.check("8436", small, [], png=png)
    assert got is not None and got.in_ocr is True
    assert encoded == [] and sent == [png, png]  # never encoded again, at 1x nor at 2x


@in_loop
async def test_the_answer_check_sends_the_screenshot_the_model_saw_without_encoding_it(
    session, tmp_path, reads, monkeypatch
):
    """Digits drawn on a canvas have no text to find a region by: the whole screenshot is read,
    and what goes to the reader is the capture's own PNG, at the size the model saw it."""
    encoded: list[tuple[int, int]] = []
    real = ocr_check._png
    monkeypatch.setattr(ocr_check, "_png", lambda im: encoded.append(im.size) or real(im))
    page = """<canvas id="c" width="600" height="200"></canvas><script>
    const g = document.getElementById('c').getContext('2d');
    g.fillStyle = 'white'; g.fillRect(0, 0, 600, 200);
    g.fillStyle = 'black'; g.font = '48px sans-serif'; g.fillText('Total 8436', 40, 110);
    </script>"""
    with serve_pages({"/": page}) as srv:
        task = Task(task_id="t", task="What is the total?", website=srv.url("/"), answer=SCORE)
        result = await run_task(
            task,
            tmp_path / "t",
            model=ScriptedModel([act(f"finished(content='{SCORE}')")]),
            config=make_config(disable=["verifier"]),
            session=session,
        )
    assert result.status == "finished" and result.evidence is not None
    assert result.evidence["ocr"]["in_ocr"] is True
    shot = Image.open(tmp_path / "t" / "step_000.png")
    assert reads and all(size == shot.size for size, _ in reads), (reads, shot.size)
    assert encoded == []  # the capture's PNG went as it is
