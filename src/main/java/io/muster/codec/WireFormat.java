package io.muster.codec;

/** The two payload formats. Eureka picks JSON when the Accept header contains "json", XML otherwise. */
public enum WireFormat {
    JSON("application/json"), XML("application/xml");

    private final String mediaType;

    WireFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /** Eureka's rule for cached fetches: a substring test, so a wildcard Accept and a missing header mean XML. */
    public static WireFormat fromAccept(String accept) {
        return accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("json") ? JSON : XML;
    }
}
