package io.muster.bootstrap;

import io.muster.snapshot.SnapshotIdentity;

import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Where this deployment's registry snapshot lives and whose it is, decided once at start-up from the container's
 * system properties and the snapshot settings:
 *
 * <ul>
 * <li>Payara Server: {@code ${com.sun.aas.instanceRoot}/muster}, the domain's (or clustered instance's) own
 *     directory, so two domains on one host never meet, although neither knows its port at start;</li>
 * <li>Tomcat: {@code ${catalina.base}/work/muster}, beside the contexts' work directories but not one of them
 *     (Tomcat deletes a context's work directory, its {@code jakarta.servlet.context.tempdir}, when the WAR is
 *     undeployed or replaced, and the snapshot exists for that redeploy);</li>
 * <li>embedded Payara, or any other container: {@code java.io.tmpdir/muster-<user>}. Embedded Payara's instance
 *     root is a fresh {@code gfembed…tmp} directory that it deletes when it stops, so it is no home and no
 *     identity; its nodes are told apart by their port alone;</li>
 * <li>{@code eureka.server.snapshot.directory} when set, which may be shared by several servers: the file name
 *     then carries a hash of the server's root, so each has a file of its own.</li>
 * </ul>
 *
 * <p>The directory's permissions are checked where it is opened ({@link io.muster.files.PrivateDirectory}), the
 * identity where the file is read ({@link io.muster.snapshot.SnapshotFile}). Immutable.
 *
 * @param fileName the snapshot's name in {@code directory}; the journal and the lock are named after it
 */
record SnapshotPlace(Path directory, SnapshotIdentity identity, String fileName) {
    static final String INSTANCE_ROOT = "com.sun.aas.instanceRoot";
    static final String CATALINA_BASE = "catalina.base";
    /** The instance roots embedded Payara and Payara Micro create for one run, in the temp directory. */
    private static final Pattern TEMPORARY_ROOT = Pattern.compile("(gfembed|payaramicro-rt).*tmp");

    /**
     * @param configured      {@code eureka.server.snapshot.directory}, or null for the default
     * @param systemProperty  the JVM's system properties
     * @param contextPath     this context's, ending in a slash
     * @param port            the port known at start-up, if any
     */
    static SnapshotPlace choose(String configured, Function<String, String> systemProperty, String contextPath,
                                OptionalInt port) {
        String server = "servlet";
        Path root = null;
        Path own = null;
        String instanceRoot = systemProperty.apply(INSTANCE_ROOT);
        String catalinaBase = systemProperty.apply(CATALINA_BASE);
        if (instanceRoot != null && !instanceRoot.isBlank()) {
            Path r = absolute(instanceRoot);
            if (isTemporary(r, systemProperty)) {
                server = "payara-embedded";
            } else {
                server = "payara";
                root = r;
                own = r.resolve("muster");
            }
        } else if (catalinaBase != null && !catalinaBase.isBlank()) {
            server = "tomcat";
            root = absolute(catalinaBase);
            own = root.resolve("work").resolve("muster");
        }
        Path directory;
        boolean shared;
        if (configured != null) {
            directory = absolute(configured);
            shared = root != null;
            if (root == null) {
                root = directory;   // the operator's directory for this server: it names the server
            }
        } else {
            directory = own != null ? own : absolute(systemProperty.apply("java.io.tmpdir"))
                    .resolve("muster-" + safeName(systemProperty.apply("user.name")));
            shared = false;
        }
        SnapshotIdentity identity = new SnapshotIdentity(server, root == null ? null : root.toString(), contextPath,
                port);
        return new SnapshotPlace(directory, identity, identity.fileName(shared));
    }

    /** An instance root the container made for this run alone, and deletes when it stops. */
    private static boolean isTemporary(Path root, Function<String, String> systemProperty) {
        Path parent = root.getParent();
        if (parent == null || !TEMPORARY_ROOT.matcher(root.getFileName().toString()).matches()) {
            return false;
        }
        for (String temp : new String[]{systemProperty.apply("glassfish.embedded.tmpdir"),
                systemProperty.apply("java.io.tmpdir")}) {
            if (temp != null && !temp.isBlank() && absolute(temp).equals(parent)) {
                return true;
            }
        }
        return false;
    }

    private static Path absolute(String path) {
        return Path.of(path).toAbsolutePath().normalize();
    }

    private static String safeName(String user) {
        return user == null || user.isBlank() ? "unknown" : user.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
