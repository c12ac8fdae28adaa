"""Rubric tuning (issue 8), math cards: layernorm-jacobian, rmsnorm, toy-metric-artifact.

Every recogniser family that was broadened is pinned by sentences written for this file (English and Chinese,
not copied from any graded answer); every mistake that was added or narrowed has a plain wrong sentence that
must draw it and a correct or qualified one that must not. Sentences that were tightened away (a recogniser
that used to fire on a loose word) are pinned too.
"""

from __future__ import annotations

import pytest

from lndrill.scoring.engine import score_answer


def hits(card, t):
    r = score_answer(card, t)
    return {p.id for s in r.sections for p in s.points if p.hit}


def mistakes(card, t):
    return {m.id for m in score_answer(card, t).mistakes}


# (card, point, sentence): the sentence states the point and must earn it.
HITS = [
    # layernorm-jacobian ------------------------------------------------------------------------------------
    ("layernorm-jacobian", "jacobian-formula", "Its Jacobian is J = (1/s)(I - 11^T/D - yy^T/D)."),
    ("layernorm-jacobian", "jacobian-formula", "求导得到的雅可比是 (1/s)(I − 𝟏𝟏ᵀ/D − yyᵀ/D)。"),
    # what J does to the rest: 1/s on the other D - 2 directions (1/σ too)
    ("layernorm-jacobian", "one-over-s-elsewhere", "On the other D − 2 directions the Jacobian just multiplies by 1/s."),
    ("layernorm-jacobian", "one-over-s-elsewhere", "On everything else it acts as 1/σ times the identity."),
    ("layernorm-jacobian", "one-over-s-elsewhere", "其他的 D−2 个方向都被乘上 1/s。"),
    # the mean direction: "1 方向", the shift direction, the null space, "leaves the output unchanged"
    ("layernorm-jacobian", "kills-mean", "The shift direction is annihilated by the Jacobian."),
    ("layernorm-jacobian", "kills-mean", "LN 的雅可比会直接消掉 𝟏 方向，也就是均值的方向。"),
    ("layernorm-jacobian", "kills-mean", "The null space of J contains the all-ones vector 1."),
    ("layernorm-jacobian", "kills-mean", "J 的零空间包含全 1 向量。"),
    ("layernorm-jacobian", "kills-mean", "Moving x along the mean direction leaves the output unchanged."),
    ("layernorm-jacobian", "kills-mean", "沿均值方向移动输入，输出不变。"),
    # the radial direction
    ("layernorm-jacobian", "kills-radial", "The null space of J is spanned by 1 and y."),
    ("layernorm-jacobian", "kills-radial", "J 的零空间由 1 和 y 张成。"),
    ("layernorm-jacobian", "kills-radial", "Stretching the input along the radial direction leaves the output unchanged."),
    ("layernorm-jacobian", "kills-radial", "y 的方向也被消掉了。"),
    ("layernorm-jacobian", "kills-radial", "Along the radial direction y the Jacobian gives essentially 0."),
    ("layernorm-jacobian", "kills-radial", "沿径向方向，J 作用的结果几乎为 0。"),
    # the invariance written with alpha or with a product sign
    ("layernorm-jacobian", "invariance", "This gives LN(αx + c𝟏) = LN(x) for every α > 0."),
    ("layernorm-jacobian", "invariance", "也就是说 LN(a·x + c) = LN(x)，其中 a 是正数。"),
    # Lemma 3: the dependence itself
    ("layernorm-jacobian", "lemma3-norm", "The spectral norm is √D / √(‖x − μ1‖² + Dε), as in Xiong's Lemma 3."),
    ("layernorm-jacobian", "lemma3-norm", "Its spectral norm equals 1/s."),
    ("layernorm-jacobian", "lemma3-norm", "雅可比的范数是 √d 除以 ‖x‖ 的量级。"),
    ("layernorm-jacobian", "lemma3-norm", "它的谱范数就是 1/s。"),
    # large inputs, small gradients: the input named as the activations / the stream, or "divided by the input"
    ("layernorm-jacobian", "large-input-small-grad", "When the activations feeding the LN are large, the gradient that comes back is small."),
    ("layernorm-jacobian", "large-input-small-grad", "当残差流很大时，经过 LN 回传的梯度就很小。"),
    ("layernorm-jacobian", "large-input-small-grad", "The gradient is divided by the input's scale on its way back."),
    ("layernorm-jacobian", "large-input-small-grad", "梯度在反传时会被除以输入的尺度。"),
    # the backward formula: g minus its mean, minus y times mean(g*y)
    ("layernorm-jacobian", "backward-formula", "The backward pass is g_x = (g - mean(g) - y * mean(g*y)) / s."),
    ("layernorm-jacobian", "backward-formula", "反向传播的公式是 g_x = (g − mean(g) − y·mean(g⊙y))/s。"),
    ("layernorm-jacobian", "backward-formula", "The backward pass is g_x = (g − ⟨g⟩ − y⟨g ⊙ y⟩)/s."),
    ("layernorm-jacobian", "backward-formula", "g_x 等于 g 减去 g 的均值，再减去 y 乘以 g 和 y 乘积的均值，最后除以 s。"),
    # round 2: the recipe in words (mean, component along y, divide by s) without naming the backward pass
    ("layernorm-jacobian", "backward-formula", "Subtract the gradient's mean, subtract its component along y, then divide by s."),
    ("layernorm-jacobian", "backward-formula", "先减去梯度的均值，再减去沿 y 的分量，最后除以 s。"),
    # round 2: the outer products spoken ("transpose", "转置") or written with x̂
    ("layernorm-jacobian", "jacobian-formula", "The Jacobian is one over s times I minus one one transpose over D minus y y transpose over D."),
    ("layernorm-jacobian", "jacobian-formula", "雅可比等于 1/s 乘以 I 减 1 1 转置除以 D，再减 y y 转置除以 D。"),
    ("layernorm-jacobian", "jacobian-formula", "J = (1/s)(I - 11^T/D - x̂x̂ᵀ/D), where x̂ is the normalised input."),
    # round 2: J y written with its value ("≈ 0" is not matched), the direction "invisible", the centred input x − μ
    ("layernorm-jacobian", "kills-radial", "Jy is negligible, essentially 0."),
    ("layernorm-jacobian", "kills-radial", "The radial direction is invisible to the LN."),
    ("layernorm-jacobian", "kills-radial", "沿着 x−μ 放大或缩小，输出几乎不变。"),
    # rmsnorm -----------------------------------------------------------------------------------------------
    ("rmsnorm", "rms-formula", "Here RMS(x) = sqrt(mean(x²) + eps) is the statistic it divides by."),
    ("rmsnorm", "rms-formula", "其中 RMS(x) 是 x 平方的均值再开根号。"),
    ("rmsnorm", "no-recentering", "RMSNorm drops μ and keeps only the rescaling."),
    ("rmsnorm", "no-recentering", "RMSNorm 不减 mean，只做缩放。"),
    ("rmsnorm", "cheaper", "RMSNorm 算起来更省，效果差不多。"),
    ("rmsnorm", "cheaper", "RMSNorm 的速度快，因为只需要一个统计量。"),
    # round 2: the saving named as a speed-up, less running time, one reduction
    ("rmsnorm", "cheaper", "Its main appeal is the speed-up at equal quality."),
    ("rmsnorm", "cheaper", "RMSNorm 带来了加速，效果差不多。"),
    ("rmsnorm", "cheaper", "RMSNorm needs only one reduction."),
    ("rmsnorm", "rms-jacobian", "For RMSNorm the Jacobian is (1/r)(I - yy^T/D)."),
    ("rmsnorm", "rms-jacobian", "RMSNorm 的雅可比是 (1/RMS)(I − yyᵀ/d)。"),
    ("rmsnorm", "rms-jacobian", "With RMSNorm the mean direction survives in the backward pass."),
    ("rmsnorm", "rms-jacobian", "用 RMSNorm 时，梯度里的均值分量不会被扔掉。"),
    ("rmsnorm", "llama-rmsnorm", "T5 和 LLaMA 用的都是 RMS 式归一化。"),
    ("rmsnorm", "llama-rmsnorm", "LLaMA 用的是 RMS 风格的归一化，放在每个子层的输入端。"),
    ("rmsnorm", "llama-prenorm", "LLaMA: RMSNorm, which is pre."),
    ("rmsnorm", "llama-prenorm", "LLaMA 用的是 RMSNorm，位置是 pre。"),
    ("rmsnorm", "llama-prenorm", "LLaMA uses RMSNorm, pre-norm."),
    # round 2: BERT (or the original Transformer) and the position in one clause
    ("rmsnorm", "bert-post-ln", "BERT uses LayerNorm after the residual, Post-LN."),
    ("rmsnorm", "bert-post-ln", "原版 Transformer 用的是后置的 LayerNorm。"),
    # round 2: "only the radial direction" in one phrase; the spoken "one over r ... y y-transpose"
    ("rmsnorm", "rms-jacobian", "RMSNorm only removes the radial direction."),
    ("rmsnorm", "rms-jacobian", "RMSNorm 只消掉径向方向。"),
    ("rmsnorm", "rms-jacobian", "RMSNorm's Jacobian is one over r times I minus y y-transpose over d."),
    # LayerNorm's full Jacobian first in the sentence does not stop RMSNorm's own after it
    ("rmsnorm", "rms-jacobian", "LayerNorm's is (1/s)(I - 11^T/D - yy^T/D), while RMSNorm's is (1/r)(I - yy^T/D)."),
    # toy-metric-artifact -----------------------------------------------------------------------------------
    ("toy-metric-artifact", "ends-in-ln", "In Post-LN the last thing the stack does is an LN, so f is essentially constant."),
    ("toy-metric-artifact", "ends-in-ln", "Post-LN 的 f 几乎是常数，跟输入没关系。"),
    ("toy-metric-artifact", "ends-in-ln", "For Post-LN, S(x) = LN(u), so the sum of squares is constant for every input."),
    ("toy-metric-artifact", "grad-order-eps", "For Post-LN the printed 0.0047 is just a multiple of eps."),
    ("toy-metric-artifact", "grad-order-eps", "Post-LN 表里的 0.0047 完全来自 eps。"),
    ("toy-metric-artifact", "not-vanishing", "The true gradient is not zero at all."),
    ("toy-metric-artifact", "not-vanishing", "真实的梯度根本不是 0。"),
    ("toy-metric-artifact", "metric-artifact", "The table mostly reflects the choice of f."),
    ("toy-metric-artifact", "metric-artifact", "这个 0 是度量方式造成的。"),
    ("toy-metric-artifact", "metric-artifact", "这个读数主要是 metric 的问题。"),
    ("toy-metric-artifact", "depth1-jacobian", "At depth 1 the true Jacobian norm is about 5.8."),
    ("toy-metric-artifact", "depth1-jacobian", "深度 1 时真实的雅可比范数约为 5.8。"),
    ("toy-metric-artifact", "pre-forward-growth", "For Pre-LN the gradient is ∇f = 2JᵀS(x), so it tracks the output."),
    ("toy-metric-artifact", "pre-forward-growth", "Pre-LN 这边 ∇f = 2JᵀS，读数跟着输出变大。"),
    ("toy-metric-artifact", "shared-w", "In the Pre-LN toy the growth is steady because the W is shared."),
    ("toy-metric-artifact", "shared-w", "Pre-LN 的增长这么稳定，是因为共享的 W 让每层的更新方向一致。"),
    ("toy-metric-artifact", "jacobian-metric", "I would compute the norm of the Jacobian instead."),
    ("toy-metric-artifact", "jacobian-metric", "应该直接去算雅可比矩阵的范数。"),
    ("toy-metric-artifact", "realistic-width", "Then I would make the dimension bigger, a larger hidden size."),
    ("toy-metric-artifact", "realistic-width", "实验里应该把维度大一点。"),
    ("toy-metric-artifact", "readout-after-final-ln", "Put a real loss after the final LN."),
    ("toy-metric-artifact", "readout-after-final-ln", "在最后的 LN 之后接上交叉熵损失。"),
    # (round 2: faithful-numbers was split into faithful-post and faithful-pre; these two state the Pre-LN half)
    ("toy-metric-artifact", "faithful-pre", "The Pre-LN Jacobian goes from about 2.3 to about 3.1 and then stays flat."),
    ("toy-metric-artifact", "faithful-pre", "Pre-LN 的雅可比从 2.3 左右涨到 3.1 左右就平了。"),
    ("toy-metric-artifact", "faithful-pre", "For Pre-LN the Jacobian barely moves with depth."),
    ("toy-metric-artifact", "faithful-pre", "Pre-LN 的雅可比几乎不随深度变。"),
    ("toy-metric-artifact", "faithful-post", "The Post-LN map contracts to a fixed point."),
    ("toy-metric-artifact", "faithful-post", "Post-LN 的雅可比随深度收缩：0.1173、7.6e-4、7.7e-9。"),
    # round 2: f said constant with its value, independence of z; the A-not-A "消不消失" denied; a loss after the final LN
    ("toy-metric-artifact", "ends-in-ln", "所以 f ≈ D，跟 z 无关。"),
    ("toy-metric-artifact", "not-vanishing", "这个读数跟梯度消不消失没关系。"),
    ("toy-metric-artifact", "readout-after-final-ln", "Attach a loss after the final LN."),
]


