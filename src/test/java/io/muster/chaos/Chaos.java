package io.muster.chaos;

import java.util.stream.Stream;
import io.muster.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault harness of issue 16: three Muster nodes on real Tomcat (each its own JVM, the same WAR), every peer link
 * through a {@link LinkProxy}, a client load ({@link ClientLoad}) and delta-fetching clients ({@link DeltaWatcher}),
 * and the faults one at a time, then combined. After each fault heals, {@link Convergence} checks that nothing
 * acknowledged was lost or resurrected and that the nodes agree, and the nodes' queues, heap, threads and files are
 * sampled. Loopback only (nodes 18951-18953, links 18961-18969); every Tomcat it starts is stopped on the way out.
 *
 * <pre>
 * java -cp target/test-classes:CLASSPATH io.muster.chaos.Chaos [--short] [--only kill,clock] [--repeat N]
 *                                                                                  (bench/chaos.sh)
 * </pre>
 */
public final class Chaos {
    /** How big and how long; {@link #full()} is the documented run, {@link #quick()} the one mvn verify runs. */
    /**
     * @param converge how long the harness waits for the nodes to agree
     * @param checkBound the bound for faults only the cluster check can heal (a link fault outlasting the retry
     *                   window): its interval and grace, plus a few seconds
     */
    record Settings(int instances, int burst, int cancelsWhileDown, int workers, int opsPerSecond, int apps,
                    Duration outage, Duration linkFault, Duration converge, Duration checkBound,
                    List<String> nodeSettings) {
    }

    /** A write on a fresh cluster is on every node within this (senders resume when their peer is up). */
    static final Duration FRESH_BOUND = Duration.ofSeconds(2);

    /** Restarts heal by replication and the start-up sync alone: every node agrees within this of the restart. */
    static final Duration RESTART_BOUND = Duration.ofSeconds(10);

    static Settings full() {
        return new Settings(3000, 1000, 100, 12, 150, 60, Duration.ofSeconds(20), Duration.ofSeconds(45),
                Duration.ofSeconds(240), Duration.ofSeconds(30 + 60 + 15), List.of());
    }

    /**
     * Small counts and a cluster check shortened to seconds. The replication retry window stays at its default
     * (30 s): a node that is away for a restart gets what it missed by replication, as at default settings, and
     * the link faults, shorter than the window here, heal by retries (the full run's outlast it, and
     * ClusterCheckIT covers the repairs). Outages of 3 s and link faults of 5 s: every fault still lands while
     * writes are under way (a node killed or undeployed is away for its restart too, some 5-10 s), and the run
     * spends its CPU on faults rather than on waiting them out (it shares two cores with the other ITs).
     */
    static Settings quick() {
        return new Settings(300, 200, 20, 6, 60, 12, Duration.ofSeconds(3), Duration.ofSeconds(5),
                Duration.ofSeconds(90), Duration.ofSeconds(3 + 6 + 15), Stream.concat(Stream.of(
                "-Deureka.server.clusterCheck.intervalMs=3000", "-Deureka.server.clusterCheck.repairGraceMs=6000"),
                // with three nodes, their load and the test on two cores, C2's compiling of each start (and of the
                // restarts) is what the short run would wait for; the nodes keep G1, the collector users get
                ChildJvm.QUICK_START.stream()).toList());
    }

    /** How many faults {@link #faults()} runs (the baseline not counted). */
    static final int FAULTS = 13;

    private static final long TEN_MINUTES = Duration.ofMinutes(10).toMillis();

    private final Settings s;
    private final Path out;
    private final Cluster cluster;
    private final Ledger ledger = new Ledger();
    private final Outages outages = new Outages(3);
    private final ClientLoad load;
    private final List<DeltaWatcher> watchers = new ArrayList<>();
    private final Convergence convergence = new Convergence();
    private final List<FaultResult> results = new ArrayList<>();
    private final int cap;
    /** Words naming the faults to run (--only kill,clock; "=name" for exactly that fault); empty: all. */
    private final List<String> only;
    /** How many times the faults run, one after the other (--repeat N: a rare defect shows up more often). */
    private final int repeat;

