package io.muster.model;

import com.google.common.collect.Interner;
import com.google.common.collect.Interners;

/**
 * One copy of the text that many instances repeat (application and VIP names, metadata keys and the usual
 * values, data-centre names), weakly held: a copy goes once no instance refers to it. At a million instances each
 * repeated string is 40-60 bytes per instance saved; unique text (ids, URLs) is not passed here, since an entry
 * costs more than it saves. Thread-safe: Guava's weak interner is concurrent, and strings are compared with the
 * JDK's own equals, so nothing here holds a class of the web application once it is undeployed.
 */
final class SharedText {
    private static final Interner<String> TEXT = Interners.newWeakInterner();

    private SharedText() {
    }

    static String of(String s) {
        return s == null ? null : TEXT.intern(s);
    }
}
