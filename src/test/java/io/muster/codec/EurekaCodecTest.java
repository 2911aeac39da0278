package io.muster.codec;

import com.netflix.discovery.converters.wrappers.CodecWrappers;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The codec against golden files under {@code src/test/resources/wire/}: it must write them byte for byte and read
 * them back, and the real Netflix client codecs must read what we write.
 * Regenerate after a deliberate format change with {@code -Dwire.regenerate=true}.
 */
class EurekaCodecTest {
    private static final long NOW = 1_800_000_000_000L;

    static byte[] golden(String name, byte[] actual) throws IOException {
        if (Boolean.getBoolean("wire.regenerate")) {
            Files.write(Path.of("src/test/resources/wire", name), actual);
        }
        try (InputStream in = EurekaCodecTest.class.getResourceAsStream("/wire/" + name)) {
            assertThat(in).as("golden file " + name).isNotNull();
            return in.readAllBytes();
        }
    }

    @ParameterizedTest
    @EnumSource(WireFormat.class)
    void fullRegistryIsWrittenExactlyAsTheGoldenFileAndReadBack(WireFormat format) throws IOException {
        String file = "apps-full." + format.name().toLowerCase();
        byte[] written = EurekaCodec.encode(format, WireFixtures.registry(), Detail.FULL);
        byte[] golden = golden(file, written);
        assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(new String(golden, StandardCharsets.UTF_8));
        assertThat(EurekaCodec.decodeApplications(format, golden, NOW)).isEqualTo(WireFixtures.registry());
    }

    @ParameterizedTest
    @EnumSource(WireFormat.class)
    void instanceIsWrittenExactlyAsTheGoldenFileAndReadBack(WireFormat format) throws IOException {
        String file = "instance." + format.name().toLowerCase();
        byte[] written = EurekaCodec.encode(format, WireFixtures.orders1());
        byte[] golden = golden(file, written);
        assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(new String(golden, StandardCharsets.UTF_8));
        assertThat(EurekaCodec.decodeInstance(format, golden, NOW)).isEqualTo(WireFixtures.orders1());
    }

    @Test
    void netflixJsonCodecReadsOurRegistry() throws IOException {
        byte[] ours = EurekaCodec.encode(WireFormat.JSON, WireFixtures.registry(), Detail.FULL);
        var apps = CodecWrappers.getCodec(CodecWrappers.LegacyJacksonJson.class)
                .decode(new String(ours, StandardCharsets.UTF_8), com.netflix.discovery.shared.Applications.class);
        assertNetflixView(apps);
    }

    @Test
    void netflixXmlCodecReadsOurRegistry() throws IOException {
        byte[] ours = EurekaCodec.encode(WireFormat.XML, WireFixtures.registry(), Detail.FULL);
        var apps = CodecWrappers.getCodec(CodecWrappers.XStreamXml.class)
                .decode(new String(ours, StandardCharsets.UTF_8), com.netflix.discovery.shared.Applications.class);
        assertNetflixView(apps);
    }

    private static void assertNetflixView(com.netflix.discovery.shared.Applications apps) {
        assertThat(apps.getAppsHashCode()).isEqualTo("DOWN_1_UP_2_");
        assertThat(apps.getReconcileHashCode()).isEqualTo("DOWN_1_UP_2_");
        var orders = apps.getRegisteredApplications("ORDERS").getByInstanceId("host-a:orders:8080");
        assertThat(orders.getPort()).isEqualTo(8080);
        assertThat(orders.isPortEnabled(com.netflix.appinfo.InstanceInfo.PortType.SECURE)).isFalse();
        assertThat(orders.getMetadata()).containsEntry("management.port", "8080").containsEntry("zone_name", "eu$1");
        assertThat(orders.getLastDirtyTimestamp()).isEqualTo(1700000000000L);
        var billing = apps.getRegisteredApplications("BILLING").getInstances().get(0);
        assertThat(billing.getId()).isEqualTo("i-0abc");
        assertThat(billing.getSecurePort()).isEqualTo(9443);
        assertThat(billing.getASGName()).isEqualTo("billing-asg");
    }

    @Test
    void netflixClientRegistrationBodyIsRead() throws IOException {
        com.netflix.appinfo.InstanceInfo netflix = com.netflix.appinfo.InstanceInfo.Builder.newBuilder()
                .setAppName("orders").setInstanceId("h:orders:8080").setHostName("h").setIPAddr("10.1.1.1")
                .setPort(8080).setSecurePort(8443).enablePort(com.netflix.appinfo.InstanceInfo.PortType.SECURE, true)
                .setDataCenterInfo(() -> com.netflix.appinfo.DataCenterInfo.Name.MyOwn)
                .add("k", "v").setVIPAddress("orders").build();
        String body = CodecWrappers.getCodec(CodecWrappers.LegacyJacksonJson.class).encode(netflix);
        InstanceInfo ours = EurekaCodec.decodeInstance(WireFormat.JSON, body.getBytes(StandardCharsets.UTF_8), NOW);
        assertThat(ours.app()).isEqualTo("ORDERS");
        assertThat(ours.id()).isEqualTo("h:orders:8080");
        assertThat(ours.securePort().port()).isEqualTo(8443);
        assertThat(ours.securePort().enabled()).isTrue();
        assertThat(ours.metadata()).containsEntry("k", "v");
        assertThat(ours.dataCenterInfo().name()).isEqualTo("MyOwn");
    }

