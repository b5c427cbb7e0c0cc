"""deployments/notify_failed_documents.py (issue 19.7): the automation it creates on a real
Prefect API fires on the flow's ``docai.document.failed`` events and on nothing else.
That the flow emits the event for a bad file: tests/flows/test_clear_errors.py."""

from __future__ import annotations

import asyncio
import importlib.util
import uuid
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest
from prefect import get_client
from prefect.blocks.notifications import SlackWebhook
from prefect.server.events.schemas.automations import EventTrigger as ServerTrigger
from prefect.server.events.schemas.events import ReceivedEvent

pytestmark = [pytest.mark.flows, pytest.mark.timeout(300)]

SCRIPT = Path(__file__).parents[2] / "deployments" / "notify_failed_documents.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("notify_failed_documents", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def event(name: str, sha: str) -> ReceivedEvent:
    return ReceivedEvent(
        event=name,
        resource={
            "prefect.resource.id": f"docai.document.{sha}",
            "prefect.resource.name": "corrupt.pdf",
            "docai.source": "file:///inbox/corrupt.pdf",
        },
        payload={"status": "failed", "errors": ["inspect:corrupt"], "run_id": "r1"},
        id=uuid.uuid4(),
        occurred=datetime.now(UTC),
    )


def test_the_automation_notifies_on_failed_documents_only() -> None:
    script = load_script()
    block = f"docai-alerts-{uuid.uuid4().hex[:8]}"
    SlackWebhook(url="http://127.0.0.1:9/hook").save(block)

    automation_id = asyncio.run(script.create(f"slack-webhook/{block}"))

    async def read() -> object:
        async with get_client() as client:
            return await client.read_automation(automation_id)

    automation = asyncio.run(read())
    assert automation is not None
    assert automation.name == "docai-document-failed" and automation.enabled
    (action,) = automation.actions
    assert action.type == "send-notification"
    assert action.block_document_id == SlackWebhook.load(block)._block_document_id
    assert "{{ event.resource.name }}" in action.subject

    trigger = ServerTrigger.model_validate(automation.trigger.model_dump())
    assert trigger.covers(event("docai.document.failed", "ab" * 32))
    assert not trigger.covers(event("docai.document.processed", "ab" * 32))
