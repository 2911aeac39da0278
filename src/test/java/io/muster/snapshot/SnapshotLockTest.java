package io.muster.snapshot;

import io.muster.testing.CapturedLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/** Two live nodes never share a snapshot file: in one JVM, or in two processes; a redeploy takes it again. */
class SnapshotLockTest {
    private static final String NAME = "registry-_eureka__.snapshot";
    private final CapturedLog capture = new CapturedLog();
    private final List<LogRecord> logged = capture.records;
    @TempDir
    Path dir;

    @BeforeEach
    void listen() {
        Logger.getLogger(SnapshotLock.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        Logger.getLogger(SnapshotLock.class.getName()).removeHandler(capture);
    }

    private Optional<SnapshotLock> take(String holder) {
        return SnapshotLock.take(SnapshotDirectory.open(dir).orElseThrow(), NAME, holder);
    }

    @Test
    void aSecondDeploymentInTheSameJvmRunsWithoutTheFileUntilTheFirstIsClosed() {
        Optional<SnapshotLock> first = take("domain1, pid 1");
        assertThat(first).isPresent();

        assertThat(take("domain1 again, pid 1")).isEmpty();
        assertThat(logged).anySatisfy(r -> {
            assertThat(r.getLevel()).isEqualTo(Level.SEVERE);
            assertThat(r.getMessage()).contains("registry snapshots are off for this run")
                    .contains(dir.resolve(NAME + ".lock").toString()).contains("(domain1, pid 1)");
        });

        first.get().close();
        first.get().close();   // twice: as a failed start followed by contextDestroyed might
        Optional<SnapshotLock> redeployed = take("domain1 redeployed, pid 1");
        assertThat(redeployed).as("a redeploy takes it again").isPresent();
        redeployed.get().close();
    }

    @Test
    void aLiveNodeInAnotherProcessKeepsItAndItsDeathReleasesIt() throws Exception {
        take("this JVM, before").orElseThrow().close();   // the lock file as the server creates it: 0600
        Path lockFile = dir.resolve(NAME + ".lock");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lockFile))).isEqualTo("rw-------");
        Process other = holdInAnotherProcess(lockFile);
        try {
            assertThat(take("this JVM")).isEmpty();
            assertThat(logged).anySatisfy(r -> assertThat(r.getMessage())
                    .contains("another live server holds it (held by the other process)"));
        } finally {
            other.destroyForcibly().waitFor(30, TimeUnit.SECONDS);   // killed: no release, no clean-up
        }
        Optional<SnapshotLock> after = take("this JVM, after");
        assertThat(after).as("the system released the dead holder's lock").isPresent();
        assertThat(Files.readString(lockFile)).isEqualTo("this JVM, after\n");
        after.get().close();
        assertThat(lockFile).as("never deleted: a third node must lock the same file").exists();
    }

    @Test
    void aLockFileThatIsALinkIsRefused() throws IOException {
        Path target = Files.writeString(dir.resolve("elsewhere"), "");
        Files.createSymbolicLink(dir.resolve(NAME + ".lock"), target);

        assertThat(take("this JVM")).isEmpty();
        assertThat(logged).anySatisfy(r -> assertThat(r.getMessage()).contains("cannot lock")
                .contains("symbolic link"));
    }

    /** A JVM of its own that locks the file and holds it until killed. */
    private static Process holdInAnotherProcess(Path lockFile) throws Exception {
        Path source = lockFile.resolveSibling("Hold.java");
        Files.writeString(source, """
                import java.nio.ByteBuffer;
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                public class Hold {
                    public static void main(String[] args) throws Exception {
                        FileChannel c = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE);
                        c.lock();
                        c.truncate(0);
                        c.write(ByteBuffer.wrap("held by the other process\\n".getBytes()));
                        System.out.println("LOCKED");
                        Thread.sleep(600_000);
                    }
                }
                """);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, source.toString(), lockFile.toString()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).as("the other process locked the file").isEqualTo("LOCKED");
        return p;
    }
}
