"""The training lab: reproducible runs, divergence as a result, cancellation, schedules, and
`lndrill train` in-process (JSON shape, plain chart, progress on stderr, one-line errors with exit 2)."""

from __future__ import annotations

import json
import math
import threading

import numpy as np
import pytest

from lndrill.cli import main
from lndrill.train.optim import Adam, lr_factor
from lndrill.train.presets import PRESETS
from lndrill.train.run import (
    FORCE_SECONDS,
    Finished,
    Progress,
    TrainConfig,
    TrainConfigError,
    train,
    train_events,
)

TINY = {"depth": 2, "width": 8, "heads": 2, "vocab": 5, "length": 4, "batch": 4, "steps": 12, "curve_points": 6}


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["train", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


TINY_ARGS = ["--depth", "2", "--width", "8", "--heads", "2", "--vocab", "5", "--length", "4", "--batch", "4",
             "--steps", "12"]


def test_the_same_seed_gives_the_same_curves():
    cfg = TrainConfig(placements=("post", "pre"), warmups=(0, 5), seeds=2, **TINY)
    a, b = train(cfg), train(cfg)
    assert [r.losses for r in a.runs] == [r.losses for r in b.runs]
    assert [r.final_loss for r in a.runs] == [r.final_loss for r in b.runs]
    assert [(r.placement, r.warmup, r.seed) for r in a.runs] == [
        (p, w, s) for p in ("post", "pre") for w in (0, 5) for s in (0, 1)]
    assert all(len(r.steps) == 6 and r.steps[-1] == 12 for r in a.runs)


def test_batched_runs_match_runs_trained_alone():
    together = train(TrainConfig(placements=("pre",), warmups=(0, 5), seeds=2, **TINY))
    alone = train(TrainConfig(placements=("pre",), warmups=(5,), seed=1, seeds=1, **TINY))
    np.testing.assert_allclose(together.runs[3].losses, alone.runs[0].losses, rtol=1e-4)


def test_every_placement_learns_the_task_in_float64():
    cfg = TrainConfig(placements=("post", "pre", "sandwich", "deepnorm"), warmups=(0,), dtype="float64",
                      **{**TINY, "steps": 60})
    result = train(cfg)
    for run in result.runs:
        assert not run.diverged
        assert run.losses[-1] is not None and run.losses[0] is not None
        assert run.losses[-1] < run.losses[0], run.label
        assert run.final_loss is not None and run.final_accuracy is not None


def test_divergence_is_a_result_not_a_crash():
    result = train(TrainConfig(placements=("post",), lrs=(1.0,), warmups=(0,), **{**TINY, "steps": 60}))
    run = result.runs[0]
    assert run.diverged and run.diverged_at is not None and run.final_loss is None
    assert run.losses[-1] is None
    summary = result.to_dict()["summary"][0]
    assert summary["diverged"] == 1 and summary["median_final_loss"] is None


def test_gradient_norms_are_kept_per_layer_at_chosen_steps():
    result = train(TrainConfig(placements=("pre",), warmups=(0,), grad_steps=(1, 5, 99), **TINY))
    norms = result.runs[0].grad_norms
    assert sorted(norms) == [1, 5]
    assert all(len(v) == 2 and all(x > 0 for x in v) for v in norms.values())
    assert TrainConfig(**{**TINY, "steps": 1000}).kept_grad_steps == (1, 10, 100, 1000)


def test_progress_then_finished_and_cancel():
    cfg = TrainConfig(placements=("post", "pre"), warmups=(0,), **TINY)
    events = list(train_events(cfg))
    assert isinstance(events[-1], Finished) and not events[-1].result.cancelled
    progress = [e for e in events if isinstance(e, Progress)]
    assert [e.done for e in progress] == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]
    assert progress[-1].total == 24 and progress[-1].eta_seconds == 0
    assert all(len(e.points) == 1 for e in progress)
    cancel = threading.Event()
    seen = []
    for event in train_events(cfg, cancel):
        seen.append(event)
        if isinstance(event, Progress) and event.done >= 4:
            cancel.set()
    assert isinstance(seen[-1], Finished)
    result = seen[-1].result
    assert result.cancelled and result.steps_done == 4
    assert len(result.runs) == 1 and result.runs[0].final_loss is None


def test_schedules():
    assert lr_factor(1, 0, "constant") == 1.0 and lr_factor(500, 0, "inverse-sqrt") == 1.0
    assert lr_factor(50, 100, "constant") == 0.5 and lr_factor(400, 100, "constant") == 1.0
    assert lr_factor(100, 100, "inverse-sqrt") == 1.0
    assert lr_factor(400, 100, "inverse-sqrt") == pytest.approx(0.5)


