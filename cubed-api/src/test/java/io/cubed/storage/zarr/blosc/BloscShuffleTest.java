package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The byte and bit shuffles against straightforward reference definitions, for many element and block sizes. */
class BloscShuffleTest {
    private static final int[] BLOCK_BYTES = {0, 1, 7, 8, 63, 64, 65, 128, 200, 1000, 1024, 4099, 8192};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 255})
    void byteShuffleMatchesDefinition(int typesize) {
        for (int bytes : BLOCK_BYTES) {
            byte[] src = BloscTestData.random(bytes + 3, bytes);
            int n = bytes / typesize;
            byte[] expected = new byte[bytes];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < typesize; j++) {
                    expected[j * n + i] = src[3 + i * typesize + j];
                }
            }
            System.arraycopy(src, 3 + n * typesize, expected, n * typesize, bytes - n * typesize);
            byte[] shuffled = new byte[bytes + 5];
            ByteShuffle.shuffle(typesize, bytes, src, 3, shuffled, 5);
            assertThat(java.util.Arrays.copyOfRange(shuffled, 5, 5 + bytes)).isEqualTo(expected);

            byte[] back = new byte[bytes + 2];
            ByteShuffle.unshuffle(typesize, bytes, shuffled, 5, back, 2);
            assertThat(java.util.Arrays.copyOfRange(back, 2, 2 + bytes))
                    .isEqualTo(java.util.Arrays.copyOfRange(src, 3, 3 + bytes));
        }
    }

    /**
     * The Vector API shuffle of 8-byte elements, which the build's test JVMs have ({@code --add-modules
     * jdk.incubator.vector}), against the definition and against the scalar transpose: sizes around its step (8
     * elements per long lane) so that the scalar tail is covered too, and offsets not aligned to 8. The build runs it
     * twice: with the machine's vectors (256 bits on x86 with AVX2) and, in the vector-128 execution, with 128.
     */
    @org.junit.jupiter.api.Test
    void vectorShuffleOf8ByteElementsMatchesTheDefinitionAndTheScalarCode() {
        assertThat(ByteShuffle.VECTOR)
                .as("the tests run with --add-modules jdk.incubator.vector, so the vector path is on")
                .isTrue();
        String bits = System.getProperty("cubed.test.vectorBits");
        if (bits != null) {
            // The vector-128 execution (-XX:MaxVectorSize=16): the 128-bit shape of ARM and SSE machines.
            assertThat(VectorByteShuffle.vectorBits()).isEqualTo(Integer.parseInt(bits));
        }
        for (int n : new int[] {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 1000, 4097}) {
            byte[] src = BloscTestData.random(8 * n + 3, n);
            byte[] expected = new byte[8 * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < 8; j++) {
                    expected[j * n + i] = src[3 + i * 8 + j];
                }
            }
            byte[] vector = new byte[8 * n + 5];
            VectorByteShuffle.shuffle8(n, src, 3, vector, 5);
            assertThat(java.util.Arrays.copyOfRange(vector, 5, 5 + 8 * n))
                    .as("shuffle %d", n)
                    .isEqualTo(expected);
            byte[] scalar = new byte[8 * n + 5];
            ByteShuffle.shuffle8Scalar(n, src, 3, scalar, 5);
            assertThat(scalar).isEqualTo(vector);

            byte[] back = new byte[8 * n + 1];
            VectorByteShuffle.unshuffle8(n, vector, 5, back, 1);
            assertThat(java.util.Arrays.copyOfRange(back, 1, 1 + 8 * n))
                    .as("unshuffle %d", n)
                    .isEqualTo(java.util.Arrays.copyOfRange(src, 3, 3 + 8 * n));
            byte[] backScalar = new byte[8 * n + 1];
            ByteShuffle.unshuffle8Scalar(n, vector, 5, backScalar, 1);
            assertThat(backScalar).isEqualTo(back);

            // Into float64 values: value i has the bit pattern of element i's little-endian bytes.
            double[] values = new double[n + 2];
            values[0] = -1.5;
            values[n + 1] = 2.5;
            VectorByteShuffle.unshuffle8ToDoubles(n, vector, 5, values, 1);
            for (int i = 0; i < n; i++) {
                assertThat(Double.doubleToRawLongBits(values[1 + i]))
                        .as("value %d of %d", i, n)
                        .isEqualTo(LittleEndian.getLong(src, 3 + 8 * i));
            }
            assertThat(values[0]).as("before the values").isEqualTo(-1.5);
            assertThat(values[n + 1]).as("after the values").isEqualTo(2.5);

            // And from float64 values: the streams of their little-endian bytes.
            byte[] fromValues = new byte[8 * n + 2];
            VectorByteShuffle.shuffle8FromDoubles(n, values, 1, fromValues, 2);
            assertThat(java.util.Arrays.copyOfRange(fromValues, 2, 2 + 8 * n))
                    .as("shuffle of values %d", n)
                    .isEqualTo(expected);
            assertThat(fromValues[0]).isZero();
            assertThat(fromValues[1]).isZero();
        }
    }

    /**
     * The scalar loops of 8-byte elements, which run until the vector code is warm (and always without the Vector API
     * module), against the definition: streams apart from one another (some in one array, some in another, at
     * unrelated offsets, as a Blosc block's stored and decompressed streams lie), into bytes and into float64 values,
     * and shuffled from float64 values; sizes around the 8 elements of a transpose and offsets not aligned to 8.
     */
    @org.junit.jupiter.api.Test
    void scalarShuffleOf8ByteElementsMatchesTheDefinition() {
        for (int n : new int[] {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4097}) {
            byte[] src = BloscTestData.random(8 * n + 3, n + 7);
            byte[][] streams = new byte[8][];
            int[] offsets = new int[8];
            byte[] frame = new byte[4 * n + 11];
            byte[] scratch = new byte[4 * n + 5];
            for (int j = 0; j < 8; j++) {
                // Streams 0, 2, 5, 7 in "frame", the others in "scratch", none where the one before ends.
                boolean inFrame = j == 0 || j == 2 || j == 5 || j == 7;
                streams[j] = inFrame ? frame : scratch;
                int slot = inFrame
                        ? (j == 0 ? 0 : j == 2 ? 1 : j == 5 ? 2 : 3)
                        : (j == 1 ? 3 : j == 3 ? 1 : j == 4 ? 0 : 2);
                offsets[j] = (inFrame ? 11 : 5) + slot * n;
                for (int i = 0; i < n; i++) {
                    streams[j][offsets[j] + i] = src[3 + 8 * i + j];
                }
            }
            byte[] expectedShuffled = new byte[8 * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < 8; j++) {
                    expectedShuffled[j * n + i] = src[3 + 8 * i + j];
                }
            }

            byte[] back = new byte[8 * n + 4];
            ByteShuffle.unshuffle8Scalar(
                    n,
                    streams[0],
                    offsets[0],
                    streams[1],
                    offsets[1],
                    streams[2],
                    offsets[2],
                    streams[3],
                    offsets[3],
                    streams[4],
                    offsets[4],
                    streams[5],
                    offsets[5],
                    streams[6],
                    offsets[6],
                    streams[7],
                    offsets[7],
                    back,
                    4);
            assertThat(java.util.Arrays.copyOfRange(back, 4, 4 + 8 * n))
                    .as("unshuffle of %d elements from streams apart", n)
                    .isEqualTo(java.util.Arrays.copyOfRange(src, 3, 3 + 8 * n));
            assertThat(java.util.Arrays.copyOf(back, 4))
                    .as("before the elements")
                    .containsOnly(0);

            double[] values = new double[n + 2];
            values[0] = -1.5;
            values[n + 1] = 2.5;
            ByteShuffle.unshuffle8ToDoublesScalar(
                    n,
                    streams[0],
                    offsets[0],
                    streams[1],
                    offsets[1],
                    streams[2],
                    offsets[2],
                    streams[3],
                    offsets[3],
                    streams[4],
                    offsets[4],
                    streams[5],
                    offsets[5],
                    streams[6],
                    offsets[6],
                    streams[7],
                    offsets[7],
                    values,
                    1);
            for (int i = 0; i < n; i++) {
                long expected = 0;
                for (int j = 7; j >= 0; j--) {
                    expected = (expected << 8) | (src[3 + 8 * i + j] & 0xFF);
                }
                assertThat(Double.doubleToRawLongBits(values[1 + i]))
                        .as("value %d of %d", i, n)
                        .isEqualTo(expected);
            }
            assertThat(values[0]).as("before the values").isEqualTo(-1.5);
            assertThat(values[n + 1]).as("after the values").isEqualTo(2.5);

            byte[] fromValues = new byte[8 * n + 2];
            ByteShuffle.shuffle8FromDoublesScalar(n, values, 1, fromValues, 2);
            assertThat(java.util.Arrays.copyOfRange(fromValues, 2, 2 + 8 * n))
                    .as("shuffle of %d values", n)
                    .isEqualTo(expectedShuffled);
            assertThat(fromValues[0]).isZero();
            assertThat(fromValues[1]).isZero();

            byte[] shuffled = new byte[8 * n + 1];
            ByteShuffle.shuffle8Scalar(n, src, 3, shuffled, 1);
            assertThat(java.util.Arrays.copyOfRange(shuffled, 1, 1 + 8 * n))
                    .as("shuffle of %d elements", n)
                    .isEqualTo(expectedShuffled);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8, 16, 33})
    void bitShuffleMatchesDefinition(int typesize) {
        for (int bytes : BLOCK_BYTES) {
            byte[] src = BloscTestData.random(bytes, bytes + 1);
            int n = bytes / typesize;
            byte[] expected = src.clone();
            if (n % 8 == 0) {
                // Bit row 8*j+b holds bit b of byte j of every element, element i at bit i%8 of byte i/8.
                java.util.Arrays.fill(expected, 0, n * typesize, (byte) 0);
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < typesize; j++) {
                        for (int b = 0; b < 8; b++) {
                            int bit = (src[i * typesize + j] >>> b) & 1;
                            int pos = (8 * j + b) * n + i;
                            expected[pos / 8] |= (byte) (bit << (pos % 8));
                        }
                    }
                }
            }
            byte[] shuffled = new byte[bytes];
            BitShuffle.shuffle(typesize, bytes, src, 0, shuffled, 0);
            assertThat(shuffled).as("%d bytes", bytes).isEqualTo(expected);
            byte[] back = new byte[bytes];
            BitShuffle.unshuffle(typesize, bytes, shuffled, 0, back, 0);
            assertThat(back).isEqualTo(src);
        }
    }
}
