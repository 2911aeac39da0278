package io.muster.codec;

import io.muster.testing.Heap;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.registry.AppGroups;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Payloads joined from per-application segments are byte for byte what {@link EurekaCodec} writes for the same
 * registry, in every format and detail, plain and (once inflated by the JDK's gzip reader, which checks the CRC and
 * length) gzipped, through registrations, status changes, cancellations, new and departed applications; and a
 * rebuild re-encodes only the applications that changed.
 */
class RegistrySegmentsTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
    private final FragmentCodec codec = new FragmentCodec(clock::millis);
    private final RegistrySegments segments = new RegistrySegments(clock::millis, codec);

    @Test
    void fullAndDeltaPayloadsMatchTheReferenceEncoderThroughChurn() throws IOException {
        Random random = new Random(16);
        for (int n = 0; n < 400; n++) {   // and a quarter in one application, kept as several runs
            registry.register(Instances.up(n % 4 == 0 ? "BIG" : "APP-" + random.nextInt(40), "i-" + n),
                    Origin.CLIENT);
        }
        for (int round = 0; round < 8; round++) {
            assertEveryShapeMatches();
            for (int k = 0; k < 25; k++) {
                int n = random.nextInt(500);
                String app = random.nextInt(3) == 0 ? "BIG" : "APP-" + random.nextInt(45);
                switch (random.nextInt(4)) {
                    case 0 -> registry.register(Instances.up(app, "i-" + n), Origin.CLIENT);
                    case 1 -> registry.views().instanceById("i-" + n).ifPresent(i ->
                            registry.cancel(i.app(), i.id(), Origin.CLIENT));
                    case 2 -> registry.views().instanceById("i-" + n).ifPresent(i -> registry.statusUpdate(
                            i.app(), i.id(), InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT));
                    default -> registry.register(Instances.sample(app, "i-" + n).status(InstanceStatus.DOWN)
                            .build(), Origin.CLIENT);
                }
            }
        }
        assertEveryShapeMatches();
    }

    @Test
    void aRebuildKeepsTheSegmentsOfApplicationsThatDidNotChange() {
        registerSpread(20, 10);
        SegmentedDocument before = segments.encode(WireFormat.JSON, Detail.FULL, false,
                document(registry.views().groups()));
        byte[] gzipBefore = before.gzip();
        registry.register(Instances.up("APP-3", "i-new"), Origin.CLIENT);
        SegmentedDocument after = segments.encode(WireFormat.JSON, Detail.FULL, false,
                document(registry.views().groups()));
        assertThat(after.sharedSegmentsWith(before)).as("all but APP-3").isEqualTo(9);
        assertThat(after.gzip()).isNotEqualTo(gzipBefore);
    }

    /**
     * A gzip answer and the compressed segments it is joined from are one copy of the bytes: each segment's
     * compressed form is a range of the last answer joined from it, and an earlier answer, still being sent, keeps
     * its bytes.
     */
    @Test
    void compressedSegmentsAreHeldInTheAnswerJoinedFromThem() throws IOException {
        registerSpread(200, 10);
        SegmentedDocument first = segments.encode(WireFormat.JSON, Detail.FULL, false,
                document(registry.views().groups()));
        byte[] firstPlain = first.plain();
        byte[] firstGzip = first.gzip();
        byte[] firstCopy = firstGzip.clone();
        for (int i = 0; i < first.segmentCount(); i++) {
            assertThat(first.compressedForm(i).heldIn(firstGzip)).as("segment " + i).isTrue();
        }

        registry.register(Instances.sample("APP-3", "i-3").status(InstanceStatus.DOWN).build(), Origin.CLIENT);
        SegmentedDocument second = segments.encode(WireFormat.JSON, Detail.FULL, false,
                document(registry.views().groups()));
        byte[] secondGzip = second.gzip();
        for (int i = 0; i < second.segmentCount(); i++) {
            assertThat(second.compressedForm(i).heldIn(secondGzip)).as("segment " + i).isTrue();
        }
        assertThat(second.sharedSegmentsWith(first)).as("kept, and moved into the second answer").isPositive();
        assertThat(firstGzip).as("the first answer is never written again").isEqualTo(firstCopy);
        assertThat(gunzip(firstGzip)).isEqualTo(firstPlain);
        assertThat(gunzip(secondGzip)).isEqualTo(second.plain());
    }

    /**
     * Under churn each changed application is compressed again; the one after it only when the changed one's last
     * bytes (what it is compressed against) changed. A re-registration keeps its instance's place in the delta, so
     * that is when the changed instance is the application's last.
     */
    @Test
    void theApplicationAfterAChangedOneIsCompressedAgainOnlyWhenItsLastInstanceChanged() throws IOException {
        int perApp = RegistrySegments.MIN_RUN;   // each application one segment
        for (int n = 0; n < 10 * perApp; n++) {
            registry.register(Instances.up("APP-" + (n / perApp), "i-" + n), Origin.CLIENT);
        }
        SegmentedDocument first = gzippedDelta();
        GzipParts.Part app3 = first.compressedForm(3);
        GzipParts.Part app4 = first.compressedForm(4);
        GzipParts.Part app5 = first.compressedForm(5);
        InstanceInfo[] app3Instances = registry.views().deltaGroups().groups().get(3).sources();

        renewAll();
        registry.register(Instances.sample("APP-3", app3Instances[4].id()).status(InstanceStatus.DOWN).build(),
                Origin.CLIENT);
        SegmentedDocument middleChanged = gzippedDelta();
        assertThat(middleChanged.compressedForm(3)).as("APP-3 itself").isNotSameAs(app3);
        assertThat(middleChanged.compressedForm(4)).as("APP-4, after a change in APP-3's middle").isSameAs(app4);

        renewAll();
        registry.register(Instances.sample("APP-3", app3Instances[perApp - 1].id()).status(InstanceStatus.DOWN).build(),
                Origin.CLIENT);
        SegmentedDocument lastChanged = gzippedDelta();
        assertThat(lastChanged.compressedForm(4)).as("APP-4, after a change of APP-3's last instance")
                .isNotSameAs(app4);
        assertThat(lastChanged.compressedForm(5)).isSameAs(app5);
    }

    /**
     * A large application is kept as runs of instances cut where their ids say, so a change compresses one run
     * again, not the application; and an instance that comes or goes changes the run it is in, not every run after
     * it (a rolling deploy of a 300-instance application, an entry leaving the delta window).
     */
    @Test
    void aLargeApplicationIsCompressedAgainOnlyWhereItChanged() throws IOException {
        for (int n = 0; n < 300; n++) {
            registry.register(Instances.up("BIG", "big-" + n), Origin.CLIENT);
        }
        registry.register(Instances.up("NEXT", "next-0"), Origin.CLIENT);
        SegmentedDocument first = gzippedFull();
        List<GzipParts.Part> firstForms = compressedForms(first);
        int runs = first.segmentCount() - 1;
        assertThat(runs).as("BIG's runs").isBetween(300 / RegistrySegments.MAX_RUN, 300 / RegistrySegments.MIN_RUN);

        InstanceInfo middle = registry.views().groups().groups().get(0).sources()[150];
        registry.register(Instances.sample("BIG", middle.id()).status(InstanceStatus.DOWN).build(), Origin.CLIENT);
        SegmentedDocument changed = gzippedFull();
        List<GzipParts.Part> changedForms = compressedForms(changed);
        assertThat(changed.sharedSegmentsWith(first)).as("all but the changed instance's run").isEqualTo(runs);
        assertThat(compressedAgain(firstForms, changedForms)).as("its run, and the next if it ended the run")
                .isBetween(1, 2);

        registry.cancel("BIG", registry.views().groups().groups().get(0).sources()[100].id(), Origin.CLIENT);
        registry.register(Instances.up("BIG", "big-new"), Origin.CLIENT);
        SegmentedDocument deployed = gzippedFull();
        System.out.printf("BIG: %d runs; shared %d, compressed again %d%n", runs,
                deployed.sharedSegmentsWith(changed), compressedAgain(changedForms, compressedForms(deployed)));
        assertThat(deployed.sharedSegmentsWith(changed)).as("one instance gone, one come")
                .isGreaterThanOrEqualTo(runs + 1 - 4);
        assertThat(compressedAgain(changedForms, compressedForms(deployed))).isBetween(1, 6);
    }

    /** Each segment's compressed form as the document's gzip left it, in order. */
    private static List<GzipParts.Part> compressedForms(SegmentedDocument doc) {
        List<GzipParts.Part> forms = new ArrayList<>();
        for (int i = 0; i < doc.segmentCount(); i++) {
            forms.add(doc.compressedForm(i));
        }
        return forms;
    }

    /** How many of {@code after} are not among {@code before} (compared by identity). */
    private static int compressedAgain(List<GzipParts.Part> before, List<GzipParts.Part> after) {
        Set<GzipParts.Part> old = Collections.newSetFromMap(new IdentityHashMap<>());
        old.addAll(before);
        return (int) after.stream().filter(p -> !old.contains(p)).count();
    }

    /** The full registry, checked against the reference encoder plain and gzipped. */
    private SegmentedDocument gzippedFull() throws IOException {
        AppGroups groups = registry.views().groups();
        SegmentedDocument doc = segments.encode(WireFormat.JSON, Detail.FULL, false, document(groups));
        check(doc, EurekaCodec.encode(WireFormat.JSON, groups.decorated(), Detail.FULL));
        return doc;
    }

    /** The delta as the response cache builds it, gzipped (the JDK's reader checks it inflates whole). */
    private SegmentedDocument gzippedDelta() throws IOException {
        SegmentedDocument doc = segments.encode(WireFormat.JSON, Detail.FULL, true,
                document(registry.views().deltaGroups()));
        assertThat(gunzip(doc.gzip())).isEqualTo(doc.plain());
        return doc;
    }

    /** A second later, every instance's heartbeat. */
    private void renewAll() {
        clock.advance(Duration.ofSeconds(1));
        registry.views().groups().groups().forEach(g -> {
            for (InstanceInfo i : g.sources()) {
                registry.renew(i.app(), i.id(), null, null, Origin.CLIENT);
            }
        });
    }

    /**
     * A change writes the changed instance's lease and keeps the bytes of the others' (their renewal times as old as
     * the application's encoding), so the application's last bytes stay the same unless its last instance changed;
     * within half a minute of its encoding the application is encoded afresh, every lease as it is then.
     */
    @Test
    void aChangeKeepsTheOtherInstancesLeaseBytesUntilTheApplicationIsReEncodedForAge() {
        registry.register(Instances.up("A", "a-1"), Origin.CLIENT);
        registry.register(Instances.up("A", "a-2"), Origin.CLIENT);
        String first = fullJson();
        long encodedAt = clock.millis();

        clock.advance(Duration.ofSeconds(20));
        registry.renew("A", "a-1", null, null, Origin.CLIENT);
        registry.register(Instances.sample("A", "a-2").status(InstanceStatus.DOWN).build(), Origin.CLIENT);
        String changed = fullJson();
        assertThat(changed).contains("\"DOWN\"").isNotEqualTo(first);
        assertThat(renewalTimes(changed)).as("a-1 as first encoded, a-2 registered again now")
                .containsExactly(encodedAt, clock.millis());

        clock.advance(Duration.ofSeconds(11));   // 31 s after the application's first encoding
        registry.renew("A", "a-1", null, null, Origin.CLIENT);
        AppGroups groups = registry.views().groups();
        assertThat(segments.encode(WireFormat.JSON, Detail.FULL, false, document(groups)).plain())
                .as("re-encoded for age: every lease as it is now")
                .isEqualTo(EurekaCodec.encode(WireFormat.JSON, groups.decorated(), Detail.FULL));
    }

    private String fullJson() {
        return new String(segments.encode(WireFormat.JSON, Detail.FULL, false, document(registry.views().groups()))
                .plain(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static java.util.List<Long> renewalTimes(String json) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"lastRenewalTimestamp\":(\\d+)").matcher(json);
        java.util.List<Long> times = new java.util.ArrayList<>();
        while (m.find()) {
            times.add(Long.parseLong(m.group(1)));
        }
        return times;
    }

    @Test
    void leaseTimestampsOfAnUnchangedApplicationAreRefreshedWithinHalfAMinute() {
        registry.register(Instances.up("A", "a-1"), Origin.CLIENT);
        registry.register(Instances.up("B", "b-1"), Origin.CLIENT);
        segments.encode(WireFormat.JSON, Detail.FULL, false, document(registry.views().groups()));
        clock.advance(Duration.ofSeconds(31));
        registry.renew("A", "a-1", null, null, Origin.CLIENT);
        registry.register(Instances.up("B", "b-2"), Origin.CLIENT);
        AppGroups groups = registry.views().groups();
        assertThat(segments.encode(WireFormat.JSON, Detail.FULL, false, document(groups)).plain())
                .isEqualTo(EurekaCodec.encode(WireFormat.JSON, groups.decorated(), Detail.FULL));
    }

    /**
     * The full registry and the delta of one wire form share their instances' fragments: a second shape over the
     * same instances keeps ranges of them and its compressed form, not a second copy of their text.
     */
    @Test
    void aSecondShapeOverTheSameInstancesKeepsNoSecondCopyOfTheirText() {
        int instances = registerSpread(5_000, 250);
        AppGroups groups = registry.views().groups();
        SegmentedDocument full = segments.encode(WireFormat.JSON, Detail.FULL, false, document(groups));
        full.gzip();
        long before = Heap.usedAfterGc();
        SegmentedDocument second = segments.encode(WireFormat.JSON, Detail.FULL, true, document(groups));
        second.gzip();
        long kept = Heap.usedAfterGc() - before;
        long text = second.length();
        System.out.printf("a second shape of %d instances (%d bytes of text) keeps %d bytes, %d per instance%n",
                instances, text, kept, kept / instances);
        assertThat(text / instances).as("the text per instance it would otherwise copy").isGreaterThan(500);
        assertThat(kept).as("bytes kept by the second shape").isLessThan(text / 5);
        assertThat(second.sharedSegmentsWith(full)).isZero();   // both reachable until measured
    }


    /**
     * What instances repeat (the application's name, status, ports, data centre, metadata, VIP addresses: about
     * half of an ordinary instance's JSON) is held once for all of them; each fragment keeps only the instance's own
     * text (id, host, address, URLs, timestamps) and references to the shared pieces.
     */
    @Test
    void theTextInstancesRepeatIsHeldOnceForAllOfThem() {
        int instances = registerSpread(5_000, 250);
        AppGroups groups = registry.views().groups();
        long before = Heap.usedAfterGc();
        SegmentedDocument full = segments.encode(WireFormat.JSON, Detail.FULL, false, document(groups));
        long kept = Heap.usedAfterGc() - before;
        long text = full.length();
        System.out.printf("the full registry of %d instances (%d bytes of text) keeps %d bytes, %d per instance%n",
                instances, text, kept, kept / instances);
        assertThat(text / instances).as("the text per instance").isGreaterThan(500);
        assertThat(codec.sharedPieces()).as("shared pieces: an application's name and VIPs, and what all repeat")
                .isBetween(250, 3 * 250 + 10);
        // the instance's own text (id, host, address, timestamps, lease) is 40 % of it here, its objects, ranges
        // and compressed form most of the rest: about 90 % in all, where a fragment holding the whole text kept more
        // than the text itself
        assertThat(kept).as("bytes kept by fragments and ranges").isLessThan(text);
        assertThat(full.length()).isEqualTo(text);   // reachable until measured
    }

    /**
     * A shape that is not rebuilt at all (the full registry while nothing changes but the delta's window) keeps its
     * fragments through the sweeps too, so the delta rebuilt later uses them instead of encoding copies: at a
     * million instances, while a burst left the delta, those copies were 220 MB.
     */
    @Test
    void fragmentsOfAShapeNotRebuiltOutliveSweeps() {
        registerSpread(100, 10);
        SegmentedDocument full = segments.encode(WireFormat.JSON, Detail.FULL, false,
                document(registry.views().groups()));
        for (int step = 0; step < 6; step++) {
            clock.advance(Duration.ofSeconds(5));
            codec.sweep();
        }
        assertThat(codec.size()).as("30 s and three sweeps later, no build meanwhile").isEqualTo(100);
        SegmentedDocument delta = segments.encode(WireFormat.JSON, Detail.FULL, true,
                document(registry.views().groups()));
        assertThat(codec.size()).as("the delta encodes nothing of its own").isEqualTo(100);
        assertThat(delta.length()).isEqualTo(full.length());
    }

    /**
     * An application kept unchanged keeps its instances' fragments through the sweeps (which drop only what no kept
     * payload uses), so a shape built later, the delta after the full registry, uses the same fragments instead of
     * encoding copies of its own: at a million instances a full build takes seconds and the shapes are built tens of
     * seconds apart, longer than a sweep.
     */
    @Test
    void fragmentsOfApplicationsKeptUnchangedOutliveSweepsAndAreSharedByAShapeBuiltLater() {
        registerSpread(100, 10);
        segments.encode(WireFormat.JSON, Detail.FULL, false, document(registry.views().groups()));
        int made = codec.size();
        assertThat(made).isEqualTo(100);
        for (int step = 0; step < 4; step++) {
            clock.advance(Duration.ofSeconds(5));
            segments.encode(WireFormat.JSON, Detail.FULL, false, document(registry.views().groups()));
            codec.sweep();
        }
        assertThat(codec.size()).as("20 s and two sweeps later").isEqualTo(made);
        segments.encode(WireFormat.JSON, Detail.FULL, true, document(registry.views().groups()));
        assertThat(codec.size()).as("the delta, built now, encodes nothing of its own").isEqualTo(made);
        registry.cancel("APP-3", "i-3", Origin.CLIENT);
        clock.advance(Duration.ofSeconds(5));
        segments.encode(WireFormat.JSON, Detail.FULL, false, document(registry.views().groups()));
        clock.advance(Duration.ofSeconds(10));
        segments.encode(WireFormat.JSON, Detail.FULL, false, document(registry.views().groups()));
        codec.sweep();
        clock.advance(Duration.ofSeconds(10));
        codec.sweep();
        assertThat(codec.size()).as("the delta built before the cancel still holds it").isEqualTo(made);
        segments.encode(WireFormat.JSON, Detail.FULL, true, document(registry.views().groups()));
        clock.advance(Duration.ofSeconds(10));
        codec.sweep();
        clock.advance(Duration.ofSeconds(10));
        codec.sweep();
        assertThat(codec.size()).as("once no shape holds it, the cancelled instance's fragment goes")
                .isEqualTo(made - 1);
    }

    /**
     * Applications that turn old together (a registry registered in one burst) are re-encoded for age a tenth at a
     * time, so one build never redoes the whole registry for lease timestamps alone; every one is refreshed within
     * ten builds.
     */
    @Test
    void applicationsThatTurnOldTogetherAreReEncodedATenthPerBuild() {
        int apps = 1_000;
        for (int n = 0; n < apps; n++) {
            registry.register(Instances.up("APP-" + n, "i-" + n), Origin.CLIENT);
        }
        SegmentedDocument first = segments.encode(WireFormat.JSON, Detail.FULL, false,
                document(registry.views().groups()));
        clock.advance(Duration.ofSeconds(31));
        SegmentedDocument previous = first;
        for (int build = 1; build <= 10; build++) {
            SegmentedDocument next = segments.encode(WireFormat.JSON, Detail.FULL, false,
                    document(registry.views().groups()));
            assertThat(apps - next.sharedSegmentsWith(previous)).as("re-encoded in build %d", build)
                    .isEqualTo(apps / 10);
            previous = next;
            clock.advance(Duration.ofMillis(500));
        }
        assertThat(previous.sharedSegmentsWith(first)).as("all refreshed").isZero();
    }

    /**
     * Up to 100,000 instances an unchanged application is re-encoded for age after 30 s; beyond, the age grows with
     * the registry to Eureka's 180 s at 600,000, so that a million instances do not cost half a core for
     * timestamps alone.
     */
    @Test
    void largerRegistriesAreReEncodedForAgeLessOften() {
        assertThat(RegistrySegments.reencodeAfterMillis(0)).isEqualTo(30_000);
        assertThat(RegistrySegments.reencodeAfterMillis(100_000)).isEqualTo(30_000);
        assertThat(RegistrySegments.reencodeAfterMillis(350_000)).isEqualTo(105_000);
        assertThat(RegistrySegments.reencodeAfterMillis(600_000)).isEqualTo(180_000);
        assertThat(RegistrySegments.reencodeAfterMillis(1_000_000)).isEqualTo(180_000);
        for (long n = 100_000; n <= 1_000_000; n += 50_000) {
            assertThat(n * 1000 / RegistrySegments.reencodeAfterMillis(n)).as("instances re-encoded a second at %d", n)
                    .isLessThanOrEqualTo(1_000_000 * 1000 / 180_000);
        }
    }

    private void assertEveryShapeMatches() throws IOException {
        for (WireFormat f : WireFormat.values()) {
            for (Detail d : Detail.values()) {
                AppGroups all = registry.views().groups();
                check(segments.encode(f, d, false, document(all)), EurekaCodec.encode(f, all.decorated(), d));
                AppGroups delta = registry.views().deltaGroups();
                check(segments.encode(f, d, true, document(delta)), EurekaCodec.encode(f, delta.decorated(), d));
            }
        }
    }

    /** As the response cache hands the registry's groups to the codec. */
    /** Registers {@code instances} in {@code apps} applications, in turn; returns {@code instances}. */
    private int registerSpread(int instances, int apps) {
        for (int n = 0; n < instances; n++) {
            registry.register(Instances.up("APP-" + (n % apps), "i-" + n), Origin.CLIENT);
        }
        return instances;
    }

    private static AppsDocument document(AppGroups groups) {
        return new AppsDocument(groups.version(), groups.appsHashCode(), groups.groups().stream()
                .map(g -> new AppsDocument.App(g.app(), g.sources(), g::decorated, g::leaseInfo)).toList());
    }

    private static void check(SegmentedDocument doc, byte[] expected) throws IOException {
        assertThat(doc.plain()).isEqualTo(expected);
        assertThat(doc.length()).isEqualTo(expected.length);
        assertThat(gunzip(doc.gzip())).isEqualTo(expected);
    }

    private static byte[] gunzip(byte[] gzip) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return in.readAllBytes();
        }
    }
}
