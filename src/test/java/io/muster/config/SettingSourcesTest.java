package io.muster.config;

import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Each setting in effect names the layer it came from; a value one layer hides of another's is said, not silent. */
class SettingSourcesTest {
    private static ServerConfig.KeyReport keys(ConfigLayer... layers) {
        return ConfigLoader.fromLayers(List.of(layers)).keys();
    }

    @Test
    void eachSettingNamesTheLayerItsValueCameFromAndUnsetOnesTheirDefault() {
        ServerConfig.KeyReport keys = keys(
                new ConfigLayer("context parameter", Map.of("eureka.server.evictionIntervalTimerInMs", "2000")),
                new ConfigLayer("MicroProfile Config: Domain", Map.of("eureka.server.renewal-percent-threshold",
                        "0.5", "eureka.dashboard.path", "/ops")),
                new ConfigLayer("system property", Map.of("eureka.shouldUseReadOnlyResponseCache", "false")));
        assertThat(keys.sourceOf("evictionIntervalTimerInMs")).isEqualTo("context parameter");
        assertThat(keys.sourceOf("renewalPercentThreshold")).isEqualTo("MicroProfile Config: Domain");
        assertThat(keys.sourceOf("dashboard.path")).isEqualTo("MicroProfile Config: Domain");
        assertThat(keys.sourceOf("useReadOnlyResponseCache")).as("an alias is reported under the documented name")
                .isEqualTo("system property");
        assertThat(keys.sourceOf("enableSelfPreservation")).isEqualTo(ConfigLayer.DEFAULT);
        assertThat(keys.sources().keySet()).as("every source names a setting in effect")
                .isSubsetOf(keys.effective().keySet());
    }

    @Test
    void aLaterLayerOverridingAnEarlierOnesValueIsReportedWithBothSourcesAndNoValue() {
        ServerConfig.KeyReport keys = keys(
                new ConfigLayer("context parameter", Map.of("eureka.server.evictionIntervalTimerInMs", "2000",
                        "eureka.client.serviceUrl.defaultZone", "http://peer:secret@a:8761/eureka/")),
                new ConfigLayer("system property", Map.of("eureka.server.evictionIntervalTimerInMs", "5000",
                        "eureka.client.serviceUrl.defaultZone", "http://peer:other@b:8761/eureka/")),
                new ConfigLayer("environment variable", Map.of("eureka.server.evictionintervaltimerinms", "5000")));
        assertThat(keys.effective()).containsEntry("evictionIntervalTimerInMs", 5000L);
        assertThat(keys.sourceOf("evictionIntervalTimerInMs")).isEqualTo("environment variable");
        assertThat(keys.shadowed()).extracting(ServerConfig.KeyNote::key)
                .containsExactlyInAnyOrder("eureka.server.evictionIntervalTimerInMs",
                        "eureka.client.serviceUrl.defaultZone");
        assertThat(keys.shadowed().toString()).contains("set in system property, which overrides what context"
                + " parameter gives").as("a URL may carry credentials").doesNotContain("secret", "other");
    }

    @Test
    void theSameValueInTwoLayersIsNoShadow() {
        assertThat(keys(new ConfigLayer("context parameter", Map.of("eureka.server.maxInstances", "10")),
                new ConfigLayer("system property", Map.of("eureka.server.max-instances", "10"))).shadowed()).isEmpty();
    }

    @Test
    void theNextStartsChangesAreWhatTheSourcesNowSayAgainstWhatIsInEffectWithTheirSource() {
        ConfigLayer started = new ConfigLayer("context parameter", Map.of("eureka.server.maxInstances", "10"));
        List<ConfigLayer> now = new ArrayList<>(List.of(started));
        AtomicInteger reads = new AtomicInteger();
        MutableClock clock = new MutableClock(Instant.parse("2026-12-02T08:00:00Z"));
        PendingSettings pending = new PendingSettings(keys(started), () -> {
            reads.incrementAndGet();
            return List.copyOf(now);
        }, clock);
        assertThat(pending.report().changes()).isEmpty();

        now.add(new ConfigLayer("MicroProfile Config: Application", Map.of("eureka.server.maxInstances", "20",
                "eureka.server.enableSelfPreservation", "false")));
        assertThat(pending.report().changes()).as("kept for a few seconds: the settings view is polled").isEmpty();
        clock.advance(PendingSettings.KEPT.plusMillis(1));
        assertThat(pending.report().changes()).containsExactly(
                new PendingSettings.Change("enableSelfPreservation", true, false, "MicroProfile Config: Application"),
                new PendingSettings.Change("maxInstances", 10, 20, "MicroProfile Config: Application"));
        assertThat(reads).hasValue(2);

        now.add(new ConfigLayer("system property", Map.of("eureka.server.renewalPercentThreshold", "7")));
        clock.advance(PendingSettings.KEPT.plusMillis(1));
        PendingSettings.Report broken = pending.report();
        assertThat(broken.failure()).as("a start with these sources would fail, and why")
                .contains("eureka.server.renewalPercentThreshold=7");
    }
}