def test_adam_follows_the_textbook_update_with_one_learning_rate_per_run():
    """Adam as Kingma & Ba write it (bias-corrected m and v, beta 0.9 / 0.98, eps 1e-9), in float64, over steps
    whose gradients change sign and size, with each run keeping its own learning rate."""
    rng = np.random.default_rng(3)
    start = {"w": rng.standard_normal((2, 3, 4)), "b": rng.standard_normal((2, 1, 4))}
    params = {k: v.copy() for k, v in start.items()}
    adam, lr = Adam(params), np.array([1e-2, 3e-3])
    want = {k: v.copy() for k, v in start.items()}
    m = {k: np.zeros_like(v) for k, v in start.items()}
    v2 = {k: np.zeros_like(v) for k, v in start.items()}
    for t in range(1, 8):
        grads = {k: rng.standard_normal(v.shape) * 10.0 ** rng.integers(-4, 2) for k, v in start.items()}
        adam.step(grads, lr)
        for k, g in grads.items():
            m[k] = 0.9 * m[k] + 0.1 * g
            v2[k] = 0.98 * v2[k] + 0.02 * g * g
            m_hat, v_hat = m[k] / (1 - 0.9 ** t), v2[k] / (1 - 0.98 ** t)
            want[k] -= lr[:, None, None] * m_hat / (np.sqrt(v_hat) + 1e-9)
        for k in start:
            np.testing.assert_allclose(params[k], want[k], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(("changes", "message"), [
    ({"heads": 3}, "heads (3) must divide the width (8)"),
    ({"lrs": (0.0,)}, "learning rates must be in (0, 1]"),
    ({"placements": ("postln",)}, "unknown placement 'postln'"),
    ({"depth": 0}, "depth must be a whole number from 1 to 64"),
    ({"schedule": "cosine"}, "unknown schedule 'cosine'"),
])
def test_bad_configurations_say_what_is_wrong(changes, message):
    with pytest.raises(TrainConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        TrainConfig(**{**TINY, **changes})


def test_estimate_grows_with_the_work():
    base = TrainConfig(**TINY)
    assert base.estimated_seconds() < TrainConfig(**{**TINY, "steps": 120}).estimated_seconds()
    assert base.estimated_seconds() < TrainConfig(**{**TINY, "width": 64}).estimated_seconds()
    assert TrainConfig(**PRESETS["xiong"]).estimated_seconds() <= FORCE_SECONDS


# ---------------------------------------------------------------------------------------------- the CLI
def test_json_has_every_curve(capsys):
    code, out, err = run_cli(["--json", *TINY_ARGS, "--warmup", "0,6", "--seeds", "2", "--lr", "1e-3,3e-3"],
                             capsys)
    assert code == 0
    data = json.loads(out)
    assert data["config"]["warmups"] == [0, 6] and data["config"]["lrs"] == [1e-3, 3e-3]
    assert len(data["runs"]) == 2 * 2 * 2 * 2 and len(data["summary"]) == 2 * 2 * 2
    run = data["runs"][0]
    assert set(run) >= {"placement", "lr", "warmup", "seed", "diverged", "final_loss", "curve", "grad_norms"}
    assert run["curve"]["steps"][-1] == 12 and len(run["curve"]["loss"]) == len(run["curve"]["steps"])
    assert "steps/s" in err and "ETA" in err and err.count("\n") >= 2


def test_plain_prints_the_chart_and_table(capsys):
    code, out, err = run_cli(["--plain", *TINY_ARGS, "--placements", "post,pre", "--warmup", "0,6",
                              "--grad-steps", "2,7"], capsys)
    assert code == 0
    assert "\x1b[" not in out
    for text in ("training loss", "Post-LN, warm-up 0", "Pre-LN, warm-up 6", "final held-out loss",
                 "per-layer gradient norm", "steps/s"):
        assert text in out
    assert err.startswith("lndrill: train: ")
    assert "step      2:" in out and "step      7:" in out and "step     12:" not in out


def test_a_long_run_needs_force(capsys):
    code, out, err = run_cli(["--plain", "--steps", "1000000"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("lndrill: error: this run would take about") and "--force" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["--lr", "fast"], ["--warmup", "1.5"], ["--placements", "bogus"], ["--width", "10", "--heads", "3"],
    ["--preset", "paper"], ["--plain", "--json"], ["--steps", "-3"], ["--lr", "2"],
])
def test_bad_options_exit_2_with_one_line(argv, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith("lndrill: error: ") and err.count("\n") == 1, err


def test_the_xiong_preset_is_described():
    cfg = TrainConfig(**PRESETS["xiong"])
    assert cfg.placements == ("post", "pre") and cfg.seeds >= 3 and 0 in cfg.warmups and len(cfg.warmups) == 2
    assert not math.isnan(cfg.estimated_seconds())


def test_the_xiong_preset_shows_post_ln_needing_warm_up():
    """Xiong et al.'s Figure 1 on the toy, the preset's own seeds: Post-LN without warm-up ends at least 2x
    above Post-LN with warm-up (or diverges) in every seed; Pre-LN without warm-up within 1.2x of Pre-LN
    with warm-up."""
    cfg = TrainConfig(**PRESETS["xiong"])
    result = train(cfg)
    lr = cfg.lrs[0]
    none, some = cfg.warmups
    post_none, post_some = result.group("post", lr, none), result.group("post", lr, some)
    pre_none, pre_some = result.group("pre", lr, none), result.group("pre", lr, some)
    assert post_none and post_some and pre_none and pre_some
    for stalled, trained in zip(post_none.final_losses, post_some.final_losses, strict=True):
        assert not math.isfinite(stalled) or stalled >= 2 * trained
    for a, b in zip(pre_none.final_losses, pre_some.final_losses, strict=True):
        assert a <= 1.2 * b
    assert post_none.median_final_loss > 0.9 * math.log(cfg.vocab)  # at the chance level
