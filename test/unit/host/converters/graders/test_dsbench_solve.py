# dsbench/solve.py: the oracle's least-squares model fits train.csv and writes a submission for
# test.csv (values, labels or probabilities) with the id column first.
import csv
import subprocess
import sys

import pytest


def solve(graders, tmp_path, train, test, kind, target="y"):
    for name, rows in (("train.csv", train), ("test.csv", test)):
        with open(tmp_path / name, "w", newline="") as f:
            w = csv.writer(f)
            w.writerows(rows)
    r = subprocess.run([sys.executable, str(graders / "dsbench/solve.py"), "train.csv", "test.csv", "out.csv", "id", target, kind],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "out.csv", newline="") as f:
        return list(csv.reader(f))


def test_fits_a_linear_target_from_numeric_and_text_columns(graders, tmp_path):
    train = [["id", "x", "c", "y"]] + [[str(i), str(i), c, str(2 * i + 1 + (10 if c == "b" else 0))] for i in range(10) for c in "ab"]
    out = solve(graders, tmp_path, train, [["id", "x", "c"], ["t1", "20", "a"], ["t2", "", "b"]], "value")
    assert out[0] == ["id", "y"] and [r[0] for r in out[1:]] == ["t1", "t2"]
    assert float(out[1][1]) == pytest.approx(41, abs=1e-3)
    # A missing value is the column's mean (4.5): 2 * 4.5 + 1 + 10.
    assert float(out[2][1]) == pytest.approx(20, abs=1e-3)


def test_predicts_labels_and_clamps_probabilities(graders, tmp_path):
    train = [["id", "x", "y"]] + [[str(i), str(i), "hi" if i >= 5 else "lo"] for i in range(10)]
    out = solve(graders, tmp_path, train, [["id", "x"], ["a", "0"], ["b", "9"]], "label")
    assert out[1:] == [["a", "lo"], ["b", "hi"]]
    train = [["id", "x", "y"]] + [[str(i), str(i), "1" if i >= 5 else "0"] for i in range(10)]
    out = solve(graders, tmp_path, train, [["id", "x"], ["a", "-100"], ["b", "100"]], "probability")
    assert [float(p) for _, p in out[1:]] == [0.0, 1.0]
