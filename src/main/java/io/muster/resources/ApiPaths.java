package io.muster.resources;

/**
 * Reading request paths (after the context path) without regular expressions: the filters that use this run on
 * every request.
 */
public final class ApiPaths {
    private ApiPaths() {
    }

    /**
     * Where the path continues after a leading {@code /vN} segment (the optional {@code /v2} Eureka clients put
     * before the API paths), or 0 when it has none.
     */
    public static int versionEnd(String path) {
        if (path.length() < 3 || path.charAt(0) != '/' || (path.charAt(1) != 'v' && path.charAt(1) != 'V')
                || !isDigit(path.charAt(2))) {
            return 0;
        }
        int at = 3;
        while (at < path.length() && isDigit(path.charAt(at))) {
            at++;
        }
        return at < path.length() && path.charAt(at) == '/' ? at : 0;
    }

    private static final String[] NO_SEGMENTS = new String[0];

    /**
     * The segments after {@code [/vN]/apps}, at most two ({@code {app}} and {@code {id}}), one trailing slash
     * allowed; null when the path is not of that form or a segment is empty, percent-encoded or carries matrix
     * parameters (those need Jersey's decoding). {@code /apps} and {@code /apps/} give no segments.
     */
    static String[] appsSegments(String path) {
        int at = versionEnd(path);
        if (!path.startsWith("/apps", at)) {
            return null;
        }
        int from = at + 5;
        if (from == path.length()) {
            return NO_SEGMENTS;
        }
        if (path.charAt(from) != '/') {
            return null;
        }
        from++;
        int to = path.length();
        if (from == to) {
            return NO_SEGMENTS;
        }
        if (path.charAt(to - 1) == '/') {
            to--;
        }
        int slash = path.indexOf('/', from);
        if (slash < 0 || slash >= to) {
            return isSegment(path, from, to) ? new String[]{path.substring(from, to)} : null;
        }
        int third = path.indexOf('/', slash + 1);
        if ((third >= 0 && third < to) || !isSegment(path, from, slash) || !isSegment(path, slash + 1, to)) {
            return null;   // a sub-resource such as /status, or an empty or encoded segment
        }
        return new String[]{path.substring(from, slash), path.substring(slash + 1, to)};
    }

    private static boolean isSegment(String path, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = path.charAt(i);
            if (c == '%' || c == ';') {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
