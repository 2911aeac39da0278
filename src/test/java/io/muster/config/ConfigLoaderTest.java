package io.muster.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {
    @Test
    void defaultsAreEurekasExceptTheFreshCache() {
        ServerConfig c = ConfigLoader.load(List.of());
        assertThat(c.selfPreservation().enabled()).isTrue();
        assertThat(c.selfPreservation().renewalPercentThreshold()).isEqualTo(0.85);
        assertThat(c.eviction().interval()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.responseCache().updateInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.delta().retention()).isEqualTo(Duration.ofMinutes(3));
        assertThat(c.startup().waitWhenSyncEmpty()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void netflixSpringAndEnvironmentSpellingsAllWorkAndLaterLayersWin() {
        ServerConfig c = ConfigLoader.load(List.of(
                Map.of("eureka.enableSelfPreservation", "false", "eureka.evictionIntervalTimerInMs", "1000"),
                Map.of("eureka.server.eviction-interval-timer-in-ms", "2000",
                        "eureka.server.shouldUseReadOnlyResponseCache", "false"),
                Map.of(ConfigLoader.keyOfEnvironmentVariable("EUREKA_SERVER_RESPONSECACHEUPDATEINTERVALMS"), "30000",
                        "eureka.client.serviceUrl.defaultZone", "http://a:8761/eureka/, http://b:8761/eureka/")));
        assertThat(c.selfPreservation().enabled()).isFalse();
        assertThat(c.eviction().interval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.responseCache().useReadOnlyCache()).isFalse();
        assertThat(c.responseCache().updateInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.peers().serviceUrls()).containsExactly("http://a:8761/eureka/", "http://b:8761/eureka/");
    }

    @Test
    void everyBadKeyIsNamedInOneError() {
        assertThatThrownBy(() -> ConfigLoader.load(List.of(Map.of(
                "eureka.server.enableSelfPreservation", "yes",
                "eureka.server.renewalPercentThreshold", "1.5",
                "eureka.server.evictionIntervalTimerInMs", "-1"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("eureka.server.enableSelfPreservation=yes")
                .hasMessageContaining("eureka.server.renewalPercentThreshold=1.5")
                .hasMessageContaining("eureka.server.evictionIntervalTimerInMs=-1");
    }
}
