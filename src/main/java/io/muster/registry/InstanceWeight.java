package io.muster.registry;

import io.muster.model.InstanceInfo;

import java.util.Map;

/**
 * What one registered instance is estimated to cost the heap: the registry's copy of it plus the payload bytes the
 * response cache keeps of it (its fragment in the wire form clients poll, which the full registry and the delta
 * share, and their ranges and compressed forms). Used to cap the registry by memory rather than by count, so a
 * registry of ordinary instances grows to a million in a 4 GB heap while one of maximum-size instances stops long
 * before the heap does. Calibrated against {@code OrdinaryInstanceMemoryTest} (an ordinary Spring Cloud instance:
 * about 1.7 KB measured, weighed about 2.0 KB) and {@code RegistryMemoryTest} (maximum-size instances). A second
 * wire form in use (XML) costs its fragments on top, for as long as it is read; the heap headroom check of the
 * response cache covers that. Stateless.
 */
final class InstanceWeight {
    /** Objects, arrays, map entries and the payloads' fixed field names that every instance has whatever its text. */
    private static final long FIXED = 1100;
    /** The registry's copy plus its JSON fragment, per char of text (Latin-1 strings and UTF-8 payloads), with room. */
    private static final long PER_CHAR = 4;

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
