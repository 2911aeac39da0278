package io.muster.bootstrap;

import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's background work on lanes split by what it waits for: the cache refresh and eviction never queue
 * behind peer HTTP or a file write, and each lane's thread says which lane it is.
 */
class LanesTest {
    @TempDir
    Path snapshots;

    /** A node with one peer that cannot be reached (its reads held, so it retries), snapshots on. */
    private static ServerConfig config(Map<String, String> more) {
        Map<String, String> m = new LinkedHashMap<>(Map.of(
                "eureka.client.serviceUrl.defaultZone", "http://127.0.0.1:1/eureka/",
                "eureka.server.myUrl", "http://lanes-under-test:8080/eureka/",
                "eureka.server.waitTimeInMsWhenSyncEmpty", "60000"));
        m.putAll(more);
        return ConfigLoader.load(List.of(m));
    }

    private static LocalNode self() {
        return new LocalNode("/eureka", PeerUrl.parse("http://lanes-under-test:8080/eureka/"), Set.of());
    }

    private SnapshotPlace place() {
        return SnapshotPlace.choose(snapshots.toString(), Map.of("java.io.tmpdir", snapshots.toString(),
                "user.name", "muster")::get, "/eureka/", java.util.OptionalInt.of(8080));
    }

    private static List<String> names(ManualScheduler lane) {
        return lane.periodic.stream().map(p -> p.name).toList();
    }

    @Test
    void eachPeriodicTaskRunsOnTheLaneOfWhatItWaitsFor() {
        Map<String, ManualScheduler> lanes = new LinkedHashMap<>();
        RegistryServer server = new RegistryServer(config(Map.of()), Clock.systemUTC(), self(), place(),
                name -> lanes.computeIfAbsent(name, n -> new ManualScheduler()), null);
        server.start();
        try {
            assertThat(lanes).containsOnlyKeys(RegistryServer.FRESH, RegistryServer.PEERS, RegistryServer.FILES,
                    RegistryServer.JOURNAL, RegistryServer.AUDIT);
            assertThat(names(lanes.get(RegistryServer.FRESH))).as("memory only: freshness and eviction")
                    .containsExactlyInAnyOrder("eviction", "delta-retention", "response-cache-refresh",
                            "renewal-threshold");
            assertThat(names(lanes.get(RegistryServer.PEERS))).as("peer HTTP")
                    .containsExactlyInAnyOrder("startup-sync-retry", "peer-refresh", "cluster-check",
                            "self-registration");
            assertThat(names(lanes.get(RegistryServer.FILES))).containsExactly("registry-snapshot");
            assertThat(names(lanes.get(RegistryServer.JOURNAL))).as("written on demand, not on a timer").isEmpty();
            assertThat(names(lanes.get(RegistryServer.AUDIT))).as("appends on demand, off the request threads")
                    .isEmpty();
        } finally {
            server.close();
        }
        assertThat(lanes.values()).allSatisfy(lane -> assertThat(lane.closed).isTrue());
    }

    @Test
    void freshnessAndEvictionGoOnWhileThePeersAndFilesLanesAreStuck() throws InterruptedException {
        Map<String, Scheduler> lanes = new ConcurrentHashMap<>();
        Set<String> ran = ConcurrentHashMap.newKeySet();
        RegistryServer server = new RegistryServer(config(Map.of("eureka.server.evictionIntervalTimerInMs", "20",
                "eureka.server.responseCacheUpdateIntervalMs", "20")), Clock.systemUTC(), self(), place(),
                name -> lanes.computeIfAbsent(name, n -> new Recording(new ThreadScheduler(n), ran)), null);
        CountDownLatch stuck = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try {
            server.start();
            Runnable hang = () -> {   // a peer that never answers; a snapshot write to a stalled disk
                stuck.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();   // closed
                }
            };
            lanes.get(RegistryServer.PEERS).once("slow-peer", hang);
            lanes.get(RegistryServer.FILES).once("slow-disk", hang);
            assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).contains("slow-peer@muster-peers", "slow-disk@muster-files");
            ran.clear();

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!ran.containsAll(Set.of("eviction@muster-fresh", "response-cache-refresh@muster-fresh"))
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(ran).as("runs while the peers and files lanes are stuck")
                    .contains("eviction@muster-fresh", "response-cache-refresh@muster-fresh");
        } finally {
            release.countDown();
            server.close();
        }
        assertThat(Thread.getAllStackTraces().keySet()).as("every lane's thread stopped with the server")
                .noneMatch(t -> t.isAlive() && lanes.containsKey(t.getName()));
    }

    /** A lane that records each run as task@thread. */
    private record Recording(Scheduler lane, Set<String> ran) implements Scheduler {
        private Runnable recorded(String name, Runnable task) {
            return () -> {
                ran.add(name + "@" + Thread.currentThread().getName());
                task.run();
            };
        }

        @Override
        public Cancellable every(String name, Duration period, Runnable task) {
            return lane.every(name, period, recorded(name, task));
        }

        @Override
        public void once(String name, Runnable task) {
            lane.once(name, recorded(name, task));
        }

        @Override
        public void close() {
            lane.close();
        }
    }
}
