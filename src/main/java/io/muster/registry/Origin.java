package io.muster.registry;

/** Who made a write: a client, or a peer replicating a client's write (Eureka's {@code isReplication}). */
public enum Origin { CLIENT, PEER }
