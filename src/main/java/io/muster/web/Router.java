package io.muster.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Classifies a request by its method and its container-normalized path (servlet path plus path info: {@code ;}
 * parameters removed, escapes decoded, dot segments resolved). The only place that reads request paths.
 *
 * <p>The Eureka API answers with or without a version segment ({@code /v2/apps}, any {@code vN} or {@code VN});
 * everything else (health, metrics, the dashboard and its API) only without. Letters are matched as written:
 * {@code /APPS} names nothing. HEAD is GET without a body.
 */
public final class Router {
    private static final Pattern VERSION = Pattern.compile("[vV][0-9]{1,9}");
    private static final Pattern DASHBOARD_FILE = Pattern.compile("[A-Za-z0-9_-]+\\.[a-z]+");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** Kubernetes' three probes, in MicroProfile Health's paths. */
    private static final List<String> HEALTH_CHECKS = List.of("started", "live", "ready");
    private static final List<String> ADMIN_ACTIONS = List.of("out-of-service", "remove-override", "deregister");

    private Router() {
    }

    public static Route classify(String method, String path) {
        List<String> s = segments(path);
        if (s == null) {
            return Route.NOT_FOUND;
        }
        String m = "HEAD".equals(method) ? "GET" : method;
        if (s.size() > 1 && VERSION.matcher(s.get(0)).matches()) {
            return eurekaApi(m, s.subList(1, s.size()));
        }
        Route api = eurekaApi(m, s);
        return api != Route.NOT_FOUND ? api : operations(m, s);
    }

    private static Route eurekaApi(String m, List<String> s) {
        int n = s.size();
        String first = n == 0 ? "" : s.get(0);
        return switch (first) {
            case "apps" -> switch (n) {
                case 1 -> get(m, Endpoint.FULL_REGISTRY, s, null, null, null);
                case 2 -> s.get(1).equals("delta") ? get(m, Endpoint.DELTA, s, null, null, null)
                        : switch (m) {
                            case "GET" -> route(Endpoint.APP, s, s.get(1), null, null);
                            case "POST" -> route(Endpoint.REGISTER, s, s.get(1), null, null);
                            default -> Route.methodNotAllowed("GET, HEAD, POST");
                        };
                case 3 -> switch (m) {
                    case "GET" -> route(Endpoint.INSTANCE, s, s.get(1), s.get(2), null);
                    case "PUT" -> route(Endpoint.RENEW, s, s.get(1), s.get(2), null);
                    case "DELETE" -> route(Endpoint.CANCEL, s, s.get(1), s.get(2), null);
                    default -> Route.methodNotAllowed("GET, HEAD, PUT, DELETE");
                };
                case 4 -> switch (s.get(3)) {
                    case "status" -> switch (m) {
                        case "PUT" -> route(Endpoint.STATUS_OVERRIDE, s, s.get(1), s.get(2), null);
                        case "DELETE" -> route(Endpoint.DELETE_STATUS_OVERRIDE, s, s.get(1), s.get(2), null);
                        default -> Route.methodNotAllowed("PUT, DELETE");
                    };
                    case "metadata" -> "PUT".equals(m) ? route(Endpoint.METADATA, s, s.get(1), s.get(2), null)
                            : Route.methodNotAllowed("PUT");
                    default -> Route.NOT_FOUND;
                };
                default -> Route.NOT_FOUND;
            };
            case "instances" -> n == 2 ? get(m, Endpoint.INSTANCE_BY_ID, s, null, s.get(1), null) : Route.NOT_FOUND;
            case "vips" -> n == 2 ? get(m, Endpoint.VIP, s, null, null, s.get(1)) : Route.NOT_FOUND;
            case "svips" -> n == 2 ? get(m, Endpoint.SECURE_VIP, s, null, null, s.get(1)) : Route.NOT_FOUND;
            case "status" -> n == 1 ? get(m, Endpoint.EUREKA_STATUS, s, null, null, null) : Route.NOT_FOUND;
            case "serverinfo" -> n == 2 && s.get(1).equals("statusoverrides")
                    ? get(m, Endpoint.STATUS_OVERRIDES, s, null, null, null) : Route.NOT_FOUND;
            case "asg" -> n == 3 && s.get(2).equals("status")
                    ? only(m, "PUT", Endpoint.ASG_STATUS, s) : Route.NOT_FOUND;
            case "peerreplication" -> n == 2 && s.get(1).equals("batch")
                    ? only(m, "POST", Endpoint.REPLICATION_BATCH, s) : Route.NOT_FOUND;
            default -> Route.NOT_FOUND;
        };
    }

