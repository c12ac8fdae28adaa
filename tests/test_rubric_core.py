"""Rubric tuning (issue 8), core group: pre-vs-post-ln, post-ln-warmup, warmup-for-pre-ln.

Every point broadened on the tuning half is pinned by sentences written for this file (en and zh), and every
mistake added or narrowed by a plain wrong sentence that must fire it and a correct or qualified one that must
not. None of the sentences is copied from a graded answer.
"""

from __future__ import annotations

import pytest

from lndrill.scoring.engine import score_answer


def hits(card, t):
    r = score_answer(card, t)
    return {p.id for s in r.sections for p in s.points if p.hit}


def mistakes(card, t):
    return {m.id for m in score_answer(card, t).mistakes}


# --------------------------------------------------------------------------------------------------
# pre-vs-post-ln

PVP_HITS = [
    # formulas read aloud
    ("post-formula", "When you say it out loud, Post-LN is LN of x plus F of x."),
    ("post-formula", "口头念的话，Post-LN 就是 layernorm of x plus sublayer of x。"),
    ("pre-formula", "Read aloud, Pre-LN is x plus F of LN of x."),
    ("pre-formula", "Pre-LN 念出来是 x plus sublayer of LN x，残差那一项不过 LN。"),
    # order: normalise the sum / normalise first
    ("post-order", "In Post-LN we first add the branch to x and then layer-norm the sum."),
    ("post-order", "Post-LN 先把分支输出加回 x，再 norm 一次。"),
    ("pre-order", "Pre-LN normalises the input first and only then runs attention."),
    ("pre-order", "Pre-LN 是先 norm，然后才送进注意力。"),
    # LN on the main path, under its other names; LN Jacobians chained layer after layer
    ("post-grad-through-ln", "In Post-LN the LayerNorm sits right on the highway that the gradient uses."),
    ("post-grad-through-ln", "Post-LN 把 LN 放在了残差流上，反传绕不开它。"),
    ("post-grad-through-ln", "With Post-LN, backprop picks up an LN Jacobian in every block."),
    ("post-grad-through-ln", "Post-LN 反传时要经过一长串 LN 雅可比的连乘。"),
    ("post-grad-through-ln", "For Post-LN the chain rule gives a product of J_LN factors, one for each layer."),
    # large near the output at init, with the gradient only implied
    ("post-large-output-grad", "For Post-LN, Xiong et al. find they are large near the output at initialisation."),
    ("post-large-output-grad", "Post-LN 在初始化时，靠近输出的那几层会特别大。"),
    # trains deep without blowing up; easy to stack
    ("pre-deep-stable", "A Pre-LN stack of a hundred layers does not diverge."),
    ("pre-deep-stable", "Pre-LN 堆到上百层也不会发散。"),
    ("pre-deep-stable", "Pre-LN 好堆层，深一点也没关系。"),
    # ends better, said with a comparison verb
    ("post-better-final", "Once it converges, Post-LN usually beats Pre-LN by a small margin."),
    ("post-better-final", "收敛之后 Post-LN 的效果往往优于 Pre-LN。"),
    # stable, as an adverb or in short Chinese
    ("pre-stable", "Pre-LN trains stably even with a large learning rate."),
    ("pre-stable", "Pre-LN 训练起来很稳，不容易训崩。"),
    ("pre-stable", "Pre-LN is easier to optimise."),
    # depth wasted / later layers contribute little
    ("pre-diluted-depth", "Pre-LN wastes depth as the stack gets taller."),
    ("pre-diluted-depth", "Pre-LN 的问题是浪费深度。"),
    ("pre-diluted-depth", "In Pre-LN the later layers barely change anything."),
    ("pre-diluted-depth", "Pre-LN 里深层的贡献越来越小。"),
    # hybrids: a generic word needs the both-worlds aim
    ("variants-both", "Hybrid schemes try to get both the stability and the quality."),
    ("variants-both", "这些变体想两头兼得：既稳定又有 Post-LN 的效果。"),
]


@pytest.mark.parametrize("point,text", PVP_HITS)
def test_pre_vs_post_points_hit(deck, point, text):
    assert point in hits(deck.get("pre-vs-post-ln"), text)


PVP_NO_HITS = [
    # "the LN" is not "then LN"
    ("post-order", "Post-LN uses the LN here."),
    # "both variants" is no hybrid
    ("variants-both", "Both variants use LayerNorm."),
    ("variants-both", "两种变体都用 LayerNorm。"),
    # "less and less" alone is not depth dilution
    ("pre-diluted-depth", "In Pre-LN warm-up matters less and less."),
    # smaller gradients in deep layers are not the dilution of their contribution
    ("pre-diluted-depth", "In Pre-LN the deep layers get smaller and smaller gradients."),
    ("pre-diluted-depth", "Pre-LN 深层的梯度越来越小。"),
]


