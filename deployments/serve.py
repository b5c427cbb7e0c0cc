"""Serve the batch flow from one machine: no work pool, no worker, just this process.

    python deployments/serve.py --source s3://bucket/inbox/ --destination s3://bucket/datasets \
        [--credentials docai] [--cron "30 2 * * *"]

Creates two deployments on the Prefect API (``PREFECT_API_URL``) and runs their flow runs
in subprocesses of this process until it is stopped:

- ``process-documents/docai-nightly``: on the cron schedule, the configured source;
- ``process-documents/docai-on-arrival``: whenever a ``docai.batch.arrived`` event names a
  source (``payload.source``) and destination (``payload.destination``).
"""

from __future__ import annotations

import argparse
import os

from prefect import serve
from prefect.events import DeploymentEventTrigger

from prefect_docai.flows import aprocess_documents


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default=os.environ.get("DOCAI_SOURCE"), required=False)
    parser.add_argument("--destination", default=os.environ.get("DOCAI_DESTINATION"))
    parser.add_argument("--credentials", default=os.environ.get("DOCAI_CREDENTIALS_BLOCK") or None)
    parser.add_argument("--cron", default="30 2 * * *")
    parser.add_argument("--timezone", default="Europe/Berlin")
    parser.add_argument("--limit", type=int, default=1, help="Flow runs at once.")
    args = parser.parse_args(argv)
    if not args.source or not args.destination:
        parser.error("--source and --destination (or DOCAI_SOURCE / DOCAI_DESTINATION) are required")

    nightly = aprocess_documents.to_deployment(
        name="docai-nightly",
        cron=args.cron,
        parameters={
            "source": args.source,
            "destination": args.destination,
            "credentials": args.credentials,
        },
        tags=["docai", "nightly"],
        concurrency_limit=1,
    )
    on_arrival = aprocess_documents.to_deployment(
        name="docai-on-arrival",
        parameters={"credentials": args.credentials},
        triggers=[
            DeploymentEventTrigger(
                match={"prefect.resource.id": "docai.inbox.*"},
                expect={"docai.batch.arrived"},
                parameters={
                    "source": "{{ event.payload.source }}",
                    "destination": "{{ event.payload.destination }}",
                },
            )
        ],
        tags=["docai", "event"],
        concurrency_limit=1,
    )
    serve(nightly, on_arrival, limit=args.limit)


if __name__ == "__main__":
    main()
