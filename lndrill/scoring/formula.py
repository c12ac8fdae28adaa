"""Formulas parsed into structure, so `LN(x + F(x))`, `\\mathrm{LayerNorm}(x_l+\\mathcal{F}(x_l))`
and `输出 = Norm(F(h) + h)` are recognised as the same thing.

Scanning finds expressions in free text; each side of an equation is canonicalised:
normalisation functions (LN, LayerNorm, Norm, RMSNorm, ...) become `N`, sublayers (F, f, G,
Sublayer, Attn, FFN, MLP, Block, 子层, ...) become `F`, the stream variable (x, x_l, h, h_l, z,
输入, ...) becomes `x`, sums and products are flattened and sorted (so `x + F` equals `F + x`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NORM_NAMES = {"ln", "layernorm", "norm", "layer_norm", "layernormalization", "rmsnorm", "rms_norm",
              "normalize", "normalization", "n", "lnorm"}
BRANCH_NAMES = {"f", "g", "sublayer", "attn", "attention", "ffn", "mlp", "block", "layer", "sa",
                "selfattn", "selfattention", "mha", "fn", "branch", "t", "h_f", "子层", "分支", "注意力",
                "前馈", "模块"}
STREAM_NAMES = {"x", "h", "z", "v", "u", "a", "input", "输入", "hidden"}
COEFF_NAMES = {"α": "α", "alpha": "α", "β": "β", "beta": "β", "γ": "γ", "gamma": "γ", "λ": "λ",
               "lambda": "λ"}

_LATEX_WRAPPERS = re.compile(
    r"\\(?:mathrm|text|operatorname|mathcal|mathbf|mathit|textrm|rm|mathsf|boldsymbol|textbf|textit|mathtt)"
    r"\s*\{([^{}]{0,40})\}"
)
_LATEX_DROP = re.compile(r"\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big|,|;|!|quad|qquad)|\$|\\\(|\\\)|\\\[|\\\]")
_LATEX_SYMBOL = {"\\cdot": "*", "\\times": "*", "\\alpha": "α", "\\beta": "β", "\\gamma": "γ",
                 "\\lambda": "λ", "\\sqrt": "sqrt"}
_LATEX_SYMBOL_RE = re.compile(r"\\(?:cdot|times|alpha|beta|gamma|lambda|sqrt)(?![a-z])")

_TOK_RE = re.compile(
    r"(?P<id>[a-z][a-z0-9]*|[α-ω]|子层|分支|输入|输出|注意力|前馈|模块)"
    r"|(?P<num>[0-9]+(?:\.[0-9]+)?)"
    r"|(?P<op>[-+*/=^(){}\[\],_'])"
    r"|(?P<ws>[ \t]+)"
)


@dataclass(frozen=True)
class FormulaMatch:
    """A formula found in text: canonical forms of its sides and its span in the normalised text."""

    sides: tuple[str, ...]
    start: int
    end: int


def _latex_plain(text: str) -> tuple[str, list[int]]:
    """Strip LaTeX wrappers, keeping an offset map to the input."""
    out: list[str] = []
    origin: list[int] = []
    pos = 0
    pattern = re.compile(f"{_LATEX_WRAPPERS.pattern}|{_LATEX_DROP.pattern}|{_LATEX_SYMBOL_RE.pattern}")
    for m in pattern.finditer(text):
        out.append(text[pos : m.start()])
        origin.extend(range(pos, m.start()))
        if m.group(1) is not None:
            inner = m.group(1)
            out.append(inner)
            origin.extend([m.start()] + list(range(m.start(1) + 1, m.end(1)))[: len(inner)])
        elif m.group().startswith("\\") and m.group() in _LATEX_SYMBOL:
            rep = _LATEX_SYMBOL[m.group()]
            out.append(rep)
            origin.extend([m.start()] * len(rep))
        else:
            out.append(" ")
            origin.append(m.start())
        pos = m.end()
    out.append(text[pos:])
    origin.extend(range(pos, len(text)))
    return "".join(out), origin


class _Lex:
    def __init__(self, text: str) -> None:
        self.toks: list[tuple[str, str, int, int]] = []
        pos = 0
        for m in _TOK_RE.finditer(text):
            if m.start() != pos:
                self.toks.append(("brk", text[pos : m.start()], pos, m.start()))
            kind = m.lastgroup or "brk"
            if kind != "ws":
                self.toks.append((kind, m.group(), m.start(), m.end()))
            pos = m.end()
        if pos < len(text):
            self.toks.append(("brk", text[pos:], pos, len(text)))


class _Parser:
    """Recursive descent over formula tokens; returns canonical strings or None."""

    def __init__(self, toks: list[tuple[str, str, int, int]], i: int) -> None:
        self.toks = toks
        self.i = i
        self.calls = 0
        self.depth = 0

    def peek(self, k: int = 0) -> tuple[str, str, int, int] | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def accept(self, value: str) -> bool:
        t = self.peek()
        if t and t[0] == "op" and t[1] == value:
            self.i += 1
            return True
        return False

    def expr(self) -> str | None:
        self.depth += 1
        if self.depth > 40:
            return None
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
            t = self.term()
            if t is None:
                self.i = save
                break
            terms.append(f"-{t}" if sign else t)
        self.depth -= 1
        if len(terms) == 1:
            return terms[0]
        flat: list[str] = []
        for t in terms:
            flat.extend(t[2:-1].split("\x00") if t.startswith("+(") and "\x00" in t else [t])
        return "+(" + "\x00".join(sorted(flat)) + ")"

    def term(self) -> str | None:
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
                g = None if g is None else f"inv({g})"
            elif factors[-1] in COEFF_NAMES.values() or re.fullmatch(r"[0-9.]+", factors[-1]):
                g = self.factor()  # juxtaposition: "α x", "2 x"
            else:
                break
            if g is None:
                self.i = save
                break
            factors.append(g)
        if len(factors) == 1:
            return factors[0]
        return "*(" + "\x00".join(sorted(factors)) + ")"

    def _subscript(self) -> None:
        # x_l, x_{l+1}, x^{(l)}, x' : decorations of a name, ignored for structure.
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
                while self.peek():
                    tok = self.peek()
                    self.i += 1
                    if tok[0] == "op" and tok[1] in "{(":
                        depth += 1
                    elif tok[0] == "op" and tok[1] in "})":
                        depth -= 1
                        if depth == 0 and tok[1] == close:
                            break
            elif nxt and nxt[0] in ("id", "num"):
                self.i += 1

    def factor(self) -> str | None:
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
            return inner
        if t[0] != "id":
            return None
        name = t[1]
        self.i += 1
        self._subscript()
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
            fname = "N" if name in NORM_NAMES else "F" if name in BRANCH_NAMES else name
            return f"{fname}(" + ",".join(args) + ")"
        if name in COEFF_NAMES:
            return COEFF_NAMES[name]
        if name in STREAM_NAMES:
            return "x"
        if name in NORM_NAMES | BRANCH_NAMES:
            return "F" if name in BRANCH_NAMES else "N"
        return name


def canonical(expr: str) -> str | None:
    """Canonical structure of a single expression (e.g. from a card), or None if it does not parse."""
    from lndrill.scoring.normalize import prepare

    plain, _ = _latex_plain(prepare(expr).text)
    lex = _Lex(plain)
    p = _Parser(lex.toks, 0)
    out = p.expr()
    if out is None or p.i != len(lex.toks):
        return None
    return out


def _structured(side: str) -> bool:
    return "(" in side and ("N(" in side or "F(" in side)


def find_formulas(text: str) -> list[FormulaMatch]:
    """Every formula in normalised `text`, each side canonicalised, with its character span."""
    if "(" not in text:
        return []
    plain, origin = _latex_plain(text)
    toks = _Lex(plain).toks
    found: list[FormulaMatch] = []
    i = 0
    while i < len(toks):
        kind = toks[i][0]
        if kind not in ("id", "num", "op") or (kind == "op" and toks[i][1] not in "([{-"):
            i += 1
            continue
        p = _Parser(toks, i)
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
        if structured and p.calls:
            first_start = next(k for s, k in sides if _structured(s))
            start = origin[toks[first_start][2]]
            end = origin[toks[p.i - 1][3] - 1] + 1
            found.append(FormulaMatch(structured, start, end))
            i = p.i
        else:
            i += 1
    return found
