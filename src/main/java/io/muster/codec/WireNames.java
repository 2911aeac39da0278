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

    static String dataCenterClass(io.muster.model.DataCenterInfo dc) {
        return dc.isAmazon() ? AMAZON_DATA_CENTER_CLASS : DEFAULT_DATA_CENTER_CLASS;
    }

    /** Eureka omits the default sid values. */
    static boolean writesSid(String sid) {
        return sid != null && !"na".equals(sid) && !"unknown".equals(sid);
    }
}
