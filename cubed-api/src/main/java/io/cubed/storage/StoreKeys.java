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
