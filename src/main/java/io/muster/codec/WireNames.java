package io.muster.codec;

/** Spellings shared by the JSON and XML codecs. */
final class WireNames {
    static final String DEFAULT_DATA_CENTER_CLASS = "com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo";
    static final String AMAZON_DATA_CENTER_CLASS = "com.netflix.appinfo.AmazonInfo";
    static final String EMPTY_MAP_CLASS = "java.util.Collections$EmptyMap";
    static final String VERSIONS_DELTA = "versions__delta";
    static final String APPS_HASHCODE = "apps__hashcode";
    /** AWS metadata keys kept in compact payloads. */
    static final java.util.Set<String> COMPACT_AWS_KEYS =
            java.util.Set.of("instance-id", "public-ipv4", "public-hostname", "local-ipv4", "availability-zone");

    private WireNames() {
    }

    /**
     * The {@code @class} values eureka-client 2.0.6 can decode a dataCenterInfo as (its Jackson codec loads the
     * class by name; {@code DefaultDataCenterInfo} is mapped to {@code MyDataCenterInfo}).
     */
    static final java.util.Set<String> DATA_CENTER_CLASSES = java.util.Set.of(DEFAULT_DATA_CENTER_CLASS,
            AMAZON_DATA_CENTER_CLASS, "com.netflix.appinfo.MyDataCenterInfo");

    static void checkDataCenterClass(String cls) {
        if (!DATA_CENTER_CLASSES.contains(cls)) {
            throw new WireFormatException("dataCenterInfo class is not one Netflix clients know: "
                    + (cls.length() > 60 ? cls.substring(0, 60) + "..." : cls));
        }
    }

    /** A wire number as an int, saturated (a cast would wrap 99999999999999 to an arbitrary value). */
    /**
     * An absent lease duration means Eureka's default, as its own builder has it; a zero or negative one sent on
     * purpose would be silently replaced by that default, so it is refused instead.
     */
    static void checkLeaseDuration(long seconds) {
        if (seconds <= 0) {
            throw new WireFormatException("leaseInfo.durationInSecs " + seconds
                    + " is not a positive number of seconds");
        }
    }

    static int toInt(long v) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    static String dataCenterClass(io.muster.model.DataCenterInfo dc) {
        return dc.isAmazon() ? AMAZON_DATA_CENTER_CLASS : DEFAULT_DATA_CENTER_CLASS;
    }

    /** Eureka omits the default sid values. */
    static boolean writesSid(String sid) {
        return sid != null && !"na".equals(sid) && !"unknown".equals(sid);
    }
}
