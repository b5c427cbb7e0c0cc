"""The AI tools as pure functions: document bytes + options → result model.

Engines know nothing of HTTP, Prefect or the database. The server finds them through
:mod:`prefect_docai.engines.pluginspec`, which holds every extension point.

Layout (imports only go down this list):

* ``pluginspec`` — the engine contract and registry;
* ``page/`` — the one page model (``model``: BBox, Word, Line), document loading, OCR,
  rasters, the text layer, fingerprints, languages, line layout, searchable-PDF output;
* ``extract/`` — parsing and field helpers invoice and receipt share (amounts, dates,
  ids, VAT, addresses, labels, rows and segments of words);
* ``doctype/`` — the document-type model (features, scoring, page views) that classify and
  paperflow share;
* one package per tool, ``engine.py`` at its door: ``icr``, ``classify``, ``invoice``,
  ``receipt``, ``tables``, ``paperflow``.
"""
