package io.muster.jmx;

import io.muster.api.Callers;

import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;
import java.lang.reflect.InvocationTargetException;
import java.security.Principal;

/**
 * Who invokes an operation, for the audit log: the JMX connector's authenticated principal ({@code operator
 * alice}), or {@code operator jmx} when there is none (JMX authentication off, or an in-process caller such as
 * Tomcat's JMX proxy, whose own user only Tomcat's access log names).
 */
final class JmxCaller {
    private JmxCaller() {
    }

    static String operator() {
        Principal p = principal(subject());
        return p == null ? "operator jmx" : Callers.operator(p);
    }

    private static Principal principal(Subject subject) {
        if (subject == null) {
            return null;
        }
        return subject.getPrincipals(JMXPrincipal.class).stream().map(Principal.class::cast).findFirst()
                .orElse(subject.getPrincipals().stream().findFirst().orElse(null));
    }

    /**
     * The caller's subject: {@code Subject.current()} where it exists (Java 18 and later, the only way from
     * Java 23), else the access control context's, which the JMX connector sets on Java 17.
     */
    @SuppressWarnings("removal")
    private static Subject subject() {
        try {
            return (Subject) Subject.class.getMethod("current").invoke(null);
        } catch (NoSuchMethodException java17) {
            return Subject.getSubject(java.security.AccessController.getContext());
        } catch (IllegalAccessException | InvocationTargetException e) {
            return null;
        }
    }
}
