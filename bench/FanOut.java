import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Fan-out, the figure Consul's benchmark gives: W watchers on one node, half of them change streams
 * ({@code GET /api/changes?app=FANOUT}) and half blocking fetches ({@code GET /apps/delta?waitForChangeAfter=INDEX},
 * re-armed with the index of each answer, as a long-polling client does); then C changes, one registration every
 * {@code --gap-ms}, and for each change the time until every watcher has it (a stream event naming it, or a fetch
 * answer whose delta holds it). Prints the last watcher's time per change (p50 / p99 / max over the changes), the
 * per-watcher times (p50 / p99 over every watcher and change), the server's heap per open watcher after a full GC,
 * and the load tool's own CPU (it shares the machine's cores with the server). Both kinds are plain-socket clients on
 * two selector threads each: streams ({@link StreamReaders}) and blocking fetches, which are answered and re-armed
 * thousands at a time on every change and ask for gzip as Eureka clients do ({@link LongPollers}).
 *
 * <pre>
 *   java bench/FanOut.java --url http://127.0.0.1:18941/eureka/ --pid PID [--watchers 10000] [--changes 20]
 *        [--gap-ms 1000] [--fetchers N (of the watchers, blocking fetches; default half)]
 * </pre>
 * The server must allow W parked requests ({@code eureka.server.changes.maxOpen} and {@code maxOpenPerClient}: every
 * watcher here comes from one address) and W connections (Tomcat's {@code maxConnections}, 8,192 by default:
 * {@code MAX_CONNECTIONS=20000 bench/tomcat.sh}). Loopback only; bounded in count and time.
 */
public final class FanOut {
    private static final String APP = "FANOUT";
    private static final String MARKER = "\"instanceId\":\"f-";

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new ConcurrentHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String url = o.getOrDefault("url", "http://127.0.0.1:18941/eureka/");
        long pid = Long.parseLong(o.get("pid"));
        int watchers = Integer.parseInt(o.getOrDefault("watchers", "10000"));
        int changes = Integer.parseInt(o.getOrDefault("changes", "20"));
        long gapMs = Long.parseLong(o.getOrDefault("gap-ms", "1000"));
        int waiters = Integer.parseInt(o.getOrDefault("fetchers", Integer.toString(watchers / 2)));
        int streams = watchers - waiters;

        HttpClient writer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long heapBefore = heapAfterGc(pid);
        long[] sentAt = new long[changes];
        Arrays.fill(sentAt, Long.MAX_VALUE);
        // seenAt[w * changes + n]: when watcher w first had change n (nanoTime), 0 until then
        AtomicLongArray seenAt = new AtomicLongArray(watchers * changes);
        AtomicLong failed = new AtomicLong();
        CountDownLatch armed = new CountDownLatch(watchers);
        AtomicInteger open = new AtomicInteger();
        long toolCpu0 = cpuTicks(ProcessHandle.current().pid());

        URI base = URI.create(url);
        for (int t = 0; t < READER_THREADS; t++) {
            StreamReaders readers = new StreamReaders(base, changes, seenAt, failed, open, armed);
            for (int w = t; w < streams; w += READER_THREADS) {
                readers.add(w);
            }
            readers.start();
        }
        String index = writer.send(HttpRequest.newBuilder(URI.create(url + "apps/delta"))
                .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.discarding())
                .headers().firstValue("X-Muster-Index").orElseThrow();
        AtomicInteger rearms = new AtomicInteger();
        for (int t = 0; t < POLLER_THREADS; t++) {
            LongPollers lp = new LongPollers(base, changes, seenAt, failed, rearms);
            for (int w = streams + t; w < watchers; w += POLLER_THREADS) {
                lp.add(w, index);
                open.incrementAndGet();
                armed.countDown();   // sent: the server parks it (a refusal would come back as 503 at once)
            }
            lp.start();
        }
        boolean allArmed = armed.await(180, TimeUnit.SECONDS);
        Thread.sleep(2_000);   // the last fetches parked on the server, not only sent
        long heapOpen = heapAfterGc(pid);
        long cpu0 = cpuTicks(pid);

