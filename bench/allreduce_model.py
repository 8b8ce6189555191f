"""The ring all-reduce cost model of docs/distributed.md ("Scale on
paper"): time per step to all-reduce B bytes of gradients over N ranks,

    T(N) = 2 (N - 1) / N * B / bandwidth + 2 (N - 1) * latency * buckets

(reduce-scatter then all-gather, each N - 1 steps moving B / N bytes; every
bucket pays the latency terms). Prints a Markdown table.

    python3 bench/allreduce_model.py [--latency-us 5]
"""
import argparse

# name: (parameters, bytes per parameter)
MODELS = {
    "MLP 64-128-10 (demo), f32": (64 * 128 + 128 + 128 * 10 + 10, 4),
    "LeNet-5 (classic, 32x32 input), f32": (61706, 4),
    "ResNet-50 (for scale), f32": (25_557_032, 4),
}
BUCKET = 25 * 1024 * 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency-us", type=float, default=5.0)
    args = ap.parse_args()
    alpha = args.latency_us * 1e-6
    ranks = [2, 4, 8, 16, 32, 64, 128, 256]
    print("| model | gradient bytes | buckets | link | "
          + " | ".join(f"N={n}" for n in ranks) + " |")
    print("|---|---|---|---|" + "---|" * len(ranks))
    for name, (params, size) in MODELS.items():
        b = params * size
        buckets = max(1, -(-b // BUCKET))
        for gbit in (10, 100):
            bw = gbit * 1e9 / 8
            cells = []
            for n in ranks:
                t = 2 * (n - 1) / n * b / bw + 2 * (n - 1) * alpha * buckets
                cells.append(f"{t * 1e3:.3g} ms")
            print(f"| {name} | {b / 1e6:.3g} MB | {buckets} | {gbit} Gb/s | "
                  + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
