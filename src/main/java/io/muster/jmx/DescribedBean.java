package io.muster.jmx;

import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.ReflectionException;
import javax.management.StandardMBean;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * An MXBean whose descriptions come from {@link Description} on its interface, and whose calls run with the web
 * application's class loader as the context class loader: JMX calls arrive on the container's threads (RMI,
 * Tomcat's manager, Payara's admin), where a logger or a service looked up on the way would otherwise belong to
 * another application.
 */
final class DescribedBean extends StandardMBean {
    private static final Map<String, String> PARAMS = Map.of(
            "app", "the application name, as clients register it (any case), e.g. ORDERS",
            "id", "the instance id, e.g. o-1 (the instanceId clients send, often host:app:port)");
    private final Class<?> type;
    private final ClassLoader loader;

    <T> DescribedBean(T bean, Class<T> type) {
        super(bean, type, true);
        this.type = type;
        this.loader = bean.getClass().getClassLoader();
    }

    @Override
    protected String getDescription(MBeanInfo info) {
        Description d = type.getAnnotation(Description.class);
        return d == null ? super.getDescription(info) : d.value();
    }

    @Override
    protected String getDescription(MBeanAttributeInfo info) {
        Description d = attribute(info.getName());
        return d == null ? super.getDescription(info) : d.value();
    }

    @Override
    protected String getDescription(MBeanOperationInfo info) {
        Description d = operation(info);
        return d == null ? super.getDescription(info) : d.value();
    }

    @Override
    protected String getParameterName(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        Description d = operation(op);
        return d == null || d.params().length <= sequence ? super.getParameterName(op, param, sequence)
                : d.params()[sequence];
    }

    @Override
    protected String getDescription(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        return PARAMS.getOrDefault(getParameterName(op, param, sequence), super.getDescription(op, param, sequence));
    }

    /** Every operation here changes something or does work now; consoles ask before they run ACTION. */
    @Override
    protected int getImpact(MBeanOperationInfo info) {
        return MBeanOperationInfo.ACTION;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException, MBeanException,
            ReflectionException {
        ClassLoader before = enter();
        try {
            return super.getAttribute(attribute);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        ClassLoader before = enter();
        try {
            return super.getAttributes(attributes);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    @Override
    public Object invoke(String action, Object[] params, String[] signature) throws MBeanException,
            ReflectionException {
        ClassLoader before = enter();
        try {
            return super.invoke(action, params, signature);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    private ClassLoader enter() {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(loader);
        return before;
    }

    private Description attribute(String name) {
        for (String prefix : new String[]{"get", "is"}) {
            try {
                return type.getMethod(prefix + name).getAnnotation(Description.class);
            } catch (NoSuchMethodException next) {
                // the other spelling
            }
        }
        return null;
    }

    private Description operation(MBeanOperationInfo info) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(info.getName()) && m.getParameterCount() == info.getSignature().length) {
                return m.getAnnotation(Description.class);
            }
        }
        return null;
    }
}