        for (int n = 0; n < changes; n++) {
            String id = "f-" + n;
            String body = "{\"instance\":{\"instanceId\":\"" + id + "\",\"hostName\":\"h-" + n + "\",\"app\":\""
                    + APP + "\",\"ipAddr\":\"10.0.0.1\",\"status\":\"UP\",\"port\":{\"$\":8080,\"@enabled\":\"true\"},"
                    + "\"dataCenterInfo\":{\"@class\":\"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo\","
                    + "\"name\":\"MyOwn\"},\"leaseInfo\":{\"durationInSecs\":600},\"vipAddress\":\"fanout\"}}";
            sentAt[n] = System.nanoTime();
            writer.send(HttpRequest.newBuilder(URI.create(url + "apps/" + APP)).header("Content-Type",
                    "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.discarding());
            Thread.sleep(gapMs);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && missing(seenAt, watchers, changes) > 0) {
            Thread.sleep(100);
        }
        long serverCpu = cpuTicks(pid) - cpu0;
        long toolCpu = cpuTicks(ProcessHandle.current().pid()) - toolCpu0;

        List<Long> lastPerChange = new ArrayList<>();
        List<Long> all = new ArrayList<>();
        long missed = 0;
        for (int n = 0; n < changes; n++) {
            long last = 0;
            for (int w = 0; w < watchers; w++) {
                long t = seenAt.get(w * changes + n);
                if (t == 0) {
                    missed++;
                    continue;
                }
                long l = Math.max(0, t - sentAt[n]);
                all.add(l);
                last = Math.max(last, l);
            }
            lastPerChange.add(last);
        }
        lastPerChange.sort(null);
        all.sort(null);
        for (int n = 0; n < changes; n++) {
            writer.send(HttpRequest.newBuilder(URI.create(url + "apps/" + APP + "/f-" + n)).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
        }
        double hz = 100.0;   // USER_HZ on Linux
        String json = "{\"watchers\":" + watchers + ",\"streams\":" + streams + ",\"blocking_fetches\":" + waiters
                + ",\"open\":" + open.get() + ",\"all_armed\":" + allArmed + ",\"failed\":" + failed.get()
                + ",\"heap_before_mb\":" + heapBefore / 1024 / 1024 + ",\"heap_open_mb\":" + heapOpen / 1024 / 1024
                + ",\"heap_per_watcher_kb\":" + Math.round((heapOpen - heapBefore) / 1024.0 / Math.max(1, open.get()))
                + ",\"changes\":" + changes + ",\"deliveries\":" + all.size() + ",\"missed\":" + missed
                + ",\"fetch_rearms\":" + rearms.get()
                + ",\"last_watcher_p50_ms\":" + pct(lastPerChange, 0.50) + ",\"last_watcher_p99_ms\":"
                + pct(lastPerChange, 0.99) + ",\"last_watcher_max_ms\":" + pct(lastPerChange, 1.0)
                + ",\"watcher_p50_ms\":" + pct(all, 0.50) + ",\"watcher_p99_ms\":" + pct(all, 0.99)
                + ",\"server_cpu_s\":" + serverCpu / hz + ",\"tool_cpu_s\":" + toolCpu / hz + "}";
        System.out.println("RESULT " + json);
        System.exit(0);
    }

    /** Records every change named in {@code text} as seen by watcher {@code w} at {@code now}, unless seen before. */
    private static void seen(String text, int w, int changes, AtomicLongArray seenAt, long now) {
        for (int at = text.indexOf(MARKER); at >= 0; at = text.indexOf(MARKER, at + 1)) {
            int from = at + MARKER.length();
            int end = text.indexOf('"', from);
            int n = end > from ? Integer.parseInt(text.substring(from, end)) : -1;
            if (n >= 0 && n < changes) {
                seenAt.compareAndSet(w * changes + n, 0, now);
            }
        }
    }

    private static long missing(AtomicLongArray seenAt, int watchers, int changes) {
        long n = 0;
        for (int i = 0; i < watchers * changes; i++) {
            n += seenAt.get(i) == 0 ? 1 : 0;
        }
        return n;
    }

    /** Selector threads the blocking fetches are spread over. */
    private static final int POLLER_THREADS = 2;
    /** Selector threads the change streams are spread over. */
    private static final int READER_THREADS = 2;

    /**
     * Change streams on one selector thread, on plain sockets: each asks for {@code api/changes?app=FANOUT} and
     * then reads events for as long as the run lasts, looking for the changes' instance ids in whatever arrived
     * (with the end of the previous read in front, in case an id was cut between two). The JDK HttpClient's
     * per-chunk handling took this tool more CPU than the server spent sending.
     */
    private static final class StreamReaders extends SelectorClients {
        private final int changes;
        private final AtomicLongArray seenAt;
        private final AtomicInteger open;
        private final CountDownLatch armed;
        private final java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(64 * 1024);

        StreamReaders(URI base, int changes, AtomicLongArray seenAt, AtomicLong failed, AtomicInteger open,
                      CountDownLatch armed) throws IOException {
            super("stream-readers", base, failed);
            this.changes = changes;
            this.seenAt = seenAt;
            this.open = open;
            this.armed = armed;
        }

        void add(int w) throws IOException {
            Stream s = new Stream(w);
            s.out = java.nio.ByteBuffer.wrap(("GET " + base.getPath() + "api/changes?app=" + APP + " HTTP/1.1\r\nHost: "
                    + base.getHost() + ":" + base.getPort() + "\r\nAccept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            connect(s);
        }

        @Override
        void readable(java.nio.channels.SelectionKey key, Connection c) throws IOException {
            Stream s = (Stream) c;
            int n;
            while ((n = s.channel.read(in)) > 0) {
                long now = System.nanoTime();
                String text = s.tail + new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
                in.clear();
                if (!s.armed) {
                    if (!text.startsWith("HTTP/1.1 200")) {
                        throw new IOException("stream refused: " + text.lines().findFirst().orElse(""));
                    }
                    if (text.contains("retry:")) {
                        s.armed = true;
                        open.incrementAndGet();
                        armed.countDown();
                    }
                }
                seen(text, s.w, changes, seenAt, now);
                s.tail = text.substring(Math.max(0, text.length() - 64));
            }
            if (n < 0) {
                throw new IOException("closed by the server");
            }
        }

        @Override
        void failed(java.nio.channels.SelectionKey key, Connection c, IOException e) throws IOException {
            super.failed(key, c, e);
            if (!((Stream) c).armed) {
                armed.countDown();
            }
        }
    }

    /** One change stream: whether its preamble came, and the end of what it last read. */
    private static final class Stream extends Connection {
        final int w;
        boolean armed;
        String tail = "";

        Stream(int w) {
            this.w = w;
        }
    }

    /** A plain-socket HTTP connection: what it has yet to send. */
    private abstract static class Connection {
        java.nio.channels.SocketChannel channel;
        java.nio.ByteBuffer out;
    }

    /**
     * Connections on one selector thread: each sends its {@link Connection#out}, then {@link #readable} handles
     * what arrives; a failure counts, and closes that connection only. Its first reason is printed.
     */
    private abstract static class SelectorClients extends Thread {
        final java.nio.channels.Selector selector = java.nio.channels.Selector.open();
        final URI base;
        final AtomicLong failed;

        SelectorClients(String name, URI base, AtomicLong failed) throws IOException {
            super(name);
            setDaemon(true);
            this.base = base;
            this.failed = failed;
        }

        void connect(Connection c) throws IOException {
            c.channel = java.nio.channels.SocketChannel.open(new java.net.InetSocketAddress(base.getHost(),
                    base.getPort()));
            c.channel.configureBlocking(false);
            c.channel.register(selector, java.nio.channels.SelectionKey.OP_WRITE, c);
        }

        abstract void readable(java.nio.channels.SelectionKey key, Connection c) throws IOException;

        void failed(java.nio.channels.SelectionKey key, Connection c, IOException e) throws IOException {
            if (failed.incrementAndGet() == 1) {
                System.err.println(getName() + ", first failure: " + e.getMessage());
            }
            key.cancel();
            c.channel.close();
        }

        @Override
        public void run() {
            try {
                while (!isInterrupted()) {
                    selector.select(1000);
                    for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                        var key = it.next();
                        it.remove();
                        Connection c = (Connection) key.attachment();
                        try {
                            if (key.isWritable()) {
                                c.channel.write(c.out);
                                if (!c.out.hasRemaining()) {
                                    key.interestOps(java.nio.channels.SelectionKey.OP_READ);
                                }
                            } else if (key.isReadable()) {
                                readable(key, c);
                            }
                        } catch (IOException e) {
                            failed(key, c, e);
                        }
                    }
                }
            } catch (IOException e) {
                failed.incrementAndGet();
            }
        }
    }

    /**
     * Long-polling clients on one selector thread, written on plain sockets: each asks for the gzip delta after the
     * index it has ({@code Accept-Encoding: gzip}, as Eureka clients ask), and again on the same connection with each
     * answer's {@code X-Muster-Index}. A JDK HttpClient per request cost this tool twice the server's CPU on the
     * shared cores (5,000 answers and re-arms per change), which then measured the tool, not the server.
     */
    private static final class LongPollers extends SelectorClients {
        private final int changes;
        private final AtomicLongArray seenAt;
        private final AtomicInteger rearms;

        LongPollers(URI base, int changes, AtomicLongArray seenAt, AtomicLong failed, AtomicInteger rearms)
                throws IOException {
            super("long-pollers", base, failed);
            this.changes = changes;
            this.seenAt = seenAt;
            this.rearms = rearms;
        }

        void add(int w, String index) throws IOException {
            Poll p = new Poll(w);
            p.request(base, index);
            connect(p);
        }

        @Override
        void readable(java.nio.channels.SelectionKey key, Connection c) throws IOException {
            Poll p = (Poll) c;
            if (!p.read()) {
                return;
            }
            long now = System.nanoTime();
            if (p.status != 200) {
                throw new IOException("answered " + p.status);
            }
            seen(p.bodyText(), p.w, changes, seenAt, now);
            rearms.incrementAndGet();
            p.request(base, p.index);
            p.channel.write(p.out);
            key.interestOps(p.out.hasRemaining() ? java.nio.channels.SelectionKey.OP_WRITE
                    : java.nio.channels.SelectionKey.OP_READ);
        }
    }

    /** One long-polling connection: its request, and the answer read so far (Content-Length or chunked). */
    private static final class Poll extends Connection {
        final int w;
        final java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(64 * 1024);
        final java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
        String index;
        int status;
        /** The answer's body, inflated when it came gzipped; set once {@link #read} returns true. */
        private byte[] body;

        Poll(int w) {
            this.w = w;
        }

        void request(URI base, String after) {
            index = after;
            raw.reset();
            String path = base.getPath() + "apps/delta?waitForChangeAfter=" + after + "&timeout=2m";
            out = java.nio.ByteBuffer.wrap(("GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":"
                    + base.getPort() + "\r\nAccept: application/json\r\nAccept-Encoding: gzip\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        }

        /** Reads what arrived; true once a whole answer is in (then {@link #status} and the body are set). */
        boolean read() throws IOException {
            int n;
            while ((n = channel.read(in)) > 0) {
                raw.write(in.array(), 0, in.position());
                in.clear();
            }
            if (n < 0) {
                throw new IOException("closed by the server");
            }
            return complete();
        }

        private boolean complete() {
            byte[] b = raw.toByteArray();
            int headEnd = indexOf(b, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
            if (headEnd < 0) {
                return false;
            }
            String head = new String(b, 0, headEnd, StandardCharsets.ISO_8859_1);
            String lower = head.toLowerCase(java.util.Locale.ROOT);
            int from = headEnd + 4;
            byte[] payload;
            int cl = lower.indexOf("\r\ncontent-length:");
            if (cl >= 0) {
                int len = Integer.parseInt(head.substring(cl + 17, head.indexOf("\r\n", cl + 2) < 0 ? head.length()
                        : head.indexOf("\r\n", cl + 2)).trim());
                if (b.length - from < len) {
                    return false;
                }
                payload = Arrays.copyOfRange(b, from, from + len);
            } else if (lower.contains("\r\ntransfer-encoding: chunked")) {
                java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
                int at = from;
                while (true) {
                    int eol = indexOf(b, "\r\n".getBytes(StandardCharsets.US_ASCII), at);
                    if (eol < 0) {
                        return false;
                    }
                    int size = Integer.parseInt(new String(b, at, eol - at, StandardCharsets.US_ASCII).split(";")[0]
                            .trim(), 16);
                    if (b.length < eol + 2 + size + 2) {
                        return false;
                    }
                    if (size == 0) {
                        break;
                    }
                    body.write(b, eol + 2, size);
                    at = eol + 2 + size + 2;
                }
                payload = body.toByteArray();
            } else {
                payload = new byte[0];
            }
            status = Integer.parseInt(head.substring(9, 12));
            int ix = lower.indexOf("\r\nx-muster-index:");
            if (ix >= 0) {
                int eol = head.indexOf("\r\n", ix + 2);
                index = head.substring(ix + 17, eol < 0 ? head.length() : eol).trim();
            }
            body = lower.contains("\r\ncontent-encoding: gzip") ? gunzip(payload) : payload;
            return true;
        }

        String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }

        private static byte[] gunzip(byte[] gz) {
            try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
                return in.readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        }

        private static int indexOf(byte[] b, byte[] what, int from) {
            outer:
            for (int i = from; i <= b.length - what.length; i++) {
                for (int j = 0; j < what.length; j++) {
                    if (b[i + j] != what[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }

    private static double pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        int i = (int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1);
        return Math.round(sorted.get(Math.max(0, i)) / 1e5) / 10.0;
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
