#!/usr/bin/env python3
"""Driving mflb from Python: its JSON (--format json) and a sweep's CSV, with numpy, pandas and matplotlib.

    python3 examples/python/mflb_from_python.py [OUT_DIR]

Runs in a few seconds. It needs Java 17 and the application jar: cli/target/mflb.jar of this
checkout (build it with `mvn -B -q package -pl cli -am -DskipTests`), or the jar named by the
environment variable MFLB_JAR. It writes into OUT_DIR (default: mflb-python-example):
  - sweep/results.csv, sweep/results.json   the sweep of `mflb compare` over lambda (mflb's own files)
  - sweep/sweep.png, sweep/sweep.csv        mflb's overlay figure and the tidy data it draws
  - overlay.png                             the same comparison drawn here with matplotlib
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def find_jar() -> Path:
    """The jar named by MFLB_JAR, else cli/target/mflb.jar of the checkout holding this script."""
    named = os.environ.get("MFLB_JAR")
    jar = Path(named) if named else Path(__file__).resolve().parents[2] / "cli" / "target" / "mflb.jar"
    if not jar.is_file():
        sys.exit(f"mflb jar not found at {jar}: build it with `mvn -B -q package -pl cli -am -DskipTests`"
                 " or set MFLB_JAR")
    return jar


def mflb(jar: Path, *args: str) -> str:
    """Runs one mflb command and returns its standard output; its one-line error ends the script."""
    run = subprocess.run(["java", "-jar", str(jar), *args], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"mflb {' '.join(args)} failed ({run.returncode}): {run.stderr.strip()}")
    return run.stdout


def main() -> None:
    jar = find_jar()
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "mflb-python-example")
    out.mkdir(parents=True, exist_ok=True)

    # 1. One command's JSON: the SQ(2) fixed point at lambda = 0.9, against its closed form
    #    x_i = lambda^(2^i - 1) (docs/models.md section 1).
    lam, d = 0.9, 2
    fp = json.loads(mflb(jar, "fixed-point", "--system", "supermarket", "--policy", "sqd", "--d", str(d),
                         "--lambda", str(lam), "--format", "json"))
    tail = np.array(fp["tail"])
    levels = np.arange(len(tail))
    closed = lam ** ((d ** levels - 1) / (d - 1))
    print(f"fixed point, SQ({d}), lambda = {lam}: x_1..x_3 = {np.round(tail[1:4], 6).tolist()},"
          f" max |x_i - closed form| = {np.max(np.abs(tail - closed)):.1e},"
          f" mean queue length = {fp['meanQueueLength']:.6f}")

    # 2. A sweep of `compare` (fluid prediction against the simulated N-server system) over lambda:
    #    mflb writes results.csv (one row per point) and, with --plot, its own overlay and that
    #    overlay's data (sweep.csv: series,x,y,ci95Low,ci95High).
    sweep = out / "sweep"
    column = "rows.mean queue length"
    mflb(jar, "sweep", "compare", "--system", "supermarket", "--policy", "sqd", "--d", str(d), "--n", "50",
         "--lambda", "0.5,0.7,0.9", "--t-end", "300", "--replications", "4", "--seed", "1", "--quiet",
         "--out", str(sweep), "--plot", f"x=lambda,y={column}.predicted+{column}.simulated")
    results = pd.read_csv(sweep / "results.csv")
    ok = results[results["status"] == "ok"].sort_values("lambda")
    table = pd.DataFrame({
        "lambda": ok["lambda"],
        "fluid": ok[f"{column}.predicted"],
        "simulated": ok[f"{column}.simulated"],
        "ci95Low": ok[f"{column}.ci95Low"],
        "ci95High": ok[f"{column}.ci95High"],
    })
    print("mean queue length, SQ(2), N = 50: fluid against simulated (95% CI)")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    at = table[np.isclose(table["lambda"], lam)].iloc[0]
    print(f"fluid mean queue length at lambda = {lam}: sweep {at['fluid']:.6f},"
          f" fixed-point {fp['meanQueueLength']:.6f}")

    # the tidy data of mflb's own figure: one row per drawn point
    drawn = pd.read_csv(sweep / "sweep.csv")
    print("series in mflb's figure:", ", ".join(drawn["series"].unique()))

    # 3. The overlay drawn here: the fluid line, the simulated points with 95% bars.
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(table["lambda"], table["fluid"], "-", label="fluid limit (N = infinity)")
    ax.errorbar(table["lambda"], table["simulated"],
                yerr=[table["simulated"] - table["ci95Low"], table["ci95High"] - table["simulated"]],
                fmt="o", capsize=4, label="simulated, N = 50 (95% CI)")
    ax.set_xlabel("arrival rate per server, lambda")
    ax.set_ylabel("mean queue length")
    ax.set_title("SQ(2): fluid against simulation")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "overlay.png", dpi=100)
    print(f"figure: {out / 'overlay.png'}")


if __name__ == "__main__":
    main()
