package io.cubed.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class MemoryTest {
    @Test
    void projectedMemoryTermByTerm() {
        // reserved 3, inputs 5 and 7 with 2 read copies each, extra 11, output 13 with 2 write copies.
        long projected = ProjectedMemory.blockwise(3, new long[] {5, 7}, 11, 13, new BufferCopies(2, 2));
        assertThat(projected)
                .isEqualTo(3 + 5 * (1 + 2) + 7 * (1 + 2) + 11 + 13 * (1 + 2))
                .isEqualTo(89);
        // Cubed's outer([0,1,2],[10,50,100]) case: int64 chunks of 2 -> (2,2), local copies (1,1).
        long reserved = 100;
        assertThat(ProjectedMemory.blockwise(reserved, new long[] {16, 16}, 0, 32, BufferCopies.FILE_SYSTEM))
                .isEqualTo(reserved + 16 * 2 + 16 * 2 + 32 * 2);
    }

    @Test
    void rechunkCopiesAreFiveLocallySevenOnObjectStores() {
        // (input chunk + 1 read buffer) + region + (output chunk + 1 write buffer)
        assertThat(ProjectedMemory.rechunkCopies(BufferCopies.FILE_SYSTEM)).isEqualTo((1 + 1) + 1 + (1 + 1));
        // (input chunk + 2 read buffers) + region + (output chunk + 2 write buffers)
        assertThat(ProjectedMemory.rechunkCopies(BufferCopies.OBJECT_STORE)).isEqualTo((1 + 2) + 1 + (1 + 2));
        assertThat(ProjectedMemory.rechunkCopies(new BufferCopies(0, 0))).isEqualTo(3);
    }

    @Test
    void rechunkTaskTermByTerm() {
        // input chunk 5 decoded with 1 read copy, region buffer 17 (the output chunks themselves), keys 3, output
        // chunk 7's 1 write copy
        assertThat(ProjectedMemory.rechunkTask(5, 17, 3, 7, BufferCopies.FILE_SYSTEM, false))
                .isEqualTo(5 * (1 + 1) + 17 + 3 + 7 * 1)
                .isEqualTo(37);
        // object store: 2 copies each way
        assertThat(ProjectedMemory.rechunkTask(5, 17, 3, 7, BufferCopies.OBJECT_STORE, false))
                .isEqualTo(5 * (1 + 2) + 17 + 3 + 7 * 2);
        // no region buffer (one input or one output chunk per task): the output chunk is held too
        assertThat(ProjectedMemory.rechunkTask(100, 0, 3, 100, BufferCopies.FILE_SYSTEM, false))
                .isEqualTo(4 * 100 + 3);
        // the inputs read straight into the outputs from an array that decodes no chunk doing so: its read copy only
        BufferCopies into = BufferCopies.FILE_SYSTEM.readingInto(true);
        assertThat(ProjectedMemory.rechunkTask(5, 17, 3, 7, into, true)).isEqualTo(5 + 17 + 3 + 7);
        assertThat(ProjectedMemory.rechunkTask(100, 0, 3, 100, BufferCopies.OBJECT_STORE.readingInto(true), true))
                .isEqualTo(100 * 2 + 3 + 100 * (1 + 2));
        // ... but not where the task decodes them (it cuts its outputs from one input chunk), nor from an array that
        // decodes the chunk first
        assertThat(ProjectedMemory.rechunkTask(5, 17, 3, 7, into, false)).isEqualTo(5 * 2 + 17 + 3 + 7);
        assertThat(ProjectedMemory.rechunkTask(5, 17, 3, 7, BufferCopies.FILE_SYSTEM, true))
                .isEqualTo(5 * 2 + 17 + 3 + 7);
        // a codec's buffer (gzip's decompressed bytes) is held either way
        assertThat(ProjectedMemory.rechunkTask(5, 17, 3, 7, into.plus(1), true)).isEqualTo(5 * 2 + 17 + 3 + 7 * 2);
        // every buffer the size of a chunk: within the rechunk copies that bound the planner's regions
        assertThat(ProjectedMemory.rechunkTask(100, 100, 0, 100, BufferCopies.FILE_SYSTEM, false))
                .isEqualTo(4 * 100)
                .isLessThanOrEqualTo(ProjectedMemory.rechunkCopies(BufferCopies.FILE_SYSTEM) * 100L);
        assertThatThrownBy(() -> ProjectedMemory.rechunkTask(Long.MAX_VALUE, 0, 0, 1, BufferCopies.FILE_SYSTEM, false))
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void parsesSiAndBinaryUnits() {
        assertThat(MemorySize.parse("2GB").bytes()).isEqualTo(2_000_000_000L);
        assertThat(MemorySize.parse("500MB").bytes()).isEqualTo(500_000_000L);
        assertThat(MemorySize.parse("100 MB").bytes()).isEqualTo(100_000_000L);
        assertThat(MemorySize.parse("1.5GB").bytes()).isEqualTo(1_500_000_000L);
        assertThat(MemorySize.parse("2.5e9").bytes()).isEqualTo(2_500_000_000L);
        assertThat(MemorySize.parse("4GiB").bytes()).isEqualTo(4L << 30);
        assertThat(MemorySize.parse("1000").bytes()).isEqualTo(1000);
        assertThat(MemorySize.parse("8kB").bytes()).isEqualTo(8000);
    }

    @Test
    void formatsWithSiUnits() {
        assertThat(MemorySize.format(89)).isEqualTo("89 bytes");
        assertThat(MemorySize.format(2_000_000_000L)).isEqualTo("2.0 GB");
        assertThat(MemorySize.format(310_500_000L)).isEqualTo("310.5 MB");
    }

    @Test
    void badSizesAreClearErrors() {
        assertThatThrownBy(() -> MemorySize.parse("-1GB"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'-1GB'");
        assertThatThrownBy(() -> MemorySize.parse("2 parsecs"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("unknown unit 'parsecs'");
        assertThatThrownBy(() -> MemorySize.ofBytes(-5)).hasMessageContaining("-5");
        assertThatThrownBy(() -> new MemoryBudget(MemorySize.ofBytes(0), MemorySize.ofBytes(0)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("allowedMem must be positive");
        assertThatThrownBy(() -> new MemoryBudget(MemorySize.parse("1GB"), MemorySize.parse("2GB")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("reservedMem (2.0 GB) must be less than allowedMem (1.0 GB)");
    }
}
