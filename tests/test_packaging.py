"""The deck ships inside the wheel: a non-editable install lists the cards from any directory."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.system


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        pytest.fail(f"pip wheel failed: {res.stderr[-2000:]}")
    return next(out.glob("lndrill-*.whl"))


def test_wheel_contains_deck_and_vocabulary(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "lndrill/content/pre-vs-post-ln.yaml" in names
    assert "lndrill/scoring/vocab.yaml" in names
    assert sum(n.startswith("lndrill/content/") and n.endswith(".yaml") for n in names) >= 12


def test_installed_wheel_lists_cards_from_any_directory(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = "import sys; from lndrill.cli import main; sys.exit(main(['cards', 'list', '--json']))"
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "LNDRILL_HOME": str(tmp_path / "home")}
    res = subprocess.run([sys.executable, "-S", "-c", f"import site; site.addsitedir({str(site)!r}); "
                          f"sys_path = __import__('sys').path; sys_path.insert(0, {str(site)!r}); "
                          + _site_packages_hint() + code],
                         cwd=elsewhere, capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    cards = json.loads(res.stdout)
    assert len(cards) >= 12
    assert all("/content/" in c["path"] for c in cards)


def _site_packages_hint() -> str:
    # Dependencies (yaml, rich, numpy) come from the test interpreter's own site-packages, but the
    # project checkout must not be importable: only the extracted wheel provides `lndrill`.
    import sysconfig

    purelib = sysconfig.get_paths()["purelib"]
    return f"__import__('sys').path.append({purelib!r}); "
