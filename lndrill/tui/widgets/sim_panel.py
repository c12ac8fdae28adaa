"""The simulator panel beside a card: gradient-norm bars per depth, stepped knobs, a thread worker."""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Button, Static
from textual.worker import get_current_worker

from lndrill.sim import SimResult, sweep
from lndrill.sim.config import PLACEMENTS, SimConfig, SimConfigError
from lndrill.sim.placements import placement
from lndrill.sim.render import SimChart
from lndrill.tui.lang import say, translate_help
from lndrill.tui.simknobs import DEPTH_CHOICES, PanelKnobs
from lndrill.tui.theme import placement_colours
from lndrill.tui.widgets.chart_view import ChartView


@dataclass
class SimComputed(Message):
    """A simulator run finished (posted from the worker thread): the result, and (from the panel) its
    chart already rendered at `width`."""

    generation: int
    result: SimResult
    lines: list[list[Segment]] | None = None
    width: int = 0
    lang: str = "en"


def render_lines(result: SimResult, width: int, dark: bool, scale: str = "log", lang: str = "en"
                 ) -> list[list[Segment]]:
    """The chart as lines of Segments at `width`, its words in `lang` (done in the worker so the UI thread
    only paints)."""
    from rich.console import Console

    console = Console(width=width, color_system="truecolor", force_terminal=True, legacy_windows=False)
    return console.render_lines(SimChart(result, scale=scale, palette=placement_colours(dark), lang=lang),
                                pad=False)


@dataclass
class SimFailed(Message):
    """A simulator run failed; message is one line for a notification."""

    generation: int
    message: str


#: A run that finishes faster than this never flashes the busy indicator.
BUSY_DELAY_S = 0.05


