/**
 * Composition root and lifecycle: builds the object graph from configuration, starts and stops it, and mounts
 * Jersey. The only package that may import all the others; nothing imports it, so the object graph is built in this one
 * place.
 */
package io.muster.bootstrap;
