package io.muster.web;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One path of the endpoint table, parsed: each segment a literal, or a variable (optionally constrained by a regex,
 * as in JAX-RS's {@code {name: regex}}). Immutable.
 */
final class PathTemplate {
    private final String text;
    private final String[] literals;    // null where the segment is a variable
    private final String[] variables;   // null where the segment is a literal
    private final Pattern[] patterns;   // null where any value will do
    /** Where {@code {app}}, {@code {id}} and the other variable are, or -1: found once, not per request. */
    private final int appAt;
    private final int idAt;
    private final int nameAt;

    private PathTemplate(String text, String[] literals, String[] variables, Pattern[] patterns) {
        this.text = text;
        this.literals = literals;
        this.variables = variables;
        this.patterns = patterns;
        int app = -1;
        int id = -1;
        int name = -1;
        for (int i = 0; i < variables.length; i++) {
            if ("app".equals(variables[i])) {
                app = i;
            } else if ("id".equals(variables[i])) {
                id = i;
            } else if (variables[i] != null) {
                name = i;
            }
        }
        this.appAt = app;
        this.idAt = id;
        this.nameAt = name;
    }

    static PathTemplate parse(String text) {
        List<String> segments = text.isEmpty() ? List.of() : List.of(text.split("/"));
        int n = segments.size();
        String[] literals = new String[n];
        String[] variables = new String[n];
        Pattern[] patterns = new Pattern[n];
        for (int i = 0; i < n; i++) {
            String s = segments.get(i);
            if (s.isEmpty()) {
                throw new IllegalArgumentException("empty segment in " + text);
            }
            if (s.startsWith("{") && s.endsWith("}")) {
                String inner = s.substring(1, s.length() - 1);
                int colon = inner.indexOf(':');
                variables[i] = (colon < 0 ? inner : inner.substring(0, colon)).trim();
                patterns[i] = colon < 0 ? null : Pattern.compile(inner.substring(colon + 1).trim());
            } else {
                literals[i] = s;
            }
        }
        return new PathTemplate(text, literals, variables, patterns);
    }

    int size() {
        return literals.length;
    }

    /** The first segment, which the table requires to be a literal (null for the empty path). */
    String first() {
        return literals.length == 0 ? null : literals[0];
    }

    boolean matches(List<String> segments) {
        if (segments.size() != literals.length) {
            return false;
        }
        for (int i = 0; i < literals.length; i++) {
            String s = segments.get(i);
            if (literals[i] != null ? !literals[i].equals(s) : patterns[i] != null && !patterns[i].matcher(s).matches()) {
                return false;
            }
        }
        return true;
    }

    /** The {@code {app}} segment, or null when the template has none. */
    String app(List<String> segments) {
        return appAt < 0 ? null : segments.get(appAt);
    }

    /** The {@code {id}} segment, or null when the template has none. */
    String id(List<String> segments) {
        return idAt < 0 ? null : segments.get(idAt);
    }

    /** The segment bound to the variable that is neither {@code app} nor {@code id}, if any. */
    String name(List<String> segments) {
        return nameAt < 0 ? null : segments.get(nameAt);
    }

    /** The shape two templates share when they match the same paths: variables (and their regex) kept, names not. */
    String shape() {
        List<String> out = new ArrayList<>(literals.length);
        for (int i = 0; i < literals.length; i++) {
            out.add(literals[i] != null ? literals[i] : patterns[i] == null ? "{}" : "{:" + patterns[i] + "}");
        }
        return String.join("/", out);
    }

    /**
     * Negative when this template is the more specific of two that can match the same path: a literal segment
     * wins over a variable at the first place they differ (JAX-RS's rule too: {@code apps/delta} before
     * {@code apps/{app}}).
     */
    int compareSpecificity(PathTemplate other) {
        for (int i = 0; i < Math.min(literals.length, other.literals.length); i++) {
            boolean mine = literals[i] != null;
            boolean theirs = other.literals[i] != null;
            if (mine != theirs) {
                return mine ? -1 : 1;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
