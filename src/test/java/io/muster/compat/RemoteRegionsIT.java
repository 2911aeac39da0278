package io.muster.compat;

import com.netflix.discovery.converters.wrappers.CodecWrappers;
import com.netflix.discovery.shared.Application;
import com.netflix.discovery.shared.Applications;
import io.muster.testing.Http;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Muster "regions" on loopback, us-east configured with us-west as a remote region: a client asking
 * {@code ?regions=us-west} sees both registries, and the hash Netflix's own codec and reconcile rule compute over
 * what it decoded equals the one served (full and delta alike); without {@code ?regions=} it sees us-east alone,
 * and an app only us-west has is still found through Eureka's single-app fallback. Ports 17231-17232.
 */
class RemoteRegionsIT {

    @Test
    void aClientAskingForARemoteRegionSeesBothRegistriesWithEurekasHash() throws Exception {
        try (ChildServer west = ChildServer.start(17232);
             ChildServer east = ChildServer.start(17231,
                     "-Deureka.server.remoteRegionUrlsWithName=us-west;" + west.baseUrl,
                     "-Deureka.server.remoteRegionRegistryFetchInterval=1")) {
            Http eastHttp = new Http(east.baseUrl);
            assertThat(eastHttp.postJson("apps/SHOP", instanceJson("SHOP", "s-1", "UP", 1000)).status())
                    .isEqualTo(204);
            Http westHttp = new Http(west.baseUrl);
            assertThat(westHttp.postJson("apps/MAIL", instanceJson("MAIL", "m-1", "UP", 1000)).status())
                    .isEqualTo(204);
            assertThat(westHttp.postJson("apps/SHOP", instanceJson("SHOP", "s-2", "DOWN", 1000)).status())
                    .isEqualTo(204);

            Applications merged = waitForInstances(eastHttp, "apps/?regions=us-west,unknown", 3);
            assertThat(names(merged)).containsExactlyInAnyOrder("SHOP", "MAIL");
            assertThat(merged.getRegisteredApplications("SHOP").getInstances()).hasSize(2);
            assertThat(merged.getAppsHashCode()).isEqualTo("DOWN_1_UP_2_")
                    .isEqualTo(merged.getReconcileHashCode());

            Applications delta = decode(eastHttp.getJson("apps/delta?regions=us-west").body());
            assertThat(delta.getAppsHashCode()).as("a delta carries the merged registry's hash")
                    .isEqualTo(merged.getReconcileHashCode());

            Applications local = decode(eastHttp.getJson("apps/").body());
            assertThat(names(local)).as("no ?regions=: the local registry alone").containsExactly("SHOP");
            assertThat(local.getAppsHashCode()).isEqualTo("UP_1_");
            assertThat(eastHttp.getJson("apps/MAIL").status()).as("Eureka's transparent fallback").isEqualTo(200);
            assertThat(eastHttp.getJson("api/status").body()).contains("\"remoteRegions\"", "\"us-west\"",
                    "\"fetchedAt\"");
        }
    }

    private static Applications waitForInstances(Http http, String path, int count) throws Exception {
        long end = System.nanoTime() + 20_000_000_000L;
        Applications apps = null;
        while (System.nanoTime() < end) {
            Http.Reply r = http.getJson(path);
            if (r.status() == 200) {
                apps = decode(r.body());
                if (apps.getRegisteredApplications().stream().mapToInt(a -> a.getInstances().size()).sum()
                        == count) {
                    return apps;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("never saw " + count + " instances at " + path + ": "
                + (apps == null ? null : names(apps)));
    }

    private static Applications decode(String json) throws Exception {
        return CodecWrappers.getCodec(CodecWrappers.JacksonJson.class).decode(json, Applications.class);
    }

    private static List<String> names(Applications apps) {
        return apps.getRegisteredApplications().stream().map(Application::getName).toList();
    }
}
