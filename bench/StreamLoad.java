import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The change stream under many open connections: opens N streams on {@code /api/changes}, measures the server's heap
 * per open stream (after a GC, via jcmd) and its CPU at rest with the streams open, then makes C changes (one
 * registration every 50 ms) and reports change → received latency over every (stream, change) pair.
 *
 * <pre>
 *   java bench/StreamLoad.java --url http://127.0.0.1:18931/eureka/ --pid PID [--streams 2000] [--changes 100]
 *        [--rest-seconds 20]
 * </pre>
 * Prints one line {@code RESULT {json}}. Loopback only; it opens N sockets, so the server's stream cap
 * ({@code eureka.server.changes.maxOpen}, default 2000, and {@code changes.maxOpenPerClient}, default 100: every
 * stream here comes from one address) must allow N.
 */
public final class StreamLoad {
    public static void main(String[] args) throws Exception {
        Map<String, String> o = new ConcurrentHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String url = o.getOrDefault("url", "http://127.0.0.1:18931/eureka/");
        long pid = Long.parseLong(o.get("pid"));
        int streams = Integer.parseInt(o.getOrDefault("streams", "2000"));
        int changes = Integer.parseInt(o.getOrDefault("changes", "100"));
        int restSeconds = Integer.parseInt(o.getOrDefault("rest-seconds", "20"));

        long heapBefore = heapAfterGc(pid);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        CountDownLatch open = new CountDownLatch(streams);
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        long[][] latencies = new long[streams][];
        AtomicLong received = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong opens = new AtomicLong();
        List<java.util.concurrent.CompletableFuture<?>> handles = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            long[] mine = new long[changes];
            Arrays.fill(mine, -1);
            latencies[s] = mine;
            HttpRequest req = HttpRequest.newBuilder(URI.create(url + "api/changes?app=STREAMLOAD")).build();
            handles.add(client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArrayConsumer(chunk -> chunk.ifPresent(
                    bytes -> {
                        long now = System.nanoTime();
                        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                            if (line.startsWith("retry:")) {
                                opens.incrementAndGet();
                                open.countDown();
                            } else if (line.startsWith("data:")) {
                                String marker = "\"instanceId\":\"s-";
                                int at = line.indexOf(marker);
                                if (at >= 0) {
                                    int from = at + marker.length();
                                    int n = Integer.parseInt(line.substring(from, line.indexOf('"', from)));
                                    Long t0 = sentAt.get("s-" + n);
                                    if (t0 != null && n < mine.length && mine[n] < 0) {
                                        mine[n] = now - t0;
                                        received.incrementAndGet();
                                    }
                                }
                            }
                        }
                    }))).whenComplete((r, e) -> {
                        if (e != null || (r != null && r.statusCode() != 200)) {
                            failed.incrementAndGet();
                            open.countDown();
                        }
                    }));
        }
        boolean allOpen = open.await(120, TimeUnit.SECONDS);
        long opened = opens.get();
        long failedBeforeChanges = failed.get();
        long heapOpen = heapAfterGc(pid);

        long cpu0 = cpuTicks(pid);
        Thread.sleep(restSeconds * 1000L);
        long cpuRest = cpuTicks(pid) - cpu0;

        HttpClient writer = HttpClient.newHttpClient();
        for (int n = 0; n < changes; n++) {
            String id = "s-" + n;
            String body = "{\"instance\":{\"instanceId\":\"" + id + "\",\"hostName\":\"h-" + n + "\",\"app\":\"STREAMLOAD\","
                    + "\"ipAddr\":\"10.0.0.1\",\"status\":\"UP\",\"port\":{\"$\":8080,\"@enabled\":\"true\"},"
                    + "\"dataCenterInfo\":{\"@class\":\"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo\","
                    + "\"name\":\"MyOwn\"},\"leaseInfo\":{\"durationInSecs\":600},\"vipAddress\":\"streamload\"}}";
            sentAt.put(id, System.nanoTime());
            writer.send(HttpRequest.newBuilder(URI.create(url + "apps/STREAMLOAD"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding());
            Thread.sleep(50);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (received.get() < opened * changes && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        List<Long> all = new ArrayList<>();
        for (long[] mine : latencies) {
            for (long l : mine) {
                if (l >= 0) {
                    all.add(l);
                }
            }
        }
        all.sort(null);
        handles.forEach(h -> h.cancel(true));
        for (int n = 0; n < changes; n++) {
            writer.send(HttpRequest.newBuilder(URI.create(url + "apps/STREAMLOAD/s-" + n)).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
        }
        double hz = 100.0;   // USER_HZ on Linux
        String json = "{\"streams_requested\":" + streams + ",\"streams_open\":" + opened + ",\"all_open\":" + allOpen
                + ",\"streams_failed\":" + failedBeforeChanges
                + ",\"heap_before_mb\":" + heapBefore / 1024 / 1024 + ",\"heap_open_mb\":" + heapOpen / 1024 / 1024
                + ",\"heap_per_stream_kb\":" + (opened == 0 ? 0 : (heapOpen - heapBefore) / 1024.0 / opened)
                + ",\"cpu_at_rest_percent\":" + (cpuRest / hz) / restSeconds * 100
                + ",\"changes\":" + changes + ",\"deliveries\":" + all.size()
                + ",\"deliveries_expected\":" + opened * changes
                + ",\"latency_p50_ms\":" + pct(all, 0.50) + ",\"latency_p99_ms\":" + pct(all, 0.99)
                + ",\"latency_max_ms\":" + pct(all, 1.0) + "}";
        System.out.println("RESULT " + json);
        System.exit(0);
    }

    private static double pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        int i = (int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1);
        return sorted.get(Math.max(0, i)) / 1e6;
    }

    /** Used heap after a full GC, in bytes, as jcmd reports it. */
    private static long heapAfterGc(long pid) throws IOException, InterruptedException {
        run("jcmd", Long.toString(pid), "GC.run");
        Thread.sleep(1000);
        String info = run("jcmd", Long.toString(pid), "GC.heap_info");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("total \\d+K, used (\\d+)K").matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
    }

    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);   // utime + stime
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor(60, TimeUnit.SECONDS);
        return new String(out, StandardCharsets.UTF_8);
    }
}
