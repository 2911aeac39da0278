package io.muster.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Registration bodies as real clients send them (Spring Cloud, Netflix, eureka-js-client shapes), and the ways a
 * broken or hostile client gets them wrong: missing and wrong-typed fields, unknown enum values, odd and long
 * strings, XML-special metadata keys and values, unicode. Trees of maps, written as JSON or XML by the test.
 */
final class Mutations {
    static final List<String> GOOD_KEYS = List.of("zone", "color", "a.b", "x-y", "_p", "$d", "k__2", "Z9");
    static final List<String> KEYS = List.of("zone", "management.port", "a-b", "_x", "a_b", "a__b", "$x", "a$b",
            "_-", "x1", "@class", "class", "1abc", "-x", ".x", "a:b", "a b", "<x>", "a><b", "é", "ключ", "",
            "--><application><name>PAYMENTS</name><instance>", "x".repeat(300), "k\u0001");
    private static final List<String> STATUSES = List.of("UP", "DOWN", "STARTING", "OUT_OF_SERVICE", "UNKNOWN",
            "up", "BOGUS", "");
    private static final List<String> DATA_CENTERS = List.of("MyOwn", "MyOwn", "Amazon", "Netflix", "Nope", "myown",
            "");
    private static final List<String> DATA_CENTER_CLASSES = List.of(
            "com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo", "com.netflix.appinfo.MyDataCenterInfo",
            "com.netflix.appinfo.AmazonInfo", "no.such.Class");
    private static final List<Object> NUMBERS = List.of(-1, 0, 1, 80, 90, 3600, 3601, 65535, 65536,
            99_999_999_999_999L, "90", "x", "", 1.5, true);
    private static final List<Object> WRONG_TYPES = List.of(42, true, List.of("a"), Map.of("a", "b"), "str", "");
    private static final List<String> STRING_FIELDS = List.of("instanceId", "hostName", "app", "ipAddr", "sid",
            "appGroupName", "homePageUrl", "statusPageUrl", "healthCheckUrl", "secureHealthCheckUrl", "vipAddress",
            "secureVipAddress", "asgName");

    private Mutations() {
    }

    static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    static String oddString(Random random) {
        return switch (random.nextInt(24)) {
            case 0 -> "";
            case 1 -> " ";
            case 2 -> " padded ";
            case 3 -> "<x>&amp;</x>";
            case 4 -> "]]>";
            case 5 -> "\"'";
            case 6 -> "--><!--";
            case 7 -> "é日本😀";
            case 8 -> "a\u0000b";
            case 9 -> "a\u0001b";
            case 10 -> "tab\there";
            case 11 -> "line\nbreak";
            case 12 -> "cr\r\nlf";
            case 13 -> "\uFFFE";
            case 14 -> "lone\uD800";
            case 15 -> "${x}";
            case 16 -> "x".repeat(255 + random.nextInt(3));
            case 17 -> "y".repeat(1023 + random.nextInt(3));
            case 18 -> "z".repeat(4000 + random.nextInt(200));
            case 19 -> "\u202Eevil";
            case 20 -> "A\u0085B\u2028C";
            case 21 -> "ß";
            case 22 -> "\\u0041";
            default -> "plain-" + random.nextInt(100);
        };
    }

    /** A valid registration of one of a few apps and ids; Amazon or MyOwn; with or without instanceId. */
    static Map<String, Object> template(Random random, List<String> apps, List<String> ids) {
        String app = pick(random, apps);
        String id = pick(random, ids);
        Map<String, Object> i = new LinkedHashMap<>();
        boolean amazon = random.nextInt(5) == 0;
        if (!id.startsWith("host") && !amazon) {
            i.put("instanceId", id);
        }
        i.put("hostName", id.startsWith("host") ? id : "h-" + id);
        i.put("app", random.nextBoolean() ? app : app.toLowerCase());
        i.put("ipAddr", "10.0.0." + (1 + random.nextInt(9)));
        i.put("status", pick(random, List.of("UP", "UP", "DOWN", "STARTING")));
        i.put("overriddenStatus", "UNKNOWN");
        i.put("port", new LinkedHashMap<>(Map.of("$", 8080, "@enabled", "true")));
        i.put("securePort", new LinkedHashMap<>(Map.of("$", 443, "@enabled", "false")));
        i.put("countryId", 1);
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("@class", amazon ? "com.netflix.appinfo.AmazonInfo"
                : "com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo");
        dc.put("name", amazon ? "Amazon" : "MyOwn");
        if (amazon) {
            dc.put("metadata", new LinkedHashMap<>(Map.of("instance-id", id, "availability-zone", "eu-west-1a")));
        }
        i.put("dataCenterInfo", dc);
        i.put("leaseInfo", new LinkedHashMap<>(Map.of("renewalIntervalInSecs", 30, "durationInSecs", 90)));
        i.put("metadata", new LinkedHashMap<>(Map.of("management.port", "8080")));
        i.put("homePageUrl", "http://h:8080/");
        i.put("statusPageUrl", "http://h:8080/info");
        i.put("healthCheckUrl", "http://h:8080/health");
        i.put("vipAddress", app.toLowerCase());
        i.put("secureVipAddress", app.toLowerCase());
        i.put("lastDirtyTimestamp", Long.toString(1_700_000_000_000L + random.nextInt(1000)));
        return i;
    }

