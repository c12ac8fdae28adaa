"""Formulas parsed into structure, and quantities bound to their symbols.

Structure. `LN(x + F(x))`, `\\mathrm{LayerNorm}(x_l+\\mathcal{F}(x_l))` and `输出 = Norm(F(h) + h)` are the same
thing: normalisation functions (LN, LayerNorm, Norm, RMSNorm, ...) become `N`, sublayers (F, f, G,
Sublayer, Attn, FFN, MLP, Block, 子层, ...) become `F`, the stream variable (x, x_l, h, h_l, z, 输入, ...)
becomes `x`, and sums and products are flattened and sorted (so `x + F` equals `F + x`). Each side of an
equation is canonicalised on its own.

Quantities. "alpha = (2N)^(1/4)", "α 取 (2N)^{1/4}", "beta is (8N)^(-1/4)" bind a value to a symbol. Values
are compared by evaluating them at fixed points, so `(2N)^{1/4}`, `(2N)^0.25` and `\\sqrt[4]{2N}` are one value
and `(8N)^{-1/4}` is another; a value is only ever credited to the symbol it is written next to.

The scanner is linear in the text: the parser memoises every (rule, position) it has tried, and a scan
resumes after whatever the last parse consumed.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from dataclasses import dataclass

NORM_NAMES = {"ln", "layernorm", "norm", "layer_norm", "layernormalization", "rmsnorm", "rms_norm",
              "normalize", "normalization", "n", "lnorm", "rms", "groupnorm", "batchnorm", "bn", "ln1", "ln2",
              "ln_1", "ln_2", "norm1", "norm2", "input_layernorm", "post_attention_layernorm", "attention_norm",
              "ffn_norm", "rmsnorm1", "rmsnorm2", "ln_f", "layer_norm1", "layer_norm2", "layernorm1", "layernorm2"}
BRANCH_NAMES = {"f", "g", "sublayer", "attn", "attention", "ffn", "mlp", "block", "layer", "sa", "selfattn",
                "selfattention", "self_attn", "self_attention", "mha", "fn", "branch", "t", "h_f", "子层", "分支",
                "注意力", "前馈", "模块", "feedforward", "feed_forward", "fc", "f_l", "g_l", "sublayer_l", "module",
                "func", "sub", "residual_fn", "attn_or_ffn", "transformer_block"}
STREAM_NAMES = {"x", "h", "z", "v", "u", "a", "input", "输入", "hidden", "hidden_states", "residual", "inp"}
COEFF_NAMES = {"α": "α", "alpha": "α", "β": "β", "beta": "β", "γ": "γ", "gamma": "γ", "λ": "λ",
               "lambda": "λ", "ω": "α", "omega": "α"}

#: Wrappers that leave a formula's structure as it is: code applies dropout (or stochastic depth) to a branch's output
#: before the residual add ("x + self.dropout(sublayer(self.norm(x)))" is Pre-LN's x + F(LN(x))). Read as a wrapper
#: only when written as a call, the bracket right after the name.
TRANSPARENT_NAMES = frozenset({"dropout", "drop_path", "droppath", "resid_dropout", "dropout1", "dropout2",
                               "dropout3", "dropout_1", "dropout_2", "resid_drop", "attn_dropout", "ffn_dropout"})

_KNOWN = NORM_NAMES | BRANCH_NAMES | STREAM_NAMES | TRANSPARENT_NAMES
#: Words inside a code name that give it its role: "self.norm3", "_sa_block", "self_attn_layer_norm" (a norm
#: word wins: that name is the attention's norm), "ff_block2".
_NORM_WORDS = frozenset({"norm", "ln", "layernorm", "rmsnorm", "rms"})
_BRANCH_WORDS = frozenset({"attn", "attention", "mlp", "ffn", "ff", "sa", "block", "sublayer", "feedforward", "fc",
                           "mha", "selfattn"})
_TOK_RE = re.compile(
    r"(?P<id>_?[a-z][a-z0-9_]*(?<!_)|[α-ω]|子层|分支|输入|输出|注意力|前馈|模块)"
    r"|(?P<num>[0-9]+(?:\.[0-9]+)?)"
    r"|(?P<op>[-+*/=^(){}\[\],_'‖·⁄])"
    r"|(?P<ws>[ \t]+)"
)


@dataclass(frozen=True)
class FormulaMatch:
    """A formula found in text: canonical forms of its structured sides and its span in the text."""

    sides: tuple[str, ...]
    start: int
    end: int
    #: Where the whole equation starts, unstructured sides included ("x_{l+1}" in "x_{l+1} = x_l + F(LN(x_l))").
    whole_start: int


@dataclass(frozen=True)
class Binding:
    """A value bound to a symbol ("alpha = (2N)^(1/4)"): the symbol, the value's fingerprint, the span."""

    symbol: str
    value: tuple[float, ...]
    start: int
    end: int


