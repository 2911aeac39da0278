/**
 * The server's state and an operator's actions as platform MXBeans under the domain {@code io.muster}, so that
 * JConsole, Tomcat's JMX proxy, Payara's monitoring and Jolokia show them: the registry, each peer, the cluster
 * check, the change streams and the settings in effect. Open types only, each attribute and operation described;
 * registered at start and unregistered at undeploy, so no bean keeps the web application's class loader. Actions
 * follow the dashboard's rules and audit (through {@code api}'s write rules and audit log). May import {@code model}, {@code config},
 * {@code registry}, {@code eviction} (self-preservation's verdict), {@code replication}, {@code status} and
 * {@code api}.
 */
package io.muster.jmx;
