"""A moto S3 server on loopback whose conditional PUTs are atomic, as on AWS S3.

moto checks ``If-None-Match: *`` and then stores the object in two steps, so two of its
request threads can both pass the check; AWS S3 does both at once. A lock around just
those requests gives moto S3's atomicity while every other request stays concurrent, so
tests and benchmarks exercise the commit protocol rather than moto's thread safety.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def moto_s3() -> Iterator[dict[str, Any]]:
    """Yields s3fs storage options (``endpoint_url``, ``key``, ``secret``)."""
    from moto.moto_server.werkzeug_app import (
        DomainDispatcherApplication,
        MotoRequestHandler,
        create_backend_app,
    )
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    def conditional_atomic(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("HTTP_IF_NONE_MATCH") and environ.get("REQUEST_METHOD") == "PUT":
            with lock:
                return list(app(environ, start_response))
        return app(environ, start_response)

    server = make_server(
        "127.0.0.1", 0, conditional_atomic, threaded=True, request_handler=MotoRequestHandler
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield {
            "endpoint_url": f"http://127.0.0.1:{server.server_port}",
            "key": "testing",
            "secret": "testing",
        }
    finally:
        server.shutdown()
        thread.join()
