package dev.weft.rpc.it.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The main (non-test) classes of every Weft module on the test class path, imported once. */
final class ProductionClasses {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(WeftModule.BASE_PACKAGE);

    private ProductionClasses() {
    }

    static JavaClasses get() {
        return CLASSES;
    }
}
