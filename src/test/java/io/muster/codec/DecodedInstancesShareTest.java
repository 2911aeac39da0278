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
            assertThat(a.port().port()).isEqualTo(8080);
            assertThat(a.securePort().enabled()).isFalse();
        }
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
