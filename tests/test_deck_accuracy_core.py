"""Issue 9, deck accuracy for the core cards: pre-vs-post-ln, warmup-for-pre-ln, post-ln-warmup,
admin-amplification, pre-ln-effective-depth.

Two kinds of test:

* correct or defensible statements (the audit's "false penalties", in English and Chinese, plus a few more
  of the same kind) must draw no mistake on the card;
* for every mistake whose recogniser was narrowed or rewritten, its real wrong claim, said plainly and
  without qualification, must still draw that mistake.
"""

from __future__ import annotations

import pytest

from lndrill.scoring.engine import score_answer


def mistakes(card, text: str) -> set[str]:
    return {m.id for m in score_answer(card, text).mistakes}


# --- correct statements: no mistake -------------------------------------------------------------------

CORRECT = [
    # pre-vs-post-ln, from the audit
    ("pre-vs-post-ln", "In low-resource translation, Pre-LN gives better BLEU than Post-LN (Nguyen and Salazar 2019)."),
    ("pre-vs-post-ln", "在低资源翻译上，Pre-LN 的 BLEU 比 Post-LN 更好（Nguyen 和 Salazar 2019）。"),
    ("pre-vs-post-ln", "For very deep models Pre-LN gives better results than Post-LN, because deep Post-LN fails to converge."),
    ("pre-vs-post-ln", "对很深的模型，Pre-LN 的效果比 Post-LN 更好，因为深层 Post-LN 无法收敛。"),
    ("pre-vs-post-ln", "Pre-LN LLMs still use a short warm-up in practice, although Pre-LN does not strictly need it."),
    ("pre-vs-post-ln", "实践中 Pre-LN 大模型仍然会用一小段 warm-up，尽管 Pre-LN 并不严格需要它。"),
    ("pre-vs-post-ln", "In Pre-LN the branch part of the gradient still passes through each sublayer's input LN Jacobian, "
                       "but the identity term does not."),
    ("pre-vs-post-ln", "在 Pre-LN 中，梯度的分支部分仍要经过每个子层输入处 LN 的雅可比，但恒等项不经过。"),
    ("pre-vs-post-ln", "Pre-LN keeps LN off the residual path."),
    ("pre-vs-post-ln", "Pre-LN 不把 LN 放在残差主干上。"),
    # pre-vs-post-ln, more of the same kind
    ("pre-vs-post-ln", "Pre-LN with a final LN gives better results."),
    ("pre-vs-post-ln", "Pre-LN can diverge at a very high learning rate."),
    ("pre-vs-post-ln", "Pre-LN's early layers get larger gradients than its later layers."),
    ("pre-vs-post-ln", "In Pre-LN the contribution of deep layers is limited."),
    ("pre-vs-post-ln", "BERT is a Post-LN language model."),
    ("pre-vs-post-ln", "Post-LN trained without warm-up reaches only 8.45 BLEU."),
    ("pre-vs-post-ln", "Post-LN can be trained without warm-up if the learning rate is small enough, only more slowly."),
    ("pre-vs-post-ln", "Post-LN puts an LN on the identity path."),
    ("pre-vs-post-ln", "Pre-LN does not diverge without warm-up."),
    ("pre-vs-post-ln", "At a very high learning rate a Pre-LN model can diverge without warm-up too."),
    ("pre-vs-post-ln", "GLM-130B uses DeepNorm, a Post-LN variant."),
    ("pre-vs-post-ln", "When both train, Post-LN usually ends slightly better than Pre-LN."),
    # pre-ln-effective-depth
    ("pre-ln-effective-depth", "For very deep models Pre-LN gives better results than Post-LN, because deep Post-LN fails to converge."),
    ("pre-ln-effective-depth", "对很深的模型，Pre-LN 的效果比 Post-LN 更好，因为深层 Post-LN 无法收敛。"),
    ("pre-ln-effective-depth", "In low-resource translation, Pre-LN gives better BLEU than Post-LN."),
    ("pre-ln-effective-depth", "In Post-LN the gradient norm grows with the layer index."),
    ("pre-ln-effective-depth", "Post-LN 中梯度范数随层号增大。"),
    ("pre-ln-effective-depth", "NormFormer keeps Pre-LN and adds an LN after attention, because Pre-LN's early layers get much "
                               "larger gradients than later ones."),
    ("pre-ln-effective-depth", "Pre-LN 浅层的梯度比深层大得多。"),
    # admin-amplification
    ("admin-amplification", "For very deep models Pre-LN gives better results than Post-LN, because deep Post-LN fails to converge."),
    ("admin-amplification", "对很深的模型，Pre-LN 的效果比 Post-LN 更好，因为深层 Post-LN 无法收敛。"),
    ("admin-amplification", "Unbalanced gradients are not the root cause of Post-LN's instability, according to Admin."),
    ("admin-amplification", "Takase et al. argue that Post-LN's instability is caused by gradient vanishing."),
    ("admin-amplification", "Deep Post-LN suffers from vanishing gradients in the lower layers."),
    ("admin-amplification", "Pre-LN is sensitive to the learning rate at large scale."),
    # post-ln-warmup
    ("post-ln-warmup", "Post-LN can be trained without warm-up if the learning rate is small enough, only more slowly."),
    ("post-ln-warmup", "如果学习率足够小，Post-LN 不用 warm-up 也能训练，只是更慢。"),
    ("post-ln-warmup", "Post-LN trained without warm-up reaches only 8.45 BLEU."),
    ("post-ln-warmup", "Pre-LN can diverge at a very high learning rate from step 0."),
    # warmup-for-pre-ln, from the audit
    ("warmup-for-pre-ln", "In practice, large Pre-LN LLMs trained at a high peak learning rate still need warm-up."),
    ("warmup-for-pre-ln", "实践中，用高峰值学习率训练的大型 Pre-LN 大模型仍然需要 warm-up。"),
    ("warmup-for-pre-ln", "At a very high learning rate a Pre-LN model can diverge without warm-up too."),
    ("warmup-for-pre-ln", "在很高的学习率下，Pre-LN 模型不用 warm-up 也可能发散。"),
    # warmup-for-pre-ln, more of the same kind
    ("warmup-for-pre-ln", "Pre-LN does not diverge without warm-up."),
    ("warmup-for-pre-ln", "Pre-LN 不预热也不会发散。"),
    ("warmup-for-pre-ln", "Pre-LN trained without warm-up reaches comparable BLEU."),
]


