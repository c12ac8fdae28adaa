"""The simulator full screen: every option as a control, the bar chart, a table of exact values."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Checkbox, DataTable, Footer, Input, Label, Select, Static
from textual.worker import get_current_worker

from lndrill.display import value_with_spread
from lndrill.sim import SimConfig, SimResult, sweep
from lndrill.sim.config import (
    LAYER_METRICS,
    METRICS,
    MODELS,
    PLACEMENTS,
    PRESETS,
    SimConfigError,
    format_depths,
    parse_depths,
)
from lndrill.sim.placements import placement
from lndrill.sim.presets import preset_defaults, preset_fixed
from lndrill.sim.render import SCALES, SimChart, row_kind_name
from lndrill.tui.lang import say
from lndrill.tui.screens.base import LndrillScreen
from lndrill.tui.simknobs import METRIC_EXPLANATIONS, METRIC_EXPLANATIONS_ZH
from lndrill.tui.theme import placement_colours
from lndrill.tui.widgets import too_small
from lndrill.tui.widgets.sim_panel import SimComputed, SimFailed

NO_PRESET = "none"
#: What the preset and scale choices are called in Chinese (the presets' own names stay).
CHOICE_ZH = {NO_PRESET: "无", "log": "对数", "linear": "线性"}


def _choices(values: tuple[str, ...], lang: str) -> list[tuple[str, str]]:
    """(label, value) pairs for a Select: the label in the user's language."""
    return [(say(lang, v, CHOICE_ZH.get(v, v)), v) for v in values]


