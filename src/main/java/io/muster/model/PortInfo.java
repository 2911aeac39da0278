package io.muster.model;

/** A port number and whether it is enabled, written {@code {"$":8080,"@enabled":"true"}} on the wire. */
public record PortInfo(int port, boolean enabled) {
    public static final PortInfo DEFAULT_PORT = new PortInfo(7001, true);
    public static final PortInfo DEFAULT_SECURE_PORT = new PortInfo(7002, false);
    /** One object per port and flag in use, filled as ports come: 512 KB of references at most, whatever is sent. */
    private static final java.util.concurrent.atomic.AtomicReferenceArray<PortInfo> SHARED =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(2 * 65536);

    /** The shared object for a port from 0 to 65535 (a decoder's: instances repeat a handful of ports), else a new one. */
    public static PortInfo of(int port, boolean enabled) {
        if (port < 0 || port > 65535) {
            return new PortInfo(port, enabled);
        }
        int slot = 2 * port + (enabled ? 1 : 0);
        PortInfo shared = SHARED.get(slot);
        if (shared == null) {
            SHARED.compareAndSet(slot, null, new PortInfo(port, enabled));
            shared = SHARED.get(slot);
        }
        return shared;
    }
}
