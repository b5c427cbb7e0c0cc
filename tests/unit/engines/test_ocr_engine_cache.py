"""A thread keeps a bounded number of loaded Tesseract engines, one per language set: a
worker that meets pages in many languages (tables and invoices read a page again in its
detected language) must not keep every engine it ever loaded (about 20 MB each), and one
engine reads in every page segmentation mode as an engine loaded for that mode does."""

from __future__ import annotations

import threading

import numpy as np
import tesserocr
from PIL import Image

from prefect_docai.engines.page import ocr


def _keys() -> list[str]:
    return list(ocr._local.apis)


def test_the_least_recently_used_engine_is_ended_past_the_bound() -> None:
    results: dict[str, object] = {}

    def work() -> None:
        # A fresh thread: its own cache, and nothing of the test process's is ended.
        packs = ("eng", "deu", "fra", "nld", "ita", "spa")
        wanted = [*packs, *(f"{pack}+eng" for pack in packs[1:4])]
        assert len(wanted) > ocr.MAX_APIS_PER_THREAD
        auto = int(tesserocr.PSM.AUTO)
        first = ocr._api(wanted[0], auto)
        for key in wanted[1 : ocr.MAX_APIS_PER_THREAD]:
            ocr._api(key, auto)
        ocr._api(wanted[0], auto)  # used again: now the most recent
        for key in wanted[ocr.MAX_APIS_PER_THREAD :]:
            ocr._api(key, int(tesserocr.PSM.SINGLE_WORD))
        results["keys"] = _keys()
        results["kept_first"] = ocr._api(wanted[0], int(tesserocr.PSM.SPARSE_TEXT)) is first
        results["wanted"] = wanted
        # The engines left still read.
        gray = np.full((60, 200), 255, dtype=np.uint8)
        results["words"] = ocr.recognize(gray, 300, "eng")
        ocr.release_apis()
        results["after_release"] = _keys()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    wanted = results["wanted"]
    assert isinstance(wanted, list)
    keys = results["keys"]
    assert isinstance(keys, list)
    assert len(keys) == ocr.MAX_APIS_PER_THREAD
    # The one used again survived; the next oldest were ended, in order of last use.
    assert results["kept_first"] is True
    assert wanted[1] not in keys
    assert wanted[-1] in keys
    assert results["words"] == []
    assert results["after_release"] == []


def test_one_engine_reads_each_mode_as_an_engine_loaded_for_it(english_scan: Image.Image) -> None:
    """A language set's engine is loaded once and set to each reading's mode: its readings
    are those of engines loaded for each mode (the same words, boxes and confidences)."""
    gray = np.asarray(english_scan.convert("L"), dtype=np.uint8)
    modes = [int(m) for m in (tesserocr.PSM.AUTO, tesserocr.PSM.SPARSE_TEXT,
                              tesserocr.PSM.SINGLE_BLOCK, tesserocr.PSM.AUTO)]
    results: dict[str, object] = {}

    def shared() -> None:
        results["shared"] = [ocr.recognize(gray, 300, "eng", psm) for psm in modes]
        results["engines"] = _keys()
        ocr.release_apis()

    def fresh() -> None:
        readings = []
        for psm in modes:
            readings.append(ocr.recognize(gray, 300, "eng", psm))
            ocr.release_apis()  # the next reading loads an engine of its own
        results["fresh"] = readings

    for work in (shared, fresh):
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    assert results["engines"] == ["eng"]
    shared_readings, fresh_readings = results["shared"], results["fresh"]
    assert isinstance(shared_readings, list) and isinstance(fresh_readings, list)
    assert all(shared_readings) and shared_readings == fresh_readings
    assert shared_readings[0] != shared_readings[1]  # the modes do read differently