    private Chaos(Path repo, Settings s, List<String> only, int repeat) throws IOException {
        this.s = s;
        this.only = only;
        this.repeat = repeat;
        this.out = repo.resolve("target/chaos");
        Files.createDirectories(out);
        // room for everything the faults before the cap register, plus the nodes' own registrations; the cap
        // fault then fills what is left
        this.cap = s.instances + 2 * s.burst * repeat + 3 + 40;
        List<String> settings = new ArrayList<>(s.nodeSettings);
        settings.add("-Deureka.server.maxInstances=" + cap);
        this.cluster = new Cluster(repo, out, 3, settings);
        this.load = new ClientLoad(cluster.urls(), ledger, outages, s.workers, s.apps);
    }

    public static void main(String[] args) throws Exception {
        List<String> a = List.of(args);
        boolean quick = a.contains("--short");
        int o = a.indexOf("--only");
        List<String> only = o >= 0 && o + 1 < a.size() ? List.of(a.get(o + 1).split(",")) : List.of();
        int r = a.indexOf("--repeat");
        int repeat = r >= 0 && r + 1 < a.size() ? Integer.parseInt(a.get(r + 1)) : 1;
        List<FaultResult> results = run(Path.of("").toAbsolutePath(), quick ? quick() : full(), only, repeat);
        System.exit(results.stream().allMatch(FaultResult::passed) ? 0 : 1);
    }

    /** Runs every fault; the results are also written to target/chaos/results.md. */
    static List<FaultResult> run(Path repo, Settings settings, List<String> only, int repeat) throws Exception {
        Chaos chaos = new Chaos(repo, settings, only, repeat);
        Thread stopper = new Thread(chaos::stop, "chaos-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            chaos.all();
        } finally {
            chaos.stop();
            Runtime.getRuntime().removeShutdownHook(stopper);
        }
        return chaos.results;
    }

    private void all() throws Exception {
        log("starting three nodes on Tomcat one after another, as an operator does (cap " + cap + " instances)");
        for (int i = 0; i < 3; i++) {
            cluster.start(i);
        }
        for (int i = 0; i < 3; i++) {
            DeltaWatcher w = new DeltaWatcher(cluster.urls().get(i), i, outages);
            watchers.add(w);
            w.start();
        }
        load.registerNew(s.instances, new int[]{0, 1, 2}, null);
        record("baseline", "a fresh cluster, started one node at a time: " + s.instances + " instances registered,"
                + " spread over the nodes, once the last node opened", FRESH_BOUND, true, () -> {
        });
        try {
            for (int round = 0; round < repeat; round++) {
                faults();
            }
        } finally {
            // also when a fault could not be injected or healed (a node that would not start): what ran is shown
            Files.writeString(out.resolve("results.md"), FaultResult.table(results));
            System.out.println(FaultResult.table(results));
        }
    }

