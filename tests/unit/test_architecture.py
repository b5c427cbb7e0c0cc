"""The layer rules (docs/architecture.md §1) hold, and each import-linter contract bites.

The contracts live in pyproject.toml ``[tool.importlinter]``; ``make lint`` runs them too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))


def _lint(cwd: Path, pythonpath: Path) -> tuple[int, dict[str, str]]:
    """Exit code and contract name → KEPT/BROKEN of ``lint-imports`` on pyproject's contracts."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run(
        [LINT_IMPORTS, "--config", str(ROOT / "pyproject.toml"), "--no-cache", "--no-logo"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    verdicts = dict(re.findall(r"^(\d+\. .+?) ?(KEPT|BROKEN)\b", done.stdout, flags=re.M))
    return done.returncode, verdicts


def test_the_package_keeps_every_contract() -> None:
    code, verdicts = _lint(ROOT, ROOT / "src")
    assert len(verdicts) == 12
    assert code == 0, [name for name, verdict in verdicts.items() if verdict != "KEPT"]


# One planted violation per rule, in a stand-in package of the same layout.
VIOLATIONS = {
    "tasks/__init__.py": "import prefect_docai.flows",  # 1 plugin stack upwards
    "engines/__init__.py": "import prefect_docai.server",  # 1 service stack upwards, 2
    "files/__init__.py": "import prefect_docai.engines",  # 1 service stack upwards, files layer
    "client/__init__.py": "import prefect",  # 3
    "server/__init__.py": "import prefect",  # 4
    "datasets/__init__.py": "import prefect_docai.engines.a",  # 5
    "models/__init__.py": "import fastapi",  # 6
    "samples/__init__.py": "import prefect_docai.cli",  # 7
    "cli/__init__.py": "import training",  # 8
    "engines/a.py": "import prefect_docai.engines.b",  # 9: a cycle a ↔ b
    "engines/b.py": "import prefect_docai.engines.a",
    "server/resources.py": "import prefect_docai.server.service",  # 10 (no cycle needed)
    "server/service.py": "",
    # the one sanctioned door (rule 5); its ignore entry must match an import
    "flows/service.py": "import prefect_docai.server.embedded",
}


def test_each_contract_catches_its_violation(tmp_path: Path) -> None:
    package = tmp_path / "prefect_docai"
    for layer in (
        "cli",
        "flows",
        "tasks",
        "blocks",
        "datasets",
        "client",
        "models",
        "server",
        "engines",
        "files",
        "samples",
    ):
        (package / layer).mkdir(parents=True)
        (package / layer / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    # Contract 10 names the service's own modules as its layers.
    (package / "server" / "api").mkdir()
    (package / "server" / "web").mkdir()
    for module in (
        "embedded.py",
        "app.py",
        "web/__init__.py",
        "api/__init__.py",
        "jobs.py",
        "mail.py",
        "retention.py",
        "jobstore.py",
        "accounts.py",
        "db.py",
    ):
        (package / "server" / module).write_text("")
    for path, line in VIOLATIONS.items():
        (package / path).write_text(line + "\n")
    code, verdicts = _lint(tmp_path, tmp_path)
    assert code != 0
    assert len(verdicts) == 12
    assert [name for name, verdict in verdicts.items() if verdict != "BROKEN"] == []
