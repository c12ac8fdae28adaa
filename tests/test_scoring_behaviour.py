"""Behaviour of the scorer a user would notice: attribution, negation, formulas, languages, junk."""

from __future__ import annotations

import pytest
from helpers import DEEPNORM_COMPLETE

from lndrill.display import capped_note
from lndrill.scoring.engine import rubric_for, score_answer
from lndrill.scoring.formula import canonical, find_formulas
from lndrill.scoring.matcher import Analysis
from lndrill.scoring.normalize import prepare
from lndrill.scoring.result import to_interviewer_scale


def hits(card, text: str) -> set[str]:
    r = score_answer(card, text)
    return {p.id for s in r.sections for p in s.points if p.hit}


def mistakes(card, text: str) -> set[str]:
    return {m.id for m in score_answer(card, text).mistakes}


def read_as(card, text: str) -> set[str]:
    """Every mistake recogniser that fires (the score charges one statement read by two recognisers once)."""
    from lndrill.scoring.engine import mistakes_in
    return {m.id for m in mistakes_in(card, text, once_per_statement=False)}


def is_partner(text: str, name: str) -> bool:
    """Is the first "<name>-LN" in `text` a comparison partner rather than a subject?"""
    from lndrill.scoring.attribution import is_contrast
    from lndrill.scoring.lexicon import tokenize

    tokens = tokenize(text.lower())
    keys = [t.key for t in tokens]
    start = next(i for i in range(len(keys)) if keys[i : i + 2] == [name, "ln"])
    return is_contrast(tokens, start, start + 2, text.lower())


def test_empty_answer_scores_exactly_zero(main_card) -> None:
    r = score_answer(main_card, "")
    assert r.score == 0
    assert not any(p.hit for s in r.sections for p in s.points)
    assert r.mistakes == ()


@pytest.mark.parametrize("text", [
    "Post-LN needs warm-up.",
    "Warm-up is required for Post-LN.",
    "Post-LN cannot be trained without warm-up.",
    "Without warm-up, Post-LN diverges.",
    "Post-LN 需要 warm-up。",
    "Post-LN 不做预热就会发散。",
    "Post-LN needs warmpu.",
])
def test_post_needs_warmup_phrasings_hit(main_card, text: str) -> None:
    assert "post-needs-warmup" in hits(main_card, text)
    assert not mistakes(main_card, text)


@pytest.mark.parametrize("text", [
    "Post-LN does not need warm-up.",
    "Post-LN trains fine without warm-up.",
    "Post-LN 不需要 warm-up。",
])
def test_denying_post_ln_warmup_is_a_mistake(main_card, text: str) -> None:
    assert "post-needs-warmup" not in hits(main_card, text)
    assert "post-no-warmup" in mistakes(main_card, text)


@pytest.mark.parametrize("text", [
    "Pre-LN can drop warm-up.",
    "Pre-LN does not need warm-up.",
    "Pre-LN trains without warm-up.",
    "Pre-LN 可以去掉 warm-up。",
    "Pre-LN 不用预热。",
])
def test_pre_ln_without_warmup_is_a_hit(main_card, text: str) -> None:
    assert "pre-no-warmup" in hits(main_card, text)
    assert not mistakes(main_card, text)


def test_pre_ln_needs_warmup_is_a_mistake(main_card) -> None:
    assert "pre-needs-warmup" in mistakes(main_card, "Pre-LN needs warm-up.")


def test_identity_path_must_be_attributed_to_pre_ln(main_card) -> None:
    assert "pre-identity-path" in hits(main_card, "Pre-LN has an identity residual path.")
    assert "pre-identity-path" not in hits(main_card, "Post-LN has an identity residual path.")
    assert "post-identity-path" in mistakes(main_card, "Post-LN has an identity residual path.")


def test_comparisons_do_not_steal_the_subject(main_card) -> None:
    assert "pre-stable" in hits(main_card, "Pre-LN is more stable than Post-LN.")
    assert "pre-stable" in hits(main_card, "Unlike Post-LN, Pre-LN is stable to train.")
    assert "pre-stable" in hits(main_card, "与 Post-LN 相比，Pre-LN 训练更稳定。")


def test_subject_carries_over_to_the_next_sentence(main_card) -> None:
    text = "In Post-LN the LayerNorm is on the main path. So it needs warm-up."
    assert "post-needs-warmup" in hits(main_card, text)


def test_fully_swapped_answer_scores_near_zero_despite_every_keyword(main_card) -> None:
    swapped = (
        "Post-LN: y = x + F(LN(x)). Pre-LN: y = LN(x + F(x)). Post-LN has an identity path and needs no "
        "warm-up; Pre-LN passes its gradient through LN at every layer and needs warm-up. Pre-LN reaches "
        "the better final quality, and Post-LN is the stable one."
    )
    right = (
        "Pre-LN: y = x + F(LN(x)). Post-LN: y = LN(x + F(x)). Pre-LN has an identity path and needs no "
        "warm-up; Post-LN passes its gradient through LN at every layer and needs warm-up. Post-LN reaches "
        "the better final quality, and Pre-LN is the stable one."
    )
    assert score_answer(main_card, swapped).score <= 5
    assert score_answer(main_card, right).score >= 50


@pytest.mark.parametrize("formula", [
    "LN(x + F(x))",
    "y = LayerNorm(x + Sublayer(x))",
    "out = Norm(F(x) + x)",
    "x_{l+1} = LN(x_l + F(x_l))",
    r"$x_{l+1} = \mathrm{LayerNorm}(x_l + \mathcal{F}(x_l))$",
    r"\text{LN}\left(h + \text{Attn}(h)\right)",
    "输出 = LN(x + 子层(x))",
    "ｙ＝ＬＮ（ｘ＋Ｆ（ｘ））",
    "h_{l+1} = LN(h_l + FFN(h_l))",
    "y = LN(x + Block(x))",
    "x = self.norm1(x + self._sa_block(x))",  # PyTorch's own layer: a code name's words give its role
    "x = norm3(x + ff_block2(x))",
    "return self.norm(x + self.dropout(sublayer(x)))",  # dropout on the branch's output changes no structure
])
def test_post_ln_formula_variants_are_recognised(main_card, formula: str) -> None:
    assert "post-formula" in hits(main_card, f"Post-LN: {formula}")
    assert "post-formula-given-for-pre" in mistakes(main_card, f"Pre-LN: {formula}")


@pytest.mark.parametrize("formula", [
    "x + F(LN(x))",
    "y = F(LN(x)) + x",
    "x_{l+1} = x_l + SubLayer(LayerNorm(x_l))",
    r"x_{l+1} = x_l + \mathcal{F}(\mathrm{LN}(x_l))",
    "h + FFN(Norm(h))",
    "x = x + self._ff_block(self.norm2(x))",
    "h = x + self.self_attn(self.input_layernorm(x))",
    "return x + self.dropout(sublayer(self.norm(x)))",
    "x = x + self.drop_path(self.attn(self.norm1(x)))",
])
def test_pre_ln_formula_variants_are_recognised(main_card, formula: str) -> None:
    assert "pre-formula" in hits(main_card, f"Pre-LN: {formula}")


