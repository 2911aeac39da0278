package io.muster.registry;

import io.muster.model.Application;
import io.muster.model.AppsHashCode;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.testing.Instances;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** Many writers and readers at once: no lost or phantom instance, and every delta agrees with its hash. */
class InstanceRegistryConcurrencyTest {
    private final InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3));

    @Test
    void concurrentRegisterRenewCancelLosesNothingAndInventsNothing() throws Exception {
        int writers = 8;
        int perWriter = 500;
        Set<String> expected = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perWriter; i++) {
                    String app = "APP" + (i % 7);
                    String id = "w" + writer + "-" + i;
                    registry.register(Instances.up(app, id), Origin.CLIENT);
                    registry.renew(app, id, null, null, Origin.CLIENT);
                    if (i % 3 == 0) {
                        registry.statusUpdate(app, id, InstanceStatus.DOWN, null, Origin.CLIENT);
                    }
                    if (i % 2 == 0) {
                        assertThat(registry.cancel(app, id, Origin.CLIENT)).isTrue();
                    } else {
                        expected.add(app + "/" + id);
                    }
                }
                return null;
            }));
        }
        Queue<String> problems = new ConcurrentLinkedQueue<>();   // written by both readers
        for (int r = 0; r < 2; r++) {
            futures.add(pool.submit(() -> {
                start.await();
                while (writing.get()) {
                    RegistrySnapshot delta = registry.views().delta();
                    RegistrySnapshot full = registry.views().snapshot();
                    // the delta's hash is the registry's at its own moment; a full snapshot's hash matches its content
                    Map<InstanceStatus, Integer> counts = new EnumMap<>(InstanceStatus.class);
                    full.applications().applications().forEach(a -> a.instances()
                            .forEach(i -> counts.merge(i.status(), 1, Integer::sum)));
                    String recomputed = AppsHashCode.of(counts);
                    if (!recomputed.equals(full.applications().appsHashCode())) {
                        problems.add(recomputed + " != " + full.applications().appsHashCode());
                    }
                    // the delta's hash counts what the registry held at the delta's moment: never more than exist
                    int held = hashTotal(delta.applications().appsHashCode());
                    if (held > writers * perWriter) {
                        problems.add("delta hash counts " + held + " instances");
                    }
                    registry.views().instance("APP" + ThreadLocalRandom.current().nextInt(7), "w0-1");
                }
                return null;
            }));
        }
        start.countDown();
        for (int i = 0; i < writers; i++) {
            futures.get(i).get(60, TimeUnit.SECONDS);
        }
        writing.set(false);
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(problems).isEmpty();
        Set<String> actual = ConcurrentHashMap.newKeySet();
        for (Application app : registry.views().snapshot().applications().applications()) {
            for (InstanceInfo i : app.instances()) {
                actual.add(app.name() + "/" + i.id());
            }
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(registry.size()).isEqualTo(writers * perWriter / 2);
    }

    /** The number of instances a hash such as {@code DOWN_1_UP_3_} counts; fails on a malformed hash. */
    private static int hashTotal(String hash) {
        assertThat(hash).matches("([A-Z_]+_[0-9]+_)*");
        String[] parts = hash.split("_");
        int total = 0;
        for (String part : parts) {
            if (!part.isEmpty() && Character.isDigit(part.charAt(0))) {
                total += Integer.parseInt(part);
            }
        }
        return total;
    }

    @Test
    void aClientMergingEveryDeltaAlwaysComputesTheDeltasHash() throws Exception {
        // one "client" copy, updated only from deltas, checked against each delta's hash while writers churn
        java.util.Map<String, InstanceStatus> copy = new java.util.HashMap<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            for (int i = 0; i < 3000; i++) {
                String id = "i" + (i % 200);
                switch (i % 4) {
                    case 0, 1 -> registry.register(Instances.up("CHURN", id), Origin.CLIENT);
                    case 2 -> registry.statusUpdate("CHURN", id, InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT);
                    default -> registry.cancel("CHURN", id, Origin.CLIENT);
                }
            }
            writing.set(false);
        });
        writer.start();
        int deltas = 0;
        while (writing.get() || deltas == 0) {
            var delta = registry.views().delta().applications();
            for (Application app : delta.applications()) {
                for (InstanceInfo i : app.instances()) {
                    if (i.actionType() == io.muster.model.ActionType.DELETED) {
                        copy.remove(i.id());
                    } else {
                        copy.put(i.id(), i.status());
                    }
                }
            }
            java.util.Map<InstanceStatus, Integer> counts = new java.util.EnumMap<>(InstanceStatus.class);
            copy.values().forEach(s -> counts.merge(s, 1, Integer::sum));
            assertThat(AppsHashCode.of(counts)).isEqualTo(delta.appsHashCode());
            deltas++;
        }
        writer.join();
        assertThat(deltas).isPositive();
    }

    /**
     * Heartbeats take no lock while registrations, status updates and cancellations of the same instances run under
     * it: the count of renewing instances must still match the leases exactly (none dropped, none counted twice).
     */
    @Test
    void theCountOfRenewingInstancesMatchesTheLeasesUnderConcurrentWrites() throws Exception {
        int instances = 50;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            futures.add(pool.submit(() -> {
                start.await();
                while (running.get()) {
                    int i = ThreadLocalRandom.current().nextInt(instances);
                    registry.renew("APP", "i-" + i, null, null, Origin.CLIENT);
                }
                return null;
            }));
        }
        futures.add(pool.submit(() -> {
            start.await();
            for (int round = 0; round < 20_000; round++) {
                String id = "i-" + ThreadLocalRandom.current().nextInt(instances);
                switch (round % 4) {
                    case 0 -> registry.register(Instances.up("APP", id), Origin.CLIENT);
                    case 1 -> registry.statusUpdate("APP", id, InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT);
                    case 2 -> registry.deleteStatusOverride("APP", id, InstanceStatus.UP, null, Origin.CLIENT);
                    default -> registry.cancel("APP", id, Origin.CLIENT);
                }
            }
            running.set(false);
            return null;
        }));
        start.countDown();
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        int renewed = 0;
        for (int i = 0; i < instances; i++) {
            if (registry.views().lease("APP", "i-" + i).map(Lease::hasRenewed).orElse(false)) {
                renewed++;
            }
        }
        assertThat(registry.renewingInstances()).isEqualTo(renewed);
    }
}
