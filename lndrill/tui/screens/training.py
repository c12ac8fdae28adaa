"""The Training view: Post-LN and Pre-LN trained with and without warm-up (the `xiong` preset by default),
the loss curves streaming in from a thread worker, cancellable, then a paragraph on what they show."""

from __future__ import annotations

import copy
import math
import threading
from dataclasses import dataclass, replace

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Footer, Static

from lndrill.sim.placements import BY_KEY
from lndrill.train.presets import PRESETS
from lndrill.train.render import LossChart
from lndrill.train.run import (
    Finished,
    Group,
    RunResult,
    TrainConfig,
    TrainConfigError,
    TrainResult,
    train_events,
)
from lndrill.tui.lang import say
from lndrill.tui.messages import ToggleLanguage
from lndrill.tui.screens.base import LndrillScreen
from lndrill.tui.theme import placement_colours

#: The cards that offer "run the experiment" (ctrl+t on the card screen).
EXPERIMENT_CARDS = frozenset({"post-ln-warmup", "warmup-for-pre-ln", "admin-amplification"})
#: A run whose loss ends at or above this fraction of the chance level (ln vocab) "stalled near chance".
STALLED = 0.8
#: Cells of the progress bar.
BAR_CELLS = 20
#: The knobs: peak learning rates (`l` / `L`) and warm-up lengths (`w` / `W`) to step through.
LRS = (1e-3, 3e-3, 6e-3, 1e-2, 2e-2)
WARMUPS = (20, 50, 150, 400)
#: `1`-`4`: the placements in this order.
PLACEMENT_KEYS = ("post", "pre", "sandwich", "deepnorm")


def default_config() -> TrainConfig:
    """The `xiong` preset: Post-LN and Pre-LN, without warm-up and with 150 steps of it, three seeds."""
    return TrainConfig(preset="xiong", **PRESETS["xiong"])


@dataclass
class TrainProgressed(Message):
    """Posted from the worker: steps done of `total`, the rate, the seconds left, and a copy of the runs."""

    generation: int
    done: int
    total: int
    steps_per_second: float
    eta_seconds: float | None
    runs: list[RunResult]


@dataclass
class TrainFinished(Message):
    """Posted from the worker: the result (partial, `cancelled` set, when the run was cancelled)."""

    generation: int
    result: TrainResult


@dataclass
class TrainFailed(Message):
    """Posted from the worker: training raised; one line for the screen."""

    generation: int
    message: str


# ---------------------------------------------------------------------------------------------- reading
def _last_loss(run: RunResult) -> float | None:
    if run.final_loss is not None:
        return run.final_loss
    finite = [v for v in run.losses if v is not None and math.isfinite(v)]
    return finite[-1] if finite and not run.diverged else None


def _setting(group: Group, lrs: int, lang: str) -> str:
    label = BY_KEY[group.placement].label
    if group.warmup == 0:
        text = say(lang, f"{label} without warm-up", f"无 warm-up 的 {label}")
    else:
        text = say(lang, f"{label} with {group.warmup} warm-up steps", f"有 {group.warmup} 步 warm-up 的 {label}")
    return text + (f" (lr {group.lr:g})" if lrs > 1 else "")


