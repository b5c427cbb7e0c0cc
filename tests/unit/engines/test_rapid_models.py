"""RapidOCR's derived models (engines/data/rapid_*.onnx, training/rapid_models.py): built from
the installed wheel's models, they compute what those compute (the affine blocks folded into
the convolutions, the hard-swish rewritten), and ``DOCAI_RAPID_MODELS=wheel`` runs the
wheel's own."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from prefect_docai.engines.page import rapid

needs_rapid = pytest.mark.skipif(not rapid.available(), reason="rapidocr_onnxruntime missing")


def _session(path: str) -> object:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def _wheel(name: str) -> str:
    import rapidocr_onnxruntime

    return str(Path(rapidocr_onnxruntime.__file__).parent / "models" / name)


def _text_image(width: int, height: int, lines: list[str]) -> np.ndarray:
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for row, text in enumerate(lines):
        draw.text((8, 6 + 14 * row), text, fill="black")
    return np.asarray(image, dtype=np.float32)


def _normalized(pixels: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(((pixels / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)[None])


@needs_rapid
def test_the_derived_models_are_built_from_the_installed_wheel() -> None:
    paths = rapid.derived_models()
    assert set(paths) == {"det_model_path", "rec_model_path", "cls_model_path"}
    assert all(Path(p).is_file() for p in paths.values())


@needs_rapid
def test_the_wheel_switch_runs_the_wheel_s_own_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(rapid.MODELS_ENV, "wheel")
    assert rapid.derived_models() == {}


@needs_rapid
def test_the_derived_recognizer_reads_what_the_wheel_s_reads() -> None:
    crops = []
    for text in ("TOTAL 12.50", "Kassenbon Nr 4711"):
        line = Image.fromarray(_text_image(160, 24, [text]).astype(np.uint8)).resize((320, 48))
        crops.append(_normalized(np.asarray(line, dtype=np.float32))[0])
    batch = np.stack(crops).astype(np.float32)
    derived = _session(rapid.derived_models()["rec_model_path"])
    wheel = _session(_wheel("ch_PP-OCRv4_rec_infer.onnx"))
    name = wheel.get_inputs()[0].name  # type: ignore[attr-defined]
    ours = derived.run(None, {name: batch})[0]  # type: ignore[attr-defined]
    theirs = wheel.run(None, {name: batch})[0]  # type: ignore[attr-defined]
    assert ours.shape == theirs.shape
    assert float(np.abs(ours - theirs).max()) < 1e-3
    assert np.array_equal(ours.argmax(-1), theirs.argmax(-1))
    assert (theirs.argmax(-1) != 0).sum() >= 10  # it read characters, not only blanks


@needs_rapid
def test_the_derived_detector_finds_what_the_wheel_s_finds() -> None:
    pixels = _text_image(320, 160, ["Bahnhofstr. 12", "Summe EUR 23,40", "Bar 50,00"])
    image = _normalized(pixels).astype(np.float32)
    derived = _session(rapid.derived_models()["det_model_path"])
    wheel = _session(_wheel("ch_PP-OCRv4_det_infer.onnx"))
    name = wheel.get_inputs()[0].name  # type: ignore[attr-defined]
    ours = derived.run(None, {name: image})[0]  # type: ignore[attr-defined]
    theirs = wheel.run(None, {name: image})[0]  # type: ignore[attr-defined]
    assert float(np.abs(ours - theirs).max()) < 1e-3
    assert (theirs > 0.3).sum() > 100  # text was found
    assert int(((ours > 0.3) != (theirs > 0.3)).sum()) <= 2


@needs_rapid
def test_the_shipped_models_rebuild_byte_identically() -> None:
    pytest.importorskip("onnx")
    from training.rapid_models import DATA, SOURCES, derive

    for name in SOURCES:
        blob, stats = derive(name)
        assert stats["hard_swish"] > 15
        assert blob == (DATA / name).read_bytes(), name


@needs_rapid
def test_the_detector_input_by_table_is_the_package_s_bit_for_bit() -> None:
    from rapidocr_onnxruntime.ch_ppocr_det.utils import DetPreProcess

    rng = np.random.default_rng(0)
    page = rng.integers(0, 256, size=(120, 90, 3), dtype=np.uint8)
    for inner in (
        DetPreProcess(736, "min", [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]),
        DetPreProcess(64, "max", [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ):
        theirs = np.asarray(inner(page), dtype=np.float32)
        ours = rapid.TableNormalize(inner)(page)
        assert ours is not None and ours.shape == theirs.shape
        assert np.array_equal(ours.view(np.uint32), np.ascontiguousarray(theirs).view(np.uint32))


@needs_rapid
def test_the_loaded_engine_builds_its_detector_input_by_table() -> None:
    engine = rapid._load()
    assert isinstance(engine.text_det.get_preprocess(1000), rapid.TableNormalize)


@needs_rapid
def test_the_detector_runs_with_a_shrinking_arena_and_reads_the_same() -> None:
    engine = rapid._load()
    assert isinstance(engine.text_det.infer, rapid.ShrinkingSession)
    pixels = _text_image(320, 160, ["Bahnhofstr. 12", "Summe EUR 23,40"])
    image = _normalized(pixels).astype(np.float32)
    plain = _session(rapid.derived_models()["det_model_path"])
    name = plain.get_inputs()[0].name  # type: ignore[attr-defined]
    theirs = plain.run(None, {name: image})[0]  # type: ignore[attr-defined]
    for _ in range(2):  # the second run reuses the shrunk arena
        assert np.array_equal(engine.text_det.infer(image)[0], theirs)