#: Code spells formulas with attribute access and Python powers: "self.ln1(x + self.attn(x))", "(2N)**0.5".
_CODE_PREFIX = re.compile(r"\b(?:self|nn|torch|model|layer|block|module|f)\.(?=[a-z_])")
#: Spoken operators, each replaced by its sign padded to the same length: "x plus LN(F(x))", "x 加上 F(LN(x))".
#: Only before a function call: "x ← x + F(LN(x)) plus a final LN" keeps its formula whole.
_SPOKEN_OPS = re.compile(r"(?:(?<![a-z])plus|加上|乘以)(?=\s*[a-z_\\]+\s*\()")


def _decode(text: str) -> str:
    """Plain notation for code, keeping every offset: prefixes become spaces, ** becomes ^ and a space."""
    if "." in text:
        text = _CODE_PREFIX.sub(lambda m: " " * len(m.group()), text)
    if "plus" in text or "加上" in text or "乘以" in text:
        text = _SPOKEN_OPS.sub(lambda m: ("*" if m.group() == "乘以" else "+").ljust(len(m.group())), text)
    return text.replace("**", "^ ").replace("<-", "= ").replace("\u2190", "=")


def _code_role(name: str) -> str | None:
    """"norm" or "block" for a code name made of words and digits whose words say it is a norm or a branch
    ("_sa_block", "norm3", "self_attn_layer_norm"); None for anything else ("x_l", "w_2", "norm")."""
    if not (name.startswith("_") or any(c.isdigit() or c == "_" for c in name)):
        return _class_role(name)
    words = {w for w in re.split(r"[_0-9]+", name) if w}
    if words & _NORM_WORDS:
        return "norm"
    if words & _BRANCH_WORDS:
        return "block"
    return None


#: A class name written in one word ("MultiHeadSelfAttention", "PositionwiseFeedForward", "CausalSelfAttn", "RMSNorm"
#: is in NORM_NAMES already): its last word says what it is.
_CLASS_NORM_ENDS = ("layernorm", "rmsnorm")
_CLASS_BRANCH_ENDS = ("attention", "selfattn", "feedforward", "mlp", "ffn")


def _class_role(name: str) -> str | None:
    """"norm" or "block" for a one-word class name longer than its last word (`_CLASS_NORM_ENDS`, `_CLASS_BRANCH_ENDS`)."""
    if any(name.endswith(end) and len(name) > len(end) for end in _CLASS_NORM_ENDS):
        return "norm"
    if any(name.endswith(end) and len(name) > len(end) for end in _CLASS_BRANCH_ENDS):
        return "block"
    return None


#: The one-word name code gives a branch's output in a residual sum ("alpha * x + gx"). (Not "fx": code names the
#: stream that, "fx = self.ln_post(self.attn(self.ln(fx)) + fx)".)
_BRANCH_OUTPUTS = frozenset({"gx"})


