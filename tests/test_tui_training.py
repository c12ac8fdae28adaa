"""The Training view (issue 13 item 4): curves stream in from a thread worker, `c` cancels (the partial
curves stay, marked cancelled), a paragraph reads the result; reached from the simulator screen and from
the warm-up cards. Every run here is a tiny seeded grid (depth 2, width 8) given to `make_app`.

Snapshots of the finished view at 120x40 and 80x24: the training clock is a fake (each `perf_counter`
call advances it 10 ms), so steps/s and the time shown are the same on every machine.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from helpers import settle, static_text

from lndrill.train.run import RunResult, TrainConfig, TrainResult
from lndrill.tui.app import make_app

pytestmark = pytest.mark.tui

#: Two placements x two warm-ups, one seed, reversing 4 tokens over 4; a fraction of a second, and it learns.
TINY = TrainConfig(depth=2, width=8, heads=2, batch=16, length=4, vocab=4, steps=150, warmups=(0, 20), lrs=(1e-2,),
                   curve_points=30, seed=0)
#: Far too long to finish in a test: it must be cancelled.
ENDLESS = TrainConfig(depth=2, width=8, heads=2, batch=8, steps=1_000_000, warmups=(0, 20), lrs=(1e-2,),
                      curve_points=100_000, seed=0)


async def _wait_for(pilot, condition, tries: int = 2000) -> None:  # noqa: ANN001  (polling: 20 s at most)
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("timed out")


def _text(screen, selector: str) -> str:  # noqa: ANN001
    return str(screen.query_one(selector).render())


async def test_curves_stream_in_before_the_result(deck) -> None:
    from lndrill.tui.screens.training import TrainFinished, TrainingScreen, TrainProgressed

    seen: list[object] = []
    app = make_app(deck=deck, lang="en", train_config=TINY)
    async with app.run_test(size=(120, 40), message_hook=seen.append) as pilot:
        await settle(pilot)
        app.open_training()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TrainingScreen)
        kinds = [type(m) for m in seen if isinstance(m, TrainProgressed | TrainFinished)]
        assert kinds and kinds[0] is TrainProgressed and kinds[-1] is TrainFinished
        assert kinds.count(TrainFinished) == 1
        assert screen.progress_shown >= 1  # drawn while still running
        assert screen.result is not None and not screen.result.cancelled
        assert "300/300 steps" in _text(screen, "#training-progress")
        chart = static_text(screen.query_one("#training-chart"))
        assert "Post-LN, warm-up 0" in chart and "Pre-LN, warm-up 20" in chart


async def test_cancel_stops_the_worker_and_keeps_the_partial_curves(deck) -> None:
    from lndrill.tui.screens.training import TrainingScreen

    app = make_app(deck=deck, lang="en", train_config=ENDLESS)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_training()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TrainingScreen)
        await _wait_for(pilot, lambda: screen.progress_shown >= 2)
        assert screen.running
        await pilot.press("c")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not [w for w in app.workers if w.group == "train" and w.is_running]
        result = screen.result
        assert result is not None and result.cancelled
        assert 0 < result.steps_done < ENDLESS.total_steps
        assert any(r.losses for r in result.runs)  # the partial curves stay
        assert "cancelled" in _text(screen, "#training-status")
        assert screen.has_class("-cancelled")
        assert _text(screen, "#training-reading").startswith("Cancelled at step")
        assert screen.check_action("rerun", ()) and not screen.check_action("cancel", ())


async def test_leaving_the_view_stops_the_training(deck) -> None:
    from lndrill.tui.screens.training import TrainingScreen

    app = make_app(deck=deck, lang="en", train_config=ENDLESS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_training()
        await pilot.pause()
        screen = app.screen
        await _wait_for(pilot, lambda: screen.progress_shown >= 1)
        await pilot.press("escape")
        await app.workers.wait_for_complete()  # returns: the worker saw the cancel
        assert not isinstance(app.screen, TrainingScreen)


async def test_the_reading_appears_when_it_finishes_and_follows_the_language(deck) -> None:
    from lndrill.tui.screens.training import TrainingScreen

    app = make_app(deck=deck, lang="en", train_config=TINY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_training()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TrainingScreen)
        reading = _text(screen, "#training-reading")
        assert "Post-LN without warm-up" in reading and "Pre-LN with 20 warm-up steps" in reading
        assert "done" in _text(screen, "#training-status")
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert "无 warm-up 的 Post-LN" in _text(screen, "#training-reading")
        assert "完成" in _text(screen, "#training-status")
        await pilot.press("f5")  # runs again, to the end
        await settle(pilot)
        assert screen.result is not None and not screen.result.cancelled


async def test_the_knobs_start_a_new_run_with_the_changed_grid(deck) -> None:
    from lndrill.tui.screens.training import TrainingScreen

    app = make_app(deck=deck, lang="en", train_config=TINY)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_training()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TrainingScreen)
        await pilot.press("l")  # 1e-2 -> 2e-2
        await settle(pilot)
        assert screen.config.lrs == (2e-2,) and screen.config.preset is None
        await pilot.press("w")  # warm-up 20 -> 50
        await pilot.press("3")  # Sandwich on
        await settle(pilot)
        assert screen.config.warmups == (0, 50) and screen.config.placements == ("post", "pre", "sandwich")
        assert screen.result is not None and {r.placement for r in screen.result.runs} == {"post", "pre", "sandwich"}
        assert "lr 0.02" in _text(screen, "#training-bar") and "warm-up 0 vs 50" in _text(screen, "#training-bar")
        for key in "1243":  # Post-LN, Pre-LN, Sandwich off, DeepNorm on
            await pilot.press(key)
        await settle(pilot)
        assert screen.config.placements == ("deepnorm",)
        await pilot.press("4")  # the last one stays
        await settle(pilot)
        assert screen.config.placements == ("deepnorm",)


async def test_the_simulator_screen_opens_it_by_key_and_palette(deck) -> None:
    from lndrill.tui.screens.sim import SimScreen
    from lndrill.tui.screens.training import TrainingScreen

    assert any(action == "training" for _title, _help, action in SimScreen.PALETTE)
    app = make_app("sim", deck=deck, lang="en", train_config=TINY)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SimScreen)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert isinstance(app.screen, TrainingScreen)
        assert app.screen.result is not None
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SimScreen)


@pytest.mark.parametrize(("card_id", "offered"), [("post-ln-warmup", True), ("warmup-for-pre-ln", True),
                                                  ("admin-amplification", True), ("pre-vs-post-ln", False)])
async def test_the_warm_up_cards_offer_to_run_the_experiment(deck, card_id: str, offered: bool) -> None:
    from lndrill.tui.screens.card import CardScreen
    from lndrill.tui.screens.training import TrainingScreen

    app = make_app("drill", deck=deck, card_id=card_id, lang="en", train_config=TINY)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        card = app.screen
        assert isinstance(card, CardScreen)
        shown = {b.binding.action for b in card.active_bindings.values() if b.enabled and b.binding.show}
        assert ("experiment" in shown) is offered
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert isinstance(app.screen, TrainingScreen) is offered


async def test_too_small_shows_the_notice(deck) -> None:
    from lndrill.tui.widgets.too_small import TooSmall

    app = make_app(deck=deck, lang="en", train_config=TINY)
    async with app.run_test(size=(50, 15)) as pilot:
        await settle(pilot)
        app.open_training()
        await settle(pilot)
        assert app.screen.query_one(TooSmall).display


# ---------------------------------------------------------------------------------------------- reading
def _run(placement: str, warmup: int, seed: int, loss: float | None, diverged_at: int | None = None) -> RunResult:
    run = RunResult(placement, 1e-2, warmup, seed, steps=[100, 200], losses=[loss, loss], diverged_at=diverged_at)
    run.final_loss, run.final_accuracy = (loss, 1.0 if loss is not None and loss < 1 else 0.1)
    if diverged_at is not None:
        run.final_loss = run.final_accuracy = None
        run.losses = [2.0, None]
    return run


def _result(losses: dict[tuple[str, int], list[float | None]]) -> TrainResult:
    cfg = TrainConfig(depth=6, width=16, heads=2, lrs=(1e-2,), warmups=(0, 150), steps=200, seeds=3)
    runs = [_run(p, w, s, v, diverged_at=50 if v is None else None)
            for (p, w), values in losses.items() for s, v in enumerate(values)]
    return TrainResult(cfg, runs, seconds=1.0, steps_done=400)


def test_the_reading_names_xiongs_figure_when_post_ln_needs_warm_up() -> None:
    from lndrill.tui.screens.training import reading

    chance = math.log(16)
    result = _result({("post", 0): [chance, chance, None], ("post", 150): [0.01, 0.02, 0.01],
                      ("pre", 0): [0.001, 0.002, 0.001], ("pre", 150): [0.002, 0.002, 0.003]})
    text = reading(result, "en")
    assert "Post-LN without warm-up diverged in 1 of 3 seeds (from step 50)" in text
    assert "stalled near chance in 2 of 3 seeds" in text
    assert "Xiong et al.'s Figure 1" in text
    zh = reading(result, "zh")
    assert "Xiong 等人图 1" in zh and "发散" in zh


def test_the_reading_says_when_neither_needs_warm_up() -> None:
    from lndrill.tui.screens.training import reading

    result = _result({("post", 0): [0.01] * 3, ("post", 150): [0.01] * 3, ("pre", 0): [0.01] * 3,
                      ("pre", 150): [0.01] * 3})
    assert "Neither needs warm-up" in reading(result, "en")


def test_the_reading_calls_a_2x_worse_post_ln_a_mild_form() -> None:
    from lndrill.tui.screens.training import reading

    result = _result({("post", 0): [0.03] * 3, ("post", 150): [0.01] * 3, ("pre", 0): [0.01] * 3,
                      ("pre", 150): [0.01] * 3})
    assert "ends at 3.0x the loss it reaches with it" in reading(result, "en")


def test_a_cancelled_run_with_nothing_recorded_says_so() -> None:
    from lndrill.tui.screens.training import reading

    cfg = TrainConfig(depth=2, width=8, heads=2)
    text = reading(TrainResult(cfg, [RunResult("post", 1e-3, 0, 0)], cancelled=True), "en")
    assert text.startswith("Cancelled at step 0") and "nothing to read" in text


# ---------------------------------------------------------------------------------------------- snapshots
SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]


@pytest.fixture
def fake_training_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each perf_counter call inside the training loop advances 10 ms: the same steps/s everywhere."""
    import lndrill.train.run as run_module

    ticks = [0.0]

    def perf_counter() -> float:
        ticks[0] += 0.01
        return ticks[0]

    monkeypatch.setattr(run_module, "time", SimpleNamespace(perf_counter=perf_counter))


