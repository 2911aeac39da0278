package io.muster.resources;

/** The optional {@code /v2} (any {@code /vN}) segment Eureka clients put before the API paths. */
public final class VersionPrefix {
    private VersionPrefix() {
    }

    /** Where the path continues after a leading {@code /vN} segment, or 0 when it has none. */
    public static int end(String path) {
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

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
