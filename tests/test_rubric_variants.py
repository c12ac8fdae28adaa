"""Rubric tuning (issue 8) for the variant cards: deepnorm, sandwich-ln, ln-who-uses-what, admin-amplification.

For every point whose recognisers were broadened, sentences of our own (English and Chinese) that must hit it;
for every point that was narrowed, the loose wording it must no longer accept; for every mistake added or
narrowed, a plain wrong sentence that must draw it and a correct or qualified one that must not.
None of these sentences is copied from a graded answer.
"""

from __future__ import annotations

import pytest

from lndrill.scoring.engine import score_answer


def hits(card, t):
    r = score_answer(card, t)
    return {p.id for s in r.sections for p in s.points if p.hit}


def mistakes(card, t):
    return {m.id for m in score_answer(card, t).mistakes}


# -- points that must be hit ---------------------------------------------------------------------------------

HIT = [
    # deepnorm ------------------------------------------------------------------------------------------------
    ("deepnorm", "decoder-m", "For a decoder-only model, swap N for M, the depth of the decoder."),
    ("deepnorm", "decoder-m", "In the decoder-only case the constants are the same expressions with M."),
    ("deepnorm", "decoder-m", "decoder-only 模型把公式里的 N 换成 M 就行。"),
    ("deepnorm", "decoder-m", "只有解码器的模型，把 N 替换成解码器层数即可。"),
    ("deepnorm", "beta-which", "At initialisation beta multiplies the value projection, the output projection and the FFN weights."),
    ("deepnorm", "beta-which", "The FFN and W_O weights are shrunk by a down-scaled init."),
    ("deepnorm", "beta-which", "初始化时，FFN 和 V、O 投影的权重都要乘上 β。"),
    ("deepnorm", "keeps-post-quality", "Because it is still Post-LN, its quality is preserved."),
    ("deepnorm", "keeps-post-quality", "它仍然是 Post-LN，效果不掉点。"),
    ("deepnorm", "pre-like-stability", "The 1000-layer model was trained stably."),
    ("deepnorm", "pre-like-stability", "With these constants a deep Post-LN stack can be trained without divergence."),
    ("deepnorm", "pre-like-stability", "有了这两个常数，Post-LN 也能训练到上千层而且训得稳。"),
    ("deepnorm", "thousand-layers", "DeepNet scaled a Transformer to 1,000 layers."),
    ("deepnorm", "thousand-layers", "论文把模型堆到了一千层。"),
    ("deepnorm", "bleu-results", "The deepest model is 4.4 BLEU better than the 48-layer baseline."),
    ("deepnorm", "bleu-results", "在多语言翻译上，3.2B 的深模型超过了 12B 的浅模型。"),
    ("deepnorm", "glm-alpha", "GLM-130B picks alpha = sqrt(2N) instead."),
    ("deepnorm", "glm-alpha", "GLM-130B 把 α 设成 √(2N)。"),
    # sandwich-ln --------------------------------------------------------------------------------------------
    ("sandwich-ln", "formula", "Sandwich-LN is x plus LN of F of LN of x."),
    ("sandwich-ln", "formula", "Sandwich-LN 的更新是 x + LN(F(LN(x)))。"),
    ("sandwich-ln", "extra-ln-on-branch-output", "Sandwich-LN is Pre-LN plus a LayerNorm at the end of every residual branch."),
    ("sandwich-ln", "extra-ln-on-branch-output", "相比 Pre-LN，Sandwich-LN 在子层输出上多了一个 LN。"),
    ("sandwich-ln", "trunk-stays-identity", "Sandwich-LN leaves the shortcut as an identity."),
    ("sandwich-ln", "trunk-stays-identity", "Sandwich-LN 的残差主干从不归一化。"),
    ("sandwich-ln", "bounds-branch", "Sandwich-LN normalises each layer's increment, not the stream."),
    ("sandwich-ln", "bounds-branch", "The output norm keeps every layer's contribution at a fixed scale."),
    ("sandwich-ln", "bounds-branch", "它只限制增量，残差流本身照样变大。"),
    ("sandwich-ln", "bounds-branch", "每层的增量和 F 内部数值多大无关。"),
    ("sandwich-ln", "peri-ln", "Peri-LN is the same layout, with a norm around each sublayer."),
    ("sandwich-ln", "peri-ln", "Peri-LN 的结构和 Sandwich-LN 相同，子层两侧都有 norm。"),
    ("sandwich-ln", "normformer", "NormFormer adds an LN after attention and a per-head scale."),
    ("sandwich-ln", "normformer", "NormFormer 在 Pre-LN 基础上，在注意力之后再加一个 LN。"),
    ("sandwich-ln", "olmo2", "OLMo 2 keeps just the output norm."),
    ("sandwich-ln", "olmo2", "OLMo 2 仅在输出上做 norm。"),
    ("sandwich-ln", "gemma2", "Gemma 2 uses RMSNorm on both sides of each sublayer."),
    ("sandwich-ln", "gemma2", "Gemma 2 在子层前后都用 RMSNorm。"),
    # ln-who-uses-what ---------------------------------------------------------------------------------------
    ("ln-who-uses-what", "transformer-post", "The vanilla Transformer normalises after the residual add."),
    ("ln-who-uses-what", "transformer-post", "最早的 Transformer 是 Post-LN。"),
    ("ln-who-uses-what", "transformer-post", "Vaswani et al. put the LayerNorm after the add: post-norm."),
    ("ln-who-uses-what", "transformer-post", "最初的 Transformer 和 BERT 都用后置归一化。"),
    ("ln-who-uses-what", "transformer-post", "原生 Transformer 是 Post-LN：先残差相加，再 LayerNorm。"),
    ("ln-who-uses-what", "bert-post", "BERT applies its LayerNorm after each residual addition."),
    ("ln-who-uses-what", "bert-post", "BERT 在残差相加之后再做 LayerNorm。"),
    ("ln-who-uses-what", "gpt-final-ln", "GPT-2 also has a LayerNorm after the last block, before the head."),
    ("ln-who-uses-what", "gpt-final-ln", "GPT-2 在整个网络的末尾还有一个 LayerNorm。"),
    ("ln-who-uses-what", "gpt-final-ln", "GPT-2 的最后一层后面还有一个 ln_f。"),
    ("ln-who-uses-what", "olmo-branch-out", "OLMo 2 puts RMSNorm only on the outputs of its sublayers."),
    ("ln-who-uses-what", "olmo-branch-out", "OLMo 2 只在子层后做 RMSNorm。"),
    # admin-amplification --------------------------------------------------------------------------------------
    ("admin-amplification", "amplification", "Admin's amplification effect means a small parameter update turns into a large output change."),
    ("admin-amplification", "amplification", "放大效应：参数的一点更新被放大成输出的剧烈变化。"),
    ("admin-amplification", "amplification", "A small parameter change moves the output a lot."),
    ("admin-amplification", "post-heavy-dependency", "In Post-LN each residual branch is a large share of the layer output."),
    ("admin-amplification", "post-heavy-dependency", "Post-LN 里分支的占比一直很大。"),
    ("admin-amplification", "post-heavy-dependency", "For Post-LN the output change grows linearly with the number of layers."),
    ("admin-amplification", "post-heavy-dependency", "Post-LN 的输出对残差分支依赖很重。"),
    ("admin-amplification", "pre-light-dependency", "In Pre-LN every new branch is only a small fraction of the stream."),
    ("admin-amplification", "pre-light-dependency", "Pre-LN 的输出变化只随层数对数增长。"),
    ("admin-amplification", "pre-light-dependency", "For Pre-LN the change is only O(log N)."),
    ("admin-amplification", "not-gradient", "Admin argues that gradients do not explain Post-LN's instability."),
    ("admin-amplification", "not-gradient", "按 Admin 的分析，梯度解释不了 Post-LN 为什么会训崩。"),
    ("admin-amplification", "warmup-link", "Warm-up uses a small learning rate at the start, so the amplified change stays small."),
    ("admin-amplification", "warmup-link", "warm-up 在初期把步长压小，输出就不会被放大太多。"),
    ("admin-amplification", "deepnet-link", "DeepNet shares the diagnosis that the model update is the culprit."),
    ("admin-amplification", "deepnet-link", "DeepNorm 和 Admin 的观点一致，也是限制模型更新。"),
    # round 2 (issue 8): families added after the second tuning batch ----------------------------------------
    ("deepnorm", "update-rule", "The residual is up-scaled by alpha before the add."),
    ("deepnorm", "update-rule", "The block is LN of alpha times x plus G of x."),
    ("deepnorm", "update-rule", "α 是残差的放大系数。"),
    ("deepnorm", "alpha-value", "For N encoder layers, alpha is 2N to the one-fourth."),
    ("deepnorm", "alpha-value", "Alpha equals 2N to the power of one quarter."),
    ("deepnorm", "beta-value", "Beta is 8N to the minus one-fourth."),
    ("deepnorm", "beta-value", "beta equals 8N to the minus one quarter."),
    ("deepnorm", "decoder-m", "For decoder-only models, use M layers in the same formulas."),
    ("deepnorm", "decoder-m", "decoder-only 时 N→M，其余不变。"),
    ("deepnorm", "keeps-post-quality", "Since the norm stays after the add, you keep the better final quality."),
    ("deepnorm", "keeps-post-quality", "Unlike Pre-LN, it does not give up Post-LN's final quality."),
    ("deepnorm", "keeps-post-quality", "它没有牺牲 Post-LN 的效果。"),
    ("deepnorm", "pre-like-stability", "Deep Post-LN diverges early in training."),
    ("deepnorm", "pre-like-stability", "深层 Post-LN 一开始就训不动。"),
    ("deepnorm", "pre-like-stability", "It gives the better quality, but it cannot be trained deep."),
    ("deepnorm", "thousand-layers", "1000L (500 enc + 500 dec) trains."),
    ("deepnorm", "thousand-layers", "他们训了 500 层编码器加 500 层解码器的模型。"),
    ("sandwich-ln", "formula", "Sandwich-LN normalises both going into and coming out of the sublayer."),
    ("sandwich-ln", "formula", "Sandwich-LN 在子层的输入输出各放一个 LN。"),
    ("sandwich-ln", "extra-ln-on-branch-output", "Sandwich-LN also normalises what the branch writes back."),
    ("sandwich-ln", "extra-ln-on-branch-output", "Sandwich-LN 和 Pre-LN 的差别只有出口那个 LN。"),
    ("sandwich-ln", "trunk-stays-identity", "Sandwich-LN leaves the residual path intact."),
    ("sandwich-ln", "trunk-stays-identity", "Sandwich-LN 的残差主干没被破坏。"),
    ("sandwich-ln", "bounds-branch", "The second norm caps how much each layer can add."),
    ("sandwich-ln", "bounds-branch", "每层加进残差的量被限制住了。"),
    ("sandwich-ln", "bounds-branch", "It bounds delta_l, the increment, rather than the stream."),
    ("sandwich-ln", "peri-ln", "Peri-LN is isomorphic to Sandwich-LN."),
    ("sandwich-ln", "peri-ln", "Peri-LN 和 Sandwich-LN 同构。"),
    ("sandwich-ln", "normformer", "It also adds learned per-head scaling on the attention outputs."),
    ("sandwich-ln", "normformer", "还有每个 head 的可学习缩放。"),
    ("sandwich-ln", "gemma2", "Gemma 2 不只在输入端做 RMSNorm，输出端也做。"),
    ("ln-who-uses-what", "transformer-post", "The 2017 Transformer and BERT are Post-LN."),
    ("ln-who-uses-what", "transformer-post", "原版 Transformer、BERT：Post-LN。"),
    ("ln-who-uses-what", "bert-post", "The 2017 Transformer and BERT are Post-LN."),
    ("ln-who-uses-what", "bert-post", "BERT kept Post-LN rather than pre-norm."),
    ("ln-who-uses-what", "gpt-pre", "GPT-2 switched from Post-LN to Pre-LN."),
    ("ln-who-uses-what", "gpt-pre", "GPT-2 从 Post-LN 改成了 Pre-LN。"),
    ("ln-who-uses-what", "llama-pre", "LLaMA is pre-norm instead of post-norm."),
    ("ln-who-uses-what", "t5-pre", "T5 uses pre-norm rather than post-norm."),
    ("ln-who-uses-what", "gpt-final-ln", "GPT-2 最后一个 block 之后要再加一个 LayerNorm。"),
    ("ln-who-uses-what", "gpt-final-ln", "GPT-2 also has ln_f before the output head."),
    ("ln-who-uses-what", "llama-family", "Mistral and Qwen keep exactly this recipe."),
    ("ln-who-uses-what", "llama-family", "Mistral、Qwen 基本都是这个配置。"),
    ("ln-who-uses-what", "gemma-both", "Gemma 2 normalizes not only the input but the output too."),
    ("ln-who-uses-what", "gemma-both", "Gemma 2 不只在输入做 RMSNorm，输出也做。"),
    ("ln-who-uses-what", "glm-why", "GLM-130B chose DeepNorm instead of Pre-LN."),
    ("admin-amplification", "amplification", "If you nudge the parameters a bit, the output moves a lot."),
    ("admin-amplification", "amplification", "The instability comes from this amplification."),
    ("admin-amplification", "amplification", "参数稍微改一下，输出变化就很大。"),
    ("admin-amplification", "not-gradient", "Their point is about sensitivity, not gradients."),
    ("admin-amplification", "not-gradient", "问题在更新量，不是梯度。"),
    ("admin-amplification", "not-gradient", "Post-LN 不稳不是梯度问题。"),
    ("admin-amplification", "admin-profiling", "omega is set from the variance of the earlier branches."),
    ("admin-amplification", "admin-profiling", "ω 用前向统计的方差来初始化。"),
]


