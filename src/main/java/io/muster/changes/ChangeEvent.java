package io.muster.changes;

import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.InstanceInfo;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * One visible registry change as a server-sent event: its id is the registry's change sequence, so ids rise
 * monotonically on a node and a fetch's {@code X-Muster-Index} and an event id count the same thing.
 *
 * <p>Thread safety: immutable apart from the encoded form, made once on first use (racing threads would make
 * equal copies).
 */
public final class ChangeEvent {
    private final long id;
    private final String type;
    private final InstanceInfo instance;
    private volatile byte[] encoded;
    /** Computed once: the log adds it when the event comes and takes it back when it goes. */
    private final long weight;

    ChangeEvent(long id, String type, InstanceInfo instance) {
        this.id = id;
        this.type = type;
        this.instance = instance;
        this.weight = weigh(instance);
    }

    public long id() {
        return id;
    }

    /** registered, updated, metadata, cancelled, expired, status, override-deleted. */
    public String type() {
        return type;
    }

    public InstanceInfo instance() {
        return instance;
    }

    /**
     * About what the event holds in the heap: the instance's text (held here even after the registry let it go)
     * and its encoded form once a stream asked for it.
     */
    long weight() {
        return weight;
    }

    private static long weigh(InstanceInfo instance) {
        long chars = 0;
        for (Map.Entry<String, String> m : instance.metadata().entrySet()) {
            chars += m.getKey().length() + m.getValue().length();
        }
        chars += length(instance.id()) + length(instance.hostName()) + length(instance.app()) + length(instance.ipAddr())
                + length(instance.homePageUrl()) + length(instance.statusPageUrl()) + length(instance.healthCheckUrl())
                + length(instance.vipAddress()) + length(instance.secureVipAddress());
        return 1024 + 3 * chars;
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }

    /** Whether the event is about {@code app} (any case) or an instance serving {@code vip}; null matches all. */
    public boolean matches(String app, String vip) {
        if (app != null && !instance.app().equalsIgnoreCase(app)) {
            return false;
        }
        return vip == null || listed(instance.vipAddress(), vip) || listed(instance.secureVipAddress(), vip);
    }

    private static boolean listed(String list, String vip) {
        if (list == null) {
            return false;
        }
        for (String v : list.split(",")) {
            if (v.trim().equalsIgnoreCase(vip)) {
                return true;
            }
        }
        return false;
    }

    /** {@code id:}, {@code event:} and {@code data:} lines with the instance in Eureka's JSON, ending in a blank line. */
    public byte[] sse() {
        byte[] e = encoded;
        if (e == null) {
            String json = new String(EurekaCodec.encode(WireFormat.JSON, instance), StandardCharsets.UTF_8);
            StringBuilder b = new StringBuilder(json.length() + 64).append("id: ").append(id)
                    .append("\nevent: ").append(type.toLowerCase(Locale.ROOT)).append('\n');
            for (String line : json.split("\n")) {   // a data line must not hold a line break
                b.append("data: ").append(line).append('\n');
            }
            e = b.append('\n').toString().getBytes(StandardCharsets.UTF_8);
            encoded = e;
        }
        return e;
    }
}
