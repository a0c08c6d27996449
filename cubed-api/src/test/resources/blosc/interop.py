#!/usr/bin/python3
"""Helper for BloscInteropIT: decodes Java-written frames with numcodecs and encodes the same inputs with numcodecs.

Usage: interop.py DIR. DIR/manifest.tsv lists cases (id, cname, clevel, shuffle, blocksize, typesize, nbytes,
numcodecs_can_encode). For each case it reads DIR/<id>.raw and DIR/<id>.java.blosc, writes DIR/<id>.py.blosc when
numcodecs can encode the input, and prints one line per case: "<id>\tOK" or "<id>\tFAIL\t<reason>".
"""
import os
import sys

import numpy as np
from numcodecs import Blosc


def main(directory):
    with open(os.path.join(directory, "manifest.tsv")) as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for case_id, cname, clevel, shuffle, blocksize, typesize, nbytes, can_encode in lines:
        base = os.path.join(directory, case_id)
        with open(base + ".raw", "rb") as f:
            raw = f.read()
        with open(base + ".java.blosc", "rb") as f:
            java_frame = f.read()
        try:
            decoded = bytes(Blosc().decode(java_frame))
            if decoded != raw:
                print("%s\tFAIL\tnumcodecs decoded %d bytes that differ from the input" % (case_id, len(decoded)))
                continue
            if can_encode == "1":
                typesize = int(typesize)
                dtype = np.dtype("u1") if typesize == 1 else np.dtype("V%d" % typesize)
                codec = Blosc(cname=cname, clevel=int(clevel), shuffle=int(shuffle), blocksize=int(blocksize))
                with open(base + ".py.blosc", "wb") as f:
                    f.write(bytes(codec.encode(np.frombuffer(raw, dtype=dtype))))
            print("%s\tOK" % case_id)
        except Exception as e:  # report every failure to the Java side
            print("%s\tFAIL\t%s: %s" % (case_id, type(e).__name__, e))


if __name__ == "__main__":
    main(sys.argv[1])
