"""Upload options as one typed value: a task parameter, a block field, a form in the UI."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from prefect_docai.client import UploadOptions


class UploadParameters(BaseModel):
    """The optional parameters of an upload, as one typed task parameter (a form in the UI)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    file_name: str | None = Field(
        default=None, description="Name sent with the file (default: from the path or URL)."
    )
    email: str | None = Field(
        default=None, description="Mail the result to this address when the job is done."
    )
    output_formats: list[str] | None = Field(
        default=None, description="ICR output formats, e.g. ['PDF', 'TXT'] (default JSON)."
    )
    language_hint: str | None = Field(
        default=None, description="ISO 639-1 code(s) or 'auto' for ICR and table extraction."
    )
    threshold: float | None = Field(
        default=None, ge=0, le=1, description="Drop values below this confidence."
    )
    idempotency_key: str | None = Field(
        default=None,
        description="Names this logical upload for the service (same key, same job); "
        "empty in a task means the task run's id, which Prefect's retries of the run share.",
    )

    def client_options(self, default_key: str | None = None) -> UploadOptions:
        """The client's keyword options; ``default_key`` when no idempotency key is given."""
        return UploadOptions(
            file_name=self.file_name,
            email=self.email,
            output_formats=self.output_formats,
            language_hint=self.language_hint,
            threshold=self.threshold,
            idempotency_key=self.idempotency_key or default_key,
        )
