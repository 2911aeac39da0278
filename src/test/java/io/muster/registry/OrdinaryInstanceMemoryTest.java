package io.muster.registry;

import io.muster.testing.Heap;
import io.muster.cache.CacheKey;
import io.muster.cache.ResponseCache;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.config.ServerConfig.ResponseCacheConfig;
import io.muster.model.InstanceInfo;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an ordinary instance really costs the heap, all included: 20,000 Spring Cloud registrations decoded as the
 * server decodes them, held by the registry, with the full registry and the delta that every client polls kept
 * built and compressed. It stays within the weight the registry's heap cap counts for it, within the budget
 * that puts a million such instances in a 4 GB heap at the default cap (60 %: 2,577 bytes each), and within
 * issue 28's 2 KB. The figure is printed; docs/benchmark.md has the same measured on Tomcat.
 */
class OrdinaryInstanceMemoryTest {
    private static final int INSTANCES = 20_000;
    /** Issue 28's budget for an ordinary instance, all included. */
    private static final long ABOUT_TWO_KB = 2_048;
    private static final long MILLION_IN_FOUR_GB = (long) (0.60 * 4L * 1024 * 1024 * 1024) / 1_000_000;

    @Test
    void anOrdinaryInstanceWithTheKeptPayloadsCostsNoMoreThanItsWeightOrAMillionthOfFourGigabytesCapped() {
        MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
        long before = Heap.usedAfterGc();
        InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
        ResponseCache cache = new ResponseCache(registry,
                new ResponseCacheConfig(true, Duration.ofMillis(500), Duration.ofSeconds(180), 100), clock);
        registry.addListener(cache);
        InstanceInfo sample = null;
        for (int i = 0; i < INSTANCES; i++) {
            sample = EurekaCodec.decodeInstance(WireFormat.JSON, springClient(i).getBytes(StandardCharsets.UTF_8),
                    clock.millis());
            registry.register(sample, Origin.CLIENT);
        }
        cache.refreshReadOnly(true);   // the shapes clients poll, built and compressed as the refresher keeps them
        for (CacheKey key : ResponseCache.CLIENT_DEFAULTS) {
            assertThat(cache.gzipped(key, cache.get(key)).length).isGreaterThan(INSTANCES * 20);
        }
        long perInstance = (Heap.usedAfterGc() - before) / INSTANCES;
        long weight = InstanceWeight.of(sample);
        System.out.printf("an ordinary instance: %d bytes of heap with the kept payloads, weighed %d by the cap%n",
                perInstance, weight);
        assertThat(perInstance).as("bytes per instance, all included").isLessThanOrEqualTo(weight)
                .isLessThan(MILLION_IN_FOUR_GB).isLessThanOrEqualTo(ABOUT_TWO_KB);
        assertThat(weight).as("the cap's weight of it").isLessThan(MILLION_IN_FOUR_GB);
        assertThat(registry.size()).isEqualTo(INSTANCES);   // both reachable until measured
        assertThat(cache.stats().builds()).isPositive();
    }

    /** What a Spring Cloud Netflix client registers (prefer-ip-address), as bench/LoadTool sends it. */
    private static String springClient(int i) {
        String host = "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255);
        String app = "BENCH-APP-" + (i % 1_000);
        String vip = app.toLowerCase();
        return "{\"instance\":{\"instanceId\":\"" + host + ":" + vip + ":8080\",\"hostName\":\"" + host
                + "\",\"app\":\"" + app + "\",\"ipAddr\":\"" + host + "\",\"status\":\"UP\",\"overriddenStatus\":"
                + "\"UNKNOWN\",\"port\":{\"$\":8080,\"@enabled\":\"true\"},\"securePort\":{\"$\":443,\"@enabled\":"
                + "\"false\"},\"countryId\":1,\"dataCenterInfo\":{\"@class\":"
                + "\"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo\",\"name\":\"MyOwn\"},\"leaseInfo\":{"
                + "\"renewalIntervalInSecs\":30,\"durationInSecs\":90,\"registrationTimestamp\":0,"
                + "\"lastRenewalTimestamp\":0,\"evictionTimestamp\":0,\"serviceUpTimestamp\":0},\"metadata\":{"
                + "\"management.port\":\"8080\",\"zone\":\"zone-a\"},\"homePageUrl\":\"http://" + host + ":8080/\","
                + "\"statusPageUrl\":\"http://" + host + ":8080/actuator/info\",\"healthCheckUrl\":\"http://" + host
                + ":8080/actuator/health\",\"vipAddress\":\"" + vip + "\",\"secureVipAddress\":\"" + vip
                + "\",\"isCoordinatingDiscoveryServer\":\"false\",\"lastUpdatedTimestamp\":\"1700000000000\","
                + "\"lastDirtyTimestamp\":\"1700000000000\"}}";
    }

}
