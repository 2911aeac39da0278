package io.muster.model;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text that an application's instances repeat is held once however many instances repeat it, and metadata keeps
 * the order a client registered it in: two instances decoded apart (equal strings, distinct objects) share the
 * application and VIP names, the data-centre name and their metadata's keys and values.
 */
class SharedTextTest {

    @Test
    void instancesDecodedApartShareTheTextTheyRepeat() {
        InstanceInfo a = decoded("10.0.0.1");
        InstanceInfo b = decoded("10.0.0.2");
        assertThat(a.app()).isEqualTo(b.app()).isSameAs(b.app());
        assertThat(a.vipAddress()).isSameAs(b.vipAddress());
        assertThat(a.secureVipAddress()).isSameAs(b.secureVipAddress());
        assertThat(a.appGroupName()).isSameAs(b.appGroupName());
        assertThat(a.dataCenterInfo().name()).isSameAs(b.dataCenterInfo().name());
        String keyA = a.metadata().keySet().iterator().next();
        String keyB = b.metadata().keySet().iterator().next();
        assertThat(keyA).isSameAs(keyB);
        assertThat(a.metadata().get("management.port")).isSameAs(b.metadata().get("management.port"));
        assertThat(a.hostName()).as("a host name equal to the address is that string").isSameAs(a.ipAddr());
        assertThat(a.ipAddr()).isNotEqualTo(b.ipAddr());
    }

    @Test
    void metadataKeepsItsOrderAndAnswersAsAMap() {
        Map<String, String> sent = new LinkedHashMap<>();
        for (String k : List.of("zone", "management.port", "version", "a", "instance-note")) {
            sent.put(fresh(k), fresh(k + "-value"));
        }
        Map<String, String> kept = decoded("10.0.0.3").toBuilder().metadata(sent).build().metadata();
        assertThat(List.copyOf(kept.keySet())).containsExactly("zone", "management.port", "version", "a",
                "instance-note");
        assertThat(kept).isEqualTo(sent).hasSameHashCodeAs(sent);
        assertThat(kept.get("version")).isEqualTo("version-value");
        assertThat(kept.containsKey("missing")).isFalse();
        assertThat(kept.get("missing")).isNull();
        assertThat(kept).hasSize(5);
        assertThat(decoded("10.0.0.4").toBuilder().metadata(kept).build().metadata()).as("copies share it")
                .isSameAs(kept);
    }

    /** As a decoder builds it: every string a new object. */
    private static InstanceInfo decoded(String ip) {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put(fresh("management.port"), fresh("8080"));
        return InstanceInfo.builder().instanceId(fresh(ip + ":orders:8080")).hostName(fresh(ip)).ipAddr(fresh(ip))
                .app(fresh("ORDERS")).appGroupName(fresh("SHOP")).vipAddress(fresh("orders"))
                .secureVipAddress(fresh("orders")).dataCenterInfo(new DataCenterInfo(fresh("MyOwn"), Map.of()))
                .metadata(metadata).build();
    }

    private static String fresh(String s) {
        return new String(s.toCharArray());
    }
}
