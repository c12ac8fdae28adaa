"""The article's table, the Jacobian figures on the same toy, the paper's Lemma 2 and Theorem 1, notes."""

from __future__ import annotations

import numpy as np
import pytest

from lndrill.sim import SimConfig, sweep
from lndrill.sim.render import format_value


@pytest.fixture(scope="module")
def article():
    return sweep(SimConfig(preset="article"))


def test_article_preset_reproduces_the_printed_table(article):
    assert article.metric == "article"
    assert article.depths == [1, 6, 12, 24]
    assert [f"{v:.4f}" for v in article.values["post"]] == ["0.0047", "0.0000", "0.0000", "0.0000"]
    assert [f"{v:.4f}" for v in article.values["pre"]] == ["3.5273", "28.4210", "55.5273", "109.4523"]


def test_article_preset_shows_small_values_in_scientific_notation(article):
    shown = [format_value(v) for v in article.values["post"]]
    assert shown[0] == "0.0047"
    assert shown[1] == "2.1e-06"
    assert all("e-" in s for s in shown[1:])
    assert format_value(109.45234) == "109.4523"


def test_article_preset_carries_the_jacobian_figures(article):
    jac = article.companion
    assert jac is not None and jac.metric == "jacobian" and jac.depths == [1, 6, 12, 24]
    post, pre = jac.values["post"], jac.values["pre"]
    assert post[0] == pytest.approx(5.759, abs=5e-4)
    assert post[1] == pytest.approx(0.1173, abs=5e-5)
    assert post[2] == pytest.approx(7.6e-4, rel=0.01)
    assert post[3] == pytest.approx(7.7e-9, rel=0.01)
    assert list(pre) == pytest.approx([2.328, 3.089, 3.111, 3.113], abs=5e-4)


def test_degenerate_note_names_post_ln_and_the_metric_to_use(article):
    degenerate = [n for n in article.notes if "degenerate" in n]
    assert len(degenerate) == 1
    assert degenerate[0].startswith("Post-LN")
    assert "jacobian" in degenerate[0]
    assert "Pre-LN" not in degenerate[0]  # the article's Pre-LN has no final LN


def test_degenerate_note_also_flags_pre_ln_with_its_final_ln():
    result = sweep(SimConfig(preset="article", final_ln=True))
    degenerate = [n for n in result.notes if "degenerate" in n]
    assert len(degenerate) == 1 and "Pre-LN (final LN)" in degenerate[0]
    # and the number really is tiny next to the faithful Jacobian of the same stack
    assert np.all(result.values["pre"] < 1e-2 * result.companion.values["pre"])


def test_no_degenerate_note_for_the_jacobian_metric():
    for cfg in (SimConfig(preset="article", metric="jacobian"), SimConfig(width=8, depths=[1, 2], final_ln=True)):
        assert not [n for n in sweep(cfg).notes if "degenerate" in n]


def test_batched_seeds_equal_separate_runs():
    batched = sweep(SimConfig(width=8, depths=[1, 3, 5], seeds=3, seed=4,
                              placements=("post", "pre", "sandwich", "deepnorm")))
    singles = [sweep(SimConfig(width=8, depths=[1, 3, 5], seed=4 + i,
                               placements=("post", "pre", "sandwich", "deepnorm"))) for i in range(3)]
    for p in batched.values:
        stacked = np.stack([s.values[p] for s in singles])
        np.testing.assert_allclose(batched.values[p], np.median(stacked, axis=0), rtol=1e-10)
        np.testing.assert_allclose(batched.spread[p][0], stacked.min(axis=0), rtol=1e-10)
        np.testing.assert_allclose(batched.spread[p][1], stacked.max(axis=0), rtol=1e-10)


def test_one_pass_sweep_equals_separate_depth_runs():
    cfg = dict(width=6, placements=("post", "pre", "sandwich"), metric="last-layer", model="transformer",
               tokens=3, vocab=5)
    together = sweep(SimConfig(depths=[2, 4], **cfg))
    for k, depth in enumerate([2, 4]):
        alone = sweep(SimConfig(depths=[depth], **cfg))
        for p in together.values:
            assert together.values[p][k] == pytest.approx(alone.values[p][0], rel=1e-12)


# ---------------------------------------------------------------- paper preset
@pytest.fixture(scope="module")
def paper_stream():
    return sweep(SimConfig(preset="paper", metric="stream"))


def test_paper_lemma2_post_ln_sum_is_about_one_and_a_half(paper_stream):
    post = paper_stream.values["post"]
    assert len(post) == 12
    assert np.all((post > 1.2) & (post < 1.8))
    assert np.mean(post) == pytest.approx(1.5, abs=0.1)


def test_paper_lemma2_pre_ln_stream_grows_linearly_within_bounds(paper_stream):
    pre = paper_stream.values["pre"]
    layers = np.array(paper_stream.layers)
    assert np.all(pre >= 1 + layers / 2)
    assert np.all(pre <= 1 + 3 * layers / 2)


def test_paper_theorem1_last_layer_gradient():
    result = sweep(SimConfig(preset="paper"))
    assert result.metric == "last-layer"
    assert result.depths == list(range(6, 49))
    post, pre = result.values["post"], result.values["pre"]
    assert post.max() / post.min() <= 1.5  # flat in L
    scaled = pre * np.sqrt(result.depths)
    assert np.all(np.abs(scaled / scaled.mean() - 1) <= 0.25)  # falls like 1/sqrt(L)
    assert pre[-1] < pre[0] / 2


def test_paper_per_layer_gradients_large_near_the_output_for_post_decreasing_for_pre():
    result = sweep(SimConfig(preset="paper", metric="param"))
    post, pre = result.values["post"], result.values["pre"]
    assert result.layers == list(range(1, 13))
    assert post[-1] > post[0]  # Post-LN: larger near the output (mildly, in this set-up)
    assert post[-1] > 2 * pre[-1]
    assert pre[-1] < pre[0] / 2  # Pre-LN: falls with the layer index, roughly 1/||x_l||
