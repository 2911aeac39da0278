package io.muster;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Which of the project's packages each package may import, checked on the compiled main classes: the rule each
 * {@code package-info.java} states, kept by a test. Deny by default: a class in a package the table does not name
 * fails, so a new package is declared here (and in its {@code package-info.java}) before it can be built on.
 * Classes outside {@code io.muster} (the JDK, Jakarta EE, libraries) are not the table's business.
 */
@AnalyzeClasses(packages = "io.muster", importOptions = ImportOption.DoNotIncludeTests.class)
class LayersTest {

    /** Package, then the packages it may import; listed from the bottom up. */
    static final Map<String, List<String>> MAY_IMPORT = new LinkedHashMap<>();

    static {
        may("model");
        may("config");
        may("audit");                     // callers describe who asked: the trail needs nothing of theirs
        may("files");
        may("registry", "model", "config");
        may("codec", "model");            // the wire formats of the values, whoever holds them
        may("changes", "model", "codec", "registry");
        may("eviction", "model", "config", "registry");
        may("replication", "model", "config", "registry", "codec");
        may("regions", "model", "config", "codec", "replication");          // replication's HTTP client
        may("cache", "model", "config", "registry", "codec", "regions");    // merged views go stale with a region
        may("snapshot", "model", "registry", "codec", "files");
        may("status", "model", "config", "registry", "cache", "eviction", "replication");
        may("metrics", "model", "config", "registry", "cache", "eviction", "replication", "status");
        may("api", "model", "config", "registry", "codec", "cache", "eviction", "replication", "status", "audit");
        may("jmx", "model", "config", "registry", "eviction", "replication", "status", "api");
        may("dashboard", "model", "registry", "audit", "api");
        may("health", "api");
        may("web", "registry", "cache", "changes", "files", "metrics", "audit", "api");
        may("bootstrap", MAY_IMPORT.keySet().toArray(String[]::new));    // the composition root; nothing imports it
    }

    private static void may(String pkg, String... imports) {
        MAY_IMPORT.put(pkg, List.of(imports));
    }

    @ArchTest
    static final ArchRule each_package_imports_only_what_its_row_allows = layers();

    @ArchTest
    static final ArchRule no_cycles_between_packages = slices().matching("io.muster.(*)..").should().beFreeOfCycles();

    private static ArchRule layers() {
        LayeredArchitecture rule = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .ensureAllClassesAreContainedInArchitecture();
        for (String pkg : MAY_IMPORT.keySet()) {
            rule = rule.layer(pkg).definedBy("io.muster." + pkg);
        }
        for (Map.Entry<String, List<String>> row : MAY_IMPORT.entrySet()) {
            String[] allowed = row.getValue().toArray(String[]::new);
            rule = allowed.length == 0 ? rule.whereLayer(row.getKey()).mayNotAccessAnyLayer()
                    : rule.whereLayer(row.getKey()).mayOnlyAccessLayers(allowed);
        }
        return rule;
    }
}
