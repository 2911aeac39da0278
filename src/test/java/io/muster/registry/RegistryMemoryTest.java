package io.muster.registry;

import io.muster.testing.Heap;
import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bounded memory: maximum-size registrations (every field, URL and metadata map at its default limit, all distinct
 * strings) sent until the instance cap keep the registry's retained heap under 40 KB per instance: 80 MB for the
 * 2,000 here, about 0.8 GB at the default cap of 20,000 (ordinary instances take 2-3 KB). The figure is printed.
 */
class RegistryMemoryTest {
    private static final int CAP = 2_000;
    private static final long BUDGET_PER_INSTANCE = 40 * 1024;
    private static final LimitsConfig D = LimitsConfig.DEFAULT;

    @Test
    void maximumSizeRegistrationsUpToTheCapStayWithinTheStatedHeap() {
        long baseline = Heap.usedAfterGc();
        InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3),
                new LimitsConfig(D.maxFieldLength(), D.maxUrlLength(), D.maxMetadataEntries(), D.maxMetadataBytes(),
                        D.minLeaseDurationSeconds(), D.maxLeaseDurationSeconds(), CAP, CAP));
        int n = 0;
        while (true) {
            InstanceInfo biggest = biggest(n);
            try {
                registry.register(biggest, Origin.CLIENT);
            } catch (RegistryFullException full) {
                break;
            }
            n++;
        }
        assertThat(n).isEqualTo(CAP);
        assertThatThrownBy(() -> registry.register(biggest(CAP + 1).toBuilder().hostName("x".repeat(257)).build(),
                Origin.CLIENT)).as("the instance really is at the limit").isInstanceOf(InvalidInstanceException.class);
        long retained = Heap.usedAfterGc() - baseline;
        System.out.printf("%d maximum-size instances: %.1f MB retained, %.1f KB each%n", n, retained / 1e6,
                retained / 1024.0 / n);
        assertThat(retained).as("retained bytes").isLessThan(BUDGET_PER_INSTANCE * CAP);
        assertThat(registry.size()).isEqualTo(CAP);   // keeps the registry reachable until measured
    }

    /** Every string distinct (nothing shared between instances), each at its limit. */
    private static InstanceInfo biggest(int n) {
        String tag = n + "-";
        return InstanceInfo.builder().instanceId(pad("ID" + tag, D.maxFieldLength())).hostName(pad("h" + tag, 256))
                .app(pad("APP" + tag, 256).toUpperCase()).ipAddr(pad("10." + tag, 256)).sid(pad("s" + tag, 256))
                .appGroupName(pad("G" + tag, 256).toUpperCase()).vipAddress(pad("v" + tag, 256))
                .secureVipAddress(pad("sv" + tag, 256)).asgName(pad("asg" + tag, 256))
                .homePageUrl(pad("http://h/" + tag, D.maxUrlLength()))
                .statusPageUrl(pad("http://s/" + tag, D.maxUrlLength()))
                .healthCheckUrl(pad("http://c/" + tag, D.maxUrlLength()))
                .secureHealthCheckUrl(pad("https://c/" + tag, D.maxUrlLength()))
                .port(new PortInfo(8080, true)).securePort(new PortInfo(8443, true))
                .leaseInfo(new LeaseInfo(30, D.maxLeaseDurationSeconds(), 0, 0, 0, 0))
                .dataCenterInfo(new DataCenterInfo("Amazon", fullMap("a" + tag)))
                .metadata(fullMap("m" + tag)).lastDirtyTimestamp(1).build();
    }

    /** maxMetadataEntries entries whose keys and values add up to exactly maxMetadataBytes. */
    private static Map<String, String> fullMap(String tag) {
        Map<String, String> m = new LinkedHashMap<>();
        int entries = D.maxMetadataEntries();
        int perEntry = D.maxMetadataBytes() / entries;
        for (int k = 0; k < entries; k++) {
            String key = "k" + k;
            m.put(key, pad(tag + k, perEntry - key.length()));
        }
        return m;
    }

    private static String pad(String prefix, int length) {
        StringBuilder sb = new StringBuilder(length).append(prefix);
        while (sb.length() < length) {
            sb.append('x');
        }
        return sb.substring(0, length);
    }

}
