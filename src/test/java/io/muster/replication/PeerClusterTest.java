package io.muster.replication;

import io.muster.model.ReplicationAction;
import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig.PeerConfig;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceStatus;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.TrafficGate.SyncOutcome;
import io.muster.testing.CapturedLog;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What reaches peers, in which batches, and what happens with their answers. No network: a recording peer. */
class PeerClusterTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
    private final RecordingPeerClient peer = new RecordingPeerClient();
    private final List<Duration> backoffs = new ArrayList<>();
    private PeerCluster cluster;

    /** Batches run on this thread when the test says so; a backoff only moves the clock. */
    private PeerCluster cluster(PeerConfig config, LocalNode self, PeerDns dns) {
        return new PeerCluster(config, self, registry, clock, url -> peer, dns, d -> {
            backoffs.add(d);
            clock.advance(d);
        }, false);
    }

    private PeerCluster cluster(String... settings) {
        Map<String, String> m = new java.util.HashMap<>(Map.of(
                "eureka.client.serviceUrl.defaultZone", "http://peer:secret@10.9.9.9:8761/eureka/,"
                        + "http://127.0.0.1:8761/eureka/",
                "eureka.server.peerReplicationBatchDelayMs", "0"));
        for (int i = 0; i + 1 < settings.length; i += 2) {
            m.put(settings[i], settings[i + 1]);
        }
        PeerConfig config = ConfigLoader.load(List.of(m)).peers();
        cluster = cluster(config, new LocalNode("/eureka", null, Set.of(8761)), PeerDns.SYSTEM);
        registry.addListener(cluster);
        cluster.refresh();
        return cluster;
    }

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Runs what is due, then takes the oldest batch the peer received. */
    private List<ReplicationItem> nextBatch() throws InterruptedException {
        cluster.runDueBatches();
        List<ReplicationItem> batch = peer.batches.poll();
        assertThat(batch).as("a batch reached the peer").isNotNull();
        return batch;
    }

    private List<String> actions(int items) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        while (seen.size() < items) {
            nextBatch().forEach(i -> seen.add(i.action().wireName() + " " + i.id()));
        }
        return seen;
    }

    @Test
    void ownUrlIsNotAPeerAndCredentialsBecomeBasicAuth() {
        cluster();
        assertThat(cluster.nodes()).singleElement().satisfies(n -> {
            assertThat(n.url().toString()).isEqualTo("http://10.9.9.9:8761/eureka/").doesNotContain("secret");
            assertThat(n.url().authorization()).isEqualTo("Basic cGVlcjpzZWNyZXQ=");
        });
    }

    @Test
    void anotherPortOnThisMachineIsAPeer() {
        PeerConfig config = ConfigLoader.load(List.of(Map.of("eureka.client.serviceUrl.defaultZone",
                "http://127.0.0.1:8761/eureka/,http://127.0.0.1:8762/eureka/,http://127.0.0.1:8762/other/"))).peers();
        cluster = cluster(config, new LocalNode("/eureka", null, Set.of(8761)), PeerDns.SYSTEM);
        cluster.refresh();
        assertThat(cluster.nodes()).extracting(n -> n.url().toString())
                .containsExactly("http://127.0.0.1:8762/eureka/", "http://127.0.0.1:8762/other/");
    }

    /**
     * Deployed at /registry with the usual list of .../eureka/ URLs, this node's own URL would answer 404: not a
     * peer to wait for, but this node misnamed, said once with the URL clients must use.
     */
    @Test
    void thisNodesHostAndPortUnderAnotherContextIsThisNodeMisnamedAndSaidOnce() {
        io.muster.testing.CapturedLog log = new io.muster.testing.CapturedLog();
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(PeerCluster.class.getName());
        logger.addHandler(log);
        try {
            PeerConfig config = ConfigLoader.load(List.of(Map.of("eureka.client.serviceUrl.defaultZone",
                    "http://peer:secret@127.0.0.1:8761/eureka/,http://127.0.0.1:8762/eureka/"))).peers();
            cluster = cluster(config, new LocalNode("/registry", null, Set.of(8761)), PeerDns.SYSTEM);
            cluster.refresh();
            cluster.refresh();
            assertThat(cluster.nodes()).extracting(n -> n.url().toString())
                    .containsExactly("http://127.0.0.1:8762/eureka/");
            assertThat(log.records).filteredOn(r -> r.getMessage().contains("context path")).singleElement()
                    .satisfies(r -> assertThat(r.getMessage()).isEqualTo("Muster: peer URL"
                            + " http://127.0.0.1:8761/eureka/ has this node's host and port but context path /eureka/"
                            + " while this node is deployed at /registry/: it is not taken as a peer; clients and the"
                            + " other nodes must use http://127.0.0.1:8761/registry/ (or deploy the WAR as"
                            + " eureka.war)"));
        } finally {
            logger.removeHandler(log);
        }
    }

    @Test
    void deployedAsRootTheUsualEurekaUrlIsThisNodeMisnamed() {
        PeerConfig config = ConfigLoader.load(List.of(Map.of("eureka.client.serviceUrl.defaultZone",
                "http://127.0.0.1:8761/eureka/,http://127.0.0.1:8762/"))).peers();
        cluster = cluster(config, new LocalNode("", null, Set.of(8761)), PeerDns.SYSTEM);
        cluster.refresh();
        assertThat(cluster.nodes()).extracting(n -> n.url().toString()).containsExactly("http://127.0.0.1:8762/");
    }

    @Test
    void aNodeThatDoesNotKnowItsPortYetCannotTellAnotherContextFromAPeer() {
        PeerConfig config = ConfigLoader.load(List.of(Map.of("eureka.client.serviceUrl.defaultZone",
                "http://127.0.0.1:8761/eureka/"))).peers();
        LocalNode self = new LocalNode("/registry", null, Set.of());
        cluster = cluster(config, self, PeerDns.SYSTEM);
        cluster.refresh();
        assertThat(cluster.nodes()).hasSize(1);
        self.learnPort(8761);   // its first request
        cluster.refresh();
        assertThat(cluster.nodes()).isEmpty();
    }

    @Test
    void aDnsNameBecomesOnePeerPerAddressResolvedAgainOnEveryRefresh() {
        Map<String, List<String>> records = new java.util.concurrent.ConcurrentHashMap<>();
        records.put("muster-headless", List.of("10.0.0.1", "10.0.0.2", "127.0.0.1"));
        PeerConfig config = ConfigLoader.load(List.of(Map.of("eureka.server.peerDnsUrl",
                "http://peer:secret@muster-headless:8761/eureka/"))).peers();
        cluster = cluster(config, new LocalNode("/eureka", null, Set.of(8761)), host -> {
                    List<String> a = records.get(host);
                    if (a == null) {
                        throw new java.net.UnknownHostException(host);
                    }
                    return a;
                });
        cluster.refresh();
        assertThat(cluster.nodes()).as("this node's own address is left out").extracting(n -> n.url().toString())
                .containsExactly("http://10.0.0.1:8761/eureka/", "http://10.0.0.2:8761/eureka/");
        assertThat(cluster.nodes()).allSatisfy(n ->
                assertThat(n.url().authorization()).isEqualTo("Basic cGVlcjpzZWNyZXQ="));
        PeerNode kept = cluster.nodes().get(1);

        records.put("muster-headless", List.of("10.0.0.2", "10.0.0.3", "127.0.0.1"));   // a pod replaced
        cluster.refresh();
        assertThat(cluster.nodes()).extracting(n -> n.url().toString())
                .containsExactly("http://10.0.0.2:8761/eureka/", "http://10.0.0.3:8761/eureka/");
        assertThat(cluster.nodes().get(0)).as("a surviving peer keeps its node and queue").isSameAs(kept);

        records.remove("muster-headless");   // the name stops resolving for a moment
        cluster.refresh();
        assertThat(cluster.nodes()).as("a DNS hiccup keeps the peers it had").extracting(n -> n.url().toString())
                .containsExactly("http://10.0.0.2:8761/eureka/", "http://10.0.0.3:8761/eureka/");
    }

    @Test
    void everyKindOfClientWriteIsReplicatedInOrder() throws Exception {
        cluster();
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        assertThat(actions(1)).containsExactly("Register i-1");
        registry.renew("A", "i-1", null, null, Origin.CLIENT);
        assertThat(actions(1)).containsExactly("Heartbeat i-1");
        registry.statusUpdate("A", "i-1", InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT);
        assertThat(actions(1)).containsExactly("StatusUpdate i-1");
        registry.deleteStatusOverride("A", "i-1", InstanceStatus.UP, null, Origin.CLIENT);
        assertThat(actions(1)).containsExactly("DeleteStatusOverride i-1");
        registry.updateMetadata("A", "i-1", Map.of("k", "v"));
        List<ReplicationItem> metadata = nextBatch();
        assertThat(metadata.get(0).action()).isEqualTo(ReplicationAction.REGISTER);
        assertThat(metadata.get(0).instanceInfo().metadata()).containsEntry("k", "v");
        registry.cancel("A", "i-1", Origin.CLIENT);
        assertThat(actions(1)).containsExactly("Cancel i-1");
    }

    @Test
    void writesFromPeersAndEvictionsAreNotReplicated() throws Exception {
        cluster();
        registry.register(Instances.up("A", "p-1"), Origin.PEER);
        registry.renew("A", "p-1", null, null, Origin.PEER);
        registry.statusUpdate("A", "p-1", InstanceStatus.DOWN, null, Origin.PEER);
        registry.cancel("A", "p-1", Origin.PEER);
        registry.register(Instances.up("A", "p-2"), Origin.PEER);
        registry.expire("A", "p-2");
        registry.register(Instances.up("A", "marker"), Origin.CLIENT);
        assertThat(actions(1)).containsExactly("Register marker");
        assertThat(peer.batches).isEmpty();
    }

    @Test
    void aNewerTaskReplacesThePendingOneAndBatchesHoldAtMost250() throws Exception {
        cluster("eureka.server.peerReplicationBatchDelayMs", "300");
        for (int i = 0; i < 600; i++) {
            registry.register(Instances.up("A", "i-" + i), Origin.CLIENT);
        }
        for (int round = 0; round < 5; round++) {
            registry.renew("A", "i-0", null, null, Origin.CLIENT);   // five heartbeats, one pending task
        }
        cluster.runDueBatches();
        assertThat(peer.batches).as("two full batches go at once, the rest waits for the delay").hasSize(2);
        clock.advance(Duration.ofMillis(300));
        List<Integer> sizes = new ArrayList<>();
        int heartbeats = 0;
        while (sizes.stream().mapToInt(Integer::intValue).sum() < 601) {
            List<ReplicationItem> b = nextBatch();
            sizes.add(b.size());
            heartbeats += (int) b.stream().filter(i -> i.action() == ReplicationAction.HEARTBEAT).count();
        }
        assertThat(sizes).allSatisfy(s -> assertThat(s).isLessThanOrEqualTo(250));
        assertThat(heartbeats).isEqualTo(1);
    }

    @Test
    void aPeerThatIsDownGetsTheBatchAgainWhenItIsBack() throws Exception {
        cluster();
        peer.failWith = new ConnectException("refused");
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        assertThat(cluster.runDueBatches()).as("one failed attempt, then the retry waits").isEqualTo(1);
        assertThat(cluster.statuses().get(0).reachable()).isFalse();
        assertThat(backoffs).containsExactly(Duration.ofMillis(100));
        peer.batches.clear();
        peer.failWith = null;
        assertThat(nextBatch()).extracting(ReplicationItem::id).containsExactly("i-1");
        assertThat(cluster.statuses().get(0).reachable()).isTrue();
        assertThat(cluster.statuses().get(0).lastSuccess()).isEqualTo(clock.instant());
    }

    @Test
    void aPeerAnswering500OrWithItsApplicationAwayGetsTheBatchAgain() throws Exception {
        cluster();
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        for (int status : new int[]{500, 404}) {
            peer.failWith = new PeerClient.StatusException(status);
            assertThat(cluster.runDueBatches()).as("HTTP " + status + ": one failed attempt").isEqualTo(1);
        }
        assertThat(backoffs).as("retried, not dropped").hasSize(2);
        peer.batches.clear();
        peer.failWith = null;
        assertThat(nextBatch()).extracting(ReplicationItem::id).containsExactly("i-1");
        assertThat(cluster.statuses().get(0).dropped()).isZero();
    }

    @Test
    void aPermanentFailureDropsTheBatch() throws Exception {
        cluster();
        peer.failWith = new PeerClient.StatusException(400);
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        nextBatch();
        peer.failWith = null;
        registry.register(Instances.up("A", "i-2"), Origin.CLIENT);
        assertThat(nextBatch()).extracting(ReplicationItem::id).containsExactly("i-2");
        assertThat(cluster.statuses().get(0).reachable()).isTrue();
        assertThat(cluster.statuses().get(0).dropped()).isEqualTo(1);
        assertThat(backoffs).as("a permanent failure is not retried").isEmpty();
    }

    /** 401 and 403 refuse the caller, not the batch: the page and the log say which setting to fix, once. */
    @Test
    void aPeerRefusingOurCredentialsIsShownAsRefusingAndLoggedOncePerChange() throws Exception {
        CapturedLog log = new CapturedLog();
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(PeerNode.class.getName());
        logger.addHandler(log);
        try {
            cluster();
            peer.failWith = new PeerClient.StatusException(401);
            for (int i = 0; i < 3; i++) {
                registry.register(Instances.up("A", "i-" + i), Origin.CLIENT);
                nextBatch();
            }
            PeerNode.Status s = cluster.statuses().get(0);
            assertThat(s.reachable()).as("it answered").isTrue();
            assertThat(s.dropped()).isEqualTo(3);
            assertThat(s.refusal().kind()).isEqualTo(PeerRefusal.Kind.PASSWORD_REJECTED);
            assertThat(s.refusal().problem()).contains("rejected the password", "user 'peer'")
                    .doesNotContain("secret");
            assertThat(s.refusal().fix()).contains("eureka.client.serviceUrl.defaultZone");
            assertThat(log.records).extracting(r -> r.getMessage())
                    .filteredOn(m -> m.contains("refuses our replication")).hasSize(1);

            peer.failWith = new PeerClient.StatusException(403);
            registry.register(Instances.up("A", "i-9"), Origin.CLIENT);
            nextBatch();
            assertThat(cluster.statuses().get(0).refusal().kind()).isEqualTo(PeerRefusal.Kind.ROLE_MISSING);
            assertThat(cluster.statuses().get(0).refusal().problem()).contains("lacks the eureka-peer role");

            peer.failWith = null;
            registry.register(Instances.up("A", "i-10"), Origin.CLIENT);
            nextBatch();
            assertThat(cluster.statuses().get(0).refusal()).as("accepted again").isNull();
            assertThat(log.records).extracting(r -> r.getMessage())
                    .filteredOn(m -> m.contains("refuses our replication")).hasSize(2);
            assertThat(backoffs).as("refusals are not retried").isEmpty();
        } finally {
            logger.removeHandler(log);
        }
    }

    @Test
    void aPeerUrlWithoutCredentialsIsToldApartFromAWrongPassword() throws Exception {
        cluster("eureka.client.serviceUrl.defaultZone", "http://10.9.9.8:8761/eureka/");
        peer.failWith = new PeerClient.StatusException(401);
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        nextBatch();
        PeerRefusal refusal = cluster.statuses().get(0).refusal();
        assertThat(refusal.kind()).isEqualTo(PeerRefusal.Kind.CREDENTIALS_MISSING);
        assertThat(refusal.user()).isNull();
        assertThat(refusal.problem()).contains("we sent no credentials");
        assertThat(refusal.fix()).contains("http://user:password@host:port/eureka/");
    }

    @Test
    void heartbeatUnknownToThePeerIsFollowedByARegistration() throws Exception {
        cluster();
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        nextBatch();
        peer.answer = items -> items.stream().map(i -> ReplicationResult.of(
                i.action() == ReplicationAction.HEARTBEAT ? 404 : 200)).toList();
        registry.renew("A", "i-1", null, null, Origin.CLIENT);
        assertThat(actions(2)).containsExactly("Heartbeat i-1", "Register i-1");
    }

    @Test
    void heartbeatConflictAdoptsThePeersNewerCopy() throws Exception {
        cluster();
        registry.register(Instances.sample("A", "i-1").lastDirtyTimestamp(1_000).build(), Origin.CLIENT);
        nextBatch();
        var newer = Instances.sample("A", "i-1").lastDirtyTimestamp(9_000).ipAddr("10.1.1.1").build();
        peer.answer = items -> items.stream().map(i -> new ReplicationResult(409, newer)).toList();
        registry.renew("A", "i-1", null, null, Origin.CLIENT);
        nextBatch();
        assertThat(registry.views().instance("A", "i-1").orElseThrow().ipAddr()).isEqualTo("10.1.1.1");
    }

    @Test
    void syncCopiesThePeersRegistry() {
        cluster();
        peer.registry = new Applications(1, "UP_2_", List.of(new Application("B",
                List.of(Instances.up("B", "b-1"), Instances.up("B", "b-2")))));
        SyncResult sync = cluster.syncUp(false);
        assertThat(sync.outcome()).isEqualTo(SyncOutcome.PEER_ANSWERED);
        assertThat(sync.copied()).isEqualTo(2);
        assertThat(registry.views().instance("B", "b-2")).isPresent();
        assertThat(peer.batches).as("copied instances are not sent back").isEmpty();
    }

    @Test
    void syncSkipsWhatTheRulesRefuseAndCopiesTheRest() {
        cluster();
        peer.registry = new Applications(1, "UP_3_", List.of(new Application("B", List.of(
                Instances.up("B", "b-1"),
                Instances.sample("B", "bad").dataCenterInfo(new io.muster.model.DataCenterInfo("Nope", Map.of()))
                        .build(),
                Instances.sample("B", "b-3").ipAddr(null).build()))));
        assertThat(cluster.syncUp(false).copied()).isEqualTo(1);
        assertThat(registry.views().instance("B", "b-1")).isPresent();
        assertThat(registry.size()).isEqualTo(1);
    }

    @Test
    void aPeerAnsweringWithAnEmptyRegistryIsASuccessfulSync() {
        cluster();
        SyncResult sync = cluster.syncUp(false);
        assertThat(sync.outcome()).isEqualTo(SyncOutcome.PEER_ANSWERED);
        assertThat(sync.copied()).isZero();
    }

    @Test
    void aMusterPeerWaitingForItsPeersIsCopiedButNotTakenAsTheClustersTruth() {
        cluster();
        peer.digest = new PeerDigest(Map.of(), Map.of(), true);
        peer.registry = new Applications(1, "UP_1_", List.of(new Application("B", List.of(Instances.up("B", "b-1")))));
        SyncResult sync = cluster.syncUp(false);
        assertThat(sync.outcome()).as("restarted together: it holds its snapshot, not the cluster's present")
                .isEqualTo(SyncOutcome.PEERS_WAITING);
        assertThat(sync.copied()).isEqualTo(1);
        assertThat(registry.views().instance("B", "b-1")).isPresent();
    }

    @Test
    void theSyncHandsOverThePeersCancellationsAndDropsTheCopiesTheyCover() {
        cluster();
        // a peer's retried registration arrived before the sync; the peer synced from cancelled it meanwhile
        registry.register(Instances.sample("B", "b-1").lastDirtyTimestamp(1_000).build(), Origin.PEER);
        peer.digest = new PeerDigest(Map.of(), Map.of("B/b-1", 1_000L), false);
        assertThat(cluster.syncUp(false).outcome()).isEqualTo(SyncOutcome.PEER_ANSWERED);
        assertThat(registry.views().lease("B", "b-1")).isEmpty();
        assertThatThrownBy(() -> registry.register(Instances.sample("B", "b-1").lastDirtyTimestamp(1_000).build(),
                Origin.PEER)).as("a later retry of it is refused too")
                .isInstanceOf(io.muster.registry.CancelledHereException.class);
    }

    @Test
    void aCancellationWhileThePeerSentItsRegistryIsHandedOverSoTheOwnSnapshotCannotPutItBack() {
        cluster();
        // cancelled on the peer after its digest was read and before its registry was: in neither
        peer.digest = new PeerDigest(Map.of(), Map.of(), false);
        peer.registry = new Applications(1, "", List.of());
        peer.afterRegistryRead = () -> peer.digest = new PeerDigest(Map.of(), Map.of("B/b-1", 1_000L), false);
        SyncResult sync = cluster.syncUp(false);
        assertThat(sync.outcome()).isEqualTo(SyncOutcome.PEER_ANSWERED);
        assertThat(sync.digests()).as("a Muster peer: the start-up catch-up can read it again").isTrue();
        assertThat(registry.tombstones().cancelledVersion("B", "b-1")).isEqualTo(1_000L);
        assertThatThrownBy(() -> registry.restore(Instances.sample("B", "b-1").lastDirtyTimestamp(1_000).build(),
                clock.instant(), clock.instant(), null))
                .as("this node's snapshot, put back where the peer lacks an instance, cannot bring it back")
                .isInstanceOf(io.muster.registry.CancelledHereException.class);
    }

    @Test
    void theCatchUpDropsCopiesThePeersCancelledAfterTheSyncReadTheirRegistry() {
        cluster();
        peer.digest = new PeerDigest(Map.of(), Map.of(), false);
        peer.registry = new Applications(1, "UP_2_", List.of(new Application("B", List.of(
                Instances.sample("B", "b-1").lastDirtyTimestamp(1_000).build(),
                Instances.sample("B", "b-2").lastDirtyTimestamp(1_000).build()))));
        assertThat(cluster.syncUp(false).copied()).isEqualTo(2);
        // cancelled on the peer after the copy: its replication to this node is still queued there
        peer.digest = new PeerDigest(Map.of(), Map.of("B/b-1", 1_000L), false);
        assertThat(cluster.catchUp()).isEqualTo(1);
        assertThat(registry.views().lease("B", "b-1")).isEmpty();
        assertThat(registry.views().lease("B", "b-2")).isPresent();
        assertThat(peer.batches).as("the peers cancelled it themselves: nothing is sent").isEmpty();
        assertThatThrownBy(() -> registry.register(Instances.sample("B", "b-1").lastDirtyTimestamp(1_000).build(),
                Origin.PEER)).as("the peer's queued registration of that copy, delivered later, is refused")
                .isInstanceOf(io.muster.registry.CancelledHereException.class);
        peer.failWith = new ConnectException("refused");
        assertThat(cluster.catchUp()).as("a peer that does not answer is asked again next round").isZero();
    }

    @Test
    void aStockPeerThatIsItselfWaitingForItsPeersCountsAsAnswerNotAsTruth() {
        cluster();
        peer.failWith = new PeerClient.StatusException(403);
        assertThat(cluster.syncUp(false).outcome()).as("cluster starting together")
                .isEqualTo(SyncOutcome.PEERS_WAITING);
    }

    @Test
    void onlyWhenNoPeerAnswersIsTheSyncUnreachable() {
        cluster();
        peer.failWith = new ConnectException("refused");
        assertThat(cluster.syncUp(false).outcome()).isEqualTo(SyncOutcome.EVERY_PEER_UNREACHABLE);
        peer.failWith = new PeerClient.StatusException(404);   // a container up but the application not yet
        assertThat(cluster.syncUp(true).outcome()).isEqualTo(SyncOutcome.EVERY_PEER_UNREACHABLE);
    }

    @Test
    void aStandaloneNodeWhoseOnlyUrlIsItsOwnHasNoPeersToWaitFor() {
        cluster("eureka.client.serviceUrl.defaultZone", "http://localhost:8761/eureka/");
        assertThat(cluster.nodes()).isEmpty();
        assertThat(cluster.syncUp(false).outcome()).isEqualTo(SyncOutcome.NO_PEERS);
    }

    @Test
    void aNodeThatDoesNotKnowItsPortTakesLocalUrlsWithItsContextForItselfUntilItLearnsThePort() {
        LocalNode self = new LocalNode("/eureka", null, Set.of());
        PeerConfig config = ConfigLoader.load(List.of(Map.of("eureka.client.serviceUrl.defaultZone",
                "http://127.0.0.1:8761/eureka/,http://127.0.0.1:8762/eureka/"))).peers();
        cluster = cluster(config, self, PeerDns.SYSTEM);
        assertThat(cluster.refresh()).isZero();
        assertThat(self.learnPort(8761)).isTrue();
        assertThat(cluster.refresh()).as("the other port is a peer once this node knows its own").isEqualTo(1);
        assertThat(cluster.nodes()).singleElement().satisfies(n -> assertThat(n.url().port()).isEqualTo(8762));
    }

    @Test
    void aPeerThatHoldsAnInstanceIsFoundAndAnUnreachableOneCountsAsNotHoldingIt() {
        cluster();
        peer.registry = new Applications(1, "UP_1_", List.of(new Application("B",
                List.of(Instances.up("B", "b-1")))));

        assertThat(cluster.anyPeerHolds("B", "b-1")).isTrue();
        assertThat(cluster.anyPeerHolds("B", "b-2")).isFalse();
        peer.failWith = new java.net.ConnectException("refused");
        assertThat(cluster.anyPeerHolds("B", "b-1")).as("asked at the cap: a peer away is no reason to wait")
                .isFalse();
    }

    @Test
    void anInstanceIsLookedUpByItsEncodedPathSegments() {
        assertThat(PeerUrl.segment("host:app:8080")).isEqualTo("host:app:8080");
        assertThat(PeerUrl.segment("a b;c/d%é")).isEqualTo("a%20b%3Bc%2Fd%25%C3%A9");
    }
}
