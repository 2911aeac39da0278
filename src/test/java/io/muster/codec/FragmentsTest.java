package io.muster.codec;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FragmentCodec} must write exactly what {@link EurekaCodec} writes (the reference encoder, checked against
 * the golden files and the Netflix codecs elsewhere), for every payload kind, format and detail, and keep doing so
 * as instances renew, change and come back.
 */
class FragmentsTest {
    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    private final FragmentCodec codec = new FragmentCodec(now::get);

    @Test
    void theGoldenRegistryIsByteIdentical() {
        assertSame(WireFixtures.registry());
    }

    @Test
    void variedRegistriesAreByteIdenticalInEveryFormAndStayIdenticalAsLeasesAndInstancesChange() {
        Random random = new Random(14);
        List<InstanceInfo> instances = new ArrayList<>();
        for (int n = 0; n < 300; n++) {
            instances.add(varied(random, n));
        }
        for (int round = 0; round < 6; round++) {
            assertSame(group(instances, 1));
            assertSame(group(instances, -1));
            for (Application app : group(instances, 7).applications()) {
                for (WireFormat f : WireFormat.values()) {
                    for (Detail d : Detail.values()) {
                        assertThat(codec.encode(f, app, d)).isEqualTo(EurekaCodec.encode(f, app, d));
                    }
                }
            }
            // a renewal changes only the lease; a re-registration changes the rest; some stay as they were
            for (int n = 0; n < instances.size(); n++) {
                InstanceInfo i = instances.get(n);
                LeaseInfo l = i.leaseInfo();
                switch (random.nextInt(3)) {
                    case 0 -> instances.set(n, i.withLeaseInfo(new LeaseInfo(l.renewalIntervalInSecs(),
                            l.durationInSecs(), l.registrationTimestamp(), l.lastRenewalTimestamp() + 3000,
                            l.evictionTimestamp(), l.serviceUpTimestamp())));
                    case 1 -> instances.set(n, varied(random, n));
                    default -> { }
                }
            }
            now.addAndGet(7_000);   // sweeps run in between
        }
        assertThat(codec.size()).isLessThanOrEqualTo(4 * 2 * instances.size());
    }

    @Test
    void metadataInAnotherOrderIsAnotherFragment() {
        Map<String, String> ab = new LinkedHashMap<>();
        ab.put("a", "1");
        ab.put("b", "2");
        Map<String, String> ba = new LinkedHashMap<>();
        ba.put("b", "2");
        ba.put("a", "1");
        InstanceInfo first = WireFixtures.orders1().toBuilder().metadata(ab).build();
        InstanceInfo second = WireFixtures.orders1().toBuilder().metadata(ba).build();
        assertSame(new Applications(1, "UP_1_", List.of(new Application("ORDERS", List.of(first)))));
        assertSame(new Applications(1, "UP_1_", List.of(new Application("ORDERS", List.of(second)))));
    }

    @Test
    void unusedFragmentsAreDroppedBySweeps() {
        Applications apps = WireFixtures.registry();
        codec.encode(WireFormat.JSON, apps, Detail.FULL);
        assertThat(codec.size()).isEqualTo(3);
        now.addAndGet(FragmentCodec.SWEEP_MILLIS);
        codec.encode(WireFormat.JSON, new Applications(1, "", List.of()), Detail.FULL);
        assertThat(codec.size()).as("used since the previous sweep").isEqualTo(3);
        now.addAndGet(FragmentCodec.SWEEP_MILLIS);
        codec.encode(WireFormat.JSON, new Applications(1, "", List.of()), Detail.FULL);
        assertThat(codec.size()).isZero();
    }

    @Test
    void aSweepWithoutAnEncodeDropsTheFragmentsOfInstancesNoPayloadUsesAnyMore() {
        codec.encode(WireFormat.JSON, WireFixtures.registry(), Detail.FULL);
        codec.encode(WireFormat.XML, WireFixtures.registry(), Detail.COMPACT);
        assertThat(codec.size()).isEqualTo(6);
        codec.sweep();
        assertThat(codec.size()).as("no sweep is due yet").isEqualTo(6);
        now.addAndGet(FragmentCodec.SWEEP_MILLIS);
        codec.sweep();
        assertThat(codec.size()).as("used since the previous sweep").isEqualTo(6);
        now.addAndGet(FragmentCodec.SWEEP_MILLIS);
        codec.sweep();
        assertThat(codec.size()).as("every application departed, nothing encoded since").isZero();
    }

