"""Checks the linalg results written by FactorizationNumpyTest against numpy.linalg (NumPy 2).

Each line of cases.txt is: fn params inputs outputs, where inputs and outputs are ';'-separated
file|dtype|shape entries. Prints one FAIL line per problem and a final 'checked N cases'.
"""
import os
import sys

import numpy as np

d = sys.argv[1]


def load(spec):
    name, code, shape = spec.split("|")
    shape = tuple(int(s) for s in shape.split(",")) if shape else ()
    return np.fromfile(os.path.join(d, name), dtype="<" + code).reshape(shape)


def tol(a):
    return 2e-4 if a.dtype in (np.float32, np.complex64) else 1e-9


def close(what, x, y, t, fails):
    x = np.asarray(x)
    y = np.asarray(y)
    if x.shape != y.shape:
        fails.append("%s: shape %s, numpy %s" % (what, x.shape, y.shape))
        return
    scale = max(1.0, float(np.max(np.abs(y)))) if y.size else 1.0
    err = float(np.max(np.abs(x.astype(np.complex128) - y.astype(np.complex128)))) if y.size else 0.0
    if not err <= t * scale:
        fails.append("%s: max error %g > %g (scale %g)" % (what, err, t * scale, scale))


def same_type(what, x, y, fails):
    if x.dtype != y.dtype:
        fails.append("%s: dtype %s, numpy %s" % (what, x.dtype, y.dtype))


def adj(m):
    return np.conj(np.swapaxes(m, -1, -2))


def eye_like(k, n):
    return np.broadcast_to(np.eye(n), k.shape[:-2] + (n, n))


def check(fn, params, ins, outs):
    fails = []
    a = ins[0]
    t = tol(a) if a.dtype.kind in "fc" else 1e-9
    if fn == "det":
        ref = np.linalg.det(a)
        same_type("det", outs[0], ref, fails)
        close("det", outs[0], ref, t, fails)
    elif fn == "slogdet":
        ref = np.linalg.slogdet(a)
        same_type("sign", outs[0], ref.sign, fails)
        same_type("logabsdet", outs[1], ref.logabsdet, fails)
        close("sign", outs[0], ref.sign, t, fails)
        close("logabsdet", outs[1], ref.logabsdet, t, fails)
    elif fn == "inv":
        ref = np.linalg.inv(a)
        same_type("inv", outs[0], ref, fails)
        close("inv", outs[0], ref, t * 10, fails)
    elif fn == "solve":
        ref = np.linalg.solve(a, ins[1])
        same_type("solve", outs[0], ref, fails)
        close("solve", outs[0], ref, t * 10, fails)
    elif fn == "cholesky":
        ref = np.linalg.cholesky(a, upper=params == "upper")
        same_type("cholesky", outs[0], ref, fails)
        close("cholesky", outs[0], ref, t, fails)
    elif fn == "eigvalsh":
        ref = np.linalg.eigvalsh(a)
        same_type("eigvalsh", outs[0], ref, fails)
        close("eigvalsh", outs[0], ref, t, fails)
    elif fn == "eigh":
        w, v = outs
        ref = np.linalg.eigh(a)
        same_type("eigenvalues", w, ref.eigenvalues, fails)
        same_type("eigenvectors", v, ref.eigenvectors, fails)
        close("eigenvalues", w, ref.eigenvalues, t, fails)
        close("A V = V diag(w)", a @ v, v * w[..., None, :], t * 10, fails)
        close("V^H V = I", adj(v) @ v, eye_like(v, v.shape[-1]), t * 10, fails)
    elif fn == "qr":
        q, r = outs
        ref = np.linalg.qr(a, mode=params)
        same_type("Q", q, ref.Q, fails)
        same_type("R", r, ref.R, fails)
        if q.shape != ref.Q.shape or r.shape != ref.R.shape:
            fails.append("shapes %s %s, numpy %s %s" % (q.shape, r.shape, ref.Q.shape, ref.R.shape))
        else:
            close("Q R = A", q @ r, a, t * 10, fails)
            close("Q^H Q = I", adj(q) @ q, eye_like(q, q.shape[-1]), t * 10, fails)
            if np.any(np.tril(r, -1) != 0):
                fails.append("R is not upper triangular")
            k = min(r.shape[-2], r.shape[-1])
            dr = np.abs(np.diagonal(r, axis1=-2, axis2=-1))[..., :k]
            dn = np.abs(np.diagonal(ref.R, axis1=-2, axis2=-1))[..., :k]
            close("|diag R|", dr, dn, t * 10, fails)
    elif fn == "svd":
        u, s, vh = outs
        ref = np.linalg.svd(a, full_matrices=params == "full")
        for what, x, y in (("U", u, ref.U), ("S", s, ref.S), ("Vh", vh, ref.Vh)):
            same_type(what, x, y, fails)
            if x.shape != y.shape:
                fails.append("%s shape %s, numpy %s" % (what, x.shape, y.shape))
        if not fails:
            close("S", s, ref.S, t, fails)
            k = s.shape[-1]
            close("U S Vh = A", (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, t * 10, fails)
            close("U^H U = I", adj(u) @ u, eye_like(u, u.shape[-1]), t * 10, fails)
            close("Vh Vh^H = I", vh @ adj(vh), eye_like(vh, vh.shape[-2]), t * 10, fails)
    elif fn == "svdvals":
        ref = np.linalg.svdvals(a if a.dtype.kind in "fc" else a.astype(np.float64))
        same_type("svdvals", outs[0], ref, fails)
        close("svdvals", outs[0], ref, t, fails)
    elif fn == "pinv":
        ref = np.linalg.pinv(a, rtol=None if params == "default" else float(params))
        same_type("pinv", outs[0], ref, fails)
        close("pinv", outs[0], ref, t * 100, fails)
    elif fn == "matrix_rank":
        ref = np.linalg.matrix_rank(a, rtol=None if params == "default" else float(params))
        if not np.array_equal(outs[0], ref):
            fails.append("matrix_rank %s, numpy %s" % (outs[0], ref))
    elif fn == "matrix_norm":
        ord_, keep = params.split(",")
        o = {"fro": "fro", "nuc": "nuc", "inf": np.inf, "-inf": -np.inf}.get(ord_)
        o = int(ord_) if o is None else o
        ref = np.linalg.matrix_norm(a, keepdims=keep == "true", ord=o)
        same_type("matrix_norm", outs[0], ref, fails)
        close("matrix_norm", outs[0], ref, t, fails)
    else:
        fails.append("unknown function " + fn)
    return fails


n = 0
with open(os.path.join(d, "cases.txt")) as f:
    for i, line in enumerate(l for l in f.read().splitlines() if l):
        fn, params, ins, outs = line.split(" ")
        ins = [load(s) for s in ins.split(";")]
        outs = [load(s) for s in outs.split(";")]
        label = "case %d %s %s %s%s" % (i, fn, params, ins[0].dtype, ins[0].shape)
        try:
            for msg in check(fn, params, ins, outs):
                print("FAIL %s: %s" % (label, msg))
        except Exception as e:  # noqa: BLE001 - report and go on
            print("FAIL %s: %r" % (label, e))
        n += 1
print("checked %d cases" % n)
