package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.StoredArrays;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RechunkTest {
    @TempDir
    Path tmp;

    private Spec spec(long allowed, long reserved) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(reserved)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    @Test
    void thePlanFillsTheExecutorsThreadsAndTakesLessMemoryForALittleMoreIo() {
        // cubed bench's W3 layout, planned only (a virtual array): with one thread the cheapest plan's largest regions
        // give 13 tasks a stage; the spec's executor has 2 (spec above), so its stages take 16 tasks, 8 full waves;
        // the plan taken, about 4 % more I/O, has regions of three quarters of the size, 22 tasks a stage
        // (RechunkPlannerTest).
        CubedArray x = Creation.zeros(
                new long[] {16384, 16384}, new int[] {128, 16384}, DType.FLOAT64, spec(1_000_000_000L, 100_000_000L));
        CubedArray y = Manipulation.rechunk(x, 16384, 128);
        assertThat(Manipulation.planner(x, new int[] {16384, 128})
                        .nearBest(0)
                        .plan()
                        .stages())
                .extracting(s -> s.tasks())
                .containsExactly(16L, 16L);
        assertThat(Manipulation.planner(x, new int[] {16384, 128})
                        .parallelism(1)
                        .nearBest(0)
                        .plan()
                        .stages())
                .extracting(s -> s.tasks())
                .containsExactly(13L, 13L);
        assertThat(Manipulation.planner(x, new int[] {16384, 128}).plan().stages())
                .extracting(s -> s.regionBufferBytes(), s -> s.tasks())
                .containsExactly(tuple(768L * 16384 * 8, 22L), tuple(768L * 16384 * 8, 22L));
        assertThat(y.chunkShape()).containsExactly(16384, 128);
    }

    /** Writes a float64 Zarr array whose element (i, j) is {@code 1000 i + j}. */
    private String zarr(String name, long rows, long cols, int[] chunks) {
        String url = tmp.resolve(name).toString();
        StoredArrays.ramp(url, rows, cols, chunks, 1000.0);
        return url;
    }

    @Test
    void unwrittenChunksReadAsTheFillValueIntoReusedRegionChunks() {
        // (48, 48) in (4, 48) row stripes of which every third was never written (fill value 7.5), to (48, 4) columns
        // through multi-chunk regions: each thread's later tasks take the region chunks of its earlier ones, which the
        // tests poison (NaN), so an element a task did not write would show.
        String url = tmp.resolve("holes.zarr").toString();
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {48, 48}, new int[] {4, 48}, DType.FLOAT64)
                        .fillValue(io.cubed.dtype.Scalar.ofDouble(7.5))
                        .build());
        for (int stripe = 0; stripe < 12; stripe++) {
            if (stripe % 3 == 2) {
                continue;
            }
            Chunk chunk = Chunk.allocate(DType.FLOAT64, 4, 48);
            for (int r = 0; r < 4; r++) {
                for (int k = 0; k < 48; k++) {
                    chunk.doubles()[r * 48 + k] = 1000.0 * (stripe * 4 + r) + k;
                }
            }
            z.writeChunk(chunk, stripe, 0);
        }
        for (long allowed : new long[] {6_000, 12_000, 40_000}) {
            CubedArray y = Manipulation.rechunk(Cubed.fromZarr(url, spec(allowed, 0)), 48, 4);
            double[] got = y.compute().doubles();
            for (int i = 0; i < 48; i++) {
                for (int k = 0; k < 48; k++) {
                    double expected = (i / 4) % 3 == 2 ? 7.5 : 1000.0 * i + k;
                    assertThat(got[i * 48 + k])
                            .as("allowed %d, (%d, %d)", allowed, i, k)
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void rowStripesToColumnStripesInSeveralStagesWithinAllowedMem() {
        // (64, 64) float64 in rows (1, 64) -> columns (64, 1): one stage's copy region would be the whole 32 kB array,
        // far above a region buffer's share of 3000 bytes (3000 / 5 = 600 bytes). That forces two stages or more.
        long allowed = 3000;
        Spec spec = spec(allowed, 0);
        CubedArray x = Cubed.fromZarr(zarr("rows.zarr", 64, 64, new int[] {1, 64}), spec);
        CubedArray y = Manipulation.rechunk(x, 64, 1);
        assertThat(y.chunkShape()).containsExactly(64, 1);
        String plan = y.explain();
        Matcher stages = Pattern.compile("rechunk \\(stage \\d+/(\\d+)\\)").matcher(plan);
        assertThat(stages.find()).as(plan).isTrue();
        assertThat(Integer.parseInt(stages.group(1))).as(plan).isGreaterThanOrEqualTo(2);
        assertThat(plan).contains("read chunks [1, 64]").contains("write chunks [64, 1]");

        Map<String, Long> projected = new ConcurrentHashMap<>();
        Map<String, Long> read = new ConcurrentHashMap<>();
        AtomicLong tasks = new AtomicLong();
        Callback measure = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                tasks.incrementAndGet();
                projected.merge(event.stage().id(), event.stage().projectedMemBytes(), Math::max);
                read.merge(event.stage().id(), event.result().bytesRead(), Long::sum);
            }
        };
        String out = tmp.resolve("columns.zarr").toString();
        y.toZarr(out, measure);
        assertThat(projected).hasSizeGreaterThanOrEqualTo(2);
        assertThat(projected.values()).allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(allowed));
        // Each stage reads every chunk of its input once: 64 x 64 x 8 bytes per stage.
        assertThat(read.values()).allSatisfy(b -> assertThat(b).isEqualTo(64L * 64 * 8));
        assertThat(plan).contains("region [");
        assertThat(tasks.get()).isGreaterThanOrEqualTo(2);
        ZarrArray stored = ZarrArray.open(out);
        assertThat(stored.metadata().chunks()).containsExactly(64, 1);
        Chunk all = stored.readRegion(new long[] {0, 0}, new int[] {64, 64});
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < 64; j++) {
                assertThat(all.doubles()[i * 64 + j]).isEqualTo(1000.0 * i + j);
            }
        }
        assertThat(tmp.resolve("work").toFile().list()).noneMatch(f -> f.startsWith("cubed-"));
    }

    /**
     * One stage, (4, 64) row stripes of a 64 × 64 float64 array to (64, 4) columns: each task reads 16 input chunks into
     * the 16 output chunks of its region (the whole array). From a Zarr v2 array it counts an input chunk by its stored
     * bytes only; from a Zarr v3 array, which decodes the chunk first, by the chunk and its bytes. The region buffer is
     * the output chunks themselves, so an output chunk counts its write copy only. Terms by hand, as a task of the
     * running stage reports them, with the values read back.
     */
    @Test
    void aTaskCountsTheInputChunksItReadsIntoItsOutputsByWhatTheirReadsHold() {
        Spec spec = spec(10_000_000, 0);
        long chunk = 4 * 64 * 8; // 2048 bytes, input and output chunks alike
        long region = 64 * 64 * 8;
        long keys = 56 + 24 * 2; // a box of input chunk coordinates, 2 axes
        String v2 = zarr("rows-v2.zarr", 64, 64, new int[] {4, 64});
        io.cubed.storage.zarr.ZarrV3Array v3 = io.cubed.storage.zarr.ZarrV3Array.create(
                tmp.resolve("rows-v3.zarr").toString(),
                io.cubed.storage.zarr.ZarrV3Metadata.create(
                        new long[] {64, 64},
                        new int[] {4, 64},
                        DType.FLOAT64,
                        io.cubed.dtype.Scalar.zero(),
                        java.util.List.of(
                                new io.cubed.storage.zarr.V3Codec.Bytes(false),
                                new io.cubed.storage.zarr.V3Codec.Zstd(1, false))),
                false,
                io.cubed.storage.StoreOptions.empty());
        ZarrArray source = ZarrArray.open(v2);
        for (long i = 0; i < 16; i++) {
            v3.writeChunk(source.readChunk(i, 0), i, 0);
        }
        Map<String, Long> expected = Map.of(
                // the stored bytes (1 read copy), the region, the keys, an output chunk's encoded bytes
                v2,
                chunk + region + keys + chunk,
                // the decoded chunk and its stored bytes
                v3.url(),
                2 * chunk + region + keys + chunk);
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            CubedArray x = Cubed.fromZarr(e.getKey(), spec);
            CubedArray y = Manipulation.rechunk(x, 64, 4);
            Map<String, Long> projected = new ConcurrentHashMap<>();
            Callback measure = new Callback() {
                @Override
                public void onTaskEnd(TaskEnd event) {
                    projected.merge(event.stage().id(), event.stage().projectedMemBytes(), Math::max);
                }
            };
            String out = tmp.resolve("cols-" + projected.hashCode() + e.getValue() + ".zarr")
                    .toString();
            y.toZarr(out, measure);
            assertThat(projected.values()).as(e.getKey()).containsExactly(e.getValue());
            Chunk all = ZarrArray.open(out).readRegion(new long[] {0, 0}, new int[] {64, 64});
            for (int i = 0; i < 64; i++) {
                for (int j = 0; j < 64; j++) {
                    assertThat(all.doubles()[i * 64 + j]).isEqualTo(1000.0 * i + j);
                }
            }
        }
    }

    @Test
    void sameChunksReturnTheSameArrayAndRunNothing() {
        Spec spec = spec(1_000_000, 0);
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 10, 7, new int[] {5, 7}), spec);
        assertThat(Manipulation.rechunk(x, 5, -1)).isSameAs(x);
        assertThat(Manipulation.rechunk(x, 5, 100)).isSameAs(x);
        assertThat(Manipulation.rechunk(x, Map.of(1, 7))).isSameAs(x);
        CubedArray empty = Creation.zeros(new long[] {0, 4}, new int[] {2, 2}, DType.INT32, spec);
        CubedArray e = Manipulation.rechunk(empty, 1, 4);
        assertThat(e.chunkShape()).containsExactly(1, 4);
        assertThat(e.compute().size()).isZero();
    }

    @Test
    void perAxisAndAutoChunks() {
        Spec spec = spec(10_000_000, 0);
        CubedArray x = Creation.ones(new long[] {100, 100, 30}, new int[] {10, 10, 10}, DType.FLOAT64, spec);
        assertThat(Manipulation.rechunk(x, Map.of(0, 50, -1, -1)).chunkShape()).containsExactly(50, 10, 30);
        // auto: axis 0 kept at 5; axes 1 and 2 scaled by one factor to about 8000 bytes: 8000 / (8 x 5) = 200
        // elements = (10 f) x (10 f), f = sqrt(2) -> 14 x 14.
        RechunkOptions auto = RechunkOptions.builder().axis(0, 5).auto("8000B").build();
        assertThat(Manipulation.targetChunks(x, auto)).containsExactly(5, 14, 14);
        // An axis reaching its length keeps it; the others share the rest: 240000 bytes / (8 x 30) = 1000 = 10 x 100.
        RechunkOptions wide = RechunkOptions.builder().axis(0, 10).auto("240kB").build();
        assertThat(Manipulation.targetChunks(x, wide)).containsExactly(10, 100, 30);
        assertThatThrownBy(() -> Manipulation.rechunk(x, Map.of(3, 1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("axis 3 is not an axis");
        assertThatThrownBy(() -> Manipulation.rechunk(x, 1, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("have 2 entries");
    }

    @Test
    void aBudgetTooSmallForTheSourceChunkNamesTheAllowedMemThatWorks() {
        Spec small = spec(2000, 100);
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 20, 20, new int[] {20, 20}), small);
        assertThatThrownBy(() -> Manipulation.rechunk(x, 1, 1))
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("needs allowedMem of at least")
                .hasMessageContaining("reservedMem 100 bytes");
        long need = Manipulation.planner(x, new int[] {1, 1}).minimumTaskBytes() + 100;
        // The source chunk (3200 bytes) with its read copy is the floor.
        assertThat(need).isGreaterThan(100 + 20 * 20 * 8 * 2);
        CubedArray ok = Cubed.fromZarr(tmp.resolve("x.zarr").toString(), spec(need, 100));
        Chunk got = Manipulation.rechunk(ok, 1, 1).compute();
        assertThat(got.doubles()[19 * 20 + 19]).isEqualTo(19019.0);
    }

    @Test
    void mapBlocksUnifiesDifferentChunksByRechunking() {
        Spec spec = spec(10_000_000, 0);
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 8, 8, new int[] {4, 4}), spec);
        CubedArray y = Cubed.fromZarr(zarr("y.zarr", 8, 8, new int[] {2, 8}), spec);
        CubedArray row = Cubed.fromZarr(zarr("row.zarr", 1, 8, new int[] {1, 3}), spec);
        CubedArray sum = Blockwise.mapBlocks(
                (blocks, id) -> {
                    Chunk a = blocks[0];
                    Chunk b = blocks[1];
                    Chunk r = blocks[2];
                    Chunk out = Chunk.allocate(DType.FLOAT64, a.shape());
                    for (int i = 0; i < a.shape(0); i++) {
                        for (int j = 0; j < a.shape(1); j++) {
                            int k = i * a.shape(1) + j;
                            out.doubles()[k] = a.doubles()[k] + b.doubles()[k] + r.doubles()[j];
                        }
                    }
                    return out;
                },
                DType.FLOAT64,
                x,
                y,
                row);
        // The smallest chunk along each shared axis: 2 rows (from y), 3 columns (from the broadcast row).
        assertThat(sum.chunkShape()).containsExactly(2, 3);
        Set<String> names = Set.of(sum.explain().split("\n"));
        assertThat(String.join("\n", names)).contains("rechunk (stage 1/");
        Chunk got = sum.compute();
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                assertThat(got.doubles()[i * 8 + j]).isEqualTo(2 * (1000.0 * i + j) + j);
            }
        }
        CubedArray bad = Cubed.fromZarr(zarr("bad.zarr", 8, 5, new int[] {4, 5}), spec);
        assertThatThrownBy(() -> Blockwise.mapBlocks((b, id) -> b[0], DType.FLOAT64, x, bad))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cannot be broadcast together");
    }
}
