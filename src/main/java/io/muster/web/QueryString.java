package io.muster.web;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A query parameter read from the raw query string, as the container's {@code getParameter} would give it for the
 * simple values the Eureka API takes (numbers, status names, region lists), without the container parsing every
 * parameter of every request into maps: a heartbeat carries two, and this runs thousands of times a second.
 * Stateless.
 */
final class QueryString {
    private QueryString() {
    }

    /**
     * The first value of {@code name} in {@code rawQuery}, percent- and plus-decoded as UTF-8; null when absent or
     * when the value's escapes are malformed (the container drops such a parameter too).
     */
    static String first(String rawQuery, String name) {
        if (rawQuery == null) {
            return null;
        }
        int at = 0;
        int length = rawQuery.length();
        while (at <= length) {
            int end = rawQuery.indexOf('&', at);
            if (end < 0) {
                end = length;
            }
            int eq = rawQuery.indexOf('=', at);
            int nameEnd = eq < 0 || eq > end ? end : eq;
            if (nameEnd - at == name.length() && rawQuery.startsWith(name, at)) {
                return decode(nameEnd == end ? "" : rawQuery.substring(nameEnd + 1, end));
            }
            at = end + 1;
        }
        return null;
    }

    private static String decode(String raw) {
        if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) {
            return raw;
        }
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
