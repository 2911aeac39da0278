package io.muster.bootstrap;

import io.muster.api.AuditLog;
import io.muster.api.InstanceWrites;
import io.muster.audit.Actor;
import io.muster.audit.AuditAction;
import io.muster.audit.AuditEntry;
import io.muster.audit.AuditTrail;
import io.muster.config.ConfigLoader;
import io.muster.model.InstanceStatus;
import io.muster.registry.Origin;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerUrl;
import io.muster.testing.CapturedLog;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The audit trail of a running server (its write rules, its {@code muster-audit} lane) while operators and clients
 * act at once: every action is recorded exactly once, each caller's in the order it made them, the ring keeps the
 * last N, and a full queue counts what it drops instead of holding up the request threads.
 */
class AuditUnderLoadTest {
    private static final int CALLERS = 8;
    private static final int ACTIONS = 400;
    private final List<RegistryServer> servers = new ArrayList<>();
    /** Each server's lanes, by lane name and the server's number (from 0, in the order made). */
    private final Map<String, Scheduler> lanes = new ConcurrentHashMap<>();
    private int made;

    private RegistryServer server(int maxEntries) {
        int number = made++;
        RegistryServer s = new RegistryServer(ConfigLoader.load(List.of(Map.of(
                "eureka.server.audit.maxEntries", Integer.toString(maxEntries),
                "eureka.server.myUrl", "http://audit-under-test:8080/eureka/"))), Clock.systemUTC(),
                new LocalNode("/eureka", PeerUrl.parse("http://audit-under-test:8080/eureka/"), Set.of()), null,
                name -> lanes.computeIfAbsent(name + "#" + number, n -> new ThreadScheduler(name)), null);
        servers.add(s);
        s.start();
        return s;
    }

    @AfterEach
    void stop() {
        servers.forEach(RegistryServer::close);
    }

    private static void register(InstanceWrites writes, String app, String id) {
        byte[] body = Http.instanceJson(app, id, "UP", 1000).getBytes(StandardCharsets.UTF_8);
        assertThat(writes.register(app, new ByteArrayInputStream(body), "application/json", null, Origin.CLIENT)
                .status()).isEqualTo(204);
    }

    /** Caller k's action i on its own instance: set OUT_OF_SERVICE or DOWN, remove, ...; a swap shows as a break. */
    private static String expected(int i) {
        return i % 2 == 1 ? "OVERRIDE_REMOVED" : "OVERRIDE_SET " + (i % 4 == 0 ? "OUT_OF_SERVICE" : "DOWN");
    }

    private static String described(AuditEntry e) {
        return e.action() == AuditAction.OVERRIDE_SET ? e.action() + " " + e.value() : e.action().name();
    }

    @Test
    void everyActionOfOperatorsAndClientsActingAtOnceIsRecordedOnceInEachCallersOrder() throws Exception {
        RegistryServer s = server(CALLERS * ACTIONS + CALLERS + 10);
        InstanceWrites writes = s.api().writes();
        for (int k = 0; k < CALLERS; k++) {
            register(writes, "LOAD", "i-" + k);
        }
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
        CyclicBarrier start = new CyclicBarrier(CALLERS);
        List<Future<?>> done = new ArrayList<>();
        for (int k = 0; k < CALLERS; k++) {
            String id = "i-" + k;
            // half are operators at the dashboard, half clients setting their own status, as on the two roads
            Actor actor = k % 2 == 0 ? new Actor("operator op-" + k, "10.0.0." + k, null, null, null)
                    : new Actor("client c-" + k, "10.0.1." + k, "DefaultClient", "1.10.17", id);
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < ACTIONS; i++) {
                    int status = i % 2 == 1
                            ? writes.deleteStatusOverride("LOAD", id, null, null, Origin.CLIENT, actor).status()
                            : writes.statusUpdate("load", id, i % 4 == 0 ? "OUT_OF_SERVICE" : "DOWN", null,
                                    Origin.CLIENT, actor).status();
                    assertThat(status).isEqualTo(200);
                }
                assertThat(writes.cancel("LOAD", id, Origin.CLIENT, actor).status()).isEqualTo(200);
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        AuditTrail audit = s.api().audit();
        awaitEntries(audit, CALLERS * (ACTIONS + 1));

        List<AuditEntry> all = audit.query(null, null, null, Integer.MAX_VALUE);
        assertThat(all).as("newest first, numbered once each").isSortedAccordingTo(
                Comparator.comparingLong(AuditEntry::sequence).reversed());
        assertThat(all.stream().map(AuditEntry::sequence).distinct()).hasSize(CALLERS * (ACTIONS + 1));
        Map<String, List<AuditEntry>> byCaller = all.stream().sorted(Comparator.comparingLong(AuditEntry::sequence))
                .collect(Collectors.groupingBy(e -> e.actor().who()));
        assertThat(byCaller).hasSize(CALLERS);
        byCaller.forEach((who, entries) -> {
            List<String> wanted = new ArrayList<>();
            for (int i = 0; i < ACTIONS; i++) {
                wanted.add(expected(i));
            }
            wanted.add("DEREGISTERED");
            assertThat(entries.stream().map(AuditUnderLoadTest::described).toList()).as(who).isEqualTo(wanted);
            assertThat(entries).as(who + ": one instance, answered 200, from its own address").allSatisfy(e -> {
                assertThat(e.instance()).isEqualTo(entries.get(0).instance());
                assertThat(e.app()).isEqualTo("LOAD");
                assertThat(e.result()).isEqualTo("ok");
                assertThat(e.actor().address()).startsWith("10.0.");
            });
            assertThat(entries).extracting(AuditEntry::at).isSorted();
        });
        assertThat(audit.dropped()).isZero();
        assertThat(s.api().registry().views().lease("LOAD", "i-0")).isEmpty();
    }

