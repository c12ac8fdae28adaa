"""Settings that stick: a TOML file in the user config dir (or `$LNDRILL_CONFIG`); a broken file is one line
and the defaults, never a crash, and is never written over."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import settle

from lndrill.settings import (
    CONFIG_ENV,
    MockSettings,
    PanelSettings,
    Settings,
    config_path,
    load_settings,
    parse_settings,
    render_settings,
    save_settings,
)
from lndrill.tui.app import make_app
from lndrill.tui.simknobs import PanelKnobs
from lndrill.tui.widgets.sim_panel import SimPanel


def test_config_path_follows_the_environment(tmp_path: Path) -> None:
    assert config_path() == Path(os.environ[CONFIG_ENV])


def test_lndrill_home_keeps_its_own_settings(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(CONFIG_ENV)
    monkeypatch.setenv("LNDRILL_HOME", str(tmp_path / "home"))
    assert config_path() == tmp_path / "home" / "config.toml"
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "elsewhere.toml"))
    assert config_path() == tmp_path / "elsewhere.toml"  # an explicit config file still wins


def test_round_trip(tmp_path: Path) -> None:
    settings = Settings(theme="nord", lang="zh", panel=PanelSettings(depths="1-24", width=32, metric="param", seed=3,
                                                                      placements=("post", "sandwich")),
                        mock=MockSettings(questions=5, minutes=2.5, tag="warmup"))
    path = tmp_path / "c" / "config.toml"
    save_settings(settings, path)
    loaded = load_settings(path)
    assert loaded.settings == settings and loaded.notice is None
    assert parse_settings(render_settings(settings))[0] == settings


@pytest.mark.parametrize("text", ["theme = ", "[panel]\nwidth = 'wide'\n", b"\xff\xfe".decode("latin-1")])
def test_a_broken_file_is_one_line_and_the_defaults(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, "utf-8")
    loaded = load_settings(path)
    assert loaded.notice is not None and "\n" not in loaded.notice and str(path) in loaded.notice
    assert loaded.settings.panel.width is None


def test_missing_file_is_silent(tmp_path: Path) -> None:
    loaded = load_settings(tmp_path / "none.toml")
    assert loaded.settings == Settings() and loaded.notice is None


@pytest.mark.tui
async def test_language_theme_and_panel_stick_across_runs(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id="pre-vs-post-ln")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not Path(os.environ[CONFIG_ENV]).exists()  # nothing chosen yet: nothing written
        await pilot.press("ctrl+l")
        app.theme = "textual-light"
        panel = app.screen.query_one(SimPanel)
        panel.focus()
        await pilot.press("right_square_bracket", "m")
        await settle(pilot)
        knobs = panel.knobs
        assert knobs != PanelKnobs()
    saved = load_settings().settings
    assert saved.lang == "zh" and saved.theme == "textual-light" and saved.panel.metric == knobs.metric
    app = make_app(deck=deck, start="drill", card_id="rmsnorm")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.lang == "zh" and app.theme == "textual-light"
        assert app.screen.query_one(SimPanel).knobs == knobs  # a new card's panel starts from the last knobs


@pytest.mark.tui
async def test_a_broken_config_file_is_a_notice_not_a_crash(deck) -> None:
    path = Path(os.environ[CONFIG_ENV])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("lang = [unclosed", "utf-8")
    app = make_app(deck=deck, lang="en")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        notes = [n.message for n in app._notifications]
        assert any("not valid TOML" in m for m in notes), notes
        await pilot.press("ctrl+p")  # the app works; the file stays as the user wrote it
        await pilot.press("escape")
        app.lang = "zh"
        app.settings.update(lang="zh")
    assert path.read_text("utf-8") == "lang = [unclosed"
