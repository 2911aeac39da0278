package io.muster.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes Eureka's legacy JSON layout (what {@code EurekaJacksonCodec} writes): wrapped roots, port objects with a
 * numeric {@code "$"} and a string {@code "@enabled"}, {@code @class} on data-center info and empty metadata, the
 * trailing fields as strings, arrays always arrays. Field order matches Eureka's so payloads diff cleanly.
 */
final class JsonEncoder {
    private static final JsonFactory FACTORY = JsonFactories.create();

    private JsonEncoder() {
    }

    static byte[] instance(InstanceInfo info) {
        return write(g -> {
            g.writeStartObject();
            g.writeFieldName("instance");
            instanceBody(g, info, Detail.FULL);
            g.writeEndObject();
        });
    }

    /** Eureka's status document: the sections, {@code isHealthy} when known, the server's own instance. */
    static byte[] status(Map<String, Map<String, String>> sections, Boolean healthy, InstanceInfo self) {
        return write(g -> {
            g.writeStartObject();
            for (Map.Entry<String, Map<String, String>> section : sections.entrySet()) {
                g.writeFieldName(section.getKey());
                stringMap(g, section.getValue());
            }
            if (healthy != null) {
                g.writeBooleanField("isHealthy", healthy);
            }
            if (self != null) {
                g.writeFieldName("instanceInfo");
                instanceBody(g, self, Detail.FULL);
            }
            g.writeEndObject();
        });
    }

    static byte[] application(Application app, Detail detail) {
        return write(applicationDocument(app, detail));
    }

    /** {@link #application(Application, Detail)} written to {@code out}. */
    static void application(OutputStream out, Application app, Detail detail) {
        writeTo(out, applicationDocument(app, detail));
    }

    private static Body applicationDocument(Application app, Detail detail) {
        return g -> {
            g.writeStartObject();
            g.writeFieldName("application");
            applicationBody(g, app, detail);
            g.writeEndObject();
        };
    }

