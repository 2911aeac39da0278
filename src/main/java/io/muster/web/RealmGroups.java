package io.muster.web;

import javax.security.auth.Subject;
import java.lang.reflect.Method;
import java.security.Principal;

/**
 * The realm groups of the caller on the current thread, where the container exposes its JAAS subject through
 * Jakarta Authorization (Payara: {@code PolicyContext.getContext("javax.security.auth.Subject.container")}, its
 * groups being {@code Group} principals). Tomcat has no Jakarta Authorization; there every lookup is false and
 * its realm's roles answer {@code isUserInRole} directly.
 *
 * <p>Looked up by reflection because the API is absent on Tomcat; the lookup is resolved once.
 */
final class RealmGroups {
    private static final String SUBJECT_KEY = "javax.security.auth.Subject.container";
    /** Null when the container has no Jakarta Authorization. */
    private static final Method GET_CONTEXT = policyContext();

    private RealmGroups() {
    }

    /** Whether the caller's subject holds a group of this name (never a user of that name). */
    static boolean contains(String group) {
        if (GET_CONTEXT == null) {
            return false;
        }
        Object subject;
        try {
            subject = GET_CONTEXT.invoke(null, SUBJECT_KEY);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
        if (!(subject instanceof Subject s)) {
            return false;
        }
        for (Principal p : s.getPrincipals()) {
            if (group.equals(p.getName()) && p.getClass().getSimpleName().equals("Group")) {
                return true;
            }
        }
        return false;
    }

    private static Method policyContext() {
        try {
            Class<?> c = Class.forName("jakarta.security.jacc.PolicyContext", false,
                    RealmGroups.class.getClassLoader());
            return c.getMethod("getContext", String.class);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }
}
