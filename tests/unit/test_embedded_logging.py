"""Starting the embedded service leaves the process's logging alone (issue 19.1).

uvicorn's default logging config runs ``dictConfig``, which flushes and closes every handler
of the process under the logging lock; with Prefect's API log handler among them a flow run
hung. The service must start without touching handlers it does not own.
"""

from __future__ import annotations

import logging

from tests.unit.client.echo_engine import ENGINES

from prefect_docai.server.embedded import EmbeddedService


class Recording(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []
        self.flushes = 0
        self.closes = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def flush(self) -> None:
        self.flushes += 1

    def close(self) -> None:
        self.closes += 1
        super().close()


def test_starting_the_service_neither_flushes_nor_closes_other_handlers() -> None:
    handler = Recording()
    other = logging.getLogger("someone.else")
    other.addHandler(handler)
    other.setLevel(logging.INFO)
    try:
        with EmbeddedService(workers=1, engines=ENGINES):
            other.info("while serving")
        other.info("after the service")
    finally:
        other.removeHandler(handler)
    assert handler.flushes == 0 and handler.closes == 0
    assert handler.messages == ["while serving", "after the service"]
    # uvicorn's own loggers have a handler, set up once however often a service starts.
    handlers = list(logging.getLogger("uvicorn").handlers)
    with EmbeddedService(workers=1, engines=ENGINES):
        pass
    assert handlers and logging.getLogger("uvicorn").handlers == handlers
