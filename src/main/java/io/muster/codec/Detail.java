package io.muster.codec;

/** {@code X-Eureka-Accept}: full (default) or compact instances. */
public enum Detail {
    FULL, COMPACT;

    public static Detail fromHeader(String value) {
        return value != null && value.trim().equalsIgnoreCase("compact") ? COMPACT : FULL;
    }
}
