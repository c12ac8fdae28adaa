"""Rubric tuning (issue 8), core group: pre-vs-post-ln, post-ln-warmup, warmup-for-pre-ln.

Every point broadened on the tuning half is pinned by sentences written for this file (en and zh), and every
mistake added or narrowed by a plain wrong sentence that must fire it and a correct or qualified one that must
not. None of the sentences is copied from a graded answer. Round 2 adds the placement (`about`) of points whose
truth depends on it and the wrong variants candidates give (reversed bounds, wrong constants, myths); every
mistake also has counter-examples in tests/counterexamples/<card>.yaml.
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
    # round 2: stacking deep, robustness, "ahead", "near output" / 过大, a direct gradient, wasted deep layers
    ("pre-deep-stable", "Pre-LN 能堆很深，不会发散。"),
    ("pre-deep-stable", "Pre-LN stacks deep without trouble."),
    ("pre-stable", "Pre-LN's robustness is why the big labs use it."),
    ("pre-stable", "Pre-LN 训练更稳健。"),
    ("post-better-final", "When it does train, Post-LN usually ends slightly ahead."),
    ("post-better-final", "训得出来的话，Post-LN 最终略微领先。"),
    ("post-large-output-grad", "Post-LN 初始化时靠近 output 的参数梯度偏大。"),
    ("post-large-output-grad", "At init Post-LN's weights near output get too large a gradient."),
    ("pre-identity-path", "In Pre-LN the gradient reaches the embeddings directly."),
    ("pre-identity-path", "Pre-LN 的梯度可以直达第一层。"),
    ("pre-diluted-depth", "In Pre-LN the deep layers are partly wasted."),
    ("pre-diluted-depth", "Pre-LN 的深层有点浪费。"),
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
    # round 2: named models, the final LN, wrong formulas, reversed bounds, the dilution swapped, history
    ("bert-is-pre-ln",
     "Like GPT-2, BERT adopted Pre-LN.",
     "BERT adopted the Post-LN block of the 2017 Transformer."),
    ("pre-no-final-ln",
     "Pre-LN does not require a final LN.",
     "A Pre-LN stack requires a final LN before the head."),
    ("post-normalised-branch",
     "Post-LN: h = h + LayerNorm(Sublayer(h))",
     "Post-LN: h = LayerNorm(h + Sublayer(h))"),
    ("same-gradient-path",
     "Backprop is the same in both designs.",
     "Backprop differs between the two designs."),
    ("post-grad-shrinks-with-depth",
     "Post-LN 的梯度上界随层数衰减。",
     "Pre-LN 的梯度上界随层数衰减。"),
    ("post-diluted-depth",
     "Post-LN wastes its depth: deep layers are diluted.",
     "Pre-LN wastes its depth: deep layers are diluted."),
    ("pre-ln-from-gpt2",
     "Pre-LN was invented by GPT-2.",
     "GPT-2 made Pre-LN the default for language models."),
    # "Post-LN 把 LN 放在了恒等路径上" puts LN on the identity path: it does not give Post-LN one
    ("post-identity-path",
     "Post-LN 保留了一条恒等通道。",
     "Post-LN 把 LN 放在了恒等路径上。"),
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
    # round 2: the need, not a bare mention of warm-up (unattributed claims now count for Post-LN)
    ("post-needs-warmup", "Post-LN can't do without warm-up."),
    ("post-needs-warmup", "Post-LN 不加 warm-up 就会发散。"),
    ("post-needs-warmup", "Hit Post-LN with the full learning rate from step one and training blows up."),
    ("post-needs-warmup", "Post-LN 一上来就用满学习率，训练直接崩掉。"),
    ("post-large-grad-init", "Post-LN 初始化时靠近输出的梯度过大。"),
    ("schedule-formula", "lr = d_model^{-1/2} · min(s^{-1/2}, s · w^{-3/2})"),
    ("linear-then-decay", "After the peak the learning rate falls like 1/sqrt(step)."),
    ("linear-then-decay", "峰值之后学习率按 1/sqrt(step) 下降。"),
    ("update-size-culprit", "Admin: after one update Post-LN's output change is O(N) in depth."),
    ("update-size-culprit", "按 Admin 的分析，Post-LN 一次更新后的输出变化是 O(N)。"),
]


@pytest.mark.parametrize("point,text", PLW_HITS)
def test_post_ln_warmup_points_hit(deck, point, text):
    assert point in hits(deck.get("post-ln-warmup"), text)


PLW_NO_HITS = [
    # keeping updates small is what warm-up does, not Admin's reframing
    ("update-size-culprit", "Warm-up keeps parameter updates small at first."),
    ("update-size-culprit", "warm-up 让前期的参数更新很小。"),
    # the schedule's warm-up count is no claim that Post-LN needs warm-up
    ("post-needs-warmup", "The recipe uses warmup_steps = 4000."),
    ("post-needs-warmup", "原论文的 warmup_steps = 4000。"),
    # 1/sqrt(L) is a gradient bound, not the schedule's decay
    ("linear-then-decay", "Pre-LN's last-layer gradient shrinks like 1/sqrt(L)."),
    # the 8.45 BLEU is Post-LN's
    ("xiong-no-warmup-bleu", "Pre-LN without warm-up gets 8.45 BLEU."),
]


@pytest.mark.parametrize("point,text", PLW_NO_HITS)
def test_post_ln_warmup_points_not_hit(deck, point, text):
    assert point not in hits(deck.get("post-ln-warmup"), text)


PLW_MISTAKES = [
    ("grad-grows-with-depth",
     "Xiong's theorem says Post-LN's last-layer gradient grows with the number of layers.",
     "Xiong's theorem says the last-layer gradient of Post-LN is large but independent of the number of layers."),
    # (round 2: not "随层数增长", which also sits in the correct "随层数增长而变小")
    ("grad-grows-with-depth",
     "Post-LN 最后一层的梯度与层数成正比。",
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
    # round 2: the swapped evidence, wrong recipe constants, misread papers, the ramp reversed
    ("post-fine-without-warmup",
     "Post-LN got comparable BLEU without warm-up.",
     "Pre-LN got comparable BLEU without warm-up."),
    ("pre-collapses-without-warmup",
     "Pre-LN 不做 warm-up 只剩八点几的 BLEU。",
     "Post-LN 不做 warm-up 只剩八点几的 BLEU。"),
    ("decay-not-rsqrt",
     "After warm-up the learning rate decays linearly to zero.",
     "After warm-up the learning rate decays with the inverse square root of the step."),
    ("warmup-not-4000",
     "Vaswani et al. warmed up for 8000 steps.",
     "Vaswani et al. warmed up for 4000 steps."),
    ("sgd-not-adam",
     "Vaswani et al. trained with SGD.",
     "Xiong et al. also trained with SGD, and warm-up helped there too."),
    ("admin-blames-gradient",
     "Admin 证实了梯度爆炸才是根因。",
     "Admin 认为梯度不是根因。"),
    ("warmup-starts-high",
     "Warm-up begins with a large learning rate.",
     "Warm-up begins with a tiny learning rate."),
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
    # round 2: notes' WU denied by its "no"; Post-LN failing without warm-up; a higher lr
    ("pre-can-drop", "no WU: Pre-LN still trains fine."),
    ("pre-can-drop", "Pre-LN 不加 WU 也能正常训练。"),
    ("post-needs-it", "Post-LN without warm-up simply diverges."),
    ("post-needs-it", "Post-LN 没有 warm-up 基本训不起来。"),
    ("larger-peak-lr", "Warm-up lets LLM runs use a higher lr than they could otherwise."),
    ("larger-peak-lr", "warm-up 让大模型能用更高的 lr。"),
]


@pytest.mark.parametrize("point,text", WFP_HITS)
def test_warmup_for_pre_ln_points_hit(deck, point, text):
    assert point in hits(deck.get("warmup-for-pre-ln"), text)


WFP_NO_HITS = [
    ("no-contradiction", "Xiong's result seems to contradict what LLM teams do."),
    ("no-contradiction", "Warm-up is useless for Pre-LN."),
    # round 2: comparable BLEU without warm-up is Pre-LN's result
    ("iwslt-comparable", "Post-LN without warm-up reaches comparable BLEU on translation."),
    ("iwslt-comparable", "Post-LN 不用 warm-up 在翻译上 BLEU 相当。"),
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
    # round 2
    ("pre-stream-constant",
     "Pre-LN 的残差流不会变大。",
     "Post-LN 的残差流不会变大。"),
    ("ln-running-stats",
     "LayerNorm's running statistics are unreliable at first.",
     "BatchNorm's running statistics are unreliable at first."),
    ("radam-first-moment",
     "RAdam blames Adam's momentum term m_t.",
     "RAdam blames the variance of Adam's adaptive learning rate."),
    ("pre-needs-it",
     "Pre-LN 的 warm-up 是刚需。",
     "Post-LN 的 warm-up 是刚需。"),
    ("pre-collapses-without-warmup",
     "Pre-LN w/o warm-up: 8.45 BLEU.",
     "Post-LN w/o warm-up: 8.45 BLEU."),
]


@pytest.mark.parametrize("mistake,wrong,right", WFP_MISTAKES)
def test_warmup_for_pre_ln_mistakes(deck, mistake, wrong, right):
    card = deck.get("warmup-for-pre-ln")
    assert mistake in mistakes(card, wrong)
    assert mistake not in mistakes(card, right)
