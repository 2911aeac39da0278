package io.muster.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Simulated Eureka clients, written as Netflix's client behaves: each instance has a home node and fails over to
 * the next node on an I/O error or a 5xx; it registers with its status and its own lastDirtyTimestamp (from its own
 * clock), renews with {@code status} and {@code lastDirtyTimestamp}, registers again (with a new dirty timestamp)
 * when a heartbeat answers 404, changes status by registering again with a new dirty timestamp, and cancels.
 * Every acknowledged write goes into the {@link Ledger}.
 *
 * <p>Instances are split between worker threads (instance k belongs to worker k % workers), so the writes for one
 * instance are sent one after the other, as one client sends them.
 */
final class ClientLoad implements AutoCloseable {
    enum Phase { FULL, RENEW_ONLY, PAUSED }

    /** What clients set themselves (OUT_OF_SERVICE is an operator's override, which a registration cannot undo). */
    static final String[] STATUSES = {"UP", "DOWN", "STARTING"};

    private final List<String> nodes;
    private final Ledger ledger;
    private final Outages outages;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final int apps;
    private final List<Worker> workers = new ArrayList<>();
    private final AtomicLong nextInstance = new AtomicLong();
    private final Map<String, Client> byId = new ConcurrentHashMap<>();
    private volatile Phase phase = Phase.PAUSED;
    private volatile long opsPerSecondPerWorker;
    /** Clients whose number is below this run their clock ten minutes ahead (see {@link #skewClocks}). */
    private volatile long skewBelow = -1;
    private volatile long skewMillis;

    final LongAdder writes = new LongAdder();
    final LongAdder acked = new LongAdder();
    final LongAdder failovers = new LongAdder();
    final LongAdder renewNotFound = new LongAdder();
    final LongAdder capRefusals = new LongAdder();
    final LongAdder capRefusalsWithoutRetryAfter = new LongAdder();
    /** A known instance's registration refused at the cap (re-registering must always work). */
    final LongAdder capRefusedKnown = new LongAdder();
    /** Which instances those were (the first few), for the fault's log. */
    final java.util.Queue<String> capRefusedKnownIds = new java.util.concurrent.ConcurrentLinkedQueue<>();
    final LongAdder serverErrorsWhileUp = new LongAdder();
    final LongAdder serverErrorsWhileDown = new LongAdder();
    final LongAdder other4xx = new LongAdder();
    final Latencies latencies = new Latencies();

    ClientLoad(List<String> nodes, Ledger ledger, Outages outages, int workerCount, int apps) {
        this.nodes = nodes;
        this.ledger = ledger;
        this.outages = outages;
        this.apps = apps;
        for (int w = 0; w < workerCount; w++) {
            workers.add(new Worker(w));
        }
        workers.forEach(Worker::start);
    }

    void phase(Phase p, long opsPerSecond) {
        opsPerSecondPerWorker = Math.max(1, opsPerSecond / workers.size());
        phase = p;
    }

    /** Waits until every worker has finished the write it was sending (after a phase change). */
    void settle() throws InterruptedException {
        Thread.sleep(200);
        for (Worker w : workers) {
            while (w.busy) {
                Thread.sleep(20);
            }
        }
    }

    /**
     * From now on, clients created with a number below {@code below} (the first instances) run their clocks
     * {@code millis} ahead; 0 puts the clocks right again (an operator fixing NTP).
     */
    void skewClocks(long below, long millis) {
        skewBelow = below;
        skewMillis = millis;
    }

    /** Registers {@code count} new instances, spread over the given home nodes, as fast as the workers allow. */
    List<String> registerNew(int count, int[] homes, Runnable halfway) throws InterruptedException {
        List<Client> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long k = nextInstance.getAndIncrement();
            Client c = new Client(k, "chaos-" + k, "CHAOS-" + (k % apps), homes[i % homes.length]);
            batch.add(c);
            byId.put(c.id, c);
        }
        List<Thread> threads = new ArrayList<>();
        int parts = workers.size();
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        for (int p = 0; p < parts; p++) {
            int part = p;
            Thread t = new Thread(() -> {
                for (int i = part; i < batch.size(); i += parts) {
                    Client c = batch.get(i);
                    c.register("UP");
                    workers.get((int) (c.number % parts)).adopt(c);
                    if (done.incrementAndGet() == batch.size() / 2 && halfway != null) {
                        halfway.run();
                    }
                }
            }, "chaos-burst-" + p);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        return batch.stream().map(c -> c.id).toList();
    }

