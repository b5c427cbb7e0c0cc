"""A thread keeps a bounded number of loaded Tesseract engines: a worker that meets pages in
many languages (tables and invoices read a page again in its detected language) must not
keep every engine it ever loaded (about 20 MB each)."""

from __future__ import annotations

import threading

import numpy as np
import tesserocr

from prefect_docai.engines.page import ocr


def _keys() -> list[tuple[str, int]]:
    return list(ocr._local.apis)


def test_the_least_recently_used_engine_is_ended_past_the_bound() -> None:
    results: dict[str, object] = {}

    def work() -> None:
        # A fresh thread: its own cache, and nothing of the test process's is ended.
        modes = (tesserocr.PSM.AUTO, tesserocr.PSM.SINGLE_WORD, tesserocr.PSM.SPARSE_TEXT)
        langs = ("eng", "deu+eng", "fra+eng")
        wanted = [(lang, int(psm)) for lang in langs for psm in modes]
        assert len(wanted) > ocr.MAX_APIS_PER_THREAD
        first = ocr._api(*wanted[0])
        for key in wanted[1 : ocr.MAX_APIS_PER_THREAD]:
            ocr._api(*key)
        ocr._api(*wanted[0])  # used again: now the most recent
        for key in wanted[ocr.MAX_APIS_PER_THREAD :]:
            ocr._api(*key)
        results["keys"] = _keys()
        results["kept_first"] = ocr._api(*wanted[0]) is first
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
