package io.cubed.storage.fs;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * File statuses of Hadoop's S3A ({@code org.apache.hadoop.fs.s3a.S3AFileStatus}) made without asking S3, for {@code
 * openFile(path).withFileStatus(status)}. S3A 3.3.4's {@code openFileWithOptions} skips its {@code HEAD} only for a
 * status of its own class ({@code S3AFileStatus} or {@code S3ALocatedFileStatus}; any other status is ignored), and its
 * stream takes from that status the length it never reads past: each ranged {@code GET} ends at the smaller of that
 * length and what the input policy asks. A status with no {@code ETag} and no version makes S3A pin the version of the
 * object from its first {@code GET}'s answer, as after its own {@code HEAD}.
 *
 * <p>Found by reflection: hadoop-aws is on the class path of the jobs that read {@code s3a://} through Hadoop, not a
 * dependency of this module. {@link #of} is null when the file system is not S3A's or its S3A has no such constructor;
 * reads then open as before.
 */
final class S3aStatuses {
    private static final String FILE_SYSTEM = "org.apache.hadoop.fs.s3a.S3AFileSystem";
    private static final String FILE_STATUS = "org.apache.hadoop.fs.s3a.S3AFileStatus";
    /** {@code S3AFileStatus(length, modificationTime, path, blockSize, owner, eTag, versionId)}. */
    private final Constructor<? extends FileStatus> constructor;

    private final long blockSize;

    private S3aStatuses(Constructor<? extends FileStatus> constructor, long blockSize) {
        this.constructor = constructor;
        this.blockSize = blockSize;
    }

    /** Statuses for {@code fs} when it is S3A's (or extends it); null otherwise. */
    static S3aStatuses of(FileSystem fs) {
        for (Class<?> c = fs.getClass(); c != null; c = c.getSuperclass()) {
            if (!c.getName().equals(FILE_SYSTEM)) {
                continue;
            }
            try {
                Class<? extends FileStatus> status =
                        Class.forName(FILE_STATUS, false, c.getClassLoader()).asSubclass(FileStatus.class);
                return new S3aStatuses(
                        status.getConstructor(
                                long.class,
                                long.class,
                                Path.class,
                                long.class,
                                String.class,
                                String.class,
                                String.class),
                        fs.getDefaultBlockSize(new Path("/")));
            } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * A status of a file at {@code qualified} (as S3A qualifies it: S3A refuses a status for another path) whose
     * reads stop at {@code length}, with no {@code ETag} and no version.
     */
    FileStatus status(Path qualified, long length) throws IOException {
        try {
            return constructor.newInstance(length, 0L, qualified, blockSize, null, null, null);
        } catch (InvocationTargetException e) {
            throw new IOException("cannot make S3A's status of " + qualified + ": " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot make S3A's status of " + qualified + ": " + e, e);
        }
    }
}