@pytest.mark.parametrize(("card_id", "text"), CORRECT)
def test_correct_statement_draws_no_mistake(deck, card_id: str, text: str) -> None:
    assert mistakes(deck.get(card_id), text) == set()


# --- plain wrong claims: the narrowed mistake still fires ----------------------------------------------

WRONG = [
    # pre-vs-post-ln
    ("pre-vs-post-ln", "post-order-swapped", "Pre-LN normalizes the sum after the residual add."),
    ("pre-vs-post-ln", "post-order-swapped", "Pre-LN 是残差相加之后再归一化。"),
    ("pre-vs-post-ln", "pre-order-swapped", "Post-LN applies LN first, before the sublayer."),
    ("pre-vs-post-ln", "pre-order-swapped", "Post-LN 是先做归一化再进子层的。"),
    ("pre-vs-post-ln", "pre-grad-through-ln", "In Pre-LN the gradient is multiplied by the LN Jacobian at every layer."),
    ("pre-vs-post-ln", "pre-grad-through-ln", "Pre-LN 的梯度每一层都要乘 LN 的雅可比。"),
    ("pre-vs-post-ln", "pre-grad-through-ln", "Pre-LN puts LayerNorm on the residual path."),
    ("pre-vs-post-ln", "pre-large-output-grad", "Pre-LN's gradients near the output are large at initialisation."),
    ("pre-vs-post-ln", "pre-large-output-grad", "Pre-LN 靠近输出层的梯度很大。"),
    ("pre-vs-post-ln", "post-no-warmup", "Post-LN does not need warm-up."),
    ("pre-vs-post-ln", "post-no-warmup", "Post-LN 不需要 warm-up。"),
    ("pre-vs-post-ln", "post-no-warmup", "Post-LN trains fine without warm-up."),
    ("pre-vs-post-ln", "pre-needs-warmup", "Pre-LN needs warm-up."),
    ("pre-vs-post-ln", "pre-needs-warmup", "Pre-LN 需要 warm-up。"),
    ("pre-vs-post-ln", "pre-needs-warmup", "Pre-LN diverges without warm-up."),
    ("pre-vs-post-ln", "pre-needs-warmup", "Pre-LN 不预热就会发散。"),
    ("pre-vs-post-ln", "pre-needs-warmup", "Pre-LN cannot be trained without warm-up."),
    ("pre-vs-post-ln", "pre-depth-hard", "Deep Pre-LN stacks are hard to train."),
    ("pre-vs-post-ln", "pre-depth-hard", "Pre-LN 层数一深就很难训练。"),
    ("pre-vs-post-ln", "pre-no-identity-path", "Pre-LN does not have an identity path."),
    ("pre-vs-post-ln", "pre-no-identity-path", "Pre-LN 的残差不是恒等通道。"),
    ("pre-vs-post-ln", "post-identity-path", "Post-LN has an identity residual path."),
    ("pre-vs-post-ln", "post-identity-path", "Post-LN 的残差是恒等通道。"),
    ("pre-vs-post-ln", "pre-better-final", "Pre-LN reaches a better final performance than Post-LN."),
    ("pre-vs-post-ln", "pre-better-final", "Pre-LN 的最终效果比 Post-LN 更好。"),
    ("pre-vs-post-ln", "post-lower-ceiling", "Post-LN has a lower ceiling than Pre-LN."),
    ("pre-vs-post-ln", "post-lower-ceiling", "Post-LN 的上限更低。"),
    ("pre-vs-post-ln", "post-stable", "Post-LN is more stable than Pre-LN."),
    ("pre-vs-post-ln", "post-stable", "Post-LN 比 Pre-LN 更稳定。"),
    ("pre-vs-post-ln", "llm-choose-post", "LLaMA and GPT-3 use Post-LN."),
    ("pre-vs-post-ln", "llm-choose-post", "LLaMA 等大模型用的是 Post-LN。"),
    # pre-ln-effective-depth
    ("pre-ln-effective-depth", "post-stream-grows", "Post-LN's residual stream grows with depth."),
    ("pre-ln-effective-depth", "post-stream-grows", "Post-LN 的残差流随深度越来越大。"),
    ("pre-ln-effective-depth", "pre-better-final", "Pre-LN ends better than Post-LN."),
    ("pre-ln-effective-depth", "pre-better-final", "Pre-LN 的最终效果比 Post-LN 更好。"),
    ("pre-ln-effective-depth", "mix-ln-order-swapped", "Mix-LN uses Pre-LN in the early layers."),
    ("pre-ln-effective-depth", "mix-ln-order-swapped", "Mix-LN 在浅层用 Pre-LN。"),
    ("pre-ln-effective-depth", "mix-ln-order-swapped", "Mix-LN puts Pre-LN in the shallow layers and Post-LN in the deep layers."),
    # admin-amplification
    ("admin-amplification", "pre-heavy-dependency", "Pre-LN depends heavily on its residual branches."),
    ("admin-amplification", "pre-heavy-dependency", "Pre-LN 对残差分支依赖很重。"),
    ("admin-amplification", "pre-heavy-dependency", "Pre-LN is very sensitive to small parameter updates."),
    ("admin-amplification", "gradient-is-root-cause", "Admin shows that Post-LN's instability is caused by gradient vanishing."),
    ("admin-amplification", "gradient-is-root-cause", "Admin 指出 Post-LN 训练不稳定是梯度消失导致的。"),
    ("admin-amplification", "gradient-is-root-cause", "Liu et al. find that the root cause is gradient vanishing."),
    ("admin-amplification", "pre-better-final", "Pre-LN ends better than Post-LN."),
    ("admin-amplification", "pre-better-final", "Pre-LN 的最终效果比 Post-LN 更好。"),
    # post-ln-warmup
    ("post-ln-warmup", "pre-large-grad-init", "Pre-LN's gradients near the output are large at initialisation."),
    ("post-ln-warmup", "pre-large-grad-init", "初始化时 Pre-LN 靠近输出层的梯度很大。"),
    ("post-ln-warmup", "post-no-warmup", "Post-LN does not need warm-up."),
    ("post-ln-warmup", "post-no-warmup", "Post-LN 不需要 warm-up。"),
    ("post-ln-warmup", "post-no-warmup", "Post-LN trains fine without warm-up."),
    # warmup-for-pre-ln
    ("warmup-for-pre-ln", "pre-diverges-without", "Pre-LN diverges without warm-up."),
    ("warmup-for-pre-ln", "pre-diverges-without", "Pre-LN will diverge without warm-up."),
    ("warmup-for-pre-ln", "pre-diverges-without", "Pre-LN 不预热就会发散。"),
    ("warmup-for-pre-ln", "pre-needs-it", "Pre-LN always needs warm-up."),
    ("warmup-for-pre-ln", "pre-needs-it", "Pre-LN must use warm-up."),
    ("warmup-for-pre-ln", "pre-needs-it", "Pre-LN 离不开 warm-up。"),
    ("warmup-for-pre-ln", "pre-needs-it", "Pre-LN 必须用 warm-up。"),
]