class _Lex:
    def __init__(self, text: str) -> None:
        text = _decode(text)
        self.toks: list[tuple[str, str, int, int]] = []
        pos = 0
        for m in _TOK_RE.finditer(text):
            if m.start() != pos:
                self.toks.append(("brk", text[pos : m.start()], pos, m.start()))
            kind = m.lastgroup or "brk"
            if kind != "ws":
                value = m.group()
                if kind == "op" and value in "·":
                    value = "*"
                elif kind == "op" and value == "⁄":
                    value = "/"
                role = _code_role(value) if kind == "id" and value not in _KNOWN else None
                if role is not None:
                    self.toks.append(("id", role, m.start(), m.end()))
                    pos = m.end()
                    continue
                if kind == "id" and value in _BRANCH_OUTPUTS:
                    # code's name for a branch's output ("self.layer_norm(self.alpha * x + gx)"): read as g(x)
                    a, b = m.start(), m.end()
                    self.toks += [("id", value[0], a, a + 1), ("op", "(", a + 1, a + 1), ("id", "x", a + 1, b), ("op", ")", b, b)]
                    pos = b
                    continue
                if kind == "id" and value.startswith("_"):
                    value = value[1:]
                if kind == "id" and "_" in value and value not in _KNOWN:
                    # "x_l", "h_{l}": a name with a subscript, not one name
                    cut = value.index("_")
                    self.toks.append(("id", value[:cut], m.start(), m.start() + cut))
                    self.toks.append(("op", "_", m.start() + cut, m.start() + cut + 1))
                    self.toks.append(("id", value[cut + 1 :], m.start() + cut + 1, m.end()))
                    pos = m.end()
                    continue
                self.toks.append((kind, value, m.start(), m.end()))
            pos = m.end()
        if pos < len(text):
            self.toks.append(("brk", text[pos:], pos, len(text)))


_MAX_DEPTH = 40
#: How far past its "_" or "^" a decoration's bracket is read: the "{" after the sign, then up to 60 tokens.
_DECORATION_REACH = 62


