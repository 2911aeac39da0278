package io.muster.codec;

/**
 * XStream's element-name escaping as Eureka configures it: {@code _} is written {@code __} and {@code $} is
 * written {@code _-}. Eureka writes keys that are not valid XML names unchanged; we leave them out (see
 * {@link #isName}).
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

    /**
     * True when {@code name} is an XML 1.0 Name without ':' (a colon would be read as a namespace prefix), so it can
     * be written as an element name that every parser reads back.
     */
    static boolean isName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int k = 0; k < name.length(); ) {
            int cp = name.codePointAt(k);
            if (!(k == 0 ? isNameStart(cp) : isNameStart(cp) || isNamePart(cp))) {
                return false;
            }
            k += Character.charCount(cp);
        }
        return true;
    }

    /** XML 1.0 (fifth edition) NameStartChar, without ':'. */
    private static boolean isNameStart(int c) {
        return c >= 'A' && c <= 'Z' || c == '_' || c >= 'a' && c <= 'z' || c >= 0xC0 && c <= 0xD6
                || c >= 0xD8 && c <= 0xF6 || c >= 0xF8 && c <= 0x2FF || c >= 0x370 && c <= 0x37D
                || c >= 0x37F && c <= 0x1FFF || c >= 0x200C && c <= 0x200D || c >= 0x2070 && c <= 0x218F
                || c >= 0x2C00 && c <= 0x2FEF || c >= 0x3001 && c <= 0xD7FF || c >= 0xF900 && c <= 0xFDCF
                || c >= 0xFDF0 && c <= 0xFFFD || c >= 0x10000 && c <= 0xEFFFF;
    }

    private static boolean isNamePart(int c) {
        return c == '-' || c == '.' || c >= '0' && c <= '9' || c == 0xB7 || c >= 0x300 && c <= 0x36F
                || c >= 0x203F && c <= 0x2040;
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
