package io.muster.codec;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes Eureka's XStream XML layout: {@code <overriddenstatus>} in lower case, ports as
 * {@code <port enabled="true">8080</port>}, {@code class} attributes, and element names escaped as XStream does
 * ({@code _} as {@code __}, {@code $} as {@code _-}).
 *
 * <p>Defence in depth behind the registry's rules: a map key that is not a valid XML name after escaping is left
 * out rather than written as a raw element name (one such key made the whole registry unreadable, or let a crafted
 * key inject elements), and characters XML cannot carry are dropped from values.
 *
 * <p>One class, although long: one format written in one direction, element by element, with the escaping that
 * every element name and value goes through.
 */
final class XmlEncoder {
    private XmlEncoder() {
    }

    static byte[] instance(InstanceInfo info) {
        StringBuilder sb = new StringBuilder(1024);
        instanceElement(sb, info, Detail.FULL);
        return bytes(sb);
    }

    static byte[] application(Application app, Detail detail) {
        StringBuilder sb = new StringBuilder(1024 * (1 + app.instances().size()));
        applicationElement(sb, app, detail);
        return bytes(sb);
    }

    static byte[] applications(Applications apps, Detail detail) {
        StringBuilder sb = new StringBuilder(256 + 1200 * apps.instanceCount());
        sb.append("<applications>");
        number(sb, WireNames.VERSIONS_DELTA, apps.version());
        element(sb, WireNames.APPS_HASHCODE, apps.appsHashCode());
        for (Application app : apps.applications()) {
            applicationElement(sb, app, detail);
        }
        sb.append("</applications>");
        return bytes(sb);
    }

    static byte[] sections(String root, Map<String, Map<String, String>> sections) {
        StringBuilder sb = new StringBuilder(512);
        sb.append('<').append(root).append('>');
        sections.forEach((name, values) -> {
            sb.append('<').append(name).append('>');
            values.forEach((k, v) -> entry(sb, k, v));
            sb.append("</").append(name).append('>');
        });
        sb.append("</").append(root).append('>');
        return bytes(sb);
    }

    /** Eureka's {@code <status>}: the sections, then {@code isHealthy} when known, then the server's instance. */
    static byte[] status(Map<String, Map<String, String>> sections, Boolean healthy, InstanceInfo self) {
        StringBuilder sb = new StringBuilder(2048);
        sb.append("<status>");
        sections.forEach((name, values) -> {
            sb.append('<').append(name).append('>');
            values.forEach((k, v) -> element(sb, XmlNames.encode(k), v));
            sb.append("</").append(name).append('>');
        });
        if (healthy != null) {
            element(sb, "isHealthy", healthy.toString());
        }
        if (self != null) {
            StringBuilder inner = new StringBuilder(1024);
            instanceElement(inner, self, Detail.FULL);
            // the same element as in /apps, renamed as Eureka's StatusInfo field
            sb.append("<instanceInfo>").append(inner, "<instance>".length(), inner.length() - "</instance>".length())
                    .append("</instanceInfo>");
        }
        sb.append("</status>");
        return bytes(sb);
    }

    private static byte[] bytes(StringBuilder sb) {
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void applicationElement(StringBuilder sb, Application app, Detail detail) {
        sb.append("<application>");
        element(sb, "name", app.name());
        for (InstanceInfo i : app.instances()) {
            instanceElement(sb, i, detail);
        }
        sb.append("</application>");
    }

    /**
     * An {@code <instance>} element in two parts split around its {@code <leaseInfo>}, as
     * {@link JsonEncoder#instanceParts} does for JSON.
     */
    static byte[][] instanceParts(InstanceInfo i, Detail detail) {
        StringBuilder sb = new StringBuilder(1024);
        int[] marks = {-1, -1};
        instanceElement(sb, i, detail, marks);
        if (marks[0] < 0) {
            return new byte[][]{bytes(sb), new byte[0]};
        }
        return new byte[][]{sb.substring(0, marks[0]).getBytes(StandardCharsets.UTF_8),
                sb.substring(marks[1]).getBytes(StandardCharsets.UTF_8)};
    }

    private static final byte[][] LEASE_PARTS = leaseParts();

    /**
     * The {@code <leaseInfo>} element as {@link #lease} writes it, straight into bytes: it is the one part of an
     * instance written on every rebuild after a renewal. The fragment tests compare the two.
     */
    static void leaseInfo(Bytes out, LeaseInfo l) {
        out.raw(LEASE_PARTS[0]).decimal(l.renewalIntervalInSecs()).raw(LEASE_PARTS[1]).decimal(l.durationInSecs())
                .raw(LEASE_PARTS[2]).decimal(l.registrationTimestamp()).raw(LEASE_PARTS[3])
                .decimal(l.lastRenewalTimestamp()).raw(LEASE_PARTS[4]).decimal(l.evictionTimestamp())
                .raw(LEASE_PARTS[5]).decimal(l.serviceUpTimestamp()).raw(LEASE_PARTS[6]);
    }

    /** The text between the six numbers of {@link #lease}, taken from its own output so the two cannot differ. */
    private static byte[][] leaseParts() {
        StringBuilder sb = new StringBuilder(320);
        lease(sb, new LeaseInfo(1, 2, 3, 4, 5, 6));
        String[] parts = sb.toString().split("[1-6]", -1);   // the element names carry no digits
        if (parts.length != 7) {
            throw new IllegalStateException("unexpected leaseInfo layout: " + sb);
        }
        byte[][] bytes = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            bytes[i] = parts[i].getBytes(StandardCharsets.US_ASCII);
        }
        return bytes;
    }

    private static void instanceElement(StringBuilder sb, InstanceInfo i, Detail detail) {
        instanceElement(sb, i, detail, null);
    }

