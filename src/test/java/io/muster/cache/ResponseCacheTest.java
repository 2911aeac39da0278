package io.muster.cache;

import io.muster.codec.Detail;
import io.muster.codec.WireFormat;
import io.muster.config.ServerConfig.ResponseCacheConfig;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.regions.RemoteRegions;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseCacheTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));

    private ResponseCache cache(boolean readOnly, Duration interval) {
        return cache(readOnly, interval, Duration.ZERO);
    }

    /**
     * @param buildTime how long every build takes: the cache's nanosecond clock moves only while it builds (it
     *                  reads it as a build starts and as it ends), so the rebuild pacing does not depend on how
     *                  fast this machine builds
     */
    private ResponseCache cache(boolean readOnly, Duration interval, Duration buildTime) {
        AtomicLong nanos = new AtomicLong();
        ResponseCache cache = new ResponseCache(registry, RemoteRegions.NONE,
                new ResponseCacheConfig(readOnly, interval, Duration.ofSeconds(180), 100), clock,
                () -> nanos.getAndAdd(buildTime.toNanos()));
        registry.addListener(cache);
        return cache;
    }

    private static String text(Payload p) {
        return new String(p.bytes(), StandardCharsets.UTF_8);
    }

    private static byte[] gunzip(byte[] gzip) throws java.io.IOException {
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzip))) {
            return in.readAllBytes();
        }
    }

    private static final CacheKey ALL = new CacheKey(CacheKey.Entity.ALL_APPS, "", WireFormat.JSON, Detail.FULL);
    /**
     * A shape the refresher paces by its build time: any but a small full registry, which goes to its next reader
     * once it goes stale unread (a large one is paced like this).
     */
    private static final CacheKey PACED = new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.JSON, Detail.FULL);

    @Test
    void aChangeIsServedAfterTheNextRefreshAndReadersNeverRebuild() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        assertThat(text(cache.get(ALL))).doesNotContain("i-1");
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        assertThat(text(cache.get(ALL))).as("until the refresher runs").doesNotContain("i-1");
        cache.refreshReadOnly();
        assertThat(text(cache.get(ALL))).contains("\"i-1\"");
        assertThat(cache.stats().builds()).isEqualTo(2);
    }

    @Test
    void onceReadsAreOpenTheShapesClientsFetchByDefaultAreBuiltAndTheDeltaIsKeptUpToDateWhetherReadOrNot() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        cache.refreshReadOnly(false);
        assertThat(cache.stats().builds()).as("nothing built before reads open (the start-up sync)").isZero();
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        cache.refreshReadOnly(true);
        assertThat(cache.stats().builds()).isEqualTo(2);
        for (CacheKey key : ResponseCache.CLIENT_DEFAULTS) {
            assertThat(new String(cache.get(key).bytes(), StandardCharsets.UTF_8)).contains("\"i-1\"");
            cache.gzipped(key, cache.get(key));
        }
        assertThat(cache.stats().builds()).as("nobody waits for a first build").isEqualTo(2);
        for (int i = 0; i < 70; i++) {   // unread for over a minute
            clock.advance(Duration.ofSeconds(1));
            registry.register(Instances.up("A", "i-" + (i + 2)), Origin.CLIENT);
            cache.refreshReadOnly(true);
        }
        assertThat(cache.stats().builds()).as("the delta at every change; the full registry once, for its reader")
                .isEqualTo(2 + 70 + 1);
    }

    /**
     * Clients fetch the full registry when they start and poll deltas after: under churn, rebuilding and compressing
     * a full registry nobody fetches was half of what the refresher did. While small, it waits for its reader.
     */
    @Test
    void aSmallFullRegistryNobodyReadsIsBuiltByItsNextReaderWithEveryChangeAndAheadOfItOnceRead() throws Exception {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        registry.register(Instances.up("A", "i-0"), Origin.CLIENT);
        cache.refreshReadOnly(true);
        for (int i = 1; i <= 10; i++) {
            clock.advance(Duration.ofSeconds(3));
            registry.register(Instances.up("A", "i-" + i), Origin.CLIENT);
            cache.refreshReadOnly(true);
        }
        long built = cache.stats().builds();
        byte[] gzip = cache.gzipped(ALL, cache.get(ALL));
        assertThat(cache.stats().builds()).as("its reader waits for one build").isEqualTo(built + 1);
        assertThat(new String(gunzip(gzip), StandardCharsets.UTF_8)).contains("\"i-10\"");
        assertThat(text(cache.get(ALL))).contains("\"i-10\"");
        assertThat(cache.stats().builds()).as("the next reader, none").isEqualTo(built + 1);
        registry.register(Instances.up("A", "i-11"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(1));
        cache.refreshReadOnly(true);
        assertThat(cache.stats().builds()).as("read since its build: rebuilt ahead of its readers again")
                .isEqualTo(built + 3);   // and the delta
        assertThat(text(cache.get(ALL))).contains("\"i-11\"");
        assertThat(cache.stats().builds()).isEqualTo(built + 3);
    }

    /** A large one is rebuilt ahead of its readers all the same: its build would keep a starting client waiting. */
    @Test
    void aLargeFullRegistryNobodyReadsIsStillRebuiltAheadOfItsReaders() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        for (int i = 0; i < 24_000; i++) {
            registry.register(Instances.up("APP-" + i % 100, "large-instance-" + i), Origin.CLIENT);
        }
        cache.refreshReadOnly(true);
        assertThat(cache.get(ALL).length()).isGreaterThan(ResponseCache.LEFT_TO_READER_MAX_BYTES);
        clock.advance(Duration.ofSeconds(3));
        registry.register(Instances.up("APP-0", "later"), Origin.CLIENT);
        cache.refreshReadOnly(true);
        long built = cache.stats().builds();
        assertThat(text(cache.get(ALL))).contains("\"later\"");
        assertThat(cache.stats().builds()).as("its reader waits for nothing").isEqualTo(built);
    }

    /**
     * Delta pollers come in bursts at their interval, unread between them: the first of a burst must not wait for a
     * build (a rule that left unread payloads to their next reader made bursts wait seconds at 100,000 instances).
     */
    @Test
    void aDeltaNobodyReadSinceItsBuildIsStillRebuiltAheadOfItsPollers() {
        ResponseCache cache = cache(true, Duration.ofMillis(500), Duration.ofMillis(5));
        CacheKey delta = new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.JSON, Detail.FULL);
        cache.get(delta);
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(3));
        cache.refreshReadOnly();
        long built = cache.stats().builds();
        registry.register(Instances.up("A", "i-2"), Origin.CLIENT);
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofMillis(500));
            cache.refreshReadOnly();
        }
        assertThat(cache.stats().builds()).as("unread for 5 s, rebuilt by the refresher all the same")
                .isEqualTo(built + 1);
        assertThat(text(cache.get(delta))).contains("\"i-2\"");
        assertThat(cache.stats().builds()).as("its poller waits for nothing").isEqualTo(built + 1);
    }

    @Test
    void whenWholeApplicationsDepartTheirInstancesFragmentsGoWithinTwoSweepsThoughNothingIsEncodedAgain() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        registry.register(Instances.up("STAYS", "s-1"), Origin.CLIENT);
        for (int i = 0; i < 40; i++) {
            registry.register(Instances.up("GONE-" + i % 4, "g-" + i), Origin.CLIENT);
        }
        cache.refreshReadOnly(true);
        int withAll = cache.fragmentsHeld();
        assertThat(withAll).isGreaterThanOrEqualTo(41);
        for (int i = 0; i < 40; i++) {
            registry.cancel("GONE-" + i % 4, "g-" + i, Origin.CLIENT);
        }
        for (int s = 0; s < 60; s++) {   // 30 s of the refresher's rounds; the delta still lists the cancels
            clock.advance(Duration.ofMillis(500));
            cache.refreshReadOnly(true);
        }
        assertThat(cache.fragmentsHeld()).as("only the fragments payloads still use: STAYS' instance, the delta's")
                .isLessThanOrEqualTo(withAll);
        clock.advance(Duration.ofMinutes(4));   // past the delta's retention
        registry.purgeRecentChanges();
        cache.deltaWindowMoved();
        for (int s = 0; s < 60; s++) {
            clock.advance(Duration.ofMillis(500));
            cache.refreshReadOnly(true);
        }
        assertThat(cache.fragmentsHeld()).as("one instance left, in the shapes built").isLessThanOrEqualTo(2);
    }

    @Test
    void underChurnAFullPayloadIsRebuiltAtMostOncePerInterval() {
        ResponseCache cache = cache(true, Duration.ofHours(1));
        cache.get(ALL);
        for (int i = 0; i < 100; i++) {
            registry.register(Instances.up("A", "i-" + i), Origin.CLIENT);
            cache.get(ALL);
        }
        assertThat(cache.stats().builds()).isEqualTo(1);
        cache.refreshReadOnly();
        assertThat(text(cache.get(ALL))).contains("\"i-99\"");
        assertThat(cache.stats().builds()).isEqualTo(2);
    }

    @Test
    void aStaleShapeIsRebuiltNoSoonerThanFiveTimesItsLastBuildsDurationAfterIt() {
        ResponseCache cache = cache(true, Duration.ofMillis(500), Duration.ofMillis(200));
        cache.get(PACED);   // built now, in 200 ms
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);

        clock.advance(Duration.ofMillis(999));
        cache.refreshReadOnly();
        assertThat(text(cache.get(PACED))).as("within 5 x 200 ms of its build: it waits its turn").doesNotContain("i-1");
        assertThat(cache.stats().builds()).isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        cache.refreshReadOnly();
        assertThat(text(cache.get(PACED))).contains("\"i-1\"");
        assertThat(cache.stats().builds()).isEqualTo(2);
        assertThat(cache.stats().buildNanos()).isEqualTo(Duration.ofMillis(400).toNanos());
    }

    @Test
    void aStaleShapeNobodyReadsIsRebuiltNoSoonerThanFiftyBuildsAfterItAndAtTheUsualPaceOnceReadAgain() {
        ResponseCache cache = cache(true, Duration.ofMillis(500), Duration.ofMillis(200));
        cache.get(PACED);   // built now, in 200 ms, and read; nobody reads it from here on
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(1));
        cache.refreshReadOnly();
        assertThat(cache.stats().builds()).as("read a second ago: rebuilt five builds after the last").isEqualTo(2);

        registry.register(Instances.up("A", "i-2"), Origin.CLIENT);
        clock.advance(Duration.ofMillis(9_999));
        cache.refreshReadOnly();
        assertThat(cache.stats().builds()).as("unread, within 50 x 200 ms of its build: it waits").isEqualTo(2);
        clock.advance(Duration.ofMillis(1));
        cache.refreshReadOnly();
        assertThat(cache.stats().builds()).isEqualTo(3);

        assertThat(text(cache.get(PACED))).as("the reader after the burst").contains("\"i-2\"");
        registry.register(Instances.up("A", "i-3"), Origin.CLIENT);
        clock.advance(Duration.ofMillis(1_000));
        cache.refreshReadOnly();
        assertThat(text(cache.get(PACED))).as("read again: rebuilt five builds after the last").contains("\"i-3\"");
        assertThat(cache.stats().builds()).isEqualTo(4);
    }

    /**
     * A shape whose builds take long (a million instances under a burst) is left unread at most five minutes behind,
     * not fifty builds: the first client after a long unread burst gets a registry at most that old.
     */
    @Test
    void aStaleShapeNobodyReadsIsNeverLeftMoreThanFiveMinutesBehind() {
        ResponseCache cache = cache(true, Duration.ofMillis(500), Duration.ofSeconds(10));
        cache.get(PACED);   // built at 0 in 10 s, and read
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(50));
        cache.refreshReadOnly();
        assertThat(cache.stats().builds()).as("read since its build: rebuilt five builds after it").isEqualTo(2);

        registry.register(Instances.up("A", "i-2"), Origin.CLIENT);   // nobody reads from here on
        clock.advance(Duration.ofMillis(299_999));
        cache.refreshReadOnly();
        assertThat(cache.stats().builds()).as("unread, 4:59.999 after its build").isEqualTo(2);
        clock.advance(Duration.ofMillis(1));
        cache.refreshReadOnly();
        assertThat(cache.stats().builds()).as("five minutes after its build, not fifty builds (500 s)").isEqualTo(3);
        assertThat(text(cache.get(PACED))).contains("\"i-2\"");
    }

    /**
     * A reader served a stale payload gets the next one at the usual pace, however long before the next refresh it
     * read: clients poll every 30 s, so a shape one client polls is never "read within the last 2 s" when the
     * refresher looks (at 100,000 instances such a poller was served a payload 40 % short a minute after the burst).
     */
    @Test
    void aStalePayloadSomeoneWasServedIsRebuiltAtTheUsualPaceHoweverLongAgoTheyRead() {
        ResponseCache cache = cache(true, Duration.ofMillis(500), Duration.ofMillis(200));
        cache.get(PACED);   // built at 0 in 200 ms
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(10));
        cache.refreshReadOnly();   // unread for 10 s, 50 builds after its build: rebuilt, and nobody reads this one
        assertThat(cache.stats().builds()).isEqualTo(2);
        registry.register(Instances.up("A", "i-2"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(1));
        assertThat(text(cache.get(PACED))).as("a poller served the stale payload").doesNotContain("\"i-2\"");
        clock.advance(Duration.ofSeconds(3));
        cache.refreshReadOnly();
        assertThat(cache.stats().builds()).as("read since it was built: rebuilt five builds after, not fifty")
                .isEqualTo(3);
        assertThat(text(cache.get(PACED))).contains("\"i-2\"");
    }

    @Test
    void aBuildOutdatedByWritesDuringItIsServedNotRebuiltUntilNoneCame() {
        AtomicLong calls = new AtomicLong();
        ResponseCache cache = new ResponseCache(registry, RemoteRegions.NONE,
                new ResponseCacheConfig(true, Duration.ofMillis(500), Duration.ofSeconds(180), 100), clock, () -> {
                    // the cache reads this clock as a build starts and as it ends: a registration lands in
                    // between, every time, as during a burst
                    if (calls.incrementAndGet() % 2 == 0 && calls.get() < 1_000) {
                        registry.register(Instances.up("A", "during-" + calls.get()), Origin.CLIENT);
                    }
                    return calls.get();
                });
        registry.addListener(cache);
        registry.register(Instances.up("A", "before"), Origin.CLIENT);
        assertThat(text(cache.get(ALL))).contains("\"before\"");
        assertThat(cache.stats().builds()).as("one build, although a write came during it").isEqualTo(1);
        cache.refreshReadOnly();
        assertThat(text(cache.get(ALL))).as("the refresher's build has what came before it")
                .contains("\"during-2\"");
        assertThat(cache.stats().builds()).isEqualTo(2);
    }

    @Test
    void aFastBuildIsRebuiltAtTheNextRefreshWhateverTheClockSays() {
        ResponseCache cache = cache(true, Duration.ofMillis(500), Duration.ofNanos(999_999));   // under 1 ms
        cache.get(ALL);
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        cache.refreshReadOnly();   // at the very instant of the build
        assertThat(text(cache.get(ALL))).contains("\"i-1\"");
    }

    @Test
    void aShapeNobodyReadsForAMinuteIsNotRebuiltUntilSomeoneAsksAgain() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        CacheKey xml = new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.XML, Detail.FULL);
        cache.get(ALL);
        cache.get(xml);   // one curl of the XML delta
        for (int i = 0; i < 70; i++) {   // 70 s of churn while only JSON clients keep polling
            clock.advance(Duration.ofSeconds(1));
            registry.register(Instances.up("A", "i-" + i), Origin.CLIENT);
            cache.refreshReadOnly();
            cache.get(ALL);
        }
        long builds = cache.stats().builds();
        assertThat(builds).as("JSON rebuilt every cycle, XML only for its first minute").isBetween(2L + 70 + 58, 2L + 70 + 62);
        registry.register(Instances.up("A", "late"), Origin.CLIENT);
        assertThat(new String(cache.get(xml).bytes(), StandardCharsets.UTF_8)).as("a returning reader is served fresh")
                .contains("<instanceId>late</instanceId>");
        cache.refreshReadOnly();
        assertThat(text(cache.get(ALL))).contains("\"late\"");
    }

    @Test
    void unknownAppIsAnEmptyPayloadAndGzipInflatesToTheSameBytes() throws Exception {
        ResponseCache cache = cache(false, Duration.ofMillis(500));
        assertThat(cache.get(new CacheKey(CacheKey.Entity.APP, "NOPE", WireFormat.JSON, Detail.FULL)).isEmpty())
                .isTrue();
        registry.register(Instances.up("A", "i-1"), Origin.CLIENT);
        Payload p = cache.get(ALL);
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(p.gzipped()))) {
            assertThat(in.readAllBytes()).isEqualTo(p.bytes());
        }
    }

    /**
     * Eureka's cache can keep a snapshot taken mid-burst for 180 s because an invalidation that arrives while the
     * entry loads is lost. Here loads run while registrations pour in; once the burst ends, every read shows all.
     */
    @Test
    void noStaleEntrySurvivesARegistrationBurst() throws Exception {
        ResponseCache cache = cache(false, Duration.ofMillis(500));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        AtomicBoolean burst = new AtomicBoolean(true);
        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            readers.add(pool.submit(() -> {
                while (burst.get()) {
                    cache.get(ALL);
                    cache.get(new CacheKey(CacheKey.Entity.APP, "BURST", WireFormat.XML, Detail.FULL));
                }
            }));
        }
        for (int i = 0; i < 2000; i++) {
            registry.register(Instances.up("BURST", "b-" + i), Origin.CLIENT);
        }
        burst.set(false);
        for (Future<?> f : readers) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        String all = text(cache.get(ALL));
        String app = text(cache.get(new CacheKey(CacheKey.Entity.APP, "BURST", WireFormat.XML, Detail.FULL)));
        for (int i = 0; i < 2000; i++) {
            assertThat(all).contains("\"b-" + i + "\"");
            assertThat(app).contains("<instanceId>b-" + i + "</instanceId>");
        }
    }

    private static CacheKey app(String name) {
        return new CacheKey(CacheKey.Entity.APP, name, WireFormat.JSON, Detail.FULL);
    }

    private static CacheKey vip(String name) {
        return new CacheKey(CacheKey.Entity.VIP, name, WireFormat.JSON, Detail.FULL);
    }

    @Test
    void distinctUnknownNamesAreAnsweredNotFoundWithoutGrowingEitherTier() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        registry.register(Instances.up("KNOWN", "k-1"), Origin.CLIENT);
        for (int i = 0; i < 20 * ResponseCache.ABSENT_ENTRIES; i++) {
            assertThat(cache.get(app("UNKNOWN-" + i)).isEmpty()).isTrue();
            assertThat(cache.get(vip("unknown-" + i)).namesNothingHere()).isTrue();
            cache.gzipped(app("UNKNOWN-" + i), cache.get(app("UNKNOWN-" + i)));
            if (i % 1000 == 0) {
                clock.advance(Duration.ofSeconds(1));
                cache.refreshReadOnly(true);
            }
        }
        clock.advance(Duration.ofSeconds(11));
        cache.refreshReadOnly(true);
        ResponseCache.Stats stats = cache.stats();
        assertThat(stats.readOnlyEntries()).as("only the client defaults").isEqualTo(2);
        assertThat(stats.readWriteEntries()).isLessThanOrEqualTo(ResponseCache.ABSENT_ENTRIES + 2);
        assertThat(stats.stamps()).isLessThanOrEqualTo(ResponseCache.ABSENT_ENTRIES + 3);
        assertThat(text(cache.get(app("KNOWN")))).contains("\"k-1\"");
    }

    @Test
    void anAppFirstAskedForWhileUnknownIsFoundOnceItRegisters() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        assertThat(cache.get(app("LATER")).isEmpty()).isTrue();
        assertThat(cache.get(vip("later")).namesNothingHere()).isTrue();
        registry.register(Instances.up("LATER", "l-1"), Origin.CLIENT);
        assertThat(text(cache.get(app("LATER")))).contains("\"l-1\"");
        assertThat(text(cache.get(vip("later")))).contains("\"l-1\"");
    }

    @Test
    void churnOfDistinctAppAndVipNamesLeavesNoStampsBehindAndNoStaleAnswer() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        for (int i = 0; i < 5_000; i++) {
            String name = "CHURN-" + i;
            registry.register(Instances.up(name, "c-" + i), Origin.CLIENT);
            if (i % 100 == 0) {
                assertThat(text(cache.get(app(name)))).contains("\"c-" + i + "\"");
            }
            registry.cancel(name, "c-" + i, Origin.CLIENT);
            if (i % 250 == 0) {
                clock.advance(Duration.ofSeconds(1));
                cache.refreshReadOnly(true);
            }
        }
        clock.advance(Duration.ofSeconds(61));
        cache.refreshReadOnly(true);
        clock.advance(Duration.ofSeconds(11));
        cache.refreshReadOnly(true);
        assertThat(cache.stats().stamps()).as("only targets some payload is held for")
                .isLessThanOrEqualTo(ResponseCache.ABSENT_ENTRIES);
        // a name whose stamp was pruned comes back: its old "not found" and old content must not be served
        assertThat(cache.get(app("CHURN-100")).isEmpty()).isTrue();
        registry.register(Instances.up("CHURN-100", "again"), Origin.CLIENT);
        assertThat(text(cache.get(app("CHURN-100")))).contains("\"again\"").doesNotContain("\"c-100\"");
        cache.refreshReadOnly(true);
        assertThat(registry.cancel("CHURN-100", "again", Origin.CLIENT)).isTrue();
        clock.advance(Duration.ofSeconds(1));
        cache.refreshReadOnly(true);
        assertThat(text(cache.get(app("CHURN-100")))).isEmpty();
    }

    @Test
    void aDeltaDropsWhatLeftItsWindowAlthoughNothingChangedSince() {
        ResponseCache cache = cache(true, Duration.ofMillis(500));
        CacheKey delta = new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.JSON, Detail.FULL);
        registry.register(Instances.up("GONE", "g-1"), Origin.CLIENT);
        registry.cancel("GONE", "g-1", Origin.CLIENT);
        cache.refreshReadOnly(true);
        assertThat(text(cache.get(delta))).contains("\"g-1\"");
        clock.advance(Duration.ofMinutes(4));
        assertThat(registry.purgeRecentChanges()).isPositive();
        cache.deltaWindowMoved();
        cache.refreshReadOnly(true);
        assertThat(text(cache.get(delta))).as("no change stamped it, the window did").doesNotContain("\"g-1\"");
    }

    /**
     * A waiting fetch is woken by the registry's sequence, which moves under the change lock, before the listeners
     * (this cache among them) hear of the change: what it is then given as current must hold the change already.
     */
    @Test
    void theCurrentRegistryHoldsAChangeTheCacheHasNotYetBeenToldOf() {
        ResponseCache cache = new ResponseCache(registry, RemoteRegions.NONE,
                new ResponseCacheConfig(true, Duration.ofMillis(500), Duration.ofSeconds(180), 100), clock,
                System::nanoTime);   // not a listener: every change is one it has not been told of yet
        CacheKey delta = new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.JSON, Detail.FULL);
        assertThat(text(cache.current(delta))).doesNotContain("\"w-1\"");
        assertThat(text(cache.current(ALL))).doesNotContain("\"w-1\"");
        registry.register(Instances.up("A", "w-1"), Origin.CLIENT);
        Payload woken = cache.current(delta);
        assertThat(woken.builtFrom()).as("built from the registry's sequence").isEqualTo(registry.sequence());
        assertThat(text(woken)).contains("\"w-1\"");
        assertThat(text(cache.current(ALL))).contains("\"w-1\"");
    }
}