    /** Zero to three mutations; zero keeps a good share of writes valid, so the accepted path is exercised. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> mutated(Random random, Map<String, Object> i) {
        int n = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(3);
        for (int k = 0; k < n; k++) {
            switch (random.nextInt(9)) {
                case 0 -> i.remove(pick(random, new ArrayList<>(i.keySet())));
                case 1 -> i.put(pick(random, new ArrayList<>(i.keySet())), pick(random, WRONG_TYPES));
                case 2 -> i.put(pick(random, List.of("status", "overriddenStatus")), pick(random, STATUSES));
                case 3 -> {
                    Map<String, Object> dc = new LinkedHashMap<>();
                    dc.put("@class", pick(random, DATA_CENTER_CLASSES));
                    dc.put("name", pick(random, DATA_CENTERS));
                    i.put("dataCenterInfo", dc);
                }
                case 4 -> i.put(pick(random, STRING_FIELDS), oddString(random));
                case 5 -> {
                    Map<String, Object> md = i.get("metadata") instanceof Map<?, ?> m
                            ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
                    int entries = random.nextInt(8) == 0 ? 60 + random.nextInt(10) : 1 + random.nextInt(4);
                    for (int e = 0; e < entries; e++) {
                        md.put(random.nextBoolean() ? pick(random, KEYS) : "k" + e, oddString(random));
                    }
                    i.put("metadata", md);
                }
                case 6 -> i.put(pick(random, List.of("port", "securePort")),
                        new LinkedHashMap<>(Map.of("$", pick(random, NUMBERS), "@enabled", "true")));
                case 7 -> i.put("leaseInfo", new LinkedHashMap<>(Map.of(
                        pick(random, List.of("durationInSecs", "renewalIntervalInSecs")), pick(random, NUMBERS))));
                default -> i.put(pick(random, List.of("countryId", "lastDirtyTimestamp",
                        "isCoordinatingDiscoveryServer", "actionType")), pick(random, NUMBERS));
            }
        }
        return i;
    }

    /** A replication item: a Register whose id may not match its instance, or a write about some id. */
    static Map<String, Object> batchItem(Random random, List<String> apps, List<String> ids) {
        Map<String, Object> item = new LinkedHashMap<>();
        String action = pick(random, List.of("Register", "Register", "Register", "Heartbeat", "Cancel",
                "StatusUpdate", "DeleteStatusOverride", "Bogus"));
        item.put("action", action);
        String app = pick(random, apps);
        item.put("appName", random.nextInt(8) == 0 ? oddString(random) : app);
        item.put("id", random.nextInt(8) == 0 ? oddString(random) : pick(random, ids));
        if ("Register".equals(action)) {
            Map<String, Object> instance = mutated(random, template(random, apps, ids));
            if (random.nextInt(4) > 0) {   // mostly the ids and app of the instance itself
                Object id = instance.getOrDefault("instanceId", instance.get("hostName"));
                Map<?, ?> dc = instance.get("dataCenterInfo") instanceof Map<?, ?> m ? m : Map.of();
                if (dc.get("metadata") instanceof Map<?, ?> md && md.get("instance-id") != null
                        && !instance.containsKey("instanceId")) {
                    id = md.get("instance-id");
                }
                item.put("id", id);
                item.put("appName", instance.get("app"));
            }
            item.put("instanceInfo", instance);
        }
        if (random.nextBoolean()) {
            item.put("status", pick(random, STATUSES));
        }
        if (random.nextBoolean()) {
            item.put("lastDirtyTimestamp", pick(random, NUMBERS));
        }
        return item;
    }

    /**
     * A tree as Eureka-style XML: {@code @x} keys become attributes, {@code $} the text, other keys child elements
     * named as they are (so an odd key makes an odd document, as a hostile client would send).
     */
    static String xml(Map<String, Object> tree) {
        StringBuilder sb = new StringBuilder();
        tree.forEach((k, v) -> element(sb, k, v));
        return sb.toString();
    }

    private static void element(StringBuilder sb, String name, Object value) {
        if (value == null) {
            return;
        }
        if (value instanceof List<?> list) {
            list.forEach(v -> element(sb, name, v));
            return;
        }
        sb.append('<').append(name);
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (k.toString().startsWith("@") && v != null) {
                    sb.append(' ').append(k.toString().substring(1)).append("=\"").append(escape(v.toString()))
                            .append('"');
                }
            });
            sb.append('>');
            map.forEach((k, v) -> {
                if ("$".equals(k)) {
                    sb.append(escape(String.valueOf(v)));
                } else if (!k.toString().startsWith("@")) {
                    element(sb, k.toString(), v);
                }
            });
        } else {
            sb.append('>').append(escape(value.toString()));
        }
        sb.append("</").append(name).append('>');
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** For logs: control characters shown as escapes, long runs shortened. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(cp -> sb.append(cp < 0x20 ? String.format("\\u%04x", cp) : Character.toString(cp)));
        return sb.toString().replaceAll("(.)\\1{20,}", "$1...");
    }
}
