package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import java.util.Iterator;

/**
 * The chunk function of sibling operations run as one: operations that read the same input chunks in the same order
 * (the first rounds of {@code sum(u)} and {@code mean(u, axis=0)}, say) run in one task that reads each chunk once and
 * pushes it to every operation's {@link StreamingChunkFunction.Fold}. The outputs are those of the first operation,
 * then those of the second, and so on. Memory: one input chunk and every operation's state.
 */
public final class SharedReadFunction implements ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final StreamingChunkFunction[] parts;
    private final int[] outputsPerPart;

    /** Runs {@code parts}, the {@code k}-th giving {@code outputsPerPart[k]} output chunks. */
    public SharedReadFunction(StreamingChunkFunction[] parts, int[] outputsPerPart) {
        if (parts.length < 2 || parts.length != outputsPerPart.length) {
            throw new InvalidArgumentException(
                    "a shared read needs two or more operations and an output count for each, got " + parts.length
                            + " and " + outputsPerPart.length);
        }
        for (StreamingChunkFunction p : parts) {
            if (!p.streamsOneInput()) {
                throw new InvalidArgumentException(p.getClass().getName() + " does not stream one input");
            }
        }
        this.parts = parts.clone();
        this.outputsPerPart = outputsPerPart.clone();
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        if (args.size() != 1) {
            throw new InvalidArgumentException("a shared read takes one input, got " + args.size());
        }
        StreamingChunkFunction.Fold[] folds = new StreamingChunkFunction.Fold[parts.length];
        int outputs = 0;
        for (int p = 0; p < parts.length; p++) {
            folds[p] = parts[p].start(outputCoords);
            outputs += outputsPerPart[p];
        }
        boolean boxes = true;
        for (StreamingChunkFunction.Fold f : folds) {
            boxes &= f.acceptsBoxes();
        }
        if (boxes) {
            // Every fold takes each decoded block while it is in cache.
            for (int k = 0; k < args.count(0); k++) {
                long[] key = args.key(0, k);
                int[] shape = args.input(0).grid().chunkShapeAt(key);
                args.readInBoxes(0, k, (offset, box) -> {
                    for (StreamingChunkFunction.Fold f : folds) {
                        f.acceptBox(key, shape, offset, box);
                    }
                });
            }
        } else {
            Iterator<Chunk> chunks = args.iterator(0);
            for (int k = 0; k < args.count(0); k++) {
                Chunk c = chunks.next();
                long[] key = args.key(0, k);
                for (StreamingChunkFunction.Fold f : folds) {
                    f.accept(key, c);
                }
            }
        }
        Chunk[] out = new Chunk[outputs];
        int o = 0;
        for (int p = 0; p < parts.length; p++) {
            Chunk[] r = folds[p].finish();
            if (r.length != outputsPerPart[p]) {
                throw new InvalidArgumentException("operation " + p + " of a shared read gave " + r.length
                        + " output chunks, expected " + outputsPerPart[p]);
            }
            System.arraycopy(r, 0, out, o, r.length);
            o += r.length;
        }
        return out;
    }
}
