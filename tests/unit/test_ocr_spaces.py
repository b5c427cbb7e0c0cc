"""training.ocr_spaces: labels of RapidOCR's character pairs from the annotated lines."""

from __future__ import annotations

from training.ocr_spaces import (
    _labels,
    _truth_text,
    annotation_scale,
    punct_labels,
    scaled_lines,
)


def test_a_pair_is_labelled_by_the_annotated_space() -> None:
    chars = list("TAXINVOICE")
    labels = _labels(chars, list(range(len(chars))), "Tax  invoice")
    assert labels == [0, 0, 1, 0, 0, 0, 0, 0, 0]


def test_pairs_the_alignment_cannot_place_are_left_out() -> None:
    chars = list("TOTALRM12")
    # "RM" is not in the annotation: the pairs touching it map to nothing
    labels = _labels(chars, list(range(len(chars))), "TOTAL 12")
    assert labels == [0, 0, 0, 0, None, None, None, 0]
    # a misread of the same length still maps, character by character
    assert _labels(list("T0TAL12"), list(range(7)), "TOTAL 12") == [0, 0, 0, 0, 1, 0]


def test_truth_text_takes_the_overlapping_lines_left_to_right() -> None:
    truth = [
        {"bbox": [60, 10, 100, 30], "text": "12.50"},
        {"bbox": [0, 12, 50, 28], "text": "TOTAL"},
        {"bbox": [0, 40, 50, 60], "text": "CASH"},
    ]
    assert _truth_text((0, 8, 110, 32), truth) == "TOTAL 12.50"


def test_the_lexicon_keeps_words_printed_twice_in_fitted_lines_or_generated_receipts() -> None:
    from training.ocr_spaces import lexicon

    samples = [
        {"lines": [{"text": "TAX INVOICE"}, {"text": "Total 12.50"}, {"text": "XXXXXXXX1234"}]},
        {"lines": [{"text": "tax invoice no: 7"}, {"text": "CASH"}, {"text": "card XXXXXXXX9876"}]},
    ]
    words = lexicon(samples, {"SUMME": 3, "BAR": 1})
    assert {"TAX", "INVOICE", "SUMME"} <= words
    # printed once: a shop's own word is no lexicon word; digits and one letter never are
    assert not {"TOTAL", "CASH", "BAR", "NO", "7"} & words
    assert "XXXXXXXX" not in words  # a card number's mask is no word


def test_a_respelling_is_labelled_right_when_the_annotation_prints_the_lexicon_word() -> None:
    import numpy as np
    from training.ocr_spaces import respell_rows

    from prefect_docai.engines.page.ctc import Frames, greedy_spans

    classes = ("", "J", "A", "L", "U", "N", " ", "7")
    rows: list[dict[str, float]] = []
    for char in "JALA":
        rows += [{char: 0.95}, {"": 0.95}]
    rows += [{"U": 0.5, "N": 0.45}, {"": 0.95}, {" ": 0.9}, {"7": 0.95}]
    probs = np.full((len(rows), len(classes)), 1e-4)
    for t, row in enumerate(rows):
        for name, p in row.items():
            probs[t, classes.index(name)] = p
    frames = Frames(
        np.log(probs).astype(np.float32),
        classes,
        tuple(greedy_spans(probs.argmax(axis=1))),
        "JALAU 7",
        0.9,
    )
    boxes = [[[10 * i, 0], [10 * i + 8, 0], [10 * i + 8, 20], [10 * i, 20]] for i in range(7)]
    line = [[[0, 0], [70, 0], [70, 20], [0, 20]], "JALAU 7", 0.9, boxes, list("JALAU 7")]
    line += [[0.9] * 7, frames]

    def sample(truth: str) -> dict[str, object]:
        return {"result": [line], "gray": None, "lines": [{"bbox": [0, 0, 70, 20], "text": truth}]}

    right, label_right = respell_rows([sample("JALAN 7")], None, frozenset({"JALAN"}))
    assert right.shape == (1, 9) and label_right.tolist() == [1]
    _, label_read = respell_rows([sample("JALAU 7")], None, frozenset({"JALAN"}))
    assert label_read.tolist() == [0]  # the print says what was read


def test_annotated_boxes_are_brought_to_the_pixels_of_a_shrunk_image() -> None:
    def line(box: list[float], text: str) -> list[object]:
        x0, y0, x1, y1 = box
        return [[[x0, y0], [x1, y0], [x1, y1], [x0, y1]], text, 0.9]

    truth = [
        {"bbox": [100, 200, 500, 260], "text": "POPULAR BOOK"},
        {"bbox": [80, 300, 600, 360], "text": "CO. (M) SDN BHD"},
        {"bbox": [120, 400, 560, 460], "text": "TOTAL 12.50"},
    ]
    # the image was shrunk to half its size after annotation; one line is misread
    result = [
        line([50, 100, 250, 130], "POPULARBOOK"),
        line([40, 150, 300, 180], "CO.(M)SDNBHD"),
        line([60, 200, 280, 230], "T0TAL12.50"),
        line([0, 0, 30, 10], "RM"),  # too short to say
    ]
    factor = annotation_scale(result, truth)
    assert factor == 0.5
    scaled = scaled_lines(truth, factor)
    assert scaled[0]["bbox"] == [50, 100, 250, 130] and scaled[0]["text"] == "POPULAR BOOK"
    assert _truth_text((60, 195, 280, 235), scaled) == "TOTAL 12.50"
    # nothing to match: the boxes are taken as they are
    assert annotation_scale([line([0, 0, 30, 10], "RM")], truth) == 1.0


def test_comma_candidates_are_labelled_by_the_annotated_marks() -> None:
    from prefect_docai.engines.page.ctc import Punctuation

    chars = list("ALAM SETIA 1.5")

    def at(index: int, dropped: bool) -> Punctuation:
        return Punctuation(index, dropped, ())

    candidates = [at(3, True), at(12, False), at(13, True), at(9, True)]
    # the annotation prints "ALAM," and "1,5" and ends the line after "5"
    assert punct_labels(chars, candidates, "Alam, Setia 1,5") == [1, 1, 0, 0]
    # a full stop annotated as read is a 0, a comma the annotation has not is a 0 too
    assert punct_labels(chars, candidates, "ALAM SETIA 1.5") == [0, 0, 0, 0]
    # where the annotation goes on past the line with another character: no label
    assert punct_labels(chars, [at(13, True)], "ALAM SETIA 1.5 RM") == [None]
    assert punct_labels(chars, [at(13, True)], "ALAM SETIA 1.5,") == [1]
