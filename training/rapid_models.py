"""Derive the faster RapidOCR detector, recognizer and line-direction classifier shipped as
``engines/data/rapid_det.onnx``, ``rapid_rec.onnx`` and ``rapid_cls.onnx`` (:mod:`prefect_docai.engines.page.rapid`) from the
PP-OCRv4 models inside the ``rapidocr_onnxruntime`` wheel. Nothing is trained: the graphs
are rewritten into the same functions, cheaper to run.

PP-OCRv4's backbone (PPLCNetV3) follows every convolution with a learnable affine block
(``x * s + b``, scalars), a hard-swish exported as four element-wise nodes
(``y * Clip(y + 3, 0, 6) / 6``) and a second affine block. onnxruntime fuses none of that:
per convolution it ran eight passes over the activations plus two layout reorders, more
than half of the recognizer's time. Rewritten (:func:`rewrite`):

1. the hard-swish becomes ``y * HardSigmoid(y)``, which onnxruntime fuses into the
   convolution before it (one pass: the convolution with a HardSwish activation);
2. the affine block after a convolution goes into that convolution's weights and bias
   (``s * (W x + c) + b``);
3. the affine block before a convolution goes into its weights (``s``) and, where the
   convolution has no padding, its bias (``b * sum(W)``); before a zero-padded convolution
   the bias stays, as ``x + b / s``, written as a BatchNormalization (scale 1, mean 0,
   variance 1, epsilon 0: exactly an addition), which onnxruntime keeps in its blocked
   layout instead of reordering around it.

The functions are the same; only floating-point rounding moves (outputs within 5e-5 of the
original models'). Measured (one thread, CPU time, batch 6 x 48 x 320 for the recognizer,
one 3296 x 896 receipt scan for the detector, 6 x 48 x 192 for the line-direction
classifier, whose MobileNetV3 has the hard-swishes but no affine blocks): recognizer
0.172 -> 0.078 s, detector 1.21 -> 0.84 s, classifier 5.9 -> 3.8 ms.

The written files are the same bytes on every run (node names are numbered in graph
order), for one version of the wheel's models: their sha256 is kept in the derived model's
metadata (``docai_source_sha256``) and :mod:`~prefect_docai.engines.page.rapid` falls back
to the wheel's own model when it differs.

Needs the ``onnx`` package (build time only; ``requirements/build.txt``):

    .venv/bin/python -m training.rapid_models [--write] [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent.parent / "src" / "prefect_docai" / "engines" / "data"
SOURCES = {
    "rapid_det.onnx": "ch_PP-OCRv4_det_infer.onnx",
    "rapid_rec.onnx": "ch_PP-OCRv4_rec_infer.onnx",
    "rapid_cls.onnx": "ch_ppocr_mobile_v2.0_cls_infer.onnx",
}
"""Shipped file -> the wheel's model it is derived from."""
SOURCE_KEY = "docai_source_sha256"


def wheel_models() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("rapidocr_onnxruntime")
    if spec is None or spec.origin is None:
        raise SystemExit("rapidocr_onnxruntime is not installed (requirements/rapidocr.txt)")
    return Path(spec.origin).parent / "models"


class _Graph:
    """The node list of an ONNX graph with look-ups rebuilt after each change."""

    def __init__(self, graph: Any) -> None:
        self.graph = graph
        self.nodes = list(graph.node)
        self.count = 0
        self.refresh()

    def refresh(self) -> None:
        self.const = {n.output[0]: n for n in self.nodes if n.op_type == "Constant"}
        self.users: dict[str, list[Any]] = {}
        for node in self.nodes:
            for name in node.input:
                self.users.setdefault(name, []).append(node)
        for out in self.graph.output:
            self.users.setdefault(out.name, []).append(None)
        self.producer = {o: n for n in self.nodes for o in n.output}

    def value(self, name: str) -> Any:
        from onnx import numpy_helper

        node = self.const.get(name)
        return None if node is None else numpy_helper.to_array(node.attribute[0].t)

    def scalar(self, name: str) -> float | None:
        value = self.value(name)
        return float(value.ravel()[0]) if value is not None and value.size == 1 else None

    def set_value(self, name: str, array: Any) -> None:
        from onnx import numpy_helper

        tensor = numpy_helper.from_array(np.ascontiguousarray(array, dtype=np.float32))
        self.const[name].attribute[0].t.CopyFrom(tensor)

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"docai_{prefix}_{self.count}"

    def constant(self, array: Any, before: Any) -> str:
        from onnx import helper, numpy_helper

        name = self.fresh("const")
        tensor = numpy_helper.from_array(np.asarray(array, dtype=np.float32))
        self.nodes.insert(
            self.nodes.index(before), helper.make_node("Constant", [], [name], value=tensor)
        )
        return name

    def owned(self, name: str) -> bool:
        """A constant read by one node only (safe to change in place)."""
        return name in self.const and len(self.users.get(name, [])) == 1

    def sole_user(self, name: str) -> Any:
        users = self.users.get(name, [])
        return users[0] if len(users) == 1 else None


