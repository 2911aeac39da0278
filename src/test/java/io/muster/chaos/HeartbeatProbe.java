package io.muster.chaos;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A legitimate instance renewing every 200 ms on a connection of its own while a row's abuse runs: its latencies
 * and whether every heartbeat answered 200 are what "the node keeps answering" means in the abuse table. A beat
 * that times out (5 s) or fails counts as not answered, with its waiting time as latency.
 */
final class HeartbeatProbe implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofMillis(200);

    /** One row's share of the beats: latencies in ms. */
    record Window(double p50, double p99, double max, long beats, long failed) {
        /** This window's latencies with another period's beats and failures added (a row's settling time). */
        Window plusBeatsOf(Window later) {
            return new Window(p50, p99, max, beats + later.beats, failed + later.failed);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final HttpRequest beat;
    private final Latencies latencies = new Latencies();
    private final AtomicLong failed = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String lastFailure = "";

    HeartbeatProbe(String base, String app, String id, String authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "apps/" + app + "/" + id))
                .timeout(Duration.ofSeconds(5)).PUT(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        beat = b.build();
        thread = new Thread(this::loop, "heartbeat-probe");
        thread.setDaemon(true);
    }

    HeartbeatProbe start() {
        thread.start();
        return this;
    }

    private void loop() {
        long next = System.nanoTime();
        while (running) {
            long t0 = System.nanoTime();
            try {
                int code = http.send(beat, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (code != 200) {
                    failed.incrementAndGet();
                    lastFailure = "answered " + code;
                }
            } catch (java.io.IOException e) {
                failed.incrementAndGet();
                lastFailure = e.toString();
            } catch (InterruptedException e) {
                return;
            }
            latencies.record(System.nanoTime() - t0);
            next += INTERVAL.toNanos();
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            } else {
                next = System.nanoTime();   // a late beat does not make the next ones burst
            }
        }
    }

    /** The beats since the last drain. */
    Window drain() {
        double[] l = latencies.drain();
        return new Window(l[0], l[1], l[2], (long) l[3], failed.getAndSet(0));
    }

    String lastFailure() {
        return lastFailure;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(10_000);
    }
}
