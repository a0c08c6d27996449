package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.fs.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** I/O failures in words: what went wrong and where, never a Java type's name in front. */
class IoErrorsTest {
    @TempDir
    Path tmp;

    @Test
    void fileSystemFailuresSayWhatAndWhere() {
        assertThat(IoErrors.describe(new AccessDeniedException("/data/x.zarr/.zarray")))
                .isEqualTo("permission denied (/data/x.zarr/.zarray)");
        assertThat(IoErrors.describe(new FileAlreadyExistsException("/data/x.zarr")))
                .isEqualTo("a file is already there (/data/x.zarr)");
        assertThat(IoErrors.describe(new NoSuchFileException("/a", "/b", null)))
                .isEqualTo("no such file or directory (/a, /b)");
        assertThat(IoErrors.describe(new FileSystemException("/mnt/ro/x", null, "Read-only file system")))
                .isEqualTo("Read-only file system (/mnt/ro/x)");
        // Wrapped, as tasks and futures wrap them: the known cause is found.
        assertThat(IoErrors.describe(new UncheckedIOException(new AccessDeniedException("/d"))))
                .isEqualTo("permission denied (/d)");
    }

    @Test
    void networkFailuresAndOtherMessagesLoseTheTypeName() {
        assertThat(IoErrors.describe(new CompletionException(new IOException(
                        new ConnectException("cannot connect to http://127.0.0.1:1 (Connection refused)")))))
                .isEqualTo("cannot connect to http://127.0.0.1:1 (Connection refused)");
        assertThat(IoErrors.describe(new UnknownHostException("nohost.invalid")))
                .isEqualTo("unknown host nohost.invalid");
        assertThat(IoErrors.describe(new IOException("java.io.EOFException: stream ended after 12 bytes")))
                .isEqualTo("stream ended after 12 bytes");
        assertThat(IoErrors.describe(new IOException("disk quota exceeded"))).isEqualTo("disk quota exceeded");
        assertThat(IoErrors.describe(new IOException())).isEqualTo("IOException");
    }

    @Test
    void aLocalStoreFailureNamesTheKeyAndTheFileInWords() throws IOException {
        Files.writeString(tmp.resolve("a"), "a file, not a directory");
        Store store = Stores.open(tmp.toString());
        assertThatThrownBy(() -> store.put("a/b", new byte[] {1}))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("'a/b' in ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContainPattern("java\\.[a-z]+\\.[A-Z]"));
    }
}
