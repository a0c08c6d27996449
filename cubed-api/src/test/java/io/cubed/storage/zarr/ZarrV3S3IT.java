package io.cubed.storage.zarr;

import io.cubed.storage.fs.S3TestServer;
import org.junit.jupiter.api.Test;

/** Ranged inner-chunk reads of a sharded v3 array on {@code s3a://}, against the in-process S3 server on 127.0.0.1. */
class ZarrV3S3IT {
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path work;

    @Test
    void readingOneInnerChunkReadsTheIndexAndThatChunkOnly() throws Exception {
        try (S3TestServer server = S3TestServer.start("zarr3-it")) {
            ShardedRangedReads.check(server.url("sharded.zarr"), server.options(), work);
        }
    }
}
