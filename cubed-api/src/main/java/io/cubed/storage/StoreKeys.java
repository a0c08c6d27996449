package io.cubed.storage;

import io.cubed.error.InvalidArgumentException;

/** Checks and joins the relative keys of a {@link Store}. */
public final class StoreKeys {
    private StoreKeys() {}

    /** Returns {@code key} when it is a valid relative key (no leading slash, no empty, "." or ".." part). */
    public static String check(String key) {
        if (key.isEmpty()) {
            return key;
        }
        if (key.startsWith("/") || key.endsWith("/")) {
            throw new InvalidArgumentException("store key '" + key + "' must not start or end with '/'");
        }
        for (String part : key.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new InvalidArgumentException("store key '" + key + "' has an empty, '.' or '..' part");
            }
        }
        return key;
    }

    /**
     * Returns {@code key} when it is a valid relative key; the failure names both the key and {@code storeUri}, the
     * store it was meant for.
     */
    public static String check(String key, String storeUri) {
        try {
            return check(key);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(e.getMessage() + " (store " + storeUri + ")", e);
        }
    }

    /**
     * The path of an object-store or Hadoop URL ({@code path}, the text after the bucket or authority) as Hadoop's
     * {@code Path} reads it, without leading or trailing slash: repeated slashes are one ({@code //x} is {@code x}), a
     * trailing slash is dropped, {@code .} segments are dropped and {@code ..} segments applied; every other character
     * is kept as it is (a space, {@code [}, {@code #}, {@code %41}). A {@code ..} above the root, which Hadoop would
     * keep as a name, is refused naming {@code url}, the whole URL.
     */
    public static String normalizedPath(String path, String url) {
        java.util.ArrayDeque<String> parts = new java.util.ArrayDeque<>();
        for (String s : path.split("/+")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                if (parts.isEmpty()) {
                    throw new InvalidArgumentException("'" + url + "' goes above its root with '..'");
                }
                parts.removeLast();
                continue;
            }
            parts.addLast(s);
        }
        return String.join("/", parts);
    }

    /** Joins two keys with {@code '/'}; an empty side is dropped. */
    public static String join(String parent, String child) {
        if (parent.isEmpty()) {
            return check(child);
        }
        if (child.isEmpty()) {
            return check(parent);
        }
        return check(parent + "/" + child);
    }
}
