"""Issue 9 (deck accuracy) for the variant cards: deepnorm, sandwich-ln, ln-who-uses-what, pre-ln-final-norm.

Three kinds of checks:
* the audit's false penalties (and their Chinese forms) draw no mistake;
* every mistake that was narrowed or rewritten still fires on its plain, explicit, unqualified wrong claim;
* DeepNorm's constants are recognised by value binding, and each card's sources name the points they back.
"""

from __future__ import annotations

import pytest

from lndrill.scoring.engine import score_answer
from lndrill.scoring.selfcheck import deck_texts

CARDS = ("deepnorm", "sandwich-ln", "ln-who-uses-what", "pre-ln-final-norm")


def mistakes(card, text):
    return {m.id for m in score_answer(card, text).mistakes}


def hits(card, text):
    return {p.id for s in score_answer(card, text).sections for p in s.points if p.hit}


# -- correct or defensible statements: no mistake ---------------------------------------------------------

NO_MISTAKE = [
    # deepnorm: Pre-LN is the one that gives up quality, not DeepNorm.
    ("deepnorm", "Unlike Pre-LN, which sacrifices some final quality, DeepNorm keeps Post-LN's quality."),
    ("deepnorm", "Unlike Pre-LN, which sacrifices final quality, DeepNorm keeps Post-LN's quality."),
    ("deepnorm", "与会牺牲一部分最终效果的 Pre-LN 不同，DeepNorm 保住了 Post-LN 的效果。"),
    ("deepnorm", "Pre-LN gives up some of Post-LN's final quality; DeepNorm does not."),
    # deepnorm: the right constants, and GLM-130B's own alpha, are not the swapped values.
    ("deepnorm", "For an encoder-only model, alpha = (2N)^(1/4) and beta = (8N)^(-1/4)."),
    ("deepnorm", "encoder-only 时 α 取 (2N)^{1/4}，β 取 (8N)^{-1/4}。"),
    ("deepnorm", "GLM-130B uses DeepNorm with alpha = (2N)^(1/2)."),
    ("deepnorm", "GLM-130B 用了 DeepNorm，取 alpha = (2N)^(1/2)。"),
    # sandwich-ln: Gemma 2 normalises both ends; OLMo 2 only the output.
    ("sandwich-ln", "Gemma 2 normalises not only the input but also the output."),
    ("sandwich-ln", "Gemma 2 normalises not only the input but also the output of every sublayer."),
    ("sandwich-ln", "Gemma 2 不只归一化输入，也归一化输出。"),
    ("sandwich-ln", "Unlike Gemma 2, which normalises both input and output, OLMo 2 normalises only the branch output."),
    ("sandwich-ln", "和输入输出都做归一化的 Gemma 2 不同，OLMo 2 只对分支输出做归一化。"),
    # sandwich-ln: the stream still grows; the trunk is normalised by Post-LN, not by Sandwich-LN.
    ("sandwich-ln", "Sandwich-LN bounds what each layer adds, but the residual stream still grows with depth."),
    ("sandwich-ln", "Sandwich-LN 限制的是每层加进去的量，残差流本身仍随深度增长。"),
    ("sandwich-ln", "Post-LN normalises the residual stream after every add, while Sandwich-LN leaves the trunk untouched."),
    ("sandwich-ln", "In Post-LN, unlike Sandwich-LN, the residual stream is normalised after every add."),
    ("sandwich-ln", "Post-LN depends heavily on its residual branches (the LN after each add keeps re-weighting the "
                    "sum towards the branch)."),
    # ln-who-uses-what: GLM-130B tried Pre-LN and found it unstable (2210.02414 §2.1).
    ("ln-who-uses-what", "GLM-130B found Pre-LN unstable at 130B scale and chose DeepNorm."),
    ("ln-who-uses-what", "GLM-130B 发现 Pre-LN 在 130B 规模下不稳定，于是选了 DeepNorm。"),
    ("ln-who-uses-what", "GLM-130B tried Pre-LN, Post-LN and Sandwich-LN, and none of them was stable, so it uses "
                         "DeepNorm."),
    ("ln-who-uses-what", "GLM-130B 试过 Pre-LN、Post-LN 和 Sandwich-LN，都没能稳住试跑，所以用了 DeepNorm。"),
    ("ln-who-uses-what", "GLM-130B 的 alpha 取 (2N)^(1/2)。"),
    # ln-who-uses-what: a Pre-LN BERT in an experiment is not a claim about BERT's own placement.
    ("ln-who-uses-what", "BERT-base: Pre-LN with lr 3e-4 and no warm-up reached the same validation loss as Post-LN "
                         "about 40% faster."),
    ("ln-who-uses-what", "BERT-base 上，Pre-LN 用 lr 3e-4、不带 warm-up，比 Post-LN 快约 40% 达到相同的验证损失。"),
    ("ln-who-uses-what", "Unlike BERT, which is Post-LN, LLaMA uses pre-norm RMSNorm."),
    ("ln-who-uses-what", "Pre-norm is older than GPT-2: Baevski and Auli used it in 2018, and GPT-2 made it the "
                         "standard for language models."),
    ("ln-who-uses-what", "前置归一化比 GPT-2 更早：2018 年 Baevski 和 Auli 就用了，GPT-2 让它成了语言模型的标配。"),
    # pre-ln-final-norm: a Pre-LN stack ends with a final LN; Admin's O(N) output change is about Post-LN.
    ("pre-ln-final-norm", "A real Pre-LN stack ends with a final LN too."),
    ("pre-ln-final-norm", "Pre-norm already normalises the input of each sublayer, but the residual stream itself is "
                          "never normalised."),
    ("pre-ln-final-norm", "Pre-norm itself is older than GPT-2: Baevski and Auli's 2018 Transformer language model "
                          "already applied the norm before each sublayer."),
    ("pre-ln-final-norm", "Post-LN depends heavily on its residual branches: a small parameter update becomes an "
                          "output change that grows like O(N) with depth for Post-LN and O(log N) for Pre-LN."),
    ("pre-ln-final-norm", "Unlike Post-LN, Pre-LN needs a final LayerNorm."),
    ("pre-ln-final-norm", "DeepNorm、Admin 等方案既要 Pre-LN 的稳定，又要 Post-LN 的效果（Sandwich-LN 是另一回事：在每个分支末尾"
                          "再加一个 LN，防 FP16 溢出）。"),
    ("pre-ln-final-norm", "Post-LN 重度依赖残差分支，小的参数更新会被放大成很大的输出变化（Post-LN 随深度是 O(N) 量级，"
                          "Pre-LN 只有 O(log N)）。"),
]