    @Test
    void theRingKeepsTheLastNEntriesAndEachFieldIsBounded() throws Exception {
        RegistryServer s = server(50);
        InstanceWrites writes = s.api().writes();
        register(writes, "RING", "r-1");
        Actor loud = new Actor("client loud", "127.0.0.1", "x".repeat(100_000), null, null);
        for (int i = 0; i < 200; i++) {
            writes.statusUpdate("RING", "r-1", "DOWN", null, Origin.CLIENT, loud);
        }
        awaitSequence(s.api().audit(), 200);
        List<AuditEntry> kept = s.api().audit().query(null, null, null, 1_000);
        assertThat(kept).hasSize(50);
        assertThat(kept.get(0).sequence()).as("the newest").isEqualTo(200);
        assertThat(kept.get(49).sequence()).as("the oldest kept").isEqualTo(151);
        assertThat(kept.get(0).actor().identityName()).hasSizeLessThanOrEqualTo(Actor.MAX_LENGTH + 3);
    }

    @Test
    void aFullQueueCountsWhatItDropsAndNeverHoldsUpTheRequest() throws Exception {
        RegistryServer s = server(10_000);
        InstanceWrites writes = s.api().writes();
        register(writes, "FLOOD", "f-1");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch stuck = new CountDownLatch(1);
        lanes.get(RegistryServer.AUDIT + "#0").once("stuck", () -> {   // a disk the log handler blocks on
            stuck.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
        CapturedLog log = new CapturedLog();
        Logger.getLogger("io.muster.audit").addHandler(log);
        try {
            Actor admin = new Actor("operator admin", "127.0.0.1", null, null, null);
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (int i = 0; i < AuditTrail.DEFAULT_QUEUE + 100; i++) {
                    writes.statusUpdate("FLOOD", "f-1", "OUT_OF_SERVICE", null, Origin.CLIENT, admin);
                }
            });
            assertThat(s.api().audit().dropped()).isEqualTo(100);
            assertThat(s.api().audit().query(null, null, null, 10)).as("nothing appended while the lane is stuck")
                    .isEmpty();
            release.countDown();
            awaitSequence(s.api().audit(), AuditTrail.DEFAULT_QUEUE);
            assertThat(s.api().audit().query("flood", "f-1", null, 100_000)).hasSize(AuditTrail.DEFAULT_QUEUE);
            awaitLog(log, "100 entries were dropped");
        } finally {
            Logger.getLogger("io.muster.audit").removeHandler(log);
        }
    }

    @Test
    void theStaticEntryPointsReachTheOneRunningServerAndNoServerOnceItStopped() throws Exception {
        RegistryServer first = server(100);
        AuditLog.deregistered("operator jmx-user", "shop", "s-1");
        awaitSequence(first.api().audit(), 1);
        AuditEntry e = first.api().audit().query(null, null, null, 10).get(0);
        assertThat(e.actor().who()).isEqualTo("operator jmx-user");
        assertThat(e.app()).isEqualTo("SHOP");
        assertThat(e.action()).isEqualTo(AuditAction.DEREGISTERED);

        RegistryServer second = server(100);
        AuditLog.overrideSet("operator jmx-user", "SHOP", "s-1", InstanceStatus.OUT_OF_SERVICE);
        second.close();
        first.close();
        servers.clear();
        assertThat(first.api().audit().query(null, null, null, 10)).as("two servers in one class loader: whose?")
                .hasSize(1);
        assertThat(second.api().audit().query(null, null, null, 10)).isEmpty();

        RegistryServer third = server(100);
        third.close();
        servers.clear();
        AuditLog.overrideRemoved("operator jmx-user", "SHOP", "s-1");
        assertThat(third.api().audit().query(null, null, null, 10)).as("stopped: detached").isEmpty();
    }

    private static void awaitEntries(AuditTrail audit, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (audit.query(null, null, null, Integer.MAX_VALUE).size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(audit.query(null, null, null, Integer.MAX_VALUE)).hasSize(n);
    }

    private static void awaitSequence(AuditTrail audit, long sequence) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (newest(audit) < sequence && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(newest(audit)).isEqualTo(sequence);
    }

    private static long newest(AuditTrail audit) {
        List<AuditEntry> top = audit.query(null, null, null, 1);
        return top.isEmpty() ? 0 : top.get(0).sequence();
    }

    private static void awaitLog(CapturedLog log, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.records.stream().noneMatch(r -> r.getMessage().contains(text)) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(log.records).anySatisfy(r -> assertThat(r.getMessage()).contains(text));
    }
}
