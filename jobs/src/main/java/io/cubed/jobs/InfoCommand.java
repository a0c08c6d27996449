package io.cubed.jobs;

import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrV2Metadata;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cubed info URL}: what a Zarr array is and how much of it is written. */
@Command(name = "info", description = "Show a Zarr array's shape, chunks, dtype, codec and chunks written.")
final class InfoCommand implements Callable<Integer> {
    @Parameters(paramLabel = "URL", description = "The array: a path or a URI (file:, s3a:, hdfs:, abfss:, gs:).")
    String url;

    @Mixin
    CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        ZarrArray a = ZarrArray.open(url, StoreOptions.of(store.conf));
        ZarrV2Metadata m = a.metadata();
        var out = spec.commandLine().getOut();
        out.println("url:          " + url);
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
        return 0;
    }
}