@pytest.mark.parametrize(("card_id", "point", "text"), HITS, ids=[f"{c}:{p}:{t[:30]}" for c, p, t in HITS])
def test_broadened_point_is_hit(deck, card_id: str, point: str, text: str) -> None:
    assert point in hits(deck.get(card_id), text)


# (card, point, sentence): the sentence does NOT state the point (a loose word, or the wrong subject).
NOT_HITS = [
    # a bare "centred" names the vector without defining it
    ("layernorm-jacobian", "definitions", "Its Jacobian vanishes along the direction of the centred input."),
    # the two projectors without the identity are not the Jacobian
    ("layernorm-jacobian", "jacobian-formula", "J = (1/s)(11^T/D + yy^T/D) is the Jacobian."),
    # a bare "s" next to "orthogonal" is not the factor 1/s
    ("layernorm-jacobian", "one-over-s-elsewhere", "The directions orthogonal to 1 and y are what s is computed from."),
    # naming Lemma 3 next to "norm" only echoes the question
    ("layernorm-jacobian", "lemma3-norm", "Lemma 3 of Xiong et al. is about the norm of the Jacobian."),
    # the backward pass that keeps only the removed parts
    ("layernorm-jacobian", "backward-formula", "The backward pass is g_x = (1/s)(mean(g) * 1 + y * mean(g*y))."),
    # "scale factor" next to 1/RMS defines nothing
    ("rmsnorm", "rms-formula", "The two are the same up to the 1/σ versus 1/RMS scale factor, I think."),
    # yy^T alone is also in LayerNorm's Jacobian
    ("rmsnorm", "rms-jacobian", "LayerNorm's Jacobian is (1/s)(I - 11^T/D - yy^T/D)."),
    # RMSNorm's 1/r in front of LayerNorm's full bracket, all-ones term inside: the wrong Jacobian for RMSNorm
    ("rmsnorm", "rms-jacobian", "RMSNorm has the same null space: J = (1/r)(I - 1 1^T/D - y y^T/D)."),
    ("rmsnorm", "rms-jacobian", r"$$J_{\mathrm{RMS}} = \frac{1}{r}\Big(I - \frac{\mathbf{1}\mathbf{1}^\top}{D} - \frac{y y^\top}{D}\Big)$$"),
    # a stray 快 is not "cheaper"
    ("rmsnorm", "cheaper", "RMSNorm 很快就被大家接受了。"),
    # the article's 0.0047 alone is not the true Jacobian
    ("toy-metric-artifact", "depth1-jacobian", "At depth 1 the table prints 0.0047."),
    # the swapped column: the toy's Pre-LN stack has no final LN
    ("toy-metric-artifact", "ends-in-ln", "The Pre-LN stack ends in a LayerNorm, so f is essentially constant."),
    # round 2: the reversed Lemma 3 (sqrt(d) next to "norm" alone no longer earns it)
    ("layernorm-jacobian", "lemma3-norm", "||J|| = O(||x||/sqrt(d)) by Lemma 3."),
    # round 2: the swapped RMSNorm Jacobian, said of LayerNorm; "only" and "radial" across a comma, saying the opposite
    ("rmsnorm", "rms-jacobian", "LayerNorm's Jacobian kills only the radial direction."),
    ("rmsnorm", "rms-jacobian", "RMSNorm 只消掉均值方向，径向方向保留下来。"),
    # round 2: placements of other models do not earn LLaMA's or BERT's
    ("rmsnorm", "llama-prenorm", "BERT — RMSNorm, Pre-LN."),
    ("rmsnorm", "bert-post-ln", "GPT-2/3 — LayerNorm, Post-LN."),
    # round 2: the swapped numbers (Pre-LN said to contract), and "zero" next to a bare "too"
    ("toy-metric-artifact", "faithful-post", "The Pre-LN map contracts."),
    ("toy-metric-artifact", "pre-final-ln-zero", "Pre-LN contracts toward zero too."),
    ("toy-metric-artifact", "not-vanishing", "The Pre-LN reading is just eps, not a sign of vanishing gradients."),
]