class _Parser:
    """Recursive descent over formula tokens with memoised rules; returns canonical strings or None."""

    def __init__(self, toks: list[tuple[str, str, int, int]], streams: frozenset[str] = frozenset()) -> None:
        self.toks = toks
        self.streams = streams  # other names read as the stream in this formula ("r" in r^{l+1} = LN(r^l + F(r^l)))
        self.i = 0
        self.calls = 0
        self.depth = 0
        self._memo: dict[tuple[str, int], tuple[str | None, int, int]] = {}

    def peek(self, k: int = 0) -> tuple[str, str, int, int] | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def accept(self, value: str) -> bool:
        t = self.peek()
        if t and t[0] == "op" and t[1] == value:
            self.i += 1
            return True
        return False

    def _memoised(self, rule: str, fn) -> str | None:  # noqa: ANN001
        key = (rule, self.i)
        hit = self._memo.get(key)
        if hit is not None:
            result, end, calls = hit
            self.i = end
            self.calls += calls
            return result
        start, calls_before = self.i, self.calls
        self.depth += 1
        result = fn() if self.depth <= _MAX_DEPTH else None
        self.depth -= 1
        if result is None:
            self.i = start
        self._memo[key] = (result, self.i, self.calls - calls_before)
        return result

    def expr(self) -> str | None:
        return self._memoised("expr", self._expr)

    def _expr(self) -> str | None:
        terms: list[str] = []
        sign = "-" if self.accept("-") else ""
        if not sign:
            self.accept("+")
        t = self.term()
        if t is None:
            return None
        terms.append(f"-{t}" if sign else t)
        while True:
            save = self.i
            if self.accept("+"):
                sign = ""
            elif self.accept("-"):
                sign = "-"
            else:
                break
            if self._prose_after_sign():
                self.i = save  # "x + F(LN(x)) + final LN before the head": the sum ends, prose goes on
                break
            t = self.term()
            if t is None:
                self.i = save
                break
            terms.append(f"-{t}" if sign else t)
        if len(terms) == 1:
            return terms[0]
        flat: list[str] = []
        for t in terms:
            flat.extend(t[2:-1].split("\x00") if t.startswith("+(") and "\x00" in t else [t])
        return "+(" + "\x00".join(sorted(flat)) + ")"

    def _prose_after_sign(self) -> bool:
        """The sign just read leads into words, not a term: a plain word of four or more letters (no function,
        branch, norm or coefficient name, no bracket after it) followed by another word ("+ final LN", "+ extra
        norm on the output")."""
        t, nxt = self.peek(), self.peek(1)
        return (t is not None and t[0] == "id" and len(t[1]) >= 4 and t[1].isalpha() and t[1] not in _KNOWN
                and t[1] not in COEFF_NAMES and nxt is not None and nxt[0] == "id")

    def term(self) -> str | None:
        return self._memoised("term", self._term)

    def _term(self) -> str | None:
        f = self.factor()
        if f is None:
            return None
        factors = [f]
        while True:
            save = self.i
            if self.accept("*"):
                g = self.factor()
            elif self.accept("/"):
                g = self.factor()
                if g is not None and factors[-1] == "F" and g.startswith("F("):
                    factors[-1] = g  # "Attn/FFN(LN(x))": one branch, named two ways, not a division
                    continue
                g = None if g is None else f"inv({g})"
            elif factors[-1] in COEFF_NAMES.values() or factors[-1] in WEIGHT_NAMES or re.fullmatch(r"[0-9.]+", factors[-1]):
                g = self.factor()  # juxtaposition: "α x", "2 x", "W LN(v)"
            else:
                break
            if g is None:
                self.i = save
                break
            factors.append(g)
        if len(factors) == 1:
            return factors[0]
        return "*(" + "\x00".join(sorted(factors)) + ")"

    def _decorations(self) -> None:
        # x_l, x_{l+1}, x^{(l)}, x', x^T: decorations of a name, ignored for structure.
        while True:
            t = self.peek()
            if not t or t[0] != "op" or t[1] not in "_^'":
                return
            self.i += 1
            if t[1] == "'":
                continue
            nxt = self.peek()
            if nxt and nxt[0] == "op" and nxt[1] in "{(":
                close = "}" if nxt[1] == "{" else ")"
                depth = 0
                steps = 0
                while (tok := self.peek()) is not None and steps < _DECORATION_REACH - 2:
                    self.i += 1
                    steps += 1
                    if tok[0] == "op" and tok[1] in "{(":
                        depth += 1
                    elif tok[0] == "op" and tok[1] in "})":
                        depth -= 1
                        if depth == 0 and tok[1] == close:
                            break
            elif nxt and nxt[0] in ("id", "num"):
                self.i += 1

    def factor(self) -> str | None:
        return self._memoised("factor", self._factor)

    def _factor(self) -> str | None:
        t = self.peek()
        if t is None:
            return None
        if t[0] == "num":
            self.i += 1
            return t[1]
        if t[0] == "op" and t[1] in "([{":
            close = {"(": ")", "[": "]", "{": "}"}[t[1]]
            self.i += 1
            inner = self.expr()
            if inner is None or not self.accept(close):
                return None
            self._decorations()
            return inner
        if t[0] != "id":
            return None
        name = t[1]
        self.i += 1
        self._decorations()
        nxt = self.peek()
        if nxt and nxt[0] == "op" and nxt[1] in "([" and (nxt[2] == t[3] or name in NORM_NAMES | BRANCH_NAMES):
            close = ")" if nxt[1] == "(" else "]"
            self.i += 1
            args: list[str] = []
            while True:
                a = self.expr()
                if a is None:
                    return None
                args.append(a)
                if self.accept(","):
                    continue
                if self.accept(close):
                    break
                return None
            self.calls += 1
            if name in TRANSPARENT_NAMES and len(args) == 1:
                self._decorations()
                return args[0]
            fname = "N" if name in NORM_NAMES else "F" if name in BRANCH_NAMES else name
            if name in ACTIVATIONS and len(args) == 1 and (inner := _weighted_input(args[0])) is not None:
                # "tanh(W LN(v))", "relu(W_1 x)": an activation of a weighted input is a sublayer of that input
                self._decorations()
                return f"F({inner})"
            if fname == "F" and len(args) > 1:
                # G_l(x_l, θ_l): a sublayer's own parameters are not part of the block's structure
                args = [a for a in args if a not in _PARAMETER_ARGS] or args
            self._decorations()
            return f"{fname}(" + ",".join(args) + ")"
        if name in COEFF_NAMES:
            return COEFF_NAMES[name]
        if name in STREAM_NAMES or name in self.streams:
            return "x"
        if name in NORM_NAMES | BRANCH_NAMES:
            return "F" if name in BRANCH_NAMES else "N"
        return name


#: A weight matrix written before what it multiplies ("W LN(v)", "W_1 x").
WEIGHT_NAMES = frozenset({"w"})
#: Activations: one applied to a weighted input ("tanh(W LN(v))") is a sublayer, F, of that input.
ACTIVATIONS = frozenset({"tanh", "relu", "gelu", "silu", "swish", "sigmoid", "elu"})