@dataclass
class _Outcome:
    runs: int
    diverged: int
    stalled: int
    losses: list[float]
    accuracies: list[float]
    first_divergence: int | None

    @property
    def failed(self) -> bool:
        """Half the seeds or more diverged or stalled."""
        return 2 * (self.diverged + self.stalled) >= self.runs > 0

    @property
    def median(self) -> float | None:
        ok = sorted(self.losses)
        return ok[len(ok) // 2] if ok else None


def _outcome(group: Group, chance: float) -> _Outcome:
    losses = [v for v in (_last_loss(r) for r in group.runs) if v is not None]
    divergences = [r.diverged_at for r in group.runs if r.diverged_at is not None]
    return _Outcome(len(group.runs), len(divergences), sum(v >= STALLED * chance for v in losses),
                    [v for v in losses if v < STALLED * chance],
                    [r.final_accuracy for r in group.runs if r.final_accuracy is not None
                     and r.final_loss is not None and r.final_loss < STALLED * chance],
                    min(divergences) if divergences else None)


def _of(k: int, n: int, lang: str) -> tuple[str, str]:
    """(" in 2 of 3 seeds", "3 个种子中 2 个") or, for one seed, nothing."""
    if n == 1:
        return "", ""
    return say(lang, f" in {k} of {n} seeds", ""), say(lang, "", f"{n} 个种子中 {k} 个")


def _clause(group: Group, out: _Outcome, lrs: int, lang: str) -> str:
    parts: list[str] = []
    n = out.runs
    if out.diverged:
        en, zh = _of(out.diverged, n, lang)
        parts.append(say(lang, f"diverged{en} (from step {out.first_divergence})",
                         f"{zh}发散（从第 {out.first_divergence} 步起）"))
    if out.stalled:
        en, zh = _of(out.stalled, n, lang)
        parts.append(say(lang, f"stalled near chance{en}", f"{zh}停在随机水平附近"))
    median = out.median
    if median is not None:
        en, zh = _of(len(out.losses), n, lang)
        acc = ""
        if out.accuracies:
            acc_value = sorted(out.accuracies)[len(out.accuracies) // 2]
            acc = say(lang, f", accuracy {acc_value:.0%}", f"，准确率 {acc_value:.0%}")
        parts.append(say(lang, f"got down to a loss of {median:.3g}{en}{acc}", f"{zh}把 loss 降到 {median:.3g}{acc}"))
    if not parts:
        parts.append(say(lang, "recorded no loss yet", "还没有记录到 loss"))
    return _setting(group, lrs, lang) + say(lang, " ", "：") + say(lang, "; ", "；").join(parts)


def reading(result: TrainResult, lang: str = "en") -> str:
    """One paragraph on what the curves show: which settings diverged, stalled or learned, and whether that
    is Xiong et al.'s Figure 1 (Post-LN needs warm-up, Pre-LN does not). Partial results say so."""
    cfg = result.config
    chance = math.log(cfg.vocab)
    groups = [g for g in result.groups() if g.runs]
    sentences: list[str] = []
    if result.cancelled:
        sentences.append(say(lang, f"Cancelled at step {result.steps_done:,} of {cfg.total_steps:,}: the curves are "
                                   "partial and the losses are the last ones recorded.",
                             f"在第 {result.steps_done:,} / {cfg.total_steps:,} 步取消：曲线不完整，loss 是最后记录的值。"))
    if not any(r.losses for g in groups for r in g.runs):
        sentences.append(say(lang, "Nothing was recorded, so there is nothing to read yet.",
                             "还没有记录到任何数据。"))
        return " ".join(sentences) if lang != "zh" else "".join(sentences)
    outcomes = {(g.placement, g.lr, g.warmup): _outcome(g, chance) for g in groups}
    clauses = [_clause(g, outcomes[(g.placement, g.lr, g.warmup)], len(cfg.lrs), lang) for g in groups]
    sentences.append(say(lang, "; ".join(clauses) + ".", "；".join(clauses) + "。"))
    if any(o.stalled for o in outcomes.values()):
        sentences.append(say(lang, f"(Chance is ln {cfg.vocab} = {chance:.2f} nats per token: a uniform guess.)",
                             f"（随机水平是 ln {cfg.vocab} = {chance:.2f} nats/词元：均匀乱猜。）"))
    conclusion = _conclusion(outcomes, cfg, lang)
    if conclusion:
        sentences.append(conclusion)
    return " ".join(sentences) if lang != "zh" else "".join(sentences)


def _conclusion(outcomes: dict[tuple[str, float, int], _Outcome], cfg: TrainConfig, lang: str) -> str:
    lr = cfg.lrs[0]
    warm = next((w for w in cfg.warmups if w > 0), None)
    if 0 not in cfg.warmups or warm is None:
        return ""

    def failed(place: str) -> bool | None:
        """Without warm-up: diverged or stalled, or ended at 2x the loss with warm-up or more."""
        cold, hot = outcomes.get((place, lr, 0)), outcomes.get((place, lr, warm))
        if cold is None or hot is None or (cold.median is None and not cold.failed):
            return None
        if cold.failed:
            return True
        return hot.median is not None and cold.median is not None and cold.median >= 2 * hot.median

    post, pre = failed("post"), failed("pre")
    post_warm, pre_warm = outcomes.get(("post", lr, warm)), outcomes.get(("pre", lr, warm))
    if post is None or pre is None:
        return ""
    if post_warm is not None and pre_warm is not None and post_warm.failed and pre_warm.failed:
        return say(lang, f"Nothing learned the task in {cfg.steps:,} steps, with warm-up or without: too short a run "
                         "to compare them.",
                   f"{cfg.steps:,} 步内有无 warm-up 都没学会任务：运行太短，无法比较。")
    cold = outcomes.get(("post", lr, 0))
    if post and not pre and post_warm is not None and not post_warm.failed and cold is not None and not cold.failed:
        ratio = (cold.median or 0.0) / (post_warm.median or 1.0)
        return say(lang, f"Post-LN without warm-up ends at {ratio:.1f}x the loss it reaches with it, while Pre-LN does "
                         "not need warm-up: a mild form of Xiong et al.'s Figure 1 (the xiong preset, depth 6 at lr "
                         "1e-2, shows Post-LN stalling outright).",
                   f"无 warm-up 的 Post-LN 最终 loss 是有 warm-up 时的 {ratio:.1f} 倍，而 Pre-LN 不需要 warm-up："
                   "这是 Xiong 等人图 1 的温和版（xiong 预设，深度 6、lr 1e-2，Post-LN 会直接停滞）。")
    if post and not pre and post_warm is not None and not post_warm.failed:
        return say(lang, f"That is Xiong et al.'s Figure 1 in miniature: at lr {lr:g} Post-LN needs the warm-up and "
                         "Pre-LN does not. Admin (Liu et al.) says why: one Adam step changes a Post-LN model's output "
                         "by an amount that grows with depth, so full-size early steps throw it off before Adam's "
                         "statistics settle, and warm-up keeps those steps small.",
                   f"这就是 Xiong 等人图 1 的缩小版：在 lr {lr:g} 下 Post-LN 需要 warm-up，Pre-LN 不需要。Admin"
                   "（Liu 等）解释了原因：Adam 一步对 Post-LN 输出的改变随深度增长，训练初期的全尺寸步长在 Adam 的统计量"
                   "稳定之前就把模型推偏了，warm-up 让这些步长保持很小。")
    if post and pre:
        return say(lang, f"Both fail without warm-up at lr {lr:g}: the rate is high enough to hurt Pre-LN too.",
                   f"在 lr {lr:g} 下两者没有 warm-up 都失败：这个学习率对 Pre-LN 也太高了。")
    if not post and not pre:
        return say(lang, f"Neither needs warm-up at lr {lr:g} and depth {cfg.depth}: too gentle a setting to show "
                         "the effect (the xiong preset uses depth 6 and lr 1e-2).",
                   f"在 lr {lr:g}、深度 {cfg.depth} 下两者都不需要 warm-up：这个设置太温和，看不出效果"
                   "（xiong 预设用深度 6、lr 1e-2）。")
    if post:
        return say(lang, "Post-LN fails here with warm-up as well, so this run does not separate the two.",
                   "这里 Post-LN 有 warm-up 也失败，所以这次运行区分不出两者。")
    return say(lang, "Here Pre-LN is the one hurt by skipping warm-up: not the usual picture.",
               "这里反而是 Pre-LN 因为没有 warm-up 受损：不是通常的结果。")


def _seconds(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "?"
    return f"{value:.0f} s" if value >= 10 else f"{value:.1f} s"


# ---------------------------------------------------------------------------------------------- screen
class TrainingScreen(LndrillScreen[None]):
    """Trains the grid in a thread worker; the chart follows every progress event; `c` cancels."""

    HELP = """
    ### Training

    Post-LN and Pre-LN trained for real (a small NumPy Transformer reversing short sequences), without
    warm-up and with it: the `xiong` preset, about 10-20 s. The median loss curve of each setting streams in
    (Post-LN purple, Pre-LN cyan; log axis); `c` cancels and keeps the partial curves; `f5` runs again.
    When it ends, a paragraph says what the curves show. `pageup` / `pagedown` scroll the view.
    Knobs (each starts a new run): `l` / `L` learning rate up / down, `w` / `W` warm-up steps up / down,
    `1`-`4` Post-LN / Pre-LN / Sandwich / DeepNorm on or off.
    Same as `lndrill train --preset xiong`.
    """
    #: The same in Chinese (shown in Chinese mode).
    HELP_ZH = """
    ### 训练实验

    真正训练 Post-LN 和 Pre-LN（一个反转短序列的小型 NumPy Transformer），不带 warm-up 和带 warm-up：
    即 `xiong` 预设，约 10-20 秒。每种设置的 loss 中位数曲线实时出现（Post-LN 紫色，Pre-LN 青色；对数轴）；
    `c` 取消并保留已有的曲线；`f5` 重新运行。结束后有一段话说明曲线显示了什么。`pageup` / `pagedown` 滚动视图。
    旋钮（每次改动都开始新的运行）：`l` / `L` 学习率升 / 降，`w` / `W` warm-up 步数增 / 减，
    `1`-`4` 打开或关闭 Post-LN / Pre-LN / Sandwich / DeepNorm。
    与 `lndrill train --preset xiong` 相同。
    """
    AUTO_FOCUS = "#training-main"
    BINDINGS = [
        Binding("escape", "back", "Back", id="training.back"),
        Binding("c", "cancel", "Cancel", id="training.cancel"),
        Binding("f5", "rerun", "Run again", id="training.rerun"),
        Binding("ctrl+l", "toggle_lang", "中文/EN", id="training.lang"),
        Binding("l", "lr(1)", "LR", id="training.lr_up"),
        Binding("L", "lr(-1)", "Lower rate", show=False, id="training.lr_down"),
        Binding("w", "warmup(1)", "Warm-up", id="training.warmup_up"),
        Binding("W", "warmup(-1)", "Shorter warm-up", show=False, id="training.warmup_down"),
        *(Binding(str(i + 1), f"placement('{key}')", BY_KEY[key].label, show=False, id=f"training.place_{key}")
          for i, key in enumerate(PLACEMENT_KEYS)),
    ]
    PALETTE = (
        ("Cancel training", "stop; the partial curves stay (c)", "cancel"),
        ("Run the training again", "the same grid from the start (f5)", "rerun"),
    )

    def __init__(self, config: TrainConfig | None = None) -> None:
        super().__init__()
        self.config = config or default_config()
        self._generation = 0
        self._cancel = threading.Event()
        self._runs: list[RunResult] = []
        self._progress: tuple[int, int, float, float | None] = (0, self.config.total_steps, 0.0, None)
        #: The finished (or cancelled) result, None while training.
        self.result: TrainResult | None = None
        #: Progress events shown so far in this run (the tests read it).
        self.progress_shown = 0
        self._failed: str | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="training-top", classes="bar"):
            yield Static("", id="training-bar")
            yield Static("", id="training-status")
        with VerticalScroll(id="training-main"):
            yield Static("", id="training-progress")
            yield Static("", id="training-chart")
            yield Static("", id="training-reading")
        yield Footer()

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._draw(), init=False)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._draw())
        self._start()

    def on_unmount(self) -> None:
        self._cancel.set()  # the worker stops at its next step

    def on_resize(self) -> None:
        self._draw()

    # ------------------------------------------------------------------ running
    @property
    def running(self) -> bool:
        """Whether a run is under way."""
        return self.result is None and self._failed is None

    def _start(self) -> None:
        self._cancel.set()
        self._cancel = threading.Event()
        self._generation += 1
        self._runs, self.result, self._failed, self.progress_shown = [], None, None, 0
        self._progress = (0, self.config.total_steps, 0.0, None)
        self._draw()
        self.refresh_bindings()
        self._train(self.config, self._generation, self._cancel, self.lang)

    @work(thread=True, exclusive=True, group="train", exit_on_error=False)
    def _train(self, config: TrainConfig, generation: int, cancel: threading.Event, lang: str = "en") -> None:
        """Drive the training generator off the UI thread; every event goes back as a message."""
        try:
            for event in train_events(config, cancel):
                if isinstance(event, Finished):
                    self.post_message(TrainFinished(generation, event.result))
                else:
                    self.post_message(TrainProgressed(generation, event.done, event.total, event.steps_per_second,
                                                      event.eta_seconds, copy.deepcopy(event.runs)))
        except Exception as exc:  # noqa: BLE001 - one line on screen, never a crash
            self.post_message(TrainFailed(generation, say(lang, f"training: {exc}", f"训练：{exc}")))

    @on(TrainProgressed)
    def _progressed(self, message: TrainProgressed) -> None:
        if message.generation != self._generation or not self.running:
            return
        self._runs = message.runs
        self._progress = (message.done, message.total, message.steps_per_second, message.eta_seconds)
        self.progress_shown += 1
        self._draw()

    @on(TrainFinished)
    def _finished(self, message: TrainFinished) -> None:
        if message.generation != self._generation:
            return
        self.result = message.result
        self._runs = message.result.runs
        self._draw()
        self.refresh_bindings()

    @on(TrainFailed)
    def _train_failed(self, message: TrainFailed) -> None:
        if message.generation == self._generation:
            self._failed = message.message
            self._draw()
            self.refresh_bindings()

    # ------------------------------------------------------------------ drawing
    def _draw(self) -> None:
        if not self.is_mounted:
            return
        lang, cfg, result = self.lang, self.config, self.result
        name = cfg.preset if cfg.preset else say(lang, "custom", "自定义")
        bar = Text(say(lang, " Training", " 训练实验"), style="bold")
        lrs = "/".join(f"{lr:g}" for lr in cfg.lrs)
        warmups = say(lang, " vs ", " 对 ").join(str(w) for w in cfg.warmups)
        bar.append(f" · {name} · lr {lrs} · warm-up {warmups} · ")
        palette = placement_colours(self.app.current_theme.dark)
        for i, key in enumerate(cfg.placements):
            bar.append(("/" if i else "") + BY_KEY[key].label, style=palette.get(key))
        self.query_one("#training-bar", Static).update(bar)
        status = self.query_one("#training-status", Static)
        if self._failed is not None:
            status.update(Text(say(lang, "failed", "失败"), style="bold"))
        elif result is None:
            status.update(Text(say(lang, "● training", "● 训练中"), style="bold"))
        elif result.cancelled:
            status.update(Text(say(lang, "cancelled", "已取消"), style="bold"))
        else:
            status.update(Text(say(lang, "done", "完成"), style="bold"))
        self.set_class(result is not None and result.cancelled, "-cancelled")
        self.set_class(self.running, "-running")
        self.query_one("#training-progress", Static).update(self._progress_text())
        self.query_one("#training-chart", Static).update(self._chart())
        text = ""
        if self._failed is not None:
            text = self._failed
        elif result is not None:
            text = reading(result, lang)
        self.query_one("#training-reading", Static).update(Text(text))

    def _progress_text(self) -> Text:
        lang = self.lang
        done, total, rate, eta = self._progress
        result = self.result
        if result is not None:
            done, rate = result.steps_done, result.steps_per_second
        filled = round(BAR_CELLS * done / total) if total else 0
        line = Text("█" * filled, style="bold")
        line.append("░" * (BAR_CELLS - filled), style="dim")
        line.append(f" {done:,}/{total:,} " + say(lang, "steps", "步"))
        line.append(f"  ·  {rate:.0f} " + say(lang, "steps/s", "步/秒"))
        if result is None:
            line.append(say(lang, "  ·  ETA ", "  ·  剩余 ") + _seconds(eta))
            line.append(say(lang, "  ·  c cancels", "  ·  c 取消"), style="dim")
        elif result.cancelled:
            line.append(say(lang, f"  ·  cancelled at {_seconds(result.seconds)}",
                            f"  ·  {_seconds(result.seconds)} 后取消"), style="bold")
        else:
            line.append(say(lang, f"  ·  done in {_seconds(result.seconds)}", f"  ·  用时 {_seconds(result.seconds)}"))
        return line

    def _chart(self) -> LossChart | Text:
        if not self._runs:
            return Text(say(self.lang, "waiting for the first curve points...", "等待第一批曲线点..."), style="dim")
        partial = TrainResult(self.config, self._runs)
        height = max(6, min(14, self.size.height - 18))
        return LossChart(partial, height=height, palette=placement_colours(self.app.current_theme.dark),
                         lang=self.lang)

    # ------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`c` only while training; `f5` only once it has ended."""
        if action == "cancel":
            return self.running
        if action == "rerun":
            return not self.running
        return True

    def action_cancel(self) -> None:
        """Stop training; the partial curves stay and the view says cancelled."""
        self._cancel.set()

    def action_rerun(self) -> None:
        """Train the same grid again from the start."""
        self._start()

    def _retrain(self, **changes: object) -> None:
        """A new run with some knobs changed (no longer the preset)."""
        try:
            self.config = replace(self.config, preset=None, **changes)  # type: ignore[arg-type]
        except TrainConfigError as exc:
            self.notify(str(exc), severity="warning")
            return
        self._start()

    def action_lr(self, step: int) -> None:
        """The next (or previous) peak learning rate of `LRS`; a new run."""
        now = self.config.lrs[0]
        i = min(range(len(LRS)), key=lambda k: abs(math.log(LRS[k] / now)))
        nxt = LRS[max(0, min(len(LRS) - 1, i + step))]
        if nxt != now or len(self.config.lrs) > 1:
            self._retrain(lrs=(nxt,))

    def action_warmup(self, step: int) -> None:
        """The next (or previous) warm-up length of `WARMUPS` (runs without warm-up stay); a new run."""
        now = max(self.config.warmups)
        i = min(range(len(WARMUPS)), key=lambda k: abs(WARMUPS[k] - now))
        nxt = WARMUPS[max(0, min(len(WARMUPS) - 1, i + step))]
        if nxt != now:
            self._retrain(warmups=(0, nxt))

    def action_placement(self, key: str) -> None:
        """Train `key` too, or no longer (one placement at least stays); a new run."""
        chosen = set(self.config.placements) ^ {key}
        if chosen:
            self._retrain(placements=tuple(k for k in PLACEMENT_KEYS if k in chosen))

    def action_toggle_lang(self) -> None:
        """Switch between English and Chinese."""
        self.app.post_message(ToggleLanguage())

    def action_back(self) -> None:
        """Back to where the view was opened (the simulator or the card); a run under way is cancelled."""
        self._cancel.set()
        self.app.pop_screen()
