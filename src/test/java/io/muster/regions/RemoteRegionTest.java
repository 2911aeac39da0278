package io.muster.regions;

import com.sun.net.httpserver.HttpServer;
import io.muster.codec.Detail;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.AppsHashCode;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.testing.Instances;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fetcher against a real HTTP server standing in for the remote region: a full fetch first, then deltas applied
 * and checked against the delta's hash, a full fetch again when the hash differs or deltas are refused.
 */
class RemoteRegionTest {
    private HttpServer remote;
    private volatile Applications full;
    private volatile Applications delta;
    private volatile int deltaStatus = 200;
    private final List<String> requests = new ArrayList<>();
    private RemoteRegions regions;
    private RemoteRegion region;

    @BeforeEach
    void start() throws Exception {
        remote = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        remote.createContext("/eureka/apps/", ex -> {
            String path = ex.getRequestURI().getPath();
            synchronized (requests) {
                requests.add(path);
            }
            boolean isDelta = path.endsWith("/delta");
            int status = isDelta ? deltaStatus : 200;
            byte[] body = status != 200 ? new byte[0]
                    : EurekaCodec.encode(WireFormat.JSON, isDelta ? delta : full, Detail.FULL);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        remote.start();
        ServerConfig config = ConfigLoader.load(List.of(Map.of("eureka.server.remoteRegionUrlsWithName",
                "us-west;http://127.0.0.1:" + remote.getAddress().getPort() + "/eureka/")));
        regions = RemoteRegions.create(config.remoteRegions(), Clock.systemUTC());
        region = regions.all().iterator().next();
    }

    @AfterEach
    void stop() {
        remote.stop(0);
    }

    @Test
    void fullFirstThenDeltasAppliedWhenTheirHashMatches() {
        full = apps(1, "", Instances.up("SHOP", "s-1"), Instances.up("SHOP", "s-2"));
        regions.refresh(region);
        assertThat(requests).containsExactly("/eureka/apps/");
        assertThat(ids(region)).containsExactly("s-1", "s-2");
        long generation = regions.generation();

        // s-2 goes, s-3 comes, s-1 goes DOWN: the remote's hash counts what it holds afterwards
        delta = apps(7, "DOWN_1_UP_1_", deleted("SHOP", "s-2"),
                Instances.sample("SHOP", "s-1").status(InstanceStatus.DOWN).actionType(ActionType.MODIFIED).build(),
                Instances.sample("SHOP", "s-3").actionType(ActionType.ADDED).build());
        regions.refresh(region);

        assertThat(requests).containsExactly("/eureka/apps/", "/eureka/apps/delta");
        assertThat(ids(region)).containsExactlyInAnyOrder("s-1", "s-3");
        assertThat(region.state().lastDelta().instanceCount()).as("what a merged delta passes on").isEqualTo(3);
        RemoteRegion.Status s = region.status();
        assertThat(List.of(s.fullFetches(), s.deltaFetches(), s.deltaMismatches())).containsExactly(1L, 1L, 0L);
        assertThat(s.appsHashCode()).isEqualTo("DOWN_1_UP_1_");
        assertThat(regions.generation()).as("merged views are stale").isGreaterThan(generation);
    }

    @Test
    void aDeltaWhoseHashDiffersFromTheAppliedCopyBringsAFullFetch() {
        full = apps(1, "", Instances.up("SHOP", "s-1"));
        regions.refresh(region);
        // the remote now holds s-1 and s-9, but its delta only mentions s-2 (s-9's addition fell out of the window)
        full = apps(1, "", Instances.up("SHOP", "s-1"), Instances.up("SHOP", "s-9"));
        delta = apps(2, "UP_3_", Instances.sample("SHOP", "s-2").actionType(ActionType.ADDED).build());

        regions.refresh(region);

        assertThat(requests).containsExactly("/eureka/apps/", "/eureka/apps/delta", "/eureka/apps/");
        assertThat(ids(region)).containsExactly("s-1", "s-9");
        assertThat(region.status().deltaMismatches()).isEqualTo(1);
        assertThat(region.status().fullFetches()).isEqualTo(2);
    }

    @Test
    void aRefusedDeltaFallsBackToTheFullRegistryAndAnUnreachableRemoteKeepsTheLastCopy() {
        full = apps(1, "", Instances.up("SHOP", "s-1"));
        regions.refresh(region);
        deltaStatus = 403;   // a remote with deltas disabled
        full = apps(1, "", Instances.up("SHOP", "s-1"), Instances.up("SHOP", "s-2"));
        regions.refresh(region);
        assertThat(ids(region)).containsExactly("s-1", "s-2");

        remote.stop(0);
        regions.refresh(region);
        assertThat(ids(region)).as("the last copy still serves").containsExactly("s-1", "s-2");
        assertThat(region.status().failures()).isEqualTo(1);
        assertThat(region.status().lastError()).isNotNull();
    }

    private static List<String> ids(RemoteRegion region) {
        return region.state().copy().applications().stream().flatMap(a -> a.instances().stream())
                .map(InstanceInfo::id).toList();
    }

    private static InstanceInfo deleted(String app, String id) {
        return Instances.sample(app, id).actionType(ActionType.DELETED).build();
    }

    /** Apps from instances; an empty hash means the hash of the instances themselves. */
    static Applications apps(long version, String hash, InstanceInfo... instances) {
        Map<String, List<InstanceInfo>> byApp = new java.util.TreeMap<>();
        for (InstanceInfo i : instances) {
            byApp.computeIfAbsent(i.app(), a -> new ArrayList<>()).add(i);
        }
        List<Application> list = new ArrayList<>();
        byApp.forEach((name, is) -> list.add(new Application(name, is)));
        Applications a = new Applications(version, "", list);
        return new Applications(version, hash.isEmpty() ? AppsHashCode.of(a) : hash, list);
    }
}
