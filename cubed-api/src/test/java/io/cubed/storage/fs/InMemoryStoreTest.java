package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** The store contract on {@link InMemoryStore}, plus sharing by name through {@code memory://NAME} URIs. */
class InMemoryStoreTest extends StoreContract {
    @Override
    protected Store newStore() {
        return InMemoryStore.create();
    }

    @Override
    protected boolean expectedObjectStore() {
        return false;
    }

    @Override
    @Test
    @Disabled("memory keys form no hierarchy and a put cannot fail: no way to make one fail for real")
    void failedPutLeavesNoValueAndNoTempFile() {}

    private static String uniqueName() {
        return "t-" + UUID.randomUUID();
    }

    @Test
    void memoryUrisShareDataByName() {
        String name = uniqueName();
        try {
            Store a = Stores.open("memory://" + name);
            Store b = Stores.open("memory://" + name);
            Store other = Stores.open("memory://" + uniqueName());
            a.put("x/.zarray", bytes("meta"));
            assertThat(b.get("x/.zarray")).isEqualTo(bytes("meta"));
            assertThat(InMemoryStore.named(name).list("")).containsExactly("x/.zarray");
            assertThat(other.list("")).isEmpty();
            assertThat(a.uri()).isEqualTo("memory://" + name);
        } finally {
            InMemoryStore.dropNamed(name);
        }
    }

    @Test
    void memoryUriWithAPathOpensTheSubStore() {
        String name = uniqueName();
        try {
            InMemoryStore.named(name).put("arr/0.0", bytes("c"));
            Store sub = Stores.open("memory://" + name + "/arr");
            assertThat(sub.uri()).isEqualTo("memory://" + name + "/arr");
            assertThat(sub.list("")).containsExactly("0.0");
            assertThat(Stores.open("memory://" + name + "/arr/").list("")).containsExactly("0.0");
            sub.put("1.0", bytes("d"));
            assertThat(InMemoryStore.named(name).list("")).containsExactly("arr/0.0", "arr/1.0");
        } finally {
            InMemoryStore.dropNamed(name);
        }
    }

    @Test
    void memoryUriNeedsAName() {
        assertThatThrownBy(() -> Stores.open("memory://")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> Stores.open("memory:///x")).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void anonymousStoresAreSeparate() {
        List<InMemoryStore> stores = List.of(InMemoryStore.create(), InMemoryStore.create(), InMemoryStore.create());
        stores.get(0).put("k", bytes("0"));
        assertThat(stores.get(1).get("k")).isNull();
        assertThat(stores.get(2).get("k")).isNull();
        assertThat(stores.stream().map(Store::uri).distinct()).hasSize(3);
    }

    @Test
    void droppingANameEmptiesItForEveryHolder() {
        String name = uniqueName();
        Store cached = Stores.supplier("memory://" + name, StoreOptions.empty()).open();
        cached.put("k", bytes("old"));
        InMemoryStore.dropNamed(name);
        assertThat(cached.get("k")).isNull();
        Stores.open("memory://" + name).put("k", bytes("new"));
        assertThat(cached.get("k")).isEqualTo(bytes("new"));
        InMemoryStore.dropNamed(name);
    }

    @Test
    void listOfASubStoreRootedAtAValueIsEmpty() {
        store.put("v", bytes("1"));
        assertThat(store.resolve("v").list("")).isEmpty();
    }
}