class OnOffBox(Checkbox):
    """A checkbox that shows its state as a mark, not by colour alone: ✓ when on, empty when off."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super()._button


class SimScreen(LndrillScreen[None]):
    """Change any control and the chart and table update (the run is in a thread worker)."""

    HORIZONTAL_BREAKPOINTS = [*too_small.HORIZONTAL, (100, "-wide")]
    HELP = """
    ### Simulator

    Every option of `lndrill sim` as a control: `tab` / `shift+tab` move between them, a typed value is
    applied with `enter` (or on leaving the box), a preset fixes some of them. The chart and the table of
    exact values (median over seeds, with the min-max spread) update after every change.
    `pageup` / `pagedown` scroll the chart and the table, whatever control has the focus.
    `ctrl+t` opens the Training view: Post-LN and Pre-LN trained with and without warm-up.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 模拟器

    `lndrill sim` 的每个选项都是一个控件：`tab` / `shift+tab` 在控件之间移动，输入的值按 `enter`（或离开输入框时）
    生效，预设会固定其中一些。图表和精确数值表（各种子的中位数，附最小-最大范围）在每次改动后更新。
    无论焦点在哪个控件上，`pageup` / `pagedown` 都滚动图表和表格。
    `ctrl+t` 打开训练实验视图：训练有无 warm-up 的 Post-LN 和 Pre-LN。
    """
    PALETTE = (
        ("Training", "train Post-LN and Pre-LN with and without warm-up, curves live (ctrl+t)", "training"),
    )
    AUTO_FOCUS = "#preset"
    BINDINGS = [
        Binding("escape", "back", "Home", id="sim.back"),
        Binding("f5", "rerun", "Run again", id="sim.rerun"),
        Binding("ctrl+o", "toggle_scale", "Log/linear", id="sim.scale"),
        Binding("ctrl+t", "training", "Training", id="sim.training"),
        Binding("pagedown", "scroll_chart(1)", "Chart down", show=False, id="sim.chart_down"),
        Binding("pageup", "scroll_chart(-1)", "Chart up", show=False, id="sim.chart_up"),
    ]

    def __init__(self, config: SimConfig | None = None, scale: str = "log") -> None:
        super().__init__()
        self.config = config or SimConfig()
        self.scale = scale if scale in SCALES else "log"
        self._generation = 0
        self._result: SimResult | None = None
        self._sweep_depths = "1-48"

    def compose_body(self) -> ComposeResult:
        cfg = self.config
        with Horizontal(id="sim-screen"):
            with VerticalScroll(id="sim-controls"):
                yield Label("Preset")
                yield Select(_choices((NO_PRESET, *PRESETS), self.lang), value=cfg.preset or NO_PRESET,
                             allow_blank=False, id="preset", compact=True)
                yield Label("Model")
                yield Select([(m, m) for m in MODELS], value=cfg.model, allow_blank=False, id="model",
                             compact=True)
                yield Label("Metric")
                yield Select([(m, m) for m in METRICS], value=cfg.metric, allow_blank=False, id="metric",
                             compact=True)
                yield Label("Placements")
                colours = placement_colours(True)
                for p in PLACEMENTS:
                    yield OnOffBox(Text(placement(p).label, style=colours[p]), p in (cfg.placements or ()),
                                   id=f"place-{p}", compact=True, classes=f"placement {p}")
                yield Label("Depths")
                yield Input(format_depths(cfg.depths), id="depths", compact=True, placeholder="1-48 or 1,6,12",
                            tooltip="a range 1-48, a list 1,6,12,24, or both")
                yield Label("Width")
                yield Input(str(cfg.width), id="width", type="integer", compact=True)
                yield Label("Seed")
                yield Input(str(cfg.seed), id="seed", type="integer", compact=True)
                yield Label("Seeds")
                yield Input(str(cfg.seeds), id="seeds", type="integer", compact=True)
                yield Label("Scale")
                yield Select(_choices(SCALES, self.lang), value=self.scale, allow_blank=False, id="scale",
                             compact=True)
            with VerticalScroll(id="sim-main"):
                with Horizontal(id="sim-status"):
                    yield Static("", id="sim-error")
                    yield Static("● computing", id="sim-busy", markup=False)
                yield Static("", id="sim-chart")
                yield Static("", id="sim-explain")
                yield DataTable(id="sim-table", show_cursor=False, zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        if self.app.is_headless:
            for box in self.query(Input):
                box.cursor_blink = False
        if not self.config.is_layer_metric:
            self._sweep_depths = format_depths(self.config.depths)
        self._lock_fixed(self.config.preset)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._draw())
        self._label_controls(self.lang)
        self.watch(self.app, "lang", self._label_controls, init=False)
        self._start(self.config)

    def _label_controls(self, lang: str) -> None:
        """The controls' labels, the busy line and the notes in the user's language."""
        words = (("Preset", "预设"), ("Model", "模型"), ("Metric", "指标"), ("Placements", "放置方式"),
                 ("Depths", "深度"), ("Width", "宽度"), ("Seed", "种子"), ("Seeds", "种子数"), ("Scale", "刻度"))
        for label, (en, zh) in zip(self.query("#sim-controls > Label").results(Label), words, strict=False):
            label.update(say(lang, en, zh))
        depths = self.query_one("#depths", Input)
        depths.placeholder = say(lang, "1-48 or 1,6,12", "1-48 或 1,6,12")
        depths.tooltip = say(lang, "a range 1-48, a list 1,6,12,24, or both", "范围 1-48、列表 1,6,12,24，或两者")
        self.query_one("#sim-busy", Static).update(say(lang, "● computing", "● 计算中"))
        with self.prevent(Select.Changed):
            for selector, values in (("#preset", (NO_PRESET, *PRESETS)), ("#scale", SCALES)):
                select = self.query_one(selector, Select)
                value = select.value
                select.set_options(_choices(values, lang))
                # Through another choice and back, so that the same value shows its new label.
                select.value = next(v for v in values if v != value)
                select.value = value
        self._draw()

    # ------------------------------------------------------------------ controls -> config
    def _lock_fixed(self, preset: str | None) -> None:
        fixed = preset_fixed(preset)
        for name, control in (("model", "#model"), ("width", "#width"), ("seed", "#seed"), ("seeds", "#seeds")):
            self.query_one(control).disabled = name in fixed

    def _choice(self, selector: str) -> str:
        value = self.query_one(selector, Select).value
        return "" if value is Select.NULL else str(value)

    def config_from_controls(self) -> SimConfig:
        """A SimConfig from the controls; raises SimConfigError with a one-line message."""
        chosen = self._choice("#preset")
        preset = None if chosen == NO_PRESET else chosen
        fixed = preset_fixed(preset)

        def typed(name: str) -> str | None:
            """What the control for `name` holds; None when the preset fixes it (its value is only shown)."""
            return None if name in fixed else self.query_one(f"#{name}", Input).value

        return SimConfig.from_options(
            preset=preset,
            model=None if "model" in fixed else self._choice("#model"),
            metric=self._choice("#metric"),
            placements=tuple(p for p in PLACEMENTS if self.query_one(f"#place-{p}", Checkbox).value),
            depths=self.query_one("#depths", Input).value,
            width=typed("width"), seed=typed("seed"), seeds=typed("seeds"),
        )

    def _set_controls(self, cfg: SimConfig) -> None:
        with self.prevent(Select.Changed, Input.Changed, Checkbox.Changed):
            self.query_one("#model", Select).value = cfg.model
            self.query_one("#metric", Select).value = cfg.metric
            for p in PLACEMENTS:
                self.query_one(f"#place-{p}", Checkbox).value = p in (cfg.placements or ())
            self.query_one("#depths", Input).value = format_depths(cfg.depths)
            self.query_one("#width", Input).value = str(cfg.width)
            self.query_one("#seed", Input).value = str(cfg.seed)
            self.query_one("#seeds", Input).value = str(cfg.seeds)

    @on(Select.Changed, "#preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        preset = None if event.value in (NO_PRESET, Select.NULL) else str(event.value)
        if preset == self.config.preset:
            # Relabelling the choices (on mount, on a language switch) re-selects the same preset: that is no
            # request to reset the other controls to the preset's defaults.
            return
        try:
            cfg = SimConfig(preset=preset)
        except SimConfigError as exc:
            self._error(str(exc))
            return
        self._set_controls(cfg)
        self._lock_fixed(preset)
        self._start(cfg)

    @on(Select.Changed, "#metric")
    def _metric_changed(self, event: Select.Changed) -> None:
        metric = str(event.value)
        depths_box = self.query_one("#depths", Input)
        try:
            depths = parse_depths(depths_box.value)
        except SimConfigError:
            depths = ()
        preset = self._choice("#preset")
        with self.prevent(Input.Changed):
            if metric in LAYER_METRICS and len(depths) != 1:
                if depths:
                    self._sweep_depths = format_depths(depths)
                layer = preset_defaults(None if preset == NO_PRESET else preset).get("layer_depths", (12,))
                depths_box.value = format_depths(layer)
            elif metric not in LAYER_METRICS and len(depths) == 1:
                depths_box.value = self._sweep_depths
        self._changed()

    @on(Select.Changed, "#model")
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        try:
            cfg = self.config_from_controls()
        except SimConfigError as exc:
            self._error(str(exc))
            return
        self._start(cfg)

    @on(Input.Submitted)
    @on(Input.Blurred)
    def _typed(self) -> None:
        self._changed()

    @on(Select.Changed, "#scale")
    def _scale_changed(self, event: Select.Changed) -> None:
        self.scale = str(event.value)
        self._draw()

    def _error(self, message: str) -> None:
        self.query_one("#sim-error", Static).update(Text(message))
        self.add_class("-error")

    # ------------------------------------------------------------------ running
    def _start(self, cfg: SimConfig) -> None:
        self.remove_class("-error")
        self.query_one("#sim-error", Static).update("")
        if cfg == self.config and self._result is not None:
            return
        self.config = cfg
        self._generation += 1
        self.add_class("-busy")
        self._run(cfg, self._generation)

    @work(thread=True, exclusive=True, group="sim", exit_on_error=False)
    def _run(self, config: SimConfig, generation: int) -> None:
        worker = get_current_worker()
        try:
            result = sweep(config)
        except Exception as exc:  # noqa: BLE001 - a failure is one line on screen, never a crash
            self.post_message(SimFailed(generation, say(self.lang, f"simulator: {exc}", f"模拟器：{exc}")))
            return
        if not worker.is_cancelled:
            self.post_message(SimComputed(generation, result))

    @on(SimComputed)
    def _computed(self, message: SimComputed) -> None:
        if message.generation != self._generation:
            return
        self._result = message.result
        self.remove_class("-busy")
        self._draw()

    @on(SimFailed)
    def _failed(self, message: SimFailed) -> None:
        if message.generation == self._generation:
            self.remove_class("-busy")
            self._error(message.message)

    @property
    def result(self) -> SimResult | None:
        """The result drawn now."""
        return self._result

    def _draw(self) -> None:
        result = self._result
        if result is None or not self.is_mounted:
            return
        dark = self.app.current_theme.dark
        lang = self.lang
        self.query_one("#sim-chart", Static).update(SimChart(result, scale=self.scale,
                                                             palette=placement_colours(dark), lang=lang))
        notes = METRIC_EXPLANATIONS_ZH if lang == "zh" else METRIC_EXPLANATIONS
        explain = Text(say(lang, "What this measures: ", "测量的是："), style="bold")
        explain.append(notes.get(result.metric, ""))
        if result.companion is not None:
            explain.append(say(lang, "\nBeside it: ", "\n旁边的："), style="bold")
            explain.append(notes.get(result.companion.metric, ""))
        self.query_one("#sim-explain", Static).update(explain)
        self._fill_table(result, dark)

    def _fill_table(self, result: SimResult, dark: bool) -> None:
        table = self.query_one("#sim-table", DataTable)
        table.clear(columns=True)
        colours = placement_colours(dark)
        panels = [result] + ([result.companion] if result.companion is not None else [])
        table.add_column(row_kind_name(result.row_kind, self.lang))
        for panel in panels:
            for key in panel.values:
                name = placement(key).label + (f" {panel.metric}" if len(panels) > 1 else "")
                table.add_column(Text(name, style=f"bold {colours.get(key, '')}"))
        spread = (result.config.seeds or 1) > 1
        for i, row in enumerate(result.rows):
            cells: list[Text] = [Text(str(row))]
            for panel in panels:
                for key, arr in panel.values.items():
                    text = value_with_spread(float(arr[i]), panel.spread_at(key, i) if spread and key in panel.spread
                                             else None)
                    cells.append(Text(text, justify="right"))
            table.add_row(*cells)

    # ------------------------------------------------------------------ actions
    def action_scroll_chart(self, pages: int) -> None:
        """Scroll the chart and the table a page down or up (whatever control has the focus)."""
        main = self.query_one("#sim-main", VerticalScroll)
        if pages > 0:
            main.scroll_page_down(animate=False)
        else:
            main.scroll_page_up(animate=False)

    def action_back(self) -> None:
        """Back to the home screen."""
        self.app.pop_screen()

    def action_rerun(self) -> None:
        """Read the controls and run again."""
        self._result = None
        self._changed()

    def action_training(self) -> None:
        """Open the Training view (the xiong preset: Post-LN and Pre-LN, with and without warm-up)."""
        self.lndrill.open_training()

    def action_toggle_scale(self) -> None:
        """Switch the bars between log and linear scale."""
        self.query_one("#scale", Select).value = "linear" if self.scale == "log" else "log"