    private void faults() throws Exception {
        record("kill -9 during a burst", "SIGKILL node 2 right after it acknowledged " + s.cancelsWhileDown / 4
                + " cancellations, halfway through " + s.burst + " registrations on nodes 1 and 3; "
                + s.cancelsWhileDown + " of those cancelled on node 3 while node 2 is down; node 2 started again",
                RESTART_BOUND, true, () -> killDuringBurst(1));
        record("undeploy and redeploy", "node 2's application undeployed through Tomcat's manager for "
                + s.outage.toSeconds() + " s under load, then deployed again", RESTART_BOUND, true, () -> {
            outages.down(1);
            cluster.nodes.get(1).undeploy();
            Thread.sleep(s.outage.toMillis());
            cluster.nodes.get(1).deploy(Cluster.START_TIMEOUT);
            outages.up(1);
        });
        linkFault("link delay", "links node 1 <-> node 2 delay every chunk 1500 ms",
                () -> cluster.linkBetween(0, 1, LinkProxy.Mode.DELAY, 1500));
        linkFault("link drop", "links node 1 <-> node 2 accept and never answer (blackhole)",
                () -> cluster.linkBetween(0, 1, LinkProxy.Mode.DROP, 0));
        linkFault("link reset", "links node 1 <-> node 2 reset every connection (RST)",
                () -> cluster.linkBetween(0, 1, LinkProxy.Mode.RESET, 0));
        linkFault("peer answers 500", "node 2 answers every replication batch from nodes 1 and 3 with 500",
                () -> cluster.linksInto(1, LinkProxy.Mode.BATCH_500));
        linkFault("peer times out", "node 2 never answers replication batches from nodes 1 and 3 (timeouts)",
                () -> cluster.linksInto(1, LinkProxy.Mode.BATCH_TIMEOUT));
        long skewed = load.clients() / 5;
        record("whole-cluster restart", "every node stopped (SIGTERM: each saves its snapshot), then started"
                + " again one after another, the first with no peer to sync from", RESTART_BOUND, true, () -> {
            for (int i = 0; i < 3; i++) {
                outages.down(i);
            }
            for (int i = 0; i < 3; i++) {
                cluster.nodes.get(i).stop();
            }
            log("all three nodes stopped");
            for (int i = 0; i < 3; i++) {
                cluster.start(i);
                outages.up(i);
            }
            log("all three nodes started again");
        });
        record("client clock 10 min ahead", "a fifth of the clients (" + skewed + ") run their clocks 10 minutes"
                + " ahead for " + s.linkFault.toSeconds() + " s (each sets itself DOWN, then goes on writing), then the"
                + " clocks are put right and each sets itself UP again", () -> {
            load.skewClocks(skewed, TEN_MINUTES);
            log(load.changeStatusOfFirst(skewed, "DOWN") + " skewed clients set DOWN with their clocks ahead");
            Thread.sleep(s.linkFault.toMillis());
            load.skewClocks(skewed, 0);
            log(load.changeStatusOfFirst(skewed, "UP") + " of them set UP again with their clocks put right");
            Thread.sleep(s.linkFault.toMillis());
        });
        record("combined: kill + link drop + skewed clocks", "node 3 killed right after it acknowledged some cancellations, halfway through a burst, while links"
                + " node 1 <-> node 2 drop everything and a fifth of the clients run 10 min ahead; then all healed",
                () -> {
            load.skewClocks(skewed, TEN_MINUTES);
            cluster.linkBetween(0, 1, LinkProxy.Mode.DROP, 0);
            killDuringBurst(2);
            Thread.sleep(Math.max(0, s.linkFault.toMillis() - s.outage.toMillis()));
            cluster.healLinks();
            load.skewClocks(skewed, 0);
            Thread.sleep(s.outage.toMillis());
        });
        record("instance cap during a partition", "node 1 cut off from nodes 2 and 3 while registrations fill both"
                + " sides to maxInstances=" + cap + " and past it; each side admits up to the cap on its own, and after"
                + " the heal every node must hold what either side acknowledged", () -> {
            cluster.linkBetween(0, 1, LinkProxy.Mode.DROP, 0);
            cluster.linkBetween(0, 2, LinkProxy.Mode.DROP, 0);
            fillToCap();
            Thread.sleep(s.linkFault.toMillis());
            cluster.healLinks();
        });
        record("instance cap", "registrations until every node holds maxInstances=" + cap + "; full nodes must"
                + " answer 503 with Retry-After and keep renewing and updating known instances", this::fillToCap);
        record("combined at the cap: undeploy + peer 500", "registry at its cap, node 2 undeployed and deployed"
                + " again while node 1 answers replication batches with 500", () -> {
            cluster.linksInto(0, LinkProxy.Mode.BATCH_500);
            outages.down(1);
            cluster.nodes.get(1).undeploy();
            Thread.sleep(s.outage.toMillis());
            cluster.nodes.get(1).deploy(Cluster.START_TIMEOUT);
            outages.up(1);
            Thread.sleep(Math.max(0, s.linkFault.toMillis() - s.outage.toMillis()));
            cluster.healLinks();
        });
    }

