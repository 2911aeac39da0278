package io.muster.compat;

import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The moments operators act, at default settings (snapshots on, as by default): a cluster started one node at a
 * time replicates a write to every node within 2 s of the last node opening (a sender that backed off from a peer
 * that was not up yet resumes when the peer shows it is alive), and after a whole-cluster restart (every node
 * stopped, then started again one after another) every node serves every instance within 10 s of the last node
 * starting, at every poll never fewer than it did before (nodes waiting for each other copy what each other holds,
 * each with its own snapshot). Ports 17211-17213, apart from the other ITs.
 */
class ClusterRestartIT {
    private static final int[] PORTS = {17211, 17212, 17213};
    /** Instances that never heartbeat, with leases long enough to outlive the restart (as in the run). */
    private static final int LONG_LEASED = 40;
    private static final List<ChildServer> started = new ArrayList<>();
    private static Path snapshots;

    @AfterAll
    static void stopAll() throws Exception {
        for (ChildServer s : started) {
            s.close();
        }
    }

    private static Http node(int i) throws Exception {
        if (snapshots == null) {
            snapshots = Files.createTempDirectory("muster-restart-it");
        }
        ChildServer s = ChildServer.start(PORTS[i], ChildServer.peersOn(PORTS),
                "-Deureka.instance.hostname=127.0.0.1", "-Deureka.server.snapshot.enabled=true",
                "-Deureka.server.snapshot.directory=" + snapshots.resolve("node-" + i));
        started.add(s);
        return new Http(s.baseUrl);
    }

    @Test
    void aClusterStartedOneNodeAtATimeAndRestartedWholeServesEveryInstanceWithinSeconds() throws Exception {
        List<Http> nodes = new ArrayList<>();
        for (int i = 0; i < PORTS.length; i++) {
            nodes.add(node(i));   // each one deployed before the next starts, as an operator starts them
        }
        long opened = System.nanoTime();
        assertThat(nodes.get(0).postJson("apps/FRESH", instanceJson("FRESH", "f-1", "UP", 1000)).status())
                .isEqualTo(204);
        for (Http n : nodes) {
            awaitListed(n, "FRESH", "f-1", opened, 2_000);   // counted from the last node's opening
        }
        long t0 = System.nanoTime();
        assertThat(nodes.get(2).postJson("apps/FRESH", instanceJson("FRESH", "f-2", "UP", 1000)).status())
                .isEqualTo(204);
        for (Http n : nodes) {
            awaitListed(n, "FRESH", "f-2", t0, 2_000);
        }

        for (int i = 0; i < LONG_LEASED; i++) {
            assertThat(nodes.get(i % 3).postJson("apps/LONGLEASE", longLeased("l-" + i)).status()).isEqualTo(204);
        }
        t0 = System.nanoTime();
        for (Http n : nodes) {
            awaitListed(n, "LONGLEASE", "l-" + (LONG_LEASED - 1), t0, 2_000);
        }

        // the whole cluster stops (SIGTERM: each saves its snapshot), then starts again one node after another
        for (ChildServer s : started) {
            s.close();
        }
        started.clear();
        nodes.clear();
        for (int i = 0; i < PORTS.length; i++) {
            nodes.add(node(i));
        }
        long lastStarted = System.nanoTime();
        for (int i = 0; i < nodes.size(); i++) {
            int best = 0;
            while (true) {
                Http.Reply r = nodes.get(i).getJson("apps/LONGLEASE");
                int listed = r.status() == 200 ? count(r.body(), "\"l-") : 0;
                if (r.status() == 200) {
                    assertThat(listed).as("node %d serves fewer instances than at its previous poll", i)
                            .isGreaterThanOrEqualTo(best);
                    best = listed;
                }
                if (listed == LONG_LEASED) {
                    break;
                }
                assertThat(elapsedMs(lastStarted)).as("node %d serves all %d instances within 10 s of the last "
                        + "node starting; last: HTTP %d, %d listed", i, LONG_LEASED, r.status(), listed)
                        .isLessThan(10_000);
                Thread.sleep(100);
            }
        }
    }

    private static String longLeased(String id) {
        return instanceJson("LONGLEASE", id, "UP", System.currentTimeMillis())
                .replace("\"durationInSecs\":90", "\"durationInSecs\":900");
    }

    private static void awaitListed(Http node, String app, String id, long since, long boundMs)
            throws InterruptedException {
        while (node.getJson("apps/" + app + "/" + id).status() != 200) {
            assertThat(elapsedMs(since)).as("%s/%s listed on %s", app, id, node).isLessThan(boundMs);
            Thread.sleep(50);
        }
    }

    private static int count(String body, String needle) {
        int n = 0;
        for (int i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static long elapsedMs(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }
}
