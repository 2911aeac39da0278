/**
 * Muster's probes ({@link io.muster.api.Probes}) as MicroProfile Health checks, for containers that gather such
 * checks into their own {@code /health} (Payara). The check classes are CDI beans and are only ever loaded by a
 * container with CDI and MicroProfile Health; Tomcat never loads them, and Muster's own {@code /health}
 * endpoints answer the same on every container. May import {@code api} only: the verdicts are the probes', so
 * both {@code /health}s agree.
 */
package io.muster.health;
