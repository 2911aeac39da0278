package io.muster.compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
 * <p>One archive per build, shared by the test JVMs (forks) through a directory named for the packaged WAR's time
 * stamp: the first fork to need it writes it while holding a file lock, the others wait on the lock and map what
 * it wrote (one warm-up per build instead of one per fork; a later build's WAR gets a directory of its own, so no
 * child maps an archive of a jar rewritten since). The archive is written to a temporary name and moved into place
 * whole. Should the warm-up fail, or the JVM reject the archive, children start without one. Guarded by the
 * class's monitor within a JVM, by the lock between JVMs.
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
            Path war = Path.of(System.getProperty("muster.war"));
            dir = Files.createDirectories(Path.of("target", "child-launcher",
                    Long.toString(Files.getLastModifiedTime(war).toMillis()))).toAbsolutePath();
            jar = dir.resolve("run-embedded.jar");
            try (FileChannel lock = lockFile(); FileLock held = lock.lock()) {
                if (!Files.isRegularFile(jar)) {
                    Path part = dir.resolve("run-embedded.jar.part");
                    try (InputStream in = Objects.requireNonNull(
                            ChildLauncher.class.getClassLoader().getResourceAsStream(CLASS), CLASS);
                         OutputStream out = Files.newOutputStream(part); JarOutputStream j = new JarOutputStream(out)) {
                        j.putNextEntry(new JarEntry(CLASS));
                        in.transferTo(j);
                        j.closeEntry();
                    }
                    Files.move(part, jar, StandardCopyOption.ATOMIC_MOVE);
                }
            }
        }
        return jar;
    }

    private static FileChannel lockFile() throws IOException {
        return FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
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
            try (FileChannel lock = lockFile(); FileLock held = lock.lock()) {
                Path tried = dir.resolve("warm-up-tried");
                if (!Files.exists(tried)) {   // another fork's warm-up that failed is not tried again
                    Files.createFile(tried);
                    Path part = dir.resolve("payara.jsa.part");
                    try {
                        warmUp.run(List.of("-XX:ArchiveClassesAtExit=" + part, "-Xlog:cds=off",
                                "-Xlog:cds+dynamic=off"));
                        if (Files.isRegularFile(part) && Files.size(part) > 0) {
                            Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
                        }
                    } catch (Exception e) {
                        System.out.println("[child] no class-data archive, children start without one: " + e);
                    }
                }
            }
        }
        return Files.isRegularFile(archive)
                ? List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off") : List.of();
    }
}
