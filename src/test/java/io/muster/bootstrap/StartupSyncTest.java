package io.muster.bootstrap;

import com.sun.net.httpserver.HttpServer;
import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.eviction.SelfPreservation;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.registry.TrafficGate.SyncOutcome;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerCluster;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-up sync's retries, driven by a manual scheduler and a clock the test moves, against a real HTTP peer
 * on this machine that answers 503 until told otherwise. Nothing waits.
 */
class StartupSyncTest {
    private static final Duration WAIT = Duration.ofMinutes(5);
    private static final String EMPTY = "{\"applications\":{\"versions__delta\":\"1\",\"apps__hashcode\":\"\","
            + "\"application\":[]}}";

    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler();
    private final AtomicInteger peerStatus = new AtomicInteger(503);
    private final AtomicInteger fetches = new AtomicInteger();
    private final HttpServer peer;
    private final TrafficGate gate = new TrafficGate(clock);
    private final PeerCluster peers;
    private final StartupSync sync;

    StartupSyncTest() throws IOException {
        peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.createContext("/eureka/apps/", exchange -> {
            fetches.incrementAndGet();
            byte[] body = EMPTY.getBytes(StandardCharsets.UTF_8);
            int status = peerStatus.get();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, status == 200 ? body.length : -1);
            if (status == 200) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
            exchange.close();
        });
        peer.start();
        ServerConfig config = ConfigLoader.load(List.of(Map.of(
                "eureka.client.serviceUrl.defaultZone",
                "http://127.0.0.1:" + peer.getAddress().getPort() + "/eureka/",
                "eureka.server.waitTimeInMsWhenSyncEmpty", String.valueOf(WAIT.toMillis()),
                "eureka.server.registrySyncRetryWaitMs", "2000")));
        InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
        LocalNode self = new LocalNode("/eureka", null, Set.of(8761));
        peers = new PeerCluster(config.peers(), self, registry, clock);
        sync = new StartupSync(config.startup(), peers, gate, new SelfPreservation(config.selfPreservation(),
                registry), self, clock, 1, () -> 0, () -> 0, () -> { });
    }

    @AfterEach
    void stop() {
        peers.close();
        peer.stop(0);
    }

    @Test
    void anUnreachablePeerHoldsReadsAndARetryThatReachesItOpensThem() {
        assertThat(sync.start(scheduler).outcome()).isEqualTo(SyncOutcome.EVERY_PEER_UNREACHABLE);
        assertThat(gate.allowsReads()).isFalse();
        ManualScheduler.Periodic retry = scheduler.live("startup-sync-retry");
        assertThat(retry).isNotNull();
        assertThat(retry.period).isEqualTo(Duration.ofSeconds(2));

        clock.advance(retry.period);
        retry.task.run();
        assertThat(fetches.get()).as("the retry asked the peer again").isEqualTo(2);
        assertThat(gate.allowsReads()).as("still unreachable: still held").isFalse();
        assertThat(retry.cancelled).isFalse();

        peerStatus.set(200);
        clock.advance(retry.period);
        retry.task.run();
        assertThat(gate.allowsReads()).as("the peer answered: reads open before the wait ends").isTrue();
        assertThat(retry.cancelled).as("no more retries").isTrue();
    }

    @Test
    void whenTheWaitEndsTheRetriesStopWithoutAskingThePeerAgain() {
        sync.start(scheduler);
        ManualScheduler.Periodic retry = scheduler.live("startup-sync-retry");
        clock.advance(WAIT);
        retry.task.run();
        assertThat(fetches.get()).isEqualTo(1);
        assertThat(gate.allowsReads()).isTrue();
        assertThat(retry.cancelled).isTrue();
    }

    /**
     * The retries run on the peers lane while {@code start} returns on the deploying thread: a first retry may come
     * before {@code start} has stored what cancels them (the deploying thread paused past the period). A retry
     * that reached the peer then still stops them.
     */
    @Test
    void aRetryThatRunsBeforeStartHasReturnedStillStopsTheRetries() {
        Scheduler firstRunAtOnce = new Scheduler() {
            @Override
            public Cancellable every(String name, Duration period, Runnable task) {
                Cancellable cancel = scheduler.every(name, period, task);
                peerStatus.set(200);   // the peer is back by the first retry
                clock.advance(period);
                task.run();            // on the lane, before every() has even returned here
                return cancel;
            }

            @Override
            public void once(String name, Runnable task) {
                scheduler.once(name, task);
            }

            @Override
            public void close() {
                scheduler.close();
            }
        };

        assertThat(sync.start(firstRunAtOnce).outcome()).isEqualTo(SyncOutcome.EVERY_PEER_UNREACHABLE);
        assertThat(gate.allowsReads()).as("the retry reached the peer").isTrue();
        assertThat(scheduler.live("startup-sync-retry")).as("no more retries").isNull();
    }

    @Test
    void aPeerThatAnswersAtOnceSchedulesNoRetries() {
        peerStatus.set(200);
        assertThat(sync.start(scheduler).outcome()).isEqualTo(SyncOutcome.PEER_ANSWERED);
        assertThat(gate.allowsReads()).isTrue();
        assertThat(scheduler.periodic).isEmpty();
    }
}
