package io.muster.jmx;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The names of one deployment's beans: {@code io.muster:type=Registry,host=<virtual server>,context=/eureka}, and
 * {@code name=} for one of several (a peer). The host and the context path keep two deployments in one JVM (two
 * virtual hosts, two context paths) apart; the root context is {@code context=/}.
 */
final class MBeanNames {
    static final String DOMAIN = "io.muster";
    private final String scope;

    /** @param contextPath the context path as the servlet API or the node spell it ("", "/eureka", "/eureka/") */
    MBeanNames(String host, String contextPath) {
        String context = contextPath == null || contextPath.isEmpty() ? "/" : contextPath;
        if (context.length() > 1 && context.endsWith("/")) {
            context = context.substring(0, context.length() - 1);
        }
        this.scope = ",host=" + value(host == null || host.isEmpty() ? "default" : host) + ",context=" + value(context);
    }

    ObjectName of(String type) {
        return parse(DOMAIN + ":type=" + type + scope);
    }

    ObjectName of(String type, String name) {
        return parse(DOMAIN + ":type=" + type + scope + ",name=" + value(name));
    }

    /** This deployment's beans, for a query. */
    ObjectName pattern() {
        return parse(DOMAIN + ":" + scope.substring(1) + ",*");
    }

    /** Quoted only when it must be, so that common names stay as typed ({@code context=/eureka}). */
    static String value(String v) {
        return v.chars().anyMatch(c -> ",=:\"*?\\\n".indexOf(c) >= 0) ? ObjectName.quote(v) : v;
    }

    private static ObjectName parse(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not an MBean name: " + name, e);
        }
    }
}
