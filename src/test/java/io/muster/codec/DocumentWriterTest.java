package io.muster.codec;

import io.muster.registry.AppGroups;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snapshot's document, written one application at a time, is byte for byte the reference encoder's document,
 * in both formats: with small applications after a large one (whose JSON outgrows the writer's buffer, which is
 * then reused) and an application emptied by cancellations.
 */
class DocumentWriterTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));

    @Test
    void writesWhatTheReferenceEncoderWritesForTheWholeRegistry() throws IOException {
        for (int n = 0; n < 300; n++) {   // about 300 KB of JSON in one application
            registry.register(Instances.up("BIG", "big-" + n), Origin.CLIENT);
        }
        for (int n = 0; n < 30; n++) {
            registry.register(Instances.up("APP-" + n % 7, "i-" + n), Origin.CLIENT);
        }
        registry.register(Instances.up("GONE", "gone-1"), Origin.CLIENT);
        registry.cancel("GONE", "gone-1", Origin.CLIENT);
        AppGroups groups = registry.views().groups();
        for (WireFormat format : WireFormat.values()) {
            for (Detail detail : Detail.values()) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                DocumentWriter.write(out, format, detail, document(groups));
                assertThat(out.toByteArray()).as(format + " " + detail)
                        .isEqualTo(EurekaCodec.encode(format, groups.decorated(), detail));
            }
        }
    }

    private static AppsDocument document(AppGroups groups) {
        return new AppsDocument(groups.version(), groups.appsHashCode(), groups.groups().stream()
                .map(g -> new AppsDocument.App(g.app(), g.sources(), g::decorated, g::leaseInfo)).toList());
    }
}
