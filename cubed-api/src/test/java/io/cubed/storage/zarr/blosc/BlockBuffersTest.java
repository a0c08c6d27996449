package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The per-thread block buffers: every block of up to 1 MiB, small ones too (zarr-python's default Blosc blocks of
 * 32-128 KiB), reuses the thread's buffer, and larger ones are allocated for the call.
 */
class BlockBuffersTest {
    @Test
    void blocksOfUpToOneMebibyteReuseTheThreadsBufferWhateverTheirSize() {
        for (int size : new int[] {16, 32 << 10, 128 << 10, 1 << 20}) {
            byte[] first = BlockBuffers.decoder(0, size);
            assertThat(first.length).isGreaterThanOrEqualTo(size);
            assertThat(BlockBuffers.decoder(0, size))
                    .as("block of %d bytes", size)
                    .isSameAs(first);
            assertThat(BlockBuffers.decoder(1, size)).isNotSameAs(first);
            assertThat(BlockBuffers.encoder(0, size)).isNotSameAs(first);
        }
        // A smaller block after a larger one takes the larger buffer.
        assertThat(BlockBuffers.decoder(0, 100)).isSameAs(BlockBuffers.decoder(0, 1 << 20));
    }

    @Test
    void largerBlocksAreNotKeptAndOtherThreadsHaveTheirOwn() throws Exception {
        int large = (1 << 20) + 1;
        assertThat(BlockBuffers.decoder(0, large)).isNotSameAs(BlockBuffers.decoder(0, large));
        byte[] mine = BlockBuffers.decoder(0, 64 << 10);
        byte[] theirs = CompletableFuture.supplyAsync(() -> BlockBuffers.decoder(0, 64 << 10))
                .get();
        assertThat(theirs).isNotSameAs(mine);
    }
}
