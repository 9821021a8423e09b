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