def _weighted_input(arg: str) -> str | None:
    """What a weight multiplies in a canonical product of exactly a weight and one other factor ("*(N(x)\x00w)":
    "N(x)"), or None."""
    if not arg.startswith("*(") or not arg.endswith(")"):
        return None
    factors = arg[2:-1].split("\x00")
    if len(factors) != 2 or not any(f in WEIGHT_NAMES for f in factors):
        return None
    rest = [f for f in factors if f not in WEIGHT_NAMES]
    return rest[0] if len(rest) == 1 else None


#: Names of a sublayer's parameters written as an extra argument ("G_l(x_l, θ_l)", "F(x; W)").
_PARAMETER_ARGS = frozenset({"theta", "w", "params", "phi", "weights", "param"})


def canonical(expr: str) -> str | None:
    """Canonical structure of a single expression (e.g. from a card), or None if it does not parse."""
    from lndrill.scoring.normalize import prepare

    lex = _Lex(prepare(expr).text)
    p = _Parser(lex.toks)
    out = p.expr()
    if out is None or p.i != len(lex.toks):
        return None
    return out


def _structured(side: str) -> bool:
    return "(" in side and ("N(" in side or "F(" in side)


def _bullet_dash(text: str, at: int) -> bool:
    """The "-" at `at` opens a list item: only spaces before it on its line, a space after it."""
    line_start = text.rfind("\n", 0, at) + 1
    return not text[line_start:at].strip() and text[at + 1 : at + 2] in (" ", "\t")


def _opens_and_walls(toks: list[tuple[str, str, int, int]]) -> tuple[list[int], list[int]]:
    """Where the formula tokens open a bracket, and the walls no parse crosses: text that is no formula token, far
    enough from a subscript or power that no decoration's bracket (read up to 60 tokens on) can have stepped over it."""
    opens: list[int] = []
    walls: list[int] = []
    last_decoration = -(1 << 30)
    for j, (kind, value, _, _) in enumerate(toks):
        if kind == "op":
            if value in "([":
                opens.append(j)
            elif value in "_^":
                last_decoration = j
        elif kind == "brk" and j - last_decoration > _DECORATION_REACH:
            walls.append(j)
    return opens, walls


def find_formulas(text: str) -> list[FormulaMatch]:
    """Every formula in normalised `text`, each structured side canonicalised, with its character span."""
    if "(" not in text:
        return []
    toks = _Lex(text).toks
    p = _Parser(toks)
    found: list[FormulaMatch] = []
    opens, walls = _opens_and_walls(toks)
    i = 0
    while i < len(toks):
        # A structured side calls a norm or a branch, so it holds an opening bracket; no formula runs over a wall.
        # From here to the next wall before any bracket, nothing structured can start: go past that wall.
        k = bisect.bisect_left(opens, i)
        if k == len(opens):
            break
        w = bisect.bisect_left(walls, i)
        if w < len(walls) and walls[w] < opens[k]:
            i = walls[w] + 1
            continue
        kind = toks[i][0]
        if kind not in ("id", "num", "op") or (kind == "op" and toks[i][1] not in "([{-"):
            i += 1
            continue
        if kind == "op" and toks[i][1] == "-" and _bullet_dash(text, toks[i][2]):
            i += 1  # "- LN(x + F(x))": a list item's dash, not a minus
            continue
        p.i, p.calls = i, 0
        sides: list[tuple[str, int]] = []
        first = p.expr()
        if first is None or p.i == i:
            i += 1
            continue
        sides.append((first, i))
        while p.accept("="):
            side_start = p.i
            nxt = p.expr()
            if nxt is None:
                break
            sides.append((nxt, side_start))
        structured = tuple(s for s, _ in sides if _structured(s))
        renamed = _stream_renamed(toks, i, structured) if structured and p.calls else None
        if renamed is not None:
            structured, end = renamed
            p.i = end
        if structured and p.calls:
            first_start = next(k for s, k in sides if _structured(s))
            found.append(FormulaMatch(structured, toks[first_start][2], toks[p.i - 1][3], toks[i][2]))
        i = p.i  # resume after what was consumed: nothing structured starts inside it
    return found