@pytest.mark.parametrize(("card_id", "mistake_id", "text"), WRONG)
def test_plain_wrong_claim_still_draws_the_mistake(deck, card_id: str, mistake_id: str, text: str) -> None:
    assert mistake_id in mistakes(deck.get(card_id), text)


# --- the cards themselves ----------------------------------------------------------------------------

CARDS = ["pre-vs-post-ln", "warmup-for-pre-ln", "post-ln-warmup", "admin-amplification", "pre-ln-effective-depth"]


@pytest.mark.parametrize("card_id", CARDS)
def test_every_point_is_backed_by_a_source_with_a_section(deck, card_id: str) -> None:
    card = deck.get(card_id)
    backed = {pid for src in card.sources for pid in src.points}
    points = {p.id for s in card.sections for p in s.points}
    assert points <= backed, f"points without a source: {sorted(points - backed)}"
    assert all(src.section.strip() for src in card.sources)


@pytest.mark.parametrize("card_id", CARDS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_model_answer_hits_every_point_and_draws_no_mistake(deck, card_id: str, lang: str) -> None:
    card = deck.get(card_id)
    r = score_answer(card, getattr(card.model_answer, lang))
    assert [p.id for s in r.sections for p in s.points if not p.hit] == []
    assert {m.id for m in r.mistakes} == set()


def test_glm_and_sandwich_are_not_called_both_worlds(deck) -> None:
    claim = next(p for s in deck.get("pre-vs-post-ln").sections for p in s.points if p.id == "variants-both").claim
    assert "DeepNorm" in claim.en and "Admin" in claim.en and "Mix-LN" in claim.en
    assert "FP16" in claim.en and "FP16" in claim.zh


def test_identity_path_claim_names_the_final_ln(deck) -> None:
    card = deck.get("pre-vs-post-ln")
    claim = next(p for s in card.sections for p in s.points if p.id == "pre-identity-path").claim
    assert "final LN" in claim.en and "final LN" in claim.zh
    assert "unscaled by any" not in card.model_answer.en and "不经任何" not in card.model_answer.zh
