import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
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
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

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
 *         --client jdk (register, renew, fetch, mixed: over java.net.http, as before 2026-12-07, instead of one
 *         blocking keep-alive connection per worker thread),
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
    private final Raw raw;
    /** --client jdk: requests over java.net.http rather than {@link Raw}. */
    private final boolean jdk;
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
        this.raw = new Raw(URI.create(base));
        this.jdk = "jdk".equals(opts.get("client"));
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
            String path = "apps/" + app(k % apps) + "/" + pathId(k) + "?status=UP&lastDirtyTimestamp=1000";
            return jdk ? send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                    .header("Accept", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{}")))
                    : raw.exchange("PUT", path, "Content-Type: application/json\r\nAccept: application/json\r\n", "{}",
                    null);
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
        String accept = "Accept: " + (kind.equals("metrics") ? "text/plain" : "application/json") + "\r\n"
                + (kind.equals("full") ? "" : "Accept-Encoding: gzip\r\n");
        LongAdder rawBytes = new LongAdder();
        Phase p = run("fetch-" + kind, Integer.MAX_VALUE, integer("concurrency", 16), seconds * 1000, i -> {
            if (!jdk) {
                return raw.exchange("GET", target.getRawPath(), accept, null, rawBytes);
            }
            HttpRequest.Builder b = HttpRequest.newBuilder(target)
                    .header("Accept", kind.equals("metrics") ? "text/plain" : "application/json").GET();
            if (!kind.equals("full")) {
                b.header("Accept-Encoding", "gzip");
            }
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            bytes.addAndGet(r.body().length);
            return r.statusCode();
        }, 200);
        bytes.addAndGet(rawBytes.sum());
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
        Latencies renewLat = new Latencies();
        Latencies deltaLat = new Latencies();
        Latencies churnLat = new Latencies();
        LongAdder renewErrors = new LongAdder();
        LongAdder deltaErrors = new LongAdder();
        LongAdder churnErrors = new LongAdder();
        AtomicInteger cursor = new AtomicInteger();
        Runnable change = () -> {
            int k = from + ThreadLocalRandom.current().nextInt(n);
            String status = ThreadLocalRandom.current().nextBoolean() ? "UP" : "DOWN";
            String path = "apps/" + app(k % apps);
            String json = body(app(k % apps), id(k), status, 90, 30);
            time(churnLat, churnErrors, 204, () -> post(path, json));
        };
        Runnable delta = () -> time(deltaLat, deltaErrors, 200, () -> jdk
                ? send(HttpRequest.newBuilder(uri("apps/delta")).header("Accept", "application/json")
                        .header("Accept-Encoding", "gzip").GET())
                : raw.exchange("GET", "apps/delta", "Accept: application/json\r\nAccept-Encoding: gzip\r\n", null, null));
        Runnable renew = () -> {
            int k = from + Math.floorMod(cursor.getAndIncrement(), n);
            String path = "apps/" + app(k % apps) + "/" + pathId(k) + "?status=UP&lastDirtyTimestamp=1000";
            time(renewLat, renewErrors, 200, () -> jdk
                    ? send(HttpRequest.newBuilder(uri(path)).PUT(HttpRequest.BodyPublishers.noBody()))
                    : raw.exchange("PUT", path, "", "", null));
        };
        long cpu0 = cpuTicks();
        long ownCpu0 = cpuTicks("self");
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        BlockingQueue<Runnable> due = new LinkedBlockingQueue<>();
        Thread pacer = new Thread(() -> Pacer.release(end, new double[] {churn, fetchers / fetchEvery, n / renewEvery},
                new Runnable[] {change, delta, renew}, due), "pacer");
        pacer.setDaemon(true);
        pacer.start();
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < integer("concurrency", 16); w++) {
            workers.add(pool.submit(() -> {
                long left;
                while ((left = end - System.nanoTime()) > 0) {
                    Runnable call = due.poll(left, TimeUnit.NANOSECONDS);
                    if (call != null && System.nanoTime() < end) {
                        call.run();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : workers) {
            f.get();
        }
        long cpu = cpuTicks() - cpu0;
        long ownCpu = cpuTicks("self") - ownCpu0;
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
        // the generator shares the cores with the server: what it took of them while it measured
        result.put(name + "_generator_cpu_us_per_request", total == 0 ? 0 : round(ownCpu * 10_000.0 / total));
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
        BlockingQueue<Runnable> pace = opts.containsKey("rate") ? paced(Double.parseDouble(opts.get("rate")), end) : null;
        long cpu0 = cpuTicks();
        long t0 = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            fs.add(pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < count && System.nanoTime() < end) {
                    if (pace != null && pace.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS) == null) {
                        break;
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

    /**
     * Releases each kind of call at its own steady rate onto the queue the workers block on, so that a call starts
     * when it is due rather than at a worker's next millisecond poll, and an idle worker does not wake at all.
     */
    private static final class Pacer {
        static void release(long end, double[] perSecond, Runnable[] calls, BlockingQueue<Runnable> queue) {
            long start = System.nanoTime();
            long[] released = new long[calls.length];
            long now;
            while ((now = System.nanoTime()) < end) {
                long next = end;
                for (int k = 0; k < calls.length; k++) {
                    double perNano = perSecond[k] / 1e9;
                    if (perNano <= 0) {
                        continue;
                    }
                    for (long allowed = (long) ((now - start) * perNano); released[k] < allowed; released[k]++) {
                        queue.add(calls[k]);
                    }
                    next = Math.min(next, start + (long) Math.ceil((released[k] + 1) / perNano));
                }
                LockSupport.parkNanos(next - System.nanoTime());
            }
        }
    }

    /**
     * HTTP/1.1 over one blocking keep-alive connection per worker thread, as the Apache-client-based Eureka clients
     * talk: the worker writes the request and reads the answer itself. java.net.http hands each exchange between the
     * caller, its selector thread and its executor, three wake-ups a request on two shared cores.
     */
    private static final class Raw {
        private final String host;
        private final int port;
        private final String prefix;
        private final ThreadLocal<Connection> connections = new ThreadLocal<>();

        Raw(URI base) {
            this.host = base.getHost();
            this.port = base.getPort() < 0 ? 80 : base.getPort();
            this.prefix = base.getRawPath().endsWith("/") ? base.getRawPath() : base.getRawPath() + "/";
        }

        /**
         * The answer's status; its body is read and dropped, its length added to {@code bytes} if given. {@code path}
         * is relative to the base URL unless it starts with '/'; {@code body} null: no body (GET).
         */
        int exchange(String method, String path, String headers, String body, LongAdder bytes) throws IOException {
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            byte[] head = (method + " " + (path.startsWith("/") ? "" : prefix) + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n" + headers
                    + (body == null ? "" : "Content-Length: " + content.length + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1);
            for (int attempt = 0; ; attempt++) {
                Connection c = connections.get();
                boolean reused = c != null;
                if (c == null) {
                    c = new Connection(host, port);
                    connections.set(c);
                }
                try {
                    int code = c.exchange(head, content, bytes);
                    if (!c.open) {
                        c.close();
                        connections.remove();
                    }
                    return code;
                } catch (IOException e) {
                    c.close();
                    connections.remove();
                    if (!reused || attempt > 0) {   // a kept connection the server closed while idle: once more
                        throw e;
                    }
                }
            }
        }
    }

    private static final class Connection {
        private final Socket socket = new Socket();
        private final InputStream in;
        private final OutputStream out;
        /** False once the server said it closes this connection after the answer. */
        boolean open = true;

        Connection(String host, int port) throws IOException {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            socket.connect(new InetSocketAddress(host, port), 5_000);
            in = new BufferedInputStream(socket.getInputStream(), 16_384);
            out = socket.getOutputStream();
        }

        int exchange(byte[] head, byte[] content, LongAdder bytes) throws IOException {
            byte[] request = Arrays.copyOf(head, head.length + content.length);
            System.arraycopy(content, 0, request, head.length, content.length);
            out.write(request);
            out.flush();
            String status = line();
            if (!status.startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP answer: " + status);
            }
            int code = Integer.parseInt(status.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean close = status.startsWith("HTTP/1.0");
            for (String h = line(); !h.isEmpty(); h = line()) {
                String name = h.substring(0, Math.max(0, h.indexOf(':'))).trim().toLowerCase(Locale.ROOT);
                String value = h.substring(h.indexOf(':') + 1).trim().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.contains("chunked");
                    case "connection" -> close |= value.contains("close");
                    default -> { }
                }
            }
            if (code == 204 || code == 304) {
                length = 0;
            }
            long read = 0;
            if (chunked) {
                for (long size; (size = Long.parseLong(line().split(";")[0].trim(), 16)) > 0; line()) {
                    skip(size);
                    read += size;
                }
                while (!line().isEmpty()) {   // trailers
                }
            } else if (length >= 0) {
                skip(length);
                read = length;
            } else {
                while (in.read() >= 0) {   // until the server closes
                    read++;
                }
                close = true;
            }
            if (bytes != null) {
                bytes.add(read);
            }
            open = !close;
            return code;
        }

        private void skip(long n) throws IOException {
            for (long left = n; left > 0; ) {
                long s = in.skip(left);
                if (s <= 0) {
                    if (in.read() < 0) {
                        throw new IOException("answer cut short");
                    }
                    s = 1;
                }
                left -= s;
            }
        }

        private String line() throws IOException {
            StringBuilder b = new StringBuilder(64);
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a connection already gone
            }
        }
    }

    /** Permits released at {@code perSecond} onto a queue (by {@link Pacer}) until {@code end}: take one per call. */
    private static BlockingQueue<Runnable> paced(double perSecond, long end) {
        BlockingQueue<Runnable> permits = new LinkedBlockingQueue<>();
        Runnable permit = () -> { };
        Thread pacer = new Thread(() -> Pacer.release(end, new double[] {perSecond}, new Runnable[] {permit}, permits),
                "pacer");
        pacer.setDaemon(true);
        pacer.start();
        return permits;
    }

    private long cpuTicks() {
        return cpuTicks(opts.get("pid"));
    }

    private static long cpuTicks(String pid) {
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
        if (!jdk) {
            return raw.exchange("POST", path,
                    "Content-Type: application/json\r\nAccept: application/json\r\nAccept-Encoding: gzip\r\n", json, null);
        }
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