    private static Route operations(String m, List<String> s) {
        int n = s.size();
        if (n == 0) {
            return get(m, Endpoint.DASHBOARD, s, null, null, null);
        }
        return switch (s.get(0)) {
            case "dashboard" -> n == 2 && DASHBOARD_FILE.matcher(s.get(1)).matches()
                    ? get(m, Endpoint.DASHBOARD, s, null, null, s.get(1)) : Route.NOT_FOUND;
            case "health" -> n == 1 || (n == 2 && HEALTH_CHECKS.contains(s.get(1)))
                    ? get(m, Endpoint.HEALTH, s, null, null, null) : Route.NOT_FOUND;
            case "metrics" -> n == 1 ? get(m, Endpoint.METRICS, s, null, null, null) : Route.NOT_FOUND;
            case "api" -> api(m, s);
            default -> Route.NOT_FOUND;
        };
    }

    private static Route api(String m, List<String> s) {
        int n = s.size();
        if (n == 2 && s.get(1).equals("status")) {
            return get(m, Endpoint.DASHBOARD_STATUS, s, null, null, null);
        }
        if (n == 2 && s.get(1).equals("audit")) {
            return get(m, Endpoint.AUDIT, s, null, null, null);
        }
        if (n == 2 && s.get(1).equals("changes")) {
            return get(m, Endpoint.CHANGES, s, null, null, null);
        }
        if (n == 3 && s.get(1).equals("cluster") && s.get(2).equals("digest")) {
            return get(m, Endpoint.CLUSTER_DIGEST, s, null, null, null);
        }
        if (n == 3 && s.get(1).equals("cluster") && s.get(2).equals("registry")) {
            return get(m, Endpoint.CLUSTER_REGISTRY, s, null, null, null);
        }
        if (n < 3 || !s.get(1).equals("admin")) {
            return Route.NOT_FOUND;
        }
        if (n == 3 && s.get(2).equals("csrf")) {
            return get(m, Endpoint.ADMIN_CSRF, s, null, null, null);
        }
        if (n == 6 && s.get(2).equals("instances") && ADMIN_ACTIONS.contains(s.get(5))) {
            return "POST".equals(m) ? route(Endpoint.ADMIN_ACTION, s, s.get(3), s.get(4), s.get(5))
                    : Route.methodNotAllowed("POST");
        }
        return Route.NOT_FOUND;
    }

    private static Route get(String m, Endpoint endpoint, List<String> s, String app, String id, String name) {
        return "GET".equals(m) ? route(endpoint, s, app, id, name) : Route.methodNotAllowed("GET, HEAD");
    }

    private static Route only(String m, String method, Endpoint endpoint, List<String> s) {
        return method.equals(m) ? route(endpoint, s, null, null, null) : Route.methodNotAllowed(method);
    }

    private static Route route(Endpoint endpoint, List<String> s, String app, String id, String name) {
        return new Route(endpoint, app, id, name, s, null);
    }

    /** The path's non-empty segments; null when one is a dot segment the container left (it names nothing). */
    static List<String> segments(String path) {
        List<String> out = new ArrayList<>(6);
        int from = 0;
        int length = path.length();
        while (from <= length) {
            int slash = path.indexOf('/', from);
            int to = slash < 0 ? length : slash;
            if (to > from) {
                String segment = path.substring(from, to);
                if (segment.equals(".") || segment.equals("..")) {
                    return null;
                }
                out.add(segment);
            }
            from = to + 1;
        }
        return out;
    }

    /** {@code /a/b}, each segment percent-encoded except RFC 3986's unreserved characters. */
    static String canonical(List<String> segments) {
        if (segments.isEmpty()) {
            return "/";
        }
        StringBuilder b = new StringBuilder(64);
        for (String segment : segments) {
            b.append('/');
            encode(segment, b);
        }
        return b.toString();
    }

    private static void encode(String segment, StringBuilder b) {
        for (byte x : segment.getBytes(StandardCharsets.UTF_8)) {
            if (x >= 0 && unreserved((char) x)) {
                b.append((char) x);
            } else {
                b.append('%').append(HEX[(x >> 4) & 0xF]).append(HEX[x & 0xF]);
            }
        }
    }

    private static boolean unreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