@pytest.mark.parametrize(("card_id", "text"), NO_MISTAKE)
def test_correct_statement_draws_no_mistake(deck, card_id: str, text: str) -> None:
    assert mistakes(deck.get(card_id), text) == set()


# -- the real wrong claims still draw the narrowed or new mistakes -----------------------------------------

STILL_FIRES = [
    # deepnorm: swapped constants, found by value binding.
    ("deepnorm", "For an encoder-only model, alpha = (8N)^(-1/4).", "alpha-gets-beta-value"),
    ("deepnorm", "encoder-only 模型的 α 取 (8N)^{-1/4}。", "alpha-gets-beta-value"),
    ("deepnorm", "For an encoder-only model, beta = (2N)^(1/4).", "beta-gets-alpha-value"),
    ("deepnorm", "encoder-only 模型的 β 取 (2N)^{1/4}。", "beta-gets-alpha-value"),
    # deepnorm: DeepNorm itself giving up Post-LN's quality.
    ("deepnorm", "DeepNorm sacrifices Post-LN's final quality for stability.", "gives-up-quality"),
    ("deepnorm", "DeepNorm 牺牲了 Post-LN 的最终效果来换取稳定。", "gives-up-quality"),
    # sandwich-ln: output-only is OLMo 2; both ends is Gemma 2.
    ("sandwich-ln", "Gemma 2 puts the norm only on the branch output.", "gemma-output-only"),
    ("sandwich-ln", "Gemma 2 只在分支输出上做 RMSNorm，没有输入 norm。", "gemma-output-only"),
    ("sandwich-ln", "OLMo 2 puts an RMSNorm on both the input and the output of each sublayer.", "olmo-input-and-output"),
    ("sandwich-ln", "OLMo 2 在每个子层的输入和输出上都加了 RMSNorm。", "olmo-input-and-output"),
    # sandwich-ln: the trunk is not normalised, and the stream is not bounded.
    ("sandwich-ln", "Sandwich-LN also normalises the residual stream, like Post-LN does.", "trunk-normalised"),
    ("sandwich-ln", "Sandwich-LN 也会对残差流做归一化，和 Post-LN 一样。", "trunk-normalised"),
    ("sandwich-ln", "With Sandwich-LN the residual stream stays bounded, so it does not grow with depth.",
     "stream-stays-bounded"),
    ("sandwich-ln", "用了 Sandwich-LN 之后，残差流不会变大了。", "stream-stays-bounded"),
    # ln-who-uses-what: BERT and GLM-130B are not Pre-LN.
    ("ln-who-uses-what", "GLM-130B uses Pre-LN.", "glm-pre"),
    ("ln-who-uses-what", "GLM-130B 采用的是 Pre-LN 结构。", "glm-pre"),
    ("ln-who-uses-what", "BERT uses Pre-LN, like GPT-2.", "bert-pre"),
    ("ln-who-uses-what", "BERT 是 Pre-LN。", "bert-pre"),
    # pre-ln-final-norm: the swapped claims, now with their own explicit matches.
    ("pre-ln-final-norm", "In Post-LN the residual stream grows with depth.", "post-stream-grows"),
    ("pre-ln-final-norm", "Post-LN 的残差流随深度越来越大。", "post-stream-grows"),
    ("pre-ln-final-norm", "In Pre-LN, each block ends with a LayerNorm, so the head already sees normalised features.",
     "pre-already-normalised"),
    ("pre-ln-final-norm", "Pre-LN 的每个块都以 LayerNorm 结尾，所以不需要最后的 LN。", "pre-already-normalised"),
    # pre-ln-final-norm: moved off add-final-ln, whose own match cancelled it in every clause.
    ("pre-ln-final-norm", "Post-LN needs a final LayerNorm before the head.", "post-needs-final-ln"),
    ("pre-ln-final-norm", "Post-LN 也需要最后的 LN。", "post-needs-final-ln"),
]


