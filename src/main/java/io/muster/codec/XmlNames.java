package io.muster.codec;

/**
 * XStream's element-name escaping as Eureka configures it: {@code _} is written {@code __} and {@code $} is
 * written {@code _-}. Metadata keys that are not valid XML names otherwise pass through unchanged, as in Eureka.
 */
final class XmlNames {
    private XmlNames() {
    }

    static String encode(String name) {
        if (name.indexOf('_') < 0 && name.indexOf('$') < 0) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_') {
                sb.append("__");
            } else if (c == '$') {
                sb.append("_-");
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    static String decode(String name) {
        if (name.indexOf('_') < 0) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '_') {
                sb.append('_');
                i++;
            } else if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '-') {
                sb.append('$');
                i++;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
