"""Issue 9, theory cards (xiong-theorem, toy-metric-artifact, layernorm-jacobian, rmsnorm).

Two directions, both in English and Chinese:

* correct or defensible statements (the audit's false penalties, and the corrected claims) draw NO mistake;
* the real wrong claim behind every mistake whose recogniser was narrowed or rewritten STILL draws it.

The checked reference is shared/reference/ln-facts.md (§2, §5-7).
"""

from __future__ import annotations

import pytest

from lndrill.scoring.engine import score_answer


def mistakes(card, text: str) -> set[str]:
    return {m.id for m in score_answer(card, text).mistakes}


# (card id, text): each is correct or defensible and must draw no mistake on its card.
CORRECT = [
    # xiong-theorem. Within one Post-LN model the per-layer gradient grows with the layer index l (Fig. 3a);
    # the myth is about the depth L and the last layer only.
    ("xiong-theorem", "Within one Post-LN model, the gradient of W^{2,l} grows with l."),
    ("xiong-theorem", "在同一个 Post-LN 模型内部，W^{2,l} 的梯度随 l 增大。"),
    ("xiong-theorem", "In Post-LN, the gradient norm of W^{2,l} grows as l increases towards the output."),
    ("xiong-theorem", "在 Post-LN 中，W^{2,l} 的梯度范数随着 l 增大、越靠近输出越大。"),
    ("xiong-theorem", "Within one Pre-LN model the per-layer gradient norm is roughly constant in l (Fig. 3b)."),
    ("xiong-theorem", "Within one Pre-LN model the per-layer gradient norm is constant in l."),
    ("xiong-theorem", "在同一个 Pre-LN 模型内部，各层的梯度范数随 l 基本不变（图 3b）。"),
    ("xiong-theorem", "在同一个 Pre-LN 模型内部，各层的梯度范数与 l 无关。"),
    # Lemma 2: 1.5d is the sum before each layer's last LN; the LN output has squared norm d.
    ("xiong-theorem", "In Post-LN the sum before each layer's last LN has E||x||^2 = 1.5d, and the LN output has squared norm d."),
    ("xiong-theorem", "Post-LN 每层最后一个 LN 之前的和的期望平方范数是 1.5d，LN 输出的平方范数是 d。"),
    ("xiong-theorem", "The two bounds differ by a factor of sqrt(L); measured ratios are about 0.8-0.9 sqrt(L)."),
    ("xiong-theorem", "Post-LN's last-layer gradient does not grow with depth; it is large but flat in L."),
    ("xiong-theorem", "Post-LN 最后一层的梯度并不随深度增长，它大，但与深度无关。"),
    ("xiong-theorem", "For Post-LN, the training instability grows with depth."),
    ("xiong-theorem", "Post-LN can be trained without warm-up if the learning rate is small enough, only more slowly."),
    # toy-metric-artifact. The toy's true Jacobian does vanish with depth (it contracts); only the article's
    # ~0 reading offered as evidence is the mistake.
    ("toy-metric-artifact",
     "In this toy the Post-LN Jacobian really does vanish with depth: 7.7e-9 at depth 24, because the map contracts."),
    ("toy-metric-artifact", "在这个玩具里，Post-LN 的 Jacobian 确实随深度消失：24 层时是 7.7e-9，因为这个映射在收缩。"),
    ("toy-metric-artifact",
     "The toy shows that the Post-LN Jacobian shrinks to 7.7e-9 at depth 24 because the map contracts to a fixed point."),
    ("toy-metric-artifact", "The ~0 reading is not evidence of vanishing gradients; it is an artifact of the metric."),
    ("toy-metric-artifact", "这个接近 0 的读数并不能说明梯度消失，它是指标造成的假象。"),
    ("toy-metric-artifact", "The gradient of f is proportional to eps: about 470 eps at depth 1, and 1.2e-13 at depth 24."),
    ("toy-metric-artifact", "f 的梯度与 eps 成正比：深度 1 时约为 470 eps，24 层时只有 1.2e-13。"),
    ("toy-metric-artifact",
     "Across random W the depth-24 to depth-1 ratio varies over orders of magnitude, with a median of about 40x."),
    ("toy-metric-artifact", "换成别的随机 W，24 层与 1 层之比跨越好几个数量级，中位数约为 40 倍。"),
    # layernorm-jacobian. With a gain the Jacobian is diag(gamma) J: the gain is diagonal, the Jacobian is not.
    ("layernorm-jacobian", "diag(gamma)(1/s)(I - 11^T/D - yy^T/D); the gain only enters as a diagonal factor."),
    ("layernorm-jacobian",
     "With a gain, the Jacobian is diag(gamma)(1/s)(I - 11^T/D - yy^T/D): the gain only enters as a diagonal factor."),
    ("layernorm-jacobian", "加上增益后雅可比是 diag(gamma)(1/s)(I - 11^T/D - yy^T/D)：增益只以对角因子的形式出现。"),
    ("layernorm-jacobian", "LayerNorm's Jacobian is not diagonal: every output depends on every input."),
    ("layernorm-jacobian", "The Jacobian is not a diagonal matrix, because the mean and variance couple all coordinates."),
    ("layernorm-jacobian", "LayerNorm 的雅可比不是对角阵：每个输出都依赖所有输入。"),
    ("layernorm-jacobian", "LN(ax + c1) = LN(x) holds exactly only when eps = 0."),
    ("layernorm-jacobian", "LN(ax + c1) = LN(x) 只有在 eps = 0 时才严格成立。"),
    ("layernorm-jacobian", "The spectral norm of the Jacobian is sqrt(d)/||x - mu 1|| when eps = 0, so larger inputs give smaller gradients."),
    ("layernorm-jacobian", "eps = 0 时雅可比的谱范数是 sqrt(d)/||x - mu 1||，所以输入越大，梯度越小。"),
    # rmsnorm. "Unlike BERT, which is Post-LN" names BERT's placement, not LLaMA's.
    ("rmsnorm", "Unlike BERT, which is Post-LN, LLaMA uses pre-norm RMSNorm."),
    ("rmsnorm", "和 BERT（Post-LN）不同，LLaMA 用的是前置的 RMSNorm。"),
    ("rmsnorm", "不像 BERT 那样用 Post-LN，LLaMA 用的是 pre-norm 的 RMSNorm。"),
    ("rmsnorm", "LLaMA 2 uses pre-norm RMSNorm, while BERT uses Post-LN."),
    ("rmsnorm", "RMSNorm has no bias term by default; the reference implementation makes a bias optional."),
    ("rmsnorm", "RMSNorm 默认没有偏置，官方代码里偏置是可选项。"),
    ("rmsnorm", "LayerNorm subtracts the mean, while RMSNorm does not."),
    ("rmsnorm", "和 LayerNorm 不同，RMSNorm 不减均值：不做中心化，只做缩放。"),
]