@pytest.mark.parametrize(("card_id", "point", "text"), NOT_HITS, ids=[f"{c}:{p}:{t[:30]}" for c, p, t in NOT_HITS])
def test_loose_or_wrong_sentence_misses_point(deck, card_id: str, point: str, text: str) -> None:
    assert point not in hits(deck.get(card_id), text)


# (card, mistake, sentence): a plain, explicit, unqualified wrong claim that must be charged. (Every mistake of these
# cards, including those added in round 2, also has fires/spares sentences in tests/counterexamples/<card>.yaml.)
WRONG = [
    ("layernorm-jacobian", "jacobian-projector-sum", "The Jacobian is J = (1/s)(11^T/D + yy^T/D)."),
    ("layernorm-jacobian", "jacobian-projector-sum", "LN 的雅可比是 (1/s)(𝟏𝟏ᵀ/D + yyᵀ/D)。"),
    ("layernorm-jacobian", "jacobian-grows-with-norm", "By Lemma 3 the Jacobian norm is O(‖x‖/√d)."),
    ("layernorm-jacobian", "jacobian-grows-with-norm", "The Jacobian grows with the input norm."),
    ("layernorm-jacobian", "jacobian-grows-with-norm", "雅可比的范数随输入范数增大。"),
    ("layernorm-jacobian", "jacobian-grows-with-norm", "输入越大，雅可比也越大。"),
    ("layernorm-jacobian", "invariance-any-sign", "The invariance LN(ax + c1) = LN(x) is true for any nonzero a."),
    ("layernorm-jacobian", "invariance-any-sign", "对任意非零的 a，LN(ax + c1) = LN(x) 都成立。"),
    ("layernorm-jacobian", "large-input-large-grad", "Larger inputs give larger gradients through the LN."),
    ("layernorm-jacobian", "large-input-large-grad", "LN 的输入越大，回传的梯度也越大。"),
    ("layernorm-jacobian", "large-input-large-grad",
     "Because the final LN's input grows with depth, the gradient through it grows as well."),
    ("rmsnorm", "rmsnorm-subtracts-mean", "RMSNorm subtracts the mean before dividing by the RMS."),
    ("rmsnorm", "rmsnorm-subtracts-mean", "RMSNorm 也会减均值。"),
    ("rmsnorm", "rmsnorm-kills-mean", "RMSNorm's Jacobian also kills the mean direction."),
    ("rmsnorm", "rmsnorm-kills-mean", "RMSNorm 的雅可比也会消掉均值方向。"),
    ("rmsnorm", "jacobian-same-up-to-scale", "The two Jacobians are the same up to a scale factor."),
    ("rmsnorm", "jacobian-same-up-to-scale", "两者的雅可比只差一个缩放系数。"),
    ("rmsnorm", "gpt-rmsnorm", "GPT-3 switched to RMSNorm in the same positions."),
    ("rmsnorm", "gpt-rmsnorm", "GPT-3 改用了 RMSNorm。"),
    ("rmsnorm", "rmsnorm-bias-not-gain", "RMSNorm drops the learned gain and keeps only a bias."),
    ("rmsnorm", "rmsnorm-bias-not-gain", "RMSNorm 去掉了增益，只保留偏置。"),
    ("toy-metric-artifact", "post-forward-growth", "The Post-LN growth is forward growth."),
    ("toy-metric-artifact", "post-forward-growth", "Post-LN 的读数变大是前向增长。"),
    ("toy-metric-artifact", "post-forward-growth", "In Post-LN the output norm grows with depth."),
    ("toy-metric-artifact", "toy-shows-vanishing", "The 0.0000 reading proves that Post-LN gradients vanish."),
]


