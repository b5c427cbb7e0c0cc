"""The same seed writes byte-identical files: ``docai demo`` re-runs must add no dataset rows."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import time
from pathlib import Path

import pikepdf
import pytest

from prefect_docai.samples import write_batch
from prefect_docai.samples.batch import MANIFEST
from prefect_docai.samples.einvoice import generate_einvoice


def _digests(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir())}


def test_write_batch_is_byte_identical_for_a_seed(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    manifest = write_batch(first, count=8, seed=4)
    # second-resolution timestamps anywhere in a file would now differ between the runs
    time.sleep(1.1)
    write_batch(second, count=8, seed=4)

    variants = {d["variant"] for d in manifest["documents"]}
    assert {"e-invoice", "stream", "photo", "scanned", "born-digital"} <= variants
    a, b = _digests(first), _digests(second)
    assert len(a) == 9 and MANIFEST in a
    assert a == b
    assert (first / MANIFEST).read_bytes() == (second / MANIFEST).read_bytes()


class _LaterClock(dt.datetime):
    """factur-x's clock, a year and a few seconds on from the real one."""

    @classmethod
    def now(cls, tz: dt.tzinfo | None = None) -> _LaterClock:
        real = dt.datetime.now(tz) + dt.timedelta(days=365, seconds=7)
        return cls.fromtimestamp(real.timestamp(), tz)


def test_einvoice_does_not_depend_on_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    import facturx.facturx

    first = generate_einvoice(seed=11, lang="de")
    monkeypatch.setattr(facturx.facturx, "datetime", _LaterClock)
    second = generate_einvoice(seed=11, lang="de")
    assert first.pdf == second.pdf
    assert first.truth == second.truth

    issued = first.truth["invoiceDate"].replace("-", "")
    with pikepdf.open(io.BytesIO(first.pdf)) as pdf:
        assert str(pdf.docinfo["/CreationDate"]).startswith(f"D:{issued}")
        assert str(pdf.docinfo["/ModDate"]).startswith(f"D:{issued}")
        meta = pdf.open_metadata()
        assert str(meta["xmp:CreateDate"]).startswith(first.truth["invoiceDate"])
        assert str(meta["xmp:ModifyDate"]).startswith(first.truth["invoiceDate"])
        (spec,) = pdf.attachments.values()
        assert spec.filename == "factur-x.xml"
        assert str(spec.obj.EF.F.Params.ModDate).startswith(f"D:{issued}")
