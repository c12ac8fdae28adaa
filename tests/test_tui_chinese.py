"""Chinese mode shows no fixed English label a Chinese user would notice: the browser's due and level
columns and its preview, the card and mock headers' difficulty, the Stats tables, the simulator and
training charts (title, axis, legend, notes), the command palette, the help panel and the footer. English
mode and the command line stay as they were. Widths at 80x24 are in tests/test_cjk_widths.py."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from helpers import FakeClock, hand_scored, settle, static_text
from rich.console import Console
from textual.widgets import DataTable, Select, Static

from lndrill.practice.mock import MockOptions
from lndrill.sim import SimConfig, sweep
from lndrill.sim.config import METRICS, MODELS, PLACEMENTS, SimConfigError
from lndrill.sim.metrics import notes_for
from lndrill.sim.render import SimChart, translate_note
from lndrill.store import open_store
from lndrill.train.render import LossChart
from lndrill.train.run import TrainConfig, train
from lndrill.tui.app import make_app
from lndrill.tui.lang import LEVEL_ZH, PALETTE_ZH, level

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
MAIN, OLD = "pre-vs-post-ln", "rmsnorm"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _history(deck) -> None:  # noqa: ANN001
    """MAIN answered 5 minutes ago (due in a few days), OLD 60 days ago (due now); the rest never."""
    with open_store() as store:
        for card_id, ago in ((OLD, timedelta(days=60)), (MAIN, timedelta(minutes=5))):
            card = deck.get(card_id)
            result = hand_scored(card, {p.id for s in card.sections for p in s.points})
            attempt = store.record_attempt(card_id, "drill", {"answer": "x"}, result, 30, now=T0 - ago)
            store.review(card_id, result.score, 30, now=T0 - ago, attempt_id=attempt)


def _render(renderable: object, width: int = 100) -> str:
    console = Console(file=StringIO(), width=width, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def _shown(screen, selector: str) -> str:  # noqa: ANN001
    """What a Select shows as its current choice."""
    from textual.widgets._select import SelectCurrent

    return str(screen.query_one(selector, Select).query_one(SelectCurrent).label)


def test_level_names() -> None:
    assert [level("zh", d) for d in ("easy", "medium", "hard")] == ["简单", "中等", "困难"]
    assert level("en", "medium") == "medium" and level("zh", "unknown") == "unknown"


# ---------------------------------------------------------------------------------------------- browser
@pytest.mark.tui
async def test_the_browser_in_chinese_says_new_due_and_the_level(deck) -> None:
    _history(deck)
    app = make_app(deck=deck, start="drill", lang="zh", now=lambda: T0)
    async with app.run_test(size=(80, 24)) as pilot:  # no preview pane: the level column is shown
        await settle(pilot)
        browser = app.screen
        table = browser.query_one(DataTable)
        assert [c.label.plain for c in table.columns.values()] == ["卡片", "标签", "难度", "上次", "到期"]

        def cell(card_id: str, column: str) -> str:
            return str(table.get_cell(card_id, column).plain)

        new = next(cid for cid in browser.visible_ids if cid not in (MAIN, OLD))
        assert cell(new, "due") == "新" and cell(OLD, "due") == "已到期"
        assert re.fullmatch(r"\d+(分钟|小时|天)后", cell(MAIN, "due")), cell(MAIN, "due")
        for cid in browser.visible_ids:
            assert cell(cid, "level") == LEVEL_ZH[deck.get(cid).difficulty]
            assert not re.search(r"[a-z]", cell(cid, "due") + cell(cid, "level")), cid
        await pilot.press(*"困难")  # the level in Chinese filters too
        await pilot.pause()
        assert browser.visible_ids and all(deck.get(cid).difficulty == "hard" for cid in browser.visible_ids)
    app = make_app(deck=deck, start="drill", lang="zh", now=lambda: T0)
    async with app.run_test(size=(120, 40)) as pilot:  # the preview pane names the level
        await settle(pilot)
        browser = app.screen
        first = deck.get(browser.visible_ids[0])
        preview = static_text(browser.query_one("#browser-preview-text", Static))
        assert f"{first.id}  ·  {LEVEL_ZH[first.difficulty]}  ·" in preview
        await pilot.press("ctrl+l")  # and back in English, as before
        await pilot.pause()
        assert f"{first.id}  ·  {first.difficulty}  ·" in static_text(browser.query_one("#browser-preview-text"))
        assert browser.query_one(DataTable).get_cell(OLD, "due").plain == "due now"


# ---------------------------------------------------------------------------------------------- headers
@pytest.mark.tui
async def test_the_card_and_mock_headers_name_the_level_in_chinese(deck) -> None:
    app = make_app(deck=deck, start="drill", card_id=MAIN, lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = static_text(app.screen.query_one("#card-bar", Static))
        assert f"{MAIN}  ·  中等  ·" in bar and "medium" not in bar
    options = MockOptions(questions=1, minutes=1, seed=7)
    app = make_app("mock", deck=deck, lang="zh", clock=FakeClock(), now=lambda: T0, mock=options)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        head = static_text(screen.query_one("#mock-head", Static))
        assert f"·  {LEVEL_ZH[screen.card.difficulty]}  ·" in head and screen.card.difficulty not in head


@pytest.mark.tui
async def test_a_narrow_terminal_gets_the_compact_footer_so_the_chinese_keys_fit(deck) -> None:
    from textual.widgets import Footer

    app = make_app(deck=deck, start="drill", card_id=MAIN, lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(Footer).compact
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert not app.screen.query_one(Footer).compact


# ---------------------------------------------------------------------------------------------- stats
@pytest.mark.tui
async def test_stats_in_chinese(deck) -> None:
    _history(deck)
    app = make_app(deck=deck, lang="zh", now=lambda: T0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_stats()
        await pilot.pause()
        screen = app.screen

        def headers(selector: str) -> list[str]:
            return [c.label.plain for c in screen.query_one(selector, DataTable).columns.values()]

        assert headers("#stats-cards") == ["卡片", "回答数", "最高", "上次", "下次到期"]
        assert headers("#stats-sections") == ["卡片", "部分", "平均"]
        assert headers("#stats-tags") == ["标签", "平均", "回答数"]
        assert str(screen.query_one("#stats-sections-title").content).startswith("各部分")
        cards = screen.query_one("#stats-cards", DataTable)
        assert cards.get_row(OLD)[4].plain.startswith("已到期")
        assert re.match(r"\d+(分钟|小时|天)后  ", cards.get_row(MAIN)[4].plain)
        sections = screen.query_one("#stats-sections", DataTable)
        titles = {str(sections.get_row(key)[1].plain) for key in (r.value for r in sections.rows)}
        assert titles == {s.title.zh for cid in (MAIN, OLD) for s in deck.get(cid).sections}


# ---------------------------------------------------------------------------------------------- charts
def test_the_simulator_chart_in_chinese() -> None:
    result = sweep(SimConfig(preset="article"))
    zh, en = _render(SimChart(result, lang="zh")), _render(SimChart(result))
    for word in ("深度 1 ", "按原文：article", "如实：jacobian", "对数刻度", "注：", "模型 toy"):
        assert word in zh, word
    for word in ("depth ", "Note:", "log scale", "as published", "faithful", "model toy"):
        assert word not in zh and word in en, word
    layer = sweep(SimConfig(metric="param", depths=(4,), width=8))
    assert "第 1 层" in _render(SimChart(layer, lang="zh"), 120)


def test_every_simulator_note_has_its_chinese() -> None:
    notes = set()
    for metric, model, shared in itertools.product(METRICS, MODELS, (False, True)):
        for n in range(1, len(PLACEMENTS) + 1):
            for placements in itertools.combinations(PLACEMENTS, n):
                depths = (12,) if metric in ("param", "last-layer", "stream") else (1, 2, 4)
                try:
                    config = SimConfig(metric=metric, model=model, placements=placements, depths=depths,
                                       shared_weights=shared)
                except SimConfigError:
                    continue
                notes.update(notes_for(config))
    slopes = sweep(SimConfig(metric="update", depths=(1, 2, 4), width=8)).notes
    notes.update(n for n in slopes if n.startswith(("Slope", "Admin's own")))
    assert len(notes) >= 10
    for note in notes:
        zh = translate_note(note, "zh")
        assert zh != note and CJK.search(zh), note
        assert translate_note(note, "en") == note
    assert translate_note("Some new note.", "zh") == "Some new note."  # unknown: shown as it is


def test_the_training_chart_in_chinese() -> None:
    result = train(TrainConfig(depth=2, width=8, heads=2, vocab=5, length=4, batch=4, steps=12, curve_points=6,
                               placements=("post", "pre"), warmups=(0, 5)))
    zh, en = _render(LossChart(result, lang="zh")), _render(LossChart(result))
    for word in ("训练 loss（nats/词元，对数刻度）", "第 0 步", "第 12 步", "Post-LN，warm-up 0", "Pre-LN，warm-up 5"):
        assert word in zh, word
    for word in ("training loss", "step 0", "step 12", "Post-LN, warm-up 0"):
        assert word not in zh and word in en, word
    zh_axis = next(line for line in zh.splitlines() if "第 0 步" in line)
    en_axis = next(line for line in en.splitlines() if "step 0" in line)
    assert zh_axis.index("第 0 步") == en_axis.index("step 0")  # the same place under the axis


@pytest.mark.tui
async def test_the_simulator_screen_and_panel_follow_the_language(deck) -> None:
    from lndrill.tui.widgets.chart_view import ChartView

    app = make_app("sim", deck=deck, lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.query_one("#sim-table", DataTable)
        assert next(iter(table.columns.values())).label.plain == "深度"
        assert "深度 1 " in static_text(screen.query_one("#sim-chart", Static))
        assert _shown(screen, "#preset") == "无" and _shown(screen, "#scale") == "对数"
        await pilot.press("ctrl+o")  # the scale control: log -> linear, named in Chinese
        await settle(pilot)
        assert screen.query_one("#scale", Select).value == "linear" and _shown(screen, "#scale") == "线性"
        assert "线性刻度" in static_text(screen.query_one("#sim-chart", Static))
        app.lang = "en"
        await settle(pilot)
        assert next(iter(table.columns.values())).label.plain == "depth"
        assert "linear scale" in static_text(screen.query_one("#sim-chart", Static))
        assert screen.query_one("#scale", Select).value == "linear"  # relabelled, not reset
        assert _shown(screen, "#scale") == "linear" and _shown(screen, "#preset") == "none"
    app = make_app(deck=deck, start="drill", card_id=MAIN, lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        await settle(pilot)
        chart = app.screen.query_one(ChartView)
        assert "深度 1 " in chart.plain and "depth" not in chart.plain
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert "depth 1 " in chart.plain


# ---------------------------------------------------------------------------------------------- palette, help, footer
def test_every_palette_entry_and_help_text_has_its_chinese() -> None:
    from lndrill.tui.screens import (
        browser,
        card,
        feedback,
        home,
        mock,
        sim,
        stats,
        training,
    )
    from lndrill.tui.screens.base import LndrillScreen
    from lndrill.tui.widgets.sim_panel import SimPanel

    screens = [browser.BrowserScreen, card.CardScreen, feedback.FeedbackScreen, home.HomeScreen,
               mock.MockScreen, mock.MockReportScreen, sim.SimScreen, stats.StatsScreen, training.TrainingScreen]
    assert all(issubclass(s, LndrillScreen) for s in screens)
    for screen in screens:
        for title, help_text, _action in screen.PALETTE:
            assert title in PALETTE_ZH and help_text in PALETTE_ZH, (screen, title)
    for node in [*screens, SimPanel]:
        assert node.HELP and node.HELP_ZH, node
        keys = set(re.findall(r"`([^`]+)`", node.HELP))
        assert keys <= set(re.findall(r"`([^`]+)`", node.HELP_ZH)), (node, keys)


@pytest.mark.tui
async def test_the_palette_help_panel_and_footer_in_chinese(deck) -> None:
    from textual.widgets import HelpPanel, Markdown
    from textual.widgets._footer import FooterKey

    from lndrill.tui.commands import NavigationCommands
    from lndrill.tui.screens.browser import BrowserScreen

    app = make_app(deck=deck, start="drill", lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = {k.description for k in app.screen.query(FooterKey)}
        assert {"主页", "退出", "命令"} <= footer and "palette" not in footer
        provider = NavigationCommands(app.screen)
        found = [hit.text async for hit in provider.search("stats")]  # an English word still finds it
        assert "统计" in found
        shown = [hit.text async for hit in provider.discover()]
        assert "练习：卡片列表" in shown and not any(t and t.startswith("打开卡片") for t in shown)
        await pilot.press("f1")
        await pilot.pause()
        help_text = app.screen.query_one(HelpPanel).query_one(Markdown)
        assert "卡片列表" in help_text.source and "Card browser" not in help_text.source
        assert "排在最前。`enter`" in help_text.source  # no stray space where a line ended in Chinese
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert "Card browser" in help_text.source
        # English at 80 columns: short words, quit and help shown; the palette hint makes room (ctrl+p still opens it)
        english = {k.description for k in app.screen.query(FooterKey)}
        assert BrowserScreen.HELP_ZH and {"Quit", "Help", "Home"} <= english and "palette" not in english


@pytest.mark.tui
async def test_the_too_small_notice_in_chinese(deck) -> None:
    from lndrill.tui.widgets.too_small import TooSmall

    app = make_app(deck=deck, lang="zh")
    async with app.run_test(size=(50, 15)) as pilot:
        await settle(pilot)
        notice = app.screen.query_one(TooSmall)
        assert notice.display and "需要更大的窗口" in static_text(notice)


def test_the_mock_form_says_what_is_wrong_in_chinese() -> None:
    from lndrill.tui.screens.mock_form import options_from

    assert options_from("0", "5", "", 13, {"warmup"}, "zh")[1] == "题数：1 到 100 的整数。"
    assert options_from("3", "x", "", 13, {"warmup"}, "zh")[1] == "分钟数：0.5 到 120 之间的数。"
    assert options_from("3", "5", "warmx", 13, {"warmup"}, "zh")[1] == "没有卡片带标签 'warmx'（是不是 warmup？）。"
    assert options_from("3", "5", "warmx", 13, {"warmup"})[1] == "No card has tag 'warmx' (did you mean warmup?)."