    @Test
    void springCloudBeanStyleBodyWithNumbersAndNullsIsRead() {
        String body = """
                {"instance":{"instanceId":"h:svc:8080","app":"SVC","appGroupName":null,"ipAddr":"10.0.0.9",
                "sid":"na","homePageUrl":"http://h:8080/","statusPageUrl":null,"healthCheckUrl":null,
                "secureHealthCheckUrl":null,"vipAddress":"svc","secureVipAddress":"svc","countryId":1,
                "dataCenterInfo":{"@class":"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo","name":"MyOwn"},
                "hostName":"h","status":"UP","overriddenStatus":"UNKNOWN",
                "leaseInfo":{"renewalIntervalInSecs":30,"durationInSecs":90,"registrationTimestamp":0,
                "lastRenewalTimestamp":0,"evictionTimestamp":0,"serviceUpTimestamp":0},
                "isCoordinatingDiscoveryServer":false,"lastUpdatedTimestamp":1700000000001,
                "lastDirtyTimestamp":1700000000002,"actionType":null,"asgName":null,
                "port":{"$":8080,"@enabled":"true"},"securePort":{"$":443,"@enabled":"false"},
                "metadata":{"management.port":"8080"}}}""";
        InstanceInfo i = EurekaCodec.decodeInstance(WireFormat.JSON, body.getBytes(StandardCharsets.UTF_8), NOW);
        assertThat(i.lastDirtyTimestamp()).isEqualTo(1700000000002L);
        assertThat(i.port().port()).isEqualTo(8080);
        assertThat(i.statusPageUrl()).isNull();
        assertThat(i.actionType()).isNull();
    }

    @Test
    void eurekaJsClientBodyWithBooleanEnabledAndNoLeaseIsRead() {
        String body = """
                {"instance":{"hostName":"js-host","app":"jsapp","ipAddr":"10.0.0.10","status":"UP",
                "port":{"$":3000,"@enabled":true},"vipAddress":"jsapp",
                "dataCenterInfo":{"@class":"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo","name":"MyOwn"}}}""";
        InstanceInfo i = EurekaCodec.decodeInstance(WireFormat.JSON, body.getBytes(StandardCharsets.UTF_8), NOW);
        assertThat(i.id()).isEqualTo("js-host");
        assertThat(i.port().enabled()).isTrue();
        assertThat(i.securePort().port()).isEqualTo(7002);
        assertThat(i.securePort().enabled()).isFalse();
        assertThat(i.leaseInfo().durationInSecs()).isEqualTo(90);
        assertThat(i.lastDirtyTimestamp()).isEqualTo(NOW);
    }

    @Test
    void malformedAndTruncatedBodiesAreRejectedWithAShortMessage() {
        for (String bad : new String[]{"{", "{\"instance\":{\"app\":\"X\"", "[]", "nonsense", "{\"other\":1}",
                "{\"instance\":{\"port\":{\"$\":\"abc\"}}}", "{\"instance\":{\"port\":{\"$\":70000}}}"}) {
            assertThatThrownBy(() -> EurekaCodec.decodeInstance(WireFormat.JSON,
                    bad.getBytes(StandardCharsets.UTF_8), NOW)).as(bad).isInstanceOf(WireFormatException.class);
        }
        for (String bad : new String[]{"<instance>", "<other/>", "<instance><app>X</app></instance><x/>",
                "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><instance><app>&e;</app></instance>"}) {
            assertThatThrownBy(() -> EurekaCodec.decodeInstance(WireFormat.XML,
                    bad.getBytes(StandardCharsets.UTF_8), NOW)).as(bad).isInstanceOf(WireFormatException.class);
        }
    }

    @Test
    void compactPayloadDropsTheHeavyFields() {
        String compact = new String(EurekaCodec.encode(WireFormat.JSON, WireFixtures.registry(), Detail.COMPACT),
                StandardCharsets.UTF_8);
        assertThat(compact).doesNotContain("leaseInfo", "metadata\":{\"management", "homePageUrl", "ami-id")
                .contains("\"instance-id\":\"i-0abc\"", "\"apps__hashcode\":\"DOWN_1_UP_2_\"");
        Applications back = EurekaCodec.decodeApplications(WireFormat.JSON, compact.getBytes(StandardCharsets.UTF_8),
                NOW);
        assertThat(back.instanceCount()).isEqualTo(3);
    }
}
