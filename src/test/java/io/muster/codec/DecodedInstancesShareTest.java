package io.muster.codec;

import io.muster.model.InstanceInfo;
import io.muster.testing.Http;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two registrations decoded apart, in either wire format, share the values instances repeat: ports, a plain
 * {@code MyOwn} data centre and the names and metadata text of {@code SharedTextTest}. What the registry holds per
 * instance is then its own text and little else.
 */
class DecodedInstancesShareTest {

    @Test
    void portsDataCentreAndRepeatedTextAreSharedBetweenDecodedInstances() {
        for (WireFormat format : WireFormat.values()) {
            InstanceInfo a = decode(format, "o-1");
            InstanceInfo b = decode(format, "o-2");
            assertThat(a.id()).isNotEqualTo(b.id());
            assertThat(a.port()).as(format + " port").isSameAs(b.port());
            assertThat(a.securePort()).isSameAs(b.securePort());
            assertThat(a.dataCenterInfo()).isSameAs(b.dataCenterInfo());
            assertThat(a.app()).isSameAs(b.app());
            assertThat(a.vipAddress()).isSameAs(b.vipAddress());
            assertThat(a.metadata().get("management.port")).isSameAs(b.metadata().get("management.port"));
            assertThat(a.metadata()).as(format + " metadata, held once").isSameAs(b.metadata());
            assertThat(a.leaseInfo()).isSameAs(b.leaseInfo());
            assertThat(a.port().port()).isEqualTo(8080);
            assertThat(a.securePort().enabled()).isFalse();
        }
    }

    /** Settings other than Eureka's defaults are shared too, as long as they carry no timestamps. */
    @Test
    void aLeaseOtherThanTheDefaultIsSharedWhileItHasNoTimestamps() {
        InstanceInfo a = decode(WireFormat.JSON, "l-1", "\"durationInSecs\":90", "\"durationInSecs\":1800");
        InstanceInfo b = decode(WireFormat.JSON, "l-2", "\"durationInSecs\":90", "\"durationInSecs\":1800");
        assertThat(a.leaseInfo().durationInSecs()).isEqualTo(1800);
        assertThat(a.leaseInfo()).isSameAs(b.leaseInfo());
        InstanceInfo dated = decode(WireFormat.JSON, "l-3", "\"durationInSecs\":90",
                "\"durationInSecs\":1800,\"registrationTimestamp\":5");
        assertThat(dated.leaseInfo()).isNotSameAs(a.leaseInfo()).isNotEqualTo(a.leaseInfo());
    }

    /**
     * Metadata with the same entries in another order is equal as a map but is echoed to clients in the order the
     * instance registered it: each order is its own copy.
     */
    @Test
    void metadataIsSharedOnlyWithTheSameEntriesInTheSameOrder() {
        String ab = "\"metadata\":{\"zone\":\"z1\",\"rack\":\"r1\"}";
        String ba = "\"metadata\":{\"rack\":\"r1\",\"zone\":\"z1\"}";
        String original = "\"metadata\":{\"management.port\":\"8080\"}";
        InstanceInfo first = decode(WireFormat.JSON, "m-1", original, ab);
        InstanceInfo second = decode(WireFormat.JSON, "m-2", original, ba);
        InstanceInfo third = decode(WireFormat.JSON, "m-3", original, ab);
        assertThat(first.metadata()).isEqualTo(second.metadata()).isSameAs(third.metadata());
        assertThat(second.metadata()).isNotSameAs(first.metadata());
        assertThat(first.metadata().keySet()).containsExactly("zone", "rack");
        assertThat(second.metadata().keySet()).containsExactly("rack", "zone");
        assertThat(new String(EurekaCodec.encode(WireFormat.JSON, second), StandardCharsets.UTF_8))
                .contains(ba.replace("\"metadata\":", ""));
    }

    private static InstanceInfo decode(WireFormat format, String id, String replaced, String by) {
        String json = Http.instanceJson("ORDERS", id, "UP", 1_000);
        assertThat(json).contains(replaced);
        return EurekaCodec.decodeInstance(format, json.replace(replaced, by).getBytes(StandardCharsets.UTF_8), 2_000);
    }

    private static InstanceInfo decode(WireFormat format, String id) {
        InstanceInfo json = EurekaCodec.decodeInstance(WireFormat.JSON,
                Http.instanceJson("ORDERS", id, "UP", 1_000).getBytes(StandardCharsets.UTF_8), 2_000);
        if (format == WireFormat.JSON) {
            return json;
        }
        return EurekaCodec.decodeInstance(WireFormat.XML, EurekaCodec.encode(WireFormat.XML, json), 2_000);
    }
}
