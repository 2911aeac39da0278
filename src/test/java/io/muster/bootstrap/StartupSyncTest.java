package io.muster.bootstrap;

import com.sun.net.httpserver.HttpServer;
import io.muster.codec.Detail;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.eviction.SelfPreservation;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.registry.TrafficGate.SyncOutcome;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerCluster;
import io.muster.testing.Instances;
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
    /** The peer's Muster digest and sync registry (api/cluster/...); null: 404, as from a stock Eureka server. */
    private volatile String digest;
    private volatile String registryForSync;
    private final InstanceRegistry registry;
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
        peer.createContext("/eureka/api/cluster/", exchange -> {
            String body = exchange.getRequestURI().getPath().endsWith("/digest") ? digest : registryForSync;
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : bytes.length);
            if (body != null) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
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
        registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
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

    /** A Muster peer's digest listing these cancellations ("APP/id" to the cancelled version). */
    private static String digestCancelling(String cancelled) {
        return "{\"apps\":{},\"cancelled\":{" + cancelled + "},\"readsHeld\":false}";
    }

    @Test
    void aCancellationThePeerMadeAfterTheSyncCopiedItIsDroppedBeforeThePeersReplicationArrives() {
        peerStatus.set(200);
        digest = digestCancelling("");
        registryForSync = new String(EurekaCodec.encode(WireFormat.JSON, new Applications(1, "UP_2_",
                List.of(new Application("B", List.of(Instances.up("B", "b-1"), Instances.up("B", "b-2"))))),
                Detail.FULL), StandardCharsets.UTF_8);
        assertThat(sync.start(scheduler).outcome()).isEqualTo(SyncOutcome.PEER_ANSWERED);
        assertThat(registry.views().lease("B", "b-1")).isPresent();

        // cancelled on the peer after it sent its registry; the cancel waits in its queue for this node, which
        // the peer can reach only once this node's connector accepts and its sender has sent what came before
        digest = digestCancelling("\"B/b-1\":1000");
        ManualScheduler.Periodic catchUp = scheduler.live("startup-catch-up");
        assertThat(catchUp).as("the catch-up runs from the sync on").isNotNull();
        assertThat(catchUp.period).isEqualTo(StartupSync.CATCH_UP_INTERVAL);
        clock.advance(catchUp.period);
        catchUp.task.run();
        assertThat(registry.views().lease("B", "b-1")).as("dropped before any read is served").isEmpty();
        assertThat(registry.views().lease("B", "b-2")).isPresent();

        // the connector opens long after the sync (Tomcat): the catch-up goes on from the first request
        clock.advance(Duration.ofMinutes(1));
        catchUp.task.run();
        sync.accepting();
        digest = digestCancelling("\"B/b-1\":1000,\"B/b-2\":1000");
        clock.advance(StartupSync.CATCH_UP_AFTER_OPEN.minusMillis(1));
        catchUp.task.run();
        assertThat(registry.views().lease("B", "b-2")).isEmpty();
        assertThat(catchUp.cancelled).isFalse();
        clock.advance(Duration.ofMillis(1));
        catchUp.task.run();
        assertThat(catchUp.cancelled).as("the peers' replication has caught up by then").isTrue();
    }

    @Test
    void aStockEurekaPeerHasNoDigestToCatchUpFrom() {
        peerStatus.set(200);
        sync.start(scheduler);
        assertThat(scheduler.live("startup-catch-up")).isNull();
    }
}
