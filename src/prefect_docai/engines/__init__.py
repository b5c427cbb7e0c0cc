"""The AI tools as pure functions: document bytes + options → result model.

Engines know nothing of HTTP, Prefect or the database. The server finds them through
:mod:`prefect_docai.engines.registry`.
"""
