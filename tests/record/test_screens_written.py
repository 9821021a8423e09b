"""The step screenshots a task folder gets: the sent image as its bytes, the marked copy with the
marks drawn, and (nothing to mark) the same bytes, not a second encoding."""

from __future__ import annotations

import io

from PIL import Image

from webfovea.record.writer import RED, TaskRecorder


def _image() -> Image.Image:
    img = Image.new("RGB", (320, 180), (250, 250, 250))
    img.paste((20, 90, 200), (40, 40, 120, 80))
    return img


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def test_nothing_to_mark_writes_the_sent_bytes_twice(tmp_path):
    rec = TaskRecorder(tmp_path)
    img = _image()
    sent, marked = rec.save_screens(3, img, [], None, _png(img))
    assert (sent, marked) == ("step_003.png", "step_003_marked.png")
    assert (tmp_path / marked).read_bytes() == (tmp_path / sent).read_bytes() == _png(img)
    sent, marked = rec.save_screens(4, img, [])  # no PNG at hand: encoded once, written twice
    assert (tmp_path / marked).read_bytes() == (tmp_path / sent).read_bytes()
    assert Image.open(tmp_path / sent).convert("RGB").tobytes() == img.tobytes()


def test_a_point_is_marked_on_the_copy_only(tmp_path):
    rec = TaskRecorder(tmp_path)
    img = _image()
    sent, marked = rec.save_screens(1, img, [(200.0, 120.0)], None, _png(img))
    assert Image.open(tmp_path / sent).convert("RGB").getpixel((200, 120)) == (250, 250, 250)
    assert Image.open(tmp_path / marked).convert("RGB").getpixel((200, 120)) == RED
    _, boxed = rec.save_screens(2, img, [], (10.0, 10.0, 300.0, 170.0))  # zoom's region alone
    assert Image.open(tmp_path / boxed).convert("RGB").getpixel((10, 100)) == RED


def test_identical_screenshots_are_one_file_and_a_rewrite_leaves_the_twin(tmp_path):
    rec = TaskRecorder(tmp_path)
    img = _image()
    rec.save_screens(0, img, [], None, _png(img))
    rec.save_screens(1, img, [], None, _png(img))  # the page did not change between the steps
    names = ["step_000.png", "step_000_marked.png", "step_001.png", "step_001_marked.png"]
    inodes = {(tmp_path / n).stat().st_ino for n in names}
    assert len(inodes) == 1 and rec.linked == 3  # four names, the bytes once
    other = _image()
    other.paste((200, 30, 30), (0, 0, 20, 20))
    rec.save_screens(1, other, [], None, _png(other))  # step 1 written again with new bytes
    assert (tmp_path / "step_000.png").read_bytes() == _png(img)  # its old twin is untouched
    assert (tmp_path / "step_001.png").read_bytes() == _png(other)
    assert (tmp_path / "step_001.png").stat().st_ino != (tmp_path / "step_000.png").stat().st_ino