#: A formula said aloud as calls ("x plus F of LN of x", "LN of x plus sublayer of x", "x plus LN of F of LN of x"):
#: function names with "of", the stream letter, "plus" between terms, ending on the stream letter, not where the sum
#: goes on in words ("LN of alpha x plus the branch"). ("norm of x" is not here: said aloud it is the vector norm.)
_CALL_NAMES = r"(?:f|g|ln|layer ?norm|rms ?norm|sublayer|attn|attention|ffn|mlp)(?:_\{?[a-z0-9]\}?)?"
_CALL_VAR = r"(?:x|h)(?:_\{?[a-z0-9+]{1,3}\}?)?"
#: (A run of calls and sums, taken whole: possessive, and searched once per run, so a long run costs linear time.)
_SPOKEN_RUN = re.compile(rf"\b(?:(?:{_CALL_NAMES}) of |{_CALL_VAR} plus )++")
_SPOKEN_END = re.compile(rf"{_CALL_VAR}(?![\w(])(?! plus\b)")
_CALL_STEP = re.compile(rf"({_CALL_NAMES}) of |({_CALL_VAR})(?: plus |$)")


def _written_call(said: str) -> str | None:
    """"x plus f of ln of x" as "x + f(ln(x))": "of" takes everything after it, as it does when said aloud ("ln of x
    plus f of x" is ln(x + f(x))). None unless a function is called and a sum is made."""
    out: list[str] = []
    opened = 0
    pos = 0
    while pos < len(said):
        m = _CALL_STEP.match(said, pos)
        if m is None:
            return None
        if m.group(1):
            out.append(f"{m.group(1)}(")
            opened += 1
        else:
            out.append(m.group(2))
            if m.end() < len(said):
                out.append(" + ")
        pos = m.end()
    if not opened or " + " not in out:
        return None
    return "".join(out) + ")" * opened


def spoken_formulas(text: str) -> list[FormulaMatch]:
    """Formulas said aloud as calls and sums in normalised `text` ("so it's x plus f of ln of x"), each with the span
    of its words. Read for credit only: words said aloud bind loosely, so they never make a wrong claim."""
    if " of " not in text:
        return []
    found = []
    pos = 0
    while (run := _SPOKEN_RUN.search(text, pos)) is not None:
        pos = max(run.end(), run.start() + 1)
        end = _SPOKEN_END.match(text, run.end())
        if end is None:
            continue
        written = _written_call(text[run.start() : end.end()])
        if written is None:
            continue
        for f in find_formulas(written):
            found.append(FormulaMatch(f.sides, run.start(), end.end(), run.start()))
    return found


_BARE_NAME = re.compile(r"(?<![A-Za-z0-9_])([a-z][a-z0-9_]*)(?![a-z0-9_(])")


