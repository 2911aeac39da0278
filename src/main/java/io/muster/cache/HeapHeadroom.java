package io.muster.cache;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * Whether the heap has room for one more large array, judged by what the heap held after its last collection (live
 * data, not garbage waiting to be collected). The registry's cap leaves room for its payloads as they are kept, but
 * a payload's plain bytes are made on first use, whole: at the cap, a first plain fetch of a full registry of
 * maximum-size instances would not fit, and an OutOfMemoryError there can hit any thread. Such a fetch is refused
 * instead (gzip, which clients ask for by default, is assembled from kept parts and stays available).
 *
 * <p>Thread safety: stateless; the pools are the JVM's.
 */
final class HeapHeadroom {
    /** What must stay free beyond the new array: other requests' buffers, the collector's own room. */
    private static final double RESERVE = 0.10;
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()).toList();
    private final long max = Runtime.getRuntime().maxMemory();

    /** Whether an array of {@code bytes} fits beside the live heap and the reserve. */
    boolean allows(long bytes) {
        long live = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (afterGc != null) {
                live += afterGc.getUsed();
            }
        }
        return live + bytes <= max - (long) (max * RESERVE);
    }
}
