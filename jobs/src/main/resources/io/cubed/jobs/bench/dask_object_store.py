"""The Python side of `cubed bench --object-store`: writes the input array with zarr-python, and is Dask's peer run,
reading the same objects from the S3 test server over plain HTTP (fsspec's HTTP file system on aiohttp; the server
serves anonymous GETs).

  dask_object_store.py --write DIR SIDE CHUNK   writes DIR/in.zarr: SIDE x SIDE float64 in CHUNK x CHUNK chunks,
        Blosc-LZ4 with byte shuffle at level 5 (zarr-python's default), values from numpy's seeded generator; prints
        `write chunks=N`
  dask_object_store.py --copy URL OUT           copies the array at URL (http://HOST:PORT/BUCKET/in.zarr) to the local
        directory OUT with Dask's threads scheduler on CUBED_BENCH_THREADS workers (default 2), in the source's
        chunks and compressor: what `cubed copy URL OUT` does; prints `copy seconds=S` (inside the process)
`cubed bench` times the whole process from outside, as it times its own command.
"""
import os
import sys
import time


def write(directory, side, chunk):
    import numpy as np
    import zarr
    from numcodecs import Blosc

    rng = np.random.default_rng(42)
    data = rng.standard_normal((side, side))
    z = zarr.open_array(
        os.path.join(directory, "in.zarr"),
        mode="w",
        shape=(side, side),
        chunks=(chunk, chunk),
        dtype="f8",
        compressor=Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE),
    )
    z[:] = data
    print("write chunks=%d" % z.nchunks_initialized)


def copy(url, out):
    start = time.perf_counter()
    import dask
    import dask.array as da
    import zarr

    threads = int(os.environ.get("CUBED_BENCH_THREADS", "2"))
    dask.config.set(scheduler="threads", num_workers=threads)
    source = zarr.open_array(url, mode="r")
    a = da.from_zarr(source)
    a.to_zarr(out, compressor=source.compressor, overwrite=True)
    print("copy seconds=%.3f" % (time.perf_counter() - start))


def main(argv):
    if len(argv) == 4 and argv[0] == "--write":
        write(argv[1], int(argv[2]), int(argv[3]))
    elif len(argv) == 3 and argv[0] == "--copy":
        copy(argv[1], argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
