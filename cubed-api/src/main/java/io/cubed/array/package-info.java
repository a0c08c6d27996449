/**
 * The lazy array API: {@link io.cubed.array.CubedArray} and the Array API function groups ({@link
 * io.cubed.array.Creation}, {@link io.cubed.array.Blockwise}, …). Functions build plan nodes and never compute;
 * {@code compute}, {@code toZarr} and {@code store} run the plan.
 *
 * <p>Which file holds what, for the linear algebra and elementwise groups and the files they share code with:
 *
 * <ul>
 *   <li>{@code LinearAlgebra}: the public linear algebra functions, each handing its arguments to one file below.
 *   <li>{@code Products}: matmul, tensordot, vecdot, outer, matrix_transpose and matrix_power, as letters per axis.
 *   <li>{@code ContractionPlan}: one contraction of two arrays named by letters, as a blockwise operation and, for
 *       many pairs of chunks, a tree sum of partial sums.
 *   <li>{@code ContractionBox}: how many output chunks one contraction task computes, within the memory allowed.
 *   <li>{@code ContractionKeys}: which pairs of operand chunks an output chunk of a contraction reads.
 *   <li>{@code ContractionChunks}: a contraction task: the products of its pairs of chunks added to running sums.
 *   <li>{@code Norms}: vector_norm and matrix_norm, composed from elementwise functions and reductions.
 *   <li>{@code Diagonals}: diagonal and trace.
 *   <li>{@code CrossProduct}: cross.
 *   <li>{@code MatrixFactorizations}: cholesky, det, slogdet, inv, solve, eigh, eigvalsh, qr, svd, svdvals,
 *       matrix_rank and pinv: the kind of work and the shapes of its outputs.
 *   <li>{@code MatrixOps}: the per-matrix plan every factorization shares (whole matrices per task, LAPACK).
 *   <li>{@code Tsqr}: QR and SVD of a tall matrix chunked along its rows, without gathering its rows.
 *   <li>{@code LinalgChecks}: the argument checks several linear algebra files make in the same words.
 *   <li>{@code Elementwise}: the public name of every elementwise function (a row of {@code UnaryFunction} or
 *       {@code BinaryFunction}), each one line handing over to {@code ElementwiseOps}.
 *   <li>{@code ElementwiseOps}: how an elementwise call becomes one checked blockwise operation, including clip's
 *       bounds and divide's widening of integers.
 *   <li>{@code Searching}: argmax, argmin and their NaN-skipping forms, where, nonzero, count_nonzero and
 *       searchsorted.
 * </ul>
 */
package io.cubed.array;