@pytest.mark.parametrize(("card_id", "text", "mistake"), STILL_FIRES)
def test_wrong_claim_still_draws_its_mistake(deck, card_id: str, text: str, mistake: str) -> None:
    assert mistake in mistakes(deck.get(card_id), text)


# -- DeepNorm's constants by value binding --------------------------------------------------------------

@pytest.mark.parametrize(("text", "point", "expected"), [
    ("alpha = (2N)^(1/4)", "alpha-value", True),
    ("α 取 (2N)^{1/4}", "alpha-value", True),
    ("alpha is (2N)^0.25", "alpha-value", True),
    ("编码器 N 层的时候 α 取 (2N) 的四分之一次方。", "alpha-value", True),
    ("alpha = (8N)^(-1/4)", "alpha-value", False),
    ("GLM-130B sets alpha = (2N)^(1/2).", "alpha-value", False),
    ("beta = (8N)^(-1/4)", "beta-value", True),
    ("β 取 (8N)^{-1/4}", "beta-value", True),
    ("beta = 1/(8N)^(1/4)", "beta-value", True),
    ("beta = (2N)^(1/4)", "beta-value", False),
    # β's value in the same clause must not count for α, nor α's for β.
    ("α 取 (8N) 的负四分之一次方，β 取 (2N) 的四分之一次方。", "alpha-value", False),
    ("α 取 (8N) 的负四分之一次方，β 取 (2N) 的四分之一次方。", "beta-value", False),
    ("Decoder-only models use alpha = (2M)^(1/4) and beta = (8M)^(-1/4).", "decoder-m", True),
])
def test_deepnorm_constants_by_value(deck, text: str, point: str, expected: bool) -> None:
    assert (point in hits(deck.get("deepnorm"), text)) is expected


