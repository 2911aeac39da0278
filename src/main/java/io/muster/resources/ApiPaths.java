package io.muster.resources;

/**
 * Reading request paths (after the context path) without regular expressions or splitting: the filters that use
 * this run on every request.
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

    /** No percent-encoding or matrix parameters between {@code from} and {@code to}: those need Jersey's decoding. */
    static boolean isPlain(String path, int from, int to) {
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
