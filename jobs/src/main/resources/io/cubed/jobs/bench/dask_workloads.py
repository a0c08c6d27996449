"""The peer of `cubed bench --peer dask`: the workloads W1-W5 computed by Dask on the inputs `cubed bench` generated,
and floors that do not depend on Cubed's code (plain reads of the stored bytes, native Blosc decode and encode).

`cubed bench` extracts this file and runs it with /usr/bin/python3 (python3-dask, python3-zarr):
  dask_workloads.py --one W DIR [OURS]   one workload, in this process; prints
                                          `W seconds=2.31 maxrss_mb=176 check=match`
        DIR is cubed bench's --dir (inputs under DIR/inputs); outputs go to DIR/dask-out-W, deleted afterwards.
        OURS, when given, is the directory of Cubed's results (result-0.zarr, ...): Dask's results are compared
        with them (numpy.allclose, rtol 1e-9) and check= says match or MISMATCH; without it, check=not_checked.
  dask_workloads.py --floors DIR NAME...  prints `floors read_mb_s=... stored_mb=... blosc_decode_mb_s=...
        blosc_encode_mb_s=...` for the chunks of the inputs DIR/inputs/NAME.zarr, on one thread.
  dask_workloads.py DIR [W...]            every workload (default W1-W5), each in a new process.
Dask uses its threads scheduler with CUBED_BENCH_THREADS workers (default 2) and writes with Blosc-LZ4, byte shuffle,
level 5: Cubed's default compressor.
"""
import os
import resource
import shutil
import subprocess
import sys
import time

WORKLOADS = ["W1", "W2", "W3", "W4", "W5"]


def _threads():
    return int(os.environ.get("CUBED_BENCH_THREADS", "2"))


def peak_rss_mb():
    """This process's peak resident set in MB (10^6 bytes): VmHWM, which starts afresh at exec. (ru_maxrss does not:
    after a vfork-and-exec from a JVM it keeps the parent's peak.)"""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024 / 1e6
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6


def run_one(name, d, ours=None):
    import dask
    import dask.array as da
    import numcodecs
    import numpy as np
    import zarr

    dask.config.set(scheduler="threads", num_workers=_threads())
    comp = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    inputs = os.path.join(d, "inputs")
    out = os.path.join(d, "dask-out-" + name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)

    def arr(n):
        return da.from_zarr(os.path.join(inputs, n + ".zarr"))

    def store(x, k):
        z = zarr.open(os.path.join(out, "result-%d.zarr" % k), mode="w", shape=x.shape, chunks=x.chunksize,
                      dtype=x.dtype, compressor=comp)
        x.to_zarr(z)

    start = time.perf_counter()
    results = None  # in-memory results (reductions to small arrays), else the stored ones are read back
    if name == "W1":
        store(arr("u") + arr("v"), 0)
    elif name == "W2":
        u = arr("u")
        results = dask.compute(u.sum(), u.mean(axis=0))
    elif name == "W3":
        s = arr("s")
        store(s.rechunk((s.shape[0], s.chunksize[0])), 0)
    elif name == "W4":
        store(arr("m") @ arr("n"), 0)
    elif name in ("W5", "W5u"):
        u, v = arr("u"), arr("v")
        store(((u - u.mean(axis=0, keepdims=True)) ** 2 + (v - v.mean(axis=0, keepdims=True)) ** 2).mean(axis=0), 0)
    else:
        raise SystemExit("unknown workload " + name)
    seconds = time.perf_counter() - start
    rss_mb = peak_rss_mb()

    check = "not_checked"
    if ours:
        if results is None:
            results = [zarr.open(os.path.join(out, "result-0.zarr"), mode="r")[...]]
        check = "match"
        for k, theirs in enumerate(results):
            mine = zarr.open(os.path.join(ours, "result-%d.zarr" % k), mode="r")[...]
            theirs = np.asarray(theirs)
            if mine.shape != theirs.shape or not np.allclose(mine, theirs, rtol=1e-9, atol=1e-12):
                check = "MISMATCH"
    shutil.rmtree(out, ignore_errors=True)
    print("%s seconds=%.3f maxrss_mb=%.0f check=%s" % (name, seconds, rss_mb, check), flush=True)


def floors(d, names):
    import numcodecs
    import numpy as np
    import zarr

    paths = []
    for n in names:
        root = os.path.join(d, "inputs", n + ".zarr")
        paths += [os.path.join(root, f) for f in sorted(os.listdir(root)) if not f.startswith(".")]
    biggest = max(os.path.getsize(p) for p in paths)
    buf = bytearray(biggest)
    view = memoryview(buf)

    def read_all():
        total = 0
        for p in paths:
            with open(p, "rb", buffering=0) as f:
                total += f.readinto(view)
        return total

    read_all()  # page cache and warm-up
    start = time.perf_counter()
    stored = read_all()
    read_s = time.perf_counter() - start

    # The same frames, decoded and encoded by c-blosc (numcodecs) on one thread; decoding goes into one reused buffer
    # (a fresh multi-MB buffer per frame costs page faults, not decoding).
    numcodecs.blosc.use_threads = False
    frames = []
    for p in paths:
        with open(p, "rb") as f:
            frames.append(f.read())
    sizes = [numcodecs.blosc.cbuffer_sizes(fr)[0] for fr in frames]
    out = np.empty(max(sizes), dtype=np.uint8)
    start = time.perf_counter()
    for fr, n in zip(frames, sizes):
        numcodecs.blosc.decompress(fr, out[:n])
    decode_s = time.perf_counter() - start
    raw = sum(sizes)
    comp = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    dtype = zarr.open(os.path.join(d, "inputs", names[0] + ".zarr"), mode="r").dtype
    chunks = [np.frombuffer(numcodecs.blosc.decompress(fr), dtype=dtype) for fr in frames]
    start = time.perf_counter()
    for x in chunks:
        comp.encode(x)  # the typesize of the shuffle comes from the dtype
    encode_s = time.perf_counter() - start
    print("floors read_mb_s=%.0f stored_mb=%.1f blosc_decode_mb_s=%.0f blosc_encode_mb_s=%.0f"
          % (stored / 1e6 / read_s, stored / 1e6, raw / 1e6 / decode_s, raw / 1e6 / encode_s), flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == "--one":
        run_one(args[1], args[2], args[3] if len(args) > 3 else None)
    elif len(args) >= 3 and args[0] == "--floors":
        floors(args[1], args[2:])
    elif len(args) >= 1 and not args[0].startswith("--"):
        for w in args[1:] or WORKLOADS:
            subprocess.run([sys.executable, __file__, "--one", w, args[0]], check=True)
    else:
        raise SystemExit(__doc__)
