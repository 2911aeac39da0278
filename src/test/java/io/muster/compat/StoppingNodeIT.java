package io.muster.compat;

import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node that stops (SIGTERM: an operator's restart, an undeploy) tells its peers what it had queued for them
 * before it goes, its own cancel among it: within 2 s of the stop its peer no longer lists the stopped node, nor an
 * instance cancelled on it just before. Before, both stayed listed until their leases lapsed (90 s and more).
 * Ports 17216-17217, apart from the other ITs.
 */
class StoppingNodeIT {
    private static final int[] PORTS = {17216, 17217};
    private static final List<ChildServer> started = new ArrayList<>();

    @AfterAll
    static void stopAll() throws Exception {
        for (ChildServer s : started) {
            s.close();
        }
    }

    @Test
    void aStoppedNodeAndWhatWasCancelledOnItJustBeforeLeaveItsPeerWithinTwoSeconds() throws Exception {
        for (int port : PORTS) {
            started.add(ChildServer.start(port, ChildServer.peersOn(PORTS),
                    "-Deureka.instance.hostname=127.0.0.1"));
        }
        Http staying = new Http(started.get(0).baseUrl);
        Http stopping = new Http(started.get(1).baseUrl);
        String stoppingNode = "\"$\":" + PORTS[1];
        assertThat(stopping.postJson("apps/SHORTLIVED", instanceJson("SHORTLIVED", "s-1", "UP", 1000)).status())
                .isEqualTo(204);
        long t0 = System.nanoTime();
        while (staying.getJson("apps/SHORTLIVED/s-1").status() != 200
                || !staying.getJson("apps/").body().contains(stoppingNode)) {
            assertThat(elapsedMs(t0)).as("the peer lists the instance and the other node").isLessThan(30_000);
            Thread.sleep(50);
        }

        assertThat(stopping.delete("apps/SHORTLIVED/s-1").status()).isEqualTo(200);
        long stopped = System.nanoTime();
        started.remove(1).close();   // SIGTERM right after the cancel, and waits for the process to end

        while (true) {
            boolean nodeListed = staying.getJson("apps/").body().contains(stoppingNode);
            int instance = staying.getJson("apps/SHORTLIVED/s-1").status();
            if (!nodeListed && instance == 404) {
                break;
            }
            assertThat(elapsedMs(stopped)).as("2 s after the stop: the stopped node listed %s, the instance "
                    + "cancelled on it answered %d", nodeListed, instance).isLessThan(2_000);
            Thread.sleep(50);
        }
    }

    private static long elapsedMs(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }
}
