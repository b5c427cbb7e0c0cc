"""The running service: its resources, then the job runner, mail sender and purger on top."""

from __future__ import annotations

import asyncio

from prefect_docai.server.jobs import JobRunner
from prefect_docai.server.mail import MailSender
from prefect_docai.server.resources import Resources
from prefect_docai.server.retention import Purger
from prefect_docai.server.settings import Settings


class Service:
    def __init__(self, settings: Settings) -> None:
        self.resources = Resources(settings)
        self.runner = JobRunner(self.resources)
        self.mailer = MailSender(self.resources)
        self.purger = Purger(self.resources)

    async def start(self) -> None:
        await asyncio.to_thread(self.resources.db.migrate)
        await self.runner.start()
        await self.mailer.start()
        await self.purger.start()
        self.resources.ready = True

    async def stop(self) -> None:
        self.resources.ready = False
        await self.purger.stop()
        await self.mailer.stop()
        await self.runner.stop()
        await asyncio.to_thread(self.resources.pool.close)
        self.resources.db.dispose()
