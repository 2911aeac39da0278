package io.muster.model;

import java.util.Optional;

/** An instance's status as Eureka spells it. */
public enum InstanceStatus {
    UP, DOWN, STARTING, OUT_OF_SERVICE, UNKNOWN;

    /** Exact enum name, as Eureka's server parses it; empty for anything else. */
    public static Optional<InstanceStatus> parse(String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (InstanceStatus s : values()) {
            if (s.name().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** Lenient form used when decoding instances: Eureka's decoders map unknown names to UNKNOWN. */
    public static InstanceStatus parseOrUnknown(String name) {
        return parse(name == null ? null : name.trim().toUpperCase(java.util.Locale.ROOT)).orElse(UNKNOWN);
    }
}