class SimPanel(Vertical, can_focus=True):
    """Post-LN (purple) and Pre-LN (cyan) gradient norms per depth; keys and buttons change the knobs."""

    DEFAULT_CSS = """
    SimPanel {
        border: round $panel-lighten-2;
        padding: 0 1;
        background: $surface;
        &:focus-within { border: round $primary; }
        #panel-head { height: 1; }
        #panel-title { width: 1fr; }
        #panel-busy { width: 13; color: $warning; }
        #panel-knobs { grid-size: 2; grid-gutter: 0 1; grid-rows: 1; height: 2; }
        #panel-knobs Button { width: 1fr; min-width: 0; }
        #panel-placements { height: 1; }
        #panel-placements Button { width: 1fr; min-width: 0; margin-right: 1; }
        #panel-chart { height: 1fr; margin-top: 1; overflow-y: auto; scrollbar-gutter: stable;
                       scrollbar-background: $surface; scrollbar-background-hover: $surface;
                       scrollbar-background-active: $surface; }
    }
    """
    HELP = """
    ### Simulator panel

    Gradient norms per depth for each placement (Post-LN purple, Pre-LN cyan), recomputed as you change
    a knob. With the panel focused (`tab` to it, or click):

    - `[` `]` fewer / more depths, `-` `+` narrower / wider vectors
    - `m` / `M` next / previous metric, `s` / `S` next / previous seed
    - `1`-`4` Post-LN, Pre-LN, Sandwich, DeepNorm on/off (or click their buttons)
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 模拟器面板

    每种放置方式在各深度的梯度范数（Post-LN 紫色，Pre-LN 青色），改动旋钮就重新计算。
    面板获得焦点时（`tab` 到它，或点击）：

    - `[` `]` 减少 / 增加深度，`-` `+` 变窄 / 变宽向量
    - `m` / `M` 下一个 / 上一个指标，`s` / `S` 下一个 / 上一个种子
    - `1`-`4` Post-LN、Pre-LN、Sandwich、DeepNorm 显示/隐藏（或点击它们的按钮）
    """

    BINDINGS = [
        Binding("left_square_bracket", "depth(-1)", "Fewer depths", id="sim.depth_down"),
        Binding("right_square_bracket", "depth(1)", "More depths", id="sim.depth_up"),
        Binding("minus", "width(-1)", "Narrower", id="sim.width_down"),
        Binding("plus,equals_sign", "width(1)", "Wider", id="sim.width_up"),
        Binding("m", "metric(1)", "Metric", id="sim.metric_next"),
        Binding("M", "metric(-1)", "Previous metric", show=False, id="sim.metric_prev"),
        Binding("s", "seed(1)", "Seed +", id="sim.seed_up"),
        Binding("S", "seed(-1)", "Seed -", show=False, id="sim.seed_down"),
        Binding("1", "placement('post')", "Post-LN on/off", show=False, id="sim.toggle_post"),
        Binding("2", "placement('pre')", "Pre-LN on/off", show=False, id="sim.toggle_pre"),
        Binding("3", "placement('sandwich')", "Sandwich on/off", show=False, id="sim.toggle_sandwich"),
        Binding("4", "placement('deepnorm')", "DeepNorm on/off", show=False, id="sim.toggle_deepnorm"),
    ]

    knobs: reactive[PanelKnobs] = reactive(PanelKnobs, init=False)
    """What to simulate (depth choice, width, metric, seed, placements); a change starts a run."""
    busy: reactive[bool] = reactive(False)
    """True while a run is in flight (shows the busy indicator)."""

    def __init__(self, knobs: PanelKnobs | None = None, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._generation = 0
        self._result_generation = -1
        self._busy_timer: Timer | None = None
        self._result: SimResult | None = None
        if knobs is not None:
            self.set_reactive(SimPanel.knobs, knobs)

    def compose(self) -> ComposeResult:
        with Horizontal(id="panel-head"):
            yield Static(Text(say(self._lang, "Simulator", "模拟器"), style="bold"), id="panel-title")
            yield Static("", id="panel-busy", markup=False)
        with Grid(id="panel-knobs"):
            yield Button("", id="knob-depth", compact=True)
            yield Button("", id="knob-width", compact=True)
            yield Button("", id="knob-metric", compact=True)
            yield Button("", id="knob-seed", compact=True)
        with Horizontal(id="panel-placements"):
            for p in PLACEMENTS:
                yield Button("", id=f"knob-{p}", compact=True, classes="placement")
        yield ChartView(id="panel-chart")

    def on_mount(self) -> None:
        self._label_knobs()
        if hasattr(self.app, "lang"):  # the panel's words follow the language (ctrl+l)
            self.watch(self.app, "lang", lambda _lang: self._redraw(), init=False)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._redraw())
        self.call_after_refresh(self.compute)  # after the first layout, so the chart's width is known

    # ------------------------------------------------------------------ knobs
    def watch_knobs(self, old: PanelKnobs, new: PanelKnobs) -> None:
        if self.is_mounted:
            self._label_knobs()
        if old != new:
            self.compute()

    def watch_busy(self, busy: bool) -> None:
        # Fixed width and no layout pass: showing the indicator never reflows the screen.
        if self.is_mounted:
            self.query_one("#panel-busy", Static).update(say(self._lang, "● computing", "● 计算中") if busy else "",
                                                         layout=False)

    @property
    def _lang(self) -> str:
        """The app's language ("en" outside lndrill's app)."""
        return str(getattr(self.app, "lang", "en"))

    def _label_knobs(self) -> None:
        k = self.knobs
        lang = self._lang
        translate_help(self, lang)
        self.query_one("#panel-title", Static).update(Text(say(lang, "Simulator", "模拟器"), style="bold"))
        for name, en, zh, value, keys in (
                ("depth", "depths", "深度", k.depths_label, "[ ]"), ("width", "width", "宽度", k.width, "- +"),
                ("metric", "metric", "指标", k.metric, "m / M"), ("seed", "seed", "种子", k.seed, "s / S")):
            button = self.query_one(f"#knob-{name}", Button)
            button.label = f"{say(lang, en, zh)} {value}"
            button.tooltip = f"{say(lang, en.capitalize(), zh)} ({keys})"
        colours = placement_colours(self.app.current_theme.dark)
        for p in PLACEMENTS:
            on_ = p in k.placements
            label = Text(("■ " if on_ else "□ ") + placement(p).label,
                         style=colours[p] if on_ else "dim")
            button = self.query_one(f"#knob-{p}", Button)
            button.label = label
            button.tooltip = say(lang, f"{placement(p).label} on/off ({PLACEMENTS.index(p) + 1})",
                                 f"{placement(p).label} 显示/隐藏（{PLACEMENTS.index(p) + 1}）")
            button.set_class(on_, "-on")

    def action_depth(self, delta: int) -> None:
        """Fewer or more depths."""
        self.knobs = self.knobs.step_depth(delta)

    def action_width(self, delta: int) -> None:
        """Narrower or wider vectors."""
        self.knobs = self.knobs.step_width(delta)

    def action_metric(self, delta: int) -> None:
        """Next or previous metric."""
        self.knobs = self.knobs.step_metric(delta)

    def action_seed(self, delta: int) -> None:
        """Next or previous seed."""
        self.knobs = self.knobs.step_seed(delta)

    def action_placement(self, placement: str) -> None:
        """Show or hide one placement."""
        new = self.knobs.toggle_placement(placement)
        if new == self.knobs:
            self.notify(say(self._lang, "keep at least one placement", "至少保留一种放置方式"), severity="warning")
        self.knobs = new

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        k = self.knobs
        name = (event.button.id or "").removeprefix("knob-")
        if name == "depth":
            self.knobs = k.step_depth(1) if k.depth_index < len(DEPTH_CHOICES) - 1 else k.step_depth(-99)
        elif name == "width":
            nxt = k.step_width(1)
            self.knobs = nxt if nxt != k else k.step_width(-99)
        elif name == "metric":
            self.knobs = k.step_metric(1)
        elif name == "seed":
            self.knobs = k.step_seed(1)
        elif name in PLACEMENTS:
            self.action_placement(name)

    # ------------------------------------------------------------------ computing
    def compute(self) -> None:
        """Start a run for the current knobs in a thread worker (an older run's result is dropped)."""
        try:
            config = self.knobs.to_config()
        except SimConfigError as exc:
            self.notify(str(exc), severity="error")
            return
        self._generation += 1
        # Show the busy indicator only for a run that takes noticeably long: a quick run then repaints
        # the screen once (new bars) instead of three times (indicator on, bars, indicator off).
        generation = self._generation
        if self._busy_timer is not None:
            self._busy_timer.stop()
        self._busy_timer = self.set_timer(BUSY_DELAY_S, lambda: self._show_busy(generation))
        self._run(config, self._generation, self._chart_width(), self.app.current_theme.dark, self._lang)

    def _show_busy(self, generation: int) -> None:
        if generation == self._generation and self._result_generation != generation:
            self.busy = True

    def _chart_width(self) -> int:
        width = self.query_one(ChartView).scrollable_content_region.width if self.is_mounted else 0
        return width if width > 10 else 54

    @work(thread=True, exclusive=True, group="sim", exit_on_error=False)
    def _run(self, config: SimConfig, generation: int, width: int, dark: bool, lang: str = "en") -> None:
        worker = get_current_worker()
        try:
            result = sweep(config)
        except Exception as exc:  # noqa: BLE001 - any failure becomes a one-line notification
            self.post_message(SimFailed(generation, say(lang, f"simulator: {exc}", f"模拟器：{exc}")))
            return
        if worker.is_cancelled:
            return
        self.post_message(SimComputed(generation, result, render_lines(result, width, dark, lang=lang), width, lang))

    @on(SimComputed)
    def _computed(self, message: SimComputed) -> None:
        message.stop()
        if message.generation != self._generation:
            return
        self._result = message.result
        self._result_generation = message.generation
        self.busy = False
        if message.lines is not None and message.width == self._chart_width() and message.lang == self._lang:
            self.query_one(ChartView).set_lines(message.lines)
        else:
            self._redraw()

    @on(SimFailed)
    def _failed(self, message: SimFailed) -> None:
        message.stop()
        if message.generation == self._generation:
            self._result_generation = message.generation  # finished, if unsuccessfully: no indicator
            self.busy = False
            self.notify(message.message, severity="error")

    @property
    def result(self) -> SimResult | None:
        """The result drawn now (None before the first run finishes)."""
        return self._result

    def _redraw(self) -> None:
        """Draw the knobs and the chart again (the theme, the language or the width changed)."""
        if not self.is_mounted:
            return
        self._label_knobs()
        if self._result is None:
            return
        dark = self.app.current_theme.dark
        self.query_one(ChartView).set_lines(render_lines(self._result, self._chart_width(), dark, lang=self._lang))

    @on(ChartView.Resized)
    def _chart_resized(self, message: ChartView.Resized) -> None:
        message.stop()
        self._redraw()
