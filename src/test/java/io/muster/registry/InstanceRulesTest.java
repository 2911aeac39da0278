package io.muster.registry;

import com.netflix.discovery.converters.wrappers.CodecWrappers;
import io.muster.codec.Detail;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.PortInfo;
import io.muster.testing.Instances;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The findings of issue 12 and the other rules, at the registry: refused with a one-line reason, nothing changed. */
class InstanceRulesTest {
    private final InstanceRegistry registry = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3));

    private void refused(InstanceInfo bad, String reason) {
        long sequence = registry.sequence();
        Applications before = registry.views().snapshot().applications();
        assertThatThrownBy(() -> registry.register(bad, Origin.CLIENT))
                .isInstanceOf(InvalidInstanceException.class).hasMessageContaining(reason)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "\r"));
        assertThatThrownBy(() -> registry.register(bad, Origin.PEER)).as("peer origin too")
                .isInstanceOf(InvalidInstanceException.class);
        assertThat(registry.sequence()).isEqualTo(sequence);
        assertThat(registry.views().snapshot().applications()).isEqualTo(before);
    }

    /** What a Netflix client sees: the full registry must decode in both formats. */
    private com.netflix.discovery.shared.Applications netflixView() throws Exception {
        Applications ours = registry.views().snapshot().applications();
        String json = new String(EurekaCodec.encode(WireFormat.JSON, ours, Detail.FULL), StandardCharsets.UTF_8);
        String xml = new String(EurekaCodec.encode(WireFormat.XML, ours, Detail.FULL), StandardCharsets.UTF_8);
        CodecWrappers.getCodec(CodecWrappers.XStreamXml.class)
                .decode(xml, com.netflix.discovery.shared.Applications.class);
        return CodecWrappers.getCodec(CodecWrappers.JacksonJson.class)
                .decode(json, com.netflix.discovery.shared.Applications.class);
    }

    @Test
    void finding1UnknownDataCenterNameIsRefusedAndJavaClientsKeepDecoding() throws Exception {
        registry.register(Instances.up("X", "good"), Origin.CLIENT);
        refused(Instances.sample("X", "x-1").dataCenterInfo(new DataCenterInfo("Nope", Map.of())).build(),
                "dataCenterInfo name \"Nope\" is not one of MyOwn, Amazon, Netflix");
        refused(Instances.sample("X", "x-1").dataCenterInfo(new DataCenterInfo("myown", Map.of())).build(),
                "dataCenterInfo name");
        assertThat(netflixView().getRegisteredApplications("X").getInstancesAsIsFromEureka()).hasSize(1);
        for (String name : new String[]{"MyOwn", "Amazon", "Netflix"}) {
            registry.register(Instances.sample("X", name).dataCenterInfo(new DataCenterInfo(name, Map.of())).build(),
                    Origin.CLIENT);
        }
        assertThat(netflixView().getRegisteredApplications("X").getInstancesAsIsFromEureka()).hasSize(4);
    }

    @Test
    void finding2MetadataKeysThatAreNotPlainXmlNamesAreRefused() throws Exception {
        registry.register(Instances.up("APPA", "a1"), Origin.CLIENT);
        long sequence = registry.sequence();
        for (String key : new String[]{"@class", "--><application><name>PAYMENTS</name><instance>", "a:b", "a b",
                "1st", "-x", ".x", "", "é", "a<b", "x\u0000"}) {
            assertThatThrownBy(() -> registry.updateMetadata("APPA", "a1", Map.of(key, "evil")))
                    .as(key).isInstanceOf(InvalidInstanceException.class).hasMessageContaining("key");
        }
        assertThat(registry.sequence()).isEqualTo(sequence);
        assertThat(registry.views().instance("APPA", "a1").orElseThrow().metadata()).isEqualTo(Map.of("zone", "z1"));
        registry.updateMetadata("APPA", "a1", Map.of("management.port", "8081", "_x", "1", "$d", "2", "a-b", "<&>"));
        assertThat(netflixView().getRegisteredApplications("APPA").getByInstanceId("a1").getMetadata())
                .containsEntry("$d", "2").containsEntry("a-b", "<&>").containsEntry("_x", "1");
    }

    @Test
    void requiredFieldsKeepEurekasMessages() {
        refused(Instances.sample("A", null).hostName(null).build(), "Missing instanceId");
        refused(Instances.sample("A", "i").hostName(" ").build(), "Missing hostname");
        refused(Instances.sample("A", "i").ipAddr(null).build(), "Missing ip address");
        refused(Instances.sample("A", "i").app(null).build(), "Missing appName");
        refused(Instances.sample("A", "i").dataCenterInfo(null).build(), "Missing dataCenterInfo");
        refused(Instances.sample("A", "i").dataCenterInfo(new DataCenterInfo(" ", Map.of())).build(),
                "Missing dataCenterInfo Name");
    }

    @Test
    void valuesClientsCannotReadBackAreRefused() {
        refused(Instances.sample("A", "i").port(new PortInfo(65536, true)).build(), "port 65536 is not in 0-65535");
        refused(Instances.sample("A", "i").securePort(new PortInfo(-1, false)).build(), "securePort -1");
        refused(Instances.sample("a", "i").build(), "app must be upper case");
        refused(Instances.sample("A", "i").hostName("h\u0001").build(), "hostName contains a control character");
        refused(Instances.sample("A", "i").homePageUrl("http://h/\n").build(), "homePageUrl contains a control");
        refused(Instances.sample("A", "i").metadata(Map.of("k", "lone\uD800")).build(),
                "contains a character XML cannot carry (U+D800)");
        refused(Instances.sample("A", "i").metadata(Map.of("k", "\uFFFE")).build(), "U+FFFE");
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("k", null);
        refused(Instances.sample("A", "i").metadata(nullValue).build(), "value of k is null");
        refused(Instances.sample("A", "i").dataCenterInfo(new DataCenterInfo("Amazon", Map.of("a:b", "x"))).build(),
                "dataCenterInfo.metadata key");
        registry.register(Instances.sample("A", "ok").metadata(Map.of("k", "tab\t, line\n, cr\r, é日😀 <&>"))
                .build(), Origin.CLIENT);
        assertThat(registry.views().instance("A", "ok")).isPresent();
    }

    @Test
    void finding4OversizedWritesAreRefusedWithTheLimitNamed() {
        refused(Instances.sample("A", "i").hostName("h".repeat(1_000_000)).build(),
                "hostName longer than 256 characters (eureka.server.maxFieldLength)");
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 10_000; i++) {
            many.put("k" + i, "v");
        }
        refused(Instances.sample("A", "i").metadata(many).build(),
                "metadata has more than 64 entries (eureka.server.maxMetadataEntries)");
        refused(Instances.sample("A", "i").leaseInfo(new io.muster.model.LeaseInfo(30, Integer.MAX_VALUE, 0, 0, 0, 0))
                .build(), "leaseInfo.durationInSecs 2147483647 is not in 1-3600");
        assertThat(registry.refusals(Refusal.FIELD_LENGTH)).isEqualTo(2);   // client and peer origin
    }

    @Test
    void theRefusedLeaseDurationIsWhatADecodedHugeValueBecomes() {
        String body = """
                {"instance":{"instanceId":"i","hostName":"h","app":"A","ipAddr":"10.0.0.1",
                "dataCenterInfo":{"@class":"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo","name":"MyOwn"},
                "leaseInfo":{"durationInSecs":99999999999999}}}""";
        InstanceInfo decoded = EurekaCodec.decodeInstance(WireFormat.JSON, body.getBytes(StandardCharsets.UTF_8), 0);
        refused(decoded, "eureka.server.maxLeaseDurationSeconds");
        assertThatThrownBy(() -> EurekaCodec.decodeInstance(WireFormat.JSON,
                body.replace("99999999999999", "-99999999999999").getBytes(StandardCharsets.UTF_8), 0))
                .as("neither a wrapped int nor silently Eureka's default (issue 22)")
                .isInstanceOf(io.muster.codec.WireFormatException.class)
                .hasMessage("leaseInfo.durationInSecs -99999999999999 is not a positive number of seconds");
    }

    /** Issue 22 item 6: every endpoint that addresses an instance takes its app and id as one path segment. */
    @Test
    void idsAndAppNamesThatCannotBeOnePathSegmentAreRefused() {
        for (String id : new String[]{"a/b", "a\\b", ".", "..", "x/../../peerreplication/batch", "a%2Fb", "100%",
                "a;jsessionid=1", "a?b", "a#b", "é", "日", "a\uD83D\uDE00"}) {
            refused(Instances.sample("A", id).build(), "URL path segment");
        }
        refused(Instances.sample("A", "i").instanceId(null).hostName("..").build(), "instance id \"..\"");
        for (String app : new String[]{"A/B", "A\\B", ".", "..", "A%B", "A;B", "A?B", "A#B", "É"}) {
            refused(Instances.sample(app, "i").build(), "app \"" + app + "\"");
        }
        refused(Instances.sample("A", "a\tb").build(), "control character");
        for (String id : new String[]{"10.0.0.1:spring-app:8080", "host-1.example.com", "i-0123456789abcdef0", "...",
                ".hidden", "a+b@c~d!e$f'g(h)*,=", "x y", "~"}) {
            registry.register(Instances.sample("OK.APP", id).build(), Origin.CLIENT);
            assertThat(registry.views().instance("OK.APP", id)).as(id).isPresent();
        }
    }

    /** Issue 22 item 8: a stamp the registry can order against every later one, and no overflow past it. */
    @Test
    void dirtyTimestampsFarAheadOrNegativeAreRefused() {
        long now = System.currentTimeMillis();
        long day = Duration.ofDays(1).toMillis();
        for (long stamp : new long[]{Long.MAX_VALUE, now + day + 60_000, -1, Long.MIN_VALUE}) {
            refused(Instances.sample("A", "i").lastDirtyTimestamp(stamp).build(),
                    "lastDirtyTimestamp " + stamp + " is not in 0 .. now + 24 hours");
        }
        registry.register(Instances.sample("A", "ahead").lastDirtyTimestamp(now + 600_000).build(), Origin.CLIENT);
        registry.register(Instances.sample("A", "zero").lastDirtyTimestamp(0).build(), Origin.CLIENT);
        registry.register(Instances.sample("A", "ahead").lastDirtyTimestamp(now).build(), Origin.CLIENT);
        assertThat(registry.views().instance("A", "ahead").orElseThrow().lastDirtyTimestamp())
                .as("the owner's registration is stamped past the stored one").isEqualTo(now + 600_001);
    }

    @Test
    void theStampPastAStoredOneSaturates() {
        assertThat(DirtyTimestamps.after(41)).isEqualTo(42);
        assertThat(DirtyTimestamps.after(Long.MAX_VALUE)).as("never wraps to the oldest").isEqualTo(Long.MAX_VALUE);
        assertThat(DirtyTimestamps.orderable(0, 0)).isTrue();
        assertThat(DirtyTimestamps.orderable(Duration.ofDays(1).toMillis(), 0)).isTrue();
        assertThat(DirtyTimestamps.orderable(Duration.ofDays(1).toMillis() + 1, 0)).isFalse();
    }
}