def _stream_renamed(toks: list[tuple[str, str, int, int]], i: int,
                    structured: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
    """A formula that spells its stream with a letter of its own ("r^{l+1} = LN(r^l + Sublayer(r^l))", "y = s +
    F(N(s))"): when its structured sides name no `x` and exactly one other variable, twice or more, that variable is
    the stream. Returns the sides parsed again that way, and where the parse ended; None otherwise."""
    names = [n for side in structured for n in _BARE_NAME.findall(side)]
    if "x" in names or len(set(names)) != 1 or len(names) < 2 or names[0] in COEFF_NAMES:
        return None
    p = _Parser(toks, frozenset({names[0]}))
    p.i = i
    sides = []
    first = p.expr()
    if first is None:
        return None
    sides.append(first)
    while p.accept("="):
        nxt = p.expr()
        if nxt is None:
            break
        sides.append(nxt)
    again = tuple(s for s in sides if _structured(s))
    return (again, p.i) if again else None


# ---------------------------------------------------------------------------------------------------
# Quantities

_SYMBOLS = {"alpha": "alpha", "α": "alpha", "beta": "beta", "β": "beta", "gamma": "gamma", "γ": "gamma",
            "omega": "omega", "ω": "omega", "lambda": "lambda", "λ": "lambda", "eps": "eps", "epsilon": "eps",
            "ε": "eps", "lr": "lr", "warmup_steps": "warmup_steps", "beta1": "beta1", "beta2": "beta2",
            "β1": "beta1", "β2": "beta2", "β_1": "beta1", "β_2": "beta2"}
_CONNECTOR = re.compile(r"\s*(?:(?:跟|和|与|同)\s*[^\s，。,;；]{1,12}?\s*(?:一样|相同)\s*(?:也)?\s*)?"
                        r"(?:=|≈|:|is\s|equals\s|of\s|to\s|取值为|取值|取的是|取成|取|设为|设成|设置为|用的是|为|是|等于|\s)\s*")
#: (the optional middle: "α 跟 DeepNet 一样取 (2N)^{1/4}", alpha "the same as DeepNet's" value)
_SYMBOL_RE = re.compile(r"(?<![a-z0-9_])(alpha|beta|gamma|omega|lambda|epsilon|eps|lr|[αβγωλε])"
                        r"(?:\s*(?:_\{?\s*([12])\s*\}?|([12])))?(?![a-z0-9_(])")
#: The points at which values are evaluated: a value is its numbers there.
_POINTS = ({"n": 3.7, "m": 2.9, "l": 5.3, "d": 7.1, "k": 1.7, "x": 0.6},
           {"n": 11.0, "m": 6.0, "l": 2.2, "d": 3.4, "k": 2.6, "x": 1.9})
_FUNCS = {"sqrt": math.sqrt, "ln": math.log, "log": math.log, "exp": math.exp}


class _Value:
    """A numeric expression evaluator over formula tokens, at one point."""

    def __init__(self, toks: list[tuple[str, str, int, int]], i: int, env: dict[str, float]) -> None:
        self.toks, self.i, self.env, self.depth = toks, i, env, 0

    def peek(self) -> tuple[str, str, int, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def op(self, v: str) -> bool:
        t = self.peek()
        if t and t[0] == "op" and t[1] == v:
            self.i += 1
            return True
        return False

    def expr(self) -> float | None:
        self.depth += 1
        if self.depth > 30:
            return None
        neg = self.op("-")
        v = self.term()
        if v is None:
            return None
        v = -v if neg else v
        while True:
            save = self.i
            if self.op("+"):
                w = self.term()
            elif self.op("-"):
                w = self.term()
                w = None if w is None else -w
            else:
                break
            if w is None:
                self.i = save
                break
            v += w
        self.depth -= 1
        return v

    def term(self) -> float | None:
        v = self.power()
        if v is None:
            return None
        while True:
            save = self.i
            t = self.peek()
            if self.op("*"):
                w = self.power()
            elif self.op("/"):
                w = self.power()
                w = None if w in (None, 0) else 1 / w
            elif t and (t[0] == "id" and (t[1] in self.env or t[1] in _FUNCS) or t[0] == "op" and t[1] in "({"):
                w = self.power()  # juxtaposition: "2N", "0.81 (N^4 M)", "d sqrt(ln d)"
            else:
                break
            if w is None:
                self.i = save
                break
            v *= w
        return v

    def power(self) -> float | None:
        base = self.atom()
        if base is None:
            return None
        save = self.i
        if self.op("^"):
            neg = self.op("-")
            exp = self.atom()
            if exp is None:
                self.i = save
                return base
            t, u = self.peek(), (self.toks[self.i + 1] if self.i + 1 < len(self.toks) else None)
            if t and t[0] == "op" and t[1] == "/" and u and u[0] == "num":
                # "(2N)^1/4" is written for (2N)^(1/4): nobody means ((2N)^1)/4
                self.i += 2
                exp = exp / float(u[1]) if float(u[1]) else exp
            exp = -exp if neg else exp
            try:
                return float(base ** exp) if base > 0 else None
            except (OverflowError, ValueError):
                return None
        return base

    def atom(self) -> float | None:
        t = self.peek()
        if t is None:
            return None
        if t[0] == "num":
            self.i += 1
            return float(t[1])
        if t[0] == "op" and t[1] in "({[":
            close = {"(": ")", "{": "}", "[": "]"}[t[1]]
            self.i += 1
            v = self.expr()
            if v is None or not self.op(close):
                return None
            return v
        if t[0] == "id":
            if t[1] in _FUNCS:
                self.i += 1
                arg = self.atom()
                if arg is None or arg <= 0:
                    return None
                return _FUNCS[t[1]](arg)
            if t[1] in self.env:
                self.i += 1
                return self.env[t[1]]
        return None


def value_of(text: str, start: int = 0) -> tuple[tuple[float, ...], int] | None:
    """The fingerprint of the numeric expression at text[start:] and where it ends, or None."""
    toks = _Lex(text[start : start + 200]).toks
    if not toks:
        return None
    vals: list[float] = []
    end = 0
    for env in _POINTS:
        ev = _Value(toks, 0, env)
        v = ev.expr()
        if v is None or not math.isfinite(v) or ev.i == 0:
            return None
        vals.append(round(v, 9))
        end = toks[ev.i - 1][3]
    return tuple(vals), start + end


def same_value(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Two fingerprints name the same value (to 1e-6 relative)."""
    return len(a) == len(b) and all(abs(x - y) <= 1e-6 * max(abs(x), abs(y)) for x, y in zip(a, b, strict=True))


def parse_binding(source: str) -> tuple[str, tuple[float, ...]] | None:
    """A card's "alpha = (2N)^(1/4)" as (symbol, value fingerprint), or None if it does not parse."""
    from lndrill.scoring.normalize import prepare

    found = find_bindings(prepare(source).text)
    return (found[0].symbol, found[0].value) if len(found) == 1 else None


#: Code names a constant by its role ("encoder_alpha", "deepnorm_beta") and the depth by what it counts
#: ("encoder_layers", "num_layers", "n_layers"): read as the symbol and as N.
_CODE_SYMBOL = re.compile(r"(?<![a-z0-9_])[a-z][a-z0-9]*_(?=(?:alpha|beta)(?![a-z0-9_]))")
_CODE_DEPTH = re.compile(r"(?<![a-z0-9_])(?:(?:n|num|number)_(?:of_)?)?(?:[a-z]+_)?(?:layers|layer_count)(?![a-z0-9_(])")


#: A Python power between two operands ("(2 * n) ** 0.25"), not Markdown bold.
_PYTHON_POWER = re.compile(r"(?<=[a-z0-9)])\s?\*\*(?=\s?[0-9(\-])")


def _code_names(text: str) -> str:
    """Code names for symbols and the depth rewritten in place (the same length): "encoder_alpha = (2 *
    encoder_layers) ** 0.25" reads "alpha = (2 * n) ^ 0.25"."""
    if "_" not in text:
        return text
    text = _CODE_SYMBOL.sub(lambda m: " " * len(m.group()), text)
    return _CODE_DEPTH.sub(lambda m: "n".ljust(len(m.group())) if "_" in m.group() else m.group(), text)


def find_bindings(text: str) -> list[Binding]:
    """Every "symbol = value" in normalised text (also "is", "取", "为", ":" and "of" as the link)."""
    out: list[Binding] = []
    text = _code_names(text)
    if "**" in text:
        text = _PYTHON_POWER.sub(lambda m: "^".ljust(len(m.group())), text)
    for m in _SYMBOL_RE.finditer(text):
        name = m.group(1)
        index = m.group(2) or m.group(3) or ""
        symbol = _SYMBOLS.get(name + index) or _SYMBOLS.get(name)
        if symbol is None:
            continue
        pos = m.end()
        # a subscript after the symbol ("β_{FFN}") is part of its name, not the value
        sub = re.match(r"_\{[^{}]{0,20}\}|_[a-z0-9]+", text[pos:])
        if sub:
            pos += sub.end()
        link = _CONNECTOR.match(text, pos)
        if link is None:
            continue
        value = value_of(text, link.end())
        if value is None:
            continue
        fingerprint, end = value
        if not any(ch.isdigit() for ch in text[link.end() : end]):
            continue  # "alpha is n" is not a value
        out.append(Binding(symbol, fingerprint, m.start(), end))
    # An order of growth is bound to "O": "O(d sqrt(ln d / L))" and "O(d sqrt(ln d) / L)" are different values.
    # (At most MAX_ORDERS of them: a paste of "O(O(O(..." must not cost a lexer pass per bracket.)
    for m in itertools.islice(_BIG_O.finditer(text), MAX_ORDERS):
        value = value_of(text, m.end() - 1)
        if value is not None:
            out.append(Binding("O", value[0], m.start(), value[1]))
    return out


#: The orders of growth read per answer; a real answer writes a handful.
MAX_ORDERS = 64


_BIG_O = re.compile(r"(?<![a-z0-9_])(?:o|theta|θ)\s*\(")
