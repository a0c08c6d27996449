package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.StoreSupplier;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Stores}: scheme dispatch and serializable, per-JVM cached suppliers. */
class StoresTest {
    @TempDir
    Path dir;

    static StoreSupplier roundTrip(StoreSupplier supplier) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(supplier);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (StoreSupplier) in.readObject();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void supplierSurvivesSerializationAndReopensTheSameStore() throws Exception {
        String uri = dir.resolve("ser.zarr").toUri().toString();
        StoreOptions options =
                StoreOptions.empty().with(Stores.BACKEND_OPTION, "hadoop").with("fs.s3a.secret.key", "not-printed");
        StoreSupplier supplier = Stores.supplier(uri, options);
        Store opened = supplier.open();
        opened.put("a/0.0", bytes("chunk"));

        StoreSupplier copy = roundTrip(supplier);
        assertThat(copy).isNotSameAs(supplier).isEqualTo(supplier).hasSameHashCodeAs(supplier);
        Store reopened = copy.open();
        assertThat(reopened).as("equal suppliers share one cached store").isSameAs(opened);
        assertThat(io.cubed.storage.RetryingStore.unwrapAll(reopened)).isInstanceOf(HadoopStore.class);
        assertThat(reopened.get("a/0.0")).isEqualTo(bytes("chunk"));
        assertThat(copy.toString()).contains(uri).doesNotContain("not-printed");
        // A fresh (uncached) store on the same URI sees the same data.
        try (Store fresh = Stores.open(uri, options)) {
            assertThat(fresh).isNotSameAs(opened);
            assertThat(fresh.get("a/0.0")).isEqualTo(bytes("chunk"));
        }
    }

    @Test
    void suppliersWithDifferentOptionsOrUrisOpenDifferentStores() {
        String uri = dir.resolve("x").toUri().toString();
        Store nio = Stores.supplier(uri, StoreOptions.empty()).open();
        Store hadoop = Stores.supplier(uri, StoreOptions.empty().with(Stores.BACKEND_OPTION, "hadoop"))
                .open();
        Store other = Stores.supplier(dir.resolve("y").toUri().toString(), StoreOptions.empty())
                .open();
        assertThat(nio).isInstanceOf(LocalStore.class);
        assertThat(io.cubed.storage.RetryingStore.unwrapAll(hadoop)).isInstanceOf(HadoopStore.class);
        assertThat(other).isNotSameAs(nio);
        assertThat(Stores.supplier(uri, StoreOptions.empty()).open()).isSameAs(nio);
        nio.put("k", bytes("v"));
        assertThat(hadoop.get("k")).isEqualTo(bytes("v"));
        assertThat(other.get("k")).isNull();
    }

    @Test
    void closingASharedStoreDoesNotBreakItForOtherHolders() {
        String uri = dir.resolve("shared").toUri().toString();
        StoreSupplier supplier = Stores.supplier(uri, StoreOptions.empty().with(Stores.BACKEND_OPTION, "hadoop"));
        Store first = supplier.open();
        first.put("k", bytes("v"));
        first.close();
        Store second = supplier.open();
        assertThat(second).isSameAs(first);
        assertThat(second.get("k")).isEqualTo(bytes("v"));
        second.put("k2", bytes("w"));
        assertThat(second.list("")).containsExactly("k", "k2");
    }

    @Test
    void memorySuppliersRoundTripToTheNamedStore() throws Exception {
        String name = "ser-" + UUID.randomUUID();
        try {
            StoreSupplier supplier = Stores.supplier("memory://" + name + "/arr", StoreOptions.empty());
            supplier.open().put("0", bytes("x"));
            assertThat(roundTrip(supplier).open().get("0")).isEqualTo(bytes("x"));
            assertThat(InMemoryStore.named(name).get("arr/0")).isEqualTo(bytes("x"));
        } finally {
            InMemoryStore.dropNamed(name);
        }
    }

    @Test
    void schemeOfTellsPathsFromUris() {
        assertThat(Stores.schemeOf("/data/x.zarr")).isNull();
        assertThat(Stores.schemeOf("relative/x.zarr")).isNull();
        assertThat(Stores.schemeOf("C:\\data\\x")).isNull();
        assertThat(Stores.schemeOf("file:///data/x")).isEqualTo("file");
        assertThat(Stores.schemeOf("S3A://bucket/x")).isEqualTo("s3a");
        assertThat(Stores.schemeOf("memory://n")).isEqualTo("memory");
    }

    @Test
    void fileUriWithAHostIsRejectedNamingTheUri() {
        assertThatThrownBy(() -> Stores.open("file://somehost/data/x"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("file://somehost/data/x");
    }
}
