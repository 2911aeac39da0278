package io.muster.cache;

import com.google.common.base.Ticker;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.muster.codec.AppsDocument;
import io.muster.codec.Detail;
import io.muster.codec.FragmentCodec;
import io.muster.codec.RegistrySegments;
import io.muster.codec.SegmentedDocument;
import io.muster.codec.WireFormat;
import io.muster.config.ServerConfig.ResponseCacheConfig;
import io.muster.model.VipKind;
import io.muster.registry.AppGroups;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;
import io.muster.regions.RemoteRegions;

import java.time.Clock;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Ready-to-send fetch responses in Eureka's two tiers: a read-write Guava {@link LoadingCache} whose entries expire
 * 180 s after they were built, and a read-only map in front of it that a periodic task refreshes. Unlike Eureka,
 * the refresh runs every 500 ms by default and only replaces entries whose content changed, so a change is
 * visible within about a second while a payload is rebuilt at most once per interval however fast the registry
 * churns, and a request shape nobody has read for a minute leaves the read-only tier rather than being rebuilt. Setting the interval to 30 s gives Eureka's behaviour; disabling the read-only tier makes every read
 * fresh at the cost of a rebuild per change.
 *
 * <p>Invalidation is race-free by construction instead of by removal: each payload records the registry change
 * sequence number read before its snapshot was taken, and each registry change stamps the entities it touched
 * with its own number. A payload older than its entity's stamp is stale, however the invalidation and the load
 * interleaved (Guava silently keeps a value whose load was in flight during {@code invalidate}, which is how
 * Eureka's cache can serve a mid-burst snapshot for minutes).
 *
 * <p>The local full registry and delta, the payloads every client polls, are kept as segments, runs of each
 * application's instances ({@link RegistrySegments}): a rebuild encodes and compresses only the runs that changed, so
 * under churn it costs in proportion to the change, not to the registry. Other shapes (single apps, VIPs, shapes
 * with remote regions) are assembled from per-instance fragments ({@link FragmentCodec}). Both give the bytes the
 * reference encoder gives (docs/benchmark.md).
 *
 * <p>Bounded by the registry, not by what clients ask: a shape that names no app or VIP here ("not found") is kept
 * in neither tier but in a small evicting cache of its own, so a client probing distinct unknown names costs a
 * fixed amount of memory; read-only entries nobody read for a minute leave; and stamps are kept only for
 * targets some payload is held for (the others share one floor stamp, see {@link ChangeStamps}).
 *
 * <p>Thread safety: the stamps ({@link ChangeStamps}) are written by the registry's listener (under its change lock)
 * and pruned by the refresher; both tiers are concurrent maps; Guava single-flights concurrent loads of one key.
 *
 * <p>Time: wall-clock millis (when a payload was built and read) come from the {@link Clock}; how long a build
 * took, which paces the rebuilds ({@link #BUILD_COST_FACTOR}), from {@code nanos} ({@link System#nanoTime} in
 * production), so that a test can say how long a build takes.
 *
 * <p>One class, although long: the two tiers, the "not found" cache and the refresh decide together whether a
 * payload may be served and when it is rebuilt, and each rule reads the others' state. The parts that stand alone
 * are classes of their own ({@link ChangeStamps}, {@link RegistrySegments}, {@link FragmentCodec},
 * {@link HeapHeadroom}).
 */
public final class ResponseCache implements RegistryListener {
    /**
     * A request shape nobody has read for this long leaves the read-only tier instead of being rebuilt on every
     * change: one curl of the XML registry must not cost a rebuild per refresh for ever. Clients poll every 30 s.
     */
    static final long IDLE_SHAPE_MILLIS = 60_000;
    /**
     * What Eureka clients fetch by default (JSON, full detail, gzip; the full registry at start, the delta after):
     * built and compressed from the moment reads open, so that no client waits for a first build, and kept so
     * whether read or not, except a small full registry nobody reads ({@link #LEFT_TO_READER_MAX_BYTES}). Building
     * a 100,000-instance delta from nothing takes seconds; a burst of clients would all wait.
     */
    public static final Set<CacheKey> CLIENT_DEFAULTS = Set.of(
            new CacheKey(CacheKey.Entity.ALL_APPS, "", WireFormat.JSON, Detail.FULL),
            new CacheKey(CacheKey.Entity.DELTA, "", WireFormat.JSON, Detail.FULL));
    /**
     * A stale shape is rebuilt no sooner than this many times its last build's duration after that build, so
     * rebuilding one shape never takes more than about a fifth of a core, whatever the churn: the cost shows as
     * staleness beyond the interval only when a build takes longer than a fifth of it.
     */
    static final long BUILD_COST_FACTOR = 5;
    /**
     * The pace for a stale shape nobody has read for {@link #RECENT_READ_MILLIS}: a registration burst with no
     * reader (a fleet starting, a bulk re-registration) then spends about a fiftieth of a core per kept shape on
     * rebuilds instead of a fifth. Only shapes whose build takes over a fiftieth of the refresh interval are
     * slowed (10 ms at the default: thousands of instances); the first reader after such a burst may get a
     * payload up to fifty builds old, and from the next refresh on its shape is rebuilt at the usual pace (a
     * payload someone was served since its build counts as read, whenever they read it: a 30 s poller included).
     */
    static final long UNREAD_BUILD_COST_FACTOR = 50;
    /**
     * However long its builds take, a stale shape nobody reads waits at most this long after its last build, so
     * that the first reader after a long unread burst is never served a registry more than five minutes old. Not
     * less: at a million instances a build under a registration burst re-encodes and recompresses all of it (10-20 s
     * of CPU on this machine's shared cores), and a 30 s bound slowed a three-node cluster's registration of a million
     * by a third and filled the heap with builds in flight (docs/benchmark.md). Read shapes keep their usual pace.
     */
    static final long MAX_UNREAD_WAIT_MILLIS = 300_000;
    /** Read within this long counts as being read ({@link Payload#markRead} records reads to the second). */
    static final long RECENT_READ_MILLIS = 2_000;
    /**
     * A full registry up to this long (plain bytes, about 16,000 ordinary instances) that went stale unread is left
     * to its next reader instead of being rebuilt: clients fetch it once, when they start, and poll deltas after, so
     * under churn the refresher spent half its time (half its compression) on a full registry nobody fetched.
     * Its reader waits for one build, every concurrent reader for the same one: at 10,000 instances a build from
     * nothing takes about 80 ms, and the segments of the last build are kept, so usually it costs much less. A
     * larger one is still rebuilt ahead of its readers, at the unread pace; deltas always are (their pollers come
     * in bursts, and the first of a burst must not wait).
     */
    static final long LEFT_TO_READER_MAX_BYTES = 16L << 20;
    /**
     * "Not found" answers kept, whatever names clients probe: enough for the apps and VIPs clients look up before
     * they register (a common start-up order), few enough that distinct names of request-line length cost at
     * most a few MB.
     */
    static final int ABSENT_ENTRIES = 1_000;
    /** How often stamps of targets no payload is held for are dropped (their memory grows with name churn). */
    static final long PRUNE_MILLIS = 10_000;
    private final InstanceRegistry registry;
    private final RemoteRegions remote;
    private final Clock clock;
    /** Measures builds, in nanoseconds (as {@link System#nanoTime}). */
    private final LongSupplier nanos;
    private final boolean useReadOnly;
    private final LoadingCache<CacheKey, Payload> readWrite;
    private final Map<CacheKey, Payload> readOnly = new ConcurrentHashMap<>();
    private final ChangeStamps stamps;
    private long lastPrune;
    /** "Not found" payloads of single apps and VIPs, bounded: clients can ask for any number of unknown names. */
    private final Cache<CacheKey, Payload> absent = CacheBuilder.newBuilder().maximumSize(ABSENT_ENTRIES).build();
    /** Request shapes clients have fetched gzipped: their rebuilds compress at once, off the request path. */
    private final Set<CacheKey> gzipWanted = ConcurrentHashMap.newKeySet();
    /** Whether the client defaults were built once reads opened (refresher only: from then on they go as any shape). */
    private boolean defaultsBuilt;
    /** Set when changes left the delta's window; the refresher rebuilds the delta shapes and clears it. */
    private volatile boolean deltaMoved;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder builds = new LongAdder();
    private final LongAdder buildNanos = new LongAdder();
    private final HeapHeadroom headroom = new HeapHeadroom();
    private final LongAdder plainRefused = new LongAdder();
    /** Per-instance fragments that rebuilds assemble payloads from instead of re-encoding every instance. */
    private final FragmentCodec codec;
    /** Per-application segments of the local full registry and delta, rebuilt where they changed. */
    private final RegistrySegments segments;

    public ResponseCache(InstanceRegistry registry, ResponseCacheConfig config, Clock clock) {
        this(registry, RemoteRegions.NONE, config, clock);
    }

    /**
     * @param remote the remote regions merged into request shapes that name them (and into single-app reads when
     *               Eureka's transparent fallback applies); their refreshes make those payloads stale
     */
    public ResponseCache(InstanceRegistry registry, RemoteRegions remote, ResponseCacheConfig config, Clock clock) {
        this(registry, remote, config, clock, System::nanoTime);
    }

    /** @param nanos a monotonic time in nanoseconds, as {@link System#nanoTime}: what builds are timed with */
    ResponseCache(InstanceRegistry registry, RemoteRegions remote, ResponseCacheConfig config, Clock clock,
                  LongSupplier nanos) {
        this.registry = registry;
        this.stamps = new ChangeStamps(registry::sequence);
        this.remote = remote;
        this.clock = clock;
        this.nanos = nanos;
        this.useReadOnly = config.useReadOnlyCache();
        this.codec = new FragmentCodec(clock::millis);
        this.segments = new RegistrySegments(clock::millis, codec);
        Ticker ticker = new Ticker() {
            @Override
            public long read() {
                return TimeUnit.MILLISECONDS.toNanos(clock.millis());
            }
        };
        this.readWrite = CacheBuilder.newBuilder().initialCapacity(config.initialCapacity()).ticker(ticker)
                .expireAfterWrite(config.autoExpiration())
                .build(CacheLoader.from(this::build));
    }

    /** The payload for a request shape; empty when the app is unknown. */
    public Payload get(CacheKey key) {
        if (!useReadOnly) {
            return fresh(key);
        }
        Payload p = readOnly.get(key);
        // Readers never wait for a rebuild once a shape has been built: the refresher replaces stale entries
        // every interval, so the latency of a fetch does not depend on how fast the registry churns.
        if (p != null) {
            hits.increment();
            p.markRead(clock.millis());
            return p;
        }
        p = fresh(key);
        p.markRead(clock.millis());
        if (!p.namesNothingHere()) {
            readOnly.put(key, p);
        }
        return p;
    }

    /** Replaces read-only entries whose content changed since they were built. */
    public void refreshReadOnly() {
        refreshReadOnly(false);
    }

    /**
     * {@link #refreshReadOnly()}, run by the fresh lane; with {@code readsOpen}, first builds the shapes clients
     * fetch by default if nobody has yet. Not before reads open: a payload built before the start-up sync would be
     * served, for up to one interval, to the first clients after it.
     */
    public void refreshReadOnly(boolean readsOpen) {
        long now = clock.millis();
        if (readsOpen && useReadOnly && !defaultsBuilt) {
            for (CacheKey key : CLIENT_DEFAULTS) {
                if (!readOnly.containsKey(key)) {
                    gzipWanted.add(key);
                    Payload p = fresh(key);
                    p.markRead(now);
                    readOnly.putIfAbsent(key, p);
                }
            }
            defaultsBuilt = true;
        }
        boolean windowMoved = deltaMoved;
        deltaMoved = false;
        for (Map.Entry<CacheKey, Payload> e : readOnly.entrySet()) {
            Payload old = e.getValue();
            boolean idle = now - old.lastRead() > IDLE_SHAPE_MILLIS && !CLIENT_DEFAULTS.contains(e.getKey());
            boolean moved = windowMoved && e.getKey().entity() == CacheKey.Entity.DELTA;
            if (idle) {
                readOnly.remove(e.getKey(), old);   // its next reader builds it once, as on first use
            } else if (!moved && !isStale(e.getKey(), old)) {
                continue;
            } else if (leftToReader(e.getKey(), old, now)) {
                readOnly.remove(e.getKey(), old);   // as an idle shape
            } else if (now - old.builtAt() < waitAfterBuild(old, now)) {
                deltaMoved |= moved;   // an expensive shape (a start-up burst into 100,000 instances) waits its turn
            } else {
                Payload rebuilt = fresh(e.getKey());
                if (rebuilt.namesNothingHere() && !CLIENT_DEFAULTS.contains(e.getKey())) {
                    readOnly.remove(e.getKey(), old);   // the app or VIP is gone: "not found" lives in absent
                } else {
                    rebuilt.markRead(old.lastRead());
                    readOnly.put(e.getKey(), rebuilt);
                }
            }
        }
        if (now - lastPrune >= PRUNE_MILLIS) {
            lastPrune = now;
            pruneStamps();
        }
        codec.sweep();   // departed applications' fragments go even when nothing is encoded again
    }

    /**
     * How long after its build a stale payload waits for the next: five builds' time when read since it was built
     * (someone was served it, however long ago) or within the last 2 s, else fifty, but never over 5 minutes.
     */
    private static long waitAfterBuild(Payload p, long now) {
        return wasRead(p, now) ? BUILD_COST_FACTOR * p.buildMillis()
                : Math.min(MAX_UNREAD_WAIT_MILLIS, UNREAD_BUILD_COST_FACTOR * p.buildMillis());
    }

    /** Whether someone was served {@code p} since it was built, or any payload of its shape within the last 2 s. */
    private static boolean wasRead(Payload p, long now) {
        return p.lastRead() >= p.builtAt() || now - p.lastRead() < RECENT_READ_MILLIS;
    }

    /** Whether a stale payload goes to its next reader instead of the refresher ({@link #LEFT_TO_READER_MAX_BYTES}). */
    private static boolean leftToReader(CacheKey key, Payload stale, long now) {
        return key.entity() == CacheKey.Entity.ALL_APPS && stale.length() <= LEFT_TO_READER_MAX_BYTES
                && !wasRead(stale, now);
    }

    /** Per-instance fragments held for the encodings, all wire forms together. */
    int fragmentsHeld() {
        return codec.size();
    }

    /**
     * Drops the stamps (and gzip wishes) of targets no payload is held for, so churn of distinct app and VIP names
     * leaves nothing behind (see {@link ChangeStamps#prune}). Run by the refresher only.
     */
    private void pruneStamps() {
        Set<CacheKey> heldKeys = new HashSet<>(readOnly.keySet());
        heldKeys.addAll(readWrite.asMap().keySet());
        heldKeys.addAll(absent.asMap().keySet());
        Set<CacheKey.Target> held = new HashSet<>();
        for (CacheKey k : heldKeys) {
            if (k.entity() != CacheKey.Entity.ALL_APPS && k.entity() != CacheKey.Entity.DELTA) {
                held.add(k.target());
            }
        }
        stamps.prune(held);
        gzipWanted.removeIf(k -> !heldKeys.contains(k) && !CLIENT_DEFAULTS.contains(k));
    }

    /**
     * The payload as of now, bypassing the read-only tier: for a client that waited for a change and must not be
     * answered with the state it already has while the refresher has yet to run.
     */
    public Payload current(CacheKey key) {
        return fresh(key);
    }

    /**
     * A payload with every change made before this call: one built during it qualifies though writes went on
     * meanwhile. Judging it by the changes made since instead would rebuild back to back for as long as a
     * registration burst lasts (each build outdated by the writes during it): the refresher then took a quarter
     * of a core and more.
     */
    private Payload fresh(CacheKey key) {
        long sequence = stamps.of(key);
        long generation = remote.generation();
        Payload missing = absent.getIfPresent(key);
        if (missing != null && !isOlderThan(key, missing, sequence, generation)) {
            return missing;
        }
        while (true) {
            Payload p;
            try {
                p = readWrite.getUnchecked(key);
            } catch (UncheckedExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            if (isOlderThan(key, p, sequence, generation)) {
                readWrite.asMap().remove(key, p);   // only if nobody replaced it yet
            } else {
                if (p.namesNothingHere()) {
                    readWrite.asMap().remove(key, p);
                    absent.put(key, p);
                }
                return p;
            }
        }
    }


    private boolean isStale(CacheKey key, Payload p) {
        return isOlderThan(key, p, stamps.of(key), remote.generation());
    }

    /** Whether {@code p} misses a change up to {@code sequence}, or a remote regions' copy up to {@code generation}. */
    private boolean isOlderThan(CacheKey key, Payload p, long sequence, long generation) {
        if (dependsOnRemote(key) && p.remoteGeneration() < generation) {
            return true;
        }
        return p.builtFrom() < sequence;
    }

    /** Shapes whose content includes remote regions' copies: rebuilt when a region's copy changes. */
    private boolean dependsOnRemote(CacheKey key) {
        return !key.regions().isEmpty() || (key.entity() == CacheKey.Entity.APP && remote.fallsBack());
    }

    private Payload build(CacheKey key) {
        misses.increment();
        long t0 = nanos.getAsLong();
        long sequence = registry.sequence();   // read before the data: a later change makes this payload stale
        long generation = remote.generation(); // likewise for the remote regions' copies
        if (key.regions().isEmpty() && (key.entity() == CacheKey.Entity.ALL_APPS
                || key.entity() == CacheKey.Entity.DELTA)) {
            return segmented(key, t0, sequence, generation);
        }
        io.muster.model.Applications vip = switch (key.entity()) {
            case VIP -> registry.views().vip(VipKind.VIP, key.name()).applications();
            case SVIP -> registry.views().vip(VipKind.SECURE_VIP, key.name()).applications();
            default -> null;
        };
        byte[] bytes = switch (key.entity()) {
            case ALL_APPS -> encode(key, remote.merged(registry.views().snapshot().applications(), key.regionList()));
            case DELTA -> encode(key, remote.mergedDelta(registry.views().delta().applications(), key.regionList()));
            case VIP, SVIP -> encode(key, vip);
            case APP -> registry.views().application(key.name()).or(() -> remote.fallback(key.name()))
                    .map(app -> codec.encode(key.format(), app, key.detail()))
                    .orElse(new byte[0]);
        };
        Payload payload = new Payload(bytes, sequence, generation);
        if (bytes.length == 0 || vip != null && vip.applications().isEmpty()) {
            payload.namesNothing();
        }
        return built(key, payload, t0);
    }

    /**
     * The regions part of a {@link CacheKey} for a {@code ?regions=} value: the regions it names that are configured
     * here (see {@link RemoteRegions#requested}), comma-joined; empty for the local registry alone.
     */
    public String regionsKey(String regionsParameter) {
        return String.join(",", remote.requested(regionsParameter));
    }

    /** The local full registry or delta, re-encoding only the applications that changed since the last build. */
    private Payload segmented(CacheKey key, long t0, long sequence, long generation) {
        boolean delta = key.entity() == CacheKey.Entity.DELTA;
        AppGroups groups = delta ? registry.views().deltaGroups() : registry.views().groups();
        SegmentedDocument doc = segments.encode(key.format(), key.detail(), delta, document(groups));
        return built(key, new Payload(doc, sequence, generation), t0);
    }

    /** The registry's groups as the codec takes them: each app built, decorated with its leases, when encoded. */
    private static AppsDocument document(AppGroups groups) {
        return new AppsDocument(groups.version(), groups.appsHashCode(), groups.groups().stream()
                .map(g -> new AppsDocument.App(g.app(), g.sources(), g::decorated, g::leaseInfo)).toList());
    }

    private Payload built(CacheKey key, Payload payload, long t0) {
        if (gzipWanted.contains(key) && !payload.isEmpty()) {
            payload.gzipped();
        }
        long took = nanos.getAsLong() - t0;
        payload.timed(clock.millis(), TimeUnit.NANOSECONDS.toMillis(took));
        builds.increment();
        buildNanos.add(took);
        return payload;
    }

    /**
     * Changes left the delta's window (the retention purge): the delta shapes are rebuilt without them at the next
     * refresh and read, although no change stamped them. Otherwise a registry that went quiet would keep serving,
     * and holding, a delta of everything that changed before, however large (a client that filled the registry
     * and cancelled it all left its instances there).
     */
    public void deltaWindowMoved() {
        readWrite.asMap().keySet().removeIf(k -> k.entity() == CacheKey.Entity.DELTA);
        deltaMoved = true;
    }

    /**
     * The gzip form of a payload. The first gzip request for a request shape compresses on its own thread;
     * from then on every rebuild of that shape compresses on the rebuilding thread (usually the refresher).
     */
    public byte[] gzipped(CacheKey key, Payload payload) {
        gzipWanted.add(key);
        return payload.gzipped();
    }

    /**
     * The plain bytes of a payload, or null when making them now would not fit in the heap ({@link HeapHeadroom}):
     * the caller answers 503 rather than risk an OutOfMemoryError on a request thread.
     */
    public byte[] plain(Payload payload) {
        if (!payload.hasPlainBytes() && !headroom.allows(payload.length())) {
            plainRefused.increment();
            return null;
        }
        return payload.bytes();
    }

    private byte[] encode(CacheKey key, io.muster.model.Applications apps) {
        return codec.encode(key.format(), apps, key.detail());
    }

    @Override
    public void onChange(RegistryChange change) {
        if (!change.isVisible()) {
            return;
        }
        stamps.onChange(change);
    }

    public Stats stats() {
        return new Stats(hits.sum(), misses.sum(), builds.sum(), buildNanos.sum(), readOnly.size(),
                readWrite.size() + absent.size(), stamps.size(), plainRefused.sum());
    }

    /**
     * Counters for status pages and metrics.
     *
     * @param readWriteEntries the read-write tier's entries plus the "not found" answers kept
     * @param stamps           targets with a change stamp of their own
     * @param plainRefused     plain fetches answered 503 because their bytes would not have fit in the heap
     */
    public record Stats(long hits, long misses, long builds, long buildNanos, int readOnlyEntries,
                        long readWriteEntries, int stamps, long plainRefused) {
    }
}
