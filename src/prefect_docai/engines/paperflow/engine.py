"""ToolPaperFlow (= ToolDocSplit): split a page stream into documents, one PDF each."""

from __future__ import annotations

from pathlib import PurePath

from prefect_docai.engines.doctype.model import default_model
from prefect_docai.engines.doctype.scoring import label
from prefect_docai.engines.doctype.views import ocr_languages, page_views
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.paperflow.output import split_images, split_pdf
from prefect_docai.engines.paperflow.splitter import default_boundary_model, split_stream
from prefect_docai.engines.pluginspec import EngineOptions, EngineOutput, normalize_threshold
from prefect_docai.models.results import PaperFlowDocument, PaperFlowResult
from prefect_docai.models.tools import Tool


class PaperFlowEngine:
    tool = Tool.PAPERFLOW

    def __init__(self) -> None:
        self._classifier = default_model()
        self._boundaries = default_boundary_model()

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        threshold = normalize_threshold(options.threshold)
        with load_document(data, languages=ocr_languages(options.languages)) as document:
            views = page_views(document)
            documents = split_stream(views, self._boundaries, self._classifier)
            page_count = document.page_count
            is_pdf = document.pdf_bytes is not None
        results = []
        for index, doc in enumerate(documents, start=1):
            doc_type, _ = label(doc.type_probs, self._classifier.classes, threshold)
            results.append(
                PaperFlowDocument(
                    index=index,
                    start_page=doc.pages[0] + 1,
                    end_page=doc.pages[-1] + 1,
                    page_count=len(doc.pages),
                    confidence=doc.confidence,
                    document_type=doc_type,
                )
            )
        warnings = []
        separators = page_count - sum(len(d.pages) for d in documents)
        if separators:
            warnings.append(f"{separators} separator page(s) (blank or barcode sheets) left out")
        stem = PurePath(options.file_name).stem or "document"
        groups = [list(d.pages) for d in documents]
        files = split_pdf(data, groups, stem) if is_pdf else split_images(data, groups, stem)
        return EngineOutput(
            result=PaperFlowResult(documents=results),
            page_count=page_count,
            files=files,
            warnings=warnings,
        )



