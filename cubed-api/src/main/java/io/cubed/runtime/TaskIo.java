package io.cubed.runtime;

import java.io.Serializable;

/** Bytes a task read and wrote (decoded chunk sizes). */
public record TaskIo(long bytesRead, long bytesWritten) implements Serializable {
    public static final TaskIo NONE = new TaskIo(0, 0);
}