    private static void instanceElement(StringBuilder sb, InstanceInfo i, Detail detail, int[] leaseMarks) {
        boolean full = detail == Detail.FULL;
        sb.append("<instance>");
        optional(sb, "instanceId", i.instanceId());
        element(sb, "hostName", i.hostName());
        element(sb, "app", i.app());
        element(sb, "ipAddr", i.ipAddr());
        if (full && WireNames.writesSid(i.sid())) {
            element(sb, "sid", i.sid());
        }
        element(sb, "status", i.status().name());
        if (full) {
            element(sb, "overriddenstatus", i.overriddenStatus().name());
        }
        port(sb, "port", i.port());
        port(sb, "securePort", i.securePort());
        if (full) {
            number(sb, "countryId", i.countryId());
        }
        if (i.dataCenterInfo() != null) {
            dataCenter(sb, i.dataCenterInfo(), detail);
        }
        if (full) {
            if (leaseMarks != null) {
                leaseMarks[0] = sb.length();
            }
            lease(sb, i.leaseInfo());
            if (leaseMarks != null) {
                leaseMarks[1] = sb.length();
            }
            metadata(sb, i.metadata());
            optional(sb, "appGroupName", i.appGroupName());
            optional(sb, "homePageUrl", i.homePageUrl());
            optional(sb, "statusPageUrl", i.statusPageUrl());
            optional(sb, "healthCheckUrl", i.healthCheckUrl());
            optional(sb, "secureHealthCheckUrl", i.secureHealthCheckUrl());
        }
        optional(sb, "vipAddress", i.vipAddress());
        optional(sb, "secureVipAddress", i.secureVipAddress());
        if (full) {
            element(sb, "isCoordinatingDiscoveryServer", Boolean.toString(i.isCoordinatingDiscoveryServer()));
        }
        number(sb, "lastUpdatedTimestamp", i.lastUpdatedTimestamp());
        if (full) {
            number(sb, "lastDirtyTimestamp", i.lastDirtyTimestamp());
        }
        if (i.actionType() != null) {
            element(sb, "actionType", i.actionType().name());
        }
        if (full) {
            optional(sb, "asgName", i.asgName());
        }
        sb.append("</instance>");
    }

    private static void port(StringBuilder sb, String name, PortInfo p) {
        sb.append('<').append(name).append(" enabled=\"").append(p.enabled()).append("\">")
                .append(p.port()).append("</").append(name).append('>');
    }

    private static void dataCenter(StringBuilder sb, DataCenterInfo dc, Detail detail) {
        sb.append("<dataCenterInfo class=\"").append(WireNames.dataCenterClass(dc)).append("\">");
        element(sb, "name", dc.name());
        if (dc.isAmazon()) {
            sb.append("<metadata>");
            for (Map.Entry<String, String> e : dc.metadata().entrySet()) {
                if (detail == Detail.FULL || WireNames.COMPACT_AWS_KEYS.contains(e.getKey())) {
                    entry(sb, e.getKey(), e.getValue());
                }
            }
            sb.append("</metadata>");
        }
        sb.append("</dataCenterInfo>");
    }

    private static void lease(StringBuilder sb, LeaseInfo l) {
        sb.append("<leaseInfo>");
        number(sb, "renewalIntervalInSecs", l.renewalIntervalInSecs());
        number(sb, "durationInSecs", l.durationInSecs());
        number(sb, "registrationTimestamp", l.registrationTimestamp());
        number(sb, "lastRenewalTimestamp", l.lastRenewalTimestamp());
        number(sb, "evictionTimestamp", l.evictionTimestamp());
        number(sb, "serviceUpTimestamp", l.serviceUpTimestamp());
        sb.append("</leaseInfo>");
    }

    private static void number(StringBuilder sb, String name, long value) {
        sb.append('<').append(name).append('>').append(value).append("</").append(name).append('>');
    }

    private static void metadata(StringBuilder sb, Map<String, String> metadata) {
        if (metadata.isEmpty()) {
            sb.append("<metadata class=\"").append(WireNames.EMPTY_MAP_CLASS).append("\"/>");
            return;
        }
        sb.append("<metadata>");
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            entry(sb, e.getKey(), e.getValue());
        }
        sb.append("</metadata>");
    }

    /** A map entry as an element named by its key: left out when the key cannot be an element name. */
    private static void entry(StringBuilder sb, String key, String value) {
        String name = key == null ? null : XmlNames.encode(key);
        if (name != null && XmlNames.isName(name)) {
            element(sb, name, value);
        }
    }

    private static void optional(StringBuilder sb, String name, String value) {
        if (value != null) {
            element(sb, name, value);
        }
    }

    private static void element(StringBuilder sb, String name, String value) {
        sb.append('<').append(name).append('>');
        escape(sb, value == null ? "" : value);
        sb.append("</").append(name).append('>');
    }

    /** Most values need no escaping: they are copied whole, and only the others go character by character. */
    private static void escape(StringBuilder sb, String s) {
        int i = 0;
        while (i < s.length() && plain(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            sb.append(s);
            return;
        }
        sb.append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                case '\r' -> sb.append("&#13;");   // a raw CR would be read back as LF
                default -> {
                    // characters XML 1.0 cannot carry are dropped rather than producing an unreadable document
                    boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1));
                    if (pair) {
                        sb.append(c).append(s.charAt(++i));
                    } else if ((c >= 0x20 || c == '\t' || c == '\n') && !Character.isSurrogate(c)
                            && c != 0xFFFE && c != 0xFFFF) {
                        sb.append(c);
                    }
                }
            }
        }
    }

    private static boolean plain(char c) {
        return c >= 0x20 && c < 0xD800 && c != '<' && c != '>' && c != '&' && c != '"' && c != '\'';
    }
}
