"""Uploaded files before any engine sees them: what a file is, how many pages it has,
cutting page ranges out of it, and the one guarded door to PDFium.

Core dependencies only (no server extra, nothing from ``engines``): the upload route, the
Prefect flows and the engines all import it, and in embedded mode they share a process,
so they must share :mod:`prefect_docai.files.pdfium`'s lock.
"""
