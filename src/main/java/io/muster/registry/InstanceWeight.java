package io.muster.registry;

import io.muster.model.InstanceInfo;

import java.util.Map;

/**
 * What one registered instance is estimated to cost the heap: the registry's copy of it plus the payload bytes the
 * response cache keeps of it (its fragment in each wire form in use and its place in the full-registry and delta
 * segments: about four more copies of its text). Used to cap the registry by memory rather than by count, so a
 * registry of ordinary instances can grow to 100,000 and more on a 1 GB heap while one of maximum-size instances
 * stops long before the heap does. Calibrated against {@code RegistryMemoryTest}: an ordinary Spring Boot instance
 * weighs about 5 KB, a maximum-size one about 90 KB. Stateless.
 */
final class InstanceWeight {
    /** Objects, arrays and map entries that every instance has whatever its text. */
    private static final long FIXED = 2048;
    /** The registry's copy plus the payload copies, per char of text (Latin-1 strings and UTF-8 payloads). */
    private static final long PER_CHAR = 6;

    private InstanceWeight() {
    }

    static long of(InstanceInfo i) {
        long chars = len(i.instanceId()) + len(i.hostName()) + len(i.app()) + len(i.ipAddr()) + len(i.sid())
                + len(i.appGroupName()) + len(i.homePageUrl()) + len(i.statusPageUrl()) + len(i.healthCheckUrl())
                + len(i.secureHealthCheckUrl()) + len(i.vipAddress()) + len(i.secureVipAddress()) + len(i.asgName())
                + chars(i.metadata());
        if (i.dataCenterInfo() != null) {
            chars += len(i.dataCenterInfo().name()) + chars(i.dataCenterInfo().metadata());
        }
        return FIXED + PER_CHAR * chars;
    }

    private static long chars(Map<String, String> m) {
        long n = 0;
        if (m != null) {
            for (Map.Entry<String, String> e : m.entrySet()) {
                n += len(e.getKey()) + len(e.getValue());
            }
        }
        return n;
    }

    private static int len(String s) {
        return s == null ? 0 : s.length();
    }
}
