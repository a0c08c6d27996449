package io.cubed.jobs;

import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.V3Codec;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrV2Metadata;
import io.cubed.storage.zarr.ZarrV3Array;
import io.cubed.storage.zarr.ZarrV3Metadata;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cubed info URL}: what a Zarr array (v2 or v3) is and how much of it is written. */
@Command(
        name = "info",
        description = "Show a Zarr array's format, shape, chunks (and shards), dtype, codecs and chunks written.")
final class InfoCommand implements Callable<Integer> {
    @Parameters(paramLabel = "URL", description = "The array: a path or a URI (file:, s3a:, hdfs:, abfss:, gs:).")
    String url;

    @Mixin
    CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        ChunkStore a = Zarr.open(url, StoreOptions.of(store.conf));
        PrintWriter out = spec.commandLine().getOut();
        if (a instanceof ZarrV3Array v3) {
            printV3(v3, out);
        } else {
            printV2((ZarrArray) a, out);
        }
        out.println("status:       "
                + IncompleteMark.of(a)
                        .map(m -> "INCOMPLETE (" + IncompleteMark.describe(m) + "; to finish it: " + m.get("resume")
                                + "; or delete it)")
                        .orElse("complete"));
        return 0;
    }

    private void printV2(ZarrArray a, PrintWriter out) {
        ZarrV2Metadata m = a.metadata();
        out.println("url:          " + url);
        out.println("zarr_format:  2");
        out.println("shape:        " + Arrays.toString(m.shape()));
        out.println("chunks:       " + Arrays.toString(m.chunks()));
        out.println("dtype:        " + m.dtype() + " (" + m.dataType().toJson() + ", order " + m.order() + ")");
        out.println("compressor:   "
                + (m.compressor() == null ? "none" : m.compressor().toJson()));
        out.println("fill_value:   " + m.fillValue());
        out.println("size:         " + Sizes.format(a.grid().size() * m.dtype().itemSizeBytes()) + " uncompressed");
        out.println("chunk size:   " + Sizes.format(m.chunkSizeBytes()));
        out.println("chunks:       " + a.writtenChunkCount() + " written of "
                + a.grid().numChunks());
    }

    /**
     * As v2, with the codec chain; a sharded array (one {@code sharding_indexed} codec) shows its inner chunks as its
     * chunks, as zarr-python 3 does, then its shards, which are what Cubed reads and writes as one chunk.
     */
    private void printV3(ZarrV3Array a, PrintWriter out) {
        ZarrV3Metadata m = a.metadata();
        V3Codec.Sharding sharding = m.shardingOnly();
        int item = m.dtype().itemSizeBytes();
        out.println("url:          " + url);
        out.println("zarr_format:  3");
        out.println("shape:        " + Arrays.toString(m.shape()));
        if (sharding == null) {
            out.println("chunks:       " + Arrays.toString(m.chunks()));
        } else {
            out.println("chunks:       " + Arrays.toString(a.innerGrid().chunkShape()) + " (inner chunks)");
            out.println("shards:       " + Arrays.toString(m.chunks()) + " ("
                    + elements(perShard(m.chunks(), a.innerGrid().chunkShape())) + " inner chunks each, "
                    + "index at the " + (sharding.indexAtEnd() ? "end" : "start") + ")");
        }
        out.println("dtype:        " + m.dtype());
        out.println("codecs:       " + V3Codec.toJsonList(m.codecs()));
        out.println("fill_value:   " + m.fillValue());
        if (m.dimensionNames() != null) {
            out.println("dimensions:   " + m.dimensionNames());
        }
        out.println("size:         " + Sizes.format(a.grid().size() * item) + " uncompressed");
        if (sharding == null) {
            out.println("chunk size:   " + Sizes.format((double) elements(m.chunks()) * item));
            out.println("chunks:       " + a.writtenChunkCount() + " written of "
                    + a.grid().numChunks());
        } else {
            out.println("chunk size:   "
                    + Sizes.format((double) elements(a.innerGrid().chunkShape()) * item));
            out.println("shard size:   " + Sizes.format((double) elements(m.chunks()) * item));
            out.println("shards:       " + a.writtenChunkCount() + " written of "
                    + a.grid().numChunks() + " (" + a.innerGrid().numChunks() + " inner chunks in all)");
        }
    }

    private static long elements(int[] shape) {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        return n;
    }

    private static int[] perShard(int[] shard, int[] inner) {
        int[] per = new int[shard.length];
        for (int i = 0; i < per.length; i++) {
            per[i] = shard[i] / inner[i];
        }
        return per;
    }
}
