package io.muster.replication;

import io.muster.config.ConfigLoader;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.ReplicationItem;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The cluster check against a recording peer whose registry the test sets: digests, drift rules, repairs, lag. */
class ClusterCheckTest {
    private static final Duration GRACE = Duration.ofSeconds(60);
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
    private final RecordingPeerClient peer = new RecordingPeerClient();
    private PeerCluster cluster;
    private ClusterChecker checker;

    @BeforeEach
    void start() {
        cluster = new PeerCluster(ConfigLoader.load(List.of(Map.of(
                "eureka.client.serviceUrl.defaultZone", "http://peer:secret@10.9.9.9:8761/eureka/",
                "eureka.server.peerReplicationBatchDelayMs", "0"))).peers(),
                new LocalNode("/eureka", null, Set.of(8761)), registry, clock, url -> peer, PeerDns.SYSTEM,
                clock::advance, false);
        registry.addListener(cluster);
        cluster.refresh();
        checker = new ClusterChecker(registry, cluster, clock, GRACE, Duration.ofMinutes(3));
        peerHas(Map.of());
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    private static InstanceInfo instance(String app, String id, long dirty, InstanceStatus status) {
        return Instances.sample(app, id).lastDirtyTimestamp(dirty).status(status).build();
    }

    /** The peer's registry and digest (a Muster peer), with the cancellations it reports. */
    private void peerHas(Map<String, Long> cancelled, InstanceInfo... instances) {
        Map<String, List<InstanceInfo>> byApp = new java.util.TreeMap<>();
        Arrays.stream(instances).forEach(i -> byApp.computeIfAbsent(i.app(), a -> new ArrayList<>()).add(i));
        Applications apps = new Applications(1, "", byApp.entrySet().stream()
                .map(e -> new Application(e.getKey(), e.getValue())).toList());
        peer.registry = apps;
        peer.digest = new PeerDigest(ClusterDigest.of(apps), cancelled);
    }

    private PeerCheck.Report report() {
        return cluster.nodes().get(0).check().report();
    }

    /** Sends what is queued for the peer and returns the actions it received. */
    private List<String> delivered() throws InterruptedException {
        cluster.runDueBatches();
        List<String> seen = new ArrayList<>();
        List<ReplicationItem> batch;
        while ((batch = peer.batches.poll()) != null) {
            batch.forEach(i -> seen.add(i.action().wireName() + " " + i.id()));
        }
        return seen;
    }

    @Test
    void theDigestChangesWithIdsStatusesAndDirtyTimestampsOnly() {
        String base = ClusterDigest.hash(List.of(instance("A", "a-1", 5, InstanceStatus.UP),
                instance("A", "a-2", 5, InstanceStatus.UP)));
        assertThat(ClusterDigest.hash(List.of(instance("A", "a-2", 5, InstanceStatus.UP),
                instance("A", "a-1", 5, InstanceStatus.UP)))).as("order does not matter").isEqualTo(base);
        assertThat(ClusterDigest.hash(List.of(Instances.sample("A", "a-1").lastDirtyTimestamp(5)
                        .metadata(Map.of("other", "x")).build(), instance("A", "a-2", 5, InstanceStatus.UP))))
                .as("metadata does not count").isEqualTo(base);
        assertThat(ClusterDigest.hash(List.of(instance("A", "a-1", 5, InstanceStatus.DOWN),
                instance("A", "a-2", 5, InstanceStatus.UP)))).isNotEqualTo(base);
        assertThat(ClusterDigest.hash(List.of(instance("A", "a-1", 6, InstanceStatus.UP),
                instance("A", "a-2", 5, InstanceStatus.UP)))).isNotEqualTo(base);
        assertThat(ClusterDigest.hash(List.of(instance("A", "a-1", 5, InstanceStatus.UP)))).isNotEqualTo(base);
    }

    @Test
    void theNewerDirtyTimestampWinsAndCancellationsAreNotResurrected() {
        InstanceInfo old = instance("A", "a-1", 5, InstanceStatus.UP);
        InstanceInfo newer = instance("A", "a-1", 9, InstanceStatus.DOWN);
        assertThat(Drift.of("A", "a-1", old, old, null, null)).isNull();
        assertThat(Drift.of("A", "a-1", newer, old, null, null).repair()).isEqualTo(Drift.Repair.PUSH);
        assertThat(Drift.of("A", "a-1", old, newer, null, null).repair()).isEqualTo(Drift.Repair.PULL);
        assertThat(Drift.of("A", "a-1", old, newer, null, null).kind()).isEqualTo(Drift.Kind.STATUS);
        Drift tie = Drift.of("A", "a-1", old, instance("A", "a-1", 5, InstanceStatus.DOWN), null, null);
        assertThat(tie.kind()).isEqualTo(Drift.Kind.STATUS);
        assertThat(tie.repair()).as("nobody is newer").isEqualTo(Drift.Repair.NONE);
        assertThat(Drift.of("A", "a-1", old, null, null, null).repair()).isEqualTo(Drift.Repair.PUSH);
        assertThat(Drift.of("A", "a-1", old, null, null, 5L).repair()).as("the peer cancelled this copy")
                .isEqualTo(Drift.Repair.CANCEL_HERE);
        assertThat(Drift.of("A", "a-1", newer, null, null, 5L).repair()).as("re-registered after the cancel")
                .isEqualTo(Drift.Repair.PUSH);
        assertThat(Drift.of("A", "a-1", null, old, null, null).repair()).isEqualTo(Drift.Repair.PULL);
        assertThat(Drift.of("A", "a-1", null, old, 5L, null).repair()).as("we cancelled this copy")
                .isEqualTo(Drift.Repair.CANCEL_THERE);
        assertThat(Drift.of("A", "a-1", null, newer, 5L, null).repair()).isEqualTo(Drift.Repair.PULL);
    }

    @Test
    void aLostRegistrationIsReportedThenPushedAfterTheGrace() throws Exception {
        registry.register(instance("A", "a-1", 5, InstanceStatus.UP), Origin.CLIENT);
        registry.register(instance("A", "a-2", 5, InstanceStatus.UP), Origin.CLIENT);
        assertThat(delivered()).hasSize(2);   // the peer "loses" them: its registry stays empty
        assertThat(report().summary()).isEqualTo("not checked yet");

        checker.run();
        assertThat(report().differences()).isEqualTo(2);
        assertThat(report().summary()).isEqualTo("2 instances differ for 0 s");
        assertThat(delivered()).as("nothing repaired within the grace").isEmpty();

        clock.advance(Duration.ofSeconds(40));
        checker.run();
        assertThat(report().summary()).isEqualTo("2 instances differ for 40 s");
        assertThat(delivered()).isEmpty();

        clock.advance(Duration.ofSeconds(20));
        checker.run();
        assertThat(delivered()).containsExactlyInAnyOrder("Register a-1", "Register a-2");
        assertThat(report().repairs()).isEqualTo(2);

        peerHas(Map.of(), registry.views().instance("A", "a-1").orElseThrow(),
                registry.views().instance("A", "a-2").orElseThrow());
        int fetches = peer.registryCalls;
        checker.run();
        assertThat(report().summary()).isEqualTo("in sync");
        assertThat(peer.registryCalls).as("equal digests: no full fetch").isEqualTo(fetches);
    }

    @Test
    void thePeersNewerCopyIsAdoptedHereAndNotSentBack() throws Exception {
        registry.register(instance("A", "a-1", 5, InstanceStatus.UP), Origin.CLIENT);
        delivered();
        peerHas(Map.of(), instance("A", "a-1", 9, InstanceStatus.OUT_OF_SERVICE),
                instance("B", "b-1", 7, InstanceStatus.UP));
        checker.run();
        clock.advance(GRACE);
        checker.run();
        assertThat(registry.views().instance("A", "a-1").orElseThrow().lastDirtyTimestamp()).isEqualTo(9);
        assertThat(registry.views().instance("B", "b-1")).isPresent();
        assertThat(delivered()).as("replicated writes go no further").isEmpty();
        assertThat(report().repairs()).isEqualTo(2);
    }

    @Test
    void aCancellationOneSideMissedIsCompletedNotUndone() throws Exception {
        InstanceInfo gone = instance("A", "a-1", 5, InstanceStatus.UP);
        registry.register(gone, Origin.CLIENT);
        long cancelledAt = clock.millis();
        registry.cancel("A", "a-1", Origin.CLIENT);
        delivered();   // the peer missed the cancel: it still has a-1
        peerHas(Map.of(), gone);
        assertThat(checker.digest().cancelled()).as("a client's cancel supersedes what was registered before it")
                .containsEntry("A/a-1", cancelledAt);
        checker.run();
        clock.advance(GRACE);
        checker.run();
        assertThat(registry.views().instance("A", "a-1")).as("not resurrected here").isEmpty();
        assertThat(delivered()).containsExactly("Cancel a-1");

        // the other way round: the peer cancelled b-1 and says so in its digest; this node missed it
        registry.register(instance("B", "b-1", 5, InstanceStatus.UP), Origin.PEER);
        peerHas(Map.of("B/b-1", 5L));
        checker.run();
        clock.advance(GRACE);
        checker.run();
        assertThat(registry.views().instance("B", "b-1")).isEmpty();
        assertThat(delivered()).as("not pushed back to the peer").isEmpty();
    }

    @Test
    void aCancellationAThirdNodeRemembersIsNotUndoneBetweenTwoThatMissedIt() throws Exception {
        // node "away" restarted and holds no tombstone; node "knows" took the client's cancel; this node missed it
        RecordingPeerClient away = new RecordingPeerClient();
        RecordingPeerClient knows = new RecordingPeerClient();
        PeerCluster three = new PeerCluster(ConfigLoader.load(List.of(Map.of(
                "eureka.client.serviceUrl.defaultZone", "http://peer:secret@10.9.9.1:8761/eureka/,"
                        + "http://peer:secret@10.9.9.2:8761/eureka/",
                "eureka.server.peerReplicationBatchDelayMs", "0"))).peers(),
                new LocalNode("/eureka", null, Set.of(8761)), registry, clock,
                url -> url.base().getHost().equals("10.9.9.1") ? away : knows, PeerDns.SYSTEM, clock::advance, false);
        try {
            three.refresh();
            ClusterChecker check = new ClusterChecker(registry, three, clock, GRACE, Duration.ofMinutes(3));
            InstanceInfo stale = instance("A", "a-1", 5, InstanceStatus.UP);
            registry.register(stale, Origin.PEER);
            away.registry = new Applications(1, "", List.of());
            away.digest = new PeerDigest(Map.of(), Map.of());
            knows.registry = away.registry;
            knows.digest = new PeerDigest(Map.of(), Map.of("A/a-1", 5L));

            check.run();
            clock.advance(GRACE);
            check.run();

            assertThat(registry.views().instance("A", "a-1")).as("cancelled here, as the third node says").isEmpty();
            three.runDueBatches();
            assertThat(away.batches).as("never pushed to the node that was away").isEmpty();
        } finally {
            three.close();
        }
    }

    @Test
    void aCopyNobodyRenewsIsNotCopiedAcrossOnceTheTombstonesAreGone() throws Exception {
        // this node was away while the instance was cancelled elsewhere, and the cancellation is older than the
        // peer's tombstones: only the renewals tell a stale copy from a registration the peer missed
        clock.advance(Duration.ofMinutes(4));   // the versions below are older than the 3-minute tombstones
        registry.register(instance("A", "stale", 5, InstanceStatus.UP), Origin.PEER);
        InstanceInfo theirStale = Instances.sample("B", "b-stale").lastDirtyTimestamp(5)
                .leaseInfo(new io.muster.model.LeaseInfo(30, 90, 1, clock.millis(), 0, 0)).build();
        clock.advance(Duration.ofSeconds(10));
        registry.register(instance("A", "live", 5, InstanceStatus.UP), Origin.CLIENT);
        delivered();
        peerHas(Map.of(), theirStale);
        checker.run();
        clock.advance(Duration.ofSeconds(30));
        registry.renew("A", "live", null, null, Origin.CLIENT);
        clock.advance(Duration.ofSeconds(30));
        checker.run();
        assertThat(delivered()).as("only the copy its client renews").contains("Register live")
                .doesNotContain("Register stale");
        assertThat(registry.views().instance("B", "b-stale")).as("nor is the peer's stale copy taken").isEmpty();
        assertThat(report().differences()).as("still reported until it expires").isEqualTo(3);
    }

    @Test
    void aPeerWithoutDigestIsComparedByItsFullRegistryAndSaysSo() throws Exception {
        registry.register(instance("A", "a-1", 5, InstanceStatus.UP), Origin.CLIENT);
        delivered();
        peer.digest = null;
        checker.run();
        assertThat(report().differences()).isEqualTo(1);
        assertThat(report().note()).contains("no digest endpoint");
        assertThat(peer.registryCalls).isEqualTo(1);
    }

    @Test
    void anUnreachablePeerKeepsItsDifferencesAgeing() throws Exception {
        registry.register(instance("A", "a-1", 5, InstanceStatus.UP), Origin.CLIENT);
        delivered();
        checker.run();
        peer.failWith = new java.net.ConnectException("refused");
        clock.advance(Duration.ofSeconds(10));
        checker.run();
        assertThat(report().note()).startsWith("check failed");
        assertThat(report().differences()).isEqualTo(1);
        peer.failWith = null;
        checker.run();
        assertThat(report().summary()).isEqualTo("1 instance differs for 10 s");
    }

    @Test
    void lagIsEnqueueToAcknowledgementOverTheLastMinute() throws Exception {
        assertThat(cluster.nodes().get(0).status().lagP50Seconds()).isNaN();
        registry.register(instance("A", "a-1", 5, InstanceStatus.UP), Origin.CLIENT);
        clock.advance(Duration.ofMillis(200));
        delivered();
        for (int i = 2; i <= 10; i++) {
            registry.register(instance("A", "a-" + i, 5, InstanceStatus.UP), Origin.CLIENT);
            clock.advance(Duration.ofMillis(10));
            delivered();
        }
        PeerNode.Status s = cluster.nodes().get(0).status();
        assertThat(s.lagP50Seconds()).isEqualTo(0.010);
        assertThat(s.lagP99Seconds()).isEqualTo(0.200);
        clock.advance(Duration.ofSeconds(61));
        assertThat(cluster.nodes().get(0).status().lagP50Seconds()).as("older than a minute").isNaN();
    }
}
