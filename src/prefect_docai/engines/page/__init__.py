"""The one page model (``model``) and everything that fills it: loading an upload
(``document``), the PDF text layer, OCR, rasters, line layout, fingerprints, languages,
and the searchable-PDF / plain-text outputs built from it."""
