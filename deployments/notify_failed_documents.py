"""A notification for every document that fails: a Prefect automation on the flow's events.

    python deployments/notify_failed_documents.py --block slack-webhook/docai-alerts

``process_documents`` emits ``docai.document.failed`` for each document that failed or was
deferred (resource ``docai.document.<sha256>`` named after the file, payload with the run,
status and error codes). This creates an automation that sends each such event to a
notification block you saved before (Slack, Teams, e-mail, a custom webhook …; argument
``<block-type-slug>/<block-name>``). Equivalent in the UI: Automations → Add → Custom
trigger on ``docai.document.failed`` → Send a notification.
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import timedelta
from uuid import UUID

from prefect import get_client
from prefect.blocks.core import Block
from prefect.events.actions import SendNotification
from prefect.events.schemas.automations import AutomationCore, EventTrigger, Posture

NAME = "docai-document-failed"
SUBJECT = "DocAI: {{ event.resource.name }} failed"
BODY = """\
{{ event.resource.name }} ({{ event.resource['docai.source'] }}) did not make it into the \
datasets.
Status: {{ event.payload.status or 'deferred' }}
Errors: {{ event.payload.errors or event.payload.reason }}
Run: {{ event.payload.run_id }}
"""


def failed_document_automation(block_document_id: UUID) -> AutomationCore:
    """One notification per ``docai.document.failed`` event, through the given block."""
    return AutomationCore(
        name=NAME,
        description="Notify on every document prefect-docai could not process.",
        enabled=True,
        trigger=EventTrigger(
            match={"prefect.resource.id": "docai.document.*"},
            expect={"docai.document.failed"},
            posture=Posture.Reactive,
            threshold=1,
            within=timedelta(0),
        ),
        actions=[
            SendNotification(block_document_id=block_document_id, subject=SUBJECT, body=BODY)
        ],
    )


async def create(block: str) -> UUID:
    """Create the automation for the notification block ``<type-slug>/<name>``."""
    loaded = await Block.aload(block)
    if loaded._block_document_id is None:
        raise SystemExit(f"block {block!r} has no saved document")
    async with get_client() as client:
        return await client.create_automation(
            failed_document_automation(loaded._block_document_id)
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--block", required=True, help="Notification block as <block-type-slug>/<block-name>."
    )
    args = parser.parse_args(argv)
    automation_id = asyncio.run(create(args.block))
    print(f"created automation {NAME} ({automation_id})")


if __name__ == "__main__":
    main()