@pytest.mark.parametrize(("card_id", "text"), CORRECT, ids=[f"{c}:{t[:40]}" for c, t in CORRECT])
def test_correct_statement_draws_no_mistake(deck, card_id: str, text: str) -> None:
    card = deck.get(card_id)
    assert mistakes(card, text) == set()


# (card id, mistake id, text): a plain, explicit, unqualified wrong claim that must still be charged.
WRONG = [
    # xiong-theorem: the myth, about the depth L / number of layers and the last layer.
    ("xiong-theorem", "post-grows-with-depth", "In Post-LN the last layer's gradient grows with depth."),
    ("xiong-theorem", "post-grows-with-depth", "Post-LN 最后一层的梯度随深度增长。"),
    ("xiong-theorem", "post-grows-with-depth", "For Post-LN, the gradient of the last layer grows with the number of layers."),
    ("xiong-theorem", "post-grows-with-depth", "Post-LN 最后一层的梯度随层数增加而变大。"),
    ("xiong-theorem", "post-grows-with-depth", "Post-LN's output-side gradient grows with depth."),
    # xiong-theorem: "flat in depth" said of Pre-LN.
    ("xiong-theorem", "pre-flat-in-depth", "In Pre-LN the last-layer gradient is independent of depth."),
    ("xiong-theorem", "pre-flat-in-depth", "Pre-LN 的最后一层梯度与深度无关。"),
    ("xiong-theorem", "pre-flat-in-depth", "Pre-LN's bound is independent of L."),
    ("xiong-theorem", "pre-flat-in-depth", "Pre-LN 的上界与层数无关。"),
    # xiong-theorem: the growing stream said of Post-LN.
    ("xiong-theorem", "post-stream-grows", "In Post-LN the residual stream grows linearly with the layer index."),
    ("xiong-theorem", "post-stream-grows", "Post-LN 的残差流随层号线性增长。"),
    # toy-metric-artifact: the article's ~0 reading (or the toy itself) offered as evidence of vanishing gradients.
    ("toy-metric-artifact", "toy-shows-vanishing", "The ~0 reading proves that Post-LN gradients vanish."),
    ("toy-metric-artifact", "toy-shows-vanishing", "这个约为 0 的读数说明 Post-LN 存在梯度消失。"),
    ("toy-metric-artifact", "toy-shows-vanishing", "The near-zero metric demonstrates that Post-LN gradients vanish with depth."),
    ("toy-metric-artifact", "toy-shows-vanishing", "The toy shows that Post-LN gradients really vanish with depth."),
    ("toy-metric-artifact", "toy-shows-vanishing", "玩具实验证明了 Post-LN 的梯度消失。"),
    # layernorm-jacobian: the Jacobian itself said to be diagonal.
    ("layernorm-jacobian", "jacobian-diagonal", "The Jacobian of LayerNorm is diagonal."),
    ("layernorm-jacobian", "jacobian-diagonal", "LayerNorm has a diagonal Jacobian."),
    ("layernorm-jacobian", "jacobian-diagonal", "LayerNorm's Jacobian is a diagonal matrix."),
    ("layernorm-jacobian", "jacobian-diagonal", "LayerNorm 的雅可比是对角阵。"),
    ("layernorm-jacobian", "jacobian-diagonal", "LayerNorm 的雅可比矩阵是一个对角矩阵。"),
    # rmsnorm: LLaMA said to be Post-LN.
    ("rmsnorm", "llama-post-ln", "LLaMA uses Post-LN."),
    ("rmsnorm", "llama-post-ln", "The LLaMA architecture uses Post-LN."),
    ("rmsnorm", "llama-post-ln", "LLaMA 用的是 Post-LN。"),
    ("rmsnorm", "llama-post-ln", "LLaMA 是 Post-LN 的。"),
]


@pytest.mark.parametrize(("card_id", "mistake_id", "text"), WRONG,
                         ids=[f"{c}:{m}:{t[:40]}" for c, m, t in WRONG])
def test_wrong_claim_still_draws_its_mistake(deck, card_id: str, mistake_id: str, text: str) -> None:
    card = deck.get(card_id)
    assert mistake_id in mistakes(card, text)
