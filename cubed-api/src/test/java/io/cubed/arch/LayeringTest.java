package io.cubed.arch;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Holds the package layering of docs/architecture.md: each layer uses only the layers below it. */
class LayeringTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.cubed");

    @Test
    void layersOnlyUseLayersBelow() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("zarr")
                .definedBy("io.cubed.storage.zarr..")
                .layer("fs")
                .definedBy("io.cubed.storage.fs..")
                .layer("storage")
                .definedBy("io.cubed.storage")
                .layer("chunk")
                .definedBy("io.cubed.chunk..")
                .layer("grid")
                .definedBy("io.cubed.grid..")
                .layer("dtype")
                .definedBy("io.cubed.dtype..")
                .layer("error")
                .definedBy("io.cubed.error..")
                .whereLayer("zarr")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("fs")
                .mayOnlyBeAccessedByLayers("zarr")
                .whereLayer("storage")
                .mayOnlyBeAccessedByLayers("zarr", "fs")
                .whereLayer("chunk")
                .mayOnlyBeAccessedByLayers("zarr", "fs", "storage")
                .whereLayer("grid")
                .mayOnlyBeAccessedByLayers("zarr", "fs", "storage", "chunk")
                .whereLayer("dtype")
                .mayOnlyBeAccessedByLayers("zarr", "fs", "storage", "chunk", "grid")
                .check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.cubed.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void onlyStorageFsKnowsHadoop() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses()
                .that()
                .resideOutsideOfPackage("io.cubed.storage.fs..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.hadoop..")
                .check(CLASSES);
    }
}
