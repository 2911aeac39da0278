package io.muster.registry;

import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;

import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the registry accepts: only instances every client can read back (Netflix's Jackson and XStream decoders,
 * Spring Cloud's, eureka-js-client's), within the size limits. One instance that a Netflix client cannot decode
 * makes the whole registry undecodable for every Java client, so these rules apply to every write route: client
 * registrations, metadata updates, peer batches, the start-up sync and re-registration after a peer's 409.
 * Messages are one line and name the setting when a limit is hit; the first four keep Eureka's wording.
 */
public final class InstanceRules {
    /**
     * {@code com.netflix.appinfo.DataCenterInfo.Name} in eureka-client 2.0.6: its decoders call
     * {@code Name.valueOf}, so any other name fails the whole document.
     */
    static final Set<String> DATA_CENTER_NAMES = Set.of("MyOwn", "Amazon", "Netflix");

    private final LimitsConfig limits;
    private final Clock clock;

    public InstanceRules(LimitsConfig limits, Clock clock) {
        this.limits = limits;
        this.clock = clock;
    }

    public LimitsConfig limits() {
        return limits;
    }

    /** @throws InvalidInstanceException with the first problem found */
    public void check(InstanceInfo i) {
        required(i.id(), "Missing instanceId");
        required(i.hostName(), "Missing hostname");
        required(i.ipAddr(), "Missing ip address");
        required(i.app(), "Missing appName");
        DataCenterInfo dc = i.dataCenterInfo();
        if (dc == null) {
            throw new InvalidInstanceException(Refusal.MISSING_FIELD, "Missing dataCenterInfo");
        }
        required(dc.name(), "Missing dataCenterInfo Name");
        if (!DATA_CENTER_NAMES.contains(dc.name())) {
            throw invalid("dataCenterInfo name " + quote(dc.name()) + " is not one of MyOwn, Amazon, Netflix");
        }
        name("instanceId", i.instanceId());
        name("hostName", i.hostName());
        name("app", i.app());
        pathSegment("instance id", i.id());
        pathSegment("app", i.app());
        name("ipAddr", i.ipAddr());
        name("appGroupName", i.appGroupName());
        name("sid", i.sid());
        name("vipAddress", i.vipAddress());
        name("secureVipAddress", i.secureVipAddress());
        name("asgName", i.asgName());
        upperCase("app", i.app());
        upperCase("appGroupName", i.appGroupName());
        url("homePageUrl", i.homePageUrl());
        url("statusPageUrl", i.statusPageUrl());
        url("healthCheckUrl", i.healthCheckUrl());
        url("secureHealthCheckUrl", i.secureHealthCheckUrl());
        port("port", i.port());
        port("securePort", i.securePort());
        lease(i.leaseInfo());
        if (!DirtyTimestamps.orderable(i.lastDirtyTimestamp(), clock.millis())) {
            throw invalid(DirtyTimestamps.refusal("lastDirtyTimestamp", i.lastDirtyTimestamp()));
        }
        metadata("metadata", i.metadata());
        metadata("dataCenterInfo.metadata", dc.metadata());
    }

    private static void required(String value, String message) {
        if (value == null || value.isBlank()) {
            throw new InvalidInstanceException(Refusal.MISSING_FIELD, message);
        }
    }

    /** Ids, names, addresses: short, and no control characters (they end up in URLs, logs and labels). */
    private void name(String field, String value) {
        if (value == null) {
            return;
        }
        length(field, value, limits.maxFieldLength(), "eureka.server.maxFieldLength");
        noControls(field, value);
    }

    private static void noControls(String field, String value) {
        for (int k = 0; k < value.length(); k++) {
            char c = value.charAt(k);
            if (c < 0x20 || c == 0x7F) {
                throw invalid(field + " contains a control character (U+" + hex(c) + ")");
            }
        }
        text(field, value);
    }

    /**
     * Characters that keep a value from being one URL path segment that every container hands over unchanged:
     * {@code /} and {@code \} split or are refused, {@code %} is decoded, {@code ;} starts a path parameter the
     * container strips, {@code ?} and {@code #} end the path. No real client's id has them: Spring's are
     * {@code host:app:port}, Netflix's host names or AWS instance ids.
     */
    static final String NOT_IN_A_SEGMENT = "/\\%;?#";

    /**
     * The instance id and the app name are path segments of every endpoint that addresses the instance (heartbeat,
     * cancel, status, the admin's deregister): one that cannot be sent as a segment would make an instance nobody
     * can renew or remove. Control characters are refused for every name already; non-ASCII ones are refused here
     * because containers decode escaped path bytes with different charsets (Payara's Grizzly as ISO-8859-1 by
     * default), so {@code %C3%A9} does not name {@code é} everywhere. Host names are ASCII (IDN as punycode).
     */
    private static void pathSegment(String field, String value) {
        if (value.equals(".") || value.equals("..")) {
            throw invalid(field + " " + quote(value) + " cannot be a URL path segment");
        }
        for (int k = 0; k < value.length(); k++) {
            char c = value.charAt(k);
            if (c > 0x7E) {
                throw invalid(field + " " + quote(value) + " contains U+" + hex(c)
                        + ": only ASCII can be sent in a URL path segment on every container");
            }
            if (NOT_IN_A_SEGMENT.indexOf(c) >= 0) {
                throw invalid(field + " " + quote(value) + " contains '" + c
                        + "', which cannot be sent in a URL path segment");
            }
        }
    }

