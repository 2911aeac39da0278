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
        return write(g -> {
            g.writeStartObject();
            g.writeFieldName("application");
            applicationBody(g, app, detail);
            g.writeEndObject();
        });
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
        g.writeStartObject();
        if (i.instanceId() != null) {
            g.writeStringField("instanceId", i.instanceId());
        }
        g.writeStringField("hostName", i.hostName());
        g.writeStringField("app", i.app());
        g.writeStringField("ipAddr", i.ipAddr());
        boolean full = detail == Detail.FULL;
        if (full && WireNames.writesSid(i.sid())) {
            g.writeStringField("sid", i.sid());
        }
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
            lease(g, i.leaseInfo());
            g.writeFieldName("metadata");
            stringMap(g, i.metadata());
            optional(g, "appGroupName", i.appGroupName());
            optional(g, "homePageUrl", i.homePageUrl());
            optional(g, "statusPageUrl", i.statusPageUrl());
            optional(g, "healthCheckUrl", i.healthCheckUrl());
            optional(g, "secureHealthCheckUrl", i.secureHealthCheckUrl());
        }
        optional(g, "vipAddress", i.vipAddress());
        optional(g, "secureVipAddress", i.secureVipAddress());
        if (full) {
            g.writeStringField("isCoordinatingDiscoveryServer", Boolean.toString(i.isCoordinatingDiscoveryServer()));
            g.writeStringField("lastUpdatedTimestamp", Long.toString(i.lastUpdatedTimestamp()));
            g.writeStringField("lastDirtyTimestamp", Long.toString(i.lastDirtyTimestamp()));
        } else {
            g.writeNumberField("lastUpdatedTimestamp", i.lastUpdatedTimestamp());
        }
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
