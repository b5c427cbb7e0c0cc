"""ToolClassify: the document's type, per page and for the whole document."""

from __future__ import annotations

from prefect_docai.engines.doctype.model import default_model
from prefect_docai.engines.doctype.scoring import classify_pages
from prefect_docai.engines.doctype.views import ocr_languages, page_views
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.pluginspec import EngineOptions, EngineOutput
from prefect_docai.models.tools import Tool


class ClassifyEngine:
    tool = Tool.CLASSIFY

    def __init__(self) -> None:
        # Load the model with the engine (once per worker process), not on the first job.
        self._model = default_model()

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        with load_document(data, languages=ocr_languages(options.languages)) as document:
            views = page_views(document)
            result = classify_pages(views, options.threshold, self._model)
            return EngineOutput(result=result, page_count=document.page_count)
