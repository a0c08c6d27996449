package io.cubed.storage;

import java.io.Serializable;

/**
 * A serializable recipe for opening a {@link Store}; tasks carry this, never an open client, and open the store on the
 * executor that runs them.
 */
@FunctionalInterface
public interface StoreSupplier extends Serializable {
    /** Opens (or returns a cached, shared instance of) the store. */
    Store open();
}
