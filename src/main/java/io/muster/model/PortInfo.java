package io.muster.model;

/** A port number and whether it is enabled, written {@code {"$":8080,"@enabled":"true"}} on the wire. */
public record PortInfo(int port, boolean enabled) {
    public static final PortInfo DEFAULT_PORT = new PortInfo(7001, true);
    public static final PortInfo DEFAULT_SECURE_PORT = new PortInfo(7002, false);
}