def _hard_swishes(g: _Graph) -> int:
    """``y * Clip(y + 3, 0, 6) / 6`` -> ``y * HardSigmoid(y)`` (alpha 1/6, beta 0.5)."""
    from onnx import helper

    done = 0
    for div in [n for n in g.nodes if n.op_type == "Div"]:
        if g.scalar(div.input[1]) != 6.0:
            continue
        mul = g.producer.get(div.input[0])
        if mul is None or mul.op_type != "Mul" or g.sole_user(mul.output[0]) is not div:
            continue
        clips = [g.producer.get(i) for i in mul.input]
        clip = next((n for n in clips if n is not None and n.op_type == "Clip"), None)
        if clip is None or g.sole_user(clip.output[0]) is not mul or len(clip.input) != 3:
            continue
        if g.scalar(clip.input[1]) != 0.0 or g.scalar(clip.input[2]) != 6.0:
            continue
        add = g.producer.get(clip.input[0])
        if add is None or add.op_type != "Add" or g.sole_user(add.output[0]) is not clip:
            continue
        ys = [i for i in add.input if g.scalar(i) != 3.0]
        if len(ys) != 1 or [i for i in mul.input if i != clip.output[0]] != ys:
            continue
        gate = g.fresh("hardsigmoid")
        at = g.nodes.index(add)
        for node in (add, clip, mul, div):
            g.nodes.remove(node)
        g.nodes.insert(at, helper.make_node("Mul", [ys[0], gate], [div.output[0]]))
        g.nodes.insert(at, helper.make_node("HardSigmoid", ys, [gate], alpha=1 / 6, beta=0.5))
        done += 1
    g.refresh()
    return done


def _affine(g: _Graph, mul: Any) -> tuple[str, float, float, Any] | None:
    """``mul`` = ``Mul(x, s)`` read only by ``Add(., b)`` (scalars): x, s, b and the Add."""
    if mul.op_type != "Mul":
        return None
    scales = [g.scalar(i) for i in mul.input]
    if sum(s is not None for s in scales) != 1:
        return None
    add = g.sole_user(mul.output[0])
    if add is None or add.op_type != "Add":
        return None
    biases = [g.scalar(i) for i in add.input]
    if sum(b is not None for b in biases) != 1:
        return None
    x = mul.input[scales.index(None)]
    scale = next(s for s in scales if s is not None)
    bias = next(b for b in biases if b is not None)
    return x, scale, bias, add


def _conv_bias(g: _Graph, conv: Any, channels: int) -> Any:
    return g.value(conv.input[2]) if len(conv.input) > 2 else np.zeros(channels, np.float32)


def _store_bias(g: _Graph, conv: Any, bias: Any) -> None:
    if len(conv.input) > 2:
        g.set_value(conv.input[2], bias)
    else:
        conv.input.append(g.constant(bias, conv))


def _affines_after_convs(g: _Graph) -> int:
    """``Conv -> Mul(s) -> Add(b)`` -> the convolution with weights ``s W``, bias ``s c + b``."""
    done = 0
    for conv in [n for n in g.nodes if n.op_type == "Conv"]:
        mul = g.sole_user(conv.output[0])
        found = _affine(g, mul) if mul is not None else None
        if found is None or found[0] != conv.output[0] or not g.owned(conv.input[1]):
            continue
        if len(conv.input) > 2 and not g.owned(conv.input[2]):
            continue
        _, scale, shift, add = found
        weights = g.value(conv.input[1])
        bias = _conv_bias(g, conv, weights.shape[0])
        g.set_value(conv.input[1], weights * np.float32(scale))
        _store_bias(g, conv, bias * np.float32(scale) + np.float32(shift))
        conv.output[0] = add.output[0]
        g.nodes.remove(mul)
        g.nodes.remove(add)
        g.refresh()
        done += 1
    return done


