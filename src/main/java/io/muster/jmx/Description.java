package io.muster.jmx;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a bean, attribute or operation means, as JMX consoles show it (read by {@link DescribedBean}); without it
 * they show "Attribute exposed for management" and parameters named p0, p1.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@interface Description {
    String value();

    /** An operation's parameter names, in order. */
    String[] params() default {};
}