@pytest.mark.parametrize(("card_id", "mistake", "text"), WRONG, ids=[f"{c}:{m}:{t[:30]}" for c, m, t in WRONG])
def test_wrong_claim_draws_mistake(deck, card_id: str, mistake: str, text: str) -> None:
    assert mistake in mistakes(deck.get(card_id), text)


# (card, sentence): correct, negated, compared or qualified statements near a mistake's words: no mistake.
CORRECT = [
    ("layernorm-jacobian", "The Jacobian is (1/s)(I - 11^T/D - yy^T/D): the projectors 11^T/D and yy^T/D are removed."),
    ("layernorm-jacobian", "Lemma 3 gives ||J||_2 = O(sqrt(d)/||x||): the Jacobian is inversely proportional to the input norm."),
    ("layernorm-jacobian", "The Jacobian shrinks as the input norm grows."),
    ("layernorm-jacobian", "输入越大，雅可比越小。"),
    ("layernorm-jacobian", "LN(ax + c1) = LN(x) for any a > 0, but not for a negative a."),
    ("layernorm-jacobian", "Larger inputs give smaller gradients, and smaller inputs give larger gradients."),
    ("layernorm-jacobian", "Because the final LN's input grows with depth, the gradient through it gets smaller."),
    ("layernorm-jacobian", "As the input grows, the gradient shrinks."),
    ("layernorm-jacobian", "输入变大时，回传的梯度反而变小。"),
    ("layernorm-jacobian", "The input grows with depth, and the gradient that passes back shrinks, even though the stream grows too."),
    ("rmsnorm", "RMSNorm does not subtract the mean."),
    ("rmsnorm", "Unlike RMSNorm, LayerNorm subtracts the mean."),
    ("rmsnorm", "RMSNorm 省掉了 μ（re-centering）和 β。"),
    ("rmsnorm", "RMSNorm drops the mean subtraction (re-centering)."),
    ("rmsnorm", "RMSNorm's Jacobian does not kill the mean direction."),
    ("rmsnorm", "LayerNorm's Jacobian kills the mean direction; RMSNorm's Jacobian does not."),
    ("rmsnorm", "和 LayerNorm 不同，RMSNorm 的雅可比不会消掉均值方向。"),
    ("rmsnorm", "The two Jacobians differ by the -11^T/D term, not just by a scale factor."),
    ("rmsnorm", "GPT-3 kept LayerNorm; LLaMA switched to RMSNorm."),
    ("rmsnorm", "LLaMA uses pre-norm RMSNorm, in the same positions as GPT-2's LayerNorms."),
    ("rmsnorm", "RMSNorm keeps the gain and drops the bias."),
    ("rmsnorm", "RMSNorm 保留增益 g，去掉了偏置。"),
    ("toy-metric-artifact", "Unlike Post-LN, the Pre-LN toy shows forward growth."),
    ("toy-metric-artifact", "Post-LN has no forward growth: its output norm is pinned by the final LN."),
    ("toy-metric-artifact", "The Pre-LN growth is forward growth, whereas Post-LN's output stays at norm sqrt(D)."),
    ("toy-metric-artifact", "In this toy the Post-LN Jacobian really does vanish with depth (7.7e-9 at depth 24)."),
]


@pytest.mark.parametrize(("card_id", "text"), CORRECT, ids=[f"{c}:{t[:40]}" for c, t in CORRECT])
def test_correct_statement_draws_no_mistake(deck, card_id: str, text: str) -> None:
    assert mistakes(deck.get(card_id), text) == set()
