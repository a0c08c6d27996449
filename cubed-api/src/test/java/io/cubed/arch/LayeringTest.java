package io.cubed.arch;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Holds the package layering of docs/architecture.md: each layer uses only the layers listed after it. */
class LayeringTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.cubed");

    @Test
    void layersOnlyUseLayersBelow() {
        String[] order = {
            "api", "array", "plan", "primitive", "runtime", "zarr", "fs", "storage", "memory", "chunk", "grid", "dtype"
        };
        var arch = layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("api")
                .definedBy("io.cubed")
                .layer("array")
                .definedBy("io.cubed.array..")
                .layer("plan")
                .definedBy("io.cubed.plan..")
                .layer("primitive")
                .definedBy("io.cubed.primitive..")
                .layer("runtime")
                .definedBy("io.cubed.runtime..")
                .layer("zarr")
                .definedBy("io.cubed.storage.zarr..")
                .layer("fs")
                .definedBy("io.cubed.storage.fs..")
                .layer("storage")
                .definedBy("io.cubed.storage")
                .layer("memory")
                .definedBy("io.cubed.memory..")
                .layer("chunk")
                .definedBy("io.cubed.chunk..")
                .layer("grid")
                .definedBy("io.cubed.grid..")
                .layer("dtype")
                .definedBy("io.cubed.dtype..")
                .whereLayer("api")
                .mayNotBeAccessedByAnyLayer();
        for (int i = 1; i < order.length; i++) {
            arch = arch.whereLayer(order[i]).mayOnlyBeAccessedByLayers(java.util.Arrays.copyOf(order, i));
        }
        arch.check(CLASSES);
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
