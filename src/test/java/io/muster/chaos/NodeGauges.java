package io.muster.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What one node holds at a moment: replication queue (from /metrics), heap after a full GC, threads, open files. */
record NodeGauges(String node, long pid, double queueDepth, double droppedTasks, long heapAfterGcKb, int threads,
                  int openFiles) {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    static NodeGauges of(TomcatNode n) {
        String metrics = get(n.url() + "metrics");
        return new NodeGauges(n.name, n.pid(), sum(metrics, "muster_replication_queue_depth"),
                sum(metrics, "muster_replication_dropped_total"), n.heapAfterGcKb(), n.threads(), n.openFiles());
    }

    static double queueDepth(TomcatNode n) {
        return sum(get(n.url() + "metrics"), "muster_replication_queue_depth");
    }

    private static double sum(String text, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(text);
        double total = 0;
        while (m.find()) {
            total += Double.parseDouble(m.group(2));
        }
        return total;
    }

    private static String get(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    String brief() {
        return String.format("%s: queue %.0f, heap after GC %d MB, %d threads, %d fds", node, queueDepth,
                heapAfterGcKb / 1024, threads, openFiles);
    }
}