    private void killDuringBurst(int victim) throws Exception {
        int[] homes = victim == 1 ? new int[]{0, 2} : new int[]{0, 1};
        List<String> burst = load.registerNew(s.burst, homes, () -> {
            // cancellations the victim acknowledges just before it dies: not yet replicated when it is killed
            log(load.cancelSomeHomedAt(victim, s.cancelsWhileDown / 4) + " cancelled on node " + (victim + 1)
                    + " right before it is killed");
            outages.down(victim);
            try {
                cluster.nodes.get(victim).kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log("node " + (victim + 1) + " killed (SIGKILL)");
        });
        int cancelled = load.cancelThrough(burst.subList(0, Math.min(burst.size(), s.cancelsWhileDown * 2)),
                homes[1]);
        log(cancelled + " cancelled while node " + (victim + 1) + " is down");
        Thread.sleep(s.outage.toMillis());
        cluster.start(victim);
        outages.up(victim);
    }

    private void linkFault(String name, String what, Fault inject) throws Exception {
        record(name, what + " for " + s.linkFault.toSeconds() + " s",
                () -> {
            inject.run();
            Thread.sleep(s.linkFault.toMillis());
            cluster.healLinks();
        });
    }

    private void fillToCap() throws Exception {
        RegistryView now = RegistryView.fetch(java.net.http.HttpClient.newHttpClient(), cluster.urls().get(0), "apps/");
        int room = cap - now.instances();
        load.registerNew(Math.max(0, room) + 200, new int[]{0, 1, 2}, null);
        Thread.sleep(s.outage.toMillis());
    }

    @FunctionalInterface
    interface Fault {
        void run() throws Exception;
    }

    private void record(String name, String injected, Fault fault) throws Exception {
        record(name, injected, s.checkBound, false, fault);
    }

    private void record(String name, String injected, Duration bound, boolean everyPoll, Fault fault)
            throws Exception {
        if (!only.isEmpty() && !name.equals("baseline") && only.stream().noneMatch(w -> w.startsWith("=")
                ? name.equals(w.substring(1)) : name.contains(w))) {
            return;
        }
        log("fault: " + name);
        Counters before = Counters.of(load, watchers);
        Instant started = Instant.now();
        load.phase(ClientLoad.Phase.FULL, s.opsPerSecond);
        fault.run();
        load.phase(ClientLoad.Phase.RENEW_ONLY, s.opsPerSecond);
        load.settle();
        Convergence.Verdict v = convergence.await(cluster.urls(), ledger, s.converge, bound);
        double drained = awaitQueuesDrained(Duration.ofSeconds(60));
        List<NodeGauges> gauges = cluster.nodes.stream().map(NodeGauges::of).toList();
        List<String> trace = trace(v);
        FaultResult r = new FaultResult(name, injected, Duration.between(started, Instant.now()), v, drained,
                Counters.of(load, watchers).minus(before), gauges, bound, everyPoll, trace);
        results.add(r);
        log(r.summary());
        gauges.forEach(g -> log("  " + g.brief()));
        trace.forEach(Chaos::log);
    }

    /**
     * What explains a fault's verdict: the differences it names, and for each instance named, the client's writes
     * and every node's log lines about it (also carried in the result, so that a failing ChaosIT shows them).
     */
    private List<String> trace(Convergence.Verdict v) {
        List<String> t = new ArrayList<>();
        v.examples().forEach(e -> t.add("  e.g. " + e));
        v.pollExamples().forEach(e -> t.add("  at a poll: " + e));
        v.pastBound().forEach(e -> t.add("  past the bound: " + e));
        for (String id; (id = load.capRefusedKnownIds.poll()) != null; ) {
            traceInstance(id, "a known instance refused at the cap", t);
        }
        for (String e : v.pollExamples()) {
            traceInstance(e.split(" ")[1], "cancelled, listed at a poll", t);
        }
        for (String id : v.exampleIds()) {
            traceInstance(id, "named by the verdict", t);
        }
        return t;
    }

    /** One instance's part of a trace: the client's last writes, then every node's log lines about it. */
    private void traceInstance(String id, String why, List<String> t) {
        t.add("  " + id + " (" + why + "): the client's writes");
        load.history(id).forEach(h -> t.add("    " + h));
        t.add("  " + id + ": the nodes' logs");
        cluster.logLinesAbout("/" + id + " ").forEach(h -> t.add("    " + h));
    }

    /**
     * Seconds until every node's replication queues hold at most {@link FaultResult#MAX_SETTLED_QUEUE} tasks (a
     * sender still backing off from a peer that was away drains at its next attempt), or -1 when they did not.
     */
    private double awaitQueuesDrained(Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        while (System.nanoTime() - start < timeout.toNanos()) {
            if (cluster.nodes.stream().allMatch(n -> NodeGauges.queueDepth(n) <= FaultResult.MAX_SETTLED_QUEUE)) {
                return (System.nanoTime() - start) / 1e9;
            }
            Thread.sleep(500);
        }
        return -1;
    }

    private synchronized void stop() {
        load.close();
        watchers.forEach(Thread::interrupt);
        cluster.close();
    }

    static void log(String line) {
        System.out.println("[chaos " + Instant.now().toString().substring(11, 19) + "] " + line);
    }
}