@pytest.mark.parametrize(("card_id", "point", "text"), HIT, ids=lambda v: v if isinstance(v, str) and len(v) < 30 else None)
def test_point_is_hit(deck, card_id, point, text):
    assert point in hits(deck.get(card_id), text)


# -- loose wordings that a narrowed point no longer accepts ----------------------------------------------------

NOT_HIT = [
    # a bare "both" is no "best of both worlds": two things said to be related to one question is no hybrid.
    ("deepnorm", "keeps-post-quality", "Warm-up and DeepNorm are both related to the same question of stability."),
    # the same question is the topic, not DeepNet sharing Admin's view.
    ("admin-amplification", "deepnet-link", "Finally, warm-up and DeepNorm are both related to the same question of stability."),
    # "FFN initialised normally" is not beta scaling the FFN.
    ("deepnorm", "beta-which", "The FFN is initialised normally."),
    # a bare number is not the 1,000-layer result, a bare 4.4 is not a BLEU gain.
    ("deepnorm", "thousand-layers", "We waited 1000 steps."),
    ("deepnorm", "bleu-results", "It is 4.4 points better on ImageNet."),
    # DeepNet's own alpha next to GLM is not GLM's alpha.
    ("deepnorm", "glm-alpha", "GLM-130B uses alpha = (2N)^(1/4)."),
    # trainable at depth, said of Pre-LN, is the swapped claim.
    ("deepnorm", "pre-like-stability", "DeepNorm makes Pre-LN trainable at great depth."),
    # naming a model is not saying where it puts its norms.
    ("sandwich-ln", "peri-ln", "Gemma 2, OLMo 2, Peri-LN and NormFormer all use extra norms."),
    ("sandwich-ln", "normformer", "Gemma 2, OLMo 2, Peri-LN and NormFormer all use extra norms."),
    # Gemma 2's in/out norms are not Sandwich-LN's own formula claim.
    ("sandwich-ln", "formula", "Gemma 2 normalises both the input and the output of every sublayer."),
    # "LayerNorm for both" is not RMSNorm on both sides.
    ("sandwich-ln", "gemma2", "Gemma 2 uses plain LayerNorm for both."),
    # "before and after" names the output too, but it is not OLMo 2's output-only norm.
    ("ln-who-uses-what", "olmo-branch-out", "OLMo 2 puts RMSNorm before and after each sublayer."),
    # the name of the effect, or of DeepNet, is not the claim.
    ("admin-amplification", "amplification", "There is an amplification effect."),
    ("admin-amplification", "deepnet-link", "This is connected to DeepNet and DeepNorm."),
    ("admin-amplification", "deepnet-link", "DeepNorm uses alpha = (2N)^(1/4)."),
    # round 2: "every layer" next to a bound is not the increment ("the stream is at unit scale at every layer");
    # Adam's variance is not the profiling pass; a wrong decoder constant is not the decoder depth.
    ("sandwich-ln", "bounds-branch", "Normalising the residual sum keeps the stream at unit scale at every layer."),
    ("admin-amplification", "admin-profiling", "Adam's adaptive learning rate has a large variance early on."),
    ("deepnorm", "decoder-m", "For decoder-only models alpha = (3M)^(1/4)."),
    ("ln-who-uses-what", "olmo-branch-out", "OLMo 2 normalizes both the input and the output of each sublayer."),
    # a formula's structure names a placement, not a model: Sandwich-LN's formula in a paragraph on Sandwich-LN says
    # nothing about Gemma 2
    ("sandwich-ln", "gemma2", "Sandwich-LN puts a LayerNorm on both sides of each sublayer:\n\nx_{l+1} = x_l + LN(F(LN(x_l)))"),
]


