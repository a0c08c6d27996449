package io.cubed.spark;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.sql.SparkSession;

/**
 * What a Databricks notebook finds predefined, for {@link NotebooksTest}: the {@code spark} session, and the HTML
 * passed to {@code displayHTML} (recorded here instead of shown).
 */
public final class NotebookBindings {
    /** The session the notebooks' {@code spark} is bound to. */
    public static volatile SparkSession spark;

    /** Every HTML string a notebook displayed, in order. */
    public static final List<String> DISPLAYED = new CopyOnWriteArrayList<>();

    private NotebookBindings() {}
}