@pytest.mark.parametrize("point,text", PVP_NO_HITS)
def test_pre_vs_post_points_not_hit(deck, point, text):
    assert point not in hits(deck.get("pre-vs-post-ln"), text)


PVP_MISTAKES = [
    # (mistake, wrong sentence that fires it, correct or qualified sentence that must not)
    ("post-grad-grows-with-depth",
     "In Post-LN the gradient of the last layer grows with depth.",
     "Post-LN's last-layer gradient is large, but it does not grow with depth."),
    ("post-grad-grows-with-depth",
     "Post-LN 最后一层的梯度与层数成正比。",
     "Post-LN 最后一层的梯度上界与层数无关。"),
    ("post-grad-grows-with-depth",
     "Post-LN's output-side gradient is proportional to the depth.",
     "Inside one Post-LN model the per-layer gradient does grow with the layer index l."),
    ("pre-better-final",
     "Pre-LN gives better final results than Post-LN.",
     "Post-LN is still studied because after convergence it beats Pre-LN."),
    ("pre-better-final",
     "Pre-LN 的最终效果更好。",
     "Pre-LN 在低资源翻译上效果更好。"),
    ("post-grad-avoids-ln",
     "In Post-LN the LayerNorm is not on the main path.",
     "Post-LN renormalises after every block, so the residual stream does not grow."),
    ("pre-not-stable",
     "Pre-LN is not stable.",
     "GLM-130B 的试跑里 Pre-LN 没能稳住训练，所以改用了 DeepNorm。"),
    ("pre-order-swapped",
     "In Post-LN you normalise first and then feed the result into the sublayer.",
     "In Pre-LN you normalise first and then feed the result into the sublayer."),
]


@pytest.mark.parametrize("mistake,wrong,right", PVP_MISTAKES)
def test_pre_vs_post_mistakes(deck, mistake, wrong, right):
    card = deck.get("pre-vs-post-ln")
    assert mistake in mistakes(card, wrong)
    assert mistake not in mistakes(card, right)


# --------------------------------------------------------------------------------------------------
# post-ln-warmup

PLW_HITS = [
    ("post-large-grad-init", "In Post-LN the weights near the output get huge updates at initialisation."),
    ("post-large-grad-init", "Post-LN 初始化时靠近输出的部分特别大。"),
    # what warm-up does: the first updates stay small
    ("warmup-ramp", "Warm-up keeps the first updates small."),
    ("warmup-ramp", "预热让训练初期的更新步子很小。"),
    # beta2 bound as a value, or written with a leading dot
    ("adam-betas", "The optimizer was Adam with β₂ = 0.98."),
    ("adam-betas", "优化器是 Adam(.9, .98)。"),
    # 8.45 BLEU, spelled or rounded
    ("xiong-no-warmup-bleu", "Without warm-up Post-LN ends at about eight and a half BLEU."),
    ("xiong-no-warmup-bleu", "去掉预热以后，Post-LN 的 BLEU 只剩个位数。"),
    # the absence belongs to warm-up, not to the score
    ("xiong-no-warmup-bleu", "Once warm-up is removed, Post-LN drops to 8.45 BLEU."),
    ("xiong-no-warmup-bleu", "Post-LN 去掉预热后只有八点几的 BLEU。"),
    # Admin / DeepNet: the update size is the culprit
    ("update-size-culprit", "Admin says the real culprit is the size of the model update."),
    ("update-size-culprit", "DeepNet 认为问题的根源在于模型更新量太大。"),
    ("update-size-culprit", "Admin 的看法是参数更新被残差分支放大了。"),
]


@pytest.mark.parametrize("point,text", PLW_HITS)
def test_post_ln_warmup_points_hit(deck, point, text):
    assert point in hits(deck.get("post-ln-warmup"), text)


PLW_NO_HITS = [
    # keeping updates small is what warm-up does, not Admin's reframing
    ("update-size-culprit", "Warm-up keeps parameter updates small at first."),
    ("update-size-culprit", "warm-up 让前期的参数更新很小。"),
]


@pytest.mark.parametrize("point,text", PLW_NO_HITS)
def test_post_ln_warmup_points_not_hit(deck, point, text):
    assert point not in hits(deck.get("post-ln-warmup"), text)