def test_a_list_items_dash_is_no_minus_before_its_formula(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "post-formula" in hits(card, "Post-LN, notes:\n  - LN(x + F(x))\n  - LN sits on the residual path")
    admin = _card(deck, "admin-amplification")
    assert "admin-init" in hits(admin, "fix = Admin\n  - LN(x_{i-1} * w_i + f_i(x_{i-1}))\n  - w_i from a profiling pass")
    # a minus inside a line is still a minus
    assert "post-formula" not in hits(card, "Post-LN: y = -LN(x + F(x))")


def test_dropout_around_the_residual_is_no_branch(main_card) -> None:
    # dropout wraps a branch; on the stream alone it is no sublayer, and no Pre-LN formula
    assert "pre-formula" not in hits(main_card, "Pre-LN: x + self.dropout(x)")
    assert "pre-formula" not in hits(main_card, "Pre-LN: x + self.dropout(self.norm(x))")


@pytest.mark.parametrize("text", [
    "Pre-LN you normalise first, so it's x plus F(LN(x)).",
    "Pre-LN 的公式是 x 加上 F(LN(x))。",
])
def test_spoken_plus_before_a_call_makes_a_formula(main_card, text: str) -> None:
    assert "pre-formula" in hits(main_card, text)


def test_plus_before_words_leaves_the_formula_alone(main_card) -> None:
    assert "pre-formula" in hits(main_card, "Pre-LN is x ← x + F(LN(x)) plus a final LN.")


def test_a_pronoun_after_a_run_in_heading_takes_the_nearer_subject(main_card) -> None:
    text = ("**Why large models chose Pre-LN.** Post-LN's big gradients make early training fragile: it needs warm-up "
            "and careful learning rates.")
    assert "pre-needs-warmup" not in mistakes(main_card, text)
    assert "post-needs-warmup" in hits(main_card, text)
    # with no other subject in the sentence the heading still names what "it" is
    assert "pre-needs-warmup" in mistakes(main_card, "**Pre-LN.** Normalise first: it needs warm-up, always.")


@pytest.mark.parametrize("text", [
    "paper (Post-LN): x = LN(x + F(x))   this repo (Pre-LN): x = x + F(LN(x))",
    "Original (Post-LN): LN(x + F(x)), modern (Pre-LN): x + F(LN(x))",
    "$$\\text{paper (Post-LN):}\\quad x_{l+1} = \\mathrm{LN}(x_l + F(x_l)) \\qquad "
    "\\text{this repo (Pre-LN):}\\quad x_{l+1} = x_l + F(\\mathrm{LN}(x_l))$$",
])
def test_a_name_in_brackets_before_a_colon_labels_the_formula_after_it(main_card, text: str) -> None:
    assert "pre-formula-given-for-post" not in mistakes(main_card, text)
    assert {"pre-formula", "post-formula"} <= hits(main_card, text)


def test_a_subject_said_to_be_alike_shares_the_credit_not_the_blame(deck) -> None:
    who = _card(deck, "ln-who-uses-what")
    assert "llama-rms" in hits(who, "Similar to Llama, Gemma and most other LLMs, OLMo 2 switched from LayerNorm to RMSNorm.")
    assert "llama-rms" in hits(who, "Like Llama, OLMo 2 uses RMSNorm.")
    assert "llama-rms" not in hits(who, "Unlike Llama, OLMo 2 uses RMSNorm.")
    # the likeness earns the other subject's point; it does not excuse what is said of the subject itself
    warm = _card(deck, "warmup-for-pre-ln")
    assert mistakes(warm, "Pre-LN 和 Post-LN 一样都离不开 warm-up。")


def test_relative_alone_compares_nothing(deck) -> None:
    # "relative to X" sets X aside; a label "Relatives:" does not
    sandwich = _card(deck, "sandwich-ln")
    assert "olmo-input-and-output" in mistakes(
        sandwich, "Relatives: OLMo 2 normalises both the input and the output of every sublayer with RMSNorm.")
    main = _card(deck, "pre-vs-post-ln")
    assert "post-large-output-grad" in hits(main, "Post-LN's gradient near the output is large relative to Pre-LN.")


def test_a_chinese_denial_in_a_modifier_after_the_word_describes_the_head_noun(deck) -> None:
    # "不可撼动的标准配置": "unshakable" describes the standard set-up; warm-up itself is affirmed, not dropped
    warm = _card(deck, "warmup-for-pre-ln")
    assert "pre-can-drop" not in hits(warm, "LayerNorm + AdamW + Linear Warmup 已然成为一套不可撼动的标准配置。")
    assert "pre-can-drop" not in hits(warm, "对 Pre-LN 来说，warm-up 已经成为不可动摇的标准做法。")
    # a 的 that closes the predicate, a denied copula, and a plain denial still deny it
    assert "pre-can-drop" in hits(warm, "Pre-LN 的 warm-up 是不需要的。")
    assert "pre-can-drop" in hits(warm, "Pre-LN 的 warm-up 不是必需的步骤。")
    assert "pre-can-drop" in hits(warm, "Pre-LN 的 warm-up 不再必要。")


def test_a_heading_glossed_in_brackets_still_says_what_the_lines_under_it_use(deck) -> None:
    # "Post-Norm (Original Transformer)" over "Used in BERT": the brackets gloss the heading, which names the placement
    who = _card(deck, "ln-who-uses-what")
    for heading in ("Post-Norm (Original Transformer)", "Post-Norm (the first one)", "Post-Norm"):
        assert "bert-post" in hits(who, f"{heading}\n\nUsed in BERT and the original paper.\n")
    # a heading that names a model of its own outside the brackets says what that model uses
    assert "bert-post" not in hits(who, "GPT-2 and Post-Norm\n\nUsed in BERT and the original paper.\n")


def test_a_name_after_a_chinese_clause_of_time_is_not_the_subject_of_the_parts_before_it(deck) -> None:
    # "…，用 FP16 训练时 Pre-LN …": Pre-LN is the subject of the clause after 时, not of "来源：CogView" two parts before
    sandwich = _card(deck, "sandwich-ln")
    text = "来源：CogView，一个 4B 参数的 text-to-image model，用 FP16 训练时 Pre-LN 深层的数值越来越大，overflow 成 NaN。"
    assert {"cogview", "fp16-overflow"} <= hits(sandwich, text)
    # the name still opens its own clause: what follows it is said of Pre-LN
    main = _card(deck, "pre-vs-post-ln")
    assert "pre-needs-warmup" in mistakes(main, "模型很深，训练时 Pre-LN 必须用 warm-up，否则一定发散。")


def test_a_displayed_formula_carries_on_the_clause_left_open_before_it(deck) -> None:
    # "T5 ...；LLaMA 用" stops open over a displayed formula: the formula and the line after it are LLaMA's
    who = _card(deck, "ln-who-uses-what")
    formula = "$$\\mathrm{RMSNorm}(a)_i = \\frac{a_i}{\\mathrm{RMS}(a)}\\, g_i,$$"
    text = f"T5 用简化 LN；LLaMA 1/2 用\n{formula}\n放在每个 sublayer 的 input 端。\n"
    assert "llama-rms" in hits(who, text)
    text = f"The simplified LN is T5's; LLaMA 1/2 uses\n{formula}\nat the input of every sublayer.\n"
    assert "llama-rms" in hits(who, text)
    # an open clause naming two models leaves the formula to nobody
    assert "llama-rms" not in hits(who, f"T5 用简化 LN；LLaMA 和 GPT-2 用\n{formula}\n放在每个 sublayer 的 input 端。\n")


def test_items_run_into_a_sentence_are_clauses_of_their_own(deck) -> None:
    # "(1) ... the original transformer, (2) the Pre-Norm, ...": the Pre-Norm is item (2)'s, not the original's
    who = _card(deck, "ln-who-uses-what")
    text = ("Gemma 3 differs from (1) the Post-Norm used in the original transformer, (2) the Pre-Norm, which GPT-2 "
            "popularised, and (3) the Post-Norm flavour of OLMo 2.")
    assert "orig-pre" not in mistakes(who, text)
    assert "transformer-post" in hits(who, text)
    # one bracketed number alone is no run of items: the clause is still the original Transformer's
    assert "orig-pre" in mistakes(who, "The original transformer (1) used the Pre-Norm placement.")


def test_nested_items_take_the_subject_of_the_item_line_they_hang_under(deck) -> None:
    # "- **Post-Norm**" with an indented picture naming both placements, then "  - **问题**: ..." under it
    main = _card(deck, "pre-vs-post-ln")
    text = ("### Pre-Norm vs. Post-Norm\n\n- **Post-Norm (原始方案)**\n  LayerNorm 在残差相加之后。\n"
            "  ![Post-LN vs Pre-LN](images/pre-norm-vs-post-norm.png)\n  - **问题**: 为了使其收敛，通常需要一个精心设计的学习率预热（warm-up）阶段。\n")
    assert "post-needs-warmup" in hits(main, text)
    # a label item nested under the item ("  - **优势**:") heads its own items with the item's subject
    text = ("- **Pre-Norm (现代标准)**\n  LayerNorm 移到子层的输入端。\n  - **优势**:\n"
            "    1. 残差路径上没有任何操作，梯度可以无阻碍地传播。\n")
    assert "pre-identity-path" in hits(main, text)


def test_an_equation_set_beside_a_comparison_belongs_to_it(deck) -> None:
    # "Unlike DeepNet's own choice, alpha = (2N)^(1/4), GLM picked ...": the value is DeepNet's, not GLM-130B's
    who = _card(deck, "ln-who-uses-what")
    text = ("GLM-130B uses DeepNorm with alpha = (2N)^(1/2). Unlike DeepNet's own decoder-only choice, "
            "alpha = (2N)^(1/4), GLM picked a larger constant.")
    assert "glm-deepnet-alpha" not in mistakes(who, text)
    assert "glm-alpha" in hits(who, text)
    # the value said of GLM itself after the comparison is still its own
    assert "glm-deepnet-alpha" in mistakes(who, "Unlike the original Transformer, GLM-130B uses DeepNorm with alpha = (2N)^(1/4).")


def test_a_name_joined_to_a_word_of_level_is_the_level_reached(deck) -> None:
    # "Pre-LN with no warm-up reached Post-LN-level BLEU": the result is Pre-LN's, Post-LN is the level it matched
    card = _card(deck, "warmup-for-pre-ln")
    text = "Pre-LN with no warm-up reached Post-LN-level BLEU on IWSLT14 (about 34) sooner."
    assert "iwslt-comparable" in hits(card, text)
    # the name alone before its noun is still the subject: Post-LN without warm-up earns nothing
    assert "iwslt-comparable" not in hits(card, "Post-LN with no warm-up reached comparable BLEU on IWSLT14 (about 34).")


def test_a_code_block_under_an_open_title_line_is_read_on_its_own(deck) -> None:
    # a long title without a full stop, then a fenced block: the code is no displayed formula inside the title's sentence
    deepnorm = _card(deck, "deepnorm")
    text = ("DeepNorm (DeepNet, Wang et al. 2022, arXiv:2203.00555)\n\n```\n"
            "x_{l+1} = LN( α · x_l + G_l(x_l) )        # still Post-LN: add, then normalise\n"
            "attention branch ~ β²  (V and O both scaled)\n```\n\n"
            "| model | α | β |\n|---|---|---|\n| encoder-only (N) | (2N)^(1/4) | (8N)^(-1/4) |\n"
            "| decoder-only (M) | (2M)^(1/4) | (8M)^(-1/4) |\n| enc-dec, decoder | (3M)^(1/4) | (12M)^(-1/4) |\n")
    assert {"update-rule", "alpha-value", "beta-value", "decoder-m"} <= hits(deepnorm, text)


def test_a_cross_in_a_table_cell_answers_the_column_not_the_reason_after_it(deck) -> None:
    # "| Post-LN | ❌ redundant |" under "final LN?": no final LN, because it would be redundant
    card = _card(deck, "pre-ln-final-norm")
    table = "| | final LN? |\n|---|---|\n| Post-LN | {post} |\n| Pre-LN | ✅ needed |\n"
    assert "post-already-normalised" in hits(card, table.format(post="❌ redundant"))
    # a cross alone still denies the column: "final LN? ❌" says nothing about redundancy
    assert "post-already-normalised" not in hits(card, table.format(post="❌"))


def test_a_name_compared_with_after_an_aside_starts_no_claim_of_its_own(deck) -> None:
    # "Peri-LN（arXiv:2502.02732）和 Sandwich 同一个结构": Sandwich is what Peri-LN is compared with, after the aside
    sandwich = _card(deck, "sandwich-ln")
    for aside in ("（arXiv:2502.02732）", " (arXiv:2502.02732) "):
        assert "peri-ln" in hits(sandwich, f"Peri-LN{aside}和 Sandwich 同一个结构：每个子层的输入、输出各一个 norm。")


def test_a_heading_naming_another_method_heads_no_claim_of_the_cards_subject(deck) -> None:
    # "## QK-Norm" over "Used in LLaMA 3": the models named use QK-Norm; nothing is said about RMSNorm
    rmsnorm = _card(deck, "rmsnorm")
    body = "An extra normalisation of the queries and keys before their dot product. Used in LLaMA 3 and many recent models."
    for heading in ("## QK-Norm", "QK-Normalization", "### 批归一化 (BatchNorm)"):
        assert "llama-rmsnorm" not in hits(rmsnorm, f"{heading}\n\n{body}")
    # under a heading that names the card's subject, or none, the unnamed sentence is still about RMSNorm
    for heading in ("## RMSNorm", "## Why it won"):
        assert "llama-rmsnorm" in hits(rmsnorm, f"{heading}\n\nIt drops the mean subtraction. Used in LLaMA and many recent models.")


def test_growth_as_a_noun_is_growing(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    for text in ("Pre-LN suffers from an exponential growth in activation variance across layers.",
                 "In Pre-LN the activations show steady growth with depth."):
        assert "stream-grows" in hits(card, text)


def test_a_phrase_in_an_opening_concession_does_not_cancel_the_main_clause(deck) -> None:
    # "model size" cancels stream-grows (a norm that grows with model size is no growth with depth), but not from
    # inside the concession the sentence opens with
    card = _card(deck, "pre-ln-effective-depth")
    assert "stream-grows" in hits(card, "While stable and scalable to large model sizes, Pre-LN suffers from an "
                                        "exponential growth in activation variance across layers.")
    assert "stream-grows" in hits(card, "Although Pre-LN trains stably at large model sizes, its activation variance "
                                        "grows across layers.")
    # in the sentence's own clause it still cancels, and so it does inside the concession itself
    assert "stream-grows" not in hits(card, "Pre-LN is stable at large model sizes and its activation variance grows "
                                            "across layers.")
    assert "stream-grows" not in hits(card, "While stable at scale, Pre-LN's logit magnitude grows with model size.")


def test_a_paragraph_opened_by_another_method_does_not_fall_back_to_the_cards_subject(deck) -> None:
    # Post-LN is no subject of the Sandwich-LN card: what follows it in its paragraph is about Post-LN, not Sandwich-LN
    sandwich = _card(deck, "sandwich-ln")
    cogview = "It was introduced in CogView to stop FP16 overflow."
    assert "cogview" not in hits(sandwich, f"Post-norm puts the norm right on the main path, after the residual add. {cogview}")
    # a method the paragraph only sets its topic against leaves the topic the card's subject
    assert "cogview" in hits(sandwich, f"This design differs from Post-LN. {cogview}")
    assert "cogview" in hits(sandwich, f"It puts a second norm at the end of each branch, unlike Post-LN. {cogview}")
    rmsnorm = _card(deck, "rmsnorm")
    assert "llama-rmsnorm" not in hits(rmsnorm, "QK-Norm normalises the queries and keys. Used in LLaMA 3 and most recent models.")


def test_linear_as_the_name_of_a_module_is_no_growth_rate(deck) -> None:
    # "linear" is a rate of growth in "the norm is linear in l", but a module in "a Linear layer" or "nn.Linear(...)"
    card = _card(deck, "pre-ln-final-norm")
    for text in ("In Pre-LN the stream passes through a Linear layer and a softmax at the end.",
                 "Pre-LN: the residual stream is fed to nn.Linear(d, vocab) at the top.",
                 "In Pre-LN the residual stream goes through linear projections in every block."):
        assert "stream-grows" not in hits(card, text), text
    for text in ("In Pre-LN the residual stream's squared norm grows linear in l.",
                 "In Pre-LN the norm of the stream is linear in the layer index."):
        assert "stream-grows" in hits(card, text), text


def test_the_names_a_claim_says_are_beaten_are_not_its_subject(deck) -> None:
    # Mix-LN is no subject of the card: "outperforms ... Post-LN" says Post-LN lost, not that it ends better
    card = _card(deck, "pre-ln-effective-depth")
    assert "post-better-final" not in hits(card, "Extensive experiments show that Mix-LN consistently outperforms "
                                                 "both Pre-LN and Post-LN across model sizes.")
    assert "post-better-final" not in hits(card, "In their runs the hybrid beats Post-LN on every benchmark.")
    # the winner named as the subject still earns it
    assert "post-better-final" in hits(card, "Once both converge, Post-LN outperforms Pre-LN by 0.5-1 BLEU.")


def test_attentions_heads_and_softmax_are_not_the_output_head(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    assert "without-it" not in hits(card, "In Pre-LN the residual stream accumulates updates from every attention head "
                                          "and MLP.")
    assert "without-it" not in hits(card, "In Pre-LN the stream grows, the attention scores become large, and the "
                                          "softmax saturates.")
    # the output head and the softmax over the vocabulary still count
    assert "without-it" in hits(card, "In Pre-LN, without the final LN, the output head sees a stream that grows with "
                                      "depth.")
    assert "without-it" in hits(card, "In Pre-LN the unnormalised stream would make the softmax over the vocabulary "
                                      "far too sharp.")


def test_a_crossed_cell_denies_every_item_of_its_row_label(deck) -> None:
    # "| stability, deep stacks | ✅ | ❌ |": the cross says Post-LN lacks both, not only the last item
    card = _card(deck, "pre-vs-post-ln")
    head = "| | Pre-LN | Post-LN |\n|---|---|---|\n"
    for label in ("stability, deep stacks", "stability and deep stacks"):
        for cross in ("\u274c", "\u274c without tricks"):
            assert "post-stable" not in mistakes(card, head + f"| {label} | \u2705 | {cross} |\n"), (label, cross)
    # a tick in Post-LN's column still states the swap, and a cross in Pre-LN's denies Pre-LN's stability
    assert "post-stable" in mistakes(card, head + "| stability, deep stacks | \u2705 | \u2705 |\n")
    assert "pre-not-stable" in mistakes(card, head + "| stability, deep stacks | \u274c | \u2705 |\n")


def test_a_spoken_filler_between_two_statements_still_parts_them(deck) -> None:
    # "it's flat in L, um, actually the one that changes ... is Pre-LN": the pause ends what was said of Post-LN, and
    # the name after it is the next statement's subject
    card = _card(deck, "xiong-theorem")
    assert "pre-flat-in-depth" not in mistakes(card, (
        "For Pre-LN the bound has L inside, so it gets smaller as the model gets deeper. People say Post-LN gradients "
        "explode with depth, no, it's big but it's flat in L, um, actually the one that changes with depth is Pre-LN "
        "and it goes down."))
    # a filler inside one statement still leaves its words together
    assert "pre-flat-in-depth" in mistakes(card, "Pre-LN's last-layer gradient is, um, flat in L.")
    assert prepare("It doesn't, um, actually keep the stream bounded.").text == "it doesn't actually keep the stream bounded."
    assert prepare("Fixes, uh, there's Mix-LN.").text == "fixes, there's mix-ln."


def test_a_text_about_one_subject_alone_lends_it_to_its_unnamed_paragraphs(deck) -> None:
    # a passage on OLMo 2 that never names the card's own subject: the later lines are about OLMo 2 too
    card = _card(deck, "sandwich-ln")
    text = ("OLMo 2 builds on the earlier OLMo models with several changes for training stability.\n\n"
            "The biggest change is the norm: normalization is applied to the outputs of attention and MLP layers rather "
            "than the inputs, combined with QK-norm.")
    assert {"olmo2", "olmo2-qknorm"} <= hits(card, text)
    # only after it is named: a subject named last does not reach back
    card = _card(deck, "pre-ln-final-norm")
    assert "post-already-normalised" not in hits(card, "Every block already has two LayerNorms.\n\nOriginal-Transformer"
                                                       "-style (Post-LN) blocks don't need this.")


def test_class_names_in_code_say_which_part_is_the_norm_and_which_the_branch(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "pre-formula" in hits(card, "x = x + MultiHeadSelfAttention(LayerNorm(x))")
    assert "post-formula" in hits(card, "x = BertLayerNorm(x + MultiHeadAttention(x))")
    assert "pre-formula" in hits(card, "out = h + PositionwiseFeedForward(LayerNorm(h))")


def test_codes_name_for_a_branch_output_reads_as_the_branch(deck) -> None:
    card = _card(deck, "deepnorm")
    assert "update-rule" in hits(card, "def forward(self, x, gx):\n    return self.layer_norm(self.alpha * x + gx)")
    assert "update-rule" in hits(card, "x_next = LN(alpha * x + gx)")


def test_a_line_leading_into_indented_items_names_their_subject(main_card) -> None:
    text = "Pre-LN, the one LLMs use\n  - keeps an identity path to the input\n  - trains without warm-up\n"
    assert {"pre-identity-path", "pre-no-warmup"} <= hits(main_card, text)
    # A lead-in names the subject loosely: it earns points, it never makes a mistake explicit.
    assert not mistakes(main_card, "Post-LN, the original\n  - trains without warm-up\n")


def test_a_short_title_line_leads_into_the_items_under_it(main_card) -> None:
    text = "Pre-LN, the one LLMs use\n- keeps an identity path to the input\n- trains without warm-up\n"
    assert {"pre-identity-path", "pre-no-warmup"} <= hits(main_card, text)
    # A full sentence above a list is a statement of its own, not a title over it.
    prose = "Pre-LN is what LLMs use, and it is a fine default.\n- keeps an identity path to the input\n"
    assert "pre-identity-path" not in hits(main_card, prose)


def test_code_attribute_access_reads_like_the_formula() -> None:
    from lndrill.cards.deck import load_deck

    card = load_deck().get("layernorm-jacobian")
    assert card is not None
    code = "return (g - g.mean(-1, keepdims=True) - y * (g * y).mean(-1, keepdims=True)) / s"
    assert "backward-formula" in hits(card, code)
    assert "kills-mean" in hits(card, "J 1 = 0, i.e. 1 \u21a6 0.") and "kills-mean" in hits(card, "1 \u21a6 0")


def test_a_cross_before_not_marks_the_denial_once() -> None:
    from lndrill.cards.deck import load_deck

    card = load_deck().get("toy-metric-artifact")
    assert card is not None
    assert "not-vanishing" in hits(card, "Post-LN gradients: \u2717 not vanishing")
    assert not mistakes(card, "Post-LN gradients: \u2717 not vanishing")


def test_models_like_x_name_x_as_the_subject() -> None:
    from lndrill.cards.deck import load_deck

    card = load_deck().get("ln-who-uses-what")
    assert card is not None
    assert "llama-rms" in hits(card, "Newer models such as LLaMA replaced LayerNorm with RMSNorm.")
    assert "bert-post" in hits(card, "Early models like BERT put LayerNorm after the residual connection.")
    assert "gpt-pre" in hits(card, "GPT-2 moved LN to the input of each sub-block, x + F(LN(x)).")
    # A real comparison still sets its partner aside.
    assert "llama-rms" not in hits(card, "Unlike LLaMA, BERT uses RMSNorm.")


@pytest.mark.parametrize("text", [
    "Post-LN needs warm-up and Pre-LN, at moderate learning rates, can skip it.",
    "Post-LN needs warm-up and Pre-LN can do without it.",
    "Post-LN needs warm-up and Pre-LN, at moderate learning rates, does not.",
])
def test_an_ellipsis_may_deny_a_pronoun_or_follow_a_comma_phrase(main_card, text: str) -> None:
    assert "pre-no-warmup" in hits(main_card, text)
    assert not mistakes(main_card, text)


def test_an_ellipsis_after_a_hedge_is_not_charged(main_card) -> None:
    assert not mistakes(main_card, "Post-LN needs warm-up and Pre-LN, in practice, too.")
    assert "pre-needs-warmup" in mistakes(main_card, "Post-LN needs warm-up, Pre-LN too.")


def test_a_bare_no_refutes_the_sentence_before_it() -> None:
    from lndrill.cards.deck import load_deck

    card = load_deck().get("xiong-theorem")
    assert card is not None
    text = 'The folklore is "Post-LN gradients explode as the network gets deeper". No.'
    assert "myth-wrong" in hits(card, text)
    assert not mistakes(card, text)
    assert "post-grows-with-depth" in mistakes(card, "No. Post-LN's last-layer gradient bound grows with the depth L.")


def test_contracted_verbs_keep_their_word(main_card) -> None:
    from lndrill.cards.deck import load_deck

    card = load_deck().get("pre-ln-final-norm")
    assert card is not None
    assert "post-already-normalised" in hits(card, "Post-LN: the last block's output is already LN'd.")


def test_a_claim_put_in_a_papers_mouth_is_the_writers_claim(main_card) -> None:
    wrong = "According to Xiong et al., for Post-LN the gradient at the last layer grows with the number of layers L."
    assert "post-grad-grows-with-depth" in mistakes(main_card, wrong)
    assert not mistakes(main_card, wrong.replace("Xiong et al.", "some people"))


def test_which_is_why_asserts_a_consequence(main_card) -> None:
    text = ("For Post-LN the gradient at the last layer grows with the number of layers L, which is why deep "
            "Post-LN models blow up without warm-up.")
    assert "post-grad-grows-with-depth" in mistakes(main_card, text)


def test_superscript_powers_stay_powers() -> None:
    assert prepare("sqrt(mean_j x_j\u00b2 + eps)").text == "sqrt(mean_j x_j^2 + eps)"
    # the user's own characters are what the evidence quotes
    p = prepare("x\u00b2")
    assert p.quote(0, len(p.text)) == "x\u00b2"


def test_not_equal_sign_denies(main_card) -> None:
    assert prepare("instability \u2260 a gradient problem").text == "instability is not a gradient problem"
    from lndrill.cards.deck import load_deck

    admin = load_deck().get("admin-amplification")
    assert admin is not None
    assert "not-gradient" in hits(admin, "Liu et al. find that gradient vanishing \u2260 the root cause of the instability.")


def test_a_trailing_for_subject_takes_the_claim_before_it() -> None:
    from lndrill.cards.deck import load_deck

    card = load_deck().get("xiong-theorem")
    assert card is not None
    text = "The last-layer gradient is bounded by O(d sqrt(ln d)) for Post-LN and by O(d sqrt(ln d / L)) for Pre-LN."
    assert "pre-bound-shrinks" in hits(card, text)


def test_formula_structure_not_string() -> None:
    assert canonical("x + F(x)") == canonical("F(x) + x")
    assert canonical("LN(x + F(x))") != canonical("LN(x) + F(x)")
    assert canonical("LN(x + F(x))") != canonical("x + F(LN(x))")
    assert find_formulas(prepare("no formula here, just words").text) == []


@pytest.mark.parametrize(("written", "block"), [
    ("v <- v + tanh(W LN(v))", "x + F(LN(x))"),  # the article's toy Pre-LN layer
    ("v <- LN(v + tanh(W v))", "LN(x + F(x))"),  # and its Post-LN layer
    ("h = h + relu(W_1 * LN(h))", "x + F(LN(x))"),
    ("x + gelu(W LN(x))", "x + F(LN(x))"),
])
def test_an_activation_of_a_weighted_input_is_a_sublayer(written: str, block: str) -> None:
    # (a concrete sublayer written out: the same block as F, for credit and for a swapped-formula mistake alike)
    assert [f.sides for f in find_formulas(prepare(written).text)] == [(canonical(block),)]


def test_a_weight_alone_or_two_weights_make_no_sublayer() -> None:
    assert canonical("x + W LN(x)") != canonical("x + F(LN(x))")
    assert canonical("x + tanh(W x W)") != canonical("x + F(x)")
    assert canonical("x + tanh(LN(x))") != canonical("x + F(LN(x))")


def test_formulas_are_found_after_long_prose_and_through_a_subscript_with_punctuation() -> None:
    # (the scanner skips stretches that cannot hold a call; a subscript's braces may hold text that is no formula)
    long = "It is said, " + "and so on, " * 400 + "that x_{l+1} = x_l + F(LN(x_l)); then more words. " * 3
    assert [f.sides for f in find_formulas(prepare(long).text)] == [(canonical("x + F(LN(x))"),)] * 3
    braced = "h_{l: the layer, " + "i.e. block; " * 8 + "} = h_{l} + F(LN(h_{l}))"
    found = find_formulas(prepare(braced).text)
    assert [(f.sides, f.whole_start) for f in found] == [((canonical("x + F(LN(x))"),), 0)]


def test_chinese_needs_no_spaces_and_mixed_text_works(main_card) -> None:
    assert "pre-identity-path" in hits(main_card, "Pre-LN的残差是恒等通道，梯度直达输入层。")
    assert "post-grad-through-ln" in hits(main_card, "Post-LN 的 backward 每层都要过 LN 的 Jacobian。")


def test_typos_of_key_terms_are_tolerated(main_card) -> None:
    text = "Post-LN: the gradeint crosses the layernrom at every layer, so it needs warmpu."
    got = hits(main_card, text)
    assert {"post-grad-through-ln", "post-needs-warmup"} <= got


def test_keyword_list_offtopic_and_repetition_earn_almost_nothing(main_card) -> None:
    keywords = "Post-LN Pre-LN LayerNorm residual identity warm-up gradient Jacobian deep stable ceiling LLM"
    assert score_answer(main_card, keywords).score == 0
    offtopic = "Dropout and weight decay regularise a network; AdamW decouples the decay from the update."
    assert score_answer(main_card, offtopic).score == 0
    once = score_answer(main_card, "Post-LN needs warm-up.\n").points
    many = score_answer(main_card, "Post-LN needs warm-up.\n" * 200).points
    assert many == once <= 10  # rubric points; the interviewer's scale lifts one point a little (see below)


def test_headings_in_either_language_and_points_anywhere(main_card) -> None:
    text = "## 权衡\nPost-LN: y = LN(x + F(x))\n## Formulas\nPre-LN is stable and easy to train."
    got = hits(main_card, text)
    assert {"post-formula", "pre-stable"} <= got


def test_evidence_quotes_the_users_own_words(main_card) -> None:
    text = "Intro.\nPre‑LN’s residual is an IDENTITY path, so gradients reach the input directly."
    r = score_answer(main_card, text)
    p = next(p for s in r.sections for p in s.points if p.id == "pre-identity-path")
    assert p.hit and "IDENTITY" in p.evidence
    a, b = p.spans[0]
    assert text[a:b].lower() == "identity"


def test_overruling_a_point_changes_the_total(main_card) -> None:
    r = score_answer(main_card, "Pre-LN: y = x + F(LN(x)).")
    up = r.overrule("post-formula", True)
    assert up.score > r.score
    down = r.overrule("pre-formula", False)
    assert down.score < r.score


def test_json_shape(main_card) -> None:
    d = score_answer(main_card, "Post-LN needs warm-up. Pre-LN needs warm-up.").to_dict()
    assert d["card"] == "pre-vs-post-ln" and 0 <= d["score"] <= 100
    assert [s["id"] for s in d["sections"]] == ["formulas", "backprop", "tradeoffs"]
    for s in d["sections"]:
        assert {"id", "score", "max", "points"} <= set(s)
        for p in s["points"]:
            assert {"id", "hit", "evidence"} <= set(p)
    assert d["mistakes"] and {"id", "evidence", "explanation"} <= set(d["mistakes"][0])


def test_huge_paste_is_scored_and_flagged(main_card) -> None:
    text = "".join(f"Line {i}: Post-LN needs warm-up for reason {i}.\n" for i in range(40000))
    r = score_answer(main_card, text)
    assert 0 <= r.score <= 100
    assert any("first 40,000" in n for n in r.notes)


@pytest.mark.parametrize("text", [
    "People often say Pre-LN needs warm-up; that is wrong.",
    "“Pre-LN 需要 warm-up”这个说法是错的。",
    "Pre-LN needs warm-up; that is a common misconception.",
])
def test_a_refuted_claim_means_its_opposite(main_card, text: str) -> None:
    assert "pre-no-warmup" in hits(main_card, text)
    assert not mistakes(main_card, text)


def test_a_refutation_inside_an_aside_corrects_the_aside_only(main_card) -> None:
    text = ("At init the gradients near the output are large for Post-LN (not growing with depth exactly, people "
            "get that wrong, but large).")
    assert "post-large-output-grad" in hits(main_card, text)
    assert "pre-no-warmup" in hits(main_card, "Pre-LN needs warm-up (a common misconception).")


def test_refuting_a_true_claim_is_a_mistake_and_a_negated_marker_refutes_nothing(main_card) -> None:
    assert "post-no-warmup" in mistakes(main_card, "It is wrong that Post-LN needs warm-up.")
    assert "post-needs-warmup" in hits(main_card, "Post-LN needs warm-up, and that is not a myth.")


def test_negation_stays_with_its_own_words(main_card) -> None:
    got = hits(main_card, "Pre-LN does not need warm-up and trains 100+ layers stably.")
    assert {"pre-no-warmup", "pre-deep-stable"} <= got
    assert "pre-diluted-depth" in hits(main_card, "Pre-LN 的残差流从不重新归一化，范数随深度一路变大。")
    assert "post-needs-warmup" in hits(main_card, "Post-LN needs warm-up no matter how small the model is.")


def test_chinese_comparison_partner_is_not_the_subject(main_card) -> None:
    text = "Post-LN 的梯度和 Pre-LN 比要大，所以需要 warm-up。"
    assert "post-needs-warmup" in hits(main_card, text)
    assert not mistakes(main_card, text)


@pytest.mark.parametrize("text", [
    "Post-LN 残差 梯度 恒等 warm-up 深层 稳定 Pre-LN 恒等通道 上百层 有效深度 大模型",
    "Post-LN warm-up gradient Jacobian initialization Xiong mean-field theory output",
    "Post-LN、Pre-LN、LayerNorm、残差、恒等通道、warm-up、梯度、雅可比、初始化、上百层、有效深度、大模型",
])
def test_term_lists_separated_by_spaces_or_commas_earn_nothing(main_card, text: str) -> None:
    assert score_answer(main_card, text).score == 0


def test_a_sentence_of_semicolon_separated_terms_earns_nothing_but_labelled_notes_do(main_card) -> None:
    soup = ("Post-LN vs Pre-LN; LN(x + F(x)); x + F(LN(x)); identity path; warm-up; gradient norm; "
            "Xiong 2020; 8.45 BLEU; deep stacks; LLaMA; RMSNorm; stability vs quality.")
    assert score_answer(main_card, soup).score == 0
    notes = "- Pre-LN: x + F(LN(x)); identity path kept; no warm-up needed; stable at depth; used by LLaMA; RMSNorm."
    assert score_answer(main_card, notes).score > 0


def test_a_sentence_a_list_label_opens_earns_nothing_even_with_equations(main_card, deck) -> None:
    soup = ("Key concepts: Post-LN = LN(x + F(x)), Pre-LN = x + F(LN(x)), warmup_steps = 4000,\n"
            "beta2 = 0.98, BLEU without warm-up = 8.45, grad norm ∝ 1/sqrt(L), LLaMA = Pre-LN, RMSNorm.")
    assert score_answer(main_card, soup).score == 0
    # a short note under such a name is a note
    assert score_answer(main_card, "Key concepts: Post-LN = LN(x + F(x)), Pre-LN = x + F(LN(x)).").score > 0
    # a topic label that merely mentions a term is no list label
    card = deck.cards["pre-ln-effective-depth"]
    topic = "Representation collapse (ResiDual's term): in deep Pre-LN stacks the hidden states of later layers become nearly identical."
    assert "representation-collapse" in {p.id for s in score_answer(card, topic).sections for p in s.points if p.hit}


def test_a_one_line_paragraph_of_bare_fragments_earns_nothing_but_prose_does(main_card) -> None:
    soup = ("Post-LN vs Pre-LN. LN(x + F(x)) vs x + F(LN(x)). Identity path, residual stream. Warm-up, 4000 steps. "
            "Xiong 2020, Theorem 1, 8.45 BLEU. LLaMA, GPT-3, BERT. Stability vs quality, deep stacks.")
    assert score_answer(main_card, soup).score == 0
    prose = ("Post-LN normalises after the residual add: LN(x + F(x)). Pre-LN normalises the branch input: x + F(LN(x)). "
             "So Pre-LN keeps an identity path. Post-LN needs warm-up. Pre-LN can drop it. LLMs use Pre-LN.")
    assert score_answer(main_card, prose).score >= 30


def test_a_claim_without_a_listed_verb_still_counts(main_card) -> None:
    assert "pre-identity-path" in hits(main_card, "Deep Pre-LN layers behave almost like identity functions.")


@pytest.mark.parametrize(("text", "pre_hit", "pre_mistake"), [
    ("Post-LN needs a warm-up to avoid early divergence, Pre-LN doesn't.", True, False),
    ("Post-LN needs warm-up while Pre-LN does not.", True, False),
    ("Post-LN 需要 warm-up，Pre-LN 不需要。", True, False),
    ("Post-LN needs warm-up, unlike Pre-LN.", True, False),
    ("Post-LN needs warm-up, and Pre-LN does too.", False, True),
    ("Post-LN 需要 warm-up，Pre-LN 也需要。", False, True),
])
def test_elliptical_follow_ups_carry_the_claim_over(main_card, text: str, pre_hit: bool, pre_mistake: bool) -> None:
    assert "post-needs-warmup" in hits(main_card, text)
    assert ("pre-no-warmup" in hits(main_card, text)) == pre_hit
    assert ("pre-needs-warmup" in mistakes(main_card, text)) == pre_mistake


@pytest.mark.parametrize(("text", "post_hit", "post_mistake"), [
    # the ellipsis echoes the verb without the first clause's negation
    ("Pre-LN doesn't need warm-up, but Post-LN does.", True, False),
    ("Pre-LN 不需要 warm-up，但 Post-LN 需要。", True, False),
    ("Pre-LN 可以不加 warm-up，但 Post-LN 通常要加。", True, False),
    # a removal verb stays with what the ellipsis echoes ("can't [skip it]")
    ("Pre-LN can skip warm-up, Post-LN can't.", True, False),
    # a verb of its own on a pronoun says what it says
    ("Pre-LN can skip warm-up, but Post-LN usually needs it.", True, False),
    # a denial echoed, or the statement taken over, still denies
    ("Pre-LN doesn't need warm-up, and neither does Post-LN.", False, True),
    ("Pre-LN doesn't need warm-up, and Post-LN doesn't either.", False, True),
    ("Pre-LN 不需要 warm-up，Post-LN 也不需要。", False, True),
])
def test_an_ellipsis_after_a_denied_claim(main_card, text: str, post_hit: bool, post_mistake: bool) -> None:
    assert "pre-no-warmup" in hits(main_card, text)
    assert ("post-needs-warmup" in hits(main_card, text)) == post_hit
    assert ("post-no-warmup" in mistakes(main_card, text)) == post_mistake


@pytest.mark.parametrize("text", [
    "Post-LN 需要 warm-up，Pre-LN 可以不用。",
    "所以 Post-LN 要 warm-up，Pre-LN 在中等学习率下可以不用。",
    "Post-LN 离不开 warm-up，而 Pre-LN 在 moderate lr 下能够不用。",
])
def test_a_chinese_ellipsis_may_hold_a_modal_and_a_setting(main_card, text: str) -> None:
    assert "pre-no-warmup" in hits(main_card, text)
    assert not mistakes(main_card, text)
    # the setting hedges the ellipsis: a wrong one under it is not charged
    assert not mistakes(main_card, "Post-LN 需要 warm-up，Pre-LN 在很大的学习率下也需要。")


def test_an_answer_laid_out_as_a_table_is_read_per_column(main_card) -> None:
    table = (
        "| | Post-LN | Pre-LN |\n|---|---|---|\n"
        "| formula | y = LN(x + F(x)) | y = x + F(LN(x)) |\n"
        "| warm-up | required | not required |\n"
    )
    got = hits(main_card, table)
    assert {"post-formula", "pre-formula", "post-needs-warmup", "pre-no-warmup"} <= got
    assert not mistakes(main_card, table)
    r = score_answer(main_card, table)
    a, b = next(p for s in r.sections for p in s.points if p.id == "pre-formula").spans[0]
    assert table[a:b] == "x + F(LN(x))"  # highlighted inside the Pre-LN cell of the original table


def test_a_table_copied_from_a_web_page_with_one_outer_pipe_is_still_a_table(main_card) -> None:
    table = (
        "方面 | Post-LN | Pre-LN |\n"
        "公式 | y = LN(x + F(x)) | y = x + F(LN(x)) |\n"
        "预热 | 必须要 warm-up | 中等学习率下不需要 |\n"
        "稳定性 | 深了容易发散 | 稳定 |\n"
    )
    got = hits(main_card, table)
    assert {"post-formula", "pre-formula", "post-needs-warmup", "pre-stable"} <= got
    assert not mistakes(main_card, table)


def test_a_table_row_label_names_the_aspect_and_its_cells_give_the_value(main_card) -> None:
    header = "| | Post-LN | Pre-LN |\n|---|---|---|\n"
    assert not mistakes(main_card, header + "| Stability in deep stacks | fragile, diverges early | robust |\n")
    assert "post-stable" in mistakes(main_card, header + "| Stability in deep stacks | good | fragile |\n")
    # a swapped yes/no row is one wrong statement, charged once (as Post-LN stable or as Pre-LN not stable)
    assert mistakes(main_card, header + "| Stable in deep stacks? | ✅ | ❌ |\n") & {"post-stable", "pre-not-stable"}


def test_a_sub_heading_that_names_nobody_keeps_the_subject_of_the_heading_right_above(main_card) -> None:
    text = "## Post-LN\n### Main problems\n- training is unstable and it needs a warm-up\n"
    assert "post-needs-warmup" in hits(main_card, text)
    # with a paragraph between them, a lower-ranked heading is still a sub-section (Markdown's outline) ...
    text = "## Post-LN\nThe original layout.\n### Main problems\n- training is unstable and it needs a warm-up\n"
    assert "post-needs-warmup" in hits(main_card, text)
    # ... but a heading of the same rank starts a section of its own
    text = "## Post-LN\nThe original layout.\n## Main problems\n- training is unstable and it needs a warm-up\n"
    assert "post-needs-warmup" not in hits(main_card, text)


def test_pipes_in_norms_are_not_a_table(main_card) -> None:
    assert prepare("||J||_2 = O(sqrt(d)/||x||) and ||x|| grows").text == "||j|| = o(sqrt(d)/||x||) and ||x|| grows"


def test_numbered_chinese_headings_reset_the_subject(main_card) -> None:
    text = "一、公式\nPre-LN：y = x + F(LN(x))\n二、反向传播\n梯度回传时层层乘 LN 的雅可比，直接用大学习率会发散"
    assert not mistakes(main_card, text)


def _card(deck, card_id: str):
    card = deck.get(card_id)
    assert card is not None
    return card


def test_terse_equations_and_subject_labelled_lines_are_claims(deck) -> None:
    assert {"alpha-value", "beta-value"} <= hits(_card(deck, "deepnorm"),
                                                 "encoder-only: alpha = (2N)^(1/4), beta = (8N)^(-1/4).")
    assert "bert-post" in hits(_card(deck, "ln-who-uses-what"), "- BERT: LayerNorm, Post-LN.")
    keywords = "Keywords: Post-LN warm-up gradient Jacobian every layer; Pre-LN identity residual direct gradient"
    assert score_answer(_card(deck, "pre-vs-post-ln"), keywords).score == 0


def test_negation_edge_cases(deck, main_card) -> None:
    assert "post-needs-warmup" in hits(main_card, "Post-LN 不加预热就训不起来。")
    assert "post-needs-warmup" in hits(main_card, "Post-LN diverges without warm-up.")
    assert "pre-no-warmup" in hits(main_card, "Pre-LN doesnt need warm-up.")
    assert "post-needs-warmup" in hits(main_card, "Post-LN needs warm-up right away.")
    assert "not-vanishing" in hits(_card(deck, "toy-metric-artifact"),
                                   "Post-LN 读数是 0，不是因为梯度消失，而是指标本身有问题。")


def test_a_placement_named_inside_the_claim_is_its_subject(main_card) -> None:
    text = "In Pre-LN the stream is big. People found that the converged Post-LN model is usually a bit better."
    assert "post-better-final" in hits(main_card, text)
    assert not mistakes(main_card, text)


def test_swapped_letters_in_five_letter_words_but_not_other_words(deck) -> None:
    from lndrill.scoring.lexicon import Lexicon

    lex = Lexicon({"squar", "layer"})
    assert lex.near("sqaur") == {"squar"}
    assert lex.near("later") == set()


def test_chinese_topic_left_alone_is_denied_but_regardless_is_not(deck) -> None:
    rms = _card(deck, "rmsnorm")
    # "the all-ones direction, it does not handle": the fronted topic is denied, not killed
    assert "rmsnorm-kills-mean" not in mistakes(rms, "RMSNorm 只干掉沿 x 的那个方向，全 1 方向它不管，所以整体平移会影响输出。")
    # "不管多深" means "however deep": it denies nothing, so the wrong claim after it is still charged
    assert "rmsnorm-kills-mean" in mistakes(rms, "不管多深，RMSNorm 都会干掉全 1 方向。")


def test_a_denied_showing_denies_what_is_shown(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert not mistakes(card, "They did not show Pre-LN is safe without warm-up at any learning rate.")
    assert not mistakes(card, "他们并没有证明 Pre-LN 在任何学习率下都不需要 warm-up。")
    assert "pre-drop-at-any-lr" in mistakes(card, "Xiong showed Pre-LN needs no warm-up at any learning rate.")
    assert "pre-drop-at-any-lr" in mistakes(card, "Xiong 证明了 Pre-LN 在任何学习率下都不需要 warm-up。")
    # one negation before the saying verb denies once, not once for the verb and again for what it says
    toy = _card(deck, "toy-metric-artifact")
    assert not mistakes(toy, "这个约等于 0 的读数并不说明梯度消失，它是指标造成的假象。")
    assert "toy-shows-vanishing" in mistakes(toy, "这个约等于 0 的读数说明梯度消失了。")


def test_a_subject_named_before_and_after_a_claim_is_explicit(main_card) -> None:
    before_and_after = ("In Post-LN the gradient has to pass through every LayerNorm. Xiong et al. proved that the "
                        "gradient of the last layer grows with the number of layers, which is why deep Post-LN "
                        "explodes.")
    assert "post-grad-grows-with-depth" in mistakes(main_card, before_and_after)
    # named only after the claim, in another part of the clause: not enough to charge it to Post-LN (the growth
    # is still charged as the subject-free myth: it is wrong whoever it is said of)
    only_after = ("Xiong et al. proved that the gradient of the last layer grows with the number of layers, which is "
                  "why deep Post-LN explodes.")
    assert mistakes(main_card, only_after) == {"last-grad-grows-with-depth"}
    # before, in another paragraph, the subject does not reach
    assert mistakes(main_card, "In Pre-LN the stream grows.\n\n" + only_after) == {"last-grad-grows-with-depth"}


def test_a_yes_no_question_answered_no_is_denied(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "no-contradiction" in hits(card, "Is it a contradiction? No, I don't think so.")
    assert "no-contradiction" in hits(card, "这矛盾吗？不。")
    assert "no-contradiction" not in hits(card, "Is it a contradiction? Yes.")
    # a question left open claims nothing, and "No warm-up is needed" is a sentence, not an answer
    assert "no-contradiction" not in hits(card, "Is it a contradiction?")
    assert "no-contradiction" not in hits(card, "Is it a contradiction? No warm-up is needed for Pre-LN.")


def test_switched_off_denies_the_word_between(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-can-drop" in hits(card, "They turned warm-up off for Pre-LN and it trained fine.")
    assert "pre-can-drop" not in hits(card, "They turned warm-up on for Pre-LN and it trained fine.")


def test_a_table_laid_out_with_spaces_reads_row_by_row(deck) -> None:
    card = _card(deck, "rmsnorm")
    table = ("models\n  BERT      LayerNorm   post\n  GPT-2/3   LayerNorm   pre (+ final LN)\n"
             "  LLaMA     RMSNorm     pre (+ final)\n")
    assert {"bert-post-ln", "gpt-layernorm", "llama-rmsnorm", "llama-prenorm"} <= hits(card, table)
    # one line with wide gaps is not a table
    assert "bert-post-ln" not in hits(card, "models\n  BERT      LayerNorm   post\n")


def test_a_cross_after_a_denial_confirms_it(deck) -> None:
    card = _card(deck, "rmsnorm")
    assert "no-recentering" in hits(card, "RMSNorm vs LN\ndropped:  −μ (no centering) ✗ , β ✗\n")
    assert "no-recentering" in hits(card, "RMSNorm: centering ✗\n")


def test_a_negated_main_verb_does_not_deny_its_because_clause(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    assert "post-already-normalised" in hits(card, "Post-LN doesn't need one because its last operation already is an LN.")
    # "not because X" still denies X
    assert "post-already-normalised" not in hits(
        card, "Post-LN does not need one, not because its last operation already is an LN.")


def test_an_abbreviation_dot_neither_ends_the_sentence_nor_breaks_a_phrase(deck) -> None:
    card = _card(deck, "xiong-theorem")
    assert "post-flat-in-depth" in hits(card, "Post: indep. of L")
    assert "post-flat-in-depth" in hits(card, "Xiong Thm 1\n  Post: <= O(d √(ln d))        -> indep. of L\n")


def test_a_denied_meaning_denies_the_whole_claim_once(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    for spared in ("That does not mean Pre-LN needs no warm-up at any learning rate.",
                   "这不等于 Pre-LN 在任何学习率下都不需要 warm-up。",
                   "这并不意味着 Pre-LN 在任何学习率下都不需要 warm-up。",
                   "It is not true that Pre-LN needs no warm-up at any learning rate."):
        assert "pre-drop-at-any-lr" not in mistakes(card, spared), spared
    for charged in ("This means Pre-LN needs no warm-up at any learning rate.",
                    "这说明 Pre-LN 在任何学习率下都不需要 warm-up。"):
        assert "pre-drop-at-any-lr" in mistakes(card, charged), charged


def test_a_where_clause_and_its_aside_are_about_what_they_hang_on(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = ("Unlike Post-LN, where warm-up compensates for a weakness (Xiong report 8.45 BLEU without it), "
            "for Pre-LN it is a safety margin.")
    assert "post-needs-it" in hits(card, text)
    assert "pre-collapses-without-warmup" not in mistakes(card, text)


def test_chinese_with_words_stand_for_one_another_in_phrases(deck) -> None:
    card = _card(deck, "toy-metric-artifact")
    for said in ("严格说也不是 0，是跟 eps 成正比的一点点。", "严格说也不是 0，是与 eps 成正比的一点点。"):
        assert "grad-order-eps" in hits(card, said), said


def test_sandwich_as_a_line_label_names_sandwich_ln(deck) -> None:
    card = _card(deck, "sandwich-ln")
    notes = "formula\n  Pre-LN:   h <- h + F(LN(h))\n  Sandwich: h <- h + LN(F(LN(h)))     <- extra LN on branch OUTPUT\n"
    assert "extra-ln-on-branch-output" in hits(card, notes)


def test_skip_path_is_a_name_not_a_denial(deck) -> None:
    card = _card(deck, "sandwich-ln")
    assert "trunk-stays-identity" in hits(card, "Sandwich notes\n  skip path still identity ✓    final LN still there ✓\n")
    # a Chinese negation glued to the word still denies it ("不稳定")
    main = _card(deck, "pre-vs-post-ln")
    assert "post-needs-warmup" in hits(main, "Post-LN 不加预热就训不起来。")


def test_dot_leaders_join_a_label_to_its_value_and_a_cross_after_a_value_is_a_verdict(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    notes = ("EVIDENCE\n  Xiong (IWSLT14 De-En, Post-LN, Adam):\n    no warm-up ............. 8.45 BLEU ✗\n"
             "    500 warm-up @ 5e-4 ..... 31.16\n")
    assert {"xiong-no-warmup-bleu", "xiong-short-warmup"} <= hits(card, notes)
    # an ellipsis that trails off is no leader
    assert "xiong-no-warmup-bleu" not in hits(card, "no warm-up... well, I forget the BLEU.")


def test_maths_said_aloud_reads_as_written(deck) -> None:
    from lndrill.scoring.normalize import prepare

    assert prepare("g_x equals one over sigma times g").text == "g_x equals 1 over sigma times g"
    assert prepare("it is like square root of d over the norm of x").text == "it is like sqrt d over the norm of x"
    assert prepare("shrinks like one over root L, sigma squared").text == "shrinks like 1 over sqrt l, sigma^2"
    assert prepare("the root cause is the update").text == "the root cause is the update"
    card = _card(deck, "layernorm-jacobian")
    assert "one-over-s-elsewhere" in hits(card, "Everything else, it just multiplies by one over sigma.")


def test_a_named_paper_arguing_is_the_writers_claim_about_it(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "admin-blames-gradient" in mistakes(card, "Admin 认为根因是 encoder 里的梯度消失。")
    assert "admin-blames-gradient" in mistakes(card, "Liu et al. argue that the root cause is gradient vanishing.")
    assert not mistakes(card, "Some people argue that Admin blames gradient vanishing.")


def test_a_negation_reaches_over_its_own_or(deck) -> None:
    card = _card(deck, "admin-amplification")
    text = "Admin's claim is that this, and not unbalanced or vanishing gradients, is the root cause of the instability."
    assert "gradient-is-root-cause" not in mistakes(card, text)
    assert "not-gradient" in hits(card, text)


def test_a_maths_phrase_takes_no_extra_word(deck) -> None:
    from lndrill.scoring.lexicon import Lexicon, TextIndex, compile_phrase, tokenize

    text = "the output change is o(log n) here"
    index = TextIndex(tokenize(text), text, Lexicon(set()))
    assert index.find(compile_phrase("O(N)")) == []  # "O(N)" is not "O(log N)"
    assert index.find(compile_phrase("output change")) != []


def test_a_condition_in_a_later_which_part_does_not_qualify_the_claim(main_card) -> None:
    text = ("Xiong et al. showed that for Post-LN the gradient at the last layer grows with depth, which is why deep "
            "Post-LN blows up unless you use a small learning rate at the start.")
    assert "post-grad-grows-with-depth" in mistakes(main_card, text)
    assert not mistakes(main_card, "Post-LN's gradient grows with depth unless you use warm-up.")


def test_a_phrase_never_skips_half_of_a_hyphenated_word(deck) -> None:
    from lndrill.scoring.lexicon import Lexicon, TextIndex, compile_phrase, tokenize

    def found(text: str) -> bool:
        return TextIndex(tokenize(text), text, Lexicon(set())).find(compile_phrase("only decoder")) != []

    assert not found("only encoder-decoder models")  # "decoder" is half of another word
    assert found("only the decoder")  # the word gap still works between separate words
    card = _card(deck, "deepnorm")
    assert "decoder-only-3m" not in mistakes(card, "Only encoder-decoder models use (3M)^{1/4} and (12M)^{-1/4}.")
    assert "decoder-only-3m" in mistakes(card, "Decoder-only models use (3M)^{1/4} and (12M)^{-1/4}.")


def test_a_phrase_never_skips_a_symbol(main_card) -> None:
    from lndrill.scoring.lexicon import Lexicon, TextIndex, compile_phrase, tokenize
    from lndrill.scoring.normalize import prepare

    def found(phrase: str, text: str) -> bool:
        p = prepare(text)
        return TextIndex(tokenize(p.text, p.cased), p.text, Lexicon(set())).find(compile_phrase(phrase)) != []

    assert not found("√ln d", "O(d sqrt(L ln d))")  # the L is the depth: another bound
    assert found("√ln d", "O(d √ln d)")
    assert found("needs warm-up", "it needs a warm-up")  # an article is still skipped
    # so the wrong bound is not also read as the right one, and is charged
    text = "For Post-LN the last-layer gradient is roughly O(d sqrt(L ln d)), so it grows with depth."
    assert "post-bound-has-l" in mistakes(main_card, text)


def test_nobody_denies_what_follows(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-drop-at-any-lr" not in mistakes(card, "Nobody showed Pre-LN is warm-up-free at any lr.")
    assert "pre-drop-at-any-lr" in mistakes(card, "Xiong et al. showed Pre-LN is warm-up-free at any lr.")


def test_a_comma_in_arrow_notes_separates_statements(deck) -> None:
    card = _card(deck, "admin-amplification")
    notes = ("Post-LN: x_i = LN(x_{i-1} + f_i) -> renormalised every layer -> old stuff shrinks, newest branch always "
             "big share -> heavy dependency on the branch")
    assert "post-light-dependency" not in mistakes(card, notes)
    assert "post-light-dependency" in mistakes(card, "In Post-LN each branch, layer after layer, is a smaller and "
                                                     "smaller share of the output.")


def test_a_yes_or_no_cell_answers_its_row_label(main_card) -> None:
    table = ("| | Post-LN | Pre-LN |\n|---|---|---|\n"
             "| LN on main path? | yes, every sublayer | no, skip is pure identity |\n")
    assert "pre-no-identity-path" not in mistakes(main_card, table)
    assert "pre-no-identity-path" in mistakes(main_card, "| | Post-LN | Pre-LN |\n|---|---|---|\n"
                                                          "| identity path | yes | no |\n")


def test_a_chinese_ellipsis_is_a_pause_not_a_dot_leader(deck) -> None:
    assert "\u2236" not in prepare("对 Pre-LN 来说是锦上添花……呃，应该说是保险").text
    assert "\u2236" in prepare("no warm-up ........ 8.45 BLEU").text  # a leader still joins a label to its value
    card = _card(deck, "warmup-for-pre-ln")
    text = ("我觉得不矛盾。对 Post-LN 来说\nwarm-up 是刚需，不加直接训不动；对 Pre-LN 来说是锦上添花……呃，应该说是保险。")
    assert "pre-needs-it" not in mistakes(card, text)


def test_an_and_part_carries_on_a_relative_part(deck) -> None:
    card = _card(deck, "xiong-theorem")
    text = ("O(d sqrt(ln d / L)) for Pre-LN, versus O(d sqrt(ln d)) for Post-LN, where every sublayer ends in an LN "
            "and the stream never grows.")
    assert "pre-stream-fixed" not in mistakes(card, text)
    assert "pre-stream-fixed" in mistakes(card, "In Pre-LN every sublayer ends in an LN, and the stream never grows.")


def test_a_tag_question_is_a_statement(main_card) -> None:
    assert "pre-needs-warmup" in mistakes(main_card, "Pre-LN needs warm-up, right?")
    assert "pre-needs-warmup" in mistakes(main_card, "Pre-LN 需要 warm-up，对吧？")
    assert "pre-needs-warmup" not in mistakes(main_card, "Does Pre-LN need warm-up?")


def test_an_unsure_aside_ending_in_a_question_mark_leaves_the_statement_before_it_asserted(deck, main_card) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    said = ("They trained Pre-LN with no warm-up at all and it worked: about the same BLEU, and BERT reached the same "
            "validation loss faster, I think something like forty percent fewer steps?")
    assert {"iwslt-comparable", "bert-faster"} <= hits(card, said)
    # the same statement asked is still a question, and so is the aside itself
    asked = "Did Pre-LN trained with no warm-up reach about the same BLEU, and the same BERT loss faster?"
    assert not {"iwslt-comparable", "bert-faster"} & hits(card, asked)
    assert "pre-needs-warmup" in mistakes(main_card, "Pre-LN needs warm-up, I think a few thousand steps.")
    assert "pre-needs-warmup" not in mistakes(main_card, "It trains fine, I think Pre-LN needs warm-up?")
    assert "pre-needs-warmup" in mistakes(main_card, "Pre-LN 需要 warm-up，我记得是几千步？")


def test_a_lower_case_pre_or_post_opening_a_terse_note_names_the_placement(deck) -> None:
    card = _card(deck, "xiong-theorem")
    notes = "- lemma2: pre (1+l/2)d <= E||x_l||^2 <= (1+3l/2)d\n- impl: post big top-layer grads -> Adam blows up early"
    assert {"lemma2-pre", "post-large-relative"} <= hits(card, notes)
    # the same words after a verb or before "training" name nothing
    assert "lemma2-pre" not in hits(card, "- lemma2: pre training (1+l/2)d <= E||x_l||^2 <= (1+3l/2)d")
    sandwich = _card(deck, "sandwich-ln")
    # "pre and post" is both sides of one design, and a lower-case "sandwich" stays a concept word
    assert "gemma-layernorm" in mistakes(sandwich, "- Gemma 2: sandwich with standard LayerNorm, pre and post around each block.")


def test_a_name_after_an_arrow_is_the_next_step_not_the_subject(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    text = "总结：老模型 Post-LN + LayerNorm → GPT-2 起 Pre-LN → LLaMA 一代 pre-RMSNorm。"
    assert "gpt-post" not in mistakes(card, text)
    assert "gpt-pre" in hits(card, text)
    assert "gpt-post" in mistakes(card, "GPT-2 uses Post-LN.")


def test_a_spoken_self_correction_takes_the_slip_back(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "beta2-default" not in mistakes(card, "Adam with beta1 0.9 and beta2 0.999 — no, sorry, 0.98 — and eps 1e-9.")
    assert "beta2-default" in mistakes(card, "Adam with beta1 0.9 and beta2 0.999 and eps 1e-9.")


def test_a_short_question_answered_no_states_the_answer(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "no-contradiction" in hits(card, "Contradiction? No.")
    assert "no-contradiction" in hits(card, "Is there a contradiction? No — they are about different things.")
    assert "no-contradiction" in hits(card, "矛盾？不。")
    assert "no-contradiction" not in hits(card, "Is there a contradiction?")  # asked, not answered


def test_the_thing_after_same_as_is_the_yardstick_not_the_subject(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = "Pre-LN without warm-up reached the same BLEU as warmed-up Post-LN, and sooner."
    assert "iwslt-comparable" in hits(card, text)
    assert "olmo-input-and-output" in mistakes(_card(deck, "sandwich-ln"),
                                               "OLMo 2 does the same thing as Gemma 2, normalising both the input and the output.")


def test_a_why_label_does_not_make_its_answer_a_question(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-grad-grows-with-depth" in mistakes(card, "Why: in Pre-LN the gradient of the last layer grows with depth.")
    assert "pre-grad-grows-with-depth" not in mistakes(
        card, "We need to look at why the gradient of the last layer grows with depth in Pre-LN.")


def test_a_fall_to_a_value_is_not_a_removal(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "xiong-no-warmup-bleu" in hits(card, "Post-LN's BLEU dropped to 8.45 without warm-up.")
    assert "pre-no-warmup" in hits(card, "Pre-LN can drop warm-up.")  # a removal is still read as one


def test_a_name_after_a_comparison_sign_or_advantage_over_is_the_yardstick() -> None:
    assert is_partner("Stability: Post-LN > Pre-LN.", "pre")
    assert is_partner("Stability: Post-LN >= Pre-LN.", "pre")
    assert not is_partner("Stability: Post-LN > Pre-LN.", "post")
    assert is_partner("Its advantage over Pre-LN is the final quality.", "pre")
    assert is_partner("Pre-LN without warm-up matched Post-LN with it.", "post")
    assert is_partner("The loss ends below a Post-LN model's.", "post")
    assert not is_partner("DeepNorm = Post-LN + up-weighted residual.", "post")  # "=" describes, it does not compare


def test_another_version_of_a_model_is_another_model(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    assert "gpt-post" not in mistakes(card, "GPT-1 was Post-LN.")
    assert "gpt-post" not in mistakes(card, "**GPT-1 / GPT-2 / GPT-3.** GPT-1 was Post-LN.")  # not the label's GPT
    assert "gpt-post" in mistakes(card, "GPT-2 was Post-LN.")
    assert "olmo-input-only" not in mistakes(card, "OLMo 1 was a plain pre-norm model.")
    assert "olmo-input-only" in mistakes(card, "OLMo 2 is a plain pre-norm model.")
    assert {"llama-pre", "llama-rms"} <= hits(card, "LLaMA 3 uses pre-norm RMSNorm.")  # listed without a version limit


def test_an_aside_in_brackets_is_its_own_statement(deck) -> None:
    card = _card(deck, "deepnorm")
    text = "The FFN weights and the value and output projections are multiplied by β (Q and K keep the normal init)."
    assert "beta-on-qk" not in mistakes(card, text)
    assert "beta-which" in hits(card, text)
    assert "beta-on-qk" in mistakes(card, "The FFN, value, output, Q and K projections are all multiplied by β.")
    assert "beta-on-qk" in mistakes(card, "β multiplies Q and K too (and V, O, the FFN).")


@pytest.mark.parametrize("text", [
    "实验上 IWSLT14 上 Pre-LN 不做 warm-up 能达到和 Post-LN+warm-up 相当的 BLEU。",  # 和 X ... 相当: past a Latin tail
    "IWSLT14 上 Pre-LN 不加 warm-up，BLEU 和带 warm-up 的 Post-LN 相当（约 34）。",  # 和 opens the phrase the name ends
    "IWSLT14: Pre-LN no WU ~ Post-LN + 4k WU (~34 BLEU), reached earlier.",  # "~" between two names compares them
    "On IWSLT14 it reached about the same BLEU (~34) as warmed-up Post-LN, and sooner.",  # a figure inside "same ... as"
])
def test_the_baseline_of_a_comparison_is_not_the_subject(deck, text: str) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "iwslt-comparable" in hits(card, text if "Pre-LN" in text else "Pre-LN without warm-up. " + text)


@pytest.mark.parametrize("text", [
    "(3) contradiction? ✗\n  | | Post-LN | Pre-LN |",  # a cross right after the question answers it
    "Do the two facts contradict each other? Not really: they are compatible.",  # the prompt's question, answered
    "Is there a contradiction? Not at all.",
    "第三块，矛不矛盾——不矛盾吧。",  # the A-not-A form asks; the answer after it denies
])
def test_an_answered_question_states_its_answer(deck, text: str) -> None:
    assert "no-contradiction" in hits(_card(deck, "warmup-for-pre-ln"), text)


@pytest.mark.parametrize("text", [
    "Do the two facts contradict each other?",  # the prompt echoed, unanswered
    "Is there a contradiction? Not really sure what you mean.",
    "contradiction? ✓",
])
def test_an_unanswered_or_affirmed_question_does_not_deny(deck, text: str) -> None:
    assert "no-contradiction" not in hits(_card(deck, "warmup-for-pre-ln"), text)


def test_the_a_not_a_question_is_no_negation(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "post-no-warmup-needed" in mistakes(card, "Post-LN 不需要 warm-up。")
    assert "post-no-warmup-needed" not in mistakes(card, "Post-LN 需不需要 warm-up？需要。")


def test_rows_separated_by_pipes_without_a_rule_are_labelled_rows(deck) -> None:
    card = _card(deck, "rmsnorm")
    rows = "models:\n    BERT     | LN       | post\n    LLaMA    | RMSNorm  | pre + final\n"
    assert {"bert-post-ln", "llama-rmsnorm", "llama-prenorm"} <= hits(card, rows)
    assert prepare(rows).text.splitlines()[1].strip() == "bert∶ ln, post"
    # a norm's bars and an absolute value are no cells
    assert "∶" not in prepare("||J||_2 = 1/sigma = sqrt(D)/||x - mu*1||, see |a| and |b|\n||y||^2 = D").text


def test_a_label_may_carry_a_bracketed_aside(main_card) -> None:
    """"Post-LN (Vaswani et al. 2017, BERT): formula" over "Pre-LN (GPT-2 onwards, every LLM): formula", neither
    line ending in a full stop: each line is its own labelled statement, so neither formula is given to the
    other placement (a strong answer was charged both swaps)."""
    text = ("Post-LN (Vaswani et al. 2017, BERT): x_{l+1} = LN(x_l + F(x_l))\n"
            "Pre-LN (GPT-2 onwards, basically every LLM): x_{l+1} = x_l + F(LN(x_l)), plus a final LN.")
    assert {"post-formula", "pre-formula"} <= hits(main_card, text)
    assert not mistakes(main_card, text)


def test_small_layout_signs_do_not_split_or_steal_a_claim() -> None:
    from lndrill.scoring.lexicon import tokenize
    from lndrill.scoring.structure import analyse

    def layout(text: str):  # noqa: ANN202
        text = text.lower()
        tokens = tokenize(text)
        return analyse(text, tokens, text), [t.key for t in tokens]

    # "!=" is not an exclamation mark: one sentence
    lay, keys = layout('"not needed" != "no benefit", so no contradiction')
    assert lay.sentence_of[keys.index("need")] == lay.sentence_of[keys.index("contradiction")]
    # a colon inside a bracket does not cut the clause around it
    lay, keys = layout("pre-ln llms still warm up very briefly for safety (llama 2: 2,000 steps) for adam's sake")
    assert lay.clause_of[keys.index("warm")] == lay.clause_of[keys.index("sake")]

    # "is Pre-LN-like;" is a likeness said of another subject; "Pre-LN-like stability" still credits Pre-LN
    assert is_partner("Its gradient flow is Pre-LN-like; each increment is bounded.", "pre")
    assert not is_partner("Admin keeps Post-LN's quality with Pre-LN-like stability.", "pre")


def test_emphasis_code_values_and_nouns_are_read_as_meant(deck, main_card) -> None:
    xiong = _card(deck, "xiong-theorem")
    # one emphasised word inside a sentence is the word ("**Backprop**" alone on its line stays a heading)
    assert "post-flat-in-depth" in hits(xiong, "Post-LN's last-layer gradient bound does *not* grow with L.")
    assert prepare("**Backprop**\nIt does *not* grow.").text == "**backprop**\nit does  not  grow."
    # "the skip" is the skip path, no negation
    assert "update-rule" in hits(_card(deck, "deepnorm"),
                                 "What changes is the weight on the skip: x_{l+1} = LN(alpha * x_l + G(x_l)) with alpha > 1.")
    # "since" as an adverb of time does not cut the sentence
    assert "llm-choose-pre" in hits(main_card, "That stability is why practically every LLM since has gone Pre-LN.")
    # "norm_first=False" is a value in code, not a verdict on the sentence
    assert "post-formula" in hits(main_card, "norm_first=False gives Post-LN, x = LN(x + F(x)).")


def test_once_saying_how_often_is_no_condition(deck) -> None:
    from lndrill.scoring.lexicon import tokenize
    from lndrill.scoring.polarity import Polarity
    from lndrill.scoring.structure import analyse

    def qualifier(text: str, word: str) -> str | None:
        text = text.lower()
        tokens = tokenize(text)
        lay = analyse(text, tokens, text)
        i = [t.key for t in tokens].index(word)
        return Polarity(lay).qualifier(i, i + 1)

    assert qualifier("in admin omega is computed once from a forward pass and kept fixed", "kept") is None
    assert qualifier("once training starts, the output change grows like o(n)", "grow") == "condition"


def test_a_refutation_that_names_its_content_refutes_only_that(deck) -> None:
    card = _card(deck, "xiong-theorem")
    text = "Post-LN's bound is O(d sqrt(ln d)), independent of L, and the myth that it grows with L is wrong."
    assert {"post-flat-in-depth", "myth-wrong"} <= hits(card, text)
    assert "post-flat-in-depth" not in hits(card, "Post-LN's bound is independent of L; that is a myth.")


def test_an_order_of_growth_is_a_value_bound_to_o() -> None:
    from lndrill.scoring.formula import find_bindings

    def bound(text: str) -> list[tuple[float, ...]]:
        return [b.value for b in find_bindings(prepare(text).text) if b.symbol == "O"]

    right, = bound("Pre-LN: O(d sqrt(ln d / L))")
    wrong, = bound("Pre-LN: O(d sqrt(ln d)/L)")
    assert right != wrong  # the brackets decide where the depth goes
    assert bound(r"$O(d\sqrt{\ln d / L})$") == [right] == bound("Θ(d √(ln d/L))")
    assert bound("alpha = (2N)^(1/4)") == []


def test_a_verb_of_breaking_before_because_does_not_deny_the_cause(deck) -> None:
    card = _card(deck, "admin-amplification")
    text = "Post-LN breaks because its output is too sensitive to parameter updates, not because of the gradient size."
    assert {"amplification", "not-gradient"} <= hits(card, text)


def test_neither_nor_is_one_denial(main_card) -> None:
    """"can neither vanish nor explode" denies exploding; the two cue words do not cancel out."""
    text = ("Because Post-LN normalizes the full residual sum, gradients can neither vanish nor explode no matter how "
            "deep the stack is.")
    assert "post-depth-hard" not in hits(main_card, text)


def test_a_verb_of_denial_refutes_the_clause_it_introduces(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "admin-blames-gradient" in mistakes(card, "Admin says gradients are the root cause.")
    for text in ("Admin (Liu et al. 2020) disputes that gradients are the root cause at all.",
                 "Liu et al. deny that the gradients are the root cause.",
                 "Admin 否认梯度是根本原因。"):
        assert "admin-blames-gradient" not in mistakes(card, text), text
    # a negated denial affirms
    assert "admin-blames-gradient" in mistakes(card, "Nobody disputes that Admin says gradients are the root cause.")


def test_a_subject_followed_by_its_own_formula_is_no_ellipsis(deck) -> None:
    """"LN's is (...), removing the mean and radial directions; RMSNorm's is (...), removing only the radial one":
    RMSNorm gets its own formula and predicate, not LayerNorm's."""
    card = _card(deck, "rmsnorm")
    text = ("Jacobians at unit gain: LN's is (1/s)(I - 11^T/d - yy^T/d), removing both the mean direction and the "
            "radial direction; RMSNorm's is (1/r)(I - yy^T/d), removing only the radial direction.")
    assert not mistakes(card, text)
    assert "rmsnorm-kills-mean" in mistakes(card, "RMSNorm's Jacobian removes the mean direction.")
    main = _card(deck, "pre-vs-post-ln")
    assert "pre-no-warmup" in hits(main, "Post-LN needs warm-up; Pre-LN doesn't (at least not at small scale).")


def test_a_received_view_is_reported_not_affirmed(deck) -> None:
    card = _card(deck, "xiong-theorem")
    claim = "Post-LN gradients explode as the network gets deeper."
    assert "post-grows-with-depth" in mistakes(card, claim)
    for opener in ("The popular story is that", "The folklore is that", "The usual story goes that",
                   "A common misconception is that"):
        assert "post-grows-with-depth" not in mistakes(card, f"{opener} {claim[0].lower()}{claim[1:]}"), opener
    assert "post-grows-with-depth" in mistakes(card, f"The real story is that {claim[0].lower()}{claim[1:]}")


@pytest.mark.parametrize("text", [
    "Componentwise: J_ij = (δ_ij − 1/D − y_i y_j / D) / σ.",
    r"$\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{\sigma}\Big(\delta_{ij} - \frac1N - \frac{\hat x_i \hat x_j}{N}\Big)$",
    "∂y_i/∂x_j = (1/σ)(δ_{ij} − 1/d − y_i·y_j/d)",
])
def test_a_jacobian_in_index_notation_is_the_matrix_formula(deck, text: str) -> None:
    assert "jacobian-formula" in hits(_card(deck, "layernorm-jacobian"), text)


@pytest.mark.parametrize("text", [
    # other index letters, with hats
    r"$$\frac{\partial \hat x_k}{\partial x_j} = \frac{1}{\sigma}\left(\delta_{kj} - \frac{1}{N} - \frac{\hat x_k \hat x_j}{N}\right)$$",
    # the indicator instead of the delta
    "J_ij = (1_{i=j} − 1/D − y_i y_j/D)/s",
    # the three terms written apart, the 1/σ inside each
    "J_ij = δ_ij/σ − 1/(Nσ) − x̂_i x̂_j/(Nσ)",
    # the 1/N taken out in front
    "J_kj = (1/(Nσ)) (N δ_kj − 1 − x̂_k x̂_j)",
    # other factors between the two halves of the outer product
    r"$= \left(1_{i=j} - \frac{1}{N}\right)\frac{1}{\sigma} - \hat x_i \frac{1}{N}\frac{1}{\sigma}\hat x_j$",
])
def test_a_jacobian_in_any_index_notation_is_the_matrix_formula(deck, text: str) -> None:
    assert "jacobian-formula" in hits(_card(deck, "layernorm-jacobian"), text)


@pytest.mark.parametrize("text", [
    "dL/dx_i = (1/σ)(g_i − (1/N) Σ_j g_j − x̂_i (1/N) Σ_j g_j x̂_j)",
    # the upstream gradient as the loss's derivative, the radial term's coefficient over the 1/d
    r"$$\frac{\partial L}{\partial x_i} = \frac{1}{\sigma}\left(\frac{\partial L}{\partial \hat{x}_i}"
    r" - \frac{1}{d}\sum_{j=1}^{d}\frac{\partial L}{\partial \hat{x}_j}"
    r" - \frac{\hat{x}_i}{d}\sum_{j=1}^{d}\frac{\partial L}{\partial \hat{x}_j} \cdot \hat{x}_j\right)$$",
    r"$$\frac{\partial L}{\partial x_i} = \frac{1}{s}\Big(dy_i - \frac{1}{D}\sum_{j=1}^{D} dy_j - \hat x_i\,\frac{1}{D}\sum_{j=1}^{D} dy_j \hat x_j\Big)$$",
])
def test_a_backward_formula_per_coordinate_is_the_vector_formula(deck, text: str) -> None:
    assert "backward-formula" in hits(_card(deck, "layernorm-jacobian"), text)


def test_only_a_mean_of_one_or_two_indexed_factors_becomes_a_mean() -> None:
    assert prepare("g_x = (1/s) (g_i - (1/D) sum_j g_j)").text == "g_x = (1/s) (g - mean(g))"  # g_x keeps its x
    assert prepare("the RMS is sqrt((1/N) sum_j a_j^2)").text == "the rms is sqrt((1/n) sum_j a_j^2)"  # squares
    assert prepare("(1/N) sum_j a_j b_j c_j").text == "(1/n) sum_j a_j b_j c_j"  # three factors
    # the Jacobian and the backward formula on one line: the summed x_j is no half of an outer product, and
    # "(1/N) Σ_j" no ones term
    assert prepare("J_ij = (δ_ij − 1/N − x_i x_j/N)/σ; dL/dx_i = (1/σ)(g_i − (1/N) Σ_j g_j − x_i (1/N) Σ_j g_j x_j)").text == (
        "j_ij = (i - 11^t/n - xx^t/n)/sigma; dl/dx_i = (1/sigma)(g - mean(g) - x mean(g * x))")


def test_index_notation_is_rewritten_only_beside_a_kronecker_delta() -> None:
    assert prepare("J_ij = (δ_ij − 1/N − x_i x_j/N)/σ").text == "j_ij = (i - 11^t/n - xx^t/n)/sigma"
    assert prepare("the loss is x_i x_j - 1/N").text == "the loss is x_i x_j - 1/n"  # no delta: left alone
    assert prepare("(δ_ij − 1/N x_i)").text == "(i - 1/n x_i)"  # 1/N times something is no ones term


def test_a_negation_character_inside_a_longer_word_denies_nothing(deck) -> None:
    card = _card(deck, "layernorm-jacobian")
    assert "kills-mean" in hits(card, "两项分别去掉了 g 在全 1 方向上的分量。")
    assert "kills-mean" not in hits(card, "它没有去掉全 1 方向上的分量。")


def test_a_sum_said_aloud_before_a_function_call_is_a_formula(deck) -> None:
    assert prepare("x 加 LN(F(LN(x)))").text == "x + ln(f(ln(x)))"
    assert prepare("x plus F(LN(x))").text == "x + f(ln(x))"
    assert prepare("再加一个 LN(x)，warm-up plus Adam").text == "再加一个 ln(x),warm-up plus adam"  # no operands: words
    card = _card(deck, "sandwich-ln")
    assert "formula" in hits(card, "三明治就是 F 出来之后再套一个 LN，然后再加回去，x 加 LN(F(LN(x)))。")


def test_a_sentence_that_carries_the_last_one_over_names_its_subject(deck, main_card) -> None:
    """"... x = LN(x + F(x)). BERT kept that." earns BERT's point; "That's Post-LN." names the placement of the
    formula before it. The subject is carried over, so it is never charged."""
    who = _card(deck, "ln-who-uses-what")
    told = "The 2017 Transformer applied LayerNorm after the residual add, `x = LN(x + F(x))`."
    assert "bert-post" in hits(who, f"{told} BERT kept that.")
    assert "bert-post" not in hits(who, f"{told} BERT did not.")
    assert "bert-post" not in hits(who, f"{told}\n\nBERT kept that.")  # another paragraph
    assert "post-formula" in hits(main_card, "You add first and then normalise: x_{l+1} = LN(x_l + F(x_l)). That's Post-LN.")
    swapped = "You add first and then normalise: x_{l+1} = LN(x_l + F(x_l)). That's Pre-LN."
    assert not mistakes(main_card, swapped)


def test_the_owner_of_what_is_taken_over_is_not_the_subject(deck) -> None:
    who = _card(deck, "ln-who-uses-what")
    assert "llama-rms" in hits(who, "LLaMA kept GPT-2's layout and swapped LayerNorm for RMSNorm.")
    assert "transformer-post" in hits(who, "The 2017 original applied LayerNorm after the residual add.")


def test_two_versions_in_one_name_are_two_names(deck) -> None:
    assert prepare("GPT-2/3 and Llama-2/3, fp16/32").text == "gpt-2/gpt-3 and llama-2/llama-3, fp16/fp32"
    assert prepare("sqrt 1/2, d^-1/2, x_1/2").text == "sqrt 1/2, d^-1/2, x_1/2"  # no name, or an exponent
    card = _card(deck, "rmsnorm")
    assert "gpt-rmsnorm" in mistakes(card, "GPT-2/3 switched to RMSNorm.")


def test_a_decimal_without_its_leading_zero_is_a_number(deck) -> None:
    assert prepare("Adam β1 .9 / β2 .98, x=.5, (.5)").text == "adam beta 1 0.9 / beta 2 0.98, x=0.5, (0.5)"
    assert prepare("file.py, v.2, ...9, 3.14").text == "file.py, v.2, ...9, 3.14"
    assert "adam-betas" in hits(_card(deck, "post-ln-warmup"), "- Adam β1 .9 / β2 .98 / ε 1e-9")


def test_a_pipe_table_without_a_rule_line_is_a_table(deck) -> None:
    notes = ("evidence (Xiong, IWSLT14 De-En, Post-LN)\n| setting | BLEU |\n| Adam, no warmup | 8.45 |\n"
             "| Adam, 4000 warmup | ~34 |\n| 500 warmup, lr 5e-4 | 31.16 |\n")
    assert "bleu adam, no warmup∶ 8.45." in prepare(notes).text
    assert "xiong-no-warmup-bleu" in hits(_card(deck, "post-ln-warmup"), notes)
    assert prepare("| a | b |\n| c | d |\n").text == "| a | b |\n| c | d |\n"  # two rows: not enough to tell


def test_a_failure_far_down_a_list_does_not_turn_an_absence_into_a_need(main_card) -> None:
    listed = ("Large models went Pre-LN because it just trains: no warm-up needed at moderate LRs, forgiving of "
              "high LR, stable at 100+ layers, and one failed run costs a fortune.")
    assert "pre-no-warmup" in hits(main_card, listed)
    for need in ("Post-LN without warm-up, at a high learning rate, diverges.", "Without warm-up, Post-LN diverges.",
                 "Post-LN diverges without warm-up."):
        assert "post-needs-warmup" in hits(main_card, need), need


def test_a_name_in_an_aside_that_says_something_of_its_own_is_not_the_subject(main_card) -> None:
    text = ("Post-LN is still studied because when it does train it usually ends a bit better (DeepNet puts "
            "Pre-LN 0.5-1 BLEU behind).")
    assert "post-better-final" in hits(main_card, text)
    # an aside that only names what it follows still does
    assert "post-order" in hits(main_card, "LayerNorm can go after the residual add (Post-LN) or before the "
                                           "sublayer (Pre-LN).")


def test_a_chinese_statement_before_a_colon_is_no_label(deck) -> None:
    """"2017 年的原版 Transformer 是 Post-LN：..." states something; it does not label the line, so a later clause
    of the line ("前置归一化是后来的") is not charged to the original Transformer."""
    text = "2017 年的原版 Transformer 是 Post-LN：LN(x + Sublayer(x))；前置归一化是后来的（2018 年，之后是 GPT-2）。"
    assert not mistakes(_card(deck, "ln-who-uses-what"), text)
    assert "gpt-pre" in hits(_card(deck, "ln-who-uses-what"), "- GPT-2：Pre-LN，子层之前做 LN。")


def test_a_bare_pre_or_post_under_a_placement_column_is_the_placement(deck) -> None:
    table = ("| model | placement | norm |\n|---|---|---|\n| BERT | Post | LN |\n| GPT-2 | Pre | LN |\n"
             "| Gemma 2 | Pre + Post each sublayer | RMSNorm |\n")
    assert "placement bert∶ post-ln." in prepare(table).text
    assert {"bert-post", "gpt-pre"} <= hits(_card(deck, "ln-who-uses-what"), table)
    other = "| step | note |\n|---|---|\n| post | training |\n"  # not a placement column: left as written
    assert "note post∶ training." in prepare(other).text


def test_the_l2_index_of_a_norm_is_no_square(deck) -> None:
    assert prepare("O(√d/||x||₂) vs O(√d/||x||²)").text == "o(sqrt d/||x||) vs o(sqrt d/||x||^2)"
    assert prepare("||x||_2, ||x||_{2}^2, ||J||_F").text == "||x||, ||x||^2, ||j||_f"
    card = _card(deck, "layernorm-jacobian")
    assert "lemma3-squared-norm" not in mistakes(card, "Xiong et al. state Lemma 3 as ||J_LN(x)||₂ = O(√d/||x||₂).")
    assert "lemma3-squared-norm" in mistakes(card, "Lemma 3: ||J_LN(x)|| = O(√d/||x||²).")


def test_skip_before_what_it_does_is_the_skip_path(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    assert "trunk-never-normalised" in hits(card, "x_{l+1} = x_l + F(LN(x_l))  -> skip never normalised, pure running sum")
    assert "pre-can-drop" in hits(_card(deck, "warmup-for-pre-ln"), "Pre-LN lets you skip warm-up.")


def test_roughly_approximates_a_rate_it_does_not_hedge_it(deck) -> None:
    """"shrinks roughly like 1/l" still claims the 1/l rate (it is 1/sqrt(l)); "probably" still hedges."""
    card = _card(deck, "pre-ln-effective-depth")
    assert "relative-update-1-over-l" in mistakes(card, "In Pre-LN the relative contribution of block l shrinks roughly like 1/l.")
    assert "relative-update-1-over-l" not in mistakes(card, "In Pre-LN the relative contribution of block l probably shrinks like 1/l.")


def test_a_purpose_after_a_claim_does_not_qualify_the_claim(deck) -> None:
    """"X so that Y": Y is the purpose, X is asserted."""
    card = _card(deck, "ln-who-uses-what")
    assert "glm-sandwich" in mistakes(card, "GLM-130B uses Sandwich-LN so that training stays stable.")
    assert not mistakes(_card(deck, "post-ln-warmup"), "Post-LN uses warm-up so that Adam's variance estimate settles.")


def test_a_received_view_keeps_its_reading_past_who_holds_it(deck) -> None:
    """"A misconception I've heard (and believed for a while) is that X" reports X; "for a while" is a stretch of
    time, not the connective "while"."""
    card = _card(deck, "xiong-theorem")
    claim = "Post-LN's gradient near the output grows with the number of layers."
    assert "post-grows-with-depth" in mistakes(card, claim)
    for text in ("A misconception I've heard (and believed for a while) is that " + claim,
                 "The myth people repeat is that " + claim):
        assert "post-grows-with-depth" not in mistakes(card, text), text
    assert "post-grows-with-depth" in mistakes(card, "The story of Post-LN is that its gradient near the output grows with the number of layers.")


def test_a_chinese_absence_at_a_place_denies_what_is_absent_not_the_place(deck) -> None:
    """"主干上没有干净的恒等通路": no clean identity path on the trunk; the LN on the trunk is not denied."""
    card = _card(deck, "pre-vs-post-ln")
    ok = "Post-LN：每个子层都要乘一次 LN 雅可比，主干上没有干净的恒等通路。"
    assert "post-grad-avoids-ln" not in mistakes(card, ok)
    assert "post-grad-avoids-ln" in mistakes(card, "Post-LN：LN 不在主干上。")


def test_a_topic_opening_the_sentence_names_the_subject_of_every_clause(deck) -> None:
    """"For Pre-LN, ..., so the stream doesn't grow" is about Pre-LN in every clause, as a line label would be; a
    subject from the sentence before is still not explicit enough to charge."""
    card = _card(deck, "pre-ln-effective-depth")
    for text in ("For Pre-LN, the blocks only add their outputs, so the residual stream doesn't grow with l.",
                 "对于 Pre-LN，每个 block 只是把输出加上去，所以残差流保持不变。"):
        assert "pre-stream-fixed" in mistakes(card, text), text
    inherited = "Pre-LN only adds block outputs. So the residual stream doesn't grow with l."
    assert "pre-stream-fixed" not in mistakes(card, inherited)


def test_what_a_claim_is_compared_with_inside_a_part_is_not_claimed(deck) -> None:
    """"so unlike the stream its output doesn't grow": the stream is the other side of the comparison."""
    card = _card(deck, "pre-ln-effective-depth")
    text = "In Pre-LN, x_{l+1} = x_l + F_l(LN(x_l)), the branch sees a unit-scale input, so unlike the stream its output doesn't grow with l."
    assert "pre-stream-fixed" not in mistakes(card, text)
    assert "pre-stream-fixed" in mistakes(card, "In Pre-LN the residual stream doesn't grow with l.")


def test_a_chinese_sentence_with_verbs_of_becoming_and_causing_is_prose_not_a_keyword_list(deck) -> None:
    """"..., FP16 混合精度训练时某些层输出值过大导致上溢，loss 变 NaN。" has few particles but 导致 and 变 are verbs:
    a sentence, whose claims count."""
    card = _card(deck, "sandwich-ln")
    text = ("CogView（Ding et al., NeurIPS 2021），4B 参数的文生图 Transformer，FP16 混合精度训练时某些层输出值过大导致上溢，"
            "loss 变 NaN。")
    assert {"cogview", "fp16-overflow"} <= hits(card, text)


def test_after_a_refuted_myth_the_writers_own_account_is_affirmed(deck) -> None:
    """"The myth is X; actually Y" / "常见误解是 X，其实 Y": X is refuted, Y is what the writer claims (charged if wrong)."""
    card = _card(deck, "xiong-theorem")
    wrong = "Post-LN's gradient near the output grows with the number of layers"
    assert "post-grows-with-depth" in mistakes(card, f"People often say Pre-LN is simply better, which is a myth; in fact {wrong}.")
    assert "post-grows-with-depth" in mistakes(card, "常见误解是 Pre-LN 更好，其实 Post-LN 输出端的梯度随层数增长。")
    assert "post-grows-with-depth" not in mistakes(card, f"{wrong}, which is actually a myth.")
    assert "post-grows-with-depth" not in mistakes(card, f"The common myth is that {wrong}.")


def test_a_condition_that_only_says_how_a_result_is_measured_does_not_qualify_it(deck) -> None:
    """"When you update the parameters, X" / "If you compute the Jacobian instead, X": X is the writer's claim; a
    condition that limits the procedure ("with a large learning rate") still qualifies it."""
    card = _card(deck, "admin-amplification")
    claim = "the output change grows exponentially with depth"
    assert "post-change-superlinear" in mistakes(card, f"In Post-LN, when you update the parameters, {claim}.")
    assert "post-change-superlinear" in mistakes(card, f"In Post-LN, if we measure it after one Adam step, {claim}.")
    assert "post-change-superlinear" not in mistakes(
        card, f"In Post-LN, when you update the parameters with a large learning rate, {claim}.")
    assert "post-change-superlinear" not in mistakes(card, f"In Post-LN, if the model is very deep, {claim}.")


def test_given_as_a_participle_and_so_as_without_to_qualify_nothing(deck) -> None:
    """"the reason given was X" states X; "Given a deep stack, X" is a condition. "so as you stack blocks" is not a
    purpose; "so as to X" is."""
    card = _card(deck, "sandwich-ln")
    assert "sandwich-for-vanishing" in mistakes(card, "The reason given was that CogView added Sandwich-LN to fix vanishing gradients.")
    assert "sandwich-for-vanishing" not in mistakes(card, "Given a deep stack, CogView added Sandwich-LN to fix vanishing gradients.")
    final = _card(deck, "pre-ln-final-norm")
    assert "stream-rate-at-init" in mistakes(
        final, "In Pre-LN the norm of the residual stream grows exponentially with depth at init, so as you stack blocks the final LN matters more.")


def test_a_line_label_governs_its_sentence_wrapped_onto_the_next_line(deck) -> None:
    """"- GLM-130B: DeepNorm, whose residual is scaled by\\n  alpha = (2N)^(1/4)": the wrapped half is still about
    GLM-130B; what a choice passed over ("chose it over Pre-LN") is not claimed."""
    card = _card(deck, "ln-who-uses-what")
    wrapped = "- GLM-130B: DeepNorm, a Post-LN whose skip is multiplied by a constant\n  before the add; alpha = (2N)^(1/4) for N layers.\n- T5: pre-norm."
    assert "glm-deepnet-alpha" in mistakes(card, wrapped)
    chose = "GLM-130B: Post-LN via DeepNorm, LN(αx + F(x)) with\nα = (2N)^{1/2}; they chose it for stability over Pre-LN at that scale."
    assert "glm-pre" not in mistakes(card, chose)
    assert "glm-pre" in mistakes(card, "GLM-130B: Pre-LN.")


def test_a_modal_does_not_reach_a_second_verb_joined_by_and(deck) -> None:
    """"Pre-LN can be trained without warm-up and ends up better": "can" qualifies the training, not the ending."""
    card = _card(deck, "xiong-theorem")
    assert "pre-better-final" in mistakes(card, "Pre-LN can be trained without warm-up and ends up with clearly better final quality than Post-LN.")
    assert "pre-better-final" not in mistakes(card, "Pre-LN can end up with clearly better final quality than Post-LN.")


def test_a_refutation_that_names_its_myth_does_not_refute_the_sentence_before(deck) -> None:
    """"This is a bound at initialisation, and the common myth that X is wrong" refutes X, not the claim before it."""
    card = _card(deck, "pre-ln-final-norm")
    before = ("The gradient to the last layer passes through the final LN, whose Jacobian norm is O(sqrt(d)/||x||), and "
              "||x_L|| grows like sqrt(L), giving the Pre-LN bound O(d sqrt(ln d / L)) versus Post-LN's O(d sqrt(ln d)).")
    after = " This is a bound at initialisation, and the common myth that Post-LN's bound grows with L is wrong."
    assert "final-ln-in-theory" in hits(card, before)
    assert "final-ln-in-theory" in hits(card, before + after)


def test_british_ise_spellings_read_as_ize_and_other_ise_words_stay() -> None:
    from lndrill.scoring.lexicon import tokenize
    keys = [t.key for t in tokenize("normalises normalised initialisation stabilising regularised otherwise precise premise")]
    assert keys[:4] == [t.key for t in tokenize("normalizes normalized initialization stabilizing")]
    assert keys[4] == tokenize("regularized")[0].key
    assert keys[5:] == ["otherwis", "precis", "premis"]  # not "otherwize": the cue "otherwise" still matches


def test_a_british_spelling_earns_the_point_its_american_spelling_does(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    for text in ("In post-norm the normalization sits on the residual path itself.",
                 "In post-norm the normalisation sits on the residual path itself."):
        assert "post-grad-through-ln" in hits(card, text), text


def test_why_opening_a_line_label_does_not_make_the_line_a_condition(deck) -> None:
    """"Why Post-LN is still studied: Pre-LN usually reaches a better final score" asserts what follows the label;
    "We need to look at why X" still asserts nothing."""
    card = _card(deck, "pre-vs-post-ln")
    claim = "Pre-LN usually reaches a better final score than Post-LN."
    assert "pre-better-final" in mistakes(card, "Why Post-LN is still studied: " + claim)
    assert "pre-better-final" not in mistakes(card, "We need to look at why " + claim)


def test_a_bare_possessive_pre_or_post_names_its_subject_over_a_wrapped_label(deck) -> None:
    """"- why Post worse: ...; Pre's stream\\n  accumulates so each new branch is a shrinking fraction": the wrapped
    clause is about Pre (named after the label), not Post."""
    card = _card(deck, "admin-amplification")
    text = ("- why Post worse: LN after each add renormalizes the sum, shortcut can't dominate; Pre's stream\n"
            "  accumulates so each new branch is a shrinking fraction\n")
    assert "post-light-dependency" not in mistakes(card, text)


def test_dotted_abbreviations_end_no_sentence() -> None:
    """"flat w.r.t. L" is one claim: the dots of "w.r.t." and "a.k.a." are not full stops."""
    assert prepare("Post-LN's bound is flat w.r.t. L. Pre-LN, a.k.a. pre-norm, shrinks.").text == (
        "post-ln's bound is flat wrt l. pre-ln, aka pre-norm, shrinks.")
    assert prepare("W.R.T x").text == "wrt x"


def test_traditional_chinese_and_written_cantonese_read_as_simplified_mandarin() -> None:
    """One character for one character, so every offset back to the answer still holds."""
    p = prepare("Pre-LN 的殘差流沒有經過歸一化，層數越深範數越大。")
    assert p.text == "pre-ln 的残差流没有经过归一化,层数越深范数越大。"
    assert len(p.text) == len(p.origin)
    assert prepare("唔係 gradient 真係 vanish 咗，係個 loss 冇嘢可以量。").text == (
        "不是 gradient 真是 vanish 了,是个 loss 没物可以量。")
    assert prepare("冇關係").text == "没关系"  # 係 in 關係 is the 系 of 关系, not the Cantonese copula


def test_a_traditional_chinese_answer_earns_what_its_simplified_twin_earns(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    simplified = "Post-LN：x_{l+1} = LN(x_l + F(x_l))，先残差相加再归一化。Pre-LN：x_{l+1} = x_l + F(LN(x_l))，梯度可以沿恒等路径直达底层，不用 warm-up。"
    traditional = "Post-LN：x_{l+1} = LN(x_l + F(x_l))，先殘差相加再歸一化。Pre-LN：x_{l+1} = x_l + F(LN(x_l))，梯度可以沿恆等路徑直達底層，不用 warm-up。"
    assert hits(card, traditional) == hits(card, simplified)
    assert len(hits(card, simplified)) >= 4
    assert score_answer(card, traditional).score == score_answer(card, simplified).score


def test_a_subject_opening_its_sentence_is_explicit_for_the_clauses_after_it(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    # the later clause names no subject of its own: the sentence's opening subject is the one it is about
    said = "Post-LN's problem is that its activations are bounded while its gradients explode exponentially with depth."
    assert "post-grad-grows-with-depth" in mistakes(card, said)
    rms = _card(deck, "rmsnorm")
    said = "RMSNorm's Jacobian is (1/r)(I - yy^T/d), which looks simpler, but in effect it also removes the mean direction."
    assert "rmsnorm-kills-mean" in mistakes(rms, said)
    # named only in the middle of the sentence, the subject is not explicit for a later clause
    assert "post-grad-grows-with-depth" not in mistakes(
        card, "Compared with what people expect of Post-LN, the activations are bounded while the gradients explode with depth.")


def test_an_opening_subject_does_not_reach_past_a_semicolon_or_colon(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    # after ";" the sentence is about the other formula (the deck's own explanation, which must draw nothing)
    text = ("Post-LN normalises the residual sum, LN(x + F(x)); x + LN(F(x)) normalises only the branch output and "
            "leaves the stream un-normalised.")
    assert mistakes(card, text) == set()
    eff = _card(deck, "pre-ln-effective-depth")
    text = "Post-LN re-normalises the stream after every block: each block keeps a comparable share, and the shrinking relative update is what you see without it."
    assert "post-relative-shrinks" not in mistakes(eff, text)


def test_a_note_ending_in_a_tick_is_a_claim_but_a_checklist_of_words_is_not(deck) -> None:
    card = _card(deck, "deepnorm")
    assert "thousand-layers" in hits(card, "Results:\n- 1000 layers (500+500) ✓\n- BLEU +5 over M2M-100")
    # ticks after bare words, one per word, are still a keyword list
    assert "thousand-layers" not in hits(card, "1000 layers ✓ DeepNorm ✓ alpha ✓ beta ✓")


@pytest.mark.parametrize("text", [
    "Post-LN needs warm-up to not fall apart.",
    "Post-LN needs warm-up so as not to diverge in the first steps.",
    "Post-LN 需要 warm-up 才不会发散。",
    "Post-LN 需要 warm-up，以免训练一开始就崩掉。",
    "Post-LN 需要 warm-up 否则会发散。",
    # "to avoid": the 免 inside 避免 negates what is avoided, not the warm-up before it
    "Post-LN 需要一段 warm-up 以避免训练初期发散。",
    "Post-LN 需要 warm-up 避免一开始就崩掉。",
])
def test_a_negation_inside_a_purpose_after_the_claim_does_not_deny_it(deck, text) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "post-no-warmup-needed" not in mistakes(card, text)
    assert "post-needs-it" in hits(card, text)


def test_a_plain_denial_after_the_claim_still_denies_it(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "post-no-warmup-needed" in read_as(card, "Post-LN does not need warm-up.")
    assert "post-no-warmup-needed" in read_as(card, "Post-LN 不需要 warm-up。")


def test_a_modal_before_a_comma_phrase_waits_for_its_verb(deck) -> None:
    xiong = _card(deck, "xiong-theorem")
    text = ("The Post-LN gradient near the output is large at init, so warm-up is needed; Pre-LN can, at moderate "
            "learning rates, drop it.")
    assert "pre-needs-warmup" not in mistakes(xiong, text)  # not "Pre-LN can [need warm-up]"
    warm = _card(deck, "post-ln-warmup")
    assert "pre-no-warmup" in hits(warm, "Post-LN needs warm-up; Pre-LN can, at moderate learning rates, drop it.")


def test_an_ellipsis_hedged_by_a_modal_is_not_charged(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "pre-needs-warmup" not in mistakes(card, "Post-LN needs warm-up, and Pre-LN can, too.")
    assert "pre-needs-warmup" in mistakes(card, "Post-LN needs warm-up, and Pre-LN does too.")


@pytest.mark.parametrize("text", [
    "dx = dy/σ − mean(dy)/σ − xhat·mean(dy·xhat)/σ",
    "g_x = g/s - mean(g)/s - y * mean(g * y)/s",
])
def test_an_equation_phrase_does_not_match_the_start_of_a_longer_formula(deck, text) -> None:
    card = _card(deck, "layernorm-jacobian")
    assert "backward-plain-division" not in mistakes(card, text)  # the correct backward pass, expanded
    assert "backward-plain-division" in mistakes(card, "Backward: g_x = g/s.")


def test_an_opening_subject_reaches_a_later_clause_only_through_a_pronoun(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = ("In Pre-LN the residual path is a pure identity, so the gradient has a direct route to every layer, and "
            "the final norm scales the top gradients down.")
    assert mistakes(card, text) == set()


def test_a_belief_named_with_that_is_reported_not_claimed(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    text = "BERT: it's a common belief that BERT is Pre-LN. It isn't; the released code is Post-LN."
    assert "bert-pre" not in mistakes(card, text)
    assert "bert-post" in hits(card, text)
    assert "bert-pre" in mistakes(card, "BERT is Pre-LN.")
    assert "bert-pre" in mistakes(card, "My belief is that BERT is Pre-LN.")


@pytest.mark.parametrize("text", [
    "So the issue is that output-side gradients are large at init, not that they grow with depth.",
    "It's not that Post-LN gradients grow with depth; they are large near the output.",
])
def test_not_that_denies_what_follows(deck, text) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "grad-grows-with-depth" not in mistakes(card, text)


def test_not_that_denies_a_denial_once(deck) -> None:
    # The that-clause holds its own denial ("pointless", "unnecessary"): "not that" denies the clause as a whole, so
    # the denial inside it is not confirmed twice over.
    card = _card(deck, "warmup-for-pre-ln")
    for text in ("Xiong et al. show Pre-LN can skip warm-up at 5e-4, not that warm-up is pointless at any learning rate.",
                 "For Pre-LN, it is not that warm-up is unnecessary at any learning rate; it is optional at moderate ones."):
        assert "pre-drop-at-any-lr" not in mistakes(card, text), text
    assert "pre-drop-at-any-lr" in mistakes(card, "For Pre-LN, warm-up is pointless at any learning rate.")


def test_a_claim_mostly_inside_quotation_marks_is_discussed_not_made(deck) -> None:
    card = _card(deck, "toy-metric-artifact")
    text = "I'd resist the reading \"this proves Post-LN gradients vanish\", but also the opposite overcorrection."
    assert "toy-shows-vanishing" not in mistakes(card, text)
    assert "toy-shows-vanishing" in mistakes(card, "The reading is that this proves Post-LN gradients vanish.")


def test_an_index_before_a_full_stop_ends_the_sentence(deck) -> None:
    # "1/i." is a layer index, not "i.e.": the next sentence's "heavy dependency" is not about Pre-LN
    card = _card(deck, "admin-amplification")
    text = ("In Pre-LN the stream keeps growing and the newest branch carries roughly 1/i. Heavy dependency means a "
            "parameter perturbation in every branch passes straight to the output.")
    assert "pre-heavy-dependency" not in mistakes(card, text)
    for text, sentences in (("Branch i. Then the next one.", 2), ("Pre-LN, i.e. the GPT-2 layout, is stable.", 1),
                            ("Models, e.g. GPT-2, use it. Also i. e. spaced.", 2)):
        assert len(set(Analysis(rubric_for(card), text).lay.sentence_of)) == sentences, text


@pytest.mark.parametrize("text", [
    "Sandwich-LN is Pre-LN plus a norm on the branch output, x + LN(F(LN(x))), as opposed to Pre-LN's x + F(LN(x)).",
    "Easiest to see Sandwich-LN starting from Pre-LN, x_{l+1} = x_l + F(LN(x_l)), and notice what it leaves alone.",
])
def test_a_formula_beside_a_comparison_partner_belongs_to_it(deck, text) -> None:
    card = _card(deck, "sandwich-ln")
    assert "sandwich-single-ln" not in mistakes(card, text)


def test_a_formula_right_after_the_other_side_of_vs_belongs_to_that_side(deck) -> None:
    card = _card(deck, "xiong-theorem")
    text = "Post-LN is top-heavy, Θ(d√(ln d)), vs Pre-LN O(d√(ln d/L)) which is balanced."
    assert {"post-bound-form", "pre-bound-shrinks"} <= hits(card, text)
    assert "post-bound-shrinks" not in mistakes(card, text)
    # a name set against without its own formula leaves the claim with the subject
    assert "pre-bound-shrinks" not in hits(card, "Post-LN vs Pre-LN: Post-LN's bound is O(d√(ln d/L)).")


def test_two_things_set_against_each_other_after_two_names_pair_up_by_position(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert {"post-formula", "pre-formula"} <= hits(card, "Post-LN versus Pre-LN. LN(x + F(x)) versus x + F(LN(x)).")
    # crossed: neither formula is credited, and nothing is charged (the pairing is never explicit)
    crossed = "Pre-LN vs Post-LN. LN(x + F(x)) vs x + F(LN(x))."
    assert not {"post-formula", "pre-formula"} & hits(card, crossed)
    assert not mistakes(card, crossed)
    # a formula sentence that is not a pair keeps the ordinary reading
    assert "post-formula" in hits(card, "Pre-LN vs Post-LN. The original block computes LN(x + F(x)).")


def test_a_formula_after_a_fronted_comparison_still_belongs_to_the_claim(deck) -> None:
    card = _card(deck, "sandwich-ln")
    assert "sandwich-single-ln" in mistakes(card, "Sandwich-LN: x_{l+1} = x_l + F(LN(x_l)).")


def test_names_with_colons_label_notes_flattened_onto_one_line(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "区别 [[Pre Norm]] :<-> x + f(norm(x)) 先残差再 norm [[Post Norm]] :<-> norm(x + f(x))"
    assert mistakes(card, text) == set()
    assert {"pre-formula", "post-formula"} <= hits(card, text)
    # the same line with the labels swapped is still charged
    swapped = "区别 [[Post Norm]] :<-> x + f(norm(x)) 先残差再 norm [[Pre Norm]] :<-> norm(x + f(x))"
    assert "pre-formula-given-for-post" in mistakes(card, swapped)


def test_a_two_way_arrow_is_an_equivalence_not_a_sequence() -> None:
    from lndrill.scoring.lexicon import tokenize
    keys = [t.key for t in tokenize("pre norm :<-> x ↔ y ⇔ z -> w")]
    assert keys == ["pre", "norm", ":", "=", "x", "=", "y", "=", "z", "\u2192", "w"]


def test_the_total_is_on_an_interviewers_scale(main_card) -> None:
    from lndrill.scoring.result import to_interviewer_scale
    values = [to_interviewer_scale(x) for x in range(0, 101)]
    assert values[0] == 0 and values == sorted(values)  # monotone: no ranking changes
    assert values[100] == 90 == values[90] and 40 <= values[40] <= 41  # the last tenth adds nothing; the middle is left alone
    one = score_answer(main_card, "Post-LN needs warm-up.")
    assert one.points < one.score <= 2 * one.points  # one part done: an interviewer gives more than its weight
    assert score_answer(main_card, "").score == 0
    full = score_answer(main_card, main_card.model_answer.get("en"))
    # plus what its concrete values say, plus or minus how much it explains
    assert full.points == 100 and full.score == 90 + full.specifics + full.elaboration


def test_denials_that_reach_the_next_clause(deck) -> None:
    admin = _card(deck, "admin-amplification")
    for text in ("大家一般以为 Post-LN 不稳定是梯度消失，但他们说其实那不是主要原因，主要原因是放大效应。",
                 "A Post-LN model doesn't fall over because some gradient is too big, it falls over because its output "
                 "is too sensitive to its own weights."):
        assert "not-gradient" in hits(admin, text), text
    # a verdict on an object ("people get that wrong") refutes nothing before it
    post = _card(deck, "pre-vs-post-ln")
    text = ("Xiong et al. showed that at init the gradients near the output are big for Post-LN. Not growing with depth "
            "(people get that wrong a lot), just large.")
    assert "post-large-output-grad" in hits(post, text)


def test_a_removal_verb_reaches_every_object_of_its_list(deck) -> None:
    card = _card(deck, "rmsnorm")
    for text in ("RMSNorm drops the mean subtraction and the bias.", "RMSNorm 去掉了减均值和偏置。",
                 "RMSNorm scales by the RMS only, dropping the mean-subtraction and bias parameter that LayerNorm uses."):
        assert "no-bias" in hits(card, text), text
    # a second predicate after "and" is not removed
    assert "rmsnorm-bias-not-gain" in mistakes(card, "RMSNorm drops the learned gain and keeps only a bias.")
    assert "cheaper" in hits(card, "RMSNorm loses nothing important and saves compute.")
    warm = _card(deck, "post-ln-warmup")
    text = "Xiong et al. removed warm-up from Post-LN and the BLEU on IWSLT14 fell to about 8.5 instead of 34."
    assert "xiong-no-warmup-bleu" in hits(warm, text)


def test_a_sublayers_own_parameters_are_not_part_of_the_block_formula() -> None:
    assert canonical("LN(alpha x_l + G_l(x_l, θ_l))") == canonical("LN(alpha x + G(x))") is not None
    assert canonical("x + F(x, y)") != canonical("x + F(x)")  # a second input is structure


def test_a_likeness_with_a_noun_before_to_names_a_yardstick(deck) -> None:
    card = _card(deck, "xiong-theorem")
    text = "Pre-LN Transformers can achieve comparable performance to Post-LN Transformers without the warm-up stage."
    assert "post-no-warmup" not in mistakes(card, text)
    assert is_partner("Pre-LN gives similar results to Post-LN.", "post")
    assert not is_partner("Pre-LN gives good results, and Post-LN needs warm-up.", "post")


def test_what_a_chinese_purpose_clause_denies_is_the_purpose(deck) -> None:
    card = _card(deck, "sandwich-ln")
    assert {"cogview", "fp16-overflow"} <= hits(card, "Sandwich-LN 的优点：CogView 用来避免值爆炸的问题。")
    assert "fp16-overflow" in hits(card, "CogView used Sandwich-LN to avoid FP16 overflow.")
    assert "fp16-overflow" not in hits(card, "Sandwich-LN does not prevent FP16 overflow.")


def test_a_wrong_purpose_earns_nothing_of_the_point_it_gets_wrong(deck) -> None:
    """"introduced it to stop FP16 underflow": a purpose is not charged as a mistake, but its words (FP16) are the wrong
    claim's, so they do not earn the FP16-overflow point either."""
    card = _card(deck, "sandwich-ln")
    assert "fp16-overflow" not in hits(card, "CogView introduced Sandwich-LN to stop FP16 underflow.")
    assert "fp16-overflow" in hits(card, "CogView introduced Sandwich-LN to stop FP16 overflow.")
    assert "fp16-underflow" not in mistakes(card, "CogView introduced Sandwich-LN to stop FP16 underflow.")


def test_without_it_right_after_warm_up_means_without_warm_up(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "Post-LN needs warm-up, whereas Pre-LN trained fine without it in their experiments."
    assert {"post-needs-warmup", "pre-no-warmup"} <= hits(card, text)
    assert "pre-no-warmup" in hits(card, "Post-LN 需要 warm-up，Pre-LN 不用它也能正常收敛。")
    warm = _card(deck, "post-ln-warmup")
    assert "post-no-warmup" in mistakes(warm, "Pre-LN needed warm-up, while Post-LN trained fine without it.")
    # "it" is something else when another thing is named after the warm-up
    from lndrill.scoring.normalize import prepare
    assert "without it" in prepare("Keep warm-up short. Pre-LN adds a final LN; without it the stream grows.").text
    assert "without it" in prepare("Warm-up helps.\n\nThe bias is optional; without it nothing changes.").text


def test_a_table_cell_opening_with_no_denies_its_row_label(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    table = ("| | Post-LN | Pre-LN |\n|---|---|---|\n"
             "| LN on the main path? | yes, after every sublayer | no, only on the branch input |\n"
             "| backward per layer | J_LN · (I + F') | I + F' · J_LN |")
    assert mistakes(card, table) == set()
    assert "post-grad-through-ln" in hits(card, table)
    swapped = table.replace("yes, after every sublayer | no, only", "no, only on the branch input | yes, after every")
    assert "pre-grad-through-ln" in read_as(card, swapped)
    assert len(mistakes(card, swapped)) == 1  # the swapped row is one statement, charged once


def test_a_trade_off_is_not_a_denial(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "So the trade-off: Pre-LN is robust and stable, which is what large models want."
    assert "pre-not-stable" not in mistakes(card, text) and "pre-stable" in hits(card, text)
    assert "pre-not-stable" in mistakes(card, "Pre-LN is not stable.")


def test_a_coordinated_clause_with_its_own_subject_is_a_claim_of_its_own(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    text = ("Xiong et al. showed that Pre-LN has well-behaved gradients at initialization and doesn't need warm-up, "
            "and the final LayerNorm is part of that setup.")
    assert "pre-no-final-ln" not in mistakes(card, text)
    assert "pre-no-final-ln" in mistakes(card, "Pre-LN doesn't need the final LayerNorm.")
    sandwich = _card(deck, "sandwich-ln")
    listed = "NormFormer adds a LayerNorm after the attention, per-head scaling, and an extra LN after the second FFN layer."
    assert "normformer-ffn-second-layer" in mistakes(sandwich, listed)  # a list item, not a new clause


def test_a_claim_split_at_and_keeps_the_subject_named_after_its_verb(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "Post-LN is what the Vaswani paper used, BERT and GPT-2 both use Pre-LN."
    assert "bert-is-pre-ln" in mistakes(card, text)
    assert "bert-is-pre-ln" not in mistakes(card, "Post-LN is what the Vaswani paper used, and BERT kept it; GPT-2 uses Pre-LN.")


def test_an_indirect_question_does_not_qualify_the_clause_that_answers_it(deck) -> None:
    card = _card(deck, "layernorm-jacobian")
    text = "Xiong et al. (Lemma 3) then bound how big this Jacobian is: the Jacobian norm is O(||x||/sqrt(d))."
    assert "jacobian-grows-with-norm" in mistakes(card, text)
    asked = "We still have to check whether the Jacobian norm is O(||x||/sqrt(d))."
    assert "jacobian-grows-with-norm" not in mistakes(card, asked)


def test_a_value_compared_after_with_is_no_condition(deck) -> None:
    card = _card(deck, "admin-amplification")
    text = "DeepNorm uses LN(alpha*x + G(x)) with alpha smaller than 1 so the shortcut is down-weighted."
    assert "deepnorm-shrinks-residual" in mistakes(card, text)
    warm = _card(deck, "post-ln-warmup")
    assert "post-no-warmup" not in mistakes(warm, "With a small enough learning rate, Post-LN trains without warm-up.")


def test_a_removal_verb_does_not_reach_past_a_new_pronoun_subject(deck) -> None:
    card = _card(deck, "rmsnorm")
    assert "speedup-multiples" in mistakes(card, "Because it skips the mean it is about twice as fast as LayerNorm.")
    # a verb of thinking before the pronoun keeps the denial
    warm = _card(deck, "pre-vs-post-ln")
    assert "pre-not-stable" not in mistakes(warm, "I don't think it is true that Pre-LN is unstable.")
    assert "pre-not-stable" not in mistakes(warm, "Nobody would say it is unstable: Pre-LN trains stably.")


def test_a_sentence_opening_with_it_is_about_the_paragraphs_subject(deck) -> None:
    card = _card(deck, "rmsnorm")
    text = ("RMSNorm keeps only the re-scaling step of normalisation. The argument: the re-centring in LayerNorm adds "
            "little. It is the default normalisation in LLaMA.")
    assert "llama-rmsnorm" in hits(card, text)
    # an "it" inside the sentence is not the opener: the old reading stays
    later = ("RMSNorm keeps only the re-scaling step. The argument: the re-centring in LayerNorm adds little, and "
             "LLaMA uses it.")
    assert "llama-rmsnorm" not in hits(card, later)


def test_a_formula_may_name_its_stream_with_any_letter(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = ("The original design normalises after the residual (post-norm): r^{l+1} = LN(r^l + Sublayer(r^l)).\n\n"
            "GPT-2 normalises the input of each sublayer (pre-norm): r^{l+1} = r^l + Sublayer(LN(r^l)).")
    assert {"post-formula", "pre-formula"} <= hits(card, text)
    swapped = "Post-LN is r^{l+1} = r^l + Sublayer(LN(r^l))."
    assert "pre-formula-given-for-post" in mistakes(card, swapped)
    # two different letters are not a residual block
    assert "post-formula" not in hits(card, "Post-LN: r = LN(s + Sublayer(q)).")


def test_the_need_for_after_a_removal_word_counts_as_no_words(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "pre-no-warmup" in hits(card, "Pre norm removes the need for careful learning rate warmup.")
    # the window still ends: a removal far before the word does not reach it
    far = "Pre norm removes the old habit of tuning a very careful and slow learning rate warmup."
    assert "pre-no-warmup" not in hits(card, far)


def test_also_before_a_denial_keeps_the_denial(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "pre-no-warmup" in hits(card, "With Pre-LN, warm-up is also no longer needed.")
    assert "pre-no-warmup" not in hits(card, "With Pre-LN, warm-up is also used.")


def test_a_relative_clause_that_names_the_scheme_gives_the_claim_its_subject(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "A learning warmup is also no longer needed with this scheme, which has since been named pre-normalization."
    assert "pre-no-warmup" in hits(card, text)
    # not explicit enough to charge: the same shape with a wrong claim draws nothing
    wrong = "Warm-up is absolutely required with this scheme, which has since been named pre-normalization."
    assert "pre-needs-warmup" not in mistakes(card, wrong)


def test_a_complete_answer_citing_many_concrete_values_scores_a_little_higher(deck) -> None:
    card = _card(deck, "deepnorm")
    full = score_answer(card, DEEPNORM_COMPLETE)
    assert full.points == 100 and not full.mistakes
    assert full.values >= 25 and full.specifics == 3 and full.score == 90 + 3 + full.elaboration
    assert full.to_dict()["specifics"] == 3


def test_specifics_move_only_complete_answers_without_mistakes(deck) -> None:
    card = _card(deck, "deepnorm")
    # the same concrete values in a partial answer change nothing
    partial = score_answer(card, "DeepNet trained 1000 layers (500+500) and beat a 48-layer model by 5 BLEU on OPUS-100.")
    assert partial.points < 70 and partial.specifics == 0
    # nor in a complete answer that makes a mistake
    wrong = score_answer(card, DEEPNORM_COMPLETE + " Beta also scales the query and key projections.")
    assert wrong.mistakes and wrong.specifics == 0
    # a complete answer with no concrete values loses nothing
    words = score_answer(card, (
        "DeepNorm is Post-LN with the residual multiplied by a constant alpha above one before the LayerNorm, "
        "LN(alpha x + G(x)), and the initial weights of the feed-forward, value and output projections shrunk by "
        "a constant beta below one; queries and keys keep their initialisation. For decoder-only models the "
        "constants use the decoder depth M instead of N. This keeps the model update bounded whatever the depth, so "
        "it trains as stably as Pre-LN while keeping Post-LN's better final quality. DeepNet trained a thousand "
        "layers this way and beat much shallower and bigger models on multilingual translation by several BLEU; "
        "GLM-130B uses DeepNorm."))
    assert words.points >= 70 and not words.mistakes
    assert words.specifics == 0
    assert words.score == round(to_interviewer_scale(words.share)) + words.elaboration


def test_one_wrong_statement_is_charged_once(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    swapped = score_answer(card, "Post-LN computes x + F(LN(x)).")
    assert [m.id for m in swapped.mistakes] == ["pre-formula-given-for-post"]  # not also pre-order-swapped
    # two errors that only share a word are both charged
    warm = _card(deck, "post-ln-warmup")
    two = mistakes(warm, "The original recipe trained with SGD and then used a cosine decay.")
    assert len(two) >= 2, two


def test_an_article_flattened_onto_its_heading_line_is_prose(deck) -> None:
    card = _card(deck, "xiong-theorem")
    text = ("## 8. Pre-LN and Post-LN (Xiong et al. 2020) The original block normalises after the residual add. "
            "The paper proves that at initialisation Post-LN's gradients near the output are large. Post-LN needs "
            "a careful warm-up. Pre-LN's gradients are well-behaved at initialisation. Most LLMs use Pre-LN today "
            "and train it with far less tuning of the schedule than the original recipe needed.")
    assert "post-warmup" in hits(card, text)
    # a real heading stays a heading: it claims nothing
    assert hits(card, "## Why Post-LN needs warm-up\n") == set()


def test_not_really_that_denies_what_follows(deck) -> None:
    card = _card(deck, "admin-amplification")
    assert "not-gradient" in hits(card, "They say the problem isn't really that gradients vanish or explode.")
    assert "not-gradient" not in hits(card, "They say the problem really is that gradients vanish.")


def test_a_table_cell_opening_with_a_denial_may_say_where_it_holds(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    table = "| | Post-LN | Pre-LN |\n|---|---|---|\n| warm-up | required | optional at moderate LR |\n"
    assert "pre-no-warmup" in hits(card, table) and "post-needs-warmup" in hits(card, table)
    long_cell = ("| | Post-LN | Pre-LN |\n|---|---|---|\n"
                 "| warm-up | required | not something we tuned much in our runs with the large batch size |\n")
    assert "pre-no-warmup" not in hits(card, long_cell)  # a long value is a statement of its own


def test_commas_inside_brackets_do_not_make_a_keyword_list(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    text = ("Fixes: LayerNorm Scaling (LN output × 1/sqrt(l)), Mix-LN (Post-LN early, Pre-LN deep), "
            "ResiDual (parallel Post-LN and Pre-LN residuals).")
    assert "mix-ln" in hits(card, text)
    soup = ("雅可比、(1/s)(I − 𝟏𝟏ᵀ/D − yyᵀ/D)、均值方向、径向、投影、秩 D−2、平移不变、缩放不变、引理 3、√d/‖x‖、Xiong、"
            "Pre-LN、反向传播、g_x")
    assert hits(_card(deck, "layernorm-jacobian"), soup) == set()  # still a keyword list ('/' still splits)


def test_a_value_bound_with_qu_de_shi_is_bound(deck) -> None:
    card = _card(deck, "deepnorm")
    assert "glm-alpha" in hits(card, "GLM-130B 用了 DeepNorm，alpha 取的是 (2N)^{1/2}。")
    assert "glm-alpha" not in hits(card, "GLM-130B 用了 DeepNorm，beta 取的是 (2N)^{1/2}。")


def test_an_ascii_table_with_a_plus_rule_and_an_indented_header(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    table = ("              | Post-LN                   | Pre-LN\n"
             "--------------+---------------------------+--------------------------\n"
             "block         | x' = LN(x + F(x))         | x' = x + F(LN(x))\n"
             "warm-up       | required                  | optional at moderate lr\n"
             "depth         | deep stacks fragile       | 100+ layers ok\n")
    assert {"post-formula", "pre-formula", "post-needs-warmup", "pre-no-warmup"} <= hits(card, table)
    assert mistakes(card, table) == set()


def test_a_list_of_topics_dressed_as_a_sentence_claims_nothing(deck) -> None:
    card = _card(deck, "rmsnorm")
    soup = "RMSNorm is all about the root mean square, scale invariance, re-centering, re-scaling and the Jacobian."
    assert hits(card, soup) == set()
    # one topic after "is about" is still a claim
    assert "no-recentering" in hits(card, "RMSNorm is about re-scaling only: it does not subtract the mean.")


def test_a_latex_array_of_constants_reads_like_a_table(deck) -> None:
    card = _card(deck, "deepnorm")
    text = (r"$$x_{l+1} = \mathop{LN}\Big( \alpha x_l + \mathop{G}_l \big(x_l, \theta_l \big)\Big)$$" "\n\n"
            r"\begin{array} {c|cc|cc}" "\n"
            r"\text{Type} & \text{Enc-} \alpha & \text{Enc-} \beta & \text{Dec-} \alpha & \text{Dec-} \beta \\" "\n"
            r"\hline \\" "\n"
            r"\text{Encoder only} & (2N)^{\frac{1}{4}} & (8N)^{-\frac{1}{4}} & - & - \\" "\n"
            r"\text{Decoder only} & - & - & (2M)^{\frac{1}{4}} & (8M)^{-\frac{1}{4}} \\" "\n"
            r"\end{array}")
    assert {"update-rule", "alpha-value", "beta-value"} <= hits(card, text)
    assert mistakes(card, text) == set()
    # the same values under swapped column headers are the swap, not the rule
    swapped = text.replace(r"\text{Enc-} \alpha & \text{Enc-} \beta", r"\text{Enc-} \beta & \text{Enc-} \alpha")
    assert "alpha-value" not in hits(card, swapped)


def test_a_card_list_naming_a_placement_accepts_its_long_spellings(deck) -> None:
    card = _card(deck, "deepnorm")
    for name in ("Pre-LayerNorm", "pre layer normalization", "Pre-LN"):
        text = f"DeepNorm combines the performance of Post-LN with the stability of {name}."
        assert "pre-like-stability" in hits(card, text), name


def test_a_hatted_variable_spelled_in_ascii_is_the_variable(deck) -> None:
    card = _card(deck, "layernorm-jacobian")
    for y in ("yhat", "y_hat", "y-hat"):
        assert "jacobian-formula" in hits(card, f"J = (1/sigma) * (I - 11^T / d - {y} {y}^T / d)."), y
    assert prepare("so that is what we chat about").text == "so that is what we chat about"


def test_a_wrong_claim_caps_a_complete_answer_and_overruling_it_lifts_the_cap(deck) -> None:
    card = _card(deck, "deepnorm")
    right = score_answer(card, DEEPNORM_COMPLETE)
    wrong = score_answer(card, DEEPNORM_COMPLETE + " Beta also scales the query and key projections.")
    assert right.score >= 85 and right.capped == 0  # complete: at the top of the scale, less for its few statements
    assert wrong.mistakes and wrong.points >= 80
    # graded as partial however complete the rest: 34 + a quarter of the points before penalties
    assert 58 <= wrong.score <= 59 and wrong.capped == wrong.uncapped - wrong.score > 0
    two = score_answer(card, DEEPNORM_COMPLETE + " Beta also scales the query and key projections. "
                                              "DeepNorm is a Pre-LN block.")
    assert len(two.mistakes) == 2 and two.score < wrong.score
    # a partial answer already under the cap loses nothing more to it
    partial = score_answer(card, "DeepNorm computes LN(alpha x + G(x)). Beta also scales the query and key projections.")
    assert partial.mistakes and partial.capped == 0
    # the user disputes the charge: no mistake left, no cap
    from lndrill.practice.submission import Overrules

    lifted = Overrules().with_mistake(wrong.mistakes[0].id, True).apply(wrong)
    assert not lifted.mistakes and lifted.capped == 0 and lifted.score >= 85


def test_an_answer_wrong_throughout_scores_as_wrong_however_many_rubric_words_it_uses(deck) -> None:
    card = _card(deck, "sandwich-ln")
    complete = card.model_answer.en
    wrong = ["Gemma 2 normalises only the sublayer outputs and has no input norm.",
             "OLMo 2 keeps both the input and the output norm.", "NormFormer was built on Post-LN.",
             "In Pre-LN the later layers get much larger gradients than the early ones.",
             "The extra norm on the branch keeps the residual stream itself bounded at every depth."]
    four = score_answer(card, complete + "\n\n" + " ".join(wrong[:4]))
    five = score_answer(card, complete + "\n\n" + " ".join(wrong))
    assert len(four.mistakes) == 4 and four.score > 40  # still read as partly right
    assert len(five.mistakes) == 5 and five.uncapped > 60
    assert five.score <= 12 and five.cap_reason == "error"


def test_short_items_under_a_line_that_leads_into_them_with_a_colon_are_notes_about_its_subject(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    for lead in ("Pre-LN has several advantages over Post-LN:", "Pre-LN 相比 Post-LN 有几个优势：", "Pre-LN 的优势："):
        assert "pre-stable" in hits(card, f"{lead}\n- 训练更稳定\n- 梯度流动更顺畅"), lead
    # a list announced as keywords stays a list of words
    assert hits(card, "Keywords:\n- Pre-LN 训练更稳定\n- warm-up") <= {"pre-stable"}
    assert hits(card, "关键词：\n- 训练更稳定\n- 梯度流动更顺畅") == set()


def test_xiangbi_followed_by_a_name_makes_that_name_the_partner(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "pre-stable" in hits(card, "Pre-LN 相比 Post-LN 训练更稳定。")
    assert "pre-stable" in hits(card, "与 Post-LN 相比，Pre-LN 训练更稳定。")
    assert "pre-stable" in hits(card, "相比 Post-LN，Pre-LN 训练更稳定。")


def test_cue_phrases_of_three_words_or_more_are_read() -> None:
    from lndrill.scoring.lexicon import Cues, tokenize

    cues = Cues(pairs=("it is said", "people say", "on top of"))
    toks = tokenize("well, it is said that on top of this people say so")
    keys = [t.key for t in toks]
    assert cues.at(toks, keys.index("it")) == 3
    assert cues.at(toks, keys.index("on")) == 3 and cues.at(toks, keys.index("peopl")) == 2  # keys are stems
    assert cues.ends_at(toks, keys.index("said")) == keys.index("it")
    assert cues.at(toks, keys.index("that")) == 0


def test_a_story_about_a_list_of_topics_claims_nothing(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    soup = ("Pre-LN's effective depth is fundamentally a story about the residual stream, the identity path and "
            "representation collapse working together across layers.")
    assert hits(card, soup) == set()
    assert "deep-blocks-identity" in hits(card, "In Pre-LN the deep blocks are close to the identity: each adds little to a large stream.")
    toy = _card(deck, "toy-metric-artifact")
    named = ("A faithful experiment should therefore take into account the input-output Jacobian, probe losses, untied "
             "weights, a larger hidden size and the final LayerNorm.")
    assert not {"param-grads-untied", "realistic-width", "jacobian-metric"} & hits(toy, named)


def test_both_placements_named_together_put_no_model_in_one_of_them(deck) -> None:
    card = _card(deck, "rmsnorm")
    vague = "It's used in LLaMA, T5, GPT and BERT in pre-norm and post-norm positions depending on the architecture."
    assert not {"llama-prenorm", "t5", "bert-post-ln"} & hits(card, vague)
    assert {"llama-prenorm", "bert-post-ln"} <= hits(card, "LLaMA uses pre-norm RMSNorm. BERT uses post-norm LayerNorm.")
    # a claim that takes both places keeps them ("Gemma 2 normalises pre and post")
    assert "gemma2" in hits(_card(deck, "sandwich-ln"), "- Gemma 2: the same idea with RMSNorm, pre-norm and post-norm around each attention and MLP block.")


def test_a_chinese_comparison_word_reaches_over_the_noun_phrase_it_opens(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "GPT-2 采用了 Pre-LN 方案，这种设计相比原始 Transformer 的 Post-LN 有几个显著优势：\n- 训练更稳定\n- 允许使用更大的学习率"
    assert "pre-stable" in hits(card, text)
    assert "pre-stable" in hits(card, "相比原始 Transformer 的 Post-LN，Pre-LN 训练更稳定。")
    assert {"post-order", "pre-order"} <= hits(card, "- Post-LN：LayerNorm 位于残差连接之后\n- Pre-LN：LayerNorm 位于残差连接之前")


def test_a_comparison_that_names_its_own_subject_states_a_claim_about_it(deck) -> None:
    card = _card(deck, "xiong-theorem")
    right = "The last-layer gradient bound is O(d sqrt(ln d / L)) for Pre-LN, versus O(d sqrt(ln d)) for Post-LN."
    assert {"post-bound-form", "pre-bound-shrinks"} <= hits(card, right)
    # the two bounds swapped: neither point is earned ("sqrt(ln d" is only the start of "sqrt(ln d / L)")
    swapped = "The last-layer gradient bound is O(d sqrt(ln d)) for Pre-LN, versus O(d sqrt(ln d / L)) for Post-LN."
    assert not {"post-bound-form", "pre-bound-shrinks"} & hits(card, swapped)
    admin = _card(deck, "admin-amplification")
    assert "pre-light-dependency" in hits(admin, "Post-LN's output change grows like O(N), versus O(log N) for Pre-LN.")


def test_a_relative_clause_about_another_noun_is_not_the_first_nouns_claim(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = "Post-LN suffers from large gradients at the output and an update amplification that grows with depth."
    assert not {m.id for m in score_answer(card, text).mistakes}
    assert "post-grad-grows-with-depth" in {m.id for m in score_answer(card, "Post-LN has a large last-layer gradient that grows with depth.").mistakes}


def test_what_is_replaced_is_not_the_subject(deck) -> None:
    card = _card(deck, "rmsnorm")
    for text in ("GPT-3 replaced GPT-2's LayerNorm with RMSNorm.", "GPT-3 在 GPT-2 的基础上把 LayerNorm 换成了 RMSNorm。"):
        assert "gpt-layernorm" not in hits(card, text)
    assert "gpt-layernorm" in hits(card, "GPT-2 用的是 LayerNorm。")
    assert "llama-rmsnorm" in hits(card, "LLaMA 把 LayerNorm 换成了 RMSNorm。")


def test_names_weighed_as_alternatives_are_not_the_subject(deck) -> None:
    card = _card(deck, "rmsnorm")
    soup = "Models such as GPT-2/3 and BERT strike a different trade-off between LayerNorm and RMSNorm."
    assert "gpt-layernorm" not in hits(card, soup)
    assert "gpt-layernorm" in hits(card, "GPT-2 and GPT-3 use LayerNorm, in the Pre-LN position.")


def test_a_topic_someone_talks_about_is_named_not_claimed(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "update-size-culprit" not in hits(card, "Post-LN needs warm-up. Admin talks about the amplification effect.")
    assert "update-size-culprit" in hits(card, "Post-LN needs warm-up. Admin blames the amplification effect: small updates grow into large output changes.")
    depth = _card(deck, "pre-ln-effective-depth")
    text = "In deep Pre-LN stacks consecutive hidden states become nearly identical, the representation collapse ResiDual talks about."
    assert "representation-collapse" in hits(depth, text)


def test_a_failure_in_a_situation_described_aside_does_not_turn_an_absence_into_a_need(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "Xiong's Pre-LN BERT trained at lr 3e-4 with no warm-up, a setting where Post-LN diverged."
    assert "pre-no-warmup" in hits(card, text)
    assert "pre-needs-warmup" not in {m.id for m in score_answer(card, text).mistakes}
    assert "post-needs-warmup" in hits(_card(deck, "post-ln-warmup"), "Post-LN without warm-up diverged.")


def test_code_names_for_the_constants_and_the_depth_bind_their_values(deck) -> None:
    card = _card(deck, "deepnorm")
    code = ("def deepnorm_coefficients(encoder_layers):\n"
            "    encoder_alpha = (2 * encoder_layers) ** 0.25\n"
            "    encoder_beta = (8 * encoder_layers) ** -0.25\n"
            "    return encoder_alpha, encoder_beta\n")
    assert {"alpha-value", "beta-value"} <= hits(card, code)
    # a wrong exponent in code is no match
    assert "alpha-value" not in hits(card, code.replace("** 0.25", "** 0.5"))


def test_a_paragraph_opening_with_this_takes_up_the_subject_of_the_one_before(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = ("Pre-LN 是对原始 Transformer 的改进：把层归一化挪到每个子层之前。\n\n"
            "这一看似微小的结构调整，却极大地提升了深层模型训练的稳定性。")
    assert "pre-stable" in hits(card, text)
    # not when the paragraph before names both placements
    both = text.replace("对原始 Transformer 的改进", "对 Post-LN 的改进")
    assert "pre-stable" not in hits(card, both)
    # and never charged from there: the subject is not named in the claim
    swapped = "Post-LN 把层归一化放在残差相加之后。\n\n这种结构训练起来更稳定，不需要 warm-up。"
    assert not {m.id for m in score_answer(card, swapped).mistakes}


def test_a_letter_numbered_title_line_is_a_heading(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "A. Post-LN (原始 Transformer 架构)\n\n最后，对相加后的结果进行层归一化。\n"
    assert "post-order" in hits(card, text)
    assert "post-order" not in hits(card, text.replace("A. Post-LN", "A. 两种结构"))


def test_items_of_one_table_cell_are_not_read_as_one_wrong_claim(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    table = ("| Aspect | Pre-LN | Post-LN |\n|---|---|---|\n"
             "| Without it | logit scale grows with depth, over-sharp softmax, large head gradients | n/a |\n")
    assert "pre-grad-grows" not in {m.id for m in score_answer(card, table).mistakes}
    # one item that says it is still charged
    wrong = table.replace("logit scale grows with depth, over-sharp softmax, large head gradients",
                          "the head gradients grow with depth")
    assert "pre-grad-grows" in {m.id for m in score_answer(card, wrong).mistakes}


def test_nor_only_extends_a_claim_it_does_not_deny_it(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    text = "Warm-up is neither a Post-LN invention nor only a Post-LN need."
    assert "post-no-warmup" not in {m.id for m in score_answer(card, text).mistakes}
    assert "post-no-warmup" in {m.id for m in score_answer(card, "Warm-up is not a Post-LN need.").mistakes}


def test_a_subject_followed_by_its_own_formula_or_figures_is_no_ellipsis(deck) -> None:
    xiong = _card(deck, "xiong-theorem")
    text = "Lemma 2：Post-LN 每层 LN 之前 E||x_l||^2 = 3/2 d，每层都被 LN 拉回；Pre-LN 则是 (1 + l/2)d <= E||x_l||^2 <= (1 + 3l/2)d。"
    assert not score_answer(xiong, text).mistakes
    toy = _card(deck, "toy-metric-artifact")
    figures = "The Jacobian norm gives Post 5.76, 0.117, 7.7e-9 (a real contraction) and Pre 2.33 -> 3.11."
    assert "pre-jacobian-contracts" not in {m.id for m in score_answer(toy, figures).mistakes}
    # a bare carry-over still is one
    assert "pre-jacobian-contracts" in {m.id for m in score_answer(toy, "The Post-LN map is a contraction, and so is Pre.").mistakes}


def test_a_pronoun_after_the_first_clause_refers_to_the_sentence_subject(deck) -> None:
    card = _card(deck, "sandwich-ln")
    text = ("Sandwich-LN is less a replacement for Pre-LN than Pre-LN plus one extra norm: "
            "instead of x + F(LN(x)) it computes x + LN(F(LN(x))).")
    assert "formula" in hits(card, text)
    # a clause that names its own subject instead of the pronoun is about that subject
    assert "formula" not in hits(card, text.replace(" it computes", ", Pre-LN computes"))


def test_the_alternative_set_aside_is_not_claimed(deck) -> None:
    who = _card(deck, "ln-who-uses-what")
    text = "BERT followed the paper's Post-LN encoder rather than the later pre-norm variant."
    assert "bert-pre" not in {m.id for m in score_answer(who, text).mistakes}
    assert "bert-pre" in {m.id for m in score_answer(who, "BERT followed the later pre-norm variant.").mistakes}
    admin = _card(deck, "admin-amplification")
    assert not score_answer(admin, "DeepNet extends Admin rather than contradicting it.").mistakes


def test_a_small_amount_hedges_a_need(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "Pre-LN trains robustly at depth and needs little warm-up (LLMs still use a short one)."
    assert "pre-needs-warmup" not in {m.id for m in score_answer(card, text).mistakes}
    assert "pre-needs-warmup" in {m.id for m in score_answer(card, text.replace("little", "a lot of")).mistakes}


def test_a_line_leading_into_a_list_starts_its_own_statement(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = ("Pre-LN 的直接优势在于：\n"
            "可以在训练初期使用较高的学习率，而不需要学习率 warmup 阶段\n"
            "在标准 Post-Norm Transformer（LayerNorm 在残差之后）中：\n"
            "- 深层网络的梯度在前期容易爆炸；\n")
    assert not score_answer(card, text).mistakes


def test_an_answer_that_strings_terms_together_with_filler_is_capped_as_a_soup(deck) -> None:
    card = _card(deck, "deepnorm")
    soup = ("DeepNorm is fundamentally about harmonizing Post-LN with deep residual learning. It leverages alpha and "
            "beta to rebalance the residual pathway, which regularizes the model update, and this interplay is why "
            "DeepNet reaches 1,000 layers; GLM-130B embraces DeepNorm for robust convergence.")
    r = score_answer(card, soup)
    assert r.score <= 15 and r.filler_capped and r.capped > 0
    # one such phrase in a real answer caps nothing
    one = ("DeepNorm keeps Post-LN: x_{l+1} = LN(alpha x_l + G(x_l)), alpha = (2N)^(1/4), beta = (8N)^(-1/4) scales "
           "the FFN and value/output projections at init; the interplay bounds the model update, so DeepNet trains "
           "1,000 layers.")
    assert not score_answer(card, one).filler_capped and score_answer(card, one).score > 40


def test_an_answer_made_mostly_of_bare_lists_is_capped_however_many_formulas_it_lists(deck) -> None:
    card = _card(deck, "layernorm-jacobian")
    soup = ("LayerNorm Jacobian: centring, scaling, projection, null space, radial direction, all-ones vector, rank D-2, "
            "symmetric.\nKey formulas: J = (1/s)(I - 11^T/D - yy^T/D); g_x = (g - mean(g) - y mean(g*y))/s; "
            "||J|| = O(sqrt(d)/||x||).\nXiong et al., Lemma 3, Pre-LN, Post-LN, final LN, warm-up, Adam, RMSNorm, "
            "DeepNet, scale invariance, shift invariance.\nEigenvalues, 1/s, biased variance, eps 1e-5, upstream "
            "gradient, backward pass, orthogonal complement, vanishing gradients.")
    r = score_answer(card, soup)
    assert r.score <= 15 and r.cap_reason == "list" and r.capped > 0
    assert "keyword list" in (capped_note(r.capped, "en", r.cap_reason) or "")
    # the same formulas said in sentences are not capped
    prose = ("The Jacobian is J = (1/s)(I - 11^T/D - yy^T/D): it kills the all-ones direction and the radial direction "
             "y, and scales the rest by 1/s. Backward, g_x = (g - mean(g) - y mean(g*y))/s. By Lemma 3 its norm is "
             "O(sqrt(d)/||x||), so a large input gets a small gradient.")
    r = score_answer(card, prose)
    assert r.cap_reason is None and r.score > 40
    # the deck's own model answers are statements, never lists
    for c in deck.cards.values():
        for lang in ("en", "zh"):
            assert score_answer(c, c.model_answer.get(lang)).cap_reason != "list", (c.id, lang)


def test_a_table_of_constants_is_no_bare_list(deck) -> None:
    # a row binding a value ("encoder-only (N): alpha = (2N)^(1/4)") says something, as terse notes do
    card = _card(deck, "deepnorm")
    notes = ("DeepNorm (DeepNet, Wang et al. 2022, arXiv:2203.00555)\n\n"
             "```\nx_{l+1} = LN( α · x_l + G_l(x_l) )        # still Post-LN: add, then normalise\n"
             "init:  W_ffn1, W_ffn2, W_v, W_o  <- Xavier * β     (W_q, W_k unscaled)\n```\n\n"
             "| model | α | β |\n|---|---|---|\n| encoder-only (N) | (2N)^(1/4) | (8N)^(-1/4) |\n"
             "| decoder-only (M) | (2M)^(1/4) | (8M)^(-1/4) |\n| enc-dec, encoder | 0.81 (N^4 M)^(1/16) | 0.87 (N^4 M)^(-1/16) |\n"
             "| enc-dec, decoder | (3M)^(1/4) | (12M)^(-1/4) |\n\n"
             "- deep Post-LN diverges early; cause per DeepNet = too-large model update\n"
             "- pick α, β so the update is bounded by a depth-independent constant\n"
             "- 1,000 layers trained; GLM-130B uses DeepNorm\n")
    r = score_answer(card, notes)
    assert r.cap_reason != "list" and r.score > 30


def test_a_norm_of_one_letter_needs_its_bars(deck) -> None:
    # "||x||" with its bars made transparent would be the bare letter x, which every derivative has
    card = _card(deck, "layernorm-jacobian")
    matrix = (r"\[\frac{\partial z}{\partial x} = \begin{bmatrix} \frac{\partial z_1}{\partial x_1} & "
              r"\frac{\partial z_2}{\partial x_1} & \dots \end{bmatrix}\]")
    assert "lemma3-norm" not in hits(card, matrix)
    for said in ("By Lemma 3 the Jacobian norm is O(√d/‖x‖).", "J is inversely proportional to ||x||.",
                 "The Jacobian scales like 1/|x|: a big input, a small Jacobian."):
        assert "lemma3-norm" in hits(card, said), said


def test_a_soup_with_a_few_sentences_among_its_lists_is_still_capped(deck) -> None:
    # Two or three short statements do not make a list of terms an explanation: graders put such answers under 15.
    card = _card(deck, "rmsnorm")
    soups = {
        "en": "RMSNorm divides by the root mean square and keeps the gain. Root mean square, gain g, epsilon, no mean, no "
              "bias, re-scaling, no re-centering, scale invariance. LLaMA, T5, Gopher, Mistral, Qwen, pre-norm, final "
              "norm. Zhang and Sennrich 2019, arXiv 1910.07467, 7-64% faster. It is cheaper than LayerNorm. Reductions, "
              "kernels, fusion, memory-bound, bf16, throughput, stability, Jacobian, radial direction, projection. "
              "Pre-LN, Post-LN, warm-up, Adam, DeepNet, PaLM, Chinchilla, BLOOM.",
        "zh": "RMSNorm 用均方根做缩放，保留增益。均方根、增益 g、epsilon、不减均值、没有 bias、re-scaling、不做 re-centering、"
              "缩放不变性。LLaMA、T5、Gopher、Mistral、Qwen、pre-norm、final norm。Zhang 和 Sennrich 2019、arXiv "
              "1910.07467、快 7-64%。它比 LayerNorm 便宜。规约、kernel、融合、访存受限、bf16、吞吐、稳定性、雅可比、径向方向、投影。",
    }
    for lang, soup in soups.items():
        r = score_answer(card, soup)
        assert r.cap_reason == "list" and r.score <= 15 < r.uncapped, lang
    # terse notes that say something on each line are not a list of terms
    notes = ("- RMSNorm: a_i / RMS(a) * g_i, RMS(a) = sqrt(mean(a^2) + eps)\n- drops the mean subtraction and the bias: "
             "only re-scaling, so it is invariant to scaling the input but not to shifting it\n- why: one reduction "
             "instead of two, 7-64% faster in the paper, same quality\n- who: T5 uses it, LLaMA uses pre-norm RMSNorm; "
             "BERT and GPT-2 keep LayerNorm")
    assert score_answer(card, notes).cap_reason is None


def test_what_a_denied_saying_verb_leaves_unshown_is_not_charged(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    unshown = "They did not show that Pre-LN is stable at any learning rate, or that warm-up hurts it."
    assert "pre-drop-at-any-lr" not in mistakes(card, unshown)
    shown = "Xiong et al. showed that Pre-LN does not need warm-up at any learning rate."
    assert "pre-drop-at-any-lr" in mistakes(card, shown)


def test_a_part_that_opens_with_another_subject_is_that_subjects_claim(main_card) -> None:
    two_subjects = "The bound of Post-LN is flat in L, and Pre-LN's shrinks with depth."
    assert "post-grad-shrinks-with-depth" not in mistakes(main_card, two_subjects)
    one_subject = "The bound of Post-LN shrinks with depth, and it is large."
    assert "post-grad-shrinks-with-depth" in mistakes(main_card, one_subject)


def test_the_last_layer_gradient_growing_with_depth_is_charged_without_a_subject(main_card) -> None:
    myth = "According to Xiong et al., the gradient at the last layer grows with the number of layers L."
    assert mistakes(main_card, myth) == {"last-grad-grows-with-depth"}
    within_one_model = "Within one model the gradient at the last layer is the largest and it grows with the layer index l."
    assert not mistakes(main_card, within_one_model)


def test_a_subject_that_opens_a_later_conjunct_is_not_charged_with_the_words_before(deck) -> None:
    card = _card(deck, "rmsnorm")
    text = ("RMSNorm: J = (1/r)(I - yy^T/d). It projects out only the radial direction. Ignoring eps, LN's Jacobian "
            "has rank d - 2 and RMSNorm's d - 1.")
    assert "rmsnorm-rank-d-minus-2" not in mistakes(card, text)
    assert "rmsnorm-rank-d-minus-2" in mistakes(card, "RMSNorm's Jacobian has rank d - 2.")


def test_a_denial_of_another_verb_after_the_claim_words_is_not_their_denial(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    for text in ("LLaMA's final RMSNorm does not re-center at all and serves the same purpose.",
                 "LLaMA 最后的 RMSNorm 不减均值，也没有偏置，但作用一样。"):
        assert "rmsnorm-no-final-norm" not in mistakes(card, text), text
    for text in ("LLaMA's final norm is not needed.", "LLaMA 没有最后的 norm。", "LLaMA 最后的 norm 不需要。"):
        assert "rmsnorm-no-final-norm" in mistakes(card, text), text


def test_a_title_case_title_on_its_own_line_draws_no_mistake(main_card) -> None:
    body = "\n\nWe revisit the Post-LN formulation and show where its instability comes from."
    assert "post-stable" not in mistakes(main_card, "Post-LayerNorm Is Back: Stable, Expressive, and Deep" + body)
    # a sentence in ordinary case on its own line is a claim
    assert "post-stable" in mistakes(main_card, "Post-LN is stable at any depth." + body)


def test_a_label_over_a_line_that_says_the_correct_claim_is_its_topic(deck) -> None:
    who = _card(deck, "ln-who-uses-what")
    text = "+ 前置LN：最初Transformer使用后置LN，但大多数LLM采用前置LN以实现更稳定的训练。"
    assert "orig-pre" not in mistakes(who, text)
    # a label with a body that says nothing correct of it is still read with it
    assert "gpt-post" in mistakes(who, "**BERT、GPT-2**：使用Post-LN（原始设计）")


def test_a_topic_written_without_its_comma_still_governs_its_sentence(deck) -> None:
    card = _card(deck, "rmsnorm")
    wrong = "For RMSNorm the Jacobian is (1/r)(I - 11^T/d): it only removes the mean direction."
    assert "rmsnorm-kills-mean" in mistakes(card, wrong)
    right = "For RMSNorm the Jacobian is (1/r)(I - yy^T/d): it only removes the radial direction."
    assert not mistakes(card, right)


def test_the_name_root_mean_square_spelled_out_is_not_the_formula(deck) -> None:
    card = _card(deck, "rmsnorm")
    assert "rms-formula" not in hits(card, "RMSNorm is fundamentally about root-mean-square re-scaling invariance.")
    assert "rms-formula" in hits(card, "RMSNorm divides x by the square root of the mean of x squared plus eps.")


def test_a_displayed_formula_inside_an_open_sentence_belongs_to_its_paragraph(deck) -> None:
    card = _card(deck, "xiong-theorem")
    open_sentence = ("For Post-LN, every LayerNorm resets the stream, and in the last FFN layer the gradient norm "
                     "satisfies\n\n||dL/dW|| = O(d sqrt(ln d))\n\nfor every depth L.")
    assert "post-bound-form" in hits(card, open_sentence)
    # after a finished sentence the formula stands alone, with no subject of its own
    closed = ("For Post-LN, every LayerNorm resets the stream, and in the last FFN layer the gradient norm is "
              "bounded.\n\n||dL/dW|| = O(d sqrt(ln d))\n\nThat is all.")
    assert "post-bound-form" not in hits(card, closed)


def test_a_call_with_its_parameters_after_a_semicolon_reads_as_the_call(deck) -> None:
    card = _card(deck, "deepnorm")
    assert "update-rule" in hits(card, "DeepNorm 的核心更新形式是：$$x_{l+1} = LN(\\alpha x_l + G_l(x_l;\\theta_l))$$")
    assert "update-rule" in hits(card, "DeepNorm: x_{l+1} = LN(alpha x_l + G_l(x_l; W_l))")


def test_a_joined_display_and_the_line_after_it_are_statements_of_their_own(deck) -> None:
    card = _card(deck, "deepnorm")
    text = ("DeepNorm is a one-line change to Post-LN plus an init rule:\n\n    x_{l+1} = LN(alpha * x_l + "
            "G_l(x_l; theta_l))\n\nand at initialisation the FFN weights and the attention value and output projections "
            "are Xavier initialised, then multiplied by beta (W_Q, W_K are left alone).")
    assert not mistakes(card, text)
    assert "update-rule" in hits(card, text)


def test_a_denial_softened_to_not_entirely_is_not_charged(main_card) -> None:
    for text in ("Pre-LN 并非完全不需要 warm-up。", "Pre-LN is not entirely free of the need for warm-up."):
        assert "pre-needs-warmup" not in mistakes(main_card, text), text
    assert "pre-needs-warmup" in mistakes(main_card, "Pre-LN 需要 warm-up。")


def test_a_denial_followed_at_once_by_its_reason_may_deny_the_reason(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    reason = "(1) Post-LN does not need warm-up because its gradients vanish near the output; if anything the opposite."
    assert "post-no-warmup" not in mistakes(card, reason)
    assert "post-no-warmup" in mistakes(card, "Post-LN does not need warm-up.")
    # a reason after a comma gives the reason for the denial, which stays plain
    assert "pre-no-final-ln" in mistakes(_card(deck, "pre-vs-post-ln"), "另外 Pre-LN 不需要 final LayerNorm，因为残差流已经很稳定。")


def test_a_name_in_an_aside_that_makes_its_own_statement_is_not_the_next_claims_subject(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = ("按 Admin 的分析，Post-LN 对一次参数更新的输出放大随层数按 O(N) 增长（Pre-LN 约 O(log N)），没有 warm-up，"
            "前几步的大更新被放大，训练直接崩。")
    assert "pre-diverges-without" not in mistakes(card, text)


def test_a_subject_after_a_comma_with_its_own_figures_is_a_conjunct_of_its_own(deck) -> None:
    card = _card(deck, "rmsnorm")
    text = ("RMSNorm: J = (1/r)(I - yy^T/d). It projects out only the radial direction. So LN's Jacobian is (nearly) a "
            "rank d-2 projector times 1/s, RMSNorm's a rank d-1 one times 1/r.")
    assert "rmsnorm-rank-d-minus-2" not in mistakes(card, text)


def test_a_pronoun_right_after_a_colon_refers_to_the_owner_named_before_it(main_card) -> None:
    text = ("Xiong et al. found this makes Post-LN's gradients very uneven at initialization: they are largest at "
            "the bottom layers, near the embeddings, and shrink toward the output.")
    assert "post-grad-largest-near-input" in mistakes(main_card, text)
    # two names before the colon: whose gradients "they" are is not plain
    both = ("Xiong et al. compared Post-LN's gradients with Pre-LN's at initialization: they are largest at the "
            "bottom layers, near the embeddings, and shrink toward the output.")
    assert "post-grad-largest-near-input" not in mistakes(main_card, both)


def test_chinese_filler_idioms_cap_a_soup_as_the_english_ones_do(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    soup = ("Post-LN 需要 warm-up，本质上是 Adam 二阶矩估计、输出端大梯度与学习率协同作用的问题；Noam schedule 的 "
            "warmup_steps = 4000 与 inverse square root decay 共同构成配方，初始化、残差、归一化和学习率是一个整体。")
    r = score_answer(card, soup)
    assert r.filler_capped and r.score <= 15 < r.uncapped


def test_buzzword_filler_caps_a_soup_and_one_device_used_three_times_counts_once(deck) -> None:
    card = _card(deck, "toy-metric-artifact")
    soup = ("The toy run sits at the intersection of scale invariance and residual dynamics: in Post-LN the final "
            "LayerNorm makes the measured norm a manifestation of the LN manifold's geometry, not of the gradient.")
    r = score_answer(card, soup)
    assert r.filler == 2 and r.score <= 15
    card = _card(deck, "layernorm-jacobian")
    one_device = "LayerNorm's Jacobian is a geometry-aware, scale-aware and shift-aware map of the gradient."
    assert score_answer(card, one_device).filler == 1


def test_an_answer_that_only_restates_the_question_earns_at_most_the_given_only_cap(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert {"pre-can-drop", "llms-still-warm-up"} <= rubric_for(card).given_points
    restated = ("So the point is that Pre-LN can be trained with no warm-up at all, and still nearly every large "
                "Pre-LN language model keeps a warm-up phase. Both of these facts hold at the same time.")
    r = score_answer(card, restated)
    assert {"pre-can-drop", "llms-still-warm-up"} <= {p.id for s in r.sections for p in s.points if p.hit}
    assert r.given_only and r.score <= 10
    assert r.cap_reason == "given" and "the question itself states" in (capped_note(r.capped, "en", reason=r.cap_reason) or "")
    explained = restated + (" Warm-up protects Adam: its second-moment estimate is built from a few steps at the "
                            "start, so the first updates are too large and warm-up keeps them small.")
    r = score_answer(card, explained)
    assert not r.given_only and r.score > 10 and r.cap_reason != "given"


@pytest.mark.parametrize("card_id", ["pre-vs-post-ln", "pre-ln-effective-depth"])
def test_pre_ln_ending_worse_is_post_ln_ending_better_read_the_other_way_round(deck, card_id: str) -> None:
    card = _card(deck, card_id)
    for text in ("Pre-LN usually ends slightly worse than Post-LN in final quality.",
                 "和 Post-LN 相比，Pre-LN 的最终效果通常略差一些。"):
        assert "post-better-final" in hits(card, text)
        assert not mistakes(card, text)
    # a lower loss is better, a denial says nothing of the kind, and Post-LN's result called worse is not the point
    for text in ("Pre-LN reaches a lower loss than Post-LN.", "Pre-LN's performance is not worse than Post-LN's.",
                 "Post-LN's final quality is slightly worse than Pre-LN's."):
        assert "post-better-final" not in hits(card, text)


def test_post_ln_called_worse_is_still_charged_next_to_the_converse_reading(main_card) -> None:
    assert "post-lower-ceiling" in mistakes(main_card, "虽然 Post-LN 最终效果一般比 Pre-LN 略差，但它没有深层退化的问题。")


@pytest.mark.parametrize("title", ["[[Post-LN]]", "【Post-LN】", "[Post-LN]"])
def test_a_title_in_brackets_is_a_heading_that_names_its_section(deck, title: str) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    text = f"{title}\n\n它的主干方差是恒定的。通常认为更难收敛，但训练出来的效果更好。\n"
    assert "post-better-final" in hits(card, text)


def test_a_name_that_labels_what_follows_it_on_a_flattened_line_is_not_the_subject_before_it(main_card) -> None:
    # notes copied from a web page onto one line: "<name> (<aside>): <formula> <name> (<aside>): <formula>"
    text = "Pre-norm (modern): x = x + Attn(Norm(x)) Post-norm (original): x = Norm(x + Attn(x)) Both are used."
    assert {"pre-formula", "post-formula"} <= hits(main_card, text)
    assert not mistakes(main_card, text)


def test_a_mistake_is_not_charged_when_the_colon_after_it_spells_out_the_correct_quantity(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    # Lemma 2 written out after the colon: it is the squared norm that grows linearly
    for text in ("In Pre-LN the expected norm of the hidden state grows linearly with depth:\n(1 + l/2)d <= E(||x_l||^2) <= (1 + 3l/2)d",
                 "In Pre-LN the stream norm grows linearly with depth: its squared value is about l*d at initialisation."):
        assert "stream-norm-linear" not in mistakes(card, text)
    # the same claim left as it stands, or elaborated without the squared form, is still charged
    for text in ("In Pre-LN the stream norm grows linearly with depth.",
                 "In Pre-LN the stream norm grows linearly with depth: every block adds the same amount to it.",
                 "In Pre-LN the stream norm grows linearly with depth. Its variance is the sum of the blocks' variances."):
        assert "stream-norm-linear" in mistakes(card, text)


def test_an_aside_between_a_subject_and_its_copula_keeps_the_name_after_the_copula_a_description(deck) -> None:
    card = _card(deck, "sandwich-ln")
    for aside in ("roughly speaking", "at its core", "in short"):
        text = f"Sandwich-LN, {aside}, is Pre-LN with a lid on the branch: you compute x + LN(F(LN(x)))."
        assert "formula" in hits(card, text), text
    # a name after "is" with no other subject before it is still the subject
    assert "formula" not in hits(card, "In short, it is Pre-LN: you compute x + LN(F(LN(x))).")


def test_a_name_inside_a_later_where_part_is_not_the_subject_of_the_claim_before_it(deck) -> None:
    card = _card(deck, "sandwich-ln")
    text = ("Where it came from: the name comes from CogView (2021), a 4B-parameter text-to-image model trained in FP16, "
            "where, in practice, some Pre-LN activations became large enough to overflow half precision.")
    assert "cogview" in hits(card, text)
    # "which is why <name> ..." takes the whole claim before it: the name there still governs it
    main = _card(deck, "pre-vs-post-ln")
    text = ("At init this makes post-ln badly balanced: the big gradients are at the bottom layers and they shrink toward the "
            "output, which is why post-ln needs warm-up.")
    assert "post-grad-largest-near-input" in mistakes(main, text)


def test_a_spelled_out_name_does_not_cancel_the_formula_written_after_it(deck) -> None:
    card = _card(deck, "rmsnorm")
    text = "RMSNorm rescales each vector by its root mean square: y_i = g_i · a_i / sqrt(mean(a²) + ε)."
    assert "rms-formula" in hits(card, text)
    # the name alone still defines nothing
    for text in ("RMSNorm is about root-mean-square re-scaling.", "RMSNorm rescales each vector by its root mean square."):
        assert "rms-formula" not in hits(card, text)


def test_a_common_word_one_letter_from_a_card_word_is_read_as_itself(main_card) -> None:
    from lndrill.scoring.lexicon import Lexicon, stem

    # "identify" is no typo of "identity", nor "three" of "there", nor a version of another version
    text = "The authors identify the residual path of Post-LN as the cause of gradient vanishing."
    assert "post-identity-path" not in mistakes(main_card, text)
    assert "post-identity-path" in mistakes(main_card, "Post-LN has an identiy residual path.")  # a real typo
    lex = Lexicon({stem("identity"), stem("through"), "llama2", "gemma2"})
    assert lex.near(stem("identify")) == set() and lex.near(stem("though")) == set()
    assert lex.near("llama1") == set() and lex.near("gemma3") == set()
    assert lex.near(stem("thruogh")) == {stem("through")}


def test_a_fragile_deep_post_ln_stack_is_hard_to_train(main_card) -> None:
    assert "post-depth-hard" in hits(main_card, "Deep Post-LN stacks are fragile without tricks.")


def test_a_claim_in_a_label_is_not_charged_to_the_name_after_the_labels_colon(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    text = ("## Why Pre-Norm wins\n\n2. **No warmup needed**: Post-Norm's gradient magnitudes at initialization can be "
            "very large in deeper layers.")
    assert "post-no-warmup" not in mistakes(card, text)
    assert "post-large-grad-init" in hits(card, text)
    # named in the label itself, the claim is still charged
    assert "post-no-warmup" in mistakes(card, "- Post-LN needs no warmup: its gradients are small.")
    # and a name after the colon still tells what the label is about, for credit ("GPT-2: standard LayerNorm")
    rms = _card(deck, "rmsnorm")
    assert "gpt-layernorm" in hits(rms, "- LLaMA: RMSNorm, pre-norm.\n- GPT-2 / GPT-3: standard LayerNorm, Pre-LN.")


@pytest.mark.parametrize("spelling", ["sub-layer", "sub layer", "Sub-Layer", "sublayer"])
def test_sub_layer_is_one_word_however_it_is_spelled(main_card, spelling: str) -> None:
    assert "pre-order" in hits(main_card, f"In Pre-LN, LN is applied to the input of each {spelling}.")
    assert "pre-order" in hits(main_card, f"Pre-LN places LN before each {spelling}.")


def test_a_where_part_after_a_name_with_its_head_noun_and_an_alias_is_about_that_name(main_card) -> None:
    for name in ("Post-LN", "the original Post-LN Transformer", "the original Post-LayerNorm (PostNorm or Post-LN) Transformer"):
        text = f"Unlike {name}, where LN is applied after the residual addition, Pre-LN places LN before each sublayer."
        assert {"post-order", "pre-order"} <= hits(main_card, text), text


def test_a_cross_leading_an_item_of_a_pros_and_cons_list_marks_a_drawback_not_a_denial(main_card) -> None:
    text = ("Post-LayerNorm (Original)\n  • ❌ Needs warmup phase\n  • ❌ Unstable with many layers\n"
            "Pre-LayerNorm (Modern)\n  • ✅ Stable training without warmup\n  • ✅ Standard in GPT-3, Llama\n")
    assert {"post-needs-warmup", "post-depth-hard", "pre-no-warmup", "llm-choose-pre"} <= hits(main_card, text)
    # the same cross can mark a thing as absent: such a line is never charged
    text = "Pre-LN\n  • ✅ identity path\n  • ❌ LN on the main residual path\n"
    assert not mistakes(main_card, text)
    # without ticks in the answer a cross still denies ("no LN on the residual path")
    assert "post-needs-warmup" not in hits(main_card, "Post-LN\n  • ❌ needs warmup\n")


@pytest.mark.parametrize("title", ["Pre-LayerNorm (Modern)", "Pre-LN（现代）"])
def test_a_short_title_with_a_short_aside_is_a_heading(main_card, title: str) -> None:
    text = f"Post-LN (Original)\n  - needs warm-up\n{title}\n  - trains without warm-up\n"
    assert {"post-needs-warmup", "pre-no-warmup"} <= hits(main_card, text)
    assert not mistakes(main_card, text)


def test_safe_without_warm_up_is_a_firm_no_need(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-drop-at-any-lr" in mistakes(card, "Their result shows Pre-LN is safe without warm-up at any learning rate.")
    for text in ("Pre-LN is safe without warm-up at moderate learning rates, not at any learning rate.",
                 "Pre-LN is safe without warm-up at moderate learning rates."):
        assert not mistakes(card, text), text
        assert "pre-can-drop" in hits(card, text)


def test_a_pronoun_opening_the_next_clause_carries_the_noun_before_it_for_credit_only(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    text = "In Pre-LN the residual stream is never normalised inside the stack, so it keeps getting bigger as you go deeper."
    assert "stream-grows" in hits(card, text)
    # words joined across the pronoun never charge: the reading is a guess
    assert not mistakes(card, "In Pre-LN the residual stream is renormalised by each LN, so it stays constant with l.")
    assert "pre-stream-fixed" in mistakes(card, "In Pre-LN the residual stream stays constant with l.")
    # a clause that does not open with a pronoun is a statement of its own
    assert "stream-grows" not in hits(card, "In Pre-LN the residual stream is never normalised, so training gets bigger batches.")


def test_effective_depth_in_plain_words(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    assert "deep-blocks-identity" in hits(card, "In Pre-LN the network effectively behaves as if it were shallower than it is.")
    assert "deep-blocks-identity" in hits(card, "In Pre-LN the later layers matter less and less to the output.")
    assert "post-better-final" in hits(card, "Pre-LN gives up some quality compared with a well-trained Post-LN model.")


def test_the_name_a_difference_is_taken_from_is_not_the_subject(deck) -> None:
    card = _card(deck, "sandwich-ln")
    text = "So the only difference from Pre-LN is a second LayerNorm at the end of each branch, applied before the residual add."
    assert "extra-ln-on-branch-output" in hits(card, text)


def test_without_warm_up_things_destabilise_is_a_need_not_a_drop(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    for text in ("Without warmup, the early updates can destabilize layer normalization statistics.",
                 "Without warm-up the loss spikes in the first steps."):
        assert "pre-can-drop" not in hits(card, text), text
    assert "pre-can-drop" in hits(card, "Pre-LN trains fine without warm-up at moderate learning rates.")


def test_two_comma_parts_with_their_own_topics_are_not_charged_as_one_claim(main_card, deck) -> None:
    text = "[[Pre Norm]] :<-> x_{n+1}=x_n+f(norm(x_n)) 第二项的方差由于有 norm 不会随层数变化,x 的方差在主干上随层数累积。"
    assert not mistakes(main_card, text)
    assert "pre-formula" in hits(main_card, text)
    # a correlative pair (越...越) is one statement over both parts
    toy = _card(deck, "toy-metric-artifact")
    assert "grad-inverse-eps" in mistakes(toy, "Post-LN 的梯度只剩 eps 带来的残留，eps 越小，残留的梯度越大。")


def test_from_x_aside_to_y_is_a_sequence_like_an_arrow(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    for text in ("The trend runs from Post-LN (2017, BERT) to Pre-LN LayerNorm (GPT-2/3).",
                 "The field moved from Post-LN (BERT) to Pre-LN (GPT-2)."):
        assert "bert-pre" not in mistakes(card, text), text
        assert {"bert-post", "gpt-pre"} <= hits(card, text)
    assert "bert-pre" in mistakes(card, "BERT moved from Post-LN to Pre-LN.")


def test_post_ln_needs_no_final_ln_said_in_a_table_row(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    table = ("| | Pre-LN | Post-LN |\n|---|---|---|\n| Stream normalized? | no, only the branch input | yes, after every sublayer |\n"
             "| Final LN needed? | yes (GPT-2) | no, redundant |\n")
    assert "post-already-normalised" in hits(card, table)
    assert not mistakes(card, table)


def test_a_norm_written_with_double_bars_inside_a_table_cell_does_not_split_the_row(deck) -> None:
    card = _card(deck, "xiong-theorem")
    table = ("| | Post-LN | Pre-LN |\n|---|---|---|\n| Thm 1 bound, ||∂L/∂W^{2,L}||_F @ init | O(d√ln d) | O(d√(ln d / L)) |\n"
             "| Lemma 2 stream | E||x_l||² = 1.5d | (1+l/2)d ≤ E||x_l||² ≤ (1+3l/2)d |\n")
    assert {"post-bound-form", "pre-bound-shrinks", "lemma2-pre"} <= hits(card, table)
    assert not mistakes(card, table)
    # an empty cell written with spaces around it is still a cell
    assert "post-formula" in hits(_card(deck, "pre-vs-post-ln"), "| | Post-LN || Pre-LN |\n|---|---|---|---|\n| block | LN(x + F(x)) || x + F(LN(x)) |\n")


def test_a_nested_list_item_is_about_the_item_above_it(main_card) -> None:
    text = ("- **Why big models use Pre-LN**\n  - stable at depth, tolerant of lr\n  - no warm-up needed at moderate lr\n"
            "- **Why Post-LN is still studied**\n  - better final quality when it converges\n")
    assert {"pre-stable", "pre-no-warmup", "post-better-final"} <= hits(main_card, text)
    assert not mistakes(main_card, text)
    # siblings at the same depth are not nested under each other
    text = "- Pre-LN trains without warm-up\n- needs warm-up\n"
    assert "pre-needs-warmup" not in mistakes(main_card, text)


def test_leveraging_a_paradigm_is_filler(deck) -> None:
    card = _card(deck, "rmsnorm")
    soup = ("RMSNorm is all about re-scaling invariance versus re-centering invariance. By leveraging the root mean square, "
            "the Jacobian's radial projection stabilizes gradient flow, which is why LLaMA, T5, GPT-2/3 and BERT each make "
            "their own trade-off: fewer reductions, better kernel fusion, a more efficient normalization paradigm.")
    r = score_answer(card, soup)
    assert r.filler_capped and r.score <= 15
    # one such word in a real explanation caps nothing
    r = score_answer(card, "RMSNorm leverages the root mean square: y = x / sqrt(mean(x^2) + eps) * g, with no mean subtraction.")
    assert not r.filler_capped


def test_no_matter_how_large_the_step_size_is_any_learning_rate(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-drop-at-any-lr" in mistakes(card, "Pre-LN is stable without warm-up no matter how large the step size.")
    assert not mistakes(card, "Pre-LN is stable without warm-up at moderate learning rates; no matter how large the "
                              "model, LLMs still keep a short warm-up.")


def test_a_pitfall_being_resolved_refutes_nothing(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    text = "To resolve this training pitfall, we propose LayerNorm Scaling, which scales the LN output by 1/sqrt(l)."
    assert "curse-of-depth" in hits(card, text)
    warm = _card(deck, "warmup-for-pre-ln")
    # named as the pitfall, the claim is still refuted
    assert "pre-drop-at-any-lr" not in mistakes(warm, "A common pitfall: Pre-LN needs no warm-up at any learning rate.")


@pytest.mark.parametrize("label", ["Myth:", "Misconception:", "A common pitfall:", "误区："])
def test_a_negated_claim_under_a_refutation_label_is_not_charged(deck, label: str) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-drop-at-any-lr" not in mistakes(card, f"{label} Pre-LN needs no warm-up at any learning rate.")
    assert "pre-drop-at-any-lr" in mistakes(card, "Note: Pre-LN needs no warm-up at any learning rate.")


@pytest.mark.parametrize("card_id", ["warmup-for-pre-ln", "post-ln-warmup"])
def test_not_necessarily_is_a_hedge_not_a_need(deck, card_id: str) -> None:
    card = _card(deck, card_id)
    hedge = "The two facts do not necessarily contradict each other, and warm-up is different for Post-LN and Pre-LN."
    assert not hits(card, hedge) & {"post-needs-it", "post-needs-warmup"}
    assert hits(card, "Warm-up is necessary for Post-LN.") & {"post-needs-it", "post-needs-warmup"}


def test_alpha_below_one_in_symbols_is_the_same_claim_as_in_words(deck) -> None:
    card = _card(deck, "deepnorm")
    assert "alpha-below-one" in mistakes(card, "Because alpha < 1, the residual stream is down-weighted at each layer.")
    assert "alpha-below-one" in mistakes(card, "Because alpha is less than 1, the residual stream is down-weighted.")
    assert not mistakes(card, "alpha > 1 up-weights the residual stream, while beta < 1 shrinks the initial weights.")


@pytest.mark.parametrize("text", [
    "Gemma-2 added a *sandwich*: the same two pre-norms, plus a norm on each branch's OUTPUT before its residual add.",
    "Gemma 2 uses the pre-norm plus an extra norm on the output of each sublayer.",
])
def test_gemma_2_as_a_sandwich_or_pre_norm_plus_output_norm(deck, text: str) -> None:
    card = _card(deck, "sandwich-ln")
    assert "gemma2" in hits(card, text)
    assert "gemma2" not in hits(card, "Gemma 2 is not a sandwich.")
    # the same words said of OLMo 2 earn nothing for Gemma 2, and OLMo 2's own points stay
    olmo = "OLMo 2（arXiv:2501.00656）：x + RMSNorm(F(x))，把 norm 挪到分支输出，去掉输入端的 norm，另外加 QK-norm。"
    assert {"olmo2", "olmo2-qknorm"} <= hits(card, olmo) and "gemma2" not in hits(card, olmo)


def test_admin_said_to_end_as_a_pre_ln_model_is_charged(deck) -> None:
    card = _card(deck, "admin-amplification")
    wrong = "Admin then moves the LayerNorm inside the residual branch, so the trained network is a Pre-LN model."
    assert "admin-keeps-pre" in mistakes(card, wrong)
    assert not mistakes(card, "Unlike Pre-LN, the trained network is a Post-LN model.")
    assert not mistakes(card, "The trained model is a Post-LN Transformer with rescaled shortcuts, not a Pre-LN model.")


@pytest.mark.parametrize("frame", ["A common pitfall is thinking that", "Don't fall into the trap of thinking that",
                                   "It is wrong to think that", "A classic mistake is to think that"])
def test_thinking_named_as_the_error_reports_the_claim(deck, frame: str) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    claim = "Pre-LN needs no warm-up at any learning rate."
    assert not mistakes(card, f"{frame} {claim}")
    assert "pre-drop-at-any-lr" in mistakes(card, f"I think that {claim}")


@pytest.mark.parametrize("text", ["Pre-LN reduces the need for warm-up.", "Pre-LN lessens its reliance on a long warm-up.",
                                  "Pre-Norm 减少了对 warmup 的依赖。",
                                  "Pre-Norm 保证了深度可训练性，减少对 warmup/精细技巧的依赖，工程风险更低。"])
def test_a_need_made_smaller_is_not_the_need(main_card, text: str) -> None:
    assert "pre-needs-warmup" not in mistakes(main_card, text)
    assert "pre-no-warmup" in hits(main_card, text)


def test_a_need_made_smaller_reaches_only_what_it_is_directly_for(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-can-drop" not in hits(card, "RAdam reduces the need for expensive tuning of Adam with warmup.")
    assert "pre-needs-warmup" in mistakes(_card(deck, "pre-vs-post-ln"), "Pre-LN reduces the gradient and needs warm-up.")


def test_a_relative_clause_about_a_noun_after_a_preposition_is_not_the_earlier_nouns_claim(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    other = ("Unlike Pre-LN, where the residual stream has an identity path and the final LayerNorm divides output-side "
             "gradients by a stream norm that grows with depth, Post-LN normalises after every residual addition.")
    assert "grad-grows-with-depth" not in mistakes(card, other)
    assert "grad-grows-with-depth" in mistakes(card, "The output-side gradient grows with depth in Post-LN.")
    admin = _card(deck, "admin-amplification")  # the instrument's relative clause is still the doer's claim
    assert "admin-removes-ln" in mistakes(admin, "Admin fixes it with a smarter initialization that replaces the "
                                                 "LayerNorm.")


def test_a_hard_wrapped_line_that_carries_on_a_sentence_is_no_label(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    wrapped = ("Hidden states in deep layers become nearly identical, and deep layers in LLMs can be pruned with\n"
               "small loss. Post-LN, when it trains, tends\n"
               "to give better final quality: DeepNet reports Pre-LN about 0.5-1.0 BLEU below a converged Post-LN.")
    assert "pre-gap-above" not in mistakes(card, wrapped)
    # a note line of its own, indented under another, keeps its label
    notes = "sandwich-LN:  h = x + LN(F(LN(x)))\n  vs Pre-LN:  h = x + F(LN(x))"
    from lndrill.scoring.lexicon import tokenize
    from lndrill.scoring.structure import analyse
    text = prepare(notes).text
    lay = analyse(text, tokenize(text), prepare(notes).cased)
    assert len(lay.label_of_line) == 2


def test_post_ln_output_gradient_given_as_xiongs_bound_is_large(main_card) -> None:
    text = "In Post-LN, Xiong et al. find that at initialisation the last layer's FFN gradient is O(d√(ln d))."
    assert "post-large-output-grad" in hits(main_card, text)
    pre = "In Pre-LN the last layer's gradient bound is O(d sqrt(ln d / L))."
    assert "post-large-output-grad" not in hits(main_card, pre) and not mistakes(main_card, pre)


@pytest.mark.parametrize("text", ["Dropping the mean computation makes RMSNorm cheaper.",
                                  "RMSNorm 去掉均值计算更便宜，效果差不多。"])
def test_what_is_said_of_a_removal_is_not_removed(deck, text: str) -> None:
    card = _card(deck, "rmsnorm")
    assert "cheaper" in hits(card, text)
    # the removal still denies its own object
    assert {"no-recentering", "cheaper"} <= hits(card, "Dropping the mean subtraction makes RMSNorm cheaper.")


def test_the_mean_is_a_statistic_not_a_verb_of_meaning(deck) -> None:
    card = _card(deck, "rmsnorm")
    assert "no-recentering" in hits(card, "What's dropped: the mean subtraction (re-centring) and the additive bias beta.")
    assert "cheaper" not in hits(card, "That doesn't mean RMSNorm is cheaper.")


def test_a_chinese_comparison_partner_after_its_own_modifier_is_the_partner(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    assert "deep-blocks-identity" in hits(card, "一个 L 层的 Pre-LN 模型，其实际等效层数不如 L 层的 Post-LN 模型。")
    assert is_partner("Pre-LN 比收敛后的 Post-LN 低。", "post")
    # 雅可比 holds 比 without comparing anything
    assert not is_partner("雅可比的 Post-LN 版本", "post")


def test_chinese_adverbs_that_start_with_wu_deny_nothing(deck, main_card) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    assert "deep-blocks-identity" in hits(card, "Pre-Norm 结构无形地增加了模型的宽度而降低了模型的深度。")
    assert "pre-stable" in hits(main_card, "Pre-LN 无疑更稳定。")
    assert "pre-no-warmup" in hits(main_card, "Pre-LN 无需 warmup。")


def test_robust_said_of_anything_is_not_warmup_insurance(deck) -> None:
    card = deck.cards["warmup-for-pre-ln"]

    def hits(text: str) -> set[str]:
        return {p.id for s in score_answer(card, text).sections for p in s.points if p.hit}

    # praise of an optimiser (or anything else) in general words is not the point about warm-up
    assert "larger-peak-lr" not in hits("RAdam 引入修正项，改善了优化过程的稳定性和鲁棒性。")
    assert "larger-peak-lr" not in hits("The new optimiser makes training far more robust across datasets.")
    # said of warm-up, the same word still earns it
    assert "larger-peak-lr" in hits("Warm-up simply makes the first thousand steps more robust.")
    assert "larger-peak-lr" in hits("预热让训练初期更鲁棒。")


def test_labelled_notes_in_a_one_line_dump_do_not_shield_its_bare_fragments(deck) -> None:
    card = deck.cards["rmsnorm"]
    # a dump that puts a few "Name: thing" notes among its fragments is still a dump: the labelled notes keep what
    # they say, the bare fragments earn nothing
    dump = ("RMSNorm. Root mean square statistic. RMS(x) = sqrt(mean(x^2) + eps). Learned gain. No mean, no shift. "
            "Scale invariance. Zhang and Sennrich. Cheaper kernels, fewer reductions. Rank D-1 Jacobian. "
            "LLaMA: RMSNorm. T5: RMS-style. BERT: Post-LN. GPT-2: LayerNorm. Final norm, residual stream.")
    got = hits(card, dump)
    assert not got & {"rms-formula", "no-recentering", "no-bias", "cheaper"}
    # the same content written as short sentences is an answer
    prose = ("RMSNorm divides by the root mean square: RMS(x) = sqrt(mean(x^2) + eps), then applies a learned gain. "
             "It skips the mean subtraction and drops the bias. That saves a reduction, so it is cheaper. "
             "LLaMA uses it.")
    assert {"rms-formula", "no-recentering", "cheaper"} <= hits(card, prose)


def test_the_qk_norm_point_belongs_to_olmo_2_not_to_another_model(deck) -> None:
    card = deck.cards["sandwich-ln"]
    assert "olmo2-qknorm" not in hits(card, "Gemma 2 keeps both norms around every sublayer and adds QK-norm as well.")
    assert "olmo2-qknorm" in hits(card, "OLMo 2 keeps only the output norm and adds QK-norm as well.")


def test_the_model_a_subject_turns_away_from_is_not_the_subject(deck) -> None:
    card = deck.cards["sandwich-ln"]
    text = "OLMo 2 heads the other way from Pre-LN: it normalises only the branch output, x + RMSNorm(F(x)), nothing at the input."
    assert "olmo2" in hits(card, text)
    assert is_partner("It goes the opposite way from Pre-LN.", "pre")


def test_a_received_view_that_says_something_reports_it(deck) -> None:
    card = deck.cards["xiong-theorem"]
    assert "post-grows-with-depth" in mistakes(card, "Post-LN's last-layer gradient grows with depth.")
    # what "a common retelling says" / "the usual retelling holds" is the view of others, not the writer's claim
    assert not mistakes(card, "A common retelling says Post-LN's last-layer gradient grows with depth.")
    assert not mistakes(card, "The usual retelling holds that Post-LN's last-layer gradient grows with depth.")


def test_a_bold_run_in_heading_and_the_text_after_it_make_no_claim_together(deck) -> None:
    # the heading's words name the paragraph's topic; joined with words of the text they are not a wrong claim
    admin = deck.cards["admin-amplification"]
    assert not mistakes(admin, "- **What the amplification effect is.** Pre-LN lets the residual stream accumulate; Post-LN does not.")
    assert "amplification-misread" in mistakes(admin, "The amplification effect is the residual stream growing layer after layer.")
    main = deck.cards["pre-vs-post-ln"]
    assert "pre-grad-through-ln" not in mistakes(main, "**Backward.** 在 Pre-LN 里每层的 Jacobian 为")
    # the claim written out in a sentence is still charged
    assert "pre-grad-through-ln" in mistakes(main, "In Pre-LN the backward gradient passes through an LN Jacobian at every layer.")


def test_a_formula_ends_where_words_follow_its_plus_sign(main_card) -> None:
    # "+ final LN before the head" goes on in prose: the formula is x + F(LN(x)), which is Pre-LN's
    assert "pre-formula" in hits(main_card, "- Pre-LN: y = x + F(LN(x)) + final LN before the head")
    assert "pre-formula" in hits(main_card, "- Pre-LN: y = x + F(LN(x)) + extra norm at the very end")
    assert [f.sides for f in find_formulas(prepare("y = x + F(LN(x)) + final LN").text)] == \
        [f.sides for f in find_formulas(prepare("y = x + F(LN(x))").text)]


def test_a_bracketed_expression_is_one_item_of_a_keyword_list(deck) -> None:
    card = deck.cards["post-ln-warmup"]
    # "min(step^-0.5, step * warmup^-1.5)" is a single term of the dump, not a described item that makes it prose
    dump = ("Post-LN, warm-up, Adam, beta1 = 0.9, beta2 = 0.98, eps = 1e-9, noam, min(step^-0.5, step * warmup^-1.5), "
            "4000 steps, linear ramp.")
    assert not hits(card, dump) & {"schedule-formula", "adam-betas", "warmup-4000"}
    # the same schedule written as a statement earns its point
    said = "The Noam schedule sets lr = d_model^-0.5 * min(step^-0.5, step * warmup^-1.5) with warmup = 4000."
    assert "schedule-formula" in hits(card, said)


def test_the_colon_of_an_arxiv_identifier_breaks_no_clause(deck) -> None:
    card = deck.cards["admin-amplification"]
    said = "DeepNet（arXiv:2203.00555 第 3 节）持同样观点：元凶是模型更新过大。"
    assert "deepnet-link" in hits(card, said)
    assert prepare("see arXiv:2203.00555 and doi:10.1000/x; ratio: 2").text == "see arxiv 2203.00555 and doi 10.1000/x; ratio: 2"


def test_a_part_that_goes_on_with_takes_after_an_aside_is_the_claims_predicate(deck) -> None:
    card = deck.cards["admin-amplification"]
    # "takes the same view" after "(§3)" or ", in its third section," continues the sentence about DeepNet; it is no
    # comparison phrase like "take the Pre-LN block and ..."
    assert "deepnet-link" in hits(card, "DeepNet (§3) takes the same view as Admin.")
    assert "deepnet-link" in hits(card, "DeepNet, in its third section, takes the same view as Admin.")


def test_each_semicolon_note_of_an_item_under_a_lead_is_a_note(deck) -> None:
    card = deck.cards["toy-metric-artifact"]
    notes = ("- What to measure instead:\n"
             "  - per-layer parameter gradients; untied weights; d >= 64; readout + cross-entropy; several seeds\n")
    assert "param-grads-untied" in hits(card, notes)


def test_a_formula_said_aloud_earns_credit_but_never_a_mistake(deck, main_card) -> None:
    # "x plus F of LN of x" is x + F(LN(x)): its order point needs the formula itself
    assert {"pre-formula", "pre-order"} <= hits(main_card, "Pre-LN is x plus F of LN of x.")
    assert {"post-formula", "post-order"} <= hits(main_card, "Post-LN is LN of x plus F of x.")
    # words said aloud bind loosely: written, the same swapped formula is charged, said aloud it is not
    card = deck.cards["sandwich-ln"]
    assert "sandwich-single-ln" in mistakes(card, "Sandwich-LN is x + F(LN(x)).")
    assert not mistakes(card, "Sandwich-LN is x plus F of LN of x.")
    # "LN of alpha x plus the branch" goes on in words: no formula is read from it
    from lndrill.scoring.formula import spoken_formulas
    assert spoken_formulas("so it is ln of alpha x plus the branch") == []


def test_a_chinese_comparison_with_a_bare_adjective_is_a_comparative(deck) -> None:
    card = deck.cards["admin-amplification"]
    # "比 Pre-LN 好" says better than Pre-LN, as "比 Pre-LN 更好" does
    assert "keeps-post-quality" in hits(card, "收敛以后 Post-LN 往往比 Pre-LN 好。")
    assert prepare("比 Pre-LN 好").text == prepare("比 Pre-LN 更好").text
    assert prepare("效果比较好").text == "效果比较好"  # "fairly good": no comparison with a name
    assert prepare("比 Post-LN 大约低 0.5").text == "比 post-ln 大约低 0.5"  # 大约 is "about", no comparative


def test_a_branch_named_two_ways_with_a_slash_is_one_branch(main_card) -> None:
    # "Attn/FFN(LN(h))" names the sublayer either way; it is no division
    assert {"pre-formula", "post-formula"} <= hits(main_card, "Post-LN: h' = LN(h + MHA/FFN(h)). Pre-LN: h' = h + MHA/FFN(LN(h)).")
    assert [f.sides for f in find_formulas(prepare("y = x / F(x)").text)] != \
        [f.sides for f in find_formulas(prepare("y = F(x)").text)]


def test_a_run_in_heading_spares_its_words_whichever_of_the_claims_words_comes_first(deck) -> None:
    # the heading holds the claim's second word ("residual stream"); its first ("amplification effect is") follows it
    admin = deck.cards["admin-amplification"]
    assert not mistakes(admin, "- **The residual stream.** What the amplification effect is, Pre-LN lets accumulate.")


def test_a_sentence_that_points_back_with_these_joins_the_one_before(deck) -> None:
    card = deck.cards["deepnorm"]
    listed = "DeepNorm picks out the feed-forward layers and the value and output projections."
    # "these"/"those" point back at the list, so the next sentence's beta is said of it
    assert "beta-which" in hits(card, f"{listed} These weights start at gain beta.")
    assert "beta-which" in hits(card, "DeepNorm 挑出的是 FFN 和 V、O 投影。这几个矩阵初始化乘 β。")
    # a new paragraph, or a sentence that does not point back, starts something else
    assert "beta-which" not in hits(card, f"{listed}\n\nThese weights start at gain beta.")
    assert "beta-which" not in hits(card, f"{listed} The paper also has a beta, which is small.")


def test_a_short_heading_says_what_the_models_named_under_it_are(deck) -> None:
    card = deck.cards["ln-who-uses-what"]
    # the placement is the heading, the models are the lines under it
    assert {"bert-post", "gpt-pre", "llama-pre"} <= hits(card, "## Post-LN\nBERT, like the 2017 model.\n\n## Pre-LN\n"
                                                         "GPT-2 and GPT-3, then LLaMA.")
    assert {"bert-post", "gpt-pre"} <= hits(card, "### Post-LN\nFor example: BERT.\n\n### Pre-LN\nFor example: GPT-2.")
    # one name per bullet: each bullet is an item under the heading, not a heading of its own
    assert {"transformer-post", "bert-post", "gpt-pre", "llama-pre"} <= hits(
        card, "### Post-LN\n- the 2017 Transformer\n- BERT\n\n### Pre-LN\n- GPT-2\n- LLaMA")
    # the evidence shows the heading and the line that names the model
    result = score_answer(card, "### Post-LN\n- the 2017 Transformer\n- BERT")
    assert [p.evidence for s in result.sections for p in s.points if p.id == "bert-post"] == ["### Post-LN … BERT"]
    # a heading that asks, or says more than the placement, is a title: the models under it are not given it
    assert "bert-post" not in hits(card, "## Why was Post-LN abandoned?\nBERT, like the 2017 model.")
    assert "gpt-pre" not in hits(card, "## What changed when Pre-LN took over in practice\nGPT-2 and GPT-3.")


def test_a_lower_case_short_name_said_to_be_a_formula_names_its_placement(deck) -> None:
    card = deck.cards["sandwich-ln"]
    # spoken: "and sandwich is ..." names Sandwich-LN as "Sandwich" would
    assert "formula" in hits(card, "um so pre is x plus f of ln of x, and sandwich is just x plus ln of f of ln of x")
    assert "formula" in hits(card, "pre-ln: x + F(LN(x)); sandwich is x + LN(F(LN(x)))")
    # the word alone, or not said to be a formula, names nothing
    assert "formula" not in hits(card, "the sublayer sits in a sandwich, x + LN(F(LN(x))) in Pre-LN terms")


def test_a_scale_word_that_belongs_to_another_quantity_is_not_the_stream_growing(deck) -> None:
    # the point: Pre-LN's residual stream grows with depth (three cards say it their own way)
    for card_id, point in (("pre-ln-final-norm", "stream-grows"), ("pre-ln-effective-depth", "stream-grows"),
                           ("xiong-theorem", "lemma2-pre")):
        card = deck.cards[card_id]
        assert point in hits(card, "In Pre-LN the norm of the stream keeps growing with depth."), card_id
        # the magnitude, size or norm of something else is not the stream's
        assert point not in hits(card, "In Pre-LN the loss can be lowered by increasing logit magnitudes."), card_id
        assert point not in hits(card, "In Pre-LN models the gradient norm increases near the input."), card_id
        assert point not in hits(card, "Pre-LN 模型里，输入端附近的梯度范数会变大。"), card_id
        # said of both, the stream still grows
        assert point in hits(card, "In Pre-LN the stream's norm grows with depth, and so does the logit magnitude."), card_id


def test_a_misreading_that_names_its_content_refutes_that_content_not_the_sentence_before(deck) -> None:
    card = deck.cards["admin-amplification"]
    before = "Admin sets each w_i from a profiling pass."
    # "It is a common misreading that X": X is what is refuted, the sentence before stands
    assert "admin-profiling" in hits(card, f"{before} It is a common misreading that Admin turns Post-LN into Pre-LN.")
    assert "admin-profiling" in hits(card, f"{before} It is a frequent misunderstanding that Admin changes the placement.")
    # without a 'that' clause of its own, the verdict points back at the sentence before
    assert "admin-profiling" not in hits(card, f"{before} That is a common misreading.")
    main = deck.cards["pre-vs-post-ln"]
    assert "pre-identity-path" in hits(main, "Pre-LN keeps an identity path from the loss to every layer. It is a common "
                                             "misunderstanding that Post-LN's gradient grows with depth.")


def test_by_contrast_in_chinese_opens_a_clause_about_the_name_after_it(deck) -> None:
    card = deck.cards["post-ln-warmup"]
    # "相比之下" is "by contrast": no comparison partner, the name after it is the clause's subject
    assert "pre-no-warmup" in hits(card, "相比之下 Pre-LN 不用 warm-up 也能达到相近的 BLEU。")
    assert "pre-no-warmup" in hits(card, "相较之下，Pre-LN 不用 warm-up 也能训。")
    result = score_answer(card, "相比之下 Post-LN 不用 warm-up 也能训得很好。")
    assert [m.id for m in result.mistakes] == ["post-no-warmup"]
    # "相比 X" still sets X aside as the partner
    assert "post-no-warmup" not in {m.id for m in score_answer(card, "相比 Post-LN，Pre-LN 不用 warm-up 也能训。").mistakes}



def test_a_claim_set_apart_from_a_placement_is_not_that_placements(deck) -> None:
    card = deck.cards["pre-ln-final-norm"]  # the question is about Pre-LN
    # "which is what separates it from Post-LN", "这一点和 Post-LN（的做法/公式）不同": the claim is not Post-LN's
    for text in ("The residual stream keeps growing with depth, which is what separates it from Post-LN.",
                 "残差流随深度一路变大，这一点和 Post-LN 完全不同。",
                 "残差流随深度一路变大，这一点和 Post-LN 的 $\\mathrm{LN}(x+F(x))$ 不同。",
                 "残差流随深度一路变大，这一点和每层都归一化的 Post-LN（LN(x + F(x))）不同。",
                 "残差流随深度一路变大，这和 Post-LN 的做法不一样。"):
        assert "stream-grows" in hits(card, text), text
    # the partner's own formula after "的" is the partner's: no swapped formula charged to the subject
    sandwich = deck.cards["sandwich-ln"]
    text = "Sandwich-LN: y = x + LN(F(LN(x)))，和 Pre-LN 的 y = x + F(LN(x)) 相比多了个 output LN。"
    assert not score_answer(sandwich, text).mistakes


def test_a_hard_wrapped_line_after_a_verb_of_saying_carries_its_denial_on(deck, main_card) -> None:
    # "That is not to say\nPre-LN never needs warm-up: ..." is one sentence, wrapped: the line is no label
    wrapped = ("Pre-LN is forgiving: at moderate rates it trains without it. That is not to say\n"
               "Pre-LN never needs warm-up: large runs still use a short one.")
    assert not score_answer(main_card, wrapped).mistakes
    assert not score_answer(main_card, wrapped.replace("That is not to say", "This does not mean")).mistakes
    # said plainly on a line of its own, it is charged
    plain = "Pre-LN is forgiving.\nPre-LN never needs warm-up: large runs still use a short one."
    assert "pre-no-warmup-any-lr" in {m.id for m in score_answer(main_card, plain).mistakes}


def test_a_chinese_further_statement_with_its_own_object_is_a_claim_of_its_own(deck) -> None:
    card = deck.cards["deepnorm"]

    def charged(text: str) -> set[str]:
        return {m.id for m in score_answer(card, text).mistakes}

    # α on the shortcut, then (并且) β on some weights with 把: two claims, neither says β is on the shortcut
    assert "beta-on-shortcut" not in charged("DeepNorm 只是 shortcut 乘了 α > 1，并且初始化时把 FFN、W^V、W^O 乘上 β < 1。")
    assert "beta-on-shortcut" in charged("DeepNorm 把 shortcut 乘上 β。")
    # a further part without an object of its own goes on about the same subject
    assert "glm-deepnet-alpha" in charged("GLM-130B 也采用了 DeepNorm，而且直接照搬了论文的 α = (2N)^{1/4}。")


def test_a_relative_part_opened_by_a_preposition_is_about_the_name_before_it(deck) -> None:
    card = deck.cards["warmup-for-pre-ln"]
    # "Unlike Post-LN, for which warm-up is close to mandatory, Pre-LN ...": the relative part describes Post-LN
    text = "Unlike Post-LN, for which warm-up is close to mandatory, Pre-LN needs it only as a safety margin."
    assert "post-needs-it" in hits(card, text)
    assert "post-needs-it" in hits(card, text.replace("for which", "in which"))
    # with no relative part, nothing is said of Post-LN's need
    assert "post-needs-it" not in hits(card, "Unlike Post-LN, Pre-LN needs warm-up only as a safety margin.")


def test_a_hedge_made_of_the_claims_own_words_does_not_qualify_it(deck) -> None:
    card = deck.cards["layernorm-jacobian"]
    # "by default" is what the claim is about here, not a softener
    assert [m.id for m in score_answer(card, "PyTorch uses eps = 1e-6 by default.").mistakes] == ["torch-eps-default"]
    # a real hedge still qualifies it
    assert not score_answer(card, "PyTorch may use eps = 1e-6 by default in some builds.").mistakes


def test_the_card_placement_is_the_subject_only_of_a_text_about_normalisation() -> None:
    """A long passage about warm-up and Adam that never names a normalisation layer earns none of Pre-LN's points by
    default; the same words in an answer that mentions LayerNorm anywhere, or in a short answer typed on the card,
    still credit the card's placement."""
    from lndrill.cards.deck import load_deck

    card = load_deck().get("warmup-for-pre-ln")
    assert card is not None
    short = ("Whether a run needs warm-up depends on the optimizer state. Resuming from a checkpoint with Adam's "
             "moments loaded, training goes fine without warm-up.")
    generic = ("Our team trains language models of several sizes on the same data pipeline, and we keep a log of every "
               "schedule we try. A cold start from random weights always gets a ramp of a few hundred steps, because "
               "the first updates are noisy and the loss can spike. Large batches make this worse, and so does a "
               "high peak rate. " + short + " That saves a little compute on every continued run, which adds up over "
               "a year of experiments.")
    assert "pre-can-drop" not in hits(card, generic)
    assert "pre-can-drop" in hits(card, "With the LayerNorm inside each branch, " + generic[0].lower() + generic[1:])
    assert "pre-can-drop" in hits(card, short)


def test_a_change_that_may_go_either_way_is_no_amplification(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "update-size-culprit" not in hits(card, "In Post-LN the gradient must pass through the norm layer, which "
                                                   "can amplify or suppress it.")
    assert "update-size-culprit" not in hits(card, "Post-LN 里 LayerNorm 的梯度可能放大或缩小更新，需要温和的开始。")
    assert "update-size-culprit" in hits(card, "Post-LN leans on its residual branches, so it amplifies small "
                                               "parameter updates into large output changes.")



def test_a_wrong_claim_does_not_also_earn_the_point_it_gets_wrong(deck) -> None:
    """The words of a charged wrong claim are that claim's: Lemma 3 turned around ("the LN Jacobian grows with
    ||x||") is charged and does not also earn the point about the Jacobian shrinking like 1/||x||; said right,
    or said right elsewhere in the answer, the point is earned."""
    card = _card(deck, "xiong-theorem")
    wrong = "Lemma 3: ||J_LN(x)|| grows with ||x||."
    assert "jacobian-inverted" in mistakes(card, wrong)
    assert "final-ln-divides" not in hits(card, wrong)
    right = "Lemma 3: ||J_LN(x)|| shrinks like 1/||x||."
    assert "final-ln-divides" in hits(card, right)
    assert not mistakes(card, right)
    assert "final-ln-divides" in hits(card, wrong + "\n\n" + right)


def test_a_table_cell_naming_the_norm_under_a_norm_slot_column_says_it_is_there(deck) -> None:
    """"| Gemma 2 | RMSNorm | RMSNorm |" under "input norm | output norm" says Gemma 2 has both, as ✅ would."""
    card = _card(deck, "sandwich-ln")
    named = ("| model | input norm | output norm |\n|---|---|---|\n"
             "| Gemma 2 | RMSNorm | RMSNorm |\n| GPT-2 | LayerNorm | - |\n")
    assert "gemma2" in hits(card, named)
    # a column that does not ask where a norm sits is read as written
    kinds = "| model | norm type | warm-up |\n|---|---|---|\n| Gemma 2 | RMSNorm | yes |\n| GPT-2 | LayerNorm | yes |\n"
    assert "gemma2" not in hits(card, kinds)


def test_a_possessive_name_in_a_verbs_object_is_not_the_subject(deck) -> None:
    """"Sandwich-LN keeps Pre-LN's input norm and adds ..., <formula>": the formula is Sandwich-LN's, the subject of
    "keeps"; a possessive that is itself the subject ("..., Post-LN's does not") keeps its claim."""
    card = _card(deck, "sandwich-ln")
    text = ("Sandwich-LN keeps Pre-LN's input norm and also normalises what the branch returns, "
            "x_{l+1} = x_l + LN(F(LN(x_l))).")
    assert "formula" in hits(card, text)
    xiong = _card(deck, "xiong-theorem")
    assert not mistakes(xiong, "Pre-LN's last-layer gradient bound shrinks as the depth L grows, "
                               "while Post-LN's does not depend on L at all.")


def test_orders_of_growth_are_items_of_a_keyword_list(deck) -> None:
    """"O(N)" is a term of its own in a list of terms: the line stays a keyword list and earns nothing."""
    card = _card(deck, "post-ln-warmup")
    soup = "Liu et al., amplification effect, updates, O(N), O(log N)."
    assert "update-size-culprit" not in hits(card, soup)
    assert "update-size-culprit" in hits(card, "Post-LN amplifies small parameter updates into large output changes.")


def test_a_list_of_names_after_a_colon_spells_out_the_noun_before_it(deck) -> None:
    """"Two directions in input space have zero Jacobian: the all-ones vector and x-hat" says the Jacobian kills the
    all-ones direction; a clause of its own after the colon does not lend its words to the one before."""
    card = _card(deck, "layernorm-jacobian")
    assert "kills-mean" in hits(card, "Two directions in input space have zero Jacobian: the all-ones vector and x-hat.")
    assert "kills-mean" not in hits(card, "Two directions in input space have zero Jacobian: the all-ones vector "
                                          "gets large gradients in a deep stack.")


def test_a_derivation_s_second_display_keeps_the_lines_it_shares_with_the_first(deck) -> None:
    card = _card(deck, "layernorm-jacobian")
    # Both displays are written over several lines and share "=\frac1s" and the bracket lines; dropping those from
    # the second as repeated lines cut the backward formula in half.
    text = ("The Jacobian:\n$$\nJ\n=\\frac1s\n\\Big(I-\\frac{\\mathbf 1\\mathbf 1^\\top}{D}-\\frac{yy^\\top}{D}\\Big)\n$$\n"
            "and the backward pass:\n$$\ng_x\n=\\frac1s\n"
            "\\Big(g-\\operatorname{mean}(g)\\,\\mathbf 1-y\\,\\operatorname{mean}(g\\odot y)\\Big)\n$$\n")
    result = score_answer(card, text)
    assert {"jacobian-formula", "backward-formula"} <= {p.id for s in result.sections for p in s.points if p.hit}
    assert not result.notes  # nothing was dropped as a repeat
    # the same display pasted twice is still counted once
    twice = score_answer(card, text + "\nagain:\n" + text.split("and the backward pass:")[1])
    assert any("repeated line" in note for note in twice.notes)


def test_a_jacobian_named_by_its_variable_is_the_jacobian(deck) -> None:
    card = _card(deck, "layernorm-jacobian")
    for text in ("$J_{\\text{norm}}\\mathbf 1 = 0$.", "J_x 1 = 0.", "$J_{norm}\\boldsymbol{1}=0$"):
        assert "kills-mean" in hits(card, text), text
    # the name of a norm in the subscript stays: it says which norm the statement is about
    assert "j_{ln}" in prepare("$J_{LN} = \\frac1s(I - 11^T/D - yy^T/D)$").text


def test_a_quantity_given_its_value_by_an_equation_does_not_take_a_rate_from_an_earlier_part(deck) -> None:
    card = _card(deck, "admin-amplification")
    # "linearly" is the stream norm's; ΔF is O(log N) by its own equation in a later comma part
    text = "Pre-LN 的残差流平方范数随层数线性增长，每个分支只占约 1/i，求和得到 ΔF = O(log N)。"
    assert "pre-change-linear" not in mistakes(card, text)
    # said of the output change itself, in its own part, the rate is still charged
    assert "pre-change-linear" in mistakes(card, "In Pre-LN the output change grows linearly, ΔF = O(N).")
    # a property of a constant next to its value is about the constant ("multiplied by β = (8N)^(-1/4)")
    deepnorm = _card(deck, "deepnorm")
    assert "beta-on-qk" in mistakes(deepnorm, "At init Q, K, V and O are all multiplied by β = (8N)^(-1/4).")


def test_a_second_stream_joined_by_plus_is_not_the_first_stream_s_placement(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    for text in ("ResiDual runs a Post-LN stream + an unnormalised stream that sums every branch output.",
                 "ResiDual：一条 Post-LN stream + 一条把所有分支输出累加起来、从不归一化的 stream。"):
        assert "post-stream-unnormalised" not in mistakes(card, text), text
    assert "post-stream-unnormalised" in mistakes(card, "In Post-LN the stream is never normalised.")


def test_a_hybrid_s_name_is_neither_placement(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    # ResiDual calls itself "Pre-Post-LN": the name is no Post-LN mention
    for text in ("ResiDual, also called Pre-Post-LN, keeps a stream that is never normalised.",
                 "Pre-Post-LN keeps one stream that is never normalised."):
        assert "post-stream-unnormalised" not in mistakes(card, text), text
    assert "post-stream-unnormalised" in mistakes(card, "Post-LN has a residual stream that is never normalised.")


def test_a_list_of_names_then_a_list_of_formulas_pairs_them_in_order(deck) -> None:
    card = _card(deck, "toy-metric-artifact")
    for text in ("Post-LN, Pre-LN: LN(x + F(x)), x + F(LN(x)).", "Post-LN and Pre-LN: LN(x + F(x)), x + F(LN(x))."):
        assert not mistakes(card, text) & {"post-pre-formula", "pre-post-formula"}, text
    # in the other order each name gets the other's formula
    assert {"post-pre-formula", "pre-post-formula"} <= mistakes(card, "Post-LN, Pre-LN: x + F(LN(x)), LN(x + F(x)).")


def test_an_auxiliary_cut_off_by_a_comma_is_no_ellipsis(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    # spoken: the auxiliary is left hanging, then taken up with a predicate of its own
    text = "So Pre-LN's last-layer gradient shrinks with depth, and Post-LN's is, to be exact, flat in L, just large."
    assert "post-grad-shrinks" not in mistakes(card, text)
    does = "Pre-LN's last-layer gradient shrinks with depth, and Post-LN's does, to be exact, not: it is flat in L."
    assert "post-grad-shrinks" not in mistakes(card, does)
    assert "post-grad-shrinks" in mistakes(card, "Pre-LN's last-layer gradient shrinks with depth, and Post-LN's does too.")


def test_just_like_is_no_only(deck) -> None:
    card = _card(deck, "sandwich-ln")
    # "just like" compares; it does not restrict the norms to the output
    text = "OLMo 2 puts RMSNorm on both the input and the output of each sublayer, just like Gemma 2."
    assert "olmo2" not in hits(card, text)
    assert "olmo-input-and-output" in mistakes(card, text)
    assert "olmo2" in hits(card, "OLMo 2 puts RMSNorm just on the output of each sublayer.")


def test_because_it_is_about_the_one_placement_the_sentence_named(main_card) -> None:
    text = "Most large models picked Pre-LN because it reaches a better final BLEU than Post-LN."
    assert "pre-better-final" in mistakes(main_card, text)
    # two placements named before the pronoun: "it" could be either, so nothing is charged
    both = "Comparing Post-LN with Pre-LN, most models picked Pre-LN because it reaches a better final BLEU."
    assert "pre-better-final" not in mistakes(main_card, both)
    # the right reason through the same pronoun earns its point
    assert "pre-stable" in hits(main_card, "Most large models picked Pre-LN because it trains stably without tuning.")


def test_fewer_plays_down_the_word_after_it_across_a_wrapped_line(main_card) -> None:
    text = ("Trade-offs. Big models went Pre-LN because it's robust: deep stacks, big learning rates, little tuning, "
            "fewer\ndivergences in runs you cannot afford to redo.")
    assert "pre-depth-hard" not in mistakes(main_card, text)


def test_an_article_or_hyphenated_modifier_does_not_hide_the_comparison_word(main_card) -> None:
    # "than a well-tuned Post-LN": Post-LN is what Pre-LN is compared with, not the subject
    text = "In terms of final quality, Pre-LN is usually better than a well-tuned Post-LN."
    assert "pre-better-final" in mistakes(main_card, text)
    assert "post-better-final" not in hits(main_card, text)


def test_naming_the_adaptive_optimiser_is_not_the_early_variance_argument(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    for bare in ("AdamW, an adaptive learning rate optimizer, adds decoupled weight decay to Adam.",
                 "Optimizers worth knowing: SGD with momentum, Adam, Rectified Adam, Lion."):
        assert "adam-variance" not in hits(card, bare), bare
    for said in ("Rectified Adam was proposed because the adaptive learning rate has a large variance in the first steps.",
                 "RAdam 指出训练前期二阶矩只基于很少的样本，所以自适应学习率很不稳定。",
                 "Adam's step is almost random at the start; there's the RAdam paper about exactly that."):
        assert "adam-variance" in hits(card, said), said


def test_a_thousands_separator_is_read_as_one_number() -> None:
    assert prepare("LLaMA 2 used 10,000 warm-up steps").text == "llama 2 used 10000 warm-up steps"
    assert prepare("500,000 vs 700,000 updates").text == "500000 vs 700000 updates"
    assert prepare("betas (0.9,0.98), layers 1,2,3").text == "betas (0.9,0.98), layers 1,2,3"  # lists stay lists


def test_a_bracket_holding_only_a_name_labels_the_formula_before_it(deck) -> None:
    card = _card(deck, "xiong-theorem")
    labelled = ("Theorem 1 bounds the last layer's gradient by $$\n\\mathcal{O}\\big(d\\sqrt{\\ln d}\\big) \\quad\\text{(post-norm)},"
                "\n\\qquad\n\\mathcal{O}\\!\\left(d\\sqrt{\\tfrac{\\ln d}{L}}\\right) \\quad\\text{(pre-norm)} .\n$$")
    assert "pre-bound-shrinks" in hits(card, labelled)
    # an aside that says more than a name is no label
    aside = "Theorem 1 bounds the last layer's gradient by O(d sqrt(ln d)) (for post-norm), O(d sqrt(ln d / L)) (unlike pre-norm)."
    assert "pre-bound-shrinks" not in hits(card, aside)


def test_the_noun_normalisation_beside_the_stream_does_not_say_the_stream_is_normalised(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    echo = ("I'll go through them in turn, because the answer depends on how the placement of normalisation interacts "
            "with the residual path in Post-LN.")
    assert "post-already-normalised" not in hits(card, echo)
    for said in ("In Post-LN the residual stream goes through a normalisation layer after every block.",
                 "In Post-LN the residual stream is normalised after every block."):
        assert "post-already-normalised" in hits(card, said), said


def test_a_mistake_is_quoted_without_the_sentences_before_it(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = ("Pre-LN LLMs still warm up because of Adam: early on the second moment comes from a handful of gradients. "
            "It is cheap: LLaMA 2 used 10,000 warm-up steps.")
    charged = [m for m in score_answer(card, text).mistakes if m.id == "llama-warmup-length"]
    assert [m.evidence for m in charged] == ["It is cheap: LLaMA 2 used 10,000 warm-up steps."]


def test_saying_something_is_not_understood_does_not_deny_it(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    for doubt in ("Why warm-up helps at all is still not fully clear, even to the people who use it.",
                  "How much of warmup's benefit comes from the normalisation is not yet well understood.",
                  "warmup 为什么有效，目前其实还不清楚。"):
        assert "pre-can-drop" not in hits(card, doubt), doubt
    for denial in ("With Pre-LN warm-up is not needed at a moderate learning rate.",
                   "Pre-LN 在中等学习率下可以不用 warmup。",
                   "Pre-LN's warm-up can be dropped; it does not explain the whole story, but it is not required."):
        assert "pre-can-drop" in hits(card, denial), denial


def test_a_long_passage_measuring_vector_norms_is_not_about_a_normalisation_layer(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    optimiser = ("This note reviews a new optimiser study. The authors ask why early updates are too large and how to "
                 "measure the harm they do. They bound the L2 update norm of every weight matrix, track gradient norms "
                 "over the first thousand steps, and scale each update in proportion to the weight, normalizing them to "
                 "a fixed angle per step. With higher momentum and this control, training runs without any learning "
                 "rate warmup and matches the usual schedule on GPT-2 small and medium, while plain AdamW without the "
                 "ramp loses about half a point of perplexity at the same peak rate.")
    assert "pre-can-drop" not in hits(card, optimiser)
    # the same passage once it names the layer the card is about: its unnamed claims are about Pre-LN again
    assert "pre-can-drop" in hits(card, optimiser.replace("GPT-2 small and medium", "GPT-2 small and medium (pre-norm "
                                                          "layer normalization)"))


def test_what_people_talk_about_is_x_states_x(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    for said in ("The consequence people talk about is representation collapse: deep layers all look alike.",
                 "What everyone talks about is representation collapse in the deep layers."):
        assert "representation-collapse" in hits(card, said), said
    # announcing a topic still claims nothing
    assert "representation-collapse" not in hits(card, "This post talks about representation collapse in deep Pre-LN stacks.")


def test_bold_inside_a_chinese_sentence_does_not_split_its_words(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "post-order" in hits(card, "Post-LN：LayerNorm 放在每个子层的输出端，在和残差相加**之后**才做。")
    assert "*" not in prepare("残差相加**之后**再归一化").text
    assert "**" in prepare("the bound is d**0.5 and 2**10").text  # a power keeps its asterisks


def test_a_submodule_is_a_sublayer(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    for said in ("Pre-LN：把 LayerNorm 移动到子模块的输入端。", "Pre-LN：LayerNorm 放在子模块之前。"):
        assert "pre-order" in hits(card, said), said


def test_vanishing_gradients_elsewhere_are_not_the_final_norms_division(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    text = ("Without normalization the inputs to later sublayers become large, attention scores saturate the softmax "
            "and you get nearly one-hot attention with vanishing gradients.")
    assert "final-ln-in-theory" not in hits(card, text)
    assert "final-ln-in-theory" in hits(card, "In Pre-LN the final LN shrinks the gradient by about 1/sqrt(L), "
                                              "since it divides by the norm of the grown stream.")


def test_a_claim_set_against_a_myth_is_the_writers_own(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    text = ("Hence Theorem 1: Pre-LN's last-layer gradient is O(d sqrt(ln d / L)) against Post-LN's O(d sqrt(ln d)), "
            "which, contrary to a common myth, does not grow with L.")
    assert "final-ln-in-theory" in hits(card, text)
    # the myth itself, named as one, is still refuted
    assert "final-ln-in-theory" not in hits(card, "It is a myth that Pre-LN's last-layer gradient is O(d sqrt(ln d / L)).")


def test_guifanhua_is_normalisation(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "pre-order" in hits(card, "Pre-LN：规范化只放在每个子层的输入上，残差主干不做规范化。")
    assert prepare("规范化层").text == "归一化层" and prepare("层规范化").text == prepare("层归一化").text


def test_layernorms_chinese_name_reads_as_layernorm(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "post-order" in hits(card, "Post-LN：先做残差相加，再做层归一化。")
    assert "layernorm" in prepare("再做层归一化").text
    assert "层归一化" in prepare("均方根层归一化（RMSNorm）").text  # RMSNorm's Chinese name stays itself


def test_a_number_said_aloud_may_be_wrapped_over_two_lines(deck) -> None:
    from lndrill.scoring.normalize import prepare

    assert "7e-4" in prepare("the peak comes to about seven times ten to the\nminus four at step 4000").text
    assert "4000" in prepare("with warm-up of four\nthousand steps").text
    card = _card(deck, "post-ln-warmup")
    assert "peak-lr" in hits(card, "With d_model 512 the peak learning rate comes out around seven times ten to\n"
                                   "the minus four.")


def test_a_point_stated_inside_its_own_wrong_claim_earns_nothing(deck) -> None:
    # The answer names Adam's second moment only inside the reversed RAdam claim (the estimate exact from step one):
    # the words belong to the charged error, so they do not also earn the point it reverses.
    result = score_answer(deck.cards["warmup-for-pre-ln"],
                          "Adam's bias correction makes the first and second moment estimates exact from step one.")
    assert "adam-estimate-reliable-early" in {m.id for m in result.mistakes}
    assert not next(p for s in result.sections for p in s.points if p.id == "adam-variance").hit


def test_a_formula_after_a_colon_describes_the_sentence_subject_not_the_name_set_beside_it(deck) -> None:
    card = _card(deck, "sandwich-ln")
    for text in ("Sandwich-LN is less a replacement for Pre-LN than an addition to it: x_{l+1} = x_l + LN(F(LN(x_l))).",
                 "Sandwich-LN is more an extension of Pre-LN than a new design: the block computes x + LN(F(LN(x))).",
                 "Sandwich-LN is an addition to Pre-LN: x + LN(F(LN(x)))."):
        assert "formula" in hits(card, text), text
    # the formula said of the name set beside the subject, in a clause of its own, stays that name's
    assert "formula" not in hits(card, "Sandwich-LN is an addition to Pre-LN, and for Pre-LN the block computes "
                                       "x + LN(F(LN(x))).")


def test_a_run_of_names_and_settings_inside_spoken_prose_states_them_but_a_soup_of_lists_does_not(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    run = "LLaMA, Mistral, Qwen, DeepSeek, pre-norm RMSNorm, final RMSNorm at the end."
    prose = ("So the 2017 Transformer adds the residual and then normalises, and BERT copies that. GPT-2 moves the "
             "LayerNorm in front of each sublayer and adds one more at the end. " + run + " GLM-130B is the odd one, "
             "it keeps Post-LN but with DeepNorm.")
    found = score_answer(card, prose)
    hit = {p.id for s in found.sections for p in s.points if p.hit}
    assert {"llama-pre", "llama-rms"} <= hit
    assert not found.mistakes
    # the same run alone, or among other runs of terms, is a list of keywords: it states nothing
    assert not {"llama-pre", "llama-rms"} & hits(card, run)
    soup = ("Post-LN, BERT, 2017 Transformer, residual, LayerNorm. " + run + " GLM-130B, DeepNorm, alpha, Post-LN, "
            "Gemma 2, sandwich.")
    assert not {"llama-pre", "llama-rms"} & hits(card, soup)


def test_a_relative_clause_names_its_own_subject_not_the_claim_it_hangs_on(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    # the noun before "that" is the main clause's object; the relative clause says what the name after it does
    text = ("Large models went with Pre-LN because it is much easier to train: it tolerates skipping the careful "
            "warm-up that Post-LN needs and stays stable as you go deeper.")
    found = score_answer(card, text)
    assert {"pre-no-warmup", "post-needs-warmup"} <= {p.id for s in found.sections for p in s.points if p.hit}
    assert not found.mistakes  # "and stays stable" goes on with the main clause ("it"), not with Post-LN
    # the relative clause's own denial is read ("the warm-up that Post-LN no longer needs" says it needs none)
    assert "post-needs-warmup" not in hits(card, "Pre-LN skips the warm-up that Post-LN no longer needs.")
    # a cleft is about the name after its "that"
    for cleft in ("It is the warm-up that Post-LN needs.", "It's the warm-up that Post-LN needs."):
        assert "post-needs-warmup" in hits(card, cleft), cleft
    # the name said again after the "and" owns what follows
    assert "post-stable" in mistakes(card, "Pre-LN skips the warm-up that Post-LN needs, and Post-LN stays stable.")


def test_a_used_in_note_on_a_labelled_line_says_who_uses_the_label(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    assert "llama-rms" in hits(card, "- RMSNorm: removes the mean-centering step. Used in LLaMA, Gemma.")
    assert "gpt-pre" in hits(card, "- Pre-Norm: LayerNorm applied before the attention/FFN (used in GPT-2+).")
    assert "gpt-pre" in hits(card, "- Pre-LN：LayerNorm 放在子层输入处，用于 GPT-2。")
    # only the names after the cue, and only for a label that names no subject of its own
    assert "gpt-pre" not in hits(card, "- Pre-Norm: LayerNorm before the attention. GPT-2 is another story.")
    assert "gpt-pre" not in hits(card, "- Post-Norm: LayerNorm after the residual add (used in BERT).")


_NOTES_WITH_A_LIST_LINE = """\
**Why the article's Post-LN bars read zero**
- The stack ends in a LayerNorm, so the squared norm of the output is pinned near D.
- Its gradient with respect to the input is proportional to eps and is tiny at every depth.
- Pre-LN with a final LayerNorm would read zero under the same metric too.
- The growth of the Pre-LN bars comes from the forward stream getting larger, not from gradients exploding.
- A single weight matrix is reused in every block, which makes each block push the stream the same way.
- At depth 1 the true Jacobian norm is far from zero, while the metric already reads almost nothing.

**What to measure instead**
- seeds x5; width d >= 64; untied W; N(0, 1/d); head + CE after the final LN; per-layer grad norms
"""


def test_a_bullet_of_semicolon_items_in_an_answer_of_claims_is_notes_not_a_soup(deck) -> None:
    card = deck.get("toy-metric-artifact")
    assert card is not None
    found = hits(card, _NOTES_WITH_A_LIST_LINE)
    assert {"realistic-width", "readout-after-final-ln"} <= found
    # the same line on its own is a keyword dump: nothing around it claims anything
    assert hits(card, _NOTES_WITH_A_LIST_LINE.split("**What to measure instead**")[1]) == set()


def test_a_table_laid_out_with_spaces_reads_its_marks_under_the_column_headers(deck) -> None:
    """Marks in a table laid out with spaces answer their column, as in a Markdown table: "OLMo 2  ✗  ✓" under
    "in-norm  out-norm" says OLMo 2 has no input norm and an output norm."""
    card = _card(deck, "sandwich-ln")
    table = ("relatives     in-norm   out-norm   notes\n"
             "  Peri-LN       ✓         ✓          same shape as sandwich\n"
             "  Gemma 2       ✓         ✓          RMSNorm\n"
             "  OLMo 2        ✗         ✓          RMSNorm, + QK-norm\n")
    assert {"gemma2", "olmo2"} <= hits(card, table)
    assert not mistakes(card, table)
    # the marks swapped between the columns: OLMo 2's is then the input norm only, and neither point is earned
    swapped = table.replace("OLMo 2        ✗         ✓", "OLMo 2        ✓         ✗")
    assert "olmo2" not in hits(card, swapped)
    # without marks the rows are labelled lines, read row by row as before
    plain = _card(deck, "rmsnorm")
    rows = "models\n  BERT      LayerNorm   post\n  GPT-2/3   LayerNorm   pre (+ final LN)\n"
    assert "bert-post-ln" in hits(plain, rows)


def test_numbers_said_in_words_from_eleven_up_read_as_digits(deck) -> None:
    from lndrill.scoring.normalize import prepare

    assert prepare("about thirty-four BLEU on IWSLT fourteen").text == "about 34 bleu on iwslt 14"
    assert prepare("twenty five layers, forty percent fewer").text == "25 layers, 40 percent fewer"
    # a lone digit word stays a word ("one of the two"), and the longer spoken forms keep their own readings
    assert prepare("one of the two, eight BLEU").text == "one of the two, eight bleu"
    assert prepare("twenty thousand steps, thirty point five").text == "20000 steps, 30.5"
    card = _card(deck, "warmup-for-pre-ln")
    assert "iwslt-comparable" in hits(card, "On IWSLT fourteen, Pre-LN with no warm-up got around thirty-four BLEU, "
                                            "the same as Post-LN with warm-up.")


def test_a_yes_no_question_said_aloud_and_answered_after_a_comma_is_a_question(deck) -> None:
    from lndrill.scoring.normalize import prepare

    assert prepare("So is it a contradiction, no, not really.").text == "so is it a contradiction? no, not really."
    # "no matter" answers nothing, and a statement with a comma is no question
    assert prepare("Is it stable, no matter the depth.").text == "is it stable, no matter the depth."
    assert prepare("Pre-LN is stable, no warm-up needed.").text == "pre-ln is stable, no warm-up needed."
    card = _card(deck, "warmup-for-pre-ln")
    assert "no-contradiction" in hits(card, "So is it a contradiction, no, not really, Xiong only showed warm-up is not "
                                            "needed at moderate learning rates, not that it never helps.")


def test_a_compound_written_as_two_words_matches_inside_a_phrase(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    # "one more layernorm" is in the rubric; said aloud it is two words, and that is the same claim
    for said in ("On top of the last block you need one more layer norm before the LM head.",
                 "On top of the last block you need one more layer-norm before the LM head."):
        assert "add-final-ln" in hits(card, said), said
    # a phrase that opens with the compound ("layernorm output") matches it written apart too
    xiong = _card(deck, "xiong-theorem")
    assert "ln-output-1-5d" in mistakes(xiong, "In Post-LN every layer norm output has squared norm 1.5d.")


def test_a_soup_of_formulas_and_terms_is_a_keyword_list(deck) -> None:
    """Formulas are single items of a dump: a tight slash divides ("1/s", "11^T/D") and ends no item, a one-letter
    symbol in brackets ("(I - ...)") is no pronoun, "GPT-2" is one word, and "vanishing gradients" or "fixed point" name
    a term rather than state something. Such a dump earns nothing; the formula said as a line of its own still counts."""
    jac, toy = _card(deck, "layernorm-jacobian"), _card(deck, "toy-metric-artifact")
    soup = ("LayerNorm, eps, J = (1/s)(I - 11^T/D - yy^T/D), vanishing gradients, fixed point, radial direction, "
            "mean direction, GPT-2 final LN, Frobenius norm, D = 4.")
    assert score_answer(jac, soup).score == 0
    assert "jacobian-formula" in hits(jac, "J = (1/s)(I - 11^T/D - yy^T/D), exact with eps, symmetric.")
    terms = ("Post-LN, Pre-LN, GPT-2 final LN, exploding gradients, fixed point, readout, metric artifact, 1/sqrt(L), "
             "untied weights.")
    assert score_answer(toy, terms).score == 0


def test_an_item_labelled_by_an_aspect_is_about_the_subject_labelling_the_item_before(deck) -> None:
    """"- Pre-LN: ...\n- Cost: ..." lists Pre-LN's cost: the aspect label names no subject of its own, so its item is about
    the subject of the item right before it (credited; a subject found this way never draws a mistake)."""
    card = _card(deck, "pre-vs-post-ln")
    cost = "the residual stream keeps growing, so deep layers are diluted and the effective depth shrinks."
    assert "pre-diluted-depth" in hits(card, f"- Pre-LN: stable, trains without warm-up at moderate learning rates.\n- Cost: {cost}")
    assert "pre-diluted-depth" in hits(card, "- Pre-LN：稳定，moderate lr 下可以不用 warm-up。\n- 代价：残差流一直涨，deep layers 被稀释，"
                                             "effective depth 变小。")
    # the item before names Post-LN, or there is none: the cost is not Pre-LN's
    assert "pre-diluted-depth" not in hits(card, f"- Post-LN: better final quality when it trains.\n- Cost: {cost}")
    assert "pre-diluted-depth" not in hits(card, f"- Cost: {cost}")


def test_a_tables_grading_mark_before_an_aside_grades_the_entry(deck) -> None:
    """"required ❌ (IWSLT14 without it: 8.45 BLEU)" in a table of pros (✅) and cons (❌): the cross marks a drawback, as it
    does at a cell's end ("fragile ❌"); it does not deny what the cell says."""
    card = _card(deck, "pre-vs-post-ln")
    table = ("| | Pre-LN | Post-LN |\n|---|---|---|\n"
             "| warm-up | not needed at moderate lr ✅ | required ❌ (IWSLT14 without it: 8.45 BLEU) |\n"
             "| deep stacks | easy ✅ | fragile ❌ |\n")
    result = score_answer(card, table)
    assert "post-needs-warmup" in {p.id for s in result.sections for p in s.points if p.hit}
    assert "post-no-warmup" not in {m.id for m in result.mistakes}
