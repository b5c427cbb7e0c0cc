"""``docai prefect``: Prefect-side setup (global concurrency limits) for fleets of workers."""

from __future__ import annotations

from typing import Annotated

import typer

from prefect_docai.cli import app

prefect_app = typer.Typer(help="Prefect setup for the DocAI plugin.", no_args_is_help=True)
app.add_typer(prefect_app, name="prefect")

DEFAULT_LIMIT_NAME = "docai-requests"


def ensure_rate_limit(name: str, requests_per_second: float, burst: int = 1) -> tuple[int, float]:
    """Create or update the global concurrency limit ``name`` as a rate limit; active.

    Slots decay at ``requests_per_second``, so ``rate_limit(name)`` lets that many requests
    per second through across every worker, at most ``burst`` at once.
    """
    from prefect import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitUpdate

    if requests_per_second <= 0 or burst < 1:
        raise ValueError("requests_per_second must be > 0 and burst >= 1")
    with get_client(sync_client=True) as client:
        client.upsert_global_concurrency_limit_by_name(
            name, burst, slot_decay_per_second=requests_per_second
        )
        limit = client.read_global_concurrency_limit_by_name(name)
        if not limit.active:
            client.update_global_concurrency_limit(name, GlobalConcurrencyLimitUpdate(active=True))
        return limit.limit, float(limit.slot_decay_per_second or 0.0)


@prefect_app.command("create-limits")
def create_limits(
    credentials: Annotated[
        str | None,
        typer.Option(help="A saved DocAICredentials block: take the limit name and rate from it."),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help=f"Limit name (default: {DEFAULT_LIMIT_NAME}).")
    ] = None,
    rate: Annotated[
        float | None, typer.Option(help="Requests per second across all workers (default 1).")
    ] = None,
    burst: Annotated[int, typer.Option(help="Requests allowed at once.")] = 1,
) -> None:
    """Create (or update) the Prefect global concurrency limit that paces DocAI requests."""
    if credentials is not None:
        from prefect_docai.blocks import DocAICredentials

        block = DocAICredentials.load(credentials)
        if not isinstance(block, DocAICredentials):  # ``load`` is typed as maybe-awaitable
            raise TypeError(f"{credentials!r} did not load as DocAICredentials")
        name = name or block.concurrency_limit_name
        rate = rate or block.requests_per_second
        if name is None:
            typer.echo(
                f"error: block {credentials!r} names no concurrency_limit_name; pass --name",
                err=True,
            )
            raise typer.Exit(1)
    name = name or DEFAULT_LIMIT_NAME
    rate = rate or 1.0
    try:
        limit, decay = ensure_rate_limit(name, rate, burst)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"global concurrency limit {name!r}: {limit} slot(s), decay {decay:g}/s (active)")