    /**
     * Cancels the given instances through one node (as clients homed there would), one after the other, while the
     * steady load is paused for them; returns how many were acknowledged.
     */
    int cancelThrough(List<String> ids, int node) {
        return cancelHomedAt(ids.stream().map(byId::get).filter(java.util.Objects::nonNull).toList(), node,
                Integer.MAX_VALUE);
    }

    /**
     * Cancels up to {@code count} registered clients homed on the node, through that node, one after the other;
     * returns how many that node acknowledged.
     */
    int cancelSomeHomedAt(int node, int count) {
        return cancelHomedAt(byId.values(), node, count);
    }

    private int cancelHomedAt(Iterable<Client> candidates, int node, int limit) {
        int done = 0;
        for (Client c : candidates) {
            if (done >= limit) {
                break;
            }
            if (c.home == node && c.status != null) {
                synchronized (c) {
                    c.cancel();
                }
                done += c.status == null ? 1 : 0;
            }
        }
        return done;
    }

    /**
     * Every registered client numbered below {@code below} registers again with the given status (a status change,
     * as a Netflix client makes one), each with its current clock; returns how many were acknowledged.
     */
    int changeStatusOfFirst(long below, String status) {
        int done = 0;
        for (Client c : byId.values()) {
            if (c.number < below && c.status != null) {
                synchronized (c) {
                    c.register(status);
                }
                done += status.equals(c.status) ? 1 : 0;
            }
        }
        return done;
    }

    /** The last writes of one instance, oldest first (what was sent where and what came back), for diagnosis. */
    List<String> history(String id) {
        Client c = byId.get(id);
        return c == null ? List.of() : c.history();
    }

    /** Number of clients created so far. */
    long clients() {
        return nextInstance.get();
    }

    @Override
    public void close() {
        workers.forEach(Worker::interrupt);
    }

    /** One simulated client: one instance. */
    private final class Client {
        final long number;
        final String id;
        final String app;
        final int home;
        volatile String status;        // null: not registered (never, or cancelled)
        volatile long dirty;
        private final java.util.ArrayDeque<String> history = new java.util.ArrayDeque<>();

        Client(long number, String id, String app, int home) {
            this.number = number;
            this.id = id;
            this.app = app;
            this.home = home;
        }

        List<String> history() {
            synchronized (history) {
                return List.copyOf(history);
            }
        }

        private void note(String what) {
            synchronized (history) {
                if (history.size() == 16) {
                    history.removeFirst();
                }
                history.addLast(java.time.Instant.now().toString().substring(11, 23) + " " + what);
            }
        }

        long clock() {
            return System.currentTimeMillis() + (number < skewBelow ? skewMillis : 0);
        }

