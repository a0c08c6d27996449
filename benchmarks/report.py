#!/usr/bin/env python3
"""Formats the results of bin/bench-zarr (JMH JSON plus compression ratios) as Markdown tables.

usage: report.py RESULTS_DIR   (reads jmh.json and compression-ratios.tsv there, prints Markdown)

Every benchmark scores uncompressed bytes per second (one JMH operation is one byte); MB/s here is 10^6 bytes/s.
"""
import json
import math
import os
import sys

# Display order; names the run does not know are appended after these.
CODECS = [
    "none", "zlib-1", "gzip-1", "zstd-1", "zstd-3", "lz4", "bz2-1",
    "blosc-lz4-shuffle-5", "blosc-lz4-bitshuffle-5", "blosc-zstd-shuffle-5",
    "blosc-blosclz-shuffle-5", "blosc-zlib-shuffle-5", "blosc-lz4hc-shuffle-5",
]
COMPRESSORS = ["default", "none"]
CODEC_BENCH = "io.cubed.bench.CodecBenchmark."
IO_BENCH = "io.cubed.bench.ZarrIoBenchmark."
NOT_RUN = "not run"


def load_scores(path):
    """(method, param value or None) -> (bytes/s, error bytes/s) from a JMH JSON file."""
    scores = {}
    if not os.path.exists(path):
        return scores
    with open(path, encoding="utf-8") as f:
        runs = json.load(f)
    for run in runs:
        name = run["benchmark"]
        params = run.get("params") or {}
        metric = run["primaryMetric"]
        if metric.get("scoreUnit") != "ops/s":
            raise SystemExit("unexpected unit %r for %s" % (metric.get("scoreUnit"), name))
        key_param = params.get("codec", params.get("compressor"))
        scores[(name, key_param)] = (float(metric["score"]), float(metric.get("scoreError", "nan")))
    return scores


def load_ratios(path):
    """codec -> raw/encoded size, the last line per codec of compression-ratios.tsv."""
    ratios = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split("\t")
                if len(parts) == 3:
                    ratios[parts[0]] = int(parts[1]) / int(parts[2])
    return ratios


def mbs(score):
    """'1234 ± 5' in MB/s, or NOT_RUN."""
    if score is None:
        return NOT_RUN
    value, err = score
    text = "%.0f" % (value / 1e6)
    if not math.isnan(err):
        text += " ± %.0f" % (err / 1e6)
    return text


def ratio(a, b, fmt="%.2f"):
    """a / b of two scores' values, or NOT_RUN."""
    if a is None or b is None or b[0] == 0:
        return NOT_RUN
    return fmt % (a[0] / b[0])


def ordered(known, seen):
    return known + sorted(n for n in seen if n not in known)


def codec_table(scores, ratios):
    seen = {p for (name, p) in scores if name.startswith(CODEC_BENCH)} | set(ratios)
    dec = lambda c: scores.get((CODEC_BENCH + "decode", c))
    enc = lambda c: scores.get((CODEC_BENCH + "encode", c))
    base_dec, base_enc = dec("none"), enc("none")
    rows = [
        "| codec | decode MB/s | encode MB/s | decode / copy | encode / copy | compression ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for c in ordered(CODECS, seen):
        r = ratios.get(c)
        rows.append("| %s | %s | %s | %s | %s | %s |" % (
            c, mbs(dec(c)), mbs(enc(c)), ratio(dec(c), base_dec), ratio(enc(c), base_enc),
            NOT_RUN if r is None else "%.3f" % r))
    return rows


def io_table(scores):
    seen = {p for (name, p) in scores if name.startswith(IO_BENCH) and p is not None}
    get = lambda m, p=None: scores.get((IO_BENCH + m, p))
    raw_w, raw_r = get("rawWrite"), get("rawRead")
    rows = [
        "| case | write MB/s | write time ours / raw | read MB/s | read time ours / raw |",
        "|---|---:|---:|---:|---:|",
        "| raw files (Files.write / readAllBytes) | %s | 1.00 | %s | 1.00 |" % (mbs(raw_w), mbs(raw_r)),
    ]
    for p in ordered(COMPRESSORS, seen):
        w, r = get("zarrWrite", p), get("zarrRead", p)
        # time ours / raw = raw throughput / our throughput: 1.00 is raw speed, 2.00 twice the time.
        rows.append("| ZarrArray, compressor %s | %s | %s | %s | %s |" % (
            p, mbs(w), ratio(raw_w, w), mbs(r), ratio(raw_r, r)))
    return rows


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    results = sys.argv[1]
    scores = load_scores(os.path.join(results, "jmh.json"))
    ratios = load_ratios(os.path.join(results, "compression-ratios.tsv"))
    out = [
        "### Codecs (1 thread, one 8 MiB float64 chunk; MB/s of uncompressed data, 10^6 bytes)",
        "",
        *codec_table(scores, ratios),
        "",
        "decode / copy and encode / copy: throughput relative to the `none` baseline (allocate + System.arraycopy).",
        "compression ratio: uncompressed / compressed size.",
        "",
        "### Zarr chunk I/O on local disk (2 threads, 32 chunks of 8 MiB float64; MB/s of uncompressed data)",
        "",
        *io_table(scores),
        "",
        "time ours / raw: raw throughput / ZarrArray throughput (1.00 = as fast as raw files, 2.00 = twice the time).",
        "`%s`: the benchmark failed or was not selected (see jmh.log)." % NOT_RUN,
    ]
    print("\n".join(out))


if __name__ == "__main__":
    main()