    @Test
    void theKeyAccountsForEveryInstanceComponent() {
        // a component added to InstanceInfo must be added to InstanceKey, or two instances differing only in it
        // would share a fragment
        assertThat(InstanceInfo.class.getRecordComponents()).hasSize(InstanceKey.COMPONENTS);
    }

    private void assertSame(Applications apps) {
        for (WireFormat f : WireFormat.values()) {
            for (Detail d : Detail.values()) {
                byte[] expected = EurekaCodec.encode(f, apps, d);
                byte[] actual = codec.encode(f, apps, d);
                assertThat(new String(actual, StandardCharsets.UTF_8)).as(f + " " + d)
                        .isEqualTo(new String(expected, StandardCharsets.UTF_8));
                assertThat(actual).isEqualTo(expected);
            }
        }
    }

    private static Applications group(List<InstanceInfo> instances, int version) {
        Map<String, List<InstanceInfo>> byApp = new LinkedHashMap<>();
        for (InstanceInfo i : instances) {
            byApp.computeIfAbsent(i.app(), a -> new ArrayList<>()).add(i);
        }
        List<Application> apps = new ArrayList<>();
        byApp.forEach((name, list) -> apps.add(new Application(name, list)));
        return new Applications(version, "UP_" + instances.size() + "_", apps);
    }

    private static final String[] ODD = {"plain", "ünïcødé", "日本語", "emoji 😀", "<&>\"'", "tab\there", "cr\r\nlf",
            "back\\slash", "ctl\u0001", "", "a]b[c", "\"quoted\""};

    private static InstanceInfo varied(Random r, int n) {
        String app = "APP-" + (n % 9) + (n % 4 == 0 ? ODD[n % ODD.length] : "");
        Map<String, String> metadata = new LinkedHashMap<>();
        for (int k = 0; k < r.nextInt(4); k++) {
            metadata.put(k == 2 ? "zone_name$" : "key" + k, ODD[r.nextInt(ODD.length)]);
        }
        DataCenterInfo dc = switch (r.nextInt(4)) {
            case 0 -> null;
            case 1 -> DataCenterInfo.MY_OWN;
            case 2 -> new DataCenterInfo("Netflix", Map.of());
            default -> {
                Map<String, String> aws = new LinkedHashMap<>();
                aws.put("instance-id", "i-" + n);
                aws.put("availability-zone", "eu-west-1" + (char) ('a' + r.nextInt(3)));
                aws.put("ami-id", "ami-" + r.nextInt(9));
                aws.put("public-hostname", "ec2-" + n + ".example");
                yield new DataCenterInfo("Amazon", aws);
            }
        };
        long t = 1_700_000_000_000L + r.nextInt(1_000_000);
        return InstanceInfo.builder().instanceId(r.nextInt(5) == 0 ? null : "host-" + n + ":" + app + ":8080")
                .hostName("host-" + n + ODD[r.nextInt(ODD.length)]).app(app).ipAddr("10.0." + (n / 250) + "." + n % 250)
                .sid(r.nextBoolean() ? "na" : "s-" + n)
                .status(InstanceStatus.values()[r.nextInt(InstanceStatus.values().length)])
                .overriddenStatus(r.nextBoolean() ? InstanceStatus.UNKNOWN : InstanceStatus.OUT_OF_SERVICE)
                .port(new PortInfo(8000 + n, r.nextBoolean())).securePort(new PortInfo(443, r.nextBoolean()))
                .countryId(r.nextInt(3)).dataCenterInfo(dc)
                .leaseInfo(new LeaseInfo(30, 90, t, t + r.nextInt(90_000), r.nextInt(3) == 0 ? t + 1 : 0,
                        r.nextBoolean() ? t : 0))
                .metadata(metadata).appGroupName(r.nextBoolean() ? null : "group")
                .homePageUrl("http://h:" + n + "/").statusPageUrl(r.nextBoolean() ? null : "http://h/info")
                .healthCheckUrl("http://h/health").secureHealthCheckUrl(r.nextBoolean() ? null : "https://h/health")
                .vipAddress(r.nextBoolean() ? null : "vip-" + (n % 5) + ",other")
                .secureVipAddress(r.nextBoolean() ? null : "svip")
                .isCoordinatingDiscoveryServer(r.nextInt(10) == 0)
                .lastUpdatedTimestamp(t).lastDirtyTimestamp(t - r.nextInt(1000))
                .actionType(ActionType.values()[r.nextInt(ActionType.values().length)])
                .asgName(r.nextBoolean() ? null : "asg-" + ODD[r.nextInt(ODD.length)]).build();
    }
}
