"""The simulator's guard and its output (issue 11, items 13-15): a run the guard accepts fits in its
memory budget, a run it cannot afford is one line before anything is allocated, running out of memory
anyway is one line with status 2, values that overflow are null in JSON with a note and no warning, and
every bad option keeps its own message. (How the time estimate compares with real runs is measured by
benchmarks/bench_sim_guard.py, not asserted here.)"""

from __future__ import annotations

import json
import tracemalloc

import pytest

from lndrill.cli import main
from lndrill.sim import SimConfig, sweep
from lndrill.sim.config import MEMORY_BUDGET_BYTES, SimConfigError, estimate_cost


def run_sim(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["sim", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lndrill: error: "), err
    return lines[0]


# ---------------------------------------------------------------------------------------------- item 13
@pytest.mark.parametrize(("argv", "message"), [
    (["--model", "transformer", "--vocab", "5000000", "--depths", "1", "--metric", "last-layer"],
     "vocab must be at most 1,000,000 (got 5000000)"),
    (["--model", "transformer", "--vocab", "20000000"], "vocab must be at most 1,000,000"),
    (["--seeds", "10000000"], "seeds must be at most 10,000"),
    (["--width", "9" * 5000], "must be a whole number (got '9999"),
    (["--model", "transformer", "--vocab", "1000000", "--seeds", "4", "--metric", "last-layer", "--depths", "1"],
     "this run would need about"),
    (["--metric", "stream", "--depths", "100000", "--seeds", "1000"], "GB of memory (limit 2 GB)"),
    (["--model", "transformer", "--metric", "jacobian", "--tokens", "64"], "this run would take about"),
])
def test_runs_the_guard_cannot_afford_are_one_line_and_status_2(capsys, argv, message) -> None:
    code, out, err = run_sim(["--json", *argv], capsys)
    assert code == 2 and out == ""
    line = one_error(err)
    assert message in line and len(line) < 200


@pytest.mark.parametrize("options", [
    {"model": "transformer", "metric": "last-layer", "vocab": 50_000, "seeds": 4, "depths": "1-3"},
    {"model": "transformer", "metric": "param", "depths": "24", "seeds": 16, "placements": "deepnorm,post"},
    {"model": "transformer", "metric": "jacobian", "depths": "1-4", "seeds": 8, "tokens": 6, "width": 24},
    {"metric": "param", "depths": "3000", "untied": True, "width": 32},
    {"metric": "jacobian", "depths": "1-24", "width": 96, "seeds": 16, "placements": "sandwich", "final_ln": True},
    {"metric": "stream", "depths": "20000", "seeds": 64, "width": 8},
])
def test_the_memory_estimate_covers_every_array_a_run_allocates(options) -> None:
    cfg = SimConfig.from_options(**options)
    _, estimate = estimate_cost(cfg)
    tracemalloc.start()
    try:
        sweep(cfg)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak > 1e6  # the cases are big enough to matter
    assert peak <= estimate <= 4 * peak, (peak, estimate)


def test_every_accepted_configuration_is_within_the_memory_budget() -> None:
    for width in (2, 64, 512, 4096):
        for seeds in (1, 100, 10_000):
            for vocab in (2, 100_000, 1_000_000):
                try:
                    cfg = SimConfig.from_options(model="transformer", metric="last-layer", width=width,
                                                 seeds=seeds, vocab=vocab, depths="1-4")
                except SimConfigError:
                    continue
                assert estimate_cost(cfg)[1] <= MEMORY_BUDGET_BYTES


def test_running_out_of_memory_anyway_is_one_line_and_status_2(capsys, monkeypatch) -> None:
    import lndrill.sim as sim

    def exhausted(cfg):  # type: ignore[no-untyped-def]
        raise MemoryError

    monkeypatch.setattr(sim, "sweep", exhausted)
    code, out, err = run_sim(["--json"], capsys)
    assert code == 2 and out == ""
    assert one_error(err) == ("lndrill: error: the simulation ran out of memory; reduce width, depths, seeds, "
                              "tokens or vocab")


# ---------------------------------------------------------------------------------------------- item 14
def test_values_that_overflow_are_null_in_json_with_a_note_and_no_warning(capsys) -> None:
    code, out, err = run_sim(["--json", "--width", "2", "--placements", "pre", "--depths", "1-10000",
                              "--seeds", "64"], capsys)
    assert code == 0 and err == ""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    data = json.loads(out, parse_constant=refuse)
    values = data["values"]["pre"]
    assert None in values and all(v is None or isinstance(v, float) for v in values)
    assert any("not finite numbers" in note and "--json as null" in note for note in data["notes"])


def test_the_chart_of_overflowing_values_says_so_too(capsys) -> None:
    code, out, err = run_sim(["--plain", "--width", "2", "--placements", "pre", "--depths", "9990-10000",
                              "--seeds", "64"], capsys)
    assert code == 0 and err == ""
    assert "not finite numbers" in out


def test_finite_results_have_no_such_note(capsys) -> None:
    code, out, _ = run_sim(["--json", "--depths", "1-8"], capsys)
    assert code == 0 and "not finite" not in out and None not in json.loads(out)["values"]["post"]


# ---------------------------------------------------------------------------------------------- item 15
@pytest.mark.parametrize(("argv", "message"), [
    (["--depths", "5-1"], "argument --depths: depth range '5-1' runs backwards (write 1-5)"),
    (["--depths", "1-1000000000000"], "depth range '1-1000000000000' goes past the deepest stack, 100,000"),
    (["--depths", "1-x"], "cannot read depths '1-x'"),
    (["--depths", "200000"], "depth must be at most 100,000 (got 200000)"),
    (["--bogus"], "unrecognized arguments: --bogus (see `lndrill sim --help`)"),
])
def test_each_bad_option_keeps_its_own_message(capsys, argv, message) -> None:
    code, out, err = run_sim(["--json", *argv], capsys)
    assert code == 2 and out == ""
    assert message in one_error(err)


def test_an_unknown_option_of_any_subcommand_points_at_that_subcommand(capsys) -> None:
    assert main(["cards", "list", "--bogus"]) == 2
    assert capsys.readouterr().err.endswith("(see `lndrill cards list --help`)\n")
    assert main(["--bogus"]) == 2
    assert capsys.readouterr().err.endswith("(see `lndrill --help`)\n")
