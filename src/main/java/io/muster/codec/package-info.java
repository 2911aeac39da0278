/**
 * Eureka's JSON and XML wire formats, both directions. The only code that knows field spellings such as
 * {@code "$"}, {@code "@enabled"}, {@code "@class"}, {@code versions__delta} and {@code apps__hashcode}.
 * May import {@code model} only: it writes and reads values, whoever holds them. A document whose parts are held
 * elsewhere (the registry's groups with their live leases) is handed over as an
 * {@link io.muster.codec.AppsDocument} by the caller that knows both.
 */
package io.muster.codec;
