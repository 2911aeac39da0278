package io.muster.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.muster.model.InstanceInfo;
import io.muster.model.ReplicationAction;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Eureka's peer replication batch format: {@code {"replicationList":[...]}} going out and
 * {@code {"responseList":[...]}} coming back, one answer per item in the same order, with instances nested
 * unwrapped.
 */
public final class ReplicationBatchCodec {
    private ReplicationBatchCodec() {
    }

    public static byte[] encodeRequest(List<ReplicationItem> items) {
        return JsonEncoder.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("replicationList");
            for (ReplicationItem item : items) {
                writeItem(g, item);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static void writeItem(JsonGenerator g, ReplicationItem item) throws IOException {
        g.writeStartObject();
        g.writeStringField("appName", item.appName());
        g.writeStringField("id", item.id());
        if (item.lastDirtyTimestamp() != null) {
            g.writeNumberField("lastDirtyTimestamp", item.lastDirtyTimestamp());
        }
        if (item.overriddenStatus() != null) {
            g.writeStringField("overriddenStatus", item.overriddenStatus());
        }
        if (item.status() != null) {
            g.writeStringField("status", item.status());
        }
        if (item.instanceInfo() != null) {
            g.writeFieldName("instanceInfo");
            JsonEncoder.instanceBody(g, item.instanceInfo(), Detail.FULL);
        }
        g.writeStringField("action", item.action().wireName());
        g.writeEndObject();
    }

    /**
     * Decodes a batch. An item that cannot be read, or whose action is none of Eureka's, comes back as an item with
     * a null action, so the receiver can
     * answer it with a 400 and still apply the rest.
     */
    public static List<ReplicationItem> decodeRequest(byte[] body, long now) {
        return JsonDecoder.parse(body, p -> {
            List<ReplicationItem> items = new ArrayList<>();
            expectObject(p.nextToken());
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if ("replicationList".equals(name) && t == JsonToken.START_ARRAY) {
                    JsonToken item;
                    while ((item = p.nextToken()) != JsonToken.END_ARRAY) {
                        items.add(item == JsonToken.START_OBJECT ? readItem(p, now) : skipBadItem(p));
                    }
                } else {
                    p.skipChildren();
                }
            }
            return items;
        });
    }

    private static ReplicationItem skipBadItem(JsonParser p) throws IOException {
        p.skipChildren();
        return new ReplicationItem(null, null, null, null, null, null, null);
    }

    private static ReplicationItem readItem(JsonParser p, long now) throws IOException {
        String action = null;
        String appName = null;
        String id = null;
        Long lastDirty = null;
        String status = null;
        String overridden = null;
        InstanceInfo instance = null;
        boolean bad = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            try {
                switch (name) {
                    case "action" -> action = scalar(p, t);
                    case "appName" -> appName = scalar(p, t);
                    case "id" -> id = scalar(p, t);
                    case "status" -> status = scalar(p, t);
                    case "overriddenStatus" -> overridden = scalar(p, t);
                    case "lastDirtyTimestamp" -> lastDirty = t == JsonToken.VALUE_NULL ? null
                            : Long.valueOf(p.getValueAsString().trim());
                    case "instanceInfo" -> {
                        if (t == JsonToken.START_OBJECT) {
                            instance = JsonDecoder.instanceBody(p, now);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            } catch (WireFormatException | NumberFormatException e) {
                bad = true;
                p.skipChildren();
            }
        }
        return bad ? new ReplicationItem(null, appName, id, null, null, null, null)
                : new ReplicationItem(ReplicationAction.fromWire(action), appName, id, lastDirty, status, overridden,
                        instance);
    }

    private static String scalar(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (!t.isScalarValue()) {
            throw new WireFormatException("expected a scalar");
        }
        return p.getValueAsString();
    }

    public static byte[] encodeResponse(List<ReplicationResult> results) {
        return JsonEncoder.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("responseList");
            for (ReplicationResult r : results) {
                g.writeStartObject();
                g.writeNumberField("statusCode", r.statusCode());
                if (r.responseEntity() != null) {
                    g.writeFieldName("responseEntity");
                    JsonEncoder.instanceBody(g, r.responseEntity(), Detail.FULL);
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    public static List<ReplicationResult> decodeResponse(byte[] body, long now) {
        return JsonDecoder.parse(body, p -> {
            List<ReplicationResult> results = new ArrayList<>();
            expectObject(p.nextToken());
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if ("responseList".equals(name) && t == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        int status = 0;
                        InstanceInfo entity = null;
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String field = p.currentName();
                            JsonToken v = p.nextToken();
                            if ("statusCode".equals(field)) {
                                status = p.getValueAsInt(0);
                            } else if ("responseEntity".equals(field) && v == JsonToken.START_OBJECT) {
                                entity = JsonDecoder.instanceBody(p, now);
                            } else {
                                p.skipChildren();
                            }
                        }
                        results.add(new ReplicationResult(status, entity));
                    }
                } else {
                    p.skipChildren();
                }
            }
            return results;
        });
    }

    private static void expectObject(JsonToken t) {
        if (t != JsonToken.START_OBJECT) {
            throw new WireFormatException("expected a JSON object");
        }
    }
}
