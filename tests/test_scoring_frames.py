"""Claim frames: attribution, polarity, modality, claim test, formulas and values, each on its own.

Every sentence here is written for the mechanism it tests (none is taken from the graded sets). Correct or
qualified statements must never be charged as mistakes; plain wrong claims still are.
"""

from __future__ import annotations

import pytest

from lndrill.scoring.engine import rubric_for, score_answer
from lndrill.scoring.lexicon import Lexicon, TextIndex, compile_phrase, tokenize
from lndrill.scoring.matcher import Analysis
from lndrill.scoring.normalize import prepare


def _card(deck, card_id: str):
    card = deck.get(card_id)
    assert card is not None
    return card


def hits(card, text: str) -> set[str]:
    r = score_answer(card, text)
    return {p.id for s in r.sections for p in s.points if p.hit}


def mistakes(card, text: str) -> set[str]:
    return {m.id for m in score_answer(card, text).mistakes}


# -- attribution --------------------------------------------------------------------------------------

def test_a_subject_is_not_inherited_across_a_paragraph_break(main_card) -> None:
    text = ("Post-LN was the first design: the sum is normalised after every add.\n\n"
            "Then GPT-2 came along and wrote each block as x + attn(ln(x)).")
    assert "pre-formula" in hits(main_card, text)
    assert not mistakes(main_card, text)


def test_a_subject_named_in_a_later_clause_is_not_the_subject_of_an_earlier_one(main_card) -> None:
    text = "At initialisation the gradient near the output is large; Pre-LN was proposed to fix exactly this."
    assert not mistakes(main_card, text)


