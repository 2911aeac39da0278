import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A load tool for any Eureka-compatible server, speaking the REST API with the bodies real clients send. Runs as a
 * single source file on JDK 17 with nothing else on the class path:
 *
 * <pre>
 * java bench/LoadTool.java SCENARIO --url http://127.0.0.1:8761/eureka/ [options]
 *   register     --instances N --apps A --concurrency C [--lease SECONDS, default 90] [--from F: instances F..F+N-1]
 *   renew        --instances N --apps A --seconds D --concurrency C     (registers first if --setup)
 *   fetch        --seconds D --concurrency C --kind full|gzip|delta|ceiling|metrics|floor  (floor: GET --path, default
 *                /floor.txt on the same host and port: a static file, the container's floor) [--label L]
 *   mixed        --instances N --apps A --renew-every R --fetchers F --fetch-every S --churn K --seconds D [--label L]
 *                [--from F: instances F..F+N-1] [--no-setup: they are registered already]
 *   propagation  --peer URL --trials T --admin USER:PW                   (change on --url, watch --url and --peer;
 *                [--watch instance]: poll the instance's own URL instead of the full registry, which at a million
 *                instances is a gigabyte: the replication lag alone, without the payload refresh)
 *   evict        --instances N --apps A --dead-fraction F --lease L --seconds D
 * common: --pid PID (server process: CPU per request from /proc/PID/stat), --json-out FILE,
 *         --ids bench|spring (instance ids: bench-host-7:bench:8007, or Spring-style 10.0.0.7:bench-app-7:8080),
 *         --encode-ids (ids in request paths percent-encoded, ':' as %3A, as strict clients send them; the
 *         renew figures are then reported as renew_encoded_*),
 *         --rate R (renew, fetch: at most R requests a second in all, the rate a real load offers; the cost of a
 *         request at a few thousand a second differs from flat out, since threads wake for each one)
 * </pre>
 *
 * Every scenario is bounded in count and time and talks to the given URL only (use loopback). It prints a human
 * table and one JSON line starting with {@code RESULT }.
 */
public final class LoadTool {
    private final Map<String, String> opts;
    private final String base;
    private final HttpClient http;
    private final ExecutorService pool;
    private final Map<String, Object> result = new LinkedHashMap<>();
    private final boolean springIds;
    private final boolean encodeIds;
    private final int idApps;

    private LoadTool(Map<String, String> opts) {
        this.opts = opts;
        String url = opts.getOrDefault("url", "http://127.0.0.1:8761/eureka/");
        this.base = url.endsWith("/") ? url : url + "/";
        this.springIds = "spring".equals(opts.getOrDefault("ids", "bench"));
        this.encodeIds = opts.containsKey("encode-ids");
        this.idApps = integer("apps", 500);
        int concurrency = integer("concurrency", 16);
        this.pool = Executors.newFixedThreadPool(Math.max(4, concurrency + 4));
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).executor(Executors.newFixedThreadPool(4)).build();
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: java bench/LoadTool.java SCENARIO --url URL [options]  (see the class comment)");
            System.exit(2);
        }
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                String key = args[i].substring(2);
                String value = i + 1 < args.length && !args[i + 1].startsWith("--") ? args[++i] : "true";
                opts.put(key, value);
            }
        }
        LoadTool tool = new LoadTool(opts);
        tool.result.put("scenario", args[0]);
        tool.result.put("url", tool.base);
        try {
            switch (args[0]) {
                case "register" -> tool.register();
                case "renew" -> tool.renew();
                case "fetch" -> tool.fetch();
                case "mixed" -> tool.mixed();
                case "propagation" -> tool.propagation();
                case "evict" -> tool.evict();
                default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
            }
        } finally {
            tool.pool.shutdownNow();
        }
        tool.print();
        System.exit(0);
    }

    // ------------------------------------------------------------------ scenarios

    private void register() throws Exception {
        int n = integer("instances", 10_000);
        int apps = integer("apps", 500);
        int lease = integer("lease", 90);
        int from = integer("from", 0);
        Phase p = run("register", n, integer("concurrency", 16), Long.MAX_VALUE, k -> {
            int i = from + k;
            return post("apps/" + app(i % apps), body(app(i % apps), id(i), "UP", lease, 30));
        }, 204);
        p.report(result, "register");
    }

    private void renew() throws Exception {
        int n = integer("instances", 10_000);
        int apps = integer("apps", 500);
        if (opts.containsKey("setup")) {
            run("setup", n, 16, Long.MAX_VALUE, i -> post("apps/" + app(i % apps), body(app(i % apps), id(i), "UP", 90, 30)), 204);
        }
        long seconds = integer("seconds", 10);
        Phase p = run("renew", Integer.MAX_VALUE, integer("concurrency", 16), seconds * 1000, i -> {
            int k = i % n;
            return send(HttpRequest.newBuilder(uri("apps/" + app(k % apps) + "/" + pathId(k) + "?status=UP&lastDirtyTimestamp=1000"))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{}")));
        }, 200);
        p.report(result, opts.getOrDefault("label", encodeIds ? "renew_encoded" : "renew"));
    }

    private void fetch() throws Exception {
        String kind = opts.getOrDefault("kind", "gzip");
        long seconds = integer("seconds", 10);
        String path = switch (kind) {
            case "delta" -> "apps/delta";
            case "ceiling" -> "health/live";
            case "metrics" -> "metrics";
            case "floor" -> opts.getOrDefault("path", "/floor.txt");
            default -> "apps/";
        };
        URI target = URI.create(base).resolve(path);
        AtomicLong bytes = new AtomicLong();
        Phase p = run("fetch-" + kind, Integer.MAX_VALUE, integer("concurrency", 16), seconds * 1000, i -> {
            HttpRequest.Builder b = HttpRequest.newBuilder(target)
                    .header("Accept", kind.equals("metrics") ? "text/plain" : "application/json").GET();
            if (!kind.equals("full")) {
                b.header("Accept-Encoding", "gzip");
            }
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            bytes.addAndGet(r.body().length);
            return r.statusCode();
        }, 200);
        String name = opts.getOrDefault("label", "fetch_" + kind);
        p.report(result, name);
        result.put(name + "_bytes_per_response", p.ok.sum() == 0 ? 0 : bytes.get() / p.ok.sum());
    }

    /** Compressed time: every instance renews every R seconds, fetchers poll deltas, churn re-registers. */
    private void mixed() throws Exception {
        int n = integer("instances", 10_000);
        int apps = integer("apps", 500);
        double renewEvery = Double.parseDouble(opts.getOrDefault("renew-every", "30"));
        int fetchers = integer("fetchers", 50);
        double fetchEvery = Double.parseDouble(opts.getOrDefault("fetch-every", "30"));
        double churn = Double.parseDouble(opts.getOrDefault("churn", "10"));
        long seconds = integer("seconds", 30);
        int from = integer("from", 0);   // instances from..from+n-1 (the ones another run registered on this node)
        if (!opts.containsKey("no-setup")) {
            run("setup", n, 16, Long.MAX_VALUE, j -> {
                int i = from + j;
                return post("apps/" + app(i % apps), body(app(i % apps), id(i), "UP", 90, 30));
            }, 204);
        }
        Rate renews = new Rate(n / renewEvery);
        Rate deltas = new Rate(fetchers / fetchEvery);
        Rate changes = new Rate(churn);
        Latencies renewLat = new Latencies();
        Latencies deltaLat = new Latencies();
        Latencies churnLat = new Latencies();
        LongAdder renewErrors = new LongAdder();
        LongAdder deltaErrors = new LongAdder();
        LongAdder churnErrors = new LongAdder();
        long cpu0 = cpuTicks();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Future<?>> workers = new ArrayList<>();
        AtomicInteger cursor = new AtomicInteger();
        for (int w = 0; w < integer("concurrency", 16); w++) {
            workers.add(pool.submit(() -> {
                while (System.nanoTime() < end) {
                    try {
                        if (changes.take()) {
                            int k = from + ThreadLocalRandom.current().nextInt(n);
                            String status = ThreadLocalRandom.current().nextBoolean() ? "UP" : "DOWN";
                            time(churnLat, churnErrors, 204, () -> post("apps/" + app(k % apps),
                                    body(app(k % apps), id(k), status, 90, 30)));
                        } else if (deltas.take()) {
                            time(deltaLat, deltaErrors, 200, () -> send(HttpRequest.newBuilder(uri("apps/delta"))
                                    .header("Accept", "application/json").header("Accept-Encoding", "gzip").GET()));
                        } else if (renews.take()) {
                            int k = from + Math.floorMod(cursor.getAndIncrement(), n);
                            time(renewLat, renewErrors, 200, () -> send(HttpRequest.newBuilder(
                                    uri("apps/" + app(k % apps) + "/" + pathId(k) + "?status=UP&lastDirtyTimestamp=1000"))
                                    .PUT(HttpRequest.BodyPublishers.noBody())));
                        } else {
                            Thread.sleep(1);
                        }
                    } catch (InterruptedException e) {
                        return null;
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : workers) {
            f.get();
        }
        long cpu = cpuTicks() - cpu0;
        long total = renewLat.count() + deltaLat.count() + churnLat.count();
        String name = opts.getOrDefault("label", "mixed");   // another label keeps two runs apart in one report
        result.put(name + "_seconds", seconds);
        result.put(name + "_requests", total);
        result.put(name + "_errors", renewErrors.sum() + deltaErrors.sum() + churnErrors.sum());
        result.put(name + "_renew_offered_per_second", Math.round(n / renewEvery));
        result.put(name + "_renew_achieved_per_second", Math.round(renewLat.count() / (double) seconds));
        result.put(name + "_renew_errors", renewErrors.sum());
        result.put(name + "_delta_errors_or_timeouts", deltaErrors.sum());
        result.put(name + "_churn_errors", churnErrors.sum());
        renewLat.report(result, name + "_renew");
        deltaLat.report(result, name + "_delta");
        churnLat.report(result, name + "_churn");
        putCpu(name, cpu, total);
    }

    /** Change on one node, poll until a fetch shows it on that node and on a peer. */
    private void propagation() throws Exception {
        String peer = opts.get("peer");
        int trials = integer("trials", 20);
        Latencies local = new Latencies();
        Latencies remote = new Latencies();
        for (int t = 0; t < trials; t++) {
            String app = "PROPAGATION";
            String id = "p-" + System.nanoTime();
            String[] steps = {"register", "status", "cancel"};
            for (String step : steps) {
                long t0 = System.nanoTime();
                switch (step) {
                    case "register" -> post("apps/" + app, body(app, id, "UP", 90, 30));
                    case "status" -> send(withAdmin(HttpRequest.newBuilder(
                            uri("apps/" + app + "/" + id + "/status?value=OUT_OF_SERVICE")))
                            .PUT(HttpRequest.BodyPublishers.noBody()));
                    default -> send(HttpRequest.newBuilder(uri("apps/" + app + "/" + id)).DELETE());
                }
                String expect = switch (step) {
                    case "register" -> "\"" + id + "\"";
                    case "status" -> "OUT_OF_SERVICE";
                    default -> null;
                };
                local.add(awaitVisible(base, id, expect, t0));
                if (peer != null) {
                    remote.add(awaitVisible(peer.endsWith("/") ? peer : peer + "/", id, expect, t0));
                }
            }
        }
        local.report(result, "propagation_same_node");
        if (peer != null) {
            remote.report(result, "propagation_peer");
        }
    }

    private long awaitVisible(String node, String id, String expect, long t0) throws Exception {
        long deadline = t0 + TimeUnit.SECONDS.toNanos(integer("max-wait", 60));
        if ("instance".equals(opts.get("watch"))) {
            return awaitInstance(node, id, expect, t0, deadline);
        }
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(node + "apps/"))
                    .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
            String body = r.body();
            int at = body.indexOf("\"" + id + "\"");
            boolean visible = expect == null ? at < 0
                    : at >= 0 && (expect.startsWith("\"") || body.indexOf(expect, at) > 0
                    && body.indexOf(expect, at) < body.indexOf("}", body.indexOf("actionType", at)));
            if (visible) {
                return System.nanoTime() - t0;
            }
            Thread.sleep(20);
        }
        return TimeUnit.SECONDS.toNanos(integer("max-wait", 60));
    }

    /** {@link #awaitVisible} through GET apps/PROPAGATION/ID: registered (200), the status, or gone (404). */
    private long awaitInstance(String node, String id, String expect, long t0, long deadline) throws Exception {
        URI uri = URI.create(node + "apps/PROPAGATION/" + id);
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).header("Accept", "application/json").GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            boolean visible = expect == null ? r.statusCode() == 404
                    : r.statusCode() == 200 && (expect.startsWith("\"") || r.body().contains("\"" + expect + "\""));
            if (visible) {
                return System.nanoTime() - t0;
            }
            Thread.sleep(5);
        }
        return TimeUnit.SECONDS.toNanos(integer("max-wait", 60));
    }

    /** Register N with a short lease, keep renewing all but a fraction, time how long the dead take to go. */
    private void evict() throws Exception {
        int n = integer("instances", 200);
        int apps = integer("apps", 10);
        double deadFraction = Double.parseDouble(opts.getOrDefault("dead-fraction", "0.1"));
        int lease = integer("lease", 10);
        int renewInterval = Math.max(1, lease / 3);
        long seconds = integer("seconds", 300);
        run("setup", n, 16, Long.MAX_VALUE, i -> post("apps/" + app(i % apps), body(app(i % apps), id(i), "UP", lease, renewInterval)), 204);
        int dead = (int) Math.round(n * deadFraction);
        long t0 = System.nanoTime();
        long deadline = t0 + seconds * 1_000_000_000L;
        long goneAfter = -1;
        while (System.nanoTime() < deadline) {
            for (int i = dead; i < n; i++) {
                int k = i;
                pool.submit(() -> send(HttpRequest.newBuilder(uri("apps/" + app(k % apps) + "/" + pathId(k)
                        + "?status=UP&lastDirtyTimestamp=1000")).PUT(HttpRequest.BodyPublishers.noBody())));
            }
            int stillThere = 0;
            for (int i = 0; i < dead; i++) {
                int status = send(HttpRequest.newBuilder(uri("apps/" + app(i % apps) + "/" + pathId(i)))
                        .header("Accept", "application/json").GET());
                if (status == 200) {
                    stillThere++;
                }
            }
            if (stillThere == 0) {
                goneAfter = System.nanoTime() - t0;
                break;
            }
            Thread.sleep(renewInterval * 1000L);
        }
        int alive = 0;
        for (int i = dead; i < n; i++) {
            if (send(HttpRequest.newBuilder(uri("apps/" + app(i % apps) + "/" + pathId(i))).GET()) == 200) {
                alive++;
            }
        }
        result.put("evict_instances", n);
        result.put("evict_dead", dead);
        result.put("evict_lease_seconds", lease);
        result.put("evict_all_dead_gone_seconds", goneAfter < 0 ? "not within " + seconds + " s" : goneAfter / 1e9);
        result.put("evict_live_kept", alive + "/" + (n - dead));
    }

    // ------------------------------------------------------------------ machinery

    interface Call {
        int call(int i) throws Exception;
    }

    interface Timed {
        int call() throws Exception;
    }

    private static void time(Latencies lat, LongAdder errors, int expect, Timed call) {
        long t0 = System.nanoTime();
        try {
            int status = call.call();
            if (status != expect) {
                errors.increment();
            }
        } catch (Exception e) {
            errors.increment();
        }
        lat.add(System.nanoTime() - t0);
    }

    /** Runs {@code count} calls (or until {@code millis}) on {@code concurrency} workers. */
    private Phase run(String name, int count, int concurrency, long millis, Call call, int expect) throws Exception {
        Phase p = new Phase();
        AtomicInteger next = new AtomicInteger();
        long end = millis == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + millis * 1_000_000;
        // --rate R: at most R calls a second in all, to measure at the rate a real load offers rather than flat out
        Rate pace = opts.containsKey("rate") ? new Rate(Double.parseDouble(opts.get("rate"))) : null;
        long cpu0 = cpuTicks();
        long t0 = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            fs.add(pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < count && System.nanoTime() < end) {
                    while (pace != null && !pace.take() && System.nanoTime() < end) {
                        Thread.sleep(1);
                    }
                    long s = System.nanoTime();
                    try {
                        int status = call.call(i);
                        if (status == expect) {
                            p.ok.increment();
                        } else {
                            p.error(Integer.toString(status));
                        }
                    } catch (Exception e) {
                        p.error(e.getClass().getSimpleName());
                    }
                    p.latencies.add(System.nanoTime() - s);
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        p.nanos = System.nanoTime() - t0;
        p.cpuTicks = cpuTicks() - cpu0;
        return p;
    }

    private final class Phase {
        final LongAdder ok = new LongAdder();
        final LongAdder errors = new LongAdder();
        /** Errors by kind: the status answered instead of the expected one, or the exception's class. */
        final Map<String, LongAdder> errorKinds = new java.util.concurrent.ConcurrentHashMap<>();
        final Latencies latencies = new Latencies();
        long nanos;
        long cpuTicks;

        void error(String kind) {
            errors.increment();
            errorKinds.computeIfAbsent(kind, k -> new LongAdder()).increment();
        }

        void report(Map<String, Object> out, String name) {
            long n = ok.sum() + errors.sum();
            out.put(name + "_requests", n);
            out.put(name + "_errors", errors.sum());
            if (!errorKinds.isEmpty()) {
                StringBuilder kinds = new StringBuilder();
                errorKinds.forEach((k, v) -> kinds.append(kinds.length() == 0 ? "" : " ").append(k).append(':')
                        .append(v.sum()));
                out.put(name + "_error_kinds", kinds.toString());
            }
            out.put(name + "_per_second", round(n / (nanos / 1e9)));
            latencies.report(out, name);
            putCpu(name, cpuTicks, n);
        }
    }

    private void putCpu(String name, long ticks, long requests) {
        if (opts.containsKey("pid") && requests > 0) {
            double micros = ticks * (1_000_000.0 / 100) / requests;   // USER_HZ is 100 on Linux
            result.put(name + "_server_cpu_us_per_request", round(micros));
        }
    }

    private static final class Latencies {
        private final List<long[]> chunks = new ArrayList<>();
        private long[] current = new long[4096];
        private int size;
        private long total;

        synchronized void add(long nanos) {
            if (size == current.length) {
                chunks.add(current);
                current = new long[4096];
                size = 0;
            }
            current[size++] = nanos;
            total++;
        }

        synchronized long count() {
            return total;
        }

        synchronized void report(Map<String, Object> out, String name) {
            long[] all = new long[(int) total];
            int at = 0;
            for (long[] c : chunks) {
                System.arraycopy(c, 0, all, at, c.length);
                at += c.length;
            }
            System.arraycopy(current, 0, all, at, size);
            Arrays.sort(all);
            if (all.length == 0) {
                return;
            }
            out.put(name + "_p50_ms", round(all[all.length / 2] / 1e6));
            out.put(name + "_p99_ms", round(all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1e6));
            out.put(name + "_max_ms", round(all[all.length - 1] / 1e6));
        }
    }

    /** A token bucket: {@code take()} is true at most {@code perSecond} times a second. */
    private static final class Rate {
        private final double perNano;
        private final long start = System.nanoTime();
        private final AtomicLong taken = new AtomicLong();

        Rate(double perSecond) {
            this.perNano = perSecond / 1e9;
        }

        boolean take() {
            long allowed = (long) ((System.nanoTime() - start) * perNano);
            long t = taken.get();
            return t < allowed && taken.compareAndSet(t, t + 1);
        }
    }

    private long cpuTicks() {
        String pid = opts.get("pid");
        if (pid == null) {
            return 0;
        }
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);   // utime + stime
        } catch (IOException e) {
            return 0;
        }
    }

    /** Status overrides need an admin on a secured server: {@code --admin user:password}. */
    private HttpRequest.Builder withAdmin(HttpRequest.Builder b) {
        String admin = opts.get("admin");
        return admin == null ? b : b.header("Authorization", "Basic "
                + java.util.Base64.getEncoder().encodeToString(admin.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private int post(String path, String json) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .header("Accept", "application/json").header("Accept-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private int send(HttpRequest.Builder b) throws Exception {
        return http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }

    private static String app(int i) {
        return "BENCH-APP-" + i;
    }

    private String id(int i) {
        if (springIds) {   // host:application:port, the host an IP address as with prefer-ip-address
            return "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255) + ":" + app(i % idApps)
                    .toLowerCase(Locale.ROOT) + ":8080";
        }
        return "bench-host-" + i + ":bench:" + (8000 + i % 1000);
    }

    /** The id as it goes into a request path: plain, or percent-encoded as strict clients send it. */
    private String pathId(int i) {
        return encodeIds ? id(i).replace(":", "%3A") : id(i);
    }

    /** What a Netflix eureka-client 2.0.x sends (LegacyJacksonJson: strings for timestamps). */
    private static String body(String app, String id, String status, int lease, int renew) {
        long now = System.currentTimeMillis();
        String host = id.indexOf(':') > 0 ? id.substring(0, id.indexOf(':')) : id;
        return "{\"instance\":{\"instanceId\":\"" + id + "\",\"hostName\":\"" + host + "\",\"app\":\"" + app
                + "\",\"ipAddr\":\"10.0." + (Math.abs(id.hashCode()) % 250) + ".1\",\"status\":\"" + status
                + "\",\"overriddenStatus\":\"UNKNOWN\",\"port\":{\"$\":8080,\"@enabled\":\"true\"},"
                + "\"securePort\":{\"$\":443,\"@enabled\":\"false\"},\"countryId\":1,\"dataCenterInfo\":{\"@class\":"
                + "\"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo\",\"name\":\"MyOwn\"},\"leaseInfo\":{"
                + "\"renewalIntervalInSecs\":" + renew + ",\"durationInSecs\":" + lease + ",\"registrationTimestamp\":0,"
                + "\"lastRenewalTimestamp\":0,\"evictionTimestamp\":0,\"serviceUpTimestamp\":0},\"metadata\":{"
                + "\"management.port\":\"8080\",\"zone\":\"zone-a\"},\"homePageUrl\":\"http://" + host + ":8080/\","
                + "\"statusPageUrl\":\"http://" + host + ":8080/actuator/info\",\"healthCheckUrl\":\"http://" + host
                + ":8080/actuator/health\",\"vipAddress\":\"" + app.toLowerCase(Locale.ROOT) + "\",\"secureVipAddress\":\""
                + app.toLowerCase(Locale.ROOT) + "\",\"isCoordinatingDiscoveryServer\":\"false\",\"lastUpdatedTimestamp\":\""
                + now + "\",\"lastDirtyTimestamp\":\"" + now + "\"}}";
    }

    private int integer(String key, int fallback) {
        return Integer.parseInt(opts.getOrDefault(key, Integer.toString(fallback)));
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private void print() throws IOException {
        System.out.println();
        System.out.printf("%-48s %s%n", "metric", "value");
        result.forEach((k, v) -> System.out.printf("%-48s %s%n", k, v));
        StringBuilder json = new StringBuilder("{");
        result.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":")
                .append(v instanceof Number ? v.toString() : "\"" + v + "\""));
        json.append('}');
        System.out.println("RESULT " + json);
        if (opts.containsKey("json-out")) {
            Files.writeString(Path.of(opts.get("json-out")), json + "\n");
        }
    }
}
