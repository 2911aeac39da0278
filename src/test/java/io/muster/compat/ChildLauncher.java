package io.muster.compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * What makes a child server's JVM start in well under half the time: RunEmbedded as a compiled class in a jar of
 * its own (not compiled from source at every start, and the launcher's class path carries neither the test classes
 * nor their resources beside Payara), and one class-data archive of Payara's classes (AppCDS), written once by a
 * warm-up child as it exits, that every later child maps instead of loading and verifying them again. Measured on
 * the 2-core machine: 16 s to serving and 27 s of CPU per start before, 6.5 s and 8.5 s with C1 and the archive.
 *
 * <p>Per test JVM (its directory carries the process id), so forks never share a half-written file; the archive is
 * written to a temporary name and moved into place whole. Should the warm-up fail, or the JVM reject the archive,
 * children start without one. Guarded by the class's monitor.
 */
final class ChildLauncher {
    private static final String CLASS = "io/muster/dev/RunEmbedded.class";
    private static Path dir;
    private static Path jar;
    private static boolean warmedUp;

    private ChildLauncher() {
    }

    /** The jar holding RunEmbedded alone, made on first use. */
    static synchronized Path jar() throws IOException {
        if (jar == null) {
            dir = Files.createDirectories(Path.of("target", "child-launcher",
                    Long.toString(ProcessHandle.current().pid()))).toAbsolutePath();
            jar = dir.resolve("run-embedded.jar");
            try (InputStream in = Objects.requireNonNull(
                    ChildLauncher.class.getClassLoader().getResourceAsStream(CLASS), CLASS);
                 OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
                j.putNextEntry(new JarEntry(CLASS));
                in.transferTo(j);
                j.closeEntry();
            }
        }
        return jar;
    }

    /** A child that writes the archive as it exits. */
    interface WarmUp {
        void run(List<String> jvmOptions) throws Exception;
    }

    /**
     * The JVM options that map the archive, after writing it first (once per test JVM, by {@code warmUp}, which
     * starts a child with the options it is given and stops it). The JVM's own CDS messages stay out of the log.
     */
    static synchronized List<String> classDataOptions(WarmUp warmUp) throws Exception {
        jar();
        Path archive = dir.resolve("payara.jsa");
        if (!warmedUp) {
            warmedUp = true;
            Path part = dir.resolve("payara.jsa.part");
            try {
                warmUp.run(List.of("-XX:ArchiveClassesAtExit=" + part, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
                if (Files.isRegularFile(part) && Files.size(part) > 0) {
                    Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (Exception e) {
                System.out.println("[child] no class-data archive, children start without one: " + e);
            }
        }
        return Files.isRegularFile(archive)
                ? List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off") : List.of();
    }
}
