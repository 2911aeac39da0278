package io.muster.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Classifies a request by its method and its container-normalized path (servlet path plus path info: {@code ;}
 * parameters removed, escapes decoded, dot segments resolved), from the {@link Endpoint} table alone. The only
 * place that reads request paths.
 *
 * <p>The Eureka API answers with or without a version segment ({@code /v2/apps}, any {@code vN} or {@code VN});
 * everything else (health, metrics, the dashboard and its API) only without. Letters are matched as written:
 * {@code /APPS} names nothing. HEAD is GET without a body. A path that some endpoint has, asked with a method none
 * of that path's endpoints takes, is 405 with the methods allowed.
 *
 * <p>The index is built once, when the class loads, and never changes; any number of threads classify at once.
 */
public final class Router {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final String ROOT = "";
    /** The table's paths by first segment, each list most specific first. */
    private static final Map<String, List<SamePaths>> INDEX = index();

    private Router() {
    }

    public static Route classify(String method, String path) {
        List<String> s = segments(path);
        if (s == null) {
            return Route.NOT_FOUND;
        }
        String m = "HEAD".equals(method) ? "GET" : method;
        if (s.size() > 1 && isVersion(s.get(0))) {
            return match(m, s.subList(1, s.size()), true);
        }
        return match(m, s, false);
    }

    /** {@code v2}, {@code V10}: a v and one to nine digits (asked of every request, so no regular expression). */
    static boolean isVersion(String segment) {
        int n = segment.length();
        if (n < 2 || n > 10 || (segment.charAt(0) != 'v' && segment.charAt(0) != 'V')) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            char c = segment.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static Route match(String method, List<String> s, boolean versioned) {
        List<SamePaths> candidates = INDEX.get(s.isEmpty() ? ROOT : s.get(0));
        if (candidates == null) {
            return Route.NOT_FOUND;
        }
        for (SamePaths paths : candidates) {
            if ((!versioned || paths.scope == Endpoint.Scope.EUREKA) && paths.template.matches(s)) {
                Endpoint e = paths.byMethod.get(method);
                return e == null ? paths.notAllowed : route(e, paths.templates.get(e), s);
            }
        }
        return Route.NOT_FOUND;
    }

    private static Route route(Endpoint endpoint, PathTemplate t, List<String> s) {
        return new Route(endpoint, t.app(s), t.id(s), t.name(s), s, null);
    }

    /**
     * The endpoints that share one path shape (apps/{app}: APP and REGISTER), by method, and the 405 for any
     * other method.
     */
    private static final class SamePaths {
        final PathTemplate template;
        final Endpoint.Scope scope;
        final Map<String, Endpoint> byMethod = new LinkedHashMap<>();
        final Map<Endpoint, PathTemplate> templates = new EnumMap<>(Endpoint.class);
        Route notAllowed;

        SamePaths(PathTemplate template, Endpoint.Scope scope) {
            this.template = template;
            this.scope = scope;
        }

        void add(Endpoint e, PathTemplate t) {
            if (e.scope() != scope || byMethod.put(e.method(), e) != null) {
                throw new IllegalStateException("the endpoint table gives " + t + " twice, or in two scopes");
            }
            templates.put(e, t);
        }
    }

    private static Map<String, List<SamePaths>> index() {
        Map<String, SamePaths> byShape = new LinkedHashMap<>();
        for (Endpoint e : Endpoint.values()) {
            for (String p : e.paths()) {
                PathTemplate t = PathTemplate.parse(p);
                if (t.size() > 0 && t.first() == null) {
                    throw new IllegalStateException("a path of the endpoint table starts with a variable: " + p);
                }
                byShape.computeIfAbsent(t.shape(), k -> new SamePaths(t, e.scope())).add(e, t);
            }
        }
        Map<String, List<SamePaths>> index = new HashMap<>();
        for (SamePaths paths : byShape.values()) {
            List<String> allowed = new ArrayList<>();
            paths.byMethod.keySet().forEach(m -> allowed.add("GET".equals(m) ? "GET, HEAD" : m));
            paths.notAllowed = Route.methodNotAllowed(String.join(", ", allowed));
            String first = paths.template.size() == 0 ? ROOT : paths.template.first();
            index.computeIfAbsent(first, k -> new ArrayList<>()).add(paths);
        }
        index.values().forEach(l -> l.sort(Comparator.comparingInt((SamePaths a) -> a.template.size())
                .thenComparing((a, b) -> a.template.compareSpecificity(b.template))));
        Map<String, List<SamePaths>> frozen = new HashMap<>();
        index.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        return Map.copyOf(frozen);
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
