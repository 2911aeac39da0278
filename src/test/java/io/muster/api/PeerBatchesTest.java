package io.muster.api;

import io.muster.model.ReplicationAction;
import io.muster.codec.ReplicationBatchCodec;
import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.Applications;
import io.muster.model.InstanceStatus;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PeerBatchesTest {
    private final InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3));
    private final PeerBatches inbound = new PeerBatches(new InstanceWrites(registry, Clock.systemUTC()), Clock.systemUTC());

    @Test
    void anItemWhoseIdIsNotItsInstancesIdIsRefused() {
        List<ReplicationResult> results = inbound.apply(List.of(
                new ReplicationItem(ReplicationAction.REGISTER, "A", "claimed", 1_000L, "UP", null, Instances.up("A", "actual")),
                new ReplicationItem(ReplicationAction.REGISTER, "A", "", 1_000L, "UP", null, Instances.up("A", "actual"))));
        assertThat(results).extracting(ReplicationResult::statusCode).containsExactly(400, 400);
        assertThat(registry.size()).isZero();
    }

    @Test
    void eachItemIsAnsweredInOrderAndBadItemsDoNotStopTheRest() {
        registry.register(Instances.sample("A", "newer").lastDirtyTimestamp(5_000).build(), Origin.CLIENT);
        List<ReplicationResult> results = inbound.apply(List.of(
                new ReplicationItem(ReplicationAction.REGISTER, "A", "r-1", 1_000L, "UP", null, Instances.up("A", "r-1")),
                new ReplicationItem(null, "A", "r-1", null, null, null, null),
                new ReplicationItem(ReplicationAction.HEARTBEAT, "A", "r-1", 1_000L, "UP", null, null),
                new ReplicationItem(ReplicationAction.HEARTBEAT, "A", "nobody", 1_000L, "UP", null, null),
                new ReplicationItem(ReplicationAction.HEARTBEAT, "A", "newer", 1_000L, "UP", null, null),
                new ReplicationItem(ReplicationAction.STATUS_UPDATE, "A", "r-1", 1_000L, "BOGUS", null, null),
                new ReplicationItem(ReplicationAction.STATUS_UPDATE, "A", "r-1", 1_000L, "OUT_OF_SERVICE", null, null),
                new ReplicationItem(null, null, null, null, null, null, null),
                new ReplicationItem(ReplicationAction.REGISTER, "B", "x", 1_000L, "UP", null, Instances.up("A", "x")),
                new ReplicationItem(ReplicationAction.CANCEL, "A", "nobody", null, null, null, null),
                new ReplicationItem(ReplicationAction.DELETE_STATUS_OVERRIDE, "A", "r-1", 1_000L, null, null, null)));
        assertThat(results).extracting(ReplicationResult::statusCode)
                .containsExactly(200, 400, 200, 404, 409, 400, 200, 400, 400, 404, 200);
        assertThat(results.get(4).responseEntity().lastDirtyTimestamp()).isEqualTo(5_000);
        assertThat(registry.views().instance("A", "r-1").orElseThrow().status()).isEqualTo(InstanceStatus.UNKNOWN);
        assertThat(registry.views().instance("A", "x")).as("app mismatch refused").isEmpty();
    }

    /** Issue 12, finding 3: batch items go through the registry's rules; a bad one is a 400, never a 500. */
    @Test
    void registerItemsTheRegistryRefusesAre400AndChangeNothing() {
        String batch = """
                {"replicationList":[
                {"action":"Register","appName":"PB","id":"p2","instanceInfo":{"instanceId":"p2","app":"PB"}},
                {"action":"Register","appName":"PB","id":"p3","instanceInfo":{"app":"PB","ipAddr":"10.0.0.1",
                 "dataCenterInfo":{"name":"MyOwn"}}},
                {"action":"Register","appName":"PB","id":"p4","instanceInfo":{"instanceId":"other","hostName":"h",
                 "app":"PB","ipAddr":"10.0.0.1","dataCenterInfo":{"name":"MyOwn"}}},
                {"action":"Register","appName":"PB","id":"p5","instanceInfo":{"instanceId":"p5","hostName":"h",
                 "app":"PB","ipAddr":"10.0.0.1","dataCenterInfo":{"name":"Nope"}}},
                {"action":"Register","appName":"PB","id":"p6","instanceInfo":{"instanceId":"p6","hostName":"h",
                 "app":"PB","ipAddr":"10.0.0.1","dataCenterInfo":{"name":"MyOwn"},"metadata":{"a:b":"x"}}}]}""";
        Applications before = registry.views().snapshot().applications();
        long sequence = registry.sequence();
        List<ReplicationResult> results = inbound.apply(ReplicationBatchCodec.decodeRequest(
                batch.getBytes(StandardCharsets.UTF_8), 1_000));
        assertThat(results).extracting(ReplicationResult::statusCode).containsExactly(400, 400, 400, 400, 400);
        assertThat(registry.sequence()).isEqualTo(sequence);
        assertThat(registry.views().snapshot().applications()).isEqualTo(before);
    }

    @Test
    void registerItemsPassTheInstanceCapOfTheReceivingNode() {
        InstanceRegistry small = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3),
                new LimitsConfig(256, 1024, 64, 4096, 1, 3600, 1, 1));
        List<ReplicationResult> results = new PeerBatches(new InstanceWrites(small, Clock.systemUTC()), Clock.systemUTC()).apply(List.of(
                new ReplicationItem(ReplicationAction.REGISTER, "A", "a-1", 1_000L, "UP", null, Instances.up("A", "a-1")),
                new ReplicationItem(ReplicationAction.REGISTER, "A", "a-2", 1_000L, "UP", null, Instances.up("A", "a-2")),
                new ReplicationItem(ReplicationAction.REGISTER, "A", "a-3", 1_000L, "UP", null, Instances.up("A", "a-3")),
                new ReplicationItem(ReplicationAction.REGISTER, "A", "a-1", 2_000L, "UP", null,
                        Instances.sample("A", "a-1").lastDirtyTimestamp(2_000).build())));
        // a peer's writes pass the count cap (1): it acknowledged them under its own
        assertThat(results).extracting(ReplicationResult::statusCode).containsExactly(200, 200, 200, 200);
        assertThat(small.size()).isEqualTo(3);
    }
}
