package io.muster.codec;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * Encodes registry payloads from per-instance fragments kept ready in each wire form, producing exactly the
 * bytes of {@link EurekaCodec} (which stays the reference: the envelope and each fragment come from its
 * encoders, and {@code FragmentsTest} compares whole payloads). Rebuilding a 10,000-instance registry then costs
 * a copy of ready bytes plus each instance's lease numbers, instead of a full re-encode, however often it is
 * rebuilt.
 *
 * <p>An instance's fragment is its encoding in pieces around its lease (the part a renewal changes), held per
 * (format, detail) actually requested and keyed by the instance's content apart from the lease
 * ({@link InstanceKey}); full registry, delta, VIP and app payloads of one wire form share them. In JSON the pieces
 * that hold what instances repeat (application, status, ports, data centre, metadata, VIPs) are one copy for all
 * instances ({@link InstancePieces}), so a fragment holds the instance's own text (id, host, address, URLs,
 * timestamps), its lease's last bytes and references: about 660 bytes for an ordinary Spring Cloud instance in the
 * JSON full form, 720 with its key and map entry (docs/benchmark.md, ninth session). A fragment that no payload held
 * or used for {@value #SWEEP_MILLIS} ms is dropped by the next sweep (at an encode, or the cache refresher's
 * {@link #sweep()}), so departed and superseded instances and wire forms nobody reads any more go within twice
 * that.
 *
 * <p>One class, although long: the fragment maps, the last-use times their sweep goes by and the three ways
 * payloads are assembled from them (whole registries, single applications, runs kept by {@link RegistrySegments})
 * share every rule about when a fragment is made, reused and dropped.
 *
 * <p>Thread safety: fragments are immutable byte arrays published through concurrent maps; two threads that miss
 * the same fragment both encode it and one copy wins, which is harmless (application shells are made under
 * {@code computeIfAbsent}). The last-use time and a fragment's last lease bytes are volatiles that any builder may
 * overwrite; a sweep racing a build can drop a fragment that build still uses, which costs one re-encode later.
 */
public final class FragmentCodec {
    static final long SWEEP_MILLIS = 10_000;
    /** An ordinary instance's ranges in a JSON full payload: its pieces, its lease, the comma before it. */
    private static final int RANGES_PER_INSTANCE = 12;
    private static final byte[] XML_APPLICATION_END = "</application>".getBytes(StandardCharsets.US_ASCII);
    private final LongSupplier millis;
    /** Indexed by {@link #shape}: one map per wire format and detail. */
    private final List<Map<InstanceKey, Fragment>> fragments = List.of(new ConcurrentHashMap<>(),
            new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
    /** The encoding of each application without its instances, per shape, by app name: it frames the fragments. */
    private final List<Map<String, Shell>> shells = List.of(new ConcurrentHashMap<>(),
            new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
    /**
     * The same in an application list's form, cut where the instances go (before them, after them), so that a kept
     * segment is made of whole arrays only ({@link Assembly#trimmed}).
     */
    private final List<Map<String, Shell>> listShells = List.of(new ConcurrentHashMap<>(),
            new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
    /**
     * Text that many instances' fragments hold the same (an application's name, status, ports, data centre,
     * metadata, VIP addresses: about half of an ordinary instance's JSON), one copy of each, by content.
     */
    private final Map<SharedPiece, SharedPiece> sharedPieces = new ConcurrentHashMap<>();
    private volatile long lastSweep;
    /** Lists the list forms held ({@link #keepAtEachSweep}); none until told. */
    private volatile java.util.function.Consumer<java.util.function.Consumer<ListForm>> kept = each -> {
    };

    /** @param millis the clock that ages unused fragments */
    public FragmentCodec(LongSupplier millis) {
        this.millis = millis;
        this.lastSweep = millis.getAsLong();
    }

    /** The bytes of {@link EurekaCodec#encode(WireFormat, Applications, Detail)}. */
    public byte[] encode(WireFormat format, Applications apps, Detail detail) {
        Envelope envelope = Envelope.of(format, apps.version(), apps.appsHashCode(), detail);
        long now = millis.getAsLong();
        Assembly out = new Assembly(4 + 3 * apps.instanceCount() + 3 * apps.applications().size());
        out.add(envelope.head());
        for (Application app : apps.applications()) {
            if (out.size() > envelope.head().length) {   // after an application
                out.add(envelope.separator());
            }
            byte[] shell = shell(format, detail, app.name(), now);
            application(out, format, detail, app, shell, Envelope.listFormStart(format),
                    Envelope.listFormEnd(format, shell.length), now);
        }
        out.add(envelope.tail());
        sweepIfDue(now);
        return out.toByteArray();
    }

    /** The bytes of {@link EurekaCodec#encode(WireFormat, Application, Detail)}. */
    public byte[] encode(WireFormat format, Application app, Detail detail) {
        long now = millis.getAsLong();
        byte[] shell = shell(format, detail, app.name(), now);
        Assembly out = new Assembly(4 + 3 * app.instances().size());
        application(out, format, detail, app, shell, 0, shell.length, now);
        sweepIfDue(now);
        return out.toByteArray();
    }

    /**
     * A run of one application's instances as in an {@code applications} document's list (JSON without the
     * {@code {"application":...}} wrapper), as ranges of fragments: a {@link RegistrySegments} segment. An
     * application's runs joined are its list form (in JSON a run after the first starts with a comma).
     *
     * @param sources    the run's instances as the registry holds them: its fragments are keyed by these
     * @param leases     the lease of {@code sources[k]} as written now, asked only where a lease is written
     * @param keepLeases whether an instance keeps lease bytes written before (as old as that writing)
     * @param first      whether the run opens the application, {@code last} whether it closes it
     */
    ListForm listForm(WireFormat format, String app, Detail detail, InstanceInfo[] sources,
                      IntFunction<LeaseInfo> leases, boolean keepLeases, boolean first, boolean last) {
        long now = millis.getAsLong();
        Shell shell = first || last ? listShell(format, detail, app, now) : null;
        Assembly out = new Assembly(4 + RANGES_PER_INSTANCE * sources.length);
        Fragment[] used = new Fragment[sources.length];
        if (first) {
            out.add(shell.head);
        } else if (format == WireFormat.JSON && sources.length > 0) {
            out.comma();
        }
        instances(out, format, detail, sources, leases, used, keepLeases, now);
        if (last) {
            out.add(shell.tail);
        }
        sweepIfDue(now);
        return new ListForm(out.trimmed(), used, shell);
    }

    /** The application's list form without instances, cut where they go. */
    private Shell listShell(WireFormat format, Detail detail, String name, long now) {
        Shell shell = listShells.get(shape(format, detail)).computeIfAbsent(name, n -> {
            byte[] whole = shell(format, detail, n, now);
            int from = Envelope.listFormStart(format);
            int to = Envelope.listFormEnd(format, whole.length);
            int split = split(format, whole, to);
            return new Shell(Arrays.copyOfRange(whole, from, split), Arrays.copyOfRange(whole, split, to));
        });
        shell.lastUsed = now;
        return shell;
    }

    /**
     * Marks a kept list form's fragments as in use, so that the sweep leaves them to the next encoding of their
     * instances by any shape of the wire form instead of each shape encoding a copy of its own.
     */
    private static void keep(ListForm form, long now) {
        for (Fragment f : form.used()) {
            f.lastUsed = now;
        }
        if (form.shell() != null) {   // a run in the middle of an application has none
            form.shell().lastUsed = now;
        }
    }

    /**
     * A run's list form as ranges of fragments and the fragments it was made of, which {@link #keep} marks as in
     * use. Immutable once made; the fragments' last-use times are volatiles.
     */
    record ListForm(Assembly pieces, Fragment[] used, Shell shell) {
    }

    /** Instance fragments held, all shapes together (for tests and the memory figure). */
    public int size() {
        return fragments.stream().mapToInt(Map::size).sum();
    }

    /** Pieces held once for the fragments that share them (for tests). */
    int sharedPieces() {
        return sharedPieces.size();
    }

    /**
     * One application: {@code shell[from, to)} is the encoding of the same application without instances, which
     * is split where its instances go (before the last {@code ]} in JSON, before the closing tag in XML).
     */
    private void application(Assembly out, WireFormat format, Detail detail, Application app, byte[] shell, int from,
                             int to, long now) {
        int split = split(format, shell, to);
        out.add(shell, from, split - from);
        InstanceInfo[] instances = app.instances().toArray(new InstanceInfo[0]);
        instances(out, format, detail, instances, k -> instances[k].leaseInfo(), null, false, now);
        out.add(shell, split, to - split);
    }

    private static int split(WireFormat format, byte[] shell, int to) {
        return format == WireFormat.JSON ? lastIndexOf(shell, (byte) ']', to) : to - XML_APPLICATION_END.length;
    }

    /**
     * The instances' fragments, comma-separated in JSON, each with its lease ({@code leases}) in full detail; each
     * also into {@code used[0..]} unless that is null.
     */
    private void instances(Assembly out, WireFormat format, Detail detail, InstanceInfo[] instances,
                           IntFunction<LeaseInfo> leases, Fragment[] used, boolean keepLeases, long now) {
        Map<InstanceKey, Fragment> held = fragments.get(shape(format, detail));
        Scratch scratch = new Scratch();   // its buffers are made when first needed
        for (int k = 0; k < instances.length; k++) {
            if (k > 0 && format == WireFormat.JSON) {
                out.comma();
            }
            Fragment f = fragment(held, format, detail, instances[k], scratch, now);
            if (used != null) {
                used[k] = f;
            }
            f.lastUsed = now;
            byte[][] pieces = f.pieces;
            for (int p = 0; p < f.leaseAt; p++) {
                out.add(pieces[p]);
            }
            if (detail == Detail.FULL) {
                out.add(f.lease(format, leases, k, keepLeases, scratch));
            }
            for (int p = f.leaseAt; p < pieces.length; p++) {
                out.add(pieces[p]);
            }
        }
    }

    private byte[] shell(WireFormat format, Detail detail, String name, long now) {
        Shell f = shells.get(shape(format, detail)).computeIfAbsent(name, n -> new Shell(
                EurekaCodec.encode(format, new Application(n, List.of()), detail), new byte[0]));
        f.lastUsed = now;
        return f.head;
    }

    private Fragment fragment(Map<InstanceKey, Fragment> held, WireFormat format, Detail detail, InstanceInfo i,
                              Scratch scratch, long now) {
        InstanceKey key = new InstanceKey(i);
        Fragment f = held.get(key);
        if (f == null) {
            InstancePieces parts;
            if (format == WireFormat.JSON) {
                parts = JsonEncoder.instanceParts(i, detail, scratch);
            } else {
                byte[][] around = XmlEncoder.instanceParts(i, detail);
                parts = InstancePieces.around(around[0], around[1]);
            }
            byte[][] pieces = parts.pieces();
            for (int k = 0; k < pieces.length; k++) {
                if (parts.isShared(k)) {
                    pieces[k] = shared(pieces[k], now);
                }
            }
            f = new Fragment(pieces, parts.leaseAt());
            Fragment raced = held.putIfAbsent(key, f);
            f = raced != null ? raced : f;
        }
        return f;
    }

    /** The copy of {@code piece} that fragments share, made from it if there is none yet. */
    private byte[] shared(byte[] piece, long now) {
        SharedPiece probe = new SharedPiece(piece);
        SharedPiece held = sharedPieces.putIfAbsent(probe, probe);
        SharedPiece used = held == null ? probe : held;
        used.lastUsed = now;
        return used.bytes;
    }

    /**
     * A sweep when one is due, whether anything is being encoded or not: after a whole application departs, no
     * payload may need encoding again for a long while, and its instances' fragments must not wait for one.
     */
    public void sweep() {
        sweepIfDue(millis.getAsLong());
    }

    /**
     * Has {@code kept} list every list form held when a sweep is due, so that their fragments are kept in use: a
     * shape that is not rebuilt (a full registry while only the delta's window moves) must not lose its fragments
     * to the sweep, or the next shape to encode those instances makes a second copy of each (at a million
     * instances, 220 MB while a burst left the delta).
     */
    void keepAtEachSweep(java.util.function.Consumer<java.util.function.Consumer<ListForm>> kept) {
        this.kept = kept;
    }

    /**
     * Drops fragments unused since the previous sweep (superseded and departed instances, shapes nobody reads),
     * once the forms held are marked as in use.
     */
    private void sweepIfDue(long now) {
        long since = lastSweep;
        if (now - since < SWEEP_MILLIS) {
            return;
        }
        lastSweep = now;
        kept.accept(form -> keep(form, now));
        for (Map<InstanceKey, Fragment> held : fragments) {
            held.values().removeIf(f -> f.lastUsed < since);
        }
        for (Map<String, Shell> held : shells) {
            held.values().removeIf(f -> f.lastUsed < since);
        }
        for (Map<String, Shell> held : listShells) {
            held.values().removeIf(f -> f.lastUsed < since);
        }
        sharedPieces.values().removeIf(p -> p.lastUsed < since);
    }

    private static int shape(WireFormat format, Detail detail) {
        return format.ordinal() * 2 + detail.ordinal();
    }

    private static int lastIndexOf(byte[] in, byte b, int before) {
        for (int i = before - 1; i >= 0; i--) {
            if (in[i] == b) {
                return i;
            }
        }
        throw new IllegalStateException("no instance list in the application");
    }

    /**
     * An instance's pieces on either side of its lease ({@link InstancePieces}: the shared ones are the
     * {@link #sharedPieces}' copies), and the lease as last written: a lease changes at each renewal (every 30 s
     * for Eureka clients), rebuilds happen every 500 ms, so most rebuilds find it unchanged. The arrays are
     * immutable; the lease's bytes are published whole through a volatile.
     */
    private static final class Fragment {
        final byte[][] pieces;
        final int leaseAt;
        volatile long lastUsed;
        private volatile byte[] lease;

        Fragment(byte[][] pieces, int leaseAt) {
            this.pieces = pieces;
            this.leaseAt = leaseAt;
        }

        /**
         * The lease's bytes: those last written if {@code keep} or if they are what {@code leases.apply(k)} (asked
         * only then) encodes to, else that lease's. Compared as bytes, so that the fragment holds no copy of the
         * lease it wrote (two per instance on a node whose leases are not Eureka's default).
         */
        byte[] lease(WireFormat format, IntFunction<LeaseInfo> leases, int k, boolean keep, Scratch scratch) {
            byte[] last = lease;
            if (last != null && keep) {
                return last;
            }
            Bytes out = scratch.bytes();
            if (format == WireFormat.JSON) {
                JsonEncoder.leaseInfo(out, leases.apply(k));
            } else {
                XmlEncoder.leaseInfo(out, leases.apply(k));
            }
            if (last != null && out.sameAs(last)) {
                return last;
            }
            byte[] bytes = out.toByteArray();
            lease = bytes;
            return bytes;
        }
    }

    /** An application's encoding without instances, cut where they go. The arrays are immutable. */
    private static final class Shell {
        final byte[] head;
        final byte[] tail;
        volatile long lastUsed;

        Shell(byte[] head, byte[] tail) {
            this.head = head;
            this.tail = tail;
        }
    }

    /**
     * A piece of text many instances' fragments hold ({@link InstancePieces#isShared}), held once: compared by
     * content. Its last-use time is when a fragment last took it; the sweep drops it from the map after a sweep
     * interval without new takers, and fragments that hold it keep it alive until they go.
     */
    private static final class SharedPiece {
        final byte[] bytes;
        private final int hash;
        volatile long lastUsed;

        SharedPiece(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SharedPiece p && p.hash == hash && Arrays.equals(p.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