    static byte[] applications(Applications apps, Detail detail) {
        return write(g -> {
            g.writeStartObject();
            g.writeFieldName("applications");
            g.writeStartObject();
            if (detail == Detail.FULL) {
                g.writeStringField(WireNames.VERSIONS_DELTA, Long.toString(apps.version()));
                g.writeStringField(WireNames.APPS_HASHCODE, apps.appsHashCode());
            }
            g.writeArrayFieldStart("application");
            for (Application app : apps.applications()) {
                applicationBody(g, app, detail);
            }
            g.writeEndArray();
            if (detail == Detail.COMPACT) {
                // the compact codec is bean-style and writes these after the list
                g.writeStringField(WireNames.VERSIONS_DELTA, Long.toString(apps.version()));
                g.writeStringField(WireNames.APPS_HASHCODE, apps.appsHashCode());
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /** An instance object without the {@code instance} wrapper, as nested in replication items. */
    static void instanceBody(JsonGenerator g, InstanceInfo i, Detail detail) throws IOException {
        instanceBody(g, i, detail, null);
    }

    /**
     * An instance object in pieces around its {@code leaseInfo} (which renewals change every few seconds while the
     * rest stays put), the lease left out ({@link InstancePieces}); the compact layout has no lease.
     * {@link FragmentCodec} keeps these and writes the lease between them with {@link #leaseInfo}. Encoded in
     * {@code scratch}'s stream, then copied out piece by piece.
     */
    static InstancePieces instanceParts(InstanceInfo i, Detail detail, Scratch scratch) {
        Scratch.Stream out = scratch.stream();
        JsonPieceMarks marks = new JsonPieceMarks(out);
        writeTo(out, g -> instanceBody(g, i, detail, marks.writingTo(g)));
        return marks.cut(out.size());
    }

    private static void mark(JsonPieceMarks marks, int kind) throws IOException {
        if (marks != null) {
            marks.mark(kind);
        }
    }

    private static final byte[] LEASE_START = ascii(",\"leaseInfo\":{\"renewalIntervalInSecs\":");
    private static final byte[] DURATION = ascii(",\"durationInSecs\":");
    private static final byte[] REGISTRATION = ascii(",\"registrationTimestamp\":");
    private static final byte[] LAST_RENEWAL = ascii(",\"lastRenewalTimestamp\":");
    private static final byte[] EVICTION = ascii(",\"evictionTimestamp\":");
    private static final byte[] SERVICE_UP = ascii(",\"serviceUpTimestamp\":");

    /**
     * The bytes {@link #lease} writes inside an instance (with the comma before it), written without a generator:
     * it is the one part of an instance that is encoded on every rebuild. Jackson writes ints and longs as plain
     * decimals, as {@link Bytes#decimal} does; the fragment tests compare the two on every layout.
     */
    static void leaseInfo(Bytes out, LeaseInfo l) {
        out.raw(LEASE_START).decimal(l.renewalIntervalInSecs()).raw(DURATION).decimal(l.durationInSecs())
                .raw(REGISTRATION).decimal(l.registrationTimestamp()).raw(LAST_RENEWAL)
                .decimal(l.lastRenewalTimestamp()).raw(EVICTION).decimal(l.evictionTimestamp())
                .raw(SERVICE_UP).decimal(l.serviceUpTimestamp()).raw('}');
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void instanceBody(JsonGenerator g, InstanceInfo i, Detail detail, JsonPieceMarks marks)
            throws IOException {
        g.writeStartObject();
        if (i.instanceId() != null) {
            g.writeStringField("instanceId", i.instanceId());
        }
        g.writeStringField("hostName", i.hostName());
        mark(marks, JsonPieceMarks.SHARED);
        g.writeStringField("app", i.app());
        mark(marks, JsonPieceMarks.OWN);
        g.writeStringField("ipAddr", i.ipAddr());
        boolean full = detail == Detail.FULL;
        if (full && WireNames.writesSid(i.sid())) {
            g.writeStringField("sid", i.sid());
        }
        mark(marks, JsonPieceMarks.SHARED);
        g.writeStringField("status", i.status().name());
        if (full) {
            g.writeStringField("overriddenStatus", i.overriddenStatus().name());
        }
        port(g, "port", i.port());
        port(g, "securePort", i.securePort());
        if (full) {
            g.writeNumberField("countryId", i.countryId());
        }
        if (i.dataCenterInfo() != null) {
            dataCenter(g, i.dataCenterInfo(), detail);
        }
        if (full) {
            mark(marks, JsonPieceMarks.LEASE);
            lease(g, i.leaseInfo());
            mark(marks, JsonPieceMarks.SHARED);
            g.writeFieldName("metadata");
            stringMap(g, i.metadata());
            optional(g, "appGroupName", i.appGroupName());
            mark(marks, JsonPieceMarks.OWN);
            optional(g, "homePageUrl", i.homePageUrl());
            optional(g, "statusPageUrl", i.statusPageUrl());
            optional(g, "healthCheckUrl", i.healthCheckUrl());
            optional(g, "secureHealthCheckUrl", i.secureHealthCheckUrl());
        }
        mark(marks, JsonPieceMarks.SHARED);
        optional(g, "vipAddress", i.vipAddress());
        optional(g, "secureVipAddress", i.secureVipAddress());
        if (full) {
            g.writeStringField("isCoordinatingDiscoveryServer", Boolean.toString(i.isCoordinatingDiscoveryServer()));
            mark(marks, JsonPieceMarks.OWN);
            g.writeStringField("lastUpdatedTimestamp", Long.toString(i.lastUpdatedTimestamp()));
            g.writeStringField("lastDirtyTimestamp", Long.toString(i.lastDirtyTimestamp()));
        } else {
            mark(marks, JsonPieceMarks.OWN);
            g.writeNumberField("lastUpdatedTimestamp", i.lastUpdatedTimestamp());
        }
        mark(marks, JsonPieceMarks.SHARED);
        if (i.actionType() != null) {
            g.writeStringField("actionType", i.actionType().name());
        }
        if (full) {
            optional(g, "asgName", i.asgName());
        }
        g.writeEndObject();
    }

    private static void applicationBody(JsonGenerator g, Application app, Detail detail) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", app.name());
        g.writeArrayFieldStart("instance");
        for (InstanceInfo i : app.instances()) {
            instanceBody(g, i, detail);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void port(JsonGenerator g, String name, PortInfo p) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("$", p.port());
        g.writeStringField("@enabled", Boolean.toString(p.enabled()));
        g.writeEndObject();
    }

    private static void dataCenter(JsonGenerator g, DataCenterInfo dc, Detail detail) throws IOException {
        g.writeObjectFieldStart("dataCenterInfo");
        g.writeStringField("@class", WireNames.dataCenterClass(dc));
        g.writeStringField("name", dc.name());
        if (dc.isAmazon()) {
            g.writeObjectFieldStart("metadata");
            for (Map.Entry<String, String> e : dc.metadata().entrySet()) {
                if (detail == Detail.FULL || WireNames.COMPACT_AWS_KEYS.contains(e.getKey())) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void lease(JsonGenerator g, LeaseInfo l) throws IOException {
        g.writeObjectFieldStart("leaseInfo");
        g.writeNumberField("renewalIntervalInSecs", l.renewalIntervalInSecs());
        g.writeNumberField("durationInSecs", l.durationInSecs());
        g.writeNumberField("registrationTimestamp", l.registrationTimestamp());
        g.writeNumberField("lastRenewalTimestamp", l.lastRenewalTimestamp());
        g.writeNumberField("evictionTimestamp", l.evictionTimestamp());
        g.writeNumberField("serviceUpTimestamp", l.serviceUpTimestamp());
        g.writeEndObject();
    }

    private static void stringMap(JsonGenerator g, Map<String, String> map) throws IOException {
        g.writeStartObject();
        if (map.isEmpty()) {
            g.writeStringField("@class", WireNames.EMPTY_MAP_CLASS);
        }
        for (Map.Entry<String, String> e : map.entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    private static void optional(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    interface Body {
        void writeTo(JsonGenerator g) throws IOException;
    }

    static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        writeTo(out, body);
        return out.toByteArray();
    }

    static void writeTo(OutputStream out, Body body) {
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.writeTo(g);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode JSON", e);
        }
    }
}