def test_names_in_a_bracket_after_a_claim_are_its_subject(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    # the bracket lists the models the placement before it stands for, not the name in the part before
    text = "Timeline: Post-LN (vanilla, BERT), later Pre-LN plus a last LN (GPT-2, GPT-3)."
    assert "bert-pre" not in mistakes(card, text)
    assert "bert-pre" in mistakes(card, "Timeline: BERT used Pre-LN plus a last LN (GPT-2, GPT-3).")
    # a bracket that says something of its own is no list of examples
    assert "bert-pre" in mistakes(card, "Timeline: Post-LN at first, BERT then Pre-LN (GPT-2 kept it).")


def test_a_name_ending_a_comparison_before_a_colon_labels_nothing(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    # the colon goes on about the sentence's subject, not about the placement it was compared with
    text = "Without any warm-up Pre-LN did as well as the warmed-up Post-LN baseline: roughly 34 BLEU on IWSLT14."
    assert "iwslt-comparable" in hits(card, text)
    # a name that opens its clause before the colon still labels what follows
    assert "iwslt-comparable" not in hits(card, "Without any warm-up, Post-LN: roughly 34 BLEU on IWSLT14.")


def test_a_sentence_that_sets_its_name_against_here_does_not_carry_that_name(deck) -> None:
    card = _card(deck, "sandwich-ln")
    opening = ("So Sandwich-LN puts one more LN on the branch output. With Pre-LN a branch may return any scale, "
               "whereas here each block contributes something of fixed size. ")
    assert "cogview" in hits(card, opening + "Historically the idea is from CogView.")
    assert "cogview" in hits(card, opening.replace("whereas here", "while in this design") + "It is from CogView.")
    # a contrast that names nothing of its own is the topic's side too
    assert "cogview" in hits(card, opening.replace("whereas here", "whereas with the second norm") + "It is from CogView.")
    # one that names another placement leaves the sentence naming several: no carried subject either way
    named = "With Pre-LN a branch may return any scale, whereas Post-LN normalises the sum. It is from CogView."
    assert "cogview" in hits(card, "So Sandwich-LN puts one more LN on the branch output. " + named)


def test_a_name_owning_the_object_after_of_is_not_the_subject(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = ("On WMT14, Pre-LN trained with zero warm-up (lr 5e-4) got about the BLEU of a warmed-up Post-LN "
            "baseline (around 34 on IWSLT14), and got there in fewer steps.")
    assert "iwslt-comparable" in hits(card, text)
    # with no name before it, the name after "of" is the claim's own subject
    card = _card(deck, "xiong-theorem")
    assert "post-grows-with-depth" in mistakes(card, "The last-layer gradient of Post-LN grows with depth L.")


def test_a_claim_set_against_one_placement_is_about_the_other(deck) -> None:
    card = _card(deck, "admin-amplification")
    before = "In Post-LN every branch keeps a constant share of the layer output. "
    wrong = before + "So the output change after an update grows like O(N^2), versus O(log N) for Pre-LN."
    assert "post-change-superlinear" in mistakes(card, wrong)
    # without the comparison the subject only comes from the sentence before: not explicit enough to charge
    assert "post-change-superlinear" not in mistakes(card, before + "So the output change grows like O(N^2).")
    # "like Pre-LN" is no two-sided comparison: a third subject may own the clause
    assert not mistakes(card, before + "Admin makes each branch a small share at the start, Pre-LN-like.")


def test_a_later_part_opened_by_a_contrast_keeps_its_subject_to_itself(deck) -> None:
    card = _card(deck, "xiong-theorem")
    text = ("Post-LN has big gradients near the output from the start, so if you use the full learning rate at once "
            "it goes unstable, you need warm-up, and with Pre-LN you can mostly skip warm-up.")
    assert "post-warmup" in hits(card, text)
    assert not mistakes(card, text)


def test_it_after_a_colon_takes_back_the_subject_the_sentence_opened_with(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    wrong = "GLM-130B is the Post-LN outlier: it uses DeepNorm, with alpha = (2N)^(1/4) taken from the DeepNet paper."
    assert "glm-deepnet-alpha" in mistakes(card, wrong)
    right = "GLM-130B is the Post-LN outlier: it uses DeepNorm, with its own alpha = (2N)^(1/2)."
    assert not mistakes(card, right)
    # two subjects before the colon, neither a predicate: "it" could be either, nothing is charged
    assert "glm-deepnet-alpha" not in mistakes(card, "GLM-130B and GPT-3 differ: it uses alpha = (2N)^(1/4).")


def test_a_conclusion_after_so_is_not_under_the_condition_before_it(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    text = "Xiong 证明了 Pre-LN 在 initialization 的时候梯度是 well-behaved 的，所以 Pre-LN 在任意学习率下都不需要 warm-up。"
    assert "pre-drop-at-any-lr" in mistakes(card, text)
    assert "pre-drop-at-any-lr" not in mistakes(card, "如果学习率适中，Pre-LN 就不需要 warm-up。")


def test_a_goal_being_worked_on_is_not_a_state(main_card) -> None:
    goal = ("Post-LN, when you manage to train it, tends to end slightly better, so there is still work on making "
            "it stable: Admin, DeepNorm.")
    assert not mistakes(main_card, goal)
    assert not mistakes(main_card, "只要能把 Post-LN 训起来，它最后的效果往往更好，所以还有人在想办法让 Post-LN 变得好训。")
    rubric = rubric_for(main_card)
    stable = rubric.mistake_claims[("pre-stable", "post-stable")]
    for text in ("There is still a lot of work on making Post-LN stable.", "至今还有不少人在想办法让 Post-LN 变得好训。"):
        analysis = Analysis(rubric, text)
        frames = [f for m in stable.matchers for f in analysis.frames(m)]
        assert frames and all(f.qualifier == "purpose" for f in frames)


def test_an_aside_does_not_part_a_claim_from_the_for_that_names_its_subject(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    text = "In short: Post-LN for the BERT era, pre-norm (increasingly RMSNorm) for GPT-style LLMs."
    assert not {"bert-pre", "gpt-post"} & mistakes(card, text)


def test_a_tempting_reading_is_reported_but_a_sources_reading_is_attributed(deck) -> None:
    xiong = _card(deck, "xiong-theorem")
    assert "pre-exactly-flat" not in mistakes(
        xiong, 'Another tempting reading is that Pre-LN\'s per-layer gradients are "exactly flat" across layers.')
    warmup = _card(deck, "post-ln-warmup")
    assert "admin-blames-gradient" in mistakes(
        warmup, "Admin's reading is that the real cause is vanishing gradients in the lower layers.")


def test_it_right_after_a_semicolon_takes_back_the_sentences_subject(deck) -> None:
    card = _card(deck, "sandwich-ln")
    text = "Gemma 2 puts norms before and after every sublayer; it uses standard LayerNorm with mean subtraction and bias."
    assert "gemma-layernorm" in mistakes(card, text)
    # a subject of its own after the semicolon governs its clause
    assert "gemma-layernorm" not in mistakes(
        card, "Gemma 2 puts norms before and after every sublayer; the original Transformer uses standard LayerNorm.")


def test_a_later_part_with_its_own_setting_is_a_statement_of_its_own(main_card) -> None:
    # the depth word and the failure word sit in two statements: ", and at <setting> ..." starts the second
    assert "pre-depth-hard" not in mistakes(
        main_card, "Deep Pre-LN stacks train without trouble, and at billion-parameter scale a diverged run wastes weeks.")
    assert "pre-depth-hard" in mistakes(main_card, "Deep Pre-LN stacks diverge, and nobody trains them past 24 layers.")


def test_a_bold_run_in_heading_labels_its_line(deck) -> None:
    main = _card(deck, "pre-vs-post-ln")
    # "**Stability.**" is the heading of the bullet, not a word of the Post-LN sentence after it
    assert "post-stable" not in mistakes(
        main, "- **Stability first.** Post-LN with Adam and no warm-up falls apart early in training.")
    xiong = _card(deck, "xiong-theorem")
    # and it frames the line the way "The myth: ..." does
    text = ("**The myth.** People often say Post-LN's gradient at the last layer grows with the number of layers. "
            "The theorem says it does not depend on L.")
    assert "myth-wrong" in hits(xiong, text)


def test_a_line_ending_in_a_colon_leads_into_the_list_after_a_blank_line(deck) -> None:
    who = _card(deck, "ln-who-uses-what")
    # Markdown puts a blank line before a list; the items are still the changes the lead-in line names
    for text in ("Compared with GPT, T5 changes a few things:\n\n- it is pre-norm\n"
                 "- it keeps no bias and no mean subtraction, only an RMS scale\n",
                 "和 GPT 相比，T5 做了如下改动：\n\n- 采用 pre-norm\n- 只做 RMS 缩放，不减均值也不加 bias\n"):
        assert {"t5-pre", "t5-rms"} <= hits(who, text), text
    # without the colon the paragraph leads into nothing
    assert "t5-pre" not in hits(who, "Compared with GPT, T5 changes a few things.\n\n- it is pre-norm\n")


def test_items_under_a_lead_in_that_names_nobody_belong_to_the_heading_above(main_card) -> None:
    text = ("## Post-LN (the 2017 layout)\n\nThe norm is applied after the residual addition:\n\n"
            "x_{l+1} = LN(x_l + F(x_l))\n\n- Problem: it needs a learning-rate warm-up.\n")
    assert "post-needs-warmup" in hits(main_card, text)


def test_a_formula_displayed_over_several_lines_is_one_statement(deck) -> None:
    xiong = _card(deck, "xiong-theorem")
    # two displays, each with "$$" on lines of their own: the second "$$" line is no repeat to drop
    text = ("在 Post-LN 中，论文给出的上界为：\n\n$$\n\\left\\|\n\\frac{\\partial \\mathcal{L}}{\\partial W_{2,L}}\n\\right\\|_F\n"
            "\\leq\nO(d\\sqrt{\\ln d}).\n$$\n\nPre-LN 的残差流满足：\n\n$$\n\\left(1+\\frac{l}{2}\\right)d\n\\leq\n"
            "\\mathbb{E}\\|x_l\\|_2^2\n\\leq\n\\left(1+\\frac{3l}{2}\\right)d.\n$$\n")
    assert {"post-bound-form", "lemma2-pre"} <= hits(xiong, text)


def test_a_label_heading_under_a_section_heading_keeps_the_sections_subject(main_card) -> None:
    text = ("### Post-LN\n\nThe norm comes after the addition.\n\n**Pros:**\n* better final quality\n\n"
            "### Pre-LN\n\nThe norm comes before the branch.\n\n**Strengths:**\n"
            "* **Identity path:** the skip connection is a clean identity path, so gradients flow straight down.\n")
    assert "pre-identity-path" in hits(main_card, text)
    # the same items under the other section are that section's
    swapped = text.replace("### Post-LN", "### X").replace("### Pre-LN", "### Post-LN").replace("### X", "### Pre-LN")
    assert "pre-identity-path" not in hits(main_card, swapped)


def test_a_short_line_with_a_pronoun_and_a_colon_is_a_sentence_not_a_heading(deck) -> None:
    sandwich = _card(deck, "sandwich-ln")
    text = "Instead of plain pre-norm, x = x + f(ln(x)),\n\nyou normalize the branch output too:\n\nx = x + ln2(f(ln1(x)))\n"
    assert "extra-ln-on-branch-output" in hits(sandwich, text)


def test_a_comma_between_a_calls_arguments_does_not_part_the_sentence(deck) -> None:
    admin = _card(deck, "admin-amplification")
    text = "模型输出变化 Var[F(x, W) - F(x, W + δ)] 对 Post-LN 是 O(N)，对 Pre-LN 只有 O(log N)。"
    assert "amplification" in hits(admin, text)
    # a comma between phrases of prose inside a bracket still parts them ("no ..., no ..." are two denials)
    rms = _card(deck, "rmsnorm")
    assert "no-bias" in hits(rms, "RMSNorm is a scale-only norm（no mean subtraction, no bias）.")


def test_a_value_written_as_another_names_property_is_not_the_subjects(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    assert "glm-deepnet-alpha" not in mistakes(
        card, "- GLM-130B: DeepNorm with alpha = (2N)^(1/2), larger than DeepNet's alpha = (2N)^(1/4).")
    assert "glm-deepnet-alpha" not in mistakes(
        card, r"- GLM-130B：用 DeepNorm，$\alpha = (2N)^{1/2}$，比 DeepNet 的 $\alpha = (2N)^{1/4}$ 更大。")
    # the subject's own possessive still binds the value to it
    assert "glm-deepnet-alpha" in mistakes(card, r"- GLM-130B：用 DeepNorm，GLM-130B 的 $\alpha = (2N)^{1/4}$。")
    assert "glm-deepnet-alpha" in mistakes(card, "- GLM-130B: DeepNorm, its alpha = (2N)^(1/4).")


def test_a_wrong_figure_is_charged_though_the_rest_reads_as_the_right_claim(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    # "LLaMA 2 warms up" is right; the 20,000 steps (it is 2,000) is a figure of its own
    text = ("Adam's statistics are noisy at first, which is why even Pre-LN LLMs warm up briefly; "
            "LLaMA 2 warms up for 20,000 steps.")
    assert "llama-warmup-length" in mistakes(card, text)
    assert "llama-warmup-length" not in mistakes(card, text.replace("20,000", "2,000"))


def test_a_relative_part_is_about_the_subject_right_before_it(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    text = ("Xiong's bound for Post-LN is flat in L. What matters is that its output-side gradient is large "
            "compared with Pre-LN's, which shrinks like 1/sqrt(L).")
    assert "post-grad-shrinks-with-depth" not in mistakes(card, text)
    assert "post-grad-shrinks-with-depth" in mistakes(card, "Post-LN's last-layer gradient shrinks like 1/sqrt(L).")


def test_without_it_it_falls_over_is_a_need(main_card) -> None:
    assert "post-needs-warmup" in hits(main_card, "Honestly, Post-LN without warm-up just falls over in the first few hundred steps.")
    assert "post-needs-warmup" in hits(main_card, "Without warm-up a Post-LN model breaks down early.")


def test_a_card_phrase_that_spells_out_its_subject_matches_and_names_it(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    # the card's own phrase "post-ln early" holds a subject name: it is no word found inside a name
    assert "mix-ln-order" in hits(card, "- Mix-LN, the depth split: Post-LN early, Pre-LN late.")
    # and the name it spells is the claim's subject: the order swapped earns nothing
    assert "mix-ln-order" not in hits(card, "- Mix-LN, the depth split: Pre-LN early, Post-LN late.")


def test_what_it_is_like_is_not_the_paragraphs_subject(deck) -> None:
    card = _card(deck, "sandwich-ln")
    text = ("Sandwich-LN adds one more LayerNorm at the end of each branch. The trunk stays an identity path, "
            "so it's basically Pre-LN at heart. As for where it came from, that was CogView.")
    assert "cogview" in hits(card, text)
    # with no other subject before it, "it was Post-LN" still gives the paragraph its subject
    final = _card(deck, "pre-ln-final-norm")
    assert "post-already-normalised" in hits(final, "Why did the 2017 model not need one? Because it was Post-LN. Every sublayer "
                                          "ended with a LayerNorm after the residual add, so the stack already ended normalised.")


def test_while_of_time_does_not_split_a_claim(deck) -> None:
    card = _card(deck, "admin-amplification")
    # "while the model is most sensitive" tells when; it is no second claim set against the first
    assert "warmup-link" in hits(card, "Warm-up matters for another reason. It keeps each step small while the model "
                                       "is most sensitive, so the amplified output change stays bounded.")
    # a "while" that names the other placement still sets two claims apart
    main = _card(deck, "pre-vs-post-ln")
    assert not mistakes(main, "Pre-LN trains fine without it while the Post-LN model needs a long warm-up.")


def test_a_quoted_name_before_a_colon_labels_nothing(deck) -> None:
    card = _card(deck, "admin-amplification")
    text = ('People misread Admin as "turning Post-LN into Pre-LN": the LN still comes after the add, omega keeps '
            'training, and the trained model is a Post-LN model.')
    assert "admin-keeps-pre" not in mistakes(card, text)


def test_what_people_misremember_is_reported_not_claimed(main_card) -> None:
    text = "Xiong's bound for the last layer is flat in L. People misremember this as Post-LN gradients growing with depth."
    assert "post-grad-grows-with-depth" not in mistakes(main_card, text)


def test_a_line_label_makes_a_claim_of_its_own_sentence_only(main_card) -> None:
    soup = ("Post-LN: LN(x + F(x)). Pre-LN: x + F(LN(x)). Final LN. Residual stream, identity path, effective depth. "
            "GPT-2, GPT-3, LLaMA, BERT, RMSNorm. Stability versus performance, gradient flow, trade-offs.")
    got = hits(main_card, soup)
    assert "pre-formula" in got
    # the model names listed two sentences after "Pre-LN:" are a keyword list, not "LLMs choose Pre-LN"
    assert "llm-choose-pre" not in got


def test_people_get_that_wrong_is_no_verdict_on_what_was_said(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    assert "adam-betas" in hits(card, "The optimiser was Adam with beta one 0.9 and beta two 0.98, lots of people get that wrong.")
    # "what people get wrong is X" still presents X as the error
    xiong = _card(deck, "xiong-theorem")
    assert "post-grows-with-depth" not in mistakes(
        xiong, "What people get wrong is that Post-LN's last-layer gradient grows with depth. It is flat in L.")


def test_inside_a_paragraph_the_previous_sentence_still_gives_the_subject(main_card) -> None:
    assert "post-needs-warmup" in hits(main_card, "In Post-LN the LayerNorm sits on the main path. So it needs warm-up.")


@pytest.mark.parametrize(("card_id", "text"), [
    ("rmsnorm", "Unlike BERT, which is Post-LN, LLaMA uses pre-norm RMSNorm."),
    ("ln-who-uses-what", "Unlike BERT, which is Post-LN, LLaMA uses pre-norm RMSNorm."),
    ("sandwich-ln", "Unlike Gemma 2, which normalises both the input and the output, OLMo 2 normalises only the branch output."),
    ("sandwich-ln", "Gemma 2 normalises not only the input but also the output of every sublayer."),
    ("rmsnorm", "RMSNorm is cheaper. LayerNorm divides by the standard deviation, but it subtracts the mean first."),
])
def test_comparisons_and_other_subjects_draw_no_mistake(deck, card_id: str, text: str) -> None:
    assert not mistakes(_card(deck, card_id), text)


def test_a_notes_style_short_name_is_a_subject(main_card) -> None:
    text = "Post: LN on the trunk, so warm-up is needed\nPre: identity residual path, warm-up can be dropped"
    got = hits(main_card, text)
    assert {"post-needs-warmup", "pre-no-warmup", "pre-identity-path"} <= got
    assert not mistakes(main_card, text)
    assert not mistakes(main_card, "Pre-training a Pre-LN model is stable. This blog post explains why.")


# -- polarity and modality ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "With Pre-LN, warm-up is no longer needed.",
    "For Pre-LN warm-up is redundant.",
    "Pre-LN removes the need for warm-up.",
    "Pre-LN 无需预热。",
    "Pre-LN 在大多数设置下其实都没有必要再使用预热。",
    "Pre-LN gets rid of warm-up.",
])
def test_more_ways_to_say_pre_ln_needs_no_warmup(main_card, text: str) -> None:
    assert "pre-no-warmup" in hits(main_card, text)
    assert not mistakes(main_card, text)


def test_a_question_standing_alone_as_a_heading_is_answered_by_the_next_paragraph(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    answer = "No. The paper shows warm-up can be dropped at moderate rates, and LLM teams keep it as insurance.\n"
    for heading in ("**Is there a contradiction?**\n\n", "### Contradiction?\n\n"):
        assert "no-contradiction" in hits(card, heading + answer)
    # a question inside a paragraph is not answered by the paragraph after it
    text = "The two facts look odd side by side. Is there a contradiction?\n\n" + answer
    assert "no-contradiction" not in hits(card, text)


def test_a_zh_when_clause_without_dang_is_a_condition(deck) -> None:
    card = _card(deck, "rmsnorm")
    assert "rms-is-std" not in mistakes(card, "如果向量的均值刚好是 0 的时候，RMS 就是标准差。")
    assert "rms-is-std" not in mistakes(card, "数据已经零均值化时，RMS 就是标准差。")
    # a time word with 时 is no condition, and the plain claim is still charged
    assert "rms-is-std" in mistakes(card, "同时，RMS 就是标准差。")
    assert "rms-is-std" in mistakes(card, "RMS 就是标准差。")


def test_what_follows_a_verdict_on_the_sentence_before_is_the_writers_account(deck) -> None:
    card = _card(deck, "sandwich-ln")
    myth = "Some say Sandwich-LN keeps the whole stream bounded. "
    for verdict in ("That is false: ", "That's wrong, "):
        assert "bounds-branch" in hits(card, myth + verdict + "the extra norm bounds what each block adds, not the sum.")
    # a bare verdict label still leads into the myth, and "that's the myth, people say X" still reports X
    assert "bounds-branch" not in hits(card, "Wrong: the extra norm bounds what each block adds.")
    assert "bounds-branch" not in hits(card, "That's the myth, people say the extra norm bounds what each block adds.")


@pytest.mark.parametrize("text", [
    "Pre-LN LLMs still use a short warm-up in practice.",
    "At a very high learning rate Pre-LN can diverge too.",
    "Post-LN trains without warm-up if the learning rate is small enough.",
    "In low-resource translation Pre-LN gives better BLEU than Post-LN.",
    "We ask whether Pre-LN needs warm-up at all.",
    "Does Pre-LN need warm-up?",
    "Some argue that Pre-LN needs warm-up too.",
    "To keep the first updates small, Pre-LN models often get a warm-up anyway.",
    "为了稳妥，Pre-LN 的大模型一般也会加一段 warm-up。",
    "如果学习率很大，Pre-LN 也可能需要 warm-up。",
])
def test_qualified_hypothetical_and_reported_claims_are_never_charged(main_card, text: str) -> None:
    assert not mistakes(main_card, text)


@pytest.mark.parametrize(("text", "mistake"), [
    ("Pre-LN needs warm-up.", "pre-needs-warmup"),
    ("Post-LN does not need warm-up.", "post-no-warmup"),
    ("Post-LN 不需要 warm-up。", "post-no-warmup"),
    ("Post-LN has an identity residual path.", "post-identity-path"),
])
def test_plain_wrong_claims_are_still_charged(main_card, text: str, mistake: str) -> None:
    assert mistake in mistakes(main_card, text)


@pytest.mark.parametrize("text", [
    "论文对 Pre-LN 有无 warmup 做了实验。",
    "论文讨论了 Pre-LN 是否需要 warmup。",
    "RAdam 针对 warmup 前期数据样本不足导致的方差问题提出了解决方案。",
])
def test_chinese_whether_and_insufficient_deny_nothing(deck, text: str) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    assert "pre-can-drop" not in hits(card, text)
    assert "pre-can-drop" in hits(card, "Pre-LN 无需 warmup。")


def test_chinese_rather_than_and_modifier_denials_stay_where_they_are(deck) -> None:
    card = _card(deck, "admin-amplification")
    # "而不是 B" denies B, not what comes before it
    assert "deepnet-link" in hits(card, "DeepNet 也认为罪魁是模型更新的幅度而不是梯度本身。")
    # a denial inside a 的-modifier describes its head noun ("还不准的前几千步"), not the rest of the clause
    assert "warmup-link" in hits(card, "warm-up 在 Adam 方差估计还不准的前几千步把步长压小。")
    assert "deepnet-contradicts-admin" in mistakes(card, "DeepNet 反驳了 Admin。")


def test_chinese_lacking_denies_what_follows(deck) -> None:
    card = _card(deck, "rmsnorm")
    assert "no-bias" in hits(card, "RMSNorm 缺少偏置。")
    assert "cheaper" in hits(card, "RMSNorm 的计算量少了。")  # fewer, not lacking


def test_not_only_that_affirms_what_follows(main_card) -> None:
    text = "The theorem explains not only that Post-LN needs warm-up but also why."
    assert not mistakes(main_card, text)
    assert "post-needs-warmup" in hits(main_card, text)
    assert "post-needs-warmup" in hits(main_card, "The problem is not just that Post-LN needs warm-up.")
    # a plain "not that" still denies
    assert "post-no-warmup" in mistakes(main_card, "It is not that Post-LN needs warm-up; it simply does not.")


def test_chinese_not_only_denies_nothing(deck) -> None:
    # 不只是 / 不单 ("not only"): what follows is still so, only not all there is
    card = _card(deck, "warmup-for-pre-ln")
    for text in ("Pre-LN 的 warm-up 不只是为了初始梯度大。", "Pre-LN 的 warm-up 不单是为了初始梯度大。"):
        assert "pre-can-drop" not in hits(card, text), text
    assert "pre-can-drop" in hits(card, "Pre-LN 不需要 warm-up。")


def test_breaking_a_path_denies_it(main_card) -> None:
    text = "In Post-LN the LayerNorm on the main path breaks the identity path."
    assert "post-identity-path" not in mistakes(main_card, text)


def test_keeping_ln_off_the_residual_path_is_not_a_gradient_through_ln(main_card) -> None:
    assert not mistakes(main_card, "Pre-LN keeps LN off the residual path.")


# -- keyword credit and the claim test --------------------------------------------------------------------

def test_a_typo_tolerance_never_turns_variance_into_variants() -> None:
    lex = Lexicon({"variant"})
    assert lex.near("varianc") == set()


def test_the_layer_index_l_is_not_the_depth_L(deck) -> None:
    card = _card(deck, "xiong-theorem")
    assert not mistakes(card, "Within one Post-LN model, the gradient of W^{2,l} grows with l.")
    assert not mistakes(card, "在同一个 Post-LN 模型里，W^{2,l} 的梯度随 l 增大。")


def test_repeating_the_question_earns_nothing(deck) -> None:
    for card in deck.cards.values():
        for lang in ("en", "zh"):
            assert score_answer(card, card.prompt.get(lang)).score <= 5, (card.id, lang)


@pytest.mark.parametrize("soup", [
    "DeepNorm alpha beta 2N 8N Post-LN GLM-130B 1000 layers stable deep model update Pre-LN",
    "LayerNorm | Pre-LN | Post-LN | warm-up | gradient | identity | residual | Jacobian | deep",
    "后置 梯度 雅可比 预热 发散 恒等 前置 稳定 上百层 大模型",
])
def test_keyword_soups_earn_almost_nothing_whatever_separates_them(main_card, deck, soup: str) -> None:
    assert score_answer(main_card, soup).score <= 5
    assert score_answer(_card(deck, "deepnorm"), soup).score <= 20


def test_a_one_line_dump_is_a_soup_even_with_a_few_stray_verbs(main_card) -> None:
    # eleven sentences on one line: two labelled formula notes, six bare lists and three whose stray words read as
    # verbs ("vanishing", "better", "not"): the dump as a whole says nothing, so only the labelled notes earn credit
    dump = ("Placement. Post-LN: LN(x + F(x)). Pre-LN: x + F(LN(x)). Identity path, gradient highway. Vanishing "
            "gradients near the input. Post-LN better BLEU, Pre-LN more stable. Warm-up, Adam, 4000 steps. Final LN, "
            "GPT-2, LLaMA. Not the whole story. Xiong et al. 2020. Depth, stability, convergence.")
    assert hits(main_card, dump) == {"post-formula", "pre-formula", "post-order", "pre-order"}


def test_a_dump_hard_wrapped_over_several_lines_is_a_soup_as_a_whole(deck) -> None:
    # The same kind of dump as one paragraph wrapped at 70 columns: its sentences run across the line breaks, so no
    # one line holds six of them, but the paragraph does.
    card = _card(deck, "toy-metric-artifact")
    dump = ("Post-LN, Pre-LN, toy stack. Shared W, tanh, D = 4. Sum of squares of the output, autograd. Scale\n"
            "invariance, radial direction, mean direction. Vanishing vs exploding gradients, fixed point,\n"
            "contraction, Frobenius norm. Final LN, readout, cross-entropy, seeds. Forward growth, metric\n"
            "artefact, Fig. 3, warm-up.")
    assert score_answer(card, dump).score <= 10
    # real prose wrapped the same way keeps its claims
    prose = ("The toy stack ends in LayerNorm, so the squared norm of its output is about D for any input and its\n"
             "gradient is zero by construction: the metric reads 0 for Post-LN whatever the depth. A faithful\n"
             "measurement uses the Jacobian's Frobenius norm or a random probe.")
    assert {"ends-in-ln", "jacobian-metric"} <= hits(card, prose)


def test_a_blank_line_ends_a_sentence_even_when_the_line_before_was_left_open(main_card) -> None:
    # a note left without a full stop, then a blank line, then a lower-case line: two statements, not one
    text = "Xiong et al. 2020, Thm 1: the gradient of the last FFN matrix at init\n\nbounds depend on the placement"
    a = Analysis(rubric_for(main_card), text)
    lay = a.lay
    first = next(i for i, t in enumerate(a.tokens) if t.key == "init")
    last = next(i for i, t in enumerate(a.tokens) if t.key.startswith("bound"))
    assert lay.sentence_of[first] != lay.sentence_of[last]
    # without the blank line the lower-case line still carries on the one before
    joined = Analysis(rubric_for(main_card), "Post-LN needs warm-up because the\ngradients near the output are large.")
    toks = joined.tokens
    assert joined.lay.sentence_of[0] == joined.lay.sentence_of[len(toks) - 1]


def test_a_hard_wrapped_line_is_not_taken_for_a_label(main_card) -> None:
    text = ("At initialisation the gradient of the parameters near the\n"
            "output is large: Xiong et al. show it for Post-LN, so a large learning rate diverges.")
    assert "post-large-output-grad" in hits(main_card, text)


def test_a_list_item_hard_wrapped_under_its_text_is_not_taken_for_a_label(main_card) -> None:
    item = ("- 代价：残差流范数越来越大，每层相对更新约按 1/√l 缩小，深层接近恒等。训得动的 Post-LN\n"
            "  最终效果常常更好：DeepNet 报告 Pre-LN 比收敛的 Post-LN 低 0.5–1.0 BLEU。\n")
    assert "post-better-final" in hits(main_card, item)
    assert not mistakes(main_card, item)
    # a short item line over an indented line with its own colon: notes, each line its own label
    notes = "- Post-LN: better final BLEU\n  Pre-LN: easier to train, stable\n"
    assert "post-better-final" in hits(main_card, notes)


def test_a_label_inside_a_line_opens_its_sentence_as_a_line_label_would(deck) -> None:
    card = _card(deck, "pre-ln-effective-depth")
    fixes = "Fixes: LayerNorm Scaling (LN output × 1/sqrt(l)), Mix-LN (Post-LN early, Pre-LN deep), ResiDual."
    paragraph = "In Pre-LN each block adds a fixed-size update to a growing stream. " + fixes
    assert {"curse-of-depth", "mix-ln"} <= hits(card, fixes)
    assert {"curse-of-depth", "mix-ln"} <= hits(card, paragraph)


# -- formulas and values ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "normalised"), [
    (r"$\frac{1}{\sqrt{L}}$", "((1)/(sqrt(l)))"),
    (r"\hat{x} = \frac{x - \mu}{\sigma}", "x = ((x - mu)/(sigma))"),
    (r"\mathbf 1\mathbf 1^\top", "11^t"),
    (r"x^\top", "x^t"),
    (r"O\left(d\sqrt{\ln d/L}\right)", "o(d sqrt(ln d/l))"),
    (r"\Theta(\sqrt{L})", "theta(sqrt(l))"),
    ("√d/‖x‖ and ŷŷᵀ and αx", "sqrt d/‖x‖ and yyt and alpha x"),
    (r"\sqrt[4]{2N}", "((2n)^(1/4))"),
])
def test_latex_is_read_as_plain_notation(text: str, normalised: str) -> None:
    assert " ".join(prepare(text).text.split()) == normalised


def test_a_refuted_formula_earns_nothing(deck) -> None:
    card = _card(deck, "deepnorm")
    assert "formula" not in hits(card, r"People say DeepNorm is $\mathrm{LN}(x + \alpha G(x))$; that is not right.")


def test_values_are_bound_to_their_symbols(deck) -> None:
    card = _card(deck, "deepnorm")
    right = hits(card, "For an N-layer encoder, alpha = (2N)^(1/4) and beta = (8N)^(-1/4).")
    assert {"alpha-value", "beta-value"} <= right
    swapped = hits(card, "For an N-layer encoder, alpha = (8N)^(-1/4) and beta = (2N)^(1/4).")
    assert not {"alpha-value", "beta-value"} & swapped
    assert {"alpha-value", "beta-value"} <= hits(card, r"α 取 $(2N)^{1/4}$，β 取 $\sqrt[4]{8N}^{-1}$。") or \
        {"alpha-value"} <= hits(card, r"α 取 $(2N)^{1/4}$")


def test_a_subscript_is_no_exponent(deck) -> None:
    card = _card(deck, "layernorm-jacobian")
    jacobian = r"$\frac{\partial z}{\partial x} = \begin{bmatrix} \frac{\partial z_1}{\partial x_2} & \dots \end{bmatrix}$"
    assert not mistakes(card, jacobian)
    assert "lemma3-squared-norm" in mistakes(card, "Lemma 3: the spectral norm is O(sqrt(d)/||x||^2).")


def test_a_reciprocal_is_not_its_symbol(deck) -> None:
    card = _card(deck, "deepnorm")
    # "shrinks by 1/alpha" says alpha is large; "alpha shrinks" would say the opposite
    assert not mistakes(card, r"由 scale invariance，单个 sublayer 的更新对输出的影响按 $1/\alpha$ 缩小。")
    assert not mistakes(card, "Each sublayer's update is shrunk by 1 / alpha relative to the stream.")
    assert "alpha-below-one" in mistakes(card, "DeepNorm uses alpha 缩小 the shortcut, beta < 1 for the init.")


def test_notes_abbreviations_read_as_the_words() -> None:
    def keys(text: str) -> list[str]:
        return [t.key for t in tokenize(prepare(text).text)]
    assert keys("per-layer param grads") == keys("per-layer parameter gradients")
    assert keys("the grad of each param") == keys("the gradient of each parameter")


def test_squared_after_an_article_is_an_adjective_not_a_power(deck) -> None:
    assert prepare("sigma squared over d").text == "sigma^2 over d"
    assert prepare("the squared norm").text == "the squared norm"
    assert prepare("stream 的 squared norm").text == "stream 的 squared norm"
    assert prepare("||x|| squared").text == "||x||^2"
    # so "the squared gradient" still names what Adam's second moment estimates
    card = _card(deck, "warmup-for-pre-ln")
    text = ("Early in training Adam's running estimate of the squared gradient rests on very few samples, "
            "so its adaptive step sizes are unreliable and the first updates can be far too large.")
    assert "adam-variance" in hits(card, text)


def test_numbers_said_aloud_are_read_as_digits(deck) -> None:
    assert prepare("a ramp of four thousand steps, then five hundred more").text == "a ramp of 4000 steps, then 500 more"
    assert prepare("eps was ten to the minus nine").text == "eps was 1e-9"
    assert prepare("it tops out near three times ten to the minus four").text == "it tops out near 3e-4"
    assert prepare("roughly six e minus four").text == "roughly 6e-4"
    assert prepare("alpha is two N to the one quarter").text == "alpha is (2n)^(1/4)"
    assert prepare("beta is 8N to the minus one-quarter").text == "beta is (8n)^(-1/4)"
    assert prepare("steps to the minus one point five").text == "steps^(-1.5)"
    # a symbol's index said before its value stays the index: "beta two point nine eight" is beta2 = 0.98
    assert prepare("beta two point nine eight").text == "beta two 0.98"
    assert prepare("gain of one point two five").text == "gain of 1.25"
    # ordinary words stay words
    for text in ("one of the two norms", "at that point nine layers remained", "go to the minus side"):
        assert prepare(text).text == text
    card = _card(deck, "post-ln-warmup")
    text = ("In the original recipe warm-up lasted four thousand steps, Adam ran with beta two point nine eight, "
            "and the rate peaked around seven times ten to the minus four.")
    assert {"warmup-4000", "adam-betas", "peak-lr"} <= hits(card, text)


def test_a_word_said_again_after_a_hesitation_is_read_once(deck) -> None:
    assert prepare("it removes the, um, the radial part").text == "it removes the radial part"
    assert prepare("so it's, uh, it's scale-invariant").text == "so it's scale-invariant"
    # other hesitations stay where they are (they may part clauses; the form reader counts them)
    assert prepare("Um, and the gain stays").text == "um, and the gain stays"
    card = _card(deck, "rmsnorm")
    text = ("RMSNorm's Jacobian, that's one over r times identity minus y y transpose over D, so it only removes "
            "the, uh, the radial direction, while the mean direction passes straight through.")
    assert "rms-jacobian" in hits(card, text)


def test_nabla_reads_as_the_gradient(deck) -> None:
    assert [t.key for t in tokenize(prepare("$\\nabla_x f$").text)][:1] == ["gradient"]
    card = _card(deck, "toy-metric-artifact")
    assert "metric-definition" in hits(card, "它测的其实是 $\\|\\nabla_x f\\|$，其中 $f(x) = \\|S(x)\\|^2$。")


def test_web_markup_is_not_read_as_words_or_values(deck) -> None:
    assert prepare("the [DeepNet paper](https://arxiv.org/abs/2203.00555) says").text == "the [deepnet paper] says"
    assert prepare("code at https://github.com/x/y-z and more").text == "code at  and more"
    assert prepare("<p align=\"center\"><b>Pre-LN</b> trains</p>").text.split() == ["pre-ln", "trains"]
    # maths with angle brackets stays
    assert prepare("a <x and y> b").text == "a <x and y> b"
    # a link's address adds no concrete values to the answer
    card = _card(deck, "deepnorm")
    plain = "DeepNorm scales the residual by alpha before the LN."
    for linked in ("DeepNorm ([paper](https://arxiv.org/abs/2203.00555)) scales the residual by alpha before the LN.",
                   # documentation sites link within themselves: a relative target is an address too
                   "DeepNorm ([notes](../2203.00555/v2.html)) scales the residual by alpha before the LN."):
        assert score_answer(card, linked).values == score_answer(card, plain).values
    assert prepare("the [FFN](../../nets/ffn_2.html) and [init](#sec-3.2) here").text == "the [ffn] and [init] here"
    assert prepare("kept: a[i](j) and f[x](y)").text == "kept: a[i](j) and f[x](y)"


def test_inline_maths_in_prose_does_not_lay_lines_out_as_a_table(deck) -> None:
    # the spaces set around "$...$" are no column gaps: two such lines are prose, not aligned table rows
    text = ("换个角度：$J$ 几乎消掉径向，而 $\\partial f/\\partial y = 2y$ 正好在这个方向上。\n"
            "PyTorch 默认 $\\epsilon = 10^{-5}$，读数 $\\approx 0.0047$，但 $\\|J\\|_F$ 在 depth 1 是 5.76。\n"
            "- 改测随机 probe：\n  $\\mathbb{E}\\,\\|J^\\top g\\|^2 = \\|J\\|_F^2$\n")
    assert "\u2236" not in prepare(text).text
    assert prepare("BERT      LayerNorm   post\nLLaMA     RMSNorm     pre\n").text.splitlines() == [
        "bert\u2236 layernorm, post", "llama\u2236 rmsnorm, pre"]


def test_the_object_of_ba_in_a_later_part_is_not_the_subject_of_the_change_before_it(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    # the stream grows; the final norm then scales the gradient down: no claim that the gradient grows
    text = "Pre-LN 的 stream 范数随层数线性增长，末尾那个 LN 会把梯度按 1/||x|| 缩小。"
    assert "pre-grad-grows-with-depth" not in mistakes(card, text)
    assert "pre-grad-grows-with-depth" in mistakes(card, "Pre-LN 最后一层的梯度随层数线性增长。")


def test_a_bold_heading_before_a_colon_labels_its_line_even_with_articles(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    text = "**The LLaMA line and its many open descendants (Mistral, Qwen)**: pre-norm, with RMSNorm.\n"
    assert "llama-family" in hits(card, text)
    assert not mistakes(card, text)


def test_sui_l_zengda_before_a_change_of_its_own_is_a_condition(deck) -> None:
    card = _card(deck, "xiong-theorem")
    # "as L grows it shrinks like 1/sqrt(L)": the growth is the condition, the claim is the shrinking
    assert "pre-bound-grows" not in mistakes(card, "- Pre-LN：最后一层 FFN 的梯度上界随 L 增大按 1/sqrt(L) 变小。")
    assert "pre-bound-grows" in mistakes(card, "- Pre-LN：最后一层 FFN 的梯度上界随 L 增大。")


def test_a_star_after_a_space_is_not_a_wildcard() -> None:
    phrase = compile_phrase("y * mean")
    text = prepare("which means the mean").text
    toks = tokenize(text)
    assert TextIndex(toks, text, Lexicon(set())).find(phrase) == []


# -- tables ---------------------------------------------------------------------------------------------

def test_a_cell_that_names_what_is_there_and_ticks_it_answers_yes(deck) -> None:
    card = _card(deck, "sandwich-ln")
    table = ("| design | input norm | output norm |\n|---|---|---|\n"
             "| Gemma 2 | RMSNorm ✅ | RMSNorm ✅ |\n")
    assert "gemma2" in hits(card, table)
    # a one-word grade before the tick is no plain yes
    assert prepare("| | needs warm-up |\n|---|---|\n| Pre-LN | optional ✓ |\n").text.strip() == \
        "needs warm-up pre-ln∶ optional."


def test_a_table_row_label_is_judged_by_its_cells(main_card) -> None:
    table = ("| | Post-LN | Pre-LN |\n|---|---|---|\n"
             "| training stability | poor | good |\n"
             "| needs warm-up | ✅ | ❌ |\n")
    got = hits(main_card, table)
    assert {"pre-stable", "post-needs-warmup", "pre-no-warmup"} <= got
    assert not mistakes(main_card, table)


def test_a_name_in_brackets_before_dao_is_an_example_of_the_earlier_step(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    # "从 A（…BERT）到 B": BERT is an example of Post-LN, not the subject of the Pre-LN after 到
    text = "演进路线：从 Post-LN（2018 年的 BERT）到 Pre-LN 加 final LN（GPT-2 以后的默认做法）。"
    assert "bert-pre" not in mistakes(card, text)
    assert "bert-pre" in mistakes(card, "BERT 用的是 Pre-LN。")


def test_a_formula_shown_as_a_rendered_image_is_read_as_its_formula(deck) -> None:
    # blogs and Zhihu show maths as images whose address carries the TeX: the formula is the answer's own text
    card = _card(deck, "rmsnorm")
    shown = ('RMSNorm 的定义：<img src="https://latex.codecogs.com/svg.latex?\\bar{a}_i=\\frac{a_i}{\\mathrm{RMS}(a)}g_i,'
             '\\;\\mathrm{RMS}(a)=\\sqrt{\\frac{1}{n}\\sum_i a_i^2}" alt="LaTeX">')
    assert "rms-formula" in hits(card, shown)
    assert prepare("见 https://www.zhihu.com/equation?tex=x%2BF%28LN%28x%29%29 。").text.split() == ["见", "x+f(ln(x))", "。"]
    assert prepare("[Admin](https://arxiv.org/abs/2004.08249)").text == "[admin]"  # other addresses are still dropped


def test_a_negation_reaches_over_a_comma_bounded_however(main_card) -> None:
    # ", however," stands aside inside the clause; it neither opens a new clause nor stops the "not" before it
    assert "pre-needs-warmup" not in mistakes(main_card, "Pre-LN does not, however, need warm-up at moderate rates.")
    assert "pre-needs-warmup" in mistakes(main_card, "Pre-LN, however, needs warm-up.")


def test_outside_a_group_is_no_denial_but_outside_a_path_is(deck, main_card) -> None:
    card = _card(deck, "deepnorm")
    assert "glm" in hits(card, "The best-known adopter outside Microsoft's own library is GLM-130B, which uses DeepNorm.")
    # "outside the residual path" still says LN is not on it
    assert "pre-grad-through-ln" not in mistakes(main_card, "Pre-LN keeps every LayerNorm outside the residual path.")


def test_a_question_restated_after_the_question_is_presupposes_nothing(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    restated = ("The question is essentially: why can a Post-LN model not be trained at its full learning rate from "
                "the first step, and instead needs the learning rate to be increased gradually over an initial phase?")
    assert "warmup-ramp" not in hits(card, restated)
    # the writer's own "why" question still presupposes what it asks about
    assert "warmup-ramp" in hits(card, "Why does Post-LN need the learning rate to be increased gradually at the "
                                       "start? Because its output-side gradients are large at initialisation.")


def test_what_an_answer_sets_aside_earns_no_credit(deck) -> None:
    card = _card(deck, "warmup-for-pre-ln")
    # the alternative after "rather than" / "instead of" is what the answer does not claim
    assert "post-needs-it" not in hits(card, "For Post-LN, warm-up was a leftover habit rather than a necessity.")
    assert "post-needs-it" in hits(card, "For Post-LN, warm-up is a necessity rather than a habit.")
    # two figures compared are both said
    assert "bert-faster" in hits(card, "On BERT, Pre-LN without warm-up reached the same loss in 500k instead of 700k updates.")
    # a point that is itself a denial is made by setting the thing aside
    assert "not-gradient" in hits(_card(deck, "admin-amplification"), "Admin 认为问题在于更新量而不是梯度。")


def test_a_list_item_label_may_name_a_group_of_models(deck) -> None:
    card = _card(deck, "ln-who-uses-what")
    item = ("4. LLaMA 1/2 以及 Mistral、Qwen 这类 Llama 式的模型：pre-norm + RMSNorm（x / RMS(x) * g），attention 前、FFN 前"
            "各放一个，输出头之前再放一个 final RMSNorm。")
    assert {"llama-pre", "llama-rms"} <= hits(card, item)
    # a long item that states something before its colon is a statement, not a label
    main = _card(deck, "pre-vs-post-ln")
    assert "post-needs-warmup" in hits(main, "- Post-LN 一上来就用大学习率很容易发散，必须 warm-up：不加只有 8.45 BLEU。")


def test_a_table_row_names_the_subject_of_its_cells_whatever_bracket_the_column_header_holds(deck) -> None:
    card = _card(deck, "sandwich-ln")
    table = ("| model | input norm | output norm (after the sublayer) | notes |\n|---|---|---|---|\n"
             "| Gemma 2 | RMSNorm ✓ | RMSNorm ✓ | attention and MLP |\n"
             "| OLMo 2 | ✗ | RMSNorm ✓ | plus QK-norm |\n")
    got = hits(card, table)
    assert {"gemma2", "olmo2", "olmo2-qknorm"} <= got
    assert not mistakes(card, table)
    dashed = "| | input norm | output norm |\n|---|---|---|\n| OLMo 2 | – | RMSNorm |\n| Peri-LN | LN | LN |\n"
    assert "olmo2" in hits(card, dashed)
    # a sentence that keeps the input norm says the opposite
    assert "olmo2" not in hits(card, "OLMo 2 keeps the input norm, not the output norm.")


def test_a_name_that_only_says_what_it_is_like_is_not_the_paragraph_topic(deck) -> None:
    card = _card(deck, "sandwich-ln")
    para = ("Nothing normalises the trunk between blocks, so it is basically a Pre-LN-style residual path and needs a "
            "final LN. What changes is the size of each update. It comes from CogView, whose FP16 training overflowed.")
    assert {"cogview", "fp16-overflow"} <= hits(card, para)
    # a pronoun said to BE a placement names the paragraph's topic
    final = _card(deck, "pre-ln-final-norm")
    text = ("Why did the 2017 Transformer not need this? Because it was Post-LN. Every sublayer's sum went through "
            "LayerNorm after the add, so the stack already ended normalised.")
    assert "post-already-normalised" in hits(final, text)


def test_a_formula_after_a_colon_describes_the_sentence_subject_not_the_object_before_the_colon(deck) -> None:
    card = _card(deck, "sandwich-ln")
    assert "formula" in hits(card, "Sandwich-LN is a small change to plain Pre-LN: x + LN(F(LN(x))).")
    assert "formula" in hits(card, "Sandwich-LN is basically an add-on to Pre-LN: x_{l+1} = x_l + LN(F(LN(x_l))).")
    # a name that opens what follows the colon still labels it
    assert "formula" not in hits(card, "Sandwich-LN differs. Pre-LN: x + LN(F(LN(x))).")


def test_a_formula_after_a_placement_named_in_passing_is_read_by_its_structure(deck) -> None:
    card = _card(deck, "sandwich-ln")
    # the placement is a modifier or the thing added to, not the subject of a part of its own
    assert "formula" in hits(card, "The remedy puts two norms around every sublayer, the familiar Pre-LN input norm and "
                                   "one more on the way out, so each block computes x + LN(F(LN(x))).")
    # read as if no subject were named: for the card's own subject, not for a model the card also asks about
    assert "gemma2" not in hits(card, "The remedy puts two norms around every sublayer, the familiar Pre-LN input norm "
                                      "and one more on the way out, so each block computes x + LN(F(LN(x))).")
    assert "formula" in hits(card, "Right, so it's more or less Pre-LN but with an extra norm on the way out, so you end "
                                   "up with x plus LN of F of LN of x.")
    # a placement that opens its part is what the formula is said of
    assert "formula" not in hits(card, "Pre-LN is the richer design that also normalises what the branch returns: "
                                       "x + LN(F(LN(x))).")


def test_a_name_inside_a_relative_clause_on_the_object_is_not_the_claims_subject(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    text = "Training gets easier: you can raise the learning rate and you don't need the lengthy warm-up that Post-LN requires."
    assert "post-no-warmup" not in mistakes(card, text)
    assert "post-no-warmup" in mistakes(card, "Post-LN does not require the long warm-up.")
    # a claim that goes on after the relative clause is said of the noun it describes, and so of its name
    xiong = _card(deck, "xiong-theorem")
    assert "post-final-ln-divides" in mistakes(xiong, "The final LayerNorm that Post-LN places before the readout "
                                                      "divides the gradient by roughly sqrt(L).")


def test_a_formula_set_after_a_which_clause_restates_that_clause(deck) -> None:
    card = _card(deck, "sandwich-ln")
    text = ("Sandwich-LN is x + LN(F(LN(x))). Unlike Pre-LN, which only normalises the branch input, x + F(LN(x)), "
            "Sandwich-LN normalises the branch output as well.")
    assert not mistakes(card, text)
    # the same formula said of Sandwich-LN in its own relative clause is still its claim
    assert "sandwich-single-ln" in mistakes(card, "Sandwich-LN, which only normalises the branch input, x + F(LN(x)), "
                                                  "is the same as Pre-LN.")


def test_the_name_in_like_it_does_for_x_is_the_one_compared_with(deck) -> None:
    card = _card(deck, "post-ln-warmup")
    text = ("Post-LN is fragile early on. At initialisation the gradient on the last layers is big, and the bound does "
            "not shrink with depth like it does for Pre-LN.")
    assert "post-large-grad-init" in hits(card, text)


def test_a_removal_verb_before_a_colon_denies_the_whole_list_it_opens(deck) -> None:
    card = _card(deck, "rmsnorm")
    for verb in ("leaves out", "drops"):
        assert {"no-recentering", "no-bias"} <= hits(card, f"Next to LayerNorm, RMSNorm {verb} two things: the mean "
                                                           "subtraction and the bias.")
    assert not {"no-recentering", "no-bias"} & hits(card, "RMSNorm keeps two things: the mean subtraction and the bias.")
    # the verb's own object before the colon is what is removed; what the colon goes on to say stands
    sandwich = _card(deck, "sandwich-ln")
    assert "olmo2" in hits(sandwich, "- OLMo 2: drops the input norm: x + RMSNorm(F(x)), with QK-norm as well.")
    warm = _card(deck, "warmup-for-pre-ln")
    assert "iwslt-comparable" in hits(warm, "Pre-LN 实验里直接去掉 warm-up：IWSLT14 上 BLEU 约 34，和带 warm-up 的 Post-LN 相当。")


def test_a_chinese_negated_break_verb_says_the_path_stands(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert "pre-identity-path" in hits(card, "所以 Pre-LN 那条直通的梯度路径没有被破坏。")
    assert not mistakes(card, "所以 Pre-LN 那条直通的梯度路径没有被破坏。")
    assert "pre-no-identity-path" in mistakes(card, "Pre-LN 的直通路径被破坏了。")


def test_a_change_from_one_state_to_another_leaves_the_first_behind(deck) -> None:
    card = _card(deck, "pre-vs-post-ln")
    assert not mistakes(card, 'Pre-LN moved warm-up from "required by the architecture" to "a knob you keep for safety".')
    assert "pre-needs-warmup" in mistakes(card, "With Pre-LN, warm-up went from optional to required.")
    # values on a trajectory both stand
    toy = _card(deck, "toy-metric-artifact")
    assert "faithful-pre" in hits(toy, "In the faithful Pre-LN run the Jacobian norm itself goes only from about 2.3 to "
                                       "3.1 between depth 1 and 24.")


def test_a_later_and_part_with_ordinary_x_is_a_claim_of_its_own(deck) -> None:
    card = _card(deck, "sandwich-ln")
    text = ("Sandwich-LN adds an LN at the end of each branch. CogView, a 4B text-to-image model, was trained in FP16, "
            "and with ordinary Pre-LN some values grew until they overflowed half precision.")
    assert "cogview" in hits(card, text)


def test_a_negation_before_the_object_of_a_relative_clause_is_the_main_clause_s(deck) -> None:
    text = "That smaller gradient is why Pre-LN can be trained without the learning-rate warm-up Post-LN needs."
    for card_id in ("pre-vs-post-ln", "post-ln-warmup", "xiong-theorem"):
        assert not mistakes(_card(deck, card_id), text), card_id
    # a fronted "without" with no determiner is the clause's own
    assert "post-no-warmup" in mistakes(_card(deck, "pre-vs-post-ln"), "Post-LN does not need the warm-up.")


def test_what_follows_a_denial_with_but_goes_on_with_the_denied_clause_s_subject(deck) -> None:
    # "not X but Y" names what the subject does instead; the replacement is an object, and the claim after it is
    # still the subject's
    card = _card(deck, "rmsnorm")
    assert "bert-post-ln" in hits(card, "BERT does not use RMSNorm but standard LayerNorm, and is Post-LN.")
    assert "bert-post-ln" in hits(card, "BERT 不用 RMSNorm，而是带 β 的标准 LayerNorm，且是 Post-LN。")
    # a name of its own after "but" opens another claim, and a denied position stays denied
    assert "bert-post-ln" not in hits(card, "BERT does not use RMSNorm but GPT-2 is Post-LN.")
    assert "bert-post-ln" not in hits(card, "BERT is not Post-LN but uses RMSNorm.")


def test_a_plan_of_what_the_answer_will_go_through_claims_nothing(deck) -> None:
    card = _card(deck, "pre-ln-final-norm")
    plan = ("I will go through each of them in turn, starting with the residual stream, then the final norm itself, "
            "and then the Post-LN comparison.")
    assert "post-already-normalised" not in hits(card, plan)
    assert "post-already-normalised" in hits(card, "Post-LN already ends every block in an LN, so the final norm is "
                                                  "redundant there.")
