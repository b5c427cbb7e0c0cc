"""The documentation site builds with ``mkdocs build --strict`` and loads nothing remote."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

REMOTE_ASSET = re.compile(r"<(?:script|link|img)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", re.I)


def test_docs_build_strict_and_offline(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "WARNING" not in done.stderr, done.stderr[-4000:]
    pages = sorted(site.rglob("*.html"))
    for name in ("architecture", "results", "operations", "reference/models", "reference/flows"):
        assert (site / name / "index.html").is_file(), name
    remote = [str(p.relative_to(site)) for p in pages if REMOTE_ASSET.search(p.read_text("utf-8"))]
    assert not remote, f"pages that load remote assets: {remote}"
    # the API reference really rendered the docstrings (not an empty page per module)
    models = (site / "reference" / "models" / "index.html").read_text("utf-8")
    assert 'id="prefect_docai.models.JobResult"' in models
    # the README parts were included, not left as snippet markers
    index = (site / "index.html").read_text("utf-8")
    assert "--8&lt;--" not in index and "process_documents" in index


LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE_DOC = re.compile(r"\.\./[^\s`)]*\.md\b")


def test_markdown_links_stay_inside_the_repository() -> None:
    """A fresh clone has every file a README or docs page links to (no ../shared/...)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    pages += sorted((ROOT / "deployments").glob("*.md"))
    dead = []
    for page in pages:
        text = page.read_text("utf-8")
        # a document named by a path outside the clone, linked or not (`../shared/…/X.md`)
        for named in OUTSIDE_DOC.findall(text):
            if not (page.parent / named).resolve().is_relative_to(ROOT):
                dead.append(f"{page.relative_to(ROOT)}: {named}")
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a URL or an anchor on the same page
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                dead.append(f"{page.relative_to(ROOT)}: {target}")
    assert not dead, dead
