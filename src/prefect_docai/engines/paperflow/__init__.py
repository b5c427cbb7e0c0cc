"""ToolPaperFlow (= ToolDocSplit): page stream segmentation."""

from prefect_docai.engines.paperflow.engine import PaperFlowEngine

__all__ = ["PaperFlowEngine"]