@pytest.mark.parametrize(("card_id", "point", "text"), NOT_HIT)
def test_point_is_not_hit(deck, card_id, point, text):
    assert point not in hits(deck.get(card_id), text)


# -- mistakes: the plain wrong claim fires, the correct or qualified one does not ------------------------------

FIRES = [
    ("deepnorm", "alpha-below-one", "In DeepNorm alpha is less than 1."),
    ("deepnorm", "alpha-below-one", "DeepNorm 里 alpha 小于 1，残差被缩小了。"),
    ("deepnorm", "pre-ln-based", "DeepNorm computes x_{l+1} = alpha * x_l + G(LN(x_l))."),
    ("deepnorm", "alpha-gets-beta-value", "For the encoder, alpha = (2N)^(-1/4)."),
    ("deepnorm", "beta-gets-alpha-value", "For the encoder, beta = (8N)^(1/4)."),
    ("deepnorm", "beta-on-qk", "beta scales the query and key projections at init."),
    ("deepnorm", "beta-on-qk", "初始化时 β 乘在 Q 和 K 上。"),
    ("deepnorm", "decoder-only-3m", "For decoder-only models alpha = (3M)^(1/4)."),
    ("deepnorm", "keeps-pre-quality", "DeepNorm keeps Pre-LN's better final quality."),
    ("deepnorm", "keeps-pre-quality", "DeepNorm 保留了 Pre-LN 的更好效果。"),
    ("deepnorm", "post-like-stability", "DeepNorm trains with Post-LN-like stability."),
    ("deepnorm", "post-like-stability", "DeepNorm 的好处是它会像 Post-LN 一样稳。"),
    ("deepnorm", "thousand-vision", "DeepNet trained a 1000-layer ViT on ImageNet."),
    ("deepnorm", "glm-deepnet-alpha", "GLM-130B keeps the DeepNet constants unchanged."),
    ("deepnorm", "glm-deepnet-alpha", "GLM-130B 用的是和 DeepNet 相同的常数。"),
    ("sandwich-ln", "sandwich-single-ln", "Sandwich-LN has a single LN at the input of each branch."),
    ("sandwich-ln", "sandwich-single-ln", "Sandwich-LN 里每个分支只有一个 LN，放在输入端。"),
    ("sandwich-ln", "gemma-layernorm", "Gemma 2 uses standard LayerNorm on both sides."),
    ("ln-who-uses-what", "orig-pre", "The 2017 Transformer is pre-norm."),
    ("ln-who-uses-what", "orig-pre", "原版 Transformer 是 Pre-LN。"),
    ("ln-who-uses-what", "gpt-no-final-ln", "GPT-2 has no final LayerNorm."),
    ("ln-who-uses-what", "gpt-no-final-ln", "GPT-2 没有最后的 LN。"),
    ("ln-who-uses-what", "gpt-no-final-ln", "GPT-3 removed the final LayerNorm."),
    ("ln-who-uses-what", "olmo-both", "OLMo 2 normalises both the input and the output of every sublayer."),
    ("ln-who-uses-what", "olmo-both", "OLMo 2 在子层的输入和输出上都做 RMSNorm。"),
    ("admin-amplification", "warmup-unrelated", "Warm-up has nothing to do with the amplification effect."),
    ("admin-amplification", "warmup-unrelated", "warm-up 和放大效应没有关系。"),
    ("admin-amplification", "deepnet-contradicts-admin", "DeepNet disagrees with Admin about the cause."),
    # round 2 (issue 8) --------------------------------------------------------------------------------------
    ("deepnorm", "beta-on-shortcut", "x_{l+1} = LN(beta * x_l + G(x_l))."),
    ("deepnorm", "beta-above-one", "beta is greater than 1."),
    ("deepnorm", "gradient-explosion", "Deep Post-LN suffers from gradient explosion."),
    ("deepnorm", "pre-is-unstable", "Deep Pre-LN diverges, and DeepNorm is the cure."),
    ("deepnorm", "thousand-beats-12b", "The 1000-layer model beat the 12B model by 5 BLEU."),
    ("deepnorm", "glm-beta-sqrt", "GLM-130B sets beta = sqrt(2N)."),
    ("sandwich-ln", "pre-two-norms", "Pre-LN also normalises the branch output."),
    ("sandwich-ln", "cogview-pre", "Pre-LN came from CogView."),
    ("sandwich-ln", "sandwich-is-standard", "Sandwich-LN is the standard layout of GPT-2."),
    ("sandwich-ln", "stream-stays-bounded", "Sandwich-LN keeps the residual stream at unit scale."),
    ("sandwich-ln", "peri-on-sum", "Peri-LN normalizes the residual sum."),
    ("sandwich-ln", "gemma-input-only", "Gemma 2 normalises only the input of each sublayer."),
    ("sandwich-ln", "olmo-input-only", "OLMo 2 is x + F(RMSNorm(x))."),
    ("sandwich-ln", "normformer-norm-before-attention", "NormFormer puts an extra LN before the attention."),
    ("ln-who-uses-what", "t5-full-ln", "T5 uses a full LayerNorm with mean and bias."),
    ("ln-who-uses-what", "llama-full-ln", "LLaMA uses an ordinary LayerNorm."),
    ("ln-who-uses-what", "glm-deepnet-alpha", "GLM-130B takes alpha = (2N)^{1/4}."),
    ("ln-who-uses-what", "glm-sandwich", "GLM-130B adopted Sandwich-LN."),
    ("ln-who-uses-what", "gemma-one-side", "Gemma 2 normalizes only the output."),
    ("ln-who-uses-what", "gemma-no-norm", "Gemma 2 removes normalization."),
    ("ln-who-uses-what", "olmo-input-only", "OLMo 2 is x + F(RMSNorm(x))."),
    ("admin-amplification", "amplification-misread", "The amplification effect refers to the activations growing layer by layer."),
    ("admin-amplification", "post-formula-for-pre", "Pre-LN computes LN(x + F(x))."),
    ("admin-amplification", "pre-formula-for-post", "Post-LN computes x + F(LN(x))."),
    ("admin-amplification", "post-light-dependency", "Post-LN dilutes every branch."),
    ("admin-amplification", "pre-change-depth-free", "Pre-LN's output change does not grow with depth."),
    ("admin-amplification", "admin-removes-ln", "Admin drops LayerNorm entirely."),
    ("admin-amplification", "omega-from-one", "omega starts at 1 and is learned."),
    ("admin-amplification", "admin-keeps-pre", "Admin retains the Pre-LN structure."),
    ("admin-amplification", "post-no-warmup", "Post-LN doesn't need warm-up."),
    ("admin-amplification", "deepnorm-shrinks-residual", "DeepNorm scales down the residual."),
    ("admin-amplification", "deepnorm-for-pre", "DeepNorm makes Pre-LN trainable at depth."),
]

