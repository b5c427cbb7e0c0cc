"""ToolICR: text recognition → JSON (pages, lines, words), searchable PDF, plain text."""

from __future__ import annotations

from prefect_docai.engines.page.document import Page, load_document
from prefect_docai.engines.page.languages import detect_language
from prefect_docai.engines.page.outputs import (
    concatenate_pdfs,
    kept_lines,
    page_text,
    searchable_pdf,
)
from prefect_docai.engines.pluginspec import EngineOptions, EngineOutput, EnginePart, OutputFile
from prefect_docai.models.results import IcrLine, IcrPage, IcrResult, IcrWord
from prefect_docai.models.tools import Tool

_LOW_CONFIDENCE = 0.5


def _round_box(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return (round(box[0], 4), round(box[1], 4), round(box[2], 4), round(box[3], 4))


def _page_result(page: Page, threshold: float | None) -> IcrPage:
    lines = []
    kept_confidences: list[float] = []
    for line in kept_lines(page, threshold):
        if line is None:
            continue
        kept_confidences.extend(word.confidence for word in line.words)
        lines.append(
            IcrLine(
                text=line.text,
                bbox=_round_box(line.bbox),
                confidence=round(line.confidence, 3),
                words=[
                    IcrWord(text=w.text, bbox=_round_box(w.bbox), confidence=round(w.confidence, 3))
                    for w in line.words
                ],
            )
        )
    confidence = sum(kept_confidences) / len(kept_confidences) if kept_confidences else 0.0
    return IcrPage(
        page=page.number,
        width=round(page.width, 2),
        height=round(page.height, 2),
        rotation=page.rotation,
        source=page.source,
        text=page_text(page, threshold),
        confidence=round(confidence, 3),
        lines=lines,
    )


def _warnings(pages: list[Page]) -> list[str]:
    warnings = []
    for page in pages:
        if page.text_layer_status == "garbled":
            warnings.append(f"page {page.number}: the text layer is unreadable; the page was OCRed")
        if not page.words:
            warnings.append(f"page {page.number}: no text found")
        elif page.source == "ocr" and page.confidence < _LOW_CONFIDENCE:
            warnings.append(
                f"page {page.number}: low recognition confidence ({page.confidence:.2f})"
            )
    return warnings


def _stem(options: EngineOptions) -> str:
    return options.file_name.rsplit(".", 1)[0] or "document"


def _text_file(options: EngineOptions, text: str) -> OutputFile:
    return OutputFile(
        f"{_stem(options)}.txt", "text/plain; charset=utf-8", text.encode("utf-8"), "TXT"
    )


class IcrEngine:
    """Page by page, so long documents run in batches (``PageBatchEngine``): a batch's
    output is its pages' results, text and searchable PDF; :meth:`merge` joins them and
    detects the language on the whole text, as one run does."""

    tool = Tool.ICR

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        threshold = options.threshold
        formats = set(options.output_formats) or {"PDF"}
        with load_document(data, languages=options.languages or ("eng",)) as document:
            if options.pages is None:
                numbers = None
                chosen = list(document.pages)
            else:
                first, last = options.pages
                numbers = list(range(first, min(last, document.page_count) + 1))
                chosen = [document.page(n) for n in numbers]
            document.prefetch([page.number for page in chosen])
            pages = [_page_result(page, threshold) for page in chosen]
            text = "\f".join(page_text(page, threshold) for page in chosen)
            result = IcrResult(
                language=detect_language(text, tuple(options.languages)),
                text=text,
                pages=pages,
            )
            files = []
            if "PDF" in formats:
                pdf = searchable_pdf(document, threshold, numbers)
                files.append(OutputFile(f"{_stem(options)}.pdf", "application/pdf", pdf, "PDF"))
            if "TXT" in formats and numbers is None:
                files.append(_text_file(options, text))
            return EngineOutput(
                result=result,
                page_count=document.page_count,
                files=files,
                warnings=_warnings(chosen),
            )

    def merge(self, data: bytes, parts: list[EnginePart], options: EngineOptions) -> EngineOutput:
        formats = set(options.output_formats) or {"PDF"}
        results = [IcrResult.model_validate(part.result) for part in parts]
        pages = [page for result in results for page in result.pages]
        text = "\f".join(result.text for result in results)
        result = IcrResult(
            language=detect_language(text, tuple(options.languages)), text=text, pages=pages
        )
        files = []
        if "PDF" in formats:
            pdfs = [file.data for part in parts for file in part.files if file.output_type == "PDF"]
            # One run gives a PDF without OCR pages back byte for byte.
            text_only = data.startswith(b"%PDF") and all(p.source == "text-layer" for p in pages)
            pdf = data if text_only else concatenate_pdfs(pdfs)
            files.append(OutputFile(f"{_stem(options)}.pdf", "application/pdf", pdf, "PDF"))
        if "TXT" in formats:
            files.append(_text_file(options, text))
        return EngineOutput(
            result=result,
            page_count=parts[0].page_count if parts else len(pages),
            files=files,
            warnings=[warning for part in parts for warning in part.warnings],
        )
