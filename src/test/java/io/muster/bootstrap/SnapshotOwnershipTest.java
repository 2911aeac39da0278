package io.muster.bootstrap;

import io.muster.testing.CapturedLog;
import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.replication.LocalNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server as the listener builds it (not started: no threads), for what it does with its snapshot place: two
 * live ones never share a file, a redeploy takes it back, and a node that cannot be told apart writes none.
 */
class SnapshotOwnershipTest {
    private final ServerConfig config = ConfigLoader.load(List.of());
    private final LocalNode self = new LocalNode("/eureka", null, Set.of(8761));
    private final CapturedLog capture = new CapturedLog();
    private final List<LogRecord> logged = capture.records;
    private final List<Logger> loggers = List.of(Logger.getLogger(RegistryServer.class.getName()),
            Logger.getLogger("io.muster.snapshot.SnapshotLock"));
    @TempDir
    Path dir;

    @BeforeEach
    void listen() {
        loggers.forEach(l -> l.addHandler(capture));
    }

    @AfterEach
    void stopListening() {
        loggers.forEach(l -> l.removeHandler(capture));
    }

    private SnapshotPlace place(OptionalInt port) {
        return SnapshotPlace.choose(null, Map.of(SnapshotPlace.CATALINA_BASE, dir.toString(), "java.io.tmpdir",
                dir.toString(), "user.name", "muster")::get, "/eureka/", port);
    }

    private RegistryServer server(SnapshotPlace place) {
        return new RegistryServer(config, Clock.systemUTC(), self, place);
    }

    private boolean logged(Level level, String text) {
        return logged.stream().anyMatch(r -> r.getLevel().equals(level) && r.getMessage().contains(text));
    }

    @Test
    void aSecondLiveServerOnTheSameFileRunsWithoutSnapshotsAndARedeployTakesItBack() {
        SnapshotPlace place = place(OptionalInt.of(8761));
        RegistryServer first = server(place);
        Path snapshot = place.directory().resolve(place.fileName());
        assertThat(logged(Level.INFO, "registry snapshot at " + snapshot + " for " + place.identity())).isTrue();

        RegistryServer second = server(place);
        assertThat(logged(Level.SEVERE, "registry snapshots are off for this run: " + snapshot + ".lock is in use"))
                .isTrue();
        second.close();
        assertThat(snapshot).as("the second saved nothing on close").doesNotExist();

        first.close();
        assertThat(snapshot).as("the holder saved on close").exists();
        logged.clear();
        RegistryServer redeployed = server(place);
        assertThat(logged(Level.INFO, "registry snapshot at " + snapshot)).as("a redeploy takes it again").isTrue();
        redeployed.close();
    }

    @Test
    void aServerThatKnowsNeitherItsRootNorItsPortWritesNoSnapshot() throws Exception {
        SnapshotPlace place = SnapshotPlace.choose(null, Map.of("java.io.tmpdir", dir.toString(), "user.name",
                "muster")::get, "/eureka/", OptionalInt.empty());
        RegistryServer server = server(place);
        server.close();

        assertThat(logged(Level.WARNING, "registry snapshots are off for this run: this node knows neither its port"
                + " nor a directory of its server's own")).isTrue();
        assertThat(place.directory()).as("nothing created").doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