SILENT = [
    ("deepnorm", "alpha-below-one", "alpha is greater than 1 and beta is less than 1."),
    ("deepnorm", "pre-ln-based", "DeepNorm computes x_{l+1} = LN(alpha * x_l + G(x_l))."),
    ("deepnorm", "alpha-gets-beta-value", "For the encoder, alpha = (2N)^(1/4) and beta = (8N)^(-1/4)."),
    ("deepnorm", "beta-on-qk", "beta is applied to the value and output projections, not to the queries and keys."),
    ("deepnorm", "beta-on-qk", "β 不乘到 Q 和 K 上。"),
    ("deepnorm", "decoder-only-3m", "In an encoder-decoder model the decoder side uses alpha = (3M)^(1/4)."),
    ("deepnorm", "keeps-pre-quality", "DeepNorm keeps Post-LN's better final quality."),
    ("deepnorm", "post-like-stability", "DeepNorm trains with Pre-LN-like stability."),
    ("deepnorm", "thousand-vision", "DeepNet trained a 1000-layer Transformer for translation."),
    ("deepnorm", "glm-deepnet-alpha", "GLM-130B does not use the DeepNet constants: it takes alpha = sqrt(2N)."),
    ("sandwich-ln", "sandwich-single-ln", "Pre-LN has a single LN; Sandwich-LN adds a second one on the output."),
    ("sandwich-ln", "gemma-layernorm", "Gemma 2 uses RMSNorm rather than a standard LayerNorm."),
    ("ln-who-uses-what", "orig-pre", "The 2017 Transformer is Post-LN."),
    ("ln-who-uses-what", "gpt-no-final-ln", "GPT-2 adds a final LayerNorm after the last block."),
    ("ln-who-uses-what", "gpt-no-final-ln", "Unlike BERT, which needs no final LN, GPT-2 adds one."),
    ("ln-who-uses-what", "olmo-both", "Unlike Gemma 2, which normalises both input and output, OLMo 2 normalises only the output."),
    ("admin-amplification", "warmup-unrelated", "Warm-up matters because of the amplification effect."),
    ("admin-amplification", "deepnet-contradicts-admin", "DeepNet agrees with Admin about the cause."),
    # round 2 (issue 8) --------------------------------------------------------------------------------------
    ("deepnorm", "beta-on-shortcut", "x_{l+1} = LN(alpha * x_l + G(x_l)), with beta only at init."),
    ("deepnorm", "beta-above-one", "beta is below 1, alpha above 1."),
    ("deepnorm", "gradient-explosion", "It is the model update, not the gradient, that explodes."),
    ("deepnorm", "pre-is-unstable", "Deep Post-LN diverges, and DeepNorm is the cure."),
    ("deepnorm", "thousand-beats-12b", "The 200-layer 3.2B model beat the 12B model by 5 BLEU."),
    ("deepnorm", "beta-on-qk", "beta scales the FFN, the value and the output projections (Q and K are not scaled)."),
    ("deepnorm", "glm-beta-sqrt", "GLM-130B sets alpha = sqrt(2N)."),
    ("sandwich-ln", "pre-two-norms", "Sandwich-LN puts two LayerNorms in every residual branch, while Pre-LN has a single one."),
    ("sandwich-ln", "cogview-pre", "CogView introduced Sandwich-LN after Pre-LN overflowed."),
    ("sandwich-ln", "sandwich-is-standard", "GPT-2 and LLaMA use plain Pre-LN."),
    ("sandwich-ln", "stream-stays-bounded", "Sandwich-LN bounds the increment, not the stream, which keeps growing."),
    ("sandwich-ln", "peri-on-sum", "Peri-LN never normalizes the residual sum."),
    ("sandwich-ln", "gemma-input-only", "Gemma 2 normalises not only the input but also the output."),
    ("sandwich-ln", "olmo-input-only", "OLMo 2 is x + RMSNorm(F(x))."),
    ("sandwich-ln", "normformer-norm-before-attention", "NormFormer adds an extra LN after attention."),
    ("ln-who-uses-what", "t5-full-ln", "T5 uses an RMS-style norm rather than a full LayerNorm."),
    ("ln-who-uses-what", "llama-full-ln", "LLaMA uses RMSNorm rather than a standard LayerNorm."),
    ("ln-who-uses-what", "glm-deepnet-alpha", "GLM-130B takes alpha = (2N)^{1/2}."),
    ("ln-who-uses-what", "glm-sandwich", "GLM-130B tried Sandwich-LN and found it unstable."),
    ("ln-who-uses-what", "gemma-one-side", "Gemma 2 normalizes not only the input but also the output."),
    ("ln-who-uses-what", "gemma-no-norm", "Gemma 2 normalizes the input and the output of each sublayer."),
    ("ln-who-uses-what", "olmo-input-only", "OLMo 2 is x + RMSNorm(F(x))."),
    ("ln-who-uses-what", "gpt-post", "GPT-2 switched from Post-LN to Pre-LN."),
    ("ln-who-uses-what", "gpt-post", "GPT-2 is Pre-LN rather than Post-LN."),
    ("admin-amplification", "amplification-misread", "The amplification effect refers to output changes, not to the gradient."),
    ("admin-amplification", "post-formula-for-pre", "Post-LN computes LN(x + F(x))."),
    ("admin-amplification", "pre-formula-for-post", "Pre-LN computes x + F(LN(x))."),
    ("admin-amplification", "post-light-dependency", "Pre-LN dilutes every branch."),
    ("admin-amplification", "pre-change-depth-free", "Pre-LN's output change grows like log N."),
    ("admin-amplification", "admin-removes-ln", "Admin keeps LayerNorm and rescales the shortcut."),
    ("admin-amplification", "omega-from-one", "omega comes from a profiling pass."),
    ("admin-amplification", "admin-keeps-pre", "Admin retains the Post-LN structure."),
    ("admin-amplification", "post-no-warmup", "Pre-LN doesn't need warm-up."),
    ("admin-amplification", "deepnorm-shrinks-residual", "DeepNorm scales up the residual and scales down the init."),
    ("admin-amplification", "deepnorm-for-pre", "DeepNorm makes Post-LN trainable at depth."),
]


@pytest.mark.parametrize(("card_id", "mistake", "text"), FIRES)
def test_mistake_fires(deck, card_id, mistake, text):
    assert mistake in mistakes(deck.get(card_id), text)


@pytest.mark.parametrize(("card_id", "mistake", "text"), SILENT)
def test_mistake_is_silent(deck, card_id, mistake, text):
    assert mistake not in mistakes(deck.get(card_id), text)