PLW_MISTAKES = [
    ("grad-grows-with-depth",
     "Xiong's theorem says Post-LN's last-layer gradient grows with the number of layers.",
     "Xiong's theorem says the last-layer gradient of Post-LN is large but independent of the number of layers."),
    ("grad-grows-with-depth",
     "Post-LN 最后一层的梯度随层数增长。",
     "Post-LN 最后一层的梯度上界不随深度变化。"),
    ("post-vanishing-needs-warmup",
     "Post-LN gradients vanish at initialisation, which is why it needs warm-up.",
     "In Post-LN the lower layers get smaller gradients at initialisation."),
    ("post-vanishing-needs-warmup",
     "梯度消失是 Post-LN 需要 warm-up 的原因。",
     "有人认为 Post-LN 的梯度消失也是需要 warm-up 的原因之一。"),
    ("pre-needs-warmup",
     "Pre-LN also needs warm-up.",
     "Pre-LN LLMs still use a short warm-up as insurance."),
    ("pre-needs-warmup",
     "Pre-LN 不用 warm-up 也会发散。",
     "Pre-LN 不用 warm-up 也不会发散。"),
    ("beta2-default",
     "The original recipe used Adam with β2 = 0.999.",
     "The original recipe used β2 = 0.98, smaller than the usual 0.999."),
]


@pytest.mark.parametrize("mistake,wrong,right", PLW_MISTAKES)
def test_post_ln_warmup_mistakes(deck, mistake, wrong, right):
    card = deck.get("post-ln-warmup")
    assert mistake in mistakes(card, wrong)
    assert mistake not in mistakes(card, right)


# --------------------------------------------------------------------------------------------------
# warmup-for-pre-ln

WFP_HITS = [
    # comparable translation quality, with the absence of warm-up (also as notes' "no WU")
    ("iwslt-comparable", "Trained with no warm-up, Pre-LN is no worse in BLEU on IWSLT14."),
    ("iwslt-comparable", "不带预热的 Pre-LN 在翻译上 BLEU 不输。"),
    ("iwslt-comparable", "no WU: Pre-LN gets roughly the same BLEU on translation."),
    # BERT: 40% fewer updates, also when the "no warm-up" sits in the clause
    ("bert-faster", "With no warm-up, BERT pre-training reached the target loss quicker."),
    ("bert-faster", "BERT 上不带 warm-up 的 Pre-LN 少用了大约 40% 的步数。"),
    ("bert-faster", "It reached the same validation loss using 40% fewer updates."),
    # LLaMA's warm-up length
    ("llms-still-warm-up", "LLaMA uses a 2,000 steps ramp at the start of training."),
    ("llms-still-warm-up", "LLaMA 2 训练开头有 2000 步的预热。"),
    # Adam's v-hat
    ("adam-variance", "Early on, Adam's v̂ is estimated from a handful of gradients."),
    ("adam-variance", "Adam 的 v hat 在最初几步很不准。"),
    # Post-LN: mandatory, 8.45 BLEU spelled
    ("post-needs-it", "For Post-LN warm-up is mandatory."),
    ("post-needs-it", "对 Post-LN 来说 warm-up 不可或缺。"),
    ("post-needs-it", "For Post-LN, dropping warm-up leaves you at eight-ish BLEU."),
    # no contradiction
    ("no-contradiction", "Removable does not mean useless."),
    ("no-contradiction", "这两个结论并不矛盾。"),
    ("no-contradiction", "The two results are not at odds."),
]


@pytest.mark.parametrize("point,text", WFP_HITS)
def test_warmup_for_pre_ln_points_hit(deck, point, text):
    assert point in hits(deck.get("warmup-for-pre-ln"), text)


WFP_NO_HITS = [
    ("no-contradiction", "Xiong's result seems to contradict what LLM teams do."),
    ("no-contradiction", "Warm-up is useless for Pre-LN."),
]


@pytest.mark.parametrize("point,text", WFP_NO_HITS)
def test_warmup_for_pre_ln_points_not_hit(deck, point, text):
    assert point not in hits(deck.get("warmup-for-pre-ln"), text)


WFP_MISTAKES = [
    ("post-warmup-optional",
     "For Post-LN, warm-up is optional.",
     "对 Post-LN 来说 warm-up 是必需的，对 Pre-LN 来说 warm-up 只是可选的。"),
    ("post-warmup-optional",
     "Post-LN 的 warm-up 可有可无。",
     "Post-LN 的 warm-up 是必需的；Pre-LN 的只是可选的。"),
    ("post-trains-at-3e-4",
     "Post-LN at 3e-4 still trains, only more slowly.",
     "Post-LN was trained at 1e-4 with 10k warm-up steps (3e-4 diverged)."),
    ("post-trains-at-3e-4",
     "Post-LN 用 3e-4 也能训起来。",
     "Post-LN 用 3e-4 训不起来。"),
    ("pre-diverges-without",
     "Pre-LN w/o WU diverges.",
     "At a very high learning rate, Pre-LN can diverge without warm-up too."),
]


@pytest.mark.parametrize("mistake,wrong,right", WFP_MISTAKES)
def test_warmup_for_pre_ln_mistakes(deck, mistake, wrong, right):
    card = deck.get("warmup-for-pre-ln")
    assert mistake in mistakes(card, wrong)
    assert mistake not in mistakes(card, right)
