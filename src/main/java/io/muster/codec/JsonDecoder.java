package io.muster.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamReadException;
import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads every JSON instance shape real clients send: Netflix's legacy codec (numbers as strings), Spring Cloud's
 * bean serializer (real numbers, explicit nulls, booleans) and eureka-js-client's (boolean {@code @enabled}, no
 * lease info). More lenient than Eureka where leniency cannot change meaning: unknown fields of any shape are
 * skipped, {@code overriddenStatus} and {@code overriddenstatus} are both accepted.
 *
 * <p>One class, although long: one pass over every JSON shape, field by field, where the per-field leniency (which
 * spelling, which type, which default) is the substance; split by document, those rules would be repeated.
 */
final class JsonDecoder {
    private static final JsonFactory FACTORY = JsonFactories.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
            .build();

    private JsonDecoder() {
    }

    static InstanceInfo instance(byte[] body, long now) {
        return parse(body, p -> {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "a JSON object");
            // the root must be wrapped, {"instance": {...}}, as every client sends it
            InstanceInfo result = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if ("instance".equals(name) && t == JsonToken.START_OBJECT) {
                    result = instanceBody(p, now);
                } else {
                    p.skipChildren();
                }
            }
            if (result == null) {
                throw new WireFormatException("expected an \"instance\" object");
            }
            return result;
        });
    }

    static Applications applications(byte[] body, long now) {
        return parse(body, p -> applicationsDocument(p, now));
    }

    /**
     * A registry read as it arrives (a peer's, at start-up: a million instances are a gigabyte of JSON, which no
     * longer has to be held whole first). The parser itself refuses malformed UTF-8 there.
     */
    static Applications applications(java.io.InputStream body, long now) {
        return parse(() -> FACTORY.createParser(body), p -> applicationsDocument(p, now));
    }

    private static Applications applicationsDocument(JsonParser p, long now) throws IOException {
        expect(p, p.nextToken(), JsonToken.START_OBJECT, "a JSON object");
        Applications result = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if ("applications".equals(name) && t == JsonToken.START_OBJECT) {
                result = applicationsBody(p, now);
            } else {
                p.skipChildren();
            }
        }
        if (result == null) {
            throw new WireFormatException("expected an \"applications\" object");
        }
        return result;
    }

    static Applications applicationsBody(JsonParser p, long now) throws IOException {
        long version = -1;
        String hash = "";
        List<Application> apps = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if (name.startsWith("versions")) {
                version = asLong(p, t, -1);
            } else if (name.startsWith("apps")) {
                hash = t == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
            } else if ("application".equals(name)) {
                forEachObject(p, t, () -> apps.add(applicationBody(p, now)));
            } else {
                p.skipChildren();
            }
        }
        return new Applications(version, hash, apps);
    }

    private static Application applicationBody(JsonParser p, long now) throws IOException {
        String name = null;
        List<InstanceInfo> instances = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if ("name".equals(field)) {
                name = p.getValueAsString();
            } else if ("instance".equals(field)) {
                forEachObject(p, t, () -> instances.add(instanceBody(p, now)));
            } else {
                p.skipChildren();
            }
        }
        if (name == null) {
            throw new WireFormatException("application without a name");
        }
        return new Application(name.toUpperCase(Locale.ROOT), instances);
    }

    /** Reads the fields of an instance object; the parser is on its START_OBJECT. */
    static InstanceInfo instanceBody(JsonParser p, long now) throws IOException {
        InstanceInfo.Builder b = InstanceInfo.builder().lastUpdatedTimestamp(now).lastDirtyTimestamp(now);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            instanceField(p, b, name, p.nextToken());
        }
        return b.build();
    }

    private static void instanceField(JsonParser p, InstanceInfo.Builder b, String name, JsonToken t)
            throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        switch (name) {
            case "instanceId" -> b.instanceId(text(p, t, name));
            case "hostName" -> b.hostName(text(p, t, name));
            case "app" -> b.app(upper(text(p, t, name)));
            case "appGroupName" -> b.appGroupName(upper(text(p, t, name)));
            case "ipAddr" -> b.ipAddr(text(p, t, name));
            case "sid" -> b.sid(text(p, t, name));
            case "status" -> b.status(InstanceStatus.parseOrUnknown(text(p, t, name)));
            case "overriddenStatus", "overriddenstatus" ->
                    b.overriddenStatus(InstanceStatus.parseOrUnknown(text(p, t, name)));
            case "port" -> b.port(port(p, t, true));
            case "securePort" -> b.securePort(port(p, t, false));
            case "countryId" -> b.countryId((int) asLong(p, t, 1));
            case "dataCenterInfo" -> b.dataCenterInfo(dataCenter(p, t));
            case "leaseInfo" -> b.leaseInfo(lease(p, t));
            case "metadata" -> b.metadata(stringMap(p, t));
            case "homePageUrl" -> b.homePageUrl(text(p, t, name));
            case "statusPageUrl" -> b.statusPageUrl(text(p, t, name));
            case "healthCheckUrl" -> b.healthCheckUrl(text(p, t, name));
            case "secureHealthCheckUrl" -> b.secureHealthCheckUrl(text(p, t, name));
            case "vipAddress" -> b.vipAddress(text(p, t, name));
            case "secureVipAddress" -> b.secureVipAddress(text(p, t, name));
            case "isCoordinatingDiscoveryServer" -> b.isCoordinatingDiscoveryServer(asBoolean(p, t));
            case "lastUpdatedTimestamp" -> b.lastUpdatedTimestamp(asLong(p, t, 0));
            case "lastDirtyTimestamp" -> b.lastDirtyTimestamp(asLong(p, t, 0));
            case "actionType" -> b.actionType(actionType(text(p, t, name)));
            case "asgName" -> b.asgName(text(p, t, name));
            default -> p.skipChildren();
        }
    }

    private static PortInfo port(JsonParser p, JsonToken t, boolean enabledByDefault) throws IOException {
        if (t.isScalarValue()) {   // a bare number: tolerated, though Eureka's own decoder chokes on it
            return PortInfo.of(checkPort(asLong(p, t, 0)), enabledByDefault);
        }
        expect(p, t, JsonToken.START_OBJECT, "a port object");
        long port = 0;
        boolean enabled = enabledByDefault;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "$" -> port = asLong(p, v, 0);
                case "@enabled" -> enabled = asBoolean(p, v);
                default -> p.skipChildren();
            }
        }
        return PortInfo.of(checkPort(port), enabled);
    }

    private static int checkPort(long port) {
        if (port < 0 || port > 65535) {
            throw new WireFormatException("port out of range: " + port);
        }
        return (int) port;
    }

    private static DataCenterInfo dataCenter(JsonParser p, JsonToken t) throws IOException {
        expect(p, t, JsonToken.START_OBJECT, "a dataCenterInfo object");
        String name = null;
        Map<String, String> metadata = Map.of();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if ("name".equals(field) && v != JsonToken.VALUE_NULL) {
                name = text(p, v, "dataCenterInfo.name");
            } else if ("@class".equals(field) && v != JsonToken.VALUE_NULL) {
                WireNames.checkDataCenterClass(text(p, v, "dataCenterInfo.@class"));
            } else if ("metadata".equals(field) && v != JsonToken.VALUE_NULL) {
                metadata = stringMap(p, v);
            } else {
                p.skipChildren();
            }
        }
        return name == null ? null : DataCenterInfo.of(name, metadata);
    }

    private static LeaseInfo lease(JsonParser p, JsonToken t) throws IOException {
        expect(p, t, JsonToken.START_OBJECT, "a leaseInfo object");
        long[] v = new long[6];
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken tok = p.nextToken();
            int index = switch (field) {
                case "renewalIntervalInSecs" -> 0;
                case "durationInSecs" -> 1;
                case "registrationTimestamp" -> 2;
                case "lastRenewalTimestamp", "renewalTimestamp" -> 3;
                case "evictionTimestamp" -> 4;
                case "serviceUpTimestamp" -> 5;
                default -> -1;
            };
            if (index < 0) {
                p.skipChildren();
            } else {
                boolean absent = tok == JsonToken.VALUE_NULL || tok == JsonToken.VALUE_STRING && p.getText().isBlank();
                v[index] = asLong(p, tok, 0);
                if (index == 1 && !absent) {
                    WireNames.checkLeaseDuration(v[1]);
                }
            }
        }
        return LeaseInfo.of(WireNames.toInt(v[0]), WireNames.toInt(v[1]), v[2], v[3], v[4], v[5]);
    }

    private static Map<String, String> stringMap(JsonParser p, JsonToken t) throws IOException {
        expect(p, t, JsonToken.START_OBJECT, "an object");
        Map<String, String> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (v.isScalarValue() && v != JsonToken.VALUE_NULL && !"@class".equals(key)) {
                map.put(key, p.getValueAsString());
            } else {
                p.skipChildren();
            }
        }
        return map;
    }

    private static ActionType actionType(String s) {
        try {
            return ActionType.valueOf(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String text(JsonParser p, JsonToken t, String field) throws IOException {
        if (!t.isScalarValue()) {
            throw new WireFormatException("field " + field + " must be a string");
        }
        return p.getValueAsString();
    }

    private static String upper(String s) {
        return s == null ? null : s.toUpperCase(Locale.ROOT);
    }

    private static long asLong(JsonParser p, JsonToken t, long fallback) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue();
        }
        if (t == JsonToken.VALUE_STRING) {
            String s = p.getText().trim();
            try {
                return s.isEmpty() ? fallback : Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new WireFormatException("not a number: " + abbreviate(s));
            }
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            // a cast would turn 1e400 into Long.MAX_VALUE
            double d = p.getDoubleValue();
            if (!(d >= Long.MIN_VALUE && d < 0x1p63)) {
                throw new WireFormatException("number out of range: " + abbreviate(p.getText()));
            }
            return (long) d;
        }
        if (t == JsonToken.VALUE_NULL) {
            return fallback;
        }
        throw new WireFormatException("expected a number");
    }

    private static boolean asBoolean(JsonParser p, JsonToken t) throws IOException {
        if (!t.isScalarValue()) {
            throw new WireFormatException("expected a boolean");
        }
        return p.getValueAsBoolean(false);
    }

    private static void expect(JsonParser p, JsonToken actual, JsonToken expected, String what) {
        if (actual != expected) {
            throw new WireFormatException("expected " + what);
        }
    }

    interface ObjectReader {
        void read() throws IOException;
    }

    /** Eureka writers always send arrays, but its readers accept a single object too; so do we. */
    private static void forEachObject(JsonParser p, JsonToken t, ObjectReader reader) throws IOException {
        if (t == JsonToken.START_OBJECT) {
            reader.read();
        } else if (t == JsonToken.START_ARRAY) {
            JsonToken item;
            while ((item = p.nextToken()) != JsonToken.END_ARRAY) {
                expect(p, item, JsonToken.START_OBJECT, "an object in the array");
                reader.read();
            }
        } else if (t != JsonToken.VALUE_NULL) {
            throw new WireFormatException("expected an array of objects");
        }
    }

    interface Body<T> {
        T read(JsonParser p) throws IOException;
    }

    static <T> T parse(byte[] body, Body<T> reader) {
        int bad = Utf8.firstMalformed(body);
        if (bad >= 0) {
            throw new WireFormatException("cannot parse request body: not valid UTF-8 at byte " + bad);
        }
        return parse(() -> FACTORY.createParser(body), reader);
    }

    /** Opens the parser of one document (bytes held, or a stream read as it arrives). */
    private interface Source {
        JsonParser open() throws IOException;
    }

    private static <T> T parse(Source source, Body<T> reader) {
        try (JsonParser p = source.open()) {
            T result = reader.read(p);
            if (p.nextToken() != null) {
                throw new WireFormatException("trailing content after the JSON value");
            }
            return result;
        } catch (WireFormatException e) {
            throw e;
        } catch (StreamReadException e) {
            String m = e.getOriginalMessage();
            throw new WireFormatException(m != null && m.startsWith("Duplicate field")
                    ? "cannot parse request body: duplicate field " + abbreviate(m.substring(15).trim())
                    : "cannot parse request body: malformed JSON", e);
        } catch (IOException | RuntimeException e) {
            throw new WireFormatException("cannot parse request body: malformed JSON", e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
