package io.muster.chaos;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * Many requests from one anonymous client on a few keep-alive connections, bounded by a count and a time limit
 * (whichever comes first), answered codes counted. Request i is built by the caller, so every request may name
 * something new. -1 counts requests that got no answer.
 */
final class Flood {
    record Outcome(int sent, Map<Integer, Long> codes, Duration took) {
        long count(int code) {
            return codes.getOrDefault(code, 0L);
        }

        boolean all(int code) {
            return count(code) == sent;
        }

        @Override
        public String toString() {
            return sent + " in " + took.toSeconds() + " s, answers " + codes;
        }
    }

    private Flood() {
    }

    static Outcome run(int connections, int count, Duration limit, IntFunction<HttpRequest> request) {
        return runSequences(connections, count, limit, i -> List.of(request.apply(i)));
    }

    /** As {@link #run}, each unit a few requests sent in order on one connection (register, then cancel). */
    static Outcome runSequences(int connections, int count, Duration limit,
                                IntFunction<List<HttpRequest>> requests) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        long end = System.nanoTime() + limit.toNanos();
        long start = System.nanoTime();
        AtomicInteger next = new AtomicInteger();
        Map<Integer, LongAdder> codes = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < connections; t++) {
            Thread th = new Thread(() -> {
                for (int i; (i = next.getAndIncrement()) < count && System.nanoTime() < end; ) {
                    for (HttpRequest r : requests.apply(i)) {
                        int code;
                        try {
                            code = http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
                        } catch (IOException e) {
                            code = -1;
                        } catch (InterruptedException e) {
                            return;
                        }
                        codes.computeIfAbsent(code, k -> new LongAdder()).increment();
                    }
                }
            }, "flood-" + t);
            th.start();
            threads.add(th);
        }
        for (Thread th : threads) {
            try {
                th.join(limit.toMillis() + 30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Map<Integer, Long> counted = new TreeMap<>();
        codes.forEach((k, v) -> counted.put(k, v.sum()));
        int sent = (int) counted.values().stream().mapToLong(Long::longValue).sum();
        return new Outcome(sent, counted, Duration.ofNanos(System.nanoTime() - start));
    }
}