# -- Gemma 2 / OLMo 2 are subjects of sandwich-ln; their placements are still recognised in plain words --------

@pytest.mark.parametrize(("text", "point"), [
    ("Gemma 2 uses pre-norm and post-norm RMSNorm.", "gemma2"),
    ("Gemma 2 is sandwich-style: RMSNorm before and after each sublayer.", "gemma2"),
    ("Gemma 2 也是三明治结构。", "gemma2"),
    ("Gemma 2 normalises not only the input but also the output.", "gemma2"),
    ("OLMo 2 normalises the output of each sublayer instead of its input.", "olmo2"),
    ("OLMo 2 只在子层输出上做 RMSNorm。", "olmo2"),
])
def test_sandwich_relatives_are_recognised(deck, text: str, point: str) -> None:
    assert point in hits(deck.get("sandwich-ln"), text)


# -- the cards' own text, and every other card's correct text, draws none of these cards' mistakes ------------

@pytest.mark.parametrize("card_id", CARDS)
def test_own_model_answers_hit_every_point_without_mistakes(deck, card_id: str) -> None:
    card = deck.get(card_id)
    for lang in ("en", "zh"):
        result = score_answer(card, card.model_answer.get(lang))
        assert not result.mistakes, (lang, [(m.id, m.evidence) for m in result.mistakes])
        missed = [p.id for s in result.sections for p in s.points if not p.hit]
        assert not missed, (lang, missed)


@pytest.mark.parametrize("card_id", CARDS)
def test_deck_text_draws_none_of_this_cards_mistakes(deck, card_id: str) -> None:
    card = deck.get(card_id)
    bad = []
    for other in deck.cards.values():
        for name, text in deck_texts(other):
            for m in score_answer(card, text).mistakes:
                bad.append((other.id, name, m.id, m.evidence))
    assert not bad, bad


# -- sources: a section for each entry, every point backed, GLM-130B facts cite GLM-130B -----------------------

@pytest.mark.parametrize("card_id", CARDS)
def test_sources_have_sections_and_cover_every_point(deck, card_id: str) -> None:
    card = deck.get(card_id)
    assert all(src.section.strip() for src in card.sources)
    backed = {pid for src in card.sources for pid in src.points}
    assert {p.id for p in card.points()} <= backed, {p.id for p in card.points()} - backed


@pytest.mark.parametrize(("card_id", "points"), [
    ("deepnorm", {"glm", "glm-alpha"}),
    ("ln-who-uses-what", {"glm-deepnorm", "glm-alpha", "glm-why"}),
])
def test_glm_facts_cite_glm_130b(deck, card_id: str, points: set[str]) -> None:
    card = deck.get(card_id)
    for pid in points:
        cited = {src.arxiv for src in card.sources if pid in src.points}
        assert "2210.02414" in cited, (pid, cited)


def test_pre_norm_history_is_not_credited_to_gpt2(deck) -> None:
    card = deck.get("ln-who-uses-what")
    for m in (m for p in card.points() for m in p.mistakes):
        assert "arrived with GPT-2" not in m.explanation.en
        assert "GPT-2 才开始用" not in m.explanation.zh
    assert "1809.10853" in {src.arxiv for src in card.sources}
