package io.muster.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The soak of issue 16: one node on Tomcat (port 18971) at default settings under a steady mixed load (instances
 * registering, renewing, changing status, cancelling and registering again; delta-fetching clients), sampled every
 * interval: heap after a full GC, threads, open files, write latency p50/p99. It passes when the heap after GC has
 * no upward trend (least-squares slope over the samples after the first fifth, below {@link #maxSlope}), the thread
 * and file counts end where they settled, and the median p99 of the second half stays near the first half's.
 *
 * <pre>
 * java -cp target/test-classes:CLASSPATH io.muster.chaos.Soak MINUTES     (bench/soak.sh does this)
 * </pre>
 */
public final class Soak {
    /**
     * Heap after GC moves by a few MB between samples (response-cache fragments come and go), which over a short
     * run makes the slope noisy: 0.5 MB/min over 30 minutes, 2 MB/min over 2 (a leak of 1 KB per write, at the
     * soak's rate, is 8 MB/min).
     */
    static double maxSlope(double minutes) {
        return Math.max(0.5, 4 / minutes);
    }

    static final int MAX_THREAD_GROWTH = 8;
    static final int MAX_FD_GROWTH = 16;

    record Sample(double minute, long heapAfterGcKb, int threads, int openFiles, double p50, double p99,
                  double requests) {
    }

    record Result(List<Sample> samples, double minutes, double slopeMbPerMinute, int threadGrowth, int fdGrowth,
                  double firstP99, double lastP99, long serverErrors, long writes) {
        List<String> failures() {
            List<String> f = new ArrayList<>();
            if (slopeMbPerMinute > maxSlope(minutes)) {
                f.add(String.format("heap after GC grows %.2f MB/min", slopeMbPerMinute));
            }
            if (threadGrowth > MAX_THREAD_GROWTH) {
                f.add(threadGrowth + " more threads than after warm-up");
            }
            if (fdGrowth > MAX_FD_GROWTH) {
                f.add(fdGrowth + " more open files than after warm-up");
            }
            if (lastP99 > 5 * firstP99 + 100) {   // lenient: the machine may be shared
                f.add(String.format("p99 went from %.1f ms to %.1f ms", firstP99, lastP99));
            }
            if (serverErrors > 0) {
                f.add(serverErrors + " 5xx");
            }
            return f;
        }

        String table() {
            StringBuilder b = new StringBuilder("| minute | heap after GC (MB) | threads | fds | writes/s | p50 (ms)"
                    + " | p99 (ms) |\n|---:|---:|---:|---:|---:|---:|---:|\n");
            for (Sample s : samples) {
                b.append(String.format("| %.1f | %.1f | %d | %d | %.0f | %.1f | %.1f |%n", s.minute,
                        s.heapAfterGcKb / 1024.0, s.threads, s.openFiles, s.requests, s.p50, s.p99));
            }
            b.append(String.format("%nheap-after-GC slope %.3f MB/min; threads %+d, fds %+d after warm-up; median p99"
                            + " %.1f ms (first half) -> %.1f ms (second half); %d writes, %d 5xx; %s%n",
                    slopeMbPerMinute, threadGrowth, fdGrowth,
                    firstP99, lastP99, writes, serverErrors, failures().isEmpty() ? "PASS" : "FAIL " + failures()));
            return b.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        double minutes = args.length > 0 ? Double.parseDouble(args[0]) : 30;
        Result r = run(Path.of("").toAbsolutePath(), minutes, 2000, 200);
        System.exit(r.failures().isEmpty() ? 0 : 1);
    }

    /** @param minutes how long; samples every minute (every 10 s for runs of 5 minutes or less) */
    static Result run(Path repo, double minutes, int instances, int opsPerSecond) throws Exception {
        Path out = repo.resolve("target/soak");
        Files.createDirectories(out);
        TomcatNode node = new TomcatNode("soak", 18971, TomcatNode.catalinaHome(repo), out.resolve("node"),
                repo.resolve("target/eureka.war").toAbsolutePath(), repo);
        Outages outages = new Outages(1);
        Thread stopper = new Thread(() -> close(node), "soak-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try (ClientLoad load = new ClientLoad(List.of(node.url()), new Ledger(), outages, 8, 50)) {
            node.start(List.of("-Xms64m", "-Xmx512m", "-XX:+UseG1GC"), Cluster.START_TIMEOUT);
            List<DeltaWatcher> watchers = List.of(new DeltaWatcher(node.url(), 0, outages),
                    new DeltaWatcher(node.url(), 0, outages));
            watchers.forEach(Thread::start);
            load.registerNew(instances, new int[]{0}, null);
            load.phase(ClientLoad.Phase.FULL, opsPerSecond);
            Duration interval = minutes <= 5 ? Duration.ofSeconds(10) : Duration.ofMinutes(1);
            List<Sample> samples = new ArrayList<>();
            long start = System.nanoTime();
            long end = start + (long) (minutes * 60e9);
            load.latencies.drain();
            long lastWrites = load.writes.sum();
            while (System.nanoTime() < end) {
                Thread.sleep(interval.toMillis());
                double[] lat = load.latencies.drain();
                long writes = load.writes.sum();
                Sample s = new Sample((System.nanoTime() - start) / 60e9, node.heapAfterGcKb(), node.threads(),
                        node.openFiles(), lat[0], lat[1], (writes - lastWrites) / (double) interval.toSeconds());
                lastWrites = writes;
                samples.add(s);
                Chaos.log(String.format("soak %.1f min: heap after GC %.1f MB, %d threads, %d fds, %.0f writes/s,"
                                + " p50 %.1f ms, p99 %.1f ms", s.minute, s.heapAfterGcKb / 1024.0, s.threads,
                        s.openFiles, s.requests, s.p50, s.p99));
            }
            load.phase(ClientLoad.Phase.PAUSED, opsPerSecond);
            watchers.forEach(Thread::interrupt);
            long errors = load.serverErrorsWhileUp.sum() + watchers.stream()
                    .mapToLong(w -> w.serverErrorsWhileUp.sum()).sum();
            Result r = summarize(samples, minutes, errors, load.writes.sum());
            Files.writeString(out.resolve("results.md"), r.table());
            System.out.println(r.table());
            return r;
        } finally {
            close(node);
            Runtime.getRuntime().removeShutdownHook(stopper);
        }
    }

    static Result summarize(List<Sample> samples, double minutes, long errors, long writes) {
        List<Sample> settled = samples.subList(samples.size() / 5, samples.size());
        double n = settled.size();
        double mx = settled.stream().mapToDouble(Sample::minute).sum() / n;
        double my = settled.stream().mapToDouble(s -> s.heapAfterGcKb / 1024.0).sum() / n;
        double sxy = settled.stream().mapToDouble(s -> (s.minute - mx) * (s.heapAfterGcKb / 1024.0 - my)).sum();
        double sxx = settled.stream().mapToDouble(s -> (s.minute - mx) * (s.minute - mx)).sum();
        Sample first = settled.get(0);
        Sample last = settled.get(settled.size() - 1);
        int half = Math.max(1, settled.size() / 2);
        return new Result(samples, minutes, sxx == 0 ? 0 : sxy / sxx, last.threads - first.threads,
                last.openFiles - first.openFiles, medianP99(settled.subList(0, half)),
                medianP99(settled.subList(settled.size() - half, settled.size())), errors, writes);
    }

    private static double medianP99(List<Sample> samples) {
        double[] v = samples.stream().mapToDouble(Sample::p99).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static void close(TomcatNode node) {
        try {
            node.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
