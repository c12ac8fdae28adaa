"""Make, grade and score a blind batch of answers, the way tests/blind was built.

Helpers write and grade in a work directory OUTSIDE the repository (they must never see a rubric or the scorer):

  python benchmarks/blind_batch.py init WORKDIR --suffix zq --batch 40 [--seen OLD/real_*.yaml]   # prompts.md, briefs
  # writers: "Read WORKDIR/WRITERS.md and follow it exactly. ln-facts.md is at PATH. Your cards: ... Your output
  #           file: WORKDIR/A.yaml (write only that file)"  (about 2-3 cards per writer, one file each: A, B, ...)
  python benchmarks/blind_batch.py shuffle WORKDIR --files A B C --first 1 --graders 3 --seed 4040
  # graders: "Read WORKDIR/GRADERS.md ... input WORKDIR/tograde/G1.yaml, output WORKDIR/graded_G1.yaml"
  python benchmarks/blind_batch.py merge WORKDIR           # writer + grader -> WORKDIR/merged.yaml (grade = mean)
  python benchmarks/blind_batch.py score WORKDIR/merged.yaml [--per]   # score it BEFORE anyone reads it
  python benchmarks/blind_batch.py intotune WORKDIR --suffix zq --ordinal fortieth   # once used: tuning half
  python benchmarks/blind_batch.py intofrozen WORKDIR --suffix zq --ordinal fortieth  # or, never read: frozen half

Real passages (never committed: the text is not ours) follow the same path with WORKDIR/COLLECT.md for the
collectors and two graders; `merge-real WORKDIR SET` averages graded_R1_SET.yaml and graded_R2_SET.yaml. `init` gives
collectors the pages of every earlier set from benchmarks/blind/used_pages.txt (addresses only): append each new set's
`source` addresses to it and commit them, so the list outlives the work directory.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

import yaml

from lndrill.cards.deck import load_deck

HERE = Path(__file__).resolve().parent
TUNE = HERE.parent / "tests" / "blind" / "tune"
FROZEN = HERE.parent / "tests" / "blind" / "frozen"
BRIEFS = HERE / "blind"
#: Source addresses of the real passages collected so far (addresses only; the passages stay out of the repository).
_USED_PAGES = BRIEFS / "used_pages.txt"


def _dump(data: object, path: Path) -> None:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8")


def _load(path: Path) -> object:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def init(work: Path, suffix: str, batch: str, seen: list[Path] | None = None) -> None:
    """prompts.md (each card's prompts only), the writer, grader and collector briefs, and used_pages.txt: the source
    pages of earlier real sets (`seen`), which collectors must not use again (a passage already graded and read
    measures nothing new: real sets y, z, v shared pages before this list existed)."""
    work.mkdir(parents=True, exist_ok=True)
    # (the addresses of earlier sets' pages are kept in the repository, not their text: a work directory has been lost
    # with its machine seven times, and its list with it)
    pages: set[str] = set(_USED_PAGES.read_text(encoding="utf-8").split()) if _USED_PAGES.exists() else set()
    for path in seen or []:
        for item in _load(path) or []:
            if isinstance(item, dict) and item.get("source"):
                pages.add(str(item["source"]).strip())
    (work / "used_pages.txt").write_text("".join(f"{u}\n" for u in sorted(pages)), encoding="utf-8")
    parts = ["# Card prompts (the only thing candidates see)\n"]
    for card in load_deck().cards.values():
        parts.append(f"## card: {card.id}\n\nTitle: {card.title.get('en')} / {card.title.get('zh')}\n\n"
                     f"Prompt (en):\n{card.prompt.get('en')}\nPrompt (zh):\n{card.prompt.get('zh')}\n")
    (work / "prompts.md").write_text("\n".join(parts), encoding="utf-8")
    for name in ("WRITERS.md", "GRADERS.md", "COLLECT.md"):
        text = (BRIEFS / name).read_text(encoding="utf-8").replace("<workdir>", str(work))
        text = text.replace("SUFFIX", suffix).replace("batch NN", f"batch {batch}")
        (work / name).write_text(text, encoding="utf-8")
    print(f"wrote prompts.md, WRITERS.md, GRADERS.md, COLLECT.md and used_pages.txt ({len(pages)} pages) to {work}")


def shuffle(work: Path, files: list[str], first: int, graders: int, seed: int) -> None:
    """The writers' answers (id, card, text only: no writer grade) shuffled into graders' input files."""
    items = [{"id": a["id"], "card": c["card"], "text": a["text"]}
             for f in files for c in _load(work / f"{f}.yaml") for a in c["answers"]]  # type: ignore[union-attr]
    random.Random(seed).shuffle(items)
    (work / "tograde").mkdir(exist_ok=True)
    for i in range(graders):
        part = items[i::graders]
        _dump(part, work / "tograde" / f"G{first + i}.yaml")
        print(f"G{first + i}: {len(part)} answers")


def _quotes(errors: list | None, text: str, who: str, seen: set[str]) -> list[dict[str, str]]:
    out = []
    for e in errors or []:
        quote = e["quote"] if isinstance(e, dict) else str(e)
        if quote in text and quote not in seen:
            seen.add(quote)
            out.append({"quote": quote, "why": f"marked as a factual error by the {who}"})
    return out


def merge(work: Path) -> None:
    """Writer and grader grades averaged, errors (exact quotes) joined, into merged.yaml."""
    graded = {g["id"]: g for p in sorted(work.glob("graded_G*.yaml")) for g in _load(p)}  # type: ignore[union-attr]
    out = []
    for path in sorted(work.glob("[A-Z].yaml")):
        for c in _load(path):  # type: ignore[union-attr]
            for a in c["answers"]:
                g = graded.get(a["id"])
                if g is None:
                    continue
                mean = (int(a["grade"]) + int(g["grade"])) / 2
                seen: set[str] = set()
                errors = _quotes(a.get("errors"), a["text"], "writer", seen) + _quotes(g.get("errors"), a["text"], "grader", seen)
                out.append({"id": a["id"], "card": c["card"], "lang": a["lang"], "style": a["style"],
                            "kind": a.get("kind") or "", "grade": int(mean) if mean == int(mean) else mean,
                            "grades": {"writer": int(a["grade"]), "grader": int(g["grade"])}, "errors": errors,
                            "text": a["text"]})
    _dump(out, work / "merged.yaml")
    print(f"{len(out)} answers merged into {work / 'merged.yaml'}")


def merge_real(work: Path, name: str) -> None:
    """Two graders' grades of a real set averaged into merged_NAME.yaml."""
    src = _load(work / f"{name}.yaml")
    g1 = {g["id"]: g for g in _load(work / f"graded_R1_{name}.yaml")}  # type: ignore[union-attr]
    g2 = {g["id"]: g for g in _load(work / f"graded_R2_{name}.yaml")}  # type: ignore[union-attr]
    out = []
    for a in src:  # type: ignore[union-attr]
        seen: set[str] = set()
        errors = _quotes(g1[a["id"]].get("errors"), a["text"], "grader", seen) + \
            _quotes(g2[a["id"]].get("errors"), a["text"], "grader", seen)
        out.append({"id": a["id"], "card": a["card"], "kind": "", "errors": errors, "text": a["text"],
                    "grade": (g1[a["id"]]["grade"] + g2[a["id"]]["grade"]) / 2})
    _dump(out, work / f"merged_{name}.yaml")
    print(f"{len(out)} passages merged into {work / f'merged_{name}.yaml'}")


def score(path: Path, per: bool) -> None:
    """rho, MAD, precision and false-mistake rate of a merged file, overall and per card."""
    sys.path.insert(0, str(HERE))
    import eval_scorer as ev

    items = [ev.Graded(a["card"], a["id"], float(a["grade"]), a["text"], a.get("kind") or "",
                       tuple(e["quote"] for e in a.get("errors") or ()), True) for a in _load(path)]  # type: ignore[union-attr]
    rows = ev.evaluate(items)
    print("ALL                     ", ev._fmt(ev._summary(rows)))
    by = collections.defaultdict(list)
    for r in rows:
        by[r.g.card].append(r)
    for card in sorted(by):
        print(f"{card[:24]:24s}", ev._fmt(ev._summary(by[card])))
    clean = [r for r in rows if not r.g.errors]
    print(f"error-free answers charged a mistake: {sum(1 for r in clean if r.fired)} of {len(clean)}")
    if per:
        for r in sorted(rows, key=lambda r: r.score - r.g.grade):
            print(f"{r.g.id:34s} grade {r.g.grade:5.1f} score {r.score:3d} {r.g.kind:8s} {r.fired}")


def into_tune(work: Path, suffix: str, ordinal: str, half: str = "tune") -> None:
    """Append merged.yaml to the tuning half (or, with half="frozen", to the frozen half: a batch nobody has read,
    scored once, that only ever grows what eval_scorer reports on), card by card, with a header line naming the
    batch. It prints only counts, never an answer."""
    by = collections.defaultdict(list)
    for a in _load(work / "merged.yaml"):  # type: ignore[union-attr]
        by[a["card"]].append({k: a[k] for k in ("id", "lang", "style", "kind", "grade", "grades", "errors", "text")})
    use = "for tuning only" if half == "tune" else "frozen: never read while tuning, only scored"
    for card, answers in by.items():
        path = (TUNE if half == "tune" else FROZEN) / f"{card}.yaml"
        lines = path.read_text(encoding="utf-8").split("\n")
        at = next(k for k, line in enumerate(lines) if line.startswith("card:"))
        lines.insert(at, f"# Answers -{suffix}01..-{suffix}09 are a {ordinal} batch (written and graded blind the same "
                         f"way), {use}.")
        text = "\n".join(lines).rstrip("\n") + "\n"
        text += yaml.safe_dump(answers, allow_unicode=True, sort_keys=False, width=120)
        path.write_text(text, encoding="utf-8")
        print(f"{card}: +{len(answers)}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("init", help="prompts.md and the briefs in WORKDIR")
    p.add_argument("work", type=Path)
    p.add_argument("--suffix", required=True, help="the answer id suffix of this batch, e.g. zq")
    p.add_argument("--batch", required=True, help="the batch number, e.g. 40")
    p.add_argument("--seen", nargs="*", type=Path, default=[],
                   help="earlier real_*.yaml sets whose source pages collectors must not use again")
    p = sub.add_parser("shuffle", help="graders' input files from the writers' files")
    p.add_argument("work", type=Path)
    p.add_argument("--files", nargs="+", required=True, help="writer files without .yaml (A B C)")
    p.add_argument("--first", type=int, default=1, help="number of the first grader file (G1)")
    p.add_argument("--graders", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("merge", help="merged.yaml from writer and grader files")
    p.add_argument("work", type=Path)
    p = sub.add_parser("merge-real", help="merged_SET.yaml from a real set and its two graders")
    p.add_argument("work", type=Path)
    p.add_argument("name")
    p = sub.add_parser("score", help="score a merged file")
    p.add_argument("path", type=Path)
    p.add_argument("--per", action="store_true", help="one line per answer, worst under-score first")
    p = sub.add_parser("intotune", help="append merged.yaml to tests/blind/tune")
    p.add_argument("work", type=Path)
    p.add_argument("--suffix", required=True)
    p.add_argument("--ordinal", required=True, help="e.g. fortieth")
    p = sub.add_parser("intofrozen", help="append an UNREAD merged.yaml to tests/blind/frozen (after scoring it once)")
    p.add_argument("work", type=Path)
    p.add_argument("--suffix", required=True)
    p.add_argument("--ordinal", required=True, help="e.g. sixty-seventh")
    a = ap.parse_args(argv)
    if a.cmd == "init":
        init(a.work, a.suffix, a.batch, a.seen)
    elif a.cmd == "shuffle":
        shuffle(a.work, a.files, a.first, a.graders, a.seed)
    elif a.cmd == "merge":
        merge(a.work)
    elif a.cmd == "merge-real":
        merge_real(a.work, a.name)
    elif a.cmd == "score":
        score(a.path, a.per)
    else:
        into_tune(a.work, a.suffix, a.ordinal, "tune" if a.cmd == "intotune" else "frozen")


if __name__ == "__main__":
    main()