    /** Clients upper-case these when they decode; a lower-case one would not match what they look up. */
    private static void upperCase(String field, String value) {
        if (value != null && !value.equals(value.toUpperCase(Locale.ROOT))) {
            throw invalid(field + " must be upper case");
        }
    }

    private void url(String field, String value) {
        if (value != null) {
            length(field, value, limits.maxUrlLength(), "eureka.server.maxUrlLength");
            noControls(field, value);
        }
    }

    private static void length(String field, String value, int max, String setting) {
        if (value.length() > max) {
            throw new InvalidInstanceException(Refusal.FIELD_LENGTH,
                    field + " longer than " + max + " characters (" + setting + ")");
        }
    }

    /**
     * Characters XML 1.0 can carry, and nothing a UTF-8 encoder would replace: no C0 controls other than tab and
     * line breaks, no U+FFFE/U+FFFF, no lone surrogates.
     */
    private static void text(String field, String value) {
        for (int k = 0; k < value.length(); k++) {
            char c = value.charAt(k);
            boolean ok;
            if (Character.isHighSurrogate(c)) {
                ok = k + 1 < value.length() && Character.isLowSurrogate(value.charAt(k + 1));
                k++;
            } else {
                ok = (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && c != 0xFFFE && c != 0xFFFF
                        && !Character.isLowSurrogate(c);
            }
            if (!ok) {
                throw invalid(field + " contains a character XML cannot carry (U+" + hex(c) + ")");
            }
        }
    }

    private static void port(String field, PortInfo port) {
        if (port.port() < 0 || port.port() > 65535) {
            throw invalid(field + " " + port.port() + " is not in 0-65535");
        }
    }

    private void lease(LeaseInfo lease) {
        int min = limits.minLeaseDurationSeconds();
        int max = limits.maxLeaseDurationSeconds();
        if (lease.durationInSecs() < min || lease.durationInSecs() > max) {
            throw new InvalidInstanceException(Refusal.LEASE_DURATION, "leaseInfo.durationInSecs "
                    + lease.durationInSecs() + " is not in " + min + "-" + max
                    + " (eureka.server.minLeaseDurationSeconds, eureka.server.maxLeaseDurationSeconds)");
        }
        if (lease.renewalIntervalInSecs() > max) {
            throw new InvalidInstanceException(Refusal.LEASE_DURATION, "leaseInfo.renewalIntervalInSecs "
                    + lease.renewalIntervalInSecs() + " is above " + max + " (eureka.server.maxLeaseDurationSeconds)");
        }
    }

    private void metadata(String field, Map<String, String> metadata) {
        if (metadata.size() > limits.maxMetadataEntries()) {
            throw new InvalidInstanceException(Refusal.METADATA_ENTRIES, field + " has more than "
                    + limits.maxMetadataEntries() + " entries (eureka.server.maxMetadataEntries)");
        }
        long bytes = 0;
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            String key = e.getKey();
            if (!isMetadataKey(key)) {
                throw invalid(field + " key " + quote(key) + " is not a plain XML element name"
                        + " (letters, digits, '.', '-', '_', '$'; not starting with a digit, '.' or '-')");
            }
            if (e.getValue() == null) {
                throw invalid(field + " value of " + key + " is null");
            }
            text(field + "." + key, e.getValue());
            bytes += key.length() + utf8Length(e.getValue());
        }
        if (bytes > limits.maxMetadataBytes()) {
            throw new InvalidInstanceException(Refusal.METADATA_BYTES, field + " is larger than "
                    + limits.maxMetadataBytes() + " bytes (eureka.server.maxMetadataBytes)");
        }
    }

    /**
     * Keys are written as XML element names (Eureka's XML layout), so only names that every XML parser reads the
     * same way are kept: ASCII letters, digits, '.', '-', '_' and '$' (XStream writes '$' as "_-"), starting with
     * a letter, '_' or '$'. No ':' (namespace prefixes), no '@' (attribute markers in JSON-XML mappings).
     */
    public static boolean isMetadataKey(String key) {
        if (key == null || key.isEmpty()) {
            return false;
        }
        for (int k = 0; k < key.length(); k++) {
            char c = key.charAt(k);
            boolean letter = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$';
            boolean other = c >= '0' && c <= '9' || c == '.' || c == '-';
            if (!(letter || k > 0 && other)) {
                return false;
            }
        }
        return true;
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;   // a pair counts 4
        }
        return n;
    }

    private static InvalidInstanceException invalid(String message) {
        return new InvalidInstanceException(Refusal.INVALID_VALUE, message);
    }

    private static String hex(char c) {
        return String.format("%04X", (int) c);
    }

    /** Echoes a client value, shortened and stripped of anything that could break the one-line message. */
    private static String quote(String s) {
        String shown = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        StringBuilder sb = new StringBuilder(shown.length() + 2).append('"');
        shown.codePoints().forEach(cp -> sb.append(cp < 0x20 || cp == 0x7F ? '?' : Character.toString(cp)));
        return sb.append('"').toString();
    }
}
