"""axe-core in the browser tests: the serious and critical violations on a page.

axe-core comes from npm (package.json; `make node-deps` installs it). Its source
is run with page.evaluate, which the page's Content-Security-Policy does not
govern; a <script> tag added to the page would be refused by it (and reported).
"""

import os
from pathlib import Path
from typing import Any

import pytest

AXE_SOURCE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")

RUN = """
async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((node) => node.target.join(" ") + "  " + node.html.slice(0, 160)),
  }));
}
"""


def require_axe() -> None:
    if not AXE_SOURCE.exists():
        message = f"no axe-core at {AXE_SOURCE}: run `make node-deps` (npm ci)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the accessibility checks, but there is {message}")
        pytest.skip(message)


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical axe-core violations on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(RUN) if v["impact"] in BLOCKING]


def describe(found: dict[str, list[dict[str, Any]]]) -> str:
    """Each page's violations: id, impact, what it means and the elements."""
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: {v['id']} ({v['impact']}) {v['help']}")
            lines.extend(f"    {target}" for target in v["targets"])
    return "\n".join(lines)
