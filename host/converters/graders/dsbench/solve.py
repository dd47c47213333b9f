# pwp's reference model for a DSBench modelling task: least squares (a little ridge) on the
# numeric columns that train.csv and test.csv share, missing values as the column mean, then
# one-hot text columns with few values. Plain Python, so it runs in the IDE image as it is.
# Usage: solve.py TRAIN TEST OUT ID TARGET KIND (KIND: value, label or probability).
# Copied by host/converters/dsBench.ts to a task's oracle/solve.py; the oracle writes it to
# /tmp/pwp_dsbench_solve.py in the task container and runs it there with python3 and these arguments.
import csv
import sys

train_file, test_file, out_file, id_col, target, kind = sys.argv[1:7]


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


train, test = read(train_file), read(test_file)
shared = [c for c in test[0] if c in train[0] and c not in (id_col, target)]
numeric = [c for c in shared if all(number(r[c]) is not None or r[c] == "" for r in train + test)]
levels = {c: sorted({r[c] for r in train}) for c in shared if c not in numeric}
levels = {c: v for c, v in levels.items() if 1 < len(v) <= 20}
means = {c: sum(number(r[c]) or 0.0 for r in train) / len(train) for c in numeric}


def features(r):
    x = [1.0]
    x += [number(r[c]) if number(r[c]) is not None else means[c] for c in numeric]
    x += [1.0 if r[c] == v else 0.0 for c, vs in levels.items() for v in vs[1:]]
    return x


def fit(xs, ys):
    n = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) + (1e-6 if i == j and i else 0.0) for j in range(n)] for i in range(n)]
    b = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(n)]
    for col in range(n):  # Gaussian elimination with partial pivoting
        piv = max(range(col, n), key=lambda k: abs(a[k][col]))
        a[col], a[piv], b[col], b[piv] = a[piv], a[col], b[piv], b[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for k in range(n):
            if k != col:
                f = a[k][col] / a[col][col]
                a[k] = [u - f * v for u, v in zip(a[k], a[col])]
                b[k] -= f * b[col]
    return [b[i] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


xs = [features(r) for r in train]
xt = [features(r) for r in test]
predict = lambda w, x: sum(u * v for u, v in zip(w, x))
if kind == "label":
    classes = sorted({r[target] for r in train})
    ws = {c: fit(xs, [1.0 if r[target] == c else 0.0 for r in train]) for c in classes}
    out = [max(classes, key=lambda c: predict(ws[c], x)) for x in xt]
else:
    w = fit(xs, [float(r[target]) for r in train])
    out = [predict(w, x) for x in xt]
    if kind == "probability":
        out = [min(1.0, max(0.0, p)) for p in out]
    out = [f"{p:.6g}" for p in out]
with open(out_file, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow([id_col, target])
    w.writerows([[r[id_col], p] for r, p in zip(test, out)])
