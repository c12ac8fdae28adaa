"""Is a claim affirmed or denied, and is it asserted plainly or qualified?

Polarity. Negation cues ("not", "no", "without", "drop", "breaks", "no longer", "redundant", 不, 没有,
无需, 去掉, 否, ❌, ...) govern a claim's word when they stand before it in the same comma part, within
a window measured in words (a Chinese word counts as about two characters); cues after the claim's last
word count only when they negate what precedes them ("is not needed", "can be dropped", "是多余的"). Two
cues cancel. "Without warm-up it diverges" is a need, not a denial. "Not because X" denies X. A claim
the answer reports and refutes ("people say X; that is wrong", "X 这个说法是错的") means its opposite.

Modality. A claim is qualified when its clause hedges ("can", "usually", "in practice", 可能, 通常), sets a
condition or scope ("if", "when the learning rate is small", "in low-resource translation", "at a very
high learning rate", 如果, 大学习率下), asks ("whether", "?", 是否, 吗), states a purpose ("to avoid",
"in order to", 为了), reports someone else's view without endorsing it ("some argue", "according to",
有人认为), or is hypothetical ("would be"). Qualified claims still earn points; they are never charged
as mistakes.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Set as AbstractSet
from functools import cached_property

from lndrill.scoring.lexicon import (
    ARROW,
    ARTICLES,
    CJK,
    COPULAS,
    NO_MARK,
    NUMBER,
    PUNCT,
    RELATIONS,
    WORD,
    YES_MARK,
    Cues,
    Token,
    stem,
)
from lndrill.scoring.normalize import TABLE_COLON
from lndrill.scoring.structure import TICKS, Layout, is_cause, is_consequence, is_function_token

NEGATION = Cues(
    en=("not", "no", "never", "without", "none", "nobody", "nor", "neither", "cannot", "free", "drop", "dropped", "remove",
        "removes", "removed", "removing", "skip", "skipped", "skips", "unnecessary", "unneeded", "optional",
        "dispensable", "rid", "lack", "lacks", "lacking", "less", "hardly", "barely", "eliminate", "eliminates",
        "eliminated", "omit", "omitted", "omits", "needless", "nothing", "fewer", "break", "breaks", "broken",
        "breaking", "destroy", "destroys", "destroyed", "off", "outside", "bypass", "bypasses", "bypassed",
        "avoid", "avoids", "avoided", "redundant", "superfluous", "obviate", "obviates", "obviated", "non", "un",
        "neither", "absent", "lose", "loses", "lost", "w/o", "discard", "discards", "discarded", "strip", "strips",
        "stripped", "ditch", "ditches", "ditched", "sans", "useless", "pointless"),
    pairs=("no longer", "does away", "do away", "get rid", "gets rid", "not required", "away from", "throw away",
           "throws away", "threw away", "thrown away", "leave out", "leaves out", "left out", "does without",
           "do without", "dispense with", "dispenses with", "left alone", "leave alone", "leaves alone",
           "left untouched"),
    zh=("不", "没", "无", "免", "去掉", "去除", "省去", "省掉", "省略", "移除", "删除", "删掉", "删去", "取消", "摆脱", "非", "别", "未", "勿",
        "拿掉", "砍掉", "甩掉", "否", "绕过", "跳过", "避开", "脱离", "失去", "破坏", "打断", "阻断", "切断", "多余",
        "用不着", "无需", "无须", "不必", "不用", "没必要", "扔掉", "丢掉", "舍弃", "抛弃", "丢弃", "不再",
        # lacking ("RMSNorm 缺少偏置", "RMSNorm 少了减均值那一步")
        "缺少", "缺乏", "缺了", "少了", "少掉",
        # "减少对 warmup 的依赖": a dependence made smaller (not 减少 alone: "减少梯度" says the gradient shrinks)
        "减少对", "降低对", "减轻对", "减弱对", "减少了对", "降低了对", "减轻了对", "减弱了对"),
)
_PREFIX_CUES = frozenset({"un", "non"})
#: Negation cues that negate the verb itself ("doesn't need", "needs no", "never needs", 不需要, 没有加, 无需), as against
#: the ones that mean removal or absence ("skip", "without", 去掉): see `Polarity.denies_verb`. ("doesn't", "can't" and
#: "isn't" are read as "not".)
_VERB_NEGATIONS = frozenset({"not", "never", "no", "cannot"})
_VERB_NEGATIONS_ZH = frozenset({"不", "没", "未", "别"})
#: States of need a change may leave behind ("from required to optional", "from a must to a nice-to-have").
_NEED_STATES = frozenset(stem(w) for w in ("required", "needed", "necessary", "mandatory", "essential", "indispensable",
                                           "critical", "crucial", "vital", "optional", "unnecessary", "must",
                                           "compulsory", "obligatory"))
#: Verbs of change whose "from X to Y" leaves X behind (see `Polarity._left_behind`).
_CHANGE_VERBS = frozenset(stem(w) for w in ("move", "moved", "moves", "shift", "shifted", "shifts", "change", "changed",
                                            "changes", "turn", "turned", "turns", "went", "go", "goes", "switch",
                                            "switched", "switches", "demoted", "downgraded", "upgraded", "evolved",
                                            "transformed", "turning", "moving", "shifting", "changing", "going"))
#: "Not the same thing (as ...)": a denial of sameness, which does not say the claim it follows is false.
_ZH_NOT_THE_SAME = ("不是一回事", "不是同一回事", "不是一码事", "并不是一回事", "并非一回事", "不是同一件事")
#: What may stand between a Chinese verb negation and the verb it negates ("没有被破坏", "不会被打断", "未曾失去").
_ZH_AUX_BEFORE_VERB = frozenset({"有", "会", "被", "能", "曾", "再", "要"})
#: What "outside" denies a thing is on ("LN outside the residual path", "outside of the skip"): a path, a block or a
#: determiner before one. Before anything else ("outside Microsoft", "outside NLP") it names a group, not a denial.
_OUTSIDE_OBJECTS = frozenset({"the", "a", "an", "its", "their", "of", "this", "that", "each", "every", "all", "any",
                              "residual", "main", "skip", "identity", "stream", "path", "branch", "trunk", "block",
                              "sublayer", "shortcut", "highway", "layer", "loop", "attention", "ffn", "mlp"})
#: Words that make "off" part of a noun or a phrasal verb ("trade-off", "cut-off", "pays off"), not "switched off".
_BEFORE_OFF_NOUN = frozenset({"trade", "cut", "take", "kick", "pay", "pays", "paid", "lift", "rule", "tail", "tails",
                              "fall", "falls", "drop", "drops", "level", "levels", "show", "spin", "face", "offset"})
#: Verbs that open a second predicate after "and" besides _FINITE_VERBS ("drops the gain and keeps the bias").
_SECOND_VERBS = frozenset({"keep", "keeps", "kept", "retain", "retains", "retained", "use", "uses", "used", "add", "adds",
                           "added", "only", "instead", "train", "trained", "works", "replaces", "replace", "save", "saves",
                           "saved", "gain", "gains", "get", "gets", "got", "run", "runs", "cut", "cuts", "reduce", "reduces"})
#: Between an anaphor and its verdict ("that is wrong", "那其实不是主要原因"), and what may come before the anaphor
#: ("but that is wrong", "他们说其实那不是").
_VERDICT_LINKS = frozenset({"is", "was", "s", "其", "实", "都", "也", "就", "really", "actually", "simply", "just"})
_VERDICT_OPENERS = frozenset({"but", "and", "yet", "so", "说", "但", "可", "而", "实", "然", "actually", "really"})
#: Words that may close an object list right after its last object ("the bias parameter that LN uses").
_LIST_ENDS = frozenset({"that", "which", "term", "terms", "paramet", "parameter", "parameters", "too", "entirely",
                        "altogether", "as", "from", "的", "项", "参数"})
#: Verbs that remove what follows them: their denial reaches every object of an "and" list.
_REMOVAL = Cues(en=("drop", "drops", "dropped", "dropping", "remove", "removes", "removed", "removing", "omit", "omits",
                    "omitted", "omitting", "eliminate", "eliminates", "eliminated", "eliminating", "discard", "discards",
                    "discarded", "discarding", "strip", "strips", "stripped", "stripping", "ditch", "ditches", "ditched",
                    "lose", "loses", "lost", "losing", "lacks", "lack", "lacking"),
                pairs=("leave out", "leaves out", "left out", "leaving out"),
                zh=("去掉", "去除", "省掉", "省略", "删掉", "删除", "拿掉", "丢掉", "舍弃", "砍掉", "缺少", "缺乏", "缺了", "少了", "少掉"))
#: Words after which "skip" is the skip path doing something, not the verb "to skip".
_AFTER_SKIP_NOUN = frozenset(stem(w) for w in ("never", "is", "stays", "remains", "carries", "has", "gets", "goes",
                                               "bypasses", "itself"))
#: Verbs of saying, showing or meaning, which take a clause ("does not mean X", "did not show that X", "这不等于 X"):
#: keys (stems), forms the stemmer keeps apart, and Chinese words (longest first where one contains another).
_SAYING = frozenset({"mean", "means", "meant", "say", "says", "show", "shows", "prove", "proves", "imply", "impli",
                     "implies", "implied", "entail", "entails", "tell", "telling", "indicat", "indicates", "suggest",
                     "suggests", "demonstrat", "demonstrates"})
_SAYING_FORMS = frozenset({"showed", "shown", "proved", "proven", "demonstrated", "implied", "said", "meant",
                           "indicated", "suggested"})
_ZH_SAYING = ("意味着", "等于", "代表", "说明", "证明", "表明", "证实", "显示", "说")
#: Chinese words that start with a negation character but negate nothing.
#: Openers of a conclusion drawn from what came before ("..., that's why it needs warm-up").
_THATS_WHY = Cues(pairs=("that's why", "that is why", "which is why", "this is why", "which explains why"),
                  zh=("这就是为什么", "这也是为什么", "这就是原因"))
_ZH_NOT_NEGATION = ("不同", "不断", "不仅", "不只是", "不单", "不少", "不过", "不管", "不久", "无论", "非常", "未来", "不止", "不光",
                    "训不动", "训不起来", "训不稳", "跑不动", "收敛不了", "训不好", "离不开", "少不了", "不可或缺",
                    "必不可少", "不得不", "免不了", "缺一不可", "不稳定", "非线性", "无穷", "无限", "不可避免",
                    "别的", "别人", "否则", "不如", "不然", "无关紧要", "不错", "并不少见", "未经", "区别", "分别",
                    "特别", "类别", "级别", "识别", "差不多", "不多久", "无所谓", "不变", "不动点",
                    # adverbs: "无形地" (imperceptibly), "无疑" (undoubtedly), "无非" (merely), "无比" (incomparably)
                    "无形", "无疑", "无非", "无比",
                    # a state named by a negated adjective ("梯度不平衡不是根因": the imbalance is what is denied to be the cause;
                    # "warmup 前期数据样本不足": too few samples, no denial of the warm-up)
                    "不平衡", "不均衡", "不对称", "不匹配", "不足",
                    # "whether": "是否需要 warmup", "对有无 warmup 做了实验" ask or compare, they deny nothing
                    "是否", "有无",
                    # not known, not denied: "warmup 为什么有效目前还不清楚" doubts our knowledge of the warm-up
                    "不清楚", "不太清楚", "不明确", "不明朗", "不确定")
#: Words that restrict a claim to one thing ("just pre-norm", "only the input", "只在输入").
_RESTRICTIONS = frozenset({"just", "only", "merely", "solely", "只", "仅"})
#: How many characters after a 的 its head noun may take ("的前几千步"): a word further on is outside the modifier.
_HEAD_REACH = 4
#: How many characters a denial and what it negates may take before the 的 that closes a modifier ("不准的").
_MODIFIER_CHARS = 3
#: English pairs in which a cue word negates nothing.
_EN_NOT_A_CUE = {("no", "matter"), ("not", "only"), ("no", "doubt"), ("not", "just"), ("not", "merely"),
                 ("nor", "only"), ("nor", "just"), ("nor", "merely"),
                 ("nothing", "but"), ("less", "than"), ("no", "wonder"), ("not", "necessarily"),
                 ("skip", "connection"), ("skip", "connect"), ("skip", "path"), ("skip", "link"), ("skip", "branch")} | {
                 # a fall, not a removal: "BLEU dropped to 8.45", "drops by 25 points" ("dropp": the stem of "dropped")
                 (drop, after) for drop in ("drop", "dropp") for after in ("to", "by", "from", "below", "sharply")}
#: English words that also negate what stands before them ("warm-up is not needed", "can be dropped"),
#: compared as written (the stemmer would turn "dropped" into "drop", which negates what follows).
_EN_AFTER = frozenset(("not", "cannot", "free", "unnecessary", "unneeded", "optional", "dispensable", "needless",
                       "dropped", "removed", "skipped", "eliminated", "omitted", "redundant", "superfluous",
                       "avoided", "bypassed", "never", "useless", "pointless"))
#: "rather than", "instead of": what follows is the alternative set aside (like Chinese 而不是), so a denying word there
#: ("essential rather than optional") says nothing against the claim before it.
_SET_ASIDE_AFTER = {"rather": "than", "instead": "of"}
#: Words that deny only what stands before them ("Q and K are untouched"; "an untouched identity path" affirms).
_EN_AFTER_ONLY = frozenset(("untouched", "unscaled", "unmodified", "exempt"))
#: Words that already say a thing is kept as it is: "untouched" / "unmodified" after them agrees, it denies nothing
#: ("Pre-LN leaves the identity path untouched" keeps the identity path).
_KEPT_AS_IS = frozenset(("identity", "clean", "intact", "unchang", "pure", "pristin"))
#: English pairs that also negate what stands before them ("q_proj and k_proj are left alone").
_EN_AFTER_PAIR = frozenset(("left", "leave", "leaves"))
FAILURE = Cues(
    en=("diverge", "diverges", "diverged", "divergence", "unstable", "instability", "fail", "fails", "failed",
        "explode", "explodes", "exploded", "crash", "crashes", "blow", "blows", "nan", "collapse", "collapses",
        "destabilize", "destabilizes", "destabilized", "destabilise", "destabilises", "destabilised", "spike", "spikes",
        "diverging", "exploding", "derail", "derails", "derailed"),
    # (said the spoken way: "without warm-up it kind of falls over")
    pairs=("falls over", "fall over", "fell over", "falls apart", "fall apart", "fell apart", "breaks down", "break down",
           "broke down"),
    zh=("发散", "崩", "炸", "训飞", "训不动", "训不起来", "训不稳", "跑不动", "收敛不了", "训不好", "不收敛", "不稳定",
        "失败"),
)
#: Absence ("without warm-up", "不加 warm-up"): next to a failure word it means "is needed".
_ABSENCE = Cues(en=("without", "no", "w/o"), zh=("没", "无", "不用", "不加", "不做", "不预", "去掉", "不带", "没有"))
#: Absence as a circumstance ("without warm-up it reaches 8.45 BLEU", "不做 warm-up 时"): not a firm denial.
_CIRCUMSTANTIAL = Cues(en=("without", "w/o"), pairs=("with no",), zh=("不做", "不加", "不用", "不带", "去掉", "不预"))
#: "trains fine without warm-up": absence plus success is a firm "not needed".
_SUCCESS = Cues(en=("train", "trains", "trained", "works", "work", "fine", "converge", "converges", "converged",
                    "stable", "stably", "ok", "okay", "well", "comparable", "matches", "match", "succeed",
                    "succeeds", "smoothly", "happily", "easily", "reach", "reaches", "safe", "safely", "robust", "robustly"),
                zh=("能训", "能收敛", "可以训", "正常", "收敛", "稳定", "没问题", "照样", "也能", "一样", "能训练", "训得动"))
_SCOPE_STOP = Cues(en=("and", "also", "then", "plus", "which", "that", "whereas", "while", "but"),
                   zh=("和", "并", "且", "同时", "也", "还", "但", "以后", "之后"))
_REFUTE = Cues(
    en=("myth", "misconception", "wrong", "incorrect", "false", "untrue", "mistaken", "misleading", "fallacy",
        "misunderstanding", "inaccurate", "misread", "misreading", "debunk", "debunks", "debunked", "dispel",
        "dispels", "overturns", "bug", "bugs", "pitfall", "pitfalls", "misstatement", "misstatements", "misbelief",
        "misattribution", "oversimplification"),
    pairs=("not true", "not correct", "not right", "over simplification", "over simplifications",
           # "That is not what the theorem says": the anaphor points back at the claim before it
           "not what"),
    zh=("错误", "是错的", "不对", "误解", "误区", "迷思", "谣言", "并非如此", "不成立", "讲反", "说反", "搞反", "不正确",
        "不准确", "其实不是", "不是这样", "其实不然", "并不是这样", "站不住",
        # "大家以为是梯度消失，但其实那不是主要原因": the cause named before is rejected
        "不是主要原因", "不是根本原因", "并非主要原因", "并非根本原因", "不是真正的原因", "并不是主要原因", "并不是根本原因"),
)
#: Verbs of dealing with a problem: a refutation word as their object names the problem ("to resolve this pitfall").
_FIX_VERBS = frozenset(stem(w) for w in ("resolve", "resolves", "fix", "fixes", "solve", "solves", "address", "addresses",
                                         "avoid", "avoids", "mitigate", "mitigates", "overcome", "overcomes", "tackle",
                                         "tackles", "remedy", "remedies"))
_FIX_VERBS_ZH = Cues(zh=("解决", "避免", "修复", "缓解", "克服", "避开"))
#: What an error is said to be ("a common slip is to quote X as Y", "the mistake is reading X as Y", "an error to call
#: X Y"): each noun of an error with each verb of saying, quoting or reading, as "N is to V", "N to V" and "N is Ving".
_ERROR_NOUNS = ("mistake", "error", "slip", "pitfall", "trap", "misstep", "misconception", "misreading", "confusion")
_SAYING_VERBS = (("say", "saying"), ("claim", "claiming"), ("write", "writing"), ("quote", "quoting"), ("cite", "citing"),
                 ("call", "calling"), ("state", "stating"), ("describe", "describing"), ("read", "reading"),
                 ("treat", "treating"), ("take", "taking"), ("confuse", "confusing"), ("attribute", "attributing"),
                 ("believe", "believing"), ("assume", "assuming"))
_ERROR_SAYINGS = tuple(form for noun in _ERROR_NOUNS for verb, ing in _SAYING_VERBS
                       for form in (f"{noun} is to {verb}", f"{noun} to {verb}", f"{noun} is {ing}"))
_REPORT = Cues(
    en=("argue", "argues", "argued", "claim", "claims", "claimed", "believe", "believes", "believed", "suggest",
        "suggests", "hypothesize", "hypothesise", "speculate", "supposedly", "allegedly", "assume", "assumes",
        # remembered or read wrongly ("people misremember that as Post-LN gradients growing with depth")
        "misremember", "misremembers", "misremembered", "misinterpret", "misinterprets", "misinterpreted",
        "misquote", "misquotes", "misquoted"),
    pairs=("according to", "people say", "some say", "it is said",
           # others' view in speech ("people get that wrong, they say it grows with depth")
           "they say", "they'll say", "they will say", "others say", "many say", "folks say",
           # the same with a frequency adverb between ("People sometimes say X; that is not DeepNet's diagnosis")
           "people sometimes say", "people often say", "people usually say", "people commonly say", "people still say",
           "people often claim", "people sometimes claim", "people often think", "people sometimes think",
           "people think", "some think", "many think", "people thought", "people assume", "many assume",
           # an earlier view ("people used to think X", "people had been blaming X", "X was long blamed")
           "used to think", "used to believe", "used to say", "used to blame", "people blamed", "people blame",
           "had been blaming", "long blamed", "once thought", "long thought", "was thought", "were thought",
           "common claim", "popular claim", "popular belief", "folk wisdom", "tempting to", "might think", "would think", "easy to think", "textbook story",
           # thinking named as the error ("A common pitfall is thinking that X", "the trap of thinking X", "a mistake to
           # think X"); the writer's own "I think X" is not here
           "is thinking", "of thinking", "is to think", "wrong to think", "mistake to think", "error to think",
           # saying named as the error ("A frequent mistake is to say X", "it is wrong to say X"); not the bare "is to
           # say", which is "that is to say" (the writer's own "i.e.")
           # (every error noun with every verb of saying or reading: _ERROR_SAYINGS)
           "wrong to say", "wrong to claim", *_ERROR_SAYINGS,
           # hearsay ("You often hear that X. The theorem says the opposite")
           "you often hear", "you sometimes hear", "you will hear", "you'll hear", "you may hear", "one often hears",
           "is often said", "often said that", "is often claimed", "is commonly said", "is commonly claimed"),
    zh=("有人说", "常听到", "经常听到", "常听人说", "常听说", "据说", "认为", "常说", "说法", "传言", "号称", "据称", "坊间", "有观点", "一种观点", "原文", "文章说",
        "那篇文章", "以为"),  # 以为: "thought (wrongly)"; not in 可以为 / 所以为 (see _inside_other_word)
)
_HEDGE = Cues(
    en=("can", "could", "may", "might", "would", "usually", "often", "typically", "generally", "sometimes",
        "tend", "tends", "likely", "probably", "possibly", "perhaps", "maybe", "mostly", "somewhat", "arguably",
        "partly", "partially", "occasionally", "rarely", "seldom",
        "potentially", "slightly", "most", "many", "some", "often", "frequently",
        # a guess, the writer's or a common one ("A common first guess is that DeepNorm is a Pre-LN variant. It is not")
        "guess", "guesses", "guessed",
        # an impression, not a finding ("It seems you need more warmup steps, for example, 10% of the total")
        "seem", "seems", "seemed", "apparently"),
    pairs=("in practice", "in general", "for the most", "in most", "not necessarily", "in many", "in some",
           # ("It seems ...", above; "LLaMA appears to warm up for 10%")
           "appears to", "appear to", "appeared to",
           "at least", "to some", "more or less", "by default",
           # "Pre-LN is not entirely free of warm-up": a denial softened to "partly"
           "not entirely", "not completely", "not totally", "not fully", "not wholly", "not strictly",
           # a claim limited to theory ("Post-LN doesn't need warm-up in any absolute sense, but at the learning rates
           # people use it fails without it")
           "absolute sense", "strict sense", "in principle", "in theory", "strictly speaking"),
    zh=("可能", "可以", "通常", "一般", "往往", "有时", "大多", "多半", "倾向", "未必", "不一定", "或许", "也许", "实践中",
        "并非完全", "不是完全", "并不完全", "不完全",
        "实际中", "实际上", "大体", "基本上", "大部分", "很多", "有些", "一些", "部分", "略", "稍",
        "常常", "经常", "默认"),
)
_CONDITION = Cues(
    en=("if", "when", "whenever", "unless", "provided", "assuming", "once", "given", "whether", "suppose",
        "why", "how"),  # indirect questions ("we need to look at why X") assert nothing to charge
    pairs=("as long", "only if", "even if", "at scale", "only for", "only when", "only in",
           # the writer's own trial ("I tried lr=3e-4, beta2=0.999 ..."): a setting reported, no claim about a model
           "i tried", "we tried", "i've tried", "we've tried"),
    zh=("如果", "若", "假如", "假设", "要是", "一旦", "只要", "是否", "要不要", "需不需要", "时候", "情况下", "条件下",
        "场景下", "设置下", "的话", "除非", "低资源", "大学习率", "小学习率", "高学习率", "我试了", "我试过", "我们试了", "我们试过",
        # "even if" ("哪怕梯度很小"): a concession supposes what follows, it does not state it
        "哪怕", "即使", "即便", "就算", "纵使"),
)
#: The condition words that open an indirect question: they do not reach past their own clause.
_INDIRECT_QUESTION = Cues(en=("why", "how", "whether"), zh=("是否", "要不要", "需不需要"))
#: Restating the task ("So the question is what Xiong showed ...", "要回答这个问题") or announcing the text's plan
#: ("本文档将详细对比 Pre-LN 与原始的 Post-LN"): nothing is claimed.
_FRAMING = Cues(pairs=("question is", "questions are", "to answer", "need to look", "let us look", "let's look",
                       "we will look", "will discuss", "we discuss", "asks us", "asked to", "asks why", "asks what",
                       "asks how", "talks about", "talk about", "talked about", "talking about",
                       # announcing what the text will do ("This post will compare Pre-LN with the original Post-LN")
                       "will compare", "will explain", "will cover", "will walk", "will break", "will go through",
                       "will go over", "will start with", "will begin with", "will turn to"),
                zh=("题目问", "要回答", "我们来看", "来看看", "需要回答", "要讨论", "问的是", "本文将", "本文档将", "本文会",
                    "本篇将", "下文将", "下面将", "接下来将"))
#: Words that open a part describing a situation of its own ("..., a setting where Post-LN diverged").
_SITUATION_OPENERS = frozenset(stem(w) for w in ("where", "whereas", "while", "which"))
_ACCORDING = stem("according")
#: Words that name a published source after "according to" (a paper, its parts, its authors).
_SOURCE_WORDS = frozenset({"paper", "theorem", "lemma", "figure", "fig", "section", "xiong", "liu", "wang", "nguyen",
                           "admin", "deepnet", "vaswani", "radford", "touvron", "ba", "zhang", "sennrich"})
#: "get it wrong": someone errs about a fact, which says nothing against the fact.
_GET_WRONG = frozenset({"get", "gets", "got", "gotten", "getting"} | {stem(w) for w in ("gets", "getting", "gotten")})
#: Sentences that say nothing but "that is wrong" about the sentence before them.
#: Verbs before "wrong" that make it a failure, not a verdict ("what goes wrong", "it went wrong").
_GO_WRONG = frozenset(stem(w) for w in ("go", "goes", "went", "gone", "going"))
_BARE_REFUTATIONS = frozenset({"no", "nope", "wrong", "fals", "false", "not true", "not really", "not so", "不对", "错",
                               "错了", "不是", "不是的", "不是这样", "并不是"})
#: "Contrary to popular belief, X": the writer asserts X. Likewise "the reverse of what people assume: X".
_CONTRARY = Cues(pairs=("contrary to", "despite the", "unlike the"), zh=("与常识相反", "和一般认为的相反"))
_ANYTHING = stem("anything")
#: "cannot be anything but X", "is not other than X": with a denial before them, they affirm X.
_ANYTHING_OR_OTHER = frozenset({_ANYTHING, stem("other")})
_ASSUME = stem("assume")
_REVERSE_OF = Cues(pairs=("reverse of what", "opposite of what"))
#: "at a very high learning rate", "in low-resource translation", "for very deep models": a scope.
#: Present-tense verbs that open a second predicate after "and" ("can be trained without warm-up and ends up better").
_FINITE_VERBS = frozenset({"is", "are", "was", "were", "has", "gets", "ends", "reaches", "gives", "beats", "needs",
                           "requires", "stays", "remains", "becomes", "grows", "shrinks", "converges", "diverges",
                           "trains", "achieves", "outperforms", "matches", "keeps", "makes"})
#: A pronoun and a finite verb after a noun phrase open a new predication (see Polarity._new_subject_at).
_SUBJECT_PRONOUNS = frozenset({"it", "they", "we"})
#: Words that open an embedded question after a verb of knowing ("no idea what the second moment is", "doesn't know how
#: large the variance is", "not sure whether ..."): a denial before them denies the knowing, not the question's words.
_EMBEDDED_QUESTION = frozenset({"what", "how", "whether", "which"})
_KNOWING = frozenset(stem(w) for w in ("idea", "know", "knows", "knew", "known", "sure", "clear", "certain", "clue",
                                       "tell", "telling"))
#: Copulas that make a verdict word after them a predicate on what stands before ("the depth dependence is wrong").
_VERDICT_COPULAS = COPULAS | {"是"}
#: Adverbs between a negation and "that" ("isn't really that X", "not simply that X").
_THAT_ADVERBS = frozenset({"really", "simply", "just", "actually", "merely", "only", "so", "exactly", "quite"})
#: Comma-bounded adverbs that stand aside inside a clause ("is not, however, a bound").
_ASIDE_ADVERBS = frozenset({("however",), ("though",), ("actually",), ("in", "fact"), ("of", "cours"), ("of", "course"),
                            ("strictly",), ("sadly",), ("alas",)})
_NEED_NOUNS = frozenset({"need", "necessity", "requirement"})
#: Words after which "mean" is the statistic too: the noun it modifies ("mean subtraction", "mean computation"), or
#: "and" of the statistics pair ("compute mean and variance").
_MEAN_NOUN_HEADS = frozenset(stem(w) for w in ("subtraction", "computation", "centering", "centring", "removal", "term",
                                                "statistic", "statistics", "reduction", "shift", "vector", "direction",
                                                "component", "value", "values", "and", "mu"))
#: Chinese words that start the predicate said of a removal in subject position ("去掉均值计算更便宜", "去掉它会发散").
_ZH_RESULT_WORDS = frozenset({"更", "会", "能", "让", "使", "就", "可"})
#: What "on" follows in "the dependence on X" / "its reliance on X".
_RELIANCE_NOUNS = frozenset(stem(w) for w in ("dependence", "dependency", "reliance"))
#: Verbs that make a need smaller ("reduces the need for warm-up"): before a need noun they deny the need.
_REDUCTION = frozenset(stem(w) for w in ("reduce", "reduces", "reduced", "reducing", "lessen", "lessens", "lessened",
                                          "lessening", "minimise", "minimises", "minimised", "minimize", "minimizes",
                                          "minimized", "decrease", "decreases", "decreased", "diminish", "diminishes",
                                          "diminished", "ease", "eases", "eased", "cut", "cuts", "lower", "lowers",
                                          "lowered", "weaken", "weakens", "weakened"))
_DETERMINERS = ARTICLES | {"its", "their", "this", "that"}
#: Words after which "mean" is the statistic, not the verb: an article or possessive ("the mean", "its mean"; not
#: "this"/"that", which may be the subject of "means") or an adjective ("zero mean", "running mean"). ("the token's
#: mean" reads "token mean": the tokenizer drops the possessive.)
_MEAN_BEFORE_NOUN = (_DETERMINERS - {"this", "that"}) | frozenset(stem(w) for w in (
    "zero", "nonzero", "running", "batch", "token", "sample", "row", "feature", "arithmetic", "empirical"))
_MODALS = frozenset({"can", "will", "does", "runs", "works", "helps", "costs"})
#: Verbs that place a layer in a design ("... is then never normalised it adds one extra LayerNorm"): present tense.
_PLACING_VERBS = frozenset({"adds", "uses", "puts", "applies", "places", "inserts", "appends"})
_PREDICATE_VERBS = _FINITE_VERBS | _MODALS | _PLACING_VERBS
_NOT_A_NOUN_END = frozenset({"that", "if", "when", "whether", "because", "so", "and", "but", "or", "think", "believe",
                             "guess", "feel", "sure", "claim", "argue", "why", "how", "what", "since", "as", "then",
                             "not", "no", "never", "unless", "until", "once", "while", "whereas", "though", "although"})
#: Who carries out a procedure ("if you compute ...", "when we update ...") and the verbs of measuring or stepping.
_AGENTS = frozenset({"you", "we", "one", "i", "people"})
_PROCEDURE_ADVERBS = frozenset({"just", "simply", "instead", "actually", "also", "now", "then", "directly"})
_PROCEDURE_VERBS = frozenset(stem(w) for w in (
    "compute", "computes", "computed", "calculate", "measure", "log", "plot", "look", "check", "track", "print",
    "evaluate", "inspect", "differentiate", "update", "nudge", "perturb", "backprop", "probe", "visualize",
    "visualise", "monitor"))
#: Words that make a procedure a circumstance ("if you update with a large learning rate", "without warm-up").
_LIMITS = Cues(en=("without", "only", "lr", "warm-up", "warmup", "fp16", "deep", "deeper", "shallow", "long", "short",
                   "carefully", "aggressively", "slowly", "fast", "quickly"),
               pairs=("learning rate", "step size", "warm up"))
_SCOPE_PREP = Cues(en=("at", "in", "for", "with", "under", "on", "on", "beyond", "above", "below"))
_SCOPE_WORD = Cues(en=("low", "high", "higher", "large", "larger", "small", "smaller", "very", "some", "certain",
                       "zero", "zero-mean", "mean-zero", "centred", "centered",
                       "particular", "specific", "extreme", "aggressive", "moderate",
                       "huge", "big", "tiny", "practice", "resource", "setting", "settings",
                       "case", "cases", "regime", "condition", "conditions", "limited", "enough"))
#: Words that make a scope of "for an input ...", "in any model ..." (a kind of thing, not a named one) and the words
#: that narrow it by a relative clause ("... that has zero mean", "... whose learning rate is high"; not "with": "for
#: an encoder with N layers, alpha = ..." specifies the case, it does not hedge).
_INDEFINITE = frozenset({"a", "an", "any", "every", "each"})
_RESTRICTIVE = frozenset({"that", "which", "whose", "where"})
#: "at step zero", "at iteration zero": when, like "at initialisation", not a condition.
_TIME_UNITS = frozenset(stem(w) for w in ("step", "steps", "iteration", "iterations", "epoch", "time", "t"))
_PURPOSE = Cues(en=(), pairs=("in order", "so that", "so as", "to avoid", "to prevent", "to fix", "to solve",
                                "to address", "to stop", "to keep", "to make", "to tame", "to counter", "to mitigate",
                                "to reduce", "to stabilize", "to stabilise", "aim to", "aims to", "meant to",
                                "designed to", "intended to",
                                # a goal being worked on ("work on making it stable", "trying to make it trainable")
                                "on making", "try to", "trying to", "tries to", "tried to", "attempt to", "attempts to",
                                "attempting to"),
                zh=("为了", "以便", "旨在", "用来", "目的是", "为的是", "以免", "以防", "防止", "想办法", "设法", "试图", "力图"))
_YES_NO_CELL = {"not"}
#: A table cell's opening verdict on its row label ("no, only on the branch input"); unlike structure._VERDICTS
#: (Layout.answers_its_label) it has "not", what a ✗ cell becomes, and only verdicts whose polarity is plain.
_CELL_VERDICTS = frozenset({"no", "not", "yes", "否", "是", "不"})
#: Adverbs between "is" and "why" in "this is precisely why X".
_WHY_ADVERBS = frozenset({"precisely", "exactly", "also", "partly", "largely", "just", "mainly", "mostly", "really"})
#: A bare answer to a yes/no question ("No.", "In my view, no; ...").
_BARE_ANSWERS = frozenset({"no", "nope", "yes", "yeah", "yep"})
#: Pronouns that open a clause of their own after a colon ("... removed: it subtracts the mean"), not a list of things.
_CLAUSE_PRONOUNS = frozenset({"it", "they", "we", "you", "he", "she", "i"})
#: Denials that are not verbs: before a colon they belong to the label ("no warm-up: 8.45 BLEU").
_PLAIN_DENIALS = frozenset({"no", "not", "without", "w/o", "non", "un", "never", "不", "无", "没", "非", "未"})
#: A verb that only stands for what a colon after it introduces ("what it does not do: X").
_EMPTY_DO = frozenset({"do", "does", "did", "doing"})
#: "it is not true that X", "it is not the case that X": like a denied saying.
_TRUTH = frozenset({"true", "case", "correct", "right"})
#: Words that open a predication of its own after a comma ("..., which is why", "..., so").
_NEW_PREDICATION = frozenset({"which", "so", "hence", "thus", "therefore", "所", "因"})
_CAUSE_ADVERBS = frozenset({"just", "only", "simply", "merely", "sole", "solely", "mainly", "primarily", "是", "只", "仅",
                            "仅仅", "单纯", "完全", "主要"})
_SWITCH_VERBS = frozenset({"turn", "turns", "turned", "turning", "switch", "switches", "switched", "switching", "shut",
                           "shuts", "shutting"})
#: First words of a yes/no question ("Is it a contradiction?", "Does Pre-LN need warm-up?").
#: Nouns whose "that" clause states what a refutation is about ("the myth that X is wrong").
_CONTENT_NOUNS = frozenset(stem(w) for w in ("myth", "misconception", "claim", "idea", "notion", "belief", "story",
                                              "folklore", "view", "assumption", "intuition", "misreading",
                                              "misunderstanding", "misinterpretation", "misbelief", "fallacy",
                                              "oversimplification", "misattribution"))
#: Nouns for what others hold ("the common belief is that X") and the words that make one the writer's own.
_RECEIVED_VIEWS = frozenset(stem(w) for w in ("myth", "misconception", "folklore", "story", "belief", "assumption",
                                               "claim", "narrative", "wisdom", "legend", "lore", "reading", "misreading",
                                               "interpretation", "misinterpretation", "retelling", "retellings", "idea",
                                               "notion"))
#: Views that report only with their content right after them ("the idea that X"): "the idea is that X" explains.
_VIEWS_WITH_THAT_ONLY = frozenset(stem(w) for w in ("idea", "notion"))
#: Verbs by which a received view states its content ("a common retelling says X", "the folklore holds that X").
_VIEW_SAYS = frozenset(stem(w) for w in ("says", "said", "holds", "held", "claims", "claimed", "tells", "asserts"))
#: Views that may be a named source's own ("Admin's reading is that X" attributes X; "a tempting reading is that X"
#: reports it).
_READINGS = frozenset(stem(w) for w in ("reading", "misreading", "interpretation", "misinterpretation"))
_COPULAS_OF_VIEWS = frozenset({"is", "was", stem("goes")})
#: The last words of framing cues that can close a relative clause ("the effect people talk about is X").
_FRAMED_ENDS = frozenset({"about", "discuss"})
#: Who holds a received view, opening a short clause after it ("the myth people repeat", "a misconception I've heard").
_HEARERS = frozenset({"i", "ive", "id", "we", "weve", "you", "youll", "people", "many", "most", "some", "everyone",
                      "everybody", "one", "often", "still", "commonly", "frequently", "widely"})
_OWN_VIEW = frozenset({"real", "true", "actual", "correct", "right", "my", "our", "better", "proper", "whole", "full",
                       # the point put forward ("the key claim is that X", "the main story here is that X")
                       "key", "main", "core", "central"})
#: Chinese place particles: "X 上/里/中没有 Y" says Y is absent at X, it does not deny X.
_LOCATIVES = frozenset({"上", "里", "中", "内"})
#: Chinese words that open a purpose or a consequence after a claim ("需要 warm-up 才不会发散", "以免训练崩掉",
#: "否则会发散"): a negation after them is about that purpose, not the claim.
_ZH_PURPOSE_AFTER = ("才", "以免", "免得", "以防", "为了", "以便", "好让", "从而", "否则", "不然", "要不然", "要不", "用来", "用于",
                     "用以", "来防止",
                     # "需要 warm-up 以避免发散", "CogView 用来避免值爆炸": the 免 in 避免 denies what is avoided, never the
                     # thing that avoids it
                     "避免")
_CROSS_MARKS = frozenset({"✗", "✘", "❌", "❎", "×"})
_YES_NO_OPENERS = frozenset({"is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "would",
                             "will", "has", "have", "must", "isn't", "doesn't", "don't", "so"})
#: "No — they are about different things": a dash after the bare answer.
_DASH_AFTER = re.compile(r"\s*[\u2014\u2013-]")
_ZH_ANSWER_NO = frozenset({"不", "不是", "没有", "并不", "不会", "不对", "否"})
_ZH_ANSWER_YES = frozenset({"是", "是的", "对", "会", "有", "需要"})
#: The tokens a clause's mood cue can start at (see Polarity._mood_cues).
_MOOD_STARTERS = (_CONDITION.starters | _FRAMING.starters | _PURPOSE.starters | _REPORT.starters | _HEDGE.starters
                  | _SCOPE_PREP.starters | _RECEIVED_VIEWS | {"在", "当"})


def is_negation(tokens: list[Token], j: int) -> int:
    """The length of a negation cue starting at token j (0 when there is none)."""
    n = NEGATION.at(tokens, j)
    if not n:
        return 0
    t = tokens[j]
    if t.kind == WORD:
        nxt = tokens[j + 1].key if j + 1 < len(tokens) and tokens[j + 1].kind == WORD else ""
        if t.key == "less" and j >= 2 and tokens[j - 1].key == "or" and tokens[j - 2].key == "more":
            return 0  # "more or less" hedges, it does not deny
        if t.key == "skip" and j > 0 and tokens[j - 1].key in _DETERMINERS:
            return 0  # "the weight on the skip": the skip path, a noun
        if t.key == "off" and j > 0 and tokens[j - 1].key in _BEFORE_OFF_NOUN and tokens[j - 1].end + 1 >= t.start:
            return 0  # "the trade-off: Pre-LN is robust", "cut-off", "pays off": no denial
        if t.key == "skip" and nxt in _AFTER_SKIP_NOUN:
            return 0  # "-> skip never normalised", "skip stays clean": the skip path as a subject
        if t.key == "outsid" and nxt and nxt not in _OUTSIDE_OBJECTS:
            return 0  # "the best-known adopter outside Microsoft": outside a group, not off a path
        if t.key in _DOUBT_NEGATIONS and _knowledge_word_after(tokens, j + 1):
            return 0  # "why warm-up helps is not well understood": what is doubted is our knowledge, not the thing
        return 0 if (t.key, nxt) in _EN_NOT_A_CUE else n
    if _leaves_alone(tokens, j):
        return n
    if (_spells(tokens, j, "少了") or _spells(tokens, j, "少掉")) and not _lacks_a_thing(tokens, j + 2):
        return 0  # "计算量少了", "少了一半": an amount went down, nothing is lacking
    if t.key in "不没" and 0 < j < len(tokens) - 1 and tokens[j - 1].kind == CJK and tokens[j + 1].kind == CJK \
            and tokens[j - 1].key == tokens[j + 1].key and tokens[j - 1].end == t.start:
        return 0  # "矛不矛盾", "需不需要", "有没有": the A-not-A question form asks, it does not deny
    return 0 if _inside_zh_word(tokens, j, first=0) else n


#: English denials that, before a word of knowing ("not fully clear", "never well understood"), say that something is not
#: known rather than that it is absent or false.
_DOUBT_NEGATIONS = frozenset({"not", "never"})
#: Words of knowing: "X is not clear / not understood / not known / not obvious / not certain".
#: (Only words whose stem is no verb of its own: "explained" would also catch "it does not explain the divergence".)
_KNOWLEDGE_WORDS = frozenset(stem(w) for w in ("clear", "understood", "known", "obvious", "certain"))
#: Adverbs that may stand between the denial and the word of knowing ("not fully clear", "not yet well understood").
_DEGREE_ADVERBS = frozenset(stem(w) for w in ("fully", "well", "entirely", "completely", "totally", "quite", "yet",
                                               "always", "very", "so", "particularly", "immediately", "widely",
                                               "really", "clearly", "precisely", "exactly"))


def _knowledge_word_after(tokens: list[Token], k: int) -> bool:
    """A word of knowing follows at token k, after at most two degree adverbs ("not (yet) (fully) understood")."""
    for _ in range(3):
        if k >= len(tokens) or tokens[k].kind != WORD:
            return False
        if tokens[k].key in _KNOWLEDGE_WORDS:
            return True
        if tokens[k].key not in _DEGREE_ADVERBS:
            return False
        k += 1
    return False


#: Characters that open an amount after 少了 ("少了一半", "少了很多", "少了 30%"), not the thing that is lacking.
_AMOUNT_OPENERS = frozenset("一二两三几半很许不大些点多好约近")


def _lacks_a_thing(tokens: list[Token], k: int) -> bool:
    """A thing follows 少了/少掉 at token k ("少了减均值这一步", "少了 re-centering"): the word denies it."""
    return k < len(tokens) and (tokens[k].kind == WORD or (tokens[k].kind == CJK and tokens[k].key not in _AMOUNT_OPENERS))


#: Words after which "then" is an adverb inside the clause ("that does not mean you can then drop warm-up"),
#: not the "then" that opens a consequence.
_BEFORE_ADVERB_THEN = frozenset({"can", "could", "would", "will", "should", "may", "might", "must", "is", "are", "was",
                                 "were", "be", "only"})


def _adverb_then(tokens: list[Token], j: int) -> bool:
    """"then" right after a modal or copula is an adverb of the same clause, not a scope boundary."""
    return tokens[j].key == "then" and j > 0 and tokens[j - 1].kind == WORD and tokens[j - 1].key in _BEFORE_ADVERB_THEN


def _inside_zh_word(tokens: list[Token], j: int, first: int = 1) -> bool:
    """The negation character at j is part of a word that negates nothing (`_ZH_NOT_NEGATION`), at position
    `first` or later: with first=1 only words it ends or sits inside ("分别", "区别"), not "不稳定", which starts with
    it and still denies the word it is glued to."""
    t = tokens[j]
    return any(w[k] == t.key and _spells(tokens, j - k, w) for w in _ZH_NOT_NEGATION for k in range(first, len(w))
               if j - k >= 0)


def _leaves_alone(tokens: list[Token], j: int) -> bool:
    """"它不管" at the end of a clause ("全 1 方向它不管，") denies: it leaves the thing alone. Before more words
    "不管" means "regardless" ("不管多深都能训") and denies nothing."""
    if not _spells(tokens, j, "不管"):
        return False
    k = j + 2
    while k < len(tokens) and tokens[k].kind == CJK and tokens[k].key in ("了", "的", "它", "啊", "呢"):
        k += 1
    return k >= len(tokens) or tokens[k].kind == PUNCT


def _spells(tokens: list[Token], i: int, word: str) -> bool:
    return i + len(word) <= len(tokens) and all(
        tokens[i + k].kind == CJK and tokens[i + k].key == ch for k, ch in enumerate(word))


def _is_no_mark(t: Token) -> bool:
    return t.kind == PUNCT and t.key == "\u2717"


_ANAPHORA = frozenset({"that", "this", "it", "which", "这", "此", "该", "那"})
_LEAD_CONNECTIVES = frozenset({"but", "and", "yet", "however", "though", "但", "但是", "不过", "可是"})
#: Characters that make a time word with 时 (同时, 此时, 这时, 那时, 当时, 有时, 平时, 及时, 实时, 随时, 暂时, 临时, 按时,
#: 准时, 何时, 届时, 适时): no condition.
_TIME_WORD_HEADS = frozenset("同此这那当有平及实随暂临按准何届适")
#: Characters of a predicate that describes a state ("为 0", "很大", "足够深", "接近", "不变"): "X 时" is then "when X".
_STATE_CHARS = frozenset("为是很太够变化等近趋于超小大低高深浅不没")
#: "..., otherwise the scale would be wrong": a counterfactual, not a refutation of what came before.
#: What opens the writer's own account after a refuted claim ("the myth is X; actually Y", "常见误解是 X，其实 Y").
_ACTUALLY = Cues(en=("actually",), pairs=("in fact", "in reality", "the truth is", "in truth"),
                 zh=("其实", "实际上", "事实上"))
_COUNTERFACTUAL = Cues(en=("otherwise",), zh=("否则", "不然", "要不然"))
#: Verbs that deny the clause they introduce ("Admin disputes that gradients are the root cause", "Admin 否认梯度是
#: 根本原因"): what follows the verb (after "that" in English) is refuted, not what comes before it.
_DISPUTE = Cues(en=("dispute", "disputes", "disputed", "deny", "denies", "denied", "reject", "rejects", "rejected",
                    "refute", "refutes", "refuted", "contest", "contests", "contested", "doubt", "doubts", "doubted"),
                zh=("否认", "反驳", "质疑"))

#: How far a negation reaches, in words (a Chinese word is counted as two characters).
WINDOW = 5


class Polarity:
    """Negation, refutation and modality for one answer."""

    def __init__(self, lay: Layout) -> None:
        self.lay = lay
        self.tokens = lay.tokens
        self.refute_cues: dict[int, set[int]] = {}
        #: Refuted clauses whose refutation names its content ("the myth that X"): the first token refuted.
        self.refuted_from: dict[int, int] = {}
        #: Refuted clauses where the writer then says what is true ("the myth is X; actually Y", "常见误解是 X，其实 Y"):
        #: the token where the writer's own claim starts (claims from there on are not refuted).
        self.refuted_until: dict[int, int] = {}
        #: Clauses refuted by a verb of denial ("Admin disputes that X"): a claim is refuted when its words reach
        #: past the verb ("Admin ... gradients are the cause" is what Admin disputes), not only when they start there.
        self.disputed: set[int] = set()
        #: Negations of a verb of meaning ("does not mean", "不等于"): they deny the whole claim after it once,
        #: however many of its words they reach.
        self.saying_negations: set[int] = set()
        #: "not" of "not that ...": denies the that-clause once, as a denied saying does, but firmly (it is the
        #: writer's own denial, not a denied report)
        self.that_negations: set[int] = set()
        #: Clauses a refutation label leads into ("Myth: X", "A common pitfall: X", "误区：X"): the first token after its colon.
        self.label_refuted: dict[int, int] = {}
        self.answered = self._answered_questions()
        self.refuted = self._refuted_clauses()
        self._clause_cues: list[list[tuple[int, str]]] | None = None

    @cached_property
    def con_marks(self) -> frozenset[int]:
        """Crosses that open a line in a pros-and-cons list ("• ✅ Stable training without warmup" / "• ❌ Needs
        warmup phase"): when some line also opens with a tick, a leading cross marks a drawback, it denies nothing."""
        leading, _ = self._line_end_marks
        return frozenset(leading[NO_MARK]) if leading[YES_MARK] else frozenset()

    @cached_property
    def _line_end_marks(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """The ticks and crosses that open a line and those that close one (only punctuation before or after them on
        their line), by mark."""
        toks, lay = self.tokens, self.lay
        leading: dict[str, list[int]] = {YES_MARK: [], NO_MARK: []}
        trailing: dict[str, list[int]] = {YES_MARK: [], NO_MARK: []}
        for j, t in enumerate(toks):
            if t.kind == PUNCT and t.key in leading:
                for marks, step in ((leading, -1), (trailing, 1)):
                    k = j + step
                    while 0 <= k < len(toks) and lay.line_of[k] == lay.line_of[j] and toks[k].kind == PUNCT and (
                            toks[k].key not in leading):
                        k += step
                    if not 0 <= k < len(toks) or lay.line_of[k] != lay.line_of[j]:
                        marks[t.key].append(j)
        return leading, trailing

    # -- negation -----------------------------------------------------------------------------------
    def cues(self, start: int, end: int, skip: set[int], with_after: bool) -> set[int]:
        """Token indices of negation cues that govern the term at [start, end)."""
        toks, lay = self.tokens, self.lay
        cues: set[int] = set()
        clause = lay.clause_of[start]
        part = lay.part_of[start]

        crossed: set[int] = set()  # cues found only by reaching out of an appositive parenthesis

        def before() -> None:
            crossed_or = False
            words = 0.0
            j = start - 1
            scope = part
            outside = False
            while j >= 0:
                t = toks[j]
                if t.kind == WORD and t.key == "from" and self._left_behind(j, end) and not any(
                        toks[k].kind == NUMBER for k in range(j + 1, end)):  # "went from about 2.3 to 3.1": both values stand
                    cues.add(j)  # "moved warm-up from required to optional": the state it left is no longer so
                    return
                if t.kind == WORD and t.key == "to" and any(toks[k].kind == WORD and toks[k].key == "from"
                                                            and self._left_behind(k, j) for k in range(max(0, j - 8), j)):
                    return  # "went from optional to required": the state it reached is said plainly
                if t.kind == PUNCT and t.key == ")" and j > 0 and lay.part_of[j] == scope:
                    # "without (much) warm-up": step over an aside between a cue and its word (not over one that
                    # closes an earlier comma part: "can drop warm-up (no warm-up), deep stacks train easily")
                    k = j - 1
                    while k > max(-1, j - 12) and not (toks[k].kind == PUNCT and toks[k].key == "("):
                        k -= 1
                    if k > 0 and toks[k].key == "(" and lay.clause_of[k - 1] == clause:
                        scope = lay.part_of[k - 1]
                        j = k - 1
                        continue
                if t.kind == PUNCT and t.key == "(" and j > 0 and lay.clause_of[j - 1] == clause and self._appositive(j):
                    # a negation reaches into an appositive parenthesis: "省掉了 μ（re-centering）"
                    scope = lay.part_of[j - 1]
                    outside = True
                    j -= 1
                    continue
                if t.kind == PUNCT and (t.key == ARROW or t.key in RELATIONS):
                    return  # "几乎不再变化 → representation collapse": each side of an arrow is its own claim
                if lay.clause_of[j] != clause:
                    # "not because X" / "不是因为 X": the negation before the connective denies X
                    if is_cause(toks, lay.clause_span[clause][0]):
                        # ... right before the connective, or with only "just"/"only" between ("not just because");
                        # "Post-LN doesn't need one because X" denies the need, not X.
                        for k in range(j, max(-1, j - 4), -1):
                            if is_negation(toks, k):
                                # a plain denial only: "Post-LN breaks because X" gives X as the cause of the break
                                if toks[k].key in _PLAIN_DENIALS and (all(
                                        toks[q].key in _CAUSE_ADVERBS for q in range(k + is_negation(toks, k), j + 1))
                                        or self._other_cause_follows(clause)):
                                    cues.add(k)
                                break
                    return
                if lay.part_of[j] != scope and toks[j + 1].kind == WORD and toks[j + 1].key in ("or", "nor") and not crossed_or:
                    # "not unbalanced or vanishing gradients": a negation reaches over the "or" of its own list
                    scope = lay.part_of[j]
                    crossed_or = True
                if t.kind == PUNCT and t.key == ":" and lay.sentence_of[j] == lay.sentence_of[start]:
                    # "RMSNorm drops two things: subtracting the mean and the bias": a denying verb right before
                    # the colon reaches the list it introduces
                    label = lay.block_label(j)
                    # (a cue of two words ends there too: "it leaves out two things:")
                    # ("free" there is what something costs, "it's nearly free: LLaMA 2 warms up for 2,000 steps", not
                    # a removal of the things listed after it)
                    neg = next((q for q in range(j - 1, max(-1, j - 5), -1)
                                if toks[q].kind in (WORD, CJK) and (n := is_negation(toks, q))
                                and (q >= j - 3 or toks[q].kind == WORD and n >= 2) and toks[q].key != "free"), -1)
                    # (a label's own removal verb too: "What's dropped: the mean subtraction and the bias")
                    # (only into a list of things: "What is lost: RMSNorm is not invariant to a shift" is a sentence of
                    # its own after the colon, with its own verb and negation)
                    # (or a pronoun that opens a clause: "with the variance step removed: it subtracts the mean")
                    sentence_after = any(toks[q].kind == WORD and (toks[q].key in _FINITE_VERBS or is_negation(toks, q))
                                         for q in range(j + 1, start)) or (
                        j + 1 < start and toks[j + 1].kind == WORD and toks[j + 1].key in _CLAUSE_PRONOUNS)
                    # (a plain "not" too when the verb it denies is an empty "do" whose object is what follows:
                    # "One thing it does not do: bound the residual stream")
                    empty_do = toks[j - 1].kind == WORD and toks[j - 1].key in _EMPTY_DO
                    if neg >= 0 and (toks[neg].key not in _PLAIN_DENIALS or empty_do) and not sentence_after and (
                            label is None or label[1] != j or _REMOVAL.at(toks, neg) or empty_do):
                        cues.add(neg)
                    return
                if lay.part_of[j] != scope:
                    k = self._before_aside_adverb(j)
                    if k < 0:
                        return
                    # "it is not, however, a bound on the stream": a negation reaches over a comma-bounded adverb
                    scope, j = lay.part_of[k], k
                    continue
                said = self._saying_ends_at(j) if j not in skip else -1
                if said >= 0:
                    # "That does not mean Pre-LN needs no warm-up", "这不等于 ...": the saying bounds the scope; a
                    # negation of it denies what it says.
                    neg = next((q for q in range(said - 1, max(-1, said - 4), -1) if is_negation(toks, q)), -1)
                    if neg >= 0:
                        cues.add(neg)
                        self.saying_negations.add(neg)
                    return
                if _SCOPE_STOP.ends_at(toks, j) >= 0 and j not in skip and not _adverb_then(toks, j):
                    removal = self._removal_before_and(j, start, end)
                    if removal >= 0:
                        # "RMSNorm drops the mean subtraction and the bias": both are dropped; but the claim's own
                        # removal verb affirms ("LN removes the radial component and the mean direction": killed)
                        if removal not in skip:
                            cues.add(removal)
                        return
                    k = j - 1
                    while k > 0 and j - k <= 2 and toks[k].kind == WORD and toks[k].key in _THAT_ADVERBS:
                        k -= 1  # "the problem isn't really that gradients vanish"
                    if t.kind == WORD and t.key == "that" and k >= 0 and toks[k].kind == WORD and (
                            toks[k].key in ("not", "never")) and not (is_negation(toks, k) == 0 and k + 1 < j):
                        # "..., not that they grow with depth", "it's not that X; it's Y"; but "explains not only
                        # that X but also why" affirms X ("not only" is no denial). Like a denied saying, it denies
                        # the whole that-clause once: "not that warm-up is useless" keeps "useless" as its own.
                        cues.add(k)
                        self.that_negations.add(k)
                        return
                    if t.kind == WORD and t.key == "that":
                        # "it does not mean that gradients vanish": a denied saying denies what it says
                        for k in range(j - 1, max(-1, j - 5), -1):
                            if toks[k].kind == WORD and (toks[k].key in _SAYING or toks[k].key in _TRUTH
                                                         or (k + 1 == j and self._saying_ends_at(k) == k)):
                                neg = next((q for q in range(k - 1, max(-1, k - 4), -1) if is_negation(toks, q)), -1)
                                if neg >= 0:
                                    cues.add(neg)
                                    self.saying_negations.add(neg)  # flips the whole claim once
                                break
                    return
                if t.kind == WORD and t.key in _EMBEDDED_QUESTION and j not in skip and any(
                        toks[k].kind == WORD and toks[k].key in _KNOWING for k in range(max(0, j - 2), j)):
                    return  # "Adam has no idea what the second moment is": the knowing is denied, not what it asks about
                if j in skip:
                    j -= 1
                    continue
                if self._new_subject_at(j, start):
                    return  # "it skips the mean it is about twice as fast": "skips" does not reach past "it is"
                cue_start = j if _is_no_mark(t) and j not in self.con_marks else -1
                if t.kind in (WORD, CJK):
                    s = NEGATION.ends_at(toks, j)
                    # "不稳定" negates nothing further ("训练不稳定是梯度消失导致的"), but it does deny 稳定 itself
                    if s >= 0 and (is_negation(toks, s) or (s + NEGATION.at(toks, s) == start and toks[s].kind == CJK
                                                             and not _inside_zh_word(toks, s))):
                        cue_start = s
                if cue_start >= 0 and toks[cue_start].key in _PREFIX_CUES and cue_start != start - 1:
                    cue_start = -1  # "un-" and "non-" negate the word they are glued to, nothing further
                if cue_start >= 0 and self._zh_modifier_denial(cue_start, start):
                    cue_start = -1  # "在方差还不准的前几千步把步长压小": the denial stays in the modifier of 前几千步
                if cue_start >= 0 and self._removal_has_own_predicate(cue_start, start):
                    cue_start = -1  # "Dropping the mean makes it cheaper": the removal is the subject, "cheaper" stands
                if cue_start >= 0 and _is_no_mark(toks[cue_start]) and cue_start + 1 < start and (
                        cue_start + 1 in cues):
                    cue_start = -1  # "✗ not vanishing": the cross marks the denial after it, it adds none
                if cue_start >= 0:
                    cues.add(cue_start)
                    if outside:
                        crossed.add(cue_start)
                    j = cue_start - 1
                    words += 1
                    continue
                need = self._need_for_at(j)
                if need >= 0 and toks[need - 1].key in _REDUCTION and start - j <= 4:
                    # "reduces the need for warm-up", "lessens its reliance on warm-up": less need, never the need
                    # itself; read like "needs warm-up less". Only for what the need is directly for ("the need for
                    # expensive tuning of Adam with warmup" is a need for tuning)
                    cues.add(need - 1)
                    if outside:
                        crossed.add(need - 1)
                    j = need - 2
                    words += 1
                    continue
                if need >= 0:
                    j = need - 1  # "removes the need for careful warm-up": "the need for" is the removal's object frame
                    continue
                if t.kind == WORD or t.kind == NUMBER:
                    words += 1
                elif t.kind == CJK:
                    words += 0.5
                if words > WINDOW:
                    return
                j -= 1

        def after() -> None:
            words = 0.0
            j = end
            tail = lay.part_of[end - 1] if end > start else part  # a term may span a comma ("Q、K")
            while j < len(toks):
                t = toks[j]
                if (t.kind == PUNCT and t.key == ")" and j + 1 < len(toks) and lay.clause_of[j + 1] == clause
                        and j > 0 and lay.part_of[j] != lay.part_of[j - 1]):  # an aside's bracket, not a call's
                    # "(gradient vanishing) are not the root cause": the word sits in an aside of the subject
                    tail = lay.part_of[j + 1]
                    j += 1
                    continue
                if lay.clause_of[j] != clause or lay.part_of[j] != tail:
                    crossed_row = self._crossed_label(start, end)
                    if crossed_row is not None:
                        cues.add(crossed_row)
                    return
                if t.kind == PUNCT and t.key == ":" and not self._short_value_after_label(j):
                    return
                if t.kind == PUNCT and t.key == ":" and self._cell_verdict(j) == "no":
                    cues.add(j + 1)  # "LN on the main path: no, only on the branch input"
                    return
                if j in skip:
                    j += 1
                    continue
                if t.kind == PUNCT and (t.key == ARROW or t.key in RELATIONS):
                    return
                if _is_no_mark(t):
                    if not self._verdict_on_value(j):
                        cues.add(j)
                    return
                if t.kind == PUNCT and t.key in TICKS:
                    return  # "stability ✓ / ceiling ✗": the word's own tick, and the cross after it is the next item's
                if _SCOPE_STOP.at(toks, j) and not (t.key == "also" and j + 1 < len(toks) and is_negation(toks, j + 1)) \
                        and not _adverb_then(toks, j):
                    return  # (but "warm-up is also no longer needed" goes on to its denial)
                if t.kind == WORD and self._negative_purpose(j):
                    return  # "needs warm-up to not fall apart": the "not" is the purpose's, not the claim's
                if t.kind == WORD and t.key in _SET_ASIDE_AFTER and j + 1 < len(toks) and toks[j + 1].key == _SET_ASIDE_AFTER[t.key]:
                    return  # "warm-up is essential rather than optional": what follows is the alternative set aside
                if t.kind == WORD:
                    raw = t.key if t.key == "not" else lay.text[t.start : t.end]
                    if ((raw in _EN_AFTER or raw in _EN_AFTER_PAIR) and is_negation(toks, j)
                            or (raw in _EN_AFTER_ONLY and not (raw != "exempt" and any(
                                toks[k].key in _KEPT_AS_IS for k in range(start, end))))
                            or (raw == "no" and j + 1 < len(toks) and toks[j + 1].key == "longer")
                            or (raw == "off" and self._switched(start))):
                        if not self._nothing_but(j):
                            cues.add(j)
                        return
                    words += 1
                elif t.kind == CJK:
                    if any(lay.text.startswith(w, t.start) for w in _ZH_PURPOSE_AFTER):
                        return  # "需要 warm-up 才不会发散", "以免训练崩掉": the denial is the purpose's, not the claim's
                    if is_negation(toks, j):
                        if j - 1 >= end and toks[j - 1].key in _LOCATIVES and toks[j].key in ("没", "无"):
                            return  # "主干上没有恒等通路": what is not there is what follows, not the place
                        if j - 1 >= end and toks[j - 1].key == "而":
                            return  # "罪魁是更新的幅度而不是梯度": "而不是"/"而非" denies what follows it only
                        if self._zh_modifier_after(j):
                            j += is_negation(toks, j)  # "warmup 已成为不可撼动的标准配置": the denial describes 配置
                            continue
                        cues.add(j)
                        # "路径没有被破坏", "不会被打断": a negated verb that itself denies (a break, a loss) says the
                        # word stands; the two cues cancel
                        k = j + is_negation(toks, j)
                        while k < len(toks) and k - j <= 4 and toks[k].kind == CJK and toks[k].key in _ZH_AUX_BEFORE_VERB:
                            k += 1
                        if toks[j].key in _VERB_NEGATIONS_ZH and k < len(toks) and k > j + 1 and is_negation(toks, k) and (
                                toks[k].key not in _VERB_NEGATIONS_ZH):
                            cues.add(k)
                        return  # the first denial after the word is the one about it ("不是 ... 训练不稳")
                    words += 0.5
                if words > WINDOW:
                    return
                j += 1

        before()
        if with_after:
            after()
        if any(toks[j].kind == WORD and toks[j].key == "from" for j in cues):
            # "from required to optional": what the change goes to is not said of the state it left
            cues = {j for j in cues if j < end or not any(toks[k].key == "to" for k in range(end, j))}
        if any(toks[j].key == "nor" for j in cues):
            # "can neither vanish nor explode": one denial spread over the pair, not two that cancel out
            cues = {j for j in cues if toks[j].key != "neither"}
        marks = {j for j in cues if _is_no_mark(toks[j])}
        if marks and len(cues - marks) % 2 == 1:
            # "(no centering) ✗", "not needed ✗": a cross marks as absent what the words already deny; it
            # confirms the denial, it does not undo it.
            cues -= marks
        if crossed and cues - crossed:
            # "梯度不平衡（梯度消失）不是根因": the aside's own denial wins over a negation of the word before it
            cues -= crossed
        absent = [j for j in cues if _ABSENCE.at(toks, j)]
        if absent:
            # "without warm-up, it diverges" / "it diverges without warm-up": a failure word in the same
            # clause, at most two comma parts away, turns the absence into a need ("no warm-up needed, forgiving
            # of high LR, stable at 100+ layers, and one failed run costs a fortune" lists; it needs nothing).
            a, b = lay.clause_span[clause]
            near = {lay.part_of[j] + d for j in absent for d in (-2, -1, 0, 1, 2)}
            for j in range(max(a, start - 25), min(b, end + 25)):
                if j in skip or j in cues or lay.part_of[j] not in near:
                    continue
                if FAILURE.at(toks, j) and not self._failure_of_own_clause(j, absent):
                    cues.add(j)
                    break
        return cues

    def _left_behind(self, j: int, end: int) -> bool:
        """Token j is the "from" of a change of need ("moved warm-up from 'required' to 'a knob you keep'"): a verb of
        change at most four tokens before it, a state of need right after it and a "to" after the claim's words in the
        same clause."""
        toks, lay = self.tokens, self.lay
        if not any(toks[k].kind == WORD and toks[k].key in _CHANGE_VERBS for k in range(max(0, j - 4), j)):
            return False
        # (a state of need, not a thing: "the field moved from Post-LN (BERT) to Pre-LN" is a sequence, both stand)
        first = next((k for k in range(j + 1, min(len(toks), j + 4))
                      if toks[k].kind != PUNCT and toks[k].key not in ("a", "an", "the")), None)
        if first is None or toks[first].kind != WORD or toks[first].key not in _NEED_STATES:
            return False
        clause = lay.clause_of[j]
        return any(toks[k].kind == WORD and toks[k].key == "to" and lay.clause_of[k] == clause
                   for k in range(end, min(len(toks), end + 4)))

    def _zh_modifier_denial(self, cue: int, start: int) -> bool:
        """A Chinese denial inside a 的-modifier ("还不准的前几千步") whose head noun stands between it and the word at
        `start`: it describes that head, not the word. (Not when the word is the head itself: "不需要的 warm-up".)"""
        toks = self.tokens
        if toks[cue].kind != CJK:
            return False
        de = next((k for k in range(cue + 1, min(cue + 1 + _MODIFIER_CHARS, start)) if toks[k].kind == CJK and toks[k].key == "的"), -1)
        return de >= 0 and start - de > _HEAD_REACH

    def _zh_modifier_after(self, cue: int) -> bool:
        """A Chinese denial after the word that sits in a 的-modifier of a head noun that follows ("Warmup 已成为不可撼动的
        标准配置", "warm-up 是不可省略的步骤"): it describes that head, not the word. Not a denied copula ("不是必需的步骤"),
        nor a 的 that ends the predicate ("warm-up 是不需要的。")."""
        toks = self.tokens
        n = is_negation(toks, cue)
        k = cue + n
        if toks[cue].kind != CJK or "是" in "".join(t.key for t in toks[cue:k]) or (k < len(toks) and toks[k].key == "是"):
            return False
        de = next((q for q in range(k, min(k + _MODIFIER_CHARS + 1, len(toks)))
                   if toks[q].kind == CJK and toks[q].key == "的"), -1)
        if de < 0 or any(toks[q].kind != CJK for q in range(k, de)) or de + 1 >= len(toks):
            return False
        return toks[de + 1].kind in (CJK, WORD)  # a head noun, not the stop that ends the predicate

    def _failure_of_own_clause(self, j: int, absent: list[int]) -> bool:
        """The failure word at j sits in another comma part after "where"/"whereas"/"while"/"which" ("with no warm-up,
        a setting where Post-LN diverged"): it tells what happened in a situation described there, not what the
        absence led to."""
        lay, toks = self.lay, self.tokens
        part = lay.part_of[j]
        if any(lay.part_of[a] == part for a in absent):
            return False
        k = j - 1
        while k >= 0 and lay.part_of[k] == part:
            if toks[k].kind == WORD and toks[k].key in _SITUATION_OPENERS:
                return True
            k -= 1
        return False

    def _saying_ends_at(self, j: int) -> int:
        """Where a verb of saying, showing or meaning that ends at token j starts ("mean", "showed", "意味着",
        "不等于"'s "等于"), or -1."""
        toks = self.tokens
        t = toks[j]
        if t.kind == WORD:
            raw = self.lay.text[t.start : t.end].lower()
            if raw in ("mean", "means") and self._mean_is_noun(j):
                return -1  # "Dropping the mean computation makes it cheaper": the statistic, not "does not mean"
            if raw in ("follow", "follows", "followed"):
                # "It does not follow that Pre-LN needs no warm-up at any learning rate": an inference, denied
                return j if j + 1 < len(toks) and toks[j + 1].key == "that" else -1
            return j if t.key in _SAYING or raw in _SAYING_FORMS else -1
        if t.kind == CJK:
            for w in _ZH_SAYING:
                k = j - len(w) + 1
                if k >= 0 and _spells(toks, k, w):
                    return k
        return -1

    def _mean_is_noun(self, j: int) -> bool:
        """"mean" at token j is the statistic: after a determiner, possessive or adjective ("the mean", "its mean",
        "the token's mean", "zero mean") or before a noun of computing ("mean subtraction", "mean computation")."""
        toks = self.tokens
        prev = toks[j - 1] if j > 0 else None
        nxt = toks[j + 1] if j + 1 < len(toks) else None
        if prev is not None and prev.kind == WORD and prev.key in _MEAN_BEFORE_NOUN:
            return True
        return nxt is not None and nxt.kind == WORD and nxt.key in _MEAN_NOUN_HEADS

    def _verdict_on_value(self, j: int) -> bool:
        """"no warm-up: 8.45 BLEU ✗": a cross right after a measured value (and maybe its unit) judges the result
        as bad; it does not deny that the value was measured."""
        toks = self.tokens
        k = j - 1
        if k >= 0 and toks[k].kind == WORD and k - 1 >= 0 and toks[k - 1].kind == NUMBER:
            k -= 1
        return k >= 0 and toks[k].kind == NUMBER

    def _switched(self, start: int) -> bool:
        """"turned warm-up off", "switch the final LN off": a verb of switching right before the word."""
        toks = self.tokens
        for k in range(start - 1, max(-1, start - 4), -1):
            if toks[k].kind != WORD:
                return False
            if self.lay.text[toks[k].start : toks[k].end].lower() in _SWITCH_VERBS:
                return True
        return False

    def _appositive(self, opening: int) -> bool:
        """A short parenthesis without a verb ("(re-centering)", "（均值）"), not a clause of its own."""
        words = 0.0
        for k in range(opening + 1, min(len(self.tokens), opening + 12)):
            t = self.tokens[k]
            if t.kind == PUNCT and t.key == ")":
                return True
            if is_function_token(t):
                return False
            words += 1 if t.kind in (WORD, NUMBER) else 0.5 if t.kind == CJK else 0
            if words > 3:
                return False
        return False

    def _with_no(self, j: int) -> bool:
        t = self.tokens[j]
        return t.kind == WORD and t.key == "no" and j > 0 and self.tokens[j - 1].key == "with"

    def _cell_verdict(self, colon: int) -> str | None:
        """"no" or "yes" when a bare verdict and a comma open the value after a label's colon ("LN on the main
        path: no, only on the branch input"), else None."""
        toks = self.tokens
        if not (colon + 2 < len(toks) and toks[colon + 1].key in _CELL_VERDICTS and toks[colon + 2].kind == PUNCT
                and toks[colon + 2].key == ","):
            return None
        return "yes" if toks[colon + 1].key in ("yes", "是") else "no"

    def _crossed_label(self, start: int, end: int) -> int | None:
        """The "not" of a table cell's bare cross when the term stands in the row's label among other items ("| stability,
        deep stacks | ✅ | ❌ |", read "post-ln stability, deep stacks∶ not."): the cross denies the whole label, not only
        the item next to it. None when the term is no label item or the cell is no bare cross."""
        label = self.lay.block_label(start)
        if label is None or not (label[0] <= start and end <= label[1]):
            return None
        toks, colon = self.tokens, label[1]
        if not (colon + 1 < len(toks) and self.lay.text[toks[colon].start : toks[colon].end] == TABLE_COLON
                and toks[colon + 1].kind == WORD and toks[colon + 1].key == "not"
                and self.lay.sentence_of[colon + 1] == self.lay.sentence_of[start]):
            return None
        nxt = toks[colon + 2] if colon + 2 < len(toks) else None
        if nxt is not None and self.lay.sentence_of[colon + 2] == self.lay.sentence_of[start] and nxt.kind != PUNCT:
            return None  # ("∶ not needed at moderate lr": a value of its own, read as written)
        return colon + 1

    def _short_value_after_label(self, colon: int) -> bool:
        """A label's colon followed by a short value ("needs warm-up: not required", a table cell): the
        value's negation applies to the label."""
        label = self.lay.block_label(colon)
        if label is None or label[1] != colon:
            return False
        if self._cell_verdict(colon):
            return True  # "LN on the main path: no, only on the branch input": the verdict answers the label
        words = 0.0
        j = colon + 1
        while j < len(self.tokens) and self.lay.sentence_of[j] == self.lay.sentence_of[colon]:
            if self.tokens[j].kind == PUNCT and self.tokens[j].key == "(":
                break  # "not (only the branch input)": the aside does not count
            if self.tokens[j].kind in (WORD, NUMBER):
                words += 1
            elif self.tokens[j].kind == CJK:
                words += 0.5
            j += 1
        # a value that opens with its verdict may say where it holds: "warm-up: optional at moderate LR"
        opens_denied = colon + 1 < len(self.tokens) and self.tokens[colon + 1].kind == WORD and bool(
            is_negation(self.tokens, colon + 1))
        return words <= 3 or (opens_denied and words <= 6)

    def affirmed(self, terms: tuple[tuple[int, int], ...], since: int = 0) -> tuple[bool, bool]:
        """Is a claim made of these term spans affirmed (True) or denied (False), and is that firm?

        A denial that rests only on absence ("without warm-up it reaches 8.45 BLEU", "不做 warm-up 只有...")
        says what happens without the thing, not that it is not needed: it is not firm, unless the clause
        also says it goes well ("trains fine without warm-up", "不用预热也能正常收敛").
        Cues before token `since` are not the claim's (the main clause around a relative clause that makes it).
        """
        skip = {i for a, b in terms for i in range(a, b)}
        cues: set[int] = set()
        denied = False
        saying_denied = False
        own_cues = {t: {j for j in c if j >= since} for t, c in self._own_cues(terms).items()}
        answered = self._cell_answers_around(terms)
        if answered:
            own_cues = {t: c - answered for t, c in own_cues.items()}
        saying = {t for t in terms if len(terms) > 1 and self._saying(*t)}
        said_by = {j for t in saying for j in own_cues[t]}
        # A saying verb among the claim's own words is judged above; one outside them ("does not mean X")
        # flips the claim once here.
        meant = {j for t, own in own_cues.items() if t not in saying for j in own} & (
            self.saying_negations | self.that_negations) - said_by
        said_by |= meant
        for t in terms:
            own = own_cues[t]
            if t in saying:
                # "They did not show Pre-LN is safe without warm-up": a denied saying verb denies what is said,
                # whatever that says on its own ("without" stays part of the claim).
                saying_denied = saying_denied != (len(own) % 2 == 1)
            else:
                # Each word of the claim is judged on its own cues (not those of the saying verb: "并不说明梯度
                # 消失" denies once); the claim is denied when any word is ("不减均值：不做中心化" denies twice,
                # it does not cancel out).
                denied = denied or len(own - said_by) % 2 == 1
            cues |= own
        denied = (denied != saying_denied) != bool(meant)
        # A reported or refuted claim means its opposite, unless the user already negated it
        # ("Post-LN's gradient does not grow (the common claim gets this backwards)").
        clause = self.lay.clause_of[terms[0][0]]
        # A refutation word inside the claim's own words ("这个 f 选得不对" as a rubric phrase) refutes nothing.
        refuted = (not cues and clause in self.refuted and not self.refute_cues.get(clause, set()) <= skip
                   and terms[-1 if clause in self.disputed else 0][0] >= self.refuted_from.get(clause, -1)
                   and terms[0][0] < self.refuted_until.get(clause, len(self.tokens)))
        affirmed = not denied and not refuted
        firm = True
        if not affirmed and cues and all(_CIRCUMSTANTIAL.at(self.tokens, j) or self._with_no(j) for j in cues):
            clause = self.lay.clause_of[terms[0][0]]
            a, b = self.lay.clause_span[clause]
            firm = any(self._success(j) for j in range(a, b))
        # "跟 Post-LN 依赖 warm-up 不是一回事": a denied sameness sets the claim apart from something else ("那和'LN 导致梯度消失'
        # 不是一回事" says that is no vanishing), it does not say the claim is false: never firm enough to charge.
        if not affirmed and any(self.lay.text.startswith(_ZH_NOT_THE_SAME, self.tokens[j].start) for j in cues):
            firm = False
        # "They did not show that Pre-LN is stable at any learning rate": what a denied saying verb denies is not
        # shown, which is not the writer asserting its opposite, so it is never firm enough to charge.
        if saying_denied or meant - self.that_negations:
            firm = False
        # A line led by a cross in a pros-and-cons list ("• ❌ Needs warmup phase") lists a drawback; the same cross
        # can also mark a thing as absent ("❌ LN on the main path"), so what it says is never firm enough to charge.
        # Likewise a line that ends with a cross where another line ends with a tick ("Pre: ... → identity highway ✅" /
        # "Post: ... → LN Jacobian on the main path every layer ❌").
        if self._con_lines and self.lay.line_of[terms[0][0]] in self._con_lines:
            firm = False
        if self.label_refuted and terms[0][0] >= self.label_refuted.get(self.lay.clause_of[terms[0][0]], len(self.tokens)):
            firm = False
        return affirmed, firm

    def _cell_answers_around(self, terms: tuple[tuple[int, int], ...]) -> set[int]:
        """The "not" of a table cell's cross ("final LN? | Post-LN | ❌ redundant |", read "final ln post-ln∶ not
        (redundant).") when some of the claim's words stand in the bracketed reason after it: the cross answers the
        column's question, and the reason is said on its own, so the claim made with it is not denied by the cross."""
        brackets, crosses = self._brackets_and_cell_crosses
        if not crosses:
            return set()
        out: set[int] = set()
        for a, _ in terms:
            i = bisect.bisect_left(brackets, a) - 1  # the nearest "(" before the word
            if i >= 0 and brackets[i] in crosses and self.lay.sentence_of[brackets[i]] == self.lay.sentence_of[a]:
                out.add(brackets[i] - 1)
        return out

    @cached_property
    def _brackets_and_cell_crosses(self) -> tuple[list[int], frozenset[int]]:
        """Every "(" token, in order, and those that open the reason after a table cell's cross ("∶ not (")."""
        toks, text = self.tokens, self.lay.text
        brackets = [k for k, t in enumerate(toks) if t.key == "("]
        crosses = frozenset(k for k in brackets if k >= 2 and toks[k - 1].key == "not"
                            and text[toks[k - 2].start : toks[k - 2].end] == TABLE_COLON)
        return brackets, crosses

    def _own_cues(self, terms: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], set[int]]:
        """Per term span, the negation cues that govern it (what `affirmed` weighs)."""
        skip = {i for a, b in terms for i in range(a, b)}
        last = max(terms)
        first = min(terms)[0]
        own_cues: dict[tuple[int, int], set[int]] = {}
        for a, b in terms:
            not_just = self._not_just(a)
            verb = self._removal_before_not_just(a) if not_just else -1
            own_cues[(a, b)] = {j for j in self.cues(a, b, skip, with_after=(a, b) == last)
                                if not (b <= j and self._reason_is_not(j, first)) and j != verb} | not_just
        return own_cues

    def denies_verb(self, terms: tuple[tuple[int, int], ...]) -> bool:
        """The claim made of these term spans is denied by a negated verb ("Pre-LN doesn't need warm-up", "needs no
        warm-up", "Pre-LN 不需要 warm-up", "可以不加 warm-up"), an odd number of times: not by a verb or preposition
        that means removal or absence ("can skip warm-up", "without warm-up"). An elliptical clause that echoes the
        verb ("..., but Post-LN does", "但 Post-LN 要加") echoes the verb without that negation."""
        toks = self.tokens
        found = 0
        for j in set().union(*self._own_cues(terms).values()):
            t = toks[j]
            if t.kind == WORD and t.key in _VERB_NEGATIONS:
                found += 1
            elif t.kind == CJK and (t.key in _VERB_NEGATIONS_ZH or (
                    t.key == "无" and j + 1 < len(toks) and toks[j + 1].key in ("需", "须"))):
                found += 1
        return found % 2 == 1

    def _before_aside_adverb(self, j: int) -> int:
        """Token j ends a comma part that holds nothing but an aside adverb (", however,", ", though,", ", in fact,"):
        the last token of the part before it, in the same clause; -1 otherwise."""
        toks, lay = self.tokens, self.lay
        part, k = lay.part_of[j], j
        words = []
        while k >= 0 and lay.part_of[k] == part:
            if toks[k].kind == WORD:
                words.append(toks[k].key)
            elif toks[k].kind != PUNCT:
                return -1
            if len(words) > 2 or j - k > 6:
                return -1  # (a part longer than any aside adverb: stop at once, so the walk stays short)
            k -= 1
        if k < 0 or lay.clause_of[k] != lay.clause_of[j] or tuple(reversed(words)) not in _ASIDE_ADVERBS:
            return -1
        return k

    def _success(self, j: int) -> bool:
        """Token j says that something went well ("trains fine", "reaches the same BLEU"); not the spoken filler
        "..., well, ..." nor a poor result ("only reached 8.45 BLEU")."""
        toks = self.tokens
        if not _SUCCESS.at(toks, j):
            return False
        before = toks[j - 1] if j > 0 else None
        after = toks[j + 1] if j + 1 < len(toks) else None
        if toks[j].key == "well" and (before is None or before.kind == PUNCT) and (after is None or after.kind == PUNCT):
            return False
        # ("just works" is a success; "only reached" / "barely matches" is a result that fell short)
        return not (toks[j].kind == WORD and toks[j].key.startswith(("reach", "match")) and before is not None
                    and before.key in ("only", "just", "barely"))

    @cached_property
    def _con_lines(self) -> frozenset[int]:
        """The lines a cross marks as a drawback: led by one (`con_marks`), or closed by one where another line is
        closed by a tick."""
        _, trailing = self._line_end_marks
        closed = trailing[NO_MARK] if trailing[YES_MARK] else []
        return frozenset(self.lay.line_of[j] for j in (*self.con_marks, *closed))

    def _reason_is_not(self, j: int, first: int) -> bool:
        """"The reason Post-LN needs warm-up is not that its gradients vanish": the "not" after the claim denies the
        reason offered ("is not that ...", "isn't because ..."), while the claim inside "the reason ..." is taken
        as given."""
        toks = self.tokens
        if not (j > first and toks[j].kind == WORD and toks[j].key in ("not", "n't", "isn't")):
            return False
        if j + 1 >= len(toks) or toks[j + 1].key not in ("that", "because", "just", "simply", "only", "mainly", "due"):
            return False
        clause = self.lay.clause_of[first]
        a = self.lay.clause_span[clause][0]
        return any(toks[k].kind == WORD and toks[k].key in ("reason", "why") for k in range(a, first))

    def _not_just(self, a: int) -> set[int]:
        """A claim word that is itself a restriction ("just pre-norm", "只在输入") right after "not" ("is not just
        pre-norm", "不只在输入"): the "not" denies the restriction, though "not just" alone denies nothing."""
        toks = self.tokens
        if a <= 0 or toks[a].key not in _RESTRICTIONS:
            return set()
        prev = toks[a - 1]
        return {a - 1} if prev.key in ("not", "不", "并不") and prev.kind == toks[a].kind else set()

    def _removal_before_not_just(self, a: int) -> int:
        """The removal verb right before a denied restriction ("removes not only the radial direction but also ..."):
        the verb governs both halves of "not only ... but also", so it does not also deny the restricted words; -1
        when there is none."""
        j = a - 2
        return j if j >= 0 and _REMOVAL.at(self.tokens, j) else -1

    def _nothing_but(self, j: int) -> bool:
        """The denial at j is the first half of "cannot be anything but X" / "is not other than X": the two
        negatives affirm X ("with PyTorch's default eps of 1e-6 the gradient cannot be anything but tiny")."""
        toks = self.tokens
        for k in range(j + 1, min(len(toks) - 1, j + 4)):
            if toks[k].kind != WORD:
                return False
            if toks[k].key in _ANYTHING_OR_OTHER and toks[k + 1].kind == WORD and toks[k + 1].key in ("but", "than"):
                return True
        return False

    def _negative_purpose(self, j: int) -> bool:
        """Token j opens an infinitive of purpose with a negation ("to not fall apart", "not to diverge", "so as not
        to", "in order not to"): what it negates is the purpose's own verb."""
        toks = self.tokens

        def word(k: int) -> str:
            return toks[k].key if 0 <= k < len(toks) and toks[k].kind == WORD else ""

        if word(j) == "to" and word(j + 1) in ("not", "never"):
            return True
        return word(j) in ("not", "never") and word(j + 1) == "to" and bool(word(j + 2))

    def _saying(self, a: int, b: int) -> bool:
        """The term is a verb of showing or saying ("showed", "proves", "证明", "表明")."""
        toks = self.tokens
        if b - a == 1 and toks[a].kind == WORD:
            return toks[a].key in _SAYING or self.lay.text[toks[a].start : toks[a].end].lower() in _SAYING_FORMS
        return "".join(t.key for t in toks[a:b] if t.kind == CJK) in _ZH_SAYING

    # -- refutation -----------------------------------------------------------------------------------
    def _labelled_refutation(self, a: int, i: int, n: int) -> int | None:
        """The first token of what a refutation word leads into as a label ("Myth: X", "A common misconception: X",
        "误区：X"): the word (after at most three words such as "a common") is followed by a colon."""
        toks, lay = self.tokens, self.lay
        colon = i + n
        if colon + 1 >= len(toks) or toks[colon].kind != PUNCT or toks[colon].key not in (":", "："):
            return None
        words = [t for t in toks[a:i] if t.kind in (WORD, CJK)]
        if len(words) > 3:
            return None
        if words and words[0].key in _ANAPHORA:
            return None  # "That is wrong: each branch is bounded, not the sum": a verdict on what came before
        return colon + 1 if lay.sentence_of[colon + 1] == lay.sentence_of[i] else None

    def _problem_addressed(self, i: int) -> bool:
        """The refutation word at token i is the object of a verb of fixing a few words before it, in its comma part
        ("resolve this training pitfall", "avoid the bug", "解决这个误区"): a problem being dealt with."""
        toks, lay = self.tokens, self.lay
        part = lay.part_of[i]
        return any(lay.part_of[j] == part and ((toks[j].kind == WORD and toks[j].key in _FIX_VERBS)
                                               or (toks[j].kind == CJK and _FIX_VERBS_ZH.ends_at(toks, j) >= 0))
                   for j in range(max(0, i - 4), i))

    def _refuted_clauses(self) -> set[int]:
        """Clauses whose claim is reported and refuted ("people say X; that is wrong", "X 这个说法是错的").

        When the refuting clause starts with "that"/"这", it refutes the clause before it.
        """
        toks, lay = self.tokens, self.lay
        out: set[int] = set()
        i = 0
        starters = _REFUTE.starters
        while i < len(toks):
            if toks[i].key not in starters:
                i += 1
                continue
            n = _REFUTE.at(toks, i)
            if n and toks[i].key == "false" and i > 0 and toks[i - 1].key == "=":
                n = 0  # "norm_first=False": a value in code, not a verdict
            if n and self._problem_addressed(i):
                n = 0  # "To resolve this training pitfall, we propose ...": a problem being fixed, not a verdict
            if (n and toks[i].key == "wrong" and i >= 2 and toks[i - 1].key in ("that", "it", "this")
                    and toks[i - 2].key in _GET_WRONG):
                # "beta2 is 0.98, people get that wrong": others err about what was said, no verdict on it ("what
                # people get wrong is X" still presents X as the error)
                n = 0
            if n and toks[i].key == "wrong" and i >= 1 and toks[i - 1].key in _GO_WRONG:
                n = 0  # "What goes wrong", "training went wrong": a failure described, no verdict on a claim
            not_what = n > 0 and toks[i].key == "not" and i + 1 < len(toks) and toks[i + 1].key == "what"
            if not_what:
                # "That is not what the theorem says" refutes what came before; "re-centering isn't what makes LN
                # work" only denies its own claim
                lead = lay.clause_span[lay.clause_of[i]][0]
                while lead < i and (toks[lead].kind == PUNCT or toks[lead].key in _LEAD_CONNECTIVES):
                    lead += 1
                if toks[lead].key not in _ANAPHORA:
                    n = 0
            if not n:
                i += 1
                continue
            clause = lay.clause_of[i]
            a = lay.clause_span[clause][0]
            negated = any(is_negation(toks, j) for j in range(max(a, i - 2), i))
            first = a
            while first < len(toks) and (toks[first].kind == PUNCT or toks[first].key in _LEAD_CONNECTIVES):
                first += 1
            counterfactual = _COUNTERFACTUAL.at(toks, a) > 0
            if not negated and not counterfactual and not self._refutes_own_aside(i, clause) and not self._contrary_before(i):
                if clause not in out:
                    start = self._named_content(a, i)
                    if start is not None:
                        self.refuted_from[clause] = start  # "X, and the myth that Y is wrong": Y only
                out.add(clause)
                self.refute_cues.setdefault(clause, set()).update(range(i, i + n))
                truth = next((j for j in range(i + n, lay.clause_span[clause][1]) if _ACTUALLY.at(toks, j)), None)
                if truth is None and not_what:
                    truth = i  # "That isn't what the theorem says: Post-LN's bound has no L in it" (what follows is the truth)
                if truth is not None:
                    self.refuted_until[clause] = truth
                named = self._named_content(a, i) is not None  # "the myth that X is wrong" refutes X, not before
                # the anaphor opens the clause ("that is wrong") or stands right before the verdict ("但他们说其实那不是
                # 主要原因", "but they say that's not true")
                points_back = (first < len(toks) and toks[first].key in _ANAPHORA) or self._anaphor_judged(a, i)
                end = lay.clause_span[clause][1]
                # (a verdict said of what stands before it, "X is wrong:", not one naming what follows, "常见误解：X")
                verdict_on_before = (i + n < end and toks[i + n].kind == PUNCT and toks[i + n].key in (":", "：")
                                     and first < i and toks[i - 1].key in _VERDICT_COPULAS)
                if (points_back or verdict_on_before) and not named and truth is None and i + n < end and (
                        toks[i + n].kind == PUNCT and toks[i + n].key in (":", "：", ",", "，")) and not any(
                        _REPORT.at(toks, j) for j in range(i + n, min(end, i + n + 8))):
                    # "That is wrong: it bounds what each layer adds": after a verdict on what came before, the
                    # clause goes on with the writer's own account (not "that's the myth, people say X": X is it);
                    # so too after a verdict on a thing named before it and a colon ("The depth dependence is wrong:
                    # the Post-LN bound contains no L at all")
                    self.refuted_until[clause] = i + n
                if points_back and clause > 0 and not named:
                    prev = lay.clause_span[clause - 1][0]
                    # "People say X; that is wrong." / "People say X. That is wrong." (same paragraph)
                    if lay.sentence_of[first] == lay.sentence_of[prev] or (
                            lay.clause_span[clause][0] == lay.sentence_span[lay.sentence_of[a]][0]
                            and lay.block_of[prev] == lay.block_of[a]):
                        out.add(clause - 1)
                        self.refute_cues.setdefault(clause - 1, set()).add(-1)  # refuted from outside
                after = self._labelled_refutation(a, i, n)
                if after is not None:
                    # "Myth: Pre-LN needs no warm-up at any learning rate": what the label leads into is the myth,
                    # whatever its own negations say, so it is never the writer's claim to charge
                    self.label_refuted[lay.clause_of[after]] = after
            i += n
        for i in range(len(toks)):
            n = _DISPUTE.at(toks, i)
            if not n:
                continue
            start = i + n
            if toks[i].kind == WORD:
                if start >= len(toks) or toks[start].key != "that":
                    continue  # "DeepNet rejects Post-LN's ..." names no claim; only "disputes that X" does
                start += 1
            clause = lay.clause_of[i]
            a = lay.clause_span[clause][0]
            if clause in out or start >= len(toks) or lay.clause_of[start] != clause:
                continue
            if any(is_negation(toks, j) for j in range(max(a, i - 3), i)):
                continue  # "nobody disputes that X", "I don't doubt that X" affirm X
            out.add(clause)
            self.refuted_from[clause] = start
            self.disputed.add(clause)
            self.refute_cues.setdefault(clause, set()).update(range(i, start))
        # A sentence that is only "No." / "Wrong." / "不对。" refutes the sentence before it in its paragraph:
        # 'The folklore is "Post-LN gradients explode with depth". No.'
        for sent, (a, b) in enumerate(lay.sentence_span):
            words = [t for t in toks[a:b] if t.kind in (WORD, CJK)]
            said = "".join(t.key for t in words) if words and words[0].kind == CJK else " ".join(t.key for t in words)
            if sent == 0 or said not in _BARE_REFUTATIONS:
                continue
            pa, pb = lay.sentence_span[sent - 1]
            if lay.block_of[pa] != lay.block_of[a]:
                continue
            for clause in {lay.clause_of[k] for k in range(pa, pb)}:
                out.add(clause)
                self.refute_cues.setdefault(clause, set()).add(-1)  # refuted from outside
        # "Is it a contradiction? No, I don't think so.": a yes/no question answered "no" is denied.
        for sent, yes in self.answered.items():
            if not yes:
                pa, pb = lay.sentence_span[sent]
                for clause in {lay.clause_of[k] for k in range(pa, pb)}:
                    out.add(clause)
                    self.refute_cues.setdefault(clause, set()).add(-1)  # refuted from outside
        return out

    def _named_content(self, a: int, i: int) -> int | None:
        """The start of "the myth / claim / idea that ..." between the clause start a and the refutation at i
        (or at i itself, "the myth that ..."), when there is one: what is refuted starts there."""
        toks = self.tokens
        for j in range(a, min(i + 1, len(toks) - 1)):
            if toks[j].kind == WORD and toks[j].key in _CONTENT_NOUNS and toks[j + 1].key == "that" and j > a:
                return j
        return None

    def _answered_questions(self) -> dict[int, bool]:
        """Yes/no questions answered by the next sentence of their paragraph (or, for a question standing alone
        as a heading, of the next paragraph) with a bare "No" / "Yes" (then maybe more): {question sentence:
        answered yes}. The question is then the writer's claim."""
        toks, lay = self.tokens, self.lay
        out: dict[int, bool] = {}
        for sent in range(len(lay.sentence_span) - 1):
            if not lay.sentence_question[sent]:
                continue
            qa, qb = lay.sentence_span[sent]
            first = next((k for k in range(qa, qb) if toks[k].kind in (WORD, CJK)), None)
            if first is None:
                continue
            # "Is it ...?", "...吗？", or a question of a word or three ("Contradiction?", "矛盾？")
            polar = (toks[first].kind == WORD and toks[first].key in _YES_NO_OPENERS) or any(
                toks[k].kind == CJK and toks[k].key in "吗嘛" for k in range(max(qa, qb - 3), qb)) or sum(
                1 for k in range(qa, qb) if toks[k].kind == WORD) + sum(
                1 for k in range(qa, qb) if toks[k].kind == CJK) / 2 <= 3
            a, b = lay.sentence_span[sent + 1]
            # (a question standing alone as a heading, "**Contradiction?**", is answered by the next paragraph; a
            # closing "**" is no sentence of its own)
            nxt = sent + 1
            while nxt + 1 < len(lay.sentence_span) and all(
                    t.kind == PUNCT and t.key in ("*", "_") for t in toks[slice(*lay.sentence_span[nxt])]):
                nxt += 1
            alone = (sent == 0 or lay.block_of[lay.sentence_span[sent - 1][0]] != lay.block_of[qa]) and (
                lay.block_of[lay.sentence_span[nxt][0]] == lay.block_of[qa] + 1)
            if alone:
                a, b = lay.sentence_span[nxt]
            if not polar or (lay.block_of[a] != lay.block_of[qa] and not alone):
                continue
            # "Contradiction? ✗ (...)": a mark right after the question answers it
            if toks[a].kind == PUNCT and toks[a].key in _CROSS_MARKS | TICKS:
                out[sent] = toks[a].key in TICKS
                continue
            # "Do they contradict each other? Not really: ...", "Not at all."
            if (b - a >= 3 and toks[a].key == "not" and toks[a + 1].key in ("realli", "really", "at")
                    and (toks[a + 1].key != "at" or toks[a + 2].key == "all")):
                nxt = a + 3 if toks[a + 1].key == "at" else a + 2
                if nxt >= b or (toks[nxt].kind == PUNCT and toks[nxt].key in ",.!;:") or _DASH_AFTER.match(
                        lay.text, toks[nxt - 1].end):
                    out[sent] = False
                    continue
            words = [k for k in range(a, b) if toks[k].kind in (WORD, CJK)]
            if not words:
                continue
            k = words[0]
            # "In my view, no; ...", "Short answer: yes.": a lead-in of a few words before the bare answer
            lead = next((j for j in range(a, min(b, a + 6)) if toks[j].kind == PUNCT and toks[j].key in (",", ":")), None)
            if (lead is not None and lead + 1 < b and toks[lead + 1].kind == WORD and toks[lead + 1].key in _BARE_ANSWERS
                    and toks[k].kind == WORD and toks[k].key not in _BARE_ANSWERS):
                k = lead + 1
            after = k + 1
            if toks[k].kind == WORD and toks[k].key in _BARE_ANSWERS:
                dash = after < len(toks) and _DASH_AFTER.match(lay.text, toks[k].end) is not None
                if after < b and not (toks[after].kind == PUNCT and toks[after].key in ",.!;:") and not dash:
                    continue  # "No warm-up is needed": a sentence of its own, not an answer
                out[sent] = toks[k].key.startswith("y")
            elif toks[k].kind == CJK and len(words) <= 3:
                said = "".join(toks[j].key for j in words)
                if said in _ZH_ANSWER_NO:
                    out[sent] = False
                elif said in _ZH_ANSWER_YES:
                    out[sent] = True
        return out

    def _refutes_own_aside(self, i: int, clause: int) -> bool:
        """The refutation sits in a parenthesis that says something of its own before it ("large (not growing
        with depth, people get that wrong, but large)"): it corrects the aside's words, not the sentence
        around it. A bare label ("(a common misconception)") still refutes its host."""
        toks, lay = self.tokens, self.lay
        a, b = lay.clause_span[clause]
        opening = None
        for j in range(i - 1, a - 1, -1):
            if toks[j].kind == PUNCT and toks[j].key == ")":
                return False
            if toks[j].kind == PUNCT and toks[j].key == "(":
                opening = j
                break
        if opening is None:
            return False
        words = sum(1 if toks[j].kind in (WORD, NUMBER) else 0.5 if toks[j].kind == CJK else 0
                    for j in range(opening + 1, i))
        return words >= 4

    # -- modality -------------------------------------------------------------------------------------
    def _assume_verb(self, j: int) -> bool:
        """"assume"/"assumes"/"assumed" as a finite verb ("people assume X", "the theorem assumes X"): a view or a premise
        reported, not the condition "assuming X"."""
        t = self.tokens[j]
        if t.kind != WORD or t.key != _ASSUME:
            return False
        return not self.lay.text[t.start : t.end].lower().startswith("assuming")

    def _contrary_before(self, j: int) -> bool:
        """The report or refutation cue at j is what the writer sets their claim against ("Contrary to popular belief",
        "contrary to a common myth", "the reverse of what people assume: X"): X is the writer's own."""
        toks = self.tokens
        for k in range(j - 1, max(-1, j - 5), -1):
            if toks[k].kind == PUNCT:
                break
            if _CONTRARY.at(toks, k):
                return True
        return j >= 3 and bool(_REVERSE_OF.at(toks, j - 3))

    def _moods(self) -> list[list[tuple[int, str]]]:
        """The mood cues of every clause (`_mood_cues`), found on first use."""
        if self._clause_cues is None:
            self._clause_cues = self._mood_cues()
        return self._clause_cues

    def framed_before(self, start: int) -> bool:
        """A framing cue opens the claim's clause before it ("The question is essentially: why does Post-LN need ..."):
        what follows restates the question, it does not presuppose its answer."""
        return any(mood == "framing" and j < start for j, mood in self._moods()[self.lay.clause_of[start]])

    def qualifier(self, start: int, end: int, own: AbstractSet[int] = frozenset()) -> str | None:
        """Why a claim spanning [start, end) is not a plain assertion ("hedge", "condition", "question",
        "framing", "purpose", "report"), or None when it is one. Cues among the claim's own words (`own`: "Mix-LN puts
        Post-LN in the early layers", a rubric phrase) do not qualify it. (A refuted claim is a plain denial:
        see `affirmed`.)"""
        lay = self.lay
        sent = lay.sentence_of[start]
        if lay.sentence_question[sent] and sent not in self.answered and max(start, end - 1) >= lay.question_from[sent]:
            return "question"
        part = lay.part_of[max(start, end - 1)]
        for j, mood in self._moods()[lay.clause_of[start]]:
            # A condition qualifies its whole clause; a hedge, purpose or report only its own comma part and
            # those after it ("α 小于 1，用来削弱残差通路": the purpose is not the claim before it).
            if j in own or not (mood == "condition" or lay.part_of[j] <= part or j < start):
                continue
            if mood == "purpose" and j >= end:
                continue  # "GLM-130B uses Sandwich-LN so that training stays stable": the purpose is what follows the cue
            if mood == "purpose" and lay.part_of[j] < part and self._opens_clause(j):
                continue  # "To fix it, Admin puts ω on the branch": a fronted purpose covers its own part only
            if mood == "framing" and j >= end:
                continue  # "the representation collapse ResiDual talks about": what is talked about comes after the cue
            if mood in ("can", "hedge") and j < start and self._verb_joined_between(j, start):
                continue  # "Pre-LN can be trained without warm-up and ends up better": "can" is the first verb's
            if mood == "condition" and j >= end and self._new_predication_between(end, j):
                continue  # "X grows with depth, which is why deep Post-LN blows up unless ...": the condition is the later part's
            if mood == "condition" and start < j < end and self.tokens[j].key == "时":
                continue  # "残差流很大时，LN 会放大梯度": the claim's own words make the premise; it is part of the claim
            if mood == "condition" and j < start and self._conclusion_between(j, start):
                continue  # "at initialisation the gradient is well-behaved, so Pre-LN needs no warm-up": the "so" part is concluded
            return mood
        return None

    def _opens_clause(self, j: int) -> bool:
        """Token j is the first word of its clause (markup and punctuation before it aside)."""
        a = self.lay.clause_span[self.lay.clause_of[j]][0]
        return all(self.tokens[k].kind == PUNCT for k in range(a, j))

    def _conclusion_between(self, cue: int, start: int) -> bool:
        """A later comma part between the condition at `cue` and the claim at `start` opens with "so" / "hence" /
        "所以" / "that's why": what follows is the writer's conclusion, no longer under the condition."""
        lay, toks = self.lay, self.tokens
        for k in range(cue + 1, start + 1):
            if lay.part_of[k] <= lay.part_of[cue] or lay.part_of[k - 1] == lay.part_of[k]:
                continue
            if is_consequence(toks, k):
                return True
            q = k
            while q < start and toks[q].kind == PUNCT:
                q += 1  # (the comma that opens the part: ", that's why ...")
            if _THATS_WHY.at(toks, q) > 0:
                return True
        return False

    def _removal_has_own_predicate(self, cue: int, start: int) -> bool:
        """The removal word at `cue` heads a phrase that is the subject of a predicate standing before the term at
        `start` ("Dropping the mean computation makes RMSNorm cheaper", "去掉均值计算更便宜"): the removal reaches its
        object, not what is said of the removal."""
        toks = self.tokens
        t = toks[cue]
        if t.kind == WORD:
            if not self.lay.text[t.start : t.end].lower().endswith("ing") or not _REMOVAL.at(toks, cue):
                return False  # a gerund only: "it drops the mean and is cheaper" is another verb's business
            return any(toks[k].kind == WORD and self.lay.text[toks[k].start : toks[k].end].lower() in _PREDICATE_VERBS
                       for k in range(cue + 2, start))
        if t.kind == CJK and _REMOVAL.at(toks, cue):
            # a comparative or a verb of result after the removal's object starts what is said of the removal
            # ("(RMSNorm) 去掉均值计算更便宜", "去掉 warmup 会发散")
            return any(toks[k].kind == CJK and toks[k].key in _ZH_RESULT_WORDS for k in range(cue + 3, start))
        return False

    def _need_for_at(self, j: int) -> int:
        """Token j ends "the need for" / "any need for" / "the necessity of" / "the dependence on" after a removal
        or reduction word (these frame what is removed and count as no words): the index where the phrase
        starts, or -1."""
        toks = self.tokens
        if toks[j].kind != WORD or toks[j].key not in ("for", "of", "on") or j < 2:
            return -1
        k = j - 1
        nouns = _RELIANCE_NOUNS if toks[j].key == "on" else _NEED_NOUNS
        if toks[k].kind != WORD or toks[k].key not in nouns:
            return -1
        if toks[k - 1].kind == WORD and toks[k - 1].key in ("the", "any", "a", "its", "their", "our"):
            k -= 1
        return k if k > 0 and toks[k - 1].kind == WORD and (
            NEGATION.ends_at(toks, k - 1) >= 0 or toks[k - 1].key in _REDUCTION) else -1

    def _new_subject_at(self, j: int, start: int) -> bool:
        """Token j is a pronoun with a finite verb after it that opens a new predication before the term at
        `start`, right after a noun phrase ("Because it skips the mean it is twice as fast", "without warm-up it
        diverges"), not after a verb of saying or thinking ("I don't think it is stable") or a connective."""
        toks, text = self.tokens, self.lay.text
        t = toks[j]
        if t.kind != WORD or t.key not in _SUBJECT_PRONOUNS or j == 0 or j + 1 >= start:
            return False
        verb = toks[j + 1]
        if verb.kind != WORD or text[verb.start : verb.end].lower() not in _PREDICATE_VERBS:
            return False
        prev = toks[j - 1]
        if prev.kind != WORD or prev.key in _NOT_A_NOUN_END:
            return False
        noun = j >= 2 and toks[j - 2].kind == WORD and toks[j - 2].key in _DETERMINERS  # "the mean", "a show"
        return noun or (prev.key not in _SAYING and text[prev.start : prev.end].lower() not in _SAYING_FORMS)

    def _verb_joined_between(self, j: int, start: int) -> bool:
        """An "and" between j and start followed by a verb in the present tense ("and ends", "and reaches", "and
        gives"): a second predicate, which a modal before the first does not reach."""
        toks, text = self.tokens, self.lay.text
        for k in range(j + 1, min(start, j + 40) - 1):
            if toks[k].kind == WORD and toks[k].key == "and" and toks[k + 1].kind == WORD:
                if text[toks[k + 1].start : toks[k + 1].end].lower() in _FINITE_VERBS:
                    return True
        return False

    def _once_adverb(self, j: int) -> bool:
        """"once" saying how often ("computed once", "only once", "once again", "once per run", "once."), not
        "once X happens"."""
        toks = self.tokens
        nxt = toks[j + 1] if j + 1 < len(toks) else None
        prev = toks[j - 1] if j > 0 else None
        if nxt is None or nxt.kind == PUNCT or nxt.key in ("again", "and", "per", "more", "at", "or"):
            return True
        return prev is not None and prev.kind == WORD and (prev.key in ("only", "just", "exactly", "computed", "comput",
                                                                          "done", "set", "run", "applied", "measured")
                                                           or self.lay.text[prev.start : prev.end].endswith("ed"))

    def _new_predication_between(self, end: int, j: int) -> bool:
        """A comma part between the claim and token j opens a predication of its own ("which is why", "so")."""
        toks, lay = self.tokens, self.lay
        for k in range(end, min(j, end + 120)):  # bounded: a condition far down a long clause is read as before
            if lay.part_of[k] != lay.part_of[k - 1] and toks[k].kind in (WORD, CJK) and toks[k].key in _NEW_PREDICATION:
                return True
            if toks[k].kind == PUNCT and toks[k].key == "," and k + 1 < j and toks[k + 1].kind in (WORD, CJK) and (
                    toks[k + 1].key in _NEW_PREDICATION):
                return True
        return False

    def _mood_cues(self) -> list[list[tuple[int, str]]]:
        """Per clause, the tokens that qualify it and how, in one pass over the tokens.

        A condition anywhere earlier in the sentence ("If the learning rate is small, ...") qualifies the
        clauses after it; hedges, purposes, reports and scopes qualify their own clause.
        """
        toks, lay = self.tokens, self.lay
        out: list[list[tuple[int, str]]] = [[] for _ in lay.clause_span]
        carried: tuple[int, list[tuple[int, str]]] = (-1, [])
        reported: tuple[int, int] = (-1, -1)  # (sentence, cue) of the last clause that reports a view
        for clause, (a, b) in enumerate(lay.clause_span):
            if b <= a:
                continue
            sent = lay.sentence_of[a]
            found: list[tuple[int, str]] = list(carried[1]) if carried[0] == sent else []
            if reported[0] == sent and is_cause(toks, a):
                # "People say Post-LN fails because its gradients explode": the reason is part of what is reported
                found.append((reported[1], "report"))
            for j in range(a, b):
                if toks[j].key not in _MOOD_STARTERS:
                    continue  # (no cue below starts here: most tokens)
                if _CONDITION.at(toks, j) and not self._assume_verb(j):
                    t = toks[j]
                    if t.kind == WORD and t.key == "once" and self._once_adverb(j):
                        continue  # "computed once and kept fixed", "once again": how often, not a condition
                    if t.kind == WORD and t.key == "if" and j + 1 < b and toks[j + 1].key == _ANYTHING:
                        continue  # "If anything, X": a discourse idiom that strengthens X, not a condition
                    if self._no_matter(j):
                        continue  # "X at every layer, no matter how deep": X holds in every case, it is not supposed
                    if t.kind == WORD and t.key == "why" and self._consequence_why(j):
                        continue  # "which is why X", "that's precisely why X": a consequence the writer asserts
                    if t.kind == WORD and t.key in ("why", "how") and (
                            (j + 1 < len(toks) and toks[j + 1].key == ":") or self._opens_a_titled_line(j)):
                        continue  # "Why: X", "Why Post-LN is still studied: X": a label over the answer, which is asserted
                    if t.kind == WORD and t.key in ("given", "provided") and self._participle(j):
                        continue  # "the reason given was X", "the bound is given by": a participle, not "given that"
                    if self._procedure(j, b):
                        continue  # "If you compute the Jacobian instead, Post-LN stays ...": how, not under what

                    found.append((j, "condition"))
                    if not _INDIRECT_QUESTION.at(toks, j):
                        # an indirect question ("Xiong bound how big it is: ...") covers its own clause only; the
                        # clause after it answers it
                        carried = (sent, carried[1] + [(j, "condition")] if carried[0] == sent else [(j, "condition")])
                elif (n := _FRAMING.at(toks, j)) and not self._names_a_subject(j, n):
                    found.append((j, "framing"))
                elif _PURPOSE.at(toks, j) and not (toks[j].key == "so" and j + 2 < len(toks) and toks[j + 2].key != "to"):
                    found.append((j, "purpose"))  # "so as to X" is a purpose, "so as you stack blocks, X" is not
                elif _REPORT.at(toks, j) and not self._contrary_before(j) and not self._cites_a_source(j) and (
                        not self._inside_other_word(j)):
                    found.append((j, "report"))
                elif self._received_view(j):
                    found.append((j, "report"))  # "The popular story is that X": X is what others say
                elif (n := _HEDGE.at(toks, j)) and not self._negated_modal(j) and not self._enabling(j) and (
                        not self._no_matter(j)):  # "no matter how many layers": every number of them
                    # (at its last word: "by default" is no hedge where "default" is one of the claim's own words,
                    # "PyTorch uses eps = 1e-6 by default")
                    found.append((j + n - 1, "can" if self._capability(j) else "hedge"))
                elif toks[j].kind == CJK and toks[j].key == "在" and any(
                        toks[k].key == "下" for k in range(j + 2, min(b, j + 10))) and not any(
                        toks[k].key in "任所各" for k in range(j + 1, min(b, j + 3))):  # 在任意学习率下 quantifies
                    found.append((j, "condition"))  # "在很小的学习率下": under a condition
                elif toks[j].kind == CJK and toks[j].key == "当" and self._when_clause(j, b):
                    found.append((j, "condition"))  # "当均值为 0 时": when
                elif toks[j].kind == CJK and toks[j].key == "时" and self._bare_when(j, b):
                    found.append((j, "condition"))  # "输入均值恰好为 0 时，RMS 就是标准差": when, without 当
                elif _SCOPE_PREP.at(toks, j) and any(
                        (_SCOPE_WORD.at(toks, k) and not (k + 1 < b and toks[k + 1].key == "than")
                         and not (toks[k - 1].key in _TIME_UNITS and toks[k].key == "zero"))  # "at step zero": a time
                        or (toks[j].key == "at" and toks[k].kind == PUNCT and toks[k].key == "=")
                        for k in range(j + 1, min(b, j + 4))):
                    # "at a very high learning rate", "at eps = 0"; not "with alpha smaller than 1" (a value compared)
                    found.append((j, "condition"))
                elif _SCOPE_PREP.at(toks, j) and self._restricted_scope(j, b):
                    found.append((j, "condition"))  # "For an input that already has zero mean, RMS is the std"
            out[clause] = found
            # (others' view only: "I believe X, since Y" gives the writer's own reason)
            report = next((j for j, kind in found if kind == "report"
                           and not (j > 0 and toks[j - 1].kind == WORD and toks[j - 1].key in ("i", "we"))), None)
            reported = (sent, report) if report is not None else (-1, -1)
        return out

    def _restricted_scope(self, j: int, b: int) -> bool:
        """The scope word at j opens its comma part and a kind of thing follows, narrowed by a relative clause to a
        limiting case ("For an input that already has zero mean, ...", "In any model whose learning rate is very
        high, ..."): what the clause says holds for those cases only. Inside a part, only "for" ("RMS equals the
        std for an input that has zero mean"): "X is used in a model that ..." restricts nothing."""
        toks, lay = self.tokens, self.lay
        if j + 2 >= b or toks[j + 1].key not in _INDEFINITE:
            return False
        part = lay.part_of[j]
        if not (lay.opens_part(j) and lay.part_of[b - 1] != part) and toks[j].key != "for":
            return False
        rel = next((k for k in range(j + 3, min(b, j + 6))
                    if lay.part_of[k] == part and toks[k].kind == WORD and toks[k].key in _RESTRICTIVE), -1)
        # the relative clause names a limiting case (zero mean, a high learning rate), as "for zero-mean input" does;
        # "for an encoder that has N layers, alpha = ..." only says which model the values are for
        return rel >= 0 and any(_SCOPE_WORD.at(toks, k) for k in range(rel + 1, b) if lay.part_of[k] == part)

    def _no_matter(self, j: int) -> bool:
        """Token j follows "no matter" within two words ("no matter how deep", "no matter how many layers"): the
        claim holds in every case, which is no condition and no hedge."""
        toks = self.tokens
        return any(toks[k].key == "no" and toks[k + 1].key == "matter" for k in range(max(0, j - 4), j - 1))

    def _opens_a_titled_line(self, j: int) -> bool:
        """Token j opens its line, which a colon later divides ("Why Post-LN is still studied: X"): a title
        over X, which is asserted."""
        toks, lay = self.tokens, self.lay
        line = lay.line_of[j]
        if any(lay.line_of[k] == line and toks[k].kind in (WORD, CJK) for k in range(max(0, j - 3), j)):
            return False
        return any(toks[k].kind == PUNCT and toks[k].key == ":" and lay.line_of[k] == line
                   for k in range(j + 1, min(len(toks), j + 12)))

    def _participle(self, j: int) -> bool:
        """"given"/"provided" after a word that is not a connective ("the reason given", "is given by", "the
        numbers provided"): a participle; as a condition it opens its part ("Given a small learning rate, ...")."""
        toks = self.tokens
        if j == 0 or self.lay.part_of[j - 1] != self.lay.part_of[j]:
            return False
        prev = toks[j - 1]
        return prev.kind == WORD and prev.key not in ("and", "but", "or", "so", "then", "even", "only", "just")

    def _procedure(self, j: int, b: int) -> bool:
        """"If you compute the Jacobian instead", "when you update the parameters", "if we log h.norm()": the
        condition says how the result is obtained, not under what circumstances it holds, so the result after it
        is the writer's claim. Not when the procedure is limited ("if you update with a small learning rate")."""
        toks = self.tokens
        if toks[j].kind != WORD or toks[j].key not in ("if", "when", "whenever"):
            return False
        k = j + 1
        if k >= b or toks[k].key not in _AGENTS:
            return False
        k += 1
        while k < b and toks[k].key in _PROCEDURE_ADVERBS:
            k += 1
        if k >= b or toks[k].key not in _PROCEDURE_VERBS:
            return False
        part = self.lay.part_of[j]
        while k < b and self.lay.part_of[k] == part:
            if _SCOPE_WORD.at(toks, k) or _LIMITS.at(toks, k):
                return False
            k += 1
        return True

    def _anaphor_judged(self, a: int, i: int) -> bool:
        """The verdict at token i has an anaphor for its subject right before it, maybe with a copula or "actually"
        between ("他们说其实那不是主要原因", "but that is not true"), not as an object ("people get that wrong")."""
        toks = self.tokens
        k = i - 1
        if k >= a and toks[k].key in _VERDICT_LINKS:
            k -= 1
            if k >= a and toks[k].kind == CJK and toks[k].key in _VERDICT_LINKS:
                k -= 1  # 其实
        return k >= a and toks[k].kind in (WORD, CJK) and toks[k].key in _ANAPHORA and (
            k == a or toks[k - 1].kind == PUNCT or toks[k - 1].key in _VERDICT_OPENERS)

    def _removal_before_and(self, j: int, start: int, end: int) -> int:
        """Token j is the "and"/"和" of an object list whose verb removes ("drops the mean subtraction and the bias",
        "去掉了均值和偏置") and the term at [start, end) is its second object (only a determiner before it, the list
        ending right after it): the removal verb's index, or -1. Not after "not"/"without" ("not unstable and
        trains deep" is two predicates), nor a second clause ("removed warm-up and the BLEU fell to 8.45")."""
        toks, lay = self.tokens, self.lay
        tail = toks[end : end + 3]
        if tail and not any(t.kind == PUNCT or t.key in _LIST_ENDS for t in tail) and lay.part_of[end] == lay.part_of[start]:
            return -1
        if toks[j].key not in ("and", "和", "与", "及") or any(
                toks[q].kind != WORD or toks[q].key not in _DETERMINERS for q in range(j + 1, start)):
            return -1
        first = lay.text[toks[start].start : toks[start].end].lower() if start < len(toks) else ""
        if first in _FINITE_VERBS or first in _SECOND_VERBS or _REMOVAL.at(toks, start) or NEGATION.at(toks, start):
            return -1  # "drops the learned gain and keeps only a bias": a second predicate
        part = lay.part_of[j - 1] if j > 0 else -1  # "and" may open a part of its own
        for q in range(j - 1, max(-1, j - 7), -1):
            if toks[q].kind == PUNCT and toks[q].key in (":", "：") and lay.part_of[q] == part:
                # "RMSNorm drops two things: the mean subtraction and the bias": the verb that opens the list
                return next((r for r in range(q - 1, max(-1, q - 5), -1) if (n := _REMOVAL.at(toks, r)) and r + n >= q - 2),
                            -1)
            if lay.part_of[q] != part or toks[q].kind == PUNCT and toks[q].key not in ("-",):
                return -1
            if toks[q].kind == WORD and (toks[q].key in _FINITE_VERBS or toks[q].key == "to"):
                return -1
            if _REMOVAL.at(toks, q):
                return q
        return -1

    def _other_cause_follows(self, clause: int) -> bool:
        """Another "because" clause follows in the sentence ("it doesn't fall over because some gradient is too
        big, it falls over because its output is too sensitive"): the negated verb before the first one denies
        that cause ("Post-LN doesn't need one because X" alone denies the need)."""
        lay = self.lay
        sent = lay.sentence_of[lay.clause_span[clause][0]]
        c = clause + 1
        while c < len(lay.clause_span) and lay.sentence_of[lay.clause_span[c][0]] == sent:
            if is_cause(self.tokens, lay.clause_span[c][0]):
                return True
            c += 1
        return False

    def _inside_other_word(self, j: int) -> bool:
        """以为 ("thought") as the tail of 可以 + 为 ("可以为 0": can be 0) or 所以 + 为, not a report."""
        toks = self.tokens
        return (toks[j].kind == CJK and toks[j].key == "以" and j > 0 and toks[j - 1].kind == CJK
                and toks[j - 1].key in ("可", "所", "足", "难", "得"))

    def _names_a_subject(self, j: int, n: int) -> bool:
        """A framing cue of `n` tokens at j that ends a noun phrase before its copula ("the consequence people talk
        about is representation collapse", "what everyone talks about is X"): the sentence states X, it does not
        announce a topic."""
        toks = self.tokens
        k = j + n
        return (toks[j + n - 1].kind == WORD and toks[j + n - 1].key in _FRAMED_ENDS and k < len(toks)
                and toks[k].kind == WORD and toks[k].key in COPULAS)

    def _received_view(self, j: int) -> bool:
        """"The popular story / common belief / usual assumption is that X", "it's a common belief that X", "a common
        retelling says X": a received view is reported, not affirmed ("the real story is that X", "my claim is that X"
        are the writer's own)."""
        toks = self.tokens
        if not (toks[j].kind == WORD and toks[j].key in _RECEIVED_VIEWS):
            return False
        if any(toks[m].key in _OWN_VIEW for m in range(max(0, j - 2), j)):
            return False
        if toks[j].key in _READINGS and j > 0 and self.lay.possessive(j - 1):
            return False  # "Admin's reading is that X" says what Admin holds: that attribution is the writer's claim
        if j + 1 < len(toks) and toks[j + 1].kind == WORD and toks[j + 1].key == "that":
            return True  # "it's a common belief that X", "there is a myth that X": the view's content follows at once
        if toks[j].key in _VIEWS_WITH_THAT_ONLY:
            return False
        k = self._past_hearsay(j + 1)
        if k < len(toks) and toks[k].kind == WORD and toks[k].key in _VIEW_SAYS:
            return True  # "a common retelling says X", "the folklore holds that X": the view states X
        return k + 1 < len(toks) and toks[k].key in _COPULAS_OF_VIEWS and toks[k + 1].key == "that"

    def _past_hearsay(self, k: int) -> int:
        """The token after who holds a received view and any aside on it ("a misconception I've heard (and believed
        for a while) is that X", "the myth people repeat is that X"): k itself when there is none."""
        toks = self.tokens
        start, words = k, 0
        while k < len(toks) and k - start < 16:
            t = toks[k]
            if t.kind == PUNCT and t.key == "(":
                close = next((m for m in range(k + 1, min(len(toks), k + 16)) if toks[m].key == ")"), None)
                if close is None:
                    return start
                k = close + 1
                continue
            if t.kind != WORD or t.key in _COPULAS_OF_VIEWS:
                break
            if words == 0 and t.key not in _HEARERS:
                return start
            words += 1
            k += 1
        return k if words <= 5 else start

    def _consequence_why(self, j: int) -> bool:
        """"which is why X", "this is precisely why X", "that's also why X": the writer asserts X (not an indirect
        question such as "we need to look at why X")."""
        toks = self.tokens
        k = j - 1
        while k >= 0 and j - k <= 3 and toks[k].kind == WORD and toks[k].key in _WHY_ADVERBS:
            k -= 1
        return k >= 0 and toks[k].key in ("is", "that", "this", "why", "was")

    def _bare_when(self, j: int, b: int) -> bool:
        """"... 时，" closing a comma part with words of its own before it ("均值为 0 时，"): a condition on what
        follows; not 同时, 此时, 这时, 当时, 有时 ... (time words) nor a 时 that a 当 already opened."""
        toks = self.tokens
        if not (j + 1 < b and toks[j + 1].kind == PUNCT and toks[j + 1].key == ","):
            return False
        prev = toks[j - 1] if j > 0 else None
        if prev is None or (prev.kind == CJK and prev.key in _TIME_WORD_HEADS):
            return False
        part = self.lay.part_of[j]
        k = j - 1
        words = 0
        state = False
        while k >= 0 and self.lay.part_of[k] == part:
            if toks[k].kind == CJK and toks[k].key == "当":
                return False
            words += toks[k].kind in (WORD, CJK, NUMBER)
            # (not the 化 of 初始化: "在初始化时" names the moment Xiong's results are about, not a state it depends on)
            state = state or (toks[k].kind == CJK and toks[k].key in _STATE_CHARS
                              and not (toks[k].key == "化" and k > 0 and toks[k - 1].key == "始"))
            k -= 1
        # a state the part describes ("均值为 0 时", "很深时"), not a setting named by a noun ("500 步 warm-up 时")
        return words >= 3 and state

    def _when_clause(self, j: int, b: int) -> bool:
        """"当 ... 时" (when ...), not 相当, 当然, 应当, 适当, 当前, 当时 (words with 当 in them)."""
        toks = self.tokens
        prev = toks[j - 1].key if j > 0 and toks[j - 1].kind == CJK else ""
        nxt = toks[j + 1].key if j + 1 < len(toks) and toks[j + 1].kind == CJK else ""
        if prev in ("相", "应", "适", "正", "恰", "充", "担", "妥") or nxt in ("然", "前", "时", "做", "成", "作", "中"):
            return False
        return any(toks[k].kind == CJK and toks[k].key == "时" for k in range(j + 2, min(b, j + 26)))

    def _cites_a_source(self, j: int) -> bool:
        """"According to Xiong et al. / the paper / Theorem 1, X": the writer states what the literature says,
        which is their claim (a wrong one can be charged), unlike "according to some people"."""
        toks = self.tokens
        if toks[j].key != _ACCORDING:
            # "Admin argues X", "Liu et al. 认为 X": what a named paper holds, said by the writer, is the writer's
            # claim about that paper (charged when wrong); "some people argue X" still only reports.
            k = j - 1
            while k >= max(0, j - 3) and (toks[k].kind == PUNCT or (toks[k].kind == CJK and toks[k].key in "等们人")):
                k -= 1  # "Liu 等认为", "Xiong et al. argue"
            return k >= 0 and toks[k].kind == WORD and (toks[k].key in _SOURCE_WORDS or (
                toks[k].key == "al" and k > 0 and toks[k - 1].key == "et"))
        ahead = [t.key for t in toks[j + 2 : j + 7] if t.kind in (WORD, NUMBER)]
        return ("et" in ahead and "al" in ahead) or any(w in _SOURCE_WORDS for w in ahead[:3])

    def _capability(self, j: int) -> bool:
        """"can", "could", "可以" (not "可能", which hedges)."""
        t = self.tokens[j]
        if t.kind == WORD:
            return t.key in ("can", "could")
        return t.key == "可" and j + 1 < len(self.tokens) and self.tokens[j + 1].key == "以"

    def _enabling(self, j: int) -> bool:
        """"让 X 可以 Y" / "makes it possible": 可以 states what something enables, not a hedge."""
        toks = self.tokens
        return toks[j].kind == CJK and any(toks[k].key in ("让", "使") for k in range(max(0, j - 5), j))

    def _negated_modal(self, j: int) -> bool:
        """"cannot" and "can't" are firm: "Post-LN cannot be trained without warm-up"."""
        t = self.tokens[j]
        if t.kind != WORD or t.key not in ("can", "could", "may", "might", "would"):
            return False
        nxt = self.tokens[j + 1] if j + 1 < len(self.tokens) else None
        return nxt is not None and nxt.kind == WORD and nxt.key in ("not", "never")