        void register(String newStatus) {
            dirty = clock();
            String body = "{\"instance\":{\"instanceId\":\"" + id + "\",\"hostName\":\"h-" + id + "\",\"app\":\"" + app
                    + "\",\"ipAddr\":\"10.1." + (number / 250 % 250) + "." + (number % 250) + "\",\"status\":\""
                    + newStatus + "\",\"overriddenStatus\":\"UNKNOWN\",\"port\":{\"$\":8080,\"@enabled\":\"true\"},"
                    + "\"securePort\":{\"$\":443,\"@enabled\":\"false\"},\"dataCenterInfo\":{\"@class\":"
                    + "\"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo\",\"name\":\"MyOwn\"},\"leaseInfo\":"
                    + "{\"renewalIntervalInSecs\":30,\"durationInSecs\":600},\"vipAddress\":\"" + app.toLowerCase()
                    + "\",\"lastDirtyTimestamp\":\"" + dirty + "\",\"lastUpdatedTimestamp\":\"" + dirty + "\"}}";
            // a 404 to a registration comes from a container whose application is not deployed: next node
            int code = send("register " + newStatus + " dirty " + dirty, true,
                    n -> HttpRequest.newBuilder(URI.create(nodes.get(n) + "apps/" + app))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
            if (code / 100 == 2) {
                status = newStatus;
                ledger.registered(id, app, newStatus);
            } else if (code == 503 && status == null) {
                ledger.cancelled(id, app);    // refused at the cap: it must be nowhere
            } else {
                if (code == 503) {
                    capRefusedKnown.increment();
                    if (capRefusedKnownIds.size() < 5) {
                        capRefusedKnownIds.add(id);
                    }
                }
                ledger.unanswered(id);
            }
        }

        void renew() {
            String s = status;
            int code = send("renew " + s + " dirty " + dirty, false,
                    n -> HttpRequest.newBuilder(URI.create(nodes.get(n) + "apps/" + app + "/" + id
                    + "?status=" + s + "&lastDirtyTimestamp=" + dirty)).PUT(HttpRequest.BodyPublishers.noBody()));
            if (code == 404) {
                renewNotFound.increment();
                register(s);
            }
        }

        void cancel() {
            // a node that does not know the instance (or whose application is away) answers 404: the next node
            int code = send("cancel", true, n -> HttpRequest.newBuilder(URI.create(nodes.get(n) + "apps/" + app + "/"
                    + id)).DELETE());
            if (code == 200) {
                status = null;
                ledger.cancelled(id, app);
            } else {
                ledger.unanswered(id);   // 404 everywhere or no answer: where the instance is now is unknown
            }
        }

        /** Home node first, then the others (as Eureka clients fail over); the status code, or -1. */
        private int send(String what, boolean failOverOn404,
                         java.util.function.IntFunction<HttpRequest.Builder> request) {
            writes.increment();
            for (int attempt = 0; attempt < nodes.size(); attempt++) {
                int n = (home + attempt) % nodes.size();
                if (attempt > 0) {
                    failovers.increment();
                }
                try {
                    long sent = System.nanoTime();
                    HttpResponse<Void> r = http.send(request.apply(n).timeout(Duration.ofSeconds(6)).build(),
                            HttpResponse.BodyHandlers.discarding());
                    latencies.record(System.nanoTime() - sent);
                    int code = r.statusCode();
                    note(what + " -> node " + (n + 1) + ": " + code);
                    if (code == 503 && r.headers().firstValue("Retry-After").isPresent()) {
                        capRefusals.increment();
                        return code;   // full: another node is as full
                    }
                    if (code == 404 && failOverOn404) {
                        continue;
                    }
                    if (code >= 500) {
                        (outages.isDown(n) ? serverErrorsWhileDown : serverErrorsWhileUp).increment();
                        if (code == 503) {
                            capRefusalsWithoutRetryAfter.increment();
                        }
                        continue;
                    }
                    if (code / 100 == 2) {
                        acked.increment();
                    } else if (code != 404) {
                        other4xx.increment();
                    }
                    return code;
                } catch (IOException e) {
                    note(what + " -> node " + (n + 1) + ": " + e.getClass().getSimpleName());
                    // node down or link cut: the next node
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
            }
            return -1;
        }
    }

    /** Runs the steady load for its share of the instances. */
    private final class Worker extends Thread {
        private final List<Client> mine = new java.util.concurrent.CopyOnWriteArrayList<>();
        private int cursor;
        volatile boolean busy;

        Worker(int index) {
            super("chaos-client-" + index);
            setDaemon(true);
        }

        void adopt(Client c) {
            mine.add(c);
        }

        @Override
        public void run() {
            while (!isInterrupted()) {
                try {
                    Phase p = phase;
                    if (p == Phase.PAUSED || mine.isEmpty()) {
                        Thread.sleep(50);
                        continue;
                    }
                    busy = true;
                    try {
                        Client c = mine.get(cursor++ % mine.size());
                        synchronized (c) {
                            step(c, p);
                        }
                    } finally {
                        busy = false;
                    }
                    Thread.sleep(1000 / opsPerSecondPerWorker);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void step(Client c, Phase p) {
            if (ledger.isUncertain(c.id) && c.status != null) {
                c.register(c.status);    // a client that got no answer tries again
                return;
            }
            ThreadLocalRandom r = ThreadLocalRandom.current();
            if (c.status == null) {
                if (p == Phase.FULL && r.nextInt(4) == 0) {
                    c.register("UP");
                }
                return;
            }
            int dice = p == Phase.FULL ? r.nextInt(100) : 99;
            if (dice < 8) {
                c.register(STATUSES[r.nextInt(STATUSES.length)]);
            } else if (dice < 12) {
                c.cancel();
            } else {
                c.renew();
            }
        }
    }
}
