package io.muster.cache;

import io.muster.codec.Detail;
import io.muster.codec.WireFormat;
import io.muster.config.ServerConfig.ResponseCacheConfig;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Not a test (no {@code Test} suffix, so Surefire skips it): a short in-process measurement of what one refresh
 * of the response cache costs under the bench's "mixed" churn, to be run by hand with {@code main}.
 * 10,000 instances in 100 apps ({@code -Dapps}, {@code -DperApp}), all inside the 3-minute delta window; between
 * two refreshes (500 ms) a sixth of them renew (every 3 s) and 50 chosen at random re-register (100/s), as
 * bench/compare.sh's mixed scenario does.
 * Prints µs per rebuild of each shape, plain and gzipped.
 */
public final class RebuildCostBench {
    private static final int APPS = Integer.getInteger("apps", 100);
    private static final int PER_APP = Integer.getInteger("perApp", 100);

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
        InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
        ResponseCache cache = new ResponseCache(registry,
                new ResponseCacheConfig(true, Duration.ofMillis(500), Duration.ofSeconds(180), 100), clock);
        registry.addListener(cache);
        for (int a = 0; a < APPS; a++) {
            for (int i = 0; i < PER_APP; i++) {
                registry.register(instance(a, i, 0), Origin.CLIENT);
            }
        }
        CacheKey[] keys = {
                new CacheKey(CacheKey.Entity.ALL_APPS, "", WireFormat.JSON, Detail.FULL),
                new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.JSON, Detail.FULL),
                new CacheKey(CacheKey.Entity.ALL_APPS, "", WireFormat.XML, Detail.FULL),
                new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.JSON, Detail.COMPACT),
        };
        for (CacheKey k : keys) {
            cache.gzipped(k, cache.get(k));
        }
        long[] plain = new long[keys.length];
        long[] gz = new long[keys.length];
        long[] size = new long[keys.length];
        long[] gzSize = new long[keys.length];
        int cursor = 0;
        java.util.Random random = new java.util.Random(28);
        int generation = 1;
        for (int r = 0; r < rounds; r++) {
            clock.advance(Duration.ofMillis(500));
            for (int n = 0; n < APPS * PER_APP / 6; n++) {   // 500 ms of renewals every 3 s
                int at = cursor++ % (APPS * PER_APP);
                registry.renew(app(at / PER_APP), id(at / PER_APP, at % PER_APP), null, null, Origin.CLIENT);
            }
            for (int n = 0; n < 50; n++) {                    // 500 ms of 100 re-registrations/s
                int at = random.nextInt(APPS * PER_APP);
                registry.register(instance(at / PER_APP, at % PER_APP, generation++), Origin.CLIENT);
            }
            for (int k = 0; k < keys.length; k++) {
                long t0 = System.nanoTime();
                Payload p = cache.current(keys[k]);
                long t1 = System.nanoTime();
                byte[] g = p.gzipped();
                long t2 = System.nanoTime();
                if (r >= rounds / 2) {   // the first half warms up
                    plain[k] += t1 - t0;
                    gz[k] += t2 - t1;
                    size[k] = p.bytes().length;
                    gzSize[k] = g.length;
                }
            }
        }
        int measured = rounds - rounds / 2;
        breakdown(registry);
        if (args.length > 1 && args[1].equals("levels")) {   // what each gzip level costs on the full registry
            byte[] json = io.muster.codec.EurekaCodec.encode(WireFormat.JSON,
                    registry.views().snapshot().applications(), Detail.FULL);
            for (int level : new int[]{1, 2, 3, 4, 5, 6}) {
                long best = Long.MAX_VALUE;
                int bytes = 0;
                for (int r = 0; r < 7; r++) {
                    long t0 = System.nanoTime();
                    bytes = gzip(json, level).length;
                    best = Math.min(best, System.nanoTime() - t0);
                }
                System.out.printf("gzip level %d: %d µs, %d bytes%n", level, best / 1000, bytes);
            }
        }
        if (args.length > 1 && args[1].equals("memory")) {   // heap held by the fragments of each shape
            // each shape from its own snapshot, dropped after the build, as the cache does: what stays is the
            // fragments and the instance copies their keys hold
            io.muster.codec.FragmentCodec fragments = new io.muster.codec.FragmentCodec(System::currentTimeMillis);
            int instances = registry.views().snapshot().applications().instanceCount();
            for (WireFormat f : WireFormat.values()) {
                for (Detail d : Detail.values()) {
                    long before = usedAfterGc();
                    fragments.encode(f, registry.views().snapshot().applications(), d);
                    long after = usedAfterGc();
                    System.out.printf("fragments %s %s: %d bytes per instance%n", f, d,
                            (after - before) / instances);
                }
            }
            System.out.println(fragments.size() + " fragments held");
        }
        if (args.length > 1 && args[1].equals("profile")) {   // a loop of fragment rebuilds to run under JFR
            io.muster.codec.FragmentCodec fragments = new io.muster.codec.FragmentCodec(System::currentTimeMillis);
            io.muster.model.Applications apps = registry.views().snapshot().applications();
            for (long end = System.nanoTime() + 15_000_000_000L; System.nanoTime() < end; ) {
                fragments.encode(WireFormat.JSON, apps, Detail.FULL);
            }
        }
        for (int k = 0; k < keys.length; k++) {
            System.out.printf("%-9s %-4s %-7s %8d bytes (gzip %7d): build %7d µs, gzip %7d µs%n", keys[k].entity(),
                    keys[k].format(), keys[k].detail(), size[k], gzSize[k], plain[k] / measured / 1000,
                    gz[k] / measured / 1000);
        }
    }

    /** Where a full JSON rebuild's time goes: the snapshot, the encoding, the compression. */
    private static void breakdown(InstanceRegistry registry) {
        long snap = Long.MAX_VALUE, delta = Long.MAX_VALUE, enc = Long.MAX_VALUE, frag = Long.MAX_VALUE,
                gz = Long.MAX_VALUE;
        io.muster.codec.FragmentCodec fragments = new io.muster.codec.FragmentCodec(System::currentTimeMillis);
        fragments.encode(WireFormat.JSON, registry.views().snapshot().applications(), Detail.FULL);
        int n = 15;
        for (int r = 0; r < n; r++) {
            long t0 = System.nanoTime();
            io.muster.model.Applications apps = registry.views().snapshot().applications();
            long t1 = System.nanoTime();
            registry.views().delta();
            long t2 = System.nanoTime();
            byte[] bytes = io.muster.codec.EurekaCodec.encode(WireFormat.JSON, apps, Detail.FULL);
            long t3 = System.nanoTime();
            new Payload(bytes, 0).gzipped();
            long t4 = System.nanoTime();
            fragments.encode(WireFormat.JSON, apps, Detail.FULL);
            frag = Math.min(frag, System.nanoTime() - t4);
            snap = Math.min(snap, t1 - t0);
            delta = Math.min(delta, t2 - t1);
            enc = Math.min(enc, t3 - t2);
            gz = Math.min(gz, t4 - t3);
        }
        System.out.printf("full JSON, best of " + n + ": snapshot %d µs, delta view %d µs, encode %d µs (EurekaCodec) / %d µs"
                        + " (FragmentCodec, warm), gzip %d µs%n",
                snap / 1000, delta / 1000, enc / 1000, frag / 1000, gz / 1000);
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static byte[] gzip(byte[] plain, int level) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(plain.length / 8);
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(out, 8192) {
            {
                def.setLevel(level);
            }
        }) {
            gz.write(plain);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static String app(int a) {
        return "APP-" + a;
    }

    private static String id(int a, int i) {
        return "10.0." + a + "." + i + ":app-" + a + ":8080";
    }

    private static InstanceInfo instance(int a, int i, int generation) {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("management.port", "8080");
        metadata.put("zone", "z" + (i % 3));
        metadata.put("generation", Integer.toString(generation));
        return Instances.sample(app(a), id(a, i)).hostName("10.0." + a + "." + i).ipAddr("10.0." + a + "." + i)
                .metadata(metadata).homePageUrl("http://10.0." + a + "." + i + ":8080/")
                .statusPageUrl("http://10.0." + a + "." + i + ":8080/actuator/info")
                .healthCheckUrl("http://10.0." + a + "." + i + ":8080/actuator/health")
                .lastDirtyTimestamp(1_000 + generation).build();
    }
}
