package io.muster.registry;

import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each limit: at the limit accepted, one past it refused with the setting named, the registry unchanged. */
class RegistryLimitsTest {
    private static final LimitsConfig LIMITS = new LimitsConfig(10, 20, 3, 30, 5, 100, 4, 2);
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3), LIMITS);

    private static InstanceInfo.Builder small(String app, String id) {
        return Instances.sample(app, id).hostName("h").vipAddress("v").secureVipAddress("v").metadata(Map.of());
    }

    /** Registers the one at the limit, then checks the one past it is refused and changes nothing. */
    private void limit(UnaryOperator<InstanceInfo.Builder> atLimit, UnaryOperator<InstanceInfo.Builder> pastLimit,
                       Refusal reason, String setting) {
        registry.register(atLimit.apply(small("A", "at")).build(), Origin.CLIENT);
        assertThat(registry.views().instance("A", "at")).as("at the limit").isPresent();
        InstanceInfo past = pastLimit.apply(small("A", "past")).build();
        refusedUnchanged(() -> registry.register(past, Origin.PEER), InvalidInstanceException.class, reason, setting);
    }

    private void refusedUnchanged(ThrowingCallable write, Class<? extends RuntimeException> type, Refusal reason,
                                  String setting) {
        long sequence = registry.sequence();
        Applications before = registry.views().snapshot().applications();
        long counted = registry.refusals(reason);
        assertThatThrownBy(write).isInstanceOf(type).hasMessageContaining(setting);
        assertThat(registry.sequence()).isEqualTo(sequence);
        assertThat(registry.views().snapshot().applications()).isEqualTo(before);
        assertThat(registry.refusals(reason)).as("counted for /metrics").isEqualTo(counted + 1);
    }

    @Test
    void fieldLength() {
        limit(b -> b.hostName("h".repeat(10)), b -> b.hostName("h".repeat(11)), Refusal.FIELD_LENGTH,
                "hostName longer than 10 characters (eureka.server.maxFieldLength)");
        limit(b -> b.appGroupName("G".repeat(10)), b -> b.vipAddress("v".repeat(11)), Refusal.FIELD_LENGTH,
                "eureka.server.maxFieldLength");
    }

    @Test
    void urlLength() {
        limit(b -> b.healthCheckUrl("u".repeat(20)), b -> b.healthCheckUrl("u".repeat(21)), Refusal.FIELD_LENGTH,
                "healthCheckUrl longer than 20 characters (eureka.server.maxUrlLength)");
    }

    @Test
    void metadataEntries() {
        limit(b -> b.metadata(entries(3)), b -> b.metadata(entries(4)), Refusal.METADATA_ENTRIES,
                "eureka.server.maxMetadataEntries");
        refusedUnchanged(() -> registry.updateMetadata("A", "at", Map.of("k9", "v")),
                InvalidInstanceException.class, Refusal.METADATA_ENTRIES, "metadata has more than 3 entries");
        limit(b -> b.dataCenterInfo(new DataCenterInfo("Amazon", entries(3))),
                b -> b.dataCenterInfo(new DataCenterInfo("Amazon", entries(4))), Refusal.METADATA_ENTRIES,
                "dataCenterInfo.metadata has more than 3 entries (eureka.server.maxMetadataEntries)");
    }

    @Test
    void metadataBytes() {
        // key "k" (1 byte) + 29 bytes of value = 30; "é" is two bytes in UTF-8
        limit(b -> b.metadata(Map.of("k", "é".repeat(14) + "x")), b -> b.metadata(Map.of("k", "é".repeat(15))),
                Refusal.METADATA_BYTES, "metadata is larger than 30 bytes (eureka.server.maxMetadataBytes)");
        refusedUnchanged(() -> registry.updateMetadata("A", "at", Map.of("k", "é".repeat(15))),
                InvalidInstanceException.class, Refusal.METADATA_BYTES, "eureka.server.maxMetadataBytes");
    }

    @Test
    void leaseDurationIsRefusedOutsideTheRangeNeverClamped() {
        limit(b -> b.leaseInfo(lease(5)), b -> b.leaseInfo(lease(4)), Refusal.LEASE_DURATION,
                "leaseInfo.durationInSecs 4 is not in 5-100 (eureka.server.minLeaseDurationSeconds");
        registry.register(small("A", "max").leaseInfo(lease(100)).build(), Origin.CLIENT);
        refusedUnchanged(() -> registry.register(small("A", "huge").leaseInfo(lease(101)).build(), Origin.CLIENT),
                InvalidInstanceException.class, Refusal.LEASE_DURATION, "eureka.server.maxLeaseDurationSeconds");
        refusedUnchanged(() -> registry.register(small("A", "slow").leaseInfo(new LeaseInfo(101, 90, 0, 0, 0, 0))
                .build(), Origin.CLIENT), InvalidInstanceException.class, Refusal.LEASE_DURATION, "renewalInterval");
        assertThat(registry.views().lease("A", "max").orElseThrow().duration()).isEqualTo(Duration.ofSeconds(100));
    }

    @Test
    void theServersOwnInstanceIsNeverRefusedForTheCounts() {
        for (String app : new String[]{"A", "B", "C", "D"}) {
            registry.register(small(app, app + "-1").build(), Origin.CLIENT);
        }

        registry.registerOwnInstance(small("EUREKA", "me").build());

        assertThat(registry.views().instance("EUREKA", "me")).as("a node started into a full cluster still counts"
                + " as a replica").isPresent();
        assertThat(registry.refusals(Refusal.MAX_INSTANCES)).isZero();
    }

    @Test
    void instancesInTotalAreCappedButKnownInstancesMayAlwaysReRegister() {
        for (String app : new String[]{"A", "B", "C", "D"}) {
            registry.register(small(app, app + "-1").build(), Origin.CLIENT);
        }
        refusedUnchanged(() -> registry.register(small("E", "e-1").build(), Origin.CLIENT),
                RegistryFullException.class, Refusal.MAX_INSTANCES, "eureka.server.maxInstances");
        registry.register(small("A", "a-2").build(), Origin.PEER);
        registry.register(small("A", "a-3").build(), Origin.PEER);
        assertThat(registry.size()).as("a peer's writes pass the count cap: the peer acknowledged them under its own"
                + " cap, and refusing them would leave them on some nodes only").isEqualTo(6);
        refusedUnchanged(() -> registry.register(small("E", "e-1").build(), Origin.CLIENT),
                RegistryFullException.class, Refusal.MAX_INSTANCES, "registry holds 6 instances");
        registry.cancel("A", "a-2", Origin.PEER);
        registry.cancel("A", "a-3", Origin.PEER);
        registry.register(small("A", "A-1").status(io.muster.model.InstanceStatus.DOWN).build(), Origin.CLIENT);
        registry.updateMetadata("A", "A-1", Map.of("k", "v"));
        assertThat(registry.size()).isEqualTo(4);
        registry.cancel("D", "D-1", Origin.CLIENT);
        registry.register(small("E", "e-1").build(), Origin.CLIENT);
        assertThat(registry.views().instance("E", "e-1")).as("room again after a cancel").isPresent();
    }

    @Test
    void instancesPerAppAreCapped() {
        registry.register(small("A", "a-1").build(), Origin.CLIENT);
        registry.register(small("A", "a-2").build(), Origin.CLIENT);
        refusedUnchanged(() -> registry.register(small("A", "a-3").build(), Origin.CLIENT),
                RegistryFullException.class, Refusal.MAX_INSTANCES_PER_APP,
                "application holds 2 instances, the most allowed (eureka.server.maxInstancesPerApp)");
        registry.register(small("B", "b-1").build(), Origin.CLIENT);
        assertThat(registry.size()).isEqualTo(3);
    }

    @Test
    void expiryFreesRoomToo() {
        for (int i = 0; i < 4; i++) {
            registry.register(small("A" + i, "x-" + i).build(), Origin.CLIENT);
        }
        registry.expire("A0", "x-0");
        registry.register(small("Z", "z").build(), Origin.CLIENT);
        assertThat(registry.size()).isEqualTo(4);
    }

    private static Map<String, String> entries(int n) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put("k" + i, "v");
        }
        return m;
    }

    private static LeaseInfo lease(int durationSecs) {
        return new LeaseInfo(5, durationSecs, 0, 0, 0, 0);
    }

    @Test
    void theInstancesEstimatedHeapIsCappedAndAReRegistrationThatDoesNotGrowAlwaysPasses() {
        long one = InstanceWeight.of(small("A", "i-1").build());
        LimitsConfig d = LimitsConfig.DEFAULT;
        InstanceRegistry capped = new InstanceRegistry(clock, Duration.ofMinutes(3), new LimitsConfig(
                d.maxFieldLength(), d.maxUrlLength(), d.maxMetadataEntries(), d.maxMetadataBytes(), 1, 3600, 100, 100,
                3 * one + one / 2));
        for (int i = 1; i <= 3; i++) {
            capped.register(small("A", "i-" + i).build(), Origin.CLIENT);
        }
        assertThatThrownBy(() -> capped.register(small("A", "i-4").build(), Origin.CLIENT))
                .isInstanceOf(RegistryFullException.class).hasMessageContaining("eureka.server.maxRegistryHeapPercent");
        assertThat(capped.refusals(Refusal.MAX_REGISTRY_BYTES)).isEqualTo(1);
        capped.register(small("A", "i-2").status(io.muster.model.InstanceStatus.DOWN).build(), Origin.CLIENT);
        assertThatThrownBy(() -> capped.register(small("A", "i-3").metadata(Map.of("k", "v".repeat(500))).build(),
                Origin.CLIENT)).as("growing counts like a new instance").isInstanceOf(RegistryFullException.class);
        assertThat(capped.views().instance("A", "i-3").orElseThrow().metadata()).isEmpty();
        capped.cancel("A", "i-1", Origin.CLIENT);
        capped.register(small("A", "i-4").build(), Origin.CLIENT);
        assertThat(capped.size()).isEqualTo(3);
    }

    @Test
    void theWeightEstimateFollowsTheText() {
        long ordinary = InstanceWeight.of(Instances.sample("ORDERS", "10.0.0.7:orders:8080").build());
        assertThat(ordinary).as("an ordinary instance").isBetween(1_200L, 4_000L);
        long bigger = InstanceWeight.of(Instances.sample("ORDERS", "10.0.0.7:orders:8080")
                .metadata(Map.of("k", "v".repeat(1000))).build());
        assertThat(bigger - ordinary).isGreaterThanOrEqualTo(1000);
    }

    /** A registry capped at ten ordinary instances' heap, with the default shares of it per app and per client. */
    private InstanceRegistry sharedBetween(long one) {
        LimitsConfig d = LimitsConfig.DEFAULT;
        return new InstanceRegistry(clock, Duration.ofMinutes(3), new LimitsConfig(d.maxFieldLength(),
                d.maxUrlLength(), d.maxMetadataEntries(), d.maxMetadataBytes(), 1, 3600, 1000, 1000, 10 * one,
                LimitsConfig.DEFAULT_APP_HEAP_PERCENT, LimitsConfig.DEFAULT_CLIENT_HEAP_PERCENT));
    }

    @Test
    void oneClientAddressFillingTheRegistryLeavesRoomForEveryOtherClient() {
        long one = InstanceWeight.of(small("A", "i-0").build());
        InstanceRegistry shared = sharedBetween(one);
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            try {
                shared.register(small("JUNK" + i, "j-" + i).build(), "10.6.6.6");
                admitted++;
            } catch (RegistryFullException e) {
                assertThat(e.getMessage()).contains("10.6.6.6").contains("eureka.server.maxClientHeapPercent");
                assertThat(e.reason()).isEqualTo(Refusal.MAX_CLIENT_BYTES);
            }
        }
        assertThat(admitted).as("a quarter of the budget").isEqualTo(2);
        for (int i = 0; i < 6; i++) {
            shared.register(small("LEGIT" + i, "l-" + i).build(), "10.0.0." + i);
        }
        assertThat(shared.size()).isEqualTo(8);
        shared.register(small("JUNK0", "j-0").status(io.muster.model.InstanceStatus.DOWN).build(), "10.6.6.6");
        shared.cancel("JUNK0", "j-0", Origin.CLIENT);
        shared.register(small("JUNK9", "j-9").build(), "10.6.6.6");
        assertThat(shared.size()).as("a cancel gives the share back").isEqualTo(8);
    }

    @Test
    void oneApplicationMayTakeHalfTheRegistryWhoeverRegistersIt() {
        long one = InstanceWeight.of(small("BIG", "b-0").build());
        InstanceRegistry shared = sharedBetween(one);
        for (int i = 0; i < 5; i++) {
            shared.register(small("BIG", "b-" + i).build(), "10.0.1." + i);
        }
        assertThatThrownBy(() -> shared.register(small("BIG", "b-5").build(), "10.0.1.9"))
                .isInstanceOf(RegistryFullException.class).hasMessageContaining("eureka.server.maxAppHeapPercent");
        assertThat(shared.refusals(Refusal.MAX_APP_BYTES)).isEqualTo(1);
        shared.register(small("BIG", "b-5").build(), Origin.PEER);
        assertThat(shared.size()).as("a peer's write is counted, never refused").isEqualTo(6);
        shared.register(small("OTHER", "o-1").build(), "10.0.2.1");
        assertThat(shared.views().instance("OTHER", "o-1")).isPresent();
    }
}
