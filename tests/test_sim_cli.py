"""`lndrill sim` in-process: JSON shape, plain output without ANSI codes, one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from lndrill.cli import main
from lndrill.sim import SimConfig, sweep
from lndrill.sim.render import SimChart


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["sim", *argv])
    except SystemExit as exc:  # argparse-level problems exit from inside parse_args
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_sweep_shape(capsys):
    code, out, err = run_cli(["--json", "--depths", "1,6,12,24", "--width", "16"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["metric"] == "jacobian"
    assert data["depths"] == [1, 6, 12, 24]
    assert set(data["values"]) == {"post", "pre"}
    assert all(len(v) == 4 and all(isinstance(x, float) for x in v) for v in data["values"].values())
    assert data["notes"] == []


def test_json_per_layer_shape(capsys):
    code, out, _ = run_cli(["--json", "--model", "transformer", "--metric", "stream", "--depths", "5",
                            "--width", "16", "--placements", "pre,sandwich"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["depth"] == 5 and data["layers"] == [1, 2, 3, 4, 5] and "depths" not in data
    assert set(data["values"]) == {"pre", "sandwich"}
    assert all(len(v) == 5 for v in data["values"].values())


def test_json_article_preset_has_both_metrics_and_the_note(capsys):
    code, out, _ = run_cli(["--json", "--preset", "article"], capsys)
    data = json.loads(out)
    assert code == 0 and data["metric"] == "article"
    assert round(data["values"]["pre"][3], 4) == 109.4523
    assert data["companion"]["metric"] == "jacobian"
    assert round(data["companion"]["values"]["post"][0], 3) == 5.759
    assert any("degenerate" in n and "jacobian" in n for n in data["notes"])


def test_plain_article_preset_prints_both_columns_and_the_note_without_ansi(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, err = run_cli(["--plain", "--preset", "article"], capsys)
    assert code == 0 and err == ""
    assert "\x1b[" not in out
    for text in ("0.0047", "2.1e-06", "3.5273", "109.4523", "5.7590", "7.7e-09", "3.1135", "Post-LN", "Pre-LN"):
        assert text in out
    assert "degenerate" in out
    assert "as published: article" in out and "faithful: jacobian" in out


def test_plain_honours_no_color(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cli(["--plain", "--width", "8", "--depths", "1-3", "--scale", "linear"], capsys)
    assert code == 0 and "\x1b[" not in out and "depth 3" in out and "linear scale" in out


def test_no_flag_falls_back_to_plain(capsys):
    code, out, _ = run_cli(["--width", "8", "--depths", "2"], capsys)
    assert code == 0 and "depth 2" in out and "Pre-LN" in out


def test_colours_when_forced_to_a_terminal():
    result = sweep(SimConfig(width=8, depths=[1, 2]))
    console = Console(force_terminal=True, color_system="truecolor", width=80, record=True)
    console.print(SimChart(result))
    assert "\x1b[" in console.export_text(styles=True)


def test_note_text_is_never_read_as_markup():
    result = sweep(SimConfig(width=8, depths=[1]))
    result.notes.append("[bold red]not markup[/bold red]")
    console = Console(width=100, record=True, color_system=None)
    console.print(SimChart(result))
    assert "[bold red]not markup[/bold red]" in console.export_text()


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--plain", "--depths", "0"], "depth must be at least 1"),
        (["--plain", "--width", "1"], "width must be at least 2"),
        (["--json", "--metric", "gradient"], "unknown metric 'gradient'"),
        (["--json", "--placements", "post,middle"], "unknown placement 'middle'"),
        (["--json", "--metric", "param", "--depths", "4,8"], "pass one depth"),
        (["--json", "--width", "4096", "--depths", "1-400"], "reduce width, depths or seeds"),
        (["--json", "--plain"], "choose one of --plain and --json"),
        (["--plain", "--scale", "cubic"], "unknown scale"),
        (["--plain", "--width", "wide"], "whole number"),
        (["--plain", "--preset", "article", "--width", "8"], "the article preset fixes width"),
        (["--plain", "--depths", "1-x"], "cannot read depths"),
        (["--plain", "--width"], "expected one argument"),
    ],
)
def test_bad_options_exit_2_with_one_line(capsys, argv, fragment):
    code, out, err = run_cli(argv, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("lndrill: error: ") and fragment in lines[0]
    assert "Traceback" not in err


def test_help_describes_every_option(capsys):
    code, out, _ = run_cli(["--help"], capsys)
    assert code == 0
    for option in ("--plain", "--json", "--preset", "--model", "--metric", "--depths", "--width", "--seed ",
                   "--seeds", "--placements", "--scale", "--tokens", "--vocab", "--final-ln", "--untied"):
        assert option in out


@pytest.mark.system
def test_sim_core_never_imports_textual():
    import subprocess
    import sys

    code = "import sys, lndrill.sim, lndrill.sim.render, lndrill.cli.sim; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
