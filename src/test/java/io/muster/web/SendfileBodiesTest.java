package io.muster.web;

import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The files handed to the container's sendfile, on the real file system: full registries, so their directory is
 * the server user's alone. The request is a stand-in holding attributes, as a connector that supports sendfile
 * presents it.
 */
class SendfileBodiesTest {
    @TempDir
    Path tmp;

    private static HttpServletRequest sendfileRequest() {
        Map<String, Object> attributes = new HashMap<>(Map.of(SendfileBodies.SUPPORT, Boolean.TRUE));
        return (HttpServletRequest) Proxy.newProxyInstance(SendfileBodiesTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void bodiesAreWrittenOwnerOnlyInAnOwnerOnlyDirectory() throws IOException {
        Path dir = tmp.resolve("muster-bodies");
        HttpServletRequest req = sendfileRequest();
        byte[] body = new byte[100];

        try (SendfileBodies bodies = new SendfileBodies(dir, 10, () -> 0)) {
            assertThat(bodies.offer(req, body)).isTrue();
            Path file = Path.of((String) req.getAttribute(SendfileBodies.FILENAME));

            assertThat(Files.readAllBytes(file)).isEqualTo(body);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        }
    }

    @Test
    void aDirectoryThatIsALinkTurnsSendfileOffAndNothingIsWrittenThroughIt() throws IOException {
        Path target = Files.createDirectory(tmp.resolve("target"));
        Path link = Files.createSymbolicLink(tmp.resolve("muster-bodies"), target);

        try (SendfileBodies bodies = new SendfileBodies(link, 10, () -> 0)) {
            HttpServletRequest req = sendfileRequest();
            assertThat(bodies.offer(req, new byte[100])).as("the caller writes the body itself").isFalse();
            assertThat(req.getAttribute(SendfileBodies.FILENAME)).isNull();
            assertThat(bodies.offer(sendfileRequest(), new byte[200])).isFalse();
        }
        try (var files = Files.list(target)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aDirectoryWritableByOthersTurnsSendfileOff() throws IOException {
        Path loose = Files.createDirectory(tmp.resolve("muster-bodies"));
        Files.setPosixFilePermissions(loose, PosixFilePermissions.fromString("rwxrwxrwx"));

        try (SendfileBodies bodies = new SendfileBodies(loose, 10, () -> 0)) {
            assertThat(bodies.offer(sendfileRequest(), new byte[100])).isFalse();
        }
        try (var files = Files.list(loose)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aBodyTheCacheLetGoIsNotKeptInTheHeapAndItsFileGoesOnceIdle() throws Exception {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        try (SendfileBodies bodies = new SendfileBodies(tmp.resolve("muster-bodies"), 10, now::get)) {
            byte[] body = new byte[1_000_000];
            HttpServletRequest req = sendfileRequest();
            assertThat(bodies.offer(req, body)).isTrue();
            Path file = Path.of((String) req.getAttribute(SendfileBodies.FILENAME));
            java.lang.ref.WeakReference<byte[]> gone = new java.lang.ref.WeakReference<>(body);
            body = null;
            for (int i = 0; i < 50 && gone.get() != null; i++) {
                System.gc();
                Thread.sleep(20);
            }
            assertThat(gone.get()).as("the listing holds no array").isNull();
            now.addAndGet(SendfileBodies.IDLE_MILLIS);
            assertThat(bodies.offer(sendfileRequest(), new byte[5])).as("a small body is written as usual").isFalse();
            assertThat(bodies.held()).as("swept although no large body came since").isZero();
            assertThat(file).doesNotExist();
        }
    }
}