def _padded(conv: Any) -> bool:
    pads = next((list(a.ints) for a in conv.attribute if a.name == "pads"), [])
    auto = next((a.s for a in conv.attribute if a.name == "auto_pad"), b"NOTSET")
    return any(pads) or auto not in (b"NOTSET", b"VALID")


def _affines_before_convs(g: _Graph) -> tuple[int, int]:
    """``Mul(s) -> Add(b) -> Conv`` -> the convolution with weights ``s W`` and, unpadded, bias
    ``c + b sum(W)``; padded, ``x + b / s`` stays (zero padding pads ``s x + b``, not ``x``),
    as a BatchNormalization that adds exactly."""
    from onnx import helper

    folded = kept = 0
    for mul in [n for n in g.nodes if n.op_type == "Mul"]:
        found = _affine(g, mul)
        if found is None:
            continue
        x, scale, shift, add = found
        convs = g.users.get(add.output[0], [])
        if (
            scale == 0.0
            or not convs
            or any(
                c is None
                or c.op_type != "Conv"
                or list(c.input[:1]) != [add.output[0]]
                or not g.owned(c.input[1])
                or (len(c.input) > 2 and not g.owned(c.input[2]))
                for c in convs
            )
        ):
            continue
        padded = any(_padded(c) for c in convs)
        for conv in convs:
            weights = g.value(conv.input[1])
            if not padded:
                bias = _conv_bias(g, conv, weights.shape[0])
                _store_bias(g, conv, bias + np.float32(shift) * weights.sum(axis=(1, 2, 3)))
            g.set_value(conv.input[1], weights * np.float32(scale))
        if padded:
            first = convs[0]
            group = next((a.i for a in first.attribute if a.name == "group"), 1)
            channels = g.value(first.input[1]).shape[1] * group
            inputs = [
                g.constant(np.ones(channels), mul),
                g.constant(np.full(channels, shift / scale), mul),
                g.constant(np.zeros(channels), mul),
                g.constant(np.ones(channels), mul),
            ]
            at = g.nodes.index(mul)
            g.nodes.remove(mul)
            g.nodes.remove(add)
            g.nodes.insert(
                at,
                helper.make_node("BatchNormalization", [x, *inputs], [add.output[0]], epsilon=0.0),
            )
            kept += 1
        else:
            for conv in convs:
                conv.input[0] = x
            g.nodes.remove(mul)
            g.nodes.remove(add)
            folded += 1
        g.refresh()
    return folded, kept


def rewrite(model: Any) -> dict[str, int]:
    """Rewrite ``model`` (an ``onnx.ModelProto``) in place; what was rewritten, counted."""
    import onnx

    g = _Graph(model.graph)
    stats = {"hard_swish": _hard_swishes(g), "affine_into_conv": _affines_after_convs(g)}
    stats["affine_into_next_conv"], stats["affine_kept_as_add"] = _affines_before_convs(g)
    # Constants nothing reads any more (the removed nodes' scalars).
    g.nodes = [n for n in g.nodes if n.op_type != "Constant" or n.output[0] in g.users]
    del model.graph.node[:]
    model.graph.node.extend(g.nodes)
    onnx.checker.check_model(model)
    return stats


def derive(name: str) -> tuple[bytes, dict[str, int]]:
    """The shipped file ``name``'s bytes, derived from the installed wheel's model."""
    import onnx

    source = wheel_models() / SOURCES[name]
    raw = source.read_bytes()
    model = onnx.load_from_string(raw)
    stats = rewrite(model)
    entry = model.metadata_props.add()
    entry.key, entry.value = SOURCE_KEY, hashlib.sha256(raw).hexdigest()
    return model.SerializeToString(deterministic=True), stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write engines/data/rapid_*.onnx")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when a shipped file differs from its rebuild"
    )
    args = parser.parse_args(argv)
    differs = False
    for name in SOURCES:
        blob, stats = derive(name)
        target = DATA / name
        same = target.is_file() and target.read_bytes() == blob
        differs = differs or not same
        print(
            f"{name}: {stats}, {len(blob)} bytes, sha256 {hashlib.sha256(blob).hexdigest()[:16]}"
            f" ({'same as' if same else 'differs from'} the shipped file)"
        )
        if args.write:
            target.write_bytes(blob)
    return 1 if args.check and differs else 0


if __name__ == "__main__":
    sys.exit(main())