@pytest.fixture
def machine_independent_losses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Losses to two decimals on their way to the screen: the last digits of a trained loss depend on the BLAS kernels
    the CPU picks (TINY's Post-LN run with warm-up ends at 0.0104, 0.0116, 0.0125 or 0.0133 across OpenBLAS core
    types), so an exact figure would make the picture differ from one machine to the next."""
    import lndrill.tui.screens.training as screen
    from lndrill.train.run import Finished, Progress

    real = screen.train_events

    def coarse(value: float | None) -> float | None:
        return None if value is None else round(value, 2)

    def events(cfg, cancel=None):  # noqa: ANN001, ANN202
        for event in real(cfg, cancel):
            if isinstance(event, Progress):
                event.points = [(i, step, coarse(loss)) for i, step, loss in event.points]
            elif isinstance(event, Finished):
                for run in event.result.runs:
                    run.final_loss = coarse(run.final_loss)
                    run.losses = [coarse(loss) for loss in run.losses]
            yield event

    monkeypatch.setattr(screen, "train_events", events)


@pytest.mark.parametrize("size", SIZES)
def test_training_view_finished(snap_compare, deck, size, fake_training_clock, machine_independent_losses) -> None:
    async def open_and_finish(pilot) -> None:  # noqa: ANN001
        await settle(pilot)
        pilot.app.open_training()
        await settle(pilot)
        await pilot.pause()

    app = make_app(deck=deck, lang="en", train_config=TINY)
    assert snap_compare(app, terminal_size=size, run_before=open_and_finish)
