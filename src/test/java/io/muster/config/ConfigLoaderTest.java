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
    void theSettingsInEffectAreOneTableByDocumentedNameWithoutUrls() {
        ServerConfig c = ConfigLoader.load(List.of(Map.of("eureka.server.eviction-interval-timer-in-ms", "2000",
                "eureka.shouldUseReadOnlyResponseCache", "false", "spring.application.name", "orders",
                "eureka.server.peerDnsUrl", "http://peer:secret@peers:8761/eureka/")));
        Map<String, Object> effective = c.keys().effective();
        assertThat(effective).containsEntry("evictionIntervalTimerInMs", 2000L)
                .as("a later alias is shown under the first name").containsEntry("useReadOnlyResponseCache", false)
                .containsEntry("enableSelfPreservation", true).containsEntry("renewalPercentThreshold", 0.85)
                .containsEntry("instance.appname", "ORDERS").containsEntry("dashboard.path", "/");
        assertThat(effective.toString()).as("URLs may carry credentials").doesNotContain("secret", "peerDnsUrl");
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

    @Test
    void unknownKeysAreReportedWithTheClosestKnownKeyInTheOperatorsSpelling() {
        ServerConfig c = ConfigLoader.load(List.of(Map.of(
                "eureka.server.enableSelfPreservaton", "false",
                "eureka.client.registerWithEureke", "false",
                "eureka.server.totallyMadeUp", "1",
                "eureka.client.serviceUrl.defaultZone", "http://localhost:8761/eureka/",
                "eureka.instance.metadataMap.zone", "a",
                "eureka.server.numberRegistrySyncRetries", "0",
                "unrelated.key", "x")));
        assertThat(c.selfPreservation().enabled()).as("the typo changes nothing").isTrue();
        assertThat(c.keys().unknown()).extracting(ServerConfig.KeyNote::key, ServerConfig.KeyNote::note)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("eureka.server.enableSelfPreservaton",
                                "did you mean eureka.server.enableSelfPreservation?"),
                        org.assertj.core.groups.Tuple.tuple("eureka.client.registerWithEureke",
                                "did you mean eureka.client.registerWithEureka?"),
                        org.assertj.core.groups.Tuple.tuple("eureka.server.totallyMadeUp",
                                "not a setting Muster knows"));
        assertThat(c.keys().noEffect()).singleElement()
                .satisfies(n -> assertThat(n.key()).isEqualTo("eureka.server.numberRegistrySyncRetries"));
    }

    @Test
    void strictModeMakesUnknownKeysFatalAndNamesEach() {
        assertThatThrownBy(() -> ConfigLoader.load(List.of(Map.of("muster.config.strict", "true",
                "eureka.server.enableSelfPreservaton", "false", "eureka.server.evictionIntervalTimerInMs", "1000"))))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("unknown setting eureka.server.enableSelfPreservaton")
                .hasMessageContaining("did you mean eureka.server.enableSelfPreservation?");
        assertThat(ConfigLoader.load(List.of(Map.of("muster.config.strict", "true",
                "eureka.server.evictionIntervalTimerInMs", "1000"))).eviction().interval())
                .as("known keys pass in strict mode").isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void springAndEurekaSettingsCarriedOverAreHonoured() {
        ServerConfig defaults = ConfigLoader.load(List.of());
        assertThat(defaults.startup().defaultOpenForTrafficCount()).isZero();
        assertThat(defaults.startup().expectedClientsBeforeSync()).isZero();
        assertThat(defaults.peers().minAvailableForHealthy()).isEqualTo(-1);
        assertThat(defaults.peers().syncWhenTimestampDiffers()).isTrue();
        assertThat(defaults.dashboard()).isEqualTo(new ServerConfig.DashboardConfig(true, "/"));
        assertThat(defaults.instance().appName()).as("Spring's default app name").isEqualTo("UNKNOWN");
        assertThat(defaults.instance().registerWithPeers()).isTrue();
        assertThat(defaults.keys().unknown()).isEmpty();

        ServerConfig c = ConfigLoader.load(List.of(Map.of(
                "eureka.instance.registry.expectedNumberOfClientsSendingRenews", "3",
                "eureka.instance.registry.default-open-for-traffic-count", "1",
                "eureka.server.minAvailableInstancesForPeerReplication", "2",
                "eureka.server.syncWhenTimestampDiffers", "false",
                "eureka.dashboard.path", "/ui",
                "eureka.dashboard.enabled", "false",
                "spring.application.name", "eureka-server",
                "eureka.client.register-with-eureka", "false")));
        assertThat(c.startup().expectedClientsBeforeSync()).isEqualTo(3);
        assertThat(c.startup().defaultOpenForTrafficCount()).isEqualTo(1);
        assertThat(c.peers().minAvailableForHealthy()).isEqualTo(2);
        assertThat(c.peers().syncWhenTimestampDiffers()).isFalse();
        assertThat(c.dashboard()).isEqualTo(new ServerConfig.DashboardConfig(false, "/ui"));
        assertThat(c.instance().appName()).isEqualTo("EUREKA-SERVER");
        assertThat(c.instance().registerWithPeers()).isFalse();
        assertThat(c.keys().unknown()).isEmpty();
        assertThat(ConfigLoader.load(List.of(Map.of("spring.application.name", "a",
                "eureka.instance.appname", "b"))).instance().appName()).as("Spring: appname wins").isEqualTo("B");
    }

    @Test
    void remoteRegionsInNetflixAndSpringSpellingsAreKnownKeys() {
        ServerConfig c = ConfigLoader.load(List.of(Map.of(
                "eureka.remoteRegionUrlsWithName", "US-West;http://w:8761/eureka/,eu=http://e:8761/eureka/",
                "eureka.server.remoteRegionUrlsWithName.ap", "http://a:8761/eureka/",
                "eureka.remoteRegion.global.appWhiteList", "shop",
                "eureka.server.remoteRegionAppWhitelist.eu", "MAIL, cart",
                "eureka.remoteRegion.registryFetchIntervalInSeconds", "10",
                "eureka.server.remoteRegionReadTimeoutMs", "700",
                "eureka.remoteRegion.disable.transparent.fallback", "true")));
        ServerConfig.RemoteRegionConfig r = c.remoteRegions();
        assertThat(r.urls()).containsOnlyKeys("us-west", "eu", "ap");
        assertThat(r.urls().get("us-west")).isEqualTo("http://w:8761/eureka/");
        assertThat(r.fetchInterval()).isEqualTo(java.time.Duration.ofSeconds(10));
        assertThat(r.readTimeout()).isEqualTo(java.time.Duration.ofMillis(700));
        assertThat(r.connectTimeout()).isEqualTo(java.time.Duration.ofMillis(2000));
        assertThat(r.disableTransparentFallback()).isTrue();
        assertThat(r.admits("eu", "CART")).isTrue();
        assertThat(r.admits("eu", "SHOP")).isFalse();
        assertThat(r.admits("us-west", "SHOP")).as("the global list").isTrue();
        assertThat(r.admits("us-west", "MAIL")).isFalse();
        assertThat(c.keys().unknown()).isEmpty();
        assertThat(ConfigLoader.load(List.of()).remoteRegions().admits("x", "ANY")).isTrue();
    }
}
