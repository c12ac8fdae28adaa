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
]


@pytest.mark.parametrize("mistake,text,fires", DEPTH_MISTAKES)
def test_depth_mistake(deck, mistake, text, fires):
    assert (mistake in mistakes(deck.get("pre-ln-effective-depth"), text)) == fires
