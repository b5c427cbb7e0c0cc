"""The shipped document-type model: hashed text n-grams + dense page features → softmax.

The model is a multinomial logistic regression stored as plain arrays in an ``.npz``
(no pickle: loading is fast and cannot execute code). Probabilities are calibrated by a
temperature fitted on held-out pages at training time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import sparse

from prefect_docai.engines.doctype.features import DENSE_FEATURES, FloatArray

MODEL_FILE = "classifier.npz"
WORD_FEATURES = 2**17
CHAR_FEATURES = 2**16
DENSE_CLIP = 5.0


def _hashers() -> tuple[Any, Any]:
    from sklearn.feature_extraction.text import HashingVectorizer

    words = HashingVectorizer(
        analyzer="word",
        ngram_range=(1, 2),
        n_features=WORD_FEATURES,
        alternate_sign=False,
        norm=None,
        token_pattern=r"(?u)\b\w\w+\b",
        lowercase=False,
    )
    chars = HashingVectorizer(
        analyzer="char_wb",
        ngram_range=(3, 5),
        n_features=CHAR_FEATURES,
        alternate_sign=False,
        norm=None,
        lowercase=False,
    )
    return words, chars


@cache
def _cached_hashers() -> tuple[Any, Any]:
    return _hashers()


def text_matrix(texts: Sequence[str]) -> sparse.csr_matrix:
    """Sublinear tf, each block L2-normalised (so page length does not dominate)."""
    words, chars = _cached_hashers()
    blocks = []
    for hasher in (words, chars):
        m = sparse.csr_matrix(hasher.transform(list(texts)), dtype=np.float64)
        m.data = np.log1p(m.data)
        norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        blocks.append(sparse.diags(1.0 / norms) @ m)
    return sparse.csr_matrix(sparse.hstack(blocks, format="csr"))


def softmax(logits: FloatArray) -> FloatArray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    result: FloatArray = exp / exp.sum(axis=1, keepdims=True)
    return result


@dataclass(frozen=True)
class ClassifierModel:
    classes: tuple[str, ...]
    coef_text: npt.NDArray[np.float32]
    coef_dense: FloatArray
    intercept: FloatArray
    dense_mean: FloatArray
    dense_scale: FloatArray
    temperature: float

    def logits(self, texts: Sequence[str], dense: FloatArray) -> FloatArray:
        x_text = text_matrix(texts)
        z = self.scale_dense(dense)
        text_part = np.asarray(x_text @ self.coef_text.T, dtype=np.float64)
        result: FloatArray = text_part + z @ self.coef_dense.T + self.intercept
        return result

    def scale_dense(self, dense: FloatArray) -> FloatArray:
        """Standardised dense features, clipped so one odd page cannot dominate the logits."""
        z: FloatArray = np.clip(
            (dense - self.dense_mean) / self.dense_scale, -DENSE_CLIP, DENSE_CLIP
        )
        return z

    def predict_proba(self, texts: Sequence[str], dense: FloatArray) -> FloatArray:
        return softmax(self.logits(texts, dense) / self.temperature)

    def save(self, path: Path) -> None:
        # The fitted weights are stored rounded (text float16, dense and intercept float32):
        # the solver's last bits depend on the BLAS build, CPU kernel and thread count, and
        # a retrain on another machine must still write the same bytes (make train-check).
        np.savez_compressed(
            path,
            classes=np.array(self.classes),
            coef_text=self.coef_text.astype(np.float16),
            coef_dense=self.coef_dense.astype(np.float32),
            intercept=self.intercept.astype(np.float32),
            dense_mean=self.dense_mean,
            dense_scale=self.dense_scale,
            temperature=np.array(self.temperature),
            dense_names=np.array(DENSE_FEATURES),
        )

    @classmethod
    def load(cls, path: Path | None = None) -> ClassifierModel:
        if path is None:
            ref = resources.files("prefect_docai.engines").joinpath("data", MODEL_FILE)
            with resources.as_file(ref) as file, np.load(file, allow_pickle=False) as npz:
                return cls._from_npz(npz)
        with np.load(path, allow_pickle=False) as npz:
            return cls._from_npz(npz)

    @classmethod
    def _from_npz(cls, npz: Any) -> ClassifierModel:
        names = tuple(str(n) for n in npz["dense_names"])
        if names != DENSE_FEATURES:
            raise ValueError("classifier model was trained with other dense features; retrain it")
        return cls(
            classes=tuple(str(c) for c in npz["classes"]),
            coef_text=npz["coef_text"].astype(np.float32),
            coef_dense=npz["coef_dense"].astype(np.float64),
            intercept=npz["intercept"].astype(np.float64),
            dense_mean=npz["dense_mean"].astype(np.float64),
            dense_scale=npz["dense_scale"].astype(np.float64),
            temperature=float(npz["temperature"]),
        )


@cache
def default_model() -> ClassifierModel:
    return ClassifierModel.load()
