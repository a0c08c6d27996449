#!/usr/bin/env bash
# The command line against Dask on an array zarr-python wrote: `cubed copy --codec zstd:3` and `cubed rechunk` of a
# 12000 x 12000 float64 array in row stripes of 500 x 12000 (Blosc-LZ4, zarr-python's default compressor; a smooth
# field plus noise, 1.15 GB raw, about 830 MB stored), against Dask (threads scheduler, the same number of workers)
# doing the same with from_zarr / rechunk / to_zarr, alternating, each a whole process (JVM or Python start included).
# Every run prints wall seconds, CPU seconds (user + system) and peak resident MB (GNU time), and each output is checked
# equal to the source, value by value, with numpy.
#
#   benchmarks/cli-vs-dask.sh [--dir D] [--rounds N] [--threads T] [--only copy|rechunk]
#
# Needs /usr/bin/python3 with zarr 2, dask and numcodecs (Debian: python3-zarr python3-dask), GNU time
# (/usr/bin/time) and a built bin/cubed. docs/benchmarks.md ("The command line against Dask") has the figures.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir=/tmp/cubed-cli-vs-dask
rounds=3
threads=2
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "cli-vs-dask: unknown argument $1" >&2; exit 2 ;;
  esac
done
py=/usr/bin/python3
mkdir -p "$dir"
src="$dir/src.zarr"
if [ ! -f "$src/.zarray" ]; then
  echo "writing $src with zarr-python"
  "$py" - "$src" <<'EOF'
import sys
import numpy as np
import zarr
n, rows = 12000, 500
rng = np.random.default_rng(1)
z = zarr.open(sys.argv[1], mode="w", shape=(n, n), chunks=(rows, n), dtype="f8")
x = np.arange(n)[None, :] / n
for i in range(0, n, rows):
    y = np.arange(i, i + rows)[:, None] / n
    z[i:i + rows, :] = np.sin(6 * y) * np.cos(4 * x) * 20 + 280 + rng.normal(0, 0.5, (rows, n))
EOF
fi

dask_job() { # dask_job copy|rechunk OUT
  "$py" - "$1" "$src" "$2" "$threads" <<'EOF'
import sys
import dask
import dask.array as da
import zarr
from numcodecs import Zstd
what, src, out, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
dask.config.set(scheduler="threads", num_workers=threads)
a = da.from_zarr(src)
if what == "copy":
    target = zarr.open(out, mode="w", shape=a.shape, chunks=a.chunksize, dtype=a.dtype, compressor=Zstd(3))
else:
    a = a.rechunk((a.shape[0], 500))
    target = zarr.open(out, mode="w", shape=a.shape, chunks=a.chunksize, dtype=a.dtype,
                       compressor=zarr.open(src, mode="r").compressor)
a.to_zarr(target)
EOF
}

ours_job() { # ours_job copy|rechunk OUT
  if [ "$1" = copy ]; then
    "$here/bin/cubed" copy "$src" "$2" --codec zstd:3 --threads "$threads" >/dev/null 2>&1
  else
    "$here/bin/cubed" rechunk "$src" "$2" --chunks 12000,500 --threads "$threads" >/dev/null 2>&1
  fi
}

check() { # check OUT
  "$py" - "$src" "$1" <<'EOF'
import sys
import numpy as np
import zarr
a, b = zarr.open(sys.argv[1], mode="r"), zarr.open(sys.argv[2], mode="r")
for i in range(0, a.shape[0], 1000):
    if not np.array_equal(a[i:i + 1000], b[i:i + 1000]):
        sys.exit("MISMATCH in rows %d.. of %s" % (i, sys.argv[2]))
EOF
}

timed() { # timed LABEL COMMAND...: one line "LABEL wall cpu peakMB"
  local label="$1"; shift
  local t; t="$(mktemp)"
  /usr/bin/time -f "%e %U %S %M" -o "$t" "$@"
  read -r wall user sys kb < "$t"; rm -f "$t"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v k="$kb" \
    'BEGIN { printf "%-16s wall %6.2f s  cpu %6.2f s  peak %6.0f MB\n", l, w, u + s, k / 1024 }'
}

export py src threads here
export -f dask_job ours_job
# bin/cubed builds itself when its jar is older than the sources: once, before anything is timed.
"$here/bin/cubed" --version >/dev/null 2>&1 || true
for job in copy rechunk; do
  [ -n "$only" ] && [ "$only" != "$job" ] && continue
  echo "== $job ($threads threads, $rounds rounds)"
  for r in $(seq 1 "$rounds"); do
    rm -rf "$dir/ours.zarr" "$dir/dask.zarr"
    # Each command starts with no dirty pages of what ran before it (the source just written, the other's output),
    # as `cubed bench` does: writeback of another command's gigabytes would otherwise land in its time.
    sync
    timed "ours round $r" bash -c 'ours_job "$@"' _ "$job" "$dir/ours.zarr"
    sync
    timed "dask round $r" bash -c 'dask_job "$@"' _ "$job" "$dir/dask.zarr"
    check "$dir/ours.zarr"
    check "$dir/dask.zarr"
  done
  echo "   (outputs equal to the source)"
done
