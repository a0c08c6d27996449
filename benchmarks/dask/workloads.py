"""The workloads W1-W5 of `cubed bench`, computed by Dask on the inputs `cubed bench` generated.

Usage: /usr/bin/python3 benchmarks/dask/workloads.py DIR [W1 W2 ...]
  DIR is cubed bench's --dir (inputs under DIR/inputs); outputs go to DIR/dask-out and are deleted after each workload.
Runs each workload in a new process (so that peak memory is the workload's own), with Dask's threads scheduler and as
many workers as CUBED_BENCH_THREADS (default 2), writing outputs with Blosc-LZ4, byte shuffle, level 5 (Cubed's
default compressor). Prints one line per workload: `W1 seconds=2.31 maxrss_mb=176`.
"""
import os
import resource
import shutil
import subprocess
import sys
import time


def run(name, d):
    import dask
    import dask.array as da
    import numcodecs
    import zarr

    dask.config.set(scheduler="threads", num_workers=int(os.environ.get("CUBED_BENCH_THREADS", "2")))
    comp = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    inputs = os.path.join(d, "inputs")
    out = os.path.join(d, "dask-out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)

    def store(x, n):
        z = zarr.open(os.path.join(out, n), mode="w", shape=x.shape, chunks=x.chunksize, dtype=x.dtype,
                      compressor=comp)
        x.to_zarr(z)

    def arr(n):
        return da.from_zarr(os.path.join(inputs, n + ".zarr"))

    start = time.perf_counter()
    if name == "W1":
        store(arr("u") + arr("v"), "c.zarr")
    elif name == "W2":
        u = arr("u")
        dask.compute(u.sum(), u.mean(axis=0))
    elif name == "W3":
        s = arr("s")
        store(s.rechunk((s.shape[0], s.chunksize[0])), "r.zarr")
    elif name == "W4":
        store(arr("m") @ arr("n"), "mm.zarr")
    elif name in ("W5", "W5u"):
        u, v = arr("u"), arr("v")
        store(((u - u.mean(axis=0, keepdims=True)) ** 2 + (v - v.mean(axis=0, keepdims=True)) ** 2).mean(axis=0),
              "q.zarr")
    else:
        raise SystemExit("unknown workload " + name)
    seconds = time.perf_counter() - start
    shutil.rmtree(out, ignore_errors=True)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("%s seconds=%.3f maxrss_mb=%.0f" % (name, seconds, rss_mb), flush=True)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--one":
        run(sys.argv[2], sys.argv[3])
    else:
        d = sys.argv[1]
        for w in sys.argv[2:] or ["W1", "W2", "W3", "W4", "W5"]:
            subprocess.run([sys.executable, __file__, "--one", w, d], check=True)
