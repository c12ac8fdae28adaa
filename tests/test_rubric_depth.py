"""Rubric tuning (issue 8), depth group: xiong-theorem, pre-ln-final-norm, pre-ln-effective-depth.

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
# xiong-theorem

XIONG_HITS = [
    # the set-up: the last FFN's weight, or the last layer with its gradient
    ("setup", "The theorem looks at the gradient of the last FFN weight matrix at initialization."),
    ("setup", "Theorem 1 is about the top layer's gradient right at init."),
    ("setup", "定理 1 看的是初始化时最后一个 FFN 的权重梯度。"),
    # Post-LN's bound is flat in the depth L, with L written as a capital letter
    ("post-flat-in-depth", "For Post-LN the bound is independent of L."),
    ("post-flat-in-depth", "Post-LN's bound has no L in it at all."),
    ("post-flat-in-depth", "In Post-LN the last-layer gradient doesn't depend on the number of layers."),
    ("post-flat-in-depth", "Post-LN 的这个上界跟 L 无关。"),
    ("post-flat-in-depth", "Post-LN 最后一层的梯度跟层数没关系。"),
    ("post-flat-in-depth", "Post-LN 的上界里面没有 L。"),
    # Pre-LN's bound shrinks with the depth L
    ("pre-bound-shrinks", "Pre-LN's bound scales like 1/sqrt(L)."),
    ("pre-bound-shrinks", "For Pre-LN the bound is O(d sqrt(ln d / L))."),
    ("pre-bound-shrinks", "For Pre-LN the gradient bound drops as L grows."),
    ("pre-bound-shrinks", "Pre-LN 的上界是 d 乘根号下 ln d 除以 L。"),
    ("pre-bound-shrinks", "Pre-LN 的梯度上界随 L 变小。"),
    # the myth denied, with the depth as a capital L or in spoken forms
    ("myth-wrong", "Post-LN's last-layer gradient does not grow with L."),
    ("myth-wrong", "Post-LN's top gradient doesn't get bigger as the model gets deeper."),
    ("myth-wrong", "Post-LN 最后一层的梯度并不随 L 增大。"),
    ("myth-wrong", "Post-LN 最后一层的梯度并不是越深梯度越大。"),
    # the ratio of the bounds, sqrt(L)
    ("post-large-relative", "Post-LN's last-layer gradient is about sqrt(L) times larger than Pre-LN's."),
    ("post-large-relative", "Post-LN 最后一层的梯度比 Pre-LN 大根号 L 倍。"),
    # Lemma 2 for Pre-LN: the trunk keeps adding up; Theta(l d)
    ("lemma2-pre", "In Pre-LN the trunk just keeps adding up block outputs."),
    ("lemma2-pre", "Pre-LN 的主干一直在累加每层的输出。"),
    ("lemma2-pre", "For Pre-LN the expected squared stream norm is Θ(l·d)."),
    # Lemma 2 for Post-LN: 3/2 d, and "does not grow" in Chinese
    ("lemma2-post", "For Post-LN the sum before each LN has E||x||^2 = 3/2 d."),
    ("lemma2-post", "Post-LN 每层 LN 前的范数不会涨。"),
    # Lemma 3 written out: the LN Jacobian is about sqrt(d)/||x||
    ("final-ln-divides", "The LN Jacobian is of order sqrt(d)/||x||, so a big input means a small gradient."),
    ("final-ln-divides", "LN 的雅可比和输入范数成反比。"),
    ("final-ln-divides", "Pre-LN 末尾那个 LN 会把梯度除以残差流的范数。"),
    # within one model the per-layer gradient grows with the layer index
    ("within-model", "Within one Post-LN model the gradient grows with the layer index."),
    ("within-model", "在同一个 Post-LN 模型内部，梯度随层号增大。"),
    # round 2: the myth denied as a correlative said in two halves
    ("myth-wrong", "People say that the deeper the Post-LN model, the bigger its last-layer gradient; that is wrong."),
    ("myth-wrong", "有人说 Post-LN 层数越深、梯度越大，其实不是。"),
    # round 2: "Pre-LN's bound shrinks" without a depth word
    ("pre-bound-shrinks", "For Pre-LN the bound shrinks."),
    ("pre-bound-shrinks", "Pre-LN 的上界会变小。"),
]


@pytest.mark.parametrize("point,text", XIONG_HITS)
def test_xiong_point_hit(deck, point, text):
    assert point in hits(deck.get("xiong-theorem"), text)


XIONG_NOT_HITS = [
    # "bounds ... norm" is the theorem's bound, not Lemma 2's constant norm
    ("lemma2-post", "For Post-LN, Theorem 1 bounds the Frobenius norm of the gradient by O(d sqrt(ln d))."),
    # the layer index l is not the depth L
    ("pre-bound-shrinks", "Within one Pre-LN model the per-layer gradient is roughly flat in l."),
]


@pytest.mark.parametrize("point,text", XIONG_NOT_HITS)
def test_xiong_point_not_hit(deck, point, text):
    assert point not in hits(deck.get("xiong-theorem"), text)


XIONG_MISTAKES = [
    # post-bound-shrinks: only in words, not a formula listed next to the other subject's
    ("post-bound-shrinks", "Post-LN's bound shrinks like 1/sqrt(L).", True),
    ("post-bound-shrinks", "Post-LN 的上界按根号 L 分之一变小。", True),
    ("post-bound-shrinks", "The bound is O(d sqrt(ln d)) for Post-LN - no L - and O(d sqrt(ln d / L)) for Pre-LN.", False),
    ("post-bound-shrinks", "Pre-LN's bound shrinks like 1/sqrt(L).", False),
    # post-grows-with-depth: the capital-L form of the myth; the layer index l is another claim
    ("post-grows-with-depth", "Post-LN's last-layer gradient grows with L.", True),
    ("post-grows-with-depth", "Post-LN 最后一层的梯度随 L 增大。", True),
    ("post-grows-with-depth", "Within one Post-LN model the gradient grows with l.", False),
    ("post-grows-with-depth", "Post-LN's last-layer gradient does not grow with L.", False),
    # pre-flat-in-depth: the broadened "no L" forms about the bound
    ("pre-flat-in-depth", "Pre-LN's bound has no L in it.", True),
    ("pre-flat-in-depth", "Post-LN's bound has no L in it.", False),
    # round 2: the capital-L forms of "flat in depth" said about Pre-LN (the bound need not be named)
    ("pre-flat-in-depth", "For Pre-LN the gradient of the top FFN is independent of L.", True),
    ("pre-flat-in-depth", "Pre-LN 最后一层的梯度跟 L 无关。", True),
    ("pre-flat-in-depth", "For Post-LN the gradient of the top FFN is independent of L.", False),
    # round 2: the myth with a rate
    ("post-grows-with-depth", "Post-LN's top-layer gradient scales like sqrt(L).", True),
    ("post-grows-with-depth", "Post-LN's top-layer gradient is larger than Pre-LN's by sqrt(L).", False),
    # round 2: new mistakes
    ("theorem-first-layer", "The theorem is about the gradient of the first layer's weights.", True),
    ("theorem-first-layer", "The theorem is about the gradient of the last layer's weights.", False),
    ("theorem-throughout-training", "Xiong's bound stays valid after training.", True),
    ("theorem-throughout-training", "Xiong's bound is only valid at initialisation.", False),
    ("bound-wrong-rate", "For Pre-LN the bound scales like 1/L.", True),
    ("bound-wrong-rate", "Pre-LN 的上界随 L 指数下降。", True),
    ("bound-wrong-rate", "For Pre-LN the bound scales like 1/sqrt(L).", False),
    ("post-bound-has-l", "For Post-LN the bound is O(d sqrt(L log d)).", True),
    ("post-bound-has-l", "For Post-LN the bound is O(d sqrt(log d)).", False),
    ("pre-large-output-grad", "In Pre-LN the last layer has large gradients at init.", True),
    ("pre-large-output-grad", "In Post-LN the last layer has large gradients at init.", False),
    ("pre-stream-fixed", "Pre-LN 的主干范数保持不变。", True),
    ("pre-stream-fixed", "Post-LN 的主干范数保持不变。", False),
    ("post-stream-unnormalised", "Post-LN 的主干没有被归一化。", True),
    ("post-stream-unnormalised", "Pre-LN 的主干没有被归一化。", False),
    ("ln-output-1-5d", "For Post-LN the LN output is 1.5d at every layer.", True),
    ("ln-output-1-5d", "For Post-LN the input of each LN is 1.5d at every layer, its output d.", False),
    ("pre-renormalises", "Pre-LN renormalizes the stream after each block.", True),
    ("pre-renormalises", "Pre-LN normalizes the input of each block.", False),
    ("stream-grows-quadratically", "The squared norm of the Pre-LN stream grows quadratically in l.", True),
    ("stream-grows-quadratically", "The squared norm of the Pre-LN stream grows linearly in l.", False),
    ("post-final-ln-divides", "Post-LN's final LN scales the gradient down by 1/sqrt(L).", True),
    ("post-final-ln-divides", "Pre-LN's final LN scales the gradient down by 1/sqrt(L).", False),
    ("final-ln-amplifies", "The final LN scales the gradient up.", True),
    ("final-ln-amplifies", "The final LN scales the gradient down.", False),
    ("jacobian-inverted", "The LN Jacobian grows like ||x||/sqrt(d).", True),
    ("jacobian-inverted", "The LN Jacobian shrinks like sqrt(d)/||x||.", False),
    ("final-ln-no-role", "The final LN is irrelevant to the bound.", True),
    ("final-ln-no-role", "The final LN is central to the bound.", False),
    ("pre-needs-warmup", "Pre-LN requires warm-up.", True),
    ("pre-needs-warmup", "Pre-LN may require warm-up at very large learning rates.", False),
    ("post-no-warmup", "Post-LN doesn't require warm-up.", True),
    ("post-no-warmup", "Post-LN requires warm-up.", False),
    ("post-within-reversed", "Within a Post-LN model the gradient decays towards the output.", True),
    ("post-within-reversed", "Within a Post-LN model the gradient decays towards the input.", False),
]


@pytest.mark.parametrize("mistake,text,fires", XIONG_MISTAKES)
def test_xiong_mistake(deck, mistake, text, fires):
    assert (mistake in mistakes(deck.get("xiong-theorem"), text)) == fires


# --------------------------------------------------------------------------------------------------
# pre-ln-final-norm

FINAL_HITS = [
    # the trunk is never normalised: "normed" in notes, the English verb in a Chinese sentence
    ("trunk-never-normalised", "In Pre-LN the trunk is never normed, only the branch inputs are."),
    ("trunk-never-normalised", "Pre-LN 的残差流本身没有被 normalize 过。"),
    ("trunk-never-normalised", "Pre-LN 的主干从来没被归一化。"),
    # the final LN must be added / is needed (naming it is not enough)
    ("add-final-ln", "A Pre-LN stack needs a final LN after the last block."),
    ("add-final-ln", "For Pre-LN you should put a final LN right in front of the unembedding."),
    ("add-final-ln", "Pre-LN 最后需要一个 final LN。"),
    ("add-final-ln", "Pre-LN 要在输出头之前补一个最后的 LN。"),
    # what goes wrong without it: notes-style counterfactual, and the scale growing
    ("without-it", "No final LN → the head reads a raw x_L and the logits blow up."),
    ("without-it", "Without the final LN, the logits would be huge in a deep model."),
    ("without-it", "没有 final LN 的话，输出头看到的数值会越来越大。"),
    ("without-it", "去掉最后的 LN，logits 会随深度变大。"),
    # a fixed, unit scale for the head
    ("fixed-scale", "The final LN puts the features back on a unit scale."),
    ("fixed-scale", "最后的 LN 把特征拉回单位尺度。"),
    # Post-LN is normalised by construction
    ("post-already-normalised", "Post-LN's output is normalized by construction, since every block ends in LN(x + F(x))."),
    ("post-already-normalised", "Post-LN 每个子层都以 LN 结束，所以不需要再加。"),
    ("post-already-normalised", "Post-LN 的输出天然就是 LayerNorm 过的。"),
    # the final LN in Xiong's analysis: Lemma 3 written out, or the gradient damped
    ("final-ln-in-theory", "The final LN's Jacobian is about sqrt(d)/||x_L||, which is small when the stream is large."),
    ("final-ln-in-theory", "最后这个 LN 的雅可比和输入的范数成反比。"),
    ("final-ln-in-theory", "Going back through the final LN damps the gradient of the last layer."),
    # round 2: the stream growing, said through Lemma 2's bounds, the variance adding up, or along the stack
    ("stream-grows", "In Pre-LN, (1 + l/2)d <= E||x_l||^2 <= (1 + 3l/2)d."),
    ("stream-grows", "The block outputs' variances add up as you go deeper."),
    ("stream-grows", "每个块输出的方差不断累加。"),
    ("stream-grows", "Pre-LN 的 x_l 随层数线性增长。"),
    ("stream-grows", "Pre-LN 的主干只加不减。"),
    ("stream-grows", "The trunk just keeps getting bigger block after block."),
    # round 2: the head sees the same scale whatever the depth
    ("fixed-scale", "After the final LN the head sees the same scale regardless of depth."),
    ("fixed-scale", "加了 ln_f 之后，输出的尺度跟 depth 无关。"),
    # round 2: GPT-2 with what it added
    ("gpt2", "GPT-2 added ln_f after the last block."),
    ("gpt2", "GPT-2 在最后一个块后面加了一层 LN。"),
    # round 2: without it, the softmax gets too sharp
    ("without-it", "Without the final LN the softmax at the head becomes too sharp."),
    ("without-it", "没有最后的 LN，输出头的 softmax 会太尖。"),
]


@pytest.mark.parametrize("point,text", FINAL_HITS)
def test_final_norm_point_hit(deck, point, text):
    assert point in hits(deck.get("pre-ln-final-norm"), text)


FINAL_NOT_HITS = [
    # naming the final LN is not yet saying that it is added or needed
    ("add-final-ln", "The final LayerNorm is an interesting part of the design."),
    ("add-final-ln", "final LN 的作用是把梯度放大。"),
    # the counterfactual with the wrong direction earns nothing
    ("without-it", "如果没有 final LN，logits 会越来越小。"),
    # round 2: GPT-2 named without what it added
    ("gpt2", "GPT-2's output is normalized anyway."),
    # round 2: add-final-ln, without-it and final-ln-in-theory are Pre-LN's
    ("add-final-ln", "Post-LN models end with an extra LayerNorm before the output head."),
    ("final-ln-in-theory", "In Post-LN the final LN divides the gradient by the stream norm."),
    ("without-it", "In Post-LN, without a final LN the logits would be huge."),
]


@pytest.mark.parametrize("point,text", FINAL_NOT_HITS)
def test_final_norm_point_not_hit(deck, point, text):
    assert point not in hits(deck.get("pre-ln-final-norm"), text)


FINAL_MISTAKES = [
    # logits-shrink-without: the reversed direction, said plainly
    ("logits-shrink-without", "In Pre-LN the logits get smaller with depth.", True),
    ("logits-shrink-without", "Pre-LN 的 logits 随深度越来越小。", True),
    ("logits-shrink-without", "In Pre-LN without a final LN the logits would grow with depth.", False),
    ("logits-shrink-without", "Attention in deep layers gets more uniform with depth.", False),
    # round 2
    ("post-needs-final-ln", "The original Transformer ends with an additional LayerNorm, since it is Post-LN.", False),
    ("post-needs-final-ln", "Post-LN stacks end with an extra LN before the head.", True),
    ("rmsnorm-no-final-norm", "Models that use RMSNorm do not need a final norm.", True),
    ("rmsnorm-no-final-norm", "Models that use RMSNorm still need a final norm.", False),
    ("final-ln-from-gpt1", "GPT-2's ln_f was inherited from GPT-1.", True),
    ("final-ln-from-gpt1", "GPT-2's ln_f was new; it was added after the last block.", False),
    ("pre-already-normalised", "In Pre-LN each sublayer ends with a LayerNorm.", True),
    ("pre-already-normalised", "In Post-LN each sublayer ends with a LayerNorm.", False),
    ("pre-trunk-normalised", "In Pre-LN the trunk is renormalized after every block.", True),
    ("pre-trunk-normalised", "In Post-LN the trunk is renormalized after every block.", False),
    ("post-trunk-unnormalised", "In Post-LN the trunk is not normalized.", True),
    ("post-trunk-unnormalised", "In Pre-LN the trunk is not normalized.", False),
    ("post-final-ln-divides", "Post-LN's final LN shrinks the gradient by the stream norm.", True),
    ("post-final-ln-divides", "Post-LN's last LN sees a constant-size input.", False),
    ("post-grad-shrinks", "Post-LN 的梯度上界随 L 变小。", True),
    ("post-grad-shrinks", "Pre-LN 的梯度上界随 L 变小。", False),
    ("post-bound-grows", "The gradient bound of Post-LN blows up with depth.", True),
    ("post-bound-grows", "The gradient bound of Post-LN does not blow up with depth.", False),
    ("post-pre-formula", "Each Post-LN layer is h + Attn(LN(h)).", True),
    ("post-pre-formula", "Each Pre-LN layer is h + Attn(LN(h)).", False),
    ("pre-post-formula", "Each Pre-LN layer is LayerNorm(h + Attn(h)).", True),
    ("pre-post-formula", "Each Post-LN layer is LayerNorm(h + Attn(h)).", False),
    ("final-ln-regulariser", "The final LayerNorm works like dropout.", True),
    ("final-ln-regulariser", "The final LayerNorm fixes the scale; dropout is what regularises.", False),
    ("final-ln-amplifies", "最后的 LN 把梯度放大了根号 L 倍。", True),
    ("final-ln-amplifies", "最后的 LN 把梯度压小了根号 L 倍。", False),
    ("pre-grad-larger", "For Pre-LN the output-side gradient is bigger than for Post-LN.", True),
    ("pre-grad-larger", "For Post-LN the output-side gradient is bigger than for Pre-LN.", False),
    ("pre-grad-grows", "The gradient bound of Pre-LN increases with depth.", True),
    ("pre-grad-grows", "The gradient bound of Pre-LN does not increase with depth.", False),
    ("pre-needs-warmup", "Pre-LN requires warm-up.", True),
    ("pre-needs-warmup", "Post-LN requires warm-up.", False),
]


@pytest.mark.parametrize("mistake,text,fires", FINAL_MISTAKES)
def test_final_norm_mistake(deck, mistake, text, fires):
    assert (mistake in mistakes(deck.get("pre-ln-final-norm"), text)) == fires


# --------------------------------------------------------------------------------------------------
# pre-ln-effective-depth

DEPTH_HITS = [
    # the stream grows, said as a rate or as "only ever added to"
    ("stream-grows", "In Pre-LN the hidden state norm goes ~ sqrt(l)."),
    ("stream-grows", "In Pre-LN the stream's squared norm is ∝ l·d at init."),
    ("stream-grows", "Pre-LN 的残差流只加不归一，一直在累加。"),
    # each block's share, in words or as a ratio of norms
    ("relative-update-shrinks", "In Pre-LN each block's contribution falls like 1/sqrt(l)."),
    ("relative-update-shrinks", "The ratio ||F_l||/||x_l|| scales as l^{-1/2}."),
    ("relative-update-shrinks", "Pre-LN 里每层的贡献会按 1/√l 变小。"),
    # deep blocks close to identity; effectively fewer layers; layer pruning
    ("deep-blocks-identity", "In Pre-LN the deeper layers get closer to the identity."),
    ("deep-blocks-identity", "Pre-LN 越深的块越像恒等映射。"),
    ("deep-blocks-identity", "A deep Pre-LN model effectively has fewer layers than it was built with."),
    ("deep-blocks-identity", "In big Pre-LN models the last few layers can be pruned with little loss."),
    ("deep-blocks-identity", "大的 Pre-LN 模型把后面几层剪掉，效果几乎不变。"),
    # Mix-LN's order with other words for the early layers
    ("mix-ln-order", "Mix-LN applies Post-LN to the first few layers and Pre-LN to the rest."),
    ("mix-ln-order", "Mix-LN 是前面用 Post-LN，后面用 Pre-LN。"),
    # Curse of Depth: the name with what it does
    ("curse-of-depth", "Curse of Depth scales each LayerNorm output down by the square root of the layer index."),
    ("curse-of-depth", "Curse of Depth 这篇把每层 LN 的输出乘以 1/√l。"),
    # other fixes: ResiDual's two streams; DeepNorm by name or by what it changes
    ("other-fixes", "ResiDual runs two residual streams side by side."),
    ("other-fixes", "DeepNorm keeps Post-LN and rescales it so it can go a thousand layers deep."),
    ("other-fixes", "Another option is to up-weight the residual before the LayerNorm."),
    ("other-fixes", "还有一种是 DeepNorm，让 Post-LN 也能堆得很深。"),
    # round 2: the relative contribution diminishing
    ("relative-update-shrinks", "The relative contribution of deep blocks diminishes."),
    ("relative-update-shrinks", "深层块的相对贡献逐层递减。"),
    # round 2: "the last several layers" can be cut; a shallower network's worth of depth
    ("deep-blocks-identity", "大模型后面的若干层可以直接剪掉。"),
    ("deep-blocks-identity", "You pay for L layers but get a shallower network's worth of depth."),
    ("deep-blocks-identity", "相当于只拿到一个更浅的网络。"),
    # round 2: Mix-LN's order as a placement, or in notes next to the name
    ("mix-ln-order", "Mix-LN puts Post-LN in the first part of the network."),
    ("mix-ln-order", "Mix-LN: 浅层 Post-LN，深层 Pre-LN。"),
    ("mix-ln-order", "Mix-LN 把 Post-LN 放在浅层。"),
]


@pytest.mark.parametrize("point,text", DEPTH_HITS)
def test_depth_point_hit(deck, point, text):
    assert point in hits(deck.get("pre-ln-effective-depth"), text)


DEPTH_NOT_HITS = [
    # close to identity, but the early blocks: not the claim
    ("deep-blocks-identity", "It is the first few blocks that end up close to identity."),
    # DeepNet cited for its BLEU gap is evidence, not the DeepNorm fix
    ("other-fixes", "DeepNet measured Pre-LN about 0.5 BLEU behind a converged Post-LN."),
    ("curse-of-depth", "Curse of Depth is a recent paper."),
    # round 2: any mention of the early layers is not yet where Mix-LN puts Post-LN
    ("mix-ln-order", "Mix-LN puts Pre-LN at the bottom and Post-LN at the top to strengthen the early layers."),
    # round 2: the mechanism points are Pre-LN's
    ("deep-blocks-identity", "In Post-LN the deep blocks become near-identity."),
    ("relative-update-shrinks", "In Post-LN each block's relative contribution shrinks like 1/sqrt(l)."),
    ("representation-collapse", "Representation collapse hits deep Post-LN models."),
]


@pytest.mark.parametrize("point,text", DEPTH_NOT_HITS)
def test_depth_point_not_hit(deck, point, text):
    assert point not in hits(deck.get("pre-ln-effective-depth"), text)


DEPTH_MISTAKES = [
    # post-stream-unnormalised
    ("post-stream-unnormalised", "In Post-LN the residual stream is never normalised.", True),
    ("post-stream-unnormalised", "Post-LN 的残差流从不归一化。", True),
    ("post-stream-unnormalised", "In Pre-LN the residual stream is never normalised.", False),
    ("post-stream-unnormalised", "Unlike Pre-LN, whose stream is never normalised, Post-LN normalises after every block.", False),
    # relative-update-1-over-l
    ("relative-update-1-over-l", "Each block's relative contribution shrinks like 1/l.", True),
    ("relative-update-1-over-l", "每层的相对贡献按 1/l 变小。", True),
    ("relative-update-1-over-l", "Each block's relative contribution shrinks like 1/sqrt(l).", False),
    # post-collapse
    ("post-collapse", "Post-LN suffers from representation collapse.", True),
    ("post-collapse", "Post-LN 会出现表示坍缩。", True),
    ("post-collapse", "Post-LN does not suffer from representation collapse.", False),
    ("post-collapse", "Pre-LN suffers from representation collapse.", False),
    # curse-scales-1-over-l
    ("curse-scales-1-over-l", "LayerNorm Scaling multiplies each LN output by 1/l.", True),
    ("curse-scales-1-over-l", "LayerNorm Scaling 把 LN 输出乘以 1/l。", True),
    ("curse-scales-1-over-l", "LayerNorm Scaling multiplies each LN output by 1/sqrt(l).", False),
    # deepnorm-removes-ln
    ("deepnorm-removes-ln", "DeepNorm removes LayerNorm altogether.", True),
    ("deepnorm-removes-ln", "DeepNorm 去掉了 LayerNorm。", True),
    ("deepnorm-removes-ln", "Unlike T-Fixup, which removes LayerNorm, DeepNorm keeps it and up-weights the residual.", False),
    ("deepnorm-removes-ln", "DeepNorm does not remove LayerNorm.", False),
    # round 2
    ("pre-stream-fixed", "In Pre-LN the norm of the stream remains constant.", True),
    ("pre-stream-fixed", "In Pre-LN the norm of the stream keeps increasing.", False),
    ("post-relative-shrinks", "In Post-LN the relative update of each block gets smaller.", True),
    ("post-relative-shrinks", "In Pre-LN the relative update of each block gets smaller.", False),
    ("wasted-depth-vanishing", "Pre-LN's wasted depth is caused by vanishing gradients.", True),
    ("wasted-depth-vanishing", "Pre-LN's wasted depth is not caused by vanishing gradients.", False),
    ("pre-deep-grad-explodes", "Pre-LN's deep layer gradients blow up.", True),
    ("pre-deep-grad-explodes", "Pre-LN's deep layers barely change the stream.", False),
    ("pre-grad-exponential", "Pre-LN's gradients shrink exponentially towards the input.", True),
    ("pre-grad-exponential", "Pre-LN's gradients stay roughly level towards the input.", False),
    ("post-deep-identity", "Post-LN 越深的块越接近恒等。", True),
    ("post-deep-identity", "Pre-LN 越深的块越接近恒等。", False),
    ("early-blocks-identity", "In Pre-LN the shallow layers become identity maps.", True),
    ("early-blocks-identity", "In Pre-LN the deep layers become identity maps.", False),
    ("collapse-means-shrinking", "Representation collapse: the hidden states go to zero.", True),
    ("collapse-means-shrinking", "Representation collapse: the hidden states become nearly identical.", False),
    ("pre-better-final", "Pre-LN surpasses Post-LN in final BLEU.", True),
    ("pre-better-final", "Post-LN surpasses Pre-LN in final BLEU when both converge.", False),
    ("curse-scales-up", "LayerNorm Scaling multiplies the LN output by the square root of the layer index.", True),
    ("curse-scales-up", "LayerNorm Scaling divides the LN output by the square root of the layer index.", False),
    ("curse-for-post", "Post-LN models apply LayerNorm Scaling with a 1/sqrt(l) factor.", True),
    ("curse-for-post", "Pre-LN models apply LayerNorm Scaling with a 1/sqrt(l) factor.", False),
    ("deepnorm-for-pre", "DeepNorm 让 Pre-LN 训到了 1000 层。", True),
    ("deepnorm-for-pre", "DeepNorm 让 Post-LN 训到了 1000 层。", False),
    ("mixln-norm-types", "Mix-LN combines LayerNorm with RMSNorm.", True),
    ("mixln-norm-types", "Mix-LN combines Post-LN with Pre-LN.", False),
    ("mix-ln-order-swapped", "Mix-LN 把 Pre-LN 放在浅层。", True),
    ("mix-ln-order-swapped", "Mix-LN 把 Post-LN 放在浅层。", False),
    ("deepnorm-alpha-on-branch", "DeepNorm uses α to scale the branch.", True),
    ("deepnorm-alpha-on-branch", "DeepNorm uses α to scale the residual.", False),
    ("pre-renormalises", "Pre-LN 每个子层之后都会重新归一化。", True),
    ("pre-renormalises", "Post-LN 每个子层之后都会重新归一化。", False),
    ("post-pre-formula", "For Post-LN, h_{l+1} = h_l + MLP(LN(h_l)).", True),
    ("post-pre-formula", "For Pre-LN, h_{l+1} = h_l + MLP(LN(h_l)).", False),
    ("pre-post-formula", "For Pre-LN, h_{l+1} = LN(h_l + MLP(h_l)).", True),
    ("pre-post-formula", "For Post-LN, h_{l+1} = LN(h_l + MLP(h_l)).", False),
]


@pytest.mark.parametrize("mistake,text,fires", DEPTH_MISTAKES)
def test_depth_mistake(deck, mistake, text, fires):
    assert (mistake in mistakes(deck.get("pre-ln-effective-depth"), text)) == fires
