package io.muster.testing;

import java.lang.management.ManagementFactory;

/** The test JVM's heap, for the tests that measure what the registry and its payloads keep. */
public final class Heap {
    private Heap() {
    }

    /** Used heap after asking for a collection four times, the lowest reading (the test JVMs run the serial GC). */
    public static long usedAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
