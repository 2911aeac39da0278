package io.muster.regions;

import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.AppsHashCode;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.testing.Instances;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static io.muster.regions.RemoteRegionTest.apps;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Eureka's merge rules: a view with regions holds the local registry plus each requested region's whitelisted
 * instances, and its hash counts them all (for a delta: the hash of that merged full view); unknown region names are
 * ignored; an app unknown here falls back to the regions unless that is disabled.
 */
class RemoteRegionsTest {
    private static final Applications LOCAL = apps(1, "", Instances.up("SHOP", "s-1"),
            Instances.sample("CART", "c-1").status(InstanceStatus.DOWN).build());

    @Test
    void theMergedRegistryHoldsLocalAndRequestedRegionsWithTheHashOfAllOfThem() {
        RemoteRegions regions = regions(Map.of(), Map.of(
                "us-west", apps(1, "", Instances.up("SHOP", "w-1"), Instances.up("MAIL", "w-2")),
                "eu", apps(1, "", Instances.sample("SHOP", "e-1").status(InstanceStatus.OUT_OF_SERVICE).build())));

        Applications merged = regions.merged(LOCAL, regions.requested("EU, us-west,mars,eu"));

        assertThat(regions.requested("EU, us-west,mars,eu")).as("known, lower-cased, sorted, once")
                .containsExactly("eu", "us-west");
        assertThat(ids(merged)).containsExactlyInAnyOrder("s-1", "c-1", "w-1", "w-2", "e-1");
        assertThat(merged.applications().stream().filter(a -> a.name().equals("SHOP")).findFirst().orElseThrow()
                .instances()).as("one app across regions").hasSize(3);
        assertThat(merged.appsHashCode()).isEqualTo("DOWN_1_OUT_OF_SERVICE_1_UP_3_")
                .isEqualTo(AppsHashCode.of(merged));

        assertThat(regions.merged(LOCAL, regions.requested("mars"))).as("unknown only: the local view itself")
                .isSameAs(LOCAL);
        assertThat(regions.merged(LOCAL, regions.requested("us-west")).appsHashCode()).isEqualTo("DOWN_1_UP_3_");
    }

    @Test
    void whitelistsByRegionElseGlobalDecideWhichRemoteAppsAreTaken() {
        RemoteRegions regions = regions(Map.of(
                "eureka.remoteRegion.global.appWhiteList", "mail",
                "eureka.remoteRegion.eu.appWhiteList", "SHOP,CART"), Map.of(
                "us-west", apps(1, "", Instances.up("SHOP", "w-1"), Instances.up("MAIL", "w-2")),
                "eu", apps(1, "", Instances.up("SHOP", "e-1"), Instances.up("MAIL", "e-2"))));

        Applications merged = regions.merged(LOCAL, List.of("eu", "us-west"));

        assertThat(ids(merged)).containsExactlyInAnyOrder("s-1", "c-1", "w-2", "e-1");
        assertThat(merged.appsHashCode()).isEqualTo("DOWN_1_UP_3_");
    }

    @Test
    void aDeltaWithRegionsCarriesTheRegionsLastDeltaAndTheHashOfTheMergedRegistry() {
        RemoteRegions regions = regions(Map.of(), Map.of("us-west", apps(1, "", Instances.up("SHOP", "w-1"))));
        // the local delta: one change, with the hash of the whole local registry (2 instances)
        Applications localDelta = apps(5, "DOWN_1_UP_1_",
                Instances.sample("SHOP", "s-1").actionType(ActionType.MODIFIED).build());

        Applications delta = regions.mergedDelta(localDelta, List.of("us-west"));

        assertThat(ids(delta)).as("after a full fetch a region's delta is its copy, as in Eureka")
                .containsExactlyInAnyOrder("s-1", "w-1");
        assertThat(delta.appsHashCode()).isEqualTo(regions.merged(LOCAL, List.of("us-west")).appsHashCode())
                .isEqualTo("DOWN_1_UP_2_");
        assertThat(delta.version()).isEqualTo(5);
        assertThat(regions.mergedDelta(localDelta, List.of())).isSameAs(localDelta);
    }

    @Test
    void anAppUnknownHereFallsBackToTheRegionsUnlessDisabled() {
        Map<String, Applications> remote = Map.of("us-west", apps(1, "", Instances.up("MAIL", "w-2")));
        assertThat(regions(Map.of(), remote).fallback("MAIL").map(Application::name)).contains("MAIL");
        assertThat(regions(Map.of(), remote).fallback("NOPE")).isEmpty();
        assertThat(regions(Map.of("eureka.server.disableTransparentFallbackToOtherRegion", "true"), remote)
                .fallback("MAIL")).isEmpty();
        assertThat(RemoteRegions.NONE.requested("us-west")).isEmpty();
    }

    /** Regions whose copies are the given registries (fetched once from a source that returns them). */
    private static RemoteRegions regions(Map<String, String> settings, Map<String, Applications> copies) {
        Map<String, String> all = new java.util.HashMap<>(settings);
        StringBuilder urls = new StringBuilder();
        copies.keySet().forEach(r -> urls.append(urls.length() == 0 ? "" : ",").append(r)
                .append("=http://").append(r).append(".example/eureka/"));
        all.put("eureka.server.remoteRegionUrlsWithName", urls.toString());
        ServerConfig.RemoteRegionConfig config = ConfigLoader.load(List.of(all)).remoteRegions();
        List<RemoteRegion> list = copies.entrySet().stream().map(e -> new RemoteRegion(e.getKey(), "",
                new RemoteRegion.Source() {
            @Override
            public Applications full() {
                return e.getValue();
            }

            @Override
            public Applications delta() throws IOException {
                throw new IOException("not used");
            }
        }, Clock.systemUTC(), false)).toList();
        RemoteRegions regions = new RemoteRegions(list, config);
        regions.all().forEach(regions::refresh);
        return regions;
    }

    private static List<String> ids(Applications apps) {
        return apps.applications().stream().flatMap(a -> a.instances().stream()).map(InstanceInfo::id).toList();
    }
}
